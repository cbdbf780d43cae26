"""The learnt model of the hidden cards: constraints, the exact belief over consistent deals,
a tiny training run whose network is the one that plays, and the shipped weights."""

from __future__ import annotations

import itertools
import math
import random

import pytest

np = pytest.importorskip("numpy")

from conftest import AUS  # noqa: E402
from fivehundred.bots import (  # noqa: E402
    HeuristicPlayer,
    hidden,
    hidden_train,
)
from fivehundred.bots.memory import play_context, void_cards  # noqa: E402
from fivehundred.game import HandState  # noqa: E402


def _tiny_position(room: tuple[int, int, int, int], banned: dict[int, int]) -> hidden.Position:
    """A position with ``sum(room)`` hidden slots; ``banned[slot]`` a place it may not lie."""
    allowed = np.zeros((hidden.SLOTS, hidden.PLACES), dtype=bool)
    for slot in range(sum(room)):
        allowed[slot] = [place != banned.get(slot) and room[place] > 0 for place in range(4)]
    feats = np.zeros(hidden.FEATURES, dtype=np.uint8)
    return hidden.Position(feats, allowed, room, (1, 2, 3, -1), tuple(range(hidden.SLOTS)))


def _brute(position: hidden.Position, probs: np.ndarray) -> dict[tuple[int, ...], float]:
    """Every assignment of the hidden slots that keeps the rooms and the bans, weighted by
    the product of its cards' probabilities."""
    slots = np.flatnonzero(position.allowed.any(axis=1))
    out = {}
    for places in itertools.product(range(4), repeat=len(slots)):
        if any(places.count(p) != position.room[p] for p in range(4)):
            continue
        if not all(position.allowed[s, p] for s, p in zip(slots, places, strict=True)):
            continue
        out[places] = math.prod(probs[s, p] for s, p in zip(slots, places, strict=True))
    return out


def test_the_belief_counts_weighs_and_samples_consistent_deals_exactly() -> None:
    position = _tiny_position((2, 2, 1, 2), {0: 0, 3: 1, 4: 0, 5: 3})
    uniform = _brute(position, position.allowed.astype(float))
    assert hidden.uniform(position).log_z == pytest.approx(math.log(len(uniform)))
    rng = np.random.default_rng(5)
    probs = rng.random((hidden.SLOTS, hidden.PLACES))
    weighted = _brute(position, probs)
    belief = hidden.Belief(position, probs)
    total = sum(weighted.values())
    truth, weight = max(weighted.items(), key=lambda kv: kv[1])
    labels = np.full(hidden.SLOTS, -1)
    labels[: len(truth)] = truth
    assert belief.log_likelihood(labels) == pytest.approx(math.log(weight / total))
    # Draws follow the weights and never break a room or a ban.
    draws = belief.sample(np.random.default_rng(1), 20_000)
    seen: dict[tuple[int, ...], int] = {}
    for row in draws:
        seen[tuple(int(p) for p in row)] = seen.get(tuple(int(p) for p in row), 0) + 1
    assert set(seen) <= set(weighted)
    for places, w in weighted.items():
        assert seen.get(places, 0) / 20_000 == pytest.approx(w / total, abs=0.012)


def _play_to(seed: str, tricks: int) -> HandState | None:
    state = HandState.deal(AUS, 0, seed)
    players = [HeuristicPlayer(s) for s in range(4)]
    while not state.is_over and not (state.phase == "play" and len(state.tricks) >= tricks):
        state.apply(players[state.to_move].act(state.observation(state.to_move)))
    return None if state.is_over else state


def test_encoding_keeps_the_hard_constraints_and_the_labels_are_the_true_hands() -> None:
    checked = 0
    for n in range(30):
        state = _play_to(f"hidden/enc/{n}", 4)
        if state is None:
            continue
        for seat in range(4):
            obs = state.observation(seat)
            position = hidden.encode(obs)
            assert position is not None
            hidden_slots = position.allowed.any(axis=1)
            cards = {position.cards[s] for s in np.flatnonzero(hidden_slots)}
            assert cards == {c for c in range(66) if obs.unseen >> c & 1}
            assert sum(position.room) == obs.unseen.bit_count()
            ctx = play_context(obs)
            for place, other in enumerate(position.seats[:3]):
                for slot in np.flatnonzero(position.allowed[:, place]):
                    assert not void_cards(obs, ctx, other) >> position.cards[slot] & 1
            truth = hidden.labels(position, state.hands)
            for slot in np.flatnonzero(hidden_slots):
                place = truth[slot]
                assert position.allowed[slot, place]
                if place < hidden.KITTY:
                    assert state.hands[position.seats[place]] >> position.cards[slot] & 1
            # The true deal is one of the consistent deals: a finite likelihood.
            assert hidden.uniform(position).log_likelihood(truth) > float("-inf")
            checked += 1
    assert checked >= 20


