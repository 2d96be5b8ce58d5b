"""Games and their move sheets.

A game's sheet is its list of turns. The position, the hands, the phase and (for the
terminations the moves decide) the result are derived by replaying the sheet through
``games.engine``; only what the moves cannot tell is stored: an organiser termination, an
adjournment and the clock.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from championship.models import TERMINATIONS
from common.text import SingleLineCharField

from .engine.game import ORGANISER_TERMINATIONS as ORGANISER_CODES
from .engine.game import Game as EngineGame

#: The terminations an organiser enters (RULES.md §7), labelled as on the results page.
ORGANISER_TERMINATIONS = [(code, label) for code, label in TERMINATIONS if code in ORGANISER_CODES]
SIDES = [("white", _("White")), ("black", _("Black"))]


class Game(models.Model):
    """A game of a pairing (``board`` and ``number`` 1 or 2: game 2 has the colours reversed)
    or a game standing alone (a friendly or master-class game: ``board`` is empty)."""

    board = models.ForeignKey(
        "championship.Board",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="games",
    )
    number = models.PositiveSmallIntegerField(_("game"), default=1)
    event = SingleLineCharField(_("event"), max_length=200, blank=True)
    white_name = SingleLineCharField(_("White"), max_length=150, blank=True)
    black_name = SingleLineCharField(_("Black"), max_length=150, blank=True)
    phase1_seconds = models.PositiveIntegerField(_("seconds per side, phase 1"), default=1800)
    phase2_seconds = models.PositiveIntegerField(_("seconds per side, phase 2"), default=1800)
    #: An organiser termination (the moves cannot tell it) and the side it concerns: the
    #: flagged, resigning or absent side, the loser of an adjudication; empty for a draw (an
    #: agreement, a drawn adjudication) and for a double forfeit.
    termination = models.CharField(
        _("termination"), max_length=12, choices=ORGANISER_TERMINATIONS, blank=True
    )
    termination_side = models.CharField(max_length=5, choices=SIDES, blank=True)
    adjourned = models.BooleanField(_("adjourned"), default=False)
    #: The application as the clock: each side's time left when the clock last changed hands,
    #: and since when the side to move has been thinking (empty: the clock is stopped).
    clock_white_ms = models.IntegerField(null=True, blank=True)
    clock_black_ms = models.IntegerField(null=True, blank=True)
    clock_running_since = models.DateTimeField(null=True, blank=True)
    #: The players' word on the result at the board's tablet: the result each side confirmed
    #: (``1-0 resign``; it counts while the game's result is still that one), and a result a
    #: player did not agree with, for the arbiter (cleared when the arbiter has settled it).
    white_confirmed = models.CharField(_("White confirmed"), max_length=30, blank=True)
    black_confirmed = models.CharField(_("Black confirmed"), max_length=30, blank=True)
    disputed = models.CharField(_("result disputed"), max_length=30, blank=True)
    disputed_by = models.CharField(max_length=5, choices=SIDES, blank=True)
    #: Bumped on every change: the key of the cached public page and of optimistic locking.
    version = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["board", "number"], name="game_unique_per_board"),
            models.CheckConstraint(
                condition=models.Q(number__in=[1, 2]), name="game_number_1_or_2"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.white_name or '?'} – {self.black_name or '?'}"

    def get_absolute_url(self) -> str:
        return reverse("games:detail", kwargs={"pk": self.pk})


class Turn(models.Model):
    """One line of the sheet: the turn in canonical notation, the mover's clock after it,
    any comments of the record, who entered it and when."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turns")
    ply = models.PositiveSmallIntegerField(_("ply"))
    text = models.CharField(_("turn"), max_length=40)
    clock = models.CharField(_("clock"), max_length=10, blank=True)
    comments = models.JSONField(default=list, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    #: Entered at the board's tablet (a signed link, no account): ``entered_by`` is empty.
    from_tablet = models.BooleanField(_("entered on the board's tablet"), default=False)
    entered_at = models.DateTimeField(auto_now_add=True)

    #: The game's replay just after this turn, when the service that recorded it made one (not
    #: stored): the tablet's answer reads the clock from it instead of replaying the sheet a
    #: third time (``services.turn_add``, ``tablet_views.action``).
    replay_after: EngineGame | None = None

    class Meta:
        ordering = ["game", "ply"]
        verbose_name = _("turn")
        verbose_name_plural = _("turns")
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="turn_unique_ply"),
            models.CheckConstraint(
                condition=models.Q(ply__gte=1, ply__lte=72), name="turn_ply_1_to_72"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.ply}. {self.text}"


