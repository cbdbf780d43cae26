"""Training the model of the hidden cards (:mod:`fivehundred.bots.hidden`), in NumPy.

:func:`generate` plays hands between the project's own players (``medium`` by default:
a hand costs a few milliseconds) from a seed and keeps positions of the play, each with
its true hidden cards (the labels are free: self-play knows every hand). :func:`train`
fits a multi-layer perceptron to them with hand-written back-propagation and Adam: each
hidden card's place is a softmax over the places it may lie, the loss its cross-entropy.
The training pass (:func:`activations`, which keeps every layer for back-propagation)
computes what :func:`fivehundred.bots.hidden.forward` computes at play time; a test checks
that the two agree on a tiny trained network. ``python bench/train_hidden.py`` runs both from seeds and writes
the shipped weights.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from fivehundred.bots import make_player
from fivehundred.bots.hidden import (
    FEATURES,
    PLACES,
    SCALE,
    SLOTS,
    Belief,
    Position,
    encode,
    forward,
    labels,
    place_probabilities,
)
from fivehundred.game import HandState
from fivehundred.rules import Rules, make_rules


@dataclass
class Data:
    """Positions: byte features, allowed places, true places (-1: not hidden), each
    place's room, the hand each came from and the tricks played before it."""

    x: np.ndarray  # (N, FEATURES) uint8
    allowed: np.ndarray  # (N, SLOTS, PLACES) bool
    y: np.ndarray  # (N, SLOTS) int8
    room: np.ndarray  # (N, PLACES) int16
    hand: np.ndarray  # (N,) int32
    tricks: np.ndarray  # (N,) int8

    def __len__(self) -> int:
        return len(self.x)

    def take(self, index: np.ndarray) -> Data:
        return Data(*(getattr(self, f)[index] for f in self.__dataclass_fields__))

    def position(self, i: int) -> Position:
        """Row ``i`` as a position (enough of one for :class:`~fivehundred.bots.hidden.Belief`)."""
        room = tuple(int(r) for r in self.room[i])
        return Position(self.x[i], self.allowed[i], room, (-1,) * 4, ())  # type: ignore[arg-type]


def generate(
    hands: int,
    seed: int,
    player: str = "medium",
    keep: float = 0.25,
    starts: tuple[int, ...] = (),
    rules: Rules | None = None,
) -> Data:
    """Positions from ``hands`` hands of ``player`` self-play, deals and players seeded by
    ``seed``: each play decision's mover kept with chance ``keep``; and, for each number
    of tricks in ``starts``, every seat at the start of that trick (the measuring sets:
    after the auction is ``0``)."""
    rules = rules or make_rules("australian")
    pick = random.Random(f"hidden/keep/{seed}")
    rows: list[tuple[Position, np.ndarray, int, int]] = []
    for h in range(hands):
        state = HandState.deal(rules, h % 4, f"hidden/{seed}/{h}")
        players = [make_player(player, seed * 1_000_003 + h * 4 + s) for s in range(4)]
        while not state.is_over:
            seat = state.to_move
            obs = state.observation(seat)
            if state.phase == "play":
                chosen = []
                if starts and not obs.trick and len(obs.tricks) in starts:
                    chosen = [state.observation(s) for s in range(4)]
                elif keep and pick.random() < keep:
                    chosen = [obs]
                for view in chosen:
                    position = encode(view)
                    if position is not None:
                        rows.append((position, labels(position, state.hands), h, len(view.tricks)))
            state.apply(players[seat].act(obs))
    if not rows:
        empty = np.zeros((0, FEATURES), np.uint8)
        return Data(
            empty,
            np.zeros((0, SLOTS, PLACES), bool),
            np.zeros((0, SLOTS), np.int8),
            np.zeros((0, PLACES), np.int16),
            np.zeros(0, np.int32),
            np.zeros(0, np.int8),
        )
    return Data(
        np.stack([p.features for p, _, _, _ in rows]),
        np.stack([p.allowed for p, _, _, _ in rows]),
        np.stack([y for _, y, _, _ in rows]),
        np.array([p.room for p, _, _, _ in rows], dtype=np.int16),
        np.array([h for _, _, h, _ in rows], dtype=np.int32),
        np.array([t for _, _, _, t in rows], dtype=np.int8),
    )


