"""The keeper's door to the players' proposals at the terminal: ``proposals``, ``approve N``
(the line runs as its command would, checked again), ``refuse N --why``."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from chouette.proposals import Proposal
from db import open_ledger
from db.commands import propose
from tests.dump import dump

pytestmark = pytest.mark.backends("sqlite", "postgres")

WHEN = datetime(2026, 11, 20, 21, 30, tzinfo=UTC)


def proposed(url: str, proposal: Proposal, session: str = "fri") -> int:
    """A proposal as a phone makes it (through the same use case): its number."""
    with open_ledger(url, write=True, now=WHEN) as book:
        return propose(book, book.session(session), proposal)


TAKE = Proposal("bob", "take", "bob", 1, 0, "double")
DROP = Proposal("bob", "drop", "bob", 1, 0, "double")


def test_a_proposal_waits_for_the_keeper_and_runs_once_approved(chouette, ledger_url):
    chouette("new", "fri", "ann", "bob", "cat")
    chouette("double", "--by", "box", "bob")
    number = proposed(ledger_url, TAKE)
    listed = chouette("proposals").stdout
    assert "bob takes the box's double" in listed and "waiting" in listed
    assert "2026-11-20" in listed  # when it was proposed, in the reader's time
    (waiting,) = chouette.json("proposals")["proposals"]
    assert waiting | {"proposed_at": None} == {
        "number": number,
        "session": "fri",
        "player": "bob",
        "act": "take",
        "member": "bob",
        "game": 1,
        "payee": None,
        "cents": None,
        "line": "take -- bob",
        "text": "bob takes the box's double",
        "proposed_at": None,
        "state": "waiting",
        "reason": None,
        "decided_at": None,
    }
    out = chouette("approve", str(number)).stdout
    assert out.splitlines()[:2] == [
        f"Proposal {number} approved: bob takes the box's double.",
        "Game 1: bob takes.",
    ]
    assert chouette.json("status")["game"]["cubes"]["bob"]["value"] == 2
    assert chouette("proposals").stdout == "No proposals wait for the keeper.\n"
    before = dump(ledger_url)  # approved once: never run twice
    again = chouette("approve", str(number), code=1)
    assert again.stderr == f"Error: proposal {number} was approved already: nothing written\n"
    assert dump(ledger_url) == before


def test_a_proposal_the_game_moved_past_is_refused_with_its_reason(chouette, ledger_url):
    chouette("new", "fri", "ann", "bob", "cat")
    chouette("double", "--by", "box", "bob")
    number = proposed(ledger_url, DROP)
    chouette("take", "bob")  # the keeper typed the answer meanwhile
    before = dump(ledger_url)
    refused = chouette("approve", str(number), code=1)
    assert refused.stderr == (
        f"Error: proposal {number} no longer applies, so it is refused: the double on bob's "
        "cube that bob answered is no longer waiting\n"
    )
    after = dump(ledger_url)
    assert {k: v for k, v in after.items() if k != "proposal"} == {
        k: v for k, v in before.items() if k != "proposal"
    }  # nothing played: the proposal alone is answered
    (gone,) = chouette.json("proposals", "--all")["proposals"]
    assert (gone["state"], gone["reason"]) == (
        "refused",
        "the double on bob's cube that bob answered is no longer waiting",
    )


def test_the_keeper_refuses_a_proposal_with_a_reason(chouette, ledger_url):
    chouette("new", "fri", "ann", "bob", "cat")
    chouette("double", "--by", "box", "bob")
    number = proposed(ledger_url, TAKE)
    out = chouette("refuse", str(number), "--why", "you said drop at the table").stdout
    assert out == (
        f"Proposal {number} refused: bob takes the box's double (refused by the keeper: you "
        "said drop at the table).\n"
    )
    assert chouette("approve", str(number), code=1).stderr == (
        f"Error: proposal {number} was refused already: nothing written\n"
    )
    assert chouette.json("status")["game"]["cubes"]["bob"]["value"] == 1
    plain = proposed(ledger_url, DROP)
    assert chouette.json("refuse", str(plain))["reason"] == "refused by the keeper"
    assert chouette("refuse", "99", code=1).stderr == "Error: there is no proposal 99\n"


def test_a_payment_proposed_is_booked_as_pay_books_it(chouette, ledger_url):
    chouette("new", "fri", "ann", "bob", "cat")
    chouette("double", "--by", "box", "bob")
    chouette("drop", "bob")  # bob pays the box (ann) 1.00
    chouette("end", "box")  # cat pays ann 1.00
    owed = {(p["from"], p["to"]): p["cents"] for p in chouette.json("settle")["payments"]}
    assert owed[("bob", "ann")] == 100
    number = proposed(ledger_url, Proposal("bob", "pay", payee="ann", cents=100))
    out = chouette("approve", str(number)).stdout
    assert out == (f"Proposal {number} approved: bob paid ann 1.00.\nbob paid ann 1.00 (fri).\n")
    payments = chouette.json("settle")["payments"]
    assert [(p["from"], p["to"]) for p in payments] == [("cat", "ann")]
    later = proposed(ledger_url, Proposal("cat", "pay", payee="ann", cents=100))
    chouette("pay", "cat", "ann", "1.00")  # the keeper booked it meanwhile
    refused = chouette("approve", str(later), code=1)
    assert refused.stderr.startswith(f"Error: proposal {later} no longer applies, so it is ")
    assert "cat owes ann nothing" in refused.stderr or "more than" in refused.stderr


def test_a_refusal_comes_in_the_readers_language(chouette, ledger_url):
    chouette("new", "fri", "ann", "bob", "cat")
    chouette("double", "--by", "box", "bob")
    number = proposed(ledger_url, TAKE)
    chouette("take", "bob")
    danish = chouette("--lang", "da", "approve", str(number), code=1).stderr
    assert danish == (
        f"Fejl: forslag {number} gælder ikke længere og er derfor afvist: doblingen på bobs "
        "terning, som bob svarede på, venter ikke længere\n"
    )
    czech = chouette("--lang", "cs", "proposals", "--all").stdout
    assert "bob přijímá zdvojení bankéře" in czech and "zamítnut" in czech
    assert "zdvojení na kostce hráče bob, na které bob odpověděl, už nečeká" in czech
