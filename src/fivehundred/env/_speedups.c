/* The optional C extension of the environment's observation (see docs/env.md, "Speed").
 *
 * floats(bits, size) -> bytearray: the first ``size`` bits of the non-negative integer
 *     ``bits`` (bit i = element i) as ``size`` native float32 values 0.0 / 1.0, for
 *     ``numpy.frombuffer(..., numpy.float32)``.
 * mask(legal, size) -> bytearray: ``size`` bytes, 1 at every index in the list ``legal``,
 *     0 elsewhere, for ``numpy.frombuffer(..., numpy.int8)``.
 * Tracker: follows a hand and writes a seat's observation (see "the tracker" below).
 * Driver: raw_env's last() and step() in a one-hand episode (see "the driver" below).
 * avx2([use]): whether the vectors are written with AVX2 moves (for the tests).
 *
 * fivehundred.env.encoding has the same in Python (used where this is not built); the
 * tests check that both give the very same arrays.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>

#define MAX_BYTES 1024 /* 8,192 bits: far more than any rule set's vector */

static float unpacked[256][8] __attribute__((aligned(32)));

static PyObject *
out_of_range(void)
{
    PyErr_SetString(PyExc_ValueError, "floats: bits must be a non-negative int below 2**size");
    return NULL;
}

static PyObject *
floats(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 2 || !PyLong_Check(args[0]) || !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "floats(bits: int, size: int)");
        return NULL;
    }
    PyObject *bits = args[0];
    Py_ssize_t size = PyLong_AsSsize_t(args[1]);
    if (size == -1 && PyErr_Occurred())
        return NULL;
    if (size < 0 || size > 8 * MAX_BYTES) {
        PyErr_SetString(PyExc_ValueError, "floats: size out of range");
        return NULL;
    }
    Py_ssize_t nbytes = (size + 7) / 8;
    unsigned char raw[MAX_BYTES + 8];
#if PY_VERSION_HEX < 0x030C0000
    /* 3.11: the int's own digits (PyLong_SHIFT bits each), little-endian */
    Py_ssize_t ndigits = Py_SIZE(bits);
    if (ndigits < 0)
        return out_of_range();
    const digit *digits = ((PyLongObject *)bits)->ob_digit;
    unsigned long long acc = 0;
    int held = 0;
    Py_ssize_t filled = 0; /* raw[0 .. nbytes]: the bytes wanted and one spare */
    for (Py_ssize_t d = 0; d <= ndigits; d++) {
        if (d < ndigits) {
            acc |= (unsigned long long)digits[d] << held;
            held += PyLong_SHIFT;
        }
        else {
            held += 7; /* the last bits: flush them as one more byte */
        }
        for (; held >= 8; held -= 8, acc >>= 8) {
            if (filled <= nbytes)
                raw[filled++] = (unsigned char)acc;
            else if (acc & 0xFF)
                return out_of_range();
        }
    }
    while (filled <= nbytes)
        raw[filled++] = 0;
#elif PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t needed = PyLong_AsNativeBytes(bits, raw, nbytes + 1,
                                             Py_ASNATIVEBYTES_LITTLE_ENDIAN
                                             | Py_ASNATIVEBYTES_UNSIGNED_BUFFER
                                             | Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (needed < 0) {
        PyErr_Clear();
        return out_of_range();
    }
    if (needed > nbytes + 1)
        return out_of_range();
#else
    if (_PyLong_AsByteArray((PyLongObject *)bits, raw, (size_t)(nbytes + 1), 1, 0) < 0) {
        PyErr_Clear();
        return out_of_range();
    }
#endif
    /* bits beyond size (within the last byte or the spare one) */
    if (raw[nbytes] || (size % 8 && (raw[nbytes - 1] >> (size % 8))))
        return out_of_range();
    PyObject *out = PyByteArray_FromStringAndSize(NULL, size * (Py_ssize_t)sizeof(float));
    if (out == NULL)
        return NULL;
    float *dst = (float *)PyByteArray_AS_STRING(out);
    Py_ssize_t whole = size / 8;
    for (Py_ssize_t i = 0; i < whole; i++)
        memcpy(dst + 8 * i, unpacked[raw[i]], 8 * sizeof(float));
    if (size % 8)
        memcpy(dst + 8 * whole, unpacked[raw[whole]], (size % 8) * sizeof(float));
    return out;
}

/* the int value as a Py_ssize_t (-1 with an error set where it is none): a small exact
 * int read straight from its one digit */
static inline Py_ssize_t
index_of(PyObject *value)
{
#if PY_VERSION_HEX >= 0x030C0000
    if (PyLong_CheckExact(value) && PyUnstable_Long_IsCompact((PyLongObject *)value))
        return PyUnstable_Long_CompactValue((PyLongObject *)value);
#else
    if (PyLong_CheckExact(value) && (Py_SIZE(value) == 0 || Py_SIZE(value) == 1))
        return Py_SIZE(value) ? (Py_ssize_t)((PyLongObject *)value)->ob_digit[0] : 0;
#endif
    return PyLong_AsSsize_t(value);
}

/* size bytes at dst: 1 at every index in the list legal (None: none), 0 elsewhere */
static int
fill_mask(char *dst, PyObject *legal, Py_ssize_t size)
{
    memset(dst, 0, (size_t)size);
    if (legal == Py_None)
        return 0;
    Py_ssize_t count = PyList_GET_SIZE(legal);
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_ssize_t action = index_of(PyList_GET_ITEM(legal, i));
        if (action == -1 && PyErr_Occurred())
            return -1;
        if (action < 0 || action >= size) {
            PyErr_SetString(PyExc_IndexError, "mask: action out of range");
            return -1;
        }
        dst[action] = 1;
    }
    return 0;
}

