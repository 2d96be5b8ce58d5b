from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChampionshipConfig(AppConfig):
    name = "championship"
    verbose_name = _("Championship")
