"""Tournaments, entrants, rounds, boards (pairings with their results) and result history."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, validate_slug
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from common.i18n import localized
from common.text import SingleLineCharField
from games.engine.vocabulary import Result, Termination
from people.models import PersonRow

from .pairing import DEFAULT_RULESET, RULESET_KEYS, TIEBREAKS

#: The pairing rulesets (championship.pairing.RULESETS) by their names on the pages.
RULESET_LABELS = [
    ("dutch-2025", _("FIDE Dutch (2025)")),
    ("dutch-2017", _("FIDE Dutch (2017)")),
]
assert tuple(key for key, _label in RULESET_LABELS) == RULESET_KEYS

#: The tie-breaks (championship.pairing.TIEBREAKS) by their names on the pages, in the user's
#: language, with the FIDE abbreviation the standings show as the column's head.
TIEBREAK_NAMES = {
    "bh": _("Buchholz"),
    "bh_c1": _("Buchholz Cut-1"),
    "bh_m1": _("Median Buchholz"),
    "sb": _("Sonneborn-Berger"),
    "de": _("Direct encounter"),
    "win": _("Number of wins"),
    "bwg": _("Games won with Black"),
    "aro": _("Average rating of opponents"),
}
assert set(TIEBREAK_NAMES) == {t.key for t in TIEBREAKS}
TIEBREAK_KEYS = tuple(t.key for t in TIEBREAKS)
TIEBREAK_ABBREVIATIONS = {t.key: t.abbreviation for t in TIEBREAKS}


def tiebreak_keys(value: str) -> list[str]:
    """The keys of a stored tie-break order (``bh_c1,bh,sb``), empty items dropped."""
    return [k.strip() for k in (value or "").split(",") if k.strip()]


def validate_tiebreaks(value: str) -> None:
    """A tie-break order holds known keys, each once: anything else never reaches the
    database (the standings would not know how to compute it)."""
    keys = tiebreak_keys(value)
    unknown = [k for k in keys if k not in TIEBREAK_NAMES]
    if unknown:
        raise ValidationError(
            _("Unknown tie-break: %(keys)s. Choose from the list."),
            code="unknown_tiebreak",
            params={"keys": ", ".join(unknown)},
        )
    if len(set(keys)) != len(keys):
        raise ValidationError(_("Each tie-break can be chosen once."), code="repeated_tiebreak")


def validate_time_zone(value: str) -> None:
    """An IANA zone name this machine knows (``zoneinfo``)."""
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValidationError(
            _("Unknown time zone: %(zone)s (e.g. America/Toronto)."),
            code="unknown_time_zone",
            params={"zone": value},
        ) from None


class RegistrationState(models.TextChoices):
    """Where a tournament's registration stands (``Tournament.registration_state``)."""

    OPEN = "open", _("Registration open")
    NOT_YET = "not_yet", _("Registration not open yet")
    CLOSED = "closed", _("Registration closed")
    STARTED = "started", _("Under way")
    FINISHED = "finished", _("Final")


