from django.contrib import admin

from .models import Game, Turn


class TurnInline(admin.TabularInline):
    model = Turn
    extra = 0
    fields = ["ply", "text", "clock", "entered_by", "entered_at"]
    readonly_fields = ["entered_at"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "board", "number", "event", "termination", "adjourned", "created_at"]
    list_filter = ["termination", "adjourned"]
    search_fields = ["white_name", "black_name", "event"]
    raw_id_fields = ["board"]
    inlines = [TurnInline]
