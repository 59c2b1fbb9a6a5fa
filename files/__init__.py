"""The files a command reads or writes beside the ledger, and nothing of the ledger itself.

- :mod:`files.engine`: an engine file (GNU Backgammon, eXtreme Gammon, BGBlitz, SGF, neutral
  records) found out, read and checked whole before the ledger is opened;
- :mod:`files.whole`: a file of records read whole and bounded, and an export or a report
  written whole or not at all, never over the ledger's own files;
- :mod:`files.words`: the catalogues of the languages chouette speaks (``chouette/locale``),
  read for both doors;
- :mod:`files.gnubg`: GNU Backgammon run as its own program, a command file in and its
  evaluations of cube decisions read back and checked (``chouette review``).

Below the ledger (:mod:`db`), above the rules (:mod:`chouette`): it imports nothing of
``db/``, ``web/`` or ``cli.py`` (``tests/system/test_rooms.py``).
"""