class Tournament(models.Model):
    name = SingleLineCharField(_("name"), max_length=200)
    name_ru = SingleLineCharField(
        _("name in Russian"),
        max_length=200,
        blank=True,
        help_text=_("Shown on Russian pages and in Russian e-mails; empty: the name above."),
    )
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    venue = SingleLineCharField(_("venue"), max_length=300, blank=True)
    city = SingleLineCharField(
        _("city"), max_length=100, blank=True, help_text=_("In the tournament report (TRF).")
    )
    federation = SingleLineCharField(
        _("federation"),
        max_length=3,
        blank=True,
        help_text=_("The organising federation's three-letter code, e.g. CAN (TRF)."),
    )
    chief_arbiter = SingleLineCharField(_("chief arbiter"), max_length=150, blank=True)
    deputy_arbiters = models.TextField(
        _("deputy arbiters"), blank=True, help_text=_("One name per line.")
    )
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    entry_cap = models.PositiveIntegerField(
        _("entry cap"),
        null=True,
        blank=True,
        help_text=_("Registrations beyond this number go on the waiting list. Empty: no cap."),
    )
    registration_open = models.BooleanField(_("registration open"), default=True)
    registration_opens_on = models.DateField(
        _("registration opens on"),
        null=True,
        blank=True,
        help_text=_("Empty: open as soon as the tournament is published."),
    )
    registration_closes_on = models.DateField(
        _("registration closes on"),
        null=True,
        blank=True,
        help_text=_(
            "The last day players can register (in the tournament's time zone). Empty: until "
            "the first day. Registration closes anyway once round 1 is paired."
        ),
    )
    #: Every time a person reads (schedules, e-mails, calendar files, the hall) is in this zone;
    #: the database stores aware datetimes (UTC). ``RoundStart`` holds the round times.
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default="America/Toronto",
        validators=[validate_time_zone],
        help_text=_("The zone of the venue, e.g. America/Toronto."),
    )
    #: The schedule (docs: README, "The tournament day"): how long a round lasts (spacing of
    #: suggested starts, the end of each round's calendar event), and the players' own check-in,
    #: a window before round 1's start that closes at a cut-off.
    round_minutes = models.PositiveSmallIntegerField(
        _("round length (minutes)"),
        null=True,
        blank=True,
        help_text=_(
            "From one round's start to the next one's on the same day. Empty: twice the time "
            "control plus 15 minutes."
        ),
    )
    self_check_in = models.BooleanField(
        _("players check themselves in"),
        default=True,
        help_text=_("From their own page, during the check-in window before round 1."),
    )
    check_in_opens_minutes = models.PositiveSmallIntegerField(
        _("check-in opens (minutes before round 1)"), default=60
    )
    check_in_closes_minutes = models.PositiveSmallIntegerField(
        _("check-in cut-off (minutes before round 1)"),
        default=15,
        help_text=_("After it only the arbiter checks players in (as late entries)."),
    )
    description = models.TextField(_("description"), blank=True)
    description_ru = models.TextField(
        _("description in Russian"),
        blank=True,
        help_text=_("Shown on Russian pages; empty: the description above."),
    )

    class System(models.TextChoices):
        SWISS = "swiss", _("Swiss (FIDE Dutch)")
        ROUND_ROBIN = "rr", _("Round robin")
        DOUBLE_ROUND_ROBIN = "drr", _("Double round robin")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    system = models.CharField(
        _("system"), max_length=5, choices=System.choices, default=System.SWISS
    )
    ruleset = models.CharField(
        _("pairing rules"),
        max_length=12,
        choices=RULESET_LABELS,
        default=DEFAULT_RULESET,
        help_text=_("For a Swiss: the FIDE Dutch rules as revised in 2025, or as in 2017."),
    )
    rounds = models.PositiveSmallIntegerField(
        _("number of rounds"),
        default=7,
        help_text=_("For a round robin it follows from the field."),
    )
    phase1_minutes = models.PositiveSmallIntegerField(_("minutes per side, phase 1"), default=30)
    phase2_minutes = models.PositiveSmallIntegerField(_("minutes per side, phase 2"), default=30)
    points_win = models.DecimalField(
        _("points for a win"), max_digits=3, decimal_places=1, default=Decimal("1")
    )
    points_draw = models.DecimalField(
        _("points for a draw"), max_digits=3, decimal_places=1, default=Decimal("0.5")
    )
    points_loss = models.DecimalField(
        _("points for a loss"), max_digits=3, decimal_places=1, default=Decimal("0")
    )
    points_bye = models.DecimalField(
        _("points for a pairing-allocated bye"),
        max_digits=3,
        decimal_places=1,
        default=Decimal("1"),
    )
    tiebreaks = models.CharField(
        _("tie-break order"),
        max_length=100,
        default="bh_c1,bh,sb,de,win,bwg,aro",
        validators=[validate_tiebreaks],
        help_text=_("Keys in order: bh, bh_c1, bh_m1, sb, de, win, bwg, aro."),
    )
    max_half_point_byes = models.PositiveSmallIntegerField(
        _("half-point byes per player"),
        default=1,
        help_text=_(
            "The most half-point byes one player may have, requested or for the rounds a late "
            "entry missed; beyond it, missed rounds score zero."
        ),
    )
    games_per_pairing = models.PositiveSmallIntegerField(
        _("games per pairing"), choices=[(1, "1"), (2, "2")], default=1
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.REGISTRATION
    )
    forbid_same_club = models.BooleanField(_("players of the same club do not meet"), default=False)
    two_person_confirmation = models.BooleanField(
        _("results need a second organiser's confirmation"), default=False
    )
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    #: Made by ``seed_demo`` (with its registrations, sessions and sign-ups): what an organiser
    #: removes with *Remove the demo data* (``remove_demo``); nothing else is ever removed.
    demo = models.BooleanField(_("demo data"), default=False, editable=False)

    #: The hall (issue 22): a board that has not started this many minutes after its round's
    #: start is proposed to the arbiter as a no-show.
    no_show_minutes = models.PositiveSmallIntegerField(
        _("no-show after (minutes)"),
        default=15,
        validators=[MaxValueValidator(240)],
        help_text=_(
            "The hall proposes a forfeit for a board whose game has not started this many "
            "minutes after the round's start."
        ),
    )
    absences_to_withdraw = models.PositiveSmallIntegerField(
        _("withdraw after absences"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(99)],
        help_text=_(
            "A player absent this many times who has not answered whether they continue by "
            "the next round's pairing is withdrawn. Empty: never."
        ),
    )
    spectator_delay_minutes = models.PositiveSmallIntegerField(
        _("spectators' delay (minutes)"),
        default=0,
        validators=[MaxValueValidator(180)],
        help_text=_(
            "Spectators see the games this many minutes late (against cheating); the boards' "
            "tablets and the arbiters never. 0: live."
        ),
    )
    #: Bumped on every change of a result or a round: the key of cached public pages.
    version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="tournament_ends_after_start",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The slug is in every URL of the tournament: one that ``<slug:...>`` cannot match
        # breaks the pages linking to it. Forms and the admin validate it; this guards every
        # other way in (services, commands, imports), which would otherwise store it as is.
        validate_slug(self.slug)
        # Likewise an unknown tie-break would be stored as is by any other way in.
        validate_tiebreaks(self.tiebreaks)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("tournament_detail", kwargs={"slug": self.slug})

    def clean(self) -> None:
        super().clean()
        errors: dict[str, str] = {}
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            errors["ends_on"] = _("The last day cannot be before the first day.")
        if (
            self.registration_opens_on
            and self.registration_closes_on
            and self.registration_closes_on < self.registration_opens_on
        ):
            errors["registration_closes_on"] = _("Registration cannot close before it opens.")
        elif (
            self.registration_closes_on
            and self.ends_on
            and self.registration_closes_on > self.ends_on
        ):
            errors["registration_closes_on"] = _(
                "Registration cannot close after the last day of the tournament."
            )
        if (
            self.check_in_opens_minutes is not None
            and self.check_in_closes_minutes is not None
            and self.check_in_closes_minutes >= self.check_in_opens_minutes
        ):
            errors["check_in_closes_minutes"] = _(
                "The cut-off must come after check-in opens: fewer minutes before round 1."
            )
        if errors:
            raise ValidationError(errors)

    @property
    def round_length(self) -> int:
        """Minutes from one round's start to the next one's (``round_minutes``, else twice the
        time control of one side plus a quarter of an hour)."""
        return self.round_minutes or 2 * (self.phase1_minutes + self.phase2_minutes) + 15

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    def local_today(self, now: datetime | None = None) -> date:
        """Today in the tournament's time zone (the venue's calendar day)."""
        from django.utils import timezone

        try:
            zone = ZoneInfo(self.time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            zone = timezone.get_current_timezone()
        return timezone.localtime(now or timezone.now(), zone).date()

    @property
    def registration_last_day(self) -> date:
        """The last day players can register: the close date, else the first day."""
        return self.registration_closes_on or self.starts_on

    def registration_state(self, now: datetime | None = None) -> str:
        """The one rule of "registration is open", read by every page, form, service and
        e-mail (a ``RegistrationState`` value). Open while the switch is on, the tournament has
        not started (round 1 not paired) nor finished, and today — in the tournament's time
        zone — is between the opening day and the last day (``registration_last_day``)."""
        if self.status == self.Status.FINISHED:
            return RegistrationState.FINISHED
        if self.status == self.Status.RUNNING:
            return RegistrationState.STARTED
        if not self.registration_open:
            return RegistrationState.CLOSED
        today = self.local_today(now)
        if self.registration_opens_on and today < self.registration_opens_on:
            return RegistrationState.NOT_YET
        if today > self.registration_last_day:
            return RegistrationState.CLOSED
        return RegistrationState.OPEN

    @property
    def registration_is_open(self) -> bool:
        """Open now (``registration_state``)."""
        return self.registration_state() == RegistrationState.OPEN

    @property
    def localized_name(self) -> str:
        """The name in the active language (Russian when given); exports keep ``name``."""
        return localized(self, "name")

    @property
    def localized_description(self) -> str:
        return localized(self, "description")

    @property
    def deputy_arbiter_names(self) -> list[str]:
        return [n.strip() for n in self.deputy_arbiters.splitlines() if n.strip()]

    @property
    def tiebreak_order(self) -> list[str]:
        """The stored order's known keys: a key stored by some older way in (or a typo in the
        database) is left out, never a reason for a page to fail."""
        keys = tiebreak_keys(self.tiebreaks)
        return [k for i, k in enumerate(keys) if k in TIEBREAK_NAMES and k not in keys[:i]]


class Entrant(PersonRow):
    """A player in a tournament's field; the person (``people``) is who they are across
    tournaments: their registration's, or a new one."""

    class CheckedInBy(models.TextChoices):
        ORGANISER = "organiser", _("by an organiser")
        PLAYER = "player", _("by the player")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    registration = models.OneToOneField(
        "registrations.Registration",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="entrant",
    )
    name = SingleLineCharField(_("name"), max_length=150)
    club = SingleLineCharField(_("club"), max_length=150, blank=True)
    rating = models.PositiveIntegerField(_("rating"), null=True, blank=True)
    starting_number = models.PositiveIntegerField(_("starting number"), null=True, blank=True)
    checked_in = models.BooleanField(_("checked in"), default=False)
    #: How and when the check-in was done (the arbiter sees who checked themselves in);
    #: written with ``checked_in`` by ``services.entrant_check_in``, empty when not checked in.
    checked_in_by = models.CharField(
        _("checked in by"), max_length=10, choices=CheckedInBy.choices, blank=True
    )
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    joined_round = models.PositiveSmallIntegerField(_("joins at round"), default=1)
    withdrawn_after = models.PositiveSmallIntegerField(
        _("withdrawn after round"),
        null=True,
        blank=True,
        help_text=_("Not paired after this round."),
    )

    class Meta:
        ordering = ["starting_number", "name"]
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "starting_number"], name="entrant_unique_starting_number"
            )
        ]

    def __str__(self) -> str:
        return self.name

    def person_default(self) -> int | None:
        """An entrant made from a registration is its person."""
        return self.registration.person_id if self.registration is not None else None


