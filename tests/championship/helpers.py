"""Random tournaments for pairing and tie-break tests (the simulation lives in the package)."""

from championship.pairing.simulate import apply_round, new_tournament, play_swiss

__all__ = ["apply_round", "new_tournament", "play_swiss"]
