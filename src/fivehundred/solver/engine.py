"""The double-dummy solver's compiled kernel (C, built with the package) and its layout.

Everything here works on a *dense position*: the cards still in play (in the hands and in
the trick in progress) are renumbered 0..N-1 (N <= 64) so that each effective suit is a
contiguous block ordered by trick-taking power, the trump block including the bowers and
the jokers, and a last block (suit 4) holding the unnominated ("free") jokers of no trumps
and misère. A hand is then one ``uint64`` and a card's rank *relative to the cards still
out* is its place in its block, which is what makes equivalent (touching) cards and the
transposition-table key cheap. :mod:`fivehundred.solver.position` builds these arrays.

The kernel is the C extension :mod:`fivehundred.solver._kernel` (``_kernel.c`` and the
search in ``_kernel_search.h``, beside this file), built by ``pip install`` where a C
compiler is found; without it, importing this module raises :class:`ImportError` naming
what is missing. Its functions are re-exported here:

``solve_dense(h, st, buf, ttk, ttc, lo, hi, d)``  exact further tricks within ``lo..hi``
``reach_dense(h, st, buf, ttk, ttc, target)``     zero-window, at the root
``move_values_dense(h, st, buf, ttk, ttc, moves, values)``  every move and its value
``playouts_dense(h, st, tc, tp, side, voids, suitm, csuit, n, seed, results)``

They take numpy arrays (any writable, C-contiguous buffer of 8-byte integers) and release
the GIL while they run. The search is compiled twice: for x86-64 CPUs with
popcnt/lzcnt/bmi2 (a relative key is one ``pext`` a hand) and for any CPU;
:data:`VARIANT` says which this process runs.

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
it. At a trick start the table's bucket is prefetched
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
misère the contractor exits under a defender's card (with no card a defender can beat, it
leads its highest winner) and ducks with the highest card that loses, while the defenders
overtake its winning card with their highest card, strip its one low card of a suit, else lead under its lowest
card, first in the suits it is shortest in, shed high cards on their own tricks and
discard high while it is still to play. (Tried and measured worse or no better: the
table's best move first, killer moves, discarding by suit length, leading length in no trumps,
also counting side suits once the trumps are drawn.) Quick tricks end the search at a
trick start (not in misère) when the side on lead can cash enough tricks at once, in one
of two lines. The leader cashes its own: in each plain suit its unbroken run above every
other card, and every card it holds there when no other hand holds more of the suit than
the run; each suit only as far as every other hand holding power (trumps, an opponent's free
joker: a partner's is never forced onto the leader's trick before the last one) must follow
it; then its free jokers when no opponent holds one. Or, when no opponent holds power (in
a suit contract: no hand but the partner's, or no hand but the leader's, which then cashes
all its trumps first, so that it has none left to ruff the partner's winners with), it
cashes some of its own, then leads a suit
whose top card a partner holds (an entry), and the partner cashes its own and its free
jokers; the leader's tricks count only as far as the partner has cards to spare for them
(neither a counted winner nor a joker), so that it keeps every winner it will cash. The
relevant cards are the runs of the fewest suits that reach the count, most tricks first,
the entry's always (a suit a hand holds entirely, like a power suit held by one hand in
the sure-trick bound, is read from the shape and marks no card). Against the leader's own
top runs alone (every suit when no other hand held power, else one side suit), on
bench_solver's 200 deals of each kind: no trumps 15% fewer nodes (median 26,688 to
22,517) and 8-9% less time, suit contracts 3.4% fewer nodes and the same time, pimc's
workload (three hands of expert, 5,129 deals, all suit contracts) 2.9% fewer nodes and the
same time; the partner's entry is most of the gain in no trumps (11% of nodes), the long
suits 3%, counting every side suit under a ruff rather than one 0.3% (suit contracts
0.9%). Drawing the trumps first (the leader's top trumps outlasting every other hand's,
then its side suits uncapped): 0.5% fewer nodes in suit contracts, 3% more time; not kept.
In a trick in progress (not in misère), when the contracting side needs one more trick or
the defenders do, the trick itself decides: the side whose best card (played, or legal
for a hand still to play) beats every card the other side has played or can play takes
it, and the search ends there (that card is relevant when the other side's best is of its
suit, else the shape decides); the second-hand quick tricks of DDS, at every later hand
too. On bench_solver's 200 deals of each kind: suit contracts 8.9% fewer nodes (total
5,114,753 to 4,661,120), no trumps 8.2% (6,750,518 to 6,196,042), 2-4% less time; pimc's
workload 9.0% fewer nodes and 2-4% less time. The partner's line with the leader holding
every trump (against none there): suit contracts 1.2% fewer nodes, pimc's workload 1.8%,
the same time (-2% to +1% over repeated runs). Tried in a trick in progress and not kept:
adding the tricks after it that the side holding the top power card is sure of (see the
sure-trick bound; a hand still to play may spend one counted card), when a side needs two
tricks or fewer: suit contracts 6.3% fewer nodes, no trumps 1.5%, but 7-15% more time;
only at the second hand: 4% fewer nodes in suit contracts, 5% more time; leaving the last
hand out: 1.5% more nodes, the same time on pimc's workload. At a trick start, the side not
on lead taking the trick whatever the leader leads, when it needs one trick: 0.2-0.6% fewer
nodes, not kept. In misère two
bounds end the search at a trick start: the contractor can be held to no more tricks when
all its cards are below the defenders' in every suit both hold, and must take some when
its cards are above theirs (every trick, when it is on lead; one, when a defender on lead
holds such a suit).

DDS's later tricks end the search at a trick start too (not in misère), when a side needs
every trick left: with no power card out (no free joker, no trump), every trick it takes
is of a suit whose top card it holds, and each trick of a suit takes a card of it from
each of its hands still holding one, so it takes at most the sum over those suits of its
longest holding; short of the tricks left, it fails. Only the other side's top cards in
the suits it holds are relevant (were one of them its own, the sum could grow: marking
every suit's top instead made 6-10% more nodes), and the bound is tried after the quick
tricks (their marks are fewer: 0.5% fewer nodes than before them). The sure-trick bound
counts two hands too: each holding one trump above the other side's, one of them another
trump, they win two tricks (DDS's top two trumps; the general pair, a hand with as many
other trumps as the other holds trumps, adding both hands' counts: 0.2% fewer nodes, not
kept). In misère, with a lone contractor, its fate in one trick decides when it needs
every trick left or one more: in a trick in progress, it takes the trick when its card
(played, or every legal one) beats the trick and no defender still to play can beat it,
and loses it when a card played beats its own or it holds a legal card under the trick's
winner; at a trick start, led a suit it holds, its lowest card there loses when a
defender holding the suit holds none lower or a void defender holds a free joker (it must
play it), else it takes the trick, so that on lead it loses the next trick when one of
its suits loses so, and with a defender on lead it loses it when every lead loses (void,
it discards) and takes it when one lead wins; and when it needs every trick left, a
defender holding cards of a suit, all above the contractor's lowest there, that keeps one
of them through this trick (it holds two or more, or it is on lead, or it holds every
other suit the leader can lead) keeps it from taking the next two (led now, it loses this
one; should it take it, it leads that card next and loses). On bench_solver's 200 deals
of each kind (best of three, the kernel before and after alternating deal by deal in one
run, a shared two-core machine at load 4-6): suit contracts 2.5% fewer nodes (total
4,606,719 to 4,492,494, median 12,604 to 12,232) at the same time (median 0.94 ms both,
the median of the per-deal ratios 1.00), no trumps 7.5% (6,196,042 to 5,730,029, median
20,948 to 18,768) and 3-5% less time (1.39 to 1.24 ms median, per-deal ratios 0.97),
misère 17.5% (9,316,949 to 7,689,571, median 33,584 to 28,972) and 15-17% less time (2.27
to 1.99 ms); alone, the later tricks cut 1.4% of the nodes in suit contracts and 7.6% in
no trumps, the two hands 1.3% in suit contracts, the misère trick in progress 8.3%, the
next trick 2.1% more, the next two 5.1% more with a defender's two cards, 2.6% more with
its one card kept.

Measured on the C kernel (nodes over 120 whole hands of each kind; not kept): quick tricks
of the leader at each trick start in one suit only (its top runs, capped by the shortest
holding of an opponent who could ruff) +0.7% nodes in suit contracts, -1.2% in no trumps
(kept in the form above: every suit when no other hand holds power, fewest suits marked
relevant); a table four times larger changes nodes by less than 0.1%; no table in the
last two tricks +9%; a table four times larger with buckets of 128 -0.4% (the table does
not overflow); even a first zero-window search at the true value saves only 10% (suit) to
17% (no trumps) over the binary search. Rows aligned on cache lines: no gain. The last
tricks hold few of the nodes (over bench_solver's deals and pimc's workload: 1% in the
last trick, 6-7% with two left, 16-17% with three), so a shortcut there has little to
save: no table with two tricks left +9% nodes and 3.5% more time in suit contracts, no
quick tricks there +1% nodes and 1-2% more time.

The exact value is found one trick at a time from a first guess: the tricks the contracting
side takes when every player plays the move the ordering puts first (a play-out of some
forty move generations, no search). Median nodes over 120 whole hands against the binary
search (stepping up from one trick in misère): suit 14,630 to 14,218, no trumps 27,446 to
25,432; a lone misère contractor's from one trick under it, 36,022 to 35,588 (open misère
4% fewer nodes); :func:`move_values_dense` starts its first move from it too, and each
later move from the value of the one before, but for a lone misère contractor: there each
move is first searched at one trick ("can the contractor be forced to take a trick?", a
search that ends at the first trick it takes), 3.6% fewer nodes over 600 misère positions.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

try:
    import fivehundred.solver._kernel as _kernel
except ImportError as error:  # pragma: no cover - depends on the install
    raise ImportError(
        "the double-dummy solver's C kernel (fivehundred.solver._kernel) was not built at "
        "install (no C compiler?): install a C compiler, then "
        "pip install --force-reinstall --no-deps fivehundred",
        name="fivehundred.solver._kernel",
    ) from error

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
S_HITS = 12  # table entries that ended a search (statistics)
S_NOQUICK = 13  # bits, for tests: 1 no quick tricks at a trick start, 2 none in a trick,
# 4 no later tricks (a side short of every trick), 8 no two-hand sure tricks, 16 no misère
# trick in progress (a lone contractor's fate in it), 32 none for the next trick, 64 none
# for the next two
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

if (_kernel.H_SIZE, _kernel.ST_LEN, _kernel.KEY_WORDS) != (H_SIZE, ST_LEN, KEY_WORDS):
    raise ImportError(  # pragma: no cover - a kernel built from other sources
        "fivehundred.solver._kernel does not match engine.py: reinstall fivehundred",
        name="fivehundred.solver._kernel",
    )

#: One search at a time in a process: the kernel runs without the GIL and the tables it
#: searches with are shared by every caller of this module, so a second thread's search (a
#: server's background par beside a request's analysis) would read the first one's entries.
_SEARCH = threading.Lock()


def _one_at_a_time(search: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        with _SEARCH:
            return search(*args, **kwargs)

    call.__name__ = call.__qualname__ = search.__name__
    call.__doc__ = search.__doc__
    return call


solve_dense = _one_at_a_time(_kernel.solve_dense)
reach_dense = _one_at_a_time(_kernel.reach_dense)
move_values_dense = _one_at_a_time(_kernel.move_values_dense)
playouts_dense = _one_at_a_time(_kernel.playouts_dense)

#: Which compiled search this process runs: ``"x86-64-v3"`` (popcnt, lzcnt, bmi2) or
#: ``"generic"``.
VARIANT: str = _kernel.variant()
