"""The words of chouette's help, for the catalogue: every paragraph of each command's
docstring (its one-line summary, as ``--help`` and the list of commands show it, each later
paragraph on its own, so a translator sees one at a time, and the ``Example:``/``Examples:``
headings), and every option's and argument's ``help=``, keyed by their English as written.
``cli.py`` says them in the reader's words (:func:`paragraphs` splits a docstring as the
catalogue keys it); Babel finds them with :func:`extract`, registered in ``babel.cfg`` for
``cli.py`` (docs/TRANSLATING.md).

The examples themselves (the command lines of a ``\\b`` block, which Click shows as
written) are the same in every language: a command's words are not translated.
"""

from __future__ import annotations

import ast
import io
from collections.abc import Iterator
from typing import IO, Any


def paragraph_key(paragraph: str) -> str:
    """A paragraph of help as the catalogue keys it: its words, one space between them (Click
    wraps it anew in any language)."""
    return " ".join(paragraph.split())


def paragraphs(doc: str) -> list[str]:
    """A docstring's paragraphs (cleaned, as Typer keeps it: ``inspect.cleandoc``), as written."""
    return doc.split("\n\n")


def translated(paragraph: str) -> bool:
    """Whether the catalogue holds this paragraph of a docstring: every one but those Click
    shows as written (``\\b``: the examples' command lines)."""
    return not paragraph.lstrip().startswith("\b")


def help_words(source: str) -> Iterator[tuple[int, str]]:
    """The help texts a module of commands writes (its line and the English): each paragraph
    of each command's docstring but its examples' command lines, each ``help=`` given as
    text."""
    import inspect

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and any(
            "command" in ast.unparse(d) or "callback" in ast.unparse(d) for d in node.decorator_list
        ):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                cleaned = inspect.cleandoc(doc).partition("\f")[0]
                for paragraph in paragraphs(cleaned):
                    if translated(paragraph):
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
