"""E-mails that say what matters, in the person's language: when and where, the status (entered
or the waiting-list position), the organisers' contact, an .ics for a tournament entry or a
master-class seat (parsed back here), confirmations of withdrawals and cancellations, wording
right for the waiting list, and links that open the site in the person's language."""

from __future__ import annotations

import re
from datetime import date, timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from icalendar import Calendar

from championship.models import Tournament
from registrations import emails
from registrations.models import MasterClassSignup, Registration
from registrations.services import entries, masterclass
from tests.conftest import make_session

pytestmark = pytest.mark.django_db

TORONTO = ZoneInfo("America/Toronto")


@pytest.fixture
def bilingual(tournament: Tournament, settings) -> Tournament:  # type: ignore[no-untyped-def]
    settings.ORGANISER_EMAIL = "org@nardy.example"
    settings.ORGANISER_PHONE = "+1 416 555 0100"
    tournament.name = "Toronto Open"
    tournament.name_ru = "Открытый турнир Торонто"
    tournament.venue = "Клуб «Ладья», 1 Main St"
    tournament.starts_on = date(2027, 3, 14)
    tournament.ends_on = date(2027, 3, 15)
    tournament.entry_cap = 1
    tournament.save()
    return tournament


def register(tournament: Tournament, name: str, language: str) -> Registration:
    return entries.registration_create(
        tournament=tournament,
        name=name,
        email=f"{name.lower()}@example.org",
        phone="+14165550123",
        club="",
        experience="club",
        language=language,
    ).registration


def only(outbox, to: str):  # type: ignore[no-untyped-def]
    found = [m for m in outbox if m.to == [to]]
    assert len(found) == 1, [(m.to, m.subject) for m in outbox]
    return found[0]


def ics_of(message) -> Calendar:  # type: ignore[no-untyped-def]
    (name, content, mimetype), *_ = message.attachments
    assert name.endswith(".ics") and mimetype.startswith("text/calendar")
    raw = content.encode() if isinstance(content, str) else content
    # RFC 5545: lines end with CRLF and are folded at 75 octets.
    assert all(len(line) <= 75 for line in raw.split(b"\r\n")), raw
    return Calendar.from_ical(raw)


def links(body: str) -> list[str]:
    return re.findall(r"https?://\S+", body)


def test_the_confirmation_says_when_where_status_contact_and_has_a_calendar_file(
    bilingual, mailoutbox
):  # type: ignore[no-untyped-def]
    register(bilingual, "Anna", "ru")
    message = only(mailoutbox, "anna@example.org")
    assert message.subject == "Открытый турнир Торонто: подтвердите регистрацию"
    body = message.body
    assert body.startswith("Здравствуйте, Anna!\n\nСпасибо за регистрацию")
    assert "Когда: воскресенье, 14 марта 2027 – понедельник, 15 марта 2027" in body
    assert "Где: Клуб «Ладья», 1 Main St" in body
    assert "Ваш статус: участвует" in body
    assert "org@nardy.example, +1 416 555 0100" in body
    assert message.reply_to == ["org@nardy.example"]
    assert message.extra_headers["Content-Language"] == "ru"
    event = ics_of(message).walk("VEVENT")[0]
    assert str(event["SUMMARY"]) == "Открытый турнир Торонто"
    assert str(event["LOCATION"]) == "Клуб «Ладья», 1 Main St"
    assert event.decoded("DTSTART") == date(2027, 3, 14)
    assert event.decoded("DTEND") == date(2027, 3, 16)  # whole days: the day after the last
    assert str(event["UID"]) == f"tournament-{bilingual.pk}@nardy.local"


