"""Every public and organiser page uses a number of queries that does not grow with the number
of registrations (checked at 10 and 300)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from championship.apps import ORGANISERS_GROUP
from championship.models import Tournament
from registrations import tokens
from registrations.models import MasterClassSignup, Registration
from tests.conftest import make_session

pytestmark = pytest.mark.django_db


def populate(n: int) -> dict[str, str]:
    t = Tournament.objects.create(
        name=f"T{n}", slug=f"t{n}", starts_on="2027-03-14", ends_on="2027-03-15", entry_cap=n // 2
    )
    session = make_session(seats=n // 2, tournament=t)
    now = timezone.now()
    regs = Registration.objects.bulk_create(
        Registration(
            tournament=t,
            name=f"Игрок {i}",
            email=f"p{n}-{i}@example.org",
            phone="+14165550123",
            club="Club",
            experience="club",
            language="ru",
            consent_at=now,
            email_confirmed_at=now if i % 2 else None,
            status="entered" if i < n // 2 else "waitlisted",
            checked_in_at=now if i % 3 else None,
        )
        for i in range(n)
    )
    MasterClassSignup.objects.bulk_create(
        MasterClassSignup(
            session=session,
            name=f"N {i}",
            email=f"s{n}-{i}@example.org",
            language="en",
            consent_at=now,
            status="booked" if i < n // 2 else "waitlisted",
        )
        for i in range(n)
    )
    reg = regs[0]
    signup = MasterClassSignup.objects.filter(session=session).first()
    assert signup is not None
    return {
        "home": "/",
        "tournament": f"/tournaments/{t.slug}/",
        "register": reverse("registrations:register", args=[t.slug]),
        "masterclass": reverse("registrations:masterclass_list"),
        "signup": reverse("registrations:signup", args=[session.pk]),
        "confirm": reverse(
            "registrations:confirm", args=[tokens.make_token(tokens.CONFIRM, reg.pk, reg.email)]
        ),
        "manage": reverse(
            "registrations:manage", args=[tokens.make_token(tokens.MANAGE, reg.pk, reg.email)]
        ),
        "cancel": reverse(
            "registrations:signup_cancel",
            args=[tokens.make_token(tokens.SIGNUP, signup.pk, signup.email)],
        ),
        "org_list": reverse("registrations:list", args=[t.slug]),
        "org_search": reverse("registrations:list", args=[t.slug]) + "?q=1&status=entered",
        "org_csv": reverse("registrations:list", args=[t.slug]) + "?_export=csv",
        "org_signups": reverse("registrations:signup_list", args=[session.pk]),
        "org_roster": reverse("registrations:roster", args=[session.pk]),
        "org_person": reverse("registrations:person") + f"?email={reg.email}",
    }


def count_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(ctx.captured_queries)


def test_query_counts_do_not_grow():
    user = User.objects.create_user("org", password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    small, large = populate(10), populate(300)
    client = Client()
    client.force_login(user)
    for page in small:
        # Warm up once at each size (session, permission caches; a confirmation link confirms
        # the address at its first visit, matching the person and making the public pages
        # new), then measure.
        count_queries(client, small[page])
        count_queries(client, large[page])
        a = count_queries(client, small[page])
        b = count_queries(client, large[page])
        assert a == b, f"{page}: {a} queries at 10 registrations, {b} at 300"
        assert b <= 12, f"{page}: {b} queries"
