"""The one bridge between the database and the pure pairing code (STYLE.md: load rows → build
plain data → call the algorithm → save the result)."""

from __future__ import annotations

from fractions import Fraction

from .models import Board, Entrant, ForbiddenPair, GameResult, RequestedBye, Tournament
from .pairing import Player, PointSystem, RoundEntry, TournamentData

WIN_LOSS = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "=")}
#: A forfeit is not a played game (TRF ``+``/``-``); a double forfeit (``0-0``) is a forfeit
#: loss for both, as FIDE's TRF writes it (C.04.1: neither is a played game, so it gives no
#: colour and the two may still meet).
FORFEIT = {"1-0": ("+", "-"), "0-1": ("-", "+"), "0-0": ("-", "-")}


def points_system(t: Tournament) -> PointSystem:
    def f(x: object) -> Fraction:
        return Fraction(str(x))

    return PointSystem(
        win=f(t.points_win),
        draw=f(t.points_draw),
        loss=f(t.points_loss),
        bye=f(t.points_bye),
        full_bye=f(t.points_win),
        half_bye=f(t.points_draw),
        forfeit_win=f(t.points_win),
        forfeit_loss=f(t.points_loss),
    )


def total_rounds(t: Tournament, n_players: int) -> int:
    if t.system == Tournament.System.SWISS:
        return t.rounds
    per_cycle = n_players - 1 + n_players % 2
    return per_cycle * (2 if t.system == Tournament.System.DOUBLE_ROUND_ROBIN else 1)


GAME_SCORE = {
    "1-0": (Fraction(1), Fraction(0)),
    "0-1": (Fraction(0), Fraction(1)),
    "1/2-1/2": (Fraction(1, 2), Fraction(1, 2)),
    "0-0": (Fraction(0), Fraction(0)),
}

#: A game's result as the pairing's score needs it: (result, termination), "" while none.
GameValue = tuple[str, str]


def codes(
    black_id: int | None, bye: str, games: list[GameValue], two_games: bool = False
) -> tuple[str, str | None]:
    """TRF codes (white's, black's) of a board from its games' results (game 1, then game 2
    with the colours reversed); ``*`` while a game has no result. With two games the pairing
    is a mini-match: more game points wins it; if both games were forfeited by the same side
    it is a forfeit. The one place a pairing's score comes from its games."""
    if black_id is None:
        return bye or "U", None
    wanted = 2 if two_games else 1
    if len(games) < wanted or any(not result for result, _t in games[:wanted]):
        return "*", "*"
    (result, termination), *rest = games
    if not two_games:
        if termination == "forfeit" and result in FORFEIT:
            return FORFEIT[result]
        return WIN_LOSS.get(result, ("-", "-"))
    result2, termination2 = rest[0]
    if termination == termination2 == "forfeit" and result == result2 == "0-0":
        return FORFEIT["0-0"]
    w1, b1 = GAME_SCORE[result]
    b2, w2 = GAME_SCORE[result2]  # in game 2 the board's black has White
    white, black = w1 + w2, b1 + b2
    outcome = "1-0" if white > black else "0-1" if black > white else "1/2-1/2"
    if termination == termination2 == "forfeit" and outcome in FORFEIT:
        return FORFEIT[outcome]
    return WIN_LOSS[outcome]


def game_values(t: Tournament, *, published_only: bool = False) -> dict[int, list[GameValue]]:
    """Board id → its games' (result, termination), game 1 first (one query)."""
    qs = GameResult.objects.filter(board__round__tournament=t)
    if published_only:
        qs = qs.filter(board__round__status="published")
    by_board: dict[int, dict[int, GameValue]] = {}
    for board_id, number, result, termination in qs.values_list(
        "board_id", "number", "result", "termination"
    ):
        by_board.setdefault(board_id, {})[number] = (result, termination)
    return {
        board_id: [games.get(n, ("", "")) for n in range(1, max(games) + 1)]
        for board_id, games in by_board.items()
    }


BOARD_FIELDS = ("pk", "round__number", "white_id", "black_id", "bye")


