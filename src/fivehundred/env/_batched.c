/* The batched environment's C core (see docs/env.md, "The batched environment").
 *
 * N tables of a rule set of 2 to 6 players (every preset, house rules off) kept in one byte buffer, stepped in one call with the GIL released, on a few
 * threads over sub-batches. Every rule-set table (the pack's deal order, the bids' ranks
 * and values) and the observation's layout come from Python (fivehundred.env.batched
 * builds them from the engine's and fivehundred.env.encoding's own definitions) in one
 * int32 array, ``spec``, laid out as the SPEC_* indices below say; this file holds the
 * play (auction, kitty, the jokers' nomination, a five-handed partner's call, tricks with
 * bowers and jokers, the two-handed dummies, scoring).
 *
 * The deal: each hand's seed and dealer come from the table's seed and the hand's number
 * (hand_seed below); the deck is shuffled exactly as CPython's random.Random(seed).shuffle
 * does (MT19937, init_by_array, _randbelow by getrandbits), so HandState.deal(rules,
 * dealer, seed) deals the very same cards.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;
static const u128 ONE = 1;

/* actions (fivehundred.actions) */
#define JOKER_LEAD_BASE 66
#define PASS 74
#define BID_BASE 75
#define MISERE 100
#define OPEN_MISERE 101
#define BLIND_MISERE 102
#define NOMINATE_BASE 103
#define NO_NOMINATION 111
#define CALL_BASE 112
#define GO_ALONE 178
#define NUM_ACTIONS 188
#define JOKER 64
#define SEATS 6 /* the most seats the core plays */
#define MAX_DECK 66
#define MAX_BIDS 40
#define OBS_WORDS 32 /* 2,048 bits: room for the four-handed vector (1,248 bits) */

/* spec: the rule set and the layout, from Python */
enum {
    SPEC_DECK_SIZE,       /* cards in the pack */
    SPEC_KITTY_SIZE,
    SPEC_AMERICAN,        /* the American auction: each seat calls once */
    SPEC_MISERE_AFTER_SEVEN,
    SPEC_MISERE_DEFENDERS_SCORE,
    SPEC_JOKER_NOT_RENOUNCED, /* joker_lead == not_renounced (else: not led) */
    SPEC_SLAM_MINIMUM,
    SPEC_DEFENDER_POINTS,
    SPEC_FAILED_TO_OPPONENTS, /* a failed contract's value goes to the other side */
    SPEC_NSEATS,          /* seats (players): 3 to 6 */
    SPEC_CALLED_PARTNER,  /* five players: the contractor calls a card for a partner */
    SPEC_PARTNER_ANNOUNCES,
    SPEC_PHASE_CALL,      /* the call phase's bit */
    SPEC_CALLED,          /* the called_card field's offset */
    SPEC_PLAYERS,         /* players (two: seats 2 and 3 are their dummies) */
    SPEC_DUMMIES,         /* two players: the dummies (R-PLAYERS) */
    SPEC_SIDE,            /* each seat's side (SEATS entries, scoring.side_of_seats) */
    SPEC_SIDE_END = SPEC_SIDE + SEATS - 1,
    SPEC_NBIDS,           /* allowed bids, lowest rank first, at SPEC_BIDS */
    SPEC_OBS_BITS,        /* the 0/1 part of the vector */
    SPEC_PHASE_AUCTION, SPEC_PHASE_DISCARD, SPEC_PHASE_NOMINATE, SPEC_PHASE_PLAY,
    SPEC_PHASE_DONE,      /* each phase's bit */
    SPEC_HAND, SPEC_CONTRACT, SPEC_TRUMP, SPEC_JOKER_SUITS, SPEC_DISCARDS, SPEC_LED,
    SPEC_SUITS_LED,       /* table fields' offsets */
    SPEC_SEATS_OFFSET, SPEC_RECORD,
    SPEC_R_CALLS, SPEC_R_PLAYED, SPEC_R_TRICK, SPEC_R_VOIDS, SPEC_R_WON, SPEC_R_EXPOSED,
    SPEC_R_TO_MOVE, SPEC_R_DEALER, SPEC_R_CONTRACTOR, SPEC_R_PARTNER, SPEC_R_ACTIVE,
    SPEC_DECK,                          /* SPEC_DECK_SIZE cards, in deal-plan order */
    SPEC_OWNERS = SPEC_DECK + MAX_DECK, /* each position's owner (k: k seats after the
                                           dealer's left; SEATS: the kitty) */
    SPEC_BIDS = SPEC_OWNERS + MAX_DECK, /* the allowed bids by rank */
    SPEC_VALUE = SPEC_BIDS + MAX_BIDS,  /* each bid's value (by action) */
    SPEC_CALL_INDEX = SPEC_VALUE + NUM_ACTIONS, /* each call's place (-1: none) */
    SPEC_SIZE = SPEC_CALL_INDEX + NUM_ACTIONS,
};

enum { PH_AUCTION, PH_DISCARD, PH_NOMINATE, PH_PLAY, PH_DONE, PH_CALL };

typedef struct {
    uint64_t w[3]; /* 188 action bits */
} amask;

typedef struct {
    u128 hands[SEATS];
    u128 kitty, discards, played;
    u128 follow[4]; /* cards that count as each suit */
    u128 free_jokers;
    u128 trick_played[SEATS]; /* each seat's card in the trick (as a mask) */
    u128 played_by[SEATS];    /* the cards each seat has played */
    u128 face_up[SEATS];      /* two players: a dummy's face-up cards */
    amask legal;
    uint64_t seed, rng, hand_seed;
    uint32_t hand_index;
    uint32_t calls[SEATS]; /* call index bits */
    uint16_t power[MAX_DECK];
    int16_t contract;
    int8_t dealer, phase, to_move, contractor, high, seven_bid, passed, ncalls;
    int8_t discards_left, trump, misere, joker_suit[2], nominate_pending;
    int8_t partners, partner_revealed, called_card; /* partners: a mask of seats */
    int8_t dummies;           /* a mask of the dummy seats */
    int8_t under[MAX_DECK];   /* a dummy's face-down card under each face-up one (-1) */
    int8_t trick_n, led, suits_led, ntricks, active, nactive, trick_cards[SEATS];
    int8_t trick_seats[SEATS], won[SEATS], voids[SEATS];
} table_t;

static inline int popcount128(u128 m)
{
    return __builtin_popcountll((uint64_t)m) + __builtin_popcountll((uint64_t)(m >> 64));
}

static inline int lowest128(u128 m)
{
    uint64_t lo = (uint64_t)m;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(m >> 64));
}

