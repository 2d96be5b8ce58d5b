"""Reads for the organisers' pages of people: likely duplicates, a search, and everything an
organiser sees of one person (their tournaments, their registrations with contacts, the
merges and splits that concern them). Contacts appear only here, on organiser pages. A
bounded number of queries each."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.db.models.functions import Upper
from django.utils.translation import gettext_lazy as _

from championship.models import Entrant
from people.models import Person, PersonChange
from people.names import name_key, sound_key

from .models import Registration

#: Why two people are shown together, strongest first.
REASONS = {
    "phone": _("same phone"),
    "email": _("same e-mail"),
    "name": _("same name (case, spaces)"),
    "sound": _("names alike (Cyrillic / Latin spelling, word order)"),
}


@dataclass
class PersonSummary:
    person: Person
    tournaments: int = 0
    registrations: int = 0
    emails: set[str] = field(default_factory=set)
    phones: set[str] = field(default_factory=set)


@dataclass
class Duplicate:
    reason: str
    label: str
    people: list[PersonSummary]


def _summaries(persons: Sequence[Person]) -> dict[int, PersonSummary]:
    """Each person's counts and contacts: two queries."""
    out = {p.pk: PersonSummary(p) for p in persons}
    ids = list(out)
    for pid, count in (
        Entrant.objects.filter(person_id__in=ids)
        .values("person_id")
        .annotate(n=Count("pk"))
        .values_list("person_id", "n")
    ):
        out[pid].tournaments = count
    for pid, email, phone in Registration.objects.filter(person_id__in=ids).values_list(
        "person_id", "email", "phone"
    ):
        out[pid].registrations += 1
        if not email.endswith("@invalid.invalid"):
            out[pid].emails.add(email.lower())
        if phone:
            out[pid].phones.add(str(phone))
    return out


def _split_pairs() -> set[frozenset[int]]:
    """Pairs an organiser has split apart (not undone): they are known to be two people."""
    return {
        frozenset((a, b))
        for a, b in PersonChange.objects.filter(
            kind=PersonChange.Kind.SPLIT, undone_at__isnull=True
        ).values_list("person_id", "other_id")
    }


def people_duplicates() -> list[Duplicate]:
    """Groups of people who are likely one: the same phone or e-mail on their registrations,
    the same name up to case and spaces, or names alike across scripts and spellings. Pairs
    an organiser split apart are not shown again. Four queries, whatever the number of
    people."""
    persons = list(Person.objects.filter(merged_into__isnull=True).order_by("name", "pk"))
    summaries = _summaries(persons)
    known_apart = _split_pairs()
    keys: dict[tuple[str, str], list[int]] = defaultdict(list)
    for p in persons:
        s = summaries[p.pk]
        if s.tournaments == 0 and s.registrations == 0:
            continue
        for phone in s.phones:
            keys[("phone", phone)].append(p.pk)
        for email in s.emails:
            keys[("email", email)].append(p.pk)
        keys[("name", name_key(p.name))].append(p.pk)
        sound = sound_key(p.name)
        if sound:
            keys[("sound", sound)].append(p.pk)
    shown: set[frozenset[int]] = set()
    out = []
    for reason in REASONS:
        for (kind, label), ids in sorted(keys.items()):
            members = sorted(set(ids))
            if kind != reason or len(members) < 2:
                continue
            group = frozenset(members)
            pairs = {frozenset((a, b)) for a in members for b in members if a < b}
            if group in shown or pairs <= known_apart:
                continue
            shown.add(group)
            out.append(Duplicate(str(REASONS[reason]), label, [summaries[pk] for pk in members]))
    return out


def people_search(*, query: str, limit: int = 50) -> list[PersonSummary]:
    """People whose name contains ``query`` (any case, any script), at most ``limit``."""
    if not query.strip():
        return []
    persons = list(
        Person.objects.filter(merged_into__isnull=True)
        .annotate(name_u=Upper("name"))
        .filter(name_u__contains=query.strip().upper())
        .order_by("name", "pk")[:limit]
    )
    summaries = _summaries(persons)
    return [summaries[p.pk] for p in persons]


@dataclass
class PersonDetail:
    person: Person
    entrants: list[Entrant]
    registrations: list[Registration]
    changes: list[PersonChange]
    likely: list[PersonSummary]


def person_detail(person: Person) -> PersonDetail:
    """What an organiser sees of a person: tournaments, registrations (with contacts), the
    merges and splits that concern them (newest first), and the people likely the same."""
    entrants = list(
        Entrant.objects.filter(person=person)
        .select_related("tournament")
        .order_by("-tournament__starts_on", "pk")
    )
    registrations = list(
        Registration.objects.filter(person=person)
        .select_related("tournament")
        .order_by("-created_at", "pk")
    )
    changes = list(
        PersonChange.objects.filter(Q(person=person) | Q(other=person))
        .select_related("person", "other", "user", "undone_by")
        .order_by("-at", "-pk")[:50]
    )
    likely: list[PersonSummary] = []
    for group in people_duplicates():
        if any(s.person.pk == person.pk for s in group.people):
            likely += [s for s in group.people if s.person.pk != person.pk]
    unique = list({s.person.pk: s for s in likely}.values())
    return PersonDetail(person, entrants, registrations, changes, unique)
