"""Organisers' tables (django-tables2): sortable, exportable to CSV and XLSX."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from .models import MasterClassSignup, Registration


class RegistrationTable(tables.Table):
    name = tables.Column(verbose_name=_("Full name"))
    email = tables.EmailColumn(verbose_name=_("E-mail"))
    phone = tables.Column(verbose_name=_("Phone"))
    confirmed = tables.BooleanColumn(
        verbose_name=_("e-mail confirmed"), accessor="email_confirmed_at", orderable=False
    )
    check_in = tables.TemplateColumn(
        template_name="registrations/_check_in.html",
        verbose_name=_("Check-in"),
        accessor="checked_in_at",
        exclude_from_export=True,
    )
    checked_in_at = tables.DateTimeColumn(verbose_name=_("checked in at"), visible=False)

    class Meta:
        model = Registration
        fields = (
            "name",
            "email",
            "phone",
            "club",
            "experience",
            "language",
            "status",
            "confirmed",
            "created_at",
            "check_in",
            "checked_in_at",
        )
        attrs = {"class": "table table-sm table-striped align-middle"}
        order_by = ("created_at",)

    def value_phone(self, value: object) -> str:
        return str(value or "")


class SignupTable(tables.Table):
    email = tables.EmailColumn(verbose_name=_("E-mail"))

    class Meta:
        model = MasterClassSignup
        fields = ("name", "email", "phone", "language", "status", "created_at", "reminder_sent_at")
        attrs = {"class": "table table-sm table-striped align-middle"}
        order_by = ("created_at",)

    def value_phone(self, value: object) -> str:
        return str(value or "")
