"""One game, booked once, whatever file it came from: a game's identity is what was played
(its players as the session names them, its number and the score before it, every roll of
the dice in order, whatever followed it, and its winner), not the file's text, so the same
session exported as gnubg ``.mat`` and ``.sgf``, XG ``.mat`` and ``.xg``, BGBlitz ``.bgf``
and a server's ``.mat``, or re-exported with a player renamed and mapped back with
``--as``, books its games once: every pair of files of one match in the corpus is tested.

The files are real: tests/corpus/SOURCES.md says where each corpus file came from and under
which licence (the server session: gammonview's samples, MIT); tests/engine-samples/ holds
gnubg's own sessions with their manifest (docs/ENGINES.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chouette.engines.model import Played, played_key
from tests import paths

CORPUS = paths.CORPUS
SAMPLES = paths.SAMPLES / "gnubg"
SESSION = "Sz-2PgKnvb6aFls69-qFXg"  # one money session of a server, in three formats
TWINS = {
    "mat": CORPUS / "server-export-anonymised/gammonview" / f"{SESSION}.mat",
    "xg": CORPUS / "xg-binary/gammonview" / f"{SESSION}.xg",
    "bgf": CORPUS / "bgblitz-binary/gammonview" / f"{SESSION}.bgf",
}


# ---------------------------------------------------------------- the identity, pure

GAME = Played(number=3, score=(4, 2), rolls=(51, 63, 22), winner=1)


def test_the_identity_does_not_depend_on_which_player_a_file_puts_first():
    swapped = Played(3, (2, 4), (51, 63, 22), 0)
    assert played_key(GAME, ("ann", "bob")) == played_key(swapped, ("bob", "ann"))


@pytest.mark.parametrize(
    "other",
    [
        Played(4, (4, 2), (51, 63, 22), 1),  # another game of the session
        Played(3, (2, 4), (51, 63, 22), 1),  # the score the other way round
        Played(3, (4, 2), (51, 63, 21), 1),  # other dice
        Played(3, (4, 2), (51, 22, 63), 1),  # the same dice in another order
        Played(3, (4, 2), (51, 63, 22), 0),  # the other winner
    ],
)
def test_any_difference_in_what_was_played_is_another_game(other):
    assert played_key(other, ("ann", "bob")) != played_key(GAME, ("ann", "bob"))


def test_the_players_are_part_of_it():
    assert played_key(GAME, ("ann", "bob")) != played_key(GAME, ("ann", "cat"))


# ---------------------------------------------------------------- real twins, through import


@pytest.mark.parametrize("first", ["mat", "xg", "bgf"])
def test_a_session_in_three_formats_books_its_games_once(chouette, first):
    chouette("new", "money", "Fox", "Lanternwood_123")
    out = chouette("import", str(TWINS[first]))
    assert out.stdout.startswith(f"{TWINS[first].name}: 6 games booked into money.\n")
    sheet = chouette.json("sheet")["games"]  # type: ignore[index]
    for kind, path in TWINS.items():
        if kind == first:
            continue
        again = chouette("import", str(path))
        assert again.stdout.startswith(
            f"{path.name}: 0 games booked into money, 6 already in the ledger (skipped).\n"
        ), again.stdout
        assert (
            f"Note: 6 games of this file were booked already from {TWINS[first].name} "
            "(imported into money on 2026-11-20): the same games, skipped"
        ) in again.stderr
    assert chouette.json("sheet")["games"] == sheet  # type: ignore[index]
    chouette("check")


@pytest.mark.parametrize(
    "name",
    [
        "s01_money_jacoby_beavers3",
        "s02_money_nojacoby_nobeavers_noisy",
        "s03_money_jacoby_beavers1_cubenoise",
        "s05_money_nocube",
    ],
)
def test_gnubgs_mat_and_sgf_of_a_session_are_the_same_games(chouette, name):
    mat, sgf = SAMPLES / "mat" / f"{name}.mat", SAMPLES / "sgf" / f"{name}.sgf"
    manifest = json.loads((SAMPLES.parent / "manifest.json").read_text(encoding="utf-8"))
    entry = next(f for f in manifest["files"] if f["path"] == f"gnubg/mat/{name}.mat")
    chouette("new", "money", *entry["players"])
    booked = chouette.json("import", str(sgf))[0]["booked"]  # type: ignore[index]
    again = chouette.json("import", str(mat))[0]  # type: ignore[index]
    assert (again["booked"], again["already_in_ledger"]) == (0, booked)


def test_a_player_renamed_in_a_re_export_and_mapped_back_is_the_same_player(chouette, tmp_path):
    chouette("new", "money", "Fox", "Lanternwood_123")
    chouette("import", str(TWINS["xg"]))
    renamed = tmp_path / "renamed.mat"
    text = TWINS["mat"].read_text(encoding="utf-8")
    renamed.write_text(text.replace("Fox", "Fox (1712)"), encoding="utf-8")
    unmapped = chouette("import", str(renamed), code=1)
    assert "Fox (1712) is not seated in money" in unmapped.stderr
    again = chouette.json("import", str(renamed), "--as", "Fox (1712)=Fox")[0]  # type: ignore[index]
    assert (again["booked"], again["already_in_ledger"]) == (0, 6)


def test_the_same_games_imported_into_another_session_say_where_they_are(chouette):
    chouette("new", "money", "Fox", "Lanternwood_123")
    chouette("import", str(TWINS["mat"]))
    chouette("new", "rematch", "Fox", "Lanternwood_123")
    again = chouette("import", str(TWINS["xg"]))
    assert "0 games booked into rematch, 6 already in the ledger" in again.stdout
    assert f"booked already from {TWINS['mat'].name} (imported into money on " in again.stderr
    assert chouette.json("sheet")["games"] == []  # type: ignore[index]


def test_gnubgs_text_export_is_refused_with_the_command_that_makes_a_readable_file(chouette):
    chouette("new", "money", "gnubgA", "gnubgB")
    text = paths.DATA / "gnubg-text" / "s05_money_nocube.txt"
    refused = chouette("import", str(text), code=1)
    assert refused.stderr == (
        "Error: s05_money_nocube.txt: line 1: this is gnubg's text export (export match text): "
        "a picture of every move, one file per game, which chouette does not read; in gnubg, "
        "load the match and write a file chouette reads: export match mat FILE.mat (or export "
        "match sgf FILE.sgf), then import that\n"
    )


# ---------------------------------------------------------------- every pair of one match's files


def twin_groups() -> dict[str, list[Path]]:
    """Every set of files in the corpus that holds one session or match, in two formats or
    more: the server's sessions (.mat, .xg, .bgf), the gbf matches (XG's .mat and .txt,
    gnubg's .sgf, XG's .xg), gnubg's own samples and data (.mat and .sgf)."""
    groups: dict[str, list[Path]] = {}
    for folder in ("server-export-anonymised", "xg-binary", "bgblitz-binary"):
        for path in sorted((CORPUS / folder / "gammonview").iterdir()):
            if path.suffix in (".mat", ".xg", ".bgf"):
                groups.setdefault(path.stem, []).append(path)
    for stem in ("test", "charlot1-charlot2_7p_2025-11-08-2305"):
        for folder in ("xg/gbf", "gnubg/gbf", "xg-binary/gbf"):
            groups.setdefault(stem, []).extend(sorted((CORPUS / folder).glob(f"{stem}.*")))
    for mat in sorted((SAMPLES / "mat").glob("*.mat")):
        sgf = SAMPLES / "sgf" / f"{mat.stem}.sgf"
        if sgf.exists():
            groups[mat.stem] = [mat, sgf]
    for mat in sorted(paths.ENGINE_DATA.glob("*.mat")):
        groups[mat.stem] = [mat, *paths.ENGINE_DATA.glob(f"{mat.stem}.sgf*")]
    return {name: files for name, files in groups.items() if len(files) > 1}


