"""The search: the best play for the side to move, its value, and whether it is proven.

Modern Nardy has no dice and no hidden cards, so it is a finite deterministic two-player game
and every position has an exact value: a win, a draw or a loss with best play. The search is
an iterative-deepening negamax alpha-beta search over packed nodes
(:mod:`games.engine.packed`) with a transposition table and move ordering; at its horizon it
uses the static evaluation (:mod:`games.engine.evaluate`), and where the armies have parted
for good the race solver (:mod:`games.engine.race`) gives the exact result.

**Proofs.** Beside its heuristic score every searched node carries an interval ``[lo, hi]``
of outcomes (−1 loss, 0 draw, 1 win for the side to move) that its true value is *known* to
lie in. Only the ends of the game narrow it: a home win (§5), a side blocked at the start of
its turn (§4), the draw once ply 72 is played (§6), and the race solver's exact results; a
horizon node knows ``[−1, 1]``. A node's ``lo`` is the best ``−hi`` of the children searched
(the mover can choose that child) and its ``hi`` the best ``−lo`` over *all* its children, so
a node cut off before all its children were searched knows no upper bound. These intervals
never depend on the evaluation or on the alpha-beta window, only on game ends, so they are
true whatever the depth; they are kept in the transposition table and only ever narrowed. A
value is **proven** when its interval is a single point. Heuristic scores are kept inside
the known interval and strictly inside ``(−WIN_MIN, WIN_MIN)``.

Scores are integers from the mover's view: a proven win is ``WIN − d``, a proven loss
``−WIN + d`` (``d`` the plies to the end along the line found, so quicker wins and slower
losses are preferred), a proven draw 0.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .core import BLACK, CARD_INDEX, CARDS, CHECKERS, GAME_PLIES, WHITE, State, hand_cards
from .evaluate import evaluate, race_score, value_of
from .moves import Play, after, legal_plays
from .packed import (
    Child,
    Generator,
    Node,
    cards_of,
    child_node,
    node_of,
    pack_board,
)
from .race import RaceSolver, in_contact

WIN = 1_000_000
#: Scores at or beyond this are proven results; heuristic scores stay below it.
WIN_MIN = WIN - 1000
_HEURISTIC_CAP = WIN_MIN - 1
INF = WIN + 1
#: The exact solver is tried first when this few plies are left (or in a race).
SOLVE_PLIES = 12
#: Work the race solver may spend on each play at the root, and at a horizon node (plays
#: generated; elsewhere its default).
ROOT_RACE_BUDGET = 60_000
LEAF_RACE_BUDGET = 1500


def solve_share(left: int) -> float:
    """Share of the budget the exact solver may use before the heuristic search takes
    over: most of it near the end, where a proof is within reach and worth most."""
    return 0.8 if left <= 8 else 0.5


#: Score for the number of distinct playable cards in hand (0, 1, 2, 3 or more): a side
#: with few playable cards is close to being blocked, which loses at once (§4).
_MOBILITY: tuple[int, ...] = (-2500, -1500, -400, 0)

_EXACT, _LOWER, _UPPER = 0, 1, 2
_NO_DEPTH = -1


class Entry:
    """What the table knows of a node: the proven interval ``[lo, hi]`` (always true), the
    heuristic score of a search ``depth`` plies deep with its bound type ``flag``, the best
    child found (an index into the generated children) and, for interior nodes, the
    children themselves."""

    __slots__ = ("lo", "hi", "depth", "score", "flag", "best", "children")

    def __init__(
        self,
        lo: int,
        hi: int,
        depth: int,
        score: int,
        flag: int,
        best: int,
        children: list[Child] | None,
    ) -> None:
        self.lo = lo
        self.hi = hi
        self.depth = depth
        self.score = score
        self.flag = flag
        self.best = best
        self.children = children


class _NoRace:
    def solve(self, node: Node, budget: int | None = None) -> None:
        return None


class Timeout(Exception):
    """The time or node budget of a search ran out."""


def outcome_score(outcome: int, distance: int) -> int:
    if outcome > 0:
        return WIN - distance
    if outcome < 0:
        return -WIN + distance
    return 0


def _clamp(score: int, lo: int, hi: int) -> int:
    """Keep a heuristic score inside what is proven."""
    if hi <= 0 and score > 0:
        return 0
    if lo >= 0 and score < 0:
        return 0
    return score


def _back(score: int) -> int:
    """A child's score seen from its parent: negated, a proven result one ply further."""
    score = -score
    if score > WIN_MIN:
        return score - 1
    if score < -WIN_MIN:
        return score + 1
    return score


