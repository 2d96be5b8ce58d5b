from django.urls import path

from . import hall_views, multiboard_views, report_views, tablet_views, urls_polls, views

app_name = "games"

urlpatterns = [
    path("games/", views.game_list, name="list"),
    path("games/new/", views.new_game, name="new"),
    path("games/board/<id:board>/<id:number>/", views.board_game, name="board_game"),
    path("games/pairing/<id:board>/<id:number>/", views.pairing_game, name="pairing"),
    path("games/<id:pk>/", views.detail, name="detail"),
    path("games/<id:pk>/version.json", views.version, name="version"),
    path("games/<id:pk>/record.nrd", views.record, name="record"),
    path("games/<id:pk>/analysis.json", views.analysis_status, name="analysis_status"),
    path("games/<id:pk>/analysis/start/", views.analysis_start, name="analysis_start"),
    path("games/<id:pk>/analysis/<id:ply>/", views.analysis_ply, name="analysis_ply"),
    path("games/<id:pk>/sheet/", views.sheet, name="sheet"),
    path("games/<id:pk>/clock/", views.clock_page, name="clock"),
    path("games/<id:pk>/clock/state.json", views.clock_state, name="clock_state"),
    path("games/<id:pk>/clock/action/", views.clock_action, name="clock_action"),
    # The tablet at a board: a signed link, no account (tablet_views).
    path("tablet/<id:pk>/<str:token>/", tablet_views.page, name="tablet"),
    path("tablet/<id:pk>/<str:token>/state.json", tablet_views.state, name="tablet_state"),
    path("tablet/<id:pk>/<str:token>/action/", tablet_views.action, name="tablet_action"),
    # A round in the hall (organisers): the arbiter's view, the tablets' links, paper sheets.
    path("t/<slug:slug>/round/<id:number>/hall/", hall_views.hall, name="hall"),
    path("t/<slug:slug>/round/<id:number>/hall.json", hall_views.hall_json, name="hall_json"),
    path("t/<slug:slug>/round/<id:number>/tablets/", hall_views.tablets, name="tablets"),
    path("t/<slug:slug>/round/<id:number>/progress/", hall_views.progress, name="round_progress"),
    path("t/<slug:slug>/round/<id:number>/sheets/", hall_views.paper_sheets, name="paper_sheets"),
    urls_polls.LIVE,
    # What players do with the analysis (issue 24): the definitions, the event's awards,
    # training from a player's own mistakes, the opening explorer.
    path("analysis/explained/", report_views.explained, name="analysis_explained"),
    path("openings/", report_views.explorer, name="explorer"),
    path("t/<slug:slug>/awards/", report_views.awards, name="awards"),
    path(
        "t/<slug:slug>/awards/visibility/",
        report_views.awards_visibility,
        name="awards_visibility",
    ),
    path("t/<slug:slug>/players/<id:pk>/training/", report_views.training, name="training"),
    path(
        "t/<slug:slug>/players/<id:pk>/training/<id:exercise_id>/",
        report_views.exercise,
        name="exercise",
    ),
    # Every game of a round at once, for spectators (games.multiboard).
    path("t/<slug:slug>/round/<id:number>/live/", multiboard_views.page, name="multiboard"),
    urls_polls.FEED,
    # A tournament's recorded games (the tournament's pages link here by these names).
    path("t/<slug:slug>/games.nrd", views.tournament_records, name="tournament_records"),
    path("t/<slug:slug>/games/<id:number>.nrd", views.tournament_records, name="round_records"),
]
