"""Issue 24 in the product: the report on a game's page, exercises from a player's own
mistakes (made when the analysis is done, shown once the round is over, answers checked
against the engine's judgement), the event's awards and the opening explorer."""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from championship.models import GameResult, Tournament
from games import analysis, openings, reports, services, tasks
from games.demo import create_running_swiss
from games.engine import legal_plays, playable_cards
from games.engine.analysis import PlyAnalysis, analyse_game
from games.engine.exercise import Judgement
from games.engine.game import Game as EngineGame
from games.engine.report import game_report
from games.models import Exercise, Game, GameAnalysis, GameReport, OpeningMove
from games.selectors import replay
from games.templatetags.games_tags import rate
from tests.games.helpers import organiser_client, record
from tests.games.test_analysis_product import SLUG, finished_record
from tests.hypothesis_profiles import examples

pytestmark = pytest.mark.django_db

Status = GameAnalysis.Status


@pytest.fixture
def world() -> dict[str, Any]:
    """A running Swiss (round 1 over, round 2 being played) and an open game of round 2."""
    t = create_running_swiss(slug=SLUG, players=4, rounds=2, unfinished_last=True)
    org, user = organiser_client()
    open_result = (
        GameResult.objects.filter(board__round__tournament=t, board__round__number=2, result="")
        .select_related("board__white", "board__black")
        .first()
    )
    assert open_result is not None
    game = Game.objects.get(board=open_result.board, number=1)
    return {"t": t, "org": org, "user": user, "game": game, "board": open_result.board}


def finish(w: dict[str, Any], seed: int = 5) -> Game:
    services.sheet_replace(
        game=w["game"], text=finished_record(seed), user=w["user"], overrule=True
    )
    w["game"].refresh_from_db()
    return w["game"]


def end_tournament(t: Tournament) -> None:
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)


# --- The report and the exercises, derived when the analysis is done -------------------------
def test_a_done_analysis_gets_its_report_and_exercises(world):
    game = finish(world)
    row = GameAnalysis.objects.get(game=game)
    assert row.status == Status.DONE
    stored = GameReport.objects.get(analysis=row)
    plies = analysis.plies_of(row)
    assert all(p.choices >= 1 for p in plies)
    expected = game_report(plies, reports.seconds_of(game, list(game.turns.order_by("ply"))))
    assert stored.token == row.token
    assert stored.data == expected.as_dict()
    assert stored.accuracy == expected.accuracy
    assert stored.error_white == expected.white.total.error_rate
    assert stored.turns_black == expected.black.total.turns
    assert stored.result == replay(game).result
    assert stored.data["seconds"] == [None] * len(plies)  # a record without clocks
    exercises = list(Exercise.objects.filter(analysis=row))
    wrong = {p.ply for p in plies if p.verdict in ("mistake", "blunder") and not p.forced}
    assert exercises, "the random side made no mistake worth an exercise"
    white, black = world["board"].white, world["board"].black
    eg = replay(game)
    for ex in exercises:
        assert ex.ply in wrong and ex.token == row.token
        assert ex.entrant == (white if ex.side == "white" else black)
        assert ex.played == plies[ex.ply - 1].played
        judgement = Judgement.from_json(ex.judgement)
        state = eg.states[ex.ply - 1]
        every = {p.text for c in playable_cards(state) for p in legal_plays(state, c)}
        assert {p.play for p in judgement.plays} == every
        assert not judgement.right(ex.played) and judgement.answers


def test_the_time_of_each_turn_from_the_clock(world):
    # The demo's games of round 1 have a clock after every turn (a few seconds a turn).
    game = next(
        g
        for g in Game.objects.filter(board__round__number=1).order_by("board__number")
        if len(replay(g).turns) >= 10 and g.turns.exclude(clock="").exists()
    )
    analysis.request(game.pk)
    stored = GameReport.objects.get(game=game)
    turns = list(game.turns.order_by("ply"))
    seconds = stored.data["seconds"]
    assert len(seconds) == len(turns) and all(isinstance(s, int) and s >= 0 for s in seconds)
    assert seconds[0] == 1800 - sum(
        int(x) * m for x, m in zip(turns[0].clock.split(":"), (3600, 60, 1), strict=True)
    )
    html = Client().get(f"/games/{game.pk}/").content.decode()
    assert ">Time<" in html


