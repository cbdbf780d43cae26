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

The search works on two packed arrays (few arguments make the recursion cheap):

``h``   uint64[H_SIZE]  ``h[0:8]`` hand of each active player (index 0..P-1 in turn order),
                        ``h[H_SUIT:H_SUIT+5]`` dense cards of each effective suit (4 = free
                        jokers), ``h[H_W + d]`` the relevant cards returned by the node at
                        depth ``d``, ``h[H_KEY + KEY_WORDS * d:]`` the table key of that node
``st``  int64[ST_LEN]   scalars (the ``S_*`` constants), then the cards and players played
                        by depth (``O_TC``, ``O_TP``: the trick in progress is
                        ``[d - st[S_TCOUNT], d)``), the contracting side (``O_SIDE``: 1, the
                        misère contractor alone, else 0), the suits each player has shown
                        void in (``O_VOID``, R-JOKER 5 variant), each dense card's effective
                        suit (``O_CSUIT``, 4 = free joker) and place in its block
                        (``O_CRANK``), and by depth the trick's winner so far (``O_WIN``,
                        ``O_WREL``)

The playouts take the unpacked arrays of :meth:`Position.arrays`.

A move is encoded ``card * 8 + nomination`` where nomination is the suit (0..3) a free
joker is led as, and 4 for every other play.

The search is a zero-window alpha-beta ("can the contracting side still take ``target``
more tricks?") with a transposition table at trick starts, as the bridge solver DDS does
it. The recursion passes the arrays' addresses and rebuilds views of them without
reference counts (numba otherwise passes every field of every array and counts references
at each call: a third of the time). At a trick start the table's bucket is prefetched
while the cheap bounds are tried. Each node also returns its *relevant cards*: the cards
whose rank decided a trick in the part of the tree that proved the result (a trick's
winner that beat another card of its suit, the top cards a sure-trick bound counted). A
table entry stores, for each suit, only the owners of the cards from the top down to the
lowest relevant one, plus the exact shape (every hand's length in every suit, the leader,
the joker-lead state): any position with that shape and those owners has the same bound,
whoever holds the small cards below (the DDS "winning ranks" idea, kept per suit as a top
prefix). Keys are in *relative* rank order (``pext`` of each hand by the cards still
out), so the prefix of a suit is a fixed bit range and a match is one masked compare per
hand. A card searched for a run of equivalent cards of its hand makes the whole run
relevant when the proof reaches down to the run's ranks (the other cards of the run were
not searched). The same argument prunes moves: when a card's search fails and its proof
needed no card of its suit from the lowest relevant one down, the hand's other cards of
that suit below it are not searched (they lead to the same position but for irrelevant
ranks): a third fewer nodes in suit and no-trump contracts.

