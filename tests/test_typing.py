"""The apps' services and selectors are typed without ``Any`` in their signatures (mypy strict
with django-stubs checks the rest; see pyproject.toml)."""

from __future__ import annotations

import importlib
import inspect
import typing
from typing import Any

import pytest

MODULES = [
    "championship.services.changes",
    "championship.services.entrants",
    "championship.services.results",
    "championship.services.rounds",
    "championship.selectors",
    "championship.tables",
    "games.services",
    "games.selectors",
    "games.clock",
    "registrations.services.announcements",
    "registrations.services.entries",
    "registrations.services.masterclass",
    "registrations.services.outbox",
    "registrations.services.privacy",
    "registrations.services.waiting_list",
    "registrations.selectors",
]


def _has_any(hint: object) -> bool:
    if hint is Any:
        return True
    return any(_has_any(arg) for arg in typing.get_args(hint))


def _public_functions(module: Any) -> list[Any]:
    return [
        obj
        for name, obj in vars(module).items()
        if inspect.isfunction(obj)
        and obj.__module__ == module.__name__
        and not name.startswith("_")
    ]


@pytest.mark.parametrize("name", MODULES)
def test_no_any_in_public_signatures(name: str) -> None:
    module = importlib.import_module(name)
    functions = _public_functions(module)
    assert functions
    offenders = []
    for func in functions:
        hints = typing.get_type_hints(func)
        for param, hint in hints.items():
            if _has_any(hint):
                offenders.append(f"{func.__name__}({param}: {hint})")
    assert not offenders, offenders
