"""The compiled maximum-weight matching (bbpPairings' blossom algorithm, shipped compiled in
py4swiss) behind a small interface that takes Python integers as edge weights.

An edge weight 0 means "no edge". Weights are arbitrary-precision unsigned integers in the
compiled core (``DynamicUint`` with a fixed number of 64-bit parts); converting a Python
integer costs one call per part, so conversions are cached: the same few hundred distinct
weights recur across thousands of edges.
"""

from __future__ import annotations

from py4swiss.dynamicuint import DynamicUint
from py4swiss.matching_computer import ComputerDutchOptimality

_PART = 64
_MASK = (1 << _PART) - 1


class Matcher:
    def __init__(self, size: int, max_weight_bits: int) -> None:
        # The core needs two spare bits above the largest weight (it works with 4 x weights).
        top = DynamicUint(1)
        top.shift_grow(max_weight_bits + 1)
        self.zero = top & 0
        self.max_weight = (1 << max_weight_bits) - 1
        self._cache: dict[int, DynamicUint] = {}
        self.computer = ComputerDutchOptimality(size, self.dyn(self.max_weight))
        for _ in range(size):
            self.computer.add_vertex()
        self.size = size
        self._zero_dyn = self.dyn(0)
        self._max_dyn = self.dyn(self.max_weight)

    def dyn(self, value: int) -> DynamicUint:
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
            result = DynamicUint(self.zero)
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
