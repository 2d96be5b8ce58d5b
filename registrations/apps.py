from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RegistrationsConfig(AppConfig):
    name = "registrations"
    verbose_name = _("Registrations")

    def ready(self) -> None:
        from championship.selectors import registered_reader_install

        from . import selectors, signals
        from .services import participation

        signals.connect()
        # The championship (a layer below) reads registrations and withdraws players through
        # what this app installs: it imports nothing of it.
        participation.install()
        registered_reader_install(selectors.registered_not_entered)
