"""The browser's view of the table: ``chouette serve`` (an optional extra, so the CLI stays
light: ``pip install '.[serve]'`` in the clone).

- :mod:`web.moves`: what the scorekeeper may do now (the rules decide) and the events of
  each button — pure;
- :mod:`web.board`: what the scoreboard shows, as plain values — pure;
- :mod:`web.table`: the server's one door to the ledger (reads, and each action one
  transaction through :mod:`db.commands`);
- :mod:`web.heard`: what a command run for a page says, kept as values and rendered in the
  page's words (and the server's terminal's);
- :mod:`web.i18n`: the language a browser asks for;
- :mod:`web.hub`: polls the ledger's change marker and wakes every page's event stream;
- :mod:`web.app`: the Starlette application and its routes; ``templates/`` and ``static/``;
- :mod:`web.serve`: listening, the address, the QR code and the PIN printed, uvicorn;
- :mod:`web.terminal`: what the server prints, from a thread of its own (a paused terminal
  never holds the server up).

Dependencies point one way: ``cli.py -> web/ -> db/ -> chouette/``.
"""
