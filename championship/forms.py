"""Forms of the organisers' pages: they parse what is posted, so views never see raw strings
(text where a number belongs, unknown choices, tampered hidden fields get a message, never a
server error)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.converters import int_or_none

from .models import RESULTS, TERMINATIONS, Board, Entrant, RequestedBye, Tournament

#: The largest round number anyone can mean (a Swiss of 99 rounds is already absurd).
MAX_ROUND = 99


class EntrantAddForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=150)
    club = forms.CharField(label=gettext_lazy("Club"), max_length=150, required=False)
    rating = forms.IntegerField(
        label=gettext_lazy("Rating"), min_value=0, max_value=4000, required=False
    )
    joined_round = forms.IntegerField(
        label=gettext_lazy("Joins at round"), min_value=1, max_value=MAX_ROUND, required=False
    )
    missed_rounds = forms.ChoiceField(
        label=gettext_lazy("Missed rounds"),
        choices=[("Z", gettext_lazy("zero points")), ("H", gettext_lazy("half-point byes"))],
        required=False,
    )


class EntrantForm(forms.Form):
    """An action on one entrant of the tournament (the hidden ``entrant`` field)."""

    entrant = forms.ModelChoiceField(queryset=Entrant.objects.none())

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entrant"].queryset = tournament.entrants.all()  # type: ignore[attr-defined]


class ByeRequestForm(EntrantForm):
    round = forms.IntegerField(label=gettext_lazy("Round"), min_value=1, max_value=MAX_ROUND)
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=RequestedBye.Kind.choices)


class BoardForm(forms.Form):
    """An action on one board of the round (the hidden ``board`` field)."""

    board = forms.ModelChoiceField(queryset=Board.objects.none())

    def __init__(self, *args: Any, round: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["board"].queryset = round.boards.all()  # type: ignore[attr-defined]


class SwapPlayersForm(forms.Form):
    """Two seats of the draft, each ``<board id>:white`` or ``<board id>:black``."""

    a = forms.ChoiceField()
    b = forms.ChoiceField()

    def __init__(self, *args: Any, round: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seats = []
        for board in round.boards.all():
            seats.append((f"{board.pk}:white", ""))
            if board.black_id is not None:
                seats.append((f"{board.pk}:black", ""))
        self.fields["a"].choices = seats
        self.fields["b"].choices = seats
        self._boards = {str(b.pk): b for b in round.boards.all()}

    def seat(self, name: str) -> tuple[Board, str]:
        board, side = self.cleaned_data[name].split(":")
        return self._boards[board], side


RESULT_CODES = {code for code, _label in RESULTS}
TERMINATION_CODES = {code for code, _label in TERMINATIONS}


class ResultsTable:
    """The results table of a round as posted: per game ``result-<id>``, ``termination-<id>``
    and ``version-<id>`` (the version the page showed), ``id`` being the game result's. A game
    whose boxes were not posted (filtered out of the page) or not changed is left alone."""

    def __init__(self, post: Any, *, boards: list[Board], games: dict[int, list[Any]]) -> None:
        from .services import ResultEntry

        self.entries: list[ResultEntry] = []
        self.problems: list[str] = []
        #: What was typed, game result id → (result, termination), to show it again.
        self.typed: dict[int, tuple[str, str]] = {}
        for board in boards:
            for game in games.get(board.pk, []):
                result = post.get(f"result-{game.pk}", game.result)
                termination = post.get(f"termination-{game.pk}", game.termination)
                version = int_or_none(
                    post.get(f"version-{game.pk}", str(game.version)), maximum=2**31 - 1
                )
                self.typed[game.pk] = (result, termination)
                if (
                    result not in RESULT_CODES | {""}
                    or termination not in TERMINATION_CODES | {""}
                    or version is None
                ):
                    self.problems.append(
                        _("Board %(n)d: choose the result and the termination from the lists.")
                        % {"n": board.number}
                    )
                    continue
                if not result:
                    termination = ""
                if (result, termination) == (game.result, game.termination):
                    continue
                self.entries.append(ResultEntry(board, game.number, result, termination, version))

    def is_valid(self) -> bool:
        return not self.problems


# Tournament settings, entrants, byes and forbidden pairs (the organisers' pages) -------------

from django.core.validators import MaxValueValidator, MinValueValidator  # noqa: E402

from .models import (  # noqa: E402
    TIEBREAK_ABBREVIATIONS,
    TIEBREAK_KEYS,
    TIEBREAK_NAMES,
    ForbiddenPair,
    tiebreak_keys,
)

#: How many tie-break places the settings offer (every tie-break the standings know).
TIEBREAK_PLACES = len(TIEBREAK_KEYS)


def tiebreak_choices() -> list[tuple[str, str]]:
    """Each tie-break by its name in the user's language and its column's head."""
    return [("", "–")] + [
        (key, f"{TIEBREAK_NAMES[key]} ({TIEBREAK_ABBREVIATIONS[key]})") for key in TIEBREAK_KEYS
    ]


def _limit(f: forms.Field, low: int, high: int) -> None:
    """``low`` to ``high`` for a number field, as its only bounds: the model field's own
    (0 to 32767 for a positive small integer) are replaced, not added to, so that a number
    out of range gets one message, never "at least 0" and "at least 10" together."""
    f.min_value, f.max_value = low, high  # type: ignore[attr-defined]
    f.validators = [
        v for v in f.validators if not isinstance(v, MinValueValidator | MaxValueValidator)
    ] + [MinValueValidator(low), MaxValueValidator(high)]
    f.widget.attrs.update({"min": low, "max": high})


def _bootstrap(form: forms.BaseForm) -> None:
    """Bootstrap classes on every widget (the templates render fields in a loop)."""
    for name, f in form.fields.items():
        widget = f.widget
        if isinstance(widget, forms.CheckboxInput):
            css = "form-check-input"
        elif isinstance(widget, forms.Select):
            css = "form-select"
        else:
            css = "form-control"
        if form.errors.get(name) if form.is_bound else False:
            css += " is-invalid"
        widget.attrs["class"] = css


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%Y-%m-%d", **kwargs)


#: Settings of the hall (issue 22) that take their default when left empty.
DEFAULTED = ("no_show_minutes", "spectator_delay_minutes")


class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    """A tournament's settings. What the rounds already paired fix (the system, games per
    pairing, the pairing rules, fewer rounds than paired) is refused next to the field."""

    class Meta:
        model = Tournament
        fields = [
            "name",
            "name_ru",
            "slug",
            "description",
            "description_ru",
            "starts_on",
            "ends_on",
            "venue",
            "system",
            "ruleset",
            "rounds",
            "phase1_minutes",
            "phase2_minutes",
            "points_win",
            "points_draw",
            "points_loss",
            "points_bye",
            "forbid_same_club",
            "two_person_confirmation",
            "no_show_minutes",
            "absences_to_withdraw",
            "spectator_delay_minutes",
            "games_per_pairing",
            "max_half_point_byes",
            "entry_cap",
            "registration_open",
            "registration_opens_on",
            "registration_closes_on",
        ]
        widgets = {
            "starts_on": DateInput(),
            "ends_on": DateInput(),
            "registration_opens_on": DateInput(),
            "registration_closes_on": DateInput(),
            "description": forms.Textarea(attrs={"rows": 3}),
            "description_ru": forms.Textarea(attrs={"rows": 3}),
        }
        # Django's own "<model> with this <field label> already exists." reads badly with a
        # field label in lower case mid-sentence (and in Russian does not decline it).
        error_messages = {
            "slug": {
                "unique": gettext_lazy(
                    "Another tournament already has this web address: choose another one."
                )
            }
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        creating = self.instance.pk is None
        if not creating:
            del self.fields["slug"]
        else:
            self.fields["slug"].help_text = gettext_lazy(
                "The tournament's address: /t/<slug>/. Latin letters, digits and hyphens."
            )
        limits = {
            "rounds": (1, MAX_ROUND),
            "phase1_minutes": (1, 600),
            "phase2_minutes": (1, 600),
            "max_half_point_byes": (0, MAX_ROUND),
            "entry_cap": (1, 100000),
            "no_show_minutes": (0, 240),
            "absences_to_withdraw": (1, 99),
            "spectator_delay_minutes": (0, 180),
        }
        for name, (low, high) in limits.items():
            _limit(self.fields[name], low, high)
        for name in ("points_win", "points_draw", "points_loss", "points_bye"):
            f = self.fields[name]
            _limit(f, 0, 10)
            f.widget.attrs["step"] = "0.5"
        stored = (
            tiebreak_keys(self.instance.tiebreaks)
            if not creating
            else list(tiebreak_keys(Tournament._meta.get_field("tiebreaks").default))
        )
        stored = [k for k in stored if k in TIEBREAK_NAMES]
        for i in range(TIEBREAK_PLACES):
            self.fields[f"tiebreak_{i + 1}"] = forms.ChoiceField(
                label=gettext_lazy("Tie-break %(n)d") % {"n": i + 1},
                choices=tiebreak_choices,
                required=False,
                initial=stored[i] if i < len(stored) else "",
            )
        for name in DEFAULTED:  # empty: the default (a form from before the field)
            self.fields[name].required = False
        _bootstrap(self)

    def clean_no_show_minutes(self) -> int:
        return self._or_default("no_show_minutes")

    def clean_spectator_delay_minutes(self) -> int:
        return self._or_default("spectator_delay_minutes")

    def _or_default(self, name: str) -> int:
        value = self.cleaned_data.get(name)
        default: int = Tournament._meta.get_field(name).default  # type: ignore[assignment]
        return default if value is None else int(value)

    def tiebreak_fields(self) -> list[forms.BoundField]:
        return [self[f"tiebreak_{i + 1}"] for i in range(TIEBREAK_PLACES)]

    def other_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if not name.startswith("tiebreak_")]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen: list[str] = []
        for i in range(TIEBREAK_PLACES):
            name = f"tiebreak_{i + 1}"
            key = data.get(name) or ""
            if not key:
                continue
            if key in chosen:
                self.add_error(name, _("Each tie-break can be chosen once."))
            chosen.append(key)
        if not chosen and not any(f"tiebreak_{i + 1}" in self.errors for i in range(8)):
            self.add_error("tiebreak_1", _("Choose at least one tie-break."))
        self.instance.tiebreaks = ",".join(dict.fromkeys(chosen))
        return data

    def _post_clean(self) -> None:
        super()._post_clean()
        from .services import settings_errors

        if self.instance.rounds is None:
            return
        for name, message in settings_errors(self.instance).items():
            if name in self.fields and name not in self.errors:
                self.add_error(name, message)


class EntrantEditForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=150)
    club = forms.CharField(label=gettext_lazy("Club"), max_length=150, required=False)
    rating = forms.IntegerField(
        label=gettext_lazy("Rating"), min_value=0, max_value=4000, required=False
    )
    starting_number = forms.IntegerField(
        label=gettext_lazy("Starting number"), min_value=1, max_value=10000, required=False
    )

    def __init__(self, *args: Any, numbered: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not numbered:
            del self.fields["starting_number"]
        _bootstrap(self)


class WithdrawForm(forms.Form):
    after = forms.TypedChoiceField(label=gettext_lazy("Withdrawn after round"), coerce=int)

    def __init__(self, *args: Any, rounds: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["after"].choices = [  # type: ignore[attr-defined]
            (n, _("before round 1") if n == 0 else _("after round %(n)d") % {"n": n})
            for n in rounds
        ]
        _bootstrap(self)


class ByeForm(EntrantForm):
    """A requested bye on the byes page (the entrant chosen from a list)."""

    round = forms.IntegerField(label=gettext_lazy("Round"), min_value=1, max_value=MAX_ROUND)
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=RequestedBye.Kind.choices)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, tournament=tournament, **kwargs)
        self.fields["entrant"].label = gettext_lazy("Player")
        self.fields["entrant"].queryset = tournament.entrants.filter(  # type: ignore[attr-defined]
            withdrawn_after=None
        ).order_by("name")
        _bootstrap(self)


class ForbiddenPairForm(forms.Form):
    first = forms.ModelChoiceField(label=gettext_lazy("Player"), queryset=Entrant.objects.none())
    second = forms.ModelChoiceField(
        label=gettext_lazy("does not meet"), queryset=Entrant.objects.none()
    )
    kind = forms.ChoiceField(label=gettext_lazy("Reason"), choices=ForbiddenPair.Kind.choices)
    reason = forms.CharField(label=gettext_lazy("Note"), max_length=100, required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            self.fields[name].queryset = tournament.entrants.order_by("name")  # type: ignore[attr-defined]
        _bootstrap(self)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("first") and data.get("second") and data["first"] == data["second"]:
            self.add_error("second", _("Choose two different players."))
        return data


class ConfirmForm(forms.Form):
    """The confirmation step of a destructive action: posted with ``confirm=yes``."""

    confirm = forms.ChoiceField(choices=[("yes", "yes")])


# The schedule (the organisers' schedule page) -----------------------------------------------

from datetime import date, datetime, time  # noqa: E402

from . import schedule as day_schedule  # noqa: E402


class TimeInput(forms.TimeInput):
    input_type = "time"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%H:%M", **kwargs)


class ScheduleSettingsForm(forms.ModelForm):  # type: ignore[type-arg]
    """The tournament's zone, round length and the players' check-in window."""

    class Meta:
        model = Tournament
        fields = [
            "time_zone",
            "round_minutes",
            "self_check_in",
            "check_in_opens_minutes",
            "check_in_closes_minutes",
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        limits = {
            "round_minutes": (10, 1440),
            "check_in_opens_minutes": (1, 1440),
            "check_in_closes_minutes": (0, 1440),
        }
        for name, (low, high) in limits.items():
            _limit(self.fields[name], low, high)
        self.fields["round_minutes"].widget.attrs["placeholder"] = str(
            2 * (self.instance.phase1_minutes + self.instance.phase2_minutes) + 15
        )
        _bootstrap(self)


class RoundStartsForm(forms.Form):
    """Each round's start as a day and a time on the tournament's clocks (``day_<n>``,
    ``time_<n>``): both, or neither for a round without a time yet. A time the clocks skip is
    refused next to the field, and so is a round that starts before an earlier one."""

    def __init__(self, *args: Any, rounds: int, zone: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rounds, self.zone = rounds, zone
        self._starts: dict[int, datetime | None] = {}
        for n in range(1, rounds + 1):
            self.fields[f"day_{n}"] = forms.DateField(
                label=gettext_lazy("Round %(n)d, day") % {"n": n},
                required=False,
                widget=DateInput(),
            )
            self.fields[f"time_{n}"] = forms.TimeField(
                label=gettext_lazy("Round %(n)d, time") % {"n": n},
                required=False,
                widget=TimeInput(),
            )
        _bootstrap(self)  # reads the errors: a bound form is cleaned here already

    def rows(self) -> list[tuple[int, forms.BoundField, forms.BoundField]]:
        return [(n, self[f"day_{n}"], self[f"time_{n}"]) for n in range(1, self.rounds + 1)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        starts: dict[int, datetime | None] = {}
        for n in range(1, self.rounds + 1):
            day: date | None = data.get(f"day_{n}")
            at: time | None = data.get(f"time_{n}")
            if f"day_{n}" in self.errors or f"time_{n}" in self.errors:
                continue
            if day is None and at is None:
                starts[n] = None
            elif day is None:
                self.add_error(f"day_{n}", _("Give the day too, or clear the time."))
            elif at is None:
                self.add_error(f"time_{n}", _("Give the time too, or clear the day."))
            else:
                try:
                    starts[n] = day_schedule.local(day, at, self.zone)
                except day_schedule.NonexistentTime:
                    self.add_error(
                        f"time_{n}",
                        _(
                            "%(time)s does not exist on %(day)s in %(zone)s: the clocks go "
                            "forward that night. Choose a time an hour later."
                        )
                        % {"time": at.strftime("%H:%M"), "day": day.isoformat(), "zone": self.zone},
                    )
        timed = {n: s for n, s in starts.items() if s is not None}
        for n in day_schedule.out_of_order(timed):
            self.add_error(f"time_{n}", _("This round would start before an earlier round."))
        self._starts = starts
        return data

    def starts(self) -> dict[int, datetime | None]:
        return self._starts


class SuggestForm(forms.Form):
    """What a suggested schedule is made from (read from the page's GET form)."""

    first_start = forms.TimeField(
        label=gettext_lazy("Each day's first round at"), widget=TimeInput(), initial=time(10, 0)
    )
    per_day = forms.IntegerField(
        label=gettext_lazy("Rounds a day"),
        min_value=1,
        max_value=MAX_ROUND,
        required=False,
        help_text=gettext_lazy("Empty: the rounds spread evenly over the tournament's days."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["per_day"].widget.attrs.update({"min": 1, "max": MAX_ROUND})
        _bootstrap(self)


class ShiftForm(forms.Form):
    from_round = forms.IntegerField(
        label=gettext_lazy("From round"), min_value=1, max_value=MAX_ROUND
    )
    minutes = forms.IntegerField(
        label=gettext_lazy("By minutes"),
        min_value=-1440,
        max_value=1440,
        help_text=gettext_lazy("Later rounds move with it; a negative number moves them earlier."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["from_round"].widget.attrs.update({"min": 1, "max": MAX_ROUND})
        self.fields["minutes"].widget.attrs.update({"min": -1440, "max": 1440, "step": 5})
        _bootstrap(self)
