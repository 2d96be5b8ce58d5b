"""Worked examples for every section of RULES.md, one test (or a few) per section."""

from __future__ import annotations

import pytest

from games.engine import (
    CARDS,
    EngineError,
    card_text,
    from_board_json,
    legal_plays,
    parse_card,
    playable_cards,
    start_state,
)
from games.engine.core import FULL_HAND
from games.engine.game import Game
from games.engine.moves import format_turn
from games.engine.notation import parse_turn, resolve_turn

from .helpers import position, random_game

START = [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]


def texts(state, card):
    return [p.text for p in legal_plays(state, card)]


# §1 Board, checkers, numbering ------------------------------------------------------------
def test_s1_start_position_in_each_sides_own_numbering():
    s = start_state()
    assert list(s.white) == START and list(s.black) == START
    assert s.to_move == "white"
    # White's point p is Black's point 25 - p: White's 24 holds White, so Black's 1 is empty.
    for p in range(1, 25):
        assert not (s.white[p] and s.black[25 - p])


def test_s1_checkers_move_from_higher_to_lower_points():
    for card in CARDS:
        for play in legal_plays(start_state(), card):
            assert all(step.to < step.frm for step in play.steps)


# §2 Cards instead of dice -----------------------------------------------------------------
def test_s2_each_side_holds_two_of_each_of_nine_cards():
    s = start_state()
    assert s.hands == (FULL_HAND, FULL_HAND) and sum(FULL_HAND) == 18
    assert [card_text(c) for c in CARDS] == [
        "1:2",
        "1:4",
        "1:5",
        "2:3",
        "2:5",
        "2:6",
        "3:4",
        "3:6",
        "4:5",
    ]


def test_s2_cards_are_written_smaller_first_no_doubles():
    assert parse_card("5:4") == (4, 5)
    with pytest.raises(EngineError) as e:
        parse_card("3:3")
    assert e.value.code == "bad_card"
    with pytest.raises(EngineError) as e:
        parse_card("1:3")  # not one of the nine cards
    assert e.value.code == "unknown_card"


def test_s2_played_card_goes_to_the_opponents_received_pile():
    g = Game()
    g.play("4:5 24/20 13/8")
    i = CARDS.index((4, 5))
    assert g.state.hands[0][i] == 1 and g.state.received[1][i] == 1
    assert g.state.hands[1] == FULL_HAND and g.state.received[0][i] == 0


# §3 Playing a card ------------------------------------------------------------------------
def test_s3_destination_held_by_two_opposing_checkers_is_illegal():
    g = Game()
    with pytest.raises(EngineError) as e:
        g.play("1:5 24/23 24/19")
    assert e.value.code == "point_held"
    assert str(e.value) == (
        "ply 1 (White, 1:5): step 24/19 lands on point 19, held by 5 Black checkers"
    )
    assert g.ply == 0  # nothing changed


def test_s3_no_bearing_off_step_past_point_one_is_illegal():
    s = position({2: 1, 6: 14}, {13: 15})
    assert resolve_turn(s, parse_turn("1:4 2/1 6/2")).text == "1:4 2/1 6/2"
    for text in ("1:4 2/off 6/5", "1:4 6/5 2/0"):
        with pytest.raises(EngineError) as e:
            resolve_turn(s, parse_turn(text))
        assert e.value.code == "bear_off"
    # 4 from point 2 is impossible; only 6/2, 6/5, 2/1 remain as steps.
    for play in legal_plays(s, "1:4"):
        assert all(step.to >= 1 for step in play.steps)


def test_s3_one_checker_needs_an_open_intermediate_point():
    # Black holds White's 20 (Black's 5); White's 19 is open.
    s = position({24: 1, 13: 14}, {5: 2, 24: 13})
    plays = texts(s, "4:5")
    assert "4:5 24/19 19/15" in plays
    assert not any(t.startswith("4:5 24/20") for t in plays)
    # The shorthand 24/15 has only one legal route.
    assert resolve_turn(s, parse_turn("4:5 24/15")).text == "4:5 24/19 19/15"
    with pytest.raises(EngineError) as e:
        resolve_turn(s, parse_turn("4:5 24/20 20/15"))
    assert e.value.code == "point_held"


def test_s3_one_checker_touches_down_and_hits_a_blot_on_the_way():
    s = position({24: 1, 13: 14}, {6: 1, 24: 14})  # a Black blot on White's 19
    assert "4:5 24/19* 19/15" in texts(s, "4:5")
    play = resolve_turn(s, parse_turn("4:5 24/19/15"))  # the * may be omitted
    assert play.text == "4:5 24/19* 19/15"
    assert play.board["black"][25] == 1