class RequestedBye(models.Model):
    class Kind(models.TextChoices):
        HALF = "H", _("half-point bye")
        ZERO = "Z", _("zero-point bye (absent)")

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="requested_byes")
    round_number = models.PositiveSmallIntegerField(_("round"))
    kind = models.CharField(_("kind"), max_length=1, choices=Kind.choices, default=Kind.HALF)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["entrant", "round_number"], name="one_bye_request_per_round"
            )
        ]

    def __str__(self) -> str:
        return f"{self.entrant} · {self.round_number} · {self.kind}"


class ForbiddenPair(models.Model):
    class Kind(models.TextChoices):
        FAMILY = "family", _("family")
        CLUB = "club", _("same club")
        OTHER = "other", _("other")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="forbidden_pairs"
    )
    first = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("reason"), max_length=8, choices=Kind.choices, default=Kind.OTHER)
    reason = SingleLineCharField(_("note"), max_length=100, blank=True)

    def __str__(self) -> str:
        return f"{self.first} ≠ {self.second}"


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        PUBLISHED = "published", _("published")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    #: Bumped when this round's boards or results change: the key of its cached pairings page.
    version = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    date = models.DateField(
        _("date"),
        null=True,
        blank=True,
        help_text=_("The day the round is played (TRF 132); empty: the day it was published."),
    )

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"


