"""Every write that changes what a public page shows makes that page new on the next request
(services.changes records it; nobody remembers a version by hand). Each case below caches the
pages a spectator sees, makes one change the way organisers make it — their pages, the
services, the admin — and reads the affected page again at once."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.forms import CheckboxInput
from django.forms.models import model_to_dict
from django.test import Client

from championship import services
from championship.models import Board, Entrant, GameResult, RequestedBye, Round, Tournament
from games.demo import create_running_swiss
from games.engine import legal_plays, playable_cards
from games.models import Game
from games.selectors import replay
from tests.games.helpers import organiser_client

pytestmark = pytest.mark.django_db

SLUG = "live"


@pytest.fixture
def world() -> dict[str, Any]:
    t = create_running_swiss(slug=SLUG, players=8, rounds=2, unfinished_last=True)
    org, _user = organiser_client()
    root = Client()
    root.force_login(User.objects.create_superuser("root", "root@example.org", "pw-root-12345"))
    return {"t": t, "org": org, "root": root}


def _open_game(t: Tournament) -> GameResult:
    return (
        GameResult.objects.filter(board__round__tournament=t, board__round__number=2, result="")
        .select_related("board__white", "board__black")
        .first()
    )


def result_on_the_round_page(w: dict[str, Any]) -> tuple[str, re.Pattern[str]]:
    game = _open_game(w["t"])
    w["org"].post(
        f"/t/{SLUG}/manage/round/2/",
        {
            "action": "results",
            f"result-{game.pk}": "1-0",
            f"termination-{game.pk}": "resign",
            f"version-{game.pk}": game.version,
        },
    )
    row = rf"<tr>\s*<td[^>]*>{game.board.number}</td>(?:(?!</tr>).)*?>1–0<(?:(?!</tr>).)*</tr>"
    return f"/t/{SLUG}/pairings/2/", re.compile(row, re.S)


def turn_on_a_sheet(w: dict[str, Any]) -> tuple[str, str]:
    game = Game.objects.get(board=_open_game(w["t"]).board)
    state = replay(game).state
    text = legal_plays(state, playable_cards(state)[0])[0].text
    w["org"].post(
        f"/games/{game.pk}/sheet/", {"action": "turn", "text": text, "ply": str(state.ply)}
    )
    return f"/games/{game.pk}/", text


def analysis_on_the_player_page(w: dict[str, Any]) -> tuple[str, re.Pattern[str]]:
    """A sheet that finishes a game is analysed by a worker after the sheet's transaction:
    the player's page kept in the cache meanwhile shows the counts of mistakes and blunders
    as soon as the analysis is stored."""
    import random
    from unittest import mock

    from games import analysis, tasks
    from games.demo import play_game
    from games.services import sheet_replace
    from tests.games.helpers import record

    result = _open_game(w["t"])
    game = Game.objects.get(board=result.board, number=1)
    url = f"/t/{SLUG}/players/{result.board.white_id}/"
    eg = play_game(random.Random(3), strong="white")
    queued: list[tuple[int, str]] = []
    with mock.patch.object(tasks.analyse_game_task, "delay", lambda *a: queued.append(a)):
        sheet_replace(
            game=game,
            text=record([t.text for t in eg.turns], eg.result, eg.termination),
            user=None,
            overrule=True,
        )
    assert 'data-game="1"' not in Client().get(url).content.decode()  # kept, no counts yet
    assert analysis.run(*queued[0]) == "done"  # the worker
    return url, re.compile(r'data-game="1">\d+ mistakes?, \d+ blunders?<')


def late_entry_with_half_point_byes(w: dict[str, Any]) -> tuple[str, str]:
    w["org"].post(
        f"/t/{SLUG}/manage/",
        {"action": "add", "name": "Late Comer", "rating": "1500", "missed_rounds": "H"},
    )
    return f"/t/{SLUG}/pairings/1/", "Late Comer"  # the half-point bye of round 1


def late_entry_on_the_standings(w: dict[str, Any]) -> tuple[str, str]:
    services.entrant_add(tournament=w["t"], name="Walk In", missed_rounds="H", checked_in=True)
    return f"/t/{SLUG}/standings/", "Walk In"


def requested_bye_in_the_next_round(w: dict[str, Any]) -> tuple[str, str]:
    t = w["t"]
    for game in GameResult.objects.filter(board__round__tournament=t, result=""):
        GameResult.objects.filter(pk=game.pk).update(result="1/2-1/2", termination="agreement")
    services.tournament_changed(t.pk)
    entrant = t.entrants.order_by("starting_number").first()
    RequestedBye.objects.create(entrant=entrant, round_number=3, kind="H")
    rnd = services.round_pair_next(tournament=t)
    services.round_publish(round=rnd)
    return f"/t/{SLUG}/pairings/3/", "half-point bye (requested)"


def withdrawal(w: dict[str, Any]) -> tuple[str, str]:
    entrant = w["t"].entrants.order_by("starting_number").first()
    url = f"/t/{SLUG}/manage/entrants/{entrant.pk}/withdraw/"
    w["org"].post(url, {"after": "2"})  # not confirmed: nothing happens
    assert w["t"].entrants.get(pk=entrant.pk).withdrawn_after is None
    w["org"].post(url, {"after": "2", "confirm": "yes"})
    return f"/t/{SLUG}/players/", "withdrawn"


def entrant_edited_on_the_organiser_page(w: dict[str, Any]) -> tuple[str, str]:
    entrant = w["t"].entrants.order_by("starting_number").first()
    w["org"].post(
        f"/t/{SLUG}/manage/entrants/{entrant.pk}/",
        {"name": "Corrected At The Desk", "club": "", "rating": "1700"},
    )
    return f"/t/{SLUG}/crosstable/", "Corrected At The Desk"


def settings_saved_on_the_organiser_page(w: dict[str, Any]) -> tuple[str, str]:
    from championship.forms import TournamentForm

    t = Tournament.objects.get(pk=w["t"].pk)
    form = TournamentForm(instance=t)
    data = {
        name: "" if (v := form[name].value()) is None else v
        for name in form.fields
        if not isinstance(form.fields[name].widget, CheckboxInput) or form[name].value()
    }
    data["name"] = "Toronto Open Set On Its Page"
    response = w["org"].post(f"/t/{SLUG}/manage/settings/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return f"/t/{SLUG}/standings/", "Toronto Open Set On Its Page"


def tournament_finished(w: dict[str, Any]) -> tuple[str, str]:
    t = w["t"]
    GameResult.objects.filter(board__round__tournament=t, result="").update(
        result="0-1", termination="resign"
    )
    t.round_set.filter(status="draft").delete()
    w["org"].post(f"/t/{SLUG}/manage/finish/", {"action": "finish", "confirm": "yes"})
    assert Tournament.objects.get(pk=t.pk).status == "finished"
    return f"/t/{SLUG}/standings/", 'id="final-mark"'


def entrant_edited_in_the_admin(w: dict[str, Any]) -> tuple[str, str]:
    entrant = w["t"].entrants.order_by("starting_number").first()
    data = {k: "" if v is None else v for k, v in model_to_dict(entrant).items()}
    data["name"] = "Renamed At The Desk"
    w["root"].post(f"/admin/championship/entrant/{entrant.pk}/change/", data)
    return f"/t/{SLUG}/crosstable/", "Renamed At The Desk"


def round_published(w: dict[str, Any]) -> tuple[str, str]:
    t = w["t"]
    GameResult.objects.filter(board__round__tournament=t, result="").update(
        result="0-1", termination="resign"
    )
    rnd = services.round_pair_next(tournament=t)
    w["org"].post(f"/t/{SLUG}/manage/round/{rnd.number}/", {"action": "publish"})
    return f"/t/{SLUG}/", f"/t/{SLUG}/pairings/{rnd.number}/"


def settings_changed_in_the_admin(w: dict[str, Any]) -> tuple[str, str]:
    t = w["t"]
    data = {k: "" if v is None else v for k, v in model_to_dict(t).items()}
    data["name"] = "Toronto Open Renamed"
    response = w["root"].post(f"/admin/championship/tournament/{t.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return f"/t/{SLUG}/standings/", "Toronto Open Renamed"


def board_edited_in_the_admin(w: dict[str, Any]) -> tuple[str, str]:
    """A pairing corrected in the admin (the wrong player on a board)."""
    board = Board.objects.filter(round__tournament=w["t"], round__number=1).exclude(black=None)[0]
    other = Entrant.objects.create(tournament=w["t"], name="Substitute Player", starting_number=99)
    rnd = Round.objects.get(pk=board.round_id)
    data = {"tournament": rnd.tournament_id, "number": rnd.number, "status": rnd.status}
    data["published_at_0"] = rnd.published_at.date().isoformat() if rnd.published_at else ""
    data["published_at_1"] = (
        rnd.published_at.time().strftime("%H:%M:%S") if rnd.published_at else ""
    )
    boards = list(rnd.boards.order_by("number"))
    data.update(
        {
            "boards-TOTAL_FORMS": str(len(boards)),
            "boards-INITIAL_FORMS": str(len(boards)),
            "boards-MIN_NUM_FORMS": "0",
            "boards-MAX_NUM_FORMS": "1000",
        }
    )
    for i, b in enumerate(boards):
        data.update(
            {
                f"boards-{i}-id": b.pk,
                f"boards-{i}-round": rnd.pk,
                f"boards-{i}-number": b.number,
                f"boards-{i}-white": other.pk if b.pk == board.pk else b.white_id,
                f"boards-{i}-black": b.black_id or "",
                f"boards-{i}-bye": b.bye,
            }
        )
    response = w["root"].post(f"/admin/championship/round/{rnd.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return f"/t/{SLUG}/pairings/1/", "Substitute Player"


def provisional_result_marked(w: dict[str, Any]) -> tuple[str, re.Pattern[str]]:
    """With two-person confirmation a new result shows marked provisional."""
    t = w["t"]
    Tournament.objects.filter(pk=t.pk).update(two_person_confirmation=True)
    services.tournament_changed(t.pk)
    game = _open_game(t)
    first = User.objects.create_user("first", password="pw-first-12345")
    board = Board.objects.select_related("round__tournament").get(pk=game.board_id)
    services.game_result_set(
        entries=[services.ResultEntry(board, 1, "1-0", "resign", None)], user=first
    )
    return f"/t/{SLUG}/crosstable/", re.compile(r'<span class="prov"')


CASES: list[Callable[[dict[str, Any]], tuple[str, Any]]] = [
    provisional_result_marked,
    result_on_the_round_page,
    turn_on_a_sheet,
    analysis_on_the_player_page,
    late_entry_with_half_point_byes,
    late_entry_on_the_standings,
    requested_bye_in_the_next_round,
    withdrawal,
    entrant_edited_on_the_organiser_page,
    settings_saved_on_the_organiser_page,
    tournament_finished,
    entrant_edited_in_the_admin,
    round_published,
    settings_changed_in_the_admin,
    board_edited_in_the_admin,
]
PAGES = ["/", "players/", "pairings/1/", "pairings/2/", "standings/", "crosstable/"]


@pytest.mark.parametrize("change", CASES, ids=[c.__name__ for c in CASES])
def test_each_change_shows_on_the_next_request(world: dict[str, Any], change: Any) -> None:
    spectator = Client()
    for page in PAGES:  # the pages every spectator has in the cache
        assert spectator.get(f"/t/{SLUG}/{page.lstrip('/')}").status_code == 200
    for game in Game.objects.filter(board__round__tournament=world["t"]):
        spectator.get(f"/games/{game.pk}/")
    url, expected = change(world)
    response = spectator.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    if isinstance(expected, re.Pattern):
        assert expected.search(html), (url, expected.pattern)
    else:
        assert expected in html, (url, expected)