static inline void aset(amask *m, int a) { m->w[a >> 6] |= 1ULL << (a & 63); }
static inline int ahas(const amask *m, int a) { return (int)(m->w[a >> 6] >> (a & 63) & 1); }

/* ------------------------------------------------------------------ seeds */
static inline uint64_t splitmix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The seed of a table's hand number ``index`` (its first hand: 0). */
static inline uint64_t hand_seed(uint64_t seed, uint64_t index)
{
    return splitmix64(seed + 0x9E3779B97F4A7C15ULL * (index + 1));
}

/* CPython's MT19937 (Modules/_randommodule.c) */
typedef struct {
    uint32_t mt[624];
    int mti;
} mt_t;

static void mt_init(mt_t *s, uint32_t seed)
{
    s->mt[0] = seed;
    for (int i = 1; i < 624; i++)
        s->mt[i] = 1812433253U * (s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) + (uint32_t)i;
    s->mti = 624;
}

static void mt_init_by_array(mt_t *s, const uint32_t *key, int len)
{
    mt_init(s, 19650218U);
    int i = 1, j = 0;
    for (int k = 624 > len ? 624 : len; k; k--) {
        s->mt[i] = (s->mt[i] ^ ((s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= 624) {
            s->mt[0] = s->mt[623];
            i = 1;
        }
        if (j >= len)
            j = 0;
    }
    for (int k = 623; k; k--) {
        s->mt[i] = (s->mt[i] ^ ((s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= 624) {
            s->mt[0] = s->mt[623];
            i = 1;
        }
    }
    s->mt[0] = 0x80000000U;
}

static uint32_t mt_next(mt_t *s)
{
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    if (s->mti >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (s->mt[kk] & 0x80000000U) | (s->mt[kk + 1] & 0x7fffffffU);
            s->mt[kk] = s->mt[kk + 397] ^ (y >> 1) ^ mag01[y & 1];
        }
        for (; kk < 623; kk++) {
            y = (s->mt[kk] & 0x80000000U) | (s->mt[kk + 1] & 0x7fffffffU);
            s->mt[kk] = s->mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 1];
        }
        y = (s->mt[623] & 0x80000000U) | (s->mt[0] & 0x7fffffffU);
        s->mt[623] = s->mt[396] ^ (y >> 1) ^ mag01[y & 1];
        s->mti = 0;
    }
    y = s->mt[s->mti++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.Random(seed).shuffle(deck), for a non-negative 64-bit seed */
static void py_shuffle(uint64_t seed, int *deck, int n)
{
    mt_t s;
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    mt_init_by_array(&s, key, key[1] ? 2 : 1);
    for (int i = n - 1; i > 0; i--) {
        uint32_t bound = (uint32_t)i + 1;
        int k = 32 - __builtin_clz(bound);
        uint32_t r;
        do
            r = mt_next(&s) >> (32 - k);
        while (r >= bound);
        int t = deck[i];
        deck[i] = deck[r];
        deck[r] = t;
    }
}

static inline uint64_t rng_next(uint64_t *x)
{ /* xorshift64* */
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 0x2545F4914F6CDD1DULL;
}

/* ------------------------------------------------------------------ the rules */
static void auction_legal(const int32_t *spec, table_t *t)
{
    amask m = {{0, 0, 0}};
    aset(&m, PASS);
    const int32_t *bids = spec + SPEC_BIDS;
    for (int i = t->high + 1; i < spec[SPEC_NBIDS]; i++) {
        if (bids[i] == MISERE && spec[SPEC_MISERE_AFTER_SEVEN] && !t->seven_bid)
            continue;
        aset(&m, bids[i]);
    }
    t->legal = m;
}

static inline u128 playable(const table_t *t)
{
    int seat = t->to_move;
    return t->dummies >> seat & 1 ? t->hands[seat] & t->face_up[seat] : t->hands[seat];
}

static int joker_lead_suits(const int32_t *spec, const table_t *t)
{
    int seat = t->to_move;
    int allowed = spec[SPEC_JOKER_NOT_RENOUNCED] ? 15 & ~t->voids[seat] : 15 & ~t->suits_led;
    if (!allowed && !(playable(t) & ~t->free_jokers))
        return 15;
    return allowed;
}

static void set_cards(amask *m, u128 cards)
{
    m->w[0] |= (uint64_t)cards;
    m->w[1] |= (uint64_t)(cards >> 64) & 3;
}

static void play_legal(const int32_t *spec, table_t *t)
{
    amask m = {{0, 0, 0}};
    u128 hand = playable(t);
    if (t->trick_n) {
        u128 following = hand & t->follow[(int)t->led];
        if (following)
            set_cards(&m, following);
        else if (t->misere && (hand & t->free_jokers))
            set_cards(&m, hand & t->free_jokers);
        else
            set_cards(&m, hand);
    }
    else {
        u128 free = hand & t->free_jokers;
        set_cards(&m, hand & ~free);
        if (free) {
            int suits = joker_lead_suits(spec, t);
            for (int j = 0; j < 2; j++)
                if (free >> (JOKER + j) & 1)
                    for (int s = 0; s < 4; s++)
                        if (suits >> s & 1)
                            aset(&m, JOKER_LEAD_BASE + 4 * j + s);
        }
    }
    t->legal = m;
}

static void compute_legal(const int32_t *spec, table_t *t)
{
    amask m = {{0, 0, 0}};
    switch (t->phase) {
    case PH_AUCTION:
        auction_legal(spec, t);
        return;
    case PH_DISCARD:
        set_cards(&m, t->hands[(int)t->contractor]);
        break;
    case PH_NOMINATE: {
        int joker = t->nominate_pending;
        for (int s = 0; s < 4; s++)
            aset(&m, NOMINATE_BASE + 4 * (joker - JOKER) + s);
        aset(&m, NO_NOMINATION);
        break;
    }
    case PH_PLAY:
        play_legal(spec, t);
        return;
    case PH_CALL: {
        u128 pack = 0;
        for (int i = 0; i < spec[SPEC_DECK_SIZE]; i++)
            pack |= ONE << spec[SPEC_DECK + i];
        uint64_t callable = (uint64_t)(pack & ~(t->hands[(int)t->contractor] | t->discards));
        for (; callable; callable &= callable - 1)
            aset(&m, CALL_BASE + __builtin_ctzll(callable));
        aset(&m, GO_ALONE);
        break;
    }
    default:
        break;
    }
    t->legal = m;
}


static u128 suit_mask(int s) { return (u128)0xFFFF << (16 * s); }

static void make_context(table_t *t)
{
    int trump = t->trump;
    u128 jokers = ONE << JOKER | ONE << (JOKER + 1);
    for (int s = 0; s < 4; s++)
        t->follow[s] = suit_mask(s);
    for (int c = 0; c < 64; c++)
        t->power[c] = (uint16_t)(c & 15);
    t->free_jokers = 0;
    if (trump != 4) {
        int right = trump * 16 + 12, left = (trump ^ 1) * 16 + 12;
        t->follow[trump ^ 1] &= ~(ONE << left);
        t->follow[trump] |= (ONE << left) | jokers;
        for (int c = 0; c < 64; c++)
            if (t->follow[trump] >> c & 1)
                t->power[c] = (uint16_t)(200 + (c & 15));
        t->power[right] = 250;
        t->power[left] = 249;
        t->power[JOKER] = 300;
        t->power[JOKER + 1] = 301;
    }
    else {
        for (int j = 0; j < 2; j++) {
            int suit = t->joker_suit[j];
            if (suit < 0) {
                t->power[JOKER + j] = (uint16_t)(300 + j);
                t->free_jokers |= ONE << (JOKER + j);
            }
            else {
                t->power[JOKER + j] = (uint16_t)(16 + j);
                t->follow[suit] |= ONE << (JOKER + j);
            }
        }
    }
}

static void start_play(const int32_t *spec, table_t *t)
{
    make_context(t);
    int c = t->contractor;
    int alone = t->contract == MISERE || t->contract == OPEN_MISERE || t->contract == BLIND_MISERE;
    int n = spec[SPEC_NSEATS], all = (1 << n) - 1, out = 0;
    for (int s = 0; s < n; s++)
        if (alone && s != c && spec[SPEC_SIDE + s] == spec[SPEC_SIDE + c])
            out |= 1 << s;
    t->active = (int8_t)(all & ~out);
    t->nactive = (int8_t)__builtin_popcount((unsigned)t->active);
    t->phase = PH_PLAY;
    t->to_move = (int8_t)c;
}

/* the contract settled but for a five-handed partner's call (as before_play) */
static void begin_contract_play(const int32_t *spec, table_t *t)
{
    if (spec[SPEC_CALLED_PARTNER] && !t->misere)
        t->phase = PH_CALL;
    else
        start_play(spec, t);
}

static void discards_done(const int32_t *spec, table_t *t)
{
    u128 jokers = t->hands[(int)t->contractor] & (ONE << JOKER | ONE << (JOKER + 1));
    if (t->trump == 4 && jokers) {
        t->phase = PH_NOMINATE;
        t->nominate_pending = (int8_t)lowest128(jokers);
    }
    else
        begin_contract_play(spec, t);
}

static int bid_tricks(int a) { return a >= BID_BASE && a < MISERE ? (a - BID_BASE) / 5 + 6 : 0; }

static void finish(const int32_t *spec, table_t *t, int points[SEATS])
{
    t->phase = PH_DONE;
    t->to_move = -1;
    t->legal.w[0] = t->legal.w[1] = t->legal.w[2] = 0;
    int n = spec[SPEC_NSEATS];
    const int32_t *sides = spec + SPEC_SIDE;
    int nsides = 0;
    for (int s = 0; s < n; s++) {
        points[s] = 0;
        if (sides[s] + 1 > nsides)
            nsides = sides[s] + 1;
    }
    if (t->contract < 0)
        return;
    int c = t->contractor, side = sides[c];
    int contract = t->contract;
    int value = spec[SPEC_VALUE + contract];
    int misere = contract == MISERE || contract == OPEN_MISERE || contract == BLIND_MISERE;
    int team = 0, team_tricks = 0;
    for (int s = 0; s < n; s++)
        if (s == c || (t->partners >> s & 1)) {
            team |= 1 << s;
            team_tricks += t->won[s];
        }
    int made, raised = 0, dp = spec[SPEC_DEFENDER_POINTS];
    if (misere) {
        made = team_tricks == 0;
        if (spec[SPEC_MISERE_DEFENDERS_SCORE])
            for (int d = 0; d < nsides; d++)
                if (d != side)
                    points[d] += dp * team_tricks;
    }
    else {
        made = team_tricks >= bid_tricks(contract);
        if (made && team_tricks == 10 && t->ntricks == 10)
            raised = (value > spec[SPEC_SLAM_MINIMUM] ? value : spec[SPEC_SLAM_MINIMUM]) - value;
        for (int s = 0; s < n; s++)
            if (!(team >> s & 1))
                points[sides[s]] += dp * t->won[s];
    }
    if (n == 5) { /* each partner scores for themselves, in full (scoring.score_hand) */
        for (int s = 0; s < n; s++)
            if (team >> s & 1)
                points[sides[s]] += made ? value + raised : -value;
    }
    else if (!made && spec[SPEC_FAILED_TO_OPPONENTS]) {
        for (int d = 0; d < nsides; d++)
            if (d != side)
                points[d] += value;
    }
    else
        points[side] += (made ? value : -value) + raised;
}

static void deal(const int32_t *spec, table_t *t)
{
    int n = spec[SPEC_DECK_SIZE];
    int deck[MAX_DECK];
    uint64_t hs = hand_seed(t->seed, t->hand_index);
    t->hand_seed = hs;
    int ns = spec[SPEC_NSEATS], players = spec[SPEC_PLAYERS];
    int dealer = (int)(((hs >> 32) * (uint64_t)players) >> 32); /* four players: hs >> 62 */
    for (int i = 0; i < n; i++)
        deck[i] = spec[SPEC_DECK + i];
    py_shuffle(hs, deck, n);
    u128 masks[SEATS + 1] = {0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < n; i++)
        masks[spec[SPEC_OWNERS + i]] |= ONE << deck[i];
    int first = (dealer + 1) % ns;
    for (int s = 0; s < SEATS; s++)
        t->hands[s] = s < ns ? masks[(s - first + ns) % ns] : 0;
    t->kitty = masks[ns];
    t->dummies = 0;
    memset(t->under, -1, sizeof(t->under));
    if (spec[SPEC_DUMMIES]) { /* seats 2 and 3: the first five face down, each under the
                                 card dealt five places later */
        t->dummies = 12;
        for (int d = 2; d < 4; d++) {
            int owner = (d - first + ns) % ns, order[10], count = 0;
            for (int i = 0; i < n && count < 10; i++)
                if (spec[SPEC_OWNERS + i] == owner)
                    order[count++] = deck[i];
            t->face_up[d] = 0;
            for (int k = 5; k < count; k++) {
                t->face_up[d] |= ONE << order[k];
                t->under[order[k]] = (int8_t)order[k - 5];
            }
        }
    }
    t->discards = t->played = t->free_jokers = 0;
    for (int s = 0; s < SEATS; s++) {
        t->calls[s] = 0;
        t->trick_played[s] = t->played_by[s] = 0;
        t->won[s] = t->voids[s] = 0;
        t->trick_cards[s] = t->trick_seats[s] = -1;
    }
    t->contract = -1;
    t->dealer = (int8_t)dealer;
    t->phase = PH_AUCTION;
    t->to_move = (int8_t)((dealer + 1) % players);
    t->contractor = -1;
    t->high = -1;
    t->seven_bid = t->ncalls = 0;
    t->passed = (int8_t)(((1 << ns) - 1) & ~((1 << players) - 1)); /* the dummies do not bid */
    t->discards_left = 0;
    t->trump = -1;
    t->misere = 0;
    t->joker_suit[0] = t->joker_suit[1] = -1;
    t->nominate_pending = -1;
    t->partners = 0;
    t->partner_revealed = 1;
    t->called_card = -1;
    t->trick_n = 0;
    t->led = -1;
    t->suits_led = t->ntricks = 0;
    t->active = 0;
    t->nactive = 0;
    compute_legal(spec, t);
}

static void call(const int32_t *spec, table_t *t, int a)
{
    int seat = t->to_move, n = spec[SPEC_NSEATS];
    int index = spec[SPEC_CALL_INDEX + a];
    if (index >= 0)
        t->calls[seat] |= 1U << index;
    t->ncalls++;
    int done = 0;
    if (a == PASS)
        t->passed |= (int8_t)(1 << seat);
    else {
        int alone = (t->passed | (1 << seat)) == (1 << n) - 1;
        t->contract = (int16_t)a;
        t->contractor = (int8_t)seat;
        for (int i = 0; i < spec[SPEC_NBIDS]; i++)
            if (spec[SPEC_BIDS + i] == a)
                t->high = (int8_t)i;
        if (bid_tricks(a) == 7)
            t->seven_bid = 1;
        if (alone)
            done = 1;
    }
    if (!done) {
        if (spec[SPEC_AMERICAN]) {
            if (t->ncalls >= n)
                done = 1;
            else
                t->to_move = (int8_t)((t->dealer + 1 + t->ncalls) % n);
        }
        else {
            int live = ((1 << n) - 1) & ~t->passed;
            if (!live || (t->contractor >= 0 && live == 1 << t->contractor))
                done = 1;
            else
                for (int step = 1; step <= n; step++) {
                    int nxt = (seat + step) % n;
                    if (live >> nxt & 1) {
                        t->to_move = (int8_t)nxt;
                        break;
                    }
                }
        }
    }
    if (!done)
        return;
    /* the auction is over: no contract (thrown in), or the kitty */
    if (t->contractor < 0) {
        t->contract = -1;
        return; /* the caller finishes the hand */
    }
    int contract = t->contract;
    t->trump = (int8_t)(contract >= BID_BASE && contract < MISERE ? (contract - BID_BASE) % 5 : 4);
    t->misere = (int8_t)(contract == MISERE || contract == OPEN_MISERE || contract == BLIND_MISERE);
    t->partners = 0;
    if (!t->misere)
        for (int s = 0; s < n; s++)
            if (s != t->contractor && spec[SPEC_SIDE + s] == spec[SPEC_SIDE + t->contractor])
                t->partners |= (int8_t)(1 << s);
    t->to_move = t->contractor;
    t->hands[(int)t->contractor] |= t->kitty;
    t->kitty = 0;
    t->discards_left = (int8_t)spec[SPEC_KITTY_SIZE];
    t->phase = PH_DISCARD;
    if (!t->discards_left)
        discards_done(spec, t);
}

static int trick_winner(const table_t *t)
{
    u128 led_mask = t->follow[(int)t->led];
    int best = -1, best_index = 0;
    for (int i = 0; i < t->trick_n; i++) {
        int card = t->trick_cards[i];
        int p = t->power[card];
        if (p < 100) {
            if (!(led_mask >> card & 1))
                continue;
            p += 100;
        }
        if (p > best) {
            best = p;
            best_index = i;
        }
    }
    return t->trick_seats[best_index];
}

static void play(const int32_t *spec, table_t *t, int a)
{
    int seat = t->to_move;
    int card = a < JOKER_LEAD_BASE ? a : JOKER + (a - JOKER_LEAD_BASE) / 4;
    u128 bit = ONE << card;
    if (t->trick_n) {
        if (!(t->dummies >> seat & 1) && !(t->hands[seat] & t->follow[(int)t->led]))
            t->voids[seat] |= (int8_t)(1 << t->led);
    }
    else {
        int led;
        if (a >= JOKER_LEAD_BASE)
            led = (a - JOKER_LEAD_BASE) % 4;
        else {
            led = -1;
            for (int s = 0; s < 4; s++)
                if (t->follow[s] & bit)
                    led = s;
        }
        t->led = (int8_t)led;
        t->suits_led |= (int8_t)(1 << led);
    }
    t->hands[seat] ^= bit;
    t->played |= bit;
    t->played_by[seat] |= bit;
    if (card == t->called_card)
        t->partner_revealed = 1;
    t->trick_played[seat] = bit;
    t->trick_cards[(int)t->trick_n] = (int8_t)card;
    t->trick_seats[(int)t->trick_n] = (int8_t)seat;
    t->trick_n++;
    if (t->trick_n < t->nactive) {
        int nxt = seat;
        do
            nxt = (nxt + 1) % spec[SPEC_NSEATS];
        while (!(t->active >> nxt & 1));
        t->to_move = (int8_t)nxt;
        return;
    }
    int winner = trick_winner(t);
    for (int i = 0; i < t->trick_n; i++) { /* a dummy's cards uncovered are turned up */
        int s = t->trick_seats[i], c = t->trick_cards[i];
        if (t->dummies >> s & 1) {
            t->face_up[s] &= ~(ONE << c);
            if (t->under[c] >= 0)
                t->face_up[s] |= ONE << t->under[c];
        }
    }
    t->won[winner]++;
    t->ntricks++;
    t->trick_n = 0;
    for (int s = 0; s < SEATS; s++) {
        t->trick_played[s] = 0;
        t->trick_cards[s] = t->trick_seats[s] = -1;
    }
    t->to_move = (int8_t)winner;
}

/* Apply a legal action; on the hand's end fill points and return 1. */
static int apply(const int32_t *spec, table_t *t, int a, int points[SEATS])
{
    switch (t->phase) {
    case PH_AUCTION:
        call(spec, t, a);
        if (t->phase == PH_AUCTION && t->contract < 0 && (t->passed == (1 << spec[SPEC_NSEATS]) - 1 ||
                                                          (spec[SPEC_AMERICAN] && t->ncalls >= spec[SPEC_NSEATS]))) {
            finish(spec, t, points);
            return 1;
        }
        break;
    case PH_DISCARD:
        t->hands[(int)t->contractor] ^= ONE << a;
        t->discards |= ONE << a;
        if (--t->discards_left == 0)
            discards_done(spec, t);
        break;
    case PH_NOMINATE: {
        int joker = t->nominate_pending;
        if (a != NO_NOMINATION)
            t->joker_suit[joker - JOKER] = (int8_t)((a - NOMINATE_BASE) % 4);
        u128 rest = t->hands[(int)t->contractor] & (ONE << JOKER | ONE << (JOKER + 1)) &
                    ~((ONE << (joker + 1)) - 1);
        if (rest)
            t->nominate_pending = (int8_t)lowest128(rest);
        else
            begin_contract_play(spec, t);
        break;
    }
    case PH_CALL:
        if (a == GO_ALONE)
            t->partners = 0;
        else {
            int card = a - CALL_BASE;
            t->called_card = (int8_t)card;
            for (int s = 0; s < spec[SPEC_NSEATS]; s++)
                if (t->hands[s] >> card & 1)
                    t->partners = (int8_t)(1 << s);
            t->partner_revealed = (int8_t)spec[SPEC_PARTNER_ANNOUNCES];
        }
        start_play(spec, t);
        break;
    case PH_PLAY:
        play(spec, t, a);
        if (t->ntricks == 10) {
            finish(spec, t, points);
            return 1;
        }
        break;
    default:
        break;
    }
    compute_legal(spec, t);
    return 0;
}

/* ------------------------------------------------------------------ the observation */
static inline void or_bits(uint64_t *w, int at, uint64_t v)
{
    if (!v)
        return;
    int i = at >> 6, s = at & 63;
    w[i] |= v << s;
    if (s)
        w[i + 1] |= v >> (64 - s);
}

static inline void or_cards(uint64_t *w, int at, u128 cards)
{
    or_bits(w, at, (uint64_t)cards);
    or_bits(w, at + 64, (uint64_t)(cards >> 64));
}

static inline void set_bit(uint64_t *w, int at) { w[at >> 6] |= 1ULL << (at & 63); }

/* ``seat``'s view, as fivehundred.env.encoding.Encoder.bits has it */
static void observe(const int32_t *spec, const table_t *t, int seat, uint64_t *w)
{
    memset(w, 0, OBS_WORDS * sizeof(uint64_t));
    static const int phase_spec[6] = {SPEC_PHASE_AUCTION, SPEC_PHASE_DISCARD, SPEC_PHASE_NOMINATE,
                                      SPEC_PHASE_PLAY, SPEC_PHASE_DONE, SPEC_PHASE_CALL};
    or_cards(w, spec[SPEC_HAND], t->dummies >> seat & 1 ? t->hands[seat] & t->face_up[seat] : t->hands[seat]);
    set_bit(w, spec[phase_spec[(int)t->phase]]);
    int contract = t->phase == PH_AUCTION ? -1 : t->contract;
    if (contract >= 0) {
        set_bit(w, spec[SPEC_CONTRACT] + spec[SPEC_CALL_INDEX + contract]);
        set_bit(w, spec[SPEC_TRUMP] + t->trump);
        for (int j = 0; j < 2; j++)
            if (t->joker_suit[j] >= 0)
                set_bit(w, spec[SPEC_JOKER_SUITS] + 4 * j + t->joker_suit[j]);
        if (seat == t->contractor)
            or_cards(w, spec[SPEC_DISCARDS], t->discards);
        if (t->called_card >= 0)
            set_bit(w, spec[SPEC_CALLED] + t->called_card);
    }
    if (t->trick_n)
        set_bit(w, spec[SPEC_LED] + t->led);
    or_bits(w, spec[SPEC_SUITS_LED], (uint64_t)t->suits_led);
    int exposed = contract == OPEN_MISERE && t->ntricks > 0 ? t->contractor : -1;
    int record = spec[SPEC_RECORD];
    int n = spec[SPEC_NSEATS];
    for (int k = 0; k < n; k++) {
        int s = (seat + k) % n;
        int at = spec[SPEC_SEATS_OFFSET] + k * record;
        or_bits(w, at + spec[SPEC_R_CALLS], t->calls[s]);
        or_cards(w, at + spec[SPEC_R_PLAYED], t->played_by[s]);
        or_cards(w, at + spec[SPEC_R_TRICK], t->trick_played[s]);
        or_bits(w, at + spec[SPEC_R_VOIDS], (uint64_t)t->voids[s]);
        set_bit(w, at + spec[SPEC_R_WON] + t->won[s]);
        if (s == exposed && s != seat)
            or_cards(w, at + spec[SPEC_R_EXPOSED], t->hands[s]);
        if (t->dummies && s != seat) { /* a dummy's controller's hand, the dummies' face-up cards */
            if (s == seat % 2)
                or_cards(w, at + spec[SPEC_R_EXPOSED], t->hands[s]);
            else if (t->dummies >> s & 1)
                or_cards(w, at + spec[SPEC_R_EXPOSED], t->hands[s] & t->face_up[s]);
        }
        if (s == t->to_move)
            set_bit(w, at + spec[SPEC_R_TO_MOVE]);
        if (s == t->dealer)
            set_bit(w, at + spec[SPEC_R_DEALER]);
        if (contract >= 0) {
            if (s == t->contractor)
                set_bit(w, at + spec[SPEC_R_CONTRACTOR]);
            if ((t->partners >> s & 1) && (t->partner_revealed || (t->partners >> seat & 1)))
                set_bit(w, at + spec[SPEC_R_PARTNER]);
        }
        if (t->active >> s & 1)
            set_bit(w, at + spec[SPEC_R_ACTIVE]);
    }
}

/* ------------------------------------------------------------------ batches */
#define OBS_BYTES(spec) ((spec[SPEC_OBS_BITS] + 7) / 8)
#define MASK_BYTES 24

enum { OP_RESET, OP_STEP, OP_SAMPLE, OP_UNPACK };

typedef struct {
    int op, autoreset;
    const int32_t *spec;
    table_t *tables;
    Py_ssize_t lo, hi;
    const uint64_t *seeds;
    int64_t *actions;
    uint8_t *obs, *mask, *done;
    int8_t *to_move;
    float *rewards;
    float *floats;      /* OP_UNPACK: (N, size) float32 observations */
    int8_t *masks;      /* OP_UNPACK: (N, NUM_ACTIONS) int8 masks */
    Py_ssize_t size;    /* OP_UNPACK: the vector's length (the bits, then zeros) */
} work_t;

static float unpacked[256][8];

static void write_out(const work_t *wk, Py_ssize_t i)
{
    const table_t *t = &wk->tables[i];
    uint64_t w[OBS_WORDS];
    observe(wk->spec, t, t->to_move >= 0 ? t->to_move : 0, w); /* (a hand over: seat 0's) */
    memcpy(wk->obs + i * OBS_BYTES(wk->spec), w, (size_t)OBS_BYTES(wk->spec));
    memcpy(wk->mask + i * MASK_BYTES, t->legal.w, MASK_BYTES);
    wk->to_move[i] = t->to_move;
}

static void *run_work(void *arg)
{
    const work_t *wk = (const work_t *)arg;
    const int32_t *spec = wk->spec;
    if (wk->op == OP_UNPACK) {
        Py_ssize_t bytes = OBS_BYTES(spec), bits = spec[SPEC_OBS_BITS];
        for (Py_ssize_t i = wk->lo; i < wk->hi; i++) {
            const uint8_t *src = wk->obs + i * bytes;
            float *dst = wk->floats + i * wk->size;
            for (Py_ssize_t b = 0; b < bits / 8; b++)
                memcpy(dst + 8 * b, unpacked[src[b]], 8 * sizeof(float));
            if (bits % 8)
                memcpy(dst + bits / 8 * 8, unpacked[src[bits / 8]], (bits % 8) * sizeof(float));
            memset(dst + bits, 0, (size_t)(wk->size - bits) * sizeof(float));
            const uint8_t *m = wk->mask + i * MASK_BYTES;
            int8_t *out = wk->masks + i * NUM_ACTIONS;
            for (int a = 0; a < NUM_ACTIONS; a++)
                out[a] = (int8_t)(m[a >> 3] >> (a & 7) & 1);
        }
        return NULL;
    }
    for (Py_ssize_t i = wk->lo; i < wk->hi; i++) {
        table_t *t = &wk->tables[i];
        if (wk->op == OP_SAMPLE) {
            int count = __builtin_popcountll(t->legal.w[0]) + __builtin_popcountll(t->legal.w[1]) +
                        __builtin_popcountll(t->legal.w[2]);
            if (!count) { /* a hand over (no autoreset): nothing to play */
                wk->actions[i] = -1;
                continue;
            }
            int pick = (int)(rng_next(&t->rng) % (uint64_t)count);
            for (int k = 0; k < 3; k++) {
                uint64_t m = t->legal.w[k];
                int c = __builtin_popcountll(m);
                if (pick < c) {
                    for (; pick; pick--)
                        m &= m - 1;
                    wk->actions[i] = 64 * k + __builtin_ctzll(m);
                    break;
                }
                pick -= c;
            }
            continue;
        }
        if (wk->op == OP_RESET) {
            t->seed = wk->seeds[i];
            t->rng = splitmix64(t->seed ^ 0xD1B54A32D192ED03ULL) | 1;
            t->hand_index = 0;
            deal(spec, t);
        }
        else {
            int points[SEATS], n = spec[SPEC_PLAYERS];
            float *r = wk->rewards + i * n;
            if (apply(spec, t, (int)wk->actions[i], points)) {
                for (int s = 0; s < n; s++)
                    r[s] = (float)points[spec[SPEC_SIDE + s]];
                wk->done[i] = 1;
                if (wk->autoreset) {
                    t->hand_index++;
                    deal(spec, t);
                }
            }
            else {
                for (int s = 0; s < n; s++)
                    r[s] = 0.0f;
                wk->done[i] = 0;
            }
        }
        write_out(wk, i);
    }
    return NULL;
}

static void run_batch(work_t *base, Py_ssize_t n, int threads)
{
    if (threads < 1)
        threads = 1;
    if (threads > 64)
        threads = 64;
    if (n < 256 * threads)
        threads = n / 256 > 0 ? (int)(n / 256) : 1;
    work_t parts[64];
    pthread_t ids[64];
    int started[64];
    for (int k = 0; k < threads; k++) {
        parts[k] = *base;
        parts[k].lo = n * k / threads;
        parts[k].hi = n * (k + 1) / threads;
    }
    Py_BEGIN_ALLOW_THREADS
    for (int k = 1; k < threads; k++)
        started[k] = pthread_create(&ids[k], NULL, run_work, &parts[k]) == 0;
    run_work(&parts[0]);
    for (int k = 1; k < threads; k++) {
        if (started[k])
            pthread_join(ids[k], NULL);
        else
            run_work(&parts[k]); /* no thread: this one does it */
    }
    Py_END_ALLOW_THREADS
}

/* ------------------------------------------------------------------ Python */
typedef struct {
    Py_buffer view[8];
    int held;
} bufs_t;

static void release(bufs_t *b)
{
    for (int i = 0; i < b->held; i++)
        PyBuffer_Release(&b->view[i]);
    b->held = 0;
}

/* a C-contiguous buffer of exactly ``size`` bytes (writable when asked) */
static void *get(bufs_t *b, PyObject *obj, Py_ssize_t size, int writable, const char *what)
{
    Py_buffer *v = &b->view[b->held];
    if (PyObject_GetBuffer(obj, v, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return NULL;
    b->held++;
    if (v->len != size) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected %zd", what, v->len, size);
        return NULL;
    }
    return v->buf;
}

static Py_ssize_t count_tables(PyObject *state, Py_ssize_t *out)
{
    Py_buffer v;
    if (PyObject_GetBuffer(state, &v, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0)
        return -1;
    Py_ssize_t len = v.len;
    PyBuffer_Release(&v);
    if (len % (Py_ssize_t)sizeof(table_t)) {
        PyErr_SetString(PyExc_ValueError, "state: not a whole number of tables");
        return -1;
    }
    *out = len / (Py_ssize_t)sizeof(table_t);
    return 0;
}

static int load_common(bufs_t *b, PyObject *spec_obj, PyObject *state_obj, work_t *wk, Py_ssize_t *n)
{
    memset(wk, 0, sizeof(*wk));
    if (count_tables(state_obj, n) < 0)
        return -1;
    wk->spec = get(b, spec_obj, SPEC_SIZE * (Py_ssize_t)sizeof(int32_t), 0, "spec");
    if (!wk->spec)
        return -1;
    if (wk->spec[SPEC_OBS_BITS] > OBS_WORDS * 64 - 128 || wk->spec[SPEC_NSEATS] < 3 ||
        wk->spec[SPEC_PLAYERS] < 2 || wk->spec[SPEC_PLAYERS] > wk->spec[SPEC_NSEATS] ||
        wk->spec[SPEC_NSEATS] > SEATS || wk->spec[SPEC_DECK_SIZE] > MAX_DECK ||
        wk->spec[SPEC_NBIDS] > MAX_BIDS) {
        PyErr_SetString(PyExc_ValueError, "spec out of range");
        return -1;
    }
    wk->tables = get(b, state_obj, *n * (Py_ssize_t)sizeof(table_t), 1, "state");
    return wk->tables ? 0 : -1;
}

static int load_outputs(bufs_t *b, PyObject *const *args, work_t *wk, Py_ssize_t n)
{
    wk->obs = get(b, args[0], n * OBS_BYTES(wk->spec), 1, "obs");
    if (!wk->obs)
        return -1;
    wk->mask = get(b, args[1], n * MASK_BYTES, 1, "mask");
    if (!wk->mask)
        return -1;
    wk->to_move = get(b, args[2], n, 1, "to_move");
    return wk->to_move ? 0 : -1;
}

/* reset(spec, state, seeds, obs, mask, to_move, threads) */
static PyObject *py_reset(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "reset(spec, state, seeds, obs, mask, to_move, threads)");
        return NULL;
    }
    bufs_t b = {.held = 0};
    work_t wk;
    Py_ssize_t n;
    int threads = PyLong_AsLong(args[6]);
    if (threads == -1 && PyErr_Occurred())
        return NULL;
    if (load_common(&b, args[0], args[1], &wk, &n) < 0 ||
        !(wk.seeds = get(&b, args[2], n * 8, 0, "seeds")) || load_outputs(&b, args + 3, &wk, n) < 0) {
        release(&b);
        return NULL;
    }
    wk.op = OP_RESET;
    run_batch(&wk, n, threads);
    release(&b);
    Py_RETURN_NONE;
}

/* step(spec, state, actions, obs, mask, to_move, rewards, done, threads, autoreset) */
static PyObject *py_step(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError,
                        "step(spec, state, actions, obs, mask, to_move, rewards, done, threads, "
                        "autoreset)");
        return NULL;
    }
    bufs_t b = {.held = 0};
    work_t wk;
    Py_ssize_t n;
    int threads = PyLong_AsLong(args[8]);
    if (threads == -1 && PyErr_Occurred())
        return NULL;
    int autoreset = PyObject_IsTrue(args[9]);
    if (autoreset < 0)
        return NULL;
    if (load_common(&b, args[0], args[1], &wk, &n) < 0 ||
        !(wk.actions = get(&b, args[2], n * 8, 0, "actions")) || load_outputs(&b, args + 3, &wk, n) < 0 ||
        !(wk.rewards = get(&b, args[6], n * wk.spec[SPEC_PLAYERS] * 4, 1, "rewards")) ||
        !(wk.done = get(&b, args[7], n, 1, "done"))) {
        release(&b);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t a = wk.actions[i];
        if (a < 0 || a >= NUM_ACTIONS || !ahas(&wk.tables[i].legal, (int)a)) {
            release(&b);
            PyErr_Format(PyExc_ValueError, "table %zd: action %lld is not legal now", i, (long long)a);
            return NULL;
        }
    }
    wk.op = OP_STEP;
    wk.autoreset = autoreset;
    run_batch(&wk, n, threads);
    release(&b);
    Py_RETURN_NONE;
}

/* sample(state, actions, threads): a random legal action for every table (its own RNG) */
static PyObject *py_sample(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "sample(state, actions, threads)");
        return NULL;
    }
    bufs_t b = {.held = 0};
    work_t wk;
    memset(&wk, 0, sizeof(wk));
    Py_ssize_t n;
    int threads = PyLong_AsLong(args[2]);
    if (threads == -1 && PyErr_Occurred())
        return NULL;
    if (count_tables(args[0], &n) < 0 ||
        !(wk.tables = get(&b, args[0], n * (Py_ssize_t)sizeof(table_t), 1, "state")) ||
        !(wk.actions = get(&b, args[1], n * 8, 1, "actions"))) {
        release(&b);
        return NULL;
    }
    wk.op = OP_SAMPLE;
    run_batch(&wk, n, threads);
    release(&b);
    Py_RETURN_NONE;
}