class RoundStart(models.Model):
    """When round ``number`` of a tournament is scheduled to start: the schedule exists before
    the round is paired (a ``Round`` row exists only from its pairing on). One row per round
    that has a time; read through ``championship.selectors.round_starts``."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="round_starts"
    )
    number = models.PositiveSmallIntegerField(_("round"))
    starts_at = models.DateTimeField(_("starts at"))
    #: Raised each time ``starts_at`` moves: the SEQUENCE of the round's calendar event
    #: (RFC 5545), so a calendar that imports the file again updates the event.
    sequence = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round start")
        verbose_name_plural = _("round starts")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_start_unique")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number} · {self.starts_at:%Y-%m-%d %H:%M}"


#: The result and termination vocabulary is the engine's (games.engine.vocabulary); these are
#: its labels on the pages, in the user's language.
RESULTS = [
    (Result.WHITE_WINS.value, "1-0"),
    (Result.BLACK_WINS.value, "0-1"),
    (Result.DRAW.value, "½-½"),
    (Result.DOUBLE_FORFEIT.value, "0-0"),  # with forfeit: a double forfeit
]
TERMINATIONS = [
    (Termination.HOME.value, _("home")),
    (Termination.BLOCKED.value, _("blocked")),
    (Termination.TIME.value, _("time")),
    (Termination.CARDS.value, _("cards")),
    (Termination.RESIGN.value, _("resign")),
    (Termination.AGREEMENT.value, _("agreement")),
    (Termination.FORFEIT.value, _("forfeit")),
    (Termination.ADJUDICATION.value, _("adjudication")),
]
TERMINATION_NAMES = dict(TERMINATIONS)


class Board(models.Model):
    """A pairing of a round (or a bye). Its games' results are ``GameResult`` rows: one, or two
    with two games per pairing (game 2 has the colours reversed: the pairing is a mini-match,
    more game points wins it)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField(_("board"))
    white = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="+")
    black = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    bye = models.CharField(
        _("bye"),
        max_length=1,
        blank=True,
        help_text=_("U pairing-allocated, H half-point, Z zero-point"),
    )
    explanation = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="board_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.number}"


