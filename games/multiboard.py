"""The live multiboard of a round, for spectators: every game at once, a small board each with
both clocks, each side's cards left, the ply and the result (issue 22).

Cheap under load, and bounded in queries whatever the number of boards:

- **the feed's key** names what a viewer sees: the round, its tournament's version (names,
  results), the delay, and each game's version as the viewer sees it (for a spectator of a
  tournament with a delay: the version of the game's snapshot at now − delay, ``games.delay``).
  It takes two queries (four with a delay) and is kept ``KEY_SECONDS`` in the cache; a change
  of a game forgets it at its commit (``game_changed``), so a turn is in the next poll;
- **the feed and the page** are kept whole under that key (``common.cache.page_for``:
  gzipped, an ETag, ``304`` for a poller that has it), so 1,000 spectators polling an
  unchanged round cost two cache reads each, and a turn costs one build;
- **each game's part** (its position's layer, cards, ply, result) is kept under the game's
  version as seen and its result's version, so a build replays only the games that changed,
  their turns read in one query.

The clocks are sent as stored (each side's time left when the clock last changed hands and
since when the side to move has been thinking) with the delay: the page counts them down
with the server's time (the ``X-Now`` header), so the kept feed never goes stale between
turns.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from championship.models import Board, GameResult, Round
from championship.services import describe
from common.cache import current, forget_current, keep_current

from . import board_svg, delay, selectors
from .engine import BLACK, WHITE
from .engine.core import CARD_TEXTS
from .engine.game import Game as EngineGame
from .models import Game

#: How long a round's feed key is reused without reading the database again (a change of a
#: game forgets it at its commit; a result or a delayed turn shows within this).
KEY_SECONDS = 1
#: How long a game's part is kept (it is keyed by version: never stale).
PART_SECONDS = 6 * 3600
#: How often the page asks for the feed.
POLL_SECONDS = 2


@dataclass(frozen=True)
class FeedKey:
    """What one viewer of a round sees, as a string for the page cache, with what building it
    needs."""

    key: str
    round_id: int
    tournament_id: int
    minutes: int
    #: The moment a delayed viewer sees (None: now).
    at: datetime | None

    @property
    def stem(self) -> str:
        """The key without the games' versions: the round, its tournament's version and the
        delay (``multiboard_views.page_key``)."""
        return self.key.rsplit(":", 1)[0]


def _key_key(slug: str, number: int, spectator: bool) -> str:
    return f"mb:key:{slug}:{number}:{'s' if spectator else 'a'}"


def _round_keys(slug: str, number: int) -> list[str]:
    return [_key_key(slug, number, True), _key_key(slug, number, False)]


@dataclass(frozen=True)
class GameSeen:
    """What one viewer sees of a game for its live state (``views.live``): the version and
    the stored clock as seen (for a spectator of a tournament with a delay: at now − delay),
    the tournament's version, the delay."""

    version: int
    tournament_version: int
    minutes: int
    clock_white_ms: int | None
    clock_black_ms: int | None
    clock_running_since: datetime | None
    #: The game's snapshot seen (None: the game as it is).
    moment: delay.Moment | None


def _game_key(pk: int, spectator: bool) -> str:
    return f"mb:game:{pk}:{'s' if spectator else 'a'}"


def game_changed(pk: int, where: tuple[str, int] | None = None) -> None:
    """A game changed (after its commit): its live state is read again at the next poll, and
    so are the versions of its round (``where``: its tournament's slug and the round's
    number; None for a friendly game), in one round trip to the cache."""
    forget_current(
        [_game_key(pk, True), _game_key(pk, False), *(_round_keys(*where) if where else [])]
    )


