from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_delete
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from championship.backup import register_board_section

        from .backup import SECTION

        register_board_section(SECTION)  # a tournament's backup carries its sheets
        post_delete.connect(_sheet_deleted, sender="games.Game", dispatch_uid="sheet-deleted")


def _sheet_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A deleted game of a pairing: the championship forgets its sheet (its result stays)."""
    if instance.board_id is not None:
        from championship import services

        services.game_result_sheet_removed(board_id=instance.board_id, number=instance.number)
