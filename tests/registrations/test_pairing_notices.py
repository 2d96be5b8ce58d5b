"""Pairings sent (issue 22, point 3): when a round is published every player with an e-mail
gets their board, colour, opponent and start in their language, through the outbox (in the
same transaction, sent once); after a re-pair or a moved start only those whose pairing
changed get one, saying what changed."""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import transaction

from championship import selectors, services
from championship.models import Board, Entrant, Round
from championship.signals import round_pairings_changed
from registrations.models import OutboundEmail, Registration
from registrations.services import pairing_notices
from registrations.services.outbox import outbox_send
from registrations.services.privacy import person_anonymise
from tests.championship.day import SATURDAY, at, field, timetable, weekend

pytestmark = pytest.mark.django_db


def pairing_rows() -> list[OutboundEmail]:
    return list(OutboundEmail.objects.filter(kind__in=pairing_notices.KINDS).order_by("pk"))


def sent_to(address: str) -> list[mail.EmailMessage]:
    return [m for m in mail.outbox if m.to == [address]]


def published(n: int = 6, walk_ins: int = 1) -> tuple[Round, list[Registration]]:
    t = weekend()
    timetable(t)
    regs = field(t, n, walk_ins=walk_ins)
    rnd = services.round_pair_next(tournament=t)
    mail.outbox.clear()
    services.round_publish(round=rnd)
    return rnd, regs


def board_of(rnd: Round, reg: Registration) -> Board:
    entrant = Entrant.objects.get(registration=reg)
    return (
        Board.objects.get(round=rnd, white=entrant)
        if Board.objects.filter(round=rnd, white=entrant).exists()
        else Board.objects.get(round=rnd, black=entrant)
    )


def test_publishing_a_round_tells_every_player_with_an_e_mail_their_pairing(mailoutbox) -> None:  # type: ignore[no-untyped-def]
    rnd, regs = published(n=6, walk_ins=1)
    assert sorted(r.object_id for r in pairing_rows()) == sorted(r.pk for r in regs)
    assert {r.kind for r in pairing_rows()} == {"pairing_published"}
    assert len(mailoutbox) == 6  # the walk-in has no e-mail and gets none
    english = next(r for r in regs if r.language == "en")
    board = board_of(rnd, english)
    entrant = Entrant.objects.get(registration=english)
    colour = "White" if board.white_id == entrant.pk else "Black"
    opponent = board.black if colour == "White" else board.white
    (message,) = sent_to(english.email)
    assert message.subject == "Spring Open: your pairing in round 1"
    if opponent is not None:
        assert f"Board: {board.number}" in message.body
        assert f"Your colour: {colour}" in message.body
        assert f"Opponent: {opponent.name}" in message.body
    assert "Start: Saturday, March 13, 2027, 10 a.m." in message.body
    assert "/t/day/my/" in message.body  # the player's page


def test_a_russian_speaker_gets_it_in_russian_with_the_time_of_the_venue(mailoutbox) -> None:  # type: ignore[no-untyped-def]
    rnd, regs = published(n=4, walk_ins=0)
    russian = next(r for r in regs if r.language == "ru")
    (message,) = sent_to(russian.email)
    assert message.subject == "Весенний турнир: ваша пара в туре 1"
    assert "Доска:" in message.body or "пропуск" in message.body
    assert "Начало: суббота, 13 марта 2027, 10:00" in message.body


def test_a_bye_is_told_too(mailoutbox) -> None:  # type: ignore[no-untyped-def]
    rnd, regs = published(n=5, walk_ins=0)
    bye = Board.objects.get(round=rnd, black=None)
    reg = bye.white.registration
    assert reg is not None
    (message,) = sent_to(reg.email)
    assert "bye" in message.body and "Opponent:" not in message.body


def test_publishing_twice_or_telling_a_round_again_sends_nothing_new(mailoutbox) -> None:  # type: ignore[no-untyped-def]
    rnd, regs = published(n=4, walk_ins=0)
    rows = len(pairing_rows())
    services.round_publish(round=Round.objects.get(pk=rnd.pk))
    assert pairing_notices.round_pairings_notify(round=Round.objects.get(pk=rnd.pk)) == 0
    assert len(pairing_rows()) == rows == 4
    assert len(mailoutbox) == 4


def test_after_a_re_pair_only_the_players_whose_pairing_changed_are_told_what_changed(
    mailoutbox,
) -> None:  # type: ignore[no-untyped-def]
    rnd, regs = published(n=8, walk_ins=0)
    first, second = list(Board.objects.filter(round=rnd).order_by("number"))[:2]
    moved_in, moved_out = first.black, second.black  # exchange the two Black players
    kept = {first.white.registration_id, second.white.registration_id}
    mailoutbox.clear()
    with transaction.atomic():  # a re-pair of the published round, as a service would do it
        Board.objects.filter(pk=first.pk).update(black=moved_out)
        Board.objects.filter(pk=second.pk).update(black=moved_in)
        round_pairings_changed.send(sender=Round, round=Round.objects.get(pk=rnd.pk))
    changed = [r for r in pairing_rows() if r.kind == "pairing_changed"]
    # Four players have a new opponent; the two Black players also a new board.
    assert sorted(r.object_id for r in changed) == sorted(
        [first.white.registration_id, second.white.registration_id,
         moved_in.registration_id, moved_out.registration_id]
    )  # fmt: skip
    assert len(mailoutbox) == 4
    unchanged = [r for r in regs if r.pk not in {c.object_id for c in changed}]
    assert all(not sent_to(r.email) for r in unchanged)
    mover = Registration.objects.get(pk=moved_in.registration_id)
    (message,) = sent_to(mover.email)
    if mover.language == "en":
        assert f"board: {first.number} → {second.number}" in message.body
        assert f"opponent: {first.white.name} → {second.white.name}" in message.body
        assert "your pairing has changed" in message.subject
    else:
        assert f"доска: {first.number} → {second.number}" in message.body
    assert kept <= {c.object_id for c in changed}
    # Told again with nothing new: nothing.
    assert pairing_notices.round_pairings_notify(round=Round.objects.get(pk=rnd.pk)) == 0


