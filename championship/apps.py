from typing import Any

from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _

ORGANISERS_GROUP = "Organisers"
#: (app_label, model, actions) the organisers' group may do.
ORGANISER_PERMISSIONS = [
    ("championship", "tournament", ("view", "add", "change")),
    ("registrations", "registration", ("view", "add", "change")),
    ("registrations", "masterclasssession", ("view", "add", "change", "delete")),
    ("registrations", "masterclasssignup", ("view", "add", "change")),
    ("registrations", "outboundemail", ("view",)),
    ("games", "game", ("view", "add", "change")),
    ("people", "person", ("view", "change")),
    ("games", "turn", ("view", "add", "change", "delete")),
]


def ensure_organisers_group(**kwargs: object) -> None:
    """Create or update the "Organisers" group after every migrate."""
    from django.contrib.auth.models import Group, Permission

    group, _created = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    wanted = [
        f"{action}_{model}" for app, model, actions in ORGANISER_PERMISSIONS for action in actions
    ]
    perms = Permission.objects.filter(
        content_type__app_label__in={app for app, _m, _a in ORGANISER_PERMISSIONS},
        codename__in=wanted,
    )
    group.permissions.add(*perms)


def _unicode_upper(value: object) -> object:
    return value.upper() if isinstance(value, str) else value


def sqlite_unicode_upper(sender: object, connection: Any, **kwargs: object) -> None:
    """SQLite's UPPER() knows only ASCII; PostgreSQL's knows every script. Give SQLite (the
    development database) Python's, so that searches for Cyrillic names behave the same."""
    if connection.vendor == "sqlite":
        connection.connection.create_function("upper", 1, _unicode_upper, deterministic=True)


class ChampionshipConfig(AppConfig):
    name = "championship"
    verbose_name = _("Championship")

    def ready(self) -> None:
        from common import links  # noqa: F401  - its deploy check: SITE_URL names the site

        from . import celery  # noqa: F401  - make the Celery app current for shared tasks
        from .services import changes

        changes.connect()  # every write the public pages show makes them new

        from people.signals import people_changed

        from .services.ratings import people_changed_received

        people_changed.connect(people_changed_received, dispatch_uid="ratings_follow_people")

        post_migrate.connect(ensure_organisers_group, dispatch_uid="ensure_organisers_group")
        connection_created.connect(sqlite_unicode_upper, dispatch_uid="sqlite_unicode_upper")
