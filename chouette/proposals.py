"""What a player may propose from their phone, for the keeper to approve.

A player proposes a line **about themselves** only, never another player's:

- an answer (``take``, ``drop``, ``beaver``) to a double that waits on **them**: a double
  of the box on their own cube (they are its member), or a member's double that the box
  answers (they are the box). Who answers follows from who doubled
  (:attr:`chouette.game.Offer.answerer`); in single-cube play the captain answers the box
  for the team and the box answers the team. It must apply to the game as it stands (the
  rules are asked: :func:`chouette.game.apply`), so a follower whose captain answers for
  them, a beaver the house rules forbid, an answer the box's obligations refuse are not
  offered;
- a payment **they made**: a line of the settlement as it stands, where they are the
  payer (to whom and how much, as the settlement says).

A proposal remembers what it answered: the game's number and the double's exchange (its
``origin`` and ``stage``). When the keeper approves it, it is checked again against the
game then (:func:`check_answer`): a double answered meanwhile, a later double on the same
cube, another game, and it is refused with the reason, never applied to something the
player did not see. A payment is booked by the same use case as ``chouette pay``, which
refuses one the payer no longer owes.

Pure: the game and the settlement are given; the ledger keeps the proposals
(``db/``), the doors show them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from chouette.errors import ChouetteError, RuleError
from chouette.game import Answer, Game, apply
from chouette.money import Cents, format_money
from chouette.settlement import Payment
from chouette.words import Money, Said, said

Act = Literal["take", "drop", "beaver", "pay"]
ANSWER_ACTS: tuple[Act, ...] = ("take", "drop", "beaver")
ACTS: tuple[Act, ...] = (*ANSWER_ACTS, "pay")
#: The most proposals one player may have waiting for the keeper at once, per session
#: (a phone that floods the keeper's page is refused past it).
MOST_WAITING = 3

State = Literal["waiting", "approved", "refused"]


@dataclass(frozen=True)
class Proposal:
    """What ``player`` proposes: an answer ``act`` on ``member``'s cube in game ``game``
    (the double that began the exchange at ``origin``, at ``stage``), or (``pay``) a
    payment of ``cents`` to ``payee``."""

    player: str
    act: Act
    member: str = ""
    game: int = 0
    origin: int = -1
    stage: str = ""
    payee: str = ""
    cents: Cents = 0

    def words(self) -> list[str]:
        """The command line that carries it out, in the CLI's own words (what the keeper's
        approval runs): ``take -- bob``, ``pay -- bob ann 12.50``."""
        if self.act == "pay":
            return ["pay", "--", self.player, self.payee, format_money(self.cents)]
        return [self.act, "--", self.member]

    def told(self) -> Said:
        """What it proposes, in a few words (the keeper's page and the phone show it)."""
        if self.act == "pay":
            return said(
                "{player} paid {payee} {amount}",
                player=self.player,
                payee=self.payee,
                amount=Money(self.cents),
            )
        told = ANSWER_TOLD[(self.act, self.player == self.member)]
        return replace(told, values=(("player", self.player), ("member", self.member)))


#: An answer proposed, in words: a member's to the box's double, the box's to a member's.
ANSWER_TOLD: dict[tuple[Act, bool], Said] = {
    ("take", True): said("{player} takes the box's double"),
    ("drop", True): said("{player} drops the box's double"),
    ("beaver", True): said("{player} beavers the box's double"),
    ("take", False): said("{player} takes {member}'s double"),
    ("drop", False): said("{player} drops {member}'s double"),
    ("beaver", False): said("{player} beavers {member}'s double"),
}


def answerer(game: Game, member: str) -> str | None:
    """Who answers the double waiting on ``member``'s cube (the member, or the box), or
    None if none waits there."""
    cube = game.cubes.get(member)
    if cube is None or cube.offer is None or not cube.live:
        return None
    return member if cube.offer.answerer == "member" else game.box


def answers_open(game: Game | None, number: int, player: str) -> tuple[Proposal, ...]:
    """Every answer ``player`` may propose now in game ``number`` (``game``: the game in
    progress, None between games): to each double waiting on them, each act the rules
    allow."""
    if game is None or game.over:
        return ()
    found = []
    for member in game.members:
        if answerer(game, member) != player:
            continue
        offer = game.cubes[member].offer
        assert offer is not None
        for act in ANSWER_ACTS:
            try:
                apply(game, Answer(act, member))  # type: ignore[arg-type]
            except ChouetteError:
                continue
            found.append(Proposal(player, act, member, number, offer.origin, offer.stage))
    return tuple(found)


def check_answer(game: Game | None, number: int, proposal: Proposal) -> None:
    """Refuse (a :class:`RuleError` naming why) an answer that is not ``proposal.player``'s
    to give on the game as it stands (``game``, number ``number``; None between games)."""
    if proposal.act not in ANSWER_ACTS:
        raise RuleError(said("{act} is no answer to a double", act=proposal.act))
    player, member = proposal.player, proposal.member
    if game is None or game.over or number != proposal.game:
        raise RuleError(
            said(
                "game {number} is over: {player}'s answer no longer applies",
                number=proposal.game,
                player=player,
            )
        )
    if member not in game.cubes:
        raise RuleError(said("{member} is not playing this game", member=member))
    offer = game.cubes[member].offer
    if offer is None or (offer.origin, offer.stage) != (proposal.origin, proposal.stage):
        raise RuleError(
            said(
                "the double on {member}'s cube that {player} answered is no longer waiting",
                member=member,
                player=player,
            )
        )
    if answerer(game, member) != player:
        raise RuleError(
            said(
                "{player} does not answer the double on {member}'s cube: a player proposes "
                "only their own decisions",
                player=player,
                member=member,
            )
        )
    apply(game, Answer(proposal.act, member))  # type: ignore[arg-type]


def check_payment(payments: Sequence[Payment], proposal: Proposal) -> None:
    """Refuse a payment that is not a line of the settlement ``payments`` as it stands with
    ``proposal.player`` paying: a player proposes only a payment they make, as settled."""
    if proposal.act != "pay":
        raise RuleError(said("{act} is no payment", act=proposal.act))
    line = (proposal.player, proposal.payee, proposal.cents)
    if not any((p.payer, p.payee, p.cents) == line for p in payments):
        raise RuleError(
            said(
                "{player} does not pay {payee} {amount} in the settlement now: a player "
                "proposes only a payment they make, as the settlement says it",
                player=proposal.player,
                payee=proposal.payee,
                amount=Money(proposal.cents),
            )
        )


def check_waiting(player: str, waiting: int) -> None:
    """Refuse a proposal past :data:`MOST_WAITING` of ``player``'s waiting at once."""
    if waiting >= MOST_WAITING:
        raise RuleError(
            said(
                "{player} has {count} proposals waiting for the keeper, the most at once: "
                "wait for the keeper's answer",
                player=player,
                count=waiting,
            )
        )
