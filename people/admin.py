from django.contrib import admin

from .models import Person, PersonChange


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    list_display = ("name", "created_at", "merged_into")
    search_fields = ("name",)
    raw_id_fields = ("merged_into",)


@admin.register(PersonChange)
class PersonChangeAdmin(admin.ModelAdmin):
    list_display = ("kind", "person", "other", "user", "at", "undone_at")
    raw_id_fields = ("person", "other")
    readonly_fields = ("rows",)