class GameResult(models.Model):
    """The one home of a game's result: game ``number`` (1, or 2 with the colours reversed) of
    a pairing. Written only through ``services.game_result_set`` (the organisers' results and
    the move sheets alike); the standings, crosstable and exports read it.

    The ``sheet_*`` fields say what the game's move sheet shows, as the games app last told
    (it owns the sheets): whether there is one, how many turns it has and the result its moves
    (or a termination recorded on it) decide. A result entered by hand must agree with them."""

    class Source(models.TextChoices):
        ORGANISER = "organiser", _("entered by an organiser")
        SHEET = "sheet", _("from the move sheet")

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="results")
    number = models.PositiveSmallIntegerField(_("game"), default=1)
    result = models.CharField(_("result"), max_length=7, choices=RESULTS, blank=True)
    termination = models.CharField(
        _("termination"), max_length=12, choices=TERMINATIONS, blank=True
    )
    source = models.CharField(_("source"), max_length=9, choices=Source.choices, blank=True)
    confirmed = models.BooleanField(_("confirmed"), default=True)
    #: Optimistic locking of result entry: a form carries the version it showed.
    version = models.PositiveIntegerField(default=0)
    has_sheet = models.BooleanField(_("has a move sheet"), default=False)
    sheet_plies = models.PositiveSmallIntegerField(default=0)
    sheet_result = models.CharField(max_length=7, choices=RESULTS, blank=True)
    sheet_termination = models.CharField(max_length=12, choices=TERMINATIONS, blank=True)
    #: The engine's count of each side's mistakes and blunders in the game's sheet, as the
    #: games app last told (``services.game_result_analysis_set``); None until the sheet of the
    #: finished game is analysed, and again as soon as the sheet or the result changes.
    analysis_mistakes_white = models.PositiveSmallIntegerField(null=True, blank=True)
    analysis_blunders_white = models.PositiveSmallIntegerField(null=True, blank=True)
    analysis_mistakes_black = models.PositiveSmallIntegerField(null=True, blank=True)
    analysis_blunders_black = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Counts for the club's rating when it is a game played over the board (docs/ratings.md);
    #: an organiser can mark a result unrated (``services.game_result_rated_set``).
    rated = models.BooleanField(_("rated"), default=True)

    class Meta:
        ordering = ["board", "number"]
        verbose_name = _("game result")
        verbose_name_plural = _("game results")
        constraints = [
            models.UniqueConstraint(fields=["board", "number"], name="game_result_unique"),
            models.CheckConstraint(
                condition=models.Q(number__in=[1, 2]), name="game_result_number_1_or_2"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.board} · {self.number}: {self.result or '*'}"

    @property
    def text(self) -> str:
        """``1-0 resign``, or empty without a result (the history's words)."""
        return f"{self.result} {self.termination}".strip()

    def analysis_counts(self, side: str) -> tuple[int, int] | None:
        """``side``'s mistakes and blunders in this game, once its sheet is analysed."""
        mistakes = getattr(self, f"analysis_mistakes_{side}")
        blunders = getattr(self, f"analysis_blunders_{side}")
        return None if mistakes is None or blunders is None else (mistakes, blunders)


class ResultChange(models.Model):
    """Who changed which game's result when, and from where (the result history)."""

    game_result = models.ForeignKey(GameResult, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True)
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=10)  # enter, correct, confirm, clear
    source = models.CharField(max_length=9, choices=GameResult.Source.choices, blank=True)
    old = models.CharField(max_length=60, blank=True)
    new = models.CharField(max_length=60, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.game_result}: {self.old} → {self.new}"


