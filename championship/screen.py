"""The venue screen (issue 22, point 5): a TV in the hall, 1920x1080, read from five metres.
Slides that rotate: the current round's pairings by board, then the standings, a page of
``ROWS`` lines each so that nothing ever scrolls; the schedule and a clock (in the tournament's
time zone) stay at the bottom and the top. In Russian, English or both (``?lang=ru|en|both``).

Built from the tables the public pages use (``championship.tables``, kept by version)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import formats, timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

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
}


@dataclass
class Slide:
    kind: str  # pairings, standings
    title: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    page: int = 1
    pages: int = 1


def said(text: Promise | str, languages: tuple[str, ...], **params: Any) -> str:
    """``text`` in each of ``languages``, one after the other (once if they are the same)."""
    out: list[str] = []
    for code in languages:
        with translation.override(code):
            value = str(text) % params if params else str(text)
        if value not in out:
            out.append(value)
    return " · ".join(out)


def _result(games: tuple[selectors.PairingGame, ...], languages: tuple[str, ...]) -> str:
    shown = dict(RESULTS)
    parts = []
    for g in games:
        if not g.result:
            continue
        text = str(shown.get(g.result, g.result))
        if g.termination == "forfeit":
            text += " " + said(LABELS["forfeit"], languages)
        parts.append(text)
    return ", ".join(parts)


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
            "result": _result(row.games, languages),
        }
        if row.black is None:
            item["result"] = said(BYE_NAMES.get(row.bye, BYE_NAMES["U"]), languages)
        rows.append(item)
    title = said(_("Round %(n)d · pairings"), languages, n=number)
    return _paged("pairings", title, rows)


def standings_slides(t: Tournament, languages: tuple[str, ...]) -> list[Slide]:
    write = points_writer()
    rows = [
        {"place": "" if r.shared else r.rank, "name": r.name, "points": write(r.points)}
        for r in tables.standings(t)[: ROWS * STANDINGS_SLIDES]
    ]
    played = tables.data(t).rounds_played
    if played:
        title = said(_("Standings after round %(n)d"), languages, n=played)
    else:
        title = said(_("Standings"), languages)
    return _paged("standings", title, rows)


def _paged(kind: str, title: str, rows: list[dict[str, Any]]) -> list[Slide]:
    if not rows:
        return []
    pages = [rows[i : i + ROWS] for i in range(0, len(rows), ROWS)]
    return [
        Slide(kind=kind, title=title, rows=chunk, page=n, pages=len(pages))
        for n, chunk in enumerate(pages, start=1)
    ]


def schedule(t: Tournament, languages: tuple[str, ...]) -> list[dict[str, Any]]:
    """The rounds with a scheduled start, in the tournament's time zone."""
    zone = ZoneInfo(t.time_zone)
    out = []
    for number, starts_at in sorted(selectors.round_starts(t).items()):
        local = timezone.localtime(starts_at, zone)
        out.append(
            {
                "round": _round_label(number, languages),
                "day": _day(local, languages),
                "time": local.strftime("%H:%M"),
                "at": int(starts_at.timestamp() * 1000),
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
    """A short weekday in each of ``languages`` and the date (``Сб/Sat 14.03``)."""
    days: list[str] = []
    for code in languages:
        with translation.override(code):
            day = formats.date_format(moment, "D")
        if day not in days:
            days.append(day)
    return f"{'/'.join(days)} {moment:%d.%m}"


def labels(languages: tuple[str, ...]) -> dict[str, str]:
    return {key: said(text, languages) for key, text in LABELS.items()}


def names(t: Tournament, languages: tuple[str, ...]) -> str:
    out: list[str] = []
    for code in languages:
        with translation.override(code):
            name = t.localized_name
        if name not in out:
            out.append(name)
    return " · ".join(out)
