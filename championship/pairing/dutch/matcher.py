"""The compiled maximum-weight matching (bbpPairings' blossom algorithm, shipped compiled in
py4swiss) behind a small interface that takes Python integers as edge weights.

An edge weight 0 means "no edge". Weights are arbitrary-precision unsigned integers in the
compiled core (``DynamicUint`` with a fixed number of 64-bit parts); converting a Python
integer costs one call per part, so conversions are cached: the same few hundred distinct
weights recur across thousands of edges.
"""

from __future__ import annotations

from typing import Protocol, Self

from py4swiss.dynamicuint import DynamicUint
from py4swiss.matching_computer import ComputerDutchOptimality

_PART = 64
_MASK = (1 << _PART) - 1


class Weight(Protocol):
    """The compiled core's edge weight (``py4swiss.dynamicuint.DynamicUint``; py4swiss ships
    no ``py.typed``, so its own stubs are not read): the operations used here."""

    def __or__(self, other: int, /) -> Self: ...
    def __and__(self, other: int, /) -> Self: ...
    def __add__(self, other: Self, /) -> Self: ...
    def __lshift__(self, shift: int, /) -> Self: ...
    def __ior__(self, other: int, /) -> Self: ...
    def __ilshift__(self, shift: int, /) -> Self: ...
    def shift_grow(self, shift: int, /) -> Self: ...


class Computer(Protocol):
    """``py4swiss.matching_computer.ComputerDutchOptimality``: bbpPairings' maximum-weight
    matching. A weight 0 is no edge; ``set_edge_weight(u, v, w)`` marks ``u`` for the next
    ``compute_matching``, which costs O(k n^2) for k marked vertices; ``get_matching()[u]``
    is u's partner, or u when unmatched."""

    def add_vertex(self) -> None: ...
    def set_edge_weight(self, u: int, v: int, weight: Weight, /) -> None: ...
    def compute_matching(self) -> None: ...
    def get_matching(self) -> list[int]: ...


class Matcher:
    def __init__(self, size: int, max_weight_bits: int) -> None:
        # The core needs two spare bits above the largest weight (it works with 4 x weights).
        top: Weight = DynamicUint(1)
        top.shift_grow(max_weight_bits + 1)
        self.zero: Weight = top & 0
        self.max_weight = (1 << max_weight_bits) - 1
        self._cache: dict[int, Weight] = {}
        self.computer: Computer = ComputerDutchOptimality(size, self.dyn(self.max_weight))
        for _ in range(size):
            self.computer.add_vertex()
        self.size = size
        self._zero_dyn = self.dyn(0)
        self._max_dyn = self.dyn(self.max_weight)

    def dyn(self, value: int) -> Weight:
        cached = self._cache.get(value)
        if cached is not None:
            return cached
        low = value & _MASK
        if value == low:
            result = self.zero | value
        elif low:
            # The high part is usually shared with many other weights: convert it once.
            result = self.dyn(value - low) + (self.zero | low)
        else:
            result = self._copy(self.zero)
            chunks = []
            rest = value
            while rest:
                chunks.append(rest & _MASK)
                rest >>= _PART
            for chunk in reversed(chunks):
                result <<= _PART
                result |= chunk
        if len(self._cache) > 200_000:
            self._cache.clear()
        self._cache[value] = result
        return result

    @staticmethod
    def _copy(value: Weight) -> Weight:
        copied: Weight = DynamicUint(value)
        return copied

    def set(self, u: int, v: int, weight: int) -> None:
        """Set the weight of the edge u-v (u is the vertex marked for the next update)."""
        self.computer.set_edge_weight(u, v, self.dyn(weight))

    def set_zero(self, u: int, v: int) -> None:
        self.computer.set_edge_weight(u, v, self._zero_dyn)

    def compute(self) -> list[int]:
        self.computer.compute_matching()
        return self.computer.get_matching()

    def finalize(self, u: int, v: int) -> None:
        """Force the pair u-v: its edge gets the largest weight, every other edge of u and v
        goes."""
        zero, top = self._zero_dyn, self._max_dyn
        set_weight = self.computer.set_edge_weight
        for other in range(self.size):
            if other != u:
                set_weight(u, other, top if other == v else zero)
            if other != v:
                set_weight(v, other, top if other == u else zero)