@dataclass(slots=True)
class RootMove:
    """What the search learnt about one play at the root, from the mover's view."""

    play: Play
    node: Node
    won: bool
    score: int | None = None
    lo: int = -1
    hi: int = 1

    @property
    def proven(self) -> bool:
        return self.lo == self.hi


@dataclass(slots=True)
class SearchResult:
    """The outcome of a search of one position (values from the mover's view)."""

    best: Play
    score: int
    lo: int
    hi: int
    nodes: int
    depth: int
    moves: list[RootMove] = field(default_factory=list)

    @property
    def proven(self) -> bool:
        return self.lo == self.hi

    @property
    def value(self) -> float:
        return score_value(self.score, self.lo, self.hi)


def score_value(score: int, lo: int, hi: int) -> float:
    """A score as a value in [−1, 1]: exactly −1, 0 or 1 when proven, inside (−1, 1) else."""
    if lo == hi:
        return float(lo)
    return value_of(score)


class Searcher:
    """A search with its transposition table; keep one for the positions of one game so
    that what was learnt for one position serves the next."""

    def __init__(
        self, *, table_limit: int = 400_000, race: bool = True, solver: bool = True
    ) -> None:
        self.table: dict[Node, Entry] = {}
        self.table_limit = table_limit
        self.race: RaceSolver | _NoRace = RaceSolver(check=self._tick) if race else _NoRace()
        self.use_solver = solver
        self.nodes = 0
        self._deadline = float("inf")
        self._node_limit = 1 << 62

    # --- shared helpers ------------------------------------------------------------------
    def _tick(self) -> None:
        if self.nodes >= self._node_limit or time.perf_counter() > self._deadline:
            raise Timeout

    def _last_turn(self, node: Node) -> int:
        """The exact value of a node at ply 71: the mover's last card decides only whether
        it gets home (win), is blocked (loss) or not (draw, the cards run out)."""
        gen = Generator(node[0], node[1])
        cards = cards_of(node[2])
        if gen.home >= 13:
            children = gen.children(cards)
            if not children:
                return -1
            return 1 if any(c[3] for c in children) else 0
        return 0 if gen.any_playable(cards) else -1

    def _prove(
        self, node: Node, lo: int, hi: int, best: int = -1, children: list[Child] | None = None
    ) -> Entry:
        """Record proven bounds of a node (merged with what the table knew)."""
        table = self.table
        entry = table.get(node)
        if entry is None:
            if len(table) >= self.table_limit:
                table.clear()
            entry = Entry(lo, hi, _NO_DEPTH, 0, _EXACT, best, children)
            table[node] = entry
        else:
            if entry.lo == entry.hi:
                return entry  # already settled, with the distance it was found at
            if lo > entry.lo:
                entry.lo = lo
            if hi < entry.hi:
                entry.hi = hi
            if best >= 0:
                entry.best = best
            if children is not None and entry.children is None:
                entry.children = children
        if entry.lo == entry.hi:
            # Settled now; the distance is not known here: at most the plies left.
            entry.score = outcome_score(entry.lo, GAME_PLIES - node[6])
            entry.depth = 99
            entry.flag = _EXACT
        return entry

    def _exact(self, node: Node, outcome: int, distance: int) -> int:
        """Record an exact result found at the node itself; its score."""
        entry = self._prove(node, outcome, outcome)
        entry.score = outcome_score(outcome, distance)
        return entry.score

    def _children(self, node: Node) -> list[Child]:
        return Generator(node[0], node[1]).children(cards_of(node[2]))

    # --- the heuristic search ------------------------------------------------------------
    def _leaf(self, node: Node) -> tuple[int, int, int]:
        """A horizon node: the game ends that need no look ahead (blocked now, a win now,
        a solved race), else the evaluation with both sides' playable cards."""
        exact = self.race.solve(node, budget=LEAF_RACE_BUDGET)
        if exact is not None:
            outcome, distance = exact
            return self._exact(node, outcome, distance), outcome, outcome
        mine, theirs, hm, ht = node[0], node[1], node[2], node[3]
        gen = Generator(mine, theirs)
        playable = gen.count_playable(cards_of(hm))
        if not playable:
            return self._exact(node, -1, 0), -1, -1  # blocked at the start of the turn (§4)
        if gen.home >= CHECKERS - 2 and any(c[3] for c in gen.children(cards_of(hm))):
            return self._exact(node, 1, 1), 1, 1  # a play brings the last checker home (§5)
        # The other side's cards on this board (it moves after the mover's play).
        their_playable = Generator(theirs, mine).count_playable(cards_of(ht)) if ht else 9
        score = evaluate(*node) + _MOBILITY[min(playable, 3)] - _MOBILITY[min(their_playable, 3)]
        if score > _HEURISTIC_CAP:
            score = _HEURISTIC_CAP
        elif score < -_HEURISTIC_CAP:
            score = -_HEURISTIC_CAP
        return score, -1, 1

    def negamax(self, node: Node, depth: int, alpha: int, beta: int) -> tuple[int, int, int]:
        """(score, lo, hi) of ``node`` searched ``depth`` plies deep (fail-soft)."""
        self.nodes += 1
        if not self.nodes & 31:
            self._tick()
        ply = node[6]
        if ply >= GAME_PLIES:
            return 0, 0, 0  # the cards have run out: a draw (§6)
        if ply == GAME_PLIES - 1:
            v = self._last_turn(node)
            return outcome_score(v, 1 if v >= 0 else 0), v, v
        left = GAME_PLIES - ply
        if depth > left:
            depth = left
        entry = self.table.get(node)
        lo_known, hi_known = -1, 1
        children: list[Child] | None = None
        best_first = -1
        if entry is not None:
            lo_known = entry.lo
            hi_known = entry.hi
            if lo_known == hi_known:
                return entry.score, lo_known, hi_known
            if entry.depth >= depth:
                flag = entry.flag
                score_e = entry.score
                if (
                    flag == _EXACT
                    or (flag == _LOWER and score_e >= beta)
                    or (flag == _UPPER and score_e <= alpha)
                ):
                    return _clamp(score_e, lo_known, hi_known), lo_known, hi_known
            children = entry.children
            best_first = entry.best

        if depth <= 0:
            score, lo, hi = self._leaf(node)
            lo = max(lo, lo_known)
            hi = min(hi, hi_known)
            return _clamp(score, lo, hi), lo, hi

        if children is None:
            exact = self.race.solve(node)
            if exact is not None:
                outcome, distance = exact
                return self._exact(node, outcome, distance), outcome, outcome
            children = self._children(node)
        if not children:
            # No playable card at the start of the turn: blocked, a loss (§4).
            return self._exact(node, -1, 0), -1, -1
        for child in children:
            if child[3]:
                # A play brings the last checker home: a win (§5).
                return self._exact(node, 1, 1), 1, 1

        order = self._order(node, children, depth, best_first)
        alpha_orig = alpha
        best_score = -INF
        best_idx = order[0]
        lo = -1
        hi = -1
        searched = 0
        for idx in order:
            ci, m, t, _ = children[idx]
            s, clo, chi = self.negamax(child_node(node, ci, m, t), depth - 1, -beta, -alpha)
            s = _back(s)
            searched += 1
            if -chi > lo:
                lo = -chi
            if -clo > hi:
                hi = -clo
            if s > best_score:
                best_score = s
                best_idx = idx
                if s > alpha:
                    alpha = s
                    if alpha >= beta:
                        break
        if searched < len(children):
            hi = 1
        lo = max(lo, lo_known)
        hi = min(hi, hi_known)
        best_score = 0 if lo == hi == 0 else _clamp(best_score, lo, hi)
        if best_score <= alpha_orig:
            flag = _UPPER
        elif best_score >= beta:
            flag = _LOWER
        else:
            flag = _EXACT
        entry = self._prove(node, lo, hi, best_idx, children if depth >= 2 else None)
        if entry.lo != entry.hi and depth >= entry.depth:
            entry.depth = depth
            entry.score = best_score
            entry.flag = flag
        elif entry.lo == entry.hi and lo == hi:
            entry.score = best_score
        return best_score, lo, hi

    def _order(self, node: Node, children: list[Child], depth: int, best_first: int) -> list[int]:
        """Children to search first: the table's best, then by the static evaluation of the
        position after the play (from the opponent's view, lowest first)."""
        n = len(children)
        if depth < 2:
            order = list(range(n))
        else:
            table = self.table
            keyed = []
            for idx, (ci, m, t, _) in enumerate(children):
                child = child_node(node, ci, m, t)
                entry = table.get(child)
                if entry is not None and (entry.lo == entry.hi or entry.depth >= 0):
                    key = entry.score
                else:
                    key = evaluate(*child)
                keyed.append((key, idx))
            keyed.sort()
            order = [idx for _, idx in keyed]
        if 0 <= best_first < n and order[0] != best_first:
            order.remove(best_first)
            order.insert(0, best_first)
        return order

    # --- the exact solver ------------------------------------------------------------------
    def solve(self, node: Node, alpha: int, beta: int) -> int:
        """The exact outcome of ``node`` (−1, 0 or 1 for the side to move) if it lies
        strictly inside (alpha, beta); otherwise a bound on the same side of the window
        (fail-soft). No evaluation: every line is followed to the end of the game."""
        self.nodes += 1
        if not self.nodes & 31:
            self._tick()
        ply = node[6]
        if ply >= GAME_PLIES:
            return 0
        if ply == GAME_PLIES - 1:
            return self._last_turn(node)
        entry = self.table.get(node)
        children: list[Child] | None = None
        best_first = -1
        if entry is not None:
            lo, hi = entry.lo, entry.hi
            if lo == hi or lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
            children = entry.children
            best_first = entry.best
        if children is None:
            exact = self.race.solve(node)
            if exact is not None:
                self._exact(node, exact[0], exact[1])
                return exact[0]
            children = self._children(node)
        if not children:
            self._exact(node, -1, 0)
            return -1
        for child in children:
            if child[3]:
                self._exact(node, 1, 1)
                return 1
        if ply < GAME_PLIES - 2:
            order = self._solve_order(node, children, best_first)
        else:
            # Two plies from the end the subtrees are tiny: ordering costs more than it saves.
            order = list(range(len(children)))
            if best_first > 0:
                order[0], order[best_first] = best_first, 0
        alpha_orig = alpha
        best = -2
        best_idx = order[0]
        for idx in order:
            ci, m, t, _ = children[idx]
            v = -self.solve(child_node(node, ci, m, t), -beta, -alpha)
            if v > best:
                best = v
                best_idx = idx
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        kept = children if ply < GAME_PLIES - 3 else None
        if best <= alpha_orig:
            self._prove(node, -1, best, best_idx, kept)
        elif best >= beta:
            self._prove(node, best, 1, best_idx, kept)
        else:
            self._prove(node, best, best, best_idx, kept)
        return best

    def _solve_order(self, node: Node, children: list[Child], best_first: int) -> list[int]:
        """Children known to be good for the mover first: proven losses for the opponent,
        then by the table's score, then by the race (cheap, and in the end game a better
        guide than the whole evaluation)."""
        table = self.table
        keyed = []
        for idx, (ci, m, t, _) in enumerate(children):
            child = child_node(node, ci, m, t)
            entry = table.get(child)
            if entry is not None:
                key = entry.hi * 4 * WIN + entry.score
            else:
                key = 4 * WIN - race_score(m, t)
            keyed.append((key, idx))
        keyed.sort()
        order = [idx for _, idx in keyed]
        if 0 <= best_first < len(order) and order[0] != best_first:
            order.remove(best_first)
            order.insert(0, best_first)
        return order

    # --- the root ------------------------------------------------------------------------
    def root_moves(self, state: State) -> list[RootMove]:
        """Every distinct legal play of every playable card in hand, as root moves."""
        node = node_of(state)
        mover = state.to_move
        other = BLACK if mover == WHITE else WHITE
        moves = []
        for card in hand_cards(state.hand(mover)):
            ci = CARD_INDEX[card]
            for play in legal_plays(state, card):
                board = after(state, play.steps)
                mine = board.board(mover)
                won = sum(mine[1:7]) == 15
                child = child_node(node, ci, pack_board(mine), pack_board(board.board(other)))
                moves.append(RootMove(play=play, node=child, won=won))
        return moves

    def search(
        self,
        state: State,
        *,
        ms: float | None = 200,
        max_nodes: int | None = None,
        max_depth: int | None = None,
        first: Play | None = None,
    ) -> SearchResult:
        """Search ``state`` (the game must not be over) within ``ms`` milliseconds and/or
        ``max_nodes`` nodes and/or ``max_depth`` plies of heuristic search. The node budget
        never cuts the first iteration (so a node budget alone gives the same result on
        every machine); the clock does, and with nothing searched the static evaluation
        picks the play. With ``first``, that play is searched first with a full window, so
        its own score is exact for the depth searched (what analysis compares with the best
        play's)."""
        start = time.perf_counter()
        moves = self.root_moves(state)
        if not moves:
            raise ValueError("no legal play: the side to move is blocked")
        pinned = first is not None
        if first is not None:
            target = _board_key(state, first)
            for i, mv in enumerate(moves):
                if _board_key(state, mv.play) == target:
                    moves.insert(0, moves.pop(i))
                    break
            else:
                raise ValueError(f"{first.text} is not a legal play here")
        self.nodes = 0
        for mv in moves:
            if mv.won:
                mv.score, mv.lo, mv.hi = WIN - 1, 1, 1
        if any(mv.won for mv in moves) and (not pinned or moves[0].won):
            return self._result(moves, 0, next(mv for mv in moves if mv.won))
        left = GAME_PLIES - state.ply
        node_limit = max_nodes if max_nodes is not None else 1 << 62
        deadline = float("inf") if ms is None else start + ms / 1000.0

        result: SearchResult | None = None
        root = node_of(state)
        if self.use_solver and (left <= SOLVE_PLIES or not in_contact(root[0], root[1])):
            share = solve_share(left)
            self._node_limit = int(node_limit * share)
            self._deadline = deadline if ms is None else start + ms * share / 1000.0
            best = self._solve_root(moves)
            if best is not None:
                result = self._result(moves, left, best)
                if result.proven and (not pinned or moves[0].proven):
                    return result

        limit_depth = min(max_depth or left, left)
        depth = 0
        while depth < limit_depth:
            depth += 1
            # The first iteration is not cut by the node budget (a node budget gives the
            # same result on every machine); the clock cuts every iteration.
            self._deadline = deadline
            self._node_limit = node_limit if depth > 1 else 1 << 62
            best, complete = self._iterate(moves, depth)
            if best is not None:
                result = self._result(moves, depth if complete else depth - 1, best)
            if not complete:
                break
            if not pinned and best is not None:
                moves.remove(best)
                moves.insert(0, best)
            if result is not None and result.proven and (not pinned or moves[0].proven):
                break
            if all(mv.proven for mv in moves):
                break
        if result is None:
            # Out of time before a single play was searched: the static evaluation decides.
            for mv in moves:
                if mv.score is None:
                    mv.score = _back(evaluate(*mv.node))
            best = max(moves, key=_score_of)
            result = self._result(moves, 0, best)
        return result

    def _solve_root(self, moves: list[RootMove]) -> RootMove | None:
        """Solve the root exactly (the first move with a full window); the best move, or
        None if the budget ran out (what was proven stays in the moves and the table)."""
        alpha = -2
        best: RootMove | None = None
        try:
            for mv in moves:
                # A race after the play: worth a larger budget here than deep in the tree.
                entry = self.table.get(mv.node)
                if mv.won or (entry is not None and entry.lo == entry.hi):
                    continue
                exact = self.race.solve(mv.node, budget=ROOT_RACE_BUDGET)
                if exact is not None:
                    self._exact(mv.node, exact[0], exact[1])
            for mv in moves:
                v = 1 if mv.won else -self.solve(mv.node, -2, -alpha)
                if v > alpha:
                    mv.lo = mv.hi = v
                    entry = self.table.get(mv.node)
                    if entry is not None and entry.lo == entry.hi and not mv.won:
                        mv.score = _back(entry.score)
                    else:
                        mv.score = outcome_score(v, 1)
                    alpha = v
                    best = mv
                    if v == 1:
                        break
                else:
                    mv.hi = min(mv.hi, v)
                    mv.score = outcome_score(mv.hi, 1) if mv.lo == mv.hi else None
        except Timeout:
            return None
        return best

    def _iterate(self, moves: list[RootMove], depth: int) -> tuple[RootMove | None, bool]:
        """One iteration over the root moves; the best move of this iteration (None if the
        budget ran out before the first move was searched) and whether all were searched."""
        alpha = -INF
        best: RootMove | None = None
        best_score = -INF
        scores: list[tuple[RootMove, int]] = []
        complete = True
        try:
            for mv in moves:
                if mv.won:
                    s, lo, hi = WIN - 1, 1, 1
                else:
                    s, clo, chi = self.negamax(mv.node, depth - 1, -INF, -alpha)
                    s = -s
                    if s > WIN_MIN:
                        s -= 1
                    elif s < -WIN_MIN:
                        s += 1
                    lo, hi = -chi, -clo
                mv.lo, mv.hi = max(mv.lo, lo), min(mv.hi, hi)
                scores.append((mv, s))
                if best is None or s > best_score or (s == best_score and mv.lo > best.lo):
                    best, best_score = mv, s
                if s > alpha:
                    alpha = s
        except Timeout:
            complete = False
        for mv, s in scores:
            mv.score = s
        return best, complete

    def _result(self, moves: list[RootMove], depth: int, best: RootMove) -> SearchResult:
        lo = max(mv.lo for mv in moves)
        hi = max(mv.hi for mv in moves)
        score = best.score
        assert score is not None
        if lo == hi and lo == 0:
            score = 0
        elif lo != hi:
            score = _clamp(score, lo, hi)
        return SearchResult(
            best=best.play, score=score, lo=lo, hi=hi, nodes=self.nodes, depth=depth, moves=moves
        )

    # --- after a search: settling plays, rescoring them, the line it expects ---------------
    def _budget(self, ms: float | None, max_nodes: int | None) -> None:
        self.nodes = 0
        self._deadline = float("inf") if ms is None else time.perf_counter() + ms / 1000.0
        self._node_limit = max_nodes if max_nodes is not None else 1 << 62

    def reaches(
        self,
        move: RootMove,
        target: int,
        *,
        ms: float | None = 100,
        max_nodes: int | None = None,
    ) -> bool | None:
        """Is the play ``move`` worth at least ``target`` (−1, 0 or 1, the mover's view)?
        True or False once settled from the ends of the game (the exact solver, with a window
        that only asks that question), None if the budget ran out first. The move's interval
        (and the table) keep what was learnt; a True also settles the move's value at
        ``target`` when ``target`` is the best any play can reach."""
        if move.won or move.lo >= target:
            return True
        if move.hi < target:
            return False
        self._budget(ms, max_nodes)
        try:
            # The child's value c; the mover's is −c. Inside the window (−2, 1 − target) the
            # answer is exact: c ≤ −target, the play reaches the target. Otherwise it is a
            # lower bound on c ≥ 1 − target: the play is worth at most target − 1.
            c = self.solve(move.node, -2, 1 - target)
        except Timeout:
            return None
        if c <= -target:
            move.lo = max(move.lo, -c)
            move.hi = min(move.hi, -c)
            entry = self.table.get(move.node)
            if move.lo == move.hi:
                settled = entry is not None and entry.lo == entry.hi
                move.score = (
                    _back(entry.score)
                    if entry is not None and settled
                    else (outcome_score(move.lo, 1))
                )
            return True
        move.hi = min(move.hi, target - 1)
        if move.lo == move.hi:
            move.score = outcome_score(move.lo, 1)
        elif move.score is not None:
            move.score = _clamp(move.score, move.lo, move.hi)
        return False

    def rescore(
        self,
        moves: list[RootMove],
        depth: int,
        *,
        ms: float | None = 100,
        max_nodes: int | None = None,
    ) -> list[int] | None:
        """Every play's score searched ``depth`` plies deep with a full window (alpha-beta
        gives only bounds for the plays that are not the best), from the mover's view, or
        None if the budget ran out. Proven plays keep their proven score."""
        self._budget(ms, max_nodes)
        scores: list[int] = []
        try:
            for mv in moves:
                if mv.won:
                    scores.append(WIN - 1)
                    continue
                if mv.proven and mv.score is not None:
                    scores.append(mv.score)
                    continue
                if depth <= 1:
                    s, clo, chi = self._leaf(mv.node)
                else:
                    s, clo, chi = self.negamax(mv.node, depth - 1, -INF, INF)
                mv.lo, mv.hi = max(mv.lo, -chi), min(mv.hi, -clo)
                scores.append(_clamp(_back(s), mv.lo, mv.hi))
        except Timeout:
            return None
        return scores

    def line(self, state: State, plies: int = 12) -> tuple[list[Play], str]:
        """The line the search expects from ``state`` (an undecided position): up to
        ``plies`` plays read from the transposition table — in a proven position the plays
        that keep its value (quickest win, slowest loss), elsewhere the search's best — and
        how the line ends: ``home`` (its last play brought the mover's checkers home),
        ``blocked`` (the side to move then has no playable card), ``cards`` (ply 72 was
        played: a draw), or empty when the table knows no further."""
        out: list[Play] = []
        s = state
        for _ in range(plies):
            if s.ply >= GAME_PLIES:
                return out, "cards"
            node = node_of(s)
            children = Generator(node[0], node[1]).children(cards_of(node[2]))
            if not children:
                return out, "blocked"
            pick = next((i for i, c in enumerate(children) if c[3]), -1)
            if pick < 0:
                pick = self._line_child(node, children)
            if pick < 0:
                return out, ""
            play = _play_of(s, children[pick])
            out.append(play)
            if children[pick][3]:
                return out, "home"
            s = play.position()
        if s.ply >= GAME_PLIES:
            return out, "cards"
        return out, ""

    def _line_child(self, node: Node, children: list[Child]) -> int:
        """The child the line follows (−1: none known)."""
        if node[6] == GAME_PLIES - 1:
            return 0  # the last card: no win among the plays, so any play draws
        entry = self.table.get(node)
        if entry is None:
            return -1
        if entry.lo == entry.hi:
            best, best_key = -1, -INF
            for idx, (ci, m, t, _) in enumerate(children):
                e = self.table.get(child_node(node, ci, m, t))
                if e is None or e.lo != e.hi or -e.lo != entry.lo:
                    continue
                key = _back(e.score)
                if key > best_key:
                    best, best_key = idx, key
            if best >= 0:
                return best
        return entry.best if 0 <= entry.best < len(children) else -1


def _play_of(state: State, child: Child) -> Play:
    """The canonical play of ``state`` that gives the packed child."""
    ci, mine, theirs, _ = child
    mover = state.to_move
    other = BLACK if mover == WHITE else WHITE
    for play in legal_plays(state, CARDS[ci]):
        board = after(state, play.steps)
        if pack_board(board.board(mover)) == mine and pack_board(board.board(other)) == theirs:
            return play
    raise AssertionError("a child of the search is not a legal play")  # pragma: no cover


def _score_of(move: RootMove) -> int:
    return -INF if move.score is None else move.score


def _board_key(state: State, play: Play) -> tuple[object, ...]:
    board = after(state, play.steps)
    return (play.card, board.white, board.black)
