"""The evening as one page: score sheet, standings, settlement, house rules and a chart.

:func:`render_report` turns the values the ledger already hands the other reports into one
self-contained HTML page: inline CSS, the chart as inline SVG, no script, no font, no
network (a Content-Security-Policy says so to the browser). Every name is escaped; money is
integer cents written as the page's language writes money (:class:`chouette.words.Words`:
``12.50``, Danish and Czech ``12,50``); floats appear only as pixel
coordinates in the chart. Elements carry stable ids and ``data-`` attributes (cents as
integers) so that a program can read the page back.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from html import escape
from typing import Protocol

from chouette.card import (
    TOPICS,
    Card,
    acceptance_lines,
    origin_lines,
    rule_lines,
    topic_name,
    value_text,
)
from chouette.errors import ChouetteError
from chouette.money import Cents
from chouette.report import GameLine, Standing, extra_result_text, signed
from chouette.review import Reviewed, summaries
from chouette.rules import HouseRules
from chouette.settlement import Payment, clears
from chouette.stats import ROLES, PlayerStats, who_beats_whom
from chouette.text import clipped
from chouette.words import ENGLISH, Fixed, Sayable, Translator, Words, marked, marked_in, said

# One colour per player, in the order they joined (Tableau 10: tells apart well on screen and
# in print); past ten players the colours repeat with a dash pattern.
COLOURS = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#7f7f7f",
    "#bcbd22",
)
DASHES = ("", "8 4", "2 3", "8 3 2 3")

WEEKDAYS = (
    marked("Monday"),
    marked("Tuesday"),
    marked("Wednesday"),
    marked("Thursday"),
    marked("Friday"),
    marked("Saturday"),
    marked("Sunday"),
)
#: The months as a date names them (``pgettext("date", …)``: Czech writes them in the
#: genitive there, ``24. listopadu``).
MONTHS = (
    marked_in("date", "January"),
    marked_in("date", "February"),
    marked_in("date", "March"),
    marked_in("date", "April"),
    marked_in("date", "May"),
    marked_in("date", "June"),
    marked_in("date", "July"),
    marked_in("date", "August"),
    marked_in("date", "September"),
    marked_in("date", "October"),
    marked_in("date", "November"),
    marked_in("date", "December"),
)

# The chart's geometry in SVG user units (the SVG scales to the page's width).
WIDTH, HEIGHT = 720, 340
LEFT, RIGHT, TOP, BOTTOM = 84, 16, 24, 44
PLOT_BACKGROUND = "#f6f8fc"  # the plot area's fill, used nowhere else on the page


def _e(text: object) -> str:
    """Text or an attribute value, escaped (quotes too: attributes are always quoted)."""
    return escape(str(text), quote=True)


def _attr(name: str, value: object) -> str:
    """`` name="value"`` (escaped), or nothing when ``value`` is empty."""
    return f' {name}="{_e(value)}"' if value != "" else ""


def _money_class(cents: Cents) -> str:
    return "pos" if cents > 0 else "neg" if cents < 0 else "zero"


def _words(tr: Translator) -> Words:
    """``tr`` as a language's words (:class:`Words` keep its way with money); a bare
    catalogue writes money as English does."""
    return tr if isinstance(tr, Words) else Words("en", tr)


def _money(cents: Cents, tr: Translator, *, sign: bool = False) -> str:
    """An amount as the page's language writes it (``+6,25``)."""
    return _words(tr).money(cents, sign=sign)


def _amount(cents: Cents, tr: Translator, *, sign: bool = True) -> str:
    """A money cell's content: the amount, coloured by its sign (the sign is printed too)."""
    return f'<span class="money {_money_class(cents)}">{_money(cents, tr, sign=sign)}</span>'


MAX_CURRENCY = 12


def check_currency(text: str) -> str:
    """A currency label for the amounts (``EUR``, ``$``, ``CHF``): short text on one line."""
    label = unicodedata.normalize("NFC", text).strip()
    if not label or len(label) > MAX_CURRENCY:
        raise ChouetteError(
            said(
                "{label} is no currency: give a code or sign of 1 to {most} characters (EUR, $, "
                "CHF)",
                label=repr(clipped(label, 40)),
                most=MAX_CURRENCY,
            )
        )
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") for ch in label):
        raise ChouetteError(
            said("{label} is no currency: it has control characters", label=repr(label))
        )
    return label


