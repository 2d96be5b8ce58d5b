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


from .models import Board, Entrant, ForbiddenPair, RequestedBye, ResultChange, Round  # noqa: E402


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


class BoardInline(admin.TabularInline):
    model = Board
    extra = 0
    fields = ["number", "white", "black", "bye", "result", "termination", "confirmed"]
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


@admin.register(ResultChange)
class ResultChangeAdmin(admin.ModelAdmin):
    list_display = ["board", "action", "old", "new", "user", "at"]
    readonly_fields = ["board", "action", "old", "new", "user", "at"]
