#!/usr/bin/env python3
"""Independent ground truth for the engine-file corpus (does NOT import chouette).

For every Jellyfish .mat / .txt file: each game's winner and points, worked out from the
SCORE HEADERS (game i's points = header(i+1) - header(i)); for the last game from its final
`Wins N point(s)` line (or from a closing score line after the last game, where a file has
one). For gnubg SGF: from each game's RE[W+n] / RE[B+n].

Everything this script cannot determine is flagged, never guessed silently:

- match files (`N point match`, N > 0): header deltas are the MATCH score, capped by what the
  winner needed; the last game's `Wins N point` may exceed it (`match_capped`). Points here
  are the scored points (the header delta, or min(Wins, length - score before) for the last
  game); `wins_line_points` keeps what the line says.
- Backgammon Galaxy money games are written as a `16 point match` (`; [Site
  "BackgammonGalaxy"]`), one game per file: flagged `galaxy_money_as_16pt`; a result of 16
  with `and the match` is flagged `capped_at_16` (the real result may have been larger).
- non-cumulative headers (`0 : 0` before every game): deltas are all zero, so only the
  `Wins` lines can say (`headers_not_cumulative`, source `wins_line`).
- net-score headers (+n / -n): handled, flagged `net_score_headers`.
- an unfinished last game (no `Wins` line, no drop): `unfinished`, winner None.
- a forfeit / timeout (`????`, e.g. `Wins 4016 point`): `forfeit_marker`.
- a `Wins` line that disagrees with the headers: `wins_line_disagrees`.

Sides: 1 = the left column / first name in the score header (SGF: PW), 2 = right (PB).
A `Wins`/`Losses` entry's side is decided by its column (tabs expanded to 8) against the
midpoint between the two names' columns in that game's score header.

Usage: python3 truth.py FILE_OR_DIR... [-o truth.json] [--root DIR]
"""

from __future__ import annotations

import gzip
import json
import os
import re
import sys

TAG = re.compile(r'^\s*;\s*\[\s*([^"\]]*?)\s*"(.*)"\s*\]\s*$')
MATCH = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.I)
GAME = re.compile(r"^\s*Game\s+(\d+)\s*$")
SCORE = re.compile(r"^(\s*)(.*?)\s*:\s*(-?\d+)(\s+)(.*?)\s*:\s*(-?\d+)\s*$")
WINS = re.compile(r"\bWins\s+(\d+)\s+points?(\s+and\s+the\s+match)?")
LOSSES = re.compile(r"\bLosses\s+(\d+)\s+points?")
DOUBLES = re.compile(r"\bDoubles\s*=>\s*(\d+)")
DROPS = re.compile(r"\bDrops\b")


# ---------------------------------------------------------------- decoding


def decode(raw: bytes) -> tuple[str, dict]:
    """Text of a file and how it was stored (gzip, BOM, encoding, line ends)."""
    info: dict = {"gzip": False, "bom": None, "encoding": None, "line_ends": None}
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
        info["gzip"] = True
    if raw[:3] == b"\xef\xbb\xbf":
        info["bom"], info["encoding"] = "utf-8", "utf-8"
        text = raw[3:].decode("utf-8")
    elif raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        info["bom"] = info["encoding"] = "utf-16"
        text = raw.decode("utf-16")
    else:
        try:
            text = raw.decode("utf-8")
            info["encoding"] = "utf-8" if any(b > 127 for b in raw) else "ascii"
        except UnicodeDecodeError:
            text = raw.decode("cp1252", errors="replace")
            info["encoding"] = "cp1252/latin-1 (not UTF-8)"
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    kinds = [k for k, n in (("CRLF", crlf), ("CR", cr), ("LF", lf)) if n]
    info["line_ends"] = "+".join(kinds) or "none"
    return text, info


# ---------------------------------------------------------------- .mat


def side_of(column: int, header: dict) -> int:
    mid = (header["col1"] + header["col2"]) / 2
    return 2 if column >= mid else 1


def parse_score(line: str) -> dict | None:
    m = SCORE.match(line)
    if not m:
        return None
    col1 = len(m.group(1))
    col2 = m.start(5)
    return {
        "names": (m.group(2), m.group(5)),
        "score": (int(m.group(3)), int(m.group(6))),
        "col1": col1,
        "col2": col2,
    }