static PyObject *
mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 2 || !PyList_Check(args[0]) || !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "mask(legal: list, size: int)");
        return NULL;
    }
    PyObject *legal = args[0];
    Py_ssize_t size = PyLong_AsSsize_t(args[1]);
    if (size == -1 && PyErr_Occurred())
        return NULL;
    if (size < 0) {
        PyErr_SetString(PyExc_ValueError, "mask: size out of range");
        return NULL;
    }
    PyObject *out = PyByteArray_FromStringAndSize(NULL, size);
    if (out == NULL)
        return NULL;
    if (fill_mask(PyByteArray_AS_STRING(out), legal, size) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* ------------------------------------------------------------------ the tracker
 *
 * Tracker(layout, phases, auction, new_vector, new_mask) follows one HandState at a time
 * exactly as fivehundred.env.encoding.Encoder's own tracker does (Encoder.bits,
 * Encoder._sync and Encoder._fixed_part, line for line: the seat records as bits where they
 * lie in seat 0's vector, updated from the actions taken) and writes a seat's vector as
 * float32, the records turned in the float domain (record k of the vector is seat
 * (seat + k) % n's). Every position comes from the encoder (Encoder.tracker): this holds no
 * field of its own. ``layout`` is a tuple of ints (see LAYOUT_* below); ``phases`` the
 * phases in the order of their positions at the layout's end; ``auction`` the auction's.
 *
 * tracker.observe(state, seat, legal) -> {"observation": vector, "action_mask": mask}, or
 *     None for seat -1 (no seat to move: the encoder's Python path answers); ``legal``:
 *     the list of legal actions (the mask's ones), or None for an all-zero mask.
 *     The dict and its arrays are reused once nothing refers to them and they are as made
 *     (see slot_free; views of pooled arrays where numpy's arrays are not as read).
 */
enum {
    LAYOUT_SEATS, LAYOUT_SIZE, LAYOUT_AT0, LAYOUT_RECORD, LAYOUT_LED, LAYOUT_SUITS_LED,
    LAYOUT_NUM_ACTIONS, LAYOUT_TRICKS, LAYOUT_CARDS, LAYOUT_HEAD, /* then per seat: */
};
/* After the head: per-seat rows (absolute positions) played, trick, voids, won, calls,
 * to_move; NUM_ACTIONS call indices; NUM_ACTIONS cards (action_card); per-seat rows dealer,
 * active, contractor, partner; NUM_ACTIONS contract positions (-1: none); the trump
 * strains' (STRAINS), the red and the black joker's suits' (SUITS each) positions; the
 * called card's and the discards' offsets; each phase's position. */
#define STRAINS 5
#define SUITS 4
#define MAX_PHASES 16
#define MAX_SEATS 8
#define MAX_ACTIONS 512
#define MAX_WORDS (MAX_BYTES / 8)
#define POOL 4 /* arrays kept for reuse, each for the vector and for the mask */

typedef unsigned long long word;

typedef struct {
    PyObject_HEAD
    int n, size, at0, record, led, suits_led, num_actions, tricks, cards, words;
    int played_at[MAX_SEATS], trick_at[MAX_SEATS], void_at[MAX_SEATS], won_at[MAX_SEATS];
    int call_at[MAX_SEATS], to_move_at[MAX_SEATS];
    int dealer_at[MAX_SEATS], active_at[MAX_SEATS], contractor_at[MAX_SEATS],
        partner_at[MAX_SEATS];
    int contract_at[MAX_ACTIONS], strain_at[STRAINS], red_at[SUITS], black_at[SUITS];
    int called, discards_at, nphases, phase_at[MAX_PHASES];
    /* the cards lying face up: where seat k to the observer's left shows them, who decides
     * for each seat, the dummies (a set of seats), whether the rules have dummies */
    int exposed_at[MAX_SEATS], controller[MAX_SEATS], dummy_set, dummies;
    /* the fixed part's exposed seats (state.exposed_seats, a set: constant while the fixed
     * part is, which is loaded again whenever the claim, the first trick or the phase
     * moves on) */
    int exposed_set;
    PyObject *phases;
    int call_index[MAX_ACTIONS], card_of[MAX_ACTIONS];
    PyObject *auction_phase;
    /* the tracked state (strong references, as the encoder's) */
    PyObject *state, *seats, *fixed_phase;
    Py_ssize_t history, calls_seen, tricks_seen, in_trick;
    int won[MAX_SEATS];
    word records[MAX_WORDS];
    word trick_fields[MAX_WORDS]; /* every seat's trick field */
    /* the fixed part: valid, then its fields */
    int fixed, contractor, face_up;
    word table_bits[MAX_WORDS], fixed_records[MAX_WORDS], discards[MAX_WORDS],
        partner_bits[MAX_WORDS];
    int has_partner_bits;
    /* the arrays handed out (see pooled below): for the vector, then for the mask */
    PyObject *factory[2], *bytes[2][POOL], *arrays[2][POOL];
    int next[2];
    /* the arrays handed out themselves (see slot_free): 1, or -1 where numpy's arrays are
     * not as this file reads them (then views of them are); slot i's dict holds arrays[0][i]
     * and arrays[1][i], made with these dtypes and flags */
    int direct;
    PyObject *obs[POOL], *descr[2][POOL];
    int flags[2][POOL];
} Tracker;

static inline void
set_bit(word *w, Py_ssize_t i)
{
    w[i >> 6] |= 1ULL << (i & 63);
}

static inline void
flip_bit(word *w, Py_ssize_t i)
{
    w[i >> 6] ^= 1ULL << (i & 63);
}

/* 1 with *out = value where the int value is non-negative and below 2**64, else 0 (no
 * error set) */
static inline int
long_u64(PyObject *value, unsigned long long *out)
{
#if PY_VERSION_HEX >= 0x030D0000
    unsigned long long v = 0;
    Py_ssize_t n = PyLong_AsNativeBytes(value, &v, 8,
                                        Py_ASNATIVEBYTES_NATIVE_ENDIAN
                                        | Py_ASNATIVEBYTES_UNSIGNED_BUFFER
                                        | Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (n < 0) {
        PyErr_Clear();
        return 0;
    }
    if (n > 8)
        return 0;
    *out = v;
    return 1;
#else
    if (_PyLong_Sign(value) < 0 || _PyLong_NumBits(value) > 64)
        return 0;
    *out = PyLong_AsUnsignedLongLongMask(value);
    return 1;
#endif
}

/* ORs the non-negative int ``value`` << shift into w (words words); -1 on error */
static int
or_int(word *w, int words, PyObject *value, int shift)
{
    if (!PyLong_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "Tracker: an int was expected");
        return -1;
    }
    int ws = shift >> 6, bs = shift & 63;
    unsigned long long small_value;
    if (long_u64(value, &small_value)) { /* (most: 64 bits at most) */
        if (small_value && ws < words)
            w[ws] |= small_value << bs;
        if (small_value && bs && ws + 1 < words)
            w[ws + 1] |= small_value >> (64 - bs);
        return 0;
    }
    unsigned char raw[MAX_BYTES + 8];
#if PY_VERSION_HEX >= 0x030D0000
    int flags = Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER
                | Py_ASNATIVEBYTES_REJECT_NEGATIVE;
    Py_ssize_t nbytes = PyLong_AsNativeBytes(value, raw, 8, flags);
    if (nbytes > 8 && nbytes <= (Py_ssize_t)words * 8)
        nbytes = PyLong_AsNativeBytes(value, raw, nbytes, flags);
    if (nbytes < 0) {
        PyErr_Clear();
        nbytes = (Py_ssize_t)words * 8 + 1;
    }
#else
    Py_ssize_t nbytes = (Py_ssize_t)((_PyLong_NumBits(value) + 7) / 8);
    if (_PyLong_Sign(value) < 0)
        nbytes = (Py_ssize_t)words * 8 + 1;
    else if (nbytes <= (Py_ssize_t)words * 8
             && _PyLong_AsByteArray((PyLongObject *)value, raw, (size_t)nbytes, 1, 0) < 0)
        return -1;
#endif
    if (nbytes > (Py_ssize_t)words * 8) {
        PyErr_SetString(PyExc_ValueError, "Tracker: an int out of range");
        return -1;
    }
    Py_ssize_t used = (nbytes + 7) / 8;
    memset(raw + nbytes, 0, (size_t)(used * 8 - nbytes));
    for (Py_ssize_t i = 0; i < used; i++) {
        word v;
        memcpy(&v, raw + 8 * i, 8);
        if (!v)
            continue;
        if (i + ws < words)
            w[i + ws] |= v << bs;
        if (bs && i + ws + 1 < words)
            w[i + ws + 1] |= v >> (64 - bs);
    }
    return 0;
}

static void
tracker_reset(Tracker *t)
{
    memset(t->records, 0, sizeof t->records);
    for (int s = 0; s < t->n; s++) {
        set_bit(t->records, t->won_at[s]);
        t->won[s] = 0;
    }
    Py_CLEAR(t->seats);
    t->history = t->calls_seen = t->tricks_seen = t->in_trick = 0;
    t->fixed = 0;
    Py_CLEAR(t->fixed_phase);
}

/* every buffer, array and dict kept for reuse let go */
static void
clear_pools(Tracker *t)
{
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < POOL; i++) {
            Py_CLEAR(t->bytes[k][i]);
            Py_CLEAR(t->arrays[k][i]);
            Py_CLEAR(t->descr[k][i]);
        }
    for (int i = 0; i < POOL; i++)
        Py_CLEAR(t->obs[i]);
}

static int
tracker_init(Tracker *t, PyObject *args, PyObject *kwds)
{
    PyObject *layout, *phases, *auction, *new_vector, *new_mask;
    if (kwds && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError,
                        "Tracker(layout, phases, auction, new_vector, new_mask)");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "O!O!OOO", &PyTuple_Type, &layout, &PyTuple_Type, &phases,
                          &auction, &new_vector, &new_mask))
        return -1;
    Py_ssize_t nphases = PyTuple_GET_SIZE(phases);
    if (nphases < 1 || nphases > MAX_PHASES)
        goto bad;
    Py_ssize_t count = PyTuple_GET_SIZE(layout);
    int head[LAYOUT_HEAD];
    if (count < LAYOUT_HEAD)
        goto bad;
    for (int i = 0; i < LAYOUT_HEAD; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(layout, i));
        if (v == -1 && PyErr_Occurred())
            return -1;
        head[i] = (int)v;
    }
    int n = head[LAYOUT_SEATS], actions = head[LAYOUT_NUM_ACTIONS];
    if (n < 1 || n > MAX_SEATS || actions < 1 || actions > MAX_ACTIONS || head[LAYOUT_SIZE] < 1
        || head[LAYOUT_SIZE] > 8 * MAX_BYTES - 3 * 64
        || count != LAYOUT_HEAD + 12 * n + 3 * actions + STRAINS + 2 * SUITS + 2 + nphases + 2)
        goto bad;
    int values[LAYOUT_HEAD + 12 * MAX_SEATS + 3 * MAX_ACTIONS + STRAINS + 2 * SUITS + 2
               + MAX_PHASES + 2];
    for (Py_ssize_t i = 0; i < count; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(layout, i));
        if (v == -1 && PyErr_Occurred())
            return -1;
        values[i] = (int)v;
    }
    t->n = n;
    t->size = head[LAYOUT_SIZE];
    t->at0 = head[LAYOUT_AT0];
    t->record = head[LAYOUT_RECORD];
    t->led = head[LAYOUT_LED];
    t->suits_led = head[LAYOUT_SUITS_LED];
    t->num_actions = actions;
    t->tricks = head[LAYOUT_TRICKS];
    t->cards = head[LAYOUT_CARDS];
    t->words = (t->size + 63) / 64 + 2;
    if (t->at0 < 0 || t->record < 1 || t->at0 + n * t->record > t->size || t->cards < 1
        || t->cards > t->record || t->cards > 128 || t->tricks < 1 || t->tricks >= 128
        || t->led < 0 || t->suits_led < 0 || t->led >= t->at0 || t->suits_led >= t->at0)
        goto bad;
    int *rows = values + LAYOUT_HEAD;
    int *limits[6] = {t->played_at, t->trick_at, t->void_at,
                      t->won_at,    t->call_at,  t->to_move_at};
    for (int r = 0; r < 6; r++)
        for (int s = 0; s < n; s++) {
            int v = rows[r * n + s];
            if (v < t->at0 || v >= t->at0 + n * t->record) /* (+ 128 bits: in the words) */
                goto bad;
            limits[r][s] = v;
        }
    for (int a = 0; a < actions; a++) {
        t->call_index[a] = rows[6 * n + a];
        t->card_of[a] = rows[6 * n + actions + a];
        if (t->call_index[a] >= t->record || t->card_of[a] >= t->cards)
            goto bad;
    }
    int *more = rows + 6 * n + 2 * actions;
    int *seat_rows[4] = {t->dealer_at, t->active_at, t->contractor_at, t->partner_at};
    for (int r = 0; r < 4; r++)
        for (int s = 0; s < n; s++) {
            int v = *more++;
            if (v < t->at0 || v >= t->at0 + n * t->record)
                goto bad;
            seat_rows[r][s] = v;
        }
    /* the table fields' positions: below the records */
    for (int a = 0; a < actions; a++)
        if ((t->contract_at[a] = *more++) >= t->at0)
            goto bad;
    int *table_rows[3] = {t->strain_at, t->red_at, t->black_at};
    int widths[3] = {STRAINS, SUITS, SUITS};
    for (int r = 0; r < 3; r++)
        for (int i = 0; i < widths[r]; i++)
            if ((table_rows[r][i] = *more++) < 0 || table_rows[r][i] >= t->at0)
                goto bad;
    t->called = *more++;
    t->discards_at = *more++;
    if (t->called < 0 || t->called + t->cards > t->at0 || t->discards_at < 0
        || t->discards_at + t->cards > t->at0)
        goto bad;
    t->nphases = (int)nphases;
    for (int i = 0; i < t->nphases; i++)
        if ((t->phase_at[i] = *more++) < 0 || t->phase_at[i] >= t->at0)
            goto bad;
    for (int k = 0; k < n; k++)
        if ((t->exposed_at[k] = *more++) < t->at0
            || t->exposed_at[k] + t->cards > t->at0 + n * t->record)
            goto bad;
    for (int k = 0; k < n; k++)
        if ((t->controller[k] = *more++) < 0 || t->controller[k] >= n)
            goto bad;
    t->dummy_set = *more++;
    t->dummies = *more++;
    if (t->dummy_set < 0 || t->dummy_set >= 1 << n)
        goto bad;
    memset(t->trick_fields, 0, sizeof t->trick_fields);
    for (int s = 0; s < n; s++)
        for (int c = 0; c < t->cards; c++)
            set_bit(t->trick_fields, t->trick_at[s] + c);
    Py_INCREF(phases);
    Py_XSETREF(t->phases, phases);
    Py_INCREF(auction);
    Py_XSETREF(t->auction_phase, auction);
    Py_INCREF(new_vector);
    Py_XSETREF(t->factory[0], new_vector);
    Py_INCREF(new_mask);
    Py_XSETREF(t->factory[1], new_mask);
    clear_pools(t);
    t->direct = 1;
    Py_CLEAR(t->state);
    tracker_reset(t);
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "Tracker: a bad layout");
    return -1;
}

