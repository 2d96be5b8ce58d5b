"""FIDE (Dutch) System, C.04.3 as revised in 2025 (approved 13 April 2024), by weighted
maximum matching — the method of the reference engine bbpPairings 6.0.0, whose results this
implementation reproduces.

How it works. One graph holds every player to be paired; an edge's weight is a long binary
number whose bit fields, from the most significant down, encode the criteria in the order of
Article 2, so that a maximum-weight matching is the best pairing by those criteria taken in
priority order:

====================  =============================================================
field                 criterion
====================  =============================================================
compatibility         C1 (no rematch), C3 (absolute colour preferences), forbidden
                      pairs: no edge at all
completion            C4 (the round can be completed), C2 / C5 (the PAB assignee: an
                      eligible player with the lowest possible score)
pairs in bracket      C6 (as few downfloaters as possible)
scores in bracket     C7 (the scores of the downfloaters as low as possible)
next bracket          C8 (the choice of downfloaters lets the next bracket comply with
                      C6-C7)
PAB unplayed games    C9 (PAB assignee with the fewest unplayed games)
colours               C10-C13 (absolute imbalance, absolute, any, strong preference)
floats                C14-C17 (repeated downfloats / upfloats of 1 and 2 rounds ago)
float scores          C18-C21 (their score differences)
order                 low bits used to walk the generation order of Article 4
====================  =============================================================

The brackets (1.3) are paired one after the other from the top score down (Article 3): the
graph keeps every player, so C4 (completion) is always judged on the whole round, while the
criteria fields are filled in for the pairs of the current bracket only. Within a bracket the
decisions the text takes by the order of candidates (Article 4: which moved-down players are
paired, their opponents, the exchanges between S1 and S2, the transpositions of S2) are made
one at a time, each by a small change of weights and a new matching, and then fixed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import PairingError
from .colours import choose_colour
from .matcher import Matcher, Weight
from .state import BLACK, DOWN, NO_COLOUR, UP, Entrant, Field, invert


@dataclass(frozen=True)
class Board:
    white: int
    black: int | None  # None: the pairing-allocated bye


def _compatible(a: Entrant, b: Entrant, field: Field) -> bool:
    """C1 (no rematch; forbidden pairs as well) and C3: two players with the same absolute
    colour preference do not meet, unless it is the last round and one is a topscorer."""
    if b.number in a.forbidden:
        return False
    return not (
        a.absolute
        and b.absolute
        and a.preference == b.preference
        and not (field.last_round and (field.topscorer(a) or field.topscorer(b)))
    )


def _preferences_compatible(a: int, b: int) -> bool:
    return a != b or a == NO_COLOUR or b == NO_COLOUR


class _Layout:
    """Bit widths of the edge weight's fields (see the module docstring)."""

    def __init__(self, field: Field, players: list[Entrant]) -> None:
        self.field = field
        # Each score group gets a counter wide enough for its size, lower scores lower.
        self.group_shift: dict[int, int] = {}
        self.group_width: dict[int, int] = {}
        shift = 0
        largest = 0
        index = len(players)
        while index > 0:
            score = players[index - 1].score
            start = index
            while start > 0 and players[start - 1].score == score:
                start -= 1
            size = index - start
            self.group_shift[score] = shift
            self.group_width[score] = size.bit_length()
            shift += size.bit_length()
            largest = max(largest, size)
            index = start
        self.groups_bits = shift
        self.size_bits = largest.bit_length()
        played = field.played_rounds
        s, g = self.size_bits, self.groups_bits
        # The fields between the completion field and the ordering field, from the top:
        # (holds a counter per scoregroup, width).
        fields = [(False, s), (True, g), (False, s), (True, g), (False, 2 * s), (False, 4 * s)]
        if played:
            fields += [(False, 2 * s)]
        if played > 1:
            fields += [(False, 2 * s)]
        if played:
            fields += [(True, g), (True, g)]
        if played > 1:
            fields += [(True, g), (True, g)]
        self.fields = fields
        #: The ordering field (Article 4) at the bottom.
        self.order_bits = 3 * s + 1
        self.below_top = sum(width for _, width in fields) + self.order_bits
        self.bits = 2 + self.below_top


