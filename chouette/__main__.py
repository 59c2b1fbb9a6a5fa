"""``python -m chouette`` and the ``chouette`` command: start the command line.

The one door from the package to the program around it. Installed, the command line
(``cli.py``), the ledger (``db/``), the files beside it (``files/``) and the server
(``web/``) live inside this package, in ``chouette/_app/``, so that nothing named ``cli``,
``db``, ``files`` or ``web`` lands in site-packages; they import one another by those names,
so that folder goes on the path of this process only. In a clone they sit beside this
package, where they are already importable.

Why a path is put on ``sys.path`` at run time, and packaging cannot avoid it: the rooms
import one another as ``cli``, ``db``, ``files`` and ``web`` (the layout the project keeps).
Installed under those names they would take four common top-level names in site-packages,
where another distribution's ``db`` or ``web`` would shadow them or be shadowed; installed
under ``chouette._app`` they must still find one another by those names, which only a path
entry gives (a ``.pth`` file would give it to every Python process of the environment, not
only this one). Relative imports would end it, at the cost of the clone running ``cli.py``
and ``db/`` by their own names (``pytest``, ``python -m``); ``tests/system/test_packaging.py``
proves the installed program and the clone run the same code.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def home() -> Path:
    """Where ``cli.py``, ``db/``, ``files/`` and ``web/`` are: the installed ``_app`` folder,
    or the clone."""
    installed = Path(__file__).with_name("_app")
    return installed if installed.is_dir() else Path(__file__).resolve().parent.parent


def run() -> None:
    """The console entry point."""
    folder = str(home())
    if folder not in sys.path:
        sys.path.insert(0, folder)
    importlib.import_module("cli").run()


if __name__ == "__main__":
    run()
