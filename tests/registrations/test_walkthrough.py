"""Faults found by the walk-through of issue 12 (as new players and an organiser, in English
and Russian), kept fixed."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from registrations import dates
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