class DutchPairer:
    """One round's pairing by the 2025 Dutch rules (see the module docstring)."""

    def __init__(self, field: Field, *, exact: bool = False) -> None:
        """``exact``: the reference engine's procedure alone (one graph of the whole round,
        no windows and no shortcuts): slower, for checking the fast paths."""
        self.field = field
        self.exact = exact
        # 1.2: by score, then pairing number.
        self.players = sorted(field.to_pair, key=lambda e: (-e.score, e.rank))
        self.layout = _Layout(field, self.players)
        self.bye_score = 0
        self.single_downfloater_is_bye = False
        self.unplayed_rank: dict[int, int] = {}
        # A compatible edge's weight depends only on what the criteria read of its two players
        # (their kinds) and on the flags: computed once per combination.
        kinds: dict[tuple[int | bool, ...], int] = {}
        self.kind: dict[int, int] = {}
        for e in self.players:
            key = (
                e.score,
                e.played_games,
                e.preference,
                e.imbalance,
                e.repeated,
                e.strong,
                e.absolute,
                e.absolute_imbalance,
                *e.floats,
            )
            self.kind[e.number] = kinds.setdefault(key, len(kinds))
        self._weights: dict[tuple[int, int, bool, bool, bool, bool, bool], int] = {}

    # --- edge weights ------------------------------------------------------------------------
    def bye_candidate(self, e: Entrant) -> bool:
        return e.bye_eligible and e.score <= self.bye_score

    def weight(
        self,
        higher: Entrant,
        lower: Entrant,
        in_current: bool,
        in_next: bool,
        *,
        single: bool | None = None,
    ) -> int:
        """The base weight of the edge higher-lower (``higher`` precedes ``lower`` in the
        order 1.2); ``in_current``: ``lower`` belongs to the bracket being paired,
        ``in_next``: to the following scoregroup."""
        if not _compatible(higher, lower, self.field):
            return 0
        if single is None:
            single = self.single_downfloater_is_bye
        bye_score = self.bye_score
        key = (
            self.kind[higher.number],
            self.kind[lower.number],
            higher.bye_eligible and higher.score <= bye_score,
            lower.bye_eligible and lower.score <= bye_score,
            in_current,
            in_next,
            single,
        )
        w = self._weights.get(key)
        if w is None:
            w = self._weights[key] = self._weight(higher, lower, in_current, in_next, single)
        return w

    def _weight(
        self, higher: Entrant, lower: Entrant, in_current: bool, in_next: bool, single: bool
    ) -> int:
        """``weight`` for two compatible players."""
        field = self.field
        layout = self.layout
        s, g = layout.size_bits, layout.groups_bits
        shifts = layout.group_shift
        hs, ls = higher.score, lower.score
        # C4, C2, C5: every edge counts; the PAB must go to an eligible player who has the
        # lowest score that still lets the round be completed.
        w = 1 + (not self.bye_candidate(higher)) + (not self.bye_candidate(lower))
        # C6: pairs in the bracket; C7: with the highest scores.
        w = (w << s) | in_current
        w <<= g
        if in_current:
            w |= 1 << shifts[hs]
        # C8: the same in the next bracket.
        w = (w << s) | in_next
        w <<= g
        if in_next:
            w |= 1 << shifts[hs]
        # C9: the PAB assignee with the fewest unplayed games (only where the bracket floats
        # down exactly one player, who gets the bye).
        w <<= 2 * s
        if single:
            if hs == self.bye_score:
                w |= self.unplayed_rank[higher.played_games]
            if ls == self.bye_score:
                w += self.unplayed_rank[lower.played_games]
        # C10-C13: colours (Article 5 decides who gets which afterwards).
        w = self._colour_bits(w, lower, higher, in_current)
        played = field.played_rounds
        down1_l, down2_l = lower.floats[0] == DOWN, lower.floats[1] == DOWN
        down1_h, down2_h = higher.floats[0] == DOWN, higher.floats[1] == DOWN
        up1_l, up2_l = lower.floats[0] == UP, lower.floats[1] == UP
        if played:
            # C14: resident downfloaters who had a downfloat the round before.
            w <<= s
            if in_current:
                w |= down1_l
                w += hs <= ls and down1_h
            # C15: MDP opponents who had an upfloat the round before.
            w <<= s
            if in_current:
                w |= not (hs > ls and up1_l)
        if played > 1:
            # C16, C17: the same two rounds before.
            w <<= s
            if in_current:
                w |= down2_l
                w += hs <= ls and down2_h
            w <<= s
            if in_current:
                w |= not (hs > ls and up2_l)
        if played:
            # C18: the scores of repeated downfloaters; C19: of the opponents of repeated
            # upfloaters (the round before).
            w <<= g
            if in_current:
                w += down1_l << shifts[ls]
                w += down1_h << shifts[hs]
            w <<= g
            if in_current and not (up1_l and hs > ls):
                w |= 1 << shifts[hs]
        if played > 1:
            # C20, C21: the same two rounds before.
            w <<= g
            if in_current:
                w += down2_l << shifts[ls]
                w += down2_h << shifts[hs]
            w <<= g
            if in_current and not (up2_l and hs > ls):
                w |= 1 << shifts[hs]
        # Room for the ordering steps (Article 4).
        return w << (3 * s + 1)

    def _colour_bits(self, w: int, player: Entrant, opponent: Entrant, in_current: bool) -> int:
        s = self.layout.size_bits
        same = player.preference == opponent.preference
        # C10: no absolute colour imbalance (|difference| > 2 afterwards) for topscorers.
        w = (w << s) | (
            in_current
            and (not player.absolute_imbalance or not opponent.absolute_imbalance or not same)
        )
        # C11: no third colour in a row.
        if player.imbalance == opponent.imbalance:
            repeat_ok = player.repeated == NO_COLOUR or player.repeated != opponent.repeated
        else:
            weaker = opponent if player.imbalance > opponent.imbalance else player
            repeat_ok = weaker.repeated != invert(player.preference)
        w = (w << s) | (
            in_current and (not player.absolute or not opponent.absolute or not same or repeat_ok)
        )
        # C12: colour preferences met.
        w = (w << s) | (
            in_current and _preferences_compatible(player.preference, opponent.preference)
        )
        # C13: strong colour preferences met.
        w = (w << s) | (
            in_current
            and (
                (not player.strong and not player.absolute)
                or (not opponent.strong and not opponent.absolute)
                or (player.absolute and opponent.absolute)
                or not same
            )
        )
        return w

    # --- the round ---------------------------------------------------------------------------
    def pair(self) -> list[Board]:
        players = self.players
        n = len(players)
        if n == 0:
            return []
        field = self.field
        self.position = {e.number: i for i, e in enumerate(players)}
        self.classes = [_colour_class(e, field) for e in players]
        top_score = players[0].score
        graph: _Graph | None = None
        self.last_window_weights: dict[tuple[int, int], int] = {}
        if not self.exact and self._first_round_single_group():
            self.bye_score = top_score
        elif self.exact or n < WINDOW_FROM or not self._open_by_certificate():
            graph = self._open_exact()

        partner: dict[int, int] = {}  # position -> position, final pairs
        bracket = [players[i] for i in range(n) if players[i].score >= top_score]
        vertex = list(range(len(bracket)))  # positions in ``players``
        next_start = len(bracket)  # position of the next scoregroup
        matched = [False] * n
        movers = 0  # moved-down players at the head of the bracket
        group_vertex = 0  # position of the bracket's own scoregroup
        previous: dict[tuple[int, int], int] = {}  # the last window's edge weights

        while len(bracket) > 1 or next_start != n:
            residents_end = len(bracket)
            next_group_vertex = group_vertex + (residents_end - movers)
            group_start = next_start
            while next_start < n and players[next_start].score >= players[group_start].score:
                bracket.append(players[next_start])
                vertex.append(vertex[-1] + 1)
                next_start += 1
            size = len(bracket)
            frame = _Frame(
                bracket, vertex, movers, residents_end, size, group_vertex, next_group_vertex
            )
            stable: list[int] | None = None
            if graph is None and movers == 0:
                stable = self._natural(frame, group_start, next_start, matched)
            if (
                stable is None
                and graph is None
                and residents_end % 2 == 0
                and (not n & 1 or (group_start < n and self.bye_score < players[group_start].score))
            ) or (
                stable is None
                and graph is None
                and group_start < n
                and (not n & 1 or self.bye_score < players[group_start].score)
                and self._absorbs_any(frame, group_start, next_start)
            ):
                stable = self._in_window(self._tight(frame), group_start, matched, previous)
            if stable is None:
                base = self._base(frame)
                if graph is None and self._window_allowed(next_start, group_start):
                    stable = self._in_window(frame, next_start, matched, previous, base)
                    if stable is not None:
                        previous = self.last_window_weights
                if stable is None:
                    if graph is None:
                        graph = self._exact(frame, base, previous, next_start)
                    else:
                        for larger in range(movers, size):
                            graph.set_row(vertex[larger], vertex[:larger], base[larger])
                    stable = self._bracket(graph, frame, base, matched)

            # The unpaired players float down to the next bracket.
            next_bracket: list[Entrant] = []
            next_vertex: list[int] = []
            movers = 0
            next_score = players[group_start].score if group_start != n else 0
            single = bool(n & 1) and group_start != n and self.bye_score >= next_score
            for index in range(size):
                pv = vertex[index]
                if index < residents_end and matched[pv]:
                    partner[pv] = stable[pv]
                    partner[stable[pv]] = pv
                else:
                    next_bracket.append(bracket[index])
                    next_vertex.append(pv)
                    if index < residents_end:
                        movers += 1
                    # A partner below the next scoregroup: not a single downfloater (an
                    # unknown partner, UNMATCHED, only where nobody is below, see _natural).
                    mate = stable[pv]
                    if single and mate != UNMATCHED and players[mate].score < next_score:
                        single = False
            self.single_downfloater_is_bye = single
            bracket = next_bracket
            vertex = next_vertex
            group_vertex = next_group_vertex

        boards = []
        for v, p in enumerate(players):
            other = partner.get(v)
            if other is None:
                boards.append(Board(p.number, None))
            elif p.number < players[other].number:
                o = players[other]
                colour = choose_colour(p, o, field)
                boards.append(
                    Board(p.number, o.number) if colour != BLACK else Board(o.number, p.number)
                )
        return _board_order(boards, field)

    def _base(self, frame: _Frame) -> list[list[int]]:
        """The weights of the edges the bracket is paired on (``base[larger][smaller]``,
        bracket indices): each resident and each player of the next scoregroup with every
        player before it."""
        bracket = frame.bracket
        base: list[list[int]] = [[] for _ in range(frame.size)]
        for larger in range(frame.movers, frame.size):
            lp = bracket[larger]
            in_current = larger < frame.residents_end
            row = base[larger]
            for smaller in range(larger):
                row.append(self.weight(bracket[smaller], lp, in_current, not in_current))
        return base

    def _tight(self, frame: _Frame) -> _Frame:
        """The bracket without the next scoregroup."""
        end = frame.residents_end
        return _Frame(
            frame.bracket[:end],
            frame.vertex[:end],
            frame.movers,
            end,
            end,
            frame.group_vertex,
            frame.next_group_vertex,
        )

    def _in_window(
        self,
        frame: _Frame,
        lower_start: int,
        matched: list[bool],
        previous: dict[tuple[int, int], int],
        base: list[list[int]] | None = None,
    ) -> list[int] | None:
        """Pair the bracket in a window (``_window``); ``None`` when the certificate fails
        (nothing is changed then). A window without the next scoregroup (``frame.size ==
        frame.residents_end``) must pair every player of the bracket: only then can the next
        scoregroup (C8) make no difference."""
        if base is None:
            base = self._base(frame)
        vertex = frame.vertex
        flags = [matched[v] for v in vertex]
        window = self._window(frame, base, previous, lower_start)
        assert window.certificate is not None
        if frame.size == frame.residents_end:
            # Without the next scoregroup: every player paired, or (``_absorbs_any``) one.
            window.certificate.max_floaters = frame.residents_end & 1
        try:
            stable = self._bracket(window, frame, base, matched)
        except _NotCertified:
            for v, flag in zip(vertex, flags, strict=True):
                matched[v] = flag
            return None
        self.last_window_weights = window.weights
        return stable

    def _absorbs_any(self, frame: _Frame, group_start: int, next_start: int) -> bool:
        """Whether a bracket with an odd number of players can be paired without the next
        scoregroup. Its matching floats one player down (or more, which the window's
        certificate then refuses). With the next scoregroup in the graph, that player's edge to
        it and the edges inside it carry C8 alone of the criteria below the completion field
        (the colour and float criteria count pairs of the bracket only, C9 only where the PAB
        goes to that score). C8 is the same whoever floats: C6 and C7, above it, fix the one
        downfloater's score, and the next bracket pairs as many as it can when the next
        scoregroup with any one player of the bracket has a Hamiltonian cycle (a pairing of
        all but any one of them). Dirac's condition (every vertex adjacent to at least half of
        the others) proves that; then the bracket alone decides as the larger graph would."""
        players = self.players
        classes = self.classes
        position = self.position
        size = next_start - group_start
        if size < 2:
            return False
        total = size + 1  # the next scoregroup and one player of the bracket
        need = (total + 1) // 2  # Dirac: a degree of at least total / 2
        per_class: dict[int, int] = {}
        for x in range(group_start, next_start):
            c = classes[x]
            if c is not None:
                per_class[c] = per_class.get(c, 0) + 1
        # Degrees inside the next scoregroup, without the bracket's player.
        for x in range(group_start, next_start):
            c = classes[x]
            d = size - 1 - (per_class[c] - 1 if c is not None else 0)
            for number in players[x].forbidden:
                f = position.get(number)
                inside = f is not None and group_start <= f < next_start
                if inside and f is not None and (c is None or classes[f] != c):
                    d -= 1
            if d < need:
                return False
        # Each player of the bracket, to the next scoregroup.
        for index in range(frame.residents_end):
            v = frame.vertex[index]
            c = classes[v]
            d = size - (per_class.get(c, 0) if c is not None else 0)
            for number in players[v].forbidden:
                f = position.get(number)
                inside = f is not None and group_start <= f < next_start
                if inside and f is not None and (c is None or classes[f] != c):
                    d -= 1
            if d < need:
                return False
        return True

    def _natural(
        self, frame: _Frame, group_start: int, next_start: int, matched: list[bool]
    ) -> list[int] | None:
        """A homogeneous bracket whose first candidate (S1[i] against S2[i], 3.3) meets every
        criterion outright — all pairs compatible with all colour preferences met (C10-C13),
        nobody left over, and the players below able to complete the round (the certificate)
        — is paired so at once (3.4: a perfect candidate is accepted); the matching would
        find the same pairs, after a costly search. ``None``: not such a bracket."""
        players = self.players
        n = len(players)
        bracket = frame.bracket
        count = frame.residents_end
        half = count // 2
        # An odd count only in the first round of an odd field: the last player gets the PAB.
        if count & 1 and (
            group_start != n or self.field.played_rounds or not bracket[count - 1].bye_eligible
        ):
            return None
        # Where the next bracket may float exactly the PAB assignee (C9), whether it does
        # depends on the next scoregroup's partners in a best pairing, which this shortcut
        # does not compute: unless nobody is below that scoregroup.
        if n & 1 and next_start < n and self.bye_score >= players[group_start].score:
            return None
        s = self.layout.size_bits
        every_colour_bit = (1 << 3 * s) | (1 << 2 * s) | (1 << s) | 1
        field = self.field
        for i in range(half):
            high, low = bracket[i], bracket[i + half]
            if not _compatible(high, low, field):
                return None
            if self._colour_bits(0, low, high, True) != every_colour_bit:
                return None
        below = n - group_start
        if below:
            degrees = self._degrees(group_start)
            low_degree = min(degrees.values())
            if below & 1:
                if not any(
                    players[x].bye_eligible and players[x].score <= self.bye_score
                    for x in range(group_start, n)
                ):
                    return None
                if low_degree - 1 < (below - 1) / 2:
                    return None
            elif low_degree < below / 2:
                return None
        vertex = frame.vertex
        stable = [UNMATCHED] * n
        for i in range(half):
            a, b = vertex[i], vertex[i + half]
            stable[a], stable[b] = b, a
            matched[a] = matched[b] = True
        return stable

    # --- the opening: C4 and C5 for the whole round --------------------------------------------
    def _open_exact(self) -> _Graph:
        """The reference engine's opening: one graph of every player, a complete pairing of
        it (C4), the lowest score a PAB assignee can have (C5)."""
        players = self.players
        n = len(players)
        field = self.field
        layout = self.layout
        s, g = layout.size_bits, layout.groups_bits
        top_score = players[0].score
        graph = _Graph(self, list(range(n)), strip_top=False)
        odd = n & 1
        for i in range(n):
            p = players[i]
            for j in range(i):
                o = players[j]
                if odd:
                    if _compatible(p, o, field):
                        w = 1 + (not p.bye_eligible) + (not o.bye_eligible)
                        w <<= g
                        w |= layout.group_shift[p.score] + layout.group_shift[o.score]
                        w <<= s
                        w |= p.score >= top_score
                    else:
                        w = 0
                    graph.set(i, j, w)
                else:
                    graph.set(i, j, self.weight(o, p, False, False))
        matching = graph.compute()
        unmatched = [i for i in range(n) if matching[i] == i]
        if len(unmatched) > 1 or any(not players[i].bye_eligible for i in unmatched):
            raise PairingError("pairing.no_legal_pairing")
        if odd:
            self.bye_score = players[unmatched[0]].score
            if self.bye_score >= top_score:
                self.single_downfloater_is_bye = all(
                    players[matching[i]].score >= top_score
                    for i in range(n)
                    if players[i].score >= top_score
                )
            self._rank_unplayed_games()
            for i in range(n):
                p = players[i]
                for j in range(i):
                    graph.set(i, j, self.weight(players[j], p, False, False))
        return graph

    def _first_round_single_group(self) -> bool:
        """Round 1 with everybody on the same score: the bracket is the whole field, paired
        by ``_natural`` when no forbidden pair is in the way."""
        players = self.players
        if self.field.played_rounds or players[0].score != players[-1].score:
            return False
        half = len(players) // 2
        return all(_compatible(players[i], players[i + half], self.field) for i in range(half))

    def _open_by_certificate(self) -> bool:
        """The same facts without a matching of the whole field, where a sufficient condition
        (Dirac: every player compatible with at least half of the others has a complete
        pairing) shows that a complete pairing exists, exposing the lowest eligible player
        when the number is odd. False: use the exact opening."""
        players = self.players
        n = len(players)
        degrees = self._degrees(0)
        low = min(degrees.values(), default=0)
        if n & 1:
            eligible = [i for i in range(n) if players[i].bye_eligible]
            if not eligible:
                return False
            self.bye_score = players[eligible[-1]].score
            if self.bye_score >= players[0].score:
                return False
            if low - 1 < (n - 1) / 2:
                return False
            self._rank_unplayed_games()
            return True
        return low >= n / 2

    def _rank_unplayed_games(self) -> None:
        counts = sorted(
            (e.played_games for e in self.players if e.score == self.bye_score), reverse=True
        )
        self.unplayed_rank = {}
        self._weights.clear()
        for rank, count in enumerate(counts):
            self.unplayed_rank[count] = rank

    def _degrees(self, start: int) -> dict[int, int]:
        """For each position from ``start`` on: the number of players from ``start`` on it
        may meet (C1, C3 and forbidden pairs)."""
        players = self.players
        classes = self.classes
        position = self.position
        count = len(players) - start
        per_class: dict[int, int] = {}
        for x in range(start, len(players)):
            c = classes[x]
            if c is not None:
                per_class[c] = per_class.get(c, 0) + 1
        degrees = {}
        for x in range(start, len(players)):
            c = classes[x]
            d = count - 1 - (per_class[c] - 1 if c is not None else 0)
            for number in players[x].forbidden:
                f = position.get(number)
                if f is not None and f >= start and (c is None or classes[f] != c):
                    d -= 1
            degrees[x] = d
        return degrees

    # --- the graph of a bracket ------------------------------------------------------------------
    def _window_allowed(self, next_start: int, group_start: int) -> bool:
        n = len(self.players)
        if n - next_start < WINDOW_LOWER_MIN:
            return False
        return not (n & 1) or self.bye_score < self.players[group_start].score

    def _window(
        self,
        frame: _Frame,
        base: list[list[int]],
        previous: dict[tuple[int, int], int],
        lower_start: int,
    ) -> _Graph:
        """The bracket and the next scoregroup alone; the players below are represented by
        a certificate that they can absorb the downfloaters (``_certify``)."""
        vertex = frame.vertex
        graph = _Graph(self, list(vertex), strip_top=True)
        for larger in range(frame.size):
            lv = vertex[larger]
            smaller = vertex[:larger]
            if larger >= frame.movers:
                graph.set_row(lv, smaller, base[larger])
            else:
                graph.set_row(lv, smaller, [previous.get((sv, lv), 0) for sv in smaller])
        graph.certificate = _Certificate(self, vertex, lower_start)
        return graph

    def _exact(
        self,
        frame: _Frame,
        base: list[list[int]],
        previous: dict[tuple[int, int], int],
        lower_start: int,
    ) -> _Graph:
        """The reference engine's graph of every player not yet paired, with the weights it
        has at this point, for the rest of the round."""
        players = self.players
        vertex = frame.vertex
        lower = list(range(lower_start, len(players)))
        graph = _Graph(self, list(vertex) + lower, strip_top=False)
        for larger in range(frame.size):
            lv = vertex[larger]
            smaller = vertex[:larger]
            if larger >= frame.movers:
                graph.set_row(lv, smaller, base[larger])
            else:
                graph.set_row(lv, smaller, [previous.get((sv, lv), 0) for sv in smaller])
        members = list(vertex)
        weight = self.weight
        for lv in lower:
            lp = players[lv]
            graph.set_row(
                lv, members, [weight(players[sv], lp, False, False, single=False) for sv in members]
            )
            members.append(lv)
        return graph

    # --- one bracket (Articles 3 and 4) ----------------------------------------------------------
    def _bracket(
        self, graph: _Graph, frame: _Frame, base: list[list[int]], matched: list[bool]
    ) -> list[int]:
        s = self.layout.size_bits
        bracket = frame.bracket
        vertex = frame.vertex
        movers = frame.movers
        residents_end = frame.residents_end
        size = frame.size
        group_vertex = frame.group_vertex
        next_group_vertex = frame.next_group_vertex

        def in_bracket(v: int) -> bool:
            return group_vertex <= v < next_group_vertex

        def modified(smaller: int, larger: int, smaller_pos: int, pairs: int) -> int:
            w = base[larger][smaller]
            if w:
                addend = (1 << 2 * s if smaller_pos < pairs else 0) - smaller_pos
                w += addend << 1
            return w

        if movers == 0 and graph.fresh:
            # A homogeneous bracket on a new graph: the first matching would only say how
            # many pairs the bracket has (C6), and the matching with the exchange weights
            # below says it as well (the exchange weights sit below every criterion).
            remainder: list[int] = list(range(movers, residents_end))
            pairs = (residents_end - movers) // 2
            while True:
                for opp in remainder:
                    ov = vertex[opp]
                    for pos, index in enumerate(remainder):
                        if opp <= index:
                            break
                        graph.set(vertex[index], ov, modified(index, opp, pos, pairs))
                stable = graph.compute()
                found = sum(
                    1
                    for index in remainder
                    if group_vertex <= stable[vertex[index]] < vertex[index]
                )
                if found == pairs:
                    break
                pairs = found
        else:
            stable = graph.compute()

            # Article 4.4: which moved-down players are paired (MDP sets by smallest differing
            # BSN), score by score.
            group_score = 0
            remaining = remaining_matched = 0
            for index in range(movers):
                if index == 0 or bracket[index].score < group_score:
                    group_score = bracket[index].score
                    remaining = remaining_matched = 0
                    k = index
                    while bracket[k].score >= group_score:
                        remaining += 1
                        if in_bracket(stable[vertex[k]]):
                            remaining_matched += 1
                        k += 1
                if not remaining_matched:
                    continue
                pv = vertex[index]
                if remaining <= remaining_matched:
                    matched[pv] = True
                    continue
                remaining -= 1
                if not in_bracket(stable[pv]):
                    for opp in range(movers, residents_end):
                        w = base[opp][index]
                        if w:
                            graph.set(pv, vertex[opp], w | 1)
                    stable = graph.compute()
                if in_bracket(stable[pv]):
                    matched[pv] = True
                    remaining_matched -= 1
                    for opp in range(movers, residents_end):
                        w = base[opp][index]
                        if w:
                            graph.set(pv, vertex[opp], (w | (residents_end - movers)) + 1)

            # The opponents of the moved-down players (the MDP-pairing: 4.2, the transpositions
            # of S2, the highest opponent first).
            for index in range(movers):
                pv = vertex[index]
                if not matched[pv]:
                    continue
                addend = size
                for opp in range(residents_end - 1, movers - 1, -1):
                    ov = vertex[opp]
                    if matched[ov]:
                        continue
                    w = base[opp][index]
                    if w:
                        graph.set(pv, ov, w + addend)
                        addend += 1
                stable = graph.compute()
                mv = stable[pv]
                if mv == UNMATCHED:
                    raise _NotCertified
                matched[mv] = True
                graph.finalize(pv, mv)

            # The remainder: S1 and S2, then the exchanges (4.3).
            remainder = []
            pairs = 0
            for index in range(movers, residents_end):
                pv = vertex[index]
                if stable[pv] < group_vertex:
                    continue
                remainder.append(index)
                if stable[pv] < pv:
                    pairs += 1
            for opp in remainder:
                ov = vertex[opp]
                for pos, index in enumerate(remainder):
                    if opp <= index:
                        break
                    graph.set(vertex[index], ov, modified(index, opp, pos, pairs))
            stable = graph.compute()

        exchanges = 0
        if remainder:
            first_s2 = remainder[pairs] if pairs < len(remainder) else None
            for index in remainder:
                if first_s2 is None or index >= first_s2:
                    break
                pv = vertex[index]
                exchanges += stable[pv] <= pv or stable[pv] >= next_group_vertex

        # 4.3.3: the lowest players of S1 go to S2 where the criteria allow.
        left = exchanges
        pos = pairs
        while pos > 0 and left:
            opp_pos = pos
            pos -= 1
            index = remainder[pos]
            pv = vertex[index]
            if pv < stable[pv] < next_group_vertex:
                for op in range(opp_pos, len(remainder)):
                    w = modified(index, remainder[op], pos, pairs)
                    if w:
                        graph.set(pv, vertex[remainder[op]], w - 1)
                stable = graph.compute()
            exchange = stable[pv] <= pv or stable[pv] >= next_group_vertex
            left -= exchange
            for op in range(pos + 1, len(remainder)):
                if exchange:
                    base[remainder[op]][index] = 0
                graph.set(pv, vertex[remainder[op]], modified(index, remainder[op], pos, pairs))

        # 4.3.4: the highest players of S2 go to S1 where the criteria allow.
        left = exchanges
        position = pairs
        for pos in range(pairs, len(remainder)):
            if left <= 1:
                break
            index = remainder[pos]
            pv = vertex[index]
            already = pv < stable[pv] < next_group_vertex
            if not already:
                for op in range(pos + 1, len(remainder)):
                    w = modified(index, remainder[op], position, pairs)
                    if w:
                        graph.set(pv, vertex[remainder[op]], w + 1)
                stable = graph.compute()
            if pv < stable[pv] < next_group_vertex:
                left -= 1
                for op in range(pos):
                    base[index][remainder[op]] = 0
                    graph.set(pv, vertex[remainder[op]], 0)
                for opp in range(residents_end, size):
                    base[opp][index] = 0
                    graph.set(pv, vertex[opp], 0)
            if not already:
                for op in range(pos + 1, len(remainder)):
                    graph.set(
                        pv, vertex[remainder[op]], modified(index, remainder[op], position, pairs)
                    )
            position += 1

        # S1 and S2 are now fixed: only S1-S2 edges stay. Below every weight, a tie-break
        # for S1[i]-S2[i] (3.3), the pairs 4.2 most often ends with: see the skips below.
        s1 = [i for i in remainder if vertex[i] < stable[vertex[i]] < next_group_vertex]
        s2 = [i for i in remainder if group_vertex <= stable[vertex[i]] < vertex[i]]
        natural = dict(zip(s1, s2, strict=False))
        for pos, index in enumerate(remainder):
            pv = vertex[index]
            in_s1 = pv < stable[pv] < next_group_vertex
            partner = natural.get(index, -1)
            for op in range(pos + 1, len(remainder)):
                opp = remainder[op]
                ov = vertex[opp]
                if not in_s1 or ov < stable[ov] < next_group_vertex:
                    base[opp][index] = 0
                graph.set(pv, ov, base[opp][index], opp == partner)

        # 4.2: each S1 player, from the top, gets the highest S2 player the criteria allow.
        # The weights below raise each candidate edge of the S1 player by a rank; when the
        # current matching is a best one and already pairs the player with its top-ranked
        # candidate, it stays a best one after the raise, and every best matching then gives
        # the player that candidate (the ranks differ, the top one above 0): no new matching
        # is needed. After ``finalize`` the matching stays a best one. (In windows only: on
        # the exact graph the partners of the players left over, which the next bracket reads
        # for C9, stay those of the reference procedure's own sequence of matchings.)
        best = False  # ``stable`` is a best matching of the graph's present weights
        for index in remainder:
            pv = vertex[index]
            if pv < stable[pv] < next_group_vertex:
                if best and graph.strip:
                    top = -1
                    for opp in remainder:
                        if opp <= index or matched[vertex[opp]]:
                            continue
                        if top < 0:
                            if base[opp][index]:
                                top = opp
                        else:
                            if stable[pv] == vertex[top]:
                                mv = vertex[top]
                                matched[pv] = matched[mv] = True
                                graph.finalize(pv, mv)
                                top = -2
                            break
                    if top == -2:
                        continue
                addend = 0
                for opp in reversed(remainder):
                    ov = vertex[opp]
                    if opp <= index or matched[ov]:
                        continue
                    w = base[opp][index]
                    if w:
                        graph.set(pv, ov, w + addend)
                    addend += 1
                stable = graph.compute()
                best = True
                mv = stable[pv]
                if mv == UNMATCHED:
                    raise _NotCertified
                matched[pv] = True
                matched[mv] = True
                graph.finalize(pv, mv)
        return stable