# ----------------------------------------------------------------------------- the network
def init(sizes: tuple[int, ...], seed: int) -> dict[str, np.ndarray]:
    """He-initialised layers ``FEATURES -> sizes... -> SLOTS * PLACES``."""
    rng = np.random.default_rng(seed)
    dims = (FEATURES, *sizes, SLOTS * PLACES)
    params = {}
    for i, (a, b) in enumerate(itertools.pairwise(dims)):
        params[f"w{i}"] = (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
        params[f"b{i}"] = np.zeros(b, dtype=np.float32)
    return params


def activations(params: dict[str, np.ndarray], x: np.ndarray) -> list[np.ndarray]:
    """The training pass: the scaled input and every layer's output (the last: logits,
    flat), kept for back-propagation."""
    layers = len([k for k in params if k.startswith("w")])
    acts = [x.astype(np.float32) * SCALE]
    for i in range(layers):
        h = acts[-1] @ params[f"w{i}"] + params[f"b{i}"]
        acts.append(np.maximum(h, 0.0) if i < layers - 1 else h)
    return acts


def loss_and_grads(
    params: dict[str, np.ndarray], x: np.ndarray, allowed: np.ndarray, y: np.ndarray
) -> tuple[float, dict[str, np.ndarray]]:
    """Mean cross-entropy a hidden card (each over its allowed places) and its gradients."""
    layers = len([k for k in params if k.startswith("w")])
    acts = activations(params, x)
    logits = acts[-1].reshape(len(x), SLOTS, PLACES)
    hidden = y >= 0
    count = max(int(hidden.sum()), 1)
    probs = place_probabilities(logits, allowed | ~hidden[..., None])
    target = np.zeros_like(probs)
    rows, cols = np.nonzero(hidden)
    target[rows, cols, y[rows, cols]] = 1.0
    picked = probs[rows, cols, y[rows, cols]]
    loss = float(-np.log(np.maximum(picked, 1e-12)).sum() / count)
    delta = ((probs - target) * hidden[..., None] / count).reshape(len(x), -1).astype(np.float32)
    grads = {}
    for i in range(layers - 1, -1, -1):
        grads[f"w{i}"] = acts[i].T @ delta
        grads[f"b{i}"] = delta.sum(axis=0)
        if i:
            delta = (delta @ params[f"w{i}"].T) * (acts[i] > 0)
    return loss, grads


def _batches(n: int, size: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    order = rng.permutation(n)
    for start in range(0, n, size):
        yield order[start : start + size]


def train(
    data: Data,
    sizes: tuple[int, ...] = (256, 256),
    epochs: int = 8,
    batch: int = 256,
    rate: float = 1e-3,
    seed: int = 0,
    log: bool = False,
) -> dict[str, np.ndarray]:
    """Fit the network to ``data`` with Adam (the rate halved for the last third of the
    epochs); deterministic for a seed."""
    params = init(sizes, seed)
    rng = np.random.default_rng(seed + 1)
    first = {k: np.zeros_like(v) for k, v in params.items()}
    second = {k: np.zeros_like(v) for k, v in params.items()}
    step = 0
    for epoch in range(epochs):
        lr = rate if epoch < epochs - max(1, epochs // 3) else rate / 2
        total = 0.0
        for index in _batches(len(data), batch, rng):
            loss, grads = loss_and_grads(params, data.x[index], data.allowed[index], data.y[index])
            total += loss * len(index)
            step += 1
            for k, g in grads.items():
                first[k] = 0.9 * first[k] + 0.1 * g
                second[k] = 0.999 * second[k] + 0.001 * g * g
                m = first[k] / (1 - 0.9**step)
                v = second[k] / (1 - 0.999**step)
                params[k] -= (lr * m / (np.sqrt(v) + 1e-8)).astype(np.float32)
        if log:
            print(f"epoch {epoch + 1}: loss {total / max(len(data), 1):.4f} a hidden card")
    return params


def log_likelihoods(
    params: dict[str, np.ndarray] | None, data: Data, power: float = 1.0
) -> np.ndarray:
    """The exact log-likelihood of each position's true hidden cards under the model's
    belief (``params``) or, with None, under the uniform distribution over consistent deals."""
    out = np.zeros(len(data))
    logits = forward(params, data.x) if params is not None else None
    for i in range(len(data)):
        position = data.position(i)
        if logits is None:
            probs = position.allowed.astype(np.float64)
        else:
            probs = place_probabilities(logits[i], position.allowed, power)
        out[i] = Belief(position, probs).log_likelihood(data.y[i])
    return out


def save(params: dict[str, np.ndarray], path: str, power: float = 1.0) -> None:
    """Write the weights (float32) and the sharpening ``power`` as an ``.npz``."""
    arrays: dict[str, Any] = {"power": np.float32(power), **params}
    np.savez_compressed(path, **arrays)


__all__ = [
    "Data",
    "activations",
    "generate",
    "init",
    "log_likelihoods",
    "loss_and_grads",
    "save",
    "train",
]
