/* modules.c: the native standard-library modules scripts import — registration of all of
 * them (sc_modules_init), the shared argument helpers, and `math` and `operator`. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "script/mod.h"

/* ------------------------------------------------------------------ helpers */

gboolean
sc_mod_no_kwargs (FxScript *S, const char *fname, FxDict *kwargs)
{
  if (kwargs && fx_dict_len (kwargs))
    return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes no keyword arguments", fname);
  return TRUE;
}

gboolean
sc_mod_nargs (FxScript *S, const char *fname, int n_args, FxDict *kwargs, int min, int max)
{
  if (!sc_mod_no_kwargs (S, fname, kwargs))
    return FALSE;
  if (min == max && max == 1 && n_args != 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes exactly one argument (%d given)", fname, n_args);
  if (n_args < min || n_args > max)
    {
      if (min == max)
        return sc_raise (S, SC_T_TYPE_ERROR, "%s expected %d argument%s, got %d", fname, min,
                         min == 1 ? "" : "s", n_args);
      if (n_args < min)
        return sc_raise (S, SC_T_TYPE_ERROR, "%s expected at least %d argument%s, got %d", fname, min,
                         min == 1 ? "" : "s", n_args);
      return sc_raise (S, SC_T_TYPE_ERROR, "%s expected at most %d argument%s, got %d", fname, max,
                       max == 1 ? "" : "s", n_args);
    }
  return TRUE;
}

gboolean
sc_mod_to_double (FxScript *S, const FxValue *v, double *out)
{
  FxValue r;
  int called;
  switch (v->kind)
    {
    case FX_VALUE_BOOL: *out = v->b; return TRUE;
    case FX_VALUE_INT: *out = (double) v->i; return TRUE;
    case FX_VALUE_FLOAT: *out = v->f; return TRUE;
    case FX_VALUE_NONE: case FX_VALUE_STR: case FX_VALUE_TUPLE: case FX_VALUE_LIST:
    case FX_VALUE_DICT:
      break;
    default:
      called = sc_call_special (S, v, "__float__", NULL, 0, &r);
      if (called < 0)
        return FALSE;
      if (called == 0)
        {
          called = sc_call_special (S, v, "__index__", NULL, 0, &r);
          if (called < 0)
            return FALSE;
        }
      if (called > 0)
        {
          if (r.kind == FX_VALUE_FLOAT || r.kind == FX_VALUE_INT || r.kind == FX_VALUE_BOOL)
            {
              *out = r.kind == FX_VALUE_FLOAT ? r.f : r.kind == FX_VALUE_INT ? (double) r.i : r.b;
              fx_value_clear (&r);
              return TRUE;
            }
          fx_value_clear (&r);
        }
      break;
    }
  return sc_raise (S, SC_T_TYPE_ERROR, "must be real number, not %s", sc_type_name (S, v));
}

gboolean
sc_mod_to_index (FxScript *S, const FxValue *v, int64_t *out)
{
  if (v->kind == FX_VALUE_INT)
    {
      *out = v->i;
      return TRUE;
    }
  if (v->kind == FX_VALUE_BOOL)
    {
      *out = v->b;
      return TRUE;
    }
  if (v->kind == FX_VALUE_FLOAT || v->kind == FX_VALUE_STR || v->kind == FX_VALUE_NONE
      || v->kind == FX_VALUE_TUPLE || v->kind == FX_VALUE_LIST || v->kind == FX_VALUE_DICT)
    return sc_raise (S, SC_T_TYPE_ERROR, "'%s' object cannot be interpreted as an integer",
                     sc_type_name (S, v));
  return sc_index (S, v, out);
}

void
sc_mod_set_fn (FxScriptModule *m, const char *module, const char *name, FxScriptFunc func,
               gpointer user_data)
{
  fx_script_module_set (m, name, fx_script_function_new (module, name, func, user_data, NULL));
}

FxValue
sc_mod_tuple (const FxValue *items, int n)
{
  FxSeq *t = fx_seq_new (n);
  for (int i = 0; i < n; i++)
    t->items[i] = fx_value_copy (&items[i]);
  return fx_value_take_tuple (t);
}

static gboolean
math_error (FxScript *S, gboolean overflow)
{
  if (overflow)
    return sc_raise (S, SC_T_OVERFLOW_ERROR, "math range error");
  return sc_raise (S, SC_T_VALUE_ERROR, "math domain error");
}

/* ------------------------------------------------------------------ math: one float */

typedef struct {
  const char *name;
  double (*func) (double);
  gboolean can_overflow;
} MathUnary;

static double deg_of (double x) { return x * (180.0 / G_PI); }
static double rad_of (double x) { return x * (G_PI / 180.0); }

static double
m_gamma (double x)
{
  if (x <= 0 && x == floor (x))
    return NAN;
  if (isinf (x) && x < 0)
    return NAN;
  return tgamma (x);
}

static double
m_lgamma (double x)
{
  if (x <= 0 && x == floor (x) && isfinite (x))
    return NAN;   /* a pole: domain error as CPython */
  return lgamma (x);
}

static double m_log2 (double x) { return x <= 0 ? NAN : log2 (x); }
static double m_log10 (double x) { return x <= 0 ? NAN : log10 (x); }
static double m_log1p (double x) { return x <= -1 ? NAN : log1p (x); }
static double m_sqrt (double x) { return x < 0 ? NAN : sqrt (x); }
static double m_acosh (double x) { return x < 1 ? NAN : acosh (x); }
static double m_atanh (double x) { return fabs (x) >= 1 ? NAN : atanh (x); }

static const MathUnary math_unary_table[] = {
  { "sqrt", m_sqrt, FALSE }, { "exp", exp, TRUE }, { "exp2", exp2, TRUE },
  { "expm1", expm1, TRUE }, { "log2", m_log2, FALSE }, { "log10", m_log10, FALSE },
  { "log1p", m_log1p, FALSE }, { "fabs", fabs, FALSE }, { "sin", sin, FALSE },
  { "cos", cos, FALSE }, { "tan", tan, FALSE }, { "asin", asin, FALSE },
  { "acos", acos, FALSE }, { "atan", atan, FALSE }, { "sinh", sinh, TRUE },
  { "cosh", cosh, TRUE }, { "tanh", tanh, FALSE }, { "asinh", asinh, FALSE },
  { "acosh", m_acosh, FALSE }, { "atanh", m_atanh, FALSE }, { "erf", erf, FALSE },
  { "erfc", erfc, FALSE }, { "gamma", m_gamma, TRUE }, { "lgamma", m_lgamma, TRUE },
  { "degrees", deg_of, FALSE }, { "radians", rad_of, FALSE }, { "cbrt", cbrt, FALSE },
};

static gboolean
math_unary (SC_NATIVE_ARGS)
{
  const MathUnary *u = data;
  char fname[64];
  double x, r;
  g_snprintf (fname, sizeof fname, "math.%s", u->name);
  if (!sc_mod_nargs (S, fname, n_args, kwargs, 1, 1) || !sc_mod_to_double (S, &args[0], &x))
    return FALSE;
  r = u->func (x);
  if (isnan (r) && !isnan (x))
    return math_error (S, FALSE);
  if (isinf (r) && isfinite (x))
    return math_error (S, u->can_overflow);
  *result = fx_value_float (r);
  return TRUE;
}

static gboolean
math_log (SC_NATIVE_ARGS)
{
  double x, base, r;
  if (!sc_mod_no_kwargs (S, "log", kwargs))
    return FALSE;
  if (n_args < 1 || n_args > 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "log expected at %s %d argument%s, got %d",
                     n_args < 1 ? "least" : "most", n_args < 1 ? 1 : 2, n_args < 1 ? "" : "s", n_args);
  if (!sc_mod_to_double (S, &args[0], &x))
    return FALSE;
  if (isnan (x))
    r = x;
  else if (x <= 0)
    return math_error (S, FALSE);
  else
    r = log (x);
  if (n_args == 2)
    {
      double lb;
      if (!sc_mod_to_double (S, &args[1], &base))
        return FALSE;
      if (!isnan (base) && base <= 0)
        return math_error (S, FALSE);
      lb = log (base);
      if (lb == 0)
        return sc_raise (S, SC_T_ZERO_DIVISION_ERROR, "float division by zero");
      r = r / lb;
    }
  *result = fx_value_float (r);
  return TRUE;
}

/* floor / ceil / trunc: ints as they are, floats to int, others through __floor__ ... */
static gboolean
float_to_int_checked (FxScript *S, double f, FxValue *out)
{
  if (isnan (f))
    return sc_raise (S, SC_T_VALUE_ERROR, "cannot convert float NaN to integer");
  if (isinf (f))
    return sc_raise (S, SC_T_OVERFLOW_ERROR, "cannot convert float infinity to integer");
  if (f >= 9223372036854775808.0 || f < -9223372036854775808.0)
    return sc_raise (S, SC_T_OVERFLOW_ERROR, "int too large for fx's 64-bit integers");
  *out = fx_value_int ((int64_t) f);
  return TRUE;
}

static gboolean
math_rounding (FxScript *S, const char *fname, const char *dunder, double (*f) (double),
               const FxValue *args, int n_args, FxDict *kwargs, FxValue *result)
{
  const FxValue *v;
  int called;
  if (!sc_mod_nargs (S, fname, n_args, kwargs, 1, 1))
    return FALSE;
  v = &args[0];
  if (v->kind == FX_VALUE_INT || v->kind == FX_VALUE_BOOL)
    {
      *result = fx_value_int (v->kind == FX_VALUE_INT ? v->i : v->b);
      return TRUE;
    }
  if (v->kind == FX_VALUE_FLOAT)
    return float_to_int_checked (S, f (v->f), result);
  called = sc_call_special (S, v, dunder, NULL, 0, result);
  if (called < 0)
    return FALSE;
  if (called > 0)
    return TRUE;
  if (strcmp (dunder, "__trunc__") == 0)
    return sc_raise (S, SC_T_TYPE_ERROR, "type %s doesn't define __trunc__ method", sc_type_name (S, v));
  {
    double x;
    if (!sc_mod_to_double (S, v, &x))
      return FALSE;
    return float_to_int_checked (S, f (x), result);
  }
}

static gboolean
math_floor (SC_NATIVE_ARGS)
{
  return math_rounding (S, "math.floor", "__floor__", floor, args, n_args, kwargs, result);
}

static gboolean
math_ceil (SC_NATIVE_ARGS)
{
  return math_rounding (S, "math.ceil", "__ceil__", ceil, args, n_args, kwargs, result);
}

static gboolean
math_trunc (SC_NATIVE_ARGS)
{
  return math_rounding (S, "math.trunc", "__trunc__", trunc, args, n_args, kwargs, result);
}

/* ------------------------------------------------------------------ math: two floats */

static gboolean
two_doubles (FxScript *S, const char *fname, const FxValue *args, int n_args, FxDict *kwargs,
             double *x, double *y)
{
  return sc_mod_nargs (S, fname, n_args, kwargs, 2, 2) && sc_mod_to_double (S, &args[0], x)
         && sc_mod_to_double (S, &args[1], y);
}

static gboolean
math_pow (SC_NATIVE_ARGS)
{
  double x, y, r;
  if (!two_doubles (S, "pow", args, n_args, kwargs, &x, &y))
    return FALSE;
  r = pow (x, y);
  if (isfinite (x) && isfinite (y))
    {
      if (isnan (r))
        return math_error (S, FALSE);
      if (isinf (r))
        return math_error (S, x != 0);
    }
  *result = fx_value_float (r);
  return TRUE;
}

static gboolean
math_atan2 (SC_NATIVE_ARGS)
{
  double y, x;
  if (!two_doubles (S, "atan2", args, n_args, kwargs, &y, &x))
    return FALSE;
  *result = fx_value_float (atan2 (y, x));
  return TRUE;
}

static gboolean
math_copysign (SC_NATIVE_ARGS)
{
  double x, y;
  if (!two_doubles (S, "copysign", args, n_args, kwargs, &x, &y))
    return FALSE;
  *result = fx_value_float (copysign (x, y));
  return TRUE;
}

static gboolean
math_fmod (SC_NATIVE_ARGS)
{
  double x, y;
  if (!two_doubles (S, "fmod", args, n_args, kwargs, &x, &y))
    return FALSE;
  if (isinf (y) && isfinite (x))
    {
      *result = fx_value_float (x);
      return TRUE;
    }
  if ((y == 0 && !isnan (x)) || (isinf (x) && !isnan (y)))
    return math_error (S, FALSE);
  *result = fx_value_float (fmod (x, y));
  return TRUE;
}

static gboolean
math_remainder (SC_NATIVE_ARGS)
{
  double x, y;
  if (!two_doubles (S, "remainder", args, n_args, kwargs, &x, &y))
    return FALSE;
  if ((isinf (x) && !isnan (y)) || (y == 0 && !isnan (x)))
    return math_error (S, FALSE);
  *result = fx_value_float (remainder (x, y));
  return TRUE;
}

static gboolean
math_nextafter (SC_NATIVE_ARGS)
{
  double x, y;
  if (!two_doubles (S, "nextafter", args, n_args, kwargs, &x, &y))
    return FALSE;
  *result = fx_value_float (nextafter (x, y));
  return TRUE;
}

static gboolean
math_ldexp (SC_NATIVE_ARGS)
{
  double x, r;
  int64_t e;
  if (!sc_mod_nargs (S, "ldexp", n_args, kwargs, 2, 2) || !sc_mod_to_double (S, &args[0], &x))
    return FALSE;
  if (args[1].kind == FX_VALUE_FLOAT)
    return sc_raise (S, SC_T_TYPE_ERROR, "Expected an int as second argument to ldexp.");
  if (!sc_mod_to_index (S, &args[1], &e))
    return FALSE;
  e = CLAMP (e, -100000, 100000);
  r = ldexp (x, (int) e);
  if (isinf (r) && isfinite (x))
    return math_error (S, TRUE);
  *result = fx_value_float (r);
  return TRUE;
}

static gboolean
math_frexp (SC_NATIVE_ARGS)
{
  double x, m;
  int e = 0;
  FxValue items[2];
  if (!sc_mod_nargs (S, "math.frexp", n_args, kwargs, 1, 1) || !sc_mod_to_double (S, &args[0], &x))
    return FALSE;
  if (isnan (x) || isinf (x) || x == 0)
    m = x;
  else
    m = frexp (x, &e);
  items[0] = fx_value_float (m);
  items[1] = fx_value_int (e);
  *result = sc_mod_tuple (items, 2);
  return TRUE;
}

static gboolean
math_modf (SC_NATIVE_ARGS)
{
  double x, ip, fp;
  FxValue items[2];
  if (!sc_mod_nargs (S, "math.modf", n_args, kwargs, 1, 1) || !sc_mod_to_double (S, &args[0], &x))
    return FALSE;
  if (isinf (x))
    {
      ip = x;
      fp = copysign (0.0, x);
    }
  else
    fp = modf (x, &ip);
  items[0] = fx_value_float (fp);
  items[1] = fx_value_float (ip);
  *result = sc_mod_tuple (items, 2);
  return TRUE;
}

static gboolean
math_ulp (SC_NATIVE_ARGS)
{
  double x, x2;
  if (!sc_mod_nargs (S, "math.ulp", n_args, kwargs, 1, 1) || !sc_mod_to_double (S, &args[0], &x))
    return FALSE;
  if (isnan (x))
    *result = fx_value_float (x);
  else
    {
      x = fabs (x);
      if (isinf (x))
        *result = fx_value_float (x);
      else
        {
          x2 = nextafter (x, INFINITY);
          if (isinf (x2))
            {
              x2 = nextafter (x, -INFINITY);
              *result = fx_value_float (x - x2);
            }
          else
            *result = fx_value_float (x2 - x);
        }
    }
  return TRUE;
}

/* ------------------------------------------------------------------ math: predicates */

static gboolean
math_pred (FxScript *S, const char *fname, int (*pred) (double), const FxValue *args, int n_args,
           FxDict *kwargs, FxValue *result)
{
  double x;
  if (!sc_mod_nargs (S, fname, n_args, kwargs, 1, 1) || !sc_mod_to_double (S, &args[0], &x))
    return FALSE;
  *result = fx_value_bool (pred (x));
  return TRUE;
}

static int p_isnan (double x) { return isnan (x); }
static int p_isinf (double x) { return isinf (x); }
static int p_isfinite (double x) { return isfinite (x); }

static gboolean
math_isnan (SC_NATIVE_ARGS)
{
  return math_pred (S, "math.isnan", p_isnan, args, n_args, kwargs, result);
}

static gboolean
math_isinf (SC_NATIVE_ARGS)
{
  return math_pred (S, "math.isinf", p_isinf, args, n_args, kwargs, result);
}

static gboolean
math_isfinite (SC_NATIVE_ARGS)
{
  return math_pred (S, "math.isfinite", p_isfinite, args, n_args, kwargs, result);
}

static gboolean
math_isclose (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "a", "b", "rel_tol", "abs_tol" };
  const FxValue *v[4];
  double a, b, rel = 1e-9, abs_tol = 0.0, diff;
  if (n_args > 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "isclose() takes exactly 2 positional arguments (%d given)", n_args);
  if (!fx_script_parse_args (S, "isclose", args, n_args, kwargs, names, 4, 2, 2, v))
    return FALSE;
  if (!sc_mod_to_double (S, v[0], &a) || !sc_mod_to_double (S, v[1], &b)
      || (v[2] && !sc_mod_to_double (S, v[2], &rel)) || (v[3] && !sc_mod_to_double (S, v[3], &abs_tol)))
    return FALSE;
  if (rel < 0 || abs_tol < 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "tolerances must be non-negative");
  if (a == b)
    {
      *result = fx_value_bool (TRUE);
      return TRUE;
    }
  if (isinf (a) || isinf (b))
    {
      *result = fx_value_bool (FALSE);
      return TRUE;
    }
  diff = fabs (b - a);
  *result = fx_value_bool ((diff <= fabs (rel * b)) || (diff <= fabs (rel * a)) || diff <= abs_tol);
  return TRUE;
}