def test_the_waiting_list_confirmation_gives_the_position_and_no_calendar(bilingual, mailoutbox):  # type: ignore[no-untyped-def]
    register(bilingual, "Anna", "en")
    register(bilingual, "Boris", "en")
    register(bilingual, "Chen", "en")
    message = only(mailoutbox, "chen@example.org")
    assert "on the waiting list, in position 2" in message.body
    assert "Your status: on the waiting list, position 2" in message.body
    assert message.attachments == []
    # Promoted later: entered, with the calendar file.
    mailoutbox.clear()
    entries.registration_withdraw(registration=Registration.objects.get(name="Anna"))
    promoted = only(mailoutbox, "boris@example.org")
    assert promoted.subject == "Toronto Open: a place is free, you are entered"
    assert "Your status: entered" in promoted.body
    assert ics_of(promoted).walk("VEVENT")[0].decoded("DTSTART") == date(2027, 3, 14)


def test_a_withdrawal_is_confirmed_by_e_mail_by_whoever_withdraws(bilingual, mailoutbox):  # type: ignore[no-untyped-def]
    anna = register(bilingual, "Anna", "ru")
    boris = register(bilingual, "Boris", "en")
    mailoutbox.clear()
    entries.registration_withdraw(registration=anna)
    own = only(mailoutbox, "anna@example.org")
    assert own.subject == "Открытый турнир Торонто: ваша регистрация отменена"
    assert "Как вы просили, ваша регистрация" in own.body
    assert "Ваше место перейдёт к следующему" in own.body
    mailoutbox.clear()
    entries.registration_withdraw(registration=boris, by_organiser=True)
    theirs = only(mailoutbox, "boris@example.org")
    assert "The organisers have withdrawn your registration for Toronto Open." in theirs.body


