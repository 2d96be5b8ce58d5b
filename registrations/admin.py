from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest

from championship.services import (
    ChampionshipError,
    WithdrawnBy,
)

from .models import (
    Announcement,
    DigestSubscription,
    MasterClassSession,
    MasterClassSignup,
    OutboundEmail,
    Registration,
)
from .services.participation import participant_reinstate, participant_withdraw


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
        """Setting the status to withdrawn here, or from withdrawn back, is an organiser's
        withdrawal or return, as on the organisers' pages: the same door
        (``services.participation.participant_withdraw`` / ``participant_reinstate``) — the
        entrant follows, the player is e-mailed, the place goes to the waiting list. A refusal
        (a finished tournament) is said and the status is left as it was."""
        before = form.initial.get("status") if change else None
        withdrawn = Registration.Status.WITHDRAWN
        door = None
        if change and obj.status == withdrawn and before != withdrawn:
            door = participant_withdraw
        elif change and before == withdrawn and obj.status != withdrawn:
            door = participant_reinstate
        if door is not None:
            obj.status = before
        super().save_model(request, obj, form, change)
        if door is not None:
            try:
                done = door(registration=obj, by=WithdrawnBy.ORGANISER)
            except ChampionshipError as exc:
                messages.error(request, str(exc))
            else:
                messages.info(request, done.message())


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