/* unpack(spec, obs, mask, floats, masks, threads): packed observations and masks as
 * float32 vectors (the bits, then zeros up to the vector's size) and int8 masks */
static PyObject *py_unpack(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "unpack(spec, obs, mask, floats, masks, threads)");
        return NULL;
    }
    bufs_t b = {.held = 0};
    work_t wk;
    memset(&wk, 0, sizeof(wk));
    int threads = PyLong_AsLong(args[5]);
    if (threads == -1 && PyErr_Occurred())
        return NULL;
    wk.spec = get(&b, args[0], SPEC_SIZE * (Py_ssize_t)sizeof(int32_t), 0, "spec");
    if (!wk.spec) {
        release(&b);
        return NULL;
    }
    Py_buffer *v = &b.view[b.held];
    if (PyObject_GetBuffer(args[1], v, PyBUF_C_CONTIGUOUS) < 0) {
        release(&b);
        return NULL;
    }
    b.held++;
    Py_ssize_t n = v->len / OBS_BYTES(wk.spec);
    wk.obs = v->buf;
    if (v->len != n * OBS_BYTES(wk.spec) || !(wk.mask = get(&b, args[2], n * MASK_BYTES, 0, "mask"))) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "obs: not a whole number of tables");
        release(&b);
        return NULL;
    }
    Py_buffer *f = &b.view[b.held];
    if (PyObject_GetBuffer(args[3], f, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        release(&b);
        return NULL;
    }
    b.held++;
    wk.size = n ? f->len / (Py_ssize_t)sizeof(float) / n : 0;
    if (f->len != n * wk.size * (Py_ssize_t)sizeof(float) || wk.size < wk.spec[SPEC_OBS_BITS] ||
        !(wk.masks = get(&b, args[4], n * NUM_ACTIONS, 1, "masks"))) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "floats: one row of at least the bits a table");
        release(&b);
        return NULL;
    }
    wk.floats = f->buf;
    wk.op = OP_UNPACK;
    run_batch(&wk, n, threads);
    release(&b);
    Py_RETURN_NONE;
}

