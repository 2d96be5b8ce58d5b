"""The people made for the rows that existed before issue 23 (registrations 0005, championship
0015): one person per confirmed e-mail (any case), a person of its own for an unconfirmed
registration, an entrant of a registration its person, any other entrant a person of its own;
afterwards no row is without one."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [
    ("championship", "0014_schedule_check_in"),
    ("registrations", "0004_announcements_digest_titles_ru"),
]


@pytest.mark.django_db(transaction=True)
def test_people_for_existing_rows() -> None:
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        Tournament = old.get_model("championship", "Tournament")
        Entrant = old.get_model("championship", "Entrant")
        Registration = old.get_model("registrations", "Registration")
        now = timezone.now()
        march = Tournament.objects.create(
            name="M", slug="m", starts_on="2026-03-01", ends_on="2026-03-01"
        )
        may = Tournament.objects.create(
            name="Y", slug="y", starts_on="2026-05-01", ends_on="2026-05-01"
        )

        def reg(t, name, email, confirmed):  # type: ignore[no-untyped-def]
            return Registration.objects.create(
                tournament=t,
                name=name,
                email=email,
                experience="club",
                language="ru",
                consent_at=now,
                created_at=now,
                email_confirmed_at=now if confirmed else None,
            )

        anna_1 = reg(march, "Anna", "Anna@Example.org", True)
        anna_2 = reg(may, "Анна", "anna@example.org", True)
        stranger = reg(march, "Boris", "boris@example.org", False)
        boris_again = reg(may, "Boris", "boris@example.org", False)
        with_reg = Entrant.objects.create(tournament=may, name="Анна", registration_id=anna_2.pk)
        by_hand = Entrant.objects.create(tournament=may, name="Walk-in")
        ids = (anna_1.pk, anna_2.pk, stranger.pk, boris_again.pk, with_reg.pk, by_hand.pk)
    finally:
        executor.loader.build_graph()
        executor.migrate(latest)
    new = executor.loader.project_state(latest).apps
    Reg = new.get_model("registrations", "Registration")
    Ent = new.get_model("championship", "Entrant")
    Person = new.get_model("people", "Person")
    a1, a2, b1, b2 = (Reg.objects.get(pk=pk) for pk in ids[:4])
    e1, e2 = (Ent.objects.get(pk=pk) for pk in ids[4:])
    assert a1.person_id == a2.person_id == e1.person_id  # one confirmed address, any case
    assert Person.objects.get(pk=a1.person_id).name == "Анна"  # as in the latest
    assert b1.person_id != b2.person_id  # unconfirmed: nobody proved the address theirs
    assert len({a1.person_id, b1.person_id, b2.person_id, e2.person_id}) == 4
    assert Person.objects.get(pk=e2.person_id).name == "Walk-in"
    assert (
        not Reg.objects.filter(person=None).exists()
        and not Ent.objects.filter(person=None).exists()
    )
