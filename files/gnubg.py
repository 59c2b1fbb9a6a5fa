"""GNU Backgammon, run as its own program to evaluate cube decisions (``chouette review``).

chouette never links gnubg (GPL) in: it writes a command file and runs ``gnubg -t -q -r -s
DIR -c FILE`` (text mode, quiet, no rc file, settings in a folder of its own that is thrown
away), with an environment of its own (``LC_ALL=C``: English words and a decimal point), its
standard input closed, and a time limit. The commands are the ones gnubg's manual gives: a
money session, ``set turn``, ``set board`` (a Position ID, from the side on roll), ``set cube
value`` / ``owner`` / ``centre``, ``set jacoby``, ``set beavers``, ``set evaluation
cubedecision evaluation plies N``, then ``eval`` for each board asked.

Its answer is read defensively: each ``eval`` prints the Position ID and Match ID it evaluated
and its cubeful equities, labelled (``No double``, ``Double, take``, ``Double, pass``; their
order changes with their sizes). The Match ID says what gnubg really set up (the cube's value
and owner, who is on roll, no dice, money play, Jacoby): each answer is checked against what
was asked, and anything gnubg did not do as asked (a board it refused is left as it was,
silently) is an error naming the board, never a guess.

The program is ``CHOUETTE_GNUBG`` if set, else ``gnubg`` on the PATH, else
``/usr/games/gnubg`` (where Debian puts it). gnubg is needed by ``review`` alone.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path

from chouette.errors import ChouetteError
from chouette.review import Asked, Equities
from chouette.text import clipped
from chouette.words import Said, said

CANDIDATES = ("gnubg", "/usr/games/gnubg")
#: The plies chouette asks gnubg to look ahead for a cube decision: 0 to 3 (2, "world class",
#: by default). gnubg takes more, at minutes a board.
PLIES = range(4)
DEFAULT_PLIES = 2
#: Seconds gnubg is given: a start, and each board.
START_SECONDS = 60
BOARD_SECONDS = {0: 5, 1: 10, 2: 30, 3: 300}

_EVAL = re.compile(r"^Position ID:\t(?P<position>\S+)\s*\nMatch ID:\t(?P<match>\S+)", re.M)
_EQUITY = re.compile(
    r"^\s*\d+\.\s+(?P<label>No (?:re)?double|(?:Re)?[Dd]ouble, (?:take|pass))\s+"
    r"(?P<equity>[+-]?\d+\.\d+)",
    re.M,
)
_VERSION = re.compile(r"GNU Backgammon (\S+)")


class EngineMissing(ChouetteError):
    """gnubg is not there to run."""


class EngineFailed(ChouetteError):
    """gnubg ran but did not answer what it was asked."""


def find_gnubg(environ: Mapping[str, str] | None = None) -> str | None:
    """The gnubg program to run, or None when there is none."""
    env = os.environ if environ is None else environ
    named = env.get("CHOUETTE_GNUBG")
    if named:
        found = shutil.which(named)
        return found
    for candidate in CANDIDATES:
        found = shutil.which(candidate)
        if found:
            return found
    return None


def missing() -> EngineMissing:
    """The refusal when gnubg is not installed: how to install it."""
    return EngineMissing(
        said(
            "GNU Backgammon (gnubg) is not installed, and chouette review runs it to evaluate "
            "the positions. Install it from your system's packages (Debian, Ubuntu: sudo "
            "apt-get install gnubg; macOS: brew install gnubg), or name the program with "
            "CHOUETTE_GNUBG. Nothing was changed."
        )
    )


def commands(asked: Sequence[Asked], *, beavers: bool, plies: int) -> str:
    """The command file that has gnubg evaluate each board asked, in order. gnubg takes the
    Jacoby rule when a session starts: a new money session begins wherever it changes."""
    lines = [
        "set automatic roll off",
        "set confirm new off",
        "set player 0 human",
        "set player 1 human",
        f"set beavers {3 if beavers else 0}",
        "set output digits 6",
        f"set evaluation cubedecision evaluation plies {plies}",
        "set evaluation cubedecision evaluation cubeful on",
        "set evaluation cubedecision evaluation deterministic on",
        "set evaluation cubedecision evaluation noise 0",
    ]
    jacoby: bool | None = None
    for ask in asked:
        if ask.cube.jacoby != jacoby:
            jacoby = ask.cube.jacoby
            lines += [f"set jacoby {'on' if jacoby else 'off'}", "new session", "set turn 1"]
        lines += [
            f"set board {ask.position}",
            f"set cube value {1 if ask.cube.centred else 2}",
            "set cube centre" if ask.cube.centred else "set cube owner 1",
            "eval",
        ]
    return "\n".join(lines) + "\n"


def evaluate(
    asked: Sequence[Asked],
    *,
    beavers: bool,
    plies: int = DEFAULT_PLIES,
    program: str | None = None,
) -> tuple[dict[Asked, Equities], str]:
    """gnubg's equities for each board asked (with the session's beavers, at ``plies``), and
    the engine's name and version as it says them."""
    if not asked:
        return {}, ""
    if plies not in PLIES:
        raise ChouetteError(said("the plies are 0 to 3, not {plies}", plies=str(plies)))
    found = program or find_gnubg()
    if found is None:
        raise missing()
    with tempfile.TemporaryDirectory(prefix="chouette-gnubg-") as work:
        folder = Path(work)
        script = folder / "review.txt"
        script.write_text(commands(asked, beavers=beavers, plies=plies), encoding="utf-8")
        seconds = START_SECONDS + BOARD_SECONDS[plies] * len(asked)
        try:
            run = subprocess.run(
                [found, "-t", "-q", "-r", "-s", str(folder), "-c", str(script)],
                capture_output=True,
                text=True,
                errors="replace",
                stdin=subprocess.DEVNULL,
                timeout=seconds,
                cwd=folder,
                env={
                    "HOME": str(folder),
                    "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                    "LC_ALL": "C",
                    "LANG": "C",
                },
                check=False,
            )
        except FileNotFoundError:
            raise missing() from None
        except subprocess.TimeoutExpired:
            raise EngineFailed(
                said(
                    "GNU Backgammon did not finish within {seconds} seconds for {count} "
                    "positions at {plies} plies: try fewer plies (--plies)",
                    seconds=str(seconds),
                    count=str(len(asked)),
                    plies=str(plies),
                )
            ) from None
        except OSError as err:
            raise EngineFailed(
                said("GNU Backgammon could not be run: {reason}", reason=clipped(str(err)))
            ) from None
    version = _VERSION.search(run.stdout)
    return read_answers(run.stdout, asked), (
        f"GNU Backgammon {version.group(1)}" if version else "GNU Backgammon"
    )


