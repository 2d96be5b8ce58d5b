"""What a walk through a tournament day on the players' phones found (issue 22): a bye read as
the crosstable's code, "1 points", a player who withdrew after a round shown only as
"withdrawn" (in Russian a bare noun) and counted down to rounds they do not play, a name changed
on the player's side that the tournament's list never showed, a button whose label was the
colour of the button, the tournament's heading with its first day only."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from championship import services
from championship.models import Board, Entrant
from registrations import tokens
from registrations.models import Registration
from registrations.services import entries
from tests.championship.day import field, page_url, timetable, weekend
from tests.championship.results import enter

pytestmark = pytest.mark.django_db


def _text(response) -> str:  # type: ignore[no-untyped-def]
    assert response.status_code == 200
    return response.content.decode()


def _page(client: Client, reg: Registration, language: str = "en") -> str:
    return _text(client.get(page_url(reg) + f"?lang={language}"))


@pytest.fixture
def round_one():  # type: ignore[no-untyped-def]
    """Five players checked in, round 1 paired and published: one of them has the bye."""
    t = weekend()
    timetable(t)
    players = field(t, 5)
    rnd = services.round_pair_next(tournament=t)
    services.round_publish(round=rnd)
    return t, rnd, {r.pk: r for r in players}


def test_a_bye_reads_as_the_points_it_gives_and_the_standing_as_points(client, round_one) -> None:  # type: ignore[no-untyped-def]
    t, rnd, regs = round_one
    bye = Board.objects.get(round=rnd, black=None)
    played = Board.objects.filter(round=rnd).exclude(black=None).first()
    assert played is not None and bye.white.registration_id is not None
    enter(played, "1-0", "resign")
    for language in ("en", "ru"):
        page = _page(client, regs[bye.white.registration_id], language)
        shown = re.findall(r'<strong class="outcome">([^<]*)</strong>', page)
        assert shown == ["+1"], language  # not the crosstable's "B"
    page = _page(client, regs[bye.white.registration_id])
    assert re.search(r"Rank \d+ · points: 1 ·", page) and "1 points" not in page
    assert "Место " in _page(client, regs[bye.white.registration_id], "ru")
    public = _text(Client().get(reverse("championship:player", args=[t.slug, bye.white_id])))
    assert re.search(r"Rank \d+ · points: 1\b", public) and "wins: 0, draws: 0, losses: 0" in public


def test_a_player_who_withdrew_after_a_round_is_told_so_and_not_counted_down_to(
    client, round_one
) -> None:  # type: ignore[no-untyped-def]
    t, rnd, regs = round_one
    board = Board.objects.filter(round=rnd).exclude(black=None).first()
    assert board is not None
    reg = regs[board.white.registration_id]
    before = _page(client, reg)
    assert "data-countdown" in before  # the schedule's countdown, to the next round
    enter(board, "0-1", "resign")
    entries.registration_withdraw(registration=reg)
    assert Entrant.objects.get(registration=reg).withdrawn_after == 1
    page = _page(client, reg)
    assert 'id="withdrawn-badge">withdrawn after round 1<' in page
    assert "data-countdown " not in page and "data-countdown>" not in page
    assert "участие завершено после 1-го тура" in _page(client, reg, "ru")


def test_an_entered_player_s_name_and_club_are_the_list_s(client, round_one) -> None:  # type: ignore[no-untyped-def]
    """The pairings and standings show the tournament's list: once on it, a player changes
    their phone and language, and asks the organisers for the name and club (the page said
    "saved" and showed the new name with the old club, while every public page kept the old)."""
    t, _rnd, regs = round_one
    reg = next(iter(regs.values()))
    manage = reverse(
        "registrations:manage", args=[tokens.make_token(tokens.MANAGE, reg.pk, reg.email)]
    )
    form = _text(client.get(manage))
    assert re.search(r'<input[^>]*name="name"[^>]*disabled', form)
    assert re.search(r'<input[^>]*name="club"[^>]*disabled', form)
    assert "please ask the organisers to change it" in form
    posted = client.post(
        manage,
        {
            "name": "Someone Else",
            "club": "Elsewhere",
            "phone": "+14165550777",
            "experience": "club",
            "language": "en",
        },
    )
    assert posted.status_code == 302
    reg.refresh_from_db()
    entrant = Entrant.objects.get(registration=reg)
    assert (reg.name, reg.club, str(reg.phone)) == (entrant.name, entrant.club, "+14165550777")
    Entrant.objects.filter(pk=entrant.pk).update(name="Player One (corrected)")
    assert "<strong>Player One (corrected)</strong>" in _page(client, reg)  # the list's name


def test_a_registration_not_on_the_list_yet_changes_its_name(client) -> None:  # type: ignore[no-untyped-def]
    from tests.championship.day import register

    t = weekend()
    reg = register(t, "Anna Ivanova")
    manage = reverse(
        "registrations:manage", args=[tokens.make_token(tokens.MANAGE, reg.pk, reg.email)]
    )
    assert not re.search(r'<input[^>]*name="name"[^>]*disabled', _text(client.get(manage)))
    client.post(
        manage,
        {
            "name": "Anna Petrova",
            "club": "Oakville",
            "phone": "+14165550199",
            "experience": "club",
            "language": "ru",
        },
    )
    reg.refresh_from_db()
    assert (reg.name, reg.club) == ("Anna Petrova", "Oakville")


def test_the_lost_link_button_has_a_readable_label(client) -> None:  # type: ignore[no-untyped-def]
    page = _text(client.get(reverse("registrations:lost_link")))
    button = re.search(r'<input[^>]*name="send"[^>]*>', page)
    assert button is not None
    classes = re.search(r'class="([^"]*)"', button.group(0))
    assert classes is not None
    colours = [c for c in classes.group(1).split() if re.fullmatch(r"btn-(outline-)?[a-z]+", c)]
    assert colours == ["btn-primary"]  # one colour: the label not the button's own colour


def test_the_tournament_s_heading_gives_its_days(client) -> None:  # type: ignore[no-untyped-def]
    t = weekend()
    page = _text(
        client.get(reverse("championship:overview", args=[t.slug]), HTTP_ACCEPT_LANGUAGE="en")
    )
    assert "March 13, 2027 – March 14, 2027" in page
    site = _text(client.get(reverse("tournament_detail", args=[t.slug]), HTTP_ACCEPT_LANGUAGE="en"))
    assert "March 13, 2027 – March 14, 2027" in site
    standings = _text(
        client.get(reverse("championship:standings", args=[t.slug]), HTTP_ACCEPT_LANGUAGE="en")
    )
    assert "March 13, 2027 – March 14, 2027" in standings
    one_day = weekend(slug="one")
    type(one_day).objects.filter(pk=one_day.pk).update(ends_on=t.starts_on)
    assert "March 13, 2027 –" not in _text(
        client.get(
            reverse("championship:standings", args=[one_day.slug]), HTTP_ACCEPT_LANGUAGE="en"
        )
    )