def test_no_report_for_a_forfeit_an_adjudication_or_a_short_game(world):
    game = world["game"]
    eg = EngineGame()
    texts = []
    while len(texts) < 9:
        state = eg.state
        text = legal_plays(state, playable_cards(state)[0])[0].text
        eg.play(text)
        texts.append(text)
    services.sheet_replace(
        game=game, text=record(texts, "1-0", "resign"), user=world["user"], overrule=True
    )
    row = GameAnalysis.objects.get(game=game)
    assert row.status == Status.DONE  # analysed, but no report: 9 plies
    assert not GameReport.objects.exists() and not Exercise.objects.exists()
    html = Client().get(f"/games/{game.pk}/").content.decode()
    assert "analysis-graph" in html and 'id="report"' not in html
    assert reports.derive(row.pk, row.token) == "none"
    assert reports.derive(row.pk, "another request") == "stale"


def test_the_game_page_shows_the_report_turning_points_and_times(world):
    game = finish(world)
    # The same analysis with a node budget (deep enough for the engine's lines after its
    # plays, and the same on every machine).
    deterministic = analyse_game(replay(game), ms_per_ply=None, max_nodes=2000)
    GameAnalysis.objects.filter(game=game).update(plies=[p.as_dict() for p in deterministic])
    cache.clear()
    row = GameAnalysis.objects.get(game=game)
    plies = analysis.plies_of(row)
    html = Client().get(f"/games/{game.pk}/").content.decode()
    assert 'id="report"' in html and "/analysis/explained/" in html
    report = game_report(plies)
    for tp in report.turning_points:
        assert f'href="/games/{game.pk}/analysis/{tp.ply}/"' in html
    assert html.count('class="graph-ply"') >= len(plies)  # every ply of the graph a link
    assert f'href="#ply-{len(plies)}"' in html
    error = report.white.total.error_rate
    assert f'report-error">{rate(error)}<' in html
    # The ply page of a better play says the engine's line in words.
    better = next(p for p in plies if p.best != p.played)
    page = Client().get(f"/games/{game.pk}/analysis/{better.ply}/").content.decode()
    assert "line-words" in page and better.best in page
    # With a line after the engine's play, the position at its end is drawn too.
    assert any(p.line for p in plies)
    for p in plies:
        if p.line:
            page = Client().get(f"/games/{game.pk}/analysis/{p.ply}/").content.decode()
            assert "engine-line-board" in page and p.line[0] in page
            eg = replay(game)
            end = reports.after_line(eg.states[p.ply - 1], [p.best, *p.line])
            assert end.ply == p.ply - 1 + 1 + len(p.line)
            break


def test_the_explanation_page_in_both_languages():
    for lang, words, threshold in (("en", "error rate", "0.3"), ("ru", "ошиб", "0,3")):
        client = Client()
        client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = lang
        html = client.get("/analysis/explained/").content.decode()
        assert words in html.lower()
        assert threshold in html and "2.177" in html.replace(",", ".")


# --- Exercises: only from finished rounds; checked against the judgement --------------------
def test_exercises_wait_for_the_end_of_the_round_and_check_every_play(
    world, django_assert_max_num_queries
):
    game = finish(world)
    board = world["board"]
    # Round 2 is still being played: none of its positions is an exercise yet.
    assert not reports.exercises_for(entrants=[board.black_id]).exists()
    training = f"/t/{SLUG}/players/{board.black_id}/training/"
    assert "data-exercise=" not in Client().get(training).content.decode()
    end_tournament(world["t"])
    found = list(reports.exercises_for(entrants=[board.white_id, board.black_id], games=[game.pk]))
    assert found and {e.game_id for e in found} == {game.pk}
    ex = found[0]
    entrant = ex.entrant_id
    html = Client().get(f"/t/{SLUG}/players/{entrant}/training/").content.decode()
    assert f'data-exercise="{ex.pk}"' in html
    url = f"/t/{SLUG}/players/{entrant}/training/{ex.pk}/"
    client = Client()
    with django_assert_max_num_queries(6):
        page = client.get(url)
    assert page.status_code == 200 and "<optgroup" in page.content.decode()
    judgement = Judgement.from_json(ex.judgement)
    for judged in judgement.plays:
        with django_assert_max_num_queries(7):
            answer = client.post(url, {"play": judged.play}).content.decode()
        assert ("Right." in answer) == judged.right, judged
        assert "line-words" in answer
    # Written in notation, even without the hit marks: the same play.
    right = judgement.answers[0]
    assert "Right." in client.post(url, {"typed": right.replace("*", "")}).content.decode()
    # Nonsense is refused with a message, what was typed kept.
    bad = client.post(url, {"typed": "9:9 99/1"})
    assert bad.status_code == 400
    assert "9:9 99/1" in bad.content.decode()
    assert client.post(url, {}).status_code == 400
    # The mistake stays in its box; a play then chosen from the list is the answer (it was
    # refused again, for the old text the player no longer meant).
    after = client.post(url, {"typed": "9:9 99/1", "play": right})
    assert after.status_code == 200 and "Right." in after.content.decode()
    both = client.post(url, {"typed": right, "play": judgement.plays[-1].play})
    assert "Right." in both.content.decode()  # a legal play written wins over the list
    # Another player's exercise is not under this player's address.
    other = board.white_id if entrant == board.black_id else board.black_id
    assert client.get(f"/t/{SLUG}/players/{other}/training/{ex.pk}/").status_code in (200, 404)
    if not Exercise.objects.filter(pk=ex.pk, entrant_id=other).exists():
        assert client.get(f"/t/{SLUG}/players/{other}/training/{ex.pk}/").status_code == 404


