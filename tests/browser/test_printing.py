"""Issue 21 point 6: every printable page printed to PDF in headless chromium (``page.pdf``),
its text read back with pypdf. The print style hides the site's chrome only (``.site-nav``,
``.site-footer``, the messages, the organisers' tab row, buttons): a paper sheet keeps its own
footer (the result and the signatures), a page keeps its notes. The QR sheet prints four equal
columns of 32 mm codes however long a name. PDFs are saved under /tmp/print-screens/."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone
from pypdf import PdfReader

from championship import services
from championship.apps import ORGANISERS_GROUP
from championship.models import Entrant, Tournament
from games import services as game_services
from games.demo import create_running_swiss
from registrations.models import MasterClassSignup, Registration
from tests.browser.conftest import close, keep, watched_page
from tests.conftest import make_session

pytestmark = pytest.mark.django_db(transaction=True)

OUT = Path("/tmp/print-screens")
LONG = "Александра Константиновна Преображенская-Рождественская"
#: Text of the site's chrome that must never reach paper.
CHROME = ["Log out", "Modern Nardy — the dice-free", "Dashboard", "Forbidden pairs"]


def world() -> Tournament:
    t = create_running_swiss(slug="pr", players=9, rounds=2, unfinished_last=True)
    Tournament.objects.filter(pk=t.pk).update(name="Print Open", name_ru="Печатный турнир")
    first = t.entrants.order_by("starting_number").first()
    Entrant.objects.filter(pk=first.pk).update(name=LONG)
    services.tournament_changed(t.pk)
    rnd = t.round_set.get(number=2)
    for board in rnd.boards.exclude(black=None):
        board.round = rnd
        game_services.game_for(board, 1)
    Registration.objects.create(
        tournament=t,
        name="Регина Регистрова",
        email="regina@example.org",
        phone="+14165550123",
        experience="club",
        language="ru",
        consent_at=timezone.now(),
    )
    session = make_session(seats=5)
    MasterClassSignup.objects.create(
        session=session,
        name="Ученик Первый",
        email="u@example.org",
        language="en",
        consent_at=timezone.now(),
    )
    user = User.objects.create_user("org", password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    user.user_permissions.add(*_registration_perms())
    return t


def _registration_perms() -> list[Any]:
    from django.contrib.auth.models import Permission

    return list(Permission.objects.filter(content_type__app_label="registrations"))


def login(browser: Any, live_server: Any, language: str, width: int = 1280) -> tuple[Any, Any]:
    context, page = watched_page(browser, viewport={"width": width, "height": 900})
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "org")
    page.fill("#id_password", "pw-organiser-123")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    return context, page


def pdf_pages(page: Any, name: str) -> list[str]:
    """The text of each page of the current page printed on A4."""
    data = page.pdf(format="A4")
    keep(str(OUT / f"{name}.pdf"), data)
    return [p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages]


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_paper_sheets_print_one_page_a_game_with_the_result_and_signatures(
    live_server: Any, browser: Any
) -> None:
    t = world()
    games = t.round_set.get(number=2).boards.exclude(black=None).count()
    context, page = login(browser, live_server, "en")
    try:
        page.goto(f"{live_server.url}/t/pr/round/2/sheets/")
        pages = pdf_pages(page, "paper-sheets-en")
        assert len(pages) == games
        for text in map(flat, pages):
            for words in (
                "Print Open",
                "Result:",
                "Termination:",
                "White's signature",
                "Black's signature",
                "Arbiter",
                "Phase 1",
                "Phase 2",
                "72",
            ):
                assert words in text, (words, text[:300])
            for chrome in CHROME:
                assert chrome not in text
    finally:
        close(context)
    context, page = login(browser, live_server, "ru")
    try:
        page.goto(f"{live_server.url}/t/pr/round/2/sheets/")
        pages = [flat(p) for p in pdf_pages(page, "paper-sheets-ru")]
        assert len(pages) == games
        assert all("Печатный турнир" in p and "Подпись белых" in p for p in pages), pages[0]
    finally:
        close(context)


def test_the_qr_sheet_prints_four_equal_columns_of_32_mm_codes(
    live_server: Any, browser: Any
) -> None:
    world()
    # The printable width of A4 with 10 mm margins, in CSS pixels (96 per inch).
    mm = 96 / 25.4
    context, page = login(browser, live_server, "ru", width=round(190 * mm))
    try:
        page.goto(f"{live_server.url}/t/pr/round/2/tablets/")
        page.emulate_media(media="print")
        boxes = page.eval_on_selector_all(
            ".tablet-card",
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " const q = e.querySelector('svg.qr').getBoundingClientRect();"
            " return [r.width, q.width, q.height]; })",
        )
        assert len(boxes) == 4
        widths = {round(w) for w, _q, _h in boxes}
        assert len(widths) == 1, boxes  # the long name does not widen its column
        for _w, qr_width, qr_height in boxes:
            assert abs(qr_width / mm - 32) < 0.5 and abs(qr_height / mm - 32) < 0.5, boxes
        text = flat(" ".join(pdf_pages(page, "qr-sheet-ru")))
        assert "Печатный турнир" in text and "Преображенская" in text
        for chrome in ("Выйти", "Современные нарды — игра без"):
            assert chrome not in text
    finally:
        close(context)


PRINTABLE = {
    "pairings": ("/t/pr/pairings/2/", ["Print Open", "Round 2", "Black", "Result"]),
    "standings": ("/t/pr/standings/", ["Print Open", "Standings", "Преображенская"]),
    "crosstable": ("/t/pr/crosstable/", ["Print Open", "Each cell"]),
    "registrations": ("/tournaments/pr/registrations/", ["Registrations", "Регина Регистрова"]),
    "roster": ("/organiser/master-class/{session}/roster/", ["Ученик Первый", "Present"]),
}


@pytest.mark.parametrize("name", list(PRINTABLE))
def test_every_printable_page_prints_its_content_without_the_site_chrome(
    live_server: Any, browser: Any, name: str
) -> None:
    from registrations.models import MasterClassSession

    world()
    url, expected = PRINTABLE[name]
    url = url.format(session=MasterClassSession.objects.get().pk)
    context, page = login(browser, live_server, "en")
    try:
        page.goto(live_server.url + url)
        text = flat(" ".join(pdf_pages(page, name)))
        for words in expected:
            assert words in text, (words, text[:400])
        for chrome in CHROME:
            assert chrome not in text, chrome
    finally:
        close(context)