def identities(path: Path) -> list[str]:
    """Each game's identity, as the import keys it (the players as the file names them)."""
    from chouette.rules import HouseRules
    from files.engine import read_pass

    _, _, games, _ = read_pass(path, None, HouseRules(), None, lambda read: list(read.games))
    keys = []
    for game in games:
        assert game.played is not None, (path.name, game.number)
        winner, loser = game.winner.replace("_", " "), game.loser.replace("_", " ")
        seats = (winner, loser) if game.played.winner == 0 else (loser, winner)
        keys.append(played_key(game.played, seats))
    return keys


GROUPS = twin_groups()


@pytest.mark.parametrize("name", sorted(GROUPS))
def test_every_pair_of_files_of_one_match_holds_the_same_games(name):
    """Issue 34: XG's .mat and gnubg's .sgf of the 7-game test match had three games apart
    (the dice a player rolled before resigning: gnubg's SGF writes them as DI[], the .mat
    as '33: ???'), a server's .mat and .xg one each (a move entered by hand, which XG keeps
    as a position set)."""
    files = GROUPS[name]
    found = {path.name: identities(path) for path in files}
    first = files[0].name
    for other, keys in found.items():
        assert keys == found[first], (name, first, other)


def test_the_corpus_holds_the_pairs_the_issue_names():
    assert len(GROUPS) >= 20
    assert {p.suffix for p in GROUPS["test"]} == {".mat", ".txt", ".sgf", ".xg"}


def test_xgs_mat_then_gnubgs_sgf_and_xg_of_the_test_match_book_it_once(chouette):
    chouette("new", "money", "Kévin Unger", "Maxence Job")
    mat = chouette.json("import", str(CORPUS / "xg/gbf/test.mat"), "--match-as-money")[0]
    assert mat["booked"] == 7
    for twin in ("gnubg/gbf/test.sgf", "xg-binary/gbf/test.xg"):
        again = chouette.json("import", str(CORPUS / twin), "--match-as-money")[0]
        assert (again["booked"], again["already_in_ledger"]) == (0, 7), twin
    chouette("check")


def test_a_game_an_older_chouette_booked_under_its_own_identity_is_still_found(
    chouette, monkeypatch, tmp_path
):
    """An older chouette keyed the SGF's games without the dice of a player who then
    resigned: the same match saved again, and its .mat and .xg, are still the same games."""
    import db.imports

    def older(played: Played, names: tuple[str, str]) -> str:
        return played_key(played._replace(rolls=(played.older or (played.rolls,))[0]), names)

    chouette("new", "money", "Kévin Unger", "Maxence Job")
    with monkeypatch.context() as patch:
        patch.setattr(db.imports, "played_key", older)
        first = chouette.json("import", str(CORPUS / "gnubg/gbf/test.sgf"), "--match-as-money")
    assert first[0]["booked"] == 7
    saved = tmp_path / "test saved again.sgf"  # other bytes: known by its games alone
    saved.write_bytes((CORPUS / "gnubg/gbf/test.sgf").read_bytes().replace(b"\n", b"\r\n"))
    for path in (saved, CORPUS / "xg/gbf/test.mat", CORPUS / "xg-binary/gbf/test.xg"):
        again = chouette.json("import", str(path), "--match-as-money")[0]
        assert (again["booked"], again["already_in_ledger"]) == (0, 7), path.name
