"""A draw is written ½-½ on every page (the awards and the report on a player's games wrote
the database's key, 1/2-1/2, beside pages writing ½-½)."""

from __future__ import annotations

from types import SimpleNamespace

from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import RequestFactory

from games.templatetags.games_tags import shown_result


def test_a_result_key_is_written_as_the_pages_write_it() -> None:
    assert shown_result("1/2-1/2") == "½-½"
    assert [shown_result(r) for r in ("1-0", "0-1", "0-0", "")] == ["1-0", "0-1", "0-0", ""]


def request():  # type: ignore[no-untyped-def]
    r = RequestFactory().get("/")
    r.user = AnonymousUser()
    return r


def test_the_awards_and_the_players_report_write_a_draw_as_the_other_pages_do() -> None:
    tournament = SimpleNamespace(pk=1, slug="open", localized_name="Open")
    game = SimpleNamespace(pk=7)
    drawn = {"game": game, "white": "Anna", "black": "Boris", "round": 2, "result": "1/2-1/2"}
    awards = {
        "analysed": 3,
        "min_games": 3,
        "most_accurate": {**drawn, "accuracy": 81.5},
        "best_loser": {**drawn, "player": "Boris", "accuracy": 70.0},
        "comeback": {**drawn, "player": "Anna", "lowest": -0.8},
        "player": None,
    }
    html = render_to_string(
        "games/awards.html", {"tournament": tournament, "awards": awards}, request=request()
    )
    assert html.count("½-½") == 3 and "1/2-1/2" not in html
    report = render_to_string(
        "games/_player_report.html",
        {
            "tournament": tournament,
            "games": [
                {
                    "game": game,
                    "tournament": tournament,
                    "round": 2,
                    "side_name": "White",
                    "opponent": "Boris",
                    "result": "1/2-1/2",
                    "accuracy": 80.0,
                    "error_rate": 0.1,
                    "counts": {},
                    "turning_points": 0,
                }
            ],
        },
    )
    assert "½-½" in report and "1/2-1/2" not in report
