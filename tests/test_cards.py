"""Cards, notation, packs and the deal (R-PACK, R-DEAL)."""

from __future__ import annotations

import random

import pytest

from conftest import AUS, mask, rules, texts
from fivehundred.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    JOKER,
    JOKER_BLACK,
    SPADES,
    card_symbol,
    card_text,
    iter_cards,
    mask_of,
    parse_card,
    suit_of,
)
from fivehundred.errors import CardParseError, FiveHundredError
from fivehundred.game import HandState, deal_cards


def ranks_in(pack_cards: int, suit: int) -> list[str]:
    return [card_text(c)[:-1] for c in iter_cards(pack_cards) if suit_of(c) == suit]


# ----------------------------------------------------------------------------- notation
@pytest.mark.parametrize("suit", "SCDH")
def test_r_pack_ten_is_written_10_or_t(suit: str) -> None:
    """R-PACK notation: rank ``10`` may also be written ``T``; records print ``10``."""
    assert parse_card(f"10{suit}") == parse_card(f"T{suit}")
    assert card_text(parse_card(f"T{suit}")) == f"10{suit}"


def test_r_pack_notation_is_case_insensitive_and_trimmed() -> None:
    assert parse_card("ah") == parse_card("AH") == parse_card(" AH ")
    assert parse_card("th") == parse_card("10H")


def test_r_pack_joker_notation() -> None:
    """R-PACK: the joker is ``JK``; with two jokers ``JKR`` (red) and ``JKB`` (black)."""
    assert parse_card("JK") == JOKER
    assert parse_card("JKR") == JOKER
    assert parse_card("JKB") == JOKER_BLACK
    assert card_text(JOKER) == "JK"
    assert card_text(JOKER, two_jokers=True) == "JKR"
    assert card_text(JOKER_BLACK, two_jokers=True) == "JKB"


def test_r_pack_every_card_round_trips_through_its_text() -> None:
    for game_rules in (AUS, rules(pack45=True), rules(two_jokers=True)):
        two = game_rules.two_jokers
        for card in iter_cards(game_rules.pack.cards):
            assert parse_card(card_text(card, two)) == card


def test_r_pack_suit_symbols() -> None:
    """Suits are printed ♠ ♣ ♦ ♥."""
    assert card_symbol(parse_card("10H")) == "10♥"
    assert card_symbol(parse_card("JS")) == "J♠"
    assert card_symbol(parse_card("AC")) == "A♣"
    assert card_symbol(parse_card("4D")) == "4♦"


@pytest.mark.parametrize("token", ["ZZ", "1H", "10X", "", "JKX", "AHH", "11"])
def test_r_pack_parse_error_names_the_bad_token(token: str) -> None:
    with pytest.raises(CardParseError) as error:
        parse_card(token)
    assert repr(token) in str(error.value)
    assert error.value.rule == "R-PACK"
    assert isinstance(error.value, ValueError)


def test_r_pack_non_string_is_a_parse_error() -> None:
    with pytest.raises(FiveHundredError):
        parse_card(10)  # type: ignore[arg-type]


def test_card_layout_suits_and_masks() -> None:
    assert suit_of(parse_card("AS")) == SPADES
    assert suit_of(parse_card("AC")) == CLUBS
    assert suit_of(parse_card("AD")) == DIAMONDS
    assert suit_of(parse_card("AH")) == HEARTS
    assert suit_of(JOKER) == -1
    hand = mask("AH 4D JK")
    assert list(iter_cards(hand)) == sorted(iter_cards(hand))
    assert mask_of(iter_cards(hand)) == hand
    assert texts(hand) == {"AH", "4D", "JK"}


# ----------------------------------------------------------------------------- packs
def test_r_pack_default_pack_is_43_cards() -> None:
    """R-PACK: hearts and diamonds 4–A, spades and clubs 5–A, one joker; kitty 3."""
    pack = AUS.pack
    assert pack.size == 43
    assert pack.kitty_size == 3
    assert pack.hand_size == 10
    red = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    assert ranks_in(pack.cards, HEARTS) == red
    assert ranks_in(pack.cards, DIAMONDS) == red
    assert ranks_in(pack.cards, SPADES) == red[1:]
    assert ranks_in(pack.cards, CLUBS) == red[1:]
    assert pack.cards >> JOKER & 1
    assert not pack.cards >> JOKER_BLACK & 1


def test_r_pack_pack45_is_45_cards_with_a_kitty_of_5() -> None:
    """R-PACK variant ``pack45``: all four suits 4–A and one joker; kitty 5."""
    pack = rules(pack45=True).pack
    assert pack.size == 45
    assert pack.kitty_size == 5
    for suit in (SPADES, CLUBS, DIAMONDS, HEARTS):
        assert ranks_in(pack.cards, suit)[0] == "4"
        assert len(ranks_in(pack.cards, suit)) == 11


