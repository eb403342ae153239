/* fx-error.c: the FX_ERROR domain and its mapping onto Python exception names. */
#include "fx-error.h"

G_DEFINE_QUARK (fx-error-quark, fx_error)

const char *
fx_error_code_python_name (FxErrorCode code)
{
  switch (code)
    {
    case FX_ERROR_INVALID_ARGUMENT: return "ValueError";
    case FX_ERROR_DTYPE:            return "TypeError";
    case FX_ERROR_INDEX:            return "IndexError";
    case FX_ERROR_NOT_IMPLEMENTED:  return "NotImplementedError";
    case FX_ERROR_PARSE:            return "SyntaxError";
    case FX_ERROR_TRACE:            return "TraceError";
    case FX_ERROR_IO:               return "OSError";
    case FX_ERROR_ATTRIBUTE:        return "AttributeError";
    case FX_ERROR_ASSERTION:        return "AssertionError";
    case FX_ERROR_KEY:              return "KeyError";
    case FX_ERROR_ZERO_DIVISION:    return "ZeroDivisionError";
    case FX_ERROR_OVERFLOW:         return "OverflowError";
    case FX_ERROR_SHAPE:
    case FX_ERROR_GRAPH:
    case FX_ERROR_FAILED:
    default:                        return "RuntimeError";
    }
}
