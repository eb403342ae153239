/* fx-error.h: the FX_ERROR GError domain that every libfx failure on user input reports in. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define FX_ERROR (fx_error_quark ())

typedef enum {
  FX_ERROR_FAILED,          /* anything not covered below */
  FX_ERROR_INVALID_ARGUMENT,/* a bad value passed by the caller */
  FX_ERROR_SHAPE,           /* tensor shapes that do not fit together */
  FX_ERROR_DTYPE,           /* a dtype an operation does not support */
  FX_ERROR_INDEX,           /* an index or dimension out of range */
  FX_ERROR_NOT_IMPLEMENTED, /* outside what libfx supports (yet) */
  FX_ERROR_PARSE,           /* malformed source or file */
  FX_ERROR_GRAPH,           /* an edit or a graph that breaks FX's invariants */
  FX_ERROR_TRACE,           /* symbolic tracing failed */
  FX_ERROR_IO,              /* a file could not be read or written */
  FX_ERROR_ZERO_DIVISION,   /* Python number arithmetic divided by zero (ZeroDivisionError) */
  FX_ERROR_ATTRIBUTE,       /* a missing attribute or submodule (AttributeError) */
  FX_ERROR_ASSERTION,       /* a failed assert of PyTorch's Python code (AssertionError) */
  FX_ERROR_KEY,             /* a missing key (KeyError) */
  FX_ERROR_OVERFLOW,        /* a Python int result beyond 64 bits, or float overflow in ** */
} FxErrorCode;

GQuark fx_error_quark (void);

/* The Python exception class name that an error code maps to ("RuntimeError", ...). */
const char *fx_error_code_python_name (FxErrorCode code);

G_END_DECLS
