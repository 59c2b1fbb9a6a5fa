"""The players' proposals as the ledger keeps them: they outlive the server, a flood and a
proposal twice are refused, and an approval is one transaction."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from chouette.errors import ChouetteError
from chouette.proposals import MOST_WAITING, Proposal
from db import open_ledger
from db.commands import NoLongerValid, approve_proposal, propose, refuse_proposal
from tests.dump import dump

pytestmark = pytest.mark.backends("sqlite", "postgres")

WHEN = datetime(2026, 11, 20, 21, 30, tzinfo=UTC)
TAKE = Proposal("bob", "take", "bob", 1, 0, "double")


@pytest.fixture
def doubled(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "dan", "eve")
    chouette("double", "--by", "box", "bob", "cat")


def test_a_proposal_is_kept_until_answered(doubled, ledger_url):
    with open_ledger(ledger_url, write=True, now=WHEN) as book:
        number = propose(book, book.session("fri"), TAKE)
    with open_ledger(ledger_url, write=False, now=WHEN) as book:  # (a server started again)
        (kept,) = book.proposals(state="waiting")
        assert kept.session_id == book.session("fri").id
    assert (kept.id, kept.proposal, kept.proposed_at, kept.state) == (number, TAKE, WHEN, "waiting")


def test_the_same_proposal_twice_and_a_flood_are_refused(doubled, ledger_url, chouette):
    with open_ledger(ledger_url, write=True, now=WHEN) as book:
        info = book.session("fri")
        propose(book, info, TAKE)
        with pytest.raises(ChouetteError, match="bob proposed this already"):
            propose(book, info, TAKE)
    chouette("pay", "bob", "cat", "0.01", "--advance")  # balances for payments to propose
    with open_ledger(ledger_url, write=True, now=WHEN) as book:
        info = book.session("fri")
        for act in ("drop", "beaver")[: MOST_WAITING - 1]:
            propose(book, info, Proposal("bob", act, "bob", 1, 0, "double"))  # type: ignore[arg-type]
        assert len(book.proposals(state="waiting", player="bob")) == MOST_WAITING
        with pytest.raises(ChouetteError, match=f"bob has {MOST_WAITING} proposals waiting"):
            propose(book, info, Proposal("bob", "pay", payee="cat", cents=1))
        propose(book, info, Proposal("cat", "take", "cat", 1, 0, "double"))  # others still may


def test_a_proposal_forged_for_another_player_is_refused_and_kept_nowhere(doubled, ledger_url):
    before = dump(ledger_url)
    with open_ledger(ledger_url, write=True, now=WHEN) as book:
        info = book.session("fri")
        for forged in (
            Proposal("dan", "take", "bob", 1, 0, "double"),  # another's cube
            Proposal("bob", "take", "bob", 2, 0, "double"),  # another game
            Proposal("bob", "take", "bob", 1, 5, "double"),  # another double
            Proposal("ann", "pay", payee="bob", cents=100),  # a payment nobody owes
        ):
            with pytest.raises(ChouetteError):
                propose(book, info, forged)
    assert dump(ledger_url) == before


def test_an_approval_that_no_longer_applies_writes_nothing(doubled, ledger_url, chouette):
    with open_ledger(ledger_url, write=True, now=WHEN) as book:
        number = propose(book, book.session("fri"), TAKE)
    chouette("drop", "bob")
    before = dump(ledger_url)
    with (
        pytest.raises(NoLongerValid) as stale,
        open_ledger(ledger_url, write=True, now=WHEN) as book,
    ):
        approve_proposal(book, number)
    assert dump(ledger_url) == before  # rolled back whole: still waiting, nothing played
    with open_ledger(ledger_url, write=True, now=WHEN) as book:
        refused = refuse_proposal(book, number, stale.value.reason)
    assert refused.state == "refused"
    assert str(refused.reason) == "the double on bob's cube that bob answered is no longer waiting"
