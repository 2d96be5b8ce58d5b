"""Production refuses demo data: seed_demo under DJANGO_DEBUG=0 (settings.DEBUG off) stops
unless --allow-production, and then the organiser gets a random password, never README's."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from championship.models import Tournament
from games.management.commands.seed_demo import ORGANISER_PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def fast_hashing(settings):  # type: ignore[no-untyped-def]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def seed(*args: str) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def printed_password(output: str) -> str:
    match = re.search(r"organiser login organiser / (\S+)", output)
    assert match, output
    return match.group(1)


@pytest.mark.parametrize("args", [(), ("--players", "4", "--rounds", "1", "--slug", "x")])
def test_production_refuses(settings, args):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="--allow-production"):
        seed(*args)
    assert not User.objects.exists() and not Tournament.objects.exists()


def test_allowed_in_production_the_organiser_gets_a_random_printed_password(settings, fast_hashing):
    settings.DEBUG = False
    password = printed_password(seed("--allow-production"))
    user = User.objects.get(username="organiser")
    assert password != ORGANISER_PASSWORD and len(password) >= 20
    assert user.check_password(password) and not user.check_password(ORGANISER_PASSWORD)
    assert Tournament.objects.filter(slug="toronto-2027").exists()
    # Run again: the account keeps the password it was given.
    assert "kept its own password" in seed("--allow-production")
    user.refresh_from_db()
    assert user.check_password(password)


def test_the_published_password_left_by_a_development_run_is_replaced(settings, fast_hashing):
    settings.DEBUG = True
    assert printed_password(seed()) == ORGANISER_PASSWORD
    settings.DEBUG = False
    password = printed_password(seed("--allow-production"))
    user = User.objects.get(username="organiser")
    assert not user.check_password(ORGANISER_PASSWORD) and user.check_password(password)


def test_an_organiser_password_of_its_own_is_kept(settings, fast_hashing):
    User.objects.create_user("organiser", password="chosen-by-the-organiser")
    settings.DEBUG = False
    output = seed("--allow-production")
    assert "kept its own password" in output and "organiser / " not in output
    assert User.objects.get(username="organiser").check_password("chosen-by-the-organiser")


@pytest.mark.parametrize("slug", ["bad slug", "<b>", "", "ünï"])
def test_a_bad_slug_is_refused(settings, slug):
    settings.DEBUG = True
    with pytest.raises(CommandError, match="--slug"):
        seed("--players", "4", "--rounds", "1", "--slug", slug)
    assert not Tournament.objects.exists()
