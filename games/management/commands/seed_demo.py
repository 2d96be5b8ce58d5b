"""Demo data for a first look: ``python manage.py seed_demo`` (idempotent). Its tournaments
are marked ``demo``: ``python manage.py remove_demo``, or *Remove the demo data* on the
organisers' pages, removes them with their registrations, sessions and sign-ups.

A tournament open for registration, two master-class sessions (one of them full), a few
registrations, and an organiser account (see README.md for its credentials).

In production (``DJANGO_DEBUG=0``) it refuses: the README publishes that password, and
``--players`` replaces a tournament. ``--allow-production`` runs it anyway, for a staging site;
the organiser account then gets a random password, printed once.
"""

from __future__ import annotations

import secrets
from datetime import datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.validators import validate_slug
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from championship import schedule as day_schedule
from championship import services as championship
from championship.apps import ORGANISERS_GROUP, ensure_organisers_group
from championship.models import Tournament
from championship.services import ratings_recompute, tournament_changed
from games import analysis
from games.demo import (
    FIRST,
    LAST,
    create_past_event,
    create_running_swiss,
    open_hall_round,
    start_the_hall,
)
from games.models import Game
from people.models import Person
from registrations.emails import absolute, player_path
from registrations.models import Experience, MasterClassSession, MasterClassSignup, Registration

ORGANISER_USERNAME = "organiser"
ORGANISER_PASSWORD = "nardy-organiser-2027"

PLAYERS = [
    (
        "Анна Иванова",
        "anna.ivanova@example.org",
        "+14165550101",
        "Toronto",
        Experience.EXPERIENCED,
        "ru",
    ),
    (
        "Павел Петров",
        "pavel.petrov@example.org",
        "+14165550102",
        "Mississauga",
        Experience.CLUB,
        "ru",
    ),
    (
        "Olga Smirnova",
        "olga.smirnova@example.org",
        "+16475550103",
        "North York",
        Experience.BEGINNER,
        "en",
    ),
    (
        "Dmitri Volkov",
        "dmitri.volkov@example.org",
        "+14375550104",
        "Toronto",
        Experience.EXPERIENCED,
        "en",
    ),
    (
        "Мария Кузнецова",
        "maria.k@example.org",
        "+19055550105",
        "Richmond Hill",
        Experience.NEWCOMER,
        "ru",
    ),
    ("Sam Patel", "sam.patel@example.org", "+14165550106", "Toronto", Experience.NEWCOMER, "en"),
]


def organisers_group() -> Group:
    ensure_organisers_group()
    return Group.objects.get(name=ORGANISERS_GROUP)