/* ------------------------------------------------------------------ math: sequences */

typedef struct {
  FxValue acc;
} ProdState;

static gboolean
prod_step (FxScript *S, const FxValue *item, gpointer user_data)
{
  ProdState *st = user_data;
  FxValue r;
  if (!sc_binary (S, SC_BIN_MUL, &st->acc, item, &r, FALSE))
    return FALSE;
  fx_value_clear (&st->acc);
  st->acc = r;
  return TRUE;
}

static gboolean
math_prod (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "iterable", "start" };
  const FxValue *v[2];
  ProdState st;
  if (n_args > 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "prod() takes exactly 1 positional argument (%d given)", n_args);
  if (!fx_script_parse_args (S, "prod", args, n_args, kwargs, names, 2, 1, 1, v))
    return FALSE;
  st.acc = v[1] ? fx_value_copy (v[1]) : fx_value_int (1);
  if (!fx_script_iterate (S, v[0], prod_step, &st))
    {
      fx_value_clear (&st.acc);
      return FALSE;
    }
  *result = st.acc;
  return TRUE;
}

/* fsum: Shewchuk's exact partial sums, with CPython's handling of inf and nan */
typedef struct {
  GArray *partials;   /* double */
  double special, inf_sum;
  gboolean has_special;
} FsumState;

