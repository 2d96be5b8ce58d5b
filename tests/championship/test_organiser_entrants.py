"""Issue 11, point 2: entrants on the organisers' pages — added (a duplicate name asks
first), edited, deleted when never paired, withdrawn after round N (a draft is never a played
round) and back; no pairing ever holds a withdrawn player."""

from __future__ import annotations

import pytest

from championship import services
from championship.models import Board, Entrant, RequestedBye, Round
from tests.championship.organiser import make, play
from tests.games.helpers import organiser_client

pytestmark = pytest.mark.django_db


def paired_ids(rnd: Round) -> set[int]:
    ids = set()
    for white, black in rnd.boards.values_list("white_id", "black_id"):
        ids.add(white)
        if black is not None:
            ids.add(black)
    return ids


def test_the_issue_scenario_a_withdrawal_during_a_draft_never_pairs_the_player() -> None:
    """Pair round 3 (draft) → withdraw a player → delete the draft → pair: the withdrawn
    player is neither paired nor given the pairing bye."""
    t = make(n=7, rounds=5)  # odd: someone gets the pairing bye
    play(t)
    play(t)
    draft = services.round_pair_next(tournament=t)
    assert draft.number == 3 and draft.status == "draft"
    org, _user = organiser_client()
    bye_board = draft.boards.get(black=None)
    leaving = bye_board.white  # the one the bye went to: the most likely to get it again
    page = org.get(f"/t/{t.slug}/manage/entrants/{leaving.pk}/withdraw/").content.decode()
    assert '<option value="2" selected>after round 2</option>' in page  # the draft is not played
    response = org.post(
        f"/t/{t.slug}/manage/entrants/{leaving.pk}/withdraw/",
        {"after": "2", "confirm": "yes"},
        follow=True,
    )
    html = response.content.decode()
    assert "withdrawn after round 2" in html
    assert "draft of round 3 no longer fits" in html  # said at once
    leaving.refresh_from_db()
    assert leaving.withdrawn_after == 2
    # The dashboard and the round page say so; the stale draft cannot be published.
    assert "stale-draft" in org.get(f"/t/{t.slug}/manage/").content.decode()
    assert "stale" in org.get(f"/t/{t.slug}/manage/round/3/").content.decode()
    with pytest.raises(services.ChampionshipError, match="withdrawn"):
        services.round_publish(round=draft)
    org.post(f"/t/{t.slug}/manage/round/3/", {"action": "delete", "confirm": "1"})
    assert not t.round_set.filter(number=3).exists()
    again = services.round_pair_next(tournament=t)
    assert leaving.pk not in paired_ids(again)
    assert again.boards.count() == 3  # six players left, no bye
    services.round_publish(round=again)


def test_pair_again_asks_first_then_repairs_without_the_withdrawn_player() -> None:
    t = make(n=6, rounds=4)
    play(t)
    draft = services.round_pair_next(tournament=t)
    leaving = draft.boards.first().white
    services.entrant_withdraw(entrant=leaving)
    org, _user = organiser_client()
    url = f"/t/{t.slug}/manage/round/2/pair-again/"
    assert "Delete the draft and pair again" in org.get(url).content.decode()
    org.post(url, {})  # not confirmed
    assert Round.objects.filter(pk=draft.pk).exists()
    org.post(url, {"confirm": "yes"})
    assert not Round.objects.filter(pk=draft.pk).exists()
    again = t.round_set.get(number=2)
    assert leaving.pk not in paired_ids(again) and not services.draft_problems(again)


def test_withdraw_after_round_n_is_chosen_within_the_rounds_and_can_be_undone() -> None:
    t = make(n=10, rounds=5)
    play(t)
    play(t)
    org, _user = organiser_client()
    e = t.entrants.get(name="P1")
    url = f"/t/{t.slug}/manage/entrants/{e.pk}/withdraw/"
    for bad in ("1", "9", "abc", "-1", ""):
        response = org.post(url, {"after": bad, "confirm": "yes"})
        assert response.status_code == 400, bad
        assert Entrant.objects.get(pk=e.pk).withdrawn_after is None
    RequestedBye.objects.create(entrant=e, round_number=5, kind="H")
    org.post(url, {"after": "3", "confirm": "yes"})  # plays round 3, then leaves
    e.refresh_from_db()
    assert e.withdrawn_after == 3
    assert not RequestedBye.objects.filter(entrant=e).exists()  # byes after it cancelled
    third = play(t)
    assert e.pk in paired_ids(third)
    fourth = services.round_pair_next(tournament=t)
    assert e.pk not in paired_ids(fourth)
    fourth.delete()
    response = org.post(
        f"/t/{t.slug}/manage/entrants/", {"action": "unwithdraw", "entrant": e.pk}, follow=True
    )
    assert "back in the tournament" in response.content.decode()
    assert e.pk in paired_ids(services.round_pair_next(tournament=t))


