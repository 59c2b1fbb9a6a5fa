"""Engine files into the ledger: every sample game booked as gnubg scored it, once."""

from __future__ import annotations

import hashlib
import json

import pytest
from sqlalchemy import (
    Column,
    Connection,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    Table,
    create_engine,
    text,
)

from db.models import BookingRow
from tests.samples import SAMPLES

pytestmark = pytest.mark.backends("sqlite", "postgres")

MANIFEST = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))
MONEY = [f for f in MANIFEST["files"] if f["kind"] == "money"]


def jacoby_flag(entry):
    return "--jacoby" if "Jacoby" in entry["rules"] else "--no-jacoby"


@pytest.mark.parametrize("entry", MONEY, ids=[f["path"] for f in MONEY])
def test_every_sample_game_is_booked_with_the_manifests_winner_and_points(chouette, entry):
    p0, p1 = entry["players"]
    chouette("new", "money", p0, p1, jacoby_flag(entry))
    out = chouette("import", str(SAMPLES / entry["path"])).stdout
    assert f"{entry['num_games']} games booked into money" in out
    sheet = chouette.json("sheet")
    assert len(sheet["games"]) == entry["num_games"]
    for truth, game in zip(entry["games"], sheet["games"], strict=True):
        assert game["points"] == {
            truth["winner"]: truth["points_won"],
            truth["loser"]: -truth["points_won"],
        }, truth["game"]
    final = dict(zip(entry["players"], entry["final_score"], strict=True))
    totals = {p["name"]: p["points"] for p in chouette.json("standings")["players"]}
    assert totals[p0] == -totals[p1] == final[p0] - final[p1]
    chouette("check")


def test_importing_the_same_file_again_books_nothing(chouette):
    entry = MONEY[0]
    chouette("new", "money", *entry["players"])
    path = str(SAMPLES / entry["path"])
    chouette("import", path)
    again = chouette("import", path).stdout
    assert "was imported already (50 games into money on 2026-11-20): nothing booked" in again
    assert len(chouette.json("sheet")["games"]) == 50


