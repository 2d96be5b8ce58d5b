"""The venue screen (issue 22, point 5): the current round's pairings and the standings in
slides of at most 12 lines, the schedule in the tournament's time zone, a clock; Russian,
English or both; public, kept whole per version. Its headings say what the tables are (a round
in progress, after a round, final) and the schedule marks the round under way from the
results; dates with the month in words."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.cache import cache
from django.test import Client

from championship import services
from championship.models import GameResult, Round, RoundStart, Tournament
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
    assert "Round 2 · pairings" in html and "Standings — round 2 in progress" in html
    assert "navbar" not in html and "<nav" not in html  # no menus
    assert 'data-zone="America/Toronto"' in html


def test_russian_english_or_both() -> None:
    t = create_running_swiss(slug="scr", players=8, rounds=1)
    Tournament.objects.filter(pk=t.pk).update(name_ru="Открытый турнир")
    assert "Доска" in _screen("?lang=ru") and "Board" not in _screen("?lang=ru")
    both = _screen("?lang=both")
    # Each language on a line of its own: nothing wraps in the middle of a heading.
    assert '<span class="line">Доска</span><span class="line">Board</span>' in both
    assert '<span class="line">Открытый турнир</span><span class="line">Demo Swiss' in both
    assert "<title>Открытый турнир · Demo Swiss" in both
    assert '<html lang="ru">' in both
    assert "Board" in _screen("?lang=fr")  # anything else: the visitor's language


def test_the_schedule_in_the_tournaments_time_zone() -> None:
    t = create_running_swiss(slug="scr", players=8, rounds=1)
    Tournament.objects.filter(pk=t.pk).update(time_zone="Europe/Moscow")
    starts = datetime(2027, 3, 13, 15, 0, tzinfo=ZoneInfo("UTC"))  # a Saturday
    RoundStart.objects.create(tournament=t, number=2, starts_at=starts)
    html = _screen("?lang=both")
    # 15:00 UTC is 18:00 in Moscow; the month in words, never "13.03" (read as March 13).
    assert (
        'data-date="2027-03-13"><span class="line">Тур/Round 2</span><span class="line">'
        '<span class="sched-day">Сб 13 марта · Sat 13 Mar</span> 18:00'
    ) in html
    assert "13.03" not in html
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


def _sched(html: str) -> list[tuple[str, list[str]]]:
    """(state, words) of each round of the schedule."""
    return [
        (state.strip(), re.sub(r"<[^>]+>", " ", body).split())
        for state, body in re.findall(
            r'<span class="sched([^"]*)" data-at="\d+" data-date="[-0-9]+">(.*?)</span></span>',
            html,
        )
    ]


def _schedule_for(t: Tournament) -> None:
    start = datetime(2027, 3, 13, 15, 0, tzinfo=ZoneInfo("UTC"))
    for n in range(1, 6):
        RoundStart.objects.create(tournament=t, number=n, starts_at=start.replace(hour=9 + 2 * n))


def test_a_round_under_way_is_said_so_in_the_heading_and_the_schedule() -> None:
    t = create_running_swiss(slug="scr", players=8, rounds=2)  # round 2: half its results in
    _schedule_for(t)
    html = _screen("?lang=en")
    assert "Standings — round 2 in progress" in html and "Standings after round 2" not in html
    states = [state for state, _words in _sched(html)]
    assert states == ["done", "playing", "", "", ""]  # round 3 is not next while 2 is played
    assert "Under way" in html
    ru = _screen("?lang=ru")
    assert "Таблица — идёт 2-й тур" in ru and "Идёт" in ru


def test_a_round_with_every_result_in_makes_the_next_one_next() -> None:
    t = create_running_swiss(slug="scr", players=8, rounds=2)
    _schedule_for(t)
    # The unfinished games' sheets stopped mid-game: their results as an arbiter adjudicates.
    GameResult.objects.filter(board__round__tournament=t, result="").update(
        result="1-0", termination="adjudication"
    )
    Tournament.objects.filter(pk=t.pk).update(version=t.version + 1)
    html = _screen("?lang=en")
    assert "Standings after round 2" in html and "in progress" not in html
    assert [state for state, _words in _sched(html)] == ["done", "done", "next", "", ""]


def test_a_round_without_a_result_yet_is_in_progress_not_played() -> None:
    t = create_running_swiss(slug="scr", players=8, rounds=2, unfinished_last=False)
    GameResult.objects.filter(board__round__tournament=t, board__round__number=2).update(
        result="", termination=""
    )
    Tournament.objects.filter(pk=t.pk).update(version=t.version + 1)
    html = _screen("?lang=en")
    assert "Standings — round 2 in progress" in html and "after round 2" not in html
    assert "Round 2 · pairings" in html


def test_a_finished_tournament_shows_its_final_standings_and_no_next_round() -> None:
    t = create_running_swiss(slug="scr", players=8, rounds=2, unfinished_last=False)
    _schedule_for(t)  # rounds 3 to 5 still in the schedule, never played
    services.tournament_finish(tournament=t)
    for lang, final, over in (
        ("en", "Final standings", "The tournament is finished."),
        ("ru", "Итоговая таблица", "Турнир завершён."),
    ):
        html = _screen(f"?lang={lang}")
        assert [k for k, _n in _slides(html)] == ["standings"]  # no pairings: it is over
        assert final in html and over in html
        assert "after round" not in html and 'class="sched' not in html  # nothing is next
    both = _screen("?lang=both")
    assert "Итоговая таблица · Final standings" in both


def test_dates_with_the_month_in_words_in_each_language() -> None:
    from django.utils import translation

    from common.dates import short_date

    day = datetime(2026, 12, 3).date()
    with translation.override("en"):
        assert short_date(day) == "Thu 3 Dec"
    with translation.override("ru"):
        assert short_date(day) == "чт 3 декабря"
        assert short_date(datetime(2026, 5, 3).date()) == "вс 3 мая"  # the genitive


def test_the_rounds_states_come_from_the_results_not_the_clock() -> None:
    """A round published ahead of its time is under way; a later one past its time is not."""
    t = create_running_swiss(slug="scr", players=8, rounds=2)  # round 2 under way
    for n, year in ((2, 2099), (3, 2000)):
        RoundStart.objects.create(
            tournament=t, number=n, starts_at=datetime(year, 1, 1, tzinfo=ZoneInfo("UTC"))
        )
    assert Round.objects.filter(tournament=t).count() == 2
    html = _screen("?lang=en")
    assert [state for state, _words in _sched(html)] == ["playing", ""]


def test_the_public_standings_say_a_round_is_in_progress_as_the_screen_does() -> None:
    """The standings page's live table counts a round under way: its heading says so."""
    t = create_running_swiss(slug="scr", players=8, rounds=2)  # round 2: half its results in
    page = Client().get("/t/scr/standings/?lang=en").content.decode()
    assert "Standings — round 2 in progress" in page
    ru = Client(HTTP_ACCEPT_LANGUAGE="ru").get("/t/scr/standings/").content.decode()
    assert "Таблица — идёт 2-й тур" in ru
    chosen = Client().get("/t/scr/standings/?round=1&lang=en").content.decode()
    assert "Standings after round 1" in chosen and "in progress" not in chosen
    GameResult.objects.filter(board__round__tournament=t, result="").update(
        result="1-0", termination="adjudication"
    )
    Tournament.objects.filter(pk=t.pk).update(version=t.version + 1)
    cache.clear()  # the tournament's key is kept a second (tables.tournament_key)
    done = Client().get("/t/scr/standings/?lang=en").content.decode()
    assert "in progress" not in done
