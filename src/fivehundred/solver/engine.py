# mypy: ignore-errors
# (numba kernels: typed by numba, not by mypy; the public API in __init__ is typed)
"""Compiled (numba) kernels of the double-dummy solver and the random playouts.

Everything here works on a *dense position*: the cards still in play (in the hands and in
the trick in progress) are renumbered 0..N-1 (N <= 64) so that each effective suit is a
contiguous block ordered by trick-taking power, the trump block including the bowers and
the jokers, and a last block (suit 4) holding the unnominated ("free") jokers of no trumps
and misère. A hand is then one ``uint64`` and a card's rank *relative to the cards still
out* is its place in its block, which is what makes equivalent (touching) cards and the
transposition-table key cheap. :mod:`fivehundred.solver.position` builds these arrays.

The arrays (all ``int64`` unless said):

``h``       uint64[8]   hand of each active player (index 0..P-1 in turn order)
``st``      int64[16]   scalars, indexed by the ``S_*`` constants below
``tc, tp``  int64[80]   cards and players played, by search depth: the trick in progress
                        is ``tc[d - st[S_TCOUNT]:d]`` where ``d`` is the depth of the node
                        (the root's trick in progress is ``tc[0:st[S_TCOUNT]]``)
``side``    int64[8]    1 for the contracting side (the misère contractor alone), else 0
``voids``   int64[8]    4-bit masks of suits each player has shown void in (R-JOKER 5 variant)
``suitm``   uint64[5]   dense cards of each effective suit; 4 = free jokers
``csuit``   int64[64]   effective suit of each dense card (4 = free joker)
``crank``   int64[64]   place of each dense card in its suit block (for move ordering)

A move is encoded ``card * 8 + nomination`` where nomination is the suit (0..3) a free
joker is led as, and 4 for every other play.

The search is a zero-window alpha-beta ("can the contracting side still take ``target``
more tricks?") with a transposition table at trick starts. The table is keyed on the
relative position (who holds each card still out, in suit and power order, plus the leader
and, while a free joker is out, the state the joker-lead rule reads), so positions that
differ only in which small cards were played share an entry. Bounds stored are lower/upper
bounds on the contracting side's remaining tricks. Generations make clearing free.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

U0 = np.uint64(0)
U1 = np.uint64(1)
U15 = np.uint64(15)

# st[] layout
S_P = 0  # number of active players
S_TRUMP = 1  # trump suit block 0..3, or -1 (no trumps, misère)
S_MISERE = 2  # 1 in misère: the contractor minimises, a void free-joker holder must play it
S_JLMODE = 3  # joker-lead rule: 0 suit not yet led (default), 1 suit not renounced by leader
S_SUITSLED = 4  # 4-bit mask of suits led this hand
S_TCOUNT = 5  # cards in the trick in progress
S_LED = 6  # suit led to the trick in progress
S_TOMOVE = 7  # active player to move
S_LEFT = 8  # tricks left, counting the trick in progress
S_NODES = 9  # node counter (statistics)
S_GEN = 10  # transposition-table generation of this search
ST_SIZE = 16

MAX_DEPTH = 72
MAX_MOVES = 48
NOMINATION_NONE = 4

_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)
_M3 = np.uint64(0x165667B19E3779F9)
_M4 = np.uint64(0x27D4EB2F165667C5)


@njit(cache=True, inline="always")
def _popcount(x: np.uint64) -> int:
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def _bits_above(c: int) -> np.uint64:
    """Mask of the dense cards strictly above ``c``."""
    return ~(((U1 << np.uint64(c)) << U1) - U1)


@njit(cache=True, inline="always")
def _trick_winner(tc, start, n, led, trump, csuit) -> int:  # type: ignore[no-untyped-def]
    """Index in ``tc`` of the winning card of the trick ``tc[start:start + n]``: a free
    joker, else the highest trump, else the highest card of the suit led (R-PLAY,
    R-JOKER 2)."""
    best = -1
    best_class = -1
    best_index = start
    for i in range(start, start + n):
        c = tc[i]
        s = csuit[c]
        if s == 4:
            cls = 3
        elif s == trump:
            cls = 2
        elif s == led:
            cls = 1
        else:
            continue
        if cls > best_class or (cls == best_class and c > best):
            best_class = cls
            best = c
            best_index = i
    return best_index


@njit(cache=True, inline="always")
def _joker_lead_suits(st, voids, p) -> int:  # type: ignore[no-untyped-def]
    """Suits a free joker may be led as (R-JOKER 5), as in ``HandState._joker_lead_suits``."""
    if st[S_JLMODE] == 1:
        allowed = 15 & ~voids[p]
    else:
        allowed = 15 & ~st[S_SUITSLED]
    if allowed == 0 and st[S_LEFT] == 1:
        allowed = 15
    return allowed


@njit(cache=True)
def _gen_moves(h, st, tc, tp, side, voids, suitm, csuit, crank, out_moves, reduce, d, pref):  # type: ignore[no-untyped-def]
    """Legal moves of the player to move, ordered best-first, into ``out_moves[:n]``
    (``out_moves[MAX_MOVES:]`` holds their scores); returns n. With ``reduce``, only one
    card of each run of equivalent cards. ``pref``: a move to try first (-1: none)."""
    p = st[S_TOMOVE]
    tcount = st[S_TCOUNT]
    misere = st[S_MISERE]
    trump = st[S_TRUMP]
    P = st[S_P]
    hand = h[p]
    out = U0
    for i in range(P):
        out |= h[i]
    start = d - tcount
    for i in range(start, d):
        out |= U1 << np.uint64(tc[i])
    free = suitm[4]
    led = st[S_LED]
    if tcount > 0:
        legal = hand & suitm[led]
        if legal == U0:
            if misere == 1 and (hand & free) != U0:
                legal = hand & free
            else:
                legal = hand
    else:
        legal = hand
    # current winner of the trick in progress, for ordering
    win_card = -1
    win_player = -1
    if tcount > 0:
        wi = _trick_winner(tc, start, tcount, led, trump, csuit)
        win_card = tc[wi]
        win_player = tp[wi]
    n = 0
    prev = -1
    m = legal
    while m != U0:
        c = np.int64(trailing_zeros(m))
        m &= m - U1
        s = csuit[c]
        if reduce and prev >= 0 and csuit[prev] == s:
            between = out & ((U1 << np.uint64(c)) - U1) & _bits_above(prev)
            if between == U0:
                prev = c
                continue
        prev = c
        rank = crank[c]
        top = (out & suitm[s] & _bits_above(c)) == U0
        if tcount == 0:
            if s == 4:
                # a free joker is led with a nomination: one move per allowed suit
                allowed = _joker_lead_suits(st, voids, p)
                for nom in range(4):
                    if (allowed >> nom) & 1:
                        out_moves[n] = c * 8 + nom
                        out_moves[MAX_MOVES + n] = (-100 if misere == 1 and side[p] == 1
                                                    else 80) - nom  # fmt: skip
                        if c * 8 + nom == pref:
                            out_moves[MAX_MOVES + n] = 1000
                        n += 1
                continue
            if misere == 1:
                score = 50 - rank
            elif top:
                score = 100 + (5 if s == trump else 0)
            else:
                # lead towards the partner's winner, else lead low
                highest = out & suitm[s]
                holder_is_partner = False
                if highest != U0:
                    t = 63 - np.int64(leading_zeros(highest))
                    for i in range(P):
                        if i != p and side[i] == side[p] and ((h[i] >> np.uint64(t)) & U1) != U0:
                            holder_is_partner = True
                score = (60 if holder_is_partner else 30) - rank
        else:
            # does c beat the current winner?
            ws = csuit[win_card]
            if s == 4:
                beats = ws != 4 or c > win_card
            elif ws == 4:
                beats = False
            elif s == trump:
                beats = ws != trump or c > win_card
            elif ws == trump and trump >= 0:
                beats = False
            else:
                beats = s == led and c > win_card
            if misere == 1:
                if side[p] == 1:
                    score = (60 + rank) if not beats else (10 + rank)
                elif side[win_player] == 1:
                    score = (60 + rank) if not beats else (0 - rank)
                else:
                    score = 50 - rank
            elif side[win_player] == side[p]:
                score = (50 - rank) if not beats else (0 - rank)
            else:
                score = (70 - rank) if beats else (20 - rank)
        mv = c * 8 + NOMINATION_NONE
        out_moves[n] = mv
        out_moves[MAX_MOVES + n] = 1000 if mv == pref else score
        n += 1
    # insertion sort, best first
    for i in range(1, n):
        mv = out_moves[i]
        sc = out_moves[MAX_MOVES + i]
        j = i - 1
        while j >= 0 and out_moves[MAX_MOVES + j] < sc:
            out_moves[MAX_MOVES + j + 1] = out_moves[MAX_MOVES + j]
            out_moves[j + 1] = out_moves[j]
            j -= 1
        out_moves[MAX_MOVES + j + 1] = sc
        out_moves[j + 1] = mv
    return n


@njit(cache=True, inline="always")
def _quick_tricks(h, P, p, side, suitm, trump, out) -> int:  # type: ignore[no-untyped-def]
    """Tricks the leader can cash from the top without giving up the lead: the top run of
    each suit, where no opponent can ruff (only trumps when opponents hold trumps or a free
    joker)."""
    opp = U0
    for i in range(P):
        if side[i] != side[p]:
            opp |= h[i]
    danger = (opp & suitm[4]) != U0 or (trump >= 0 and (opp & suitm[trump]) != U0)
    q = 0
    mine = h[p]
    for s in range(4):
        if danger and s != trump:
            continue
        so = out & suitm[s]
        while so != U0:
            t = 63 - np.int64(leading_zeros(so))
            if ((mine >> np.uint64(t)) & U1) == U0:
                break
            q += 1
            so ^= U1 << np.uint64(t)
    return q


@njit(cache=True, inline="always")
def _position_key(h, st, voids, suitm, P, p, out):  # type: ignore[no-untyped-def]
    """Relative key of a trick-start position: 3 bits of owner per card still out, in
    suit/power order (21 cards a word), then suit lengths, leader and joker-lead state."""
    w0 = U0
    w1 = U0
    w2 = U0
    i = 0
    m = out
    while m != U0:
        c = np.int64(trailing_zeros(m))
        bit = U1 << np.uint64(c)
        m &= m - U1
        owner = 0
        for j in range(P):
            if (h[j] & bit) != U0:
                owner = j
                break
        code = np.uint64(owner) << np.uint64(3 * (i % 21))
        word = i // 21
        if word == 0:
            w0 |= code
        elif word == 1:
            w1 |= code
        else:
            w2 |= code
        i += 1
    w3 = U0
    for s in range(5):
        w3 |= np.uint64(_popcount(out & suitm[s])) << np.uint64(6 * s)
    w3 |= np.uint64(p) << np.uint64(30)
    if (out & suitm[4]) != U0:
        if st[S_JLMODE] == 1:
            v = U0
            for j in range(P):
                v |= np.uint64(voids[j]) << np.uint64(4 * j)
            w3 |= v << np.uint64(33)
        else:
            w3 |= np.uint64(st[S_SUITSLED]) << np.uint64(33)
    return w0, w1, w2, w3


@njit(cache=True, inline="always")
def _tt_find(ttk, ttg, gen, w0, w1, w2, w3) -> int:  # type: ignore[no-untyped-def]
    mask = ttg.shape[0] - 1
    x = w0 * _M1 ^ w1 * _M2 ^ w2 * _M3 ^ w3 * _M4
    x ^= x >> np.uint64(31)
    base = int(x & np.uint64(mask))
    for k in range(4):
        slot = (base + k) & mask
        if ttg[slot] != gen:
            return -1 - slot  # free slot: store here
        if ttk[slot, 0] == w0 and ttk[slot, 1] == w1 and ttk[slot, 2] == w2 and ttk[slot, 3] == w3:
            return slot
    return -1 - base  # full: replace the first


@njit(cache=True, inline="always")
def _sure_tricks(h, P, side, suitm, trump, out):  # type: ignore[no-untyped-def]
    """Tricks each side is sure of whatever happens: the hand holding the highest card of
    the pack still out (a free joker in no trumps/misère, else the top trump) wins a trick
    with it and with each card of its unbroken run below it. Returns (contracting,
    defending)."""
    b = -1
    if (out & suitm[4]) != U0:
        b = 4
    elif trump >= 0 and (out & suitm[trump]) != U0:
        b = trump
    if b < 0:
        return 0, 0
    so = out & suitm[b]
    t = 63 - np.int64(leading_zeros(so))
    owner = 0
    for j in range(P):
        if ((h[j] >> np.uint64(t)) & U1) != U0:
            owner = j
    k = 0
    while so != U0:
        t = 63 - np.int64(leading_zeros(so))
        if ((h[owner] >> np.uint64(t)) & U1) == U0:
            break
        k += 1
        so ^= U1 << np.uint64(t)
    if side[owner] == 1:
        return k, 0
    return 0, k


@njit(cache=True)
def _search(h, st, tc, tp, side, voids, suitm, csuit, crank, buf, ttk, ttb, ttg, target, d):  # type: ignore[no-untyped-def]
    """Can the contracting side take at least ``target`` more tricks (counting the trick in
    progress) with best play by all? Zero-window alpha-beta; ``d`` is the number of cards
    played since the root position (plus the root's trick in progress)."""
    left = st[S_LEFT]
    if target <= 0:
        return True
    if target > left:
        return False
    st[S_NODES] += 1
    P = st[S_P]
    tcount = st[S_TCOUNT]
    p = st[S_TOMOVE]
    misere = st[S_MISERE]
    trump = st[S_TRUMP]
    slot = -1
    pref = -1
    out = U0
    if tcount == 0:
        if left == 1:
            # last trick: every card is forced; a led free joker wins whatever it names
            for i in range(P):
                q = (p + i) % P
                tc[d + i] = np.int64(trailing_zeros(h[q]))
                tp[d + i] = q
            led = csuit[tc[d]]
            w = tp[_trick_winner(tc, d, P, led, trump, csuit)]
            return side[w] >= target
        for i in range(P):
            out |= h[i]
        w0, w1, w2, w3 = _position_key(h, st, voids, suitm, P, p, out)
        gen = st[S_GEN]
        found = _tt_find(ttk, ttg, gen, w0, w1, w2, w3)
        if found >= 0:
            slot = found
            if ttb[slot, 0] >= target:
                return True
            if ttb[slot, 1] < target:
                return False
            code = np.int64(ttb[slot, 2])
            if code >= 0:
                # best move stored as (suit, rank among the cards out in it, nomination)
                bs = code >> 9
                rel = (code >> 3) & 63
                m = out & suitm[bs]
                for _ in range(rel):
                    m &= m - U1
                if m != U0:
                    pref = np.int64(trailing_zeros(m)) * 8 + (code & 7)
        else:
            lo = 0
            hi = left
            sc, sd = _sure_tricks(h, P, side, suitm, trump, out)
            if sc > lo:
                lo = sc
            if left - sd < hi:
                hi = left - sd
            if misere == 0:
                q = _quick_tricks(h, P, p, side, suitm, trump, out)
                if side[p] == 1:
                    if q > lo:
                        lo = q
                elif left - q < hi:
                    hi = left - q
            slot = -1 - found
            ttg[slot] = gen
            ttk[slot, 0] = w0
            ttk[slot, 1] = w1
            ttk[slot, 2] = w2
            ttk[slot, 3] = w3
            ttb[slot, 0] = lo
            ttb[slot, 1] = hi
            ttb[slot, 2] = -1
            if lo >= target:
                return True
            if hi < target:
                return False
    moves = buf[d]
    n = _gen_moves(h, st, tc, tp, side, voids, suitm, csuit, crank, moves, True, d, pref)
    maxim = (side[p] ^ misere) == 1
    result = not maxim
    best = -1
    for i in range(n):
        mv = moves[i]
        c = mv >> 3
        nom = mv & 7
        bit = U1 << np.uint64(c)
        old_led = st[S_LED]
        old_led_mask = st[S_SUITSLED]
        old_void = voids[p]
        h[p] ^= bit
        if tcount == 0:
            led = nom if csuit[c] == 4 else csuit[c]
            st[S_LED] = led
            st[S_SUITSLED] = old_led_mask | (1 << led)
        else:
            led = old_led
            if csuit[c] != led:
                voids[p] = old_void | (1 << led)
        tc[d] = c
        tp[d] = p
        if tcount + 1 == P:
            w = tp[_trick_winner(tc, d - tcount, P, led, trump, csuit)]
            st[S_TCOUNT] = 0
            st[S_TOMOVE] = w
            st[S_LEFT] = left - 1
            r = _search(h, st, tc, tp, side, voids, suitm, csuit, crank, buf, ttk, ttb, ttg,
                        target - side[w], d + 1)  # fmt: skip
            st[S_LEFT] = left
        else:
            st[S_TCOUNT] = tcount + 1
            st[S_TOMOVE] = (p + 1) % P
            r = _search(h, st, tc, tp, side, voids, suitm, csuit, crank, buf, ttk, ttb, ttg,
                        target, d + 1)  # fmt: skip
        st[S_TCOUNT] = tcount
        st[S_TOMOVE] = p
        st[S_LED] = old_led
        st[S_SUITSLED] = old_led_mask
        voids[p] = old_void
        h[p] ^= bit
        if r == maxim:
            result = r
            best = mv
            break
    if slot >= 0 and ttg[slot] == st[S_GEN]:
        if result:
            if target > ttb[slot, 0]:
                ttb[slot, 0] = target
        elif target - 1 < ttb[slot, 1]:
            ttb[slot, 1] = target - 1
        if best >= 0:
            c = best >> 3
            bs = csuit[c]
            rel = _popcount(out & suitm[bs] & ((U1 << np.uint64(c)) - U1))
            ttb[slot, 2] = (bs << 9) | (rel << 3) | (best & 7)
    return result


@njit(cache=True)
def solve_dense(h, st, tc, tp, side, voids, suitm, csuit, crank, buf, ttk, ttb, ttg, lo, hi, d):  # type: ignore[no-untyped-def]
    """Exact number of further tricks the contracting side takes (within ``lo..hi``), by
    a binary search of zero-window searches sharing the transposition table. ``d``: the
    depth of the node (at the root, the number of cards in the trick in progress)."""
    while lo < hi:
        mid = (lo + hi + 1) // 2
        ok = _search(h, st, tc, tp, side, voids, suitm, csuit, crank, buf, ttk, ttb, ttg, mid, d)
        if ok:
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=True)
def reach_dense(h, st, tc, tp, side, voids, suitm, csuit, crank, buf, ttk, ttb, ttg, target):  # type: ignore[no-untyped-def]
    """Zero-window: can the contracting side take ``target`` more tricks? (At the root.)"""
    return _search(h, st, tc, tp, side, voids, suitm, csuit, crank, buf, ttk, ttb, ttg, target,
                   st[S_TCOUNT])  # fmt: skip


