"""Cards, suits, packs and card bitmasks (R-PACK, R-RANK).

A :data:`Card` is a small int. Ordinary cards are ``suit * 16 + rank_index`` where the
rank index runs over ``2 3 4 5 6 7 8 9 10 11 12 13 J Q K A`` (0..15), so every pack of
the rule book (including the 6-player 11s, 12s and 13s) fits one layout. The jokers are
64 (the joker, or the red joker with ``two_jokers``) and 65 (the black joker).

A set of cards is a bitmask (``int``) with bit ``card`` set, which is what the engine's
legal-move generation and trick resolution work on.

>>> parse_card("10H") == parse_card("TH")
True
>>> card_text(parse_card("JK"))
'JK'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from fivehundred.errors import CardParseError

Card = int
Suit = int
CardMask = int

SPADES: Suit = 0
CLUBS: Suit = 1
DIAMONDS: Suit = 2
HEARTS: Suit = 3
NO_TRUMPS: Suit = 4
SUITS: tuple[Suit, ...] = (SPADES, CLUBS, DIAMONDS, HEARTS)

SUIT_LETTERS = "SCDH"
SUIT_SYMBOLS = "♠♣♦♥"
STRAIN_LETTERS = ("S", "C", "D", "H", "NT")

RANK_TEXT: tuple[str, ...] = (
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "11",
    "12",
    "13",
    "J",
    "Q",
    "K",
    "A",
)
RANK_10 = 8
RANK_JACK = 12
RANK_ACE = 15

JOKER: Card = 64
JOKER_BLACK: Card = 65
JOKERS_MASK: CardMask = (1 << JOKER) | (1 << JOKER_BLACK)
NUM_CARDS = 66

SUIT_MASKS: tuple[CardMask, ...] = tuple(0xFFFF << (16 * s) for s in SUITS)


def make_card(rank_index: int, suit: Suit) -> Card:
    """The card of ``rank_index`` (0 = '2' … 15 = 'A') in ``suit``."""
    return suit * 16 + rank_index


def suit_of(card: Card) -> Suit:
    """Printed suit of a card; jokers have none (returns -1)."""
    return -1 if card >= JOKER else card >> 4


def rank_of(card: Card) -> int:
    """Rank index of a printed card (0 = '2' … 15 = 'A'); 16/17 for the jokers."""
    return 16 + (card - JOKER) if card >= JOKER else card & 15


def is_joker(card: Card) -> bool:
    return card >= JOKER


def same_colour_suit(suit: Suit) -> Suit:
    """The other suit of the same colour (♠↔♣, ♦↔♥): the left bower's printed suit."""
    return suit ^ 1


def is_red(suit: Suit) -> bool:
    return suit >= DIAMONDS


_PARSE: dict[str, Card] = {}
for _s, _letter in enumerate(SUIT_LETTERS):
    for _r, _text in enumerate(RANK_TEXT):
        _PARSE[_text + _letter] = make_card(_r, _s)
    _PARSE["T" + _letter] = make_card(RANK_10, _s)
_PARSE["JK"] = JOKER
_PARSE["JKR"] = JOKER
_PARSE["JKB"] = JOKER_BLACK
_PARSE["JKW"] = JOKER_BLACK  # the French-Canadian white joker ranks as the black (R-HOUSE)


def parse_card(text: str) -> Card:
    """Parse card notation (``10H``, ``TH``, ``AS``, ``JK``, ``JKB``), case-insensitive.

    Raises :class:`CardParseError` naming the bad token.
    """
    if not isinstance(text, str):
        raise CardParseError(f"card must be a string, got {text!r}")
    card = _PARSE.get(text.strip().upper())
    if card is None:
        raise CardParseError(f"not a card: {text!r}")
    return card


#: ``card_text``'s joker naming for the French-Canadian pack: the higher joker is the white
#: one, ``JKW`` (R-HOUSE). Otherwise the naming is a bool: two jokers or one.
WHITE_JOKER = "white"
JokerNames = bool | str


def card_text(card: Card, two_jokers: JokerNames = False) -> str:
    """Record notation of a card: ``10H``, ``AS``, ``JK`` (``JKR``/``JKB`` with two jokers;
    ``JKR``/``JKW`` in the French-Canadian pack, ``two_jokers`` = :data:`WHITE_JOKER`)."""
    if card == JOKER:
        return "JKR" if two_jokers else "JK"
    if card == JOKER_BLACK:
        return "JKW" if two_jokers == WHITE_JOKER else "JKB"
    return RANK_TEXT[card & 15] + SUIT_LETTERS[card >> 4]


