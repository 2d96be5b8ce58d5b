"""Colour allocation, FIDE C.04.3 (2025) Article 5.2: which rule gives ``player`` its colour
against ``opponent``."""

from __future__ import annotations

from .state import BLACK, NO_COLOUR, WHITE, Entrant, Field, invert

#: The rules of 5.2 in order, as codes for explanations.
BOTH_PREFERENCES = "5.2.1"  # grant both colour preferences
STRONGER_PREFERENCE = "5.2.2"  # grant the stronger preference (absolute: the wider difference)
ALTERNATE = "5.2.3"  # alternate from the last round in which they had different colours
HIGHER_PREFERENCE = "5.2.4"  # grant the higher ranked player's preference
PAIRING_NUMBER = "5.2.5"  # the higher ranked player: the initial colour if odd pairing number


def _last_difference(a: Entrant, b: Entrant) -> tuple[int, int]:
    """The colours of the two players in the latest round (of their played games, counted
    back each on their own, C.04.2 3.4) where they differed."""
    ca = [r.colour for r in a.rounds if r.played]
    cb = [r.colour for r in b.rounds if r.played]
    i, j = len(ca) - 1, len(cb) - 1
    while i >= 0 and j >= 0 and ca[i] == cb[j]:
        i -= 1
        j -= 1
    return (ca[i] if i >= 0 else NO_COLOUR, cb[j] if j >= 0 else NO_COLOUR)


def ranks_higher(a: Entrant, b: Entrant) -> bool:
    """1.2: a higher score, then a lower pairing number."""
    return (a.score, -a.rank) > (b.score, -b.rank)


def colour_rule(player: Entrant, opponent: Entrant, field: Field) -> tuple[int, str]:
    """The colour ``player`` gets, and the rule of 5.2 that decided it."""
    p, o = player, opponent
    if p.preference == NO_COLOUR or o.preference == NO_COLOUR or p.preference != o.preference:
        if p.preference != NO_COLOUR:
            return p.preference, BOTH_PREFERENCES
        if o.preference != NO_COLOUR:
            return invert(o.preference), BOTH_PREFERENCES
    elif p.absolute and (p.imbalance > o.imbalance or not o.absolute):
        return p.preference, STRONGER_PREFERENCE
    elif o.absolute and (o.imbalance > p.imbalance or not p.absolute):
        return invert(o.preference), STRONGER_PREFERENCE
    elif p.strong and not o.strong:
        return p.preference, STRONGER_PREFERENCE
    elif o.strong and not p.strong:
        return invert(o.preference), STRONGER_PREFERENCE
    else:
        mine, theirs = _last_difference(p, o)
        if mine != NO_COLOUR and theirs != NO_COLOUR:
            return theirs, ALTERNATE
    player_higher = ranks_higher(p, o)
    if p.preference != NO_COLOUR:
        return (p.preference if player_higher else invert(o.preference)), HIGHER_PREFERENCE
    first = field.initial_colour
    if player_higher:
        return (invert(first) if p.rank & 1 else first), PAIRING_NUMBER
    return (first if o.rank & 1 else invert(first)), PAIRING_NUMBER


def choose_colour(player: Entrant, opponent: Entrant, field: Field) -> int:
    return colour_rule(player, opponent, field)[0]


__all__ = ["BLACK", "WHITE", "choose_colour", "colour_rule", "ranks_higher"]
