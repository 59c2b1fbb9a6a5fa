"""The rooms of the code: what imports what.

The rules (``chouette/``) import nothing of the ledger (``db/``), the server (``web/``) or the
command line (``cli.py``); the ledger nothing of the server or the command line; the server
nothing of the command line. No module imports itself back through others (no cycle), and
``chouette/__init__.py`` maps every room. Read from the source with :mod:`ast`, every import
counted, those made inside a function or under ``TYPE_CHECKING`` too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import chouette
from tests.paths import ROOT

#: The rooms, bottom up: each may import those before it, never one after it.
FLOORS = ("chouette", "files", "db", "web", "cli")


#: The command line's own modules beside cli.py (packaged as cli.py is).
BESIDE_CLI = ("typer_internals",)


def modules() -> dict[str, Path]:
    found = {"cli": ROOT / "cli.py", **{name: ROOT / f"{name}.py" for name in BESIDE_CLI}}
    for room in FLOORS[:-1]:
        for path in sorted((ROOT / room).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports(path: Path, known: dict[str, Path]) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            named = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            named = [a.name for a in node.names]
        else:
            continue
        yield from (name for name in named if name in known)


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: set(imports(path, known)) - {name} for name, path in known.items()}


def floor(name: str) -> int:
    return FLOORS.index("cli" if name in BESIDE_CLI else name.split(".")[0])


def test_no_room_imports_one_above_it():
    up = [
        f"{name} imports {other}"
        for name, others in graph().items()
        for other in sorted(others)
        if floor(other) > floor(name) and name != "chouette.__main__"  # the program's door
    ]
    assert up == []


def cycles(edges: dict[str, set[str]]) -> list[str]:
    """Each cycle met walking the graph depth first, as ``a -> b -> a``."""
    found = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for other in sorted(edges.get(name, ())):
            if state.get(other) == 1:
                found.append(" -> ".join([*path[path.index(other) :], other]))
            elif other not in state:
                visit(other, [*path, other])
        state[name] = 2

    for name in sorted(edges):
        if name not in state:
            visit(name, [name])
    return found


def test_no_module_imports_itself_back():
    assert cycles(graph()) == []


def test_a_cycle_is_found_however_long(tmp_path):
    # the law above can fail: modules importing one another in a ring are found, read from
    # their source as the real ones are
    ring = ("game", "limits", "outcome", "money")
    for name, other in zip(ring, ring[1:] + ring[:1], strict=True):
        (tmp_path / f"{name}.py").write_text(f"from chouette.{other} import x\n")
    known = {f"chouette.{name}": tmp_path / f"{name}.py" for name in ring}
    edges = {name: set(imports(path, known)) for name, path in known.items()}
    assert cycles(edges) == [
        "chouette.game -> chouette.limits -> chouette.outcome -> chouette.money -> chouette.game"
    ]
    assert cycles({**edges, "chouette.money": set()}) == []


def test_the_package_maps_every_room():
    text = chouette.__doc__ or ""
    missing = [
        name
        for name in modules()
        if name.startswith("chouette.")
        and name.count(".") == 1
        and f"{name}`" not in text
        and f"~{name}`" not in text
    ]
    rooms = [r for r in ("cli.py", "db/", "files/", "web/", "tests/", "bench/") if r not in text]
    assert (missing, rooms) == ([], [])
