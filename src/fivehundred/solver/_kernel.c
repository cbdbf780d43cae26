/* The compiled kernel of the double-dummy solver and of the random playouts
 * (fivehundred.solver._kernel), built by ``pip install`` with the package.
 *
 * engine.py documents the packed arrays and the search; _kernel_search.h holds the search
 * itself, compiled here twice: for x86-64 CPUs with popcnt/lzcnt/bmi2 (the relative keys
 * are one ``pext`` per hand) and for any CPU; the first that the CPU runs is chosen when
 * the module is imported. The functions take the arrays as writable, C-contiguous
 * buffers of 8-byte items (numpy arrays of int64/uint64):
 *
 *   solve_dense(h, st, buf, ttk, ttc, lo, hi, d) -> int
 *   reach_dense(h, st, buf, ttk, ttc, target) -> bool
 *   move_values_dense(h, st, buf, ttk, ttc, moves, values) -> int
 *   playouts_dense(h, st, tc, tp, side, voids, suitm, csuit, n, seed, results) -> int
 *   variant() -> str   ("x86-64-v3" or "generic": which search runs)
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_V3 1
#else
#define HAVE_V3 0
#endif

/* st[] layout (engine.py) */
#define S_P 0
#define S_TRUMP 1
#define S_MISERE 2
#define S_JLMODE 3
#define S_SUITSLED 4
#define S_TCOUNT 5
#define S_LED 6
#define S_TOMOVE 7
#define S_LEFT 8
#define S_NODES 9
#define S_GEN 10
#define S_EXACT 11
#define S_HITS 12
#define S_NOQUICK 13
#define ST_SIZE 16
#define O_TC 16
#define O_TP 96
#define O_SIDE 176
#define O_VOID 184
#define O_CSUIT 192
#define O_CRANK 256
#define O_WIN 320
#define O_WREL 400
#define ST_LEN 480

#define MAX_DEPTH 72
#define MAX_MOVES 48
#define NOMINATION_NONE 4

#define H_SUIT 8
#define H_W 16
#define H_KEY (H_W + 80)
#define KEY_WORDS 16
#define K_DATA 0
#define K_MASK 1
#define K_REL 4
#define H_SIZE (H_KEY + KEY_WORDS * 80)
#define PROBE 32

#define M1 ((uint64_t)0x9E3779B97F4A7C15ULL)

/* the search's arrays */
typedef struct {
    uint64_t *h;
    int64_t *st;
    int64_t *buf;
    uint64_t *ttk;
    uint64_t *ttc;
    int64_t tmask;
    int lone; /* a misère contractor alone (no partner) */
} Ctx;

#if HAVE_V3
#define K(name) name##_v3
#define KT __attribute__((target("popcnt,lzcnt,bmi,bmi2")))
#define K_BMI2 1
#include "_kernel_search.h"
#undef K
#undef KT
#undef K_BMI2
#endif

#define K(name) name##_base
#define KT
#define K_BMI2 0
#include "_kernel_search.h"
#undef K
#undef KT
#undef K_BMI2

static int use_v3 = 0;

/* ------------------------------------------------------------------ arguments */

typedef struct {
    Py_buffer views[8];
    int count;
} Buffers;

static void
release(Buffers *b)
{
    for (int i = 0; i < b->count; i++)
        PyBuffer_Release(&b->views[i]);
    b->count = 0;
}

/* A writable C-contiguous buffer of at least min_items 8-byte items; its data. */
static void *
take(Buffers *b, PyObject *obj, Py_ssize_t min_items, const char *name, Py_ssize_t *items)
{
    Py_buffer *view = &b->views[b->count];
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    b->count++;
    const char *f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@')
        f++;
    int ok = view->itemsize == 8 && (f[0] == 'q' || f[0] == 'Q' || f[0] == 'l' || f[0] == 'L') &&
             f[1] == '\0';
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "%s: expected an array of 8-byte integers", name);
        return NULL;
    }
    Py_ssize_t n = view->len / 8;
    if (n < min_items) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items, at least %zd needed", name, n, min_items);
        return NULL;
    }
    if (items)
        *items = n;
    return view->buf;
}

static int
take_int(PyObject *obj, int64_t *out, const char *name)
{
    long long v = PyLong_AsLongLong(obj);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "%s: expected an int", name);
        return -1;
    }
    *out = (int64_t)v;
    return 0;
}

