"""The club's rating and a person's page in a real browser (issue 23): at a phone's size
(390×844) and a laptop's (1280×800), in English and Russian, the list and a person's page fit
the screen with no policy violation, the "?" of provisional ratings shows, the month chooser
leads to a dated list, names lead to people's pages and on to their opponents'; an organiser
merges two likely duplicates and undoes it, and the list follows. Screenshots are saved under
/tmp/rating-screens/ for a person to look at."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from championship.models import PersonRating
from championship.services import ratings_recompute
from games.demo import create_past_event
from people.models import Person
from tests.browser.conftest import (
    close,
    csp_violations,
    organiser_page,
    screenshot,
    wait_for,
    watched_page,
)

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = Path("/tmp/rating-screens")
SIZES = [(390, 844), (1280, 800)]
TEXTS = {
    "en": ("Club rating", "Provisional ratings", "How the rating is computed"),
    "ru": ("Клубный рейтинг", "Предварительные рейтинги", "Как считается рейтинг"),
}


def populate() -> list[Person]:
    today = timezone.localdate().replace(day=1)
    people = [
        Person.objects.create(name=n)
        for n in (
            "Александра Константиновна Преображенская",
            "Ivan Petrov",
            "Olga Kim",
            "Павел Смирнов",
            "Sam Patel",
            "Мария Волкова",
            "Chris Novak",
            "Юлия Козлова",
        )
    ]
    create_past_event(
        slug="club-1",
        name="Club monthly",
        people=people,
        rounds=3,
        day=(today - timedelta(days=40)).replace(day=5),
        seed=3,
    )
    create_past_event(
        slug="club-2",
        name="Club monthly II",
        people=people[2:],
        rounds=3,
        day=(today - timedelta(days=10)).replace(day=3),
        seed=4,
    )
    ratings_recompute(force=True)
    return people


def fits(page: Any) -> None:
    size = page.evaluate(
        "({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})"
    )
    assert size["scroll"] <= size["inner"], size


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_list_and_a_persons_page(
    live_server: Any, browser: Any, width: int, height: int, language: str
) -> None:
    people = populate()
    phone = width < 500
    context, page = watched_page(
        browser, viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    try:
        page.goto(live_server.url + "/ratings/")
        screenshot(page, str(SCREENS / f"list-{language}-{width}.png"), full_page=True)
        fits(page)
        body = page.inner_text("main")
        for text in TEXTS[language]:
            assert text in body, text
        assert page.locator(".rating-list .prov-rating").count() > 0  # few games: "?"
        # The month chooser: the list at the end of the month before.
        months = page.eval_on_selector_all("#month option", "els => els.map(e => e.value)")
        assert len(months) >= 2
        page.select_option("#month", months[-1])
        page.click(".month-form button[type=submit]")
        page.wait_for_url(f"**/ratings/{months[-1]}/")
        assert page.locator(".rating-list tbody tr").count() == 8
        # A name leads to the person's page; an opponent's name to theirs.
        page.click(f".rating-list a[href='/people/{people[0].pk}/']")
        page.wait_for_url(f"**/people/{people[0].pk}/")
        screenshot(page, str(SCREENS / f"person-{language}-{width}.png"), full_page=True)
        fits(page)
        assert page.locator(".person-event").count() == 1  # she played the first event only
        assert page.locator(".person-games tbody tr").count() == 3
        assert "→" in page.inner_text(".person-games")
        page.locator(".person-games tbody tr td:nth-child(3) a").first.click()
        page.wait_for_url("**/people/*/")
        assert page.url.rstrip("/").split("/")[-1] != str(people[0].pk)
        fits(page)
        assert csp_violations(page) == []
        assert page.console_errors == []
    finally:
        close(context)


def test_an_organiser_merges_two_people_and_undoes_it(live_server: Any, browser: Any) -> None:
    people = populate()
    twin = Person.objects.create(name="ivan  PETROV")
    create_past_event(
        slug="club-3",
        name="Elsewhere",
        people=[twin, people[2]],
        rounds=1,
        day=date.today().replace(day=1),
        seed=5,
    )
    ratings_recompute(force=True)
    assert PersonRating.objects.filter(person=twin).exists()
    context, page = organiser_page(browser, live_server, "/organiser/players/")
    try:
        screenshot(page, str(SCREENS / "organiser-people-en-1280.png"), full_page=True)
        group = page.locator(".duplicate-group", has_text="ivan  PETROV")
        group.locator(f"a[href='/organiser/players/{people[1].pk}/']").click()
        page.wait_for_url(f"**/organiser/players/{people[1].pk}/")
        page.check(f"#other-{twin.pk}")
        page.click(".merge-box button[type=submit]")
        page.wait_for_selector(".alert-success")
        screenshot(page, str(SCREENS / "organiser-merged-en-1280.png"), full_page=True)
        wait_for(lambda: not PersonRating.objects.filter(person=twin).exists())
        page.goto(live_server.url + "/ratings/")
        assert f"/people/{twin.pk}/" not in page.content()
        page.goto(live_server.url + f"/organiser/players/{people[1].pk}/")
        page.click(".person-changes button[type=submit]")
        page.wait_for_selector(".alert-success")
        wait_for(lambda: PersonRating.objects.filter(person=twin).exists())
        twin.refresh_from_db()
        assert twin.merged_into_id is None
        assert csp_violations(page) == []
    finally:
        close(context)
