"""``chouette settle``: past the number of balances chouette proves the fewest payments for,
the payments are at most n − 1 and the note says so."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from chouette.settlement import EXACT_LIMIT


def test_settle_prints_the_bound_when_the_payments_are_not_proven_fewest(chouette):
    players = [f"p{i:02d}" for i in range(EXACT_LIMIT + 2)]
    chouette("new", "club", *players)
    rng = random.Random(3)
    for payer, payee in pairwise(players):  # a chain of odd amounts
        chouette("pay", payer, payee, f"{rng.randint(1, 999)}.{rng.randint(10, 99)}", "--advance")
    said = chouette("settle")
    out = said.stdout.splitlines()
    count = len(out) - 3  # a heading, a rule, the payments, the fingerprint
    assert out[-1].startswith("Fingerprint of club: ")
    assert said.stderr == (  # a note, on stderr
        f"Note: {count} payments for 26 balances: at most n − 1 = 25, not proven the fewest "
        "(chouette proves that for up to 24 balances).\n"
    )
    assert len(chouette.json("settle")["payments"]) == count
    assert "Note:" not in chouette("settle", "--format", "csv").stdout


@pytest.mark.parametrize(
    ("code", "heading", "message", "refusal"),
    [
        (
            "da",
            ["fra", "til", "beløb"],
            [
                "friday (aftenen 2026-11-20): hvem betaler hvem",
                "bob betaler ann 2,50",
                "cat betaler ann 1,25",
                "alle er kvit",
            ],
            "Fejl: bob er allerede i rækken\n",
        ),
        (
            "cs",
            ["od", "komu", "částka"],
            [
                "friday (večer 2026-11-20): kdo platí komu",
                "bob platí hráči ann 2,50",
                "cat platí hráči ann 1,25",
                "všichni jsou vyrovnáni",
            ],
            "Chyba: bob už je v řadě\n",
        ),
    ],
)
def test_the_settlement_and_a_refusal_read_in_danish_and_czech(
    chouette, monkeypatch, code, heading, message, refusal
):
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "1.25")
    chouette("double", "bob")
    chouette("take", "bob")
    chouette("end", "box")  # ann +3.75: bob pays 2.50, cat 1.25
    monkeypatch.setenv("LANGUAGE", code)
    lines = chouette("settle").stdout.splitlines()
    assert lines[0].split() == heading
    assert [line.split() for line in lines[2:4]] == [["bob", "ann", "2,50"], ["cat", "ann", "1,25"]]
    assert chouette("settle", "--message").stdout.splitlines()[:3] == message[:3]
    assert chouette.json("settle", "--message")["message"].splitlines()[1] == "bob pays ann 2.50"
    assert chouette("join", "bob", code=1).stderr == refusal
    chouette("pay", "bob", "ann", "2.50")
    chouette("pay", "cat", "ann", "1,25")
    assert chouette("settle", "--message").stdout.splitlines()[1] == message[3]
