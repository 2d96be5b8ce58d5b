from django.contrib import admin

from .models import Tournament


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "starts_on", "venue", "entry_cap", "registration_open"]
    prepopulated_fields = {"slug": ["name"]}
