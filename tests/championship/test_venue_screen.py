"""The venue screen (issue 22, point 5): the current round's pairings and the standings in
slides of at most 12 lines, the schedule in the tournament's time zone, a clock; Russian,
English or both; public, kept whole per version."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from championship.models import RoundStart, Tournament
from championship.screen import ROWS
from games.demo import create_running_swiss

pytestmark = pytest.mark.django_db


def _screen(query: str = "", client: Client | None = None) -> str:
    response = (client or Client()).get(f"/t/scr/screen/{query}")
    assert response.status_code == 200
    return response.content.decode()


def _slides(html: str) -> list[tuple[str, int]]:
    """(kind, lines) of each slide."""
    out = []
    for kind, body in re.findall(
        r'<section class="slide[^"]*" data-kind="(\w+)">(.*?)</section>', html, re.S
    ):
        out.append((kind, body.count("<tr>") - 1))  # less the head
    return out


def test_a_30_board_round_in_slides_that_never_scroll() -> None:
    create_running_swiss(slug="scr", players=60, rounds=2)
    html = _screen("?lang=en")
    slides = _slides(html)
    assert [k for k, _n in slides] == ["pairings"] * 3 + ["standings"] * 2
    assert [n for _k, n in slides] == [12, 12, 6, 12, 12]
    assert all(n <= ROWS for _k, n in slides)
    assert "Round 2 · pairings" in html and "Standings after round" in html
    assert "navbar" not in html and "<nav" not in html  # no menus
    assert 'data-zone="America/Toronto"' in html


def test_russian_english_or_both() -> None:
    t = create_running_swiss(slug="scr", players=8, rounds=1)
    Tournament.objects.filter(pk=t.pk).update(name_ru="Открытый турнир")
    assert "Доска" in _screen("?lang=ru") and "Board" not in _screen("?lang=ru")
    both = _screen("?lang=both")
    assert "Доска · Board" in both and "Открытый турнир · Demo Swiss" in both
    assert '<html lang="ru">' in both
    assert "Board" in _screen("?lang=fr")  # anything else: the visitor's language


def test_the_schedule_in_the_tournaments_time_zone() -> None:
    t = create_running_swiss(slug="scr", players=8, rounds=1)
    Tournament.objects.filter(pk=t.pk).update(time_zone="Europe/Moscow")
    starts = datetime(2027, 3, 13, 15, 0, tzinfo=ZoneInfo("UTC"))  # a Saturday
    RoundStart.objects.create(tournament=t, number=2, starts_at=starts)
    html = _screen("?lang=both")
    assert "Тур/Round 2 · Сб/Sat 13.03 18:00" in html  # 15:00 UTC is 18:00 in Moscow
    assert 'data-zone="Europe/Moscow"' in html


def test_the_screen_is_kept_whole_and_costs_no_query_when_kept(
    django_assert_max_num_queries,  # type: ignore[no-untyped-def]
) -> None:
    create_running_swiss(slug="scr", players=60, rounds=2)
    with django_assert_max_num_queries(16):
        _screen("?lang=both")
    with django_assert_max_num_queries(0):
        _screen("?lang=both")


def test_no_tournament_no_screen() -> None:
    assert Client().get("/t/none/screen/").status_code == 404
