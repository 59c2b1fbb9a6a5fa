"""The floor for importing a .mat file: read it and make a single regex pass over it (its
' Game N' lines).

python bench/floor_regex.py FILE.mat
"""

from __future__ import annotations

import re
import sys

with open(sys.argv[1], encoding="utf-8") as file:
    text = file.read()
print(sum(1 for _ in re.finditer(r"^ Game (\d+)$", text, re.M)))
