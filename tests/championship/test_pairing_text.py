"""Issue 11 point 9: each board's "why" and the pairing's errors in plain words, in English and
in Russian, from the engine's codes (championship.pairing_text)."""

from __future__ import annotations

import pytest
from django.utils import translation

from championship import pairing_text
from championship.pairing import PairingError

NAMES = {1: "Ivanova", 2: "Petrov", 3: "Sidorova"}


def say(data: dict[str, object], language: str, round_number: int | None = 3) -> str:
    with translation.override(language):
        return pairing_text.explanation(data, NAMES, round_number)


def notes(*items: tuple[str, dict[str, object]]) -> dict[str, object]:
    return {"notes": [{"code": code, "params": params} for code, params in items]}


@pytest.mark.parametrize(
    ("data", "english", "russian"),
    [
        (
            notes(
                ("pair.same_score", {"score": "1.5"}),
                (
                    "colour.both_preferences",
                    {"player": 1, "colour": "w", "last": "b", "last_round": 2},
                ),
            ),
            "both 1½ points; Ivanova gets White: had Black last round",
            "у обоих 1½ очка; Ivanova получает белые: в прошлом туре были чёрные",
        ),
        (
            notes(
                ("pair.scores", {"white_score": "2", "black_score": "1.5"}),
                ("float.down", {"player": 1, "score": "2", "to": "1.5"}),
                ("float.up", {"player": 2, "score": "1.5", "to": "2"}),
            ),
            "2 points against 1½; Ivanova floats down; Petrov floats up",
            "2 очка против 1½; Ivanova спускается в группу ниже; Petrov поднимается в группу выше",
        ),
        (
            notes(
                (
                    "colour.alternate",
                    {
                        "player": 2,
                        "colour": "w",
                        "previous": "b",
                        "opponent_previous": "w",
                        "round": 2,
                    },
                )
            ),
            "Petrov gets White: had Black last round, the opponent White",
            "Petrov получает белые: в прошлом туре были чёрные, у соперника — белые",
        ),
        (
            notes(
                (
                    "colour.higher_ranked_preference",
                    {"player": 3, "colour": "b", "last": "w", "last_round": 1},
                )
            ),
            "Sidorova gets Black: had White in round 1",
            "Sidorova получает чёрные: в 1-м туре были белые",
        ),
        (
            notes(("bye.requested", {"player": 3, "kind": "half-point"})),
            "Sidorova asked for a half-point bye",
            None,
        ),
        (
            notes(("warning.rematch", {"white": 1, "black": 2})),
            "Ivanova and Petrov have already played each other",
            "Ivanova и Petrov уже играли друг с другом",
        ),
    ],
)
def test_notes_read_as_an_arbiter_says_them(data, english, russian) -> None:  # type: ignore[no-untyped-def]
    assert say(data, "en") == english
    ru = say(data, "ru")
    if russian is not None:
        assert ru == russian
    assert ru != english and "gets" not in ru and "floats" not in ru


def test_a_colour_kept_or_an_old_explanation_falls_back_to_the_general_sentence() -> None:
    # Same colour as last time (a colour imbalance): "had White last round" would not explain.
    kept = notes(
        ("colour.both_preferences", {"player": 1, "colour": "w", "last": "w", "last_round": 2})
    )
    assert say(kept, "en") == "Ivanova gets White: both players get the colour they are due"
    # Explanations stored before the latest game was noted, or damaged ones, never fail.
    assert say(notes(("colour.both_preferences", {"player": 1, "colour": "w"})), "ru").startswith(
        "Ivanova получает белые"
    )
    assert (
        say(
            {"notes": [{"code": "unknown"}, "junk", {"code": "pair.same_score", "params": []}]},
            "en",
        )
        == ""
    )
    assert say({"floats": ["score group 0"]}, "en") == ""


@pytest.mark.parametrize(
    ("code", "params", "english", "russian"),
    [
        (
            "round.unconfirmed",
            {"round": 2, "boards": "1, 4"},
            "Round 2 has results not yet confirmed by a second organiser (boards 1, 4). "
            "Confirm them, or pair anyway.",
            "В туре 2 есть результаты, не подтверждённые вторым организатором (доски 1, 4). "
            "Подтвердите их или всё равно составьте пары.",
        ),
        (
            "round.draft_pending",
            {"round": 3},
            "Round 3 is still a draft: publish or delete it first.",
            "Тур 3 ещё черновик: сначала опубликуйте или удалите его.",
        ),
        (
            "pairing.all_rounds_paired",
            {"rounds": 5},
            "All 5 rounds are paired: there are no rounds left.",
            "Все туры (5) уже разбиты на пары: туров не осталось.",
        ),
    ],
)
def test_pairing_errors_are_codes_said_in_each_language(code, params, english, russian) -> None:  # type: ignore[no-untyped-def]
    with translation.override("en"):
        assert pairing_text.error_text(code, params) == english
    with translation.override("ru"):
        assert pairing_text.error_text(code, params) == russian


def test_every_engine_error_and_note_code_has_a_translation() -> None:
    from championship.pairing.errors import MESSAGES
    from championship.pairing.explain import NOTE_MESSAGES

    pairing_codes = {c for c in MESSAGES if c.startswith(("pairing.", "roundrobin."))}
    assert pairing_codes <= set(pairing_text.ERRORS)
    assert set(NOTE_MESSAGES) <= set(pairing_text.NOTES)
    with translation.override("ru"):
        error = PairingError("pairing.no_legal_pairing")
        assert pairing_text.error(error).startswith("Для следующего тура нет допустимой")
