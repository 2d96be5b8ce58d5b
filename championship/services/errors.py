"""The championship's user errors: translated, fixable by the organiser; nothing was changed."""

from __future__ import annotations


class ChampionshipError(Exception):
    """A request that cannot be carried out; the message says why and nothing changed."""