static gboolean
fsum_step (FxScript *S, const FxValue *item, gpointer user_data)
{
  FsumState *st = user_data;
  double x, y, t, hi, lo;
  guint i = 0, n = st->partials->len;
  double *p = (double *) st->partials->data;
  if (!sc_mod_to_double (S, item, &x))
    return FALSE;
  if (!isfinite (x))
    {
      if (isinf (x))
        st->inf_sum += x;
      st->special += x;
      st->has_special = TRUE;
      return TRUE;
    }
  for (guint j = 0; j < n; j++)
    {
      y = p[j];
      if (fabs (x) < fabs (y))
        {
          t = x;
          x = y;
          y = t;
        }
      hi = x + y;
      lo = y - (hi - x);
      if (lo != 0.0)
        p[i++] = lo;
      x = hi;
    }
  if (!isfinite (x))
    return sc_raise (S, SC_T_OVERFLOW_ERROR, "intermediate overflow in fsum");
  g_array_set_size (st->partials, i);
  g_array_append_val (st->partials, x);
  return TRUE;
}

static gboolean
math_fsum (SC_NATIVE_ARGS)
{
  FsumState st = { g_array_new (FALSE, FALSE, sizeof (double)), 0.0, 0.0, FALSE };
  double hi = 0.0, lo = 0.0, yr, x, y;
  int n;
  double *p;
  if (!sc_mod_nargs (S, "math.fsum", n_args, kwargs, 1, 1))
    goto fail;
  if (!fx_script_iterate (S, &args[0], fsum_step, &st))
    goto fail;
  if (st.has_special)
    {
      if (isnan (st.inf_sum))
        {
          sc_raise (S, SC_T_VALUE_ERROR, "-inf + inf in fsum");
          goto fail;
        }
      *result = fx_value_float (st.special);
      g_array_free (st.partials, TRUE);
      return TRUE;
    }
  n = st.partials->len;
  p = (double *) st.partials->data;
  if (n > 0)
    {
      hi = p[--n];
      while (n > 0)
        {
          x = hi;
          y = p[--n];
          hi = x + y;
          yr = hi - x;
          lo = y - yr;
          if (lo != 0.0)
            break;
        }
      if (n > 0 && ((lo < 0.0 && p[n - 1] < 0.0) || (lo > 0.0 && p[n - 1] > 0.0)))
        {
          y = lo * 2.0;
          x = hi + y;
          yr = x - hi;
          if (y == yr)
            hi = x;
        }
    }
  if (isinf (hi))
    {
      sc_raise (S, SC_T_OVERFLOW_ERROR, "intermediate overflow in fsum");
      goto fail;
    }
  *result = fx_value_float (hi);
  g_array_free (st.partials, TRUE);
  return TRUE;
fail:
  g_array_free (st.partials, TRUE);
  return FALSE;
}