class Command(BaseCommand):
    help = "Create demo data: a tournament, master-class sessions and an organiser account."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--players", type=int, help="create a running Swiss with this many entrants"
        )
        parser.add_argument("--rounds", type=int, default=5, help="rounds paired in it (default 5)")
        parser.add_argument("--slug", default="demo-swiss", help="its slug (default demo-swiss)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--hall",
            action="store_true",
            help="with --players: the rounds all played, then the next one published with a "
            "tablet at every board and every clock running (the hall's load test)",
        )
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="run although DJANGO_DEBUG=0 (a staging site): the organiser account then "
            "gets a random password, printed once",
        )

    def handle(self, *args: object, **options: Any) -> None:
        production = not settings.DEBUG
        if production and not options["allow_production"]:
            raise CommandError(
                "seed_demo refuses to run with DJANGO_DEBUG=0: it creates an organiser account "
                "whose password README.md publishes and replaces demo tournaments. For a "
                "staging site run it with --allow-production (the account then gets a random "
                "password, printed once)."
            )
        try:
            validate_slug(options["slug"])
        except ValidationError:
            raise CommandError(
                f"--slug {options['slug']!r}: use only letters a-z, digits, hyphens and underscores"
            ) from None
        if options.get("players"):
            t = create_running_swiss(
                slug=options["slug"],
                players=options["players"],
                rounds=options["rounds"],
                seed=options["seed"],
                unfinished_last=not options["hall"],
            )
            Tournament.objects.filter(pk=t.pk).update(demo=True)  # remove_demo removes it
            if options["hall"]:
                rnd = open_hall_round(t)
                self.stdout.write(f"Round {rnd.number} at the tablets, every clock running.")
            self.stdout.write(self.style.SUCCESS(f"Running Swiss ready at /t/{t.slug}/"))
            self.tournament_day(t)
            return
        self.seed_base(random_password=production)
        if not Tournament.objects.filter(slug="demo-swiss").exists():
            people = self.seed_past_events()
            t = create_running_swiss(
                slug="demo-swiss",
                players=24,
                rounds=5,
                name="Toronto Autumn Open (demo)",
                people=people,
            )
            # Its Russian name, shown on every page in Russian (the files keep the English one);
            # marked demo (``remove_demo`` takes it away).
            Tournament.objects.filter(pk=t.pk).update(
                name_ru="Осенний турнир Торонто (демо)", demo=True
            )
            tournament_changed(t.pk)  # the pages kept so far knew only the English name
            self.stdout.write(self.style.SUCCESS(f"Running Swiss ready at /t/{t.slug}/"))
            start_the_hall(t)
            self.analyse_some(t)
            ratings_recompute(force=True)
            self.stdout.write(self.style.SUCCESS("Club rating ready at /ratings/"))
        self.tournament_day(Tournament.objects.get(slug="demo-swiss"))
        self.tournament_day(Tournament.objects.get(slug="toronto-2027"))

    @transaction.atomic
    def tournament_day(self, t: Tournament) -> None:
        """A schedule (three rounds a day from 10:00) and players' own pages: two entrants of
        a running tournament get a registration with an e-mail (walk-ins have no page), and
        the links are printed (SITE_URL) — the pages are reached from e-mails otherwise."""
        if not t.round_starts.exists():
            starts = day_schedule.suggest(
                first=t.starts_on,
                last=t.ends_on,
                rounds=championship.total_rounds(t),
                first_start=time(10, 0),
                round_minutes=t.round_length,
                per_day=3,
                zone=t.time_zone,
            )
            championship.round_starts_set(tournament=t, starts=dict(enumerate(starts, start=1)))
        now = timezone.now()
        for language in ("en", "ru"):
            email = f"player-{language}@example.org"
            if Registration.objects.filter(tournament=t, email=email).exists():
                continue
            entrant = (
                t.entrants.filter(registration__isnull=True)
                .order_by(F("starting_number").asc(nulls_last=True), "pk")
                .first()
            )
            if entrant is None:
                continue
            entrant.registration = Registration.objects.create(
                tournament=t,
                person=entrant.person,  # one person: the entrant's and their registration's
                email=email,
                name=entrant.name,
                club=entrant.club,
                experience=Experience.CLUB,
                language=language,
                consent_at=now,
                email_confirmed_at=now,
                checked_in_at=now if entrant.checked_in else None,
            )
            entrant.save(update_fields=["registration"])
        regs = Registration.objects.filter(tournament=t, status=Registration.Status.ENTERED)
        for reg in regs.order_by("pk")[:3]:
            self.stdout.write(
                f"{reg.name}'s own page ({t.slug}, {reg.language}): {absolute(player_path(reg))}"
            )

    def seed_past_events(self) -> list[Person]:
        """Two finished club events of the months before, by 16 and 12 of the demo Swiss's
        players: the club's rating list has a history and the people pages have events."""
        today = timezone.localdate()
        people = Person.objects.bulk_create(
            Person(name=f"{first} {last}") for first, last in zip(FIRST, LAST, strict=False)
        )[:16]
        two_months = (today.replace(day=1) - timedelta(days=40)).replace(day=6)
        last_month = (today.replace(day=1) - timedelta(days=10)).replace(day=3)
        create_past_event(
            slug="demo-club-1",
            name="Club monthly (demo)",
            people=people,
            rounds=4,
            day=two_months,
            seed=11,
        )
        create_past_event(
            slug="demo-club-2",
            name="Club monthly II (demo)",
            people=people[4:],
            rounds=4,
            day=last_month,
            seed=12,
        )
        Tournament.objects.filter(slug__in=["demo-club-1", "demo-club-2"]).update(demo=True)
        self.stdout.write(
            self.style.SUCCESS("Two past club events at /t/demo-club-1/, /t/demo-club-2/")
        )
        return people

    def analyse_some(self, t: Tournament, n: int = 4) -> None:
        """The engine's analysis of a few finished games of round 1 (inline without a worker,
        a few seconds each; queued with one); the others on an organiser's request."""
        games = Game.objects.filter(board__round__tournament=t, board__round__number=1)
        done = 0
        for game in games.order_by("board__number", "number"):
            if done >= n:
                break
            if analysis.request(game.pk) is not None:
                done += 1
        self.stdout.write(f"The engine analyses {done} games of round 1.")

    @transaction.atomic
    def seed_base(self, *, random_password: bool = False) -> None:
        today = timezone.localdate()
        start = today + timedelta(days=30)
        tournament, _ = Tournament.objects.update_or_create(
            slug="toronto-2027",
            defaults={
                "name": "Toronto Modern Nardy Championship",
                "name_ru": "Чемпионат Торонто по современным нардам",
                "venue": "Toronto, North York Civic Centre",
                "starts_on": start,
                "ends_on": start + timedelta(days=1),
                "entry_cap": 64,
                "registration_open": True,
                "demo": True,  # what remove_demo (and the organisers' page) removes
                "description": (
                    "The first city championship of Modern Nardy: cards instead of dice, "
                    "so the stronger player wins. 30 + 30 minutes per side."
                ),
                "description_ru": (
                    "Первый чемпионат города по современным нардам: карты вместо кубиков, "
                    "поэтому побеждает сильнейший. 30 + 30 минут каждому."
                ),
            },
        )
        tz = timezone.get_current_timezone()
        sessions = [
            (
                "Master class for newcomers (Russian)",
                "Мастер-класс для новичков (на русском)",
                "ru",
                12,
                start - timedelta(days=7),
            ),
            (
                "Master class for newcomers (English)",
                "Мастер-класс для новичков (на английском)",
                "en",
                2,
                start - timedelta(days=6),
            ),
        ]
        made = []
        for title, title_ru, lang, seats, day in sessions:
            session, _ = MasterClassSession.objects.update_or_create(
                tournament=tournament,
                title=title,
                defaults={
                    "starts_at": timezone.make_aware(datetime.combine(day, time(18, 30)), tz),
                    "place": "North York Central Library, room 2",
                    "title_ru": title_ru,
                    "language": lang,
                    "seats": seats,
                },
            )
            made.append(session)
        now = timezone.now()
        for i, (name, email, phone, club, exp, lang) in enumerate(PLAYERS):
            Registration.objects.get_or_create(
                tournament=tournament,
                email=email,
                defaults={
                    "name": name,
                    "phone": phone,
                    "club": club,
                    "experience": exp,
                    "language": lang,
                    "consent_at": now,
                    "email_confirmed_at": now if i < 4 else None,
                    "created_at": now - timedelta(hours=len(PLAYERS) - i),
                },
            )
        # The English session is full: two seats, two booked.
        full = made[1]
        for name, email in (
            ("Sam Patel", "sam.patel@example.org"),
            ("Lee Chen", "lee.chen@example.org"),
        ):
            MasterClassSignup.objects.get_or_create(
                session=full,
                email=email,
                defaults={"name": name, "language": "en", "consent_at": now},
            )
        user, created = User.objects.get_or_create(
            username=ORGANISER_USERNAME,
            defaults={"is_staff": True, "email": "organiser@example.org"},
        )
        password: str | None = ORGANISER_PASSWORD
        if not random_password:
            if created:
                user.set_password(ORGANISER_PASSWORD)
                user.save()
        elif created or user.check_password(ORGANISER_PASSWORD):
            # Never the published password on a reachable site; a password of its own stays.
            password = secrets.token_urlsafe(18)
            user.set_password(password)
            user.save()
        else:
            password = None
        user.groups.add(organisers_group())
        login = (
            f"organiser login {ORGANISER_USERNAME} / {password}"
            if password is not None
            else f"the account {ORGANISER_USERNAME} kept its own password"
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready: {tournament.name} at /tournaments/{tournament.slug}/, {login}"
            )
        )