def tournament_data(
    t: Tournament,
    *,
    entrants: list[Entrant] | None = None,
    published_only: bool = False,
) -> TournamentData:
    """Entrants with starting numbers and every round's entries, as plain data (4 queries;
    boards are read as value tuples, not model instances, since a big field has thousands)."""
    if entrants is None:
        entrants = list(t.entrants.filter(starting_number__isnull=False))
    qs = Board.objects.filter(round__tournament=t)
    if published_only:
        qs = qs.filter(round__status="published")
    rows = list(qs.order_by("round__number", "number").values_list(*BOARD_FIELDS))
    results = game_values(t, published_only=published_only)
    by_id = {e.pk: e for e in entrants}
    last_round = max((r[1] for r in rows), default=0)
    entries: dict[int, dict[int, RoundEntry]] = {e.pk: {} for e in entrants}
    time_losses: dict[int, dict[int, str]] = {e.pk: {} for e in entrants}
    two = t.games_per_pairing == 2
    game_points: dict[int, dict[int, Fraction]] = {e.pk: {} for e in entrants}
    for board_id, r, white_id, black_id, bye in rows:
        games = results.get(board_id, [])
        w_code, b_code = codes(black_id, bye, games, two)
        if black_id is None:
            if white_id in entries:
                entries[white_id][r] = RoundEntry(None, None, w_code)
            continue
        if white_id not in by_id or black_id not in by_id:
            continue
        wn, bn = by_id[white_id].starting_number, by_id[black_id].starting_number
        entries[white_id][r] = RoundEntry(bn, "w", w_code)
        entries[black_id][r] = RoundEntry(wn, "b", b_code or "*")
        for number, (res, term) in enumerate(games[: 2 if two else 1], start=1):
            gw, gb = (white_id, black_id) if number == 1 else (black_id, white_id)
            if res in GAME_SCORE:
                game_points[gw][r] = game_points[gw].get(r, Fraction(0)) + GAME_SCORE[res][0]
                game_points[gb][r] = game_points[gb].get(r, Fraction(0)) + GAME_SCORE[res][1]
            if term == "time" and res in ("1-0", "0-1"):
                time_losses[gb if res == "1-0" else gw][r] = "time"
    absent = RoundEntry(None, None, "Z")
    players = []
    for e in sorted(entrants, key=lambda e: e.starting_number or 0):
        rounds = [entries[e.pk].get(r, absent) for r in range(1, last_round + 1)]
        players.append(
            Player(
                number=e.starting_number or 0,
                name=e.name,
                rating=e.rating or 0,
                club=e.club,
                rounds=rounds,
                terminations=time_losses[e.pk],
                game_points=game_points[e.pk] if two else None,
            )
        )
    forbidden = []
    for fp in ForbiddenPair.objects.filter(tournament=t).select_related("first", "second"):
        if fp.first.starting_number and fp.second.starting_number:
            forbidden.append((fp.first.starting_number, fp.second.starting_number))
    if t.forbid_same_club:
        by_club: dict[str, list[int]] = {}
        for e in entrants:
            if e.club.strip() and e.starting_number:
                by_club.setdefault(e.club.strip().casefold(), []).append(e.starting_number)
        for numbers in by_club.values():
            forbidden += [(a, b) for i, a in enumerate(numbers) for b in numbers[i + 1 :]]
    return TournamentData(
        name=t.name,
        players=players,
        total_rounds=total_rounds(t, len(players)),
        points=points_system(t),
        forbidden_pairs=forbidden,
    )


def absent_for_round(t: Tournament, entrants: list[Entrant], number: int) -> dict[int, str]:
    """Entrant id → bye code for those not to be paired in round ``number``."""
    out: dict[int, str] = {}
    requested = {
        (rb.entrant_id): rb.kind
        for rb in RequestedBye.objects.filter(entrant__tournament=t, round_number=number)
    }
    for e in entrants:
        if e.withdrawn_after is not None and e.withdrawn_after < number:
            out[e.pk] = "Z"
        elif e.pk in requested:  # a late entry's half-point bye for a round before it joins
            out[e.pk] = requested[e.pk]
        elif e.joined_round > number:
            out[e.pk] = "Z"
    return out