typedef struct {
  double *coords;
  int n;
} Coords;

static double
hypot_of (const double *v, int n)
{
  double max = 0.0, sum = 0.0;
  gboolean found_nan = FALSE;
  for (int i = 0; i < n; i++)
    {
      double a = fabs (v[i]);
      if (isinf (a))
        return INFINITY;
      if (isnan (a))
        found_nan = TRUE;
      if (a > max)
        max = a;
    }
  if (found_nan)
    return NAN;
  if (max == 0)
    return 0.0;
  for (int i = 0; i < n; i++)
    {
      double q = v[i] / max;
      sum += q * q;
    }
  return max * sqrt (sum);
}

static gboolean
math_hypot (SC_NATIVE_ARGS)
{
  double *v = g_new0 (double, n_args + 1);
  if (!sc_mod_no_kwargs (S, "hypot", kwargs))
    goto fail;
  for (int i = 0; i < n_args; i++)
    if (!sc_mod_to_double (S, &args[i], &v[i]))
      goto fail;
  if (n_args == 2)
    *result = fx_value_float (hypot (v[0], v[1]));
  else
    *result = fx_value_float (hypot_of (v, n_args));
  g_free (v);
  return TRUE;
fail:
  g_free (v);
  return FALSE;
}

static gboolean
coords_of (FxScript *S, const FxValue *v, FxSeq **out)
{
  if (v->kind != FX_VALUE_TUPLE && v->kind != FX_VALUE_LIST)
    {
      if (!sc_collect (S, v, out))
        return FALSE;
      return TRUE;
    }
  *out = fx_seq_ref (v->seq);
  return TRUE;
}

static gboolean
math_dist (SC_NATIVE_ARGS)
{
  FxSeq *p = NULL, *q = NULL;
  double *d = NULL;
  gboolean ok = FALSE;
  if (!sc_mod_nargs (S, "dist", n_args, kwargs, 2, 2))
    return FALSE;
  if (!coords_of (S, &args[0], &p) || !coords_of (S, &args[1], &q))
    goto out;
  if (p->len != q->len)
    {
      sc_raise (S, SC_T_VALUE_ERROR, "both points must have the same number of dimensions");
      goto out;
    }
  d = g_new0 (double, p->len + 1);
  for (guint i = 0; i < p->len; i++)
    {
      double a, b;
      if (!sc_mod_to_double (S, &p->items[i], &a) || !sc_mod_to_double (S, &q->items[i], &b))
        goto out;
      d[i] = a - b;
    }
  *result = fx_value_float (hypot_of (d, p->len));
  ok = TRUE;
out:
  g_free (d);
  if (p)
    fx_seq_unref (p);
  if (q)
    fx_seq_unref (q);
  return ok;
}

/* ------------------------------------------------------------------ math: integers */

static gboolean
int_overflow (FxScript *S, const char *what)
{
  return sc_raise (S, SC_T_OVERFLOW_ERROR, "%s result does not fit fx's 64-bit integers", what);
}

static gboolean
math_factorial (SC_NATIVE_ARGS)
{
  int64_t n, r = 1;
  if (!sc_mod_nargs (S, "math.factorial", n_args, kwargs, 1, 1) || !sc_mod_to_index (S, &args[0], &n))
    return FALSE;
  if (n < 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "factorial() not defined for negative values");
  for (int64_t i = 2; i <= n; i++)
    if (__builtin_mul_overflow (r, i, &r))
      return int_overflow (S, "factorial()");
  *result = fx_value_int (r);
  return TRUE;
}

static int64_t
gcd64 (int64_t a, int64_t b)
{
  uint64_t x = a < 0 ? -(uint64_t) a : (uint64_t) a, y = b < 0 ? -(uint64_t) b : (uint64_t) b;
  while (y)
    {
      uint64_t t = x % y;
      x = y;
      y = t;
    }
  return (int64_t) x;
}

static gboolean
math_gcd (SC_NATIVE_ARGS)
{
  int64_t g = 0, v;
  if (!sc_mod_no_kwargs (S, "gcd", kwargs))
    return FALSE;
  for (int i = 0; i < n_args; i++)
    {
      if (!sc_mod_to_index (S, &args[i], &v))
        return FALSE;
      g = gcd64 (g, v);
    }
  *result = fx_value_int (g);
  return TRUE;
}