@dataclass
class _Frame:
    """A bracket and the next scoregroup: players, their positions, and where each part
    starts (moved-down players, residents, the next scoregroup)."""

    bracket: list[Entrant]
    vertex: list[int]
    movers: int
    residents_end: int
    size: int
    group_vertex: int
    next_group_vertex: int


class _NotCertified(Exception):
    """The players below a bracket may not absorb its downfloaters: pair it exactly."""


UNMATCHED = 1 << 62  # in a window: matched below the window (or the PAB)
#: From this many players on, brackets are paired in windows (see ``_Certificate``).
WINDOW_FROM = 80
#: A window needs at least this many players below it.
WINDOW_LOWER_MIN = 8


def _colour_class(e: Entrant, field: Field) -> int | None:
    """Players of one class may not meet (C3): the same absolute colour preference, no
    topscorer exemption."""
    if e.absolute and not (field.last_round and field.topscorer(e)):
        return e.preference
    return None


class _Graph:
    """A matching graph over some positions of the sorted players (the compiled matcher
    numbers its vertices from 0). ``strip_top``: a window, whose weights leave out the
    completion field (the certificate stands for it) and whose unpaired players are reported
    as ``UNMATCHED``.

    A window's weights are also packed (``_Packing``): the scoregroup counters of the players
    outside the window are zero on every edge in it, so they are left out — about half the
    bits at 1,000 players, and the compiled matcher's time grows with the number of 32-bit
    words of a weight."""

    def __init__(self, pairer: DutchPairer, positions: list[int], *, strip_top: bool) -> None:
        layout = pairer.layout
        self.positions = positions
        self.local = {p: i for i, p in enumerate(positions)}
        self.strip = strip_top
        self.packing: _Packing | None = None
        self.mask = (1 << layout.below_top) - 1
        bits = layout.below_top if strip_top else layout.bits
        if strip_top and layout.size_bits >= _Packing.MIN_SIZE_BITS:
            scores = {pairer.players[p].score for p in positions}
            self.packing = _Packing(layout, scores)
            bits = self.packing.bits
        # Windows only: the exact graph stays the reference procedure, tie for tie.
        self.tie_bits = len(positions).bit_length() if strip_top else 0
        self.matcher = Matcher(len(positions), bits + self.tie_bits)
        self._set_edge = self.matcher.computer.set_edge_weight
        self._converted: dict[int, Weight] = {}
        self._tied: dict[int, Weight] = {}
        self.weights: dict[tuple[int, int], int] = {}
        self.size = len(pairer.players)
        self.certificate: _Certificate | None = None
        self.fresh = True  # no matching computed yet

    def _convert(self, weight: int, tie: bool = False) -> Weight:
        """The matcher's number for a weight (memoized: a few hundred distinct weights recur
        over thousands of edges)."""
        packed = weight
        if self.packing is not None:
            packed = self.packing.pack(weight)
        elif self.strip:
            packed &= self.mask
        packed <<= self.tie_bits
        if tie and packed and self.tie_bits:
            packed |= 1
        converted = self.matcher.dyn(packed)
        cache = self._tied if tie else self._converted
        if len(cache) > 200_000:
            cache.clear()
        cache[weight] = converted
        return converted

    def set(self, u: int, v: int, weight: int, tie: bool = False) -> None:
        """The weight of u-v (positions); ``u`` is the vertex the next matching revisits.
        ``tie``: the edge is preferred among otherwise equal matchings (one tie bit under
        every weight; a matching has fewer such edges than the tie field can count; windows
        only)."""
        self.weights[(u, v) if u < v else (v, u)] = weight
        converted = (self._tied if tie else self._converted).get(weight)
        if converted is None:
            converted = self._convert(weight, tie)
        local = self.local
        self._set_edge(local[u], local[v], converted)

    def set_row(self, u: int, others: list[int], weights: Iterable[int]) -> None:
        """``set(u, v, w)`` for every v of ``others`` with its w of ``weights``."""
        store = self.weights
        cache = self._converted
        set_edge = self._set_edge
        local = self.local
        lu = local[u]
        for v, weight in zip(others, weights, strict=True):
            store[(u, v) if u < v else (v, u)] = weight
            converted = cache.get(weight)
            if converted is None:
                converted = self._convert(weight)
            set_edge(lu, local[v], converted)

    def compute(self) -> list[int]:
        self.fresh = False
        matching = self.matcher.compute()
        positions = self.positions
        stable = [UNMATCHED] * self.size
        if self.strip:
            for i, j in enumerate(matching):
                if i != j:
                    stable[positions[i]] = positions[j]
            if self.certificate is not None:
                self.certificate.check(stable)
        else:
            for i, j in enumerate(matching):
                stable[positions[i]] = positions[j]
        return stable

    def finalize(self, u: int, v: int) -> None:
        self.matcher.finalize(self.local[u], self.local[v])


