"""FIDE TRF-2016 with the javafo/bbpPairings extensions (XXR rounds, XXC initial colour, XXP
forbidden pairs, XXS points): read into plain data and write back.

Reading goes through py4swiss's line classes (the same reading its pairing engine uses), line
by line, so that a broken line is reported with its number."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from py4swiss.trf.codes import PlayerCode, TeamCode, TournamentCode, XCode
from py4swiss.trf.exceptions import ConsistencyError, LineError, ParsingError
from py4swiss.trf.parsed_trf import ParsedTrf
from py4swiss.trf.sections import PlayerSection, TeamSection, TournamentSection, XSection
from py4swiss.trf.trf_line import TrfLine

from .errors import PairingError
from .model import Player, PointSystem, RoundEntry, TournamentData

_FRACTION_OF_TENTHS = Fraction(1, 10)


def parse_trf_text(text: str) -> ParsedTrf:
    """Parse and check a TRF; raise PairingError naming the line of the first problem."""
    by_code: dict[type, list[TrfLine]] = defaultdict(list)
    player_lines: list[tuple[int, TrfLine]] = []
    for index, raw in enumerate(text.splitlines()):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            line = TrfLine(index, stripped)
        except ParsingError as exc:
            if stripped[:3].isdigit() and stripped[:3] != "001":
                continue  # a tournament code this reader does not know: not needed
            raise PairingError(
                exc.message if hasattr(exc, "message") else str(exc), line=index + 1
            ) from None
        by_code[line.code_type].append(line)
        if line.code_type is PlayerCode:
            player_lines.append((index + 1, line))
    players = []
    for number, line in player_lines:
        try:
            players.append(PlayerSection.from_string(str(line)))
        except LineError as exc:
            raise PairingError(
                f"{exc.message} (column {exc.column})" if exc.column else exc.message, line=number
            ) from None
    try:
        teams = [TeamSection.from_string(str(line)) for line in by_code[TeamCode]]
        tournament = TournamentSection.from_lines(by_code[TournamentCode])
        x_section = XSection.from_lines(by_code[XCode])
    except ParsingError as exc:
        raise PairingError(_message(exc), line=exc.row) from None
    except LineError as exc:
        raise PairingError(exc.message) from None
    try:
        trf = ParsedTrf(
            player_sections=players,
            team_sections=teams,
            tournament_section=tournament,
            x_section=x_section,
        )
        trf.validate_contents()
    except ConsistencyError as exc:
        raise PairingError(str(exc)) from None
    return trf


def _message(exc: ParsingError) -> str:
    return getattr(exc, "message", None) or str(exc)


def read_trf(text: str) -> TournamentData:
    """A TRF as plain tournament data."""
    trf = parse_trf_text(text)
    scoring = trf.x_section.scoring_point_system.score_dict
    from py4swiss.trf.results import ColorToken, ResultToken

    def pts(token: ResultToken, colour: ColorToken) -> Fraction:
        return Fraction(scoring[(token, colour)], 10)

    w, bye_c = ColorToken.WHITE, ColorToken.BYE_OR_NOT_PAIRED
    system = PointSystem(
        win=pts(ResultToken.WIN, w),
        draw=pts(ResultToken.DRAW, w),
        loss=pts(ResultToken.LOSS, w),
        bye=pts(ResultToken.PAIRING_ALLOCATED_BYE, bye_c),
        full_bye=pts(ResultToken.FULL_POINT_BYE, bye_c),
        half_bye=pts(ResultToken.HALF_POINT_BYE, bye_c),
        forfeit_win=pts(ResultToken.FORFEIT_WIN, w),
        forfeit_loss=pts(ResultToken.FORFEIT_LOSS, w),
    )
    players = []
    for section in sorted(trf.player_sections, key=lambda s: s.starting_number):
        rounds = []
        for r in section.results:
            colour = r.color.value if r.color.value in ("w", "b") else None
            opponent = r.id or None
            rounds.append(RoundEntry(opponent=opponent, colour=colour, code=r.result.value))  # type: ignore[arg-type]
        players.append(
            Player(
                number=section.starting_number,
                name=section.name or f"#{section.starting_number}",
                rating=section.fide_rating or 0,
                rounds=rounds,
            )
        )
    configuration = trf.x_section.configuration
    first = getattr(configuration, "first_round_color", None)
    initial = (
        "b" if first is not None and "black" in str(getattr(first, "value", first)).lower() else "w"
    )
    name = getattr(trf.tournament_section, "name", None) or ""
    return TournamentData(
        name=name,
        players=players,
        total_rounds=trf.x_section.number_of_rounds,
        initial_colour=initial,  # type: ignore[arg-type]
        points=system,
        forbidden_pairs=sorted(trf.x_section.forbidden_pairs),
    )


def _points_text(value: Fraction) -> str:
    return f"{float(value):4.1f}"


def player_line(player: Player, points: Fraction, rank: int) -> str:
    name = player.name[:33]
    rating = f"{min(max(player.rating, 0), 9999):>4}" if player.rating > 0 else "    "
    head = (
        f"001 {player.number:>4}      {name:<33} {rating}"
        f" {'':3} {'':11} {'':10} {_points_text(points)} {rank:>4}"
    )
    rounds = []
    for r in player.rounds:
        if r.code == "*":
            continue
        opponent = f"{r.opponent:>4}" if r.opponent else "0000"
        rounds.append(f"  {opponent} {r.colour or '-'} {r.code}")
    return head + "".join(rounds)


def write_trf(data: TournamentData, *, upto: int | None = None) -> str:
    """The TRF of the tournament after round ``upto`` (default: every round entered)."""
    lines = [f"012 {data.name}"[:200]]
    points = {p.number: p.points(data.points, upto) for p in data.players}
    order = sorted(data.players, key=lambda p: (-points[p.number], p.number))
    ranks = {p.number: i + 1 for i, p in enumerate(order)}
    for p in sorted(data.players, key=lambda p: p.number):
        shown = p if upto is None else Player(p.number, p.name, p.rating, p.club, p.rounds[:upto])
        lines.append(player_line(shown, points[p.number], ranks[p.number]))
    lines.append(f"XXR {data.total_rounds}")
    lines.append(f"XXC {'white1' if data.initial_colour == 'w' else 'black1'}")
    for a, b in data.forbidden_pairs:
        lines.append(f"XXP {a} {b}")
    default = PointSystem()
    if data.points != default:
        s = data.points
        lines.append(
            "XXS "
            + " ".join(
                f"{code}={float(value):.1f}"
                for code, value in (
                    ("WW", s.win),
                    ("BW", s.win),
                    ("WD", s.draw),
                    ("BD", s.draw),
                    ("WL", s.loss),
                    ("BL", s.loss),
                    ("ZPB", Fraction(0)),
                    ("HPB", s.half_bye),
                    ("FPB", s.full_bye),
                    ("PAB", s.bye),
                    ("FW", s.forfeit_win),
                    ("FL", s.forfeit_loss),
                )
            )
        )
    return "\n".join(lines) + "\n"
