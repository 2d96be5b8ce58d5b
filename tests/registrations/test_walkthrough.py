"""Faults found by the walk-through of issue 12 (as new players and an organiser, in English
and Russian), kept fixed."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from common import dates
from registrations.forms import SessionChoiceField
from tests.conftest import make_session

pytestmark = pytest.mark.django_db


def _wednesday() -> date:
    day = timezone.localdate() + timedelta(days=30)
    return day + timedelta(days=(2 - day.weekday()) % 7)


def test_russian_days_of_the_week_are_lower_case_inside_a_sentence() -> None:
    wednesday = _wednesday()
    start = timezone.make_aware(datetime.combine(wednesday, time(18, 30)))
    with translation.override("ru"):
        assert dates.long_date(wednesday).startswith("среда, ")
        both = dates.date_range(wednesday, wednesday + timedelta(days=1))
        assert " – четверг, " in both and both.startswith("среда")
        assert dates.sentence(both).startswith("Среда, ")
        assert dates.time_range(start, start + timedelta(hours=1, minutes=30)).startswith("среда, ")
    with translation.override("en"):
        assert dates.long_date(wednesday).startswith("Wednesday, ")


def test_russian_pages_write_the_dates_as_russian_does(client, tournament) -> None:  # type: ignore[no-untyped-def]
    wednesday = _wednesday()
    tournament.starts_on, tournament.ends_on = wednesday, wednesday + timedelta(days=1)
    tournament.save()
    session = make_session(tournament=tournament, days=(wednesday - timezone.localdate()).days)
    page = client.get(
        reverse("registrations:register", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    assert "Среда, " in page and " – четверг, " in page  # the line of facts
    with translation.override("ru"):
        label = SessionChoiceField(queryset=None).label_from_instance(session)
    assert " — среда, " in label  # the master-class choice, inside a sentence


def test_an_organisers_withdrawal_does_not_ask_whether_the_player_changed_their_mind(
    tournament, mailoutbox
):  # type: ignore[no-untyped-def]
    from registrations.models import Registration
    from registrations.services import entries
    from tests.conftest import registration_form

    data = registration_form(email="boris@example.org", language="ru")
    made = entries.registration_create(
        tournament=tournament,
        **{k: data[k] for k in ("name", "email", "phone", "club", "experience", "language")},
    )
    mailoutbox.clear()
    entries.registration_withdraw(registration=made.registration, by_organiser=True)
    (message,) = mailoutbox
    assert "Организаторы отменили вашу регистрацию" in message.body
    assert "Передумали?" not in message.body  # the player did not withdraw: nothing to regret
    assert "Если вы считаете, что это ошибка" in message.body
    assert "/registration/manage/" in message.body  # the registration is still there to see
    assert Registration.objects.get().status == Registration.Status.WITHDRAWN
    # The player's own withdrawal still offers to enter again.
    mailoutbox.clear()
    other = entries.registration_create(
        tournament=tournament,
        **{
            **{k: data[k] for k in ("name", "phone", "club", "experience", "language")},
            "email": "anna@example.org",
        },
    )
    entries.registration_withdraw(registration=other.registration)
    assert "Передумали?" in mailoutbox[-1].body


def _confirm_page(client, registration, language: str = "en") -> str:  # type: ignore[no-untyped-def]
    from registrations import tokens

    token = tokens.make_token(tokens.CONFIRM, registration.pk, registration.email)
    page = client.get(
        reverse("registrations:confirm", args=[token]) + f"?lang={language}",
    )
    assert page.status_code == 200
    return page.content.decode()


def test_confirming_the_address_says_the_status_not_see_you_to_everyone(client, tournament):  # type: ignore[no-untyped-def]
    from registrations.models import Registration
    from registrations.services import entries
    from tests.conftest import registration_form

    tournament.entry_cap = 1
    tournament.save()
    made = []
    for email in ("anna@example.org", "boris@example.org", "chen@example.org"):
        data = {**registration_form(email=email, language="en"), "email": email}
        made.append(
            entries.registration_create(
                tournament=tournament,
                **{
                    k: data[k] for k in ("name", "email", "phone", "club", "experience", "language")
                },
            ).registration
        )
    anna, boris, chen = made
    page = _confirm_page(client, anna)
    assert "See you at Toronto Open!" in page and 'data-status="entered"' in page
    assert "<title>Your e-mail address is confirmed" in page
    page = _confirm_page(client, chen, "ru")
    assert "До встречи" not in page and 'data-status="waitlisted"' in page
    assert "номер в очереди — 2" in page
    entries.registration_withdraw(registration=Registration.objects.get(pk=boris.pk))
    page = _confirm_page(client, boris)
    assert "See you at" not in page and 'data-status="withdrawn"' in page


def test_the_language_of_a_session_reads_as_a_phrase_of_the_page(client) -> None:  # type: ignore[no-untyped-def]
    session = make_session(language="en")
    listing = client.get(reverse("registrations:masterclass_list") + "?lang=ru").content.decode()
    assert "на английском" in listing and "язык: English" not in listing
    form = client.get(reverse("registrations:signup", args=[session.pk]) + "?lang=ru")
    assert "на английском" in form.content.decode()
    english = client.get(reverse("registrations:masterclass_list") + "?lang=en").content.decode()
    assert "in English" in english


def test_withdrawing_in_the_admin_is_an_organisers_withdrawal(client, tournament, mailoutbox):  # type: ignore[no-untyped-def]
    from django.contrib.auth.models import User

    from registrations.models import Registration
    from registrations.services import entries
    from tests.conftest import registration_form

    tournament.entry_cap = 1
    tournament.save()
    for email in ("anna@example.org", "boris@example.org"):
        data = {**registration_form(email=email, language="en"), "email": email}
        entries.registration_create(
            tournament=tournament,
            **{k: data[k] for k in ("name", "email", "phone", "club", "experience", "language")},
        )
    anna = Registration.objects.get(email="anna@example.org")
    client.force_login(User.objects.create_superuser("admin", "a@example.org", "pw"))
    url = reverse("admin:registrations_registration_change", args=[anna.pk])
    form = client.get(url).context["adminform"].form
    data = {k: ("" if v is None else v) for k, v in form.initial.items() if k in form.fields}
    data.update(status="withdrawn", phone_0="CA", phone_1="4165550123")
    data["phone"] = "+14165550123"
    mailoutbox.clear()
    answer = client.post(url, data)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    anna.refresh_from_db()
    assert anna.status == Registration.Status.WITHDRAWN and anna.withdrawn_at is not None
    to_anna = [m for m in mailoutbox if m.to == ["anna@example.org"]]
    assert len(to_anna) == 1 and "The organisers have withdrawn" in to_anna[0].body
    assert Registration.objects.get(email="boris@example.org").status == "entered"
    assert any(m.to == ["boris@example.org"] for m in mailoutbox)  # promoted, e-mailed