def test_a_changed_sheet_takes_its_exercises_and_report_away(world):
    game = finish(world)
    end_tournament(world["t"])
    assert Exercise.objects.exists() and GameReport.objects.exists()
    # A finished tournament's sheets change only after a reopen (issue 21): reopened, a
    # turn taken back takes the report and the exercises with the analysis.
    Tournament.objects.filter(pk=world["t"].pk).update(status=Tournament.Status.RUNNING)
    org = world["org"]
    response = org.post(
        f"/games/{game.pk}/sheet/", {"action": "undo", "ply": str(game.turns.count())}
    )
    assert response.status_code < 400, response.content
    assert not Exercise.objects.exists() and not GameReport.objects.exists()
    assert not reports.exercises_for(games=[game.pk]).exists()


def test_the_training_page_uses_a_fixed_number_of_queries(world, django_assert_max_num_queries):
    game = finish(world)
    end_tournament(world["t"])
    board = world["board"]
    url = f"/t/{SLUG}/players/{board.black_id}/training/"
    client = Client()
    with django_assert_max_num_queries(8):
        assert client.get(url).status_code == 200
    # More games analysed (the other games of round 1): still the same number.
    more = 0
    for g in Game.objects.filter(board__round__number=1).exclude(pk=game.pk):
        if analysis.request(g.pk) is not None:
            more += 1
    assert more
    for entrant in (board.white_id, board.black_id):
        with django_assert_max_num_queries(8):
            assert client.get(f"/t/{SLUG}/players/{entrant}/training/").status_code == 200


def test_the_players_fragments_render_with_a_fixed_number_of_queries(
    world, django_assert_max_num_queries
):
    from django.template import Context, Template

    finish(world)
    end_tournament(world["t"])
    entrant = world["board"].black
    template = Template("{% load analysis_tags %}{% player_analysis entrant %}")
    with django_assert_max_num_queries(4):
        html = template.render(Context({"entrant": entrant}))
    assert "player-report-table" in html and "training-entry" in html
    assert f"/t/{SLUG}/players/{entrant.pk}/training/" in html


# --- Awards on a small hand-made event ----------------------------------------------------------
def hand_made(game: Game, values: list[tuple[float, float]]) -> None:
    """Store an analysis of ``game`` whose plies have these (best, played) values and derive
    its report (as the task would)."""
    eg = replay(game)
    plies = []
    for turn, (best, played) in zip(eg.turns, values, strict=True):
        same = best == played
        plies.append(
            PlyAnalysis(
                ply=turn.ply,
                side=turn.side,
                played=turn.text,
                best=turn.text if same else "x",
                value_played=played,
                value_best=best,
                proven_played=False,
                proven_best=False,
                verdict="best" if same else "mistake",
                nodes=1,
                depth=1,
                choices=5,
            ).as_dict()
        )
    row = GameAnalysis.objects.create(
        game=game,
        moves=analysis.moves_key(replay(game)),
        token=f"hand{game.pk}",
        status=Status.DONE,
        plies=plies,
        requested_at=game.created_at,
    )
    assert reports.derive(row.pk, row.token, ms_per_ply=1) == "done"