/* observe(spec, state, table, seat, out): one table's view from any seat */
static PyObject *py_observe(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "observe(spec, state, table, seat, out)");
        return NULL;
    }
    bufs_t b = {.held = 0};
    work_t wk;
    Py_ssize_t n;
    Py_ssize_t table = PyLong_AsSsize_t(args[2]);
    long seat = PyLong_AsLong(args[3]);
    if (PyErr_Occurred())
        return NULL;
    if (load_common(&b, args[0], args[1], &wk, &n) < 0) {
        release(&b);
        return NULL;
    }
    if (table < 0 || table >= n || seat < 0 || seat >= wk.spec[SPEC_NSEATS]) {
        release(&b);
        PyErr_SetString(PyExc_IndexError, "observe: table or seat out of range");
        return NULL;
    }
    uint8_t *out = get(&b, args[4], OBS_BYTES(wk.spec), 1, "out");
    if (!out) {
        release(&b);
        return NULL;
    }
    uint64_t w[OBS_WORDS];
    observe(wk.spec, &wk.tables[table], (int)seat, w);
    memcpy(out, w, (size_t)OBS_BYTES(wk.spec));
    release(&b);
    Py_RETURN_NONE;
}

/* deals(state, seeds, dealers): each table's hand seed and dealer now */
static PyObject *py_deals(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "deals(state, seeds, dealers)");
        return NULL;
    }
    bufs_t b = {.held = 0};
    Py_ssize_t n;
    table_t *tables;
    uint64_t *seeds;
    int8_t *dealers;
    if (count_tables(args[0], &n) < 0 ||
        !(tables = get(&b, args[0], n * (Py_ssize_t)sizeof(table_t), 1, "state")) ||
        !(seeds = get(&b, args[1], n * 8, 1, "seeds")) || !(dealers = get(&b, args[2], n, 1, "dealers"))) {
        release(&b);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        seeds[i] = tables[i].hand_seed;
        dealers[i] = tables[i].dealer;
    }
    release(&b);
    Py_RETURN_NONE;
}

