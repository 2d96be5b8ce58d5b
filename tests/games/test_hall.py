"""A round in the hall: the arbiter's live view, the tablets' QR sheet and the paper sheets."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from championship.models import Board, Entrant, GameResult
from championship.services import ResultEntry, game_result_set
from games import services, tablet
from games.models import Game

from .hall_helpers import games_of, published_round, tablet_url
from .helpers import organiser_client

pytestmark = pytest.mark.django_db

OPENING = "4:5 24/20 13/8"


def _hall(client: Client, rnd, suffix: str = "hall/", **headers: str):  # type: ignore[no-untyped-def]
    return client.get(f"/t/{rnd.tournament.slug}/round/{rnd.number}/{suffix}", headers=headers)


def test_the_hall_is_for_organisers_only() -> None:
    rnd = published_round()
    for suffix in ("hall/", "hall.json", "tablets/", "sheets/"):
        assert _hall(Client(), rnd, suffix).status_code == 302  # to the login page
    client, _user = organiser_client()
    for suffix in ("hall/", "hall.json", "tablets/", "sheets/"):
        assert _hall(client, rnd, suffix).status_code == 200


def test_the_hall_shows_every_board_live_with_the_arbiters_boards_first() -> None:
    rnd = published_round(players=6)
    first, second, third = games_of(rnd)
    services.clock_start(game=first, user=None)
    services.turn_add(game=first, text=OPENING, user=None, from_clock=True, tablet=True)
    services.game_terminate(game=third, termination="resign", side="white", user=None)
    services.game_dispute(game=third, side="white")
    client, _user = organiser_client()
    data = _hall(client, rnd, "hall.json").json()["games"]
    by_board = {g["board"]: g for g in data}
    assert data[0]["board"] == third.board.number  # disputed: the arbiter's first
    assert data[0]["disputed"] and data[0]["attention"]
    assert any("does not agree" in p for p in data[0]["problems"])
    playing = by_board[first.board.number]
    assert playing["ply"] == 1 and playing["to_move"] == "black"
    assert playing["running"] == "black" and 0 < playing["black_ms"] <= 30 * 60 * 1000
    assert playing["white"] == str(first.board.white) and playing["state"] == "playing"
    assert by_board[second.board.number]["state"] == "waiting"
    page = _hall(client, rnd).content.decode()
    assert "Board 1" in page and str(first.board.white) in page
    # The arbiter settles the disagreement from the hall.
    response = client.post(f"/t/{rnd.tournament.slug}/round/1/hall/", {"game": third.pk})
    assert response.status_code == 302
    assert Game.objects.get(pk=third.pk).disputed == ""


def test_a_result_against_the_sheet_and_an_unconfirmed_result_are_problems() -> None:
    rnd = published_round()
    rnd.tournament.two_person_confirmation = True
    rnd.tournament.save()
    first, second = games_of(rnd)
    game_result_set(
        entries=[ResultEntry(board=second.board, number=1, result="1-0", termination="forfeit")],
        user=None,
    )
    GameResult.objects.filter(board=first.board).update(
        result="1-0",
        termination="resign",
        source="organiser",
        sheet_result="0-1",
        sheet_termination="resign",
        has_sheet=True,
    )
    client, _user = organiser_client()
    data = {g["board"]: g for g in _hall(client, rnd, "hall.json").json()["games"]}
    assert any("differs from the sheet" in p for p in data[first.board.number]["problems"])
    assert any("confirmation" in p for p in data[second.board.number]["problems"])


def test_polling_an_unchanged_round_answers_304_and_a_turn_changes_it() -> None:
    rnd = published_round()
    game = games_of(rnd)[0]
    client, _user = organiser_client()
    first = _hall(client, rnd, "hall.json")
    tag = first["ETag"]
    assert _hall(client, rnd, "hall.json", If_None_Match=tag).status_code == 304
    services.clock_start(game=game, user=None)
    changed = _hall(client, rnd, "hall.json", If_None_Match=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag


def test_the_hall_takes_the_same_queries_for_4_or_40_boards(
    django_assert_max_num_queries,  # type: ignore[no-untyped-def]
) -> None:
    rnd = published_round(players=80)
    games = games_of(rnd)
    for game in games[:30]:
        services.clock_start(game=game, user=None)
        services.turn_add(game=game, text=OPENING, user=None, from_clock=True)
    client, _user = organiser_client()
    # Cold (every game replayed, turns in one query) and warm (the summaries cached).
    for _ in range(2):
        with django_assert_max_num_queries(12):
            assert len(_hall(client, rnd, "hall.json").json()["games"]) == 40
        with django_assert_max_num_queries(12):
            assert _hall(client, rnd).status_code == 200


def test_the_tablets_sheet_has_a_link_and_qr_code_per_game(settings) -> None:  # type: ignore[no-untyped-def]
    settings.SITE_URL = "https://nardy.example.org"
    rnd = published_round(players=4, games_per_pairing=2)
    client, _user = organiser_client()
    page = _hall(client, rnd, "tablets/").content.decode()
    assert "4 games have no link yet" in page
    assert Game.objects.count() == 0  # looking makes nothing
    response = client.post(f"/t/{rnd.tournament.slug}/round/1/tablets/", {"action": "make"})
    assert response.status_code == 302
    assert Game.objects.filter(board__round=rnd).count() == 4
    page = _hall(client, rnd, "tablets/").content.decode()
    assert page.count('<svg class="qr"') == 4
    links = re.findall(r'href="(https://nardy.example.org/tablet/[^"]+)"', page)
    assert len(links) == 4
    for game in Game.objects.all():
        assert f"https://nardy.example.org{tablet_url(game)}" in links
    assert "game 2" in page


def test_a_board_forfeited_before_the_round_gets_no_tablet_and_no_paper_sheet() -> None:
    """A result recorded already (a no-show forfeit in the hall) needs no link, no card and
    no move sheet: they would only print a game that says it is over."""
    from championship.services import board_no_show_forfeit

    rnd = published_round(players=6)
    forfeited = rnd.boards.exclude(black=None).order_by("number").first()
    assert forfeited is not None
    board_no_show_forfeit(board=forfeited, absent="black", user=None)
    client, _user = organiser_client()
    assert "2 games have no link yet" in _hall(client, rnd, "tablets/").content.decode()
    client.post(f"/t/{rnd.tournament.slug}/round/1/tablets/", {"action": "make"})
    assert not Game.objects.filter(board=forfeited).exists()
    assert Game.objects.filter(board__round=rnd).count() == 2
    assert _hall(client, rnd, "tablets/").content.decode().count('<svg class="qr"') == 2
    sheets = _hall(client, rnd, "sheets/").content.decode()
    assert sheets.count('<section class="paper-sheet"') == 2


def test_a_forged_host_header_never_reaches_a_printed_qr_code(settings) -> None:  # type: ignore[no-untyped-def]
    """The links and their QR codes are built from SITE_URL (common.links), whatever Host
    the request names (a proxy may pass any name ALLOWED_HOSTS lets through)."""
    settings.SITE_URL = "https://nardy.example.org"
    settings.ALLOWED_HOSTS = ["*"]
    rnd = published_round()
    games = games_of(rnd)
    client, _user = organiser_client()
    for host in ("evil.example.org", "nardy.example.org.evil.example.org", "127.0.0.1:8000"):
        page = _hall(client, rnd, "tablets/", host=host).content.decode()
        assert host not in page.replace("https://nardy.example.org", "")
        for game in games:
            url = f"https://nardy.example.org{tablet_url(game)}"
            assert f'href="{url}"' in page
            assert tablet.qr_svg(url) in page  # the QR code encodes that link, not the Host


def test_paper_sheets_one_per_game_with_72_rows() -> None:
    rnd = published_round(players=5)  # two pairings and a bye
    client, _user = organiser_client()
    page = _hall(client, rnd, "sheets/").content.decode()
    sheets = page.split('<section class="paper-sheet"')[1:]
    assert len(sheets) == Board.objects.filter(round=rnd).exclude(black=None).count() == 2
    board = Board.objects.filter(round=rnd).exclude(black=None).order_by("number").first()
    assert board is not None
    first = sheets[0]
    assert first.count("<tr><td>") == 72
    assert str(board.white) in first and str(board.black) in first
    assert "White&#x27;s signature" in first or "White's signature" in first
    assert "Round 1" in first and "Board 1" in first and "30 min + 15 min" in first
    assert Entrant.objects.count() == 5
