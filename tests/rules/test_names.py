"""A typed name means a player whatever its case (``BOB`` is bob); an unknown name is refused
with the closest names suggested; two players of one session never differ only in case, nor
only look alike (Unicode's confusables, UTS #39); a new player is written as the ledger writes
that person, or asked about when the name only looks like a known player's."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.confusables import PROTOTYPES, VERSION
from chouette.errors import LineError, PlayerError
from chouette.line import join, new_line
from chouette.names import Known, as_known, closest, did_you_mean, look_alike, looks, match, resolve
from chouette.rules import HouseRules

SEATED = ("ann", "bob", "Zoë", "Big Al")


MEANS = [
    ("bob", "bob"),
    ("BOB", "bob"),
    ("Bob", "bob"),
    ("zoë", "Zoë"),
    ("ZOË", "Zoë"),
    ("big al", "Big Al"),
    ("bobby", None),
    ("zed", None),
]


@pytest.mark.parametrize(("typed", "player"), MEANS)
def test_a_typed_name_means_the_player_it_differs_from_only_in_case(typed, player):
    assert match(typed, SEATED) == player


def test_the_exact_spelling_wins_and_a_name_that_could_be_two_is_refused():
    older = ("bob", "Bob", "ann")  # a ledger written before case twins were refused
    assert match("Bob", older) == "Bob" and match("bob", older) == "bob"
    with pytest.raises(PlayerError, match="BOB could be bob or Bob: type the name exactly"):
        match("BOB", older)


SUGGESTIONS = [
    ("bbo", "; did you mean bob?"),
    ("zoe", "; did you mean Zoë?"),
    ("BIG AL.", "; did you mean Big Al?"),
    ("xavier", ""),
]


@pytest.mark.parametrize(("typed", "said"), SUGGESTIONS)
def test_an_unknown_name_suggests_the_closest_names(typed, said):
    assert did_you_mean(typed, SEATED) == said


def test_several_close_names_are_listed_closest_first():
    assert closest("dan", ["don", "dean", "ann", "zed"]) == ["dean", "don", "ann"]
    assert did_you_mean("dan", ["don", "dean", "ann"]) == "; did you mean dean, don or ann?"


def test_resolve_refuses_a_name_that_means_nobody_in_the_callers_words():
    assert resolve("ANN", SEATED, "is not in the line") == "ann"
    with pytest.raises(PlayerError) as refused:
        resolve("bbo", SEATED, "is not in the line")
    assert str(refused.value) == "bbo is not in the line; did you mean bob?"


@given(st.sampled_from(SEATED), st.lists(st.booleans(), min_size=6, max_size=6))
def test_every_case_of_a_seated_name_means_that_player(name, upper):
    typed = "".join(c.upper() if u else c.lower() for c, u in zip(name, upper * 2, strict=False))
    assert match(typed, SEATED) == name


def test_a_new_line_refuses_two_names_that_differ_only_in_case():
    with pytest.raises(LineError, match="bob and BOB differ only in case"):
        new_line(["ann", "bob", "BOB"], HouseRules())
    line = new_line(["ann", "bob"], HouseRules())
    with pytest.raises(LineError, match="bob is already in the line, and Bob differs only"):
        join(line, "Bob", HouseRules())


# ------------------------------------------------------------ names that look alike (UTS #39)

#: (a name, another that looks like it) — the issue's, and the kinds Unicode's data knows.
ALIKE = [
    ("ann", "\u0430nn"),  # a Cyrillic а
    ("Ann", "\u0410nn"),  # a Cyrillic А
    ("bob", "\uff22\uff2f\uff22"),  # fullwidth ＢＯＢ
    ("BOB", "\uff42\uff4f\uff42"),  # fullwidth ｂｏｂ
    ("Ian", "lan"),  # a capital I and a small l
    ("Al", "A1"),  # a small l and a one
    ("Zoë", "Zo\u0435\u0308"),  # a Cyrillic е and a combining diaeresis
]
NOT_ALIKE = [("bob", "rob"), ("ann", "anna"), ("Zoë", "Zoe"), ("bob", "BOB"), ("M1", "M2")]


@pytest.mark.parametrize(("name", "other"), ALIKE)
def test_names_that_look_alike_are_found_both_ways(name, other):
    assert look_alike(other, [name]) == name
    assert look_alike(name, ["zed", other]) == other


@pytest.mark.parametrize(("name", "other"), NOT_ALIKE)
def test_names_that_do_not_look_alike_or_differ_only_in_case_are_not(name, other):
    assert look_alike(other, [name]) is None  # (case twins are case_twin's)


@pytest.mark.parametrize(("name", "other"), ALIKE[:4])
def test_one_session_refuses_names_that_look_alike_as_named_twice(name, other):
    message = f"{name} and {other} look alike: one player named twice"
    with pytest.raises(LineError, match=message):
        new_line(["zed", name, other], HouseRules())
    with pytest.raises(LineError, match=message):
        join(new_line(["zed", name], HouseRules()), other, HouseRules())


LATIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: Each character Unicode says looks like a Latin letter, by that letter.
LOOKALIKES = {
    letter: sorted(c for c, p in PROTOTYPES.items() if p == letter and c != letter)
    for letter in LATIN
}


@given(st.text(alphabet=LATIN, min_size=1, max_size=12), st.data())
def test_law_a_name_with_any_letter_swapped_for_its_confusable_looks_like_it(name, data):
    """Any letter of a Latin name replaced by a character Unicode's data says looks like it:
    the two look alike (or differ only in case, which case_twin refuses), both ways."""
    places = [i for i, c in enumerate(name) if LOOKALIKES.get(c)]
    if not places:
        return
    at = data.draw(st.sampled_from(places))
    other = name[:at] + data.draw(st.sampled_from(LOOKALIKES[name[at]])) + name[at + 1 :]
    assert looks(name) & looks(other)
    if other.casefold() != name.casefold():
        assert look_alike(other, [name]) == name and look_alike(name, [other]) == other


KNOWN = ("Zoë", "bob", "ann")


@pytest.mark.parametrize(
    ("typed", "name", "note"),
    [
        ("Zoë", "Zoë", None),
        ("ZOË", "Zoë", "ZOË is written Zoë, as the ledger writes that player"),
        ("BOB", "bob", "BOB is written bob, as the ledger writes that player"),
        ("cat", "cat", None),
    ],
)
def test_a_new_player_is_written_as_the_ledger_writes_that_person(typed, name, note):
    known = as_known(typed, KNOWN, confirm="--new-player")
    assert known.name == name
    assert (None if known.said is None else str(known.said)) == note


def test_a_name_that_only_looks_like_a_known_player_is_asked_about():
    with pytest.raises(PlayerError) as asked:
        as_known("\uff22\uff2f\uff22", KNOWN, confirm="--new-player \uff22\uff2f\uff22")
    assert str(asked.value) == (
        "ＢＯＢ looks like bob, who has played in this ledger: type bob to mean that player, "
        "or give --new-player ＢＯＢ if ＢＯＢ is someone else"
    )
    confirmed = as_known("\uff22\uff2f\uff22", KNOWN, confirm="--new-player", new=True)
    assert confirmed == Known("\uff22\uff2f\uff22")
    with pytest.raises(PlayerError, match="BOB could be bob or Bob, who have played"):
        as_known("BOB", ("bob", "Bob"), confirm="--new-player")  # an older ledger's two


@given(st.sampled_from([*KNOWN, "ZOË", "zoë", "BOB", "Ann", "cat", "Cat"]))
def test_law_a_spelling_the_ledger_gave_is_kept_as_it_is(typed):
    """as_known is idempotent: the name it gives is the ledger's, or new, and is given again."""
    first = as_known(typed, KNOWN, confirm="--new-player")
    again = as_known(first.name, KNOWN, confirm="--new-player")
    assert again == Known(first.name)
    assert first.name in KNOWN or first.name == typed