def mat_truth(text: str) -> dict:
    lines = [ln.expandtabs(8) for ln in text.splitlines()]
    tags: dict[str, str] = {}
    length = None
    i = 0
    for i, ln in enumerate(lines):
        s = ln.strip()
        if not s:
            continue
        t = TAG.match(ln)
        if t:
            tags[t.group(1)] = t.group(2)
            continue
        if s.startswith(";"):
            continue
        m = MATCH.match(ln)
        if m:
            length = int(m.group(1))
            break
        break
    out: dict = {"format": "mat", "tags": tags, "match_length": length, "flags": [], "games": []}
    if length is None:
        out["flags"].append("no_point_match_line")
        return out
    site = tags.get("Site", "")
    galaxy = site == "BackgammonGalaxy"
    if galaxy and length == 16:
        out["flags"].append("galaxy_money_as_16pt")
    out["money"] = length == 0 or (galaxy and length == 16)

    # split into games: (game number, header dict, body lines with their numbers)
    games: list[dict] = []
    trailer: list[tuple[int, str]] = []
    cur = None
    j = i + 1
    while j < len(lines):
        ln = lines[j]
        g = GAME.match(ln)
        if g:
            k = j + 1
            while k < len(lines) and not lines[k].strip():
                k += 1
            hdr = parse_score(lines[k]) if k < len(lines) else None
            cur = {"number": int(g.group(1)), "line": j + 1, "header": hdr, "body": []}
            if hdr is None:
                out["flags"].append(f"game {g.group(1)}: no score header")
            games.append(cur)
            j = k + 1
            continue
        if cur is not None:
            cur["body"].append((j + 1, ln))
        j += 1
    if not games:
        out["flags"].append("no_games")
        return out
    players = games[0]["header"]["names"] if games[0]["header"] else ("", "")
    out["players"] = list(players)
    if any(not n.strip() for n in players):
        out["flags"].append("empty_player_name")

    # per game: what its Wins / Losses / Drops lines say
    for g in games:
        hdr = g["header"]
        wins = []
        losses = []
        drops = []
        doubles = []
        forfeit = False
        for no, ln in g["body"]:
            if "????" in ln:
                forfeit = True
            if hdr is None:
                continue
            for m in WINS.finditer(ln):
                wins.append((side_of(m.start(), hdr), int(m.group(1)), bool(m.group(2)), no))
            for m in LOSSES.finditer(ln):
                losses.append((side_of(m.start(), hdr), int(m.group(1)), no))
            for m in DROPS.finditer(ln):
                drops.append((side_of(m.start(), hdr), no))
            for m in DOUBLES.finditer(ln):
                doubles.append((side_of(m.start(), hdr), int(m.group(1)), no))
        g.update(wins=wins, losses=losses, drops=drops, doubles=doubles, forfeit=forfeit)

    # a closing score line after the last game (a total), if the file has one
    last_body = games[-1]["body"]
    closing = None
    for no, ln in reversed(last_body):
        if not ln.strip():
            continue
        sc = parse_score(ln)
        if sc and not re.match(r"^\s*\d+\)", ln):
            closing = sc
        break

    cumulative = not all(
        g["header"] and g["header"]["score"] == (0, 0) for g in games
    )
    if len(games) > 1 and not cumulative:
        out["flags"].append("headers_not_cumulative")

    for idx, g in enumerate(games):
        res: dict = {"number": g["number"], "line": g["line"], "flags": []}
        hdr = g["header"]
        nxt = games[idx + 1]["header"] if idx + 1 < len(games) else closing
        w = g["wins"][-1] if g["wins"] else None
        res["wins_line_points"] = w[1] if w else None
        res["wins_line_side"] = w[0] if w else None
        if g["losses"]:
            res["losses_line"] = {"side": g["losses"][-1][0], "points": g["losses"][-1][1]}
            if w and g["losses"][-1][0] == w[0]:
                res["flags"].append("losses_and_wins_same_side")
        if g["forfeit"]:
            res["flags"].append("forfeit_marker")
        if len(g["wins"]) > 1:
            res["flags"].append("several_wins_lines")
        side = points = None
        source = None
        if hdr and nxt and cumulative:
            (a1, a2), (b1, b2) = hdr["score"], nxt["score"]
            d1, d2 = b1 - a1, b2 - a2
            if d1 > 0 and d2 == 0:
                side, points = 1, d1
            elif d2 > 0 and d1 == 0:
                side, points = 2, d2
            elif a1 + a2 == 0 == b1 + b2 and d1:
                side, points = (1, d1) if d1 > 0 else (2, d2)
                out["flags"].append("net_score_headers") if "net_score_headers" not in out["flags"] else None
            else:
                res["flags"].append(f"header_delta_unexplained {a1}-{a2} -> {b1}-{b2}")
            source = "headers" if idx + 1 < len(games) else "closing_score_line"
        if side is None and w is not None:
            side, points = w[0], w[1]
            source = "wins_line"
            if length and hdr:
                before = hdr["score"][side - 1]
                if before + points > length:
                    res["flags"].append("match_capped")
                    points = length - before
        if side is None and w is None:
            if g["drops"]:
                dropper = g["drops"][-1][0]
                side = 3 - dropper
                cube = g["doubles"][-1][1] // 2 if g["doubles"] else None
                points = cube
                source = "drop_without_wins_line"
                res["flags"].append("drop_without_wins_line")
            else:
                res["flags"].append("unfinished")
        if w is not None and side is not None and source != "wins_line":
            if w[0] != side:
                res["flags"].append("wins_line_disagrees_side")
            elif w[1] != points:
                res["flags"].append(
                    "wins_line_disagrees_points" + (" (match capped)" if length else "")
                )
        if galaxy and length == 16 and w and w[2] and w[1] == 16:
            res["flags"].append("capped_at_16")
        if length and w and w[2]:
            res["flags"].append("and_the_match")
        res["side"] = side
        res["winner"] = players[side - 1] if side else None
        if hdr and side:
            res["winner"] = hdr["names"][side - 1]
        res["points"] = points
        res["source"] = source
        res["determined"] = side is not None and points is not None
        out["games"].append(res)
    out["determined"] = all(g["determined"] for g in out["games"])
    return out


