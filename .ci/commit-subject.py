"""The commit-msg hook of .pre-commit-config.yaml: a subject under 72 characters, the detail
in the body (the house habit; ``git log --oneline`` shows subjects whole)."""

import sys

with open(sys.argv[1], encoding="utf-8") as message:
    subject = message.readline().rstrip("\n")
if len(subject) >= 72:
    sys.exit(
        f"the commit's subject is {len(subject)} characters: keep it under 72 and put the "
        "detail in the body"
    )
