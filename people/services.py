"""Writes of people: merging two people into one, splitting rows off into a new person, and
undoing either exactly. Keyword-only, ``PeopleError`` for what an organiser can fix.

The rows that belong to a person are found by their models (every ``PersonRow`` of every app):
a merge moves them all, whichever app they are in, and records which ones moved so that the
undo moves exactly those back."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from django.apps import apps
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.types import Actor, user_or_none

from .models import Person, PersonChange, PersonRow
from .signals import people_changed


class PeopleError(Exception):
    """A change of people that cannot be made as asked; the message says why, nothing
    changed."""


def person_row_models() -> list[type[PersonRow]]:
    """Every model whose rows belong to a person, by label order."""
    found = [m for m in apps.get_models() if issubclass(m, PersonRow)]
    return sorted(found, key=lambda m: m._meta.label_lower)


def person_rows(person: Person) -> dict[str, list[int]]:
    """``{"app_label.model": [ids]}`` of the rows that belong to ``person`` (one query per
    kind of row)."""
    out: dict[str, list[int]] = {}
    for model in person_row_models():
        ids = sorted(model.objects.filter(person=person).values_list("pk", flat=True))
        if ids:
            out[model._meta.label_lower] = ids
    return out


def _move(rows: Mapping[str, Sequence[int]], *, to: Person, only_from: Person) -> None:
    """Move the rows to ``to``; every one of them must belong to ``only_from`` now."""
    for label, ids in rows.items():
        model = apps.get_model(label)
        moved = model.objects.filter(pk__in=ids, person=only_from).update(person=to)
        if moved != len(set(ids)):
            raise PeopleError(
                _(
                    "Some of these rows belong to someone else now: undo the later changes of "
                    "these people first."
                )
            )


def _changed(*persons: Person) -> None:
    ids = sorted({p.pk for p in persons})
    transaction.on_commit(lambda: people_changed.send(sender=Person, person_ids=ids))


def _active(person: Person) -> Person:
    locked = Person.objects.select_for_update().get(pk=person.pk)
    if locked.merged_into_id is not None:
        raise PeopleError(
            _("%(name)s has been merged into another person already.") % {"name": locked.name}
        )
    return locked


def person_merge(
    *,
    kept: Person,
    merged: Person,
    user: Actor = None,
    name: str | None = None,
    kind: str = PersonChange.Kind.MERGE,
    now: datetime | None = None,
) -> PersonChange:
    """Everything of ``merged`` (tournaments, registrations) becomes ``kept``'s; ``merged`` is
    kept as a row that points to ``kept`` (its page leads there). ``name``: the name the kept
    person has from now on (one of the two, as the organiser chooses)."""
    if kept.pk == merged.pk:
        raise PeopleError(_("Choose two different people to merge."))
    with transaction.atomic():
        first, second = sorted([kept, merged], key=lambda p: p.pk)  # lock in one order
        locked = {p.pk: _active(p) for p in (first, second)}
        kept, merged = locked[kept.pk], locked[merged.pk]
        rows = person_rows(merged)
        _move(rows, to=kept, only_from=merged)
        change = PersonChange.objects.create(
            kind=kind,
            person=kept,
            other=merged,
            rows=rows,
            name_before=kept.name,
            user=user_or_none(user),
            at=now or timezone.now(),
        )
        merged.merged_into = kept
        merged.save(update_fields=["merged_into"])
        if name is not None and name.strip() and name.strip() != kept.name:
            kept.name = name.strip()
            kept.full_clean()
            kept.save(update_fields=["name"])
        _changed(kept, merged)
    return change


def person_split(
    *,
    person: Person,
    rows: Mapping[str, Sequence[int]],
    name: str,
    user: Actor = None,
    now: datetime | None = None,
) -> PersonChange:
    """The given rows of ``person`` become a new person's, named ``name``. Some rows must
    move and some stay."""
    wanted = {label: sorted(set(ids)) for label, ids in rows.items() if ids}
    if not name.strip():
        raise PeopleError(_("Give the new person a name."))
    with transaction.atomic():
        person = _active(person)
        have = person_rows(person)
        for label, ids in wanted.items():
            if not set(ids) <= set(have.get(label, [])):
                raise PeopleError(_("Choose rows of this person only."))
        count = sum(len(ids) for ids in wanted.values())
        if count == 0:
            raise PeopleError(_("Choose the tournaments or registrations to split off."))
        if count == sum(len(ids) for ids in have.values()):
            raise PeopleError(_("Leave at least one row with the person: that is a rename."))
        new = Person(name=name.strip())
        new.full_clean()
        new.save()
        _move(wanted, to=new, only_from=person)
        change = PersonChange.objects.create(
            kind=PersonChange.Kind.SPLIT,
            person=person,
            other=new,
            rows=wanted,
            name_before=person.name,
            user=user_or_none(user),
            at=now or timezone.now(),
        )
        _changed(person, new)
    return change


def person_change_undo(
    *, change: PersonChange, user: Actor = None, now: datetime | None = None
) -> PersonChange:
    """Undo a merge (the rows it moved go back to the merged person, who is separate again,
    and the kept person's name is restored) or a split (the rows go back; the new person is
    left empty, pointing to the original). Refused when a row moved since."""
    with transaction.atomic():
        change = PersonChange.objects.select_for_update().get(pk=change.pk)
        if change.undone_at is not None:
            raise PeopleError(_("This change has been undone already."))
        person = Person.objects.select_for_update().get(pk=change.person_id)
        other = Person.objects.select_for_update().get(pk=change.other_id)
        if change.kind == PersonChange.Kind.SPLIT:
            if other.merged_into_id is not None:
                raise PeopleError(_("Undo the later changes of these people first."))
            _move(change.rows, to=person, only_from=other)
            if any(person_rows(other).values()):
                raise PeopleError(_("Undo the later changes of these people first."))
            other.merged_into = person
            other.save(update_fields=["merged_into"])
        else:
            if other.merged_into_id != person.pk or person.merged_into_id is not None:
                raise PeopleError(_("Undo the later changes of these people first."))
            _move(change.rows, to=other, only_from=person)
            other.merged_into = None
            other.save(update_fields=["merged_into"])
            if change.name_before and person.name != change.name_before:
                person.name = change.name_before
                person.save(update_fields=["name"])
        change.undone_at = now or timezone.now()
        change.undone_by = user_or_none(user)
        change.save(update_fields=["undone_at", "undone_by"])
        _changed(person, other)
    return change
