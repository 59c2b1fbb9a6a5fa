"""``chouette serve`` as a club runs it: a real server process on 127.0.0.1, the scoreboard's
event stream, the scorekeeper's PIN and actions, and every other terminal at the table (real
``chouette`` processes, ``chouette table``) changing the same ledger at the same time.

The first tests need no server: the CLI stays light without the extra, and ``serve``
refuses what it cannot serve before it listens.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from chouette.errors import ChouetteError
from tests import procs
from tests.dom import Node, parse
from tests.invariants import check_ledger
from tests.paths import ROOT
from tests.serving import PIN, Keeper, Stream, serving, typed
from web.serve import addresses, check_pin, lan_address, new_pin, qr_code

SERVER_MODULES = ("starlette", "uvicorn", "jinja2", "segno", "anyio", "web")


# ---------------------------------------------------------------- without a server


def test_no_other_command_loads_the_server_or_its_libraries(tmp_path):
    """A fresh process (the other tests here have loaded them): the help, `serve --help`, and
    an evening's commands import none of the serve extra's libraries."""
    script = f"""
import sys
from typer.testing import CliRunner
from cli import app
runner = CliRunner()
for args in (["--help"], ["serve", "--help"], ["new", "s", "ann", "bob", "cat"],
             ["double", "bob"], ["take", "bob"], ["status"], ["undo"], ["take", "bob"],
             ["end", "team"], ["standings"], ["sheet"], ["join", "dan"], ["check"]):
    result = runner.invoke(app, args)
    assert result.exit_code == 0, (args, result.output)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {SERVER_MODULES!r})