/* The five search arrays, checked so that the search cannot index outside them. */
static int
take_search(Buffers *b, PyObject *const *args, Ctx *x)
{
    Py_ssize_t tsize, krows;
    if (!(x->h = take(b, args[0], H_SIZE, "h", NULL)) ||
        !(x->st = take(b, args[1], ST_LEN, "st", NULL)) ||
        !(x->buf = take(b, args[2], MAX_DEPTH * MAX_MOVES, "buf", NULL)) ||
        !(x->ttk = take(b, args[3], KEY_WORDS, "ttk", &krows)) ||
        !(x->ttc = take(b, args[4], 1, "ttc", &tsize)))
        return -1;
    if ((tsize & (tsize - 1)) != 0 || krows < tsize * KEY_WORDS) {
        PyErr_SetString(PyExc_ValueError, "ttc: a power of two of rows, ttk KEY_WORDS per row");
        return -1;
    }
    x->tmask = (int64_t)tsize - 1;
    const int64_t *st = x->st;
    int64_t P = st[S_P];
    int64_t alone = 0;
    for (int64_t i = 0; i < P && P >= 2 && P <= 8; i++)
        alone += st[O_SIDE + i] != 0;
    x->lone = st[S_MISERE] == 1 && alone == 1;
    int64_t cards = 0;
    for (int64_t i = 0; i < P && P >= 2 && P <= 8; i++)
        cards += __builtin_popcountll(x->h[i]);
    if (P < 2 || P > 8 || st[S_TOMOVE] < 0 || st[S_TOMOVE] >= P || st[S_TCOUNT] < 0 ||
        st[S_TCOUNT] >= P || st[S_LEFT] < 0 || st[S_LEFT] > 64 || st[S_TRUMP] < -1 ||
        st[S_TRUMP] > 3 || st[S_LED] < 0 || st[S_LED] > 4 || cards + st[S_TCOUNT] > 64) {
        PyErr_SetString(PyExc_ValueError, "st: not a position (see engine.py)");
        return -1;
    }
    return 0;
}

static PyObject *
k_solve_dense(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "solve_dense(h, st, buf, ttk, ttc, lo, hi, d)");
        return NULL;
    }
    int64_t lo, hi, d;
    if (take_int(args[5], &lo, "lo") || take_int(args[6], &hi, "hi") || take_int(args[7], &d, "d"))
        return NULL;
    Buffers b = {.count = 0};
    Ctx x;
    if (take_search(&b, args, &x) < 0) {
        release(&b);
        return NULL;
    }
    if (d != x.st[S_TCOUNT] || lo < 0 || hi > x.st[S_LEFT] || lo > hi) {
        release(&b);
        PyErr_SetString(PyExc_ValueError, "solve_dense: bad lo, hi or d");
        return NULL;
    }
    int64_t value;
    Py_BEGIN_ALLOW_THREADS
#if HAVE_V3
    if (use_v3)
        value = solve_dense_v3(&x, lo, hi, d);
    else
#endif
        value = solve_dense_base(&x, lo, hi, d);
    Py_END_ALLOW_THREADS
    release(&b);
    return PyLong_FromLongLong(value);
}

static PyObject *
k_reach_dense(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "reach_dense(h, st, buf, ttk, ttc, target)");
        return NULL;
    }
    int64_t target;
    if (take_int(args[5], &target, "target"))
        return NULL;
    Buffers b = {.count = 0};
    Ctx x;
    if (take_search(&b, args, &x) < 0) {
        release(&b);
        return NULL;
    }
    int reached;
    Py_BEGIN_ALLOW_THREADS
#if HAVE_V3
    if (use_v3)
        reached = reach_dense_v3(&x, target);
    else
#endif
        reached = reach_dense_base(&x, target);
    Py_END_ALLOW_THREADS
    release(&b);
    return PyBool_FromLong(reached);
}

static PyObject *
k_move_values_dense(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "move_values_dense(h, st, buf, ttk, ttc, moves, values)");
        return NULL;
    }
    Buffers b = {.count = 0};
    Ctx x;
    int64_t *moves, *values;
    if (take_search(&b, args, &x) < 0 ||
        !(moves = take(&b, args[5], MAX_MOVES, "moves", NULL)) ||
        !(values = take(&b, args[6], MAX_MOVES, "values", NULL))) {
        release(&b);
        return NULL;
    }
    int64_t n;
    Py_BEGIN_ALLOW_THREADS
#if HAVE_V3
    if (use_v3)
        n = move_values_dense_v3(&x, moves, values);
    else
#endif
        n = move_values_dense_base(&x, moves, values);
    Py_END_ALLOW_THREADS
    release(&b);
    return PyLong_FromLongLong(n);
}