def game_seen(pk: int, *, spectator: bool) -> GameSeen | None:
    """What a viewer sees of game ``pk`` (None: no such game, or its round is not published),
    kept ``KEY_SECONDS`` and forgotten at the game's commit: a poll of an unchanged game reads
    the cache only. One query (three with a delay) when not kept."""
    name = _game_key(pk, spectator)
    found = current(name)
    if found is not None:
        return GameSeen(*found)
    row = (
        Game.objects.filter(pk=pk)
        .values_list(
            "version",
            "board_id",
            "board__round__status",
            "board__round__tournament__version",
            "board__round__tournament__spectator_delay_minutes",
            "clock_white_ms",
            "clock_black_ms",
            "clock_running_since",
        )
        .first()
    )
    if row is None:
        return None
    version, board_id, status, t_version, t_delay, white, black, since = row
    if board_id is not None and status != Round.Status.PUBLISHED:
        return None
    minutes = (t_delay or 0) if spectator else 0
    moment = delay.moment(pk, delay.cutoff(minutes)) if minutes else None
    if delay.behind(moment, version):
        assert moment is not None
        version = moment.version
        white, black, since = (
            moment.clock_white_ms,
            moment.clock_black_ms,
            moment.clock_running_since,
        )
    else:
        moment = None
    seen = GameSeen(version, t_version or 0, minutes, white, black, since, moment)
    keep_current(name, tuple(seen.__dict__.values()), KEY_SECONDS)
    return seen


def feed_key(slug: str, number: int, *, spectator: bool) -> FeedKey | None:
    """The key of what a viewer sees of round ``number`` (None: no such published round): a
    spectator sees the games with the tournament's delay, the arbiters without
    (``games.delay.delay_minutes_for``)."""
    name = _key_key(slug, number, spectator)
    found = current(name)
    if found is not None:
        return FeedKey(*found)
    row = (
        Round.objects.filter(tournament__slug=slug, number=number, status=Round.Status.PUBLISHED)
        .values_list(
            "pk", "tournament_id", "tournament__version", "tournament__spectator_delay_minutes"
        )
        .first()
    )
    if row is None:
        return None
    round_id, tournament_id, tournament_version, tournament_delay = row
    minutes = tournament_delay if spectator else 0
    versions = dict(Game.objects.filter(board__round_id=round_id).values_list("pk", "version"))
    at = None
    if minutes:
        at = delay.cutoff(minutes)
        for pk, moment in delay.moments(versions, at).items():
            if delay.behind(moment, versions[pk]):
                assert moment is not None
                versions[pk] = moment.version
    digest = hashlib.blake2b(digest_size=10)
    for pk in sorted(versions):
        digest.update(f"{pk}.{versions[pk]};".encode())
    key = FeedKey(
        key=f"mb:r{round_id}:t{tournament_version}:d{minutes}:{digest.hexdigest()}",
        round_id=round_id,
        tournament_id=tournament_id,
        minutes=minutes,
        at=at,
    )
    keep_current(name, tuple(key.__dict__.values()), KEY_SECONDS)
    return key


def _part_key(game: Game, result: GameResult | None) -> str:
    return f"mb:g{game.pk}:v{game.version}:r{result.version if result else '-'}"


def _parts(games: list[Game], results: dict[Any, GameResult]) -> dict[int, dict[str, Any]]:
    """Each game's part as its (possibly delayed) row says, from the cache or replayed (the
    turns of all the games missing from the cache in one query)."""
    keys = {g.pk: _part_key(g, results.get((g.board_id, g.number))) for g in games}
    cached = cache.get_many(list(keys.values()))
    out = {pk: cached[key] for pk, key in keys.items() if key in cached}
    missing = [g for g in games if g.pk not in out]
    if missing:
        turns = selectors.turns_of_games(missing)
        fresh = {}
        for g in missing:
            cut = getattr(g, "_ply", None)
            eg = selectors.sheet(g, turns[g.pk] if cut is None else turns[g.pk][:cut])
            row = results.get((g.board_id, g.number))
            by_hand = row is not None and row.result and row.source == GameResult.Source.ORGANISER
            if eg.outcome is None and row is not None and by_hand:
                selectors.apply_entered(eg, (row.result, row.termination))
            part = _part(eg)
            out[g.pk] = fresh[keys[g.pk]] = part
        cache.set_many(fresh, PART_SECONDS)
    return out


def _part(eg: EngineGame) -> dict[str, Any]:
    state, outcome = eg.state, eg.outcome
    return {
        "ply": eg.ply,
        "to_move": state.to_move,
        "over": outcome is not None,
        "adjourned": eg.adjourned,
        "outcome": [outcome.result, outcome.termination] if outcome else None,
        "layer": board_svg.layer(state, WHITE),
        "white_cards": cards_text(state.hand(WHITE)),
        "black_cards": cards_text(state.hand(BLACK)),
    }


