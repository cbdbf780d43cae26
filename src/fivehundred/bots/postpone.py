"""PIMC with the seat's next decision postponed: a remedy for strategy fusion.

Plain PIMC values each action by the mean over the sampled deals of its double-dummy value,
as if, after it, the seat would choose its next card knowing every hand: a different card
in each deal. An action that keeps a guess for later (which queen to finesse, which suit to
keep) is then overvalued, because the guess looks free. The extended PIMC of Arjonilla,
Saffidine and Cazenave ("Perfect Information Monte Carlo with Postponing Reasoning", 2024)
postpones the perfect-information solve: the first moves are searched over what the seat
will know, and only the positions beyond are solved double-dummy.

Here the postponement reaches the seat's next decision. In each sampled deal, after each
action of the seat, the players between (partner and opponents) play the card that is best
double-dummy in that deal (of equal ones, the lowest action number). The seat's next
decision is then taken once for all the deals that fit what it will have seen there (the
deals that lead there, topped up with other sampled deals in which the others could have
played the cards seen: they hold them and follow suit): one card, the best over those
deals, valued double-dummy in each deal that leads there. Only the deals that lead there
would not do: the cards played between nearly always differ from deal to deal (about 1.7
deals of 64 reach the same decision), which is plain PIMC again. With one deal it is plain
PIMC; it differs where the seat cannot tell the deals apart and its best card differs
between them.

The cost is a solve for every card the others play between, in every deal, for every
action, and one for each deal that fits each decision: it is used with three to a few
tricks left, four players without dummies, where a solve is cheap. :func:`step` is the
stepping the solver lacks: one card played on a sampled deal's bare facts, as
:meth:`fivehundred.game.HandState._play` plays it.

Measured (``fivehundred arena --team-a pimc --team-b pimc:postpone --decisions play --hands
400 --seed 1501``): it chose differently in 91 of 11,907 play decisions, +1.3 points a
disagreement (-13.0 to +15.6), +0.3 a deal (-2.9 to +3.5); against ``pimc`` it won 51.7 %
of 400 games (46.9-56.6 %, ``--games 50``, seeds 1601 to 1604), +5.1 points a hand (-2.6 to
+12.8), at 78 ms a decision against 36: no gain shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from fivehundred.actions import Action, action_card, is_joker_lead, joker_lead_suit
from fivehundred.cards import CardMask
from fivehundred.play import PlayContext, trick_winner_index
from fivehundred.solver import Position, values_position


@dataclass(frozen=True)
class Deal:
    """The bare facts of a sampled deal in play: what :meth:`Position.build` takes."""

    hands: tuple[CardMask, ...]  # by seat
    to_move: int
    trick: tuple[tuple[int, int], ...]  # (seat, card) of the trick in progress
    led_suit: int
    suits_led: int
    voids: tuple[int, ...]  # by seat: suits shown void
    won: int  # tricks the contracting side has won
    left: int  # tricks left, counting the one in progress


@dataclass(frozen=True)
class Setting:
    """What stays the same through the hand: the strain's tables, the seats in turn order,
    the contracting side, the joker-lead rule."""

    ctx: PlayContext
    active: tuple[int, ...]
    contracting: tuple[int, ...]
    joker_lead_not_renounced: bool

    def position(self, deal: Deal) -> Position:
        return Position.build(
            self.ctx,
            self.active,
            self.contracting,
            deal.hands,
            deal.to_move,
            deal.trick,
            deal.led_suit,
            deal.suits_led,
            deal.voids,
            self.joker_lead_not_renounced,
            deal.won,
        )


def step(setting: Setting, deal: Deal, action: Action) -> Deal:
    """The deal after the player to move plays ``action`` (assumed legal there)."""
    ctx = setting.ctx
    seat = deal.to_move
    card = action_card(action)
    hands = list(deal.hands)
    voids = list(deal.voids)
    led, suits_led = deal.led_suit, deal.suits_led
    if not deal.trick:
        led = joker_lead_suit(action) if is_joker_lead(action) else ctx.effective_suit[card]
        suits_led |= 1 << led
    elif not hands[seat] & ctx.follow_masks[led]:
        voids[seat] |= 1 << led
    hands[seat] &= ~(1 << card)
    trick = (*deal.trick, (seat, card))
    active = setting.active
    if len(trick) < len(active):
        following = active[(active.index(seat) + 1) % len(active)]
        return replace(
            deal,
            hands=tuple(hands),
            to_move=following,
            trick=trick,
            led_suit=led,
            suits_led=suits_led,
            voids=tuple(voids),
        )
    winner = trick[trick_winner_index([c for _, c in trick], led, ctx)][0]
    won = deal.won + (1 if winner in setting.contracting else 0)
    return Deal(tuple(hands), winner, (), -1, suits_led, tuple(voids), won, deal.left - 1)


def _reply(setting: Setting, deal: Deal) -> Action:
    """The double-dummy best action of the player to move (of equal ones, the lowest
    number): the contracting side's seats maximise its tricks, the others minimise them."""
    values = values_position(setting.position(deal))
    sign = 1 if deal.to_move in setting.contracting else -1
    return max(values, key=lambda a: (sign * values[a], -a))


