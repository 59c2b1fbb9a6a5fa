"""Make ``chouette/confusables.py`` from Unicode's ``confusables.txt`` beside this script.

Run from the clone's root when the data file is replaced by a newer one::

    python3 chouette/unicode/make_confusables.py

The table keeps every mapping of the file (a character to its prototype, a sequence of one
or more characters), each written with escapes so that no bidirectional or invisible
character lands in the source. tests/rules/test_names.py makes the table again and checks
that it is the one in the clone.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "confusables.txt"
TARGET = HERE.parent / "confusables.py"

_HEADER = re.compile(r"#\s*(Date|Version):\s*(.+?)\s*$")


def escaped(text: str) -> str:
    """``text`` as a Python string literal of escapes (ASCII letters and digits as they are)."""
    out = []
    for char in text:
        if char.isascii() and char.isalnum():
            out.append(char)
        elif ord(char) <= 0xFFFF:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(f"\\U{ord(char):08x}")
    return '"' + "".join(out) + '"'


def read(source: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The file's mappings (character → prototype) and its header's date and version."""
    header: dict[str, str] = {}
    table: dict[str, str] = {}
    for line in source.read_text(encoding="utf-8").splitlines():
        found = _HEADER.match(line)
        if found:
            header.setdefault(found.group(1), found.group(2))
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        fields = [field.strip() for field in data.split(";")]
        char = chr(int(fields[0], 16))
        table[char] = "".join(chr(int(code, 16)) for code in fields[1].split())
    return table, header


def module(table: dict[str, str], header: dict[str, str]) -> str:
    """The text of ``chouette/confusables.py``."""
    rows = "".join(
        f"    {escaped(char)}: {escaped(table[char])},\n" for char in sorted(table, key=ord)
    )
    return f'''"""Unicode's confusables: each character that looks like another, and its prototype.

Made by chouette/unicode/make_confusables.py from Unicode's confusables.txt (Unicode Security
Mechanisms for UTS #39, version {header["Version"]}, dated {header["Date"]}), kept beside it
with its licence (chouette/unicode/LICENSE, the Unicode License v3) and where it came from
(chouette/unicode/SOURCE.md). Do not edit: make it again from the data file.

Copyright © 2004-2025 Unicode, Inc. The data is distributed under the Unicode License v3
(SPDX-License-Identifier: Unicode-3.0): see chouette/unicode/LICENSE.
"""

# ruff: noqa: E501 (a generated table: a prototype may be a long sequence)

VERSION = "{header["Version"]}"

#: Each character of confusables.txt and the prototype it maps to (TR39's skeleton maps every
#: character of a text so, after NFD, and NFD again).
PROTOTYPES: dict[str, str] = {{
{rows}}}
'''


def main() -> int:
    table, header = read(SOURCE)
    TARGET.write_text(module(table, header), encoding="utf-8")
    print(f"{TARGET}: {len(table)} characters, version {header['Version']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
