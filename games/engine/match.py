"""Matches between players, colours alternating (the strength check of docs/analysis.md)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .core import BLACK, WHITE, SideName
from .game import Game
from .players import Player


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game of a match: the colour the first player had and how the game ended."""

    number: int
    colour: SideName
    result: str
    termination: str
    plies: int

    @property
    def points(self) -> float:
        """The first player's points: win 1, draw ½, loss 0."""
        if self.result == "1/2-1/2":
            return 0.5
        won = (self.result == "1-0") == (self.colour == WHITE)
        return 1.0 if won else 0.0


@dataclass(slots=True)
class MatchResult:
    player: str
    opponent: str
    games: list[GameResult] = field(default_factory=list)

    @property
    def points(self) -> float:
        return sum(g.points for g in self.games)

    @property
    def score(self) -> float:
        """The first player's share of the points (0 to 1)."""
        return self.points / len(self.games) if self.games else 0.0

    def count(self, points: float) -> int:
        return sum(1 for g in self.games if g.points == points)

    def summary(self) -> dict[str, object]:
        by_colour = {}
        for colour in (WHITE, BLACK):
            games = [g for g in self.games if g.colour == colour]
            by_colour[colour] = sum(g.points for g in games) / len(games) if games else None
        terminations: dict[str, int] = {}
        for g in self.games:
            terminations[g.termination] = terminations.get(g.termination, 0) + 1
        return {
            "player": self.player,
            "opponent": self.opponent,
            "games": len(self.games),
            "wins": self.count(1.0),
            "draws": self.count(0.5),
            "losses": self.count(0.0),
            "score": round(self.score, 4),
            "score_as_white": by_colour[WHITE],
            "score_as_black": by_colour[BLACK],
            "terminations": dict(sorted(terminations.items())),
            "mean_plies": round(sum(g.plies for g in self.games) / len(self.games), 1)
            if self.games
            else None,
        }


def play_game(white: Player, black: Player) -> Game:
    """Play one game from the start position to its end (home, blocked or cards)."""
    white.new_game()
    black.new_game()
    game = Game()
    while game.outcome is None:
        player = white if game.state.to_move == WHITE else black
        game.play(player.choose(game.state).text)
    return game


def play_match(
    player: Player,
    opponent: Player,
    games: int,
    *,
    on_game: Callable[[GameResult, Game], None] | None = None,
) -> MatchResult:
    """``games`` games, ``player`` White in the odd-numbered games (1, 3, …) and Black in
    the others."""
    match = MatchResult(player=player.name, opponent=opponent.name)
    for number in range(1, games + 1):
        colour: SideName = WHITE if number % 2 == 1 else BLACK
        white, black = (player, opponent) if colour == WHITE else (opponent, player)
        game = play_game(white, black)
        assert game.termination is not None
        result = GameResult(number, colour, game.result, game.termination, game.ply)
        match.games.append(result)
        if on_game is not None:
            on_game(result, game)
    return match
