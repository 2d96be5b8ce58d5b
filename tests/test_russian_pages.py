"""Issue 21 point 10: every page of the site rendered in Russian (each URL pattern reversed
with the objects of a running tournament, as the endpoint walk does) shows the tournament's
Russian name, never a word of its English one; no raw key (a result history's action, a
status or a termination code) and no "– →"; points written one way in a language (a decimal
comma in Russian, as floatformat writes it); "доска", never "стол"."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import get_resolver
from django.utils import timezone

from championship import services
from championship.apps import ORGANISERS_GROUP
from championship.models import GameResult, ResultChange, Tournament
from games import tablet
from games.demo import create_running_swiss
from games.models import Game
from games.selectors import replay
from registrations import tokens
from registrations.models import MasterClassSignup, Registration
from tests.conftest import make_session
from tests.test_every_endpoint import _fill, _patterns, _valid_values

pytestmark = pytest.mark.django_db

ENGLISH_NAME = "Maplewood Springfield Invitational"
RUSSIAN_NAME = "Весенний турнир Торонто"
#: Keys the code keeps and the pages must say in words.
RAW_KEYS = re.compile(
    r"(?<![\w/-])(players|enter|correct|confirm|clear|draft|published|waitlisted|"
    r"registration|running|finished|home|blocked|resign|agreement|forfeit|adjudication)"
    r"(?![\w/-])"
)
#: Points with a decimal point (a date's day.month.year is not one).
POINT_DECIMAL = re.compile(r"(?<![\d.])\d{1,3}\.(5|25|75)(?![\d.])")


class _Text(HTMLParser):
    """The text a person reads: text nodes outside scripts, styles and templates, and the
    titles, placeholders and labels of the elements. A textarea's content is left out: on the
    move sheet it is the game's record, a file whose event keeps the tournament's name (as
    every export does)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template", "title", "textarea"):
            self._skip += 1
        for name, value in attrs:
            if name in ("title", "placeholder", "aria-label", "data-label") and value:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template", "title", "textarea") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def visible(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return re.sub(r"\s+", " ", " ".join(parser.parts))


def world() -> dict[str, Any]:
    t = create_running_swiss(
        slug="lv", players=9, rounds=2, unfinished_last=True, name=ENGLISH_NAME
    )
    Tournament.objects.filter(pk=t.pk).update(name_ru=RUSSIAN_NAME, two_person_confirmation=True)
    services.tournament_changed(t.pk)
    played = GameResult.objects.filter(board__round__tournament=t).exclude(result="")
    first = played.order_by("pk").first()
    assert first is not None
    for action in ("enter", "correct", "confirm", "players", "clear"):
        ResultChange.objects.create(game_result=first, action=action, old="", new=first.text)
    for board in t.round_set.get(number=2).boards.exclude(black=None):
        board.round = t.round_set.get(number=2)
        from games import services as game_services

        game_services.game_for(board, 1)
    at_board = next(
        g
        for g in Game.objects.filter(board__round__tournament=t).order_by("pk")
        if replay(g).outcome is None
    )
    reg = Registration.objects.create(
        tournament=t,
        name="Анна",
        email="anna@example.org",
        phone="+14165550123",
        experience="club",
        language="ru",
        consent_at=timezone.now(),
    )
    session = make_session(seats=1, tournament=t)
    signup = MasterClassSignup.objects.create(
        session=session, name="S", email="s@example.org", language="ru", consent_at=timezone.now()
    )
    game = Game.objects.filter(board__round__tournament=t).order_by("pk").first()
    assert game is not None
    entrant = t.entrants.order_by("pk").first()
    assert entrant is not None
    root = User.objects.create_superuser("root", "root@example.org", "pw-root-12345")
    organiser = User.objects.create_user("org", password="pw-org-12345")
    organiser.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    ints = [at_board.pk, game.board_id, game.pk, 1, 2, session.pk, reg.pk, entrant.pk, t.pk]
    return {
        "pools": {
            "int": [str(i) for i in dict.fromkeys(ints)],
            "id": [str(i) for i in dict.fromkeys(ints)],
            "slug": ["lv"],
            "str": [
                tablet.token_for(at_board.pk),
                tokens.make_token(tokens.MANAGE, reg.pk, reg.email),
                tokens.make_token(tokens.SIGNUP, signup.pk, signup.email),
                "ru",
            ],
        },
        "root": root,
    }


def test_every_page_in_russian_uses_the_russian_name_words_and_one_number_format() -> None:
    w = world()
    root = Client()
    root.force_login(w["root"])
    root.cookies["django_language"] = "ru"
    pages = 0
    problems: list[tuple[str, str]] = []
    for route, params in _patterns(get_resolver().url_patterns):
        if route.startswith(("i18n/", "static/", "admin/", "lang/")) or "(?P<" in route:
            continue
        values = _valid_values(root, route, params, w["pools"]) if params else {}
        if values is None:
            continue
        url = _fill(route, values)
        response = root.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        pages += 1
        text = visible(response.content.decode())
        for word in ENGLISH_NAME.split():
            if word in text:
                problems.append((url, f"English name: {word}"))
        for key in RAW_KEYS.findall(text):
            problems.append((url, f"raw key: {key}"))
        if "– →" in text or "- →" in text:
            problems.append((url, "– →"))
        for match in POINT_DECIMAL.finditer(text):
            problems.append((url, f"decimal point: {match.group(0)}"))
        if re.search(r"\bстол(а|у|ом|е|ы|ов)?\b", text, re.I):
            problems.append((url, "стол"))
        if re.search(r"\w\(а\)|\w\(лась\)|\(её\)", text):
            problems.append((url, "gendered form with (а)"))
    assert pages >= 30, pages
    assert not problems, problems


def test_the_explorers_colour_choices_agree_with_their_label(client: Client) -> None:
    """Under the label "Цвет" the choices read "любым / белыми / чёрными" (as in "playing
    with"): they are the colour's own names, as the label asks."""
    client.cookies["django_language"] = "ru"
    html = client.get("/openings/").content.decode()
    select = html.split('id="explorer-colour"', 1)[1].split("</select>", 1)[0]
    options = re.findall(r">([^<]+)</option>", select)
    assert options == ["любой", "белые", "чёрные"], options


@pytest.mark.django_db
def test_the_russian_tabs_name_the_standings_as_their_headings_do() -> None:
    """«Таблица» is the standings everywhere (the tab, «Таблица после 2-го тура», «Итоговая
    таблица»), «Кросс-таблица» the crosstable: a player who taps «Таблица» gets the standings."""
    t = create_running_swiss(slug="ru-tabs", players=8, rounds=2)
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get(f"/t/{t.slug}/").content.decode()
    links = dict(
        (text.strip(), href)
        for href, text in re.findall(r'<a[^>]+href="(/t/ru-tabs/[a-z]+/)"[^>]*>([^<]+)</a>', page)
    )
    assert links.get("Таблица") == "/t/ru-tabs/standings/"
    assert links.get("Кросс-таблица") == "/t/ru-tabs/crosstable/"
