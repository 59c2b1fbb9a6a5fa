"""Drive GNU Backgammon to play a money session against itself and export it.

:func:`play_money_session` runs ``gnubg -t -q -r -p SCRIPT``: the script plays ``games``
money games gnubg against gnubg (Jacoby on, up to 3 beavers/raccoons, up to 2 automatic
doubles, noisy cube decisions so that beavers and raccoons happen), exports the session as
``.mat`` and ``.sgf`` and writes what gnubg itself holds about every game (from
``gnubg.match()``, never from the exported files) as JSON. That is the truth the engine
readers are checked against.

Needs ``/usr/games/gnubg`` (``apt-get install -y gnubg``); :func:`find_gnubg` says where it is.
Facts learnt from gnubg 1.07.001 (see engine-samples/gen): ``set display on`` is needed for
automatic doubles to really turn the cube; ``set automatic game off`` is needed or ``new
session`` never returns; the script must be a Python file run with ``-p``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GNUBG_CANDIDATES = ("gnubg", "/usr/games/gnubg")

_SCRIPT = r"""
import json
import gnubg

job = json.load(open(JOB, encoding="utf-8"))


def cmd(text):
    gnubg.command(text)


for text in job["commands"]:
    cmd(text)
cmd("new session")
cmd("set matchinfo date 2024-06-01")
for _ in range(job["games"] - 1):
    cmd("new game")

match = gnubg.match(analysis=0, boards=0, statistics=0)
info = match["match-info"]
names = [info["X"]["name"], info["O"]["name"]]
games = []
for number, game in enumerate(match["games"], 1):
    head = game["info"]
    if head.get("winner") is None:
        raise SystemExit("game %d did not finish" % number)
    won = 0 if head["winner"] == "X" else 1
    records = [r for r in game["game"] if r.get("action") != "set"]
    cube = head.get("initial-cube", 1)
    chain = 0
    offers = [0, 0, 0]  # doubles, beavers, raccoons
    for record in records:
        action = record.get("action")
        if action == "move":
            chain = 0
        elif action == "double":
            offers[min(chain, 2)] += 1
            chain += 1
        elif action == "take":
            cube, chain = cube * 2 ** chain, 0
        elif action == "drop":
            cube, chain = cube * 2 ** (chain - 1), 0
    last = records[-1]["action"] if records else None
    end = "resign" if head.get("resigned") else "drop" if last == "drop" else "bearoff"
    games.append({
        "game": number,
        "score_before": [head["score-X"], head["score-O"]],
        "winner": names[won],
        "loser": names[1 - won],
        "points": head["points-won"],
        "end": end,
        "cube": cube,
        "initial_cube": head.get("initial-cube", 1),
        "beavers": offers[1],
        "raccoons": offers[2],
    })
final = list(games[-1]["score_before"]) if games else [0, 0]
if games:
    final[names.index(games[-1]["winner"])] += games[-1]["points"]

cmd("export match mat \"%s\"" % job["mat"])
cmd("analyse clear match")
cmd("save match \"%s\"" % job["sgf"])
with open(job["out"], "w", encoding="utf-8") as f:
    json.dump({"players": names, "games": games, "final_score": final}, f, ensure_ascii=False)
"""


@dataclass(frozen=True)
class GnubgGame:
    """One game as gnubg holds it: ``points`` after Jacoby and automatic doubles."""

    game: int
    winner: str
    loser: str
    points: int
    end: str
    cube: int
    initial_cube: int
    beavers: int
    raccoons: int


@dataclass(frozen=True)
class GnubgSession:
    """A played session: the exported files and gnubg's own account of it."""

    players: tuple[str, str]
    games: tuple[GnubgGame, ...]
    final_score: tuple[int, int]
    mat: Path
    sgf: Path


def find_gnubg() -> str | None:
    """The gnubg program, or ``None`` when it is not installed."""
    for candidate in GNUBG_CANDIDATES:
        found = shutil.which(candidate)
        if found:
            return found
    return None


def play_money_session(
    directory: Path,
    *,
    games: int = 10,
    seed: int = 1234,
    names: tuple[str, str] = ("Big Al", "Zoë"),
    jacoby: bool = True,
    beavers: int = 3,
    auto_doubles: int = 2,
    cube_noise: float = 0.06,
    timeout: float = 600,
) -> GnubgSession:
    """Have gnubg play ``games`` money games against itself; export ``session.mat`` and
    ``session.sgf`` into ``directory`` and return gnubg's own results."""
    program, mat, sgf, out = _prepared(directory, "session")
    commands = [
        "set display on",
        "set automatic game off",
        "set automatic roll on",
        "set confirm new off",
        "set rng mersenne",
        "set player 0 gnubg",
        "set player 1 gnubg",
        "set player 0 chequerplay evaluation plies 0",
        "set player 1 chequerplay evaluation plies 0",
        "set player 0 cubedecision evaluation plies 0",
        "set player 1 cubedecision evaluation plies 0",
        f"set player 0 cubedecision evaluation noise {cube_noise}",
        "set player 0 chequerplay evaluation noise 0.02",
        'set defaultnames "{}" "{}"'.format(*names),
        f"set player 0 name {names[0]}",
        f"set player 1 name {names[1]}",
        f"set jacoby {'on' if jacoby else 'off'}",
        f"set beavers {beavers}",
        f"set automatic doubles {auto_doubles}",
        f"set seed {seed}",
    ]
    _run(program, _SCRIPT, {"commands": commands, "games": games}, mat, sgf, out, timeout)
    truth = json.loads(out.read_text(encoding="utf-8"))
    return GnubgSession(
        players=(truth["players"][0], truth["players"][1]),
        games=tuple(game_of(game) for game in truth["games"]),
        final_score=(truth["final_score"][0], truth["final_score"][1]),
        mat=mat,
        sgf=sgf,
    )