def read_answers(output: str, asked: Sequence[Asked]) -> dict[Asked, Equities]:
    """Each ``eval``'s equities in gnubg's ``output``, checked against what was asked."""
    blocks = list(_EVAL.finditer(output))
    if len(blocks) != len(asked):
        raise EngineFailed(
            said(
                "GNU Backgammon evaluated {done} of the {count} positions asked: {tail}",
                done=str(len(blocks)),
                count=str(len(asked)),
                tail=clipped(" ".join(output.split()[-40:]), 400),
            )
        )
    answers: dict[Asked, Equities] = {}
    for index, (block, ask) in enumerate(zip(blocks, asked, strict=True)):
        end = blocks[index + 1].start() if index + 1 < len(blocks) else len(output)
        text = output[block.end() : end]
        position, match = block["position"], block["match"]
        problem = _state_problem(position, match, ask)
        if problem is not None:
            raise EngineFailed(
                said(
                    "GNU Backgammon did not evaluate the position {position} as asked: {problem}",
                    position=ask.position,
                    problem=problem,
                )
            )
        equities: dict[str, Decimal] = {}
        for found in _EQUITY.finditer(text.split("Proper cube action", 1)[0]):
            label = found["label"].lower().replace("redouble", "double")
            equities.setdefault(label, Decimal(found["equity"]))
        if set(equities) != {"no double", "double, take", "double, pass"}:
            raise EngineFailed(
                said(
                    "GNU Backgammon gave no cube decision for the position {position}",
                    position=ask.position,
                )
            )
        answers[ask] = Equities(
            equities["no double"], equities["double, take"], equities["double, pass"]
        )
    return answers


def _state_problem(position: str, match: str, ask: Asked) -> Said | None:
    """What gnubg's Match ID and Position ID say it evaluated, against what was asked (None:
    the same): bits 0-3 the cube's value (log 2), 4-5 its owner (3: centred), 6 who is on
    roll, 15-20 the dice, 21-35 the match length, 66 "not Jacoby" (gnubg's manual, "A
    technical description of the Match ID")."""
    if position != ask.position:
        return said("it evaluated {position}", position=clipped(position, 20))
    try:
        key = base64.b64decode(match + "=" * (-len(match) % 4), validate=True)
    except ValueError:
        return said("its Match ID {match} is not one", match=clipped(match, 20))
    bits = int.from_bytes(key, "little")

    def field(start: int, width: int) -> int:
        return (bits >> start) & ((1 << width) - 1)

    on_roll, owner = field(6, 1), field(4, 2)
    if field(0, 4) != (0 if ask.cube.centred else 1):
        return said("it set another cube value")
    if (owner == 3) != ask.cube.centred or (not ask.cube.centred and owner != on_roll):
        return said("it set another cube owner")
    if field(15, 6) != 0:
        return said("it had the dice rolled")
    if field(21, 15) != 0:
        return said("it set up a match, not money play")
    if len(key) > 8 and (not field(66, 1)) != ask.cube.jacoby:
        return said("it set the Jacoby rule otherwise")
    return None