static gboolean
math_lcm (SC_NATIVE_ARGS)
{
  int64_t l = 1, v;
  if (!sc_mod_no_kwargs (S, "lcm", kwargs))
    return FALSE;
  for (int i = 0; i < n_args; i++)
    {
      int64_t g;
      if (!sc_mod_to_index (S, &args[i], &v))
        return FALSE;
      if (v == 0 || l == 0)
        {
          l = 0;
          continue;
        }
      g = gcd64 (l, v);
      if (__builtin_mul_overflow (l / g, v < 0 ? -v : v, &l))
        return int_overflow (S, "lcm()");
    }
  *result = fx_value_int (l);
  return TRUE;
}

static gboolean
comb_perm (FxScript *S, const char *fname, gboolean comb, const FxValue *args, int n_args,
           FxDict *kwargs, FxValue *result)
{
  int64_t n, k;
  unsigned __int128 r = 1;
  if (!sc_mod_nargs (S, fname, n_args, kwargs, comb ? 2 : 1, 2) || !sc_mod_to_index (S, &args[0], &n))
    return FALSE;
  if (n_args > 1 && args[1].kind != FX_VALUE_NONE)
    {
      if (!sc_mod_to_index (S, &args[1], &k))
        return FALSE;
    }
  else
    k = n;
  if (n < 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "n must be a non-negative integer");
  if (k < 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "k must be a non-negative integer");
  if (k > n)
    {
      *result = fx_value_int (0);
      return TRUE;
    }
  if (comb)
    {
      if (k > n - k)
        k = n - k;
      for (int64_t i = 1; i <= k; i++)
        {
          r = r * (unsigned __int128) (n - k + i) / (unsigned __int128) i;
          if (r > (unsigned __int128) G_MAXINT64)
            return int_overflow (S, "comb()");
        }
    }
  else
    for (int64_t i = 0; i < k; i++)
      {
        r *= (unsigned __int128) (n - i);
        if (r > (unsigned __int128) G_MAXINT64)
          return int_overflow (S, "perm()");
      }
  *result = fx_value_int ((int64_t) r);
  return TRUE;
}

static gboolean
math_comb (SC_NATIVE_ARGS)
{
  return comb_perm (S, "comb", TRUE, args, n_args, kwargs, result);
}

static gboolean
math_perm (SC_NATIVE_ARGS)
{
  return comb_perm (S, "perm", FALSE, args, n_args, kwargs, result);
}

static gboolean
math_isqrt (SC_NATIVE_ARGS)
{
  int64_t n;
  uint64_t r;
  if (!sc_mod_nargs (S, "math.isqrt", n_args, kwargs, 1, 1) || !sc_mod_to_index (S, &args[0], &n))
    return FALSE;
  if (n < 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "isqrt() argument must be nonnegative");
  r = (uint64_t) sqrtl ((long double) n);
  while (r * r > (uint64_t) n)
    r--;
  while ((r + 1) * (r + 1) <= (uint64_t) n)
    r++;
  *result = fx_value_int ((int64_t) r);
  return TRUE;
}

static gboolean
math_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  (void) S;
  (void) user_data;
  fx_script_module_set (m, "pi", fx_value_float (G_PI));
  fx_script_module_set (m, "e", fx_value_float (G_E));
  fx_script_module_set (m, "tau", fx_value_float (2 * G_PI));
  fx_script_module_set (m, "inf", fx_value_float (INFINITY));
  fx_script_module_set (m, "nan", fx_value_float (NAN));
  for (guint i = 0; i < G_N_ELEMENTS (math_unary_table); i++)
    sc_mod_set_fn (m, "math", math_unary_table[i].name, math_unary, (gpointer) &math_unary_table[i]);
  sc_mod_set_fn (m, "math", "log", math_log, NULL);
  sc_mod_set_fn (m, "math", "floor", math_floor, NULL);
  sc_mod_set_fn (m, "math", "ceil", math_ceil, NULL);
  sc_mod_set_fn (m, "math", "trunc", math_trunc, NULL);
  sc_mod_set_fn (m, "math", "pow", math_pow, NULL);
  sc_mod_set_fn (m, "math", "atan2", math_atan2, NULL);
  sc_mod_set_fn (m, "math", "copysign", math_copysign, NULL);
  sc_mod_set_fn (m, "math", "fmod", math_fmod, NULL);
  sc_mod_set_fn (m, "math", "remainder", math_remainder, NULL);
  sc_mod_set_fn (m, "math", "nextafter", math_nextafter, NULL);
  sc_mod_set_fn (m, "math", "ldexp", math_ldexp, NULL);
  sc_mod_set_fn (m, "math", "frexp", math_frexp, NULL);
  sc_mod_set_fn (m, "math", "modf", math_modf, NULL);
  sc_mod_set_fn (m, "math", "ulp", math_ulp, NULL);
  sc_mod_set_fn (m, "math", "isnan", math_isnan, NULL);
  sc_mod_set_fn (m, "math", "isinf", math_isinf, NULL);
  sc_mod_set_fn (m, "math", "isfinite", math_isfinite, NULL);
  sc_mod_set_fn (m, "math", "isclose", math_isclose, NULL);
  sc_mod_set_fn (m, "math", "prod", math_prod, NULL);
  sc_mod_set_fn (m, "math", "fsum", math_fsum, NULL);
  sc_mod_set_fn (m, "math", "hypot", math_hypot, NULL);
  sc_mod_set_fn (m, "math", "dist", math_dist, NULL);
  sc_mod_set_fn (m, "math", "factorial", math_factorial, NULL);
  sc_mod_set_fn (m, "math", "gcd", math_gcd, NULL);
  sc_mod_set_fn (m, "math", "lcm", math_lcm, NULL);
  sc_mod_set_fn (m, "math", "comb", math_comb, NULL);
  sc_mod_set_fn (m, "math", "perm", math_perm, NULL);
  sc_mod_set_fn (m, "math", "isqrt", math_isqrt, NULL);
  /* registry ops named math.X (codegen prints them) take precedence */
  {
    guint n;
    const FxOp *const *all = fx_ops_all (&n);
    for (guint i = 0; i < n; i++)
      if (all[i]->kind == FX_OP_FUNCTION && g_str_has_prefix (all[i]->qualified_name, "math.")
          && !strchr (all[i]->qualified_name + 5, '.'))
        fx_script_module_set (m, all[i]->qualified_name + 5, fx_value_op (all[i]));
  }
  return TRUE;
}

