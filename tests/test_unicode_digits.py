"""Issue 21, fault 3: numbers written with other digits than ASCII (``²``, ``³``, ``٣``), or
with a sign, a point or a space, get a clear refusal everywhere, never a server error.

Each place the testers reported, reproduced from outside: the tablet's and the clock's
actions and the move sheet (``ply``, a card ``²:5``, ``clock=0:²²:00``), the standings
(``?round=²``, also as CSV), a TRF import (``XXP ² 3``, ``XXA ²``), a pasted record, a
backup; then properties: arbitrary text in each such parameter is never a 500."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from championship.models import Tournament
from championship.pairing import PairingError, read_trf
from championship.pairing.simulate import play_swiss
from championship.pairing.trf import write_trf
from games import services, tablet
from games.clock import valid_clock_text
from games.engine import EngineError, parse_card, start_state
from games.engine.notation import parse_turn, resolve_turn
from games.engine.record import parse_record
from games.models import Game
from tests.games.hall_helpers import games_of, published_round
from tests.games.helpers import organiser_client
from tests.hypothesis_profiles import examples

OPENING = "4:5 24/20 13/8"
#: Digits ``int()`` refuses (``²``, ``³``: ``isdigit()`` is true), digits it reads (``٣``,
#: fullwidth ``１``), and what ``int()`` takes but a ply is not.
ODD_NUMBERS = ["²", "³", "²²", "٣", "１", "-1", "1.0", " 0", "0 ", "+0", "99999", "9" * 5000]
#: Text made mostly of digits of every kind, and anything at all.
DIGITISH = st.text(
    alphabet=st.one_of(
        st.characters(categories=["Nd", "No", "Nl"]),
        st.sampled_from("0123456789:/ .-+"),
    ),
    max_size=12,
)
ANY_TEXT = st.one_of(DIGITISH, st.text(max_size=30), st.sampled_from(ODD_NUMBERS))


# --- The pure readers -----------------------------------------------------------------------
@pytest.mark.parametrize("text", ["²:5", "4:²", "٣:5", "４:5", "4:5:", "-4:5", "45"])
def test_a_card_of_other_digits_is_a_bad_card(text: str) -> None:
    with pytest.raises(EngineError) as caught:
        parse_card(text)
    assert caught.value.code == "bad_card"


@pytest.mark.parametrize("text", ["4:5 2٤/20 13/8", "4:5 ²4/20 13/8", "4:5 24/²0 13/8"])
def test_a_point_of_other_digits_is_a_bad_step(text: str) -> None:
    with pytest.raises(EngineError):
        resolve_turn(start_state(), parse_turn(text))


@pytest.mark.parametrize(
    "text",
    [
        "1. ²:5 24/20 13/8",
        "٣. 4:5 24/20 13/8",
        "1. 4:5 ²4/20 13/8",
        "9" * 5000 + ". 4:5 24/20 13/8",
    ],
)
def test_a_record_with_other_digits_is_refused(text: str) -> None:
    with pytest.raises(EngineError):
        parse_record('[Result "*"]\n\n' + text + " *\n")


@pytest.mark.parametrize("clock", ["0:²²:00", "0:٢٢:00", "٠:22:00", "123:00:00"])
def test_a_clock_comment_of_other_digits_is_no_clock(clock: str) -> None:
    record = parse_record(f'[Result "*"]\n\n1. 4:5 24/20 13/8 {{clk {clock}}} *\n')
    assert record.game.turns[0].clock is None
    record = parse_record('[Result "*"]\n\n1. 4:5 24/20 13/8 {clk 0:29:31} *\n')
    assert record.game.turns[0].clock == "0:29:31"


@pytest.mark.parametrize("text", ["0:²²:00", "0:٢٢:00", "²:00:00", "0:29:31 ", "-0:29:31"])
def test_a_clock_of_other_digits_is_not_a_clock(text: str) -> None:
    assert not valid_clock_text(text)
    assert valid_clock_text("0:29:31") and valid_clock_text("12:00:00")


TRF = write_trf(play_swiss(6, 3, seed=1, upto=2)[0])


@pytest.mark.parametrize(
    "line",
    ["XXP ² 3", "XXP 1 ³", "XXP ٣ 1", "XXA ² 1.0", "XXA ٣ 1.0", "XXZ ²", "XXP " + "9" * 5000],
)
def test_a_trf_line_with_other_digits_is_a_pairing_error(line: str) -> None:
    with pytest.raises(PairingError):
        read_trf(TRF + line + "\n")


@pytest.mark.django_db
def test_import_trf_with_other_digits_says_which_line(tmp_path: Path) -> None:
    for line in ("XXP ² 3", "XXA ² 1.0"):
        path = tmp_path / "odd.trf"
        path.write_text(TRF + line + "\n")
        with pytest.raises(CommandError, match=r"line \d+"):
            call_command("import_trf", str(path), "--slug", "odd", stdout=io.StringIO())
    assert not Tournament.objects.filter(slug="odd").exists()


@pytest.mark.django_db
def test_a_damaged_backup_is_refused_plainly_and_keeps_nothing(tmp_path: Path) -> None:
    from championship.backup import export_tournament

    played = published_round()
    (game, *_rest) = games_of(played)
    services.turn_add(game=game, text=OPENING, user=None)
    data = json.loads(export_tournament(played.tournament))
    board = next(b for b in data["rounds"][0]["boards"] if b.get("games", [{}])[0].get("turns"))
    data["tournament"]["slug"] = "copy"
    games = Game.objects.count()
    number = data["rounds"][0]["boards"].index(board)

    def turn_of(d: dict[str, Any]) -> dict[str, Any]:
        turn: dict[str, Any] = d["rounds"][0]["boards"][number]["games"][0]["turns"][0]
        return turn

    for damage in (
        lambda d: d["tournament"].update(rounds="²"),
        lambda d: d["rounds"][0].update(number="٣x"),
        lambda d: turn_of(d).update(text="²:5 24/20"),
        lambda d: turn_of(d).update(ply="²"),
        lambda d: d.pop("entrants"),
    ):
        broken = json.loads(json.dumps(data))
        damage(broken)
        path = tmp_path / "backup.json"
        path.write_text(json.dumps(broken))
        with pytest.raises(CommandError, match="damaged"):
            call_command("restore_tournament", str(path), stdout=io.StringIO())
        assert not Tournament.objects.filter(slug="copy").exists()
        assert Game.objects.count() == games
    path.write_text(json.dumps(data))  # undamaged, it restores
    call_command("restore_tournament", str(path), stdout=io.StringIO())
    assert Game.objects.count() == 2 * games


# --- From outside ---------------------------------------------------------------------------
@pytest.fixture
def board_game(db: Any) -> dict[str, Any]:
    rnd = published_round()
    game = games_of(rnd)[0]
    org, _user = organiser_client()
    return {"game": game, "org": org, "tablet": tablet.path_for(game.pk)}


@pytest.mark.django_db
def test_the_reported_inputs_are_refused_with_a_message(board_game: dict[str, Any]) -> None:
    game, org = board_game["game"], board_game["org"]
    anyone = Client()
    action = f"{board_game['tablet']}action/"
    for ply in ODD_NUMBERS:
        for client, url in ((anyone, action), (org, f"/games/{game.pk}/clock/action/")):
            response = client.post(url, {"action": "turn", "text": OPENING, "ply": ply})
            assert response.status_code == 400, (url, ply)
            assert "number of turns" in response.json()["error"]
        response = org.post(
            f"/games/{game.pk}/sheet/", {"action": "turn", "text": OPENING, "ply": ply}
        )
        assert response.status_code == 400 and "number of turns" in response.content.decode()
        response = org.post(f"/games/{game.pk}/sheet/", {"action": "undo", "ply": ply})
        assert response.status_code == 400
    assert not game.turns.exists()
    response = org.post(f"/games/{game.pk}/sheet/", {"action": "turn", "text": "²:5 24/20 13/8"})
    assert response.status_code == 400 and "card" in response.content.decode()
    response = org.post(
        f"/games/{game.pk}/sheet/", {"action": "turn", "text": OPENING, "clock": "0:²²:00"}
    )
    assert response.status_code == 400 and "h:mm:ss" in response.content.decode()
    assert not game.turns.exists()
    # The form's own values still work.
    response = org.post(
        f"/games/{game.pk}/sheet/", {"action": "turn", "text": OPENING, "ply": "0", "clock": ""}
    )
    assert response.status_code == 302 and game.turns.count() == 1


@pytest.mark.django_db
def test_a_friendly_games_minutes_of_other_digits_are_refused(board_game: dict[str, Any]) -> None:
    org = board_game["org"]
    for minutes in ("²", "٣", "-1", "1.0", " 5", "601", "0"):
        response = org.post(
            "/games/new/",
            {"white_name": "A", "black_name": "B", "phase1_minutes": minutes},
        )
        assert response.status_code == 400, minutes
    assert not Game.objects.filter(board=None).exists()


@pytest.mark.django_db
def test_the_standings_of_round_other_digits_are_the_standings(board_game: dict[str, Any]) -> None:
    slug = board_game["game"].board.round.tournament.slug
    whole = Client().get(f"/t/{slug}/standings/")
    assert whole.status_code == 200
    for value in ("²", "³", "٣", "-1", "1.0", "%20 1"):
        for extra in ("", "&format=csv", "&format=xlsx", "&format=json"):
            response = Client().get(f"/t/{slug}/standings/?round={value}{extra}")
            assert response.status_code == 200, (value, extra)
        assert Client().get(f"/t/{slug}/standings/?round={value}").content == whole.content
    assert Client().get(f"/t/{slug}/standings/?round=1").status_code == 200


@pytest.mark.django_db
def test_a_results_forms_version_of_other_digits_is_refused(board_game: dict[str, Any]) -> None:
    from championship.models import GameResult

    game, org = board_game["game"], board_game["org"]
    row = GameResult.objects.get(board=game.board, number=1)
    slug = game.board.round.tournament.slug
    for version in ("²", "٣", "-1", " 0"):
        response = org.post(
            f"/t/{slug}/manage/round/1/",
            {
                "action": "results",
                f"result-{row.pk}": "1-0",
                f"termination-{row.pk}": "resign",
                f"version-{row.pk}": version,
            },
        )
        assert response.status_code == 400, version
    row.refresh_from_db()
    assert row.result == ""


# --- Properties: any text in each numeric parameter -----------------------------------------
_WORLD: dict[str, Any] = {}


@pytest.fixture(autouse=True)
def _fresh_world() -> Any:
    _WORLD.clear()
    yield
    _WORLD.clear()


def _world() -> dict[str, Any]:
    if not _WORLD:
        rnd = published_round()
        game = games_of(rnd)[0]
        org, _user = organiser_client()
        _WORLD.update(game=game, org=org, slug=rnd.tournament.slug)
    return _WORLD


@pytest.mark.django_db
@settings(max_examples=examples(80), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    where=st.sampled_from(["tablet", "clock", "sheet", "sheet-clock", "sheet-text", "standings"]),
    value=ANY_TEXT,
)
def test_any_text_in_a_numeric_parameter_is_never_a_server_error(where: str, value: str) -> None:
    world = _world()
    game, org = world["game"], world["org"]
    anyone = Client(raise_request_exception=False)
    org.raise_request_exception = False
    before = game.turns.count()
    if where == "tablet":
        url = f"{tablet.path_for(game.pk)}action/"
        response = anyone.post(url, {"action": "turn", "text": OPENING, "ply": value})
    elif where == "clock":
        url = f"/games/{game.pk}/clock/action/"
        response = org.post(url, {"action": "turn", "text": OPENING, "ply": value})
    elif where == "sheet":
        response = org.post(f"/games/{game.pk}/sheet/", {"action": "undo", "ply": value})
    elif where == "sheet-clock":
        response = org.post(
            f"/games/{game.pk}/sheet/", {"action": "turn", "text": "6:6 1/1", "clock": value}
        )
    elif where == "sheet-text":
        response = org.post(f"/games/{game.pk}/sheet/", {"action": "turn", "text": value})
    else:
        response = anyone.get(f"/t/{world['slug']}/standings/", {"round": value, "format": "csv"})
    assert response.status_code < 500, (where, value)
    if response.status_code >= 400:
        assert game.turns.count() == before
