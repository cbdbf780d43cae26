"""Per-seat observations: exactly what one seat may see (hidden information stays hidden).

A seat sees its own hand (with the kitty while it is the contractor exchanging) and the
cards it was dealt, every call, every card played, the contract, the joker's nomination,
the open-misère contractor's hand after the first trick (and, with the house rules, the
Shields double contractor's, both patastrophe hands, a claiming contractor's), and its own
discards if it is the contractor. Never the other hands, the kitty, anyone else's
discards, the card a partner passes in a slam call (only the contractor, who receives it,
sees it), or a dead hand.

A spectator (seat :data:`SPECTATOR`) is observed by the same function: it sees the public
facts only (no hand, no discards, no legal actions; the hands lying face up).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fivehundred.actions import Action, action_text
from fivehundred.cards import CardMask, JokerNames, cards_of
from fivehundred.rules import Rules
from fivehundred.scoring import side_of_seats

if TYPE_CHECKING:
    from fivehundred.game import HandState


#: The seat of someone watching the table: public facts only.
SPECTATOR = -1


class _Texts(dict[int, str]):
    """Record notation of each action number, worked out once per joker naming (views are
    built for every connected seat after every action: looked up, not worked out)."""

    def __init__(self, two_jokers: JokerNames) -> None:
        super().__init__()
        self.two_jokers = two_jokers

    def __missing__(self, action: int) -> str:
        text = self[action] = action_text(action, self.two_jokers)
        return text


_TEXTS: dict[JokerNames, _Texts] = {}
_SUIT_SETS = ["".join(s for i, s in enumerate("SCDH") if v >> i & 1) for v in range(16)]


def _texts(two_jokers: JokerNames) -> _Texts:
    texts = _TEXTS.get(two_jokers)
    if texts is None:
        texts = _TEXTS[two_jokers] = _Texts(two_jokers)
    return texts


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view of a hand. Cards are bitmasks; actions are action numbers."""

    rules: Rules
    seat: int
    dealer: int
    phase: str
    to_move: int
    hand: CardMask
    auction: tuple[tuple[int, Action], ...]
    contract: Action
    contractor: int
    partners: tuple[int, ...]
    active: tuple[int, ...]
    joker_suits: tuple[int, int]
    trump: int
    tricks: tuple[tuple[tuple[tuple[int, Action], ...], int], ...]
    trick: tuple[tuple[int, Action], ...]
    led_suit: int
    legal: tuple[Action, ...]
    tricks_won: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    exposed: tuple[tuple[int, CardMask], ...]
    discards: CardMask
    played: CardMask
    voids: tuple[int, ...]
    suits_led: int
    scores: tuple[int, ...]
    called_card: int = -1
    #: The side each seat scores for (partnerships; with 3 or 5 players every seat is its own).
    sides: tuple[int, ...] = ()
    #: Seats that must pass in this auction (R-HOUSE ralphing): public.
    barred: tuple[int, ...] = ()
    #: The contractor called slam (R-HOUSE slam_call); the partner sits out. Public.
    slam: bool = False
    #: open_eight (R-PLAYERS): the face-up cards moved to the kitty (public); and, to the
    #: defender only, the face-up card they took and the card they discarded.
    table_kitty: CardMask = 0
    table_take: tuple[int, int] = (-1, -1)
    #: draw_pack (R-PLAYERS): the card this seat has drawn and decides on (-1 otherwise)
    drawn: int = -1
    #: The cards this seat was dealt: a player's own hand only (0 for a spectator, a
    #: dummy, a dead hand or the table's seats, whose dealt cards may lie face down).
    dealt: CardMask = 0
    #: In the kitty exchange, the cards the contractor has still to discard (public).
    discards_left: int = 0

    @property
    def seats(self) -> int:
        return self.rules.seats

    @property
    def unseen(self) -> CardMask:
        """Cards this seat cannot see: the other hands plus the kitty/discards."""
        seen = self.hand | self.played | self.discards
        for _, mask in self.exposed:
            seen |= mask
        return self.rules.pack.cards & ~seen

    def to_json(self) -> dict[str, Any]:
        """The observation in record notation (the external-player protocol, the web's view;
        a spectator's ``seat`` is None)."""
        t = _texts(self.rules.joker_names)

        def cards(mask: int) -> list[str]:
            return [t[card] for card in cards_of(mask)]

        return {
            "seat": None if self.seat == SPECTATOR else self.seat,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_move": self.to_move,
            "hand": cards(self.hand),
            "auction": [t[call] for _, call in self.auction],
            "contract": t[self.contract] if self.contract >= 0 else None,
            "contractor": self.contractor if self.contractor >= 0 else None,
            "partners": list(self.partners),
            "active": list(self.active),
            "joker_suit": "SCDH"[self.joker_suits[0]] if self.joker_suits[0] >= 0 else None,
            # Both jokers' nominations, [first (red) joker, black or white joker].
            "joker_suits": ["SCDH"[s] if s >= 0 else None for s in self.joker_suits],
            "tricks": [[[seat, t[a]] for seat, a in plays] for plays, _ in self.tricks],
            "trick_winners": [winner for _, winner in self.tricks],
            "trick": [[seat, t[a]] for seat, a in self.trick],
            "legal": [t[a] for a in self.legal],
            "tricks_won": list(self.tricks_won),
            "hand_sizes": list(self.hand_sizes),
            "exposed": {str(seat): cards(mask) for seat, mask in self.exposed},
            "discards": cards(self.discards),
            "scores": list(self.scores),
            "players": self.rules.players,
            "called_card": t[self.called_card] if self.called_card >= 0 else None,
            "sides": list(self.sides),
            "barred": list(self.barred),
            "slam": self.slam,
            "table_kitty": cards(self.table_kitty),
            "drawn": t[self.drawn] if self.drawn >= 0 else None,
            "discards_left": self.discards_left,
            # Public facts that are tedious to derive from the tricks: the suits each seat has
            # shown void in, and the suits led so far (R-JOKER 5), as letters.
            "voids": [_SUIT_SETS[v] for v in self.voids],
            "suits_led": _SUIT_SETS[self.suits_led],
        }