def card_symbol(card: Card, two_jokers: JokerNames = False) -> str:
    """Display form with a suit symbol: ``10♥``, ``J♠``, ``🃏`` is avoided for width: ``JK``."""
    if card >= JOKER:
        return card_text(card, two_jokers)
    return RANK_TEXT[card & 15] + SUIT_SYMBOLS[card >> 4]


def mask_of(cards: Iterable[Card]) -> CardMask:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def iter_cards(mask: CardMask) -> Iterator[Card]:
    """Cards of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# _BYTE_CARDS[i][b]: the cards of byte value ``b`` at byte position ``i`` of a mask.
_BYTE_CARDS: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(8 * i + bit for bit in range(8) if b >> bit & 1) for b in range(256))
    for i in range(9)
)


def cards_of(mask: CardMask) -> list[Card]:
    """Cards of a mask as a list, lowest first (table-driven: this is a hot path)."""
    out: list[Card] = []
    table = _BYTE_CARDS
    i = 0
    while mask:
        if mask & 255:
            out += table[i][mask & 255]
        mask >>= 8
        i += 1
    return out


def lowest_card(mask: CardMask) -> Card:
    return (mask & -mask).bit_length() - 1


def mask_text(mask: CardMask, two_jokers: JokerNames = False) -> list[str]:
    return [card_text(c, two_jokers) for c in iter_cards(mask)]


def parse_cards(texts: Iterable[str]) -> list[Card]:
    return [parse_card(t) for t in texts]


@dataclass(frozen=True)
class Pack:
    """A pack of the rule book (R-PACK) and how it is dealt (R-DEAL).

    ``deal_rounds`` lists ``(cards to each player, cards to the kitty)`` for each round of
    the deal, so that a seed reproduces the same deal under the chosen pattern.
    """

    name: str
    cards: CardMask
    kitty_size: int
    hand_size: int
    deal_rounds: tuple[tuple[int, int], ...]

    @property
    def size(self) -> int:
        return self.cards.bit_count()

    @property
    def two_jokers(self) -> bool:
        return bool(self.cards >> JOKER_BLACK & 1)


def _ranks(suits: Iterable[Suit], ranks: Iterable[int]) -> CardMask:
    rank_list = list(ranks)
    return mask_of(make_card(r, s) for s in suits for r in rank_list)


def build_pack(
    players: int,
    pack45: bool = False,
    two_jokers: bool = False,
    deal_3_4_3: bool = False,
    french: bool = False,
) -> Pack:
    """The pack for a player count and variants (R-PACK), with its deal pattern (R-DEAL).

    ``french``: the French-Canadian pack (R-HOUSE): 52 cards without the 2s and 3s and two
    jokers, 46 cards, dealt 3-3-4 with three to the kitty after each round of threes.
    """
    if french:
        cards = _ranks(SUITS, range(2, 16)) & ~_ranks(SUITS, range(9, 12)) | JOKERS_MASK
        return Pack("46", cards, 6, 10, ((3, 3), (3, 3), (4, 0)))

    def natural(low: int) -> list[int]:
        # 2..10 then J Q K A: the 11s, 12s and 13s exist only in the 6-player pack.
        return [r for r in range(low, 16) if not 9 <= r <= 11]

    if players in (2, 4):
        if pack45:
            cards = _ranks(SUITS, natural(2))
        else:
            cards = _ranks((DIAMONDS, HEARTS), natural(2)) | _ranks((SPADES, CLUBS), natural(3))
        name = "pack45" if pack45 else "43"
    elif players == 3:
        cards, name = _ranks(SUITS, natural(5)), "33"
    elif players == 5:
        cards, name = _ranks(SUITS, natural(0)), "53"
    elif players == 6:
        cards = _ranks(SUITS, range(0, 16)) & ~_ranks((SPADES, CLUBS), (11,))
        name = "63"
    else:
        raise ValueError(f"Five Hundred is for 2 to 6 players, not {players} (R-PACK)")
    cards |= 1 << JOKER
    if two_jokers:
        cards |= 1 << JOKER_BLACK
    hand_size = 10
    seats = 4 if players == 2 else players
    kitty = cards.bit_count() - seats * hand_size
    if deal_3_4_3:
        rounds: tuple[tuple[int, int], ...] = ((3, kitty), (4, 0), (3, 0))
    elif pack45:
        rounds = ((3, 3), (4, 2 + kitty - 5), (3, 0))
    else:
        rounds = ((3, 1), (4, 1), (3, kitty - 2))
    return Pack(name, cards, kitty, hand_size, rounds)