def test_a_game_a_neutral_record_cited_is_skipped_when_its_file_comes(chouette, tmp_path):
    entry = MONEY[0]
    p0, p1 = entry["players"]
    chouette("new", "money", p0, p1, jacoby_flag(entry))
    path = SAMPLES / entry["path"]
    cited = {
        **NEUTRAL[0],
        "winner": p0,
        "loser": p1,
        "source": {"sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "game_index": 2},
    }
    record = tmp_path / "cited.jsonl"
    record.write_text(json.dumps(cited) + "\n", encoding="utf-8")
    chouette("import", str(record))
    again = chouette("import", str(record)).stdout
    assert (
        again
        == "cited.jsonl was imported already (1 game into money on 2026-11-20): nothing booked\n"
    )
    out = chouette("import", str(path)).stdout
    games = entry["num_games"]
    assert out.startswith(
        f"{path.name}: {games - 1} games booked into money, 1 already in the ledger"
    )
    assert len(chouette.json("sheet")["games"]) == games
    chouette("check")


def test_undo_takes_back_a_whole_import_which_can_then_go_to_the_right_session(chouette):
    chouette("new", "right", "Alice", "Bob")
    chouette("new", "wrong", "Alice", "Bob")
    first = SAMPLES / "gnubg/mat/s01_money_jacoby_beavers3.mat"
    second = SAMPLES / "gnubg/mat/s05_money_nocube.mat"
    chouette("import", str(first))
    booked_first = chouette.json("standings")
    chouette("import", str(second), "--as", "gnubgA=Alice", "--as", "gnubgB=Bob")
    assert len(chouette.json("sheet")["games"]) == 70

    said = chouette("undo").stdout
    assert said == "Undone: took back the import of s05_money_nocube.mat (games 51–70).\n"
    assert chouette.json("standings") == booked_first
    said = chouette("undo").stdout
    assert said == f"Undone: took back the import of {first.name} (games 1–50).\n"
    assert chouette.json("sheet")["games"] == []
    assert {p["cents"] for p in chouette.json("standings")["players"]} == {0}
    refused = chouette("undo", code=1)
    assert "nothing to undo in wrong: no game has been played" in refused.stderr
    chouette("check")

    out = chouette("--session", "right", "import", str(first)).stdout
    assert out.startswith(f"{first.name}: 50 games booked into right.")
    chouette("check")


def test_undo_takes_back_a_live_game_played_after_an_import_first(chouette):
    chouette("new", "club", "ann", "bob", "cat")
    path = SAMPLES / "gnubg/mat/s05_money_nocube.mat"
    chouette("import", str(path), "--as", "gnubgA=ann", "--as", "gnubgB=bob")
    chouette("double", "bob")
    said = chouette("undo").stdout
    assert said == "Undone: took back double bob --by box (game 21 has not started now).\n"
    said = chouette("undo").stdout
    assert said == "Undone: took back the import of s05_money_nocube.mat (games 1–20).\n"


def without_charges(raw: Connection) -> None:
    """Schema 13 taken out of a ledger: the charge table and booking's charge_id. SQLite
    cannot drop a column its table names in a foreign key: there booking is made again, as
    the models make it but for that column, and its rows copied."""
    if raw.dialect.name == "sqlite":
        raw.execute(text("ALTER TABLE booking RENAME TO booking_13"))
        for (index,) in raw.execute(
            text("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'booking_13'")
        ).all():
            raw.execute(text(f"DROP INDEX {index}"))
        made = BookingRow.__table__  # type: ignore[attr-defined]
        frozen = MetaData()
        for parent in ("session", "game", "payment"):
            Table(parent, frozen, Column("id", Integer, primary_key=True))
        kept = [
            Column(
                c.name,
                c.type,
                *(ForeignKey(k.target_fullname) for k in c.foreign_keys),
                primary_key=c.primary_key,
                nullable=c.nullable,
            )
            for c in made.columns
            if c.name != "charge_id"
        ]
        booking = Table("booking", frozen, *kept)
        for index in made.indexes:
            Index(index.name, *(booking.c[c.name] for c in index.columns))
        booking.create(raw)
        names = ", ".join(c.name for c in kept)
        raw.execute(text(f"INSERT INTO booking ({names}) SELECT {names} FROM booking_13"))
        raw.execute(text("DROP TABLE booking_13"))
    else:
        raw.execute(text("ALTER TABLE booking DROP COLUMN charge_id"))
    raw.execute(text("DROP TABLE charge"))


def test_schema_4_notes_the_games_of_imports_a_schema_3_ledger_made(chouette, ledger_url):
    """The migration on this backend: a ledger set back to schema 3 gets its ranges back."""
    chouette("new", "club", "ann", "bob")
    path = SAMPLES / "gnubg/mat/s05_money_nocube.mat"
    chouette("import", str(path), "--as", "gnubgA=ann", "--as", "gnubgB=bob")
    from db.engine import dispose_all

    dispose_all()
    engine = create_engine(ledger_url)
    with engine.begin() as raw:
        raw.execute(text("ALTER TABLE source_file DROP COLUMN first_game"))
        raw.execute(text("ALTER TABLE source_file DROP COLUMN last_game"))
        raw.execute(text("DROP INDEX game_by_key"))  # and what schema 5 added
        raw.execute(text("ALTER TABLE game DROP COLUMN game_key"))
        raw.execute(text("DROP TABLE action"))  # and schema 7's journal
        raw.execute(text("DROP TABLE session_origin"))  # and schema 11's presets
        raw.execute(text("DROP TABLE preset"))
        raw.execute(text("DROP TABLE chain"))  # and schema 12: chains and their digests
        raw.execute(text("DROP TABLE kept_digest"))  # (schema 18: kept by session)
        without_charges(raw)  # and schema 13's fees and shared costs
        raw.execute(text("ALTER TABLE session DROP COLUMN night"))  # and schema 14's nights
        raw.execute(text("DROP TABLE evaluation"))  # and schema 15's engine evaluations
        raw.execute(text("DROP TABLE account"))  # and schema 17's accounts
        for table in ("tournament_table", "tournament_step", "tournament"):  # and schema 19's
            raw.execute(text(f"DROP TABLE {table}"))
        raw.execute(text("DROP TABLE proposal"))  # and schema 20's proposals
        raw.execute(text("UPDATE schema_version SET version = 3"))
    with engine.connect() as raw:
        assert raw.execute(text("SELECT COUNT(*) FROM source_file")).scalar() == 1
    engine.dispose()
    said = chouette("undo").stdout  # the first command migrates
    assert said == "Undone: took back the import of s05_money_nocube.mat (games 1–20).\n"
    chouette("check")


def test_an_imported_game_is_shown_as_the_engine_scored_it(chouette):
    chouette("new", "money", "Alice", "Bob", "--stake", "0.50")
    chouette("import", str(SAMPLES / "gnubg/sgf/s01_money_jacoby_beavers3.sgf"))
    assert chouette("game", "3").stdout.splitlines()[:2] == [
        "Game 3 of money (over)",
        "Imported: Bob beat Alice, 1 point (cube 1, single, drop)",
    ]
    assert chouette("game", "2").stdout.splitlines()[1:] == [
        "Imported: Bob beat Alice, 4 points (cube 4, single, resign)",
        "player      points    money",
        "--------  --------  -------",
        "Bob             +4    +2.00",
        "Alice           -4    -2.00",
    ]


def test_a_match_file_is_refused_unless_booked_as_money(chouette):
    chouette("new", "money", "Match West", "Match East")
    path = str(SAMPLES / "gnubg/mat/m01_match_7pt.mat")
    result = chouette("import", path, code=1)
    assert result.stderr == (
        "Error: m01_match_7pt.mat: a 7-point match, not money play: refused "
        "(give --match-as-money to book its games as money games anyway)\n"
    )
    assert chouette.json("sheet")["games"] == []
    chouette("import", path, "--match-as-money")
    assert len(chouette.json("sheet")["games"]) == 4


def test_engine_names_are_mapped_with_as(chouette):
    chouette("new", "money", "alice", "bob", "--stake", "0.50")
    path = str(SAMPLES / "gnubg/sgf/s01_money_jacoby_beavers3.sgf")
    refused = chouette("import", path, code=1)
    assert "line 1: Bob is not seated in money (map it with --as 'Bob=PLAYER')" in refused.stderr
    danish = chouette("--lang", "da", "import", path, code=1).stderr
    assert "linje 1: Bob sidder ikke ved bordet i money (knyt navnet til en spiller med --as " in (
        danish
    )
    czech = chouette("--lang", "cs", "import", path, code=1).stderr
    assert "řádek 1: Bob nesedí u stolu v money (přiřaďte jméno hráči pomocí --as " in czech
    chouette("import", path, "--as", "Alice=alice", "--as", "Bob=bob")
    standings = chouette.json("standings")["players"]
    assert standings == [
        {"name": "bob", "points": 5, "cents": 250, "table_cents": 250, "paid_cents": 0},
        {"name": "alice", "points": -5, "cents": -250, "table_cents": -250, "paid_cents": 0},
    ]


NEUTRAL = [
    {
        "session": "club",
        "game": 1,
        "winner": "ann",
        "loser": "bob",
        "cube": 2,
        "result": "gammon",
        "end": "bearoff",
        "points": 4,
    },
    {
        "session": "club",
        "game": 2,
        "winner": "bob",
        "loser": "ann",
        "cube": 1,
        "result": "single",
        "end": "drop",
        "points": 1,
        "source": {"engine": "xg", "sha256": "ab" * 32, "game_index": 7},
    },
    {
        "session": "club",
        "game": 3,
        "winner": "ann",
        "loser": "bob",
        "cube": 4,
        "result": "single",
        "end": "settle",
        "points": 3,
    },
]


def test_neutral_records_as_json_lines_and_csv(chouette, tmp_path):
    chouette("new", "club", "ann", "bob", "--stake", "2.00")
    jsonl = tmp_path / "games.jsonl"
    jsonl.write_text("\n".join(json.dumps(r) for r in NEUTRAL) + "\n", encoding="utf-8")
    out = chouette("import", str(jsonl)).stdout
    assert out.startswith("games.jsonl: 3 games booked into club.\n")
    assert chouette.json("standings")["players"][0] == {
        "name": "ann",
        "points": 6,
        "cents": 1200,
        "table_cents": 1200,
        "paid_cents": 0,
    }
    csv = tmp_path / "games.csv"
    csv.write_text(
        "session,game,winner,loser,cube,result,end,points,source_sha256,source_game_index\n"
        f"club,2,bob,ann,1,single,drop,1,{'ab' * 32},7\n"
        "club,4,bob,ann,2,single,resign,2,,\n",
        encoding="utf-8",
    )
    out = chouette("import", str(csv)).stdout
    assert out.startswith(
        "games.csv: 1 game booked into club, 1 already in the ledger (skipped).\n"
    )
    assert len(chouette.json("sheet")["games"]) == 4


def test_the_summary_lists_winners_first_as_the_standings_do(chouette, tmp_path):
    chouette("new", "club", "ann", "bob", "cat")
    games = [("ann", "bob", 1), ("cat", "ann", 4), ("bob", "ann", 1)]
    path = tmp_path / "games.jsonl"
    path.write_text(
        "".join(
            json.dumps({**NEUTRAL[0], "game": i, "winner": w, "loser": lo, "cube": p, "points": p,
                        "result": "single"}) + "\n"
            for i, (w, lo, p) in enumerate(games, 1)
        ),
        encoding="utf-8",
    )  # fmt: skip
    out = chouette("import", str(path)).stdout.splitlines()
    assert out[0] == "games.jsonl: 3 games booked into club."
    assert [row.split() for row in out[3:]] == [
        ["cat", "+4", "+4.00"],
        ["bob", "0", "0.00"],
        ["ann", "-4", "-4.00"],
    ]


BAD_FILES = [
    (
        "bad.jsonl",
        '{"session": "s", "game": 1, "winner": "ann", "loser": "bob", "cube": 2, '
        '"result": "gammon", "end": "bearoff", "points": 3}\n',
        "bad.jsonl: line 1:",
    ),
    ("bad.mat", " 0 point match\n\n Game 1\n ann : 0   bob : x\n", "bad.mat: line 4"),
    ("bad.sgf", "(;FF[4]GM[6]MI[length:0]PW[ann]PB[bob]RE[W+", "bad.sgf:"),
    ("bad.csv", "session,game\nclub,1\n", "bad.csv:"),
    ("notes.docx", "hello", "notes.docx: not an engine file"),
]


@pytest.mark.parametrize(("name", "content", "message"), BAD_FILES)
def test_malformed_files_are_refused_whole_with_the_line(
    chouette, ledger_url, tmp_path, name, content, message
):
    from tests.dump import dump

    chouette("new", "club", "ann", "bob")
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps(NEUTRAL[0]) + "\n", encoding="utf-8")
    before = dump(ledger_url)
    result = chouette("import", str(good), str(path), code=1)
    assert result.stderr.startswith("Error: ") and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert dump(ledger_url) == before


def test_a_missing_file_is_a_clear_error(chouette, tmp_path):
    chouette("new", "club", "ann", "bob")
    result = chouette("import", str(tmp_path / "nope.mat"), code=1)
    assert "nope.mat: cannot read it (No such file or directory)" in result.stderr


def test_a_game_a_file_cites_twice_is_booked_once(chouette, tmp_path):
    chouette("new", "club", "ann", "bob")
    path = tmp_path / "twice.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in (NEUTRAL[1], NEUTRAL[0], NEUTRAL[1])) + "\n")
    out = chouette("import", str(path)).stdout
    assert out.startswith(
        "twice.jsonl: 2 games booked into club, 1 already in the ledger (skipped).\n"
    )
    chouette("check")
