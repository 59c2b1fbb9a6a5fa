"""The words of chouette's help, for the catalogue: each command's one-line summary (the first
paragraph of its docstring, as ``--help`` and the list of commands show it), the
``Example:``/``Examples:`` headings, and every option's and argument's ``help=``, keyed by
their English as written. ``cli.py`` says them in the reader's words (:func:`paragraphs`
splits a docstring as the catalogue keys it); Babel finds them with :func:`extract`,
registered in ``babel.cfg`` for ``cli.py`` (docs/TRANSLATING.md).

The rest of a docstring (its later paragraphs, its examples) is shown in English in every
language: only what is extracted here is translated.
"""

from __future__ import annotations

import ast
import io
from collections.abc import Iterator
from typing import IO, Any

#: The headings of a docstring's examples, translated wherever they stand.
HEADINGS = ("Example:", "Examples:")


def paragraph_key(paragraph: str) -> str:
    """A paragraph of help as the catalogue keys it: its words, one space between them (Click
    wraps it anew in any language)."""
    return " ".join(paragraph.split())


def paragraphs(doc: str) -> list[str]:
    """A docstring's paragraphs (cleaned, as Typer keeps it: ``inspect.cleandoc``), as written."""
    return doc.split("\n\n")


def translated(doc: str, index: int, paragraph: str) -> bool:
    """Whether the catalogue holds this paragraph of a docstring: its first (the summary) and
    its examples' heading; never one Click shows as written (``\\b``)."""
    if paragraph.lstrip().startswith("\b"):
        return False
    return index == 0 or paragraph_key(paragraph) in HEADINGS


def help_words(source: str) -> Iterator[tuple[int, str]]:
    """The help texts a module of commands writes (its line and the English): each command's
    summary and headings, each ``help=`` given as text."""
    import inspect

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and any(
            "command" in ast.unparse(d) or "callback" in ast.unparse(d) for d in node.decorator_list
        ):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                cleaned = inspect.cleandoc(doc).partition("\f")[0]
                for index, paragraph in enumerate(paragraphs(cleaned)):
                    if translated(cleaned, index, paragraph):
                        yield node.lineno, paragraph_key(paragraph)
        elif isinstance(node, ast.keyword) and node.arg == "help":
            try:
                text = ast.literal_eval(node.value)
            except ValueError:
                continue  # a help made as the program runs: not in the catalogue
            if isinstance(text, str) and text:
                yield node.value.lineno, text


def extract(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extractor for ``cli.py``: its said and marked words, as Babel's own Python
    extractor finds them, and its help (:func:`help_words`)."""
    from babel.messages.extract import extract_python

    data = fileobj.read()
    found: Iterator[Any] = extract_python(io.BytesIO(data), keywords, comment_tags, options)
    yield from found
    encoding = options.get("encoding", "utf-8") if options else "utf-8"
    for line, text in help_words(data.decode(encoding)):
        yield line, None, text, []
