"""``chouette settle``: past the number of balances chouette proves the fewest payments for,
the payments are at most n − 1 and the note says so."""

from __future__ import annotations

import random
from itertools import pairwise

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
