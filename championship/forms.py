"""Forms of the organisers' pages: they parse what is posted, so views never see raw strings
(text where a number belongs, unknown choices, tampered hidden fields get a message, never a
server error)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import RESULTS, TERMINATIONS, Board, Entrant, RequestedBye, Tournament

#: The largest round number anyone can mean (a Swiss of 99 rounds is already absurd).
MAX_ROUND = 99


class EntrantAddForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=150)
    club = forms.CharField(label=_("Club"), max_length=150, required=False)
    rating = forms.IntegerField(label=_("Rating"), min_value=0, max_value=4000, required=False)
    joined_round = forms.IntegerField(
        label=_("Joins at round"), min_value=1, max_value=MAX_ROUND, required=False
    )
    missed_rounds = forms.ChoiceField(
        label=_("Missed rounds"),
        choices=[("Z", _("zero points")), ("H", _("half-point byes"))],
        required=False,
    )


class EntrantForm(forms.Form):
    """An action on one entrant of the tournament (the hidden ``entrant`` field)."""

    entrant = forms.ModelChoiceField(queryset=Entrant.objects.none())

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entrant"].queryset = tournament.entrants.all()  # type: ignore[attr-defined]


class ByeRequestForm(EntrantForm):
    round = forms.IntegerField(label=_("Round"), min_value=1, max_value=MAX_ROUND)
    kind = forms.ChoiceField(label=_("Kind"), choices=RequestedBye.Kind.choices)


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


def posted_result(post: Any, field: str, current: str, allowed: set[str]) -> str | None:
    """A result or termination box of the results table: the posted value if it is one of the
    ``allowed`` codes (or empty), the ``current`` value if the box was not posted, else None."""
    value = post.get(field, current)
    return value if value == "" or value in allowed else None


def posted_version(post: Any, field: str, current: int) -> int | None:
    value = post.get(field)
    if value is None:
        return current
    return int(value) if value.isdigit() and len(value) < 10 else None
