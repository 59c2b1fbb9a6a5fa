"""The reason for every decision (chouette/game.py, outcome.py, line.py): each rotation,
partnership, booking and refusal says which rule decided it, in plain sentences computed
where the rules decide (a stored game replays the same reasons: ``tests/cli/test_why_cli.py``)."""

from __future__ import annotations

import pytest

from chouette.errors import RuleError
from chouette.game import apply
from chouette.rules import HouseRules
from files.words import words
from tests.table import ev, outcome, play, seats

# ------------------------------------------------------------ the box's retention


@pytest.mark.parametrize(
    ("rules", "events", "why"),
    [
        (HouseRules(), ["end box"], "box stays: captain rule, C lost to the box (-1)"),
        (HouseRules(), ["end team"], "box goes: captain rule, C beat the box (+1)"),
        (HouseRules(), ["deal C 0", "end box"],
         "box goes: captain rule, C dealt at 0 with the box (0)"),
        (HouseRules(edition=3), ["deal C 0", "end team"],
         "box stays: captain rule, C dealt at 0 with the box (as editions 2 and 3 scored it: a "
         "session started since gives the box to the captain)"),
        (HouseRules(edition=1), ["deal C 0", "end box"],
         "box goes: captain rule, C dealt at 0 with the box (0)"),
        (HouseRules(retention="net-profit"), ["double M1", "drop M1", "end team"],
         "box goes: net-profit rule, box 0, not > 0"),
        (HouseRules(retention="net-profit"), ["double C", "drop C", "end box"],
         "box stays: net-profit rule, box +2 > 0"),
        (HouseRules(retention="net-not-loss"), ["double M1", "drop M1", "end team"],
         "box stays: net-not-loss rule, box 0 ≥ 0"),
        (HouseRules(retention="net-not-loss"), ["end team"],
         "box goes: net-not-loss rule, box -2 < 0"),
        (HouseRules(retention="beat-all"), ["end box"],
         "box stays: beat-all rule, the box beat every member"),
        (HouseRules(retention="beat-all"), ["double M1 --by member", "drop M1", "end box"],
         "box goes: beat-all rule, M1 was not beaten"),
    ],
)  # fmt: skip
def test_each_retention_rule_says_why_the_box_stays_or_goes(rules, events, why):
    found = tuple(map(str, outcome(play("B | C, M1", *events, rules=rules)).why))
    assert why in found


# ------------------------------------------------------------ the rotation


@pytest.mark.parametrize(
    ("seated", "rules", "events", "next_line", "why"),
    [
        ("B | C, M1, M2", HouseRules(), ["end box"], "B | M1, M2, C",
         "B keeps the box; C, the captain, goes to the bottom of the line"),
        ("B | C, M1, M2", HouseRules(), ["end team"], "C | M1, M2, B",
         "C takes the box; B goes to the bottom of the line"),
        ("B | C, M1, M2", HouseRules(retention="net-profit"), ["double M1 --by member",
         "drop M1", "double M2 --by member", "drop M2", "end box"], "M1 | M2, C, B",
         "double stand-up: C lost to the box too, so M1, next in line, takes the box; C and "
         "then B go to the bottom of the line"),
        ("B+P | C, M1, M2", HouseRules(partner_from=5), ["end team"], "C+M1 | P, M2, B",
         "C takes the box; B goes to the bottom of the line; P, the box's partner, becomes "
         "captain"),
    ],
)  # fmt: skip
def test_the_rotation_says_who_moved_where(seated, rules, events, next_line, why):
    done = outcome(play(seats(seated, rules), *events, rules=rules))
    assert str(done.next_line.describe()) == next_line
    assert why in tuple(map(str, done.why))


def test_a_partnership_says_why_it_begins_and_ends():
    rules = HouseRules(partner_from=5)
    done = outcome(play(seats("B+P | C, M1, M2", rules), "end team", rules=rules))
    assert tuple(map(str, done.why[-2:])) == (
        "P is no longer the box's partner: the box changed hands",
        "M1 becomes the box's partner: 5 seated, a partner from 5 (the next after the box)",
    )


# ------------------------------------------------------------ the booking


@pytest.mark.parametrize(
    ("rules", "events", "why"),
    [
        (HouseRules(), ["end team gammon"],
         ["the gammon counts single for C and M1: Jacoby, their cubes centred"]),
        (HouseRules(), ["double C", "take C", "end box backgammon"],
         ["the backgammon counts single for M1: Jacoby, M1's cube centred",
          "the backgammon counts in full for C: C's cube was turned (Jacoby)"]),
        (HouseRules(auto_doubles=1), ["auto", "end team gammon"],
         ["the gammon counts single for C and M1: Jacoby, their cubes centred"]),
        (HouseRules(jacoby=False), ["end box gammon"],
         ["the gammon counts in full for C and M1: no Jacoby rule"]),
        (HouseRules(jacoby_scope="any-cube-turned"), ["end box gammon"],
         ["the gammon counts single for C and M1: no cube of the game was turned (Jacoby, "
          "any-cube-turned)"]),
        (HouseRules(jacoby_scope="any-cube-turned"), ["double C", "take C", "end box gammon"],
         ["the gammon counts in full for C and M1: a cube of the game was turned and "
          "accepted (Jacoby, any-cube-turned)"]),
        (HouseRules(resignations="per-member"), ["resign gammon M1", "resign-accept M1"],
         ["the resigned gammon counts single for M1: Jacoby, M1's cube centred"]),
        (HouseRules(), ["end team"], []),
    ],
)  # fmt: skip
def test_how_a_gammon_counts_and_why(rules, events, why):
    game = play("B | C, M1", *events, rules=rules)
    scoring = [str(w) for w in game.why if "counts" in str(w)]
    assert scoring == why


