"""Links that open a page in a language (``?lang=``, those in e-mails) and the language switch:
the switch's link, and any link back to the page, must not carry the ``lang=`` it is meant to
change (``common.language.without_language``)."""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit

import pytest
from django.test import Client

from common.language import without_language
from registrations import emails
from registrations.services import entries

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("url", "back"),
    [
        ("/t/x/my/abc/?lang=ru", "/t/x/my/abc/"),
        ("/t/x/?a=1&lang=en&b=2#absences", "/t/x/?a=1&b=2#absences"),
        ("/accounts/login/?next=/t/x/manage/%3Flang%3Dru", "/accounts/login/?next=/t/x/manage/"),
        ("/p?x=1", "/p?x=1"),
        ("/", "/"),
        ("/p?lang=ru#top", "/p#top"),
    ],
)
def test_an_address_to_go_back_to_loses_its_language(url: str, back: str) -> None:
    assert without_language(url) == back


def _switch_link(page: str, code: str) -> str:
    found = re.search(rf'href="([^"]+)" lang="{code}" hreflang="{code}"', page)
    assert found, page
    return html.unescape(found.group(1))


@pytest.mark.parametrize(
    ("opened", "chosen", "words"),
    [("ru", "en", "Your registration"), ("en", "ru", "Ваша регистрация")],
)
def test_the_switch_changes_the_language_of_a_page_opened_from_an_e_mail(
    tournament, opened: str, chosen: str, words: str
) -> None:  # type: ignore[no-untyped-def]
    reg = entries.registration_create(
        tournament=tournament,
        name="Anna",
        email="anna@example.org",
        phone="+14165550123",
        club="",
        experience="club",
        language=opened,
    ).registration
    links = emails.registration_links(reg)
    for url in (links["player_url"], links["manage_url"]):
        client = Client()
        link = urlsplit(url)
        assert link.query == f"lang={opened}"
        page = client.get(f"{link.path}?{link.query}").content.decode()
        switched = client.get(_switch_link(page, chosen), follow=True)
        assert switched.redirect_chain == [(link.path, 302)]
        assert client.cookies["django_language"].value == chosen
        assert f'<html lang="{chosen}">' in switched.content.decode()
    assert words in switched.content.decode()