class GameAnalysis(models.Model):
    """The engine's analysis of a finished game (``games.analysis``): one per game, for the
    game's ``moves`` it analysed. A change of the moves deletes it (the analysis of other
    moves no longer holds); a change of anything else (the players' confirmations, a
    dispute, the clock) keeps it. It is shown only while the game is finished and still has
    those moves, so nothing of it is reachable during play.

    ``plies`` holds ``PlyAnalysis.as_dict()`` of each ply in ply order; the counts are the
    mistakes and blunders of each side (None until done)."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for the engine")
        RUNNING = "running", _("being analysed")
        DONE = "done", _("analysed")
        FAILED = "failed", _("failed")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    #: The moves analysed: ``games.analysis.moves_key`` of the sheet (a hash of its turns).
    moves = models.CharField(max_length=64)
    #: The request this row belongs to: a task whose token differs does nothing.
    token = models.CharField(max_length=32)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)
    ms_per_ply = models.PositiveIntegerField(default=200)
    plies = models.JSONField(default=list, blank=True)
    mistakes_white = models.PositiveSmallIntegerField(null=True, blank=True)
    blunders_white = models.PositiveSmallIntegerField(null=True, blank=True)
    mistakes_black = models.PositiveSmallIntegerField(null=True, blank=True)
    blunders_black = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=200, blank=True)
    requested_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    #: Renewed after every ply analysed: a running analysis whose beat is older than
    #: ``ANALYSIS_HEARTBEAT_STALE`` seconds has lost its worker.
    beat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("game analysis")
        verbose_name_plural = _("game analyses")

    def __str__(self) -> str:
        return f"{self.game} · {self.moves[:8]}: {self.status}"


# --- Derived from an analysis: the report, exercises, awards, the opening explorer ---------
class GameReport(models.Model):
    """The report on an analysed game (``games.reports``; docs/analysis.md "The report"),
    derived from its ``GameAnalysis`` once that is done: ``data`` is the pure
    ``engine.report.GameReport.as_dict()``; the columns are what the event's awards and a
    player's summary read without opening it. It belongs to the analysis request ``token``:
    a report whose token is not the analysis' current one is stale and never shown."""

    analysis = models.OneToOneField(GameAnalysis, on_delete=models.CASCADE, related_name="report")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    token = models.CharField(max_length=32)
    data = models.JSONField(default=dict)
    #: Both sides' counted turns together, and each side's (0–100; None without a turn).
    accuracy = models.FloatField(null=True, blank=True)
    accuracy_white = models.FloatField(null=True, blank=True)
    accuracy_black = models.FloatField(null=True, blank=True)
    error_white = models.FloatField(null=True, blank=True)
    error_black = models.FloatField(null=True, blank=True)
    turns_white = models.PositiveSmallIntegerField(default=0)
    turns_black = models.PositiveSmallIntegerField(default=0)
    #: The sum of each side's turn accuracies (a player's accuracy over an event is the mean
    #: over all their counted turns).
    accuracy_sum_white = models.FloatField(default=0)
    accuracy_sum_black = models.FloatField(default=0)
    #: The lowest value each side had after any ply, from its own view (a comeback).
    lowest_white = models.FloatField(default=0)
    lowest_black = models.FloatField(default=0)
    #: The game's result when the report was made ("1-0", "0-1", "1/2-1/2").
    result = models.CharField(max_length=7, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("game report")
        verbose_name_plural = _("game reports")

    def __str__(self) -> str:
        return f"{self.game_id}: {self.accuracy}"


class Exercise(models.Model):
    """A position where a player made a mistake or a blunder, as an exercise: every play of
    it judged by the engine when it was made (``engine.exercise.Judgement.as_dict()``), so
    an answer is checked without searching. Derived from an analysis request (``token``)."""

    analysis = models.ForeignKey(GameAnalysis, on_delete=models.CASCADE, related_name="exercises")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="exercises")
    token = models.CharField(max_length=32)
    ply = models.PositiveSmallIntegerField()
    side = models.CharField(max_length=5, choices=SIDES)
    #: The tournament player who erred (None for a friendly game).
    entrant = models.ForeignKey(
        "championship.Entrant",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    played = models.CharField(max_length=40)
    verdict = models.CharField(max_length=10)
    judgement = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        verbose_name = _("exercise")
        verbose_name_plural = _("exercises")
        constraints = [
            models.UniqueConstraint(fields=["analysis", "ply"], name="exercise_unique_ply")
        ]

    def __str__(self) -> str:
        return f"{self.game_id} · {self.ply}"


class EventAwards(models.Model):
    """What the organisers decided about a tournament's awards page (shown by default once
    the tournament is finished)."""

    tournament = models.OneToOneField(
        "championship.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    hidden = models.BooleanField(_("awards hidden"), default=False)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("event awards")
        verbose_name_plural = _("event awards")

    def __str__(self) -> str:
        return f"{self.tournament_id}: {'hidden' if self.hidden else 'shown'}"


class OpeningMove(models.Model):
    """One of the first plies of a finished game, for the opening explorer
    (``games.openings``): the line before it (``parent``, a key of its turns) and after it
    (``key``), the turn, both players and the result. Rewritten whenever the game's sheet
    changes; a game that is not finished has none."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="opening_moves")
    ply = models.PositiveSmallIntegerField()
    parent = models.CharField(max_length=16)
    key = models.CharField(max_length=16)
    text = models.CharField(max_length=40)
    white = models.CharField(max_length=150)
    black = models.CharField(max_length=150)
    #: The players' names as a filter compares them (``openings.player_key``).
    white_key = models.CharField(max_length=150)
    black_key = models.CharField(max_length=150)
    result = models.CharField(max_length=7)

    class Meta:
        ordering = ["game", "ply"]
        indexes = [
            models.Index(fields=["parent", "text"], name="opening_parent"),
            models.Index(fields=["white_key", "parent"], name="opening_white"),
            models.Index(fields=["black_key", "parent"], name="opening_black"),
        ]
        constraints = [models.UniqueConstraint(fields=["game", "ply"], name="opening_unique_ply")]

    def __str__(self) -> str:
        return f"{self.game_id} · {self.ply}. {self.text}"


class GameSnapshot(models.Model):
    """What a game looked like from ``at`` until its next snapshot: written with every new
    version of the game (``services._touch``), so that spectators' pages can show the game as
    it was some minutes ago (``Tournament.spectator_delay_minutes``; ``games.delay``). The
    sheet itself is not copied: the turns shown are the sheet's first ``ply`` turns."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    version = models.PositiveIntegerField()
    at = models.DateTimeField()
    ply = models.PositiveSmallIntegerField()
    termination = models.CharField(max_length=12, blank=True)
    termination_side = models.CharField(max_length=5, blank=True)
    adjourned = models.BooleanField(default=False)
    clock_white_ms = models.IntegerField(null=True, blank=True)
    clock_black_ms = models.IntegerField(null=True, blank=True)
    clock_running_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "at", "version"]
        indexes = [models.Index(fields=["game", "at"], name="game_snapshot_at")]

    def __str__(self) -> str:
        return f"{self.game_id} v{self.version} @ {self.at:%H:%M:%S}: ply {self.ply}"