def test_the_table_is_made_from_unicodes_data_file_in_the_clone():
    """chouette/confusables.py is what chouette/unicode/make_confusables.py makes of
    confusables.txt (kept with its licence and source)."""
    import importlib.util

    from tests.paths import ROOT

    folder = ROOT / "chouette" / "unicode"
    spec = importlib.util.spec_from_file_location(
        "make_confusables", folder / "make_confusables.py"
    )
    assert spec is not None and spec.loader is not None
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    table, header = maker.read(folder / "confusables.txt")
    assert maker.module(table, header) == (ROOT / "chouette/confusables.py").read_text("utf-8")
    assert header["Version"] == VERSION and len(PROTOTYPES) == len(table) > 6000
    assert "Unicode-3.0" in (folder / "LICENSE").read_text("utf-8")
    assert "ec88ecebcf89f63f" in (folder / "SOURCE.md").read_text("utf-8")


@pytest.mark.parametrize(
    ("code", "refusal"),
    [
        ("en", "dna is not in the line; did you mean don or dan?"),
        ("da", "dna er ikke i rækken; mente du don eller dan?"),
        ("cs", "dna není v řadě; mysleli jste don nebo dan?"),
    ],
)
def test_a_refused_name_and_the_names_it_may_mean_read_in_each_language(code, refusal):
    from chouette.words import said
    from files.words import words

    with pytest.raises(PlayerError) as refused:
        resolve("dna", ["dean", "dan", "don", "ann"], "is not in the line")
    assert words(code)(refused.value.said) == refusal
    with pytest.raises(PlayerError) as own:  # a command's own sentence, its {player} the name
        resolve("zed", ["ann"], said("{player} is not in the line"))
    assert words(code)(own.value.said) == refusal.split(";")[0].replace("dna", "zed")