def test_awards_on_a_small_hand_made_event(world, monkeypatch, django_assert_max_num_queries):
    monkeypatch.setattr(tasks.analyse_game_task, "delay", lambda *a: None)  # not the engine's
    t = world["t"]
    GameAnalysis.objects.all().delete()
    games = list(
        Game.objects.filter(board__round__tournament=t, board__round__number=1)
        .select_related("board")
        .order_by("board__number")
    )
    decisive = [
        g for g in games if replay(g).result in ("1-0", "0-1") and len(replay(g).turns) >= 10
    ]
    assert len(decisive) >= 2
    a, b = decisive[:2]
    n_a, n_b = len(replay(a).turns), len(replay(b).turns)
    # Game a: nearly perfect; the winner was at −0.8 once.  Game b: sloppy, the loser better
    # than a's loser.
    win_a = replay(a).result
    low = -0.8 if win_a == "1-0" else 0.8  # the winner's low point, from White's view
    values_a = [(0.0, 0.0)] * n_a
    values_a[2 if win_a == "1-0" else 3] = (
        low if win_a == "1-0" else -low,
        low if win_a == "1-0" else -low,
    )
    hand_made(a, values_a)
    values_b = [
        (0.3, 0.0) if i % 2 == (0 if replay(b).result == "1-0" else 1) else (0.0, 0.0)
        for i in range(n_b)
    ]
    hand_made(b, values_b)
    end_tournament(t)
    client = Client()
    with django_assert_max_num_queries(6):
        html = client.get(f"/t/{SLUG}/awards/").content.decode()
    found = reports.awards(t)
    assert found["most_accurate"]["game"] == a
    assert found["comeback"]["game"] == a and found["comeback"]["lowest"] == -0.8
    # b's loser played perfectly (all its turns 0 lost) and a's loser too: the earlier board.
    assert found["best_loser"]["accuracy"] == pytest.approx(100.0, abs=0.1)
    assert found["player"] is None  # nobody has 3 analysed games
    assert f'href="/games/{a.pk}/"' in html
    # More games analysed: the page still reads the same number of times.
    # (A finished tournament's sheets change only after a reopen.)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    late = finish(world)  # the game of round 2 still being played, now finished
    GameAnalysis.objects.filter(game=late).delete()
    hand_made(late, [(0.1, 0.0)] * len(replay(late).turns))
    end_tournament(t)
    assert GameReport.objects.count() == 3
    with django_assert_max_num_queries(6):
        assert client.get(f"/t/{SLUG}/awards/").status_code == 200
    # Hidden by an organiser: gone for the public, still there for organisers.
    org, _ = organiser_client("awards-org")
    assert org.post(f"/t/{SLUG}/awards/visibility/", {"hidden": "1"}).status_code == 302
    assert client.get(f"/t/{SLUG}/awards/").status_code == 404
    assert org.get(f"/t/{SLUG}/awards/").status_code == 200
    assert client.post(f"/t/{SLUG}/awards/visibility/", {"hidden": "0"}).status_code == 302
    assert client.get(f"/t/{SLUG}/awards/").status_code == 404  # the anonymous POST did nothing
    org.post(f"/t/{SLUG}/awards/visibility/", {"hidden": "0"})
    assert client.get(f"/t/{SLUG}/awards/").status_code == 200


def test_awards_wait_for_the_last_round(world):
    assert Client().get(f"/t/{SLUG}/awards/").status_code == 404
    end_tournament(world["t"])
    assert Client().get(f"/t/{SLUG}/awards/").status_code == 200
    assert Client().get("/t/nowhere/awards/").status_code == 404


# --- The opening explorer ------------------------------------------------------------------------
def random_record(rng: random.Random, plies: int) -> tuple[list[str], EngineGame]:
    eg = EngineGame()
    texts: list[str] = []
    while eg.outcome is None and len(texts) < plies:
        state = eg.state
        card = rng.choice(playable_cards(state)[:2])
        text = rng.choice(legal_plays(state, card)[:2]).text
        eg.play(text)
        texts.append(text)
    return texts, eg


def friendly_games(n: int, seed: int = 3) -> list[tuple[Game, list[str], str]]:
    rng = random.Random(seed)
    out = []
    names = ["Анна", "Boris", "Clara"]
    for i in range(n):
        texts, eg = random_record(rng, rng.randint(4, 14))
        result = rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
        game = Game.objects.create(white_name=names[i % 3], black_name=names[(i + 1) % 3])
        termination = None
        if result != "*" and eg.outcome is None:
            termination = "agreement" if result == "1/2-1/2" else "resign"
        elif eg.outcome is not None:
            result, termination = eg.result, eg.termination
        services.sheet_replace(game=game, text=record(texts, result, termination), user=None)
        out.append((game, texts, result))
    return out