static PyObject *py_hand_seed(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "hand_seed(seed, index)");
        return NULL;
    }
    unsigned long long seed = PyLong_AsUnsignedLongLong(args[0]);
    unsigned long long index = PyLong_AsUnsignedLongLong(args[1]);
    if (PyErr_Occurred())
        return NULL;
    return PyLong_FromUnsignedLongLong(hand_seed(seed, index));
}

static const struct { const char *name; int index; } spec_names[] = {
    {"deck_size", SPEC_DECK_SIZE},
    {"kitty_size", SPEC_KITTY_SIZE},
    {"american", SPEC_AMERICAN},
    {"misere_after_seven", SPEC_MISERE_AFTER_SEVEN},
    {"misere_defenders_score", SPEC_MISERE_DEFENDERS_SCORE},
    {"joker_not_renounced", SPEC_JOKER_NOT_RENOUNCED},
    {"slam_minimum", SPEC_SLAM_MINIMUM},
    {"defender_points", SPEC_DEFENDER_POINTS},
    {"failed_to_opponents", SPEC_FAILED_TO_OPPONENTS},
    {"nseats", SPEC_NSEATS},
    {"called_partner", SPEC_CALLED_PARTNER},
    {"partner_announces", SPEC_PARTNER_ANNOUNCES},
    {"phase_call", SPEC_PHASE_CALL},
    {"called", SPEC_CALLED},
    {"players", SPEC_PLAYERS},
    {"dummies", SPEC_DUMMIES},
    {"side", SPEC_SIDE},
    {"nbids", SPEC_NBIDS},
    {"obs_bits", SPEC_OBS_BITS},
    {"phase_auction", SPEC_PHASE_AUCTION},
    {"phase_discard", SPEC_PHASE_DISCARD},
    {"phase_nominate", SPEC_PHASE_NOMINATE},
    {"phase_play", SPEC_PHASE_PLAY},
    {"phase_done", SPEC_PHASE_DONE},
    {"hand", SPEC_HAND},
    {"contract", SPEC_CONTRACT},
    {"trump", SPEC_TRUMP},
    {"joker_suits", SPEC_JOKER_SUITS},
    {"discards", SPEC_DISCARDS},
    {"led", SPEC_LED},
    {"suits_led", SPEC_SUITS_LED},
    {"seats_offset", SPEC_SEATS_OFFSET},
    {"record", SPEC_RECORD},
    {"r_calls", SPEC_R_CALLS},
    {"r_played", SPEC_R_PLAYED},
    {"r_trick", SPEC_R_TRICK},
    {"r_voids", SPEC_R_VOIDS},
    {"r_won", SPEC_R_WON},
    {"r_exposed", SPEC_R_EXPOSED},
    {"r_to_move", SPEC_R_TO_MOVE},
    {"r_dealer", SPEC_R_DEALER},
    {"r_contractor", SPEC_R_CONTRACTOR},
    {"r_partner", SPEC_R_PARTNER},
    {"r_active", SPEC_R_ACTIVE},
    {"deck", SPEC_DECK},
    {"owners", SPEC_OWNERS},
    {"bids", SPEC_BIDS},
    {"value", SPEC_VALUE},
    {"call_index", SPEC_CALL_INDEX},
};