static int
tracker_traverse(Tracker *t, visitproc visit, void *arg)
{
    Py_VISIT(t->phases);
    Py_VISIT(t->auction_phase);
    Py_VISIT(t->state);
    Py_VISIT(t->seats);
    Py_VISIT(t->fixed_phase);
    for (int k = 0; k < 2; k++) {
        Py_VISIT(t->factory[k]);
        for (int i = 0; i < POOL; i++) {
            Py_VISIT(t->bytes[k][i]);
            Py_VISIT(t->arrays[k][i]);
            Py_VISIT(t->descr[k][i]);
        }
    }
    for (int i = 0; i < POOL; i++)
        Py_VISIT(t->obs[i]);
    return 0;
}

static int
tracker_clear(Tracker *t)
{
    Py_CLEAR(t->phases);
    Py_CLEAR(t->auction_phase);
    Py_CLEAR(t->state);
    Py_CLEAR(t->seats);
    Py_CLEAR(t->fixed_phase);
    Py_CLEAR(t->factory[0]);
    Py_CLEAR(t->factory[1]);
    clear_pools(t);
    return 0;
}

static void
tracker_dealloc(Tracker *t)
{
    PyObject_GC_UnTrack(t);
    tracker_clear(t);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

/* an int in [0, limit) from a Python int; -1 (an error set) otherwise */
static long
small(PyObject *value, long limit)
{
    long v = PyLong_AsLong(value);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < 0 || v >= limit) {
        PyErr_SetString(PyExc_ValueError, "Tracker: a value out of range");
        return -1;
    }
    return v;
}

static PyObject *s_calls, *s_visible_cards;

/* a card played by seat: its played and trick bits, the suits it has shown void in */
static int
add_card(Tracker *t, word *records, PyObject *seat_obj, PyObject *card_obj, PyObject *voids)
{
    long seat = small(seat_obj, t->n);
    if (seat < 0)
        return -1;
    long card = small(card_obj, t->cards);
    if (card < 0)
        return -1;
    PyObject *v = PySequence_GetItem(voids, seat);
    if (v == NULL)
        return -1;
    int rc = or_int(records, t->words, v, t->void_at[seat]);
    Py_DECREF(v);
    set_bit(records, t->played_at[seat] + card);
    set_bit(records, t->trick_at[seat] + card);
    return rc;
}

/* a seat's call (seat, call): its bit in the seat's calls field */
static int
add_call(Tracker *t, word *records, PyObject *pair)
{
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        PyErr_SetString(PyExc_TypeError, "Tracker: a call is (seat, call)");
        return -1;
    }
    long seat = small(PyTuple_GET_ITEM(pair, 0), t->n);
    if (seat < 0)
        return -1;
    long call = small(PyTuple_GET_ITEM(pair, 1), t->num_actions);
    if (call < 0)
        return -1;
    if (t->call_index[call] >= 0)
        set_bit(records, t->call_at[seat] + t->call_index[call]);
    return 0;
}

/* a trick complete: its trick fields clear, the winner's tricks_won moves on one */
static int
end_trick(Tracker *t, word *records, PyObject *winner_obj)
{
    long winner = small(winner_obj, t->n);
    if (winner < 0)
        return -1;
    int won = t->won[winner];
    if (won >= t->tricks) {
        PyErr_SetString(PyExc_ValueError, "Tracker: too many tricks");
        return -1;
    }
    for (int i = 0; i < t->words; i++)
        records[i] &= ~t->trick_fields[i];
    flip_bit(records, t->won_at[winner] + won);
    flip_bit(records, t->won_at[winner] + won + 1);
    t->won[winner] = won + 1;
    return 0;
}

/* (seat, action) of a completed trick's plays */
static int
add_play(Tracker *t, word *records, PyObject *play, PyObject *voids)
{
    if (!PyTuple_Check(play) || PyTuple_GET_SIZE(play) != 2) {
        PyErr_SetString(PyExc_TypeError, "Tracker: a play is (seat, action)");
        return -1;
    }
    long action = small(PyTuple_GET_ITEM(play, 1), t->num_actions);
    if (action < 0)
        return -1;
    PyObject *card = PyLong_FromLong(t->card_of[action]);
    if (card == NULL)
        return -1;
    int rc = add_card(t, records, PyTuple_GET_ITEM(play, 0), card, voids);
    Py_DECREF(card);
    return rc;
}

/* a completed trick (a Trick: plays, winner) from its play number ``from`` on */
static int
add_trick(Tracker *t, word *records, PyObject *trick, Py_ssize_t from, PyObject *voids)
{
    if (!PyTuple_Check(trick) || PyTuple_GET_SIZE(trick) < 2) {
        PyErr_SetString(PyExc_TypeError, "Tracker: a trick is (plays, winner)");
        return -1;
    }
    PyObject *plays = PyTuple_GET_ITEM(trick, 0);
    Py_ssize_t count = PySequence_Size(plays);
    if (count < 0)
        return -1;
    for (Py_ssize_t i = from; i < count; i++) {
        PyObject *play = PySequence_GetItem(plays, i);
        if (play == NULL)
            return -1;
        int rc = add_play(t, records, play, voids);
        Py_DECREF(play);
        if (rc < 0)
            return -1;
    }
    return end_trick(t, records, PyTuple_GET_ITEM(trick, 1));
}


/* The hand's attributes: its slots read straight from their offsets (those of the one class
 * met last, looked up once from the slot's member descriptor), any other as getattr does. */
enum {
    A_TRICK_SEATS,
    A_TRICK_CARDS,
    A_HISTORY,
    A_VOID_SHOWN,
    A_PHASE,
    A_CLAIM_TRICK,
    A_AUCTION,
    A_TRICKS,
    A_TO_MOVE,
    A_PARTNER_REVEALED,
    A_PARTNERS,
    A_HANDS,
    A_LED_SUIT,
    A_SUITS_LED,
    A_DEALER,
    A_ACTIVE,
    A_CONTRACT,
    A_CONTRACTOR,
    A_TRUMP,
    A_CALLED_CARD,
    A_JOKER_SUITS,
    A_DISCARDS,
    A_EXPOSED_SEATS,
    A_FACE_UP,
    A_COUNT,
};
static const char *attr_texts[A_COUNT] = {
    "trick_seats",
    "trick_cards",
    "history",
    "void_shown",
    "phase",
    "claim_trick",
    "auction",
    "tricks",
    "to_move",
    "partner_revealed",
    "partners",
    "hands",
    "led_suit",
    "suits_led",
    "dealer",
    "active",
    "contract",
    "contractor",
    "trump",
    "called_card",
    "joker_suits",
    "discards",
    "exposed_seats",
    "face_up",
};
static PyObject *attr_names[A_COUNT]; /* (interned) */
static PyTypeObject *slot_type;
static Py_ssize_t slot_offsets[A_COUNT]; /* -1: not a slot (a property) */

/* getattr(state, attr_names[name]) */
/* the slots' offsets of the class met now */
static void
learn_slots(PyTypeObject *type)
{
    Py_INCREF(type);
    Py_XSETREF(slot_type, type);
    for (int i = 0; i < A_COUNT; i++) {
        PyObject *d = _PyType_Lookup(slot_type, attr_names[i]);
        slot_offsets[i] = -1;
        if (d != NULL && Py_IS_TYPE(d, &PyMemberDescr_Type)) {
            PyMemberDef *member = ((PyMemberDescrObject *)d)->d_member;
            if (member->type == T_OBJECT_EX)
                slot_offsets[i] = member->offset;
        }
    }
}

static inline PyObject *
state_attr(PyObject *state, int name)
{
    if (Py_TYPE(state) != slot_type)
        learn_slots(Py_TYPE(state));
    if (slot_offsets[name] >= 0) {
        PyObject *value = *(PyObject **)((char *)state + slot_offsets[name]);
        if (value != NULL) /* (an unset slot: getattr's error) */
            return Py_NewRef(value);
    }
    return PyObject_GetAttr(state, attr_names[name]);
}

/* len(getattr(obj, name)), or -1 with an error set */
static Py_ssize_t
attr_len(PyObject *obj, int name)
{
    PyObject *value = state_attr(obj, name);
    if (value == NULL)
        return -1;
    Py_ssize_t n = PySequence_Size(value);
    Py_DECREF(value);
    return n;
}

