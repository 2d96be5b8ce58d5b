from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import (
    Announcement,
    DigestSubscription,
    MasterClassSession,
    MasterClassSignup,
    OutboundEmail,
    Registration,
)
from .services import entries


# Saving or deleting here (a status, a cap, seats) fills freed places from the waiting list:
# registrations/signals.py.
@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "tournament",
        "email",
        "phone",
        "experience",
        "status",
        "email_confirmed_at",
        "created_at",
    ]
    list_filter = ["tournament", "status", "experience", "language"]
    search_fields = ["name", "email", "club"]
    # Check-in is the tournament's fact (the entrant's), changed on the organisers' pages.
    readonly_fields = [
        "consent_at",
        "created_at",
        "updated_at",
        "withdrawn_at",
        "checked_in_at",
        "person",  # changed through the organisers' merges and splits (logged, undoable)
    ]

    def save_model(self, request: HttpRequest, obj: Registration, form: Any, change: bool) -> None:
        """Setting the status to withdrawn here is an organiser's withdrawal, as on the
        organisers' pages: the time is noted, the player is e-mailed and the place goes to the
        waiting list (``entries.registration_withdraw``)."""
        withdrawing = (
            change
            and obj.status == Registration.Status.WITHDRAWN
            and form.initial.get("status") != Registration.Status.WITHDRAWN
        )
        if withdrawing:
            obj.status = form.initial["status"]
        super().save_model(request, obj, form, change)
        if withdrawing:
            withdrawn = entries.registration_withdraw(registration=obj, by_organiser=True)
            obj.status, obj.withdrawn_at = withdrawn.status, withdrawn.withdrawn_at


class SignupInline(admin.TabularInline):
    model = MasterClassSignup
    extra = 0
    fields = ["name", "email", "phone", "language", "status", "created_at", "reminder_sent_at"]
    readonly_fields = ["created_at", "reminder_sent_at"]


@admin.register(MasterClassSession)
class MasterClassSessionAdmin(admin.ModelAdmin):
    list_display = ["title", "starts_at", "place", "language", "seats"]
    list_filter = ["language", "tournament"]
    inlines = [SignupInline]


@admin.register(MasterClassSignup)
class MasterClassSignupAdmin(admin.ModelAdmin):
    list_display = ["name", "session", "email", "status", "created_at", "reminder_sent_at"]
    list_filter = ["status", "session"]
    search_fields = ["name", "email"]


@admin.register(OutboundEmail)
class OutboundEmailAdmin(admin.ModelAdmin):
    list_display = ["kind", "object_id", "status", "attempts", "created_at", "sent_at"]
    list_filter = ["status", "kind"]
    readonly_fields = [
        "kind",
        "object_id",
        "attempts",
        "last_error",
        "created_at",
        "message_id",
        "sending_since",
        "sent_at",
    ]


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin):
    """Sent from the registrations page; kept here as a record (not sent again from here)."""

    list_display = ["tournament", "subject", "subject_ru", "audience", "recipients", "created_at"]
    list_filter = ["tournament", "audience"]
    readonly_fields = ["recipients", "created_by", "created_at"]

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(DigestSubscription)
class DigestSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["user", "language", "created_at", "covered_until"]