Moves are scored, not sorted: the search takes the best remaining one each time, and
almost every node that succeeds does so with its first move. Leads cash winners (not
into an opponent's ruff), give the partner a ruff, draw trumps with the longer trumps,
lead towards the partner's winner, else low; followers win with the cheapest card no
later opponent can beat, overtake the partner only to save a trick, else play low; in
misère the contractor exits under a defender's card and ducks with the highest card that
loses, while the defenders strip its one low card of a suit, else lead under its lowest
card, first in the suits it is shortest in, shed high cards on their own tricks and
discard high while it is still to play. (Tried and measured worse or no better: the
table's best move first, killer moves, discarding by suit length, leading length in no trumps, a
quick-trick bound, also counting side suits once the trumps are drawn.) In misère two
bounds end the search at a trick start: the contractor can be held to no more tricks when
all its cards are below the defenders' in every suit both hold, and must take some when
its cards are above theirs (every trick, when it is on lead; one, when a defender on lead
holds such a suit).
"""

from __future__ import annotations

import llvmlite.binding as _llvm
import numpy as np
from llvmlite import ir
from numba import njit
from numba.core import cgutils, types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

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
S_EXACT = 11  # 1: table entries keep every card (no relevant-rank sharing; for tests)
ST_SIZE = 16
O_TC = 16
O_TP = 96
O_SIDE = 176
O_VOID = 184
O_CSUIT = 192
O_CRANK = 256
O_WIN = 320  # by depth: depth index of the winning card so far of the trick in progress
O_WREL = 400  # by depth: 1 if that card beat another card of its own suit
ST_LEN = 480

MAX_DEPTH = 72
MAX_MOVES = 48
NOMINATION_NONE = 4

H_SUIT = 8
H_W = 16
H_KEY = H_W + 80
# A table row (and a node's key at ``h[H_KEY + KEY_WORDS * d:]``): the bounds,
# the mask of relevant cards (relative), two shape words, up to 7 relative hands, two more
# shape words (more than four players only), so that a 4-player row reads one cache line.
KEY_WORDS = 16
K_DATA = 0
K_MASK = 1
K_REL = 4
H_SIZE = H_KEY + KEY_WORDS * 80
PROBE = 32  # slots searched per table bucket (one bucket per shape)

_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)
_M3 = np.uint64(0x165667B19E3779F9)
_M4 = np.uint64(0x27D4EB2F165667C5)


def _host_has_bmi2() -> bool:
    try:
        return bool(_llvm.get_host_cpu_features().get("bmi2", False))
    except Exception:  # pragma: no cover - depends on llvmlite and the CPU
        return False


HAS_BMI2 = _host_has_bmi2()


@intrinsic
def _ctpop(typingctx, x):  # type: ignore[no-untyped-def]
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.ctpop.i64")
        return builder.call(fn, args)

    return sig, codegen


@intrinsic
def _pext_hw(typingctx, x, m):  # type: ignore[no-untyped-def]
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pext.64")
        return builder.call(fn, args)

    return sig, codegen


@intrinsic
def _pdep_hw(typingctx, x, m):  # type: ignore[no-untyped-def]
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return sig, codegen


def _view_codegen(dtype, ndim):  # type: ignore[no-untyped-def]
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        from numba.np.arrayobj import make_array, populate_array

        arrty = signature.return_type
        ary = make_array(arrty)(context, builder)
        ptr = builder.inttoptr(args[0], context.get_value_type(types.CPointer(dtype)))
        shape = list(args[1:])
        itemsize = context.get_abi_sizeof(context.get_value_type(dtype))
        strides = []
        step = context.get_constant(types.intp, itemsize)
        for dim in reversed(shape):
            strides.insert(0, step)
            step = builder.mul(step, dim)
        populate_array(ary, data=ptr, shape=shape, strides=strides, itemsize=itemsize,
                       meminfo=None)  # fmt: skip
        return ary._getvalue()

    return codegen


@intrinsic
def _prefetch(typingctx, addr):  # type: ignore[no-untyped-def]
    """Start loading the cache line at ``addr`` (a hint; no effect on results)."""
    sig = types.void(types.uintp)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [builder.inttoptr(args[0], i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _u64_view(typingctx, addr, n):  # type: ignore[no-untyped-def]
    """A C-ordered uint64 array of ``n`` items at ``addr``: no reference count, so no
    reference counting code anywhere it goes."""
    sig = types.Array(types.uint64, 1, "C")(types.uintp, types.intp)
    return sig, _view_codegen(types.uint64, 1)


@intrinsic
def _i64_view(typingctx, addr, n):  # type: ignore[no-untyped-def]
    sig = types.Array(types.int64, 1, "C")(types.uintp, types.intp)
    return sig, _view_codegen(types.int64, 1)


@intrinsic
def _u64_view2(typingctx, addr, rows, cols):  # type: ignore[no-untyped-def]
    sig = types.Array(types.uint64, 2, "C")(types.uintp, types.intp, types.intp)
    return sig, _view_codegen(types.uint64, 2)


@njit(cache=True, inline="always", error_model="numpy")
def _borrow(h, st, buf, ttk, ttc):  # type: ignore[no-untyped-def]
    """Views of the same arrays without their reference counts: an array passed around
    is otherwise increfed and decrefed at every call, which cost about a third of the
    search's time. The caller keeps the real arrays alive."""
    return (
        _u64_view(h.ctypes.data, h.shape[0]),
        _i64_view(st.ctypes.data, st.shape[0]),
        _i64_view(buf.ctypes.data, buf.shape[0]),
        _u64_view2(ttk.ctypes.data, ttk.shape[0], ttk.shape[1]),
        _u64_view(ttc.ctypes.data, ttc.shape[0]),
    )


@njit(cache=True, inline="always", error_model="numpy")
def _pext_sw(x, m):  # type: ignore[no-untyped-def]
    r = U0
    k = U0
    while m != U0:
        low = m & (~m + U1)
        if (x & low) != U0:
            r |= U1 << k
        k += U1
        m ^= low
    return r


@njit(cache=True, inline="always", error_model="numpy")
def _pdep_sw(x, m):  # type: ignore[no-untyped-def]
    r = U0
    k = U0
    while m != U0:
        low = m & (~m + U1)
        if ((x >> k) & U1) != U0:
            r |= low
        k += U1
        m ^= low
    return r


_pext = _pext_hw if HAS_BMI2 else _pext_sw
_pdep = _pdep_hw if HAS_BMI2 else _pdep_sw


@njit(cache=True, inline="always", error_model="numpy")
def _popcount(x: np.uint64) -> int:
    return np.int64(_ctpop(x))


@njit(cache=True, inline="always", error_model="numpy")
def _bits_above(c: int) -> np.uint64:
    """Mask of the dense cards strictly above ``c``."""
    return ~(((U1 << np.uint64(c)) << U1) - U1)


@njit(cache=True, inline="always", error_model="numpy")
def _bits_below(c: int) -> np.uint64:
    """Mask of the dense cards strictly below ``c``."""
    return (U1 << np.uint64(c)) - U1


@njit(cache=True, inline="always", error_model="numpy")
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


@njit(cache=True, inline="always", error_model="numpy")
def _winner_p(st, start, n, led, trump):  # type: ignore[no-untyped-def]
    """(index in st, relevant card mask) of the winner of the trick at
    ``st[O_TC + start: O_TC + start + n]``; the winning card is relevant when it beat
    another card of its own suit (its rank decided the trick)."""
    best = -1
    best_class = -1
    best_index = start
    for i in range(start, start + n):
        c = st[O_TC + i]
        s = st[O_CSUIT + c]
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
    ws = st[O_CSUIT + best]
    rel = U0
    for i in range(start, start + n):
        c = st[O_TC + i]
        if c != best and st[O_CSUIT + c] == ws:
            rel = U1 << np.uint64(best)
            break
    return best_index, rel


@njit(cache=True, inline="always", error_model="numpy")
def _track(st, d, tcount, led, trump):  # type: ignore[no-untyped-def]
    """After the card at depth ``d`` (the trick's card number ``tcount``), the trick's
    winner so far and whether its rank decided anything (it beat, or was played over, a
    card of its own suit)."""
    if tcount == 0:
        st[O_WIN + d] = d
        st[O_WREL + d] = 0
        return
    wi = st[O_WIN + d - 1]
    flag = st[O_WREL + d - 1]
    w = st[O_TC + wi]
    c = st[O_TC + d]
    ws = st[O_CSUIT + w]
    s = st[O_CSUIT + c]
    if s == 4:
        beats = ws != 4 or c > w
    elif ws == 4:
        beats = False
    elif s == trump:
        beats = ws != trump or c > w
    elif ws == trump:
        beats = False
    else:
        beats = s == led and c > w
    if beats:
        st[O_WIN + d] = d
        st[O_WREL + d] = 1 if s == ws else 0
    else:
        st[O_WIN + d] = wi
        st[O_WREL + d] = 1 if (flag == 1 or s == ws) else 0


@njit(cache=True, inline="always", error_model="numpy")
def _init_trick(st, d):  # type: ignore[no-untyped-def]
    """Winner tracking for the trick in progress at depth ``d`` (an entry point's root)."""
    tcount = st[S_TCOUNT]
    start = d - tcount
    for k in range(tcount):
        _track(st, start + k, k, st[S_LED], st[S_TRUMP])


@njit(cache=True, inline="always", error_model="numpy")
def _joker_lead_suits(st, voids, p, hand, free) -> int:  # type: ignore[no-untyped-def]
    """Suits a free joker may be led as (R-JOKER 5), as in ``HandState._joker_lead_suits``."""
    if st[S_JLMODE] == 1:
        allowed = 15 & ~voids[p]
    else:
        allowed = 15 & ~st[S_SUITSLED]
    if allowed == 0 and (hand & ~free) == U0:
        # every suit led: still when the leader holds nothing but free jokers (the last
        # trick; with two jokers, the last two)
        allowed = 15
    return allowed


@njit(cache=True, inline="always", error_model="numpy")
def _joker_lead_suits_p(st, p, hand, free) -> int:  # type: ignore[no-untyped-def]
    if st[S_JLMODE] == 1:
        allowed = 15 & ~st[O_VOID + p]
    else:
        allowed = 15 & ~st[S_SUITSLED]
    if allowed == 0 and (hand & ~free) == U0:
        allowed = 15
    return allowed


@njit(cache=True, inline="always", error_model="numpy")
def _gen_moves(h, st, row, rb, d, reduce, others):  # type: ignore[no-untyped-def]
    """Legal moves of the player to move into ``row[rb:rb + n]``, each as ``score << 16 | move``
    (higher scores are tried first; unsorted: the search picks the best remaining one
    each time, as most nodes only try one); returns n. With ``reduce``, only one card (the
    lowest) of each run of equivalent cards. ``others``: the cards still out but this
    hand's, the trick in progress included."""
    p = st[S_TOMOVE]
    tcount = st[S_TCOUNT]
    misere = st[S_MISERE]
    trump = st[S_TRUMP]
    P = st[S_P]
    hand = h[p]
    out = others | hand
    start = d - tcount
    free = h[H_SUIT + 4]
    led = st[S_LED]
    side_p = st[O_SIDE + p]
    n = 0
    prev = -1
    if tcount == 0:
        partners = U0
        opps = U0
        for i in range(P):
            if i != p:
                if st[O_SIDE + i] == side_p:
                    partners |= h[i]
                else:
                    opps |= h[i]
        # side suits (bits) an opponent / a partner is void in and could ruff
        opp_ruff = 0
        partner_ruff = 0
        if misere == 0:
            power = h[H_SUIT + 4]
            if trump >= 0:
                power |= h[H_SUIT + trump]
            for i in range(P):
                if i == p or (h[i] & power) == U0:
                    continue
                for s in range(4):
                    if s != trump and (h[i] & h[H_SUIT + s]) == U0:
                        if st[O_SIDE + i] == side_p:
                            partner_ruff |= 1 << s
                        else:
                            opp_ruff |= 1 << s
        m = hand
        while m != U0:
            c = np.int64(trailing_zeros(m))
            m &= m - U1
            s = st[O_CSUIT + c]
            if (
                reduce
                and prev >= 0
                and st[O_CSUIT + prev] == s
                and (others & _bits_below(c) & _bits_above(prev)) == U0
            ):
                prev = c
                continue
            prev = c
            rank = st[O_CRANK + c]
            if s == 4:
                # a free joker is led with a nomination: one move per allowed suit; in no
                # trumps late (it is the side's stopper and entry: 8% fewer nodes)
                allowed = _joker_lead_suits_p(st, p, hand, free)
                for nom in range(4):
                    if (allowed >> nom) & 1:
                        score = ((-100 if side_p == 1 else 80) if misere == 1 else 20) - nom
                        row[rb + n] = ((score + 2000) << 16) | (c * 8 + nom)
                        n += 1
                continue
            so = out & h[H_SUIT + s]
            if misere == 1:
                if side_p == 1:
                    # the contractor exits under a defender's card, never leads a winner
                    score = (60 - rank) if (opps & so & _bits_above(c)) != U0 else (0 - rank)
                    for j in range(P):
                        js = h[j] & so
                        if j != p and js != U0 and np.int64(trailing_zeros(js)) > c:
                            # this defender must beat it: shed the highest such card
                            score = 70 + rank
                else:
                    # a defender leads under the contractor's lowest card of the suit
                    theirs = opps & so
                    if theirs == U0:
                        score = 20 - rank
                    elif c < np.int64(trailing_zeros(theirs)):
                        # the shorter the contractor is in it, the sooner it must win
                        score = 80 - rank - 6 * _popcount(theirs)
                    elif _popcount(theirs & _bits_below(c)) == 1 and _popcount(theirs) >= 2:
                        # strip its one card below: it ducks with it and keeps high ones
                        score = 85 - rank
                    else:
                        score = 40 - rank
            elif (others & so & _bits_above(c)) == U0:
                # a winner: cash it, unless an opponent would ruff it
                score = (100 + (5 if s == trump else 0)) if ((opp_ruff >> s) & 1) == 0 else 25
            elif ((partner_ruff >> s) & 1) == 1 and ((opp_ruff >> s) & 1) == 0:
                # a ruff for the partner
                score = 70 - rank
            else:
                # lead towards the partner's winner, else lead low
                top = U1 << np.uint64(63 - np.int64(leading_zeros(so)))
                score = (60 if (partners & top) != U0 else 30) - rank
                if s == trump and _popcount((hand | partners) & so) > _popcount(opps & so):
                    # draw the opponents' trumps
                    score += 25
            mv = c * 8 + NOMINATION_NONE
            row[rb + n] = ((score + 2000) << 16) | mv
            n += 1
        return n
    legal = hand & h[H_SUIT + led]
    if legal == U0:
        if misere == 1 and (hand & free) != U0:
            legal = hand & free
        else:
            legal = hand
    wi = st[O_WIN + d - 1]
    win_card = st[O_TC + wi]
    ws = st[O_CSUIT + win_card]
    partner_wins = st[O_SIDE + st[O_TP + wi]] == side_p
    contractor_wins = st[O_SIDE + st[O_TP + wi]] == 1
    # opponents still to play to this trick, and whether one of them is void in the suit led
    later = U0
    later_void = False
    power = h[H_SUIT + 4]
    if trump >= 0:
        power |= h[H_SUIT + trump]
    q = p
    for _ in range(P - 1 - tcount):
        q = q + 1 if q + 1 < P else 0
        if st[O_SIDE + q] != side_p:
            later |= h[q]
            if (h[q] & h[H_SUIT + led]) == U0:
                later_void = True
    partner_safe = (later & h[H_SUIT + ws] & _bits_above(win_card)) == U0
    if partner_safe and ws != 4 and ws != trump and (later & power) != U0 and later_void:
        partner_safe = False
    contractor_done = False
    if misere == 1:
        for k in range(start, d):
            if st[O_SIDE + st[O_TP + k]] == 1:
                contractor_done = True
    m = legal
    while m != U0:
        c = np.int64(trailing_zeros(m))
        m &= m - U1
        s = st[O_CSUIT + c]
        if (
            reduce
            and prev >= 0
            and st[O_CSUIT + prev] == s
            and (others & _bits_below(c) & _bits_above(prev)) == U0
        ):
            prev = c
            continue
        prev = c
        rank = st[O_CRANK + c]
        # does c beat the current winner?
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
            if side_p == 1:
                score = (60 + rank) if not beats else (10 + rank)
            elif contractor_wins:
                score = (60 + rank) if not beats else (0 - rank)
            elif contractor_done:
                # the trick is the defenders' anyway: shed a high card
                score = 50 + rank
            elif s == led:
                # under the contractor, who is still to play
                score = 50 - rank
            else:
                # a discard: keep the low cards to lead under the contractor later
                score = 50 + rank
        elif beats:
            # win cheaply, above all with a card no opponent still to play can beat
            safe = (later & h[H_SUIT + s] & _bits_above(c)) == U0
            if safe and s != 4 and s != trump and (later & power) != U0 and later_void:
                safe = False
            if partner_wins:
                # overtake the partner only to save a trick an opponent would take
                score = (60 - rank) if safe and not partner_safe else (0 - rank)
            else:
                score = (75 - rank) if safe else (45 - rank)
        elif partner_wins:
            score = 50 - rank
        else:
            score = 20 - rank
        mv = c * 8 + NOMINATION_NONE
        row[rb + n] = ((score + 2000) << 16) | mv
        n += 1
    return n


@njit(cache=True, inline="always", error_model="numpy")
def _sure_tricks(h, st, trump, out):  # type: ignore[no-untyped-def]
    """Tricks each side is sure of whatever happens: the hand holding the highest card of
    the pack still out (a free joker in no trumps/misère, else the top trump) wins a trick
    with it and with each card of its unbroken run below it. Returns (contracting,
    defending, cards counted)."""
    b = -1
    if (out & h[H_SUIT + 4]) != U0:
        b = 4
    elif trump >= 0 and (out & h[H_SUIT + trump]) != U0:
        b = trump
    if b < 0:
        return 0, 0, U0
    so = out & h[H_SUIT + b]
    top = U1 << np.uint64(63 - np.int64(leading_zeros(so)))
    owner = 0
    while (h[owner] & top) == U0:
        owner += 1
    rest = so & ~h[owner]
    used = so if rest == U0 else so & _bits_above(63 - np.int64(leading_zeros(rest)))
    k = _popcount(used)
    if st[O_SIDE + owner] == 1:
        return k, 0, used
    return 0, k, used


@njit(cache=True, inline="always", error_model="numpy")
def _misere_safe(h, st, p, contractor, defenders):  # type: ignore[no-untyped-def]
    """(True, cards that decided it) when the misère contractor can take no further
    trick whatever the defenders do: no free joker, and in every suit held by both sides
    all its cards are below all of theirs, so it always plays under a defender's lead
    and discards when void; on lead, it also needs such a suit to exit in (it never gets
    the lead back)."""
    if (contractor & h[H_SUIT + 4]) != U0:
        return False, U0
    exit_suit = False
    used = U0
    for s in range(4):
        cs = contractor & h[H_SUIT + s]
        ds = defenders & h[H_SUIT + s]
        if cs == U0 or ds == U0:
            continue
        top = 63 - np.int64(leading_zeros(cs))
        if top > np.int64(trailing_zeros(ds)):
            return False, U0
        used |= U1 << np.uint64(top)
        exit_suit = True
    if st[O_SIDE + p] == 1 and not exit_suit:
        return False, U0
    return True, used


@njit(cache=True, inline="always", error_model="numpy")
def _misere_forced(h, st, p, contractor, defenders, left):  # type: ignore[no-untyped-def]
    """(tricks, cards that decided it) the misère contractor must take whatever it does,
    when no defender holds a free joker: every remaining trick if it is on lead and in
    each suit it holds all its cards are above all of the defenders' (it leads, and wins,
    again and again); one trick if a defender on lead holds such a suit (it leads it)."""
    if (defenders & h[H_SUIT + 4]) != U0:
        return 0, U0
    on_lead = st[O_SIDE + p] == 1
    used = U0
    for s in range(4):
        cs = contractor & h[H_SUIT + s]
        if cs == U0:
            continue
        ds = defenders & h[H_SUIT + s]
        low = np.int64(trailing_zeros(cs))
        high = ds == U0 or (63 - np.int64(leading_zeros(ds))) < low
        if on_lead:
            if not high:
                return 0, U0
            used |= U1 << np.uint64(low)
        elif high and (h[p] & ds) != U0:
            return 1, U1 << np.uint64(low)
    if on_lead:
        return left, used
    return 0, U0


@njit(cache=True, inline="always", error_model="numpy")
def _shcol(k):  # type: ignore[no-untyped-def]
    """Column of shape word ``k`` in a key."""
    return 2 + k if k < 2 else 9 + k


@njit(cache=True, inline="always", error_model="numpy")
def _prefix_mask(w, out, h):  # type: ignore[no-untyped-def]
    """The cards still out from the top of each suit down to its lowest card in ``w``."""
    m = U0
    for s in range(5):
        ws = w & h[H_SUIT + s]
        if ws != U0:
            m |= out & h[H_SUIT + s] & ~_bits_below(np.int64(trailing_zeros(ws)))
    return m


@njit(cache=True, inline="always", error_model="numpy")
def _search(h, st, buf, ttk, ttc, target, d):  # type: ignore[no-untyped-def]
    """Can the contracting side take at least ``target`` more tricks (counting the trick in
    progress) with best play by all? Zero-window alpha-beta; ``d`` is the number of cards
    played since the root position (plus the root's trick in progress). Leaves the
    relevant cards of the proof in ``h[H_W + d]``."""
    return _search_p(h.ctypes.data, st.ctypes.data, buf.ctypes.data, ttk.ctypes.data,
                     ttc.ctypes.data, ttc.shape[0], target, d)  # fmt: skip


# _nrt=False: no reference-counting calls at all (the views own nothing; numba, pinned in
# pyproject.toml, emits a call per array per helper otherwise, even on a null count)
@njit(cache=True, error_model="numpy", _nrt=False)
def _search_p(hp, stp, bufp, ttkp, ttcp, tsize, target, d):  # type: ignore[no-untyped-def]
    """:func:`_search` on the arrays' addresses: a recursive call then passes 8 words
    instead of every field of 5 arrays (about 40)."""
    h = _u64_view(hp, H_SIZE)
    st = _i64_view(stp, ST_LEN)
    buf = _i64_view(bufp, MAX_DEPTH * MAX_MOVES)
    ttk = _u64_view2(ttkp, tsize, KEY_WORDS)
    ttc = _u64_view(ttcp, tsize)
    left = st[S_LEFT]
    if target <= 0:
        h[H_W + d] = U0
        return True
    if target > left:
        h[H_W + d] = U0
        return False
    st[S_NODES] += 1
    P = st[S_P]
    tcount = st[S_TCOUNT]
    p = st[S_TOMOVE]
    misere = st[S_MISERE]
    trump = st[S_TRUMP]
    out = U0
    for i in range(P):
        out |= h[i]
    kb = H_KEY + KEY_WORDS * d
    nrel = P - 1
    nshape = (P - 2) // 3 + 2
    gen = st[S_GEN]
    tmask = ttc.shape[0] - 1
    base = 0
    check = U0
    if tcount == 0:
        if left == 1:
            # last trick: every card is forced; a led free joker wins whatever it names
            for i in range(P):
                q = p + i
                if q >= P:
                    q -= P
                st[O_TC + d + i] = np.int64(trailing_zeros(h[q]))
                st[O_TP + d + i] = q
            led = st[O_CSUIT + st[O_TC + d]]
            wi, wrel = _winner_p(st, d, P, led, trump)
            h[H_W + d] = wrel
            return st[O_SIDE + st[O_TP + wi]] >= target
        # the key: each hand in relative order, then the shape
        for j in range(nrel):
            h[kb + K_REL + j] = _pext(h[j], out)
        for k in range(nshape):
            h[kb + _shcol(k)] = U0
        last = nshape - 1
        for j in range(nrel):
            v = U0
            for s in range(5):
                v |= np.uint64(_popcount(h[j] & h[H_SUIT + s])) << np.uint64(4 * s)
            h[kb + _shcol(j // 3)] |= v << np.uint64(20 * (j % 3))
        z = U0
        for s in range(5):
            z |= np.uint64(_popcount(out & h[H_SUIT + s])) << np.uint64(5 * s)
        z |= np.uint64(p) << np.uint64(25)
        if (out & h[H_SUIT + 4]) != U0:
            if st[S_JLMODE] == 1:
                v = U0
                for j in range(P):
                    v |= np.uint64(st[O_VOID + j]) << np.uint64(4 * j)
                z |= v << np.uint64(28)
            else:
                z |= np.uint64(st[S_SUITSLED]) << np.uint64(28)
        h[kb + _shcol(last)] = z
        x = U0
        for k in range(nshape):
            x = (x ^ h[kb + _shcol(k)]) * _M1
            x ^= x >> np.uint64(29)
        base = np.int64(x & np.uint64(tmask))
        check = (np.uint64(gen) << np.uint64(32)) | (x >> np.uint64(32))
        # the table is mostly out of cache: start loading the bucket, and try the bounds
        # meanwhile
        _prefetch(ttcp + np.uint64(base * 8))
        _prefetch(ttkp + np.uint64(base * KEY_WORDS * 8))
        sc, sd, used = _sure_tricks(h, st, trump, out)
        if sc >= target:
            h[H_W + d] = used
            return True
        if left - sd < target:
            h[H_W + d] = used
            return False
        if misere == 1:
            contractor = U0
            alone = 0
            for j in range(P):
                if st[O_SIDE + j] == 1:
                    contractor = h[j]
                    alone += 1
            # the bounds reason about one contractor: not for double misère (R-HOUSE)
            if alone == 1:
                defenders = out & ~contractor
                safe, used = _misere_safe(h, st, p, contractor, defenders)
                if safe:
                    h[H_W + d] = used
                    return False
                forced, used = _misere_forced(h, st, p, contractor, defenders, left)
                if forced >= target:
                    h[H_W + d] = used
                    return True
        for k in range(PROBE):
            slot = (base + k) & tmask
            c0 = ttc[slot]
            if (c0 >> np.uint64(32)) != np.uint64(gen):
                break
            if c0 != check:
                continue
            same = True
            for i in range(nshape):
                if ttk[slot, _shcol(i)] != h[kb + _shcol(i)]:
                    same = False
                    break
            if not same:
                continue
            mk = ttk[slot, K_MASK]
            for i in range(K_REL, K_REL + nrel):
                if ((ttk[slot, i] ^ h[kb + i]) & mk) != U0:
                    same = False
                    break
            if not same:
                continue
            data = np.int64(ttk[slot, K_DATA])
            if (data & 255) >= target:
                h[H_W + d] = _pdep(mk, out)
                return True
            if ((data >> 8) & 255) < target:
                h[H_W + d] = _pdep(mk, out)
                return False
    hand = h[p]
    start = d - tcount
    # cards out other than this hand's (the trick in progress included): they break runs
    others = out & ~hand
    for i in range(start, d):
        others |= U1 << np.uint64(st[O_TC + i])
    rb = d * MAX_MOVES
    n = _gen_moves(h, st, buf, rb, d, True, others)
    side_p = st[O_SIDE + p]
    maxim = (side_p ^ misere) == 1
    result = not maxim
    wall = U0
    old_led = st[S_LED]
    old_led_mask = st[S_SUITSLED]
    old_void = st[O_VOID + p]
    # cards shown by a searched move's proof to do no better than it (see below)
    same = U0
    for i in range(n):
        # the best remaining move
        k = rb + i
        for j in range(rb + i + 1, rb + n):
            if buf[j] > buf[k]:
                k = j
        mv = buf[k]
        buf[k] = buf[rb + i]
        buf[rb + i] = mv
        mv &= 0xFFFF
        c = mv >> 3
        nom = mv & 7
        bit = U1 << np.uint64(c)
        if (same & bit) != U0:
            continue
        cs = st[O_CSUIT + c]
        h[p] = hand ^ bit
        if tcount == 0:
            led = nom if cs == 4 else cs
            st[S_LED] = led
            st[S_SUITSLED] = old_led_mask | (1 << led)
        else:
            led = old_led
            if cs != led:
                st[O_VOID + p] = old_void | (1 << led)
        st[O_TC + d] = c
        st[O_TP + d] = p
        _track(st, d, tcount, led, trump)
        if tcount + 1 == P:
            wi = st[O_WIN + d]
            wrel = (U1 << np.uint64(st[O_TC + wi])) if st[O_WREL + d] == 1 else U0
            w = st[O_TP + wi]
            st[S_TCOUNT] = 0
            st[S_TOMOVE] = w
            st[S_LEFT] = left - 1
            r = _search_p(hp, stp, bufp, ttkp, ttcp, tsize, target - st[O_SIDE + w], d + 1)
            st[S_LEFT] = left
            wc = h[H_W + d + 1] | wrel
        else:
            st[S_TCOUNT] = tcount + 1
            st[S_TOMOVE] = p + 1 if p + 1 < P else 0
            r = _search_p(hp, stp, bufp, ttkp, ttcp, tsize, target, d + 1)
            wc = h[H_W + d + 1]
        st[S_TCOUNT] = tcount
        st[S_TOMOVE] = p
        st[S_LED] = old_led
        st[S_SUITSLED] = old_led_mask
        st[O_VOID + p] = old_void
        h[p] = hand
        # c stood for the run of equivalent cards above it in this hand: if the proof
        # reached down to that run's ranks, the whole run is relevant
        if cs < 4:
            sw = wc & h[H_SUIT + cs]
            if sw != U0:
                above = others & h[H_SUIT + cs] & _bits_above(c)
                if above != U0:
                    run = hand & h[H_SUIT + cs] & _bits_below(np.int64(trailing_zeros(above)))
                    run &= ~_bits_below(c)
                else:
                    run = hand & h[H_SUIT + cs] & ~_bits_below(c)
                if (sw & ~_bits_above(63 - np.int64(leading_zeros(run)))) != U0:
                    wc |= run
        else:
            wc |= hand & h[H_SUIT + 4]
        if r == maxim:
            result = r
            wall = wc
            break
        wall |= wc
        if cs < 4:
            # No card of this suit from the lowest relevant one down mattered to the proof:
            # playing another of this hand's cards below it gives the same position up to
            # irrelevant ranks, so the same result (the DDS "winning ranks" argument
            # applied to the moves themselves).
            suit = hand & h[H_SUIT + cs]
            sw = wc & h[H_SUIT + cs]
            if sw == U0:
                same |= suit
            else:
                low = np.int64(trailing_zeros(sw))
                if c < low:
                    same |= suit & _bits_below(low)
    if tcount == 0:
        wall &= out
        mabs = _prefix_mask(wall, out, h) if st[S_EXACT] == 0 else out
        mrel = _pext(mabs, out)
        wall = mabs
        slot = -1
        for k in range(PROBE):
            s2 = (base + k) & tmask
            c0 = ttc[s2]
            if (c0 >> np.uint64(32)) != np.uint64(gen):
                slot = s2
                break
            if c0 != check or ttk[s2, K_MASK] != mrel:
                continue
            same = True
            for i in range(nshape):
                if ttk[s2, _shcol(i)] != h[kb + _shcol(i)]:
                    same = False
                    break
            if not same:
                continue
            for i in range(K_REL, K_REL + nrel):
                if ((ttk[s2, i] ^ h[kb + i]) & mrel) != U0:
                    same = False
                    break
            if same:
                break
        else:
            # bucket full: replace one, varying which
            slot = (base + (st[S_NODES] & (PROBE - 1))) & tmask
        if slot >= 0:
            # a new entry
            ttc[slot] = check
            for i in range(2, KEY_WORDS):
                ttk[slot, i] = h[kb + i]
            ttk[slot, K_MASK] = mrel
            data = np.int64(left << 8)
        else:
            slot = s2
            data = np.int64(ttk[slot, K_DATA])
        lo = data & 255
        hi = (data >> 8) & 255
        if result:
            if target > lo:
                lo = target
        elif target - 1 < hi:
            hi = target - 1
        ttk[slot, K_DATA] = np.uint64(lo | (hi << 8))
    h[H_W + d] = wall
    return result


@njit(cache=True, error_model="numpy")
def solve_dense(h, st, buf, ttk, ttc, lo, hi, d):  # type: ignore[no-untyped-def]
    """Exact number of further tricks the contracting side takes (within ``lo..hi``), by
    a series of zero-window searches sharing the transposition table. ``d``: the
    depth of the node (at the root, the number of cards in the trick in progress)."""
    h, st, buf, ttk, ttc = _borrow(h, st, buf, ttk, ttc)
    _init_trick(st, d)
    if st[S_MISERE] == 1 and hi - lo >= 4:
        # a misère contractor mostly takes a few tricks: step up from one (measured: the
        # cheap early searches fill the table for the later ones, 16% fewer nodes than
        # the binary search and fewer than starting nearer the value; no gain in the
        # other contracts)
        return _solve_from(h, st, buf, ttk, ttc, lo, hi, d, lo + 1)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _search(h, st, buf, ttk, ttc, mid, d):
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=True, error_model="numpy")
def _solve_from(h, st, buf, ttk, ttc, lo, hi, d, guess):  # type: ignore[no-untyped-def]
    """As :func:`solve_dense` (arrays already borrowed, trick tracking set), stepping one
    trick at a time from ``guess``: cheaper when the value is near it, as the values of a
    player's different moves usually are."""
    t = guess
    while lo < hi:
        if t <= lo:
            t = lo + 1
        if t > hi:
            t = hi
        if _search(h, st, buf, ttk, ttc, t, d):
            lo = t
            t += 1
        else:
            hi = t - 1
            t -= 1
    return lo


@njit(cache=True, error_model="numpy")
def reach_dense(h, st, buf, ttk, ttc, target):  # type: ignore[no-untyped-def]
    """Zero-window: can the contracting side take ``target`` more tricks? (At the root.)"""
    h, st, buf, ttk, ttc = _borrow(h, st, buf, ttk, ttc)
    _init_trick(st, st[S_TCOUNT])
    return _search(h, st, buf, ttk, ttc, target, st[S_TCOUNT])


@njit(cache=True, error_model="numpy")
def move_values_dense(h, st, buf, ttk, ttc, moves, values):  # type: ignore[no-untyped-def]
    """All legal moves of the player to move (unreduced, into ``moves``) and, for each, the
    contracting side's further tricks after it with best play (into ``values``); returns
    the number of moves. Equivalent cards are solved once."""
    h, st, buf, ttk, ttc = _borrow(h, st, buf, ttk, ttc)
    d = st[S_TCOUNT]
    _init_trick(st, d)
    p = st[S_TOMOVE]
    P = st[S_P]
    tcount = st[S_TCOUNT]
    trump = st[S_TRUMP]
    left = st[S_LEFT]
    out = U0
    for i in range(P):
        out |= h[i]
    for i in range(tcount):
        out |= U1 << np.uint64(st[O_TC + i])
    n = _gen_moves(h, st, buf, d * MAX_MOVES, d, False, out & ~h[p])
    for i in range(n):
        moves[i] = buf[d * MAX_MOVES + i] & 0xFFFF
    guess = (left + 1) // 2
    for i in range(n):
        mv = moves[i]
        c = mv >> 3
        nom = mv & 7
        cs = st[O_CSUIT + c]
        # equal to an earlier move with a touching card of the same hand and suit?
        done = False
        for j in range(i):
            c2 = moves[j] >> 3
            if (moves[j] & 7) != nom or st[O_CSUIT + c2] != cs or nom != NOMINATION_NONE:
                continue
            a = min(c, c2)
            b = max(c, c2)
            if (out & _bits_below(b) & _bits_above(a) & ~h[p]) == U0:
                values[i] = values[j]
                done = True
                break
        if done:
            continue
        bit = U1 << np.uint64(c)
        old_led = st[S_LED]
        old_led_mask = st[S_SUITSLED]
        old_void = st[O_VOID + p]
        h[p] ^= bit
        if tcount == 0:
            led = nom if cs == 4 else cs
            st[S_LED] = led
            st[S_SUITSLED] = old_led_mask | (1 << led)
        else:
            led = old_led
            if cs != led:
                st[O_VOID + p] = old_void | (1 << led)
        st[O_TC + d] = c
        st[O_TP + d] = p
        _track(st, d, tcount, led, trump)
        if tcount + 1 == P:
            w = st[O_TP + st[O_WIN + d]]
            st[S_TCOUNT] = 0
            st[S_TOMOVE] = w
            st[S_LEFT] = left - 1
            side_w = st[O_SIDE + w]
            values[i] = side_w + _solve_from(h, st, buf, ttk, ttc, 0, left - 1, d + 1,
                                             guess - side_w)  # fmt: skip
        else:
            st[S_TCOUNT] = tcount + 1
            st[S_TOMOVE] = (p + 1) % P
            _init_trick(st, d + 1)
            values[i] = _solve_from(h, st, buf, ttk, ttc, 0, left, d + 1, guess)
        st[S_LEFT] = left
        st[S_TCOUNT] = tcount
        st[S_TOMOVE] = p
        st[S_LED] = old_led
        st[S_SUITSLED] = old_led_mask
        st[O_VOID + p] = old_void
        h[p] ^= bit
        guess = values[i]
    return n


@njit(cache=True, error_model="numpy")
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
                    allowed = _joker_lead_suits(st, voids, p, hand, free)
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
