/* The optional C extension of the environment's observation (see docs/env.md, "Speed").
 *
 * floats(bits, size) -> bytearray: the first ``size`` bits of the non-negative integer
 *     ``bits`` (bit i = element i) as ``size`` native float32 values 0.0 / 1.0, for
 *     ``numpy.frombuffer(..., numpy.float32)``.
 * mask(legal, size) -> bytearray: ``size`` bytes, 1 at every index in the list ``legal``,
 *     0 elsewhere, for ``numpy.frombuffer(..., numpy.int8)``.
 *
 * fivehundred.env.encoding has the same in Python (used where this is not built); the
 * tests check that both give the very same arrays.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define MAX_BYTES 1024 /* 8,192 bits: far more than any rule set's vector */

static float unpacked[256][8];

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
    char *dst = PyByteArray_AS_STRING(out);
    memset(dst, 0, (size_t)size);
    Py_ssize_t count = PyList_GET_SIZE(legal);
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_ssize_t action = PyLong_AsSsize_t(PyList_GET_ITEM(legal, i));
        if (action == -1 && PyErr_Occurred()) {
            Py_DECREF(out);
            return NULL;
        }
        if (action < 0 || action >= size) {
            Py_DECREF(out);
            PyErr_SetString(PyExc_IndexError, "mask: action out of range");
            return NULL;
        }
        dst[action] = 1;
    }
    return out;
}

static PyMethodDef methods[] = {
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
    return PyModule_Create(&module);
}
