"""Reads of the registrations app: lists, searches, what is stored about a person, and the
outbox rows a worker may send. Writes are in ``registrations.services``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Q, QuerySet
from django.db.models.functions import Upper
from django.utils import timezone

from championship.models import Absence, Tournament
from championship.selectors import Registered
from people.names import name_key

from .models import MasterClassSession, MasterClassSignup, OutboundEmail, Registration


# --- Registrations and sessions ---------------------------------------------------------------
def sessions_for_tournament(*, tournament: Tournament) -> QuerySet[MasterClassSession]:
    """Upcoming master-class sessions offered with this tournament (its own and the general
    ones), with their counts."""
    return (
        MasterClassSession.objects.upcoming()
        .filter(Q(tournament=tournament) | Q(tournament__isnull=True))
        .with_counts()
    )


def registration_search(
    *, tournament: Tournament, status: str = "", query: str = ""
) -> QuerySet[Registration]:
    """The tournament's registrations, optionally of one status and matching ``query`` in the
    name, e-mail or club (any case, any script)."""
    registrations = Registration.objects.filter(tournament=tournament)
    if status in Registration.Status.values:
        registrations = registrations.filter(status=status)
    if query:
        needle = query.upper()
        registrations = registrations.annotate(
            name_u=Upper("name"), email_u=Upper("email"), club_u=Upper("club")
        ).filter(
            Q(name_u__contains=needle) | Q(email_u__contains=needle) | Q(club_u__contains=needle)
        )
    return registrations


def _ahead(created_at: datetime, pk: int) -> Q:
    """Rows ahead of (created_at, pk) in a waiting list's order."""
    return Q(created_at__lt=created_at) | Q(created_at=created_at, pk__lt=pk)


def registration_waiting_position(*, registration: Registration) -> int | None:
    """1 for the first on the tournament's waiting list; None if not waiting."""
    if registration.status != Registration.Status.WAITLISTED:
        return None
    ahead = Registration.objects.filter(
        _ahead(registration.created_at, registration.pk),
        tournament_id=registration.tournament_id,
        status=Registration.Status.WAITLISTED,
    ).count()
    return ahead + 1


def signup_waiting_position(*, signup: MasterClassSignup) -> int | None:
    """1 for the first on the session's waiting list; None if not waiting."""
    if signup.status != MasterClassSignup.Status.WAITLISTED:
        return None
    ahead = MasterClassSignup.objects.filter(
        _ahead(signup.created_at, signup.pk),
        session_id=signup.session_id,
        status=MasterClassSignup.Status.WAITLISTED,
    ).count()
    return ahead + 1


def registration_waiting_positions(*, tournament: Tournament) -> dict[int, int]:
    """Registration id → its place on the waiting list (one query, whatever the list shows)."""
    waiting = Registration.objects.filter(
        tournament=tournament, status=Registration.Status.WAITLISTED
    ).order_by("created_at", "pk")
    return {pk: n for n, pk in enumerate(waiting.values_list("pk", flat=True), start=1)}


def signup_waiting_positions(*, session: MasterClassSession) -> dict[int, int]:
    waiting = MasterClassSignup.objects.filter(
        session=session, status=MasterClassSignup.Status.WAITLISTED
    ).order_by("created_at", "pk")
    return {pk: n for n, pk in enumerate(waiting.values_list("pk", flat=True), start=1)}


class EntrantsAlready:
    """Whether a registration without an entrant is of a player who is an entrant already,
    under another registration (a second one, often with a mistyped address: same person, or
    the same name — ``people.names.name_key`` — and phone). Such a registration is not a
    player still to add: "add confirmed registrations" passes over it and the public pages do
    not count it. One query, made once."""

    def __init__(self, tournament: Tournament) -> None:
        from championship.models import Entrant

        self.persons: set[int] = set()
        self.names_phones: set[tuple[str, str]] = set()
        rows = Entrant.objects.filter(tournament=tournament).values_list(
            "person_id", "registration__name", "registration__phone"
        )
        for person, name, phone in rows:
            self.persons.add(person)
            if name and str(phone or ""):
                self.names_phones.add((name_key(name), str(phone)))

    def __call__(self, person: int | None, name: str, phone: object) -> bool:
        return person in self.persons or (
            bool(str(phone or "")) and (name_key(name), str(phone)) in self.names_phones
        )