#: A decision of the seat after its action: the action and the cards it saw played since.
Key = tuple[Action, tuple[Action, ...]]


def _follows(setting: Setting, deal: Deal, action: Action) -> bool:
    """Whether the player to move in ``deal`` could play ``action``: the card is in its
    hand and follows suit as the rules ask (R-PLAY, R-JOKER 3-4)."""
    ctx = setting.ctx
    hand = deal.hands[deal.to_move]
    card = action_card(action)
    if not hand >> card & 1:
        return False
    if not deal.trick:
        return True
    follow = ctx.follow_masks[deal.led_suit]
    if hand & follow:
        return bool(follow >> card & 1)
    if ctx.misere and hand & ctx.free_jokers:
        return bool(ctx.free_jokers >> card & 1)
    return True


@dataclass(frozen=True)
class Plan:
    """The seat's next decisions over the sampled deals: ``reached[i][action]`` the
    decision deal ``i`` leads to after ``action``; ``fits[key]`` the deals (indices) in
    which the others could have played the cards seen there, the seat's view of it;
    ``leaves[(i, key)]`` the double-dummy values of the seat's choices at ``key`` in deal
    ``i`` (``{-1: total}`` where the hand ended first)."""

    reached: list[dict[Action, Key]]
    fits: dict[Key, list[int]]
    leaves: dict[tuple[int, Key], dict[Action, int]]


def plan(
    setting: Setting,
    seat: int,
    deals: Sequence[tuple[float, Deal]],
    legal: Sequence[Action],
    fit_limit: int = 16,
) -> Plan:
    """Play every deal on double-dummy from each of the seat's actions to its next
    decision; for each decision so reached, take the deals that lead there and, up to
    ``fit_limit`` deals in all, others that fit it (in the order given); solve each
    there."""
    reached: list[dict[Action, Key]] = []
    ends: dict[tuple[int, Key], Deal] = {}
    for i, (_, deal) in enumerate(deals):
        keys: dict[Action, Key] = {}
        for action in legal:
            after = step(setting, deal, action)
            seen: list[Action] = []
            while after.left and after.to_move != seat:
                reply = _reply(setting, after)
                seen.append(reply)
                after = step(setting, after, reply)
            keys[action] = (action, tuple(seen))
            ends[(i, keys[action])] = after
        reached.append(keys)
    fits: dict[Key, list[int]] = {}
    for _, key in list(ends):
        if key in fits:
            continue
        found: list[int] = []
        for j, (_, other) in enumerate(deals):
            if (j, key) not in ends:
                if len(found) >= fit_limit:
                    continue
                replayed = _replay(setting, other, key)
                if replayed is None:
                    continue
                ends[(j, key)] = replayed
            found.append(j)
        fits[key] = found
    leaves = {
        index: values_position(setting.position(after)) if after.left else {-1: after.won}
        for index, after in ends.items()
    }
    return Plan(reached, fits, leaves)


def _replay(setting: Setting, deal: Deal, key: Key) -> Deal | None:
    """``deal`` after the seat's action and the cards seen, or None if the others could
    not have played them there."""
    after = step(setting, deal, key[0])
    for seen in key[1]:
        if not _follows(setting, after, seen):
            return None
        after = step(setting, after, seen)
    return after


def plan_totals(
    legal: Sequence[Action],
    deals: Sequence[tuple[float, Deal]],
    the_plan: Plan,
    utility: Callable[[int], float],
) -> dict[Action, float]:
    """Each action's weighted total utility over the deals, the seat's next card at each
    decision being the one best over all the deals that fit it (the lowest of equal ones),
    valued in each deal that leads there."""
    choice: dict[Key, Action] = {}
    for key, members in the_plan.fits.items():
        rows = [(deals[j][0], the_plan.leaves[(j, key)]) for j in members]
        options = set.intersection(*(set(values) for _, values in rows))
        if options:  # always: the seat's cards and the trick are the same in each
            choice[key] = max(
                options, key=lambda c: (sum(w * utility(values[c]) for w, values in rows), -c)
            )
    totals = dict.fromkeys(legal, 0.0)
    for i, (weight, _) in enumerate(deals):
        for action in legal:
            key = the_plan.reached[i][action]
            values = the_plan.leaves[(i, key)]
            chosen = choice.get(key)
            best = values[chosen] if chosen is not None else max(values.values(), key=utility)
            totals[action] += weight * utility(best)
    return totals
