"""Pages a player can trust: the full field announced before the form is filled, withdrawal
asked first, the address used and a "lost my link" form on the thank-you page (telling nothing
about who is registered), the master-class offer pre-filled, dates in words in the page's
language, status and waiting-list position in words, titles in both languages, a privacy notice
linked from the consent box, and personal data anonymised automatically."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from championship.models import Tournament
from registrations import tokens
from registrations.models import MasterClassSignup, Registration
from registrations.services import entries, masterclass
from registrations.services.privacy import personal_data_expire
from registrations.tasks import expire_personal_data
from tests.conftest import make_registrations, make_session, registration_form, signed_links

pytestmark = pytest.mark.django_db

ISO_DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}")


def register_url(t: Tournament) -> str:
    return reverse("registrations:register", args=[t.slug])


def manage_url(r: Registration) -> str:
    return reverse("registrations:manage", args=[tokens.make_token(tokens.MANAGE, r.pk, r.email)])


def text(response) -> str:  # type: ignore[no-untyped-def]
    return response.content.decode()


def test_a_full_field_is_announced_before_the_form_is_filled(client, tournament):  # type: ignore[no-untyped-def]
    tournament.entry_cap = 2
    tournament.save()
    make_registrations(tournament, 1)
    open_page = text(client.get(register_url(tournament), HTTP_ACCEPT_LANGUAGE="en"))
    make_registrations(tournament, 1, prefix="e")
    make_registrations(tournament, 3, prefix="w", status="waitlisted")
    page = text(client.get(register_url(tournament), HTTP_ACCEPT_LANGUAGE="en"))
    assert 'id="full-notice"' not in open_page and 'value="Register"' in open_page
    assert 'id="full-notice"' in page
    assert "you join the waiting list in position 4" in page
    assert 'value="Join the waiting list"' in page and 'value="Register"' not in page
    ru = text(client.get(register_url(tournament), HTTP_ACCEPT_LANGUAGE="ru"))
    assert "встанете в лист ожидания под номером 4" in ru


def test_withdrawing_asks_first_and_says_what_happens_to_the_place(client, tournament):  # type: ignore[no-untyped-def]
    tournament.entry_cap = 1
    tournament.save()
    anna = make_registrations(tournament, 1)
    make_registrations(tournament, 2, prefix="w", status="waitlisted")
    reg = anna[0]
    manage = text(client.get(manage_url(reg), HTTP_ACCEPT_LANGUAGE="en"))
    withdraw_url = reverse(
        "registrations:withdraw", args=[tokens.make_token(tokens.MANAGE, reg.pk, reg.email)]
    )
    # A link to the question, not a one-tap form.
    assert signed_links(manage, "registrations:withdraw", tokens.MANAGE) == [(reg.pk, reg.email)]
    question = client.get(withdraw_url, HTTP_ACCEPT_LANGUAGE="en")
    assert Registration.objects.get(pk=reg.pk).status == "entered"  # asking changes nothing
    assert "Withdraw from the tournament?" in text(question)
    assert "first person on the waiting list (2 people are waiting)" in text(question)
    assert "join the end of the waiting list" in text(question)
    assert client.post(withdraw_url).status_code == 302
    assert Registration.objects.get(pk=reg.pk).status == "withdrawn"
    assert Registration.objects.get(email="w0@example.org").status == "entered"


def test_the_thank_you_page_shows_the_address_and_offers_a_lost_link_form(
    client, tournament, mailoutbox
):  # type: ignore[no-untyped-def]
    response = client.post(register_url(tournament), registration_form(email="Anna@Example.org"))
    page = text(client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en"))
    assert "<strong>Anna@Example.org</strong>" in page
    assert 'action="/registration/lost-link/"' in page
    assert 'value="Anna@Example.org"' in page  # the form is ready with the address


def test_lost_link_tells_nothing_about_who_is_registered(client, tournament, mailoutbox):  # type: ignore[no-untyped-def]
    client.post(register_url(tournament), registration_form(email="anna@example.org"))
    session = make_session()
    masterclass.signup_create(
        experience="newcomer",
        session=session,
        name="Анна",
        email="anna@example.org",
        phone="",
        language="ru",
    )
    mailoutbox.clear()
    url = reverse("registrations:lost_link")
    known = client.post(url, {"email": "ANNA@example.org", "website": ""})
    unknown = client.post(url, {"email": "nobody@example.org", "website": ""})
    assert known.status_code == unknown.status_code == 200
    assert text(known).replace("ANNA@example.org", "X") == text(unknown).replace(
        "nobody@example.org", "X"
    )
    assert sorted(m.subject for m in mailoutbox) == [
        "Toronto Open: ссылка на вашу регистрацию",
        "Мастер-класс «Master class en»: ссылка на вашу запись",
    ]
    assert all(m.to == ["anna@example.org"] for m in mailoutbox)
    assert "Как вы просили" in mailoutbox[0].body


def test_the_master_class_offer_arrives_pre_filled(client, tournament):  # type: ignore[no-untyped-def]
    session = make_session(tournament=tournament)
    response = client.post(
        register_url(tournament),
        registration_form(experience="newcomer", name="Анна Иванова", language="ru"),
    )
    done = text(client.get(response["Location"]))
    offer = reverse("registrations:signup", args=[session.pk]) + "?from=registration"
    assert offer in done
    form = text(client.get(offer))
    assert 'value="Анна Иванова"' in form and 'value="anna@example.org"' in form
    assert 'value="+14165550123"' in form
    assert re.search(r'<option value="ru"\s+selected>', form)
    client.post(
        offer,
        {
            "name": "Анна Иванова",
            "email": "anna@example.org",
            "phone": "+14165550123",
            "language": "ru",
            "consent": "on",
            "experience": "newcomer",
        },
    )
    signup = MasterClassSignup.objects.get()
    assert signup.registration == Registration.objects.get()
    # Without the offer (another browser), the form is empty.
    other = text(client.__class__().get(offer))
    assert "Анна" not in other


def test_dates_are_in_words_in_the_pages_language(client, tournament):  # type: ignore[no-untyped-def]
    session = make_session(tournament=tournament)
    reg = entries.registration_create(
        tournament=tournament,
        name="Анна",
        email="anna@example.org",
        phone="",
        club="",
        experience="newcomer",
        language="ru",
    ).registration
    signup, _ = masterclass.signup_create(
        experience="newcomer",
        session=session,
        name="Анна",
        email="anna@example.org",
        phone="",
        language="ru",
        registration=reg,
    )
    local = timezone.localtime(session.starts_at)
    months = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа",
              "сентября", "октября", "ноября", "декабря"]  # fmt: skip
    words_ru = f"{local.day} {months[local.month - 1]} {local.year}"
    cancel = reverse(
        "registrations:signup_cancel",
        args=[tokens.make_token(tokens.SIGNUP, signup.pk, signup.email)],
    )
    pages = {
        "form": register_url(tournament),
        "manage": manage_url(reg),
        "cancel": cancel,
        "sign-up": reverse("registrations:signup", args=[session.pk]),
        "list": reverse("registrations:masterclass_list"),
    }
    for name, url in pages.items():
        ru = text(client.get(url, HTTP_ACCEPT_LANGUAGE="ru"))
        assert not ISO_DATE_TIME.search(ru), name
        assert words_ru in ru and "18:30" in ru, name
        en = text(client.get(url, HTTP_ACCEPT_LANGUAGE="en", HTTP_COOKIE="django_language=en"))
        assert local.strftime("%B") in en and "6:30 p.m." in en, name


def test_status_and_position_in_words(client, tournament):  # type: ignore[no-untyped-def]
    tournament.entry_cap = 1
    tournament.save()
    make_registrations(tournament, 1)
    waiting = make_registrations(tournament, 3, prefix="w", status="waitlisted")
    page = text(client.get(manage_url(waiting[2]), HTTP_ACCEPT_LANGUAGE="en"))
    assert "You are on the waiting list, in position 3." in page
    ru = text(client.get(manage_url(waiting[1]), HTTP_ACCEPT_LANGUAGE="ru"))
    assert "Вы в листе ожидания, ваш номер в очереди — 2." in ru


def test_titles_and_descriptions_in_both_languages(client, tournament):  # type: ignore[no-untyped-def]
    tournament.name_ru = "Открытый турнир Торонто"
    tournament.description = "Seven rounds, Swiss."
    tournament.description_ru = "Семь туров по швейцарской системе."
    tournament.save()
    session = make_session(tournament=tournament)
    session.title_ru = "Правила за вечер"
    session.save()
    for url in ("/", tournament.get_absolute_url(), register_url(tournament), "/master-class/"):
        ru = text(client.get(url, HTTP_ACCEPT_LANGUAGE="ru"))
        en = text(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
        if url != "/master-class/":
            assert "Открытый турнир Торонто" in ru and "Открытый турнир" not in en, url
            assert "Toronto Open" in en, url
        if url in ("/", "/master-class/"):
            assert "Правила за вечер" in ru and "Master class en" in en, url
    detail = text(client.get(tournament.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru"))
    assert "Семь туров по швейцарской системе." in detail
    # Without a Russian text, Russian pages show the English one.
    Tournament.objects.filter(pk=tournament.pk).update(name_ru="")
    assert "Toronto Open" in text(client.get(register_url(tournament), HTTP_ACCEPT_LANGUAGE="ru"))


def test_long_answers_are_radio_buttons_not_cut_off_lists(client, tournament):  # type: ignore[no-untyped-def]
    make_session(tournament=tournament)
    page = text(client.get(register_url(tournament), HTTP_ACCEPT_LANGUAGE="en"))
    assert len(re.findall(r'<input type="radio"[^>]*name="experience"', page)) == 4
    sessions = re.findall(r'<input type="radio"[^>]*name="masterclass" value="(\d*)"', page)
    assert len(sessions) == 2 and sessions[0] == ""  # "No, thank you" can be chosen back
    assert "Newcomer: I have never played Modern Nardy" in page


def test_the_consent_box_links_to_a_privacy_notice(client, tournament, settings):  # type: ignore[no-untyped-def]
    settings.PERSONAL_DATA_RETENTION_DAYS = 90
    settings.ORGANISER_EMAIL = "org@nardy.example"
    privacy = reverse("registrations:privacy")
    for url in (
        register_url(tournament),
        reverse("registrations:signup", args=[make_session().pk]),
    ):
        page = text(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
        label = re.search(r'<label for="id_consent".*?</label>', page, re.S)
        assert label and f'href="{privacy}"' in label.group(0), url
    notice = text(client.get(privacy, HTTP_ACCEPT_LANGUAGE="en"))
    for words in ("What we store", "Why we keep it", "Who sees it", "For how long", "90 days"):
        assert words in notice
    assert "mailto:org@nardy.example" in notice
    assert "90 дней" in text(client.get(privacy, HTTP_ACCEPT_LANGUAGE="ru"))


def test_personal_data_is_anonymised_automatically_after_the_retention(settings, tournament):  # type: ignore[no-untyped-def]
    settings.PERSONAL_DATA_RETENTION_DAYS = 30
    today = timezone.localdate()
    old = Tournament.objects.create(
        name="Old",
        slug="old",
        starts_on=today - timedelta(days=40),
        ends_on=today - timedelta(days=31),
        status="finished",
    )
    recent = Tournament.objects.create(
        name="Recent",
        slug="recent",
        starts_on=today - timedelta(days=29),
        ends_on=today - timedelta(days=29),
        status="finished",
    )
    (gone,) = make_registrations(old, 1, prefix="old")
    (kept,) = make_registrations(recent, 1, prefix="recent")
    (upcoming,) = make_registrations(tournament, 1, prefix="up")
    past_session = make_session(days=-31)
    signup = MasterClassSignup.objects.create(
        session=past_session, name="Лена Петрова", email="lena@example.org",
        language="ru", consent_at=timezone.now(),
    )  # fmt: skip
    assert expire_personal_data() == 2
    gone.refresh_from_db()
    signup.refresh_from_db()
    assert gone.anonymised_at and gone.name == "И." and "old0" not in gone.email
    assert gone.status == "entered"  # the finished tournament's record stays as it was
    assert signup.anonymised_at and signup.name == "Л. П."
    for row in (kept, upcoming):
        row.refresh_from_db()
        assert row.anonymised_at is None
    assert personal_data_expire() == 0  # once
    assert settings.CELERY_BEAT_SCHEDULE["personal-data-expiry"]["task"] == (
        "registrations.tasks.expire_personal_data"
    )