def style_of(index: int) -> tuple[str, str]:
    """The stroke colour and dash pattern of the player at ``index`` (in joining order)."""
    return COLOURS[index % len(COLOURS)], DASHES[(index // len(COLOURS)) % len(DASHES)]


def running_balances(players: Sequence[str], lines: Sequence[GameLine]) -> dict[str, list[Cents]]:
    """Each player's balance before the first game (0) and after every game, in cents."""
    run = {p: [0] for p in players}
    for line in lines:
        for p in players:
            run[p].append(run[p][-1] + line.cents.get(p, 0))
    return run


class Runs(Protocol):
    """Where a page keeps every player's running balance, game by game, from its first look
    at the games until it draws the chart (only the games where a balance moved)."""

    def add(self, player: str, game: int, cents: Cents) -> None:
        """``player``'s balance is ``cents`` after game ``game`` (counted from 1)."""

    def series(self, player: str) -> Iterable[tuple[int, Cents]]:
        """``player``'s balances as added, in order of the games."""


class MemoryRuns:
    """:class:`Runs` in memory (a page of one evening; the CLI keeps a club's in a file)."""

    def __init__(self) -> None:
        self._runs: dict[str, list[tuple[int, Cents]]] = {}

    def add(self, player: str, game: int, cents: Cents) -> None:
        self._runs.setdefault(player, []).append((game, cents))

    def series(self, player: str) -> Iterable[tuple[int, Cents]]:
        return self._runs.get(player, [])


def _every_game(runs: Runs, player: str, games: int) -> Iterator[Cents]:
    """``player``'s balance before the first game (0) and after each of ``games`` games."""
    value, done = 0, 0
    for game, cents in runs.series(player):
        while done < game:
            yield value
            done += 1
        value = cents
    while done <= games:
        yield value
        done += 1


@dataclass
class Survey:
    """What a first look at the games finds, for the parts of the page before the score
    sheet: the players in the sheet's order, their final balances, the money axis's range,
    the days played, the sessions, and where the chart's labels go."""

    games: int
    everyone: list[str]
    final: dict[str, Cents]
    low: Cents = 0
    high: Cents = 0
    first_end: datetime | None = None
    last_end: datetime | None = None
    sessions: int = 0
    labels: list[tuple[int, str]] = field(default_factory=list)  # (game, label)
    breaks: list[tuple[int, str]] = field(default_factory=list)  # (index, session)


def survey(
    players: Sequence[str],
    lines: Iterable[GameLine],
    games: int,
    runs: Runs,
    *,
    by_session: bool,
    also: Sequence[str] = (),
) -> Survey:
    """A first look at the ``games`` games (``also``: players listed after those of the
    sheet), keeping each balance that moved in ``runs``."""
    everyone = list(players)
    known = set(everyone)
    final = dict.fromkeys(everyone, 0)
    found = Survey(games, everyone, final)
    every = max(1, -(-games // 12))
    sessions: set[str] = set()
    last_session: str | None = None
    for i, line in enumerate(lines, start=1):
        for p, cents in line.cents.items():
            if p not in known:
                known.add(p)
                everyone.append(p)
                final[p] = 0
            if cents:
                now = final[p] = final[p] + cents
                runs.add(p, i, now)
                found.low, found.high = min(found.low, now), max(found.high, now)
        for p in line.points:
            if p not in known:
                known.add(p)
                everyone.append(p)
                final[p] = 0
        if line.ended_at is not None:
            if found.first_end is None or line.ended_at < found.first_end:
                found.first_end = line.ended_at
            if found.last_end is None or line.ended_at > found.last_end:
                found.last_end = line.ended_at
        sessions.add(line.session)
        if (games - i) % every == 0:
            label = (
                str(i) if by_session else f"{line.number}{'' if line.kind == 'chouette' else '*'}"
            )
            found.labels.append((i, label))
        if by_session and (i == 1 or line.session != last_session):
            found.breaks.append((i - 1, line.session))
        last_session = line.session
    for p in also:
        if p not in known:
            known.add(p)
            everyone.append(p)
            final[p] = 0
    found.sessions = len(sessions)
    return found


# ---------------------------------------------------------------- the page


def render_report(
    *,
    session: str | None,
    stake: Cents | None,
    rules: HouseRules | None,
    players: Sequence[str],
    lines: Sequence[GameLine],
    standings: Sequence[Standing],
    payments: Sequence[Payment],
    generated_at: datetime,
    player_stakes: Mapping[str, Cents] | None = None,
    started_at: datetime | None = None,
    local: Callable[[datetime], datetime] | None = None,
    currency: str | None = None,
    settlement_note: Sayable | None = None,
    card: Card | None = None,
    tr: Translator = ENGLISH,
    lang: str = "en",
    fingerprints: Mapping[str, str | None] | None = None,
) -> str:
    """The page for one session (``session`` named) or the whole ledger (``session`` None).

    ``players`` in joining order, ``lines`` the finished games in order (as ``sheet``),
    ``standings`` as ``chouette standings`` (payments booked included), ``payments`` as
    ``chouette settle`` (``settlement_note``: what it says of them when they are not proven
    the fewest). ``started_at`` is when the session began; ``local`` turns a moment into the
    reader's local time (default: as given); ``currency`` (``EUR``, ``$``) labels the
    amounts, which are otherwise bare numbers; ``tr`` says the page's words in the language
    ``lang`` names (English by default); ``fingerprints``: each session's (its record's
    chain, :mod:`chouette.chain`), printed at the foot. :func:`report_parts` writes the same
    page as it goes, for a ledger too long to hold.
    """
    return "".join(
        report_parts(
            session=session,
            stake=stake,
            rules=rules,
            players=players,
            games=len(lines),
            lines=lambda: lines,
            standings=standings,
            payments=payments,
            generated_at=generated_at,
            player_stakes=player_stakes,
            started_at=started_at,
            local=local,
            currency=currency,
            settlement_note=settlement_note,
            card=card,
            tr=tr,
            lang=lang,
            fingerprints=fingerprints,
        )
    )


def report_parts(
    *,
    session: str | None,
    stake: Cents | None,
    rules: HouseRules | None,
    players: Sequence[str],
    games: int,
    lines: Callable[[], Iterable[GameLine]],
    standings: Sequence[Standing],
    payments: Sequence[Payment],
    generated_at: datetime,
    player_stakes: Mapping[str, Cents] | None = None,
    started_at: datetime | None = None,
    local: Callable[[datetime], datetime] | None = None,
    currency: str | None = None,
    settlement_note: Sayable | None = None,
    runs: Runs | None = None,
    card: Card | None = None,
    tr: Translator = ENGLISH,
    lang: str = "en",
    fingerprints: Mapping[str, str | None] | None = None,
    ended: tuple[int, datetime] | None = None,
    stats: Sequence[PlayerStats] = (),
    review: Sequence[tuple[int, Reviewed]] | None = None,
) -> Iterator[str]:
    """:func:`render_report`'s page, piece by piece, from ``games`` games that ``lines()``
    gives (twice: a first look for the chart, then the score sheet) and the running balances
    kept in ``runs`` meanwhile: memory does not grow with the games, only the page.
    ``stats``: the players' stats over the same games (:func:`chouette.stats.club_stats`),
    shown after the chart; ``review``: each cube decision reviewed (``report --review``
    only: a review is each player's own unless they share it)."""
    tr = tr if isinstance(tr, Words) else Words(lang, tr)  # (money as ``lang`` writes it)
    _ = tr.gettext
    when = Times(local or (lambda moment: moment), tr)
    runs = runs if runs is not None else MemoryRuns()
    by_session = session is None
    found = survey(
        players, lines(), games, runs, by_session=by_session, also=[s.name for s in standings]
    )
    everyone = found.everyone
    styles = {p: style_of(i) for i, p in enumerate(everyone)}
    title = (
        _("Chouette: {session}").format(session=session)
        if session is not None
        else _("Chouette: the club ledger")
    )
    head = [
        "<!DOCTYPE html>",
        f'<html lang="{_e(lang)}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta http-equiv="Content-Security-Policy" '
        "content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        '<meta name="generator" content="chouette">',
        f"<title>{_e(title)}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        _heading(
            title,
            session,
            stake,
            player_stakes or {},
            everyone,
            found,
            when.evening(session, started_at, found.first_end, found.last_end),
            when.moment(generated_at, cls="generated"),
            currency,
            tr,
        ),
        '<div class="pair">',
        _standings(standings, found.final, styles, currency, tr),
        _settlement(standings, payments, currency, settlement_note, tr),
        "</div>",
    ]
    for part in head:
        yield part + "\n"
    yield from _chart(found, runs, styles, by_session=by_session, tr=tr)
    yield "\n"
    if stats:
        yield _stats(stats, when, currency, tr) + "\n"
    if review is not None:
        yield _review(review, currency, tr) + "\n"
    # The house rules before the long score sheet, so that no printed page holds them
    # alone: the sheet (or its totals) always follows them.
    yield _rules(rules, stake, currency, card, when.local, tr, ended=ended) + "\n"
    yield from _sheet(
        everyone, lines(), found.final, by_session=by_session, tr=tr, local=when.local
    )
    yield "\n"
    for part in (
        _footer(standings, when.moment(generated_at, cls="generated"), tr, fingerprints),
        "</body>",
        "</html>",
    ):
        yield part + "\n"


def _heading(
    title: str,
    session: str | None,
    stake: Cents | None,
    player_stakes: Mapping[str, Cents],
    everyone: Sequence[str],
    found: Survey,
    evening: str,
    generated: str,
    currency: str | None,
    tr: Translator = ENGLISH,
) -> str:
    _ = tr.gettext
    facts = [evening] if evening else []
    unit = f" {_e(currency)}" if currency else ""
    if stake is not None:
        own = ", ".join(f"{_e(p)} {_money(c, tr)}" for p, c in player_stakes.items() if c != stake)
        amount = f'<span id="stake" data-cents="{stake}">{_money(stake, tr)}</span>{unit}'
        facts.append(
            _("stake {amount} a point").format(amount=amount) + (f" ({own})" if own else "")
        )
    elif session is None:
        facts.append(
            tr.ngettext(
                "every session ({count} with games played)",
                "every session ({count} with games played)",
                found.sessions,
            ).format(count=found.sessions)
        )
    games = found.games
    facts.append(tr.ngettext("{count} game", "{count} games", games).format(count=games))
    facts.append(
        tr.ngettext("{count} player", "{count} players", len(everyone)).format(count=len(everyone))
    )
    if currency:
        facts.append(
            _("amounts in {currency}").format(currency=f'<span id="currency">{_e(currency)}</span>')
        )
    facts.append(_("generated {moment}").format(moment=generated))
    return (
        f'<header><h1 id="title">{_e(title)}</h1><p class="facts">{" · ".join(facts)}</p></header>'
    )


@dataclass(frozen=True)
class Times:
    """Moments shown in the reader's local time (``local`` converts one); each ``<time>``
    keeps the moment itself, as given, in its ``datetime`` attribute."""

    local: Callable[[datetime], datetime]
    tr: Translator = ENGLISH

    def day(self, moment: date) -> str:
        """``Tuesday 24 November 2026``, in the page's language."""
        tr = self.tr
        return tr.pgettext("date", "{weekday} {day} {month} {year}").format(
            weekday=tr.gettext(WEEKDAYS[moment.weekday()]),
            day=moment.day,
            month=tr.pgettext("date", MONTHS[moment.month - 1]),
            year=moment.year,
        )

    def moment(
        self, moment: datetime, shown: str = "%Y-%m-%d %H:%M", zone: bool = True, cls: str = ""
    ) -> str:
        here = self.local(moment)
        text = here.strftime(shown) + (f" {here.tzname()}" if zone and here.tzname() else "")
        return f'<time{_attr("class", cls)} datetime="{_e(moment.isoformat())}">{_e(text)}</time>'

    def evening(
        self,
        session: str | None,
        started_at: datetime | None,
        first_end: datetime | None,
        last_end: datetime | None,
    ) -> str:
        """When it was played: the session's day, from its start to its last game (the club
        ledger: the days of its first and last games)."""
        start = started_at if session is not None else first_end
        if start is None:
            return ""
        end = last_end if last_end is not None and last_end > start else None
        _ = self.tr.gettext
        first = self.local(start)
        day = self.day(first).replace("%", "%%")
        if session is None:
            last = None if end is None else self.local(end)
            if last is None or last.date() == first.date():
                on = self.moment(start, day, zone=False, cls="start")
                return '<span id="evening">' + _("played on {day}").format(day=on) + "</span>"
            other = self.day(last).replace("%", "%%")
            played = _("played from {first} to {last}").format(
                first=self.moment(start, day, zone=False, cls="start"),
                last=self.moment(end or start, other, zone=False, cls="end"),
            )
            return f'<span id="evening">{played}</span>'
        opening = self.moment(start, f"{day}, %H:%M", zone=end is None, cls="start")
        if end is None:
            return f'<span id="evening">{opening}</span>'
        last = self.local(end)
        same_night = last - first < timedelta(hours=24) and (last.date() - first.date()).days <= 1
        closing = "%H:%M" if same_night else self.day(last).replace("%", "%%") + ", %H:%M"
        until = _("{first} to {last}").format(
            first=opening, last=self.moment(end, closing, cls="end")
        )
        return f'<span id="evening">{until}</span>'


def _dot(styles: Mapping[str, tuple[str, str]], player: str) -> str:
    return f'<span class="dot" style="background:{styles[player][0]}"></span>'


# ---------------------------------------------------------------- standings and settlement


def _standings(
    standings: Sequence[Standing],
    final: Mapping[str, Cents],
    styles: Mapping[str, tuple[str, str]],
    currency: str | None,
    tr: Translator = ENGLISH,
) -> str:
    """Best first. Where fees and shared costs or payments were booked, their columns show
    how the balance came about."""
    _ = tr.gettext
    table_cents = {s.name: final[s.name] for s in standings}
    costs = any(s.costs for s in standings)
    paid_cents = {s.name: s.cents - table_cents[s.name] - s.costs for s in standings}
    paid = any(paid_cents.values())
    apart = paid or costs
    head = ["", _("player"), _("points")]
    head += [_("at the table")] if apart else []
    head += [_("fees and costs")] if costs else []
    head += [_("paid (+) / received (−)")] if paid else []
    head += [_("balance")] if apart else [_("money")]
    if currency:
        head[-1] += f" ({_e(currency)})"
    rows = []
    for rank, s in enumerate(standings, start=1):
        cells = [
            f'<td class="rank">{rank}</td>',
            f'<td class="name">{_dot(styles, s.name)}{_e(s.name)}</td>',
            f'<td class="num">{signed(s.points)}</td>',
        ]
        shown = [table_cents[s.name]] if apart else []
        shown += [s.costs] if costs else []
        shown += [paid_cents[s.name]] if paid else []
        cells += [f'<td class="num">{_amount(cents, tr)}</td>' for cents in shown]
        cells.append(f'<td class="num balance">{_amount(s.cents, tr)}</td>')
        rows.append(
            f'<tr class="standing" data-player="{_e(s.name)}" data-points="{s.points}" '
            f'data-cents="{s.cents}">{"".join(cells)}</tr>'
        )
    if not rows:
        empty = _("No players yet.")
        rows.append(f'<tr class="empty"><td colspan="{len(head)}">{empty}</td></tr>')
    total = sum(s.cents for s in standings)
    sum_word = _("sum")
    foot = (
        f'<tfoot><tr class="total"><td></td><td>{sum_word}</td>'
        f'<td class="num">{signed(sum(s.points for s in standings))}</td>'
        + "<td></td>" * (len(head) - 4)
        + f'<td class="num" data-cents="{total}">{_money(total, tr, sign=True)}</td></tr></tfoot>'
    )
    title = _("Standings")
    return (
        f'<section id="standings"><h2>{title}</h2><div class="scroll"><table>'
        f"<thead><tr>{''.join(f'<th>{h}</th>' for h in head)}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody>{foot}</table></div></section>"
    )


#: The roles as the stats' columns name them.
ROLE_NAMES = {
    "box": marked("box"),
    "partner": marked("partner"),
    "captain": marked("captain"),
    "crew": marked("crew"),
    "one-on-one": marked("one-on-one"),
}


def _stats(
    stats: Sequence[PlayerStats], when: Times, currency: str | None, tr: Translator = ENGLISH
) -> str:
    """Each player's money by role (the games in brackets), per game and biggest night,
    and who beats whom (:mod:`chouette.stats`)."""
    _ = tr.gettext
    roles = [r for r in ROLES if any(r in s.roles for s in stats)]
    unit = f" ({_e(currency)})" if currency else ""
    head = [_("player"), _("games"), *(tr.gettext(ROLE_NAMES[r]) for r in roles)]
    head += [_("per game"), _("biggest night")]
    rows = []
    for s in stats:
        cells = [f'<td class="name">{_e(s.name)}</td>', f'<td class="num">{s.total.games}</td>']
        for role in roles:
            tally = s.roles.get(role)
            cells.append(
                '<td class="num">–</td>'
                if tally is None
                else f'<td class="num" data-role="{role}" data-cents="{tally.net}" '
                f'data-games="{tally.games}">{_amount(tally.net, tr)} ({tally.games})</td>'
            )
        cells.append(f'<td class="num">{_amount(s.total.per_game, tr)}</td>')
        night = s.biggest_night
        cells.append(
            "<td></td>"
            if night is None
            else f'<td class="night" data-night="{night.night.isoformat()}" '
            f'data-cents="{night.cents}">{_e(when.day(night.night))}: '
            f"{_amount(night.cents, tr)}</td>"
        )
        rows.append(f'<tr class="stat" data-player="{_e(s.name)}">{"".join(cells)}</tr>')
    pairs = "".join(
        f'<tr class="beats" data-player="{_e(a)}" data-against="{_e(b)}" '
        f'data-cents="{o.cents}"><td class="name">{_e(a)}</td><td class="name">{_e(b)}</td>'
        f'<td class="num">{o.games}</td><td class="num">{_amount(o.cents, tr)}</td></tr>'
        for a, b, o in who_beats_whom(stats)
    )
    title, beats = _("Statistics"), _("Who beats whom")
    note = _(
        "Money won at the table by role (net, the games in brackets); a night is the local "
        "date a game ended (before 06:00, the night before)."
    )
    against = [_("player"), _("against"), _("games"), _("money") + unit]
    return (
        f'<section id="stats"><h2>{title}</h2><div class="scroll"><table>'
        f"<thead><tr>{''.join(f'<th>{h}</th>' for h in head)}</tr></thead>"
        f'<tbody>{"".join(rows)}</tbody></table></div><p class="note">{note}</p>'
        f'<h3>{beats}</h3><div class="scroll"><table id="beats">'
        f"<thead><tr>{''.join(f'<th>{h}</th>' for h in against)}</tr></thead>"
        f"<tbody>{pairs}</tbody></table></div></section>"
    )


def _review(
    items: Sequence[tuple[int, Reviewed]], currency: str | None, tr: Translator = ENGLISH
) -> str:
    """Each cube decision given a position, scored by the engine for its pair's cube
    (:mod:`chouette.review`), and each player's total."""
    _, words = tr.gettext, _words(tr)
    unit = f" ({_e(currency)})" if currency else ""
    head = [_("game"), _("step"), _("player"), _("pair"), _("did"), _("proper"), _("error")]
    head += [_("points"), _("money") + unit]
    rows = []
    for number, item in items:
        d = item.decision
        proper = tr.pgettext("cube action", item.proper) if item.proper else _("not scored")
        error = "" if item.error is None else words(Fixed(item.error))
        points = "" if item.points is None else words(Fixed(item.points))
        money = "" if item.cents is None else _amount(item.cents, tr, sign=False)
        cents = "" if item.cents is None else _attr("data-cents", item.cents)
        rows.append(
            f'<tr class="decision" data-game="{number}" data-step="{d.step}"'
            f"{_attr('data-player', d.player)}{_attr('data-member', d.member)}{cents}>"
            f'<td class="num">{number}</td><td class="num">{d.step}</td>'
            f'<td class="name">{_e(d.player)}</td><td class="name">{_e(d.member)}</td>'
            f"<td>{_e(tr.pgettext('cube action', d.action))}</td><td>{_e(proper)}</td>"
            f'<td class="num">{error}</td><td class="num">{points}</td>'
            f'<td class="num">{money}</td></tr>'
        )
    total = [
        f'<tr class="reviewed"{_attr("data-player", s.player)}{_attr("data-cents", s.cents)}>'
        f'<td class="name">{_e(s.player)}</td><td class="num">{s.decisions}</td>'
        f'<td class="num">{s.errors}</td><td class="num">{words(Fixed(s.error))}</td>'
        f'<td class="num">{_amount(s.cents, tr, sign=False)}</td></tr>'
        for s in summaries(item for _, item in items)
    ]
    title = _("Cube decisions reviewed by GNU Backgammon")
    note = _(
        "Each double, take, drop, beaver and raccoon given a position, for its pair's cube: "
        "the error is equity per 1-cube given up against the proper action; points are the "
        "error times the cube, money the points at the pair's stake."
    )
    totals = [_("player"), _("decisions"), _("errors"), _("error"), _("money") + unit]
    return (
        f'<section id="review"><h2>{title}</h2><div class="scroll"><table>'
        f"<thead><tr>{''.join(f'<th>{h}</th>' for h in head)}</tr></thead>"
        f'<tbody>{"".join(rows)}</tbody></table></div><p class="note">{note}</p>'
        f'<div class="scroll"><table id="reviewed">'
        f"<thead><tr>{''.join(f'<th>{h}</th>' for h in totals)}</tr></thead>"
        f"<tbody>{''.join(total)}</tbody></table></div></section>"
    )


def _settlement(
    standings: Sequence[Standing],
    payments: Sequence[Payment],
    currency: str | None,
    settlement_note: Sayable | None = None,
    tr: Translator = ENGLISH,
) -> str:
    _ = tr.gettext
    if payments:
        pays, from_, to, amount = _("pays"), _("from"), _("to"), _("amount")
        rows = "".join(
            f'<tr class="payment" data-from="{_e(p.payer)}" data-to="{_e(p.payee)}" '
            f'data-cents="{p.cents}"><td class="name">{_e(p.payer)}</td>'
            f'<td class="arrow">{pays}</td><td class="name">{_e(p.payee)}</td>'
            f'<td class="num">{_money(p.cents, tr)}</td></tr>'
            for p in payments
        )
        table = (
            f'<div class="scroll"><table><thead><tr><th>{from_}</th><th></th>'
            f"<th>{to}</th>"
            f"<th>{amount}{f' ({_e(currency)})' if currency else ''}</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></div>"
        )
        count = len(payments)
        note = (
            f"{_e(_words(tr)(settlement_note))}."
            if settlement_note
            else tr.ngettext(
                "{count} payment, the fewest that settle everyone.",
                "{count} payments, the fewest that settle everyone.",
                count,
            ).format(count=count)
        )
    else:
        table = '<p class="square">' + _("Everyone is square: no payments.") + "</p>"
        note = ""
    balances = {s.name: s.cents for s in standings}
    ok = sum(balances.values()) == 0 and clears(balances, list(payments))
    check = (
        _("After these payments every balance is exactly 0.00.")
        if ok
        else _("These payments do not clear the balances: do not pay from this page.")
    )
    title = _("Who pays whom")
    return (
        f'<section id="settlement"><h2>{title}</h2>'
        f'{table}<p class="note">{note} <span class="check" data-clears="{str(ok).lower()}">'
        f"{check}</span></p></section>"
    )


# ---------------------------------------------------------------- the chart


@dataclass(frozen=True)
class Axis:
    """The money axis: from ``low`` to ``high`` cents in gridlines ``step`` cents apart."""

    low: Cents
    high: Cents
    step: Cents

    @property
    def ticks(self) -> range:
        return range(self.low, self.high + 1, self.step)


def money_axis(values: Sequence[Cents], lines: int = 6) -> Axis:
    """Round gridlines (1, 2 or 5 × a power of ten cents) around 0 and every value."""
    low, high = min([0, *values]), max([0, *values])
    span = max(high - low, 1)
    step, power = 1, 1
    while True:
        found = next((m * power for m in (1, 2, 5) if span <= m * power * lines), None)
        if found is not None:
            step = found
            break
        power *= 10
    low = (low // step) * step
    high = -((-high) // step) * step
    if low == high:
        high = low + step
    return Axis(low, high, step)


def balance_chart(
    players: Sequence[str], lines: Sequence[GameLine], tr: Translator = ENGLISH
) -> str:
    """The running-balance chart of one session alone, with its legend, as the report draws
    it (the live scoreboard of ``chouette serve`` shows it too)."""
    runs = MemoryRuns()
    found = survey(players, lines, len(lines), runs, by_session=False)
    styles = {p: style_of(i) for i, p in enumerate(found.everyone)}
    return "".join(_chart(found, runs, styles, by_session=False, tr=tr))


CHUNK = 2000  # the chart's points written at once


def _chart(
    found: Survey,
    runs: Runs,
    styles: Mapping[str, tuple[str, str]],
    *,
    by_session: bool,
    tr: Translator = ENGLISH,
) -> Iterator[str]:
    _ = tr.gettext
    games, everyone = found.games, found.everyone
    axis = money_axis([found.low, found.high])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + i * plot_w / max(games, 1)

    def y(cents: Cents) -> float:
        return TOP + (axis.high - cents) * plot_h / (axis.high - axis.low)

    title, caption = _("Running balance"), _("Running balance of each player, game by game")
    yield (
        f'<section id="chart"><h2>{title}</h2><figure>'
        f'<svg id="balance-chart" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="chart-title" '
        f'data-games="{games}" data-low-cents="{axis.low}" data-high-cents="{axis.high}">'
        f'<title id="chart-title">{caption}</title>'
        f'<rect class="plot" x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" '
        f'fill="{PLOT_BACKGROUND}"/>'
    )
    parts = []
    for tick in axis.ticks:
        ty = f"{y(tick):.2f}"
        kind = "zero" if tick == 0 else "grid"
        parts.append(
            f'<line class="{kind}" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{ty}" y2="{ty}"/>'
            f'<text class="ylabel" x="{LEFT - 6}" y="{ty}" data-cents="{tick}">'
            f"{_money(tick, tr, sign=True)}</text>"
        )
    for i, label in found.labels:
        parts.append(
            f'<text class="xlabel" x="{x(i):.2f}" y="{HEIGHT - BOTTOM + 18}">{label}</text>'
        )
    if by_session:
        for i, session in found.breaks:
            parts.append(
                f'<line class="session-break" x1="{x(i):.2f}" x2="{x(i):.2f}" y1="{TOP}" '
                f'y2="{HEIGHT - BOTTOM}"/><text class="session-label" x="{x(i) + 4:.2f}" '
                f'y="{TOP - 8}">{_e(session)}</text>'
            )
    axis_title = _("game (in order)") if by_session else _("game")
    parts.append(
        f'<text class="axis-title" x="{LEFT + plot_w / 2:.2f}" y="{HEIGHT - 4}">{axis_title}</text>'
    )
    if not games:
        parts.append(
            f'<text class="nogames" x="{LEFT + plot_w / 2:.2f}" y="{TOP + plot_h / 2 - 12:.2f}">'
            + _("No games finished yet")
            + "</text>"
        )
    yield "".join(parts)
    for p in everyone:
        colour, dash = styles[p]
        yield f'<polyline class="balance" data-player="{_e(p)}" data-cents="'
        yield from _joined(str(c) for c in _every_game(runs, p, games))
        yield (
            f'" fill="none" stroke="{colour}" stroke-width="3" '
            f'vector-effect="non-scaling-stroke" stroke-linejoin="round" '
            f'stroke-linecap="round"{_attr("stroke-dasharray", dash)} points="'
        )
        yield from _joined(
            f"{x(i):.2f},{y(c):.2f}" for i, c in enumerate(_every_game(runs, p, games))
        )
        yield (f'"><title>{_e(p)}: {_money(found.final[p], tr, sign=True)}</title></polyline>')
    legend = "".join(
        f'<li data-player="{_e(p)}" data-cents="{found.final[p]}">'
        f'<svg class="swatch" viewBox="0 0 24 6" aria-hidden="true"><line x1="0" x2="24" y1="3" '
        f'y2="3" stroke="{styles[p][0]}" stroke-width="4"'
        f"{_attr('stroke-dasharray', styles[p][1])}/></svg>"
        f"{_e(p)} {_amount(found.final[p], tr)}</li>"
        for p in everyone
    )
    paid = ""
    if any(found.final[p] for p in everyone) or games:
        paid = (
            '<p class="note">'
            + _(
                "Each line is a player’s money won or lost at the table, after each game; "
                "payments booked between players are not in the chart."
            )
            + "</p>"
        )
    yield (f'</svg><figcaption><ul id="legend">{legend}</ul></figcaption></figure>{paid}</section>')


def _joined(words: Iterable[str]) -> Iterator[str]:
    """``" ".join(words)``, a few thousand words at a time."""
    batch: list[str] = []
    first = True
    for word in words:
        batch.append(word)
        if len(batch) >= CHUNK:
            yield ("" if first else " ") + " ".join(batch)
            batch, first = [], False
    if batch:
        yield ("" if first else " ") + " ".join(batch)


# ---------------------------------------------------------------- the score sheet


def _sheet(
    everyone: Sequence[str],
    lines: Iterable[GameLine],
    final: Mapping[str, Cents],
    *,
    by_session: bool,
    tr: Translator = ENGLISH,
    local: Callable[[datetime], datetime] | None = None,
) -> Iterator[str]:
    _ = tr.gettext
    head = [*([_("session")] if by_session else []), _("game"), _("box"), _("captain")]
    header = "".join(f"<th>{h}</th>" for h in head) + "".join(
        f'<th class="player" data-player="{_e(p)}">{_e(p)}</th>' for p in everyone
    )
    title = _("Score sheet")
    yield (
        f'<section id="sheet"><h2>{title}</h2><div class="scroll"><table>'
        f"<thead><tr>{header}</tr></thead><tbody>"
    )
    points = dict.fromkeys(everyone, 0)
    run = dict.fromkeys(everyone, 0)
    engine, extras = False, []
    corrected: list[str] = []
    amended_word = _("amended")
    names = {p: _e(p) for p in everyone}
    count = 0
    for line in lines:
        count += 1
        is_engine = line.kind != "chouette"
        engine = engine or is_engine
        cells = [f'<td class="name">{_e(line.session)}</td>'] if by_session else []
        cells += [
            f'<td class="num">{line.number}{"*" if is_engine else ""}'
            + (f' <span class="amended">({amended_word})</span>' if line.amended else "")
            + "</td>",
            f'<td class="name">{_e(line.box_side)}</td>',
            f'<td class="name">{_e(line.captain or "")}</td>',
        ]
        for p in everyone:
            if p not in line.cents:
                cells.append(f'<td class="result idle" data-player="{names[p]}"></td>')
                continue
            pts, cents = line.points.get(p, 0), line.cents[p]
            points[p] += pts
            run[p] += cents
            role = (
                "box" if p in (line.box, line.partner) else "captain" if p == line.captain else ""
            )
            cells.append(
                f'<td class="result{f" {role}" if role else ""}" data-player="{names[p]}" '
                f'data-points="{pts}" data-cents="{cents}" data-running-cents="{run[p]}">'
                f'{_amount(cents, tr)} <span class="pts">({signed(pts)})</span>'
                f'<span class="run">→ {_money(run[p], tr, sign=True)}</span></td>'
            )
        game_word = _("game {number}").format(number=line.number)
        extras += [
            f'<span class="extra" data-game="{line.number}">'
            f"{_e(line.session) + ' ' if by_session else ''}"
            f"{game_word}: "
            f"{_e(_words(tr)(extra_result_text(e)))}</span>"
            for e in line.extras
        ]
        corrected += [
            f'<span class="correction" data-game="{line.number}">'
            f"{_e(line.session) + ' ' if by_session else ''}{game_word}: "
            f"{_e(_words(tr)(c.text(local)))}</span>"
            for c in line.amended
        ]
        yield (
            f'<tr class="game{" engine" if is_engine else ""}" data-game="{line.number}"'
            f"{_attr('data-session', line.session) if by_session else ''}>"
            f"{''.join(cells)}</tr>"
        )
    if not count:
        yield (
            f'<tr class="empty"><td colspan="{len(head) + len(everyone)}">'
            + _("No games finished yet.")
            + "</td></tr>"
        )
    pad = "".join("<td></td>" for _ in head[1:])
    totals = "".join(
        f'<td class="num" data-player="{_e(p)}" data-points="{points[p]}">{signed(points[p])}</td>'
        for p in everyone
    )
    money = "".join(
        f'<td class="num" data-player="{_e(p)}" data-cents="{final[p]}">'
        f"{_amount(final[p], tr)}</td>"
        for p in everyone
    )
    foot = (
        '<tfoot><tr class="total points"><th>'
        + _("points")
        + f"</th>{pad}{totals}</tr>"
        + '<tr class="total money"><th>'
        + _("money")
        + f"</th>{pad}{money}</tr></tfoot>"
    )
    notes = []
    if engine:
        notes.append(
            "* "
            + _(
                "imported from an engine file: a head-to-head game, the winner in the box "
                "column and the loser as captain."
            )
        )
    if extras:
        notes.append(
            _("Extras, counted in the games above: {extras}.").format(extras="; ".join(extras))
        )
    if corrected:
        notes.append(
            _("Games corrected (chouette amend): {corrections}.").format(
                corrections="; ".join(corrected)
            )
        )
    notes.append(
        _(
            "Each cell: the game’s money (its points), then the running total; {box} and "
            "{captain} are shaded."
        ).format(
            box=('<span class="key box">' + _("the box") + "</span>"),
            captain=('<span class="key captain">' + _("the captain") + "</span>"),
        )
    )
    yield (f'</tbody>{foot}</table></div><p class="note">{" ".join(notes)}</p></section>')


# ---------------------------------------------------------------- house rules and footer


def _rules(
    rules: HouseRules | None,
    stake: Cents | None,
    currency: str | None,
    card: Card | None = None,
    local: Callable[[datetime], datetime] | None = None,
    tr: Translator = ENGLISH,
    *,
    ended: tuple[int, datetime] | None = None,
) -> str:
    """The house rules in words, a row per topic (each row's ``data-options`` holds its
    options as ``chouette new`` takes them, ``option=value``), and the options that differ
    from chouette's defaults in one line; ``ended``: the game after which the session ended
    as agreed (its stop), and when."""
    _ = tr.gettext
    if rules is None:
        return (
            ('<section id="rules"><h2>' + _("House rules") + "</h2><p>")
            + _("Every session keeps its own house rules and stake: see each session’s own report.")
            + "</p></section>"
        )
    unit = f" {currency}" if currency else ""
    rows = ""
    if stake is not None:
        rows = (
            ('<tr data-rule="stake"><th>' + _("Stake") + "</th><td>")
            + _e(_("{amount} a point").format(amount=f"{_money(stake, tr)}{unit}"))
            + "</td></tr>"
        )
    values = rules.to_dict()
    for topic, text in rule_lines(rules, tr):
        names = [o.replace("_", "-") for o in dict(TOPICS)[topic]]
        given = " ".join(f"{o}={value_text(values[o])}" for o in names if o in values)
        rows += (
            f'<tr data-topic="{_e(topic)}" data-options="{_e(given)}">'
            f"<th>{_e(topic_name(topic, tr))}</th><td>{_e(text)}</td></tr>"
        )
    if ended is not None:
        number, at = ended
        here = (local or (lambda moment: moment))(at)
        shown = f"{here:%H:%M}" + (f" {here.tzname()}" if here.tzname() else "")
        rows += (
            f'<tr data-rule="ended"><th>{_e(_("Ended"))}</th><td>'
            + _e(_("After game {number}, as agreed, at {time}.").format(number=number, time=shown))
            + "</td></tr>"
        )
    card_part = "" if card is None else _card(card, local or (lambda moment: moment), tr)
    options = _("As chouette new takes them: {summary}.").format(summary=rules.summary())
    title = _("House rules")
    return (
        f'<section id="rules"><h2>{title}</h2><table class="rules">{rows}</table>'
        f'<p class="summary">{_e(options)}</p>{card_part}</section>'
    )


def _card(card: Card, local: Callable[[datetime], datetime], tr: Translator = ENGLISH) -> str:
    """Where the rules came from, and who accepted them (the rules card's own lines)."""
    lines = [*origin_lines(card, local)] if card.origin.known else []
    lines += acceptance_lines(card, local)
    words = _words(tr)
    return "".join(f'<p class="card">{_e(words(line))}</p>' for line in lines)


def _footer(
    standings: Sequence[Standing],
    generated: str,
    tr: Translator = ENGLISH,
    fingerprints: Mapping[str, str | None] | None = None,
) -> str:
    total = sum(s.cents for s in standings)
    shown = {name: fp for name, fp in (fingerprints or {}).items() if fp is not None}
    prints = ""
    if shown:
        codes = ", ".join(
            f'{_e(name)} <code class="fingerprint" data-session="{_e(name)}">{fp}</code>'
            for name, fp in shown.items()
        )
        prints = (
            '<p class="fingerprints">'
            + tr.gettext(
                "Fingerprint of the record: {fingerprints}. `chouette check` (or `chouette "
                "verify` for an export) proves the record still matches it."
            ).format(fingerprints=codes)
            + "</p>"
        )
    return (
        "<footer><p>"
        + tr.gettext(
            "Money in integer cents, exact: the balances sum to {sum}. Generated by chouette "
            "at {moment}."
        ).format(
            sum=f'<span id="sum" data-cents="{total}">{_money(total, tr)}</span>',
            moment=generated,
        )
        + "</p>"
        + prints
        + "</footer>"
    )


CSS = """
:root { color-scheme: light; --ink: #1d2330; --muted: #5f6b7a; --rule: #d9dee7;
  --pos: #1a7f37; --neg: #b42318; }
* { box-sizing: border-box; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0 auto; max-width: 980px; padding: 1rem; color: var(--ink); background: #fff;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
  sans-serif; }
h1 { font-size: 1.6rem; margin: 0 0 .2rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 1.6rem 0 .5rem; border-bottom: 2px solid var(--ink);
  padding-bottom: .15rem; }
.facts, .note, footer { color: var(--muted); font-size: .88rem; }
.pair { display: flex; flex-wrap: wrap; gap: 0 2.5rem; }
.pair > section { flex: 1 1 320px; min-width: 0; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: .3rem .55rem; border-bottom: 1px solid var(--rule); text-align: left;
  vertical-align: top; }
thead th { font-size: .8rem; text-transform: uppercase; letter-spacing: .03em;
  color: var(--muted); }
thead th.player { text-transform: none; letter-spacing: 0; font-size: .9rem; color: var(--ink); }
tfoot td, tfoot th { border-top: 2px solid var(--ink); border-bottom: 0; font-weight: 600; }
td.num, td.result, th.player { text-align: right; white-space: nowrap; }
th.player { white-space: normal; }
td.name, th.player { overflow-wrap: break-word; hyphens: manual; }
td.rank { color: var(--muted); }
.money.pos { color: var(--pos); } .money.neg { color: var(--neg); }
td.balance { font-weight: 700; }
td.result .run { display: block; font-size: .8rem; color: var(--muted); }
td.result .pts { font-size: .8rem; color: var(--muted); }
td.result.box, .key.box { background: #fff7e0; }
td.result.captain, .key.captain { background: #eef4ff; }
.key { padding: 0 .25em; }
tr.engine td:first-child { font-style: italic; }
#sheet tbody tr:nth-child(even) { background: #fafbfc; }
.dot { display: inline-block; width: .7em; height: .7em; border-radius: 50%;
  margin-right: .4em; }
.square { font-weight: 600; }
.check { color: var(--ink); }
figure { margin: 0; }
#balance-chart { display: block; width: 100%; height: auto; }
#balance-chart .grid { stroke: #dde2ea; stroke-width: 1; }
#balance-chart .zero { stroke: #7a8494; stroke-width: 1.5; }
#balance-chart .session-break { stroke: #aab2bf; stroke-dasharray: 4 4; }
#balance-chart text { font: 11px system-ui, sans-serif; fill: #5f6b7a; }
#balance-chart .ylabel { text-anchor: end; dominant-baseline: middle; }
#balance-chart .xlabel, #balance-chart .axis-title, #balance-chart .nogames {
  text-anchor: middle; }
#balance-chart .nogames { font-size: 14px; }
#legend { list-style: none; padding: 0; margin: .4rem 0 0; display: flex; flex-wrap: wrap;
  gap: .3rem 1.2rem; font-size: .9rem; }
#legend li { white-space: nowrap; }
.swatch { width: 24px; height: 6px; margin-right: .35em; vertical-align: middle; }
table.rules, table.rules tbody { display: block; }
table.rules tbody { columns: 2 22rem; column-gap: 1.5rem; font-size: .9rem; }
table.rules tr { display: block; break-inside: avoid; padding: .15rem 0; }
table.rules th, table.rules td { display: inline; border: 0; padding: 0; text-align: left; }
table.rules th { font-weight: 600; color: var(--muted); }
table.rules th::after { content: ": "; }
#rules .summary, #rules .card { font-size: .85rem; color: var(--muted); margin: .3rem 0; }
footer { margin-top: 2rem; border-top: 1px solid var(--rule); padding-top: .5rem; }
@media (max-width: 600px) {
  body { padding: .6rem; font-size: 14px; }
  th, td { padding: .25rem .35rem; }
  #balance-chart text { font-size: 20px; }
  #balance-chart .nogames { font-size: 24px; }
}
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  .scroll { overflow: visible; }
  section { break-inside: avoid; }
  #sheet { break-inside: auto; }
  tr { break-inside: avoid; }
  thead { display: table-header-group; }
  tfoot { display: table-row-group; }
  h2 { break-after: avoid; }
  #rules { break-after: avoid; }
  #sheet .note, footer { break-before: avoid; }
}
""".strip()
