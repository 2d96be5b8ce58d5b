"""An absent player is asked whether they continue (issue 22, point 4): their answer, and the
tournament's rule when they do not answer by the next round's pairing."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import resolve
from django.utils import timezone

from championship.models import Absence, Board, Entrant, Round, Tournament
from championship.services import (
    ChampionshipError,
    absence_answer,
    board_no_show_forfeit,
    round_pair_next,
    round_publish,
)
from registrations import emails, tokens
from registrations.models import Registration

pytestmark = pytest.mark.django_db


def _tournament(*, rule: int | None) -> tuple[Round, Board]:
    """A Swiss of 6, round 1 published; board 1's White did not come (forfeit confirmed)."""
    today = timezone.localdate()
    t = Tournament.objects.create(
        name="Absences Open",
        slug="absences-open",
        starts_on=today,
        ends_on=today,
        rounds=5,
        registration_open=False,
        absences_to_withdraw=rule,
    )
    for i in range(6):
        Entrant.objects.create(
            tournament=t, name=f"Player {i + 1}", rating=1500 + i, checked_in=True
        )
    rnd = round_pair_next(tournament=t)
    round_publish(round=rnd)
    board = rnd.boards.order_by("number").first()
    assert board is not None
    board_no_show_forfeit(board=board, absent="white", user=None)
    return rnd, board


def _finish_round(rnd: Round) -> None:
    from championship.services import ResultEntry, game_result_set

    entries = [
        ResultEntry(board=b, number=1, result="1-0", termination="resign")
        for b in rnd.boards.exclude(black=None).filter(results__result="")
    ]
    game_result_set(entries=entries, user=None)


def _next_round(rnd: Round) -> Round:
    _finish_round(rnd)
    nxt = round_pair_next(tournament=rnd.tournament)
    return nxt


def _paired(rnd: Round, entrant: Entrant) -> bool:
    return rnd.boards.filter(white=entrant).exists() or rnd.boards.filter(black=entrant).exists()


def test_the_absent_player_is_asked_and_continues() -> None:
    rnd, board = _tournament(rule=1)
    absence = Absence.objects.get()
    assert (absence.entrant, absence.status) == (board.white, "asked")
    answered = absence_answer(absence=absence, continues=True)
    assert answered.status == "continues" and answered.decided_at is not None
    assert absence_answer(absence=absence, continues=True).decided_at == answered.decided_at
    with pytest.raises(ChampionshipError, match="closed"):
        absence_answer(absence=absence, continues=False)
    nxt = _next_round(rnd)
    assert _paired(nxt, board.white)  # answered: the rule does not apply


def test_the_absent_player_withdraws_through_the_withdrawal() -> None:
    rnd, board = _tournament(rule=None)
    absence_answer(absence=Absence.objects.get(), continues=False)
    white = Entrant.objects.get(pk=board.white_id)
    assert white.withdrawn_after == rnd.number
    assert Absence.objects.get().status == "withdrew"
    assert not _paired(_next_round(rnd), white)


def test_unanswered_the_rule_withdraws_at_the_next_pairing() -> None:
    rnd, board = _tournament(rule=1)
    nxt = _next_round(rnd)
    white = Entrant.objects.get(pk=board.white_id)
    assert white.withdrawn_after == rnd.number and not _paired(nxt, white)
    absence = Absence.objects.get()
    assert absence.status == "withdrawn" and absence.decided_at is not None
    with pytest.raises(ChampionshipError, match="closed"):
        absence_answer(absence=absence, continues=True)


@pytest.mark.parametrize("rule", [None, 2])
def test_unanswered_below_the_rule_the_question_lapses_and_the_player_is_paired(
    rule: int | None,
) -> None:
    rnd, board = _tournament(rule=rule)
    nxt = _next_round(rnd)
    white = Entrant.objects.get(pk=board.white_id)
    assert white.withdrawn_after is None and _paired(nxt, white)
    assert Absence.objects.get().status == "lapsed"


def test_the_second_absence_reaches_a_rule_of_two() -> None:
    rnd, board = _tournament(rule=2)
    nxt = _next_round(rnd)
    round_publish(round=nxt)
    white = Entrant.objects.get(pk=board.white_id)
    second = Board.objects.filter(round=nxt, white=white).first() or Board.objects.get(
        round=nxt, black=white
    )
    board_no_show_forfeit(
        board=second, absent="white" if second.white == white else "black", user=None
    )
    third = _next_round(nxt)
    white.refresh_from_db()
    assert white.withdrawn_after == nxt.number and not _paired(third, white)