def test_explorer_counts_equal_a_plain_count_over_the_games(monkeypatch):
    monkeypatch.setattr(tasks.analyse_game_task, "delay", lambda *a: None)
    games = friendly_games(30)

    def plain(line: list[str], player: str = "", colour: str = "") -> dict[str, tuple[int, ...]]:
        out: dict[str, list[int]] = {}
        for game, texts, result in games:
            if result == "*" or len(texts) <= len(line) or texts[: len(line)] != line:
                continue
            if len(line) >= openings.OPENING_PLIES:
                continue
            w, b = game.white_name.casefold(), game.black_name.casefold()
            key = player.casefold()
            if key and not (
                (colour in ("", "white") and w == key) or (colour in ("", "black") and b == key)
            ):
                continue
            c = out.setdefault(texts[len(line)], [0, 0, 0, 0])
            c[0] += 1
            c[1 + ["1-0", "1/2-1/2", "0-1"].index(result)] += 1
        return {k: tuple(v) for k, v in out.items()}

    def explorer(line: list[str], player: str = "", colour: str = "") -> dict[str, tuple[int, ...]]:
        return {
            b.text: (b.games, b.white, b.draws, b.black)
            for b in openings.branches(line, player=player, colour=colour)
        }

    lines = [[]] + [texts[:k] for _g, texts, _r in games[:8] for k in (1, 2, 3)]
    for line in lines:
        assert explorer(line) == plain(line)
        for player in ("Анна", "boris"):
            for colour in ("", "white", "black"):
                assert explorer(line, player, colour) == plain(line, player, colour)
    # The page: the same numbers, whatever the filter, in a fixed number of queries.
    client = Client()
    first = games[0][1][0]
    html = client.get("/openings/", {"player": "анна", "colour": "white"}).content.decode()
    for text, (n, *_rest) in plain([], "анна", "white").items():
        assert re.search(rf'data-turn="{re.escape(text)}".*?data-games>{n}<', html, re.S)
    html = client.get("/openings/", {"line": first}).content.decode()
    assert "1. " + first in html
    # A line that is not legal, garbage filters: answered, never an error.
    for params in (
        {"line": "9:9 1/2,,,;"},
        {"colour": "purple", "player": "x" * 500},
        {"line": ",".join(["4:5 24/20 13/8"] * 50)},
    ):
        assert client.get("/openings/", params).status_code == 200


def test_explorer_rows_follow_the_sheet(monkeypatch, django_assert_max_num_queries):
    monkeypatch.setattr(tasks.analyse_game_task, "delay", lambda *a: None)
    ((game, texts, result),) = friendly_games(1, seed=11)
    if result == "*":
        assert not OpeningMove.objects.filter(game=game).exists()
    else:
        assert OpeningMove.objects.filter(game=game).count() == min(len(texts), 10)
    # Taking a turn back reopens the game: it leaves the explorer.
    if replay(game).outcome is not None and not game.termination:
        services.turn_undo(game=game, user=None)
        assert not OpeningMove.objects.filter(game=game).exists()
    friendly_games(20, seed=12)
    with django_assert_max_num_queries(5):
        assert Client().get("/openings/").status_code == 200


def test_the_command_makes_missing_reports_and_the_explorer_rows(world):
    from django.core.management import call_command

    game = finish(world)
    GameReport.objects.all().delete()
    Exercise.objects.all().delete()
    OpeningMove.objects.all().delete()
    call_command("analysis_reports", "--openings", "--ms", "1", stdout=io.StringIO())
    row = GameAnalysis.objects.get(game=game)
    assert GameReport.objects.get(analysis=row).token == row.token
    assert Exercise.objects.filter(analysis=row).exists()
    finished = [g for g in Game.objects.all() if replay(g, terminations=True).outcome is not None]
    with_rows = set(OpeningMove.objects.values_list("game_id", flat=True))
    assert game.pk in with_rows
    assert with_rows <= {g.pk for g in finished}
    # Run again: nothing is missing, nothing doubles.
    before = OpeningMove.objects.count()
    call_command("analysis_reports", "--openings", stdout=io.StringIO())
    assert OpeningMove.objects.count() == before
    assert GameReport.objects.count() == 1


# --- Whatever is typed: an answer or nothing, never an error ---------------------------------
TYPED = st.text(
    alphabet=st.sampled_from(list("0123456789:/*bar ,;\n\t-xЖ")) | st.characters(), max_size=60
)


@settings(max_examples=examples(300))
@given(TYPED)
def test_any_typed_answer_is_a_legal_play_or_none(text: str) -> None:
    state = EngineGame().state
    play = reports.answer_play(state, text)
    if play is not None:
        every = {p.text for c in playable_cards(state) for p in legal_plays(state, c)}
        assert play.text in every


@settings(max_examples=examples(300))
@given(st.lists(TYPED, max_size=12))
def test_any_line_in_the_explorers_address_gives_its_legal_beginning(texts: list[str]) -> None:
    line = openings.parse_line(",".join(texts))
    assert len(line) <= openings.MAX_LINE
    valid, eg = openings.playable_line(line)
    assert len(valid) <= len(line) and [t.text for t in eg.turns] == valid