static PyMethodDef methods[] = {
    {"reset", (PyCFunction)(void (*)(void))py_reset, METH_FASTCALL, "Deal every table's first hand."},
    {"step", (PyCFunction)(void (*)(void))py_step, METH_FASTCALL, "One action at every table."},
    {"sample", (PyCFunction)(void (*)(void))py_sample, METH_FASTCALL, "A random legal action per table."},
    {"unpack", (PyCFunction)(void (*)(void))py_unpack, METH_FASTCALL, "Packed rows as float32 and int8."},
    {"observe", (PyCFunction)(void (*)(void))py_observe, METH_FASTCALL, "One table's view from a seat."},
    {"deals", (PyCFunction)(void (*)(void))py_deals, METH_FASTCALL, "Each table's hand seed and dealer."},
    {"hand_seed", (PyCFunction)(void (*)(void))py_hand_seed, METH_FASTCALL, "A table's hand's seed."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_batched", "The batched environment's C core.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__batched(void)
{
    for (int b = 0; b < 256; b++)
        for (int i = 0; i < 8; i++)
            unpacked[b][i] = (b >> i) & 1 ? 1.0f : 0.0f;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "TABLE_BYTES", (long)sizeof(table_t)) < 0 ||
        PyModule_AddIntConstant(m, "SPEC_SIZE", SPEC_SIZE) < 0 ||
        PyModule_AddIntConstant(m, "MASK_BYTES", MASK_BYTES) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    /* SPEC: where each entry of the spec lies (for fivehundred.env.batched to fill) */
    PyObject *index = PyDict_New();
    if (index == NULL || PyModule_AddObject(m, "SPEC", index) < 0) {
        Py_XDECREF(index);
        Py_DECREF(m);
        return NULL;
    }
    for (size_t i = 0; i < sizeof(spec_names) / sizeof(spec_names[0]); i++) {
        PyObject *value = PyLong_FromLong(spec_names[i].index);
        if (value == NULL || PyDict_SetItemString(index, spec_names[i].name, value) < 0) {
            Py_XDECREF(value);
            Py_DECREF(m);
            return NULL;
        }
        Py_DECREF(value);
    }
    return m;
}
