from django.urls import path

from . import (
    organiser_setup,
    organiser_views,
    public_views,
    rating_organiser_views,
    schedule_views,
    screen_views,
)

app_name = "championship"

urlpatterns = [
    path("", public_views.overview, name="overview"),
    path("players/", public_views.players, name="players"),
    path("players/<id:pk>/", public_views.player, name="player"),
    path("pairings/<id:number>/", public_views.pairings, name="pairings"),
    path("standings/", public_views.standings_page, name="standings"),
    path("crosstable/", public_views.crosstable_page, name="crosstable"),
    path("export.trf", public_views.trf_export, name="trf"),
    path("schedule.ics", public_views.schedule_ics, name="schedule_ics"),
    # The player's own page (a signed link from their registration's e-mails).
    path("version.json", public_views.version, name="version"),
    path("screen/", screen_views.venue_screen, name="screen"),
    path("manage/", organiser_views.dashboard, name="dashboard"),
    path("manage/pair/", organiser_views.pair_next, name="pair_next"),
    path("manage/pair/status.json", organiser_views.pair_status, name="pair_status"),
    path("manage/round/<id:number>/", organiser_views.round_manage, name="round_manage"),
    path(
        "manage/round/<id:number>/pair-again/",
        organiser_setup.round_pair_again,
        name="round_pair_again",
    ),
    path("manage/settings/", organiser_setup.tournament_settings, name="settings"),
    path("manage/schedule/", schedule_views.schedule_page, name="schedule"),
    path("manage/finish/", organiser_setup.tournament_finish, name="finish"),
    path("manage/entrants/", organiser_setup.entrants, name="entrants"),
    path("manage/entrants/<id:pk>/", organiser_setup.entrant_edit, name="entrant_edit"),
    path(
        "manage/entrants/<id:pk>/withdraw/",
        organiser_setup.entrant_withdraw,
        name="entrant_withdraw",
    ),
    path("manage/entrants/<id:pk>/delete/", organiser_setup.entrant_delete, name="entrant_delete"),
    path("manage/entrants/seed/", rating_organiser_views.seed_by_rating, name="seed_by_rating"),
    path(
        "manage/round/<id:number>/rated/",
        rating_organiser_views.round_rated,
        name="round_rated",
    ),
    path("manage/byes/", organiser_setup.byes, name="byes"),
    path("manage/forbidden-pairs/", organiser_setup.forbidden_pairs, name="forbidden"),
]
