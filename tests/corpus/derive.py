#!/usr/bin/env python3
"""Derived variants of REAL licensed corpus files, for the storage dialects no licensed real
file showed (UTF-16, Latin-1, CR-only, tabs, .gz, unfinished last game, partial re-export).

Each variant is a mechanical transformation of one real file (named in sources.json as its
parent) and inherits that file's licence. The games are unchanged except where the
transformation is the point (unfinished / re-export), so truth.py's answer is checkable
against the parent's.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "derived")

XGM = "xg/nodots-backgammon/Ken - XG-Intermediate Dec 24 2022.txt"  # XG Mobile money, BOM+CRLF
XGT = "xg/gbf/test.mat"  # XG export with non-ASCII names (Kévin, Fédération)
GAL = "galaxy/bglab/match1004844.txt"  # Galaxy match, LF, Losses lines
GNU_SGF = "gnubg/gbf/charlot1-charlot2_7p_2025-11-08-2305.sgf"


def read(rel: str) -> bytes:
    with open(os.path.join(HERE, rel), "rb") as fh:
        return fh.read()


def text(rel: str) -> str:
    return read(rel).decode("utf-8-sig").replace("\r\n", "\n")


def tabify(line: str) -> str:
    """Replace runs of spaces that reach a tab stop by tabs, so expandtabs(8) gives the line back."""
    out = []
    col = 0
    pending = 0
    for ch in line:
        if ch == " ":
            pending += 1
            col += 1
            if col % 8 == 0 and pending > 1:
                out.append("\t")
                pending = 0
            continue
        out.append(" " * pending)
        pending = 0
        out.append(ch)
        col += 1
    out.append(" " * pending)
    return "".join(out)


def variants() -> list[tuple[str, str, bytes, str]]:
    v = []
    money = text(XGM)
    v.append(("xg-mobile-money.utf16le-bom.mat", XGM, money.replace("\n", "\r\n").encode("utf-16"),
              "UTF-16 (LE, BOM), CRLF: the parent re-encoded"))
    v.append(("xg-mobile-money.cr-only.mat", XGM, money.replace("\n", "\r").encode("utf-8"),
              "CR-only line ends (classic Mac), no BOM"))
    v.append(("xg-mobile-money.tabs.mat", XGM,
              "\n".join(tabify(ln) for ln in money.split("\n")).encode("utf-8"),
              "columns written with tabs (8-column stops): expandtabs(8) restores the parent's layout; "
              "a reader that counts a tab as one column puts right-column entries on the left"))
    v.append(("xg-mobile-money.mat.gz", XGM, gzip.compress(read(XGM), mtime=0), "the parent gzip-compressed, bytes unchanged"))
    latin = text(XGT)
    v.append(("xg-test.cp1252.mat", XGT, latin.replace("\n", "\r\n").encode("cp1252"),
              "Windows-1252 / Latin-1 bytes (é, ç as single bytes), CRLF, no BOM"))
    # unfinished last game: cut the money session in the middle of its last game
    lines = money.split("\n")
    starts = [i for i, ln in enumerate(lines) if re.match(r"^\s*Game\s+\d+\s*$", ln)]
    last = starts[-1]
    cut = "\n".join(lines[: last + 12]) + "\n"
    v.append(("xg-mobile-money.unfinished-last-game.mat", XGM, cut.encode("utf-8"),
              f"the parent cut 10 move lines into its last game (Game {len(starts)}): "
              "an unfinished last game, as a session exported while still being played"))
    # partial re-export: the first 10 games only (a session exported at game 10, then again in full)
    part = "\n".join(lines[: starts[10]]).rstrip("\n") + "\n"
    v.append(("xg-mobile-money.first-10-games.mat", XGM, part.encode("utf-8"),
              "the parent's first 10 games only: an earlier export of the same session (re-export de-duplication)"))
    v.append(("galaxy-match.crlf.txt", GAL, text(GAL).replace("\n", "\r\n").encode("utf-8"),
              "the parent re-saved with CRLF (same games, different bytes)"))
    v.append(("gnubg-charlot.sgf.gz", GNU_SGF, gzip.compress(read(GNU_SGF), mtime=0), "the parent gzip-compressed"))
    return v


def main() -> None:
    os.makedirs(OUT, exist_ok=True)
    src = json.load(open(os.path.join(HERE, "sources.json"), encoding="utf-8"))
    for name, parent, data, what in variants():
        with open(os.path.join(OUT, name), "wb") as fh:
            fh.write(data)
        p = src[parent]
        src[f"derived/{name}"] = {
            "repo": p["repo"],
            "path": p["path"],
            "commit": p["commit"],
            "licence": p["licence"],
            "licence_source": p["licence_source"] + " (inherited from the parent file)",
            "licence_copy": p["licence_copy"],
            "producer": f"derived from {parent} (producer: {p['producer']})",
            "producer_evidence": "mechanical transformation by derive.py: " + what,
            "parent": parent,
            "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "features": ["derived", what],
        }
    with open(os.path.join(HERE, "sources.json"), "w", encoding="utf-8") as fh:
        json.dump(src, fh, indent=1, ensure_ascii=False, sort_keys=True)
        fh.write("\n")


if __name__ == "__main__":
    main()
