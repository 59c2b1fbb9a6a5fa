"""Tests of the ledger (db/): the store on SQLite and PostgreSQL, the journal and undo, the
chain, export and import, migrations and checks, locks, concurrency and crashes."""
