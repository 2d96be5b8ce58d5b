"""Export a whole tournament and restore it into an empty database: byte-identical."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.utils import timezone

from championship import services
from championship.demo import create_running_swiss
from championship.models import Board, ResultChange, Tournament
from registrations.models import MasterClassSession, MasterClassSignup, Registration

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
    board = Board.objects.filter(round__tournament=t, result="").exclude(black=None).first()
    services.result_enter(
        board=board, result="0-1", termination="time", user=user, expected_version=board.version
    )
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
    assert first.read_bytes() == second.read_bytes()
    restored = Tournament.objects.get(slug="bk")
    assert Board.objects.filter(round__tournament=restored, termination="time").exists()
    assert ResultChange.objects.get().user == user
    # The move sheets came back: every played game replays to its board's result.
    from games.models import Game
    from games.services import replay

    games = Game.objects.filter(board__round__tournament=restored)
    assert (
        games.count()
        == Board.objects.filter(round__tournament=restored).exclude(black=None).count()
    )
    for game in games.select_related("board"):
        eg = replay(game)
        assert (game.board.result, game.board.termination) == (
            (eg.result, eg.termination) if eg.outcome else ("", "")
        )
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