def test_links_carry_the_language_and_open_in_it_whatever_the_browser(
    client, bilingual, mailoutbox
):  # type: ignore[no-untyped-def]
    register(bilingual, "Anna", "ru")
    confirm_url, manage_url, *_ = links(only(mailoutbox, "anna@example.org").body)
    assert confirm_url.endswith("?lang=ru") and manage_url.endswith("?lang=ru")
    split = urlsplit(manage_url)
    page = client.get(f"{split.path}?{split.query}", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    assert "Ваша регистрация" in page.content.decode()
    assert page.cookies["django_language"].value == "ru"
    # The next page, without ?lang=, stays Russian thanks to the cookie.
    assert "Ваша регистрация" in client.get(split.path, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # Anything but a known language is ignored.
    assert client.get(f"{split.path}?lang=xx").status_code == 200


@pytest.fixture
def session():  # type: ignore[no-untyped-def]
    s = make_session(seats=1, days=10)
    s.title = "Rules in an evening"
    s.title_ru = "Правила за один вечер"
    s.place = "Библиотека, зал 2"
    s.save()
    return s


def test_a_master_class_seat_has_its_times_and_a_calendar_file(session, mailoutbox):  # type: ignore[no-untyped-def]
    masterclass.signup_create(
        experience="newcomer",
        session=session,
        name="Лена",
        email="lena@example.org",
        phone="",
        language="ru",
    )
    message = only(mailoutbox, "lena@example.org")
    assert message.subject == "Мастер-класс: Правила за один вечер"
    assert "Ваше место на мастер-классе забронировано." in message.body
    assert "18:30–20:00" in message.body and "Где: Библиотека, зал 2" in message.body
    calendar = ics_of(message)
    event = calendar.walk("VEVENT")[0]
    start = event.decoded("DTSTART")
    assert start.tzinfo is not None and start == session.starts_at
    assert start.astimezone(TORONTO).hour == 18
    assert event.decoded("DTEND") - start == timedelta(minutes=90)
    assert [tz["TZID"] for tz in calendar.walk("VTIMEZONE")] == ["America/Toronto"]
    assert str(event["SUMMARY"]) == "Правила за один вечер"


def test_the_waiting_list_e_mail_does_not_ask_to_give_up_a_seat_one_has_not(session, mailoutbox):  # type: ignore[no-untyped-def]
    masterclass.signup_create(
        experience="newcomer",
        session=session,
        name="A",
        email="a@example.org",
        phone="",
        language="en",
    )
    masterclass.signup_create(
        experience="newcomer",
        session=session,
        name="Sam",
        email="sam@example.org",
        phone="",
        language="en",
    )
    body = only(mailoutbox, "sam@example.org").body
    assert "on its waiting list, in position 1" in body
    assert "so that the next person on the waiting list gets your seat" not in body
    assert "If you no longer want a seat, you can leave the waiting list here:" in body
    assert only(mailoutbox, "sam@example.org").attachments == []


def test_a_cancellation_is_confirmed(session, mailoutbox):  # type: ignore[no-untyped-def]
    signup, _ = masterclass.signup_create(
        experience="newcomer",
        session=session,
        name="Лена",
        email="lena@example.org",
        phone="",
        language="ru",
    )
    mailoutbox.clear()
    masterclass.signup_cancel(signup=signup)
    message = only(mailoutbox, "lena@example.org")
    assert message.subject == "Мастер-класс «Правила за один вечер»: запись отменена"
    assert "Как вы просили, ваша запись на мастер-класс отменена." in message.body


def every_email(tournament: Tournament, session, language: str) -> list:  # type: ignore[no-untyped-def]
    """One message of every kind, in ``language``."""
    mail.outbox = []
    first = register(tournament, "Anna", language)
    second = register(tournament, "Boris", language)
    entries.registration_create(  # a duplicate: the link again
        tournament=tournament,
        name="Anna",
        email="anna@example.org",
        phone="",
        club="",
        experience="club",
        language=language,
    )
    entries.person_links_send(email="boris@example.org")
    entries.registration_withdraw(registration=first)  # withdrawn + promoted
    one, _ = masterclass.signup_create(
        experience="newcomer",
        session=session,
        name="Lena",
        email="lena@example.org",
        phone="",
        language=language,
    )
    two, _ = masterclass.signup_create(
        experience="newcomer",
        session=session,
        name="Sam",
        email="sam@example.org",
        phone="",
        language=language,
    )
    masterclass.signup_create(
        experience="newcomer",
        session=session,
        name="Sam",
        email="sam@example.org",
        phone="",
        language=language,
    )
    masterclass.signup_cancel(signup=one)  # cancelled + promoted
    MasterClassSignup.objects.filter(pk=two.pk).update(reminder_sent_at=None)
    emails.render("signup_reminder", two.pk).send()
    # Registration: confirm, link, promoted, withdrawn; sign-up: confirm, link, promoted,
    # cancelled, reminder — each kind has its own subject.
    assert len({m.subject for m in mail.outbox}) == 9 and second.pk
    return list(mail.outbox)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_e_mail_starts_its_first_sentence_with_a_capital(bilingual, session, language):  # type: ignore[no-untyped-def]
    bilingual.entry_cap = 1
    bilingual.save()
    for message in every_email(bilingual, session, language):
        greeting, rest = message.body.split("\n\n", 1)
        assert greeting.startswith("Hello " if language == "en" else "Здравствуйте, ")
        assert rest[:1].isupper(), (message.subject, rest[:60])
        assert "\n\n\n" not in message.body  # no holes in the text


def test_every_russian_e_mail_is_russian(bilingual, session):  # type: ignore[no-untyped-def]
    """Every sentence of a Russian e-mail is Russian (lines with words need Cyrillic, URLs
    and addresses aside), in the subject too."""
    english_data = {"Anna", "Boris", "Lena", "Sam", "1 Main St", "English", "+1 416"}
    for message in every_email(bilingual, session, "ru"):
        assert re.search("[а-яА-Я]", message.subject), message.subject
        for line in message.body.splitlines():
            text = re.sub(r"https?://\S+|\S+@\S+", "", line)
            for known in english_data:
                text = text.replace(known, "")
            if len(re.findall("[A-Za-z]", text)) >= 3:
                assert re.search("[а-яА-Я]", text), (message.subject, line)
