"""Writes of a tournament's settings and of its end: created, edited (what the rounds already
paired fix cannot change), finished (final standings, frozen) and reopened."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Round, Tournament
from .errors import ChampionshipError
from .rounds import boards_without_results

#: Settings the rounds already paired depend on: fixed once round 1 is paired.
FIXED_ONCE_PAIRED = ("system", "games_per_pairing", "ruleset")


def settings_errors(t: Tournament) -> dict[str, str]:
    """Why ``t``'s (unsaved) settings cannot be stored given its rounds: field → message."""
    if t.pk is None:
        return {}
    errors: dict[str, str] = {}
    stored = Tournament.objects.get(pk=t.pk)
    paired = stored.round_set.order_by("-number").values_list("number", flat=True).first() or 0
    if t.rounds < 1:
        errors["rounds"] = _("A tournament has at least one round.")
    elif t.system == Tournament.System.SWISS and t.rounds < paired:
        errors["rounds"] = _(
            "%(n)d rounds are paired already: the tournament cannot have fewer."
        ) % {"n": paired}
    if paired:
        for name in FIXED_ONCE_PAIRED:
            if getattr(t, name) != getattr(stored, name):
                errors[name] = _("This cannot change once round 1 is paired.")
    return errors


def tournament_save(*, tournament: Tournament) -> Tournament:
    """Create or update a tournament's settings, all validated (model and rounds)."""
    if tournament.pk is not None:
        stored = Tournament.objects.filter(pk=tournament.pk).values_list("status", flat=True)
        if stored.first() == Tournament.Status.FINISHED:
            raise ChampionshipError(
                _("The tournament is finished: reopen it first to change anything.")
            )
    try:
        tournament.full_clean(exclude=["version"])
    except ValidationError as exc:
        raise ChampionshipError(" ".join(exc.messages)) from None
    errors = settings_errors(tournament)
    if errors:
        raise ChampionshipError(" ".join(errors.values()))
    with transaction.atomic():
        tournament.save()
    return tournament


def finish_problems(t: Tournament) -> list[str]:
    """Why ``t`` cannot be finished now (empty: it can)."""
    problems = []
    last = t.round_set.order_by("-number").first()
    if last is None:
        problems.append(_("No round has been played."))
        return problems
    if last.status == Round.Status.DRAFT:
        problems.append(
            _("Round %(n)d is still a draft: publish or delete it first.") % {"n": last.number}
        )
    elif boards_without_results(last, t.games_per_pairing).exists():
        problems.append(_("Round %(n)d still has games without a result.") % {"n": last.number})
    return problems


def tournament_finish(*, tournament: Tournament) -> Tournament:
    """The final standings: the tournament is finished, its pages say so, and nothing of it
    changes (no pairing, result, entrant or setting) unless it is reopened."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.status == Tournament.Status.FINISHED:
            raise ChampionshipError(_("The tournament is finished already."))
        problems = finish_problems(t)
        if problems:
            raise ChampionshipError(" ".join(problems))
        t.status = Tournament.Status.FINISHED
        t.finished_at = timezone.now()
        t.save(update_fields=["status", "finished_at"])
    return t


def tournament_reopen(*, tournament: Tournament) -> Tournament:
    """Undo finishing (a correction after the end): the standings are no longer final."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.status != Tournament.Status.FINISHED:
            raise ChampionshipError(_("The tournament is not finished."))
        t.status = Tournament.Status.RUNNING
        t.finished_at = None
        t.save(update_fields=["status", "finished_at"])
    return t
