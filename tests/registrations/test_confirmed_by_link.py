"""A registration's address is confirmed by following any of its signed links (they went only
to that address), and "add confirmed registrations" does not name a player who is an entrant
already under another registration (the walker's Elena: a first registration with a mistyped
address, a second one checked in from her page)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.utils import timezone

from championship.models import Entrant
from registrations import emails, selectors, tokens
from registrations.models import Registration
from registrations.services import entries, field

pytestmark = pytest.mark.django_db


def _register(tournament, name: str, email: str) -> Registration:  # type: ignore[no-untyped-def]
    return entries.registration_create(
        tournament=tournament,
        name=name,
        email=email,
        phone="+79161234567",
        club="",
        experience="club",
        language="ru",
    ).registration


@pytest.mark.parametrize("link", ["player", "manage", "absence"])
def test_following_a_signed_link_confirms_the_address(tournament, link: str) -> None:  # type: ignore[no-untyped-def]
    reg = _register(tournament, "Елена Соколова", "elena@example.org")
    assert reg.email_confirmed_at is None
    manage = tokens.make_token(tokens.MANAGE, reg.pk, reg.email)
    url = {
        "player": urlsplit(emails.registration_links(reg)["player_url"]).path,
        "manage": urlsplit(emails.registration_links(reg)["manage_url"]).path,
        "absence": f"/player/{manage}/absence/",
    }[link]
    assert Client().get(url).status_code == 200
    reg.refresh_from_db()
    assert reg.email_confirmed_at is not None


def test_a_forged_or_other_address_link_confirms_nothing(tournament) -> None:  # type: ignore[no-untyped-def]
    reg = _register(tournament, "Елена Соколова", "elena@example.org")
    other = tokens.make_token(tokens.PLAYER, reg.pk, "someone@example.org")
    assert Client().get(f"/t/{tournament.slug}/my/{other}/").status_code == 400
    assert Client().get(f"/t/{tournament.slug}/my/forged/").status_code == 400
    reg.refresh_from_db()
    assert reg.email_confirmed_at is None


def test_adding_confirmed_registrations_does_not_name_an_entrant_s_second_registration(
    tournament,
) -> None:  # type: ignore[no-untyped-def]
    mistyped = _register(tournament, "Елена Соколова", "elena.sokolova@gmial.com")
    good = _register(tournament, "Елена  соколова", "elena.sokolova@gmail.com")
    _register(tournament, "Мария Кузнецова", "maria@example.org")
    Entrant.objects.create(
        tournament=tournament, registration=good, name=good.name, checked_in=True
    )
    registered = selectors.registered_not_entered(tournament)
    assert registered.unconfirmed == 1  # Мария only: Елена is in
    report = field.entrants_import_registrations(tournament=tournament)
    assert report.left_out == [("Мария Кузнецова", "e-mail not confirmed")]
    assert report.added == []
    # Confirmed, the second registration is still not a second entrant.
    mistyped.email_confirmed_at = timezone.now()
    mistyped.save()
    assert field.entrants_import_registrations(tournament=tournament).added == []
    assert Entrant.objects.filter(tournament=tournament).count() == 1