void
sc_mod_math_register (FxScript *S)
{
  fx_script_register_module (S, "math", math_init, NULL, NULL);
}

/* ------------------------------------------------------------------ operator */

typedef struct {
  const char *name;
  int kind;          /* 0 binary, 1 inplace binary, 2 compare, 3 unary */
  int op;
} OperatorDef;

static const OperatorDef operator_defs[] = {
  { "add", 0, SC_BIN_ADD }, { "sub", 0, SC_BIN_SUB }, { "mul", 0, SC_BIN_MUL },
  { "truediv", 0, SC_BIN_DIV }, { "floordiv", 0, SC_BIN_FLOORDIV }, { "mod", 0, SC_BIN_MOD },
  { "pow", 0, SC_BIN_POW }, { "lshift", 0, SC_BIN_LSHIFT }, { "rshift", 0, SC_BIN_RSHIFT },
  { "and_", 0, SC_BIN_AND }, { "or_", 0, SC_BIN_OR }, { "xor", 0, SC_BIN_XOR },
  { "matmul", 0, SC_BIN_MATMUL },
  { "iadd", 1, SC_BIN_ADD }, { "isub", 1, SC_BIN_SUB }, { "imul", 1, SC_BIN_MUL },
  { "itruediv", 1, SC_BIN_DIV }, { "ifloordiv", 1, SC_BIN_FLOORDIV }, { "imod", 1, SC_BIN_MOD },
  { "ipow", 1, SC_BIN_POW }, { "ilshift", 1, SC_BIN_LSHIFT }, { "irshift", 1, SC_BIN_RSHIFT },
  { "iand", 1, SC_BIN_AND }, { "ior", 1, SC_BIN_OR }, { "ixor", 1, SC_BIN_XOR },
  { "imatmul", 1, SC_BIN_MATMUL },
  { "lt", 2, SC_CMP_LT }, { "le", 2, SC_CMP_LE }, { "eq", 2, SC_CMP_EQ }, { "ne", 2, SC_CMP_NE },
  { "gt", 2, SC_CMP_GT }, { "ge", 2, SC_CMP_GE }, { "is_", 2, SC_CMP_IS },
  { "is_not", 2, SC_CMP_IS_NOT },
  { "neg", 3, SC_UNARY_NEG }, { "pos", 3, SC_UNARY_POS }, { "invert", 3, SC_UNARY_INVERT },
  { "inv", 3, SC_UNARY_INVERT },
};

static gboolean
operator_generic (SC_NATIVE_ARGS)
{
  const OperatorDef *d = data;
  if (!sc_mod_nargs (S, d->name, n_args, kwargs, d->kind == 3 ? 1 : 2, d->kind == 3 ? 1 : 2))
    return FALSE;
  switch (d->kind)
    {
    case 0: return sc_binary (S, (ScBinOp) d->op, &args[0], &args[1], result, FALSE);
    case 1: return sc_binary (S, (ScBinOp) d->op, &args[0], &args[1], result, TRUE);
    case 2: return sc_compare (S, (ScCmpOp) d->op, &args[0], &args[1], result);
    default: return sc_unary (S, (ScUnaryOp) d->op, &args[0], result);
    }
}

static gboolean
operator_abs (SC_NATIVE_ARGS)
{
  int called;
  if (!sc_mod_nargs (S, "abs", n_args, kwargs, 1, 1))
    return FALSE;
  switch (args[0].kind)
    {
    case FX_VALUE_BOOL: *result = fx_value_int (args[0].b); return TRUE;
    case FX_VALUE_INT:
      if (args[0].i == G_MININT64)
        return int_overflow (S, "abs()");
      *result = fx_value_int (args[0].i < 0 ? -args[0].i : args[0].i);
      return TRUE;
    case FX_VALUE_FLOAT: *result = fx_value_float (fabs (args[0].f)); return TRUE;
    default:
      called = sc_call_special (S, &args[0], "__abs__", NULL, 0, result);
      if (called < 0)
        return FALSE;
      if (called == 0)
        return sc_raise (S, SC_T_TYPE_ERROR, "bad operand type for abs(): '%s'", sc_type_name (S, &args[0]));
      return TRUE;
    }
}

static gboolean
operator_not (SC_NATIVE_ARGS)
{
  gboolean t;
  if (!sc_mod_nargs (S, "not_", n_args, kwargs, 1, 1) || !sc_truth (S, &args[0], &t))
    return FALSE;
  *result = fx_value_bool (!t);
  return TRUE;
}

static gboolean
operator_truth (SC_NATIVE_ARGS)
{
  gboolean t;
  if (!sc_mod_nargs (S, "truth", n_args, kwargs, 1, 1) || !sc_truth (S, &args[0], &t))
    return FALSE;
  *result = fx_value_bool (t);
  return TRUE;
}

static gboolean
operator_contains (SC_NATIVE_ARGS)
{
  gboolean t;
  if (!sc_mod_nargs (S, "contains", n_args, kwargs, 2, 2) || !sc_contains (S, &args[0], &args[1], &t))
    return FALSE;
  *result = fx_value_bool (t);
  return TRUE;
}

static gboolean
is_sequence_like (FxScript *S, const FxValue *v)
{
  if (v->kind == FX_VALUE_LIST || v->kind == FX_VALUE_TUPLE || v->kind == FX_VALUE_STR)
    return TRUE;
  return sc_special_lookup (S, v, "__getitem__") != NULL;
}

static gboolean
operator_concat (SC_NATIVE_ARGS)
{
  const OperatorDef *d = data;
  if (!sc_mod_nargs (S, d->name, n_args, kwargs, 2, 2))
    return FALSE;
  if (!is_sequence_like (S, &args[0]))
    return sc_raise (S, SC_T_TYPE_ERROR, "'%s' object can't be concatenated", sc_type_name (S, &args[0]));
  return sc_binary (S, SC_BIN_ADD, &args[0], &args[1], result, d->kind == 1);
}

static gboolean
operator_getitem (SC_NATIVE_ARGS)
{
  if (!sc_mod_nargs (S, "getitem", n_args, kwargs, 2, 2))
    return FALSE;
  return sc_getitem (S, &args[0], &args[1], result);
}

static gboolean
operator_setitem (SC_NATIVE_ARGS)
{
  if (!sc_mod_nargs (S, "setitem", n_args, kwargs, 3, 3))
    return FALSE;
  return sc_setitem (S, &args[0], &args[1], &args[2]);
}

static gboolean
operator_delitem (SC_NATIVE_ARGS)
{
  if (!sc_mod_nargs (S, "delitem", n_args, kwargs, 2, 2))
    return FALSE;
  return sc_delitem (S, &args[0], &args[1]);
}

