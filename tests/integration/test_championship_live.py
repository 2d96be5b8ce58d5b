"""Championship on PostgreSQL with the real worker: a round paired twice at once, two
organisers saving the same result, the public tables recomputed by the worker."""

from __future__ import annotations

import pytest

from championship import services, tables
from championship.models import Board, Entrant, GameResult, Round, Tournament
from games.demo import create_running_swiss
from tests.integration.test_services_live import in_parallel

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_round_paired_twice_at_once_is_paired_once() -> None:
    t = Tournament.objects.create(
        name="P", slug="p", starts_on="2027-03-14", ends_on="2027-03-14", rounds=5
    )
    for i in range(20):
        Entrant.objects.create(tournament=t, name=f"P{i}", rating=2000 - i, checked_in=True)

    def pair(_: int) -> str:
        try:
            services.round_pair_next(tournament=Tournament.objects.get(pk=t.pk))
            return "paired"
        except services.ChampionshipError as exc:
            return str(exc)

    outcomes = in_parallel(4, pair)
    assert outcomes.count("paired") == 1, outcomes
    assert Round.objects.filter(tournament=t).count() == 1
    assert Board.objects.filter(round__tournament=t).count() == 10


def test_two_organisers_saving_the_same_result_lose_nothing() -> None:
    t = create_running_swiss(slug="c", players=8, rounds=1, unfinished_last=False)
    board = Board.objects.filter(round__tournament=t).exclude(black=None).first()
    board.games.all().delete()  # a game recorded without a sheet: the result is typed in
    # No result yet, so each of the four saves below is a change (saving the result a game
    # already has is no change and no conflict: the demo's result may be one of the four).
    GameResult.objects.filter(board=board).update(result="", termination="")
    seen = GameResult.objects.get(board=board).version
    lines = GameResult.objects.get(board=board).changes.count()
    results = ["1-0", "0-1", "1/2-1/2", "1-0"]
    terminations = ["home", "time", "agreement", "resign"]

    def save(i: int) -> str:
        entry = services.ResultEntry(
            Board.objects.select_related("round__tournament").get(pk=board.pk),
            1,
            results[i],
            terminations[i],
            seen,
        )
        try:
            services.game_result_set(entries=[entry], user=None)
            return "saved"
        except services.ResultsRefused as exc:
            assert exc.conflicts
            return "told"

    outcomes = in_parallel(4, save)
    assert outcomes.count("saved") == 1 and outcomes.count("told") == 3, outcomes
    game = GameResult.objects.get(board=board)
    assert game.version == seen + 1
    assert game.changes.count() == lines + 1


def test_the_worker_recomputes_the_public_tables_after_a_result() -> None:
    import time

    from django.core.cache import cache

    t = create_running_swiss(slug="w", players=8, rounds=2)
    game = GameResult.objects.filter(
        board__round__tournament=t, board__round__number=2, result=""
    ).first()
    game.board.games.all().delete()  # typed in, no sheet
    before = tables.standings(t)  # a spectator's request, before
    services.game_result_set(
        entries=[
            services.ResultEntry(
                Board.objects.select_related("round__tournament").get(pk=game.board_id),
                1,
                "1-0",
                "resign",
                game.version,
            )
        ],
        user=None,
    )
    t.refresh_from_db()
    # Nobody has asked for the pages: the worker computes the new version's tables by itself.
    keys = [f"tables:{t.pk}:v{t.version}:{k}" for k in ("standings:live", "crosstable")]
    deadline = time.monotonic() + 30
    while not all(cache.get(k) is not None for k in keys):
        if time.monotonic() > deadline:
            pytest.fail("the worker did not recompute the tables within 30 s")
        time.sleep(0.1)
    assert cache.get(keys[0]) != before  # the table with the new result
