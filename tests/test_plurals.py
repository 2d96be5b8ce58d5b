"""Counts read as people write them: "1 turn played", "2 turns played" — not "turn(s)" — on
the messages and status lines every organiser and player sees (the game's status line, a
round's results saved, a sheet saved), in both languages."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import ngettext


@pytest.mark.parametrize(
    ("language", "ply", "expected"),
    [
        ("en", 1, "White to move · 1 turn played"),
        ("en", 2, "White to move · 2 turns played"),
        ("en", 0, "White to move · 0 turns played"),
        ("ru", 1, "ходят Белые · сыграно ходов: 1"),
        ("ru", 22, "ходят Белые · сыграно ходов: 22"),
    ],
)
def test_the_games_status_line_counts_turns_in_words(
    language: str, ply: int, expected: str
) -> None:
    with translation.override(language):
        white = "Белые" if language == "ru" else "White"
        html = render_to_string(
            "games/_status.html",
            {
                "outcome": None,
                "game": SimpleNamespace(adjourned=False),
                "to_move_name": white,
                "state": SimpleNamespace(ply=ply, phase=1),
            },
        )
    assert expected in html and "(s)" not in html


@pytest.mark.parametrize(
    ("singular", "plural", "n", "english", "russian"),
    [
        (
            "%(n)d result saved.",
            "%(n)d results saved.",
            1,
            "1 result saved.",
            "Сохранено результатов: 1.",
        ),
        (
            "%(n)d result saved.",
            "%(n)d results saved.",
            6,
            "6 results saved.",
            "Сохранено результатов: 6.",
        ),
        (
            "The sheet is saved: %(n)d turn.",
            "The sheet is saved: %(n)d turns.",
            21,
            "The sheet is saved: 21 turns.",
            "Бланк сохранён, ходов: 21.",
        ),
    ],
)
def test_saved_counts_in_both_languages(
    singular: str, plural: str, n: int, english: str, russian: str
) -> None:
    for language, expected in (("en", english), ("ru", russian)):
        with translation.override(language):
            assert ngettext(singular, plural, n) % {"n": n} == expected


def test_a_games_analysis_counts_mistakes_and_blunders_in_words() -> None:
    """The game page's summary said "Anna: 1 mistake(s), 2 blunder(s)"; the player page
    already wrote them in words, in both languages."""
    analysis = SimpleNamespace(
        counts={"white": (1, 2), "black": (5, 0)},
        graph="",
        legend=[],
        state="done",
        waiting=False,
    )
    context = {
        "analysis": analysis,
        "white_name": "Anna",
        "black_name": "Boris",
        "game": SimpleNamespace(pk=1),
    }
    template = "{% load i18n %}{% include 'games/_analysis.html' %}"

    with translation.override("en"):
        html = Template(template).render(Context(context))
    summary = html.split('analysis-summary">', 1)[1].split("</p>", 1)[0]
    assert summary == "Anna: 1 mistake, 2 blunders · Boris: 5 mistakes, 0 blunders", summary
    with translation.override("ru"):
        html = Template(template).render(Context(context))
    summary = html.split('analysis-summary">', 1)[1].split("</p>", 1)[0]
    assert summary == ("Anna: 1 ошибка, 2 грубые ошибки · Boris: 5 ошибок, 0 грубых ошибок"), (
        summary
    )


@pytest.mark.django_db
def test_a_stale_turn_is_told_the_sheets_turns_in_words() -> None:
    """A turn sent for an old position (a second tablet, a second organiser) is told how many
    turns the sheet has now: "1 turn", "4 turns", never "turn(s)"."""
    from games import services
    from tests.games.hall_helpers import games_of, published_round

    game = games_of(published_round())[0]
    services.turn_add(game=game, text="4:5 24/20 13/8", user=None)
    with pytest.raises(services.GameError) as refused:
        services.turn_add(game=game, text="4:5 24/20 13/8", user=None, expected_ply=0)
    assert "it now has 1 turn." in str(refused.value), refused.value
    with pytest.raises(services.GameError) as refused:
        services.turn_undo(game=game, user=None, expected_ply=3)
    assert str(refused.value) == "The sheet changed meanwhile: it now has 1 turn."


@pytest.mark.django_db
def test_the_boards_label_counts_turns_in_words(client) -> None:  # type: ignore[no-untyped-def]
    """The board's label for screen readers said "Position after 1 turn(s)"."""
    from games import services
    from tests.games.hall_helpers import games_of, published_round

    game = games_of(published_round())[0]
    services.turn_add(game=game, text="4:5 24/20 13/8", user=None)
    html = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Position after 1 turn" in html and "turn(s)" not in html


