from django.urls import path

from . import views

app_name = "registrations"

urlpatterns = [
    path("tournaments/<slug:slug>/register/", views.register, name="register"),
    path("tournaments/<slug:slug>/register/done/", views.register_done, name="done"),
    path("tournaments/<slug:slug>/registrations/", views.registration_list, name="list"),
    path("registration/confirm/<str:token>/", views.confirm, name="confirm"),
    path("registration/manage/<str:token>/", views.manage, name="manage"),
    path("registration/manage/<str:token>/withdraw/", views.withdraw, name="withdraw"),
    path("registration/manage/<str:token>/reenter/", views.reenter, name="reenter"),
    path("master-class/", views.masterclass_list, name="masterclass_list"),
    path("master-class/<int:pk>/signup/", views.masterclass_signup, name="signup"),
    path("master-class/done/", views.signup_done, name="signup_done"),
    path("master-class/cancel/<str:token>/", views.signup_cancel, name="signup_cancel"),
]