/* the value of an int attribute */
static int
attr_long(PyObject *obj, int name, long *out)
{
    PyObject *value = state_attr(obj, name);
    if (value == NULL)
        return -1;
    *out = PyLong_AsLong(value);
    Py_DECREF(value);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* Encoder._sync: the seat records brought up to ``state`` (incrementally when it moved on) */
static int
tracker_sync(Tracker *t, PyObject *state, Py_ssize_t history)
{
    PyObject *phase = state_attr(state, A_PHASE);
    if (phase == NULL)
        return -1;
    int keep = state == t->state && history == t->history + 1 && phase == t->fixed_phase;
    if (keep) {
        int auction = PyObject_RichCompareBool(phase, t->auction_phase, Py_EQ);
        if (auction < 0) {
            Py_DECREF(phase);
            return -1;
        }
        if (!auction) {
            keep = 0;
            if (t->tricks_seen) {
                PyObject *claim = state_attr(state, A_CLAIM_TRICK);
                if (claim == NULL) {
                    Py_DECREF(phase);
                    return -1;
                }
                long c = PyLong_AsLong(claim);
                Py_DECREF(claim);
                if (c == -1 && PyErr_Occurred()) {
                    Py_DECREF(phase);
                    return -1;
                }
                keep = c < 0;
            }
        }
    }
    Py_DECREF(phase);
    if (!keep)
        t->fixed = 0;
    if (state != t->state || history < t->history) {
        Py_INCREF(state);
        Py_XSETREF(t->state, state);
        tracker_reset(t);
    }
    else if (history == t->history)
        return 0;
    int rc = -1;
    PyObject *seats = NULL, *tricks = NULL, *auction = NULL, *calls = NULL, *voids = NULL,
             *cards = NULL;
    if ((seats = state_attr(state, A_TRICK_SEATS)) == NULL
        || (tricks = state_attr(state, A_TRICKS)) == NULL
        || (auction = state_attr(state, A_AUCTION)) == NULL
        || (calls = PyObject_GetAttr(auction, s_calls)) == NULL
        || (voids = state_attr(state, A_VOID_SHOWN)) == NULL
        || (cards = state_attr(state, A_TRICK_CARDS)) == NULL)
        goto done;
    Py_ssize_t nseats = PySequence_Size(seats), ntricks = PySequence_Size(tricks),
               ncalls = PySequence_Size(calls);
    if (nseats < 0 || ntricks < 0 || ncalls < 0)
        goto done;
    if (history == t->history + 1) {
        if (nseats == t->in_trick + 1 && t->tricks_seen == ntricks) { /* a card */
            PyObject *seat = PySequence_GetItem(seats, nseats - 1);
            PyObject *card = seat ? PySequence_GetItem(cards, nseats - 1) : NULL;
            int ok = card ? add_card(t, t->records, seat, card, voids) : -1;
            Py_XDECREF(seat);
            Py_XDECREF(card);
            if (ok < 0)
                goto done;
            t->in_trick++;
            t->history = history;
            Py_INCREF(seats);
            Py_XSETREF(t->seats, seats);
            rc = 0;
            goto done;
        }
        if (ncalls == t->calls_seen + 1 && nseats == t->in_trick) { /* a call */
            PyObject *pair = PySequence_GetItem(calls, ncalls - 1);
            int ok = pair ? add_call(t, t->records, pair) : -1;
            Py_XDECREF(pair);
            if (ok < 0)
                goto done;
            t->calls_seen++;
            t->history = history;
            rc = 0;
            goto done;
        }
        if (nseats == 0 && ntricks == t->tricks_seen + 1) { /* a trick's last card */
            PyObject *trick = PySequence_GetItem(tricks, ntricks - 1);
            if (trick == NULL)
                goto done;
            Py_ssize_t count = PyTuple_Check(trick) && PyTuple_GET_SIZE(trick) >= 2
                                   ? PySequence_Size(PyTuple_GET_ITEM(trick, 0))
                                   : 1;
            int ok = count < 0 ? -1 : add_trick(t, t->records, trick, count - 1, voids);
            Py_DECREF(trick);
            if (ok < 0)
                goto done;
            t->in_trick = 0;
            t->tricks_seen++;
            t->history = history;
            Py_INCREF(seats);
            Py_XSETREF(t->seats, seats);
            rc = 0;
            goto done;
        }
    }
    t->history = history;
    for (Py_ssize_t i = t->calls_seen; i < ncalls; i++) {
        PyObject *pair = PySequence_GetItem(calls, i);
        int ok = pair ? add_call(t, t->records, pair) : -1;
        Py_XDECREF(pair);
        if (ok < 0)
            goto done;
    }
    if (ncalls > t->calls_seen)
        t->calls_seen = ncalls;
    while (t->tricks_seen < ntricks) {
        PyObject *trick = PySequence_GetItem(tricks, t->tricks_seen);
        int ok = trick ? add_trick(t, t->records, trick, t->in_trick, voids) : -1;
        Py_XDECREF(trick);
        if (ok < 0)
            goto done;
        t->in_trick = 0;
        t->tricks_seen++;
    }
    if (nseats > t->in_trick) {
        for (Py_ssize_t i = t->in_trick; i < nseats; i++) {
            PyObject *seat = PySequence_GetItem(seats, i);
            PyObject *card = seat ? PySequence_GetItem(cards, i) : NULL;
            int ok = card ? add_card(t, t->records, seat, card, voids) : -1;
            Py_XDECREF(seat);
            Py_XDECREF(card);
            if (ok < 0)
                goto done;
        }
        t->in_trick = nseats;
    }
    Py_INCREF(seats);
    Py_XSETREF(t->seats, seats);
    rc = 0;
done:
    Py_XDECREF(seats);
    Py_XDECREF(tricks);
    Py_XDECREF(auction);
    Py_XDECREF(calls);
    Py_XDECREF(voids);
    Py_XDECREF(cards);
    return rc;
}

/* seat positions at[s] of every seat in the sequence seats, set in w */
static int
set_seats(Tracker *t, word *w, PyObject *seats, const int *at)
{
    PyObject *fast = PySequence_Fast(seats, "Tracker: seats are a sequence");
    if (fast == NULL)
        return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t i = 0; i < count; i++) {
        long s = small(PySequence_Fast_GET_ITEM(fast, i), t->n);
        if (s < 0) {
            Py_DECREF(fast);
            return -1;
        }
        set_bit(w, at[s]);
    }
    Py_DECREF(fast);
    return 0;
}

/* a seat-sequence attribute's seats set in w */
static int
set_attr_seats(Tracker *t, word *w, PyObject *state, int name, const int *at)
{
    PyObject *seats = state_attr(state, name);
    if (seats == NULL)
        return -1;
    int rc = set_seats(t, w, seats, at);
    Py_DECREF(seats);
    return rc;
}

/* a seat-sequence attribute's seats as the bits at[s] of the int *bits (a set) */
static int
set_attr_bits(Tracker *t, int *bits, PyObject *state, int name, const int *at)
{
    word w[MAX_WORDS];
    memset(w, 0, sizeof(word));
    if (set_attr_seats(t, w, state, name, at) < 0)
        return -1;
    *bits = (int)(w[0] & ((1ULL << MAX_SEATS) - 1));
    return 0;
}

/* an int attribute in [-1, limit) */
static int
attr_index(PyObject *state, int name, long limit, long *out)
{
    if (attr_long(state, name, out) < 0)
        return -1;
    if (*out < -1 || *out >= limit) {
        PyErr_SetString(PyExc_ValueError, "Tracker: a value out of range");
        return -1;
    }
    return 0;
}

/* the contract's part of Encoder._fixed_part (a contract made) */
static int
load_contract(Tracker *t, PyObject *state, long contract)
{
    long contractor, trump, called;
    if (attr_index(state, A_CONTRACTOR, t->n, &contractor) < 0
        || attr_index(state, A_TRUMP, STRAINS, &trump) < 0
        || attr_index(state, A_CALLED_CARD, t->cards, &called) < 0)
        return -1;
    if (contractor < 0) {
        PyErr_SetString(PyExc_ValueError, "Tracker: a contract without a contractor");
        return -1;
    }
    t->contractor = (int)contractor;
    set_bit(t->fixed_records, t->contractor_at[contractor]);
    if (t->contract_at[contract] >= 0)
        set_bit(t->table_bits, t->contract_at[contract]);
    if (set_attr_seats(t, t->partner_bits, state, A_PARTNERS, t->partner_at) < 0)
        return -1;
    PyObject *revealed = state_attr(state, A_PARTNER_REVEALED);
    int known = revealed ? PyObject_IsTrue(revealed) : -1;
    Py_XDECREF(revealed);
    if (known < 0)
        return -1;
    if (known) {
        for (int i = 0; i < t->words; i++)
            t->fixed_records[i] |= t->partner_bits[i];
        memset(t->partner_bits, 0, sizeof t->partner_bits);
    }
    if (trump >= 0)
        set_bit(t->table_bits, t->strain_at[trump]);
    PyObject *jokers = state_attr(state, A_JOKER_SUITS);
    if (jokers == NULL)
        return -1;
    PyObject *fast = PySequence_Fast(jokers, "Tracker: joker_suits is a pair");
    Py_DECREF(jokers);
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 2) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "Tracker: joker_suits is a pair");
        return -1;
    }
    const int *at[2] = {t->red_at, t->black_at};
    for (int j = 0; j < 2; j++) {
        long suit = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, j));
        if ((suit == -1 && PyErr_Occurred()) || suit < -1 || suit >= SUITS) {
            Py_DECREF(fast);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "Tracker: a joker's suit out of range");
            return -1;
        }
        if (suit >= 0)
            set_bit(t->table_bits, at[j][suit]);
    }
    Py_DECREF(fast);
    if (called >= 0)
        set_bit(t->table_bits, t->called + called);
    PyObject *discards = state_attr(state, A_DISCARDS);
    if (discards == NULL)
        return -1;
    int rc = or_int(t->discards, t->words, discards, t->discards_at);
    Py_DECREF(discards);
    if (rc < 0)
        return -1;
    int exposed[MAX_SEATS];
    for (int s = 0; s < t->n; s++)
        exposed[s] = s;
    if (set_attr_bits(t, &t->exposed_set, state, A_EXPOSED_SEATS, exposed) < 0)
        return -1;
    t->face_up = t->dummies || t->exposed_set != 0;
    return 0;
}

/* Encoder._fixed_part(state), kept as words; -1 on error */
static int
load_fixed(Tracker *t, PyObject *state)
{
    memset(t->table_bits, 0, sizeof t->table_bits);
    memset(t->fixed_records, 0, sizeof t->fixed_records);
    memset(t->discards, 0, sizeof t->discards);
    memset(t->partner_bits, 0, sizeof t->partner_bits);
    t->contractor = -1;
    t->exposed_set = 0;
    t->face_up = t->dummies; /* (the dummies' cards lie face up) */
    long dealer, contract;
    if (attr_index(state, A_DEALER, t->n, &dealer) < 0
        || attr_index(state, A_CONTRACT, t->num_actions, &contract) < 0)
        return -1;
    if (dealer < 0) {
        PyErr_SetString(PyExc_ValueError, "Tracker: no dealer");
        return -1;
    }
    set_bit(t->fixed_records, t->dealer_at[dealer]);
    if (set_attr_seats(t, t->fixed_records, state, A_ACTIVE, t->active_at) < 0)
        return -1;
    PyObject *phase = state_attr(state, A_PHASE);
    if (phase == NULL)
        return -1;
    int found = 0;
    for (int i = 0; i < t->nphases && !found; i++) {
        int same = PyObject_RichCompareBool(phase, PyTuple_GET_ITEM(t->phases, i), Py_EQ);
        if (same < 0) {
            Py_DECREF(phase);
            return -1;
        }
        if (same) {
            set_bit(t->table_bits, t->phase_at[i]);
            found = 1;
        }
    }
    if (!found) {
        PyErr_SetObject(PyExc_KeyError, phase);
        Py_DECREF(phase);
        return -1;
    }
    if (contract >= 0 && load_contract(t, state, contract) < 0) {
        Py_DECREF(phase);
        return -1;
    }
    t->has_partner_bits = 0;
    for (int i = 0; i < t->words; i++)
        t->has_partner_bits |= t->partner_bits[i] != 0;
    Py_XSETREF(t->fixed_phase, phase);
    t->fixed = 1;
    return 0;
}

