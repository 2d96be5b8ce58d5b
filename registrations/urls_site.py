"""The site's front pages that belong to registration, without a namespace (``home``,
``tournament_detail``), included by the project's URLs."""

from django.urls import path

from . import absence_views, organiser_views, site_views

urlpatterns = [
    path("", site_views.home, name="home"),
    path("tournaments/<slug:slug>/", site_views.tournament_detail, name="tournament_detail"),
    # The absent player's question (the hall's no-shows): do they continue?
    path("player/<str:token>/absence/", absence_views.absence, name="player_absence"),
    # The organisers' removal of the demo data (registrations and tournaments together).
    path("manage/demo/remove/", organiser_views.demo_remove, name="demo_remove"),
]