def test_a_gammon_counted_single_under_jacoby_says_so_where_each_cube_ended():
    """The end-of-game message's line for each member (``cat: out, +1 (board; …)``), not
    only the reasons after it."""
    from chouette.report import cube_text

    board = play("B | C, M1", "double C", "take C", "end box gammon")
    assert str(cube_text(board, "C")) == "out, -4 (board)"
    assert str(cube_text(board, "M1")) == "out, -1 (board; the gammon counts single: Jacoby)"
    rules = HouseRules(resignations="per-member")
    resigned = play("B | C, M1", "resign gammon M1", "resign-accept M1", rules=rules)
    assert str(cube_text(resigned, "M1")) == (
        "out, +1 (M1 accepted the box's resignation of a gammon; the gammon counts single: Jacoby)"
    )


def test_the_partners_share_and_the_pairs_stakes_say_why():
    rules = HouseRules(partner_from=4)
    game = play(seats("B+P | C, M1", rules), "end team", rules=rules)
    done = outcome(game, {"B": 200, "P": 200, "C": 100, "M1": 200})
    assert tuple(map(str, done.why[:2])) == (
        "C and B play at 1.00 a point, the lower of their stakes (1.00 and 2.00)",
        "P, the box's partner, takes 50% of the box side's -2: -1, and the box -1 "
        "(partner-share 50)",
    )


# ------------------------------------------------------------ the captain out


def test_the_captain_drops_and_the_acting_captain_plays_the_board_keeping_the_seat():
    game = play("B | C, M1, M2", "double C M1", "drop C", "take M1")
    assert tuple(map(str, game.why)) == (
        "the captain, C, is out (C dropped): M1 is acting captain; C's own result decides the "
        "rotation (acting-captain keep-seat)",
    )
    done = outcome(apply(game, ev("end team")))
    assert "box stays: captain rule, C lost to the box (-1)" in tuple(map(str, done.why))


def test_the_captain_drops_and_the_acting_captain_inherits_the_seat():
    rules = HouseRules(acting_captain="inherit")
    game = play("B | C, M1, M2", "double C M1", "drop C", "take M1", rules=rules)
    assert tuple(map(str, game.why)) == (
        "the captain, C, is out (C dropped): M1 is acting captain and takes the captain's seat "
        "(acting-captain inherit); C, who lost, goes to the bottom of the line at once",
    )
    done = outcome(apply(game, ev("end team")))
    assert "box goes: captain rule, M1 (the captain by inherit) beat the box (+2)" in tuple(
        map(str, done.why)
    )


def test_an_acting_captain_out_in_turn_hands_the_board_on():
    game = play("B | C, M1, M2", "double C", "drop C", "double M1", "drop M1")
    assert str(game.why[-1]) == (
        "the acting captain, M1, is out (M1 dropped): M2 is acting captain; C's own result "
        "decides the rotation (acting-captain keep-seat)"
    )


# ------------------------------------------------------------ refusals name their rule