class RatingRun(models.Model):
    """A computation of the club's rating list from every rated game (``services.ratings``):
    the stored result the pages read. The newest row is the list in force; ``fingerprint``
    is a digest of the games it was computed from (a recomputation over the same games
    changes nothing and is skipped)."""

    computed_at = models.DateTimeField(_("computed at"))
    fingerprint = models.CharField(max_length=64)
    games = models.PositiveIntegerField(_("rated games"), default=0)
    players = models.PositiveIntegerField(_("players"), default=0)
    first_month = models.DateField(null=True, blank=True)
    last_month = models.DateField(null=True, blank=True)
    seconds = models.FloatField(default=0)

    class Meta:
        ordering = ["-computed_at", "-pk"]
        get_latest_by = "computed_at"

    def __str__(self) -> str:
        return f"{self.computed_at:%Y-%m-%d %H:%M} · {self.games} games"


class PersonRating(models.Model):
    """A person's rating at the end of a month (first day of the month in ``month``), and the
    rated games they played in it: one row per person on the list and month, from their first
    rated month to the last month of the data."""

    person = models.ForeignKey("people.Person", on_delete=models.CASCADE, related_name="ratings")
    month = models.DateField(_("month"))
    rating = models.FloatField(_("rating"))
    rd = models.FloatField(_("rating deviation"))
    volatility = models.FloatField(_("volatility"))
    games = models.PositiveSmallIntegerField(_("rated games"), default=0)

    class Meta:
        ordering = ["month", "-rating"]
        constraints = [
            models.UniqueConstraint(fields=["person", "month"], name="person_rating_unique_month")
        ]
        indexes = [models.Index(fields=["month", "rating"])]

    def __str__(self) -> str:
        return f"{self.person_id} · {self.month:%Y-%m} · {self.rating:.0f}"

    @property
    def provisional(self) -> bool:
        from .rating import PROVISIONAL_RD

        return self.rd >= PROVISIONAL_RD