static gboolean
operator_index (SC_NATIVE_ARGS)
{
  int64_t i;
  if (!sc_mod_nargs (S, "index", n_args, kwargs, 1, 1) || !sc_mod_to_index (S, &args[0], &i))
    return FALSE;
  *result = fx_value_int (i);
  return TRUE;
}

typedef struct {
  const FxValue *needle;
  int64_t count, index;
  gboolean found, count_all;
} SearchState;

static gboolean
search_step (FxScript *S, const FxValue *item, gpointer user_data)
{
  SearchState *st = user_data;
  gboolean eq;
  if (st->found)
    return TRUE;
  if (!sc_equal (S, item, st->needle, &eq))
    return FALSE;
  if (eq)
    {
      st->count++;
      if (!st->count_all)
        st->found = TRUE;
    }
  else if (!st->found)
    st->index++;
  return TRUE;
}

static gboolean
operator_countof (SC_NATIVE_ARGS)
{
  SearchState st = { NULL, 0, 0, FALSE, TRUE };
  if (!sc_mod_nargs (S, "countOf", n_args, kwargs, 2, 2))
    return FALSE;
  st.needle = &args[1];
  if (!fx_script_iterate (S, &args[0], search_step, &st))
    return FALSE;
  *result = fx_value_int (st.count);
  return TRUE;
}

static gboolean
operator_indexof (SC_NATIVE_ARGS)
{
  SearchState st = { NULL, 0, 0, FALSE, FALSE };
  if (!sc_mod_nargs (S, "indexOf", n_args, kwargs, 2, 2))
    return FALSE;
  st.needle = &args[1];
  if (!fx_script_iterate (S, &args[0], search_step, &st))
    return FALSE;
  if (!st.found)
    return sc_raise (S, SC_T_VALUE_ERROR, "sequence.index(x): x not in sequence");
  *result = fx_value_int (st.index);
  return TRUE;
}

static gboolean
operator_length_hint (SC_NATIVE_ARGS)
{
  int64_t n, def = 0;
  if (!sc_mod_nargs (S, "length_hint", n_args, kwargs, 1, 2))
    return FALSE;
  if (n_args > 1 && !sc_mod_to_index (S, &args[1], &def))
    return FALSE;
  if (sc_len (S, &args[0], &n))
    {
      *result = fx_value_int (n);
      return TRUE;
    }
  if (!sc_matches (S, SC_T_TYPE_ERROR))
    return FALSE;
  sc_clear_exc (S);
  if (sc_is_klass (&args[0], &sc_iterobj_klass))
    {
      /* plain iterators over lists and tuples know how much is left */
      ScIterObj *it = (ScIterObj *) args[0].obj;
      if (it->type_id == SC_T_ITERATOR && it->inner.kind == SC_ITER_SEQ)
        def = MAX ((int64_t) it->inner.src.seq->len - it->inner.i, 0);
    }
  else
    {
      FxValue hint;
      int called = sc_call_special (S, &args[0], "__length_hint__", NULL, 0, &hint);
      if (called < 0)
        return FALSE;
      if (called > 0)
        {
          if (hint.kind == FX_VALUE_INT)
            def = hint.i;
          fx_value_clear (&hint);
        }
    }
  *result = fx_value_int (def);
  return TRUE;
}

static gboolean
operator_call (SC_NATIVE_ARGS)
{
  if (n_args < 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "call expected at least 1 argument, got 0");
  return sc_call_dict (S, &args[0], args + 1, n_args - 1, kwargs, result);
}

/* itemgetter / attrgetter / methodcaller: callables holding their arguments */
typedef struct {
  FxSeq *items;      /* keys, attribute names, or (name, args...) */
  FxDict *kwargs;    /* methodcaller */
} Getter;

static void
getter_free (gpointer p)
{
  Getter *g = p;
  fx_seq_unref (g->items);
  if (g->kwargs)
    fx_dict_unref (g->kwargs);
  g_free (g);
}

static gboolean
itemgetter_call (SC_NATIVE_ARGS)
{
  Getter *g = data;
  if (!sc_mod_nargs (S, "itemgetter", n_args, kwargs, 1, 1))
    return FALSE;
  if (g->items->len == 1)
    return sc_getitem (S, &args[0], &g->items->items[0], result);
  {
    FxSeq *t = fx_seq_new (g->items->len);
    for (guint i = 0; i < g->items->len; i++)
      if (!sc_getitem (S, &args[0], &g->items->items[i], &t->items[i]))
        {
          fx_seq_unref (t);
          return FALSE;
        }
    *result = fx_value_take_tuple (t);
  }
  return TRUE;
}

static gboolean
dotted_getattr (FxScript *S, const FxValue *obj, const char *path, FxValue *out)
{
  FxValue cur = fx_value_copy (obj), next;
  gchar **parts = g_strsplit (path, ".", -1);
  for (int i = 0; parts[i]; i++)
    {
      if (!fx_script_getattr (S, &cur, parts[i], &next))
        {
          fx_value_clear (&cur);
          g_strfreev (parts);
          return FALSE;
        }
      fx_value_clear (&cur);
      cur = next;
    }
  g_strfreev (parts);
  *out = cur;
  return TRUE;
}

static gboolean
attrgetter_call (SC_NATIVE_ARGS)
{
  Getter *g = data;
  if (!sc_mod_nargs (S, "attrgetter", n_args, kwargs, 1, 1))
    return FALSE;
  if (g->items->len == 1)
    return dotted_getattr (S, &args[0], g->items->items[0].s->data, result);
  {
    FxSeq *t = fx_seq_new (g->items->len);
    for (guint i = 0; i < g->items->len; i++)
      if (!dotted_getattr (S, &args[0], g->items->items[i].s->data, &t->items[i]))
        {
          fx_seq_unref (t);
          return FALSE;
        }
    *result = fx_value_take_tuple (t);
  }
  return TRUE;
}

static gboolean
methodcaller_call (SC_NATIVE_ARGS)
{
  Getter *g = data;
  if (!sc_mod_nargs (S, "methodcaller", n_args, kwargs, 1, 1))
    return FALSE;
  return fx_script_call_method (S, &args[0], g->items->items[0].s->data, g->items->items + 1,
                                g->items->len - 1, g->kwargs, result);
}

