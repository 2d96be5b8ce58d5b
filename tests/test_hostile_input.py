"""Hostile input: no input makes a parser or a public form fail with anything but a clear
error (property-based), and every form in the templates carries a CSRF token."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from championship.pairing import PairingError, read_trf
from championship.pairing.simulate import play_swiss
from championship.pairing.trf import write_trf
from games.engine import EngineError, start_state
from games.engine.game import Game
from games.engine.notation import parse_turn, resolve_turn
from games.engine.record import parse_record
from tests.hypothesis_profiles import examples

ROOT = Path(__file__).resolve().parents[1]
NOTATION = st.text(alphabet="0123456789:/*bar off-+ \n\t{}[]\"'ыé²³٣１", max_size=40)
#: Digits of every kind (``²``: ``isdigit()`` is true, ``int()`` refuses it; ``٣``: ``int()``
#: reads it), to be written where numbers belong.
DIGITS = st.text(
    alphabet=st.one_of(
        st.sampled_from("0123456789²³¹٣٠１①₂"), st.characters(categories=["Nd", "No"])
    ),
    min_size=1,
    max_size=3,
)
#: A turn written with digits of any kind where its numbers belong.
TURN = st.builds(lambda a, b, c, d, e, f: f"{a}:{b} {c}/{d} {e}/{f}", *[DIGITS] * 6) | st.builds(
    lambda a, b: f"{a}:{b}", DIGITS, DIGITS
)


@settings(max_examples=examples(400))
@given(NOTATION)
def test_notation_parser_only_raises_engine_errors(text: str) -> None:
    try:
        resolve_turn(start_state(), parse_turn(text))
    except EngineError as exc:
        assert exc.code and str(exc)


@settings(max_examples=examples(300))
@given(TURN)
def test_a_turn_of_any_digits_is_played_or_refused(text: str) -> None:
    game = Game()
    try:
        game.play(text)
    except EngineError as exc:
        assert exc.ply == 1 and game.ply == 0
    else:
        assert text.isascii()


@settings(max_examples=examples(300))
@given(NOTATION)
def test_game_play_refuses_garbage_and_changes_nothing(text: str) -> None:
    game = Game()
    try:
        game.play(text)
    except EngineError as exc:
        assert exc.ply == 1 and game.ply == 0


@settings(max_examples=examples(300))
@given(st.lists(st.one_of(DIGITS, st.text(max_size=3)), min_size=3, max_size=4).map(":".join))
def test_a_clock_as_written_is_read_or_refused(text: str) -> None:
    from games.clock import valid_clock_text

    if valid_clock_text(text):
        assert text.isascii() and len(text.split(":")) == 3


RECORD = '[Event "x"]\n[Result "*"]\n\n1. 4:5 24/20 13/8 2:6 13/11 13/7\n*\n'


@settings(max_examples=examples(300))
@given(st.data())
def test_record_parser_only_raises_engine_errors(data: st.DataObject) -> None:
    text = data.draw(
        st.one_of(
            st.text(max_size=200),
            st.builds(
                lambda i, s: RECORD[:i] + s + RECORD[i:],
                st.integers(0, len(RECORD)),
                st.text(max_size=10),
            ),
            st.builds(
                lambda i, j: RECORD[:i] + RECORD[j:],
                st.integers(0, len(RECORD)),
                st.integers(0, len(RECORD)),
            ),
            # A digit of the record (a move number, a card, a point, a clock) written with
            # other digits.
            st.builds(
                lambda i, d: RECORD[:i] + d + RECORD[i + 1 :],
                st.sampled_from([i for i, c in enumerate(RECORD) if c.isdigit()]),
                DIGITS,
            ),
        )
    )
    try:
        parse_record(text)
    except EngineError as exc:
        assert exc.ply is not None and exc.ply >= 0


TRF = write_trf(play_swiss(6, 3, seed=1, upto=2)[0])


@settings(max_examples=examples(300))
@given(st.data())
def test_trf_reader_only_raises_pairing_errors(data: st.DataObject) -> None:
    text = data.draw(
        st.one_of(
            st.text(max_size=300),
            st.builds(
                lambda i, s: TRF[:i] + s + TRF[i + len(s) :],
                st.integers(0, len(TRF)),
                st.text(max_size=6),
            ),
            # A line of numbers (forbidden pairs, accelerations, absences, rounds) with
            # numbers of other digits.
            st.builds(
                lambda code, numbers: TRF + code + " " + " ".join(numbers) + "\n",
                st.sampled_from(["XXP", "XXA", "XXZ", "XXR", "XXS W="]),
                st.lists(DIGITS, min_size=1, max_size=3),
            ),
        )
    )
    try:
        read_trf(text)
    except PairingError as exc:
        assert str(exc)


FIELD = st.one_of(
    st.text(max_size=300), st.just(""), st.just("x" * 5000), st.just("<script>alert(1)</script>")
)


@pytest.mark.django_db
@settings(
    max_examples=examples(60),
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    name=FIELD,
    email=FIELD,
    phone=FIELD,
    club=FIELD,
    experience=FIELD,
    language=FIELD,
    consent=FIELD,
    website=FIELD,
)
def test_public_forms_never_fail(
    tournament, name, email, phone, club, experience, language, consent, website
):  # type: ignore[no-untyped-def]
    from tests.conftest import make_session

    client = Client()
    data = {
        "name": name,
        "email": email,
        "phone": phone,
        "club": club,
        "experience": experience,
        "language": language,
        "consent": consent,
        "website": website,
    }
    response = client.post(f"/tournaments/{tournament.slug}/register/", data)
    assert response.status_code in (200, 302, 400)
    assert b"<script>alert(1)</script>" not in response.content
    session = make_session()
    response = client.post(f"/master-class/{session.pk}/signup/", data)
    assert response.status_code in (302, 400)
    for url in ("/registration/manage/", "/registration/confirm/", "/master-class/cancel/"):
        token = quote((name or "x")[:100], safe="") or "x"
        response = client.get(url + token + "/")
        assert response.status_code in (400, 404, 410)


def test_every_post_form_in_the_templates_has_a_csrf_token() -> None:
    offenders = []
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text()
        for form in re.findall(r"<form\b[^>]*>.*?</form>", text, flags=re.S | re.I):
            opening = form[: form.index(">") + 1].lower()
            if 'method="post"' in opening and "{% csrf_token %}" not in form:
                offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, offenders


def test_every_form_field_fits_its_model_column() -> None:
    """A value a form accepts is never too long for the column it is stored in (PostgreSQL
    refuses it with a server error; SQLite would store it)."""
    from django import forms as django_forms

    from championship import forms as championship_forms
    from championship.models import Entrant
    from registrations import forms as registration_forms
    from registrations.models import MasterClassSignup, Registration

    cases = [
        (registration_forms.RegistrationForm, Registration),
        (registration_forms.RegistrationEditForm, Registration),
        (registration_forms.SignupForm, MasterClassSignup),
        (championship_forms.EntrantAddForm, Entrant),
    ]
    checked = 0
    for form_class, model in cases:
        columns = {f.name: f for f in model._meta.get_fields() if hasattr(f, "max_length")}
        for name, field in form_class.base_fields.items():
            column = columns.get(name)
            if column is None or not column.max_length:
                continue
            # A phone is stored normalised (E.164, at most 16 characters) whatever was typed.
            if isinstance(field, django_forms.CharField) and name != "phone":
                assert field.max_length is not None, (form_class.__name__, name)
                assert field.max_length <= column.max_length, (form_class.__name__, name)
                checked += 1
    assert checked >= 8


@pytest.mark.django_db
def test_an_overlong_email_is_a_form_error_not_a_server_error(tournament) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import make_session, registration_form

    email = "a" * 64 + "@" + ".".join(["b" * 60] * 4) + ".org"  # valid, 312 characters
    client = Client(raise_request_exception=False)
    response = client.post(
        f"/tournaments/{tournament.slug}/register/", registration_form(email=email)
    )
    assert response.status_code in (200, 400) and b"254" in response.content
    session = make_session()
    response = client.post(
        f"/master-class/{session.pk}/signup/",
        {"name": "Анна", "email": email, "language": "ru", "consent": "on"},
    )
    assert response.status_code in (200, 400) and b"254" in response.content
