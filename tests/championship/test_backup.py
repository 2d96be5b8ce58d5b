"""Export a whole tournament and restore it into an empty database: byte-identical."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.utils import timezone

from championship.backup import backup_text
from championship.models import Board, GameResult, ResultChange, Tournament
from games.demo import create_running_swiss
from registrations.models import MasterClassSession, MasterClassSignup, Registration
from tests.championship.results import enter, value

pytestmark = pytest.mark.django_db


def wipe() -> None:
    MasterClassSignup.objects.all().delete()
    MasterClassSession.objects.all().delete()
    for t in Tournament.objects.all():
        for r in t.round_set.all():
            r.boards.all().delete()
        t.round_set.all().delete()
        t.entrants.all().delete()
        Registration.objects.filter(tournament=t).delete()
        t.delete()


def test_export_restore_export_is_byte_identical(tmp_path: Path) -> None:
    t = create_running_swiss(slug="bk", players=9, rounds=3)
    user = User.objects.create_user("org")
    board = (
        Board.objects.filter(round__tournament=t, results__result="").exclude(black=None).first()
    )
    enter(board, "0-1", "resign", user=user)  # an unfinished game, its sheet stays
    reg = Registration.objects.create(
        tournament=t,
        name="Анна",
        email="anna@example.org",
        phone="+14165550123",
        experience="club",
        language="ru",
        consent_at=timezone.now(),
    )
    entrant = t.entrants.first()
    entrant.registration = reg
    entrant.save()
    # The schedule (moved once: its calendar SEQUENCE) and a check-in by the player.
    from championship import services

    services.round_starts_set(
        tournament=t, starts={n: timezone.now() + timedelta(hours=n) for n in (1, 2, 3)}
    )
    services.round_starts_shift(tournament=t, from_round=2, minutes=15)
    t.time_zone, t.round_minutes = "America/Vancouver", 100
    t.save()
    entrant.checked_in_by, entrant.checked_in_at = "player", timezone.now()
    entrant.save()
    session = MasterClassSession.objects.create(
        tournament=t, title="MC", starts_at=timezone.now(), place="Hall", language="ru", seats=3
    )
    MasterClassSignup.objects.create(
        session=session,
        name="Анна",
        email="anna@example.org",
        language="ru",
        consent_at=timezone.now(),
    )
    first = tmp_path / "first.json"
    call_command("export_tournament", "bk", str(first))
    wipe()
    assert not Tournament.objects.exists() and not ResultChange.objects.exists()
    call_command("restore_tournament", str(first))
    second = tmp_path / "second.json"
    call_command("export_tournament", "bk", str(second))
    # Byte for byte, but for the pages' version: the restore commits, and the club rating's
    # recomputation that follows (the restored games are rated games) renews the pages.
    restored = json.loads(second.read_bytes())
    assert (
        restored["tournament"]["version"] > json.loads(first.read_bytes())["tournament"]["version"]
    )
    restored["tournament"]["version"] = json.loads(first.read_bytes())["tournament"]["version"]
    assert first.read_text(encoding="utf-8") == backup_text(restored)
    restored = Tournament.objects.get(slug="bk")
    assert (restored.time_zone, restored.round_minutes) == ("America/Vancouver", 100)
    assert list(restored.round_starts.values_list("number", "sequence")) == [(1, 0), (2, 1), (3, 1)]
    assert restored.entrants.filter(checked_in_by="player").count() == 1
    entered = GameResult.objects.get(board__round__tournament=restored, source="organiser")
    assert (entered.result, entered.termination) == ("0-1", "resign")
    assert ResultChange.objects.get(source="organiser").user == user
    # The move sheets came back: every game replays to its pairing's result.
    from games.models import Game
    from games.selectors import replay

    games = Game.objects.filter(board__round__tournament=restored)
    assert (
        games.count()
        == Board.objects.filter(round__tournament=restored).exclude(black=None).count()
    )
    for game in games.select_related("board"):
        eg = replay(game)
        assert value(game.board) == ((eg.result, eg.termination) if eg.outcome else ("", ""))
    # The opening explorer knows the restored games that their sheets finished (derived).
    from games.models import OpeningMove
    from games.selectors import sheet

    finished = {g.pk for g in games if sheet(g).outcome is not None and g.turns.exists()}
    assert finished
    assert set(OpeningMove.objects.values_list("game_id", flat=True)) == finished
    with pytest.raises(CommandError, match="already has"):
        call_command("restore_tournament", str(first))
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(CommandError, match="not a tournament backup"):
        call_command("restore_tournament", str(bad))


@pytest.mark.parametrize("slug", ["bad slug", "<b>", ""])
def test_a_backup_with_a_bad_slug_is_refused(tmp_path: Path, slug: str) -> None:
    import json

    create_running_swiss(slug="bk", players=4, rounds=1)
    path = tmp_path / "bk.json"
    call_command("export_tournament", "bk", str(path))
    wipe()
    data = json.loads(path.read_text())
    data["tournament"]["slug"] = slug
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError, match="is not a slug"):
        call_command("restore_tournament", str(path))
    assert not Tournament.objects.exists()


def test_a_backup_made_before_game_results_restores_its_results(tmp_path: Path) -> None:
    """Backups of the first format kept results on the boards (result, termination, result2,
    termination2, confirmed, version) with the board's history: they restore into game
    results, nothing lost."""
    import json

    create_running_swiss(slug="old", players=6, rounds=2, unfinished_last=False)
    path = tmp_path / "new.json"
    call_command("export_tournament", "old", str(path))
    data = json.loads(path.read_text())
    expected = {}
    for rnd in data["rounds"]:
        for board in rnd["boards"]:
            if board["black"] is None:
                continue
            (game,) = board.pop("results")
            board.update(
                result=game["result"],
                termination=game["termination"],
                result2="",
                termination2="",
                confirmed=game["confirmed"],
                version=game["version"],
                changes=[
                    {k: c[k] for k in ("user", "at", "action", "old", "new")}
                    for c in game["changes"]
                ],
            )
            expected[(rnd["number"], board["number"])] = (game["result"], game["termination"])
    data["format"] = "modern-nardy-tournament/1"
    wipe()
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data))
    call_command("restore_tournament", str(old))
    restored = {
        (g.board.round.number, g.board.number): (g.result, g.termination)
        for g in GameResult.objects.filter(board__round__tournament__slug="old").select_related(
            "board__round"
        )
    }
    assert restored == expected and len(expected) >= 5
    assert ResultChange.objects.filter(
        game_result__board__round__tournament__slug="old"
    ).count() == sum(len(b.get("changes", [])) for r in data["rounds"] for b in r["boards"])