def test_r_pack_two_jokers_adds_a_card_to_the_kitty() -> None:
    """R-PACK variant ``two_jokers``: a second (black) joker; the kitty has one more card."""
    pack = rules(two_jokers=True).pack
    assert pack.size == 44
    assert pack.kitty_size == 4
    assert pack.cards >> JOKER & 1 and pack.cards >> JOKER_BLACK & 1


# ----------------------------------------------------------------------------- the deal
class _FixedOrder(random.Random):
    """A 'shuffle' that leaves the deck in pack order, so that the deal pattern shows."""

    def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
        return None


def _deal_owners(variants: dict[str, bool], dealer: int) -> list[str]:
    """Who gets each card of the (unshuffled) deck, in deck order: a seat, or 'k' (kitty)."""
    game_rules = rules(**variants)
    hands, kitty = deal_cards(game_rules, dealer, _FixedOrder())
    owners = []
    for card in iter_cards(game_rules.pack.cards):
        if kitty >> card & 1:
            owners.append("k")
        else:
            owners.append(str(next(s for s in range(4) if hands[s] >> card & 1)))
    return owners


def _pattern(owner: list[str]) -> list[tuple[str, int]]:
    runs: list[tuple[str, int]] = []
    for who in owner:
        if runs and runs[-1][0] == who:
            runs[-1] = (who, runs[-1][1] + 1)
        else:
            runs.append((who, 1))
    return runs


def test_r_deal_default_pattern_3_1_4_1_3_1_from_the_dealers_left() -> None:
    """R-DEAL: 3 to each, 1 to the kitty, 4 to each, 1 to the kitty, 3 to each, 1 to the
    kitty; dealing starts with the player left of the dealer (clockwise)."""
    owner = _deal_owners({}, dealer=2)
    expected = [("3", 3), ("0", 3), ("1", 3), ("2", 3), ("k", 1)]
    expected += [("3", 4), ("0", 4), ("1", 4), ("2", 4), ("k", 1)]
    expected += [("3", 3), ("0", 3), ("1", 3), ("2", 3), ("k", 1)]
    assert _pattern(owner) == expected


def test_r_deal_pack45_pattern_3_3_4_2_3() -> None:
    """R-PACK: with the 45-card pack, 3 each, 3 to the kitty, 4 each, 2 to the kitty,
    3 each."""
    owner = _deal_owners({"pack45": True}, dealer=0)
    expected = [("1", 3), ("2", 3), ("3", 3), ("0", 3), ("k", 3)]
    expected += [("1", 4), ("2", 4), ("3", 4), ("0", 4), ("k", 2)]
    expected += [("1", 3), ("2", 3), ("3", 3), ("0", 3)]
    assert _pattern(owner) == expected


def test_r_deal_deal_3_4_3_pattern_kitty_after_the_first_round() -> None:
    """R-DEAL variant ``deal_3_4_3``: 3-4-3 with the whole kitty after the first round."""
    owner = _deal_owners({"deal_3_4_3": True}, dealer=3)
    expected = [("0", 3), ("1", 3), ("2", 3), ("3", 3), ("k", 3)]
    expected += [("0", 4), ("1", 4), ("2", 4), ("3", 4)]
    expected += [("0", 3), ("1", 3), ("2", 3), ("3", 3)]
    assert _pattern(owner) == expected


@pytest.mark.parametrize("variants", [{}, {"deal_3_4_3": True}, {"pack45": True}])
def test_r_deal_same_seed_same_deal(variants: dict[str, bool]) -> None:
    """R-DEAL: a seed reproduces the same deal under the chosen pattern."""
    game_rules = rules(**variants)
    for seed in (0, 1, "x", 12345):
        first = HandState.deal(game_rules, 1, seed)
        second = HandState.deal(game_rules, 1, seed)
        assert first.dealt == second.dealt
        assert first.kitty_dealt == second.kitty_dealt
    assert HandState.deal(game_rules, 1, 1).dealt != HandState.deal(game_rules, 1, 2).dealt


@pytest.mark.parametrize("variants", [{}, {"deal_3_4_3": True}, {"pack45": True}])
def test_r_deal_every_card_dealt_once(variants: dict[str, bool]) -> None:
    game_rules = rules(**variants)
    for seed in range(20):
        state = HandState.deal(game_rules, seed % 4, seed)
        union = state.kitty_dealt
        assert state.kitty_dealt.bit_count() == game_rules.pack.kitty_size
        for hand in state.dealt:
            assert hand.bit_count() == 10
            assert not union & hand
            union |= hand
        assert union == game_rules.pack.cards


def test_r_deal_pattern_changes_the_deal() -> None:
    """R-DEAL: the same seed under another pattern deals the same pack differently."""
    plain = HandState.deal(AUS, 0, 7)
    three_four_three = HandState.deal(rules(deal_3_4_3=True), 0, 7)
    assert plain.dealt != three_four_three.dealt