static PyObject *
k_playouts_dense(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 11) {
        PyErr_SetString(PyExc_TypeError, "playouts_dense(h, st, tc, tp, side, voids, suitm, "
                                         "csuit, n, seed, results)");
        return NULL;
    }
    int64_t n;
    if (take_int(args[8], &n, "n"))
        return NULL;
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(args[9]);
    if (seed == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    Buffers b = {.count = 0};
    uint64_t *h, *suitm;
    int64_t *st, *tc, *tp, *side, *voids, *csuit, *results;
    Py_ssize_t nresults;
    if (!(h = take(&b, args[0], 8, "h", NULL)) || !(st = take(&b, args[1], ST_SIZE, "st", NULL)) ||
        !(tc = take(&b, args[2], 8, "tc", NULL)) || !(tp = take(&b, args[3], 8, "tp", NULL)) ||
        !(side = take(&b, args[4], 8, "side", NULL)) ||
        !(voids = take(&b, args[5], 8, "voids", NULL)) ||
        !(suitm = take(&b, args[6], 5, "suitm", NULL)) ||
        !(csuit = take(&b, args[7], 64, "csuit", NULL))) {
        release(&b);
        return NULL;
    }
    /* results last: Buffers holds 8 views */
    Py_buffer rview;
    if (PyObject_GetBuffer(args[10], &rview, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        release(&b);
        return NULL;
    }
    results = rview.buf;
    nresults = rview.len / 8;
    int64_t P = st[S_P];
    if (rview.itemsize != 8 || n < 0 || n > nresults || P < 2 || P > 8 || st[S_TOMOVE] < 0 ||
        st[S_TOMOVE] >= P || st[S_TCOUNT] < 0 || st[S_TCOUNT] >= P || st[S_LED] < 0 ||
        st[S_LED] > 4) {
        PyBuffer_Release(&rview);
        release(&b);
        PyErr_SetString(PyExc_ValueError, "playouts_dense: bad arguments");
        return NULL;
    }
    uint64_t state;
    Py_BEGIN_ALLOW_THREADS
#if HAVE_V3
    if (use_v3)
        state = playouts_dense_v3(h, st, tc, tp, side, voids, suitm, csuit, n, seed, results);
    else
#endif
        state = playouts_dense_base(h, st, tc, tp, side, voids, suitm, csuit, n, seed, results);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&rview);
    release(&b);
    return PyLong_FromUnsignedLongLong(state);
}

static PyObject *
k_variant(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(use_v3 ? "x86-64-v3" : "generic");
}

static PyObject *
k_set_variant(PyObject *self, PyObject *arg)
{
    (void)self;
    int v3 = PyObject_IsTrue(arg);
    if (v3 < 0)
        return NULL;
#if HAVE_V3
    __builtin_cpu_init();
    use_v3 = v3 && __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi2") &&
             __builtin_cpu_supports("lzcnt") && __builtin_cpu_supports("bmi");
#else
    use_v3 = 0;
#endif
    return k_variant(self, NULL);
}

static PyMethodDef methods[] = {
    {"solve_dense", (PyCFunction)(void (*)(void))k_solve_dense, METH_FASTCALL,
     "Exact further tricks of the contracting side within lo..hi."},
    {"reach_dense", (PyCFunction)(void (*)(void))k_reach_dense, METH_FASTCALL,
     "Zero-window: can the contracting side take target more tricks?"},
    {"move_values_dense", (PyCFunction)(void (*)(void))k_move_values_dense, METH_FASTCALL,
     "Every legal move and its value; returns the number of moves."},
    {"playouts_dense", (PyCFunction)(void (*)(void))k_playouts_dense, METH_FASTCALL,
     "n uniformly random playouts into results."},
    {"variant", k_variant, METH_NOARGS, "Which compiled search runs: x86-64-v3 or generic."},
    {"set_variant", k_set_variant, METH_O,
     "Run the x86-64-v3 search (when the CPU has it) or the generic one (tests)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernel", "The double-dummy solver's compiled kernel.", -1, methods,
};

PyMODINIT_FUNC
PyInit__kernel(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    PyObject *r = k_set_variant(m, Py_True);
    if (r == NULL) {
        Py_DECREF(m);
        return NULL;
    }
    Py_DECREF(r);
    if (PyModule_AddIntConstant(m, "H_SIZE", H_SIZE) < 0 ||
        PyModule_AddIntConstant(m, "ST_LEN", ST_LEN) < 0 ||
        PyModule_AddIntConstant(m, "KEY_WORDS", KEY_WORDS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