/* ``count`` bits of w from bit ``at`` on (count <= 64) */
static inline word
get_bits(const word *w, Py_ssize_t at, int count)
{
    Py_ssize_t i = at >> 6;
    int b = at & 63;
    word v = w[i] >> b;
    if (b && b + count > 64)
        v |= w[i + 1] << (64 - b);
    return count == 64 ? v : v & ((1ULL << count) - 1);
}

/* ``bytes`` whole bytes of w's bits from bit ``from`` on as float32 0/1 at dst (eight floats
 * a byte, 64 bits read at a time); twice: for any processor, and with AVX2 (one 32-byte
 * move a byte) where the processor has it (chosen once, at import) */
static void
write_bytes_plain(float *restrict dst, const word *restrict w, Py_ssize_t from, Py_ssize_t bytes)
{
    for (Py_ssize_t c = 0; c < bytes; c += 8) {
        word v = get_bits(w, from + 8 * c, 64);
        Py_ssize_t end = c + 8 < bytes ? c + 8 : bytes;
        for (Py_ssize_t b = c; b < end; b++, v >>= 8)
            memcpy(dst + 8 * b, unpacked[v & 0xFF], 8 * sizeof(float));
    }
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define AVX2_DISPATCH 1

__attribute__((target("avx2"))) static void
write_bytes_avx2(float *restrict dst, const word *restrict w, Py_ssize_t from, Py_ssize_t bytes)
{
    Py_ssize_t c = 0;
    for (; c + 8 <= bytes; c += 8) {
        word v = get_bits(w, from + 8 * c, 64);
        float *out = dst + 8 * c;
        _mm256_storeu_ps(out, _mm256_load_ps(unpacked[v & 0xFF]));
        _mm256_storeu_ps(out + 8, _mm256_load_ps(unpacked[(v >> 8) & 0xFF]));
        _mm256_storeu_ps(out + 16, _mm256_load_ps(unpacked[(v >> 16) & 0xFF]));
        _mm256_storeu_ps(out + 24, _mm256_load_ps(unpacked[(v >> 24) & 0xFF]));
        _mm256_storeu_ps(out + 32, _mm256_load_ps(unpacked[(v >> 32) & 0xFF]));
        _mm256_storeu_ps(out + 40, _mm256_load_ps(unpacked[(v >> 40) & 0xFF]));
        _mm256_storeu_ps(out + 48, _mm256_load_ps(unpacked[(v >> 48) & 0xFF]));
        _mm256_storeu_ps(out + 56, _mm256_load_ps(unpacked[v >> 56]));
    }
    if (c < bytes) {
        word v = get_bits(w, from + 8 * c, 64);
        for (; c < bytes; c++, v >>= 8)
            _mm256_storeu_ps(dst + 8 * c, _mm256_load_ps(unpacked[v & 0xFF]));
    }
}
#endif

static void (*write_bytes)(float *restrict, const word *restrict, Py_ssize_t,
                           Py_ssize_t) = write_bytes_plain;

/* bits [from, from + count) of w as float32 0/1 at dst, where ``room`` floats may be
 * written: whole bytes, whole words of them where there is room (floats beyond count too:
 * the caller writes what follows afterwards) */
static void
write_floats(float *restrict dst, const word *restrict w, Py_ssize_t from, Py_ssize_t count,
             Py_ssize_t room)
{
    Py_ssize_t bytes = (count + 7) / 8;
    if (((bytes + 7) & ~(Py_ssize_t)7) * 8 <= room)
        bytes = (bytes + 7) & ~(Py_ssize_t)7; /* (whole words: 64 bits a read) */
    else if (bytes * 8 > room)
        bytes = count / 8; /* (the last bits exactly, below) */
    write_bytes(dst, w, from, bytes);
    Py_ssize_t i = 8 * bytes;
    if (i < count)
        memcpy(dst + i, unpacked[get_bits(w, from + i, (int)(count - i))],
               (size_t)(count - i) * sizeof(float));
}

/* seat's cards (hands[seat]; with ``only_face_up``, a dummy's face-up ones) as words */
static int
hand_cards(Tracker *t, PyObject *state, PyObject *hands, long seat, int only_face_up,
           word *cards)
{
    memset(cards, 0, (size_t)t->words * sizeof(word));
    PyObject *hand = PySequence_GetItem(hands, seat);
    if (hand == NULL)
        return -1;
    int rc = or_int(cards, t->words, hand, 0);
    Py_DECREF(hand);
    if (rc < 0 || !only_face_up)
        return rc;
    PyObject *up = state_attr(state, A_FACE_UP);
    PyObject *mine = up ? PySequence_GetItem(up, seat) : NULL;
    Py_XDECREF(up);
    if (mine == NULL)
        return -1;
    long is_dummy = PyLong_AsLong(mine);
    if (is_dummy == -1 && PyErr_Occurred()) {
        PyErr_Clear(); /* (a mask beyond a long: a dummy's) */
        is_dummy = 0;
    }
    if (is_dummy >= 0 || is_dummy < -1) {
        word shown[MAX_WORDS];
        memset(shown, 0, (size_t)t->words * sizeof(word));
        if (or_int(shown, t->words, mine, 0) < 0) {
            Py_DECREF(mine);
            return -1;
        }
        for (int i = 0; i < t->words; i++)
            cards[i] &= shown[i];
    }
    Py_DECREF(mine);
    return 0;
}

/* the index of v's lowest bit set (v not 0) */
static inline int
lowest_bit(word v)
{
#if defined(__GNUC__)
    return __builtin_ctzll(v);
#else
    int i = 0;
    for (; !(v & 1); v >>= 1)
        i++;
    return i;
#endif
}

/* other's cards (words) shown to seat: ones in seat's vector at the other's record */
static int
show(Tracker *t, float *out, long seat, long other, const word *cards)
{
    if (other < 0 || other >= t->n) {
        PyErr_SetString(PyExc_ValueError, "Tracker: a seat out of range");
        return -1;
    }
    int at = t->exposed_at[((other - seat) % t->n + t->n) % t->n];
    for (int i = 0; i * 64 < t->cards; i++) {
        word v = cards[i];
        if (t->cards - i * 64 < 64)
            v &= (1ULL << (t->cards - i * 64)) - 1;
        for (; v; v &= v - 1) /* (each card shown: its lowest bit, then the next) */
            out[at + i * 64 + lowest_bit(v)] = 1.0f;
    }
    return 0;
}

/* Encoder.bits' cards lying face up for seat: the dummies' rules as its own loop has them,
 * any other as state.visible_cards(seat) */
static int
face_up_cards(Tracker *t, PyObject *state, PyObject *hands, long seat, float *out)
{
    word cards[MAX_WORDS];
    if (!t->dummies) {
        PyObject *number = PyLong_FromLong(seat);
        PyObject *shown = number ? PyObject_CallMethodOneArg(state, s_visible_cards, number)
                                 : NULL;
        Py_XDECREF(number);
        if (shown == NULL)
            return -1;
        PyObject *fast = PySequence_Fast(shown, "Tracker: visible_cards gives a list");
        Py_DECREF(shown);
        if (fast == NULL)
            return -1;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
            PyObject *pair = PySequence_Fast_GET_ITEM(fast, i);
            long other = PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2
                             ? PyLong_AsLong(PyTuple_GET_ITEM(pair, 0))
                             : -1;
            memset(cards, 0, sizeof cards);
            if ((other == -1 && PyErr_Occurred())
                || (other >= 0 && or_int(cards, t->words, PyTuple_GET_ITEM(pair, 1), 0) < 0)
                || show(t, out, seat, other, cards) < 0) {
                Py_DECREF(fast);
                return -1;
            }
        }
        Py_DECREF(fast);
        return 0;
    }
    for (long other = 0; other < t->n; other++)
        if (t->exposed_set >> other & 1 && other != seat
            && (hand_cards(t, state, hands, other, 0, cards) < 0
                || show(t, out, seat, other, cards) < 0))
            return -1;
    long controller = t->controller[seat];
    if (controller != seat && (hand_cards(t, state, hands, controller, 0, cards) < 0
                               || show(t, out, seat, controller, cards) < 0))
        return -1;
    for (long other = 0; other < t->n; other++)
        if (t->dummy_set >> other & 1 && other != seat
            && (hand_cards(t, state, hands, other, 1, cards) < 0
                || show(t, out, seat, other, cards) < 0))
            return -1;
    return 0;
}

/* Encoder.bits(state, seat), tracked, then the vector's floats into out (size floats):
 * 1 written, -1 on error */
