"""The public tables as a chess-results reader expects them (issue 14 pt 4, issue 11 pt 5):
tie-breaks named in the user's language with a legend, names linking to player pages, the
current tab marked, distinct symbols for forfeits and byes, withdrawn players and provisional
results marked, pairings with numbers, ratings, points before the round and terminations; and
the TRF export with its whole header (pt 8)."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.test import Client

from championship import services
from championship.models import Board, Entrant, GameResult, Round, Tournament
from championship.pairing import parse_trf, read_trf
from games.demo import create_running_swiss
from tests.championship.results import enter

pytestmark = pytest.mark.django_db


def _ru(client: Client) -> Client:
    client.cookies["django_language"] = "ru"
    return client


def _html(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


@pytest.fixture
def swiss() -> Tournament:
    # 9 players: a pairing-allocated bye each round; every termination among the results.
    return create_running_swiss(slug="pt", players=9, rounds=3, unfinished_last=False)


def test_standings_name_each_tiebreak_in_the_users_language_with_a_legend(
    client: Client, swiss: Tournament
) -> None:
    html = _html(client, "/t/pt/standings/")
    legend = html[html.index('<dl class="legend') :]
    for name in ("Buchholz Cut-1", "Buchholz", "Sonneborn-Berger", "Direct encounter"):
        assert f"<strong>{name}</strong>" in legend
    # W and WIN are both explained, and told apart.
    assert "games won, drawn, lost over the board" in legend
    assert "counting the wins by forfeit and the byes" in legend
    ru = _html(_ru(Client()), "/t/pt/standings/")
    legend_ru = ru[ru.index('<dl class="legend') :]
    assert "<strong>Бухгольц с отсечением худшего</strong>" in legend_ru
    assert "<strong>Зоннеборн-Бергер</strong>" in legend_ru
    assert "Buchholz" not in legend_ru
    assert 'title="Зоннеборн-Бергер"' in ru  # the column's tooltip too


def test_names_link_to_player_pages_and_the_tab_is_marked(
    client: Client, swiss: Tournament
) -> None:
    entrant = swiss.entrants.order_by("starting_number").first()
    link = f'href="/t/pt/players/{entrant.pk}/"'
    for page, tab in (("standings/", "Standings"), ("crosstable/", "Crosstable")):
        html = _html(client, f"/t/pt/{page}")
        assert link in html, page
        current = re.findall(
            r'<a class="nav-link active" aria-current="page"[^>]*>([^<]+)</a>', html
        )
        assert current == [tab]
    html = _html(client, f"/t/pt/players/{entrant.pk}/")
    assert re.search(r'aria-current="page"[^>]*>Players<', html)


def test_a_forfeit_win_and_a_pairing_bye_are_not_the_same_symbol(
    client: Client, swiss: Tournament
) -> None:
    html = _html(client, "/t/pt/crosstable/")
    forfeit = GameResult.objects.filter(board__round__tournament=swiss, termination="forfeit")
    assert forfeit.exists()
    # A forfeit win is "+", a pairing-allocated bye "B"; the legend says which is which.
    assert re.search(r"\d+[wb]<strong>\+</strong>", html) or "<strong>+</strong>" in html
    assert "<td><strong>B</strong></td>" in html
    assert "pairing-allocated bye" in html and "won, lost by forfeit" in html


def test_withdrawn_players_are_marked_everywhere(client: Client, swiss: Tournament) -> None:
    entrant = swiss.entrants.order_by("starting_number").last()
    services.tournament_changed(swiss.pk)
    Entrant.objects.filter(pk=entrant.pk).update(withdrawn_after=2)
    services.tournament_changed(swiss.pk)
    for page in ("standings/", "crosstable/", "players/", f"players/{entrant.pk}/"):
        html = _html(client, f"/t/pt/{page}")
        row = next(r for r in html.split("<tr") if entrant.name in r and "withdrawn" in r)
        assert "withdrawn" in row, page
    assert "withdrawn after round 2" in _html(client, "/t/pt/standings/")


def test_pairings_show_numbers_ratings_points_before_and_terminations(
    client: Client, swiss: Tournament
) -> None:
    html = _html(client, "/t/pt/pairings/3/")
    board = (
        Board.objects.filter(round__tournament=swiss, round__number=3)
        .exclude(black=None)
        .select_related("white", "black")
        .first()
    )
    data_points = {r.number: r.points for r in services_standings(swiss, 2)}
    row = next(r for r in html.split("<tr")[1:] if f">{board.white.name}<" in r)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    assert cells[0] == str(board.number)
    assert cells[1] == str(board.white.starting_number)
    assert cells[3] == str(board.white.rating)
    assert cells[4] == _num(data_points[board.white.starting_number])
    assert cells[6] == _num(data_points[board.black.starting_number])
    assert cells[8] == str(board.black.rating) and cells[9] == str(board.black.starting_number)
    # The bye row has as many cells as the others, its points in the result column.
    bye_row = next(r for r in html.split("<tr")[1:] if "bye-row" in r)
    assert len(re.findall(r"<td", bye_row)) == len(cells) == 10
    assert "pairing-allocated bye" in bye_row
    # Every termination is marked, a loss on time among them.
    every = _html(client, "/t/pt/pairings/1/") + html + _html(client, "/t/pt/pairings/2/")
    for g in GameResult.objects.filter(board__round__tournament=swiss).exclude(termination=""):
        assert f"({g.get_termination_display()})" in every
    assert GameResult.objects.filter(board__round__tournament=swiss, termination="time").exists()
    assert "(time)" in every


def services_standings(t: Tournament, upto: int) -> list:
    from championship import tables

    return tables.standings(t, upto)


def _num(value: object) -> str:
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def test_provisional_results_are_marked_until_confirmed(client: Client) -> None:
    t = create_running_swiss(slug="pv", players=6, rounds=2, unfinished_last=True)
    Tournament.objects.filter(pk=t.pk).update(two_person_confirmation=True)
    first = User.objects.create_user("first", password="pw-first-12345")
    second = User.objects.create_user("second", password="pw-second-12345")
    board = (
        Board.objects.filter(round__tournament=t, round__number=2, results__result="")
        .exclude(black=None)
        .select_related("white", "black")
        .first()
    )
    pages = ["pairings/2/", "standings/", "crosstable/", f"players/{board.white.pk}/"]
    before = {p: _html(client, f"/t/pv/{p}") for p in pages}  # cached now
    assert all("†" not in html for html in before.values())
    enter(board, "1-0", "resign", user=first)
    assert GameResult.objects.get(board=board, number=1).confirmed is False
    for page in pages:
        html = _html(client, f"/t/pv/{page}")
        assert '<span class="prov"' in html, page
        assert "awaiting a second arbiter" in html, page  # the legend explains the mark
    assert "These standings include provisional results" in _html(client, "/t/pv/standings/")
    services.game_results_confirm(board=board, user=second)
    for page in pages:
        assert '<span class="prov"' not in _html(client, f"/t/pv/{page}"), page


def test_without_two_person_confirmation_nothing_is_provisional(client: Client) -> None:
    t = create_running_swiss(slug="np", players=6, rounds=2, unfinished_last=True)
    board = Board.objects.filter(round__tournament=t, round__number=2, results__result="")
    enter(board.exclude(black=None)[0], "0-1", "resign")
    assert '<span class="prov"' not in _html(client, "/t/np/pairings/2/")


def test_the_trf_has_the_whole_header_and_reads_back(client: Client, swiss: Tournament) -> None:
    Tournament.objects.filter(pk=swiss.pk).update(
        city="Toronto",
        federation="can",
        chief_arbiter="Ivan Petrov",
        deputy_arbiters="Anna Smirnova\n\nOleg Ivanov",
        phase1_minutes=30,
        phase2_minutes=15,
    )
    Round.objects.filter(tournament=swiss, number=2).update(date=date(2026, 5, 3))
    services.tournament_changed(swiss.pk)
    swiss.refresh_from_db()
    text = client.get("/t/pt/export.trf").content.decode()
    lines = text.splitlines()
    codes = [line[:3] for line in lines if not line.startswith("001")]
    assert codes[:15] == [
        "012", "022", "032", "042", "052", "062", "072", "082", "092", "102", "112", "112",
        "122", "132", "192",
    ]  # fmt: skip
    head = {line[:3]: line[4:] for line in lines}
    assert head["022"] == "Toronto" and head["032"] == "CAN"
    assert head["042"] == swiss.starts_on.strftime("%Y/%m/%d")
    assert head["052"] == swiss.ends_on.strftime("%Y/%m/%d")
    assert head["062"] == "9" and head["072"] == "9" and head["082"] == "0"
    assert head["092"] == "Individual: Swiss-System"
    assert head["102"] == "Ivan Petrov"
    assert [line[4:] for line in lines if line.startswith("112")] == [
        "Anna Smirnova",
        "Oleg Ivanov",
    ]
    assert head["122"] == "30 min + 15 min"
    assert head["192"] == "FIDE_DUTCH_2025"
    # 132: each round's date above that round's entry in the player lines.
    dates_line = next(line for line in lines if line.startswith("132"))
    player = next(line for line in lines if line.startswith("001"))
    for n in range(3):
        column = 91 + 10 * n
        assert player[column : column + 8].strip()  # round n+1's entry is there
        assert re.fullmatch(r"\d\d/\d\d/\d\d", dates_line[column : column + 8])
    assert dates_line[101:109] == "26/05/03"
    # The file still reads back: the same players and rounds.
    again = read_trf(text)
    from championship import tables

    data = tables.data(swiss)
    assert [p.rounds for p in again.players] == [p.rounds for p in data.players]
    assert parse_trf(text).ruleset == "dutch-2025"


def test_an_exported_trf_imports_with_its_header(client: Client, swiss: Tournament) -> None:
    from championship.interchange import import_trf

    Tournament.objects.filter(pk=swiss.pk).update(
        city="Toronto",
        federation="CAN",
        chief_arbiter="Ivan Petrov",
        deputy_arbiters="Anna Smirnova\nOleg Ivanov",
        starts_on=date(2026, 5, 2),
        ends_on=date(2026, 5, 4),
    )
    for n in (1, 2, 3):
        Round.objects.filter(tournament=swiss, number=n).update(date=date(2026, 5, n + 1))
    services.tournament_changed(swiss.pk)
    text = client.get("/t/pt/export.trf").content.decode()
    copy = import_trf(text, slug="copy")
    assert (copy.city, copy.federation, copy.chief_arbiter) == ("Toronto", "CAN", "Ivan Petrov")
    assert copy.deputy_arbiter_names == ["Anna Smirnova", "Oleg Ivanov"]
    assert (copy.starts_on, copy.ends_on) == (date(2026, 5, 2), date(2026, 5, 4))
    assert list(copy.round_set.order_by("number").values_list("date", flat=True)) == [
        date(2026, 5, 2),
        date(2026, 5, 3),
        date(2026, 5, 4),
    ]
    from championship import tables

    original, again = tables.data(swiss), tables.data(copy)
    assert [p.rounds for p in again.players] == [p.rounds for p in original.players]
    # Exported again, the same file but for the lines that name what the copy cannot know.
    copy_text = client.get("/t/copy/export.trf").content.decode()
    assert copy_text.splitlines()[1:] == text.splitlines()[1:]