def test_s3_bar_entry_comes_first_and_lands_on_25_minus_n():
    # One White checker on the bar; Black holds White's 22 (Black's 3).
    s = position({25: 1, 13: 14}, {3: 2, 24: 13})
    plays = texts(s, "3:6")
    assert plays and all(t.startswith("3:6 bar/19") for t in plays)
    assert "3:6 bar/19 19/16" in plays  # the entered checker may go on
    assert "3:6 bar/19 13/10" in plays
    with pytest.raises(EngineError) as e:
        resolve_turn(s, parse_turn("3:6 13/10 bar/19"))
    assert e.value.code == "bar_first"


def test_s3_two_on_the_bar_both_numbers_must_enter():
    s = position({25: 2, 13: 13}, {3: 2, 24: 13})
    assert texts(s, "3:6") == []  # 22 is held: the 3 cannot enter
    assert texts(s, "4:5") == ["4:5 bar/21 bar/20"]


def test_s3_entering_on_a_blot_hits_it():
    s = position({25: 1, 13: 14}, {4: 1, 24: 14})  # a Black blot on White's 21
    assert "4:5 bar/21* 13/8" in texts(s, "4:5")


# §4 Must play the whole card; blocked means lost -------------------------------------------
def blocked_example():
    # White moves only the checker on 12; Black holds White's 9 and 6.
    return position({1: 14, 12: 1}, {16: 2, 19: 2, 1: 11})


def test_s4_playable_cards_are_those_played_in_full():
    s = blocked_example()
    assert [card_text(c) for c in playable_cards(s)] == ["1:4", "2:3", "2:5", "2:6", "3:4", "4:5"]


def test_s4_unplayable_card_is_an_illegal_move_listing_the_playable_cards():
    g = Game(blocked_example())
    with pytest.raises(EngineError) as e:
        g.play("3:6 12/9 9/3")
    assert e.value.code == "card_not_playable"
    assert "playable cards: 1:4, 2:3, 2:5, 2:6, 3:4, 4:5" in str(e.value)
    assert g.outcome is None and g.ply == 0


def test_s4_no_playable_card_at_the_start_of_a_turn_loses():
    g = Game(position({1: 15}, {13: 15}))
    assert g.outcome is not None
    assert (g.result, g.termination) == ("0-1", "blocked")


# §5 Winning by bringing everyone home -----------------------------------------------------
def test_s5_game_ends_after_the_first_number_when_the_last_checker_gets_home():
    s = position({1: 14, 7: 1}, {13: 15})
    # With 2:6 either number brings the last checker home; the other number is not played,
    # though it could not have been played anyway (the checkers on 1 cannot move).
    assert sorted(texts(s, "2:6")) == ["2:6 7/1", "2:6 7/5"]
    g = Game(s)
    g.play("2:6 7/5")
    assert (g.result, g.termination) == ("1-0", "home")
    with pytest.raises(EngineError) as e:
        Game(s).play("2:6 7/5 5/1")
    assert e.value.code == "won_already"


# §6 Phases, hands and clocks --------------------------------------------------------------
def test_s6_hands_switch_after_ply_36_and_the_game_is_a_draw_after_72():
    for seed in range(200):
        g = random_game(seed)
        if g.ply == 72 and g.termination == "cards":
            break
    else:  # pragma: no cover - the seeds above always contain a drawn game
        pytest.fail("no 72-ply game found")
    at36 = g.states[36]
    before = g.states[35]
    assert at36.phase == 2 and before.phase == 1
    # After ply 36 each hand is the 18 cards received from the opponent: two of each.
    assert at36.hands == (FULL_HAND, FULL_HAND)
    assert g.result == "1/2-1/2"


def test_s6_adjournment_only_right_after_ply_36():
    g = random_game(3, max_plies=35)
    assert g.outcome is None and not g.can_adjourn
    with pytest.raises(EngineError):
        g.adjourn()
    g2 = random_game(5, max_plies=36)
    if g2.outcome is None:
        assert g2.can_adjourn
        g2.adjourn()
        assert g2.adjourned and g2.result == "*"


def test_s6_flag_in_phase_1_loses_in_phase_2_draws():
    g = random_game(11, max_plies=20)
    assert g.outcome is None
    expected = "0-1" if g.state.to_move == "white" else "1-0"  # the side to move flagged
    assert g.terminate("time").result == expected
    g2 = random_game(11, max_plies=40)
    assert g2.outcome is None
    assert g2.terminate("time").result == "1/2-1/2"