static gboolean
make_getter (FxScript *S, const char *name, FxScriptFunc func, const FxValue *args, int n_args,
             FxDict *kwargs, gboolean names_only, FxValue *result)
{
  Getter *g;
  if (name[0] != 'm' && !sc_mod_no_kwargs (S, name, kwargs))
    return FALSE;
  if (n_args < 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s expected 1 argument%s, got 0", name,
                     name[0] == 'm' ? "" : "");
  for (int i = 0; i < (name[0] == 'm' ? 1 : n_args); i++)
    if (names_only && args[i].kind != FX_VALUE_STR)
      return sc_raise (S, SC_T_TYPE_ERROR, name[0] == 'm' ? "method name must be a string"
                                                           : "attribute name must be a string");
  g = g_new0 (Getter, 1);
  g->items = fx_seq_new (n_args);
  for (int i = 0; i < n_args; i++)
    g->items->items[i] = fx_value_copy (&args[i]);
  if (kwargs && fx_dict_len (kwargs))
    g->kwargs = fx_dict_ref (kwargs);
  *result = fx_script_function_new ("operator", name, func, g, getter_free);
  return TRUE;
}

static gboolean
operator_itemgetter (SC_NATIVE_ARGS)
{
  return make_getter (S, "itemgetter", itemgetter_call, args, n_args, kwargs, FALSE, result);
}

static gboolean
operator_attrgetter (SC_NATIVE_ARGS)
{
  return make_getter (S, "attrgetter", attrgetter_call, args, n_args, kwargs, TRUE, result);
}

static gboolean
operator_methodcaller (SC_NATIVE_ARGS)
{
  return make_getter (S, "methodcaller", methodcaller_call, args, n_args, kwargs, TRUE, result);
}

/* operator.X registry ops applied with the interpreter's semantics: call.c's way to run
 * operator.add(a, b) & co. on values the registry kernels do not know (instances with __add__,
 * sets, ...). */
gboolean
sc_operator_call (FxScript *S, const FxOp *op, const FxValue *args, int n_args, FxDict *kwargs,
                  FxValue *out, gboolean *handled)
{
  static const struct { const char *name; FxScriptFunc func; } extra[] = {
    { "abs", operator_abs }, { "not_", operator_not }, { "truth", operator_truth },
    { "contains", operator_contains }, { "getitem", operator_getitem }, { "setitem", operator_setitem },
    { "delitem", operator_delitem }, { "index", operator_index },
  };
  const char *name;
  *handled = FALSE;
  if (!op || !g_str_has_prefix (op->qualified_name, "operator."))
    return TRUE;
  for (int i = 0; i < n_args; i++)
    if (args[i].kind == FX_VALUE_TENSOR)
      return TRUE;
  name = op->qualified_name + strlen ("operator.");
  for (guint i = 0; i < G_N_ELEMENTS (operator_defs); i++)
    if (strcmp (operator_defs[i].name, name) == 0)
      {
        *handled = TRUE;
        *out = fx_value_none ();
        return operator_generic (S, args, n_args, kwargs, out, (gpointer) &operator_defs[i]);
      }
  for (guint i = 0; i < G_N_ELEMENTS (extra); i++)
    if (strcmp (extra[i].name, name) == 0)
      {
        *handled = TRUE;
        *out = fx_value_none ();
        return extra[i].func (S, args, n_args, kwargs, out, NULL);
      }
  return TRUE;
}

/* operator.X, bound to the registry's op when it has one (codegen prints call_function targets
 * through the registry), and also as operator.__X__ */
static void
operator_bind (FxScriptModule *m, const char *name, FxScriptFunc func, gpointer user_data)
{
  char qualified[64], dunder[64];
  const FxOp *op;
  gsize len = strlen (name);
  FxValue v;
  g_snprintf (qualified, sizeof qualified, "operator.%s", name);
  op = fx_op_lookup (qualified);
  if (op)
    v = fx_value_op (op);
  else
    v = fx_script_function_new ("_operator", name, func, user_data, NULL);
  if (len > 1 && name[len - 1] == '_')
    len--;
  g_snprintf (dunder, sizeof dunder, "__%.*s__", (int) len, name);
  if (strcmp (name, "is_") != 0 && strcmp (name, "is_not") != 0 && strcmp (name, "truth") != 0
      && strcmp (name, "countOf") != 0 && strcmp (name, "indexOf") != 0 && strcmp (name, "attrgetter") != 0
      && strcmp (name, "itemgetter") != 0 && strcmp (name, "methodcaller") != 0
      && strcmp (name, "length_hint") != 0)
    fx_script_module_set (m, dunder, fx_value_copy (&v));
  fx_script_module_set (m, name, v);
}

static gboolean
operator_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  (void) S;
  (void) user_data;
  for (guint i = 0; i < G_N_ELEMENTS (operator_defs); i++)
    operator_bind (m, operator_defs[i].name, operator_generic, (gpointer) &operator_defs[i]);
  {
    static const OperatorDef concat_def = { "concat", 0, 0 }, iconcat_def = { "iconcat", 1, 0 };
    operator_bind (m, "concat", operator_concat, (gpointer) &concat_def);
    operator_bind (m, "iconcat", operator_concat, (gpointer) &iconcat_def);
  }
  operator_bind (m, "abs", operator_abs, NULL);
  operator_bind (m, "not_", operator_not, NULL);
  operator_bind (m, "truth", operator_truth, NULL);
  operator_bind (m, "contains", operator_contains, NULL);
  operator_bind (m, "getitem", operator_getitem, NULL);
  operator_bind (m, "setitem", operator_setitem, NULL);
  operator_bind (m, "delitem", operator_delitem, NULL);
  operator_bind (m, "index", operator_index, NULL);
  operator_bind (m, "countOf", operator_countof, NULL);
  operator_bind (m, "indexOf", operator_indexof, NULL);
  operator_bind (m, "length_hint", operator_length_hint, NULL);
  operator_bind (m, "call", operator_call, NULL);
  operator_bind (m, "itemgetter", operator_itemgetter, NULL);
  operator_bind (m, "attrgetter", operator_attrgetter, NULL);
  operator_bind (m, "methodcaller", operator_methodcaller, NULL);
  return TRUE;
}

void
sc_mod_operator_register (FxScript *S)
{
  fx_script_register_module (S, "operator", operator_init, NULL, NULL);
  fx_script_register_module (S, "_operator", operator_init, NULL, NULL);
}

/* ------------------------------------------------------------------ all modules */

void
sc_modules_init (FxScript *S)
{
  sc_mod_math_register (S);
  sc_mod_operator_register (S);
  sc_mod_typing_register (S);
  sc_mod_misc_register (S);
  sc_mod_copy_register (S);
  sc_mod_warnings_register (S);
  sc_mod_random_register (S);
  sc_mod_collections_register (S);
  sc_mod_functools_register (S);
  sc_mod_itertools_register (S);
  sc_mod_dataclasses_register (S);
}