def registered_not_entered(tournament: Tournament) -> Registered:
    """The tournament's registrations not among its entrants, for the championship's pages
    (``championship.selectors.registered_not_entered``, installed when this app is ready): the
    entered ones with a confirmed e-mail by name and club, the unconfirmed and the waiting ones
    counted; a second registration of an entrant (``EntrantsAlready``) neither. Two queries."""
    rows = Registration.objects.filter(
        Q(status=Registration.Status.ENTERED, entrant__isnull=True)
        | Q(status=Registration.Status.WAITLISTED),
        tournament=tournament,
    ).values_list("status", "name", "club", "email_confirmed_at", "person_id", "phone")
    confirmed: list[tuple[str, str]] = []
    unconfirmed = waiting = 0
    already = None
    for status, name, club, at, person, phone in rows.order_by("created_at", "pk"):
        if status == Registration.Status.ENTERED:
            already = already or EntrantsAlready(tournament)
            if already(person, name, phone):
                continue
        if status == Registration.Status.WAITLISTED:
            waiting += 1
        elif at is None:
            unconfirmed += 1
        else:
            confirmed.append((name, club))
    return Registered(confirmed=confirmed, unconfirmed=unconfirmed, waiting=waiting)


def tournament_waiting_count(*, tournament: Tournament) -> int:
    return Registration.objects.filter(
        tournament=tournament, status=Registration.Status.WAITLISTED
    ).count()


def tournament_is_full(*, tournament: Tournament) -> bool:
    """Would someone registering now join the waiting list?"""
    if tournament.entry_cap is None:
        return tournament_waiting_count(tournament=tournament) > 0
    counts = Registration.objects.filter(tournament=tournament).aggregate(
        entered=Count("pk", filter=Q(status=Registration.Status.ENTERED)),
        waiting=Count("pk", filter=Q(status=Registration.Status.WAITLISTED)),
    )
    waiting: int = counts["waiting"]
    entered: int = counts["entered"]
    return waiting > 0 or entered >= tournament.entry_cap


@dataclass(frozen=True)
class RegistrationCounts:
    entered: int
    waiting: int
    withdrawn: int
    confirmed: int
    checked_in: int
    cap: int | None


def registration_counts(*, tournament: Tournament) -> RegistrationCounts:
    """The organisers' summary: by status; e-mail confirmed and checked in among those entered
    or waiting (one query)."""
    active = Q(status__in=[Registration.Status.ENTERED, Registration.Status.WAITLISTED])
    counts = Registration.objects.filter(tournament=tournament).aggregate(
        entered=Count("pk", filter=Q(status=Registration.Status.ENTERED)),
        waiting=Count("pk", filter=Q(status=Registration.Status.WAITLISTED)),
        withdrawn=Count("pk", filter=Q(status=Registration.Status.WITHDRAWN)),
        confirmed=Count("pk", filter=active & Q(email_confirmed_at__isnull=False)),
        checked_in=Count("pk", filter=active & Q(checked_in_at__isnull=False)),
    )
    return RegistrationCounts(cap=tournament.entry_cap, **counts)


def registration_recipients(*, tournament: Tournament, audience: str) -> QuerySet[Registration]:
    """Who an announcement to ``audience`` (``Announcement.Audience``) reaches."""
    statuses = {
        "entered": [Registration.Status.ENTERED],
        "waitlisted": [Registration.Status.WAITLISTED],
        "both": [Registration.Status.ENTERED, Registration.Status.WAITLISTED],
    }[audience]
    return Registration.objects.filter(
        tournament=tournament, status__in=statuses, anonymised_at__isnull=True
    ).order_by("created_at", "pk")


def organiser_tournaments() -> QuerySet[Tournament]:
    """Tournaments not yet over, with their counts, for the organisers' overview."""
    return (
        Tournament.objects.filter(ends_on__gte=timezone.localdate())
        .annotate(
            entered_count=Count(
                "registrations", filter=Q(registrations__status=Registration.Status.ENTERED)
            ),
            waiting_count=Count(
                "registrations", filter=Q(registrations__status=Registration.Status.WAITLISTED)
            ),
        )
        .order_by("starts_on", "name")
    )


def organiser_sessions() -> QuerySet[MasterClassSession]:
    """Master-class sessions still to come (and today's), with their counts."""
    today = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    return (
        MasterClassSession.objects.filter(starts_at__gte=today)
        .with_counts()
        .select_related("tournament")
        .order_by("starts_at")
    )


# --- The organisers' daily digest -------------------------------------------------------------
def digest_registrations(
    *, since: datetime, until: datetime
) -> list[tuple[Tournament, list[Registration]]]:
    """New registrations in [since, until), by tournament."""
    rows = (
        Registration.objects.filter(created_at__gte=since, created_at__lt=until)
        .select_related("tournament")
        .order_by("tournament__starts_on", "tournament_id", "created_at", "pk")
    )
    grouped: dict[int, tuple[Tournament, list[Registration]]] = {}
    for row in rows:
        grouped.setdefault(row.tournament_id, (row.tournament, []))[1].append(row)
    return list(grouped.values())


