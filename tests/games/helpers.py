"""Sheets for the game tests: positions reached by playing the engine with a fixed seed."""

from __future__ import annotations

import random
from collections.abc import Callable

from django.contrib.auth.models import Group, User
from django.test import Client

from championship.apps import ORGANISERS_GROUP
from games.engine import legal_plays, playable_cards
from games.engine.core import State
from games.engine.game import Game as EngineGame


def organiser_client(username: str = "org") -> tuple[Client, User]:
    user = User.objects.create_user(username, password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    client = Client()
    client.force_login(user)
    return client, user


def reach(want: Callable[[EngineGame], bool], *, seed: int = 0, tries: int = 500) -> list[str]:
    """Turn texts of a random game (fixed seeds) up to the first position where ``want``."""
    for attempt in range(tries):
        rng = random.Random(seed * 10_000 + attempt)
        eg = EngineGame()
        texts: list[str] = []
        while eg.outcome is None:
            if want(eg):
                return texts
            state: State = eg.state
            card = rng.choice(playable_cards(state))
            text = rng.choice(legal_plays(state, card)).text
            eg.play(text)
            texts.append(text)
        if want(eg):
            return texts
    raise AssertionError("no game reached the wanted position")


def played(texts: list[str]) -> EngineGame:
    eg = EngineGame()
    for t in texts:
        eg.play(t)
    return eg


def record(texts: list[str], result: str = "*", termination: str | None = None) -> str:
    lines = [f'[Result "{result}"]']
    if termination:
        lines.append(f'[Termination "{termination}"]')
    body = []
    for i, t in enumerate(texts):
        if i % 2 == 0:
            body.append(f"{i // 2 + 1}.")
        body.append(t)
    return "\n".join(lines) + "\n\n" + " ".join(body) + f" {result}\n"
