"""A learning baseline on the batched environment: a linear policy (NumPy only) trained by
policy gradient for one side against ``random``, then measured in the arena against
``random``, ``easy`` and ``medium`` (see docs/env.md). A baseline to beat, not a strong
player.

    python examples/baseline_batched.py --minutes 3 --tables 1024 --eval-deals 100 --seed 1 \
        --plot curve.png
    python examples/baseline_batched.py --updates 2 --tables 64 --eval-deals 2   # a smoke run

Training: :class:`~fivehundred.env.batched.BatchedEnv` (packed observations), side 0
(seats 0 and 2, one shared policy) choosing by the policy, side 1 by the C core's random
legal actions; every table steps at once. The policy is a softmax over the legal actions
of a linear function of ``raw_env``'s observation vector; the return of each of side 0's
decisions is the side's points in that hand ÷ 100 (one hand an episode, no discount),
less a linear value baseline; Adam on the REINFORCE gradient. Evaluation: duplicate
single hands in the arena, the policy playing greedily through the ordinary player
interface (:class:`LinearPlayer`), with Wilson intervals on the hands won.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from fivehundred.actions import NUM_ACTIONS
from fivehundred.arena import run_matches, summarize
from fivehundred.arena.runner import duplicate_tasks
from fivehundred.bots import PLAYERS, Player
from fivehundred.env.batched import BatchedEnv, unpack_masks, unpack_observations
from fivehundred.env.encoding import Encoder
from fivehundred.observation import Observation
from fivehundred.rules import make_rules
from fivehundred.scoring import side_of_seats

REWARD_SCALE = 100.0


class Linear:
    """Masked softmax policy ``x @ w + b`` and a linear value ``x @ v + c``, with Adam."""

    def __init__(self, size: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.w = (rng.standard_normal((size, NUM_ACTIONS)) * 0.01).astype(np.float32)
        self.b = np.zeros(NUM_ACTIONS, np.float32)
        self.v = np.zeros(size, np.float32)
        self.c = np.float32(0.0)
        self._m = [np.zeros_like(self.w), np.zeros_like(self.b)]
        self._s = [np.zeros_like(self.w), np.zeros_like(self.b)]
        self._t = 0

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = x @ self.w + self.b
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        return p

    def update(
        self,
        x: np.ndarray,
        mask: np.ndarray,
        actions: np.ndarray,
        returns: np.ndarray,
        lr: float,
        value_lr: float,
    ) -> None:
        value = x @ self.v + self.c
        error = returns - value
        self.v += value_lr * (x.T @ error) / len(x)
        self.c += np.float32(value_lr * error.mean())
        advantage = error / (error.std() + 1e-6)
        p = self.probabilities(x, mask)
        p[np.arange(len(x)), actions] -= 1.0  # −∇ log π as logits' gradient: p − onehot
        g_logits = p * advantage[:, None] / len(x)
        grads = [x.T @ g_logits, g_logits.sum(axis=0)]
        self._t += 1
        for i, (param, grad) in enumerate(zip((self.w, self.b), grads, strict=True)):
            self._m[i] = 0.9 * self._m[i] + 0.1 * grad
            self._s[i] = 0.999 * self._s[i] + 0.001 * grad * grad
            m_hat = self._m[i] / (1 - 0.9**self._t)
            s_hat = self._s[i] / (1 - 0.999**self._t)
            param -= (lr * m_hat / (np.sqrt(s_hat) + 1e-8)).astype(np.float32)


def sample(p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row of probabilities."""
    u = rng.random((len(p), 1))
    return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), NUM_ACTIONS - 1)


def train(policy: Linear, args: argparse.Namespace) -> dict[str, Any]:
    """Policy gradient against random legal play; returns training statistics."""
    rng = np.random.default_rng(args.seed)
    env = BatchedEnv(args.tables, threads=args.threads, packed=True)
    encoder = env.encoder
    learner_side = np.array(side_of_seats(env.rules), np.int8) == 0
    obs, infos = env.reset(seed=args.seed * 1_000_003)
    n, horizon = args.tables, args.steps
    start = time.perf_counter()
    updates = hands = 0
    history: list[tuple[float, int, float]] = []
    while (args.updates and updates < args.updates) or (
        not args.updates and time.perf_counter() - start < args.minutes * 60
    ):
        store_obs = np.zeros((horizon, n, obs.shape[1]), np.uint8)
        store_mask = np.zeros((horizon, n, infos["action_mask"].shape[1]), np.uint8)
        store_act = np.zeros((horizon, n), np.int64)
        mine = np.zeros((horizon, n), bool)
        reward = np.zeros((horizon, n), np.float32)
        done = np.zeros((horizon, n), bool)
        for t in range(horizon):
            to_move = infos["to_move"]
            actions = env.sample_actions()
            rows = np.flatnonzero(learner_side[to_move])
            x = unpack_observations(obs[rows], encoder)
            mask = unpack_masks(infos["action_mask"][rows]).astype(bool)
            actions[rows] = sample(policy.probabilities(x, mask), rng)
            store_obs[t], store_mask[t], store_act[t] = obs, infos["action_mask"], actions
            mine[t, rows] = True
            obs, rewards, terminations, _, infos = env.step(actions)
            reward[t] = rewards[:, 0] / REWARD_SCALE
            done[t] = terminations
        # each decision's return: its hand's points (steps of a hand not over are left out)
        returns = np.zeros((horizon, n), np.float32)
        ended = np.zeros((horizon, n), bool)
        g = np.zeros(n, np.float32)
        over = np.zeros(n, bool)
        for t in reversed(range(horizon)):
            g = np.where(done[t], reward[t], g)
            over = done[t] | over
            returns[t], ended[t] = g, over
        keep = mine & ended
        if keep.any():
            x = unpack_observations(store_obs[keep], encoder)
            mask = unpack_masks(store_mask[keep]).astype(bool)
            policy.update(x, mask, store_act[keep], returns[keep], args.lr, args.value_lr)
        updates += 1
        finished = reward[done]
        hands += len(finished)
        mean = float(finished.mean() * REWARD_SCALE) if len(finished) else 0.0
        history.append((time.perf_counter() - start, hands, mean))
        if not args.quiet:
            print(
                f"update {updates:>4}  {history[-1][0]:>6.0f} s  hands {hands:>8,}  "
                f"side 0 points per hand {mean:+7.1f}",
                flush=True,
            )
    return {"updates": updates, "hands": hands, "history": history}