@pytest.mark.parametrize(
    ("rules", "events", "event", "message"),
    [
        (HouseRules(beavers=False, raccoons=False), ["double C"], "beaver C",
         "C cannot beaver: beavers are off in this session (house rule --no-beavers)"),
        (HouseRules(raccoons=False), ["double C", "beaver C"], "raccoon C",
         "B cannot raccoon: raccoons are off in this session (house rule --no-raccoons)"),
        (HouseRules(beavers_by="team"), ["double C --by member"], "beaver C",
         "B cannot beaver: only the team's members may beaver in this session (house rule "
         "beavers-by team)"),
        (HouseRules(beaver_limit=1), ["double C", "beaver C"], "raccoon C",
         "B cannot raccoon: C's cube has had a beaver on this double, the limit (beaver-limit 1)"),
        (HouseRules(max_cube=2), ["double C", "take C"], "double C --by member",
         "C cannot double: the cube would pass the maximum of 2 (house rule max-cube 2)"),
        (HouseRules(box_doubles="same-level"), [], "double C",
         "the box must double M1 too: under box-doubles same-level every cube at the same "
         "level doubles together"),
        (HouseRules(box_doubles="with-captain"), [], "double M1",
         "the box must double the captain, C, too: under box-doubles with-captain the "
         "captain's cube is doubled whenever the box doubles a cube at its level (M1 at 1)"),
        (HouseRules(box_takes="half"), ["double C --by member", "double M1 --by member"],
         "take C", None),
        (HouseRules(box_takes="half"), ["double C --by member", "double M1 --by member",
         "take C"], "drop M1",
         "the box cannot drop M1's double: with two members the box takes both doubles (C "
         "and M1) or drops both (house rule box-takes half; it took C's and did not take "
         "M1's)"),
        (HouseRules(mandatory_beaver=True), ["double C M1", "drop M1"], "take C",
         "C is the only one to take the box's double: under the house rule mandatory-beaver C "
         "must beaver or drop"),
        (HouseRules(deals=False), [], "deal C 1",
         "deals are off in this session (house rule --no-deals: no settlements): play the "
         "game out"),
        (HouseRules(), [], "extra C M1",
         "extras are off in this session (house rule --extras)"),
        (HouseRules(extras=True), ["extra C M1"], "double-extra C M1",
         "an extra's cube is not redoubled in this session (house rule --extra-redoubles)"),
        (HouseRules(), [], "resign single C",
         "the box resigns the whole board in this session: end team --resigned (house rule "
         "--resignations per-member lets it resign to some members)"),
        (HouseRules(), [], "carry accept 1",
         "automatic doubles do not carry over in this session (house rule auto-past-limit "
         "ignored)"),
    ],
)  # fmt: skip
def test_each_refusal_names_the_house_rule_that_decided_it(rules, events, event, message):
    game = play("B | C, M1", *events, rules=rules)
    if message is None:  # (the first answer of a round: allowed)
        apply(game, ev(event))
        return
    with pytest.raises(RuleError) as refused:
        apply(game, ev(event))
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("code", "why"),
    [
        (
            "da",
            [
                "boksen går: kaptajnsreglen, C slog boksen (+2)",
                "C overtager boksen; B går nederst i rækken",
            ],
        ),
        (
            "cs",
            [
                "bankéř odchází: pravidlo kapitána, C porazil bankéře (+2)",
                "C se stává bankéřem; B jde na konec řady",
            ],
        ),
    ],
)
def test_the_reasons_read_in_danish_and_czech(code, why):
    done = outcome(play("B | C, M1", "double C", "take C", "end team"))
    assert [str(reason) for reason in done.why] == [
        "box goes: captain rule, C beat the box (+2)",
        "C takes the box; B goes to the bottom of the line",
    ]
    assert [words(code)(reason) for reason in done.why] == why


@pytest.mark.parametrize(
    ("code", "why", "ended"),
    [
        (
            "da",
            [
                "gammonen tæller enkelt for M1: Jacoby, M1s terning i midten",
                "gammonen tæller fuldt for C: Cs terning blev vendt (Jacoby)",
            ],
            ["ude, -4 (brættet)", "ude, -1 (brættet; gammonen tæller enkelt: Jacoby)"],
        ),
        (
            "cs",
            [
                "gammon platí jednoduše pro M1: Jacoby, kostka hráče M1 uprostřed",
                "gammon platí naplno pro C: kostka hráče C byla otočena (Jacoby)",
            ],
            ["mimo hru, -4 (deska)", "mimo hru, -1 (deska; gammon platí jednoduše: Jacoby)"],
        ),
    ],
)
def test_how_a_gammon_counts_reads_in_danish_and_czech(code, why, ended):
    from chouette.report import cube_text

    game = play("B | C, M1", "double C", "take C", "end box gammon")
    assert [str(reason) for reason in game.why] == [
        "the gammon counts single for M1: Jacoby, M1's cube centred",
        "the gammon counts in full for C: C's cube was turned (Jacoby)",
    ]
    assert [words(code)(reason) for reason in game.why] == why
    assert [words(code)(cube_text(game, m)) for m in ("C", "M1")] == ended


@pytest.mark.parametrize(
    ("code", "why"),
    [
        (
            "da",
            "kaptajnen, C, er ude (C droppede): M1 er fungerende kaptajn; Cs eget resultat "
            "afgør rotationen (acting-captain keep-seat)",
        ),
        (
            "cs",
            "kapitán C je mimo hru (C nepřijal): zastupujícím kapitánem je M1; o rotaci "
            "rozhoduje vlastní výsledek hráče C (acting-captain keep-seat)",
        ),
    ],
)
def test_the_acting_captain_reads_in_danish_and_czech(code, why):
    game = play("B | C, M1, M2", "double C M1", "drop C", "take M1")
    assert [words(code)(reason) for reason in game.why] == [why]


def test_a_captains_resignation_reads_in_danish_and_czech():
    from chouette.game import CaptainResign

    rules = HouseRules(captain_resigns="takeover")
    game = apply(play("B | C, M1, M2", rules=rules), CaptainResign("gammon", "M1"))
    assert str(game.why[0]) == (
        "C, the captain, resigns a gammon (-1): M1 takes over the captain's place and C goes "
        "to the bottom of the line (captain-resigns takeover)"
    )
    assert words("da")(game.why[0]) == (
        "C, kaptajnen, opgiver en gammon (-1): M1 overtager kaptajnens plads, og C går "
        "nederst i rækken (captain-resigns takeover)"
    )
    assert words("cs")(game.cubes["C"].ended_by) == "C vzdal"