static int
tracker_floats(Tracker *t, PyObject *state, long seat, float *out)
{
    PyObject *seats = state_attr(state, A_TRICK_SEATS);
    if (seats == NULL)
        return -1;
    Py_ssize_t history = attr_len(state, A_HISTORY);
    if (history < 0) {
        Py_DECREF(seats);
        return -1;
    }
    if (seats == t->seats && history == t->history + 1
        && PySequence_Size(seats) == t->in_trick + 1) { /* the usual step: one card */
        Py_ssize_t last = t->in_trick;
        PyObject *seat_played = PySequence_GetItem(seats, last);
        PyObject *cards = seat_played ? state_attr(state, A_TRICK_CARDS) : NULL;
        PyObject *card = cards ? PySequence_GetItem(cards, last) : NULL;
        PyObject *voids = card ? state_attr(state, A_VOID_SHOWN) : NULL;
        int ok = voids ? add_card(t, t->records, seat_played, card, voids) : -1;
        Py_XDECREF(seat_played);
        Py_XDECREF(cards);
        Py_XDECREF(card);
        Py_XDECREF(voids);
        if (ok < 0) {
            Py_DECREF(seats);
            return -1;
        }
        t->in_trick++;
        t->history = history;
    }
    else if (history != t->history || state != t->state) {
        if (tracker_sync(t, state, history) < 0) {
            Py_DECREF(seats);
            return -1;
        }
    }
    Py_DECREF(seats);
    if (!t->fixed && load_fixed(t, state) < 0)
        return -1;
    int words = t->words;
    word records[MAX_WORDS], table[MAX_WORDS];
    for (int i = 0; i < words; i++)
        records[i] = t->records[i] | t->fixed_records[i];
    long to_move;
    if (attr_long(state, A_TO_MOVE, &to_move) < 0)
        return -1;
    if (to_move >= t->n) {
        PyErr_SetString(PyExc_ValueError, "Tracker: to_move out of range");
        return -1;
    }
    if (to_move >= 0)
        set_bit(records, t->to_move_at[to_move]);
    if (t->has_partner_bits) {
        PyObject *revealed = state_attr(state, A_PARTNER_REVEALED);
        int known = revealed ? PyObject_IsTrue(revealed) : -1;
        Py_XDECREF(revealed);
        if (known == 0) {
            PyObject *partners = state_attr(state, A_PARTNERS);
            PyObject *me = partners ? PyLong_FromLong(seat) : NULL;
            known = me ? PySequence_Contains(partners, me) : -1;
            Py_XDECREF(partners);
            Py_XDECREF(me);
        }
        if (known < 0)
            return -1;
        if (known)
            for (int i = 0; i < words; i++)
                records[i] |= t->partner_bits[i];
    }
    /* the table fields: the fixed ones, the hand, the led suit and the suits led, the
     * contractor's discards */
    for (int i = 0; i < words; i++)
        table[i] = t->table_bits[i] | (seat == t->contractor ? t->discards[i] : 0);
    PyObject *hands = state_attr(state, A_HANDS);
    if (hands == NULL)
        return -1;
    word cards[MAX_WORDS];
    if (hand_cards(t, state, hands, seat, t->dummies, cards) < 0) { /* (a dummy: face up) */
        Py_DECREF(hands);
        return -1;
    }
    for (int i = 0; i < words; i++)
        table[i] |= cards[i];
    Py_ssize_t in_trick = attr_len(state, A_TRICK_CARDS);
    long led = -1, suits_led;
    if (in_trick < 0 || (in_trick && attr_long(state, A_LED_SUIT, &led) < 0)
        || attr_long(state, A_SUITS_LED, &suits_led) < 0)
        return -1;
    if (led >= 8 || t->led + led >= t->at0) {
        PyErr_SetString(PyExc_ValueError, "Tracker: led_suit out of range");
        return -1;
    }
    if (led >= 0)
        set_bit(table, t->led + led);
    if (suits_led < 0 || suits_led >= 256
        || (t->at0 - t->suits_led < 8 && suits_led >> (t->at0 - t->suits_led))) {
        PyErr_SetString(PyExc_ValueError, "Tracker: suits_led out of range");
        return -1;
    }
    for (int s = 0; suits_led >> s; s++)
        if (suits_led >> s & 1)
            set_bit(table, t->suits_led + s);
    /* the vector: the table fields, the records turned (the seat's own first), no scores */
    write_floats(out, table, 0, t->at0, t->size);
    for (int k = 0; k < t->n; k++) {
        Py_ssize_t at = t->at0 + (Py_ssize_t)k * t->record;
        write_floats(out + at, records, t->at0 + (Py_ssize_t)((seat + k) % t->n) * t->record,
                     t->record, t->size - at);
    }
    for (Py_ssize_t i = t->at0 + (Py_ssize_t)t->n * t->record; i < t->size; i++)
        out[i] = 0.0f; /* (the scores: none in one hand) */
    int rc = t->face_up ? face_up_cards(t, state, hands, seat, out) : 0;
    Py_DECREF(hands);
    return rc < 0 ? -1 : 1;
}

/* An array of pool k (0: the vector, 1: the mask) for this observation, its bytes at
 * *data (a new reference): one handed out before that nothing refers to any more (no
 * array, view or buffer of it anywhere: its bytes are this pool's alone to overwrite), else
 * a new one from the factory ((bytearray, array over it) of the length wanted). */
static PyObject *
pooled(Tracker *t, int k, Py_ssize_t length, char **data)
{
    for (int i = 0; i < POOL; i++) {
        PyObject *array = t->arrays[k][i];
        if (array != NULL && Py_REFCNT(array) == 1 && Py_REFCNT(t->bytes[k][i]) == 2) {
            *data = PyByteArray_AS_STRING(t->bytes[k][i]);
            return Py_NewRef(array);
        }
    }
    PyObject *made = PyObject_CallNoArgs(t->factory[k]);
    if (made == NULL)
        return NULL;
    if (!PyTuple_Check(made) || PyTuple_GET_SIZE(made) != 2
        || !PyByteArray_Check(PyTuple_GET_ITEM(made, 0))
        || PyByteArray_GET_SIZE(PyTuple_GET_ITEM(made, 0)) != length) {
        Py_DECREF(made);
        PyErr_SetString(PyExc_TypeError, "Tracker: a factory gives (bytearray, array)");
        return NULL;
    }
    int i = t->next[k];
    t->next[k] = (i + 1) % POOL;
    Py_XSETREF(t->bytes[k][i], Py_NewRef(PyTuple_GET_ITEM(made, 0)));
    Py_XSETREF(t->arrays[k][i], Py_NewRef(PyTuple_GET_ITEM(made, 1)));
    Py_DECREF(made);
    *data = PyByteArray_AS_STRING(t->bytes[k][i]);
    return Py_NewRef(t->arrays[k][i]);
}

static PyObject *s_view, *s_observation, *s_action_mask;

/* numpy's array head: the leading members of its PyArrayObject_fields (the same since
 * numpy 1.7), read only to see that an array handed out and let go is still as it was made
 * (a made array is checked against what it must be before any is handed out so) */
typedef struct {
    PyObject_HEAD
    char *data;
    int nd;
    Py_ssize_t *dimensions;
    Py_ssize_t *strides;
    PyObject *base;
    PyObject *descr;
    int flags;
    PyObject *weakreflist;
} ArrayHead;

/* array over the whole of bytes as made (as numpy.frombuffer makes it: its base a
 * memoryview of the bytes): one dimension of count items, no weak reference to it, and
 * (descr not NULL) this dtype and these flags */
static int
array_as_made(PyObject *array, PyObject *bytes, Py_ssize_t count, PyObject *descr, int flags)
{
    const ArrayHead *a = (const ArrayHead *)array;
    return a->data == PyByteArray_AS_STRING(bytes) && a->nd == 1 && a->dimensions[0] == count
           && a->strides[0] * count == PyByteArray_GET_SIZE(bytes) && a->base != NULL
           && PyMemoryView_Check(a->base) && PyMemoryView_GET_BUFFER(a->base)->obj == bytes
           && a->weakreflist == NULL && (descr == NULL || (a->descr == descr && a->flags == flags));
}

/* Slot i's observation is its own to write again: its dict, its arrays and their bytes are
 * referred to by nothing but the slot (and the dict, the arrays, their memoryviews: the
 * arrays' bases, which nothing else refers to either), the dict holds just the
 * two arrays in their order, and each array is as it was made (not reshaped, re-typed,
 * frozen, weakly referred to). Then a caller that held it has let all of it go, and what it
 * did to the values is written over: a new observation could not be told from it. */
static int
slot_free(Tracker *t, int i)
{
    PyObject *obs = t->obs[i], *key, *value;
    Py_ssize_t pos = 0;
    if (obs == NULL || Py_REFCNT(obs) != 1 || PyDict_GET_SIZE(obs) != 2
        || !PyDict_Next(obs, &pos, &key, &value) || key != s_observation
        || value != t->arrays[0][i] || !PyDict_Next(obs, &pos, &key, &value)
        || key != s_action_mask || value != t->arrays[1][i])
        return 0;
    Py_ssize_t counts[2] = {t->size, t->num_actions};
    for (int k = 0; k < 2; k++)
        if (Py_REFCNT(t->arrays[k][i]) != 2 || Py_REFCNT(t->bytes[k][i]) != 2
            || Py_REFCNT(((ArrayHead *)t->arrays[k][i])->base) != 1
            || !array_as_made(t->arrays[k][i], t->bytes[k][i], counts[k], t->descr[k][i],
                              t->flags[k][i]))
            return 0;
    return 1;
}

/* a new slot (its index), made from the factories; POOL where numpy's arrays are not as
 * this file reads them (t->direct set to -1: views are handed out), -1 on error */
static int
make_slot(Tracker *t)
{
    PyObject *made[2] = {NULL, NULL}, *obs = NULL;
    Py_ssize_t counts[2] = {t->size, t->num_actions};
    int i = -1;
    for (int k = 0; k < 2; k++) {
        made[k] = PyObject_CallNoArgs(t->factory[k]);
        if (made[k] == NULL)
            goto done;
        if (!PyTuple_Check(made[k]) || PyTuple_GET_SIZE(made[k]) != 2
            || !PyByteArray_Check(PyTuple_GET_ITEM(made[k], 0))
            || PyByteArray_GET_SIZE(PyTuple_GET_ITEM(made[k], 0))
                   != counts[k] * (k ? 1 : (Py_ssize_t)sizeof(float))) {
            PyErr_SetString(PyExc_TypeError, "Tracker: a factory gives (bytearray, array)");
            goto done;
        }
    }
    for (int k = 0; k < 2; k++) {
        PyObject *array = PyTuple_GET_ITEM(made[k], 1);
        if (strcmp(Py_TYPE(array)->tp_name, "numpy.ndarray") != 0
            || Py_TYPE(array)->tp_basicsize < (Py_ssize_t)sizeof(ArrayHead)
            || !array_as_made(array, PyTuple_GET_ITEM(made[k], 0), counts[k], NULL, 0)) {
            t->direct = -1;
            clear_pools(t);
            i = POOL;
            goto done;
        }
    }
    if ((obs = PyDict_New()) == NULL
        || PyDict_SetItem(obs, s_observation, PyTuple_GET_ITEM(made[0], 1)) < 0
        || PyDict_SetItem(obs, s_action_mask, PyTuple_GET_ITEM(made[1], 1)) < 0)
        goto done;
    i = t->next[0];
    t->next[0] = (i + 1) % POOL;
    for (int k = 0; k < 2; k++) {
        ArrayHead *array = (ArrayHead *)PyTuple_GET_ITEM(made[k], 1);
        Py_XSETREF(t->bytes[k][i], Py_NewRef(PyTuple_GET_ITEM(made[k], 0)));
        Py_XSETREF(t->arrays[k][i], Py_NewRef((PyObject *)array));
        Py_XSETREF(t->descr[k][i], Py_NewRef(array->descr));
        t->flags[k][i] = array->flags;
    }
    Py_XSETREF(t->obs[i], Py_NewRef(obs));
done:
    Py_XDECREF(made[0]);
    Py_XDECREF(made[1]);
    Py_XDECREF(obs);
    return i;
}

