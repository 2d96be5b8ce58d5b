from django.urls import path

from . import organiser_views, views

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
]
