from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("", views.game_list, name="list"),
    path("new/", views.new_game, name="new"),
    path("board/<int:board>/<int:number>/", views.board_game, name="board_game"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/version.json", views.version, name="version"),
    path("<int:pk>/record.nrd", views.record, name="record"),
    path("<int:pk>/sheet/", views.sheet, name="sheet"),
    path("<int:pk>/clock/", views.clock_page, name="clock"),
    path("<int:pk>/clock/state.json", views.clock_state, name="clock_state"),
    path("<int:pk>/clock/action/", views.clock_action, name="clock_action"),
]