class _Packing:
    """A window's weights without the completion field and without the scoregroup counters
    of the scores not in the window.

    A weight is ``high * 2**order_bits + low``: ``high`` holds the criteria fields, ``low``
    the ordering steps of Article 4, which may be negative (a step subtracts from a weight
    whose ordering field is zero) but stays within ``(-2**(s+2), 2**order_bits - 2**(s+2))``
    (``s`` the size bits, at least ``MIN_SIZE_BITS``).
    Packing keeps ``low`` and packs ``high``: as every field's sum over a matching fits its
    width, a matching's weight compares as the vector of its field sums, from the top, and
    leaving out fields that are zero on every edge keeps that comparison."""

    #: Below this, the ordering field is too narrow to tell ``low`` from ``high`` safely.
    MIN_SIZE_BITS = 3

    def __init__(self, layout: _Layout, scores: set[int]) -> None:
        order = layout.order_bits
        self.order = order
        self.offset = 1 << (layout.size_bits + 2)
        self.high_mask = (1 << (layout.below_top - order)) - 1  # no completion field
        # Kept bit ranges of ``high`` (source shift, width), from the bottom.
        kept: list[tuple[int, int]] = []
        at = 0
        for is_groups, width in reversed(layout.fields):
            if is_groups:
                for score, shift in sorted(layout.group_shift.items(), key=lambda x: x[1]):
                    if score in scores:
                        kept.append((at + shift, layout.group_width[score]))
            else:
                kept.append((at, width))
            at += width
        merged: list[tuple[int, int]] = []
        for source, width in kept:
            if width and merged and merged[-1][0] + merged[-1][1] == source:
                merged[-1] = (merged[-1][0], merged[-1][1] + width)
            elif width:
                merged.append((source, width))
        self.ranges: list[tuple[int, int, int]] = []  # (source shift, mask, target shift)
        target = 0
        kept_mask = 0
        for source, width in merged:
            mask = (1 << width) - 1
            self.ranges.append((source, mask, target))
            kept_mask |= mask << source
            target += width
        self.dropped = self.high_mask & ~kept_mask
        self.bits = target + order
        self._packed: dict[int, int] = {0: 0}

    def pack(self, weight: int) -> int:
        packed = self._packed.get(weight)
        if packed is not None:
            return packed
        order = self.order
        high = (weight + self.offset) >> order
        low = weight - (high << order)
        high &= self.high_mask
        if high & self.dropped:  # pragma: no cover - a field outside the window is never set
            raise AssertionError("a scoregroup counter outside the window")
        packed_high = 0
        for source, mask, target in self.ranges:
            packed_high |= ((high >> source) & mask) << target
        packed = (packed_high << order) + low
        if len(self._packed) > 200_000:
            self._packed.clear()
        self._packed[weight] = packed
        return packed