class RatedGame(models.Model):
    """A rated game's ratings: each side's rating before the game's month and after it
    (RD too, for the provisional mark), and this game's share of the month's change."""

    game_result = models.OneToOneField(GameResult, on_delete=models.CASCADE, related_name="rating")
    month = models.DateField()
    white_before = models.FloatField()
    white_before_rd = models.FloatField()
    white_after = models.FloatField()
    white_after_rd = models.FloatField()
    white_change = models.FloatField()
    black_before = models.FloatField()
    black_before_rd = models.FloatField()
    black_after = models.FloatField()
    black_after_rd = models.FloatField()
    black_change = models.FloatField()

    #: Each side's five numbers, White's then Black's, in the order the rating's writer stores
    #: them and its readers take them apart (``services.ratings``, ``person_selectors``).
    SIDE_COLUMNS = tuple(
        f"{side}_{what}"
        for side in ("white", "black")
        for what in ("before", "before_rd", "after", "after_rd", "change")
    )

    def __str__(self) -> str:
        return f"{self.game_result_id}: {self.white_change:+.1f} / {self.black_change:+.1f}"


class NoShow(models.Model):
    """The arbiter's decision on a board the hall proposed as a no-show (its game not started
    at the round's start plus ``Tournament.no_show_minutes``): the forfeit confirmed (with the
    absent side) or the proposal dismissed, by whom and when. One decision a board: a second
    tap finds it and does nothing."""

    class Decision(models.TextChoices):
        FORFEIT = "forfeit", _("forfeit confirmed")
        DISMISSED = "dismissed", _("dismissed")

    class Absent(models.TextChoices):
        WHITE = "white", _("White")
        BLACK = "black", _("Black")
        BOTH = "both", _("both")

    board = models.OneToOneField(Board, on_delete=models.CASCADE, related_name="no_show")
    decision = models.CharField(_("decision"), max_length=9, choices=Decision.choices)
    #: The pairing's side that did not come (the board's White is White of game 1).
    absent = models.CharField(_("absent"), max_length=5, choices=Absent.choices, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True)
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("no-show")
        verbose_name_plural = _("no-shows")

    def __str__(self) -> str:
        return f"{self.board}: {self.decision} {self.absent}".strip()


class Absence(models.Model):
    """A player absent from a round (a no-show forfeit confirmed in the hall), and their answer
    to the question on their page: do they continue? Unanswered by the next round's pairing,
    the tournament's rule applies (``Tournament.absences_to_withdraw``)."""

    class Status(models.TextChoices):
        ASKED = "asked", _("asked whether they continue")
        CONTINUES = "continues", _("continues")
        WITHDREW = "withdrew", _("withdrew")
        #: Unanswered by the next pairing, and absent as often as the rule allows: withdrawn.
        WITHDRAWN = "withdrawn", _("withdrawn by the tournament's rule")
        #: Unanswered by the next pairing, under the rule's count: paired as usual.
        LAPSED = "lapsed", _("not answered")

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="absences")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="absences")
    status = models.CharField(
        _("status"), max_length=9, choices=Status.choices, default=Status.ASKED
    )
    created_at = models.DateTimeField(_("recorded at"))
    #: When the player answered, or the rule decided.
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        ordering = ["round__number", "pk"]
        verbose_name = _("absence")
        verbose_name_plural = _("absences")
        constraints = [
            models.UniqueConstraint(fields=["entrant", "round"], name="absence_unique_per_round")
        ]

    def __str__(self) -> str:
        return f"{self.entrant} · {self.round}: {self.status}"