# ---------------------------------------------------------------- SGF


def sgf_trees(text: str):
    """Root properties of each top-level game tree: {ident: [values]}."""
    depth = 0
    i = 0
    n = len(text)
    root: dict | None = None
    nodes = 0
    ident = ""
    while i < n:
        c = text[i]
        if c == "[":
            j = i + 1
            buf = []
            while j < n and text[j] != "]":
                if text[j] == "\\" and j + 1 < n:
                    j += 1
                buf.append(text[j])
                j += 1
            if root is not None and nodes == 1 and depth == 1 and ident:
                root.setdefault(ident, []).append("".join(buf))
            i = j + 1
            continue
        if c == "(":
            depth += 1
            if depth == 1:
                root, nodes = {}, 0
        elif c == ")":
            depth -= 1
            if depth == 0 and root is not None:
                yield root
                root = None
        elif c == ";":
            nodes += 1
            ident = ""
        elif c.isalpha():
            k = i
            while k < n and text[k].isalpha():
                k += 1
            ident = text[i:k]
            i = k
            continue
        i += 1


def sgf_truth(text: str) -> dict:
    out: dict = {"format": "sgf", "flags": [], "games": []}
    for idx, root in enumerate(sgf_trees(text), 1):
        res: dict = {"number": idx, "flags": []}
        pw = root.get("PW", [""])[0]
        pb = root.get("PB", [""])[0]
        if idx == 1:
            out["players"] = [pw, pb]
            mi = dict(v.split(":", 1) for v in root.get("MI", []) if ":" in v)
            out["match_length"] = int(mi.get("length", 0))
            out["money"] = out["match_length"] == 0
            out["rules"] = root.get("RU", [])
        re_ = root.get("RE", [None])[0]
        m = re.fullmatch(r"([WB])\+(\d+)(R?)", re_ or "")
        if not m:
            res.update(side=None, winner=None, points=None, source=None, determined=False)
            res["flags"].append(f"no_result RE[{re_}]" if re_ else "no_result")
        else:
            side = 1 if m.group(1) == "W" else 2
            res.update(
                side=side,
                winner=pw if side == 1 else pb,
                points=int(m.group(2)),
                source="RE",
                determined=True,
            )
            if m.group(3):
                res["flags"].append("resigned")
        out["games"].append(res)
    out["determined"] = bool(out["games"]) and all(g["determined"] for g in out["games"])
    return out


# ---------------------------------------------------------------- driver


def truth_of(path: str) -> dict:
    with open(path, "rb") as fh:
        raw = fh.read()
    text, info = decode(raw)
    name = path.lower().removesuffix(".gz")
    if name.endswith(".sgf") or text.lstrip().startswith("(;"):
        out = sgf_truth(text)
    else:
        out = mat_truth(text)
    out["storage"] = info
    return out


def main(argv: list[str]) -> int:
    args = list(argv)
    out_path = None
    root = None
    if "-o" in args:
        k = args.index("-o")
        out_path = args[k + 1]
        del args[k : k + 2]
    if "--root" in args:
        k = args.index("--root")
        root = args[k + 1]
        del args[k : k + 2]
    files: list[str] = []
    for a in args:
        if os.path.isdir(a):
            for d, _, names in os.walk(a):
                for nm in sorted(names):
                    low = nm.lower().removesuffix(".gz")
                    if low.endswith((".mat", ".txt", ".sgf")) and not nm.startswith(
                        ("LICENSE", "LICENCE", "COPYING", "NOTICE")
                    ):
                        files.append(os.path.join(d, nm))
        else:
            files.append(a)
    result = {}
    for f in sorted(files):
        key = os.path.relpath(f, root) if root else f
        try:
            result[key] = truth_of(f)
        except Exception as exc:  # a file truth.py itself cannot read
            result[key] = {"error": f"{type(exc).__name__}: {exc}", "determined": False}
    text = json.dumps(result, indent=1, ensure_ascii=False)
    if out_path:
        with open(out_path, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