class _Certificate:
    """Whether the players below a window can absorb its downfloaters: Dirac's condition
    (every vertex adjacent to at least half of the others) on the players below plus the
    downfloaters, which is enough for a complete pairing of them (C4; with an odd number,
    leaving out one PAB candidate, all of whom are below). When it holds, the window's best
    pairing is the reference engine's best pairing of the whole round; when it does not, the
    bracket is paired on the exact graph."""

    def __init__(self, pairer: DutchPairer, window: list[int], lower_start: int) -> None:
        players = pairer.players
        classes = pairer.classes
        position = pairer.position
        self.window = window
        self.classes = classes
        self.max_floaters: int | None = None
        self.lower = len(players) - lower_start
        self.per_class: dict[int | None, int] = {}
        for x in range(lower_start, len(players)):
            c = classes[x]
            if c is not None:
                self.per_class[c] = self.per_class.get(c, 0) + 1
        self.degree = pairer._degrees(lower_start)
        self.lowest: dict[int | None, int] = {}
        for x, d in self.degree.items():
            c = classes[x]
            if d < self.lowest.get(c, 1 << 30):
                self.lowest[c] = d
        self.window_degree: dict[int, int] = {}
        self.window_forbidden: dict[int, list[int]] = {}
        for u in window:
            c = classes[u]
            d = self.lower - (self.per_class.get(c, 0) if c is not None else 0)
            below = []
            for number in players[u].forbidden:
                f = position.get(number)
                if f is not None and f >= lower_start and (c is None or classes[f] != c):
                    below.append(f)
            self.window_degree[u] = d - len(below)
            self.window_forbidden[u] = below

    def check(self, stable: list[int]) -> None:
        classes = self.classes
        floaters = [u for u in self.window if stable[u] == UNMATCHED]
        if self.max_floaters is not None and len(floaters) > self.max_floaters:
            raise _NotCertified
        total = self.lower + len(floaters)
        extra = len(floaters)
        per_class: dict[int | None, int] = {}
        low = 1 << 30
        for u in floaters:
            c = classes[u]
            per_class[c] = per_class.get(c, 0) + 1
            low = min(low, self.window_degree[u])
        for c, d in self.lowest.items():
            low = min(low, d + extra - (per_class.get(c, 0) if c is not None else 0))
        hits: dict[int, int] = {}
        for u in floaters:
            for x in self.window_forbidden[u]:
                hits[x] = hits.get(x, 0) + 1
        for x, k in hits.items():
            c = classes[x]
            low = min(
                low,
                self.degree[x] + extra - (per_class.get(c, 0) if c is not None else 0) - k,
            )
        ok = low - 1 >= (total - 1) / 2 if total & 1 else low >= total / 2
        if not ok:
            raise _NotCertified


def _board_order(boards: list[Board], field: Field) -> list[Board]:
    """C.04.2: boards by the higher player's score, the sum of scores, then the higher
    player's pairing number; the bye last."""
    entrants = field.entrants

    def key(board: Board) -> tuple[int, int, int, int]:
        if board.black is None:
            return (1, 0, 0, 0)
        a, b = entrants[board.white], entrants[board.black]
        high, low = (a, b) if (a.plain_score, -a.rank) > (b.plain_score, -b.rank) else (b, a)
        return (0, -high.plain_score, -low.plain_score, high.rank)

    return sorted(boards, key=key)