/* observe(state, seat, legal) for seat >= 0, a new reference: the arrays themselves (a free
 * slot's, else a new slot's) or, where numpy's arrays are not as this file reads them,
 * views of pooled arrays in a new dict */
static PyObject *
observation(Tracker *t, PyObject *state, long seat, PyObject *legal)
{
    if (t->direct > 0) {
        int i = 0;
        while (i < POOL && !slot_free(t, i))
            i++;
        if (i == POOL && (i = make_slot(t)) < 0)
            return NULL;
        if (i < POOL) {
            if (tracker_floats(t, state, seat, (float *)PyByteArray_AS_STRING(t->bytes[0][i])) < 0
                || fill_mask(PyByteArray_AS_STRING(t->bytes[1][i]), legal, t->num_actions) < 0)
                return NULL;
            return Py_NewRef(t->obs[i]);
        }
    }
    char *floats, *bytes;
    PyObject *vector = pooled(t, 0, t->size * (Py_ssize_t)sizeof(float), &floats);
    if (vector == NULL)
        return NULL;
    if (tracker_floats(t, state, seat, (float *)floats) < 0) {
        Py_DECREF(vector);
        return NULL;
    }
    PyObject *mask_array = pooled(t, 1, t->num_actions, &bytes);
    if (mask_array == NULL || fill_mask(bytes, legal, t->num_actions) < 0) {
        Py_DECREF(vector);
        Py_XDECREF(mask_array);
        return NULL;
    }
    /* views handed out: whatever their holder does to them leaves the pool's arrays be */
    PyObject *obs = NULL;
    PyObject *v = PyObject_CallMethodNoArgs(vector, s_view);
    PyObject *m = v ? PyObject_CallMethodNoArgs(mask_array, s_view) : NULL;
    if (m != NULL && (obs = PyDict_New()) != NULL
        && (PyDict_SetItem(obs, s_observation, v) < 0
            || PyDict_SetItem(obs, s_action_mask, m) < 0))
        Py_CLEAR(obs);
    Py_XDECREF(v);
    Py_XDECREF(m);
    Py_DECREF(vector);
    Py_DECREF(mask_array);
    return obs;
}

static PyObject *
tracker_observe(Tracker *t, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyLong_Check(args[1])
        || (args[2] != Py_None && !PyList_Check(args[2]))) {
        PyErr_SetString(PyExc_TypeError, "observe(state, seat: int, legal: list | None)");
        return NULL;
    }
    long seat = PyLong_AsLong(args[1]);
    if (seat == -1 && PyErr_Occurred())
        return NULL;
    if (seat < 0) /* no seat to move: the encoder's Python path answers */
        Py_RETURN_NONE;
    if (seat >= t->n) {
        PyErr_SetString(PyExc_ValueError, "observe: seat out of range");
        return NULL;
    }
    return observation(t, args[0], seat, args[2]);
}

static PyMethodDef tracker_methods[] = {
    {"observe", (PyCFunction)(void (*)(void))tracker_observe, METH_FASTCALL,
      "observe(state, seat, legal) -> {'observation': vector, 'action_mask': mask}, or None "
     "for seat -1."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TrackerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fivehundred.env._speedups.Tracker",
    .tp_doc = "Tracker(layout, fixed_part, auction): Encoder.bits as float32, tracked in C.",
    .tp_basicsize = sizeof(Tracker),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)tracker_init,
    .tp_dealloc = (destructor)tracker_dealloc,
    .tp_traverse = (traverseproc)tracker_traverse,
    .tp_clear = (inquiry)tracker_clear,
    .tp_methods = tracker_methods,
};

/* ------------------------------------------------------------------ the driver
 *
 * Driver(env, tracker, last, step, done, agent_of): raw_env's last() and step() in the
 * middle of a one-hand episode, in C (``env.last = driver.last``, ``env.step =
 * driver.step``): FiveHundredEnv.last's and .step's hot paths line for line, reading and
 * setting the environment's attributes in their slots (FiveHundredEnv.__slots__, checked
 * here); anything else (an argument by keyword, observe=False, no legal action, no seat to
 * move, an action not legal, before reset()) is handed to ``last`` and ``step``, the
 * class's own functions, which answer as always. ``done``: the phase of a hand scored;
 * ``agent_of``: the agent deciding for each seat (env._agent_of). */
enum {
    E_AGENT_SELECTION, E_LEGAL, E_HAND, E_GAME, E_CUMULATIVE, E_TERMINATIONS, E_TRUNCATIONS,
    E_INFOS, E_RENDER_MODE, E_COUNT,
};
static const char *env_texts[E_COUNT] = {
    "agent_selection", "_legal", "hand", "game", "_cumulative_rewards", "terminations",
    "truncations", "infos", "render_mode",
};
static PyObject *env_names[E_COUNT], *s_apply, *s_legal_actions, *s_agent_for, *s_hand_over,
    *s_render, *s_human;

typedef struct {
    PyObject_HEAD
    PyObject *env, *tracker, *last, *step, *done, *agent_of;
    Py_ssize_t offsets[E_COUNT]; /* the slots' offsets in env */
    PyObject *result; /* the last tuple last() gave: filled again once nothing else holds it */
} Driver;

/* the environment's slot (borrowed; NULL: not set) */
static inline PyObject *
env_slot(Driver *d, int name)
{
    return *(PyObject **)((char *)d->env + d->offsets[name]);
}

static int
driver_init(Driver *d, PyObject *args, PyObject *kwds)
{
    PyObject *env, *tracker, *last, *step, *done, *agent_of;
    if (kwds && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "Driver(env, tracker, last, step, done, agent_of)");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "OO!OOOO!", &env, &TrackerType, &tracker, &last, &step, &done,
                          &PyList_Type, &agent_of))
        return -1;
    for (int i = 0; i < E_COUNT; i++) {
        PyObject *found = _PyType_Lookup(Py_TYPE(env), env_names[i]);
        if (found == NULL || !Py_IS_TYPE(found, &PyMemberDescr_Type)
            || ((PyMemberDescrObject *)found)->d_member->type != T_OBJECT_EX) {
            PyErr_Format(PyExc_TypeError, "Driver: %U is not a slot of the environment's class",
                         env_names[i]);
            return -1;
        }
        d->offsets[i] = ((PyMemberDescrObject *)found)->d_member->offset;
    }
    Py_XSETREF(d->env, Py_NewRef(env));
    Py_XSETREF(d->tracker, Py_NewRef(tracker));
    Py_XSETREF(d->last, Py_NewRef(last));
    Py_XSETREF(d->step, Py_NewRef(step));
    Py_XSETREF(d->done, Py_NewRef(done));
    Py_XSETREF(d->agent_of, Py_NewRef(agent_of));
    return 0;
}

static int
driver_traverse(Driver *d, visitproc visit, void *arg)
{
    Py_VISIT(d->env);
    Py_VISIT(d->tracker);
    Py_VISIT(d->last);
    Py_VISIT(d->step);
    Py_VISIT(d->done);
    Py_VISIT(d->agent_of);
    Py_VISIT(d->result);
    return 0;
}

static int
driver_clear(Driver *d)
{
    Py_CLEAR(d->env);
    Py_CLEAR(d->tracker);
    Py_CLEAR(d->last);
    Py_CLEAR(d->step);
    Py_CLEAR(d->done);
    Py_CLEAR(d->agent_of);
    Py_CLEAR(d->result);
    return 0;
}

static void
driver_dealloc(Driver *d)
{
    PyObject_GC_UnTrack(d);
    driver_clear(d);
    Py_TYPE(d)->tp_free((PyObject *)d);
}

/* function(env, *args, **kwargs): the class's own method answers */
static PyObject *
fall_back(Driver *d, PyObject *function, PyObject *const *args, size_t nargsf,
          PyObject *kwnames)
{
    PyObject *bound = PyMethod_New(function, d->env);
    if (bound == NULL)
        return NULL;
    PyObject *result = PyObject_Vectorcall(bound, args, nargsf, kwnames);
    Py_DECREF(bound);
    return result;
}

/* the environment's slots named (borrowed): 1 all set, 0 one is not (then the class's
 * method answers: getattr's error) */
static int
env_attrs(Driver *d, const int *names, int count, PyObject **out)
{
    for (int i = 0; i < count; i++)
        if ((out[i] = env_slot(d, names[i])) == NULL)
            return 0;
    return 1;
}

