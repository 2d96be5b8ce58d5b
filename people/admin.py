from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import Person, PersonChange


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    list_display = ("name", "created_at", "merged_into")
    search_fields = ("name",)
    # Merges go through the organisers' pages, where they are logged and can be undone.
    readonly_fields = ("merged_into", "created_at")


@admin.register(PersonChange)
class PersonChangeAdmin(admin.ModelAdmin):
    """The log of merges and splits: read only (undo them on the organisers' pages)."""

    list_display = ("kind", "person", "other", "user", "at", "undone_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
