"""What ``pip install chouette`` puts in site-packages: one package, ``chouette``.

The clone keeps the declared layout (``chouette/`` the rules, ``cli.py``, ``db/``, ``web/``);
the wheel carries the command line, the ledger and the server inside ``chouette/_app``, so
nothing named ``cli``, ``db`` or ``web`` lands beside other programs' modules. These tests
build the real wheel from a copy of the sources, install it into a folder of its own and run
the installed command from elsewhere.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.paths import ROOT

pytestmark = pytest.mark.slow

SOURCES = [
    "chouette",
    "db",
    "files",
    "web",
    "cli.py",
    "typer_internals.py",
    "pyproject.toml",
    "README.md",
]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built without network from a copy of the clone (the clone stays clean)."""
    copy = tmp_path_factory.mktemp("src")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, copy / name)
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(copy),
            "--no-deps",
            "--no-build-isolation",
            "--quiet",
            "--wheel-dir",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    (built,) = out.glob("chouette-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel unpacked as pip installs it: a folder to put on the path."""
    target = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as zipped:
        zipped.extractall(target)
    return target


def sources() -> set[str]:
    """Every module and template of the clone, as the wheel should hold it."""
    inside = {
        "chouette": "chouette",
        "db": "chouette/_app/db",
        "files": "chouette/_app/files",
        "web": "chouette/_app/web",
    }
    found = {"chouette/_app/cli.py", "chouette/_app/typer_internals.py"}
    for folder, there in inside.items():
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                found.add(f"{there}/{path.relative_to(ROOT / folder).as_posix()}")
    return found


def test_the_wheel_installs_one_package_named_chouette_and_nothing_else(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zipped:
        names = zipped.namelist()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"chouette", wheel.name.split("-py")[0] + ".dist-info"}
    assert {name for name in names if not name.startswith("chouette-")} == sources()


def requirements(wheel: Path) -> dict[str, str]:
    """The wheel's runtime requirements (no extra), by name: ``{"typer": ">=0.29,<0.30"}``."""
    with zipfile.ZipFile(wheel) as zipped:
        (metadata,) = [n for n in zipped.namelist() if n.endswith(".dist-info/METADATA")]
        text = zipped.read(metadata).decode()
    found = {}
    for line in text.splitlines():
        if line.startswith("Requires-Dist: ") and "extra ==" not in line:
            spec = line.removeprefix("Requires-Dist: ").split(";")[0].replace(" ", "")
            name = spec.rstrip("<>=!~.,0123456789").lower()
            found[name] = spec[len(name) :]
    return found


def test_the_wheel_stands_on_the_named_stack(wheel: Path) -> None:
    """typer (the commands), sqlmodel (the schema and its writes) and tabulate (every
    terminal table) are what the installed command needs; none is an extra."""
    found = requirements(wheel)
    assert set(found) >= {"typer", "sqlmodel", "tabulate"}
    assert "<" in found["typer"], "typer is pinned below its next minor release"


def test_the_console_script_starts_the_package(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zipped:
        (entry,) = [n for n in zipped.namelist() if n.endswith("entry_points.txt")]
        text = zipped.read(entry).decode()
    assert "chouette = chouette.__main__:run" in text


def run_installed(installed: Path, where: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m chouette ARGS`` from the installed folder, in a folder away from the clone;
    the test environment's own libraries (typer, sqlmodel, …) stay on the path."""
    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(installed)!r})\n"
        "import runpy\n"
        "runpy.run_module('chouette', run_name='__main__', alter_sys=True)\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CHOUETTE_NOW")}
    env["CHOUETTE_DB"] = str(where / "club.db")
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_installed_command_plays_an_evening_from_its_own_folder(
    installed: Path, tmp_path: Path
) -> None:
    done = run_installed(installed, tmp_path, "demo")
    assert done.returncode == 0, done.stderr
    assert "$ chouette settle" in done.stdout
    assert "Traceback" not in done.stderr
    for command in (["new", "friday", "ann", "bob", "cat"], ["end", "box"]):
        step = run_installed(installed, tmp_path, *command)
        assert step.returncode == 0, (command, step.stderr)
    settled = run_installed(installed, tmp_path, "settle")
    assert settled.returncode == 0, settled.stderr
    assert [line.split() for line in settled.stdout.splitlines()[2:-1]] == [
        ["bob", "ann", "1.00"],
        ["cat", "ann", "1.00"],
    ]
    assert settled.stdout.splitlines()[-1].startswith("Fingerprint of friday: ")
    # the wheel carries the compiled catalogues: a Danish report from the installed command
    from files.words import translation

    report = run_installed(installed, tmp_path, "report", "--html", "fredag.html", "--lang", "da")
    assert report.returncode == 0, report.stderr
    page = (tmp_path / "fredag.html").read_text()
    standings = translation("da").gettext("Standings")
    assert '<html lang="da">' in page and f"<h2>{standings}</h2>" in page
    assert standings != "Standings"


def test_the_installed_modules_are_the_ones_inside_the_package(
    installed: Path, tmp_path: Path
) -> None:
    """The installed command's cli, db and web are the wheel's, and the server's templates
    and style sheet are found there; outside the command, ``db`` and ``cli`` do not exist."""
    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(installed)!r})\n"
        "from chouette.__main__ import home\n"
        "sys.path.insert(0, str(home()))\n"
        "import cli, db.ledger, files.engine, web.app\n"
        "print(cli.__file__); print(db.ledger.__file__); print(files.engine.__file__)\n"
        "print(web.app.__file__)\n"
        "print(web.app.templates().get_template('board.html').filename)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    app = installed / "chouette" / "_app"
    shown = [Path(line) for line in done.stdout.splitlines()]
    assert shown == [
        app / "cli.py",
        app / "db" / "ledger.py",
        app / "files" / "engine.py",
        app / "web" / "app.py",
        app / "web" / "templates" / "board.html",
    ]
    plain = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(installed)!r}); import db"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert plain.returncode == 1
    assert "No module named 'db'" in plain.stderr