static PyObject *
driver_last(Driver *d, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    static const int names[] = {E_AGENT_SELECTION, E_LEGAL, E_HAND, E_CUMULATIVE,
                                E_TERMINATIONS, E_TRUNCATIONS, E_INFOS};
    PyObject *a[7];
    if (d->env == NULL || kwnames != NULL || nargs > 1 || (nargs == 1 && args[0] != Py_True))
        return d->env ? fall_back(d, d->last, args, nargsf, kwnames) : NULL;
    int found = env_attrs(d, names, 7, a);
    PyObject *agent = a[0], *legal = a[1], *hand = a[2];
    long to_move = -1;
    if (found && PyList_CheckExact(legal) && PyList_GET_SIZE(legal) && hand != Py_None
        && attr_long(hand, A_TO_MOVE, &to_move) < 0)
        return NULL;
    Tracker *t = (Tracker *)d->tracker;
    if (!found || !PyList_CheckExact(legal) || !PyList_GET_SIZE(legal) || to_move < 0
        || to_move >= t->n)
        return fall_back(d, d->last, args, nargsf, kwnames);
    Py_INCREF(agent); /* (held: reading the dicts may run Python code) */
    /* (the hot path of FiveHundredEnv.last: the tracker's observe(hand, hand.to_move,
     * legal), then the agent's reward, termination, truncation and info; in the tuple
     * handed out last time where nothing but the driver holds it any more, as CPython's own
     * zip() does: its items let go first, so that the observation in it is free again) */
    PyObject *result = d->result;
    if (result != NULL && Py_REFCNT(result) == 1) {
        for (int i = 0; i < 5; i++) {
            PyObject *old = PyTuple_GET_ITEM(result, i);
            PyTuple_SET_ITEM(result, i, NULL);
            Py_XDECREF(old);
        }
    }
    else if ((result = PyTuple_New(5)) != NULL)
        Py_XSETREF(d->result, result);
    PyObject *obs = result ? observation(t, hand, to_move, legal) : NULL;
    if (obs == NULL) {
        Py_DECREF(agent);
        return NULL;
    }
    PyTuple_SET_ITEM(result, 0, obs);
    for (int i = 1; i < 5; i++) {
        PyObject *mapping = env_slot(d, names[2 + i]), *value;
        if (mapping == NULL) /* (getattr's own error) */
            value = PyObject_GetAttr(d->env, env_names[names[2 + i]]);
        else if (PyDict_CheckExact(mapping)) {
            if ((value = PyDict_GetItemWithError(mapping, agent)) != NULL)
                Py_INCREF(value);
            else if (!PyErr_Occurred())
                PyErr_SetObject(PyExc_KeyError, agent);
        }
        else
            value = PyObject_GetItem(mapping, agent);
        if (value == NULL || mapping == NULL) {
            Py_XDECREF(value);
            Py_DECREF(agent);
            return NULL;
        }
        PyTuple_SET_ITEM(result, i, value);
    }
    Py_DECREF(agent);
    if (!PyObject_GC_IsTracked(result)) /* (as zip() has it: the collector may have let go) */
        PyObject_GC_Track(result);
    return Py_NewRef(result);
}

/* obj.name(arg) (arg NULL: obj.name()): the function of obj's class called directly where
 * obj has no __dict__ of its own to shadow it */
static PyObject *
call_method(PyObject *obj, PyObject *name, PyObject *arg)
{
    PyTypeObject *type = Py_TYPE(obj);
    PyObject *function = type->tp_dictoffset == 0 ? _PyType_Lookup(type, name) : NULL;
    if (function == NULL || !PyFunction_Check(function))
        return arg ? PyObject_CallMethodOneArg(obj, name, arg)
                   : PyObject_CallMethodNoArgs(obj, name);
    PyObject *argv[2] = {obj, arg};
    Py_INCREF(function);
    PyObject *result = PyObject_Vectorcall(function, argv, arg ? 2 : 1, NULL);
    Py_DECREF(function);
    return result;
}

static PyObject *
driver_step(Driver *d, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    static const int names[] = {E_LEGAL, E_GAME, E_HAND, E_RENDER_MODE};
    PyObject *a[4];
    if (d->env == NULL || kwnames != NULL || nargs != 1 || args[0] == Py_None)
        return d->env ? fall_back(d, d->step, args, nargsf, kwnames) : NULL;
    int found = env_attrs(d, names, 4, a);
    PyObject *legal = a[0], *hand = a[2], *chosen = NULL;
    int ok = found && PyList_CheckExact(legal) && PyList_GET_SIZE(legal) && a[1] == Py_None
             && hand != Py_None;
    if (ok) {
        /* (the hot path of FiveHundredEnv.step: one hand in play) */
        Py_INCREF(legal);
        if ((chosen = PyNumber_Long(args[0])) != NULL)
            ok = PySequence_Contains(legal, chosen);
        Py_DECREF(legal);
        if (chosen == NULL || ok < 0) {
            Py_XDECREF(chosen);
            return NULL;
        }
    }
    if (!ok) { /* (an action not legal: the class's step refuses it) */
        Py_XDECREF(chosen);
        return fall_back(d, d->step, args, nargsf, kwnames);
    }
    Py_INCREF(hand);
    Py_INCREF(a[3]);
    PyObject *render_mode = a[3], *phase = NULL, *agent = NULL, *done = NULL;
    PyObject *applied = call_method(hand, s_apply, chosen);
    if (applied == NULL || (phase = state_attr(hand, A_PHASE)) == NULL)
        goto error;
    if (phase != d->done) {
        PyObject *now = call_method(hand, s_legal_actions, NULL);
        long to_move;
        if (now == NULL)
            goto error;
        PyObject **slot = (PyObject **)((char *)d->env + d->offsets[E_LEGAL]);
        Py_XSETREF(*slot, now);
        if (attr_long(hand, A_TO_MOVE, &to_move) < 0)
            goto error;
        if (to_move >= 0) {
            if (to_move >= PyList_GET_SIZE(d->agent_of)) {
                PyErr_SetString(PyExc_IndexError, "list index out of range");
                goto error;
            }
            agent = Py_NewRef(PyList_GET_ITEM(d->agent_of, to_move));
        }
        else {
            PyObject *seat = PyLong_FromLong(to_move);
            agent = seat ? PyObject_CallMethodOneArg(d->env, s_agent_for, seat) : NULL;
            Py_XDECREF(seat);
        }
        if (agent == NULL)
            goto error;
        PyObject **selection = (PyObject **)((char *)d->env + d->offsets[E_AGENT_SELECTION]);
        Py_XSETREF(*selection, agent);
        agent = NULL;
    }
    else if ((done = PyObject_CallMethodOneArg(d->env, s_hand_over, hand)) == NULL)
        goto error;
    if (render_mode != Py_None) {
        int human = PyObject_RichCompareBool(render_mode, s_human, Py_EQ);
        PyObject *shown = human > 0 ? PyObject_CallMethodNoArgs(d->env, s_render) : NULL;
        if (human < 0 || (human > 0 && shown == NULL))
            goto error;
        Py_XDECREF(shown);
    }
    Py_DECREF(chosen);
    Py_DECREF(applied);
    Py_DECREF(phase);
    Py_XDECREF(agent);
    Py_XDECREF(done);
    Py_DECREF(hand);
    Py_DECREF(render_mode);
    Py_RETURN_NONE;
error:
    Py_DECREF(chosen);
    Py_XDECREF(applied);
    Py_XDECREF(phase);
    Py_XDECREF(agent);
    Py_XDECREF(done);
    Py_DECREF(hand);
    Py_DECREF(render_mode);
    return NULL;
}

static PyMethodDef driver_methods[] = {
    {"last", (PyCFunction)(void (*)(void))driver_last, METH_FASTCALL | METH_KEYWORDS,
     "last(observe=True): FiveHundredEnv.last, its hot path in C."},
    {"step", (PyCFunction)(void (*)(void))driver_step, METH_FASTCALL | METH_KEYWORDS,
     "step(action): FiveHundredEnv.step, its hot path in C."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject DriverType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fivehundred.env._speedups.Driver",
    .tp_doc = "Driver(env, tracker, last, step, done, agent_of): raw_env's last() and step() "
              "in a one-hand episode, in C.",
    .tp_basicsize = sizeof(Driver),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)driver_init,
    .tp_dealloc = (destructor)driver_dealloc,
    .tp_traverse = (traverseproc)driver_traverse,
    .tp_clear = (inquiry)driver_clear,
    .tp_methods = driver_methods,
};

/* avx2([use]) -> bool: whether the vectors are written with AVX2 moves; ``use`` False writes
 * them without (True: with, where the processor has AVX2), for the tests of both ways */
static PyObject *
avx2(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "avx2([use: bool])");
        return NULL;
    }
    if (nargs == 1) {
        int use = PyObject_IsTrue(args[0]);
        if (use < 0)
            return NULL;
        write_bytes = write_bytes_plain;
#ifdef AVX2_DISPATCH
        if (use && __builtin_cpu_supports("avx2"))
            write_bytes = write_bytes_avx2;
#endif
    }
#ifdef AVX2_DISPATCH
    return PyBool_FromLong(write_bytes == write_bytes_avx2);
#else
    Py_RETURN_FALSE;
#endif
}

static PyMethodDef methods[] = {
    {"avx2", (PyCFunction)(void (*)(void))avx2, METH_FASTCALL, "avx2([use]) -> whether vectors are written with AVX2 moves."},
    {"floats", (PyCFunction)(void (*)(void))floats, METH_FASTCALL, "The first size bits of bits as float32 0/1 bytes."},
    {"mask", (PyCFunction)(void (*)(void))mask, METH_FASTCALL, "size bytes, 1 at the indices in legal."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_speedups", "The C extension of fivehundred.env.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    for (int b = 0; b < 256; b++)
        for (int i = 0; i < 8; i++)
            unpacked[b][i] = (b >> i) & 1 ? 1.0f : 0.0f;
#ifdef AVX2_DISPATCH
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        write_bytes = write_bytes_avx2;
#endif
    static PyObject **names[] = {&s_view,          &s_observation, &s_action_mask, &s_calls,
                                 &s_visible_cards, &s_apply,       &s_legal_actions,
                                 &s_agent_for,     &s_hand_over,   &s_render,
                                 &s_human};
    static const char *texts[] = {"view",          "observation",   "action_mask", "calls",
                                  "visible_cards", "apply",         "legal_actions",
                                  "_agent_for",    "_hand_over",    "render",
                                  "human"};
    for (int i = 0; i < E_COUNT; i++)
        if ((env_names[i] = PyUnicode_InternFromString(env_texts[i])) == NULL)
            return NULL;
    for (int i = 0; i < A_COUNT; i++)
        if ((attr_names[i] = PyUnicode_InternFromString(attr_texts[i])) == NULL)
            return NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if ((*names[i] = PyUnicode_InternFromString(texts[i])) == NULL)
            return NULL;
    if (PyType_Ready(&TrackerType) < 0 || PyType_Ready(&DriverType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&TrackerType);
    if (PyModule_AddObject(m, "Tracker", (PyObject *)&TrackerType) < 0) {
        Py_DECREF(&TrackerType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&DriverType);
    if (PyModule_AddObject(m, "Driver", (PyObject *)&DriverType) < 0) {
        Py_DECREF(&DriverType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
