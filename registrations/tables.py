import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from .models import Registration


class RegistrationTable(tables.Table):
    position = tables.Column(verbose_name="#", empty_values=(), orderable=False)
    confirmed = tables.BooleanColumn(
        verbose_name=_("e-mail confirmed"), accessor="email_confirmed_at", orderable=False
    )

    class Meta:
        model = Registration
        fields = (
            "position",
            "name",
            "email",
            "phone",
            "club",
            "experience",
            "language",
            "status",
            "confirmed",
            "created_at",
        )
        attrs = {"class": "table table-sm table-striped align-middle"}
        order_by = ("created_at",)

    def render_position(self) -> int:
        self.row_counter = getattr(self, "row_counter", 0) + 1
        return self.row_counter