def game_of(game: dict[str, Any]) -> GnubgGame:
    """One game of the script's JSON."""
    return GnubgGame(**{key: game[key] for key in GnubgGame.__dataclass_fields__})


def _prepared(directory: Path, stem: str) -> tuple[str, Path, Path, Path]:
    """The gnubg program, and where a session's ``.mat``, ``.sgf`` and truth go."""
    program = find_gnubg()
    if program is None:
        raise FileNotFoundError("gnubg is not installed (apt-get install -y gnubg)")
    directory.mkdir(parents=True, exist_ok=True)
    return program, directory / f"{stem}.mat", directory / f"{stem}.sgf", directory / "truth.json"


def _run(
    program: str,
    script_text: str,
    job_data: dict[str, Any],
    mat: Path,
    sgf: Path,
    out: Path,
    timeout: float,
) -> None:
    """Run ``script_text`` in gnubg with its job (``job_data`` and where to write the
    ``.mat``, the ``.sgf`` and gnubg's own account, ``out``)."""
    with tempfile.TemporaryDirectory(prefix="gnubg-driver-") as work:
        job = Path(work) / "job.json"
        job.write_text(
            json.dumps(
                {**job_data, "mat": str(mat), "sgf": str(sgf), "out": str(out)},
                ensure_ascii=False,
            ),
            encoding="utf-8",
        )
        script = Path(work) / "play.py"
        script.write_text(f"JOB = {str(job)!r}\n{script_text}", encoding="utf-8")
        prefs = Path(work) / "prefs"
        prefs.mkdir()
        run = subprocess.run(
            [program, "-t", "-q", "-r", "-s", str(prefs), "-p", str(script)],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=timeout,
            env={"HOME": str(prefs), "PATH": "/usr/bin:/bin:/usr/games", "LANG": "C.UTF-8"},
        )
    if run.returncode != 0 or not out.exists():
        tail = (run.stdout + run.stderr)[-2000:]
        raise RuntimeError(f"gnubg failed (exit {run.returncode}):\n{tail}")


_RESIGN_SCRIPT = r"""
import json
import gnubg

job = json.load(open(JOB, encoding="utf-8"))
for text in job["commands"]:
    gnubg.command(text)
for number, level in enumerate(job["resign"]):
    gnubg.command("new session" if number == 0 else "new game")
    gnubg.command("roll")
    gnubg.command("resign " + level)
match = gnubg.match(analysis=0, boards=0, statistics=0)
names = [match["match-info"][side]["name"] for side in ("X", "O")]
games = [
    {"winner": names[0 if g["info"]["winner"] == "X" else 1], "points": g["info"]["points-won"],
     "resigned": bool(g["info"].get("resigned"))}
    for g in match["games"]
]
gnubg.command("export match mat \"%s\"" % job["mat"])
gnubg.command("save match \"%s\"" % job["sgf"])
with open(job["out"], "w", encoding="utf-8") as f:
    json.dump({"players": names, "games": games}, f, ensure_ascii=False)
"""


@dataclass(frozen=True)
class Resigned:
    """A session of resignations: the exports and gnubg's own points for each game."""

    players: tuple[str, str]
    games: tuple[tuple[str, int, bool], ...]  # (winner, points, resigned)
    mat: Path
    sgf: Path


def resign_session(
    directory: Path,
    levels: tuple[str, ...],
    *,
    jacoby: bool = True,
    seed: int = 1234,
    names: tuple[str, str] = ("Ann", "Bob"),
    timeout: float = 300,
) -> Resigned:
    """A money session in which ``names[0]`` (a person) rolls at their first turn of each
    game and resigns at ``levels[i]`` (``single``, ``gammon``, ``backgammon``) and gnubg,
    playing ``names[1]``, accepts: the cube is centred. Exported as ``resign.mat`` and
    ``resign.sgf`` into ``directory``, with gnubg's own points for each game."""
    program, mat, sgf, out = _prepared(directory, "resign")
    commands = [
        "set display on",
        "set automatic game off",
        "set automatic roll off",
        "set confirm new off",
        "set rng mersenne",
        f"set seed {seed}",
        "set player 0 human",
        "set player 1 gnubg",
        f"set player 0 name {names[0]}",
        f"set player 1 name {names[1]}",
        f"set jacoby {'on' if jacoby else 'off'}",
    ]
    _run(program, _RESIGN_SCRIPT, {"commands": commands, "resign": list(levels)}, mat, sgf,
         out, timeout)  # fmt: skip
    truth = json.loads(out.read_text(encoding="utf-8"))
    return Resigned(
        players=(truth["players"][0], truth["players"][1]),
        games=tuple((g["winner"], g["points"], g["resigned"]) for g in truth["games"]),
        mat=mat,
        sgf=sgf,
    )