def _link(board: Board) -> str:
    registration = Registration.objects.create(
        tournament=board.round.tournament,
        name="Player 1",
        email="p1@example.org",
        phone="+14165550123",
        experience="club",
        language="en",
        consent_at=timezone.now(),
    )
    Entrant.objects.filter(pk=board.white_id).update(registration=registration)
    token = tokens.make_token(tokens.MANAGE, registration.pk, registration.email)
    return f"/player/{token}/absence/"


def _player_page(url: str, registration: Registration) -> bool:
    """Whether ``url`` is the registration's own page (its token is signed with the time, so
    two links made a second apart differ: compared by what they name)."""
    match = resolve(url.partition("#")[0])
    return match.url_name == "my_day" and tokens.read_token(
        tokens.PLAYER, match.kwargs["token"]
    ) == (registration.pk, registration.email)


def test_the_question_on_the_players_signed_link() -> None:
    _rnd, board = _tournament(rule=1)
    url = _link(board)
    page = Client().get(url + "?lang=ru")
    assert page.status_code == 200
    assert 'name="answer" value="continue"' in page.content.decode()
    absence = Absence.objects.get()
    registration = Registration.objects.get()
    client = Client()
    response = client.post(url, {"absence": absence.pk, "answer": "continue"})
    # Back on the player's own page (post/redirect/get), with a message addressed to them.
    assert response.status_code == 302
    assert _player_page(response["Location"], registration)
    assert Absence.objects.get().status == "continues"
    page = client.get(response["Location"]).content.decode()
    assert "Thank you: you continue in the tournament." in page
    assert "Round 1: absent · you continue" in page and 'value="continue"' not in page
    # A second tap records nothing more and lands on the same page.
    again = client.post(url, {"absence": absence.pk, "answer": "continue"})
    assert _player_page(again["Location"], registration)
    assert Absence.objects.get().status == "continues" and Absence.objects.count() == 1
    # The question's own page says it to the player too, and leads to their page.
    page = client.get(url).content.decode()
    assert "you continue" in page and "continues" not in page
    link = re.search(r'href="(/t/[^"]+/my/[^"]+)"', page)
    assert link and _player_page(link.group(1), registration)
    russian = client.get(emails.player_path(registration) + "?lang=ru").content.decode()
    assert "Тур 1: неявка · вы продолжаете турнир" in russian


def test_withdrawing_on_the_page_asks_first() -> None:
    _rnd, board = _tournament(rule=1)
    url = _link(board)
    absence = Absence.objects.get()
    asked = Client().post(url, {"absence": absence.pk, "answer": "withdraw"})
    assert asked.status_code == 200 and 'name="confirm" value="1"' in asked.content.decode()
    registration = Registration.objects.get()
    # "Back" goes back to the player's own page, where the question stays open.
    back = re.search(r'href="([^"]+)">Back<', asked.content.decode())
    assert back and back.group(1).endswith("#absences")
    assert _player_page(back.group(1), registration)
    assert Absence.objects.get().status == "asked"  # nothing recorded yet
    done = Client().post(url, {"absence": absence.pk, "answer": "withdraw", "confirm": "1"})
    assert done.status_code == 302 and _player_page(done["Location"], registration)
    assert Absence.objects.get().status == "withdrew"
    assert Entrant.objects.get(pk=board.white_id).withdrawn_after == 1


def test_a_forged_link_or_answer_changes_nothing() -> None:
    _rnd, board = _tournament(rule=1)
    url = _link(board)
    absence = Absence.objects.get()
    assert Client().get("/player/forged/absence/").status_code == 400
    for data in (
        {"absence": absence.pk, "answer": "maybe"},
        {"absence": "abc", "answer": "continue"},
        {"absence": absence.pk + 1000, "answer": "withdraw", "confirm": "1"},
        {},
    ):
        assert Client().post(url, data).status_code == 400
    assert Absence.objects.get().status == "asked"
    assert Entrant.objects.get(pk=board.white_id).withdrawn_after is None
