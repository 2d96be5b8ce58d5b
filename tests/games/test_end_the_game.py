"""Issue 11 point 8: "End the game" on a sheet has no preselected termination and asks first;
a double forfeit and an adjudication can be recorded there too."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import selectors
from games.models import Game
from tests.championship.results import value
from tests.games.helpers import organiser_client
from tests.games.test_sheets import fresh_board, load, swiss  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def org() -> Client:
    return organiser_client()[0]


def sheet_of(org: Client, board: object) -> Game:
    location = org.get(f"/games/board/{board.pk}/1/")["Location"]  # type: ignore[attr-defined]
    return Game.objects.get(pk=location.split("/")[2])


def test_the_end_form_has_no_termination_chosen_and_requires_one(org, swiss):  # noqa: F811
    game = sheet_of(org, fresh_board(swiss))
    html = org.get(f"/games/{game.pk}/sheet/").content.decode()
    select = re.search(r'<select[^>]*name="termination"[^>]*>(.*?)</select>', html, re.S)
    assert select is not None and "required" in select.group(0).split(">")[0]
    options = re.findall(r"<option[^>]*>", select.group(1))
    assert options[0] == '<option value="">' and not any("selected" in o for o in options)
    # Sent without a termination: refused with a message, nothing recorded.
    r = org.post(f"/games/{game.pk}/sheet/", {"action": "terminate", "side": "white"})
    assert r.status_code == 400 and "Choose how the game ended." in r.content.decode()
    game.refresh_from_db()
    assert game.termination == ""


def test_ending_the_game_asks_first_then_records_and_says_so(org, swiss):  # noqa: F811
    board = fresh_board(swiss)
    game = sheet_of(org, board)
    load(game, ["4:5 24/20 13/8"])
    url = f"/games/{game.pk}/sheet/"
    asked = org.post(url, {"action": "terminate", "termination": "time", "side": "black"})
    html = asked.content.decode()
    assert asked.status_code == 200 and "End the game with 1-0 (time)?" in html
    assert 'name="confirm" value="1"' in html
    game.refresh_from_db()
    assert game.termination == "" and value(board) == ("", "")
    done = org.post(
        url,
        {"action": "terminate", "termination": "time", "side": "black", "confirm": "1"},
        follow=True,
    )
    assert "The game is over: 1-0 (time)." in done.content.decode()
    assert value(board) == ("1-0", "time")


def test_a_double_forfeit_and_an_adjudication_from_the_sheet(org, swiss):  # noqa: F811
    board = fresh_board(swiss)
    game = sheet_of(org, board)
    url = f"/games/{game.pk}/sheet/"
    data = {"action": "terminate", "termination": "forfeit", "side": "both", "confirm": "1"}
    assert org.post(url, data).status_code == 302
    assert value(board) == ("0-0", "forfeit")
    game.refresh_from_db()
    assert game.termination_side == "" and selectors.replay(game).result == "0-0"
    # Only a forfeit concerns both sides.
    other = fresh_board(swiss)  # the same board, reset
    game = sheet_of(org, other)
    load(game, ["4:5 24/20 13/8"])
    url = f"/games/{game.pk}/sheet/"
    refused = org.post(url, {**data, "termination": "resign"})
    assert refused.status_code == 400 and "both sides" in refused.content.decode()
    # An adjudication without a side is a drawn one; with a side, that side lost it.
    data = {"action": "terminate", "termination": "adjudication", "side": "", "confirm": "1"}
    assert org.post(url, data).status_code == 302
    assert value(other) == ("1/2-1/2", "adjudication")
    game.refresh_from_db()
    assert selectors.replay(game).result == "1/2-1/2"  # the stored ending replays
