#!/usr/bin/env python3
"""Independent ground truth for the eXtreme Gammon .xg files of the corpus (imports nothing of
chouette, nor gammonview, which chouette reads them with).

Every .xg file has, per game, a header record with the score BEFORE the game and a footer
record with the score after it, the winner, the points XG counted and how the game ended. This
script reads them with xgparse (a port of Michael Petch's xgdatatools, LGPL-2.1: installed in a
scratch venv to run this script, never a dependency of chouette) and works out each game's
winner and points from the SCORES, as truth.py does from a .mat file's score headers: game i's
points = score before game i+1 - score before game i; the last game's from its footer's score
after. In a match the last game is flagged `match_capped` when the points XG counted for it
(`points_won`, what the file scored) exceed what the winner needed.

BGBlitz .bgf files have no reader but gammonview here: their truth is their text twin's
(truth.json), as is that of every .xg that has one; tests/engines/test_binary_files.py pairs them.

Usage (in a venv with `pip install xgparse==0.1.3`):
    python3 binary_truth.py xg-binary -o binary-truth.json --root .
"""

from __future__ import annotations

import json
import os
import sys

from xgparse import convert_xg_to_py_dataclasses
from xgparse import xgstruct as S


def truth_of(path: str) -> dict:
    names: list[str] = []
    length = 0
    games: list[dict] = []
    final = None
    for rec in convert_xg_to_py_dataclasses(path):
        if isinstance(rec, S.HeaderMatchEntry):
            names = [rec.s_player1, rec.s_player2]
            length = 0 if rec.match_length in (0, 99999) else rec.match_length
        elif isinstance(rec, S.HeaderGameEntry):
            games.append({"number": len(games) + 1, "before": [rec.score1, rec.score2]})
        elif isinstance(rec, S.FooterGameEntry):
            games[-1].update(after=[rec.score1g, rec.score2g], footer_winner=rec.winner,
                             points_won=rec.points_won, termination=rec.termination)
        elif isinstance(rec, S.FooterMatchEntry):
            final = [rec.score1m, rec.score2m]
    out = []
    for i, game in enumerate(games):
        flags = []
        if i + 1 < len(games):
            after = games[i + 1]["before"]
            source = "headers"
        elif "after" in game:
            after = game["after"]
            source = "footer"
        else:
            out.append({"number": game["number"], "determined": False, "flags": ["unfinished"]})
            continue
        gained = [after[0] - game["before"][0], after[1] - game["before"][1]]
        if (gained[0] > 0) == (gained[1] > 0) or min(gained) < 0:
            raise SystemExit(f"{path}: game {game['number']}: the score goes {game['before']} -> {after}")
        side = 0 if gained[0] > 0 else 1
        points = gained[side]
        if length and i + 1 == len(games):
            need = length - game["before"][side]
            points = min(points, need)
            if game["points_won"] > need:
                flags.append("match_capped")
        if game.get("footer_winner") != (1 if side == 0 else -1):
            flags.append("footer_disagrees")
        if game["termination"] >= 100:
            flags.append("resigned")
        out.append({"number": game["number"], "determined": True, "winner": names[side],
                    "side": side + 1, "points": points, "points_won": game["points_won"],
                    "termination": game["termination"], "source": source, "flags": flags})
    return {"format": "xg", "players": names, "match_length": length, "money": not length,
            "final": final, "games": out}


def main(argv: list[str]) -> int:
    args = list(argv)
    out = "binary-truth.json"
    root = "."
    if "-o" in args:
        out = args.pop(args.index("-o") + 1)
        args.remove("-o")
    if "--root" in args:
        root = args.pop(args.index("--root") + 1)
        args.remove("--root")
    files = []
    for arg in args:
        for folder, _, names in os.walk(arg):
            files += [os.path.join(folder, n) for n in names if n.lower().endswith(".xg")]
    truth = {}
    for path in sorted(files):
        key = os.path.relpath(path, root)
        try:
            truth[key] = truth_of(path)
        except Exception as err:  # xgparse refuses the two anonymised gammonview files
            truth[key] = {"format": "xg", "unreadable": f"{type(err).__name__}: {err}"}
    with open(out, "w", encoding="utf-8") as handle:
        json.dump(truth, handle, indent=1, ensure_ascii=False, sort_keys=True)
        handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
