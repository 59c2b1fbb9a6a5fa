"""A real PostgreSQL server for the test run, and a fresh empty ledger database for each test.

The session fixture :func:`postgres_server` runs ``initdb`` into a temporary directory owned
by a non-root user (as root: the ``postgres`` user of the Debian package, via ``runuser``),
starts the server with ``pg_ctl`` on 127.0.0.1 at a free port (its unix socket stays in the
temporary directory), and stops it at the end of the session, also when tests fail.

chouette connects over TCP as an ordinary role with a password (``scram-sha-256``), the
owner of the database ``ledger``, as a club would set it up. Before each test,
:meth:`PostgresServer.fresh_ledger` empties that database by dropping and recreating its
schema (ten times faster than ``CREATE DATABASE``), after ending any connection a previous
test left behind. :meth:`PostgresServer.create_database` makes another empty database.

The binaries are looked up in ``$CHOUETTE_PG_BIN`` (only there, when it is set), next to
``pg_ctl`` on the PATH, then in Debian's ``/usr/lib/postgresql/*/bin``. Without them the
PostgreSQL tests fail (never skip): install the ``postgresql`` package, as CI does.

The server runs without fsync (its data is thrown away) and in a time zone other than UTC,
so that a time stamp read back without converting it to UTC shows up in the tests.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SUPERUSER = "postgres"
ROLE = "chouette"
PASSWORD = "club-night"
LEDGER = "ledger"
SERVER_TIMEZONE = "America/St_Johns"  # UTC-03:30 or -02:30: no offset hides a missing conversion
INSTALL_HINT = (
    "the PostgreSQL tests need a PostgreSQL server: install the `postgresql` package "
    "(Debian/Ubuntu: `apt-get install -y postgresql`; CI installs it), or point "
    "CHOUETTE_PG_BIN at the directory holding initdb, pg_ctl and postgres"
)


def find_binaries() -> Path | None:
    """The directory holding ``initdb``, ``pg_ctl`` and ``postgres``, or None."""
    candidates: list[Path] = []
    if os.environ.get("CHOUETTE_PG_BIN"):  # when given, the only place to look
        candidates.append(Path(os.environ["CHOUETTE_PG_BIN"]))
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    debian = Path("/usr/lib/postgresql")
    if debian.is_dir():
        versions = [p for p in debian.iterdir() if p.name.isdigit()]
        candidates += [p / "bin" for p in sorted(versions, key=lambda p: int(p.name), reverse=True)]
    for folder in candidates[:1] if os.environ.get("CHOUETTE_PG_BIN") else candidates:
        if all((folder / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres")):
            return folder
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """One throw-away PostgreSQL cluster: start it, hand out empty databases, stop it."""

    def __init__(self, binaries: Path, root: Path, os_user: str | None) -> None:
        self.binaries = binaries
        self.root = root  # also the unix socket's directory
        self.data = root / "data"
        self.log = root / "server.log"
        self.os_user = os_user  # who runs the server when the tests run as root
        self.port = 0
        self._names = itertools.count(1)
        self._connections: dict[str, Any] = {}

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.binaries / tool), *args]
        if self.os_user is not None:
            command = ["runuser", "-u", self.os_user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(
                f"{tool} failed ({done.returncode}): {done.stderr.strip()}\n{log}".strip()
            )

    def start(self) -> None:
        self._run(
            "initdb",
            f"--pgdata={self.data}",
            f"--username={SUPERUSER}",
            "--auth-local=trust",  # the fixture's own superuser connection, on the socket
            "--auth-host=scram-sha-256",  # chouette, over TCP, with its password
            "--encoding=UTF8",
            "--no-locale",
            "--no-sync",
        )
        for attempt in range(3):  # the free port may be taken between the probe and the start
            self.port = free_port()
            settings = {
                "listen_addresses": "127.0.0.1",
                "port": str(self.port),
                "unix_socket_directories": str(self.root),
                "fsync": "off",
                "synchronous_commit": "off",
                "full_page_writes": "off",
                "timezone": SERVER_TIMEZONE,
            }
            options = " ".join(f"-c {key}={value}" for key, value in settings.items())
            try:
                self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60",
                          "-o", options, "start")  # fmt: skip
                break
            except RuntimeError:
                if attempt == 2:
                    raise
        self.execute(f"CREATE ROLE {ROLE} LOGIN PASSWORD '{PASSWORD}'")
        self.execute(f"CREATE DATABASE {LEDGER} OWNER {ROLE} TEMPLATE template0")

    def stop(self) -> None:
        for conn in self._connections.values():
            with contextlib.suppress(Exception):
                conn.close()
        self._connections.clear()
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def url(self, database: str = LEDGER) -> str:
        """How chouette reaches ``database``: over TCP, as its own role."""
        return f"postgresql+psycopg://{ROLE}:{PASSWORD}@127.0.0.1:{self.port}/{database}"

    def execute(self, sql: str, database: str = "postgres") -> list[tuple[Any, ...]]:
        """Run one statement as the superuser (on the unix socket, outside a transaction)."""
        import psycopg

        conn = self._connections.get(database)
        if conn is None:
            conn = psycopg.connect(
                host=str(self.root),
                port=self.port,
                user=SUPERUSER,
                dbname=database,
                autocommit=True,
            )
            self._connections[database] = conn
        cursor = conn.execute(sql)
        return cursor.fetchall() if cursor.description else []

    def fresh_ledger(self) -> str:
        """Empty the ``ledger`` database (a new schema, no leftover sessions) and its URL."""
        self.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()",
            LEDGER,
        )
        self.execute(
            f"DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public AUTHORIZATION {ROLE}",
            LEDGER,
        )
        return self.url(LEDGER)

    def create_database(self) -> str:
        """Another new, empty database owned by chouette's role; its URL."""
        name = f"{LEDGER}_{next(self._names)}"
        self.execute(f'CREATE DATABASE "{name}" OWNER {ROLE} TEMPLATE template0')
        return self.url(name)


def server_user() -> str | None:
    """None when not root; else the OS user the server runs as (initdb refuses root)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise RuntimeError("running as root, and there is no `postgres` user to run the server")


@contextlib.contextmanager
def running_server() -> Iterator[PostgresServer]:
    """Start a throw-away server; stop it and delete its files however the block ends."""
    binaries = find_binaries()
    if binaries is None:
        pytest.fail(INSTALL_HINT, pytrace=False)
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.fail("the PostgreSQL tests need psycopg: pip install -e '.[test,postgres]'")
    user = server_user()
    short = "/tmp" if os.path.isdir("/tmp") else None  # a unix socket's path must be short
    root = Path(tempfile.mkdtemp(prefix="chouette-pg-", dir=short))
    try:
        if user is not None:
            entry = pwd.getpwnam(user)
            os.chown(root, entry.pw_uid, entry.pw_gid)
        server = PostgresServer(binaries, root, user)
        try:
            server.start()
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL server for this test run (started when a test first needs it)."""
    with running_server() as server:
        yield server
