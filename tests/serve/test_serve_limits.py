"""What clients can hold of ``chouette serve`` (``web.limits``) and whom it answers, on a
real server on 127.0.0.1: only the names it printed in ``Host`` (a DNS-rebinding page is
refused); event streams capped per client and in all, refused with 503 and said once in the
log, with the server's open-file limit lowered (``resource.setrlimit`` in its own process)
and the scoreboard still answering; a thousand connections that never finish their headers
and a body sent a byte a second dropped; and HTTPS with a certificate made by the test.
"""

from __future__ import annotations

import resource
import selectors
import socket
import ssl
import time
from logging import WARNING, LogRecord
from pathlib import Path

import pytest

from tests import procs
from tests.serving import Keeper, Server, Stream, serving, typed
from tests.terminal import Terminal
from web.app import host_name
from web.limits import (
    MOST_STREAMS,
    REQUEST_SECONDS,
    STREAMS_PER_CLIENT,
    Limits,
    Once,
    Quiet,
    limits_for,
)
from web.serve import addresses, host_names

# ---------------------------------------------------------------- without a server


@pytest.mark.parametrize(
    ("given", "name"),
    [
        ("127.0.0.1:8000", "127.0.0.1"),
        ("LocalHost:8000", "localhost"),
        ("localhost", "localhost"),
        ("[::1]:8000", "[::1]"),
        ("[::1]", "[::1]"),
        ("evil.example:8000", "evil.example"),
        ("192.168.1.20", "192.168.1.20"),
        ("", ""),
        ("a:b:c", "a:b:c"),
    ],
)
def test_the_name_a_host_header_gives(given, name):
    assert host_name(given) == name


def test_the_names_a_request_may_give_are_the_ones_printed():
    urls, _ = addresses("0.0.0.0", 8000)
    names = host_names("0.0.0.0", urls)
    assert names[-3:] == ["127.0.0.1", "localhost", "[::1]"]
    assert names[:-3] == [u.split("//")[1].rsplit(":", 1)[0] for u in urls[:-1]]  # the LAN's
    assert host_names("club.local", ["http://club.local:8000/"]) == [
        "club.local", "127.0.0.1", "localhost", "[::1]"]  # fmt: skip
    assert host_names("::1", ["http://[::1]:8000/"]) == ["[::1]", "127.0.0.1", "localhost"]


@pytest.mark.parametrize(
    ("files", "limits"),
    [
        (256, Limits(256, connections=160, per_client=64, streams=120, streams_per_client=20)),
        (1024, Limits(1024, connections=928, per_client=64, streams=500, streams_per_client=20)),
        (120, Limits(120, connections=24, per_client=24, streams=8, streams_per_client=8)),
    ],
)
def test_the_open_files_are_shared_out_with_a_reserve_for_page_loads(files, limits):
    assert limits_for(files) == limits
    assert limits.streams < limits.connections < files  # always room for a page load
    assert limits.streams <= MOST_STREAMS and limits.streams_per_client <= STREAMS_PER_CLIENT


def test_trouble_repeated_is_said_once_a_minute_with_how_often():
    said: list[str] = []
    now = [0.0]
    once = Once(said.append, clock=lambda: now[0])
    for _ in range(1000):
        once("streams", "an event stream is refused")
    now[0] = 61
    once("streams", "an event stream is refused")
    once("slow", "a request was too slow")
    assert [str(line) for line in said] == [
        "an event stream is refused",
        "an event stream is refused (999 more like it since it was last said)",
        "a request was too slow",
    ]
    quiet = Quiet(clock=lambda: now[0])
    text = "Invalid HTTP request received."
    records = [LogRecord("uvicorn.error", WARNING, "", 0, text, (), None) for _ in range(3)]
    assert [quiet.filter(r) for r in records] == [True, False, False]
    now[0] = 200
    assert quiet.filter(records[0]) and records[0].getMessage() == (
        "Invalid HTTP request received. (2 more like it since it was last said)"
    )


# ---------------------------------------------------------------- a real server


def request(server: Server, raw: bytes, source: str | None = None) -> bytes:
    """A request as bytes, and the whole answer (the connection closed after it)."""
    bind = (source, 0) if source else None
    with socket.create_connection((server.host, server.port), 30, bind) as sock:
        sock.sendall(raw)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        return answer


