"""A real headless Chromium (Debian's): :func:`chromium` finds it, :func:`run_chromium` runs
it on a page, :func:`decode_png` reads its screenshots (standard library only)."""

from __future__ import annotations

import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
]


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None and Path("/usr/bin/chromium").exists():
        found = "/usr/bin/chromium"
    if found is None:
        pytest.fail(
            "Chromium is not installed: this test opens the HTML report in a real browser. "
            "Install it (Debian/Ubuntu: apt-get install -y chromium) or deselect with "
            "-m 'not slow'.",
            pytrace=False,
        )
    return found


def run_chromium(*args: str) -> subprocess.CompletedProcess[bytes]:
    with tempfile.TemporaryDirectory(prefix="chouette-chromium-") as profile:
        done = subprocess.run(
            [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
            capture_output=True,
            timeout=120,
            check=False,
        )
    if done.returncode != 0:
        pytest.fail(f"chromium failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
    return done


def decode_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and rows of RGB bytes of an 8-bit RGB or RGBA PNG (standard library)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks, header = 8, [], (0, 0, 0, 0, 0, 0, 0)
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and not interlace, f"unexpected PNG {header}"
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(b"".join(chunks)), width * bpp
    rows, prev = [], bytearray(stride)
    for r in range(height):
        kind, line = (
            raw[r * (stride + 1)],
            bytearray(raw[r * (stride + 1) + 1 : (r + 1) * (stride + 1)]),
        )
        for i in range(stride) if kind else ():
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 0xFF
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line) if bpp == 3 else bytes(b for i, b in enumerate(line) if i % 4 != 3))
        prev = line
    return width, height, rows  # fmt: skip