def cards_text(hand: tuple[int, ...]) -> str:
    """A hand as the multiboard writes it, short: ``1:2×2 2:3 4:5×2`` (and the number of
    cards), ``–`` when empty."""
    pairs = [(text, n) for text, n in zip(CARD_TEXTS, hand, strict=True) if n]
    if not pairs:
        return "–"
    return " ".join(f"{text}×{n}" if n > 1 else text for text, n in pairs) + f" ({sum(hand)})"


def _ms(moment: datetime | None) -> int | None:
    return int(moment.timestamp() * 1000) if moment is not None else None


def feed(key: FeedKey) -> dict[str, Any]:
    """Every game of the round as the viewer of ``key`` sees it (texts in the active
    language). A constant number of queries whatever the number of boards."""
    rnd = Round.objects.select_related("tournament").get(pk=key.round_id)
    boards = list(
        Board.objects.filter(round=rnd).exclude(black=None).select_related("white", "black")
    )
    games = {(g.board_id, g.number): g for g in Game.objects.filter(board__round=rnd)}
    results = {(r.board_id, r.number): r for r in GameResult.objects.filter(board__round=rnd)}
    moments = delay.moments([g.pk for g in games.values()], key.at) if key.at is not None else {}
    seen: dict[int, Game] = {}
    for g in games.values():
        moment = moments.get(g.pk)
        if delay.behind(moment, g.version):
            assert moment is not None
            then = delay.as_of(g, moment)
            then._ply = moment.ply  # type: ignore[attr-defined]  (the turns seen then)
            seen[g.pk] = then
        else:
            seen[g.pk] = g
    parts = _parts(list(seen.values()), results)
    empty = _part(EngineGame())
    out = []
    per_pairing = rnd.tournament.games_per_pairing
    for board in sorted(boards, key=lambda b: b.number):
        for number in range(1, per_pairing + 1):
            game = games.get((board.pk, number))
            shown = seen.get(game.pk) if game is not None else None
            part = parts[game.pk] if game is not None else empty
            row = results.get((board.pk, number))
            out.append(_item(board, number, shown, part, row, per_pairing))
    return {
        "round": rnd.number,
        "delay": key.minutes,
        "games": out,
    }


def _item(
    board: Board,
    number: int,
    game: Game | None,
    part: dict[str, Any],
    row: GameResult | None,
    per_pairing: int,
) -> dict[str, Any]:
    first, second = str(board.white), str(board.black)
    white, black = (first, second) if number == 1 else (second, first)
    result = ""
    if part["outcome"]:
        result = describe(*part["outcome"])
    elif row is not None and row.result and (game is None or row.source != "sheet"):
        result = describe(row.result, row.termination)  # entered by hand: public at once
    title = _("Board %(b)d") % {"b": board.number}
    if per_pairing == 2:
        title += " · " + _("game %(n)d") % {"n": number}
    if result:
        state = "over"
    elif game is None or (part["ply"] == 0 and game.clock_white_ms is None):
        state = "waiting"
    elif part["adjourned"]:
        state = "adjourned"
    else:
        state = "playing"
    running = None
    if game is not None and game.clock_running_since is not None and state == "playing":
        running = part["to_move"]
    return {
        "key": f"{board.number}-{number}",
        "title": title,
        "board": board.number,
        "number": number,
        "white": white,
        "black": black,
        "state": state,
        "ply": part["ply"],
        "to_move": part["to_move"],
        "result": result,
        "layer": part["layer"],
        "white_cards": part["white_cards"],
        "black_cards": part["black_cards"],
        "white_ms": game.clock_white_ms if game is not None else None,
        "black_ms": game.clock_black_ms if game is not None else None,
        "running": running,
        "since": _ms(game.clock_running_since) if running else None,
        "url": reverse("games:detail", args=[game.pk]) if game is not None else "",
    }


def now_ms() -> int:
    """The server's time for the page's clocks (the ``X-Now`` header)."""
    return int(timezone.now().timestamp() * 1000)


__all__ = ["FeedKey", "feed", "feed_key", "game_changed"]
