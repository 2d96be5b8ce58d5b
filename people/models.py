"""The person: one player across tournaments. Every tournament entrant and every registration
belongs to one (``PersonRow``); organisers merge and split people, and every such change is a
``PersonChange`` that can be undone exactly.

This app is the lowest of the domain: it imports no other app (import contracts). The rows
that belong to a person live in the apps above (``championship.Entrant``,
``registrations.Registration``) and say so by inheriting ``PersonRow``; a merge moves every
such row without knowing which apps they are in."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from common.text import SingleLineCharField


class Person(models.Model):
    """A player. ``name`` is how the rating list and the person's page call them (public,
    like an entrant's name); contacts stay on the registrations. A person merged into another
    keeps their row (``merged_into``), so that the merge can be undone and old links lead on."""

    name = SingleLineCharField(_("name"), max_length=150)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    merged_into = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="merged",
        verbose_name=_("merged into"),
    )

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("person")
        verbose_name_plural = _("people")

    def __str__(self) -> str:
        return self.name


R = TypeVar("R", bound="PersonRow", covariant=True)
Row = TypeVar("Row", covariant=True)


def persons_assign(rows: Sequence[PersonRow]) -> None:
    """Give each row without a person one: the person ``person_default()`` names (an entrant's
    registration's), else a new person named as the row (one query for all of them)."""
    new: list[PersonRow] = []
    for row in rows:
        if row.person_id is not None:
            continue
        found = row.person_default()
        if found is not None:
            row.person_id = found
        else:
            new.append(row)
    if new:
        made = Person.objects.bulk_create(Person(name=row.name) for row in new)
        for row, person in zip(new, made, strict=True):
            row.person = person


class PersonRowQuerySet(models.QuerySet[R, Row]):
    def bulk_create(self, objs: Iterable[R], *args: Any, **kwargs: Any) -> list[R]:
        """Rows made in bulk get their persons too (``persons_assign``)."""
        rows = list(objs)
        persons_assign(rows)
        return super().bulk_create(rows, *args, **kwargs)


class PersonRow(models.Model):
    """A row that belongs to a person (abstract). Saved or made in bulk without one, it gets
    one (``persons_assign``): every way in (services, the admin, imports, tests) keeps the
    rule that each row has its person."""

    person = models.ForeignKey(
        Person,
        on_delete=models.PROTECT,
        related_name="%(class)ss",
        verbose_name=_("person"),
        blank=True,  # forms may leave it out: ``save`` gives the row its person
    )
    name: Any

    objects = PersonRowQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.person_id is None:
            persons_assign([self])
            fields = kwargs.get("update_fields")
            if fields is not None:
                kwargs["update_fields"] = {*fields, "person"}
        super().save(*args, **kwargs)

    def person_default(self) -> int | None:
        """The person a new row belongs to when none is given (None: a new person)."""
        return None


class PersonChange(models.Model):
    """A merge or a split of people, as it was done: which rows moved from whom to whom, by
    whom and when; undone (exactly: the same rows move back) at most once."""

    class Kind(models.TextChoices):
        MERGE = "merge", _("merge")
        SPLIT = "split", _("split")
        MATCH = "match", _("matched by a confirmed e-mail")

    kind = models.CharField(_("kind"), max_length=5, choices=Kind.choices)
    #: Merge/match: the person kept; split: the person split.
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="changes")
    #: Merge/match: the person merged into ``person``; split: the new person.
    other = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    #: The rows moved: ``{"app_label.model": [ids]}``.
    rows = models.JSONField(default=dict)
    #: The name ``person`` had before (a merge may keep the other's name).
    name_before = SingleLineCharField(max_length=150, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("change of people")
        verbose_name_plural = _("changes of people")

    def __str__(self) -> str:
        return f"{self.kind}: {self.person_id} / {self.other_id}"

    @property
    def moved(self) -> int:
        return sum(len(ids) for ids in self.rows.values())
