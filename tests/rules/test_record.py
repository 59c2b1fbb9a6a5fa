"""The chouette game record (chouette/record.py): read strictly (one value, an array or JSON
lines; a key given twice refused), and checked against the seats it is played on."""

from __future__ import annotations

import json

import pytest

from chouette.errors import RecordError
from chouette.record import check_seats, parse_record, play_record, read_records
from chouette.rules import HouseRules
from files.words import words
from tests.table import play, seats

# ------------------------------------------------------------ read strictly


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "a": 2}',
        '[{"result": {"winner": "box", "winner": "team"}}]',
        '{"events": [{"act": "take", "member": "b", "member": "c"}]}',
        '{"a": 1}\n{"b": {"c": 1, "c": 1}}',
    ],
)
def test_a_key_given_twice_anywhere_is_refused(text):
    with pytest.raises(RecordError, match="is given twice in one object"):
        read_records(text, "record")


def test_records_are_one_value_an_array_or_json_lines():
    one = '{"result": {"winner": "box"}}'
    assert read_records(one, "r") == [("r", {"result": {"winner": "box"}})]
    # where each record is, said in the reader's words: ``str()`` is the English
    assert [str(w) for w, _ in read_records(f"[{one}, {one}]", "r")] == [
        "r record 1",
        "r record 2",
    ]
    assert [str(w) for w, _ in read_records(f"{one}\n\n{one}\n", "r")] == ["r line 1", "r line 3"]
    pretty = json.dumps({"result": {"winner": "box"}}, indent=2)
    assert read_records(pretty, "r") == [("r", {"result": {"winner": "box"}})]
    # JSON allows a raw line or paragraph separator inside a string: it ends no JSON line
    odd = '{"session": "fri\u2028day", "note": "a\x85b"}'
    assert [(str(w), data) for w, data in read_records(f"{odd}\n{one}\n", "r")] == [
        ("r line 1", {"session": "fri\u2028day", "note": "a\x85b"}),
        ("r line 2", {"result": {"winner": "box"}}),
    ]
    with pytest.raises(RecordError, match="nested too deeply"):
        read_records("[" * 100_000, "r")
    with pytest.raises(RecordError, match="NaN is not a number a record can hold"):
        read_records('{"x": NaN}', "r")


# ------------------------------------------------------------ the chouette record


def test_a_record_naming_the_wrong_partner_is_refused():
    line = seats("B+P | C, M1, M2")
    with pytest.raises(
        RecordError, match="record: its 'partner' is M1, but the box's partner is P"
    ):
        check_seats(parse_record({"partner": "M1"}), line)
    check_seats(parse_record({"partner": "P"}), line)


def test_a_record_naming_a_partner_where_there_is_none_is_refused():
    line = seats("B | C, M1")
    with pytest.raises(
        RecordError, match="its 'partner' is C, but the box plays without a partner"
    ):
        check_seats(parse_record({"partner": "C"}), line)
    check_seats(parse_record({"partner": None}), line)
    with pytest.raises(RecordError, match="its 'partner' is nobody, but the box's partner is P"):
        check_seats(parse_record({"partner": None}), seats("B+P | C, M1"))


def test_a_record_of_a_game_with_a_partner_names_the_partner():
    from chouette.record import to_record

    game = play("B+P | C, M1", "end box")
    record = to_record(game)
    assert record["partner"] == "P"
    again, _ = play_record(parse_record(record), game.start_line, HouseRules())
    assert again == game


# ------------------------------------------------------------ in the reader's words


def test_a_records_refusal_is_said_in_the_readers_words():
    """Where the record is (its file, line and event), the event as typed and the rules' own
    refusal, each rendered in the reader's words; ``str()`` is the English."""
    text = '{"line": ["B", "C", "M1"], "events": [{"act": "take", "member": "C"}]}\n{}\n'
    (where, data), _ = read_records(text, "games.jsonl")
    with pytest.raises(RecordError) as refused:
        play_record(parse_record(data, where), seats("B | C, M1"), HouseRules(), where)
    assert str(refused.value) == (
        "games.jsonl line 1, event 1 (take C): there is no double on C's cube to take"
    )
    assert words("da")(refused.value.said) == (
        "games.jsonl linje 1, hændelse 1 (take C): der er ingen dobling på Cs terning at tage"
    )
    assert words("cs")(refused.value.said) == (
        "games.jsonl řádek 1, událost 1 (take C): na kostce hráče C není žádné zdvojení, "
        "které by šlo přijmout"
    )


def test_a_records_seats_refused_in_danish_and_czech():
    with pytest.raises(RecordError) as refused:
        check_seats(parse_record({"partner": "C"}), seats("B | C, M1"))
    assert words("da")(refused.value.said) == (
        "posten: dens 'partner' er C, men boksen spiller uden partner"
    )
    assert words("cs")(refused.value.said) == (
        "záznam: jeho 'partner' je C, ale bankéř hraje bez partnera"
    )
    with pytest.raises(RecordError) as twice:
        read_records('{"a": 1, "a": 2}', "r")
    assert words("cs")(twice.value.said) == "r: 'a' je v jednom objektu uveden dvakrát"
