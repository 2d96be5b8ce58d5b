"""The registration pages at a phone's width (390 px) and a laptop's (1280 px), in English and
Russian: the form, the full-field notice, the withdrawal question and the organisers' list fit
the screen (no sideways scrolling) and their buttons are on it. Screenshots are saved under
/tmp/registration-screens/ for a person to look at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from championship.apps import ORGANISERS_GROUP
from championship.models import Tournament
from registrations import tokens
from registrations.models import Registration
from tests.browser.conftest import close, csp_violations, screenshot, watched_page
from tests.conftest import make_session

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = Path("/tmp/registration-screens")
LONG_NAMES = [
    "Александра Константиновна Преображенская-Рождественская",
    "Maximilian Alexander Montgomery-Worthington III",
    "Nguyễn Thị Minh Khai",
    "محمد عبد الرحمن",
]


def populate() -> dict[str, Any]:
    full = Tournament.objects.create(
        name="Toronto Modern Nardy Championship",
        name_ru="Чемпионат Торонто по современным нардам",
        slug="full",
        venue="Toronto Chess & Nardy Club, 2200 Yonge Street, 2nd floor",
        starts_on="2027-03-14",
        ends_on="2027-03-15",
        entry_cap=24,
    )
    open_one = Tournament.objects.create(
        name="Spring Rapid", name_ru="Весенний рапид", slug="open", starts_on="2027-04-10",
        ends_on="2027-04-10",
    )  # fmt: skip
    make_session(tournament=full)
    now = timezone.now()
    rows = []
    for i in range(30):
        rows.append(
            Registration(
                tournament=full,
                name=f"{LONG_NAMES[i % 4]} {i}",
                email=f"very.long.address.number{i}@example-mail-provider.org",
                phone="+14165550123",
                club="Клуб «Длинное название», Торонто" if i % 2 else "North York Backgammon",
                experience=["newcomer", "beginner", "club", "experienced"][i % 4],
                language="ru" if i % 2 else "en",
                consent_at=now,
                email_confirmed_at=now if i % 3 else None,
                checked_in_at=now if i % 5 == 0 else None,
                status="entered" if i < 24 else "waitlisted",
            )
        )
    Registration.objects.bulk_create(rows)
    first = Registration.objects.filter(tournament=full).order_by("pk").first()
    assert first is not None
    user = User.objects.create_user("org", password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    return {
        "form": reverse("registrations:register", args=[open_one.slug]),
        "full-field": reverse("registrations:register", args=[full.slug]),
        "withdraw": reverse(
            "registrations:withdraw",
            args=[tokens.make_token(tokens.MANAGE, first.pk, first.email)],
        ),
        "organiser-list": reverse("registrations:list", args=[full.slug]),
    }


def fits(page: Any) -> dict[str, Any]:
    return page.evaluate(
        "({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})"
    )


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("width", [390, 1280])
def test_registration_pages_fit_the_screen(
    live_server: Any, browser: Any, width: int, language: str
) -> None:
    urls = populate()
    phone = width < 500
    context, page = watched_page(
        browser,
        viewport={"width": width, "height": 844 if phone else 900},
        is_mobile=phone,
        has_touch=phone,
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    try:
        for name, url in urls.items():
            if name == "organiser-list":
                page.goto(f"{live_server.url}/accounts/login/?next={url}")
                page.fill("#id_username", "org")
                page.fill("#id_password", "pw-organiser-123")
                page.click("main button[type=submit]")
                page.wait_for_url(f"{live_server.url}{url}")
            else:
                page.goto(live_server.url + url)
            screenshot(page, str(SCREENS / f"{name}-{language}-{width}.png"), full_page=True)
            screenshot(page, str(SCREENS / f"{name}-{language}-{width}-top.png"))
            size = fits(page)
            assert size["scroll"] <= size["inner"], (name, size)
            if name == "full-field":
                notice = page.inner_text("#full-notice")
                assert ("position 7" if language == "en" else "под номером 7") in notice
            if name == "withdraw":
                assert page.is_visible("#confirm-withdraw")
            if name == "organiser-list":
                # Every check-in button is on the screen without scrolling sideways.
                rights = page.eval_on_selector_all(
                    "form[action*='check-in'] button",
                    "els => els.map(e => e.getBoundingClientRect().right)",
                )
                # (Only entered players, or those checked in already, have one.)
                can_check_in = Registration.objects.filter(
                    Q(status="entered") | Q(checked_in_at__isnull=False), tournament__slug="full"
                ).count()
                assert len(rights) == can_check_in >= 24 and max(rights) <= width, (
                    max(rights),
                    width,
                )
                assert ("Waiting list · 6" if language == "en" else "Лист ожидания · 6") in (
                    page.inner_text("main")
                )
        assert csp_violations(page) == []
    finally:
        close(context)
