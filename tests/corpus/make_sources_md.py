#!/usr/bin/env python3
"""Write SOURCES.md from sources.json."""
import collections
import json

src = json.load(open("sources.json", encoding="utf-8"))
groups = collections.OrderedDict()
for k, v in sorted(src.items()):
    folder = "derived" if k.startswith("derived/") else "/".join(k.split("/")[:2])
    groups.setdefault(folder, []).append((k, v))
out = ["# Sources of the engine-file corpus", "",
       "Every file under this folder, where it came from, under what licence, which program wrote it and the "
       "dialect features it shows. Machine-readable: `sources.json` (file -> repo, path, commit, licence, "
       "producer, features, sha256). The files were copied from the repositories at the commits given; "
       "`derive.py` makes `derived/` from them, `make_sources_md.py` writes this file, and "
       "`python3 truth.py . --root . -o truth.json` works out every game's truth from the files' score headers "
       "and `Wins` lines, independently of chouette's readers (it imports nothing of chouette). The binary "
       "eXtreme Gammon `.xg` and BGBlitz `.bgf` files (`xg-binary/`, `bgblitz-binary/`) are checked against "
       "their text twins' truth (the same matches as `.mat`/`.sgf`), and the `.xg` files also against "
       "`binary-truth.json`, which `binary_truth.py` works out from each file's own score records, read with "
       "xgparse (an independent reader, LGPL, run in a scratch venv: chouette reads them with gammonview).",
       "", "Only data files and licence texts come from other projects; the scripts (derive.py, truth.py, "
       "binary_truth.py, make_sources_md.py) are ours. Each repository's licence text sits next "
       "to its files (`LICENSE*`, `LICENSE-STATEMENT.md` where a repository states its licence only in its README).", "",
       "## By folder", "",
       "| folder | files | repository / source | commit | licence (licence file) | producer (evidence) |",
       "|---|---|---|---|---|---|"]
for folder, items in groups.items():
    v = items[0][1]
    if folder == "derived":
        out.append(f"| `derived/` | {len(items)} | transformations of real files above (see each file's `parent`) | — | "
                   "inherited from the parent | derive.py: UTF-16, CR-only, tabs, .gz, cp1252, unfinished last game, "
                   "first-10-games re-export, CRLF re-save |")
        continue
    out.append(f"| `{folder}/` | {len(items)} | {v['repo']} | `{v['commit'][:12]}` | {v['licence']} "
               f"({v['licence_source']}) | {v['producer']}: {v['producer_evidence']} |")
out += ["", "## Collections counted in REPORT.md but not copied whole", "",
        "| collection | files | how to get it | licence | copied here |", "|---|---|---|---|---|",
        "| lassehjorthmadsen/bglab `data-raw/lasse/raw` + `data-raw/Llabba/raw` @ `671cb08d63bd` | 1,777 (1,703 Galaxy, 74 Backgammon Studio) | "
        "`git clone https://github.com/lassehjorthmadsen/bglab`, the two folders (6.3 MB) | MIT (LICENSE.md) | "
        "200 Galaxy files chosen by collect.py (every empty-name, forfeit, capped-at-16, repeated-move-number and "
        "lone-Losses file, 60 money-as-16pt, 30 Losses, 20 Cannot Move, 8 per match length, then a seeded random fill) "
        "and all 74 Studio files |",
        "| andrewbaine/td-gammon `test_data/` @ `870b2d01d25e` | 31 (27 gnubg-v-BGBlitz matches written by Dueller/gnubg 0.14, 2 XG exports, 1 Studio, 1 older transcription) | clone, `test_data/` | **none found** | no (measured only) |",
        "| BGChallengeAdmin/TheBackgammonChallenge `.../HistoricMatches/TextFiles` @ `81813bb0ca80` | 116 (88 Studio, 2 Galaxy, XG, PlayOK, historic transcriptions; 3 not UTF-8) | clone | **none found** | no (measured only) |",
        "| halheinrich/BgMatchFormat_Lib `BgMatchFormat_Lib.Tests/Goldens` @ `2b1d605a673a` | 14 (a third-party C# .mat writer's goldens: non-cumulative `0 : 0` money headers, abandoned games) | clone | **none found** | no (measured only) |",
        "| kevung/blunderDB `testdata/Tournoi_videau_Passy_2026/` | 3 Backgammon Studio .txt, each with the same match as .xg | snapshot is 637 MB, over this workplace's fetch limit; text files readable one by one | MIT | no |",
        "| kevung/gnubgparser `test/gnubg_*` (newer than the fetched snapshot) | gnubg self-play .mat with drops and a resign | newer commit | LGPL-2.1 (README) | no |",
        ""]
out += ["## Every file", "", "| file | source path | licence | features |", "|---|---|---|---|"]
for folder, items in groups.items():
    for k, v in items:
        out.append(f"| `{k}` | `{v['path']}` | {v['licence']} | {', '.join(v['features'])} |")
open("SOURCES.md", "w", encoding="utf-8").write("\n".join(out) + "\n")