def digest_signups(
    *, since: datetime, until: datetime
) -> list[tuple[MasterClassSession, list[MasterClassSignup]]]:
    """New master-class sign-ups in [since, until), by session."""
    rows = (
        MasterClassSignup.objects.filter(created_at__gte=since, created_at__lt=until)
        .select_related("session")
        .order_by("session__starts_at", "session_id", "created_at", "pk")
    )
    grouped: dict[int, tuple[MasterClassSession, list[MasterClassSignup]]] = {}
    for row in rows:
        grouped.setdefault(row.session_id, (row.session, []))[1].append(row)
    return list(grouped.values())


def registration_emails(*, registration: Registration) -> QuerySet[OutboundEmail]:
    """The e-mails about this registration, newest first."""
    return OutboundEmail.objects.filter(
        outbox_about(registration_ids=[registration.pk], signup_ids=[])
    ).order_by("-created_at", "-pk")[:50]


def person_registrations(*, email: str) -> QuerySet[Registration]:
    return Registration.objects.filter(email__iexact=email).select_related("tournament")


def person_signups(*, email: str) -> QuerySet[MasterClassSignup]:
    return MasterClassSignup.objects.filter(email__iexact=email).select_related("session")


# --- Privacy ----------------------------------------------------------------------------------
def outbox_about(*, registration_ids: list[int], signup_ids: list[int]) -> Q:
    """The outbox rows about these registrations (their own e-mails and their pairings) and
    sign-ups."""
    return (
        Q(kind__startswith="registration_", object_id__in=registration_ids)
        | Q(kind__startswith="pairing_", object_id__in=registration_ids)
        | Q(kind__startswith="signup_", object_id__in=signup_ids)
    )


def person_data(*, email: str, now: datetime | None = None) -> dict[str, object]:
    """Everything stored about the person with this e-mail address."""
    regs = person_registrations(email=email)
    signups = person_signups(email=email)
    outbox = OutboundEmail.objects.filter(
        outbox_about(registration_ids=[r.pk for r in regs], signup_ids=[s.pk for s in signups])
    ).order_by("created_at")

    def stamp(value: datetime | None) -> str | None:
        return value.isoformat() if value else None

    return {
        "email": email,
        "exported_at": (now or timezone.now()).isoformat(),
        "registrations": [
            {
                "tournament": r.tournament.name,
                "name": r.name,
                "email": r.email,
                "phone": str(r.phone or ""),
                "club": r.club,
                "experience": r.experience,
                "language": r.language,
                "status": r.status,
                "consent_at": stamp(r.consent_at),
                "email_confirmed_at": stamp(r.email_confirmed_at),
                "created_at": stamp(r.created_at),
                "withdrawn_at": stamp(r.withdrawn_at),
                "checked_in_at": stamp(r.checked_in_at),
            }
            for r in regs
        ],
        "masterclass_signups": [
            {
                "session": s.session.title,
                "session_starts_at": stamp(s.session.starts_at),
                "name": s.name,
                "email": s.email,
                "phone": str(s.phone or ""),
                "language": s.language,
                "status": s.status,
                "consent_at": stamp(s.consent_at),
                "created_at": stamp(s.created_at),
                "reminder_sent_at": stamp(s.reminder_sent_at),
            }
            for s in signups
        ],
        "emails": [
            {
                "kind": o.kind,
                "status": o.status,
                "created_at": stamp(o.created_at),
                "sent_at": stamp(o.sent_at),
            }
            for o in outbox
        ],
    }


# --- Outbox -----------------------------------------------------------------------------------
def outbox_claimable(now: datetime) -> Q:
    """Pending, or left ``sending`` by a worker that died."""
    stale = now - timedelta(seconds=settings.OUTBOX_SENDING_TIMEOUT)
    return Q(status=OutboundEmail.Status.PENDING) | Q(
        status=OutboundEmail.Status.SENDING, sending_since__lt=stale
    )


def outbox_pending(*, older_than: timedelta, now: datetime | None = None) -> list[int]:
    """What the sweeper sends: pending e-mails older than ``older_than`` (younger ones have a
    task on its way) and those left ``sending`` by a worker that died."""
    now = now or timezone.now()
    return list(
        OutboundEmail.objects.filter(
            outbox_claimable(now), created_at__lte=now - older_than
        ).values_list("pk", flat=True)[:500]
    )


def registration_absences(registration: Registration) -> list[Absence]:
    """The absences of a registration's player (a no-show forfeit confirmed in the hall), the
    questions still open first, then by round. One query."""
    rows = list(
        Absence.objects.filter(entrant__registration=registration)
        .select_related("round", "entrant__tournament")
        .order_by("round__number")
    )
    return sorted(rows, key=lambda a: (a.status != Absence.Status.ASKED, a.round.number))