@njit(cache=True)
def move_values_dense(h, st, tc, tp, side, voids, suitm, csuit, crank, buf, ttk, ttb, ttg,  # type: ignore[no-untyped-def]
                      moves, values):  # fmt: skip
    """All legal moves of the player to move (unreduced, into ``moves``) and, for each, the
    contracting side's further tricks after it with best play (into ``values``); returns
    the number of moves. Equivalent cards are solved once."""
    d = st[S_TCOUNT]
    n = _gen_moves(h, st, tc, tp, side, voids, suitm, csuit, crank, moves, False, d, -1)
    p = st[S_TOMOVE]
    P = st[S_P]
    tcount = st[S_TCOUNT]
    trump = st[S_TRUMP]
    left = st[S_LEFT]
    out = U0
    for i in range(P):
        out |= h[i]
    for i in range(tcount):
        out |= U1 << np.uint64(tc[i])
    for i in range(n):
        mv = moves[i]
        c = mv >> 3
        nom = mv & 7
        # equal to an earlier move with a touching card of the same hand and suit?
        done = False
        for j in range(i):
            c2 = moves[j] >> 3
            if (moves[j] & 7) != nom or csuit[c2] != csuit[c] or nom != NOMINATION_NONE:
                continue
            a = min(c, c2)
            b = max(c, c2)
            if (out & ((U1 << np.uint64(b)) - U1) & _bits_above(a) & ~h[p]) == U0:
                values[i] = values[j]
                done = True
                break
        if done:
            continue
        bit = U1 << np.uint64(c)
        old_led = st[S_LED]
        old_led_mask = st[S_SUITSLED]
        old_void = voids[p]
        h[p] ^= bit
        if tcount == 0:
            led = nom if csuit[c] == 4 else csuit[c]
            st[S_LED] = led
            st[S_SUITSLED] = old_led_mask | (1 << led)
        else:
            led = old_led
            if csuit[c] != led:
                voids[p] = old_void | (1 << led)
        tc[d] = c
        tp[d] = p
        if tcount + 1 == P:
            w = tp[_trick_winner(tc, 0, P, led, trump, csuit)]
            st[S_TCOUNT] = 0
            st[S_TOMOVE] = w
            st[S_LEFT] = left - 1
            values[i] = side[w] + solve_dense(h, st, tc, tp, side, voids, suitm, csuit, crank,
                                              buf, ttk, ttb, ttg, 0, left - 1, d + 1)  # fmt: skip
        else:
            st[S_TCOUNT] = tcount + 1
            st[S_TOMOVE] = (p + 1) % P
            values[i] = solve_dense(h, st, tc, tp, side, voids, suitm, csuit, crank, buf,
                                    ttk, ttb, ttg, 0, left, d + 1)  # fmt: skip
        st[S_LEFT] = left
        st[S_TCOUNT] = tcount
        st[S_TOMOVE] = p
        st[S_LED] = old_led
        st[S_SUITSLED] = old_led_mask
        voids[p] = old_void
        h[p] ^= bit
    return n