@pytest.mark.parametrize(
    ("language", "late", "expected"),
    [
        ("en", {"half": [1]}, "A half-point bye for round 1."),
        ("en", {"half": [1, 2]}, "Half-point byes for rounds 1, 2."),
        ("en", {"zero": [2]}, "Zero points for round 2 (absent)."),
        (
            "en",
            {"half": [1], "zero": [2, 3], "missed_rounds": "H", "cap": 1},
            "Zero points for rounds 2, 3: the tournament allows 1 half-point bye a player.",
        ),
        ("ru", {"half": [1]}, "Пол-очка без игры за тур 1."),
        ("ru", {"zero": [1, 2]}, "Ноль очков за туры 1, 2 (отсутствие)."),
        (
            "ru",
            {"zero": [3], "missed_rounds": "H", "cap": 2},
            "Ноль очков за тур 3: турнир допускает не больше 2 пропусков с пол-очком на игрока.",
        ),
    ],
)
def test_a_late_entrys_rounds_are_counted_in_words(
    language: str, late: dict, expected: str
) -> None:
    """The organiser read "Half-point byes for round(s) 1." after a late entry."""
    from championship.services.entrants import LateEntry

    with translation.override(language):
        text = LateEntry(joined_round=4, **late).message("Hugo")
    assert expected in text and "(s)" not in text and "(ы)" not in text, text


@pytest.mark.parametrize(
    ("language", "code", "params", "expected"),
    [
        ("en", "bar_first", {"step": 1, "count": 1}, "has 1 checker on the bar and must enter it"),
        (
            "en",
            "bar_first",
            {"step": 1, "count": 3},
            "has 3 checkers on the bar and must enter them",
        ),
        ("ru", "bar_first", {"step": 1, "count": 1}, "на баре 1 шашка, сначала нужно ввести её"),
        ("ru", "bar_first", {"step": 1, "count": 2}, "на баре 2 шашки"),
        ("ru", "bar_first", {"step": 1, "count": 5}, "на баре 5 шашек"),
        ("en", "forfeit_played", {"plies": 1}, "but it has 1 turn"),
        ("en", "forfeit_played", {"plies": 12}, "but it has 12 turns"),
        ("ru", "forfeit_played", {"plies": 21}, "а в ней 21 ход"),
        ("ru", "forfeit_played", {"plies": 3}, "а в ней 3 хода"),
    ],
)
def test_the_engines_refusals_count_in_words(
    language: str, code: str, params: dict, expected: str
) -> None:
    from games.engine.errors import EngineError
    from games.messages import detail

    with translation.override(language):
        text = detail(EngineError(code, side="white", **params))
    assert expected in text and "(s)" not in text, text


@pytest.mark.parametrize(
    ("language", "ago", "expected"),
    [
        ("en", 1, "Anna floated down 1 round before as well"),
        ("en", 2, "Anna floated down 2 rounds before as well"),
        ("ru", 1, "уже был 1 тур назад"),
        ("ru", 3, "уже был 3 тура назад"),
        ("ru", 5, "уже был 5 туров назад"),
    ],
)
def test_a_repeated_float_counts_the_rounds_in_words(
    language: str, ago: int, expected: str
) -> None:
    """The pairing's "why" said "floated down 2 round(s) before"; a note read back from the
    database may hold the count as text."""
    from championship.pairing_text import note

    for stored in (ago, str(ago)):
        with translation.override(language):
            text = note(
                {
                    "code": "float.repeated",
                    "params": {"player": 1, "direction": "down", "rounds_ago": stored},
                },
                {1: "Anna"},
            )
        assert expected in text and "(s)" not in text and "(а)" not in text, text


@pytest.mark.parametrize(
    ("language", "n", "expected"),
    [
        ("en", 1, "Anonymised 1 record."),
        ("en", 4, "Anonymised 4 records."),
        ("ru", 1, "Обезличена 1 запись."),
        ("ru", 3, "Обезличены 3 записи."),
        ("ru", 7, "Обезличено 7 записей."),
    ],
)
def test_the_anonymisation_counts_records_in_words(language: str, n: int, expected: str) -> None:
    """The anonymisation said "Anonymised 3 record(s)"."""
    with translation.override(language):
        text = ngettext("Anonymised %(count)d record.", "Anonymised %(count)d records.", n)
    assert text % {"count": n} == expected


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "cap", "expected"),
    [
        ("en", 1, "Eve has 1 half-point bye already"),
        ("en", 2, "Eve has 2 half-point byes already"),
        ("ru", 1, "У игрока Eve уже 1 пропуск с пол-очком"),
        ("ru", 2, "У игрока Eve уже 2 пропуска с пол-очком"),
    ],
)
def test_the_half_point_bye_cap_counts_in_words(
    tournament, language: str, cap: int, expected: str
) -> None:  # type: ignore[no-untyped-def]
    """A bye past the tournament's cap was refused with "Eve has 1 half-point bye(s)"."""
    from championship.services import ChampionshipError
    from championship.services.entrants import bye_request

    tournament.max_half_point_byes = cap
    tournament.save()
    eve = tournament.entrants.create(name="Eve", rating=1500)
    for number in range(1, cap + 1):
        bye_request(entrant=eve, round_number=number, kind="H")
    with translation.override(language), pytest.raises(ChampionshipError) as refused:
        bye_request(entrant=eve, round_number=cap + 1, kind="H")
    assert expected in str(refused.value) and "(s)" not in str(refused.value), refused.value