class LinearPlayer(Player):
    """The trained policy as an arena player (greedy over the legal actions)."""

    name = "linear"
    policy: Linear | None = None

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.encoder: Encoder | None = None

    def act(self, observation: Observation) -> int:
        if self.encoder is None or self.encoder.rules != observation.rules:
            self.encoder = Encoder(observation.rules)
        assert LinearPlayer.policy is not None
        x = self.encoder.encode_observation(observation)[None]
        mask = np.zeros((1, NUM_ACTIONS), bool)
        mask[0, list(observation.legal)] = True
        self._reason = "the linear policy's choice"
        return int(LinearPlayer.policy.probabilities(x, mask)[0].argmax())


def evaluate(policy: Linear, opponent: str, deals: int, seed: int) -> Any:
    """Duplicate single hands in the arena: the policy as team A against ``opponent``."""
    LinearPlayer.policy = policy
    PLAYERS["linear"] = LinearPlayer  # serial run in this process: built by name
    try:
        tasks = duplicate_tasks(make_rules(), "linear", opponent, deals, seed, single_hand=True)
        return summarize(run_matches(tasks, workers=1), "linear", opponent)
    finally:
        del PLAYERS["linear"]  # the registry as it was, for whatever runs next


def plot(history: list[tuple[float, int, float]], path: str) -> None:
    """The learning curve: side 0's points per hand in each update's hands."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot([h for _, h, _ in history], [p for _, _, p in history])
    axes.axhline(0, color="grey", linewidth=0.5)
    axes.set_xlabel("training hands (batched environment)")
    axes.set_ylabel("side 0's points per hand")
    axes.set_title("Linear policy against random legal play")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time")
    parser.add_argument("--updates", type=int, default=0, help="stop after N updates instead")
    parser.add_argument("--tables", type=int, default=1024, help="batched tables")
    parser.add_argument("--threads", type=int, default=2, help="the batched core's threads")
    parser.add_argument(
        "--steps",
        type=int,
        default=64,
        help="steps per table per update (a hand played out is 45 to 55 steps)",
    )
    parser.add_argument("--lr", type=float, default=3e-3, help="Adam's step for the policy")
    parser.add_argument("--value-lr", type=float, default=1e-2, help="the baseline's step")
    parser.add_argument("--eval-deals", type=int, default=100, help="duplicate deals a match")
    parser.add_argument(
        "--opponents", default="random,easy,medium", help="arena opponents, comma-separated"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", help="write the trained weights here (.npz)")
    parser.add_argument("--plot", help="draw the learning curve to this PNG (matplotlib)")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    size = Encoder(make_rules()).size
    policy = Linear(size, args.seed)
    start = time.perf_counter()
    stats = train(policy, args)
    print(
        f"trained: {stats['updates']} updates, {stats['hands']:,} hands in "
        f"{time.perf_counter() - start:.0f} s"
    )
    if args.plot:
        plot(stats["history"], args.plot)
    if args.save:
        np.savez(args.save, w=policy.w, b=policy.b, v=policy.v, c=policy.c)
    for opponent in [o for o in args.opponents.split(",") if o] if args.eval_deals > 0 else []:
        s = evaluate(policy, opponent, args.eval_deals, args.seed + 1000)
        lo, hi = s.win_interval
        mean, dlo, dhi = s.difference
        print(
            f"linear vs {opponent:<7}: hands won {s.win_rate:.1%} ({lo:.1%}–{hi:.1%}), "
            f"points per hand A − B {mean:+.1f} ({dlo:+.1f} to {dhi:+.1f}), "
            f"{s.deals} duplicate deals",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
