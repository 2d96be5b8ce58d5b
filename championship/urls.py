from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

import common.converters  # noqa: F401  - registers <id:…> before the apps' URLs are read
from common import views as site
from common.login import LoginView

from . import organiser_setup, rating_views

urlpatterns = [
    path("", include("registrations.urls_site")),
    path("healthz", site.healthz, name="healthz"),
    path("lang/<str:code>/", site.switch_language, name="switch_language"),
    path("ratings/", rating_views.rating_list, name="ratings"),
    re_path(
        r"^ratings/(?P<year>[0-9]{4})-(?P<month>[0-9]{2})/$",
        rating_views.rating_list,
        name="ratings_month",
    ),
    path("people/<id:pk>/", rating_views.person, name="person"),
    path("manage/", organiser_setup.organiser_home, name="organiser_home"),
    path("manage/new/", organiser_setup.tournament_create, name="tournament_create"),
    path("t/<slug:slug>/", include("championship.urls_tournament")),
    # The absent player's question, opened from their registration's signed link.
    path("", include("games.urls")),
    path("", include("registrations.urls")),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