@njit(cache=True)
def playouts_dense(h0, st0, tc0, tp0, side, voids0, suitm, csuit, n, seed, results):  # type: ignore[no-untyped-def]
    """``n`` uniformly random playouts (each legal action equally likely, a free joker led
    once per suit it may name) to the end of the hand; ``results[k]`` is the contracting
    side's further tricks in playout ``k``."""
    x = np.uint64(seed) * _M1 + np.uint64(0x632BE59BD9B4E019)
    if x == U0:
        x = U1
    h = h0.copy()
    st = st0.copy()
    tc = tc0.copy()
    tp = tp0.copy()
    voids = voids0.copy()
    P = st0[S_P]
    trump = st0[S_TRUMP]
    misere = st0[S_MISERE]
    free = suitm[4]
    for k in range(n):
        for i in range(P):
            h[i] = h0[i]
            voids[i] = voids0[i]
        for i in range(ST_SIZE):
            st[i] = st0[i]
        tcount = st0[S_TCOUNT]
        for i in range(tcount):
            tc[i] = tc0[i]
            tp[i] = tp0[i]
        p = st0[S_TOMOVE]
        left = st0[S_LEFT]
        led = st0[S_LED]
        total = 0
        while left > 0:
            hand = h[p]
            # xorshift64*
            x ^= x >> np.uint64(12)
            x ^= x << np.uint64(25)
            x ^= x >> np.uint64(27)
            r = (x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32)
            nom = -1
            if tcount == 0:
                plain = hand & ~free
                jokers = hand & free
                count = _popcount(plain)
                allowed = 0
                if jokers != U0:
                    allowed = _joker_lead_suits(st, voids, p)
                    count += _popcount(jokers) * _popcount(np.uint64(allowed))
                pick = int((r * np.uint64(count)) >> np.uint64(32))
                np_plain = _popcount(plain)
                if pick < np_plain:
                    m = plain
                    for _ in range(pick):
                        m &= m - U1
                    c = np.int64(trailing_zeros(m))
                else:
                    pick -= np_plain
                    na = _popcount(np.uint64(allowed))
                    m = jokers
                    for _ in range(pick // na):
                        m &= m - U1
                    c = np.int64(trailing_zeros(m))
                    j = pick % na
                    for s in range(4):
                        if (allowed >> s) & 1:
                            if j == 0:
                                nom = s
                                break
                            j -= 1
                led = nom if csuit[c] == 4 else csuit[c]
                st[S_SUITSLED] |= 1 << led
            else:
                legal = hand & suitm[led]
                if legal == U0:
                    if misere == 1 and (hand & free) != U0:
                        legal = hand & free
                    else:
                        legal = hand
                count = _popcount(legal)
                pick = int((r * np.uint64(count)) >> np.uint64(32))
                m = legal
                for _ in range(pick):
                    m &= m - U1
                c = np.int64(trailing_zeros(m))
                if csuit[c] != led:
                    voids[p] |= 1 << led
            h[p] = hand ^ (U1 << np.uint64(c))
            tc[tcount] = c
            tp[tcount] = p
            tcount += 1
            if tcount == P:
                w = tp[_trick_winner(tc, 0, P, led, trump, csuit)]
                total += side[w]
                tcount = 0
                left -= 1
                st[S_LEFT] = left
                p = w
            else:
                p = (p + 1) % P
        results[k] = total
    return x