def test_a_tiny_training_run_learns_and_plays_with_the_same_network(tmp_path) -> None:
    data = hidden_train.generate(12, seed=7, keep=0.5)
    assert len(data) > 100
    before = hidden_train.init((16,), seed=3)
    first, _ = hidden_train.loss_and_grads(before, data.x, data.allowed, data.y)
    params = hidden_train.train(data, sizes=(16,), epochs=4, batch=64, rate=3e-3, seed=3)
    after, _ = hidden_train.loss_and_grads(params, data.x, data.allowed, data.y)
    assert after < first
    # The training pass and the play-time forward pass give the same logits.
    flat = hidden_train.activations(params, data.x)[-1]
    logits = hidden.forward(params, data.x)
    np.testing.assert_allclose(flat.reshape(logits.shape), logits, rtol=1e-5, atol=1e-5)
    # Saved and loaded, the weights give the same belief, and it is deterministic.
    path = tmp_path / "model.npz"
    hidden_train.save(params, str(path))
    with np.load(path) as saved:
        loaded = {k: saved[k] for k in saved.files}
    state = _play_to("hidden/tiny", 2)
    assert state is not None
    obs = state.observation(state.to_move)
    one, two = hidden.believe(obs, params), hidden.believe(obs, loaded)
    assert one is not None and two is not None
    np.testing.assert_allclose(one.p, two.p)
    first, second = hidden.ModelSampler(), hidden.ModelSampler()
    assert first.draw(obs, random.Random(4)) == second.draw(obs, random.Random(4))


def test_the_shipped_model_is_small_and_beats_uniform_on_fresh_hands() -> None:
    assert hidden.WEIGHTS.stat().st_size < 5_000_000
    assert hidden.shipped() is not None
    data = hidden_train.generate(20, seed=99, keep=0.0, starts=(3,))
    params = hidden.shipped()
    model = hidden_train.log_likelihoods(params, data, float(params["power"]))
    uniform = hidden_train.log_likelihoods(None, data)
    assert model.mean() > uniform.mean() + 1.0


def test_pimc_model_draws_its_deals_from_the_model_and_plain_pimc_does_not() -> None:
    pytest.importorskip("fivehundred.solver")
    from fivehundred.bots import PimcPlayer, make_player

    assert make_player("pimc", 1).sampler is None
    player = make_player("pimc:model", 1)
    assert isinstance(player, PimcPlayer) and player.sampler is not None
    state = _play_to("hidden/pimc-model", 3)
    assert state is not None
    obs = state.observation(state.to_move)
    belief = hidden.believe(obs)
    assert belief is not None and player.call_model(obs) is None
    rng = random.Random(2)
    for _ in range(20):
        hands = player.sample_hands(obs, rng)
        assert hands is not None and hands[obs.seat] == obs.hand
        # every hidden card dealt once, each hand its size, no card of a suit shown void
        # (a partner sitting out of a misère is dealt nothing: it does not play)
        active = obs.active or tuple(range(4))
        out = sum(obs.hand_sizes[s] for s in range(4) if s not in active)
        dealt = [h for s, h in enumerate(hands) if s != obs.seat]
        assert sum(h.bit_count() for h in dealt) + belief.room[hidden.KITTY] + out == (
            obs.unseen.bit_count()
        )
        ctx = play_context(obs)
        for seat in active:
            if seat != obs.seat:
                assert hands[seat] & ~obs.unseen == 0
                assert hands[seat].bit_count() == obs.hand_sizes[seat]
                assert not hands[seat] & void_cards(obs, ctx, seat)
    # A whole hand with pimc:model at every seat is legal to the end.
    state = HandState.deal(AUS, 1, "hidden/pimc-model/hand")
    players = [make_player("pimc:model", s) for s in range(4)]
    while not state.is_over:
        state.apply(players[state.to_move].act(state.observation(state.to_move)))