@pytest.mark.slow
def test_only_the_names_the_server_printed_are_answered(ledger_url):
    """The shape of DNS rebinding: a page of evil.example, whose name now points at this
    computer, posts to it with its own name in both Host and Origin. Refused before any
    route, even with the scorekeeper's cookie (which the browser would not send, but a
    token sniffed on the wifi would be)."""
    typed(ledger_url, "new", "friday", "ann", "bob")
    with serving(ledger_url) as server:
        keeper = Keeper(server)
        port = server.port
        answer = request(server, f"GET / HTTP/1.1\r\nHost: evil.example:{port}\r\n"
                                 "Connection: close\r\n\r\n".encode())  # fmt: skip
        assert answer.startswith(b"HTTP/1.1 421 Misdirected Request\r\n")
        assert answer.endswith(
            b"\r\n\r\nError: this server answers to 127.0.0.1, [::1], localhost (the "
            b"addresses `chouette serve` printed), not to evil.example\n"
        )
        body = b"line=double+bob+--by+member&session=friday"
        answer = request(server, (
            f"POST /keeper/act HTTP/1.1\r\nHost: evil.example:{port}\r\n"
            f"Origin: http://evil.example:{port}\r\nCookie: {keeper.cookie}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\nConnection: close\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body)  # fmt: skip
        assert answer.startswith(b"HTTP/1.1 421 ")
        # no Host at all (HTTP/1.0) is refused the same way
        answer = request(server, b"GET / HTTP/1.0\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 421 ") and b"not to a request without a Host" in answer
        # the names printed, and this computer's own, are answered
        for name in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}", "[::1]"):
            answer = request(server, f"GET / HTTP/1.1\r\nHost: {name}\r\n"
                                     "Connection: close\r\n\r\n".encode())  # fmt: skip
            assert answer.startswith(b"HTTP/1.1 200 OK\r\n"), name
    cubes = typed(ledger_url, "status", "--json")
    assert '"pending"' not in cubes  # the rebinding page's double was never booked


def streams_from(server: Server, path: str, count: int, first: int = 1) -> list[Stream]:
    """``count`` event streams, :data:`STREAMS_PER_CLIENT` from each of the addresses
    127.3.0.``first``, … in turn."""
    return [
        Stream(server, path, source=f"127.3.0.{first + i // STREAMS_PER_CLIENT}")
        for i in range(count)
    ]


@pytest.mark.slow
def test_event_streams_are_capped_per_client_and_refused_with_a_retry(ledger_url):
    typed(ledger_url, "new", "friday", "ann", "bob")
    with serving(ledger_url) as server:
        mine = [Stream(server, source="127.4.0.1") for _ in range(STREAMS_PER_CLIENT)]
        assert {s.status for s in mine} == {200}
        refused = Stream(server, source="127.4.0.1")
        assert refused.status == 503 and refused.retry_after == "10"
        assert refused.body == (
            "Error: the server has too many event streams open (127.4.0.1 has 20 event streams "
            "open, the most for one device); the page retries\n"
        )
        assert Stream(server, source="127.4.0.2").status == 200  # another device
        mine[0].close()
        procs.wait_for(lambda: Stream(server, source="127.4.0.1").status == 200,
                       "a closed stream gives its place back")  # fmt: skip
    log = server.stopped or ""
    assert log.count("an event stream is refused") == 1


@pytest.mark.slow
def test_more_streams_than_the_open_file_limit_leave_the_scoreboard_answering(ledger_url):
    """Issue 26: 1,100 event streams under a limit of 1,024 open files stopped the server
    answering anyone, and 55,000 tracebacks poured out. Here the server's limit is 256 (set
    in its own process): 300 streams from 15 addresses, the ones past the cap refused with
    503 at once, and the scoreboard and the scorekeeper's page still load."""
    typed(ledger_url, "new", "friday", "ann", "bob")
    limits = limits_for(256)
    with serving(ledger_url, files=256) as server:
        keeper = Keeper(server, source="127.0.0.2")
        opened = streams_from(server, "/events", 300)
        statuses = [s.status for s in opened]
        assert statuses.count(200) == limits.streams and statuses.count(503) == 300 - limits.streams
        for source in ("127.0.0.1", "127.0.0.3", "127.3.0.1"):
            status, page = server.get("/", source=source)
            assert status == 200 and "friday" in page
        status, page = server.get("/keeper", {"Cookie": keeper.cookie}, source="127.0.0.2")
        assert status == 200 and 'id="controls"' in page
        # the streams that are open still get the game as it changes
        keeper.act("double bob --by member --game 1", "friday")
        opened[0].wait_for(lambda e: e.kind == "board" and "bob doubles the box" in e.data)
        opened[limits.streams - 1].wait_for(lambda e: "bob doubles the box" in e.data)
    log = server.stopped or ""  # never a traceback (stop() checks), one line for the refusals
    assert log.count("an event stream is refused") == 1, log
    assert len(log) < 2000, log


def partial(server: Server, source: str) -> socket.socket:
    sock = socket.create_connection((server.host, server.port), timeout=30,
                                    source_address=(source, 0))  # fmt: skip
    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Never: ")  # and never the rest
    return sock


@pytest.mark.slow
def test_a_thousand_connections_that_never_finish_their_headers_are_dropped(ledger_url):
    """uvicorn has no timeout on a request's headers: 1,000 connections that never finish
    them stayed open for good. Here each gets 408 and is closed after REQUEST_SECONDS, and
    meanwhile the scoreboard answers."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < 2048:  # this test process holds 1,000
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(2048, hard), hard))
    typed(ledger_url, "new", "friday", "ann", "bob")
    with serving(ledger_url) as server:
        held = [partial(server, f"127.5.{i // 50}.{i % 50 + 1}") for i in range(1000)]
        status, page = server.get("/", source="127.6.0.1")
        assert status == 200 and "friday" in page
        answers = drained(held, timeout=REQUEST_SECONDS + 50)
        assert len(answers) == 1000
        assert {a[:28] for a in answers} == {b"HTTP/1.1 408 Request Timeout"}
    assert "did not arrive whole in 10 s" in (server.stopped or "")


def drained(socks: list[socket.socket], timeout: float) -> list[bytes]:
    """What each socket got until the server closed it (within ``timeout`` in all)."""
    got = {s: b"" for s in socks}
    with selectors.DefaultSelector() as watch:
        for sock in socks:
            sock.setblocking(False)
            watch.register(sock, selectors.EVENT_READ)
        waiting = set(socks)
        deadline = time.monotonic() + timeout
        while waiting and time.monotonic() < deadline:
            for key, _ in watch.select(timeout=1):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    chunk = sock.recv(4096)
                except ConnectionResetError:
                    chunk = b""
                if chunk:
                    got[sock] += chunk
                else:
                    watch.unregister(sock)
                    waiting.discard(sock)
                    sock.close()
        assert not waiting, f"{len(waiting)} connections still open"
    return list(got.values())


@pytest.mark.slow
def test_a_body_sent_a_byte_a_second_is_dropped(ledger_url):
    typed(ledger_url, "new", "friday", "ann", "bob")
    with serving(ledger_url) as server:
        sock = socket.create_connection((server.host, server.port), timeout=30)
        sock.sendall(b"POST /keeper HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 200\r\n"
                     b"Content-Type: application/x-www-form-urlencoded\r\n\r\n")  # fmt: skip
        answer = b""
        with selectors.DefaultSelector() as watch:
            watch.register(sock, selectors.EVENT_READ)
            sent = 0
            while not watch.select(timeout=1):  # a byte a second, until the server answers
                sock.sendall(b"p")
                sent += 1
                assert sent < 3 * REQUEST_SECONDS, "the server still waits for the body"
            while chunk := sock.recv(4096):
                answer += chunk
        sock.close()
        assert answer.startswith(b"HTTP/1.1 408 Request Timeout\r\n")
        assert answer.endswith(b"\r\n\r\nError: the request did not arrive whole in 10 seconds\n")
        status, _ = server.get("/")
        assert status == 200


@pytest.mark.slow
def test_https_with_the_clubs_own_certificate(ledger_url, tmp_path):
    trustme = pytest.importorskip("trustme")
    authority = trustme.CA()
    certificate = authority.issue_cert("127.0.0.1", "localhost")
    cert, key = tmp_path / "club.pem", tmp_path / "club-key.pem"
    certificate.cert_chain_pems[0].write_to_path(str(cert))
    certificate.private_key_pem.write_to_path(str(key))
    trusted = ssl.create_default_context()
    authority.configure_trust(trusted)
    typed(ledger_url, "new", "friday", "ann", "bob")
    serve = ("--certfile", str(cert), "--keyfile", str(key))
    with serving(ledger_url, serve=serve, tls=trusted) as server:
        assert server.url.startswith("https://127.0.0.1:")
        printed = f"Scorekeeper: {server.url}keeper  PIN "
        assert any(line.startswith(printed) for line in server.lines)
        status, page = server.get("/")
        assert status == 200 and "friday" in page
        keeper = Keeper(server)
        assert keeper.status == 303 and "Secure" in keeper.set_cookie
        assert keeper.act("double bob --by member --game 1", "friday")
        # plain HTTP to the HTTPS port gets no page
        answer = request(server, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert b"friday" not in answer


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--keyfile", "k.pem"],
         "Error: --keyfile needs --certfile (the certificate it is the key of)\n"),
        (["--certfile", "none.pem"], "Error: --certfile/--keyfile: no such file: none.pem\n"),
        (["--certfile", "bad.pem"],
         "Error: --certfile/--keyfile: bad.pem is no certificate with its key (PEM files; "),
    ],
)  # fmt: skip
def test_a_certificate_that_cannot_be_used_is_refused_before_listening(
    chouette, tmp_path, monkeypatch, options, said
):
    monkeypatch.chdir(tmp_path)
    Path("bad.pem").write_text("not a certificate\n")
    chouette("new", "friday", "ann", "bob")
    result = chouette("serve", "--port", "0", *options, code=1)
    assert result.stderr.startswith(said)


@pytest.mark.slow
def test_an_encrypted_key_is_refused_at_once_saying_so_with_no_pass_phrase_asked(
    ledger_url, tmp_path
):
    """Issue 34: an encrypted key got OpenSSL's pass-phrase prompt on the terminal twice (the
    check, then uvicorn) and then a wrong reason. At a real terminal (a pseudo-terminal, which
    OpenSSL's prompt reads), chouette now asks nothing and says plainly what it needs."""
    import subprocess

    trustme = pytest.importorskip("trustme")
    certificate = trustme.CA().issue_cert("127.0.0.1")
    cert, plain, key = tmp_path / "club.pem", tmp_path / "plain.pem", tmp_path / "club-key.pem"
    certificate.cert_chain_pems[0].write_to_path(str(cert))
    certificate.private_key_pem.write_to_path(str(plain))
    subprocess.run(
        ["openssl", "pkey", "-in", plain, "-out", key, "-aes256", "-passout", "pass:s3cret"],
        check=True,
    )
    assert "ENCRYPTED" in key.read_text()
    typed(ledger_url, "new", "friday", "ann", "bob")
    for options in (["--certfile", cert, "--keyfile", key], ["--certfile", key]):
        if options[-1] == key and len(options) == 2:  # the key and its certificate in one file
            key.write_text(key.read_text() + cert.read_text())
        at = Terminal("serve", "--port", "0", *map(str, options), env={"CHOUETTE_DB": ledger_url})
        try:
            assert at.exit_code() == 1
            screen = at.screen.decode().replace("\r\n", "\n")
        finally:
            at.close()
        assert "pass phrase:" not in screen.lower() and "Scoreboard" not in screen
        assert screen == (
            f"Error: --keyfile: the key in {key} is encrypted (it asks for a pass phrase): "
            "chouette serve needs an unencrypted key. Write one with `openssl pkey -in "
            f"{key} -out club-key.pem` and keep that file readable by you alone\n"
        )


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        (
            "en",
            "Warning: the scorekeeper's PIN is now 7f3a (1 more like it since it was last said)",
        ),
        (
            "da",
            "Advarsel: skriverens PIN er nu 7f3a (1 mere af samme slags, siden det sidst "
            "blev sagt)",
        ),
        (
            "cs",
            "Varování: PIN zapisovatele je nyní 7f3a (1 další takový od chvíle, kdy to bylo "
            "řečeno naposledy)",
        ),
    ],
)
def test_the_servers_own_log_lines_are_in_its_terminals_language(lang, line):
    """What the server says in its log (``said(...)``) reads in the terminal's language;
    a record's message stays the English for anything else that reads the log."""
    from chouette.words import said as told
    from files.words import words
    from web.serve import Said

    now = [0.0]
    lines: list[object] = []
    once = Once(lines.append, clock=lambda: now[0])
    for moment in (0.0, 1.0, 61.0):  # said, held back, said with the one held back
        now[0] = moment
        once("pin", told("the scorekeeper's PIN is now {pin}", pin="7f3a"))
    record = LogRecord("chouette.serve", WARNING, "", 0, lines[-1], (), None)
    assert Said("%(message)s", words(lang)).format(record) == line
    assert record.getMessage().startswith("the scorekeeper's PIN is now 7f3a")
