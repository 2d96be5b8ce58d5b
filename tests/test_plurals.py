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
