from typing import Any

from django.contrib import admin

from .models import Tournament
from .services import bump_versions


class NewVersionOnSave(admin.ModelAdmin):
    """Edits here change what the public pages show (cached per tournament version): saving or
    deleting makes a new version, as the organisers' own pages do (services.bump_versions)."""

    def versioned(self, obj: Any) -> tuple[Tournament, int | None]:
        """The tournament (and round) whose pages show ``obj``."""
        return obj.tournament, None

    def save_related(self, request: Any, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)  # after the object and inlines
        bump_versions(*self.versioned(form.instance))

    def delete_model(self, request: Any, obj: Any) -> None:
        tournament, _round = self.versioned(obj)
        super().delete_model(request, obj)
        bump_versions(tournament)  # a deleted tournament: no row to update, nothing to warm

    def delete_queryset(self, request: Any, queryset: Any) -> None:
        tournaments = {t.pk: t for t, _round in map(self.versioned, queryset)}
        super().delete_queryset(request, queryset)
        for tournament in tournaments.values():
            bump_versions(tournament)


@admin.register(Tournament)
class TournamentAdmin(NewVersionOnSave):
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

    def versioned(self, obj: Any) -> tuple[Tournament, int | None]:
        return obj, None


from .models import Board, Entrant, ForbiddenPair, RequestedBye, ResultChange, Round  # noqa: E402


@admin.register(Entrant)
class EntrantAdmin(NewVersionOnSave):
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


class BoardInline(admin.TabularInline):
    model = Board
    extra = 0
    fields = ["number", "white", "black", "bye", "result", "termination", "confirmed"]
    raw_id_fields = ["white", "black"]


@admin.register(Round)
class RoundAdmin(NewVersionOnSave):
    list_display = ["tournament", "number", "status", "published_at"]
    list_filter = ["tournament", "status"]
    inlines = [BoardInline]

    def versioned(self, obj: Any) -> tuple[Tournament, int | None]:
        return obj.tournament, obj.pk


@admin.register(RequestedBye)
class RequestedByeAdmin(admin.ModelAdmin):
    list_display = ["entrant", "round_number", "kind"]


@admin.register(ForbiddenPair)
class ForbiddenPairAdmin(admin.ModelAdmin):
    list_display = ["tournament", "first", "second", "reason"]


@admin.register(ResultChange)
class ResultChangeAdmin(admin.ModelAdmin):
    list_display = ["board", "action", "old", "new", "user", "at"]
    readonly_fields = ["board", "action", "old", "new", "user", "at"]
