"""Train a masked-action PPO policy for one side against ``random``, then measure it in the
arena against ``random`` and ``heuristic`` (PyTorch, CPU; see docs/env.md).

    pip install torch            # CPU is enough
    python examples/train_ppo.py --minutes 5 --eval-deals 200 --seed 1 --save ppo.pt
    python examples/train_ppo.py --load ppo.pt --eval-deals 500     # evaluate only

Training: :class:`~fivehundred.env.single.SingleAgentEnv` with the learner on side 0
(both partnership seats share the policy), one hand an episode, the reward the side's
points ÷ 100 at the end of the hand; several environments step in lockstep so the policy
runs on batches. The policy is an MLP over the observation vector whose logits are masked
to the legal actions. Evaluation: the arena's duplicate matches (single hands), the
trained policy playing through the ordinary player interface (:class:`PolicyPlayer`:
observation in, action out, greedy), with Wilson intervals.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import torch
from torch import nn

from fivehundred.actions import NUM_ACTIONS
from fivehundred.arena import run_matches, summarize
from fivehundred.arena.runner import duplicate_tasks
from fivehundred.bots import PLAYERS, Player
from fivehundred.env.encoding import Encoder
from fivehundred.env.single import SingleAgentEnv
from fivehundred.observation import Observation
from fivehundred.rules import make_rules

REWARD_SCALE = 100.0


class Policy(nn.Module):
    """Shared trunk, masked action logits and a value."""

    def __init__(self, size: int, hidden: int = 256) -> None:
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.logits = nn.Linear(hidden, NUM_ACTIONS)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.trunk(obs)
        logits = self.logits(h).masked_fill(~mask, -1e9)
        return logits, self.value(h).squeeze(-1)


class PolicyPlayer(Player):
    """The trained policy as an arena player (greedy over the legal actions)."""

    name = "ppo"
    policy: Policy | None = None

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.encoder: Encoder | None = None

    def act(self, observation: Observation) -> int:
        if self.encoder is None or self.encoder.rules != observation.rules:
            self.encoder = Encoder(observation.rules)
        assert PolicyPlayer.policy is not None
        vector = torch.from_numpy(self.encoder.encode_observation(observation))[None]
        mask = torch.zeros(1, NUM_ACTIONS, dtype=torch.bool)
        mask[0, list(observation.legal)] = True
        with torch.no_grad():
            logits, _ = PolicyPlayer.policy(vector, mask)
        self._reason = "the trained policy's choice"
        return int(logits.argmax())


def train(policy: Policy, args: argparse.Namespace) -> dict[str, Any]:
    """PPO with GAE over lockstep environments; returns training statistics."""
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    envs = [
        SingleAgentEnv(opponents=args.opponent, side=0, seed=args.seed * 1000 + i)
        for i in range(args.envs)
    ]
    obs = [env.reset(seed=args.seed * 1000 + i)[0] for i, env in enumerate(envs)]
    optimiser = torch.optim.Adam(policy.parameters(), lr=args.lr)
    start = time.perf_counter()
    updates = 0
    finished: list[float] = []
    returns_now = [0.0] * len(envs)
    history = []
    while True:
        if args.updates and updates >= args.updates:
            break
        if not args.updates and time.perf_counter() - start > args.minutes * 60:
            break
        batch: dict[str, list[Any]] = {
            k: [] for k in ("obs", "mask", "act", "logp", "val", "rew", "done")
        }
        for _ in range(args.steps):
            o = torch.from_numpy(np.stack([x["observation"] for x in obs]))
            m = torch.from_numpy(np.stack([x["action_mask"] for x in obs]).astype(bool))
            with torch.no_grad():
                logits, value = policy(o, m)
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample(generator=None) if args.sample else dist.sample()
            rewards, dones = [], []
            for i, env in enumerate(envs):
                nxt, reward, terminated, truncated, _ = env.step(int(action[i]))
                returns_now[i] += reward
                done = terminated or truncated
                if done:
                    finished.append(returns_now[i])
                    returns_now[i] = 0.0
                    nxt, _ = env.reset(seed=int(rng.integers(1 << 31)))
                obs[i] = nxt
                rewards.append(reward / REWARD_SCALE)
                dones.append(done)
            batch["obs"].append(o)
            batch["mask"].append(m)
            batch["act"].append(action)
            batch["logp"].append(dist.log_prob(action))
            batch["val"].append(value)
            batch["rew"].append(torch.tensor(rewards))
            batch["done"].append(torch.tensor(dones, dtype=torch.float32))
        with torch.no_grad():
            o = torch.from_numpy(np.stack([x["observation"] for x in obs]))
            m = torch.from_numpy(np.stack([x["action_mask"] for x in obs]).astype(bool))
            _, last_value = policy(o, m)
        values = torch.stack(batch["val"])
        rewards_t = torch.stack(batch["rew"])
        dones_t = torch.stack(batch["done"])
        advantages = torch.zeros_like(rewards_t)
        gae = torch.zeros(len(envs))
        for t in reversed(range(args.steps)):
            next_value = last_value if t == args.steps - 1 else values[t + 1]
            delta = rewards_t[t] + args.gamma * next_value * (1 - dones_t[t]) - values[t]
            gae = delta + args.gamma * args.lam * (1 - dones_t[t]) * gae
            advantages[t] = gae
        targets = advantages + values
        flat = {
            "obs": torch.cat(batch["obs"]),
            "mask": torch.cat(batch["mask"]),
            "act": torch.cat(batch["act"]),
            "logp": torch.cat(batch["logp"]),
            "adv": advantages.reshape(-1),
            "ret": targets.reshape(-1),
        }
        flat["adv"] = (flat["adv"] - flat["adv"].mean()) / (flat["adv"].std() + 1e-8)
        size = flat["act"].shape[0]
        for _ in range(args.epochs):
            order = torch.randperm(size)
            for begin in range(0, size, args.minibatch):
                idx = order[begin : begin + args.minibatch]
                logits, value = policy(flat["obs"][idx], flat["mask"][idx])
                dist = torch.distributions.Categorical(logits=logits)
                logp = dist.log_prob(flat["act"][idx])
                ratio = (logp - flat["logp"][idx]).exp()
                adv = flat["adv"][idx]
                policy_loss = -torch.min(ratio * adv, ratio.clamp(0.8, 1.2) * adv).mean()
                value_loss = (value - flat["ret"][idx]).pow(2).mean()
                entropy = dist.entropy().mean()
                loss = policy_loss + 0.5 * value_loss - args.entropy * entropy
                optimiser.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                optimiser.step()
        updates += 1
        recent = finished[-200:]
        mean = sum(recent) / len(recent) if recent else 0.0
        history.append(mean)
        if not args.quiet:
            print(
                f"update {updates:>4}  {time.perf_counter() - start:>6.0f} s  "
                f"hands {len(finished):>6}  points per hand (last 200) {mean:+7.1f}",
                flush=True,
            )
    for env in envs:
        env.close()
    return {"updates": updates, "hands": len(finished), "history": history}


def evaluate(policy: Policy, opponent: str, deals: int, seed: int) -> Any:
    """Duplicate single hands in the arena: the policy as team A against ``opponent``."""
    PolicyPlayer.policy = policy
    PLAYERS["ppo"] = PolicyPlayer  # serial run in this process: the arena builds it by name
    tasks = duplicate_tasks(make_rules(), "ppo", opponent, deals, seed, single_hand=True)
    return summarize(run_matches(tasks, workers=1), "ppo", opponent)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="training time")
    parser.add_argument("--updates", type=int, default=0, help="stop after N updates instead")
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--steps", type=int, default=64, help="steps per env per update")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=1.0)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--opponent", default="random", help="training opponent")
    parser.add_argument("--eval-deals", type=int, default=200, help="duplicate deals per match")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", help="write the trained weights here")
    parser.add_argument("--load", help="evaluate these weights (no training)")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    args.sample = False
    torch.set_num_threads(1)
    size = Encoder(make_rules()).size
    policy = Policy(size)
    if args.load:
        policy.load_state_dict(torch.load(args.load))
    else:
        stats = train(policy, args)
        print(f"trained: {stats['updates']} updates, {stats['hands']} hands")
        if args.save:
            torch.save(policy.state_dict(), args.save)
    policy.eval()
    if args.eval_deals <= 0:
        return 0
    for opponent in ("random", "heuristic"):
        s = evaluate(policy, opponent, args.eval_deals, args.seed + 1000)
        lo, hi = s.win_interval
        mean, dlo, dhi = s.difference
        print(
            f"ppo vs {opponent:<9}: hands won {s.win_rate:.1%} ({lo:.1%}–{hi:.1%}), "
            f"points per hand A − B {mean:+.1f} ({dlo:+.1f} to {dhi:+.1f}), "
            f"{s.deals} duplicate deals"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
