# Types of the C extension fivehundred.solver._kernel (_kernel.c); see engine.py.
from typing import Any

H_SIZE: int
ST_LEN: int
KEY_WORDS: int

def solve_dense(h: Any, st: Any, buf: Any, ttk: Any, ttc: Any, lo: int, hi: int, d: int) -> int: ...
def reach_dense(h: Any, st: Any, buf: Any, ttk: Any, ttc: Any, target: int) -> bool: ...
def move_values_dense(h: Any, st: Any, buf: Any, ttk: Any, ttc: Any, moves: Any,
                      values: Any) -> int: ...  # fmt: skip
def playouts_dense(h: Any, st: Any, tc: Any, tp: Any, side: Any, voids: Any, suitm: Any,
                   csuit: Any, n: int, seed: int, results: Any) -> int: ...  # fmt: skip
def variant() -> str: ...
def set_variant(v3: bool) -> str: ...
