"""Research interfaces: a PettingZoo environment, a Gymnasium single-agent wrapper and an
OpenSpiel game (see docs/env.md).

``fivehundred.env.env(preset=..., variants=..., reward=...)`` and ``raw_env(...)`` build
the PettingZoo AEC environment (``pip install 'fivehundred[env]'``);
:class:`~fivehundred.env.single.SingleAgentEnv` trains one seat or side against the
project's players; :mod:`fivehundred.env.openspiel_game` registers
``python_five_hundred`` with OpenSpiel (``fivehundred[openspiel]``);
:class:`~fivehundred.env.batched.BatchedEnv` steps thousands of four-handed tables a call
in C. The modules import
their libraries only when used.
"""

from __future__ import annotations

from typing import Any

__all__ = ["BatchedEnv", "FiveHundredEnv", "SingleAgentEnv", "env", "raw_env"]


def __getattr__(name: str) -> Any:
    if name in ("env", "raw_env", "FiveHundredEnv"):
        from fivehundred.env import aec

        return getattr(aec, name)
    if name == "BatchedEnv":
        from fivehundred.env.batched import BatchedEnv

        return BatchedEnv
    if name == "SingleAgentEnv":
        from fivehundred.env.single import SingleAgentEnv

        return SingleAgentEnv
    raise AttributeError(f"module 'fivehundred.env' has no attribute {name!r}")
