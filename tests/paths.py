"""Where the tests' files are, whatever folder a test is in: the clone's root and the data
folders kept in tests/ (a test names them from here, never from its own ``__file__``)."""

from __future__ import annotations

from pathlib import Path

#: The clone: README.md, pyproject.toml, cli.py, db/, web/, docs/, bench/.
ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
#: Real exports players download, with their truth (tests/corpus/SOURCES.md).
CORPUS = TESTS / "corpus"
#: gnubg's own files and their ground truth (manifest.json): the engine sample corpus.
SAMPLES = TESTS / "engine-samples"
#: Files gnubg wrote for the sessions the sample corpus leaves out, with their truth.
ENGINE_DATA = TESTS / "engine_data"
#: Ledgers of older schemas, and files of other kinds the tests read.
DATA = TESTS / "data"
