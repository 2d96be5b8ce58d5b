from typing import Any

from django.contrib import admin

from .models import Game, Turn


class TurnInline(admin.TabularInline):
    model = Turn
    extra = 0
    fields = ["ply", "text", "clock", "entered_by", "entered_at"]
    readonly_fields = ["entered_at"]

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Games are written on the move sheet, the clock and the tablet (``games.services``: one
    door with the rules' checks, the results it tells the championship, and a finished
    tournament's refusal); the admin shows them. Only a friendly game may be deleted here: a
    pairing's game belongs to its tournament's results."""

    list_display = ["__str__", "board", "number", "event", "termination", "adjourned", "created_at"]
    list_filter = ["termination", "adjourned"]
    search_fields = ["white_name", "black_name", "event"]
    raw_id_fields = ["board"]
    inlines = [TurnInline]

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return (
            obj is not None and obj.board_id is None and super().has_delete_permission(request, obj)
        )
