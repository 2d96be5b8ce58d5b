"""Player registration through the public form."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.urls import reverse

from registrations import tokens
from registrations.models import Registration
from tests.conftest import registration_form

pytestmark = pytest.mark.django_db


def register(client, tournament, **changes):  # type: ignore[no-untyped-def]
    return client.post(
        reverse("registrations:register", args=[tournament.slug]), registration_form(**changes)
    )


def links(body: str) -> list[str]:
    return re.findall(r"http://\S+", body)


def test_happy_path_stores_e164_phone_consent_time_and_emails_a_confirmation(
    client, tournament, mailoutbox
):
    response = register(client, tournament, email="Anna@Example.org")
    assert response.status_code == 302
    assert response["Location"] == reverse("registrations:done", args=[tournament.slug])
    reg = Registration.objects.get()
    assert reg.name == "Анна Иванова"
    assert str(reg.phone) == "+14165550123"
    assert reg.consent_at is not None and reg.status == "entered"
    assert reg.email_confirmed_at is None

    page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en")
    assert "You are entered in the tournament." in page.content.decode()

    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["Anna@Example.org"]
    assert "Здравствуйте" in mail.body  # the player's preferred language is Russian
    confirm_url, manage_url = links(mail.body)[:2]
    confirmed = client.get(urlsplit(confirm_url).path)
    assert confirmed.status_code == 200
    reg.refresh_from_db()
    assert reg.email_confirmed_at is not None
    assert "/registration/manage/" in manage_url


def test_mistakes_are_shown_next_to_the_field_and_what_was_typed_is_kept(client, tournament):
    response = register(client, tournament, phone="12", consent="", email="not-an-email")
    assert response.status_code == 400
    html = response.content.decode()
    assert 'value="Анна Иванова"' in html  # kept
    assert 'value="Toronto"' in html
    assert "is-invalid" in html
    assert html.count("invalid-feedback") >= 3
    assert Registration.objects.count() == 0


def test_name_needs_letters_any_script(client, tournament):
    assert register(client, tournament, name="12345").status_code == 400
    assert register(client, tournament, name="  Σωκράτης   Ω ").status_code == 302
    assert Registration.objects.get().name == "Σωκράτης Ω"


def test_duplicate_same_email_any_case_gives_no_second_row_and_a_fresh_link(
    client, tournament, mailoutbox
):
    assert register(client, tournament).status_code == 302
    response = register(client, tournament, email="ANNA@example.ORG", name="Someone Else")
    assert response.status_code == 302
    assert Registration.objects.count() == 1
    assert Registration.objects.get().name == "Анна Иванова"  # nothing overwritten
    page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en")
    assert "already registered" in page.content.decode()
    assert len(mailoutbox) == 2
    assert "/registration/manage/" in mailoutbox[1].body


def test_honeypot_filled_stores_nothing_but_looks_fine(client, tournament, mailoutbox):
    response = register(client, tournament, website="http://spam.example")
    assert response.status_code == 302
    assert Registration.objects.count() == 0 and not mailoutbox


def test_closed_registration(client, tournament):
    tournament.registration_open = False
    tournament.save()
    response = register(client, tournament)
    assert response.status_code == 200
    assert Registration.objects.count() == 0
    assert b"closed" in response.content


def test_csrf_is_enforced(tournament):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = register(client, tournament)
    assert response.status_code == 403
    page = client.get(reverse("registrations:register", args=[tournament.slug]))
    assert b"csrfmiddlewaretoken" in page.content


def test_cap_and_waiting_list_with_promotion_on_withdrawal(client, tournament, mailoutbox):
    tournament.entry_cap = 2
    tournament.save()
    for i in range(4):
        register(client, tournament, email=f"p{i}@example.org", language="en")
    statuses = list(Registration.objects.order_by("created_at").values_list("status", flat=True))
    assert statuses == ["entered", "entered", "waitlisted", "waitlisted"]
    first = Registration.objects.get(email="p0@example.org")
    token = tokens.make_token(tokens.MANAGE, first.pk, first.email)
    mailoutbox.clear()
    response = client.post(reverse("registrations:withdraw", args=[token]))
    assert response.status_code == 302
    statuses = dict(Registration.objects.values_list("email", "status"))
    assert statuses == {
        "p0@example.org": "withdrawn",
        "p1@example.org": "entered",
        "p2@example.org": "entered",  # first on the waiting list
        "p3@example.org": "waitlisted",
    }
    mails = {m.to[0]: m for m in mailoutbox}
    assert sorted(mails) == ["p0@example.org", "p2@example.org"]
    assert "is withdrawn, as you asked" in mails["p0@example.org"].body
    assert "now entered" in mails["p2@example.org"].body
    # Entering again puts the player at the end of the queue.
    client.post(reverse("registrations:reenter", args=[token]))
    assert Registration.objects.get(pk=first.pk).status == "waitlisted"


def test_manage_link_edits_and_keeps_input_on_error(client, tournament):
    register(client, tournament)
    reg = Registration.objects.get()
    url = reverse(
        "registrations:manage", args=[tokens.make_token(tokens.MANAGE, reg.pk, reg.email)]
    )
    page = client.get(url)
    assert page.status_code == 200 and "Анна Иванова" in page.content.decode()
    bad = client.post(
        url,
        {"name": "Anna I.", "phone": "nope", "club": "X", "experience": "club", "language": "en"},
    )
    assert bad.status_code == 400 and 'value="Anna I."' in bad.content.decode()
    ok = client.post(
        url,
        {
            "name": "Anna I.",
            "phone": "+1 647 555 0199",
            "club": "X",
            "experience": "club",
            "language": "en",
        },
    )
    assert ok.status_code == 302
    reg.refresh_from_db()
    assert reg.name == "Anna I." and str(reg.phone) == "+16475550199"


def test_tampered_and_expired_links_get_a_clear_page(client, tournament, monkeypatch):
    register(client, tournament)
    reg = Registration.objects.get()
    token = tokens.make_token(tokens.MANAGE, reg.pk, reg.email)
    tampered = client.get(reverse("registrations:manage", args=[token[:-3] + "abc"]))
    assert tampered.status_code == 400
    assert b"does not work" in tampered.content
    # A confirm token is not a manage token.
    other = tokens.make_token(tokens.CONFIRM, reg.pk, reg.email)
    assert client.get(reverse("registrations:manage", args=[other])).status_code == 400
    import time as time_module

    real = time_module.time
    monkeypatch.setattr(time_module, "time", lambda: real() + 10**9)
    expired = client.get(reverse("registrations:manage", args=[token]))
    assert expired.status_code == 410
    assert b"expired" in expired.content


def test_newcomer_is_offered_the_master_class_and_can_book_in_the_form(
    client, tournament, mailoutbox
):
    from tests.conftest import make_session

    session = make_session(tournament=tournament)
    response = register(client, tournament, experience="newcomer", language="en")
    done = client.get(response["Location"])
    assert reverse("registrations:signup", args=[session.pk]).encode() in done.content

    register(
        client, tournament, email="b@example.org", experience="newcomer", masterclass=session.pk
    )
    signup = session.signups.get()
    assert signup.status == "booked" and signup.registration.email == "b@example.org"

    bad = register(
        client, tournament, email="c@example.org", experience="club", masterclass=session.pk
    )
    assert bad.status_code == 400 and b"for newcomers" in bad.content


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_wrong_phone_s_error_gives_the_help_s_example(client, tournament, language):  # type: ignore[no-untyped-def]
    """The error read "(e.g. (506) 234-5678)" under a help saying "such as 416 555 0123": every
    form asking for a phone gives one example, in its help and in its error."""
    from django.utils import translation

    from registrations.forms import (
        PHONE_EXAMPLE,
        RegistrationEditForm,
        RegistrationForm,
        SignupForm,
    )

    assert PHONE_EXAMPLE == "416 555 0123"
    with translation.override(language):
        for form_class in (RegistrationForm, RegistrationEditForm, SignupForm):
            form = form_class(data={"phone": "12"})
            assert not form.is_valid()
            (error,) = form.errors["phone"]
            assert PHONE_EXAMPLE in error and PHONE_EXAMPLE in str(form["phone"].help_text)
            assert "506" not in error
    client.cookies["django_language"] = language
    html = register(client, tournament, phone="12").content.decode()
    assert "506" not in html and html.count(PHONE_EXAMPLE) == 2
    assert ("Enter a valid phone number" if language == "en" else "Введите правильный") in html
