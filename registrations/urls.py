from django.urls import path

from . import organiser_views, people_views, player_views, views

app_name = "registrations"

urlpatterns = [
    path("tournaments/<slug:slug>/register/", views.register, name="register"),
    path("tournaments/<slug:slug>/register/done/", views.register_done, name="done"),
    path("registration/confirm/<str:token>/", views.confirm, name="confirm"),
    path("registration/manage/<str:token>/", views.manage, name="manage"),
    path("registration/manage/<str:token>/withdraw/", views.withdraw, name="withdraw"),
    path("registration/manage/<str:token>/reenter/", views.reenter, name="reenter"),
    path("registration/lost-link/", views.lost_link, name="lost_link"),
    path("privacy/", views.privacy, name="privacy"),
    # The player's own page of the tournament day (a signed link of their registration).
    path("t/<slug:slug>/my/<str:token>/", player_views.my_day, name="my_day"),
    path("t/<slug:slug>/my/<str:token>/state.json", player_views.my_day_state, name="my_day_state"),
    path("master-class/", views.masterclass_list, name="masterclass_list"),
    path("master-class/<id:pk>/signup/", views.masterclass_signup, name="signup"),
    path("master-class/done/", views.signup_done, name="signup_done"),
    path("master-class/cancel/<str:token>/", views.signup_cancel, name="signup_cancel"),
    # Organisers
    path("organiser/registrations/", organiser_views.overview, name="overview"),
    path("tournaments/<slug:slug>/registrations/", organiser_views.registration_list, name="list"),
    path(
        "tournaments/<slug:slug>/registrations/announce/",
        organiser_views.announce,
        name="announce",
    ),
    path(
        "organiser/registrations/<id:pk>/",
        organiser_views.registration_detail,
        name="registration_detail",
    ),
    path("organiser/registrations/<id:pk>/check-in/", organiser_views.check_in, name="check_in"),
    path("organiser/registrations/digest/", organiser_views.digest, name="digest"),
    path("organiser/master-class/new/", organiser_views.session_create, name="session_create"),
    path("organiser/master-class/<id:pk>/edit/", organiser_views.session_edit, name="session_edit"),
    path(
        "organiser/master-class/<id:pk>/cancel/",
        organiser_views.session_cancel,
        name="session_cancel",
    ),
    path(
        "organiser/master-class/<id:pk>/signups/", organiser_views.signup_list, name="signup_list"
    ),
    path("organiser/master-class/<id:pk>/roster/", organiser_views.roster, name="roster"),
    path("organiser/people/", organiser_views.person, name="person"),
    path(
        "tournaments/<slug:slug>/entrants/import/",
        organiser_views.entrants_import,
        name="entrants_import",
    ),
    path("organiser/players/", people_views.people, name="people"),
    path("organiser/players/<id:pk>/", people_views.person, name="people_person"),
    path("organiser/players/<id:pk>/merge/", people_views.merge, name="people_merge"),
    path("organiser/players/<id:pk>/split/", people_views.split, name="people_split"),
    path("organiser/players/changes/<id:pk>/undo/", people_views.undo, name="people_undo"),
]