assert not loaded, loaded
"""
    env = {"CHOUETTE_DB": str(tmp_path / "fresh.db"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_without_the_extra_serve_says_what_to_install(chouette, monkeypatch):
    chouette("new", "friday", "ann", "bob")
    monkeypatch.delitem(sys.modules, "web.serve", raising=False)
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn now fails
    result = chouette("serve", code=1)
    assert result.stderr == (
        "Error: `chouette serve` needs the serve extra (uvicorn is missing): in chouette's "
        "clone, with the pip that installed chouette, pip install '.[serve]'\n"
    )


LIVE_COMMANDS = (
    *("auto-double", "double", "take", "drop", "beaver", "raccoon", "deal", "extra", "end"),
    *("undo", "join", "leave", "sit-out", "sit-in", "proxy", "split"),
)


def test_serve_help_names_what_the_page_has(chouette, ledger_url):
    """The help once promised 'every live action as a button' while the page had none for an
    extra, a proxy or a split. Now each live command has a button or a form of its own (its
    first word the command's), and the help says so."""
    from tests.serve.test_serve_pages import board_of, render

    players = ("ann", "bob", "cat", "dan", "eve", "fay", "gus")
    chouette("new", "friday", *players, "--extras", "--proxies")
    chouette("sit-out", "gus")
    between = render("_controls.html", board_of(ledger_url))
    chouette("double", "bob")
    playing = render("_controls.html", board_of(ledger_url))
    words = {
        node.attrs.get("value", "").split(" ", 1)[0]
        for page in (between, playing)
        for node in page.all()
        if node.attrs.get("name") == "line"
    }
    assert [c for c in LIVE_COMMANDS if c not in words] == []
    text = " ".join(chouette("serve", "--help").stdout.split())
    assert "every live action" not in text
    assert "a payment, an extra, a proxy, a split, a new session and a command line" in text


def test_serve_refuses_what_it_cannot_serve_before_it_listens(chouette, tmp_path):
    result = chouette("--db", str(tmp_path / "none.db"), "serve", code=1)
    assert "Error: there is no ledger at" in result.stderr
    assert not (tmp_path / "none.db").exists()  # a read never creates a ledger
    chouette("new", "friday", "ann", "bob")
    result = chouette("--session", "monday", "serve", code=1)
    assert result.stderr == "Error: there is no session called monday (sessions: friday)\n"
    result = chouette("serve", "--pin", "12", code=1)
    assert result.stderr == (
        "Error: --pin: at least 4 characters (or leave it out for a random one)\n"
    )
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = chouette("serve", "--port", str(port), "--pin", "1234", code=1)
    assert result.stderr == (
        f"Error: port {port} is in use on 127.0.0.1 (another `chouette serve`?): "
        "choose another with --port\n"
    )
    chouette("serve", "--port", "70000", code=2)


def test_the_addresses_printed_for_each_host():
    assert addresses("127.0.0.1", 8000) == (["http://127.0.0.1:8000/"], False)
    assert addresses("localhost", 8000) == (["http://localhost:8000/"], False)
    assert addresses("::1", 8001) == (["http://[::1]:8001/"], False)
    assert addresses("192.168.1.20", 80) == (["http://192.168.1.20:80/"], True)
    urls, shared = addresses("0.0.0.0", 8000)  # every interface: the club's wifi first
    assert shared and urls[-1] == "http://127.0.0.1:8000/"
    lan = lan_address()
    assert urls == ([f"http://{lan}:8000/"] if lan else []) + ["http://127.0.0.1:8000/"]


@pytest.mark.parametrize(
    ("pin", "refused"),
    [("1234", None), ("club-night", None), ("123", "at least 4"), ("12 34", "no spaces")],
)
def test_a_pin_of_ones_own(pin, refused):
    if refused is None:
        assert check_pin(pin) == pin
    else:
        with pytest.raises(ChouetteError, match=refused):
            check_pin(pin)
    assert len(new_pin()) == 6 and new_pin().isdigit()


# ---------------------------------------------------------------- a real server


def board_says(text: str):
    return lambda event: event.kind == "board" and text in event.data


@pytest.mark.slow
def test_the_server_prints_its_address_a_qr_code_the_pin_and_the_keepers_link(ledger_url):
    typed(ledger_url, "new", "friday", "ann", "bob")
    with serving(ledger_url) as server:
        printed = "\n".join(server.lines)
        assert server.url.startswith("http://127.0.0.1:")
        assert f"Scorekeeper: {server.url}keeper  PIN {PIN}" in printed
        assert "Serving the current session (friday) from" in printed
        assert "start with --host 0.0.0.0" in printed
        # the QR code of the address printed, then (under the PIN) of the keeper's link
        drawn = [
            line if set(line) <= set(" ▀▄█") and len(line) > 20 else "" for line in server.lines
        ]
        qr = [code for code in "\n".join(drawn).split("\n\n") if code.strip("\n")]
        link = next(x for x in server.lines if "/keeper/link/" in x).rsplit(" ", 1)[1]
        assert [code.strip("\n") for code in qr] == [qr_code(server.url), qr_code(link)]
        assert printed.index(qr_code(server.url)) < printed.index("Scorekeeper:")
        assert len(qr[0].strip().splitlines()) > 10
        status, page = server.get("/")
        assert status == 200 and "friday" in page and "ann" in page


def test_lines_for_a_stuck_terminal_are_queued_then_left_out_and_said_once():
    """web.terminal on its own: a terminal that takes nothing holds up only the writer's
    thread; past the queue's room lines are left out (a newer PIN replaces an older one and is
    never left out), and once the terminal moves the count is said once."""
    from web.terminal import Terminal

    moving = threading.Event()
    out: list[str] = []
    err: list[str] = []

    def stuck(text: str) -> None:
        moving.wait(30)
        out.append(text)

    terminal = Terminal(stuck, err.append, most=5)
    terminal.say("line 0")
    procs.wait_for(lambda: terminal.writing, "the writer waits for the terminal")
    for number in range(1, 20):
        terminal.say(f"line {number}")
        if number == 10:  # the queue is full: the PIN takes the oldest line's place
            terminal.say("PIN 111111", latest="pin")
    terminal.say("PIN 222222", latest="pin")
    assert len(terminal.waiting) == 5 and not out  # and say() never waited
    moving.set()
    assert terminal.flush(10)
    assert out == ["line 0", "line 2", "line 3", "line 4", "line 5", "PIN 222222"]
    assert err == [
        "Warning: the terminal did not take the server's lines for a while (paused, or a pipe "
        "nobody read): 15 lines left out"
    ]
    terminal.say("line 21")
    terminal.close()
    assert out[-1] == "line 21" and len(err) == 1


@pytest.mark.slow
def test_a_terminal_that_takes_nothing_never_stops_the_server(ledger_url):
    """Issue 34: the ``page: …`` lines were written from the event loop, so a paused
    terminal (Ctrl-S, a Windows console with text selected) or a full pipe stopped every
    request. Here the server's output is a real pipe nobody reads, after its banner: the
    page's actions print far more than the pipe holds, and every request is still answered;
    once the pipe is read again, the server says once how many lines it left out."""
    import fcntl

    typed(ledger_url, "new", "friday", "ann", "bob")
    with serving(ledger_url, held=True) as server:
        assert server.proc.stdout is not None
        room = fcntl.fcntl(server.proc.stdout.fileno(), 1032)  # F_GETPIPE_SZ (Linux)
        keeper = Keeper(server)
        printed = 0
        while printed < 3 * room + 200 * 1000:  # the pipe, and more than the queue holds
            said = keeper.act("help", "friday")  # each line of it printed as `page: …`
            printed += sum(len(f"page: {line}\n".encode()) for line in said)
            status, page = server.get("/")  # (a timeout here: the server is stuck)
            assert status == 200 and "friday" in page
        assert keeper.act("double bob --by member --game 1", "friday")
        banner = server.lines.index("Ctrl-C stops the server.") + 1
        assert len(server.lines) == banner  # nothing read past the banner meanwhile
        server.released.set()  # the terminal moves again: what is said from now on shows
        undone = keeper.act("undo", "friday")
        procs.wait_for(lambda: f"page: {undone[0]}" in server.lines, "the terminal moves")
    log = server.stopped or ""
    assert log.count("Warning: the terminal did not take the server's lines for a while") == 1
    assert "lines left out" in log and server.lines[-1] == "Stopped."


@pytest.mark.slow
def test_a_random_pin_is_printed_when_none_is_given(ledger_url):
    typed(ledger_url, "new", "friday", "ann", "bob")
    proc = subprocess.Popen(
        [procs.script(), "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**procs.environment(ledger_url), "PYTHONUNBUFFERED": "1"},
    )
    from tests.serving import Server

    server = Server(proc, "")
    try:
        server.wait_until_up()
        line = next(x for x in server.lines if x.startswith("Scorekeeper"))
        pin = line.rsplit("PIN ", 1)[1]
        assert len(pin) == 6 and pin.isdigit()
        assert Keeper(server, pin).cookie
    finally:
        server.stop()


@pytest.mark.slow
def test_the_scorekeepers_page_and_actions_need_the_pin(ledger_url):
    typed(ledger_url, "new", "friday", "ann", "bob", "cat")
    with serving(ledger_url) as server:
        status, page = server.get("/keeper")
        assert status == 200 and 'id="pin-form"' in page and "Take" not in page
        outsider = Keeper(server, "9999")
        assert outsider.status == 403 and not outsider.cookie
        status, answer = outsider.post({"line": "double bob --by member", "session": "friday"})
        refused = "Error: the scorekeeper's page needs the PIN that `chouette serve` printed"
        assert status == 401 and answer == {"ok": False, "message": refused, "said": [refused]}
        assert Stream(server, "/keeper/events").status == 401
        keeper = Keeper(server)
        assert keeper.status == 303 and keeper.cookie
        status, page = server.get("/keeper", {"Cookie": keeper.cookie})
        assert status == 200 and "Double the box" in page
        assert keeper.act("double bob --by member --game 1", "friday") == [
            "Game 1: bob doubles the box.",
            "  bob: cube 1, double to 2 pending: ann to answer",
        ]
        # a posted form from another site's page is refused, PIN or not
        conn = server.connection()
        conn.request("POST", "/keeper/act", body="line=undo&session=friday", headers={
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": keeper.cookie,
            "Origin": "http://evil.example"})  # fmt: skip
        assert conn.getresponse().status == 403
        # a form with more fields than any of ours is refused, not a server error
        form = "application/x-www-form-urlencoded"
        for path, cookie in (("/keeper", {}), ("/keeper/act", {"Cookie": keeper.cookie})):
            conn = server.connection()
            conn.request("POST", path, body="&".join(f"a{i}=1" for i in range(600)),
                         headers={"Content-Type": form, **cookie})  # fmt: skip
            response = conn.getresponse()
            said = (response.status, response.read())
            assert said == (413, b"Error: the form has more fields than any form of ours\n")
        # five wrong PINs from one device (9999 above, four here), and it must wait (429,
        # even with the right one)
        statuses = [Keeper(server, "0000").status for _ in range(5)]
        assert statuses == [403, 403, 403, 403, 429]
        assert Keeper(server).status == 429
        cubes = json.loads(typed(ledger_url, "status", "--json"))["game"]["cubes"]
        assert cubes["bob"]["pending"] == "box"  # the page's double, and nothing else


@pytest.mark.slow
def test_the_scorekeepers_page_works_without_its_script(ledger_url):
    """A browser that runs no script posts the form itself and gets the page back, with what
    the action did and the board after it."""
    typed(ledger_url, "new", "friday", "ann", "bob", "cat")
    with serving(ledger_url) as server:
        keeper = Keeper(server)
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": keeper.cookie}

        def post(body: str) -> tuple[int, Node]:
            conn = server.connection()
            conn.request("POST", "/keeper/act", body=body, headers=headers)
            response = conn.getresponse()
            return response.status, parse(response.read().decode("utf-8"))

        status, page = post("session=friday&line=double+bob+--by+member&line=--game+1")
        assert status == 200
        assert [p.text() for p in page.one(id="said").all("p")] == [
            "Game 1: bob doubles the box.",
            "  bob: cube 1, double to 2 pending: ann to answer",
        ]
        assert page.one(id="last").text() == "Game 1: bob doubles the box."
        # a form's pieces: the words, a name typed (one word, a name even if it reads as an
        # option), an option's value typed
        status, page = post("session=friday&line=pay&word=--db&word=ann&word=1")
        assert status == 400
        assert page.one(id="said").text() == (
            "Error: --db has not played in friday (book a payment in the session they played "
            "in, with --session)"
        )
        status, page = post("session=friday&line=pay&word=ann&word=bob&word=1,5&--note=x+y")
        assert status == 400  # the CLI's own refusal: nothing owed
        assert page.one(id="said").text().startswith("Error: ann owes bob nothing")


@pytest.mark.slow
def test_a_refused_action_shows_the_clis_message(ledger_url):
    typed(ledger_url, "new", "friday", "ann", "bob", "cat")
    typed(ledger_url, "double", "bob")
    with serving(ledger_url) as server:
        keeper = Keeper(server)
        for line in ("end box --game 1", "raccoon bob --game 1", "double bob", "join centre"):
            status, answer = keeper.post({"line": line, "session": "friday"})
            cli = procs.run(ledger_url, *line.split())
            assert cli.returncode == 1
            said = cli.stderr.rstrip("\n")
            assert status == 400 and answer == {"ok": False, "message": said, "said": [said]}
        # and the terminal running the server says what the page did
        assert any(line.startswith("page: Error: ") for line in server.lines)


@pytest.mark.slow
def test_a_refusal_comes_back_in_the_pages_language(ledger_url):
    """A page's refusal (no PIN, a form refused) is said in the page's language: the
    server's --lang, else the browser's; English stays as it was."""
    typed(ledger_url, "new", "friday", "ann", "bob", "cat")
    with serving(ledger_url, serve=("--lang", "da")) as server:
        outsider = Keeper(server, "9999")
        status, answer = outsider.post({"line": "double bob", "session": "friday"})
        refused = "Fejl: skriverens side kræver den PIN, `chouette serve` skrev"
        assert status == 401 and answer == {"ok": False, "message": refused, "said": [refused]}
    with serving(ledger_url) as server:
        conn = server.connection()
        body = "&".join(f"a{i}=1" for i in range(600))
        form = {"Content-Type": "application/x-www-form-urlencoded", "Accept-Language": "cs"}
        conn.request("POST", "/keeper", body=body, headers=form)
        response = conn.getresponse()
        said = (response.status, response.read().decode("utf-8"))
        assert said == (413, "Chyba: formulář má víc polí než kterýkoli náš formulář\n")


@pytest.mark.slow
@pytest.mark.backends("sqlite", "postgres")
def test_the_scoreboard_shows_every_terminals_change(ledger_url):
    """A change made by a terminal, the page and a `chouette table` prompt each reaches the
    scoreboard's stream. How soon is measured in bench/run.py (`serve`), not here: a busy
    machine would fail a time bound."""
    typed(ledger_url, "new", "friday", "ann", "bob", "cat", "dan", "--stake", "5.00")
    with serving(ledger_url) as server:
        board = Stream(server)
        board.wait_for(board_says("friday"))
        keeper = Keeper(server)

        def shown(text: str, after: int) -> None:
            board.wait_for(board_says(text), timeout=60, after=after)

        # a terminal: the change is committed when the command has exited
        for words, text in [
            (["double", "bob", "cat"], "double to 2: bob to answer"),
            (["take", "bob"], "Game 1: bob takes."),
            (["drop", "cat"], "out, -1 (cat dropped)"),
        ]:
            after = len(board.events)
            typed(ledger_url, *words)
            shown(text, after)
        # the page
        after = len(board.events)
        keeper.act("end box --gammon --game 1", "friday")
        shown("Game 1 is over; game 2 starts with the next event.", after)
        # chouette table: one process, a command per line; its change is committed when it
        # prints what the command did
        table = procs.start(ledger_url, "table", stdin=subprocess.PIPE)
        printed: list[tuple[float, str]] = []

        def read_table() -> None:
            assert table.stdout is not None
            for line in table.stdout:
                printed.append((time.monotonic(), line))

        reader = threading.Thread(target=read_table, daemon=True)
        reader.start()
        assert table.stdin is not None
        for line, said, text in [
            ("double dan --by member", "dan doubles the box", "Game 2: dan doubles the box."),
            ("take dan", "takes on dan's cube", "Game 2: the box, ann, takes on dan&#39;s cube."),
            ("end team", "Game 2 is over", "Game 2 is over"),
        ]:
            after = len(board.events)
            table.stdin.write(line + "\n")
            table.stdin.flush()
            procs.wait_for(lambda: any(said in p for _, p in printed), f"the table says {said}")  # noqa: B023
            shown(text, after)
        table.stdin.close()
        assert table.wait(timeout=60) == 0
        reader.join(timeout=10)
        assert table.stderr is not None and table.stdout is not None
        assert "Error" not in table.stderr.read()
        table.stderr.close()
        table.stdout.close()
        # the standings as the CLI reads them, on the board
        final = board.boards()[-1].data
        for player in json.loads(typed(ledger_url, "standings", "--json"))["players"]:
            assert f'data-player="{player["name"]}" data-points="{player["points"]}" ' \
                   f'data-cents="{player["cents"]}"' in final  # fmt: skip
        board.close()


@pytest.mark.slow
@pytest.mark.backends("sqlite", "postgres")
def test_actions_from_the_page_and_the_terminals_at_once_lose_nothing(ledger_url):
    """The page works bob's and cat's cubes while two terminals work dan's and eve's, all at
    the same time: every action is booked, none twice, and the board ends where the ledger
    does."""
    typed(ledger_url, "new", "friday", "ann", "bob", "cat", "dan", "eve")
    steps = [
        ["double", "{m}", "--by", "member"],
        ["take", "{m}", "--game", "1"],
        ["double", "{m}", "--game", "1"],
        ["take", "{m}", "--game", "1"],
    ]
    with serving(ledger_url) as server:
        board = Stream(server)

        def page(member: str) -> list[str]:
            keeper = Keeper(server)
            return [line for words in steps for line in
                    keeper.act(" ".join(words).format(m=member), "friday")]  # fmt: skip

        def terminal(member: str) -> list[str]:
            done = [procs.run(ledger_url, *[w.format(m=member) for w in words])
                    for words in steps]  # fmt: skip
            assert [(d.returncode, d.stderr) for d in done] == [(0, "")] * len(steps)
            return [d.stdout for d in done]

        with ThreadPoolExecutor(4) as pool:
            jobs = [pool.submit(page, "bob"), pool.submit(page, "cat")]
            jobs += [pool.submit(terminal, "dan"), pool.submit(terminal, "eve")]
            for job in jobs:
                job.result()
        status = json.loads(typed(ledger_url, "status", "--json"))
        assert {m: (c["value"], c["owner"]) for m, c in status["game"]["cubes"].items()} == {
            m: (4, m) for m in ("bob", "cat", "dan", "eve")
        }
        board.wait_for(lambda e: e.kind == "board" and e.data.count('data-value="4"') == 4)
        Keeper(server).act("end box --game 1", "friday")
        board.wait_for(board_says("Game 1 is over"))
    facts = check_ledger(ledger_url)
    assert facts.finished["friday"] == [1] and facts.events[("friday", 1)] == 17
    standings = json.loads(typed(ledger_url, "standings", "--json"))["players"]
    assert {p["name"]: p["points"] for p in standings} == {
        "ann": 16, "bob": -4, "cat": -4, "dan": -4, "eve": -4}  # fmt: skip


@pytest.mark.slow
def test_a_new_session_started_elsewhere_takes_over_the_board(ledger_url):
    typed(ledger_url, "new", "friday", "ann", "bob")
    with serving(ledger_url) as server:
        board = Stream(server)
        board.wait_for(board_says('id="session">friday<'))
        typed(ledger_url, "new", "saturday", "cat", "dan")
        board.wait_for(board_says('id="session">saturday<'))
    with serving(ledger_url, "--session", "friday") as pinned:
        board = Stream(pinned)
        board.wait_for(board_says('id="session">friday<'))
        keeper = Keeper(pinned)
        keeper.act("end team --game 1", "friday")
        board.wait_for(board_says("Game 1 is over"))
    # an action on the session --session names makes it the current one, as the CLI does
    assert json.loads(typed(ledger_url, "status", "--json"))["session"] == "friday"


@pytest.mark.slow
def test_ctrl_c_stops_the_server_with_pages_connected(ledger_url):
    """Open scoreboard streams do not hold the server up: Ctrl-C ends it on its own (stop()
    fails the test if it must kill it). How soon is not a test's to bound."""
    typed(ledger_url, "new", "friday", "ann", "bob")
    with serving(ledger_url) as server:
        streams = [Stream(server) for _ in range(3)]
        for stream in streams:
            stream.wait_for(board_says("friday"))
        server.stop()
        assert server.lines[-1] == "Stopped."


@pytest.mark.slow
def test_the_static_folder_gives_only_its_own_files(ledger_url):
    """Paths that climb out of /static/ (plain, percent-encoded, doubled) find nothing: not
    the server's code, not the ledger."""
    typed(ledger_url, "new", "friday", "ann", "bob")
    with serving(ledger_url) as server:
        assert server.get("/static/live.css")[0] == 200
        for path in ("/static/../app.py", "/static/..%2fapp.py", "/static/%2e%2e/%2e%2e/cli.py",
                     "/static/..%252f..%252fcli.py", "/static/....//app.py",
                     "/static/%2e%2e%5capp.py", "/static//etc/passwd"):  # fmt: skip
            with socket.create_connection((server.host, server.port), timeout=30) as sock:
                sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             "Connection: close\r\n\r\n".encode())  # fmt: skip
                answer = b""
                while chunk := sock.recv(65536):
                    answer += chunk
            status = int(answer.split(b" ", 2)[1])
            assert status in (400, 404), (path, answer[:200])
            assert b"import" not in answer and b"root:" not in answer, path