def observe(state: HandState, seat: int, scores: tuple[int, ...] = ()) -> Observation:
    """Build ``seat``'s observation of ``state`` (:data:`SPECTATOR`: anyone watching). The
    one builder of per-seat views: the bots, the environment, the terminal game and the
    web all read what it gives."""
    watching = seat == SPECTATOR
    to_move = state.to_move
    moving = not watching and seat == to_move
    partners = state.partners
    if not state.partner_revealed and seat not in partners:
        partners = ()  # five players: the called partner is unknown until the card is played
    return Observation(
        rules=state.rules,
        seat=seat,
        dealer=state.dealer,
        phase=state.phase,
        to_move=to_move,
        hand=0 if watching else state.playable(seat),
        auction=tuple(state.auction.calls),
        contract=state.contract,
        contractor=state.contractor,
        partners=partners,
        active=state.active,
        joker_suits=(state.joker_suits[0], state.joker_suits[1]),
        trump=state.trump,
        tricks=tuple((trick.plays, trick.winner) for trick in state.tricks),
        trick=tuple(state.current_trick()),
        led_suit=state.led_suit if state.trick_cards else -1,
        legal=tuple(state.legal_actions()) if moving else (),
        tricks_won=tuple(state.tricks_won),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        exposed=tuple(state.visible_cards(seat)),
        discards=state.discards if not watching and seat == state.contractor else 0,
        played=state.played,
        voids=tuple(state.void_shown),
        suits_led=state.suits_led,
        scores=scores,
        called_card=state.called_card,
        sides=side_of_seats(state.rules),
        barred=state.barred,
        slam=state.slam,
        table_kitty=state.table_kitty,
        table_take=(state.table_card, state.table_discard)
        if not watching and seat == 1 - state.contractor and state.rules.open_eight
        else (-1, -1),
        drawn=state.drawn if moving else -1,
        dealt=state.dealt[seat] if 0 <= seat < state.rules.players else 0,
        discards_left=state.discards_left,
    )
