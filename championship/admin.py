from typing import Any

from django.contrib import admin

from .models import Tournament


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "starts_on",
        "venue",
        "system",
        "rounds",
        "status",
        "entry_cap",
        "registration_open",
    ]
    list_filter = ["system", "status"]
    prepopulated_fields = {"slug": ["name"]}


from .models import (  # noqa: E402
    Absence,
    Board,
    Entrant,
    ForbiddenPair,
    GameResult,
    NoShow,
    RequestedBye,
    ResultChange,
    Round,
    RoundStart,
)


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "tournament",
        "starting_number",
        "rating",
        "club",
        "checked_in",
        "withdrawn_after",
    ]
    list_filter = ["tournament", "checked_in"]
    search_fields = ["name", "club"]
    # Who an entrant is changes through the organisers' merges and splits (logged, undoable).
    # Check-in, a late entry's round and a withdrawal are each one fact with one door, the
    # organisers' entrants page (``services.entrant_check_in``, ``participant_withdraw``): the
    # registration, the waiting list, the e-mail and the byes of missed rounds follow there.
    readonly_fields = ["person", "checked_in", "joined_round", "withdrawn_after"]


class BoardInline(admin.TabularInline):
    model = Board
    extra = 0
    fields = ["number", "white", "black", "bye"]
    raw_id_fields = ["white", "black"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "published_at"]
    list_filter = ["tournament", "status"]
    inlines = [BoardInline]


@admin.register(RequestedBye)
class RequestedByeAdmin(admin.ModelAdmin):
    list_display = ["entrant", "round_number", "kind"]


@admin.register(ForbiddenPair)
class ForbiddenPairAdmin(admin.ModelAdmin):
    list_display = ["tournament", "first", "second", "reason"]


class ReadOnly(admin.ModelAdmin):
    """Results are entered on the round page and the move sheets (one write door, with its
    checks and history); the admin shows them."""

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(GameResult)
class GameResultAdmin(ReadOnly):
    list_display = ["board", "number", "result", "termination", "source", "confirmed", "has_sheet"]
    list_filter = ["source", "confirmed", "termination"]


@admin.register(ResultChange)
class ResultChangeAdmin(ReadOnly):
    list_display = ["game_result", "action", "source", "old", "new", "user", "at"]


@admin.register(RoundStart)
class RoundStartAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "starts_at"]
    list_filter = ["tournament"]


@admin.register(NoShow)
class NoShowAdmin(admin.ModelAdmin):
    """The arbiters' decisions on no-shows (the hall), read-only: a log."""

    list_display = ["board", "decision", "absent", "user", "at"]
    list_filter = ["decision"]
    readonly_fields = ["board", "decision", "absent", "user", "at"]

    def has_add_permission(self, request: Any) -> bool:
        return False


@admin.register(Absence)
class AbsenceAdmin(admin.ModelAdmin):
    """Absent players and their answers; an organiser may change an answer here."""

    list_display = ["entrant", "round", "status", "created_at", "decided_at"]
    list_filter = ["status"]
    raw_id_fields = ["entrant", "round"]
