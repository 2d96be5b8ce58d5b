"""Organisers' tables (django-tables2, sortable) and their spreadsheet exports
(``common.exports``): the same words on the page and in the file, in the organiser's language.

The registrations table fits a 1280-pixel screen in both languages (name and club, e-mail and
phone share a cell) and turns into one card per registration on a phone (site.css, the cells'
``data-label``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from common.dates import short_date_time
from common.exports import Sheet

from .models import Experience, MasterClassSignup, Registration

REGISTRATION_STATUS = {
    Registration.Status.ENTERED: _("Entered"),
    Registration.Status.WAITLISTED: _("Waiting list"),
    Registration.Status.WITHDRAWN: _("Withdrawn"),
}
SIGNUP_STATUS = {
    MasterClassSignup.Status.BOOKED: _("Booked"),
    MasterClassSignup.Status.WAITLISTED: _("Waiting list"),
    MasterClassSignup.Status.CANCELLED: _("Cancelled"),
}
EXPERIENCE_SHORT = {
    Experience.NEWCOMER: _("Newcomer"),
    Experience.BEGINNER: _("Beginner"),
    Experience.CLUB: _("Club player"),
    Experience.EXPERIENCED: _("Experienced"),
}


def status_words(labels: dict[Any, Any], status: str, position: int | None) -> str:
    """``Waiting list · 2`` for the second in the queue, else the status's word."""
    word = str(labels.get(status, status))
    return f"{word} · {position}" if position else word


def _labelled(label: Any, **attrs: Any) -> dict[str, Any]:
    """Column attributes: the header's words on each cell too, for the phone layout."""
    return {"td": {"data-label": label, **attrs}, "th": attrs}


