"""The venue screen (issue 22, point 5): a TV in the hall, 1920x1080, read from five metres.
Slides that rotate: the current round's pairings by board, then the standings, a page of
``ROWS`` lines each so that nothing ever scrolls; the schedule and a clock (in the tournament's
time zone) stay at the bottom and the top. In Russian, English or both (``?lang=ru|en|both``:
in both, every heading is written in each language on a line of its own).

What the screen says of the tournament's progress comes from ``Progress`` alone: the standings'
heading says what the table is (after round N, round N in progress, final) and the schedule
marks the round under way and the next one from the rounds' results, never from the clock (a
round runs late; a kept page is not rebuilt as time passes). A finished tournament shows its
final standings and no pairings nor next round.

Built from the tables the public pages use (``championship.tables``, kept by version)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from common.dates import sentence, short_date

from . import selectors, tables
from .labels import BYE_NAMES, points_writer
from .models import RESULTS, Tournament

#: Lines on one slide: large enough to read from five metres at 1080 pixels high.
ROWS = 12
#: Standings slides at most (the leaders: a screen is no place for 500 lines).
STANDINGS_SLIDES = 2
#: Seconds each slide stays.
SLIDE_SECONDS = 15

#: The languages a screen speaks (``?lang=``): one, or both one above the other.
MODES = {"ru": ("ru",), "en": ("en",), "both": ("ru", "en")}

LABELS: dict[str, Promise] = {
    "board": pgettext_lazy("venue screen", "Board"),
    "white": _("White"),
    "black": _("Black"),
    "result": _("Result"),
    "place": pgettext_lazy("venue screen", "Place"),
    "player": _("Player"),
    "points": _("Points"),
    "schedule": _("Schedule"),
    "forfeit": _("forfeit"),
    "under_way": _("Under way"),
    "finished": _("The tournament is finished."),
}


@dataclass(frozen=True)
class Progress:
    """Where the tournament is: its published rounds, those with every result, finished."""

    published: list[int]
    done: Collection[int]
    finished: bool

    @property
    def current(self) -> int | None:
        """The last published round (the one the pairings slides show)."""
        return self.published[-1] if self.published else None

    @property
    def playing(self) -> int | None:
        """The round under way: published, some result still to come."""
        current = self.current
        if self.finished or current is None or current in self.done:
            return None
        return current


def progress(t: Tournament) -> Progress:
    return Progress(
        published=tables.published_rounds(t),
        done=selectors.rounds_done(t),
        finished=t.is_finished,
    )


@dataclass
class Slide:
    kind: str  # pairings, standings
    title: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    page: int = 1
    pages: int = 1


def said_lines(text: Promise | str, languages: tuple[str, ...], **params: Any) -> list[str]:
    """``text`` in each of ``languages`` (once if they are the same)."""
    out: list[str] = []
    for code in languages:
        with translation.override(code):
            value = str(text) % params if params else str(text)
        if value not in out:
            out.append(value)
    return out


def said(text: Promise | str, languages: tuple[str, ...], **params: Any) -> str:
    """``text`` in each of ``languages``, one after the other (once if they are the same)."""
    return " · ".join(said_lines(text, languages, **params))


def _result(games: tuple[selectors.PairingGame, ...]) -> str:
    shown = dict(RESULTS)
    return ", ".join(str(shown.get(g.result, g.result)) for g in games if g.result)


def _result_note(games: tuple[selectors.PairingGame, ...], languages: tuple[str, ...]) -> str:
    """How the result came, under it and smaller (the result's column is narrow): a forfeit."""
    if any(g.result and g.termination == "forfeit" for g in games):
        return said(LABELS["forfeit"], languages)
    return ""


def pairing_slides(t: Tournament, number: int, languages: tuple[str, ...]) -> list[Slide]:
    before = tables.points_before(t, number)
    write = points_writer()  # the page's language's decimals, as every page writes points
    rows = []
    for row in selectors.pairing_rows(t, number):
        white_points = write(before.get(row.white.number or 0, ""))
        item: dict[str, Any] = {
            "board": row.number if row.black is not None else "",
            "white": row.white.name,
            "white_points": white_points,
            "black": row.black.name if row.black is not None else "",
            "black_points": write(before.get(row.black.number or 0, "")) if row.black else "",
            "result": _result(row.games),
            "note": _result_note(row.games, languages),
        }
        if row.black is None:  # across the result's and the opponent's columns, a line each
            item["bye"] = said_lines(BYE_NAMES.get(row.bye, BYE_NAMES["U"]), languages)
        rows.append(item)
    title = said(_("Round %(n)d · pairings"), languages, n=number)
    return _paged("pairings", title, rows)


def standings_slides(t: Tournament, languages: tuple[str, ...], now: Progress) -> list[Slide]:
    """The standings with every result entered so far, as the public standings page shows
    them, under a heading that says what they are."""
    write = points_writer()
    rows = [
        {"place": "" if r.shared else r.rank, "name": r.name, "points": write(r.points)}
        for r in tables.standings(t)[: ROWS * STANDINGS_SLIDES]
    ]
    return _paged("standings", standings_title(t, languages, now), rows)


def standings_title(t: Tournament, languages: tuple[str, ...], now: Progress) -> str:
    """``Final standings`` (the public standings page's words), ``Standings — round 5 in
    progress`` while round 5 is under way (the table counts its results entered so far, as
    the public standings page does), else ``Standings after round 4``."""
    if now.finished:
        return said(_("Final standings"), languages)
    if now.playing is not None:
        return said(_("Standings — round %(n)d in progress"), languages, n=now.playing)
    played = tables.data(t).rounds_played
    if played:
        return said(_("Standings after round %(n)d"), languages, n=played)
    return said(_("Standings"), languages)


def _paged(kind: str, title: str, rows: list[dict[str, Any]]) -> list[Slide]:
    if not rows:
        return []
    pages = [rows[i : i + ROWS] for i in range(0, len(rows), ROWS)]
    return [
        Slide(kind=kind, title=title, rows=chunk, page=n, pages=len(pages))
        for n, chunk in enumerate(pages, start=1)
    ]


def schedule(t: Tournament, languages: tuple[str, ...], now: Progress) -> list[dict[str, Any]]:
    """The rounds with a scheduled start, in the tournament's time zone, each with its state:
    ``done`` (every result in, or passed over), ``playing`` (under way), ``next`` (the first
    round still to be paired when none is under way) or "". None once the tournament is
    finished: no round is next."""
    if now.finished:
        return []
    zone = ZoneInfo(t.time_zone)
    current = now.current or 0
    out = []
    marked_next = now.playing is not None
    for number, starts_at in sorted(selectors.round_starts(t).items()):
        local = timezone.localtime(starts_at, zone)
        if number == now.playing:
            state = "playing"
        elif number <= current:
            state = "done"
        elif not marked_next:
            state, marked_next = "next", True
        else:
            state = ""
        out.append(
            {
                "round": _round_label(number, languages),
                "day": _day(local, languages),
                "date": local.date().isoformat(),
                "time": local.strftime("%H:%M"),
                "at": int(starts_at.timestamp() * 1000),
                "state": state,
            }
        )
    return out


def _round_label(number: int, languages: tuple[str, ...]) -> str:
    """``Round 3``, or in both languages ``Тур/Round 3`` (short: the schedule is one line)."""
    words: list[str] = []
    for code in languages:
        with translation.override(code):
            text = str(_("Round %(n)d") % {"n": number})
        word = text.removesuffix(f" {number}")
        if word == text:  # a language that puts the number elsewhere: say it whole
            return said(_("Round %(n)d"), languages, n=number)
        if word not in words:
            words.append(word)
    return f"{'/'.join(words)} {number}"


def _day(moment: datetime, languages: tuple[str, ...]) -> str:
    """The weekday and the date with the month in words, in each of ``languages`` (``Сб 13
    марта · Sat 13 Mar``): never a numeric day and month, which reads differently in each."""
    days: list[str] = []
    for code in languages:
        with translation.override(code):
            day = sentence(short_date(moment.date()))  # the day where the tournament is
        if day not in days:
            days.append(day)
    return " · ".join(days)


def labels(languages: tuple[str, ...]) -> dict[str, list[str]]:
    """Each label in each language: a line each (the table's heads, the schedule's)."""
    return {key: said_lines(text, languages) for key, text in LABELS.items()}


def names(t: Tournament, languages: tuple[str, ...]) -> list[str]:
    """The tournament's name in each language: a line each on the screen."""
    out: list[str] = []
    for code in languages:
        with translation.override(code):
            name = t.localized_name
        if name not in out:
            out.append(name)
    return out