def test_a_duplicate_name_asks_first_and_a_duplicate_can_be_deleted() -> None:
    t = make(n=2)
    org, _user = organiser_client()
    url = f"/t/{t.slug}/manage/entrants/"
    response = org.post(url, {"action": "add", "name": "  p1 ", "rating": "1500"})
    assert response.status_code == 200
    assert "already an entrant called P1" in response.content.decode()
    assert 'name="duplicate" value="yes"' in response.content.decode()
    assert t.entrants.count() == 2
    org.post(url, {"action": "add", "name": "P1", "rating": "1500", "duplicate": "yes"})
    assert t.entrants.filter(name="P1").count() == 2
    assert "same name" in org.get(url).content.decode()
    twin = t.entrants.filter(name="P1").order_by("-pk").first()
    delete = f"/t/{t.slug}/manage/entrants/{twin.pk}/delete/"
    assert "Delete P1?" in org.get(delete).content.decode()
    org.post(delete, {})  # not confirmed
    assert Entrant.objects.filter(pk=twin.pk).exists()
    response = org.post(delete, {"confirm": "yes"}, follow=True)
    assert "P1 is deleted" in response.content.decode()
    assert t.entrants.filter(name="P1").count() == 1


def test_an_entrant_in_a_pairing_cannot_be_deleted() -> None:
    t = make(n=4)
    rnd = services.round_pair_next(tournament=t)
    e = rnd.boards.first().white
    org, _user = organiser_client()
    response = org.post(
        f"/t/{t.slug}/manage/entrants/{e.pk}/delete/", {"confirm": "yes"}, follow=True
    )
    assert "cannot be deleted" in response.content.decode()
    assert Entrant.objects.filter(pk=e.pk).exists()


def test_edit_name_club_rating_and_the_starting_number_before_round_one_only() -> None:
    t = make(n=4)
    org, _user = organiser_client()
    e = t.entrants.get(name="P4")
    url = f"/t/{t.slug}/manage/entrants/{e.pk}/"
    for bad in ({"rating": "abc"}, {"rating": "-3"}, {"starting_number": "x"}, {"name": ""}):
        data = {"name": "P4", "club": "", "rating": "1900", "starting_number": "", **bad}
        assert org.post(url, data).status_code == 400, bad
    e.refresh_from_db()
    assert (e.name, e.rating) == ("P4", 1970)
    org.post(url, {"name": "Пётр", "club": "Нарды-клуб", "rating": "1500", "starting_number": "1"})
    e.refresh_from_db()
    assert (e.name, e.club, e.rating, e.starting_number) == ("Пётр", "Нарды-клуб", 1500, 1)
    rnd = services.round_pair_next(tournament=t)
    e.refresh_from_db()
    assert e.starting_number == 1  # the organiser's number is kept; the others by rating
    assert sorted(t.entrants.values_list("starting_number", flat=True)) == [1, 2, 3, 4]
    assert 'name="starting_number"' not in org.get(url).content.decode()
    with pytest.raises(services.ChampionshipError):
        services.entrant_edit(entrant=e, name="Пётр", club="", rating=1, starting_number=3)
    assert rnd.boards.count() == 2


def test_a_player_absent_from_one_round_gets_a_zero_point_bye_or_a_forfeit() -> None:
    t = make(n=6, rounds=3)
    play(t)
    e = t.entrants.get(name="P2")
    org, _user = organiser_client()
    org.post(
        f"/t/{t.slug}/manage/byes/", {"action": "add", "entrant": e.pk, "round": "2", "kind": "Z"}
    )
    rnd = services.round_pair_next(tournament=t)
    board = rnd.boards.get(white=e)
    assert board.bye == "Z" and board.black is None
    # Not withdrawn: paired again in round 3.
    services.round_publish(round=rnd)
    from tests.championship.results import enter

    for b in rnd.boards.exclude(black=None):
        enter(b, "1-0", "forfeit")  # the other choice: paired and lost by forfeit
    assert e.pk in paired_ids(services.round_pair_next(tournament=t))


def test_no_pairing_includes_a_withdrawn_player_even_when_the_engine_slips(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from championship.pairing import Pair
    from championship.services import rounds

    t = make(n=4, rounds=3)
    play(t)
    gone = t.entrants.get(name="P1")
    services.entrant_withdraw(entrant=gone, after=1)
    numbers = sorted(t.entrants.values_list("starting_number", flat=True))
    monkeypatch.setattr(
        rounds,
        "pair_swiss",
        lambda data, ruleset: [Pair(numbers[0], numbers[1], ""), Pair(numbers[2], numbers[3], "")],
    )
    with pytest.raises(services.ChampionshipError, match="not to play"):
        services.round_pair_next(tournament=t)
    assert not t.round_set.filter(number=2).exists()
    assert not Board.objects.filter(round__tournament=t, round__number=2).exists()
