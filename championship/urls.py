from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

import common.converters  # noqa: F401  - registers <id:…> before the apps' URLs are read
from common import views as site
from common.login import LoginView

from . import organiser_setup, player_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", site.healthz, name="healthz"),
    path("lang/<str:code>/", site.switch_language, name="switch_language"),
    path("tournaments/<slug:slug>/", views.tournament_detail, name="tournament_detail"),
    path("manage/", organiser_setup.organiser_home, name="organiser_home"),
    path("manage/new/", organiser_setup.tournament_create, name="tournament_create"),
    path("t/<slug:slug>/", include("championship.urls_tournament")),
    # The absent player's question, opened from their registration's signed link.
    path("player/<str:token>/absence/", player_views.absence, name="player_absence"),
    path("", include("games.urls")),
    path("", include("registrations.urls")),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