# §7 Results -------------------------------------------------------------------------------
def test_s7_organiser_terminations_only_while_undecided():
    g = Game(position({1: 15}, {13: 15}))  # already blocked
    for termination in ("time", "resign", "agreement", "forfeit"):
        with pytest.raises(EngineError) as e:
            g.terminate(termination)
        assert e.value.code == "termination_decided"
    g = Game()
    assert g.terminate("forfeit", "black").result == "1-0"
    g = Game()
    g.play("4:5 24/20 13/8")
    with pytest.raises(EngineError) as e:
        g.terminate("forfeit", "black")
    assert e.value.code == "forfeit_played"
    assert g.terminate("resign", "black").result == "1-0"
    with pytest.raises(EngineError) as e:
        Game().terminate("home")
    assert e.value.code == "bad_termination"


# §8.1 Board as JSON -----------------------------------------------------------------------
def test_s8_1_board_json_round_trip_and_validation():
    obj = {"white": START, "black": START, "to_move": "white"}
    assert from_board_json(obj).to_json() == obj
    bad = [
        {"white": START[:25], "black": START, "to_move": "white"},
        {"white": [1] + START[1:], "black": START, "to_move": "white"},
        {"white": START[:24] + [1, 0], "black": START, "to_move": "white"},
        {"white": START, "black": START, "to_move": "red"},
    ]
    both = [0] * 26
    both[1] = 15  # White's 1 = Black's 24, where Black has 2
    bad.append({"white": both, "black": START, "to_move": "white"})
    for b in bad:
        with pytest.raises(EngineError) as e:
            from_board_json(b)
        assert e.value.code == "bad_board"


# §8.2 Move notation -----------------------------------------------------------------------
def test_s8_2_leniency_card_order_missing_star_and_shorthand():
    s = position({24: 2, 13: 13}, {5: 1, 7: 4, 24: 10})  # a Black blot on White's 20
    assert resolve_turn(s, parse_turn("5:4 13/9 13/8")).text == "4:5 13/9 13/8"
    assert resolve_turn(s, parse_turn("4:5 24/20 13/8")).text == "4:5 24/20* 13/8"
    assert resolve_turn(s, parse_turn("4:5 13/4")).text == "4:5 13/9 9/4"
    assert resolve_turn(s, parse_turn("4:5 24/20*/15")).text == "4:5 24/20* 20/15"
    with pytest.raises(EngineError) as e:
        resolve_turn(s, parse_turn("4:5 13/9*/4"))  # no blot on 9
    assert e.value.code == "false_hit"


def test_s8_2_ambiguous_shorthand_names_the_routes():
    s = position({24: 2, 13: 13}, {5: 1, 7: 4, 24: 10})  # via 20 hits, via 19 does not
    with pytest.raises(EngineError) as e:
        resolve_turn(s, parse_turn("4:5 24/15"))
    assert e.value.code == "ambiguous"
    assert "24/20* 20/15" in str(e.value) and "24/19 19/15" in str(e.value)


def test_s8_2_star_without_a_blot_is_an_error():
    with pytest.raises(EngineError) as e:
        resolve_turn(start_state(), parse_turn("4:5 24/20* 13/8"))
    assert e.value.code == "false_hit"


def test_s8_2_canonical_text_round_trips():
    for card in CARDS:
        for play in legal_plays(start_state(), card):
            assert parse_turn(play.text).text == play.text
            assert resolve_turn(start_state(), parse_turn(play.text)).text == play.text
            assert format_turn(play.card, play.steps) == play.text


def test_s8_2_errors_name_the_step_and_the_reason():
    g = Game()
    cases = {
        "4:5 24/20": "incomplete",
        "4:5 24/20 13/8 8/3": "extra_step",
        "4:5 23/19 13/8": "no_checker",
        "4:5 24/21 13/8": "wrong_number",
        "4:5 bar/20 13/8": "no_checker_on_bar",
        "4:5 24/20 13/x": "bad_step",
        "7:8 24/20 13/8": "bad_card",
    }
    for text, code in cases.items():
        with pytest.raises(EngineError) as e:
            g.play(text)
        assert e.value.code == code, text
        assert e.value.ply == 1
    assert g.ply == 0


# §9 Worked examples -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "card,count",
    [
        ("1:2", 15),
        ("1:4", 14),
        ("1:5", 8),
        ("2:3", 17),
        ("2:5", 8),
        ("2:6", 14),
        ("3:4", 17),
        ("3:6", 14),
        ("4:5", 9),
    ],
)
def test_s9_number_of_distinct_plays_from_the_start(card, count):
    assert len(legal_plays(start_state(), card)) == count


def test_s9_four_five_examples():
    plays = texts(start_state(), "4:5")
    for t in ("4:5 24/20 20/15", "4:5 24/20 13/8", "4:5 24/20 8/3", "4:5 13/9 13/8"):
        assert t in plays
    assert not any(len(t.split()) == 2 for t in plays)  # never 24/15 as one step
