"""Merging and splitting people (people.services): every row of a person moves, the log says
who and when, an undo restores exactly, and the ratings follow."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from championship import services as championship
from championship.models import Entrant, PersonRating, Tournament
from people.models import Person, PersonChange
from people.services import PeopleError, person_change_undo, person_merge, person_split
from registrations.models import Registration
from registrations.services.entries import registration_confirm_email
from tests.championship.ratings_world import event, game

pytestmark = pytest.mark.django_db

JAN = date(2026, 1, 10)


def registration(t: Tournament, name: str, email: str, *, confirmed: bool = True) -> Registration:
    now = timezone.now()
    return Registration.objects.create(
        tournament=t,
        name=name,
        email=email,
        experience="club",
        language="ru",
        consent_at=now,
        email_confirmed_at=now if confirmed else None,
    )


def rows_of(p: Person) -> tuple[set[int], set[int]]:
    return (
        set(Entrant.objects.filter(person=p).values_list("pk", flat=True)),
        set(Registration.objects.filter(person=p).values_list("pk", flat=True)),
    )


def test_every_row_gets_a_person_whichever_way_it_is_made() -> None:
    t = event("t", JAN, [])
    r = registration(t, "Анна", "anna@example.org")
    e = Entrant.objects.create(tournament=t, name="Анна", registration=r)
    assert e.person_id == r.person_id  # an entrant of a registration is its person
    made = Entrant.objects.bulk_create(
        [Entrant(tournament=t, name="X"), Entrant(tournament=t, name="Y")]
    )
    assert len({m.person_id for m in made} | {r.person_id}) == 3
    assert Person.objects.get(pk=made[0].person_id).name == "X"


def test_merge_moves_everything_and_undo_restores_exactly() -> None:
    organiser = User.objects.create_user("org")
    a, b = Person.objects.create(name="Ivan Petrov"), Person.objects.create(name="Иван Петров")
    jan = event("jan", JAN, [a, b])
    mar = event("mar", date(2026, 3, 5), [b])
    reg = registration(mar, "Иван Петров", "ivan@example.org")
    Registration.objects.filter(pk=reg.pk).update(person=b)
    game(jan, 1, a, b, "1-0", day=JAN)
    a_rows, b_rows = rows_of(a), rows_of(b)
    change = person_merge(kept=a, merged=b, user=organiser, name="Иван Петров")
    a.refresh_from_db()
    b.refresh_from_db()
    assert rows_of(a) == (a_rows[0] | b_rows[0], a_rows[1] | b_rows[1])
    assert rows_of(b) == (set(), set())
    assert b.merged_into == a and a.name == "Иван Петров"
    assert (change.kind, change.user, change.person, change.other) == ("merge", organiser, a, b)
    assert change.moved == 3
    # The one game between them is now a person playing themselves: not rated.
    assert not PersonRating.objects.exists()

    person_change_undo(change=change, user=organiser)
    a.refresh_from_db()
    b.refresh_from_db()
    assert (rows_of(a), rows_of(b)) == (a_rows, b_rows)
    assert b.merged_into is None and a.name == "Ivan Petrov"
    change.refresh_from_db()
    assert change.undone_by == organiser and change.undone_at is not None
    assert PersonRating.objects.filter(person__in=[a, b]).count() == 2  # rated again
    with pytest.raises(PeopleError):
        person_change_undo(change=change, user=organiser)


def test_split_and_its_undo() -> None:
    a = Person.objects.create(name="Sam Patel")
    one, two = event("one", JAN, [a]), event("two", date(2026, 2, 1), [a])
    second = Entrant.objects.get(tournament=two)
    change = person_split(person=a, rows={"championship.entrant": [second.pk]}, name="Sam Patel")
    new = change.other
    assert rows_of(new)[0] == {second.pk} and rows_of(a)[0] == {
        Entrant.objects.get(tournament=one).pk
    }
    with pytest.raises(PeopleError):  # everything: that is a rename
        person_split(person=new, rows={"championship.entrant": [second.pk]}, name="Z")
    with pytest.raises(PeopleError):  # a row of someone else
        person_split(person=a, rows={"championship.entrant": [second.pk]}, name="Z")
    with pytest.raises(PeopleError):
        person_split(person=a, rows={}, name="Z")
    person_change_undo(change=change)
    new.refresh_from_db()
    assert rows_of(new) == (set(), set()) and new.merged_into == a
    assert len(rows_of(a)[0]) == 2


def test_an_undo_is_refused_once_the_rows_moved_again() -> None:
    a, b, c = (Person.objects.create(name=n) for n in "ABC")
    t = event("t", JAN, [a, b])
    u = event("u", date(2026, 2, 1), [b])
    merge = person_merge(kept=a, merged=b)
    later = person_split(
        person=a, rows={"championship.entrant": [Entrant.objects.get(tournament=u).pk]}, name="B2"
    )
    with pytest.raises(PeopleError, match="later"):
        person_change_undo(change=merge)
    person_change_undo(change=later)
    person_change_undo(change=merge)
    assert rows_of(b)[0] == {
        Entrant.objects.get(tournament=t, name="B").pk,
        Entrant.objects.get(tournament=u).pk,
    }
    del c


def test_merging_the_same_or_a_merged_person_is_refused() -> None:
    a, b, c = (Person.objects.create(name=n) for n in "ABC")
    with pytest.raises(PeopleError):
        person_merge(kept=a, merged=a)
    person_merge(kept=a, merged=b)
    with pytest.raises(PeopleError):
        person_merge(kept=c, merged=b)


def test_a_confirmed_email_joins_the_person_of_the_earlier_registrations() -> None:
    march, may = event("march", JAN, []), event("may", date(2026, 5, 1), [])
    first = registration(march, "Anna Ivanova", "Anna@Example.org")
    again = registration(may, "Анна Иванова", "anna@example.org", confirmed=False)
    assert again.person_id != first.person_id
    registration_confirm_email(registration=again)
    again.refresh_from_db()
    assert again.person_id == first.person_id
    change = PersonChange.objects.get()
    assert change.kind == "match" and change.user is None
    # An unconfirmed registration under the same address is not matched.
    third = registration(
        event("jul", date(2026, 7, 1), []), "A. I.", "anna@example.org", confirmed=False
    )
    assert third.person_id != first.person_id


def test_a_shared_address_split_by_an_organiser_is_matched_by_name_or_not_at_all() -> None:
    one, two, three = (event(s, JAN, []) for s in ("one", "two", "three"))
    mother = registration(one, "Olga Kim", "family@example.org")
    son = registration(two, "Pavel Kim", "family@example.org", confirmed=False)
    registration_confirm_email(registration=son)
    son.refresh_from_db()
    assert son.person_id == mother.person_id  # one person so far: the organiser splits them
    change = person_split(
        person=son.person, rows={"registrations.registration": [son.pk]}, name="Pavel Kim"
    )
    assert PersonChange.objects.filter(kind="split").get() == change
    again = registration(three, "Pavel  KIM", "family@example.org", confirmed=False)
    registration_confirm_email(registration=again)
    again.refresh_from_db()
    assert again.person_id == change.other_id
    stranger = registration(
        event("four", JAN, []), "Someone Else", "family@example.org", confirmed=False
    )
    registration_confirm_email(registration=stranger)
    stranger.refresh_from_db()
    assert stranger.person_id not in (mother.person_id, change.other_id)


def test_the_ratings_follow_a_merge() -> None:
    a, b, c = (Person.objects.create(name=n) for n in "ABC")
    jan = event("jan", JAN, [a, c])
    game(jan, 1, a, c, "1-0", day=JAN)
    feb = event("feb", date(2026, 2, 3), [b, c])
    game(feb, 1, b, c, "1-0", day=date(2026, 2, 3))
    championship.ratings_recompute()
    assert PersonRating.objects.filter(month=date(2026, 2, 1)).count() == 3
    person_merge(kept=a, merged=b)  # after the commit, the list is computed again
    assert set(
        PersonRating.objects.filter(month=date(2026, 2, 1)).values_list("person__name", flat=True)
    ) == {"A", "C"}
    assert PersonRating.objects.get(person=a, month=date(2026, 2, 1)).games == 1


def test_anonymising_a_registration_anonymises_a_person_who_never_played() -> None:
    from registrations.services.privacy import person_anonymise

    t = event("t", JAN, [])
    only_registered = registration(t, "Olga Kim", "olga@example.org")
    played = registration(t, "Ivan Petrov", "ivan@example.org")
    Entrant.objects.create(tournament=t, name="Ivan Petrov", registration=played)
    person_anonymise(email="olga@example.org")
    person_anonymise(email="ivan@example.org")
    assert Person.objects.get(pk=only_registered.person_id).name == "O. K."
    assert Person.objects.get(pk=played.person_id).name == "Ivan Petrov"  # results stay public