def test_a_player_taken_out_of_a_published_round_is_told(mailoutbox) -> None:  # type: ignore[no-untyped-def]
    rnd, regs = published(n=4, walk_ins=0)
    board = Board.objects.filter(round=rnd).order_by("number").first()
    assert board is not None and board.black is not None
    gone = board.black.registration
    Board.objects.filter(pk=board.pk).update(black=None, bye="U")
    mailoutbox.clear()
    pairing_notices.round_pairings_notify(round=Round.objects.get(pk=rnd.pk))
    assert gone is not None
    (message,) = sent_to(gone.email)
    assert message.subject.endswith("has changed") or "изменилась" in message.subject


def test_moving_a_published_round_tells_its_players_the_new_start(mailoutbox) -> None:  # type: ignore[no-untyped-def]
    rnd, regs = published(n=4, walk_ins=0)
    mailoutbox.clear()
    services.round_starts_shift(tournament=rnd.tournament, from_round=1, minutes=30)
    assert {r.kind for r in pairing_rows()} == {"pairing_published", "pairing_changed"}
    assert len(mailoutbox) == 4  # round 1 is published; later rounds are not: nobody told
    english = next(r for r in regs if r.language == "en")
    (message,) = sent_to(english.email)
    assert (
        "start: Saturday, March 13, 2027, 10 a.m. → Saturday, March 13, 2027, 10:30 a.m."
        in message.body
    )
    # The subject says what changed: a new start, not a new opponent.
    assert message.subject == "Spring Open: round 1, new start time"
    russian = next(r for r in regs if r.language == "ru")
    (message,) = sent_to(russian.email)
    assert message.subject == "Весенний турнир: тур 1, новое время начала"
    # Weekdays in lower case after a label as in the line of what changed.
    assert "начало: суббота, 13 марта 2027, 10:00 → суббота, 13 марта 2027, 10:30" in message.body
    assert "Начало: суббота, 13 марта 2027, 10:30" in message.body
    assert "Суббота" not in message.body


def test_an_anonymised_player_is_not_told(mailoutbox) -> None:  # type: ignore[no-untyped-def]
    t = weekend()
    timetable(t)
    regs = field(t, 4)
    person_anonymise(email=regs[0].email)
    rnd = services.round_pair_next(tournament=t)
    mailoutbox.clear()
    services.round_publish(round=rnd)
    assert regs[0].pk not in {r.object_id for r in pairing_rows()}


def test_the_rows_are_written_with_the_publication_and_sent_once(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from registrations.services import outbox

    t = weekend()
    timetable(t)
    field(t, 4)
    rnd = services.round_pair_next(tournament=t)
    monkeypatch.setattr(outbox, "_dispatch", lambda pk: None)  # the broker is down
    with pytest.raises(RuntimeError), transaction.atomic():
        services.round_publish(round=rnd)
        raise RuntimeError  # the publication rolled back: no e-mail either
    assert not pairing_rows()
    rnd.refresh_from_db()
    services.round_publish(round=rnd)
    rows = pairing_rows()
    assert len(rows) == 4 and {r.status for r in rows} == {"pending"}
    mail.outbox.clear()
    for row in rows:
        assert outbox_send(outbox_id=row.pk) is True
        assert outbox_send(outbox_id=row.pk) is False  # never twice
    assert len(mail.outbox) == 4
    assert all(m.extra_headers.get("Message-ID") for m in mail.outbox)
    assert at(SATURDAY, 10)  # the schedule the e-mails read


def test_saving_the_schedule_as_it_was_shown_moves_nothing_and_tells_nobody(mailoutbox) -> None:  # type: ignore[no-untyped-def]
    """A start stored with seconds (the demo's, an import's) is shown to the minute; saved
    back as shown, it has not moved: no new calendar SEQUENCE, no e-mail."""
    from datetime import timedelta

    from championship.models import RoundStart

    rnd, _regs = published(n=4, walk_ins=0)
    t = rnd.tournament
    row = RoundStart.objects.get(tournament=t, number=1)
    RoundStart.objects.filter(pk=row.pk).update(starts_at=row.starts_at + timedelta(seconds=37))
    mailoutbox.clear()
    shown = {n: at.replace(second=0) for n, at in selectors.round_starts(t).items()}
    assert services.round_starts_set(tournament=t, starts=shown) == []
    assert RoundStart.objects.get(pk=row.pk).sequence == row.sequence
    assert {r.kind for r in pairing_rows()} == {"pairing_published"} and mailoutbox == []


def test_moving_a_played_round_tells_nobody(mailoutbox) -> None:  # type: ignore[no-untyped-def]
    """A round with every result in is the past: correcting its start e-mails nobody."""
    from championship.models import GameResult

    rnd, _regs = published(n=4, walk_ins=0)
    GameResult.objects.filter(board__round=rnd).update(result="1-0", termination="home")
    mailoutbox.clear()
    assert services.round_starts_shift(tournament=rnd.tournament, from_round=1, minutes=30)
    assert {r.kind for r in pairing_rows()} == {"pairing_published"} and mailoutbox == []
