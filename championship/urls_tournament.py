from django.urls import path

from games import views as game_views

from . import organiser_views, public_views

app_name = "championship"

urlpatterns = [
    path("", public_views.overview, name="overview"),
    path("players/", public_views.players, name="players"),
    path("players/<int:pk>/", public_views.player, name="player"),
    path("pairings/<int:number>/", public_views.pairings, name="pairings"),
    path("standings/", public_views.standings_page, name="standings"),
    path("crosstable/", public_views.crosstable_page, name="crosstable"),
    path("export.trf", public_views.trf_export, name="trf"),
    path("games.nrd", game_views.tournament_records, name="games_all"),
    path("games/<int:number>.nrd", game_views.tournament_records, name="games_round"),
    path("version.json", public_views.version, name="version"),
    path("manage/", organiser_views.dashboard, name="dashboard"),
    path("manage/pair/", organiser_views.pair_next, name="pair_next"),
    path("manage/pair/status.json", organiser_views.pair_status, name="pair_status"),
    path("manage/round/<int:number>/", organiser_views.round_manage, name="round_manage"),
]