class RegistrationTable(tables.Table):
    name = tables.Column(verbose_name=_("Full name"), attrs=_labelled(_("Full name")))
    contact = tables.Column(
        verbose_name=_("Contact"),
        accessor="email",
        order_by=("email",),
        attrs=_labelled(_("Contact"), **{"class": "text-break"}),
    )
    experience = tables.Column(verbose_name=_("Experience"), attrs=_labelled(_("Experience")))
    language = tables.Column(verbose_name=_("Lang."), attrs=_labelled(_("Language")))
    status = tables.Column(
        verbose_name=_("Status"),
        order_by=("status", "created_at", "pk"),
        attrs=_labelled(_("Status"), **{"class": "text-nowrap"}),
    )
    confirmed = tables.Column(
        verbose_name=_("E-mail confirmed"),
        accessor="email_confirmed_at",
        attrs=_labelled(_("E-mail confirmed")),
    )
    created_at = tables.Column(verbose_name=_("Registered"), attrs=_labelled(_("Registered")))
    check_in = tables.TemplateColumn(
        template_name="registrations/_check_in.html",
        verbose_name=_("Check-in"),
        accessor="checked_in_at",
        attrs=_labelled(_("Check-in")),
    )

    class Meta:
        model = Registration
        fields = (
            "name",
            "contact",
            "experience",
            "language",
            "status",
            "confirmed",
            "created_at",
            "check_in",
        )
        attrs = {"class": "table table-sm table-striped align-middle registrations-table"}
        order_by = ("created_at",)

    def __init__(self, *args: Any, positions: dict[int, int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.positions = positions

    def render_name(self, record: Registration) -> str:
        from django.urls import reverse

        url = reverse("registrations:registration_detail", args=[record.pk])
        if record.club:
            return format_html(
                '<div><a href="{}">{}</a><br><small class="text-muted">{}</small></div>',
                url,
                record.name,
                record.club,
            )
        return format_html('<div><a href="{}">{}</a></div>', url, record.name)

    def render_contact(self, record: Registration) -> str:
        return format_html(
            '<div><a href="mailto:{}">{}</a><br><small>{}</small></div>',
            record.email,
            record.email,
            str(record.phone or ""),
        )

    # django-tables2 hands a choice field's label to render_*; the short words need the code.
    def render_experience(self, record: Registration) -> str:
        return str(EXPERIENCE_SHORT.get(record.experience, record.experience))

    def render_language(self, record: Registration) -> str:
        return record.language.upper()

    def render_status(self, record: Registration) -> str:
        return status_words(REGISTRATION_STATUS, record.status, self.positions.get(record.pk))

    def render_confirmed(self, value: object) -> str:
        return "✓" if value else "—"

    def render_created_at(self, value: Any) -> str:
        return short_date_time(value)


def registrations_sheet(
    registrations: Iterable[Registration], *, positions: dict[int, int]
) -> Sheet:
    """The registrations as a spreadsheet, in the active language."""
    headers = [
        gettext("Full name"),
        gettext("E-mail"),
        gettext("Phone"),
        gettext("Club or city"),
        gettext("Experience"),
        gettext("Preferred language"),
        gettext("Status"),
        gettext("Waiting-list position"),
        gettext("E-mail confirmed"),
        gettext("Registered at"),
        gettext("Checked in"),
        gettext("Checked in at"),
        gettext("Withdrawn at"),
    ]
    rows = (
        [
            r.name,
            r.email,
            str(r.phone or ""),
            r.club,
            str(EXPERIENCE_SHORT.get(r.experience, r.experience)),
            r.get_language_display(),
            str(REGISTRATION_STATUS.get(r.status, r.status)),
            positions.get(r.pk),
            r.email_confirmed_at is not None,
            r.created_at,
            r.checked_in_at is not None,
            r.checked_in_at,
            r.withdrawn_at,
        ]
        for r in registrations
    )
    return Sheet(title=gettext("Registrations"), headers=headers, rows=rows)


class SignupTable(tables.Table):
    name = tables.Column(verbose_name=_("Full name"), attrs=_labelled(_("Full name")))
    contact = tables.Column(
        verbose_name=_("Contact"),
        accessor="email",
        order_by=("email",),
        attrs=_labelled(_("Contact"), **{"class": "text-break"}),
    )
    language = tables.Column(verbose_name=_("Lang."), attrs=_labelled(_("Language")))
    status = tables.Column(
        verbose_name=_("Status"),
        order_by=("status", "created_at", "pk"),
        attrs=_labelled(_("Status")),
    )
    created_at = tables.Column(verbose_name=_("Signed up"), attrs=_labelled(_("Signed up")))
    reminder_sent_at = tables.Column(
        verbose_name=_("Reminder sent"), attrs=_labelled(_("Reminder sent"))
    )

    class Meta:
        model = MasterClassSignup
        fields = ("name", "contact", "language", "status", "created_at", "reminder_sent_at")
        attrs = {"class": "table table-sm table-striped align-middle registrations-table"}
        order_by = ("created_at",)

    def __init__(self, *args: Any, positions: dict[int, int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.positions = positions

    def render_contact(self, record: MasterClassSignup) -> str:
        return format_html(
            '<div><a href="mailto:{}">{}</a><br><small>{}</small></div>',
            record.email,
            record.email,
            str(record.phone or ""),
        )

    def render_language(self, record: MasterClassSignup) -> str:
        return record.language.upper()

    def render_status(self, record: MasterClassSignup) -> str:
        return status_words(SIGNUP_STATUS, record.status, self.positions.get(record.pk))

    def render_created_at(self, value: Any) -> str:
        return short_date_time(value)

    def render_reminder_sent_at(self, value: Any) -> str:
        return short_date_time(value)


def signups_sheet(signups: Iterable[MasterClassSignup], *, positions: dict[int, int]) -> Sheet:
    headers = [
        gettext("Full name"),
        gettext("E-mail"),
        gettext("Phone"),
        gettext("Preferred language"),
        gettext("Status"),
        gettext("Waiting-list position"),
        gettext("Signed up at"),
        gettext("Reminder sent at"),
    ]
    rows = (
        [
            s.name,
            s.email,
            str(s.phone or ""),
            s.get_language_display(),
            str(SIGNUP_STATUS.get(s.status, s.status)),
            positions.get(s.pk),
            s.created_at,
            s.reminder_sent_at,
        ]
        for s in signups
    )
    return Sheet(title=gettext("Master-class sign-ups"), headers=headers, rows=rows)
