"""Forms of the organisers' pages: they parse what is posted, so views never see raw strings
(text where a number belongs, unknown choices, tampered hidden fields get a message, never a
server error)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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
                version = post.get(f"version-{game.pk}", str(game.version))
                self.typed[game.pk] = (result, termination)
                if (
                    result not in RESULT_CODES | {""}
                    or termination not in TERMINATION_CODES | {""}
                    or not (version.isdigit() and len(version) < 10)
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
                self.entries.append(
                    ResultEntry(board, game.number, result, termination, int(version))
                )

    def is_valid(self) -> bool:
        return not self.problems
