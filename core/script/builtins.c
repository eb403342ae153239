/* builtins.c: the `builtins` module of the Python subset — print, len, min/max, sorted, int()
 * and float() parsing, round(), the iterator builtins, isinstance, getattr & co — and the
 * constructors of the builtin types (int(x), list(it), range(...), type(...), property, ...),
 * with CPython 3.11's results and error messages. */
#include "script/internal.h"

#include <math.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

/* call.c: zero-argument super() needs the running frame's __class__ cell. */
FxScriptFunc sc_super_construct_func (void);

#define IS_INTLIKE(v) ((v)->kind == FX_VALUE_INT || (v)->kind == FX_VALUE_BOOL)
#define IVAL(v) ((v)->kind == FX_VALUE_BOOL ? (int64_t) (v)->b : (v)->i)

/* ------------------------------------------------------------------ argument checks */

static gboolean
has_kwargs (FxDict *kwargs)
{
  return kwargs && fx_dict_len (kwargs) > 0;
}

static gboolean
no_kwargs (FxScript *S, FxDict *kwargs, const char *fname)
{
  if (has_kwargs (kwargs))
    return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes no keyword arguments", fname);
  return TRUE;
}

/* CPython's wording for functions checking their positional count ("min expected at least 1
 * argument, got 0"). */
static gboolean
check_positional (FxScript *S, const char *fname, int n, int min, int max)
{
  if (n < min)
    {
      if (min == max)
        return sc_raise (S, SC_T_TYPE_ERROR, "%s expected %d argument%s, got %d", fname, min,
                         min == 1 ? "" : "s", n);
      return sc_raise (S, SC_T_TYPE_ERROR, "%s expected at least %d argument%s, got %d", fname, min,
                       min == 1 ? "" : "s", n);
    }
  if (max >= 0 && n > max)
    {
      if (min == max)
        return sc_raise (S, SC_T_TYPE_ERROR, "%s expected %d argument%s, got %d", fname, max,
                         max == 1 ? "" : "s", n);
      return sc_raise (S, SC_T_TYPE_ERROR, "%s expected at most %d argument%s, got %d", fname, max,
                       max == 1 ? "" : "s", n);
    }
  return TRUE;
}

/* Functions of one argument (CPython's METH_O). */
static gboolean
check_one (FxScript *S, const char *fname, int n, FxDict *kwargs)
{
  if (!no_kwargs (S, kwargs, fname))
    return FALSE;
  if (n != 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes exactly one argument (%d given)", fname, n);
  return TRUE;
}

/* Argument-clinic style binding: names[0..n_names); the first n_posonly cannot be passed by
 * keyword, at most max_pos by position, the first n_required are required. out[i] is a
 * borrowed pointer or NULL. */
static gboolean
bind_args (FxScript *S, const char *fname, const FxValue *args, int n, FxDict *kwargs,
           const char *const *names, int n_names, int n_posonly, int max_pos, int n_required,
           const FxValue **out)
{
  const FxValue *k, *v;
  for (int i = 0; i < n_names; i++)
    out[i] = NULL;
  if (n > max_pos)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes at most %d argument%s (%d given)", fname, max_pos,
                     max_pos == 1 ? "" : "s", n);
  for (int i = 0; i < n; i++)
    out[i] = &args[i];
  for (guint e = 0; kwargs && fx_dict_entry (kwargs, e, &k, &v); e++)
    {
      int found = -1;
      if (k->kind != FX_VALUE_STR)
        return sc_raise (S, SC_T_TYPE_ERROR, "keywords must be strings");
      for (int i = n_posonly; i < n_names; i++)
        if (strcmp (names[i], k->s->data) == 0)
          found = i;
      if (found < 0)
        return sc_raise (S, SC_T_TYPE_ERROR, "'%s' is an invalid keyword argument for %s()", k->s->data,
                         fname);
      if (out[found])
        return sc_raise (S, SC_T_TYPE_ERROR, "argument for %s() given by name ('%s') and position (%d)",
                         fname, names[found], found + 1);
      out[found] = v;
    }
  for (int i = 0; i < n_required; i++)
    if (!out[i])
      return sc_raise (S, SC_T_TYPE_ERROR, "%s() missing required argument '%s' (pos %d)", fname,
                       names[i], i + 1);
  return TRUE;
}

static gboolean
is_none (const FxValue *v)
{
  return v == NULL || v->kind == FX_VALUE_NONE;
}

static FxValue
make_pair (FxValue a, FxValue b)
{
  FxSeq *t = fx_seq_new (2);
  t->items[0] = a;
  t->items[1] = b;
  return fx_value_take_tuple (t);
}

static gboolean
int_overflow (FxScript *S)
{
  return sc_raise (S, SC_T_OVERFLOW_ERROR, "integer overflow: fx ints are 64-bit");
}

/* repr(s) truncated to 200 characters, as CPython's "%.200R" */
static void
append_repr_200 (FxScript *S, const FxValue *v, GString *out)
{
  GString *r = g_string_new (NULL);
  if (!sc_repr (S, v, r))
    sc_clear_exc (S);
  if (g_utf8_strlen (r->str, -1) > 200)
    g_string_truncate (r, g_utf8_offset_to_pointer (r->str, 200) - r->str);
  g_string_append_len (out, r->str, r->len);
  g_string_free (r, TRUE);
}

/* ------------------------------------------------------------------ output */

gboolean
sc_print (FxScript *S, const FxValue *args, int n, const char *sep, const char *end,
          gboolean to_stderr)
{
  GString *s = g_string_new (NULL);
  for (int i = 0; i < n; i++)
    {
      if (i)
        g_string_append (s, sep ? sep : " ");
      if (!sc_str (S, &args[i], s))
        {
          g_string_free (s, TRUE);
          return FALSE;
        }
    }
  g_string_append (s, end ? end : "\n");
  if (to_stderr)
    fx_script_write_stderr (S, s->str, s->len);
  else
    fx_script_write_stdout (S, s->str, s->len);
  g_string_free (s, TRUE);
  return TRUE;
}

/* sys.stdout / sys.stderr when `file` is one of them: 1 stdout, 2 stderr, 0 another object */
static int
std_stream (FxScript *S, const FxValue *file)
{
  FxValue *sys, *v;
  if (!S->modules)
    return 0;
  sys = sc_dict_get_str (S->modules, sc_intern_cstr ("sys"));
  if (!sys || !sc_is_klass (sys, &sc_module_klass))
    return 0;
  v = sc_dict_get_str (((FxScriptModule *) sys->obj)->dict, sc_n.s_stdout);
  if (v && v->kind == file->kind && v->kind == FX_VALUE_OBJECT && v->obj == file->obj)
    return 1;
  v = sc_dict_get_str (((FxScriptModule *) sys->obj)->dict, sc_n.s_stderr);
  if (v && v->kind == file->kind && v->kind == FX_VALUE_OBJECT && v->obj == file->obj)
    return 2;
  return 0;
}

static gboolean
write_piece (FxScript *S, const FxValue *write, const char *text, gsize len)
{
  FxValue s = fx_value_take_str (fx_str_new_len (text, len)), r;
  gboolean ok = sc_call1 (S, write, &s, &r);
  fx_value_clear (&s);
  if (ok)
    fx_value_clear (&r);
  return ok;
}

static gboolean
builtin_print (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  static const char *const names[] = { "sep", "end", "file", "flush" };
  const FxValue *kv[4] = { NULL, NULL, NULL, NULL };
  const FxValue *k, *v;
  const char *sep = " ", *end = "\n";
  FxValue write = fx_value_none ();
  int stream = 1;
  gboolean ok = TRUE;

  for (guint e = 0; kwargs && fx_dict_entry (kwargs, e, &k, &v); e++)
    {
      int found = -1;
      for (int i = 0; i < 4; i++)
        if (k->kind == FX_VALUE_STR && strcmp (k->s->data, names[i]) == 0)
          found = i;
      if (found < 0)
        return sc_raise (S, SC_T_TYPE_ERROR, "'%s' is an invalid keyword argument for print()",
                         k->kind == FX_VALUE_STR ? k->s->data : "?");
      kv[found] = v;
    }
  if (!is_none (kv[0]))
    {
      if (kv[0]->kind != FX_VALUE_STR)
        return sc_raise (S, SC_T_TYPE_ERROR, "sep must be None or a string, not %s", sc_type_name (S, kv[0]));
      sep = kv[0]->s->data;
    }
  if (!is_none (kv[1]))
    {
      if (kv[1]->kind != FX_VALUE_STR)
        return sc_raise (S, SC_T_TYPE_ERROR, "end must be None or a string, not %s", sc_type_name (S, kv[1]));
      end = kv[1]->s->data;
    }
  if (!is_none (kv[2]))
    {
      stream = std_stream (S, kv[2]);
      if (stream == 0 && !sc_getattr (S, kv[2], sc_n.s_write, &write))
        return FALSE;
    }
  *out = fx_value_none ();
  if (stream)
    ok = sc_print (S, args, n, sep, end, stream == 2);
  else
    {
      /* like CPython: one write() per piece */
      GString *s = g_string_new (NULL);
      for (int i = 0; ok && i < n; i++)
        {
          if (i)
            ok = write_piece (S, &write, sep, strlen (sep));
          g_string_truncate (s, 0);
          if (ok)
            ok = sc_str (S, &args[i], s) && write_piece (S, &write, s->str, s->len);
        }
      if (ok)
        ok = write_piece (S, &write, end, strlen (end));
      g_string_free (s, TRUE);
      fx_value_clear (&write);
    }
  if (ok && kv[3] && stream == 0)
    {
      gboolean flush;
      FxValue f, r;
      if (!sc_truth (S, kv[3], &flush))
        return FALSE;
      if (flush)
        {
          int got = sc_getattr_opt (S, kv[2], sc_intern_cstr ("flush"), &f);
          if (got < 0)
            return FALSE;
          if (got > 0)
            {
              ok = sc_call0 (S, &f, &r);
              fx_value_clear (&f);
              if (ok)
                fx_value_clear (&r);
            }
        }
    }
  (void) data;
  return ok;
}

/* ------------------------------------------------------------------ int() and float() */

static gboolean
is_py_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int
digit_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z')
    return c - 'A' + 10;
  return 99;
}

/* Python's int literal grammar (with underscores) in base 2..36 or 0; 1 ok, 0 invalid,
 * -1 overflow. */
static int
parse_int_text (const char *p, const char *e, int base, int64_t *out)
{
  gboolean neg = FALSE, prefixed = FALSE, any = FALSE, last_underscore = FALSE;
  guint64 mag = 0, limit;
  while (p < e && is_py_space (*p))
    p++;
  while (e > p && is_py_space (e[-1]))
    e--;
  if (p < e && (*p == '+' || *p == '-'))
    neg = *p++ == '-';
  if (e - p >= 2 && p[0] == '0')
    {
      char x = g_ascii_tolower (p[1]);
      int pb = x == 'x' ? 16 : x == 'o' ? 8 : x == 'b' ? 2 : 0;
      if (pb && (base == 0 || base == pb))
        {
          base = pb;
          p += 2;
          prefixed = TRUE;
        }
    }
  if (base == 0)
    {
      /* decimal; leading zeros only when the whole number is zero */
      const char *q = p;
      base = 10;
      if (q < e && *q == '0')
        {
          for (; q < e; q++)
            if (*q != '0' && *q != '_')
              return 0;
        }
    }
  limit = neg ? (guint64) G_MAXINT64 + 1 : (guint64) G_MAXINT64;
  for (; p < e; p++)
    {
      int d;
      if (*p == '_')
        {
          /* single underscores between digits, or right after a base prefix */
          if (last_underscore || (!any && !prefixed))
            return 0;
          last_underscore = TRUE;
          continue;
        }
      d = digit_value (*p);
      if (d >= base)
        return 0;
      if (mag > (limit - (guint64) d) / (guint64) base)
        {
          /* keep validating the rest, then report the overflow */
          for (p++; p < e; p++)
            if (*p != '_' && digit_value (*p) >= base)
              return 0;
          return last_underscore || e[-1] == '_' ? 0 : -1;
        }
      mag = mag * (guint64) base + (guint64) d;
      any = TRUE;
      last_underscore = FALSE;
    }
  if (!any || last_underscore)
    return 0;
  *out = neg ? (int64_t) (0 - mag) : (int64_t) mag;
  return 1;
}

static gboolean
tensor_item (FxScript *S, const FxValue *v, gboolean want_int, FxValue *out)
{
  GError *error = NULL;
  gboolean ok;
  if (want_int)
    {
      int64_t i;
      ok = fx_tensor_item_int64 (v->tensor, &i, &error);
      if (ok)
        *out = fx_value_int (i);
    }
  else
    {
      double d;
      ok = fx_tensor_item_double (v->tensor, &d, &error);
      if (ok)
        *out = fx_value_float (d);
    }
  if (!ok)
    {
      sc_raise_gerror (S, error);
      g_error_free (error);
    }
  return ok;
}

static gboolean
float_to_int (FxScript *S, double f, FxValue *out)
{
  if (isnan (f))
    return sc_raise (S, SC_T_VALUE_ERROR, "cannot convert float NaN to integer");
  if (isinf (f))
    return sc_raise (S, SC_T_OVERFLOW_ERROR, "cannot convert float infinity to integer");
  f = trunc (f);
  if (f >= 9223372036854775808.0 || f < -9223372036854775808.0)
    return int_overflow (S);
  *out = fx_value_int ((int64_t) f);
  return TRUE;
}

/* Calls a special method that must return an int (1 done, 0 missing, -1 error). */
static int
call_int_special (FxScript *S, const FxValue *v, const char *name, FxValue *out)
{
  FxValue r;
  int got = sc_call_special (S, v, name, NULL, 0, &r);
  if (got <= 0)
    return got;
  if (!IS_INTLIKE (&r))
    {
      const char *tn = sc_type_name (S, &r);
      fx_value_clear (&r);
      sc_raise (S, SC_T_TYPE_ERROR, "%s returned non-int (type %s)", name, tn);
      return -1;
    }
  *out = fx_value_int (IVAL (&r));
  return 1;
}

gboolean
sc_int_from_value (FxScript *S, const FxValue *v, int base, FxValue *out)
{
  switch (v->kind)
    {
    case FX_VALUE_INT:
    case FX_VALUE_BOOL:
      *out = fx_value_int (IVAL (v));
      return TRUE;
    case FX_VALUE_FLOAT:
      return float_to_int (S, v->f, out);
    case FX_VALUE_STR:
      {
        int64_t i;
        int r = parse_int_text (v->s->data, v->s->data + v->s->len, base, &i);
        if (r > 0)
          {
            *out = fx_value_int (i);
            return TRUE;
          }
        if (r < 0)
          return int_overflow (S);
        {
          GString *msg = g_string_new (NULL);
          g_string_append_printf (msg, "invalid literal for int() with base %d: ", base);
          append_repr_200 (S, v, msg);
          sc_raise_str (S, SC_T_VALUE_ERROR, msg->str);
          g_string_free (msg, TRUE);
          return FALSE;
        }
      }
    case FX_VALUE_TENSOR:
      if (!S->kind_classes[FX_VALUE_TENSOR])
        return tensor_item (S, v, TRUE, out);
      break;
    default:
      break;
    }
  {
    static const char *const specials[] = { "__int__", "__index__", "__trunc__" };
    for (guint i = 0; i < G_N_ELEMENTS (specials); i++)
      {
        int got = call_int_special (S, v, specials[i], out);
        if (got != 0)
          return got > 0;
      }
  }
  if (v->kind == FX_VALUE_TENSOR)
    return tensor_item (S, v, TRUE, out);
  return sc_raise (S, SC_T_TYPE_ERROR,
                   "int() argument must be a string, a bytes-like object or a real number, not '%s'",
                   sc_type_name (S, v));
}

/* Python's float literal grammar with underscores, plus inf/infinity/nan. */
static gboolean
parse_float_text (const char *p, const char *e, double *out)
{
  GString *clean;
  gboolean neg = FALSE, digits = FALSE, ok;
  const char *q;
  char *end;
  while (p < e && is_py_space (*p))
    p++;
  while (e > p && is_py_space (e[-1]))
    e--;
  q = p;
  if (q < e && (*q == '+' || *q == '-'))
    neg = *q++ == '-';
  {
    gsize rest = e - q;
    if ((rest == 3 && g_ascii_strncasecmp (q, "inf", 3) == 0)
        || (rest == 8 && g_ascii_strncasecmp (q, "infinity", 8) == 0))
      {
        *out = neg ? -INFINITY : INFINITY;
        return TRUE;
      }
    if (rest == 3 && g_ascii_strncasecmp (q, "nan", 3) == 0)
      {
        *out = neg ? -NAN : NAN;
        return TRUE;
      }
  }
  /* validate: digitpart [. [digitpart]] | . digitpart, then [e [sign] digitpart] */
  clean = g_string_new (NULL);
  if (neg)
    g_string_append_c (clean, '-');
#define DIGITPART(ok_var)                                                   \
  do {                                                                      \
    ok_var = FALSE;                                                         \
    while (q < e && g_ascii_isdigit (*q))                                   \
      {                                                                     \
        g_string_append_c (clean, *q++);                                    \
        ok_var = TRUE;                                                      \
        if (q + 1 < e && *q == '_' && g_ascii_isdigit (q[1]))               \
          q++;                                                              \
      }                                                                     \
  } while (0)
  DIGITPART (digits);
  if (q < e && *q == '.')
    {
      gboolean frac;
      g_string_append_c (clean, *q++);
      DIGITPART (frac);
      digits = digits || frac;
    }
  ok = digits;
  if (ok && q < e && (*q == 'e' || *q == 'E'))
    {
      gboolean exp;
      g_string_append_c (clean, *q++);
      if (q < e && (*q == '+' || *q == '-'))
        g_string_append_c (clean, *q++);
      DIGITPART (exp);
      ok = exp;
    }
#undef DIGITPART
  ok = ok && q == e;
  if (ok)
    {
      *out = g_ascii_strtod (clean->str, &end);
      ok = *end == '\0';
    }
  g_string_free (clean, TRUE);
  return ok;
}

gboolean
sc_float_from_value (FxScript *S, const FxValue *v, FxValue *out)
{
  switch (v->kind)
    {
    case FX_VALUE_FLOAT:
      *out = *v;
      return TRUE;
    case FX_VALUE_INT:
    case FX_VALUE_BOOL:
      *out = fx_value_float ((double) IVAL (v));
      return TRUE;
    case FX_VALUE_STR:
      {
        double d;
        GString *msg;
        if (parse_float_text (v->s->data, v->s->data + v->s->len, &d))
          {
            *out = fx_value_float (d);
            return TRUE;
          }
        msg = g_string_new ("could not convert string to float: ");
        append_repr_200 (S, v, msg);
        sc_raise_str (S, SC_T_VALUE_ERROR, msg->str);
        g_string_free (msg, TRUE);
        return FALSE;
      }
    case FX_VALUE_TENSOR:
      if (!S->kind_classes[FX_VALUE_TENSOR])
        return tensor_item (S, v, FALSE, out);
      break;
    default:
      break;
    }
  {
    FxValue r;
    int got = sc_call_special (S, v, "__float__", NULL, 0, &r);
    if (got < 0)
      return FALSE;
    if (got > 0)
      {
        if (r.kind != FX_VALUE_FLOAT)
          {
            const char *tn = sc_type_name (S, &r);
            fx_value_clear (&r);
            return sc_raise (S, SC_T_TYPE_ERROR, "%s.__float__ returned non-float (type %s)",
                             sc_type_name (S, v), tn);
          }
        *out = r;
        return TRUE;
      }
    got = call_int_special (S, v, "__index__", &r);
    if (got < 0)
      return FALSE;
    if (got > 0)
      {
        *out = fx_value_float ((double) r.i);
        return TRUE;
      }
  }
  if (v->kind == FX_VALUE_TENSOR)
    return tensor_item (S, v, FALSE, out);
  return sc_raise (S, SC_T_TYPE_ERROR, "float() argument must be a string or a real number, not '%s'",
                   sc_type_name (S, v));
}

/* ------------------------------------------------------------------ constructors */

static gboolean
int_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  static const char *const names[] = { "x", "base" };
  const FxValue *a[2];
  int64_t base;
  int given = n + (kwargs ? (int) fx_dict_len (kwargs) : 0);
  if (given > 2)   /* argument clinic counts keywords too */
    return sc_raise (S, SC_T_TYPE_ERROR, "int() takes at most 2 arguments (%d given)", given);
  if (!bind_args (S, "int", args, n, kwargs, names, 2, 1, 2, 0, a))
    return FALSE;
  if (!a[0])
    {
      if (a[1])
        return sc_raise (S, SC_T_TYPE_ERROR, "int() missing string argument");
      *out = fx_value_int (0);
      return TRUE;
    }
  if (!a[1])
    return sc_int_from_value (S, a[0], 10, out);
  if (!sc_index (S, a[1], &base))
    return FALSE;
  if (a[0]->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "int() can't convert non-string with explicit base");
  if (base != 0 && (base < 2 || base > 36))
    return sc_raise (S, SC_T_VALUE_ERROR, "int() base must be >= 2 and <= 36, or 0");
  (void) data;
  return sc_int_from_value (S, a[0], (int) base, out);
}

static gboolean
float_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  if (!no_kwargs (S, kwargs, "float") || !check_positional (S, "float", n, 0, 1))
    return FALSE;
  (void) data;
  if (n == 0)
    {
      *out = fx_value_float (0.0);
      return TRUE;
    }
  return sc_float_from_value (S, &args[0], out);
}

static gboolean
str_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  static const char *const names[] = { "object", "encoding", "errors" };
  const FxValue *a[3];
  GString *s;
  if (!bind_args (S, "str", args, n, kwargs, names, 3, 0, 3, 0, a))
    return FALSE;
  (void) data;
  for (int i = 1; i < 3; i++)
    if (a[i])
      {
        if (a[i]->kind != FX_VALUE_STR)
          return sc_raise (S, SC_T_TYPE_ERROR, "str() argument '%s' must be str, not %s", names[i],
                           sc_type_name (S, a[i]));
        return sc_raise (S, SC_T_NOT_IMPLEMENTED_ERROR, "str() with an encoding is not supported by fx "
                         "(there are no bytes objects)");
      }
  if (!a[0])
    {
      *out = fx_value_str ("");
      return TRUE;
    }
  if (a[0]->kind == FX_VALUE_STR)
    {
      *out = fx_value_copy (a[0]);
      return TRUE;
    }
  s = g_string_new (NULL);
  if (!sc_str (S, a[0], s))
    {
      g_string_free (s, TRUE);
      return FALSE;
    }
  *out = fx_value_take_str (fx_str_new_len (s->str, s->len));
  g_string_free (s, TRUE);
  return TRUE;
}

static gboolean
bool_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  gboolean b = FALSE;
  if (!no_kwargs (S, kwargs, "bool") || !check_positional (S, "bool", n, 0, 1))
    return FALSE;
  if (n == 1 && !sc_truth (S, &args[0], &b))
    return FALSE;
  *out = fx_value_bool (b);
  (void) data;
  return TRUE;
}

static gboolean
list_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxSeq *seq;
  if (!no_kwargs (S, kwargs, "list") || !check_positional (S, "list", n, 0, 1))
    return FALSE;
  (void) data;
  if (n == 0)
    seq = fx_seq_new (0);
  else if (!sc_collect (S, &args[0], &seq))
    return FALSE;
  seq->type = NULL;
  *out = fx_value_take_list (seq);
  return TRUE;
}

static gboolean
tuple_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxSeq *seq;
  if (!no_kwargs (S, kwargs, "tuple") || !check_positional (S, "tuple", n, 0, 1))
    return FALSE;
  (void) data;
  if (n == 1 && args[0].kind == FX_VALUE_TUPLE && args[0].seq->type == NULL)
    {
      *out = fx_value_copy (&args[0]);
      return TRUE;
    }
  if (n == 0)
    seq = fx_seq_new (0);
  else if (!sc_collect (S, &args[0], &seq))
    return FALSE;
  seq->type = NULL;
  *out = fx_value_take_tuple (seq);
  return TRUE;
}

/* d[key] = value after the hashability check; takes key and value. */
static gboolean
dict_put (FxScript *S, FxDict *d, FxValue key, FxValue value)
{
  if (!sc_dict_key_check (S, &key))
    {
      fx_value_clear (&key);
      fx_value_clear (&value);
      return FALSE;
    }
  fx_dict_set (d, key, value);
  return TRUE;
}

/* dict.update(src) semantics: a dict, a mapping with keys(), or an iterable of pairs. */
static gboolean
dict_fill (FxScript *S, FxDict *d, const FxValue *src)
{
  const FxValue *k, *v;
  FxValue keys, r, x;
  ScIter it;
  int got, idx = 0;
  if (src->kind == FX_VALUE_DICT)
    {
      for (guint i = 0; fx_dict_entry (src->dict, i, &k, &v); i++)
        fx_dict_set (d, fx_value_copy (k), fx_value_copy (v));
      return TRUE;
    }
  got = sc_getattr_opt (S, src, sc_n.s_keys, &keys);
  if (got < 0)
    return FALSE;
  if (got > 0)
    {
      gboolean ok = sc_call0 (S, &keys, &r);
      fx_value_clear (&keys);
      if (!ok)
        return FALSE;
      ok = sc_iter_init (S, &r, &it);
      fx_value_clear (&r);
      if (!ok)
        return FALSE;
      while ((got = sc_iter_next (S, &it, &x)) > 0)
        {
          FxValue val;
          if (!sc_getitem (S, src, &x, &val))
            {
              fx_value_clear (&x);
              got = -1;
              break;
            }
          if (!dict_put (S, d, x, val))
            {
              got = -1;
              break;
            }
        }
      sc_iter_clear (&it);
      return got == 0;
    }
  if (!sc_iter_init (S, src, &it))
    return FALSE;
  while ((got = sc_iter_next (S, &it, &x)) > 0)
    {
      FxSeq *pair;
      if (x.kind == FX_VALUE_TUPLE || x.kind == FX_VALUE_LIST)
        pair = fx_seq_ref (x.seq);
      else if (!sc_collect (S, &x, &pair))
        {
          if (sc_matches (S, SC_T_TYPE_ERROR))
            {
              sc_clear_exc (S);
              sc_raise (S, SC_T_TYPE_ERROR,
                        "cannot convert dictionary update sequence element #%d to a sequence", idx);
            }
          fx_value_clear (&x);
          got = -1;
          break;
        }
      fx_value_clear (&x);
      if (pair->len != 2)
        {
          sc_raise (S, SC_T_VALUE_ERROR, "dictionary update sequence element #%d has length %u; 2 is required",
                    idx, pair->len);
          fx_seq_unref (pair);
          got = -1;
          break;
        }
      if (!dict_put (S, d, fx_value_copy (&pair->items[0]), fx_value_copy (&pair->items[1])))
        {
          fx_seq_unref (pair);
          got = -1;
          break;
        }
      fx_seq_unref (pair);
      idx++;
    }
  sc_iter_clear (&it);
  return got == 0;
}

static gboolean
dict_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxDict *d;
  const FxValue *k, *v;
  if (!check_positional (S, "dict", n, 0, 1))
    return FALSE;
  d = fx_dict_new ();
  if (n == 1 && !dict_fill (S, d, &args[0]))
    {
      fx_dict_unref (d);
      return FALSE;
    }
  for (guint i = 0; kwargs && fx_dict_entry (kwargs, i, &k, &v); i++)
    fx_dict_set (d, fx_value_copy (k), fx_value_copy (v));
  *out = fx_value_take_dict (d);
  (void) data;
  return TRUE;
}

static gboolean
set_fill (FxScript *S, FxDict *d, const FxValue *iterable)
{
  ScIter it;
  FxValue x;
  int r;
  if (!sc_iter_init (S, iterable, &it))
    return FALSE;
  while ((r = sc_iter_next (S, &it, &x)) > 0)
    if (!dict_put (S, d, x, fx_value_none ()))
      {
        r = -1;
        break;
      }
  sc_iter_clear (&it);
  return r == 0;
}

static gboolean
set_construct_common (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out,
                      gboolean frozen)
{
  const char *name = frozen ? "frozenset" : "set";
  FxValue s;
  if (!no_kwargs (S, kwargs, name) || !check_positional (S, name, n, 0, 1))
    return FALSE;
  if (frozen && n == 1 && sc_is_klass (&args[0], &sc_frozenset_klass))
    {
      *out = fx_value_copy (&args[0]);
      return TRUE;
    }
  s = sc_set_new (S, frozen);
  if (n == 1 && !set_fill (S, ((ScSet *) s.obj)->d, &args[0]))
    {
      fx_value_clear (&s);
      return FALSE;
    }
  *out = s;
  return TRUE;
}

static gboolean
set_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  (void) data;
  return set_construct_common (S, args, n, kwargs, out, FALSE);
}

static gboolean
frozenset_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  (void) data;
  return set_construct_common (S, args, n, kwargs, out, TRUE);
}

static gboolean
range_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  int64_t v[3] = { 0, 0, 1 };
  if (!no_kwargs (S, kwargs, "range") || !check_positional (S, "range", n, 1, 3))
    return FALSE;
  for (int i = 0; i < n; i++)
    if (!sc_index (S, &args[i], &v[n == 1 ? 1 : i]))
      return FALSE;
  if (v[2] == 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "range() arg 3 must not be zero");
  *out = sc_range_new (v[0], v[1], v[2]);
  (void) data;
  return TRUE;
}

static gboolean
slice_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  if (!no_kwargs (S, kwargs, "slice") || !check_positional (S, "slice", n, 1, 3))
    return FALSE;
  if (n == 1)
    *out = fx_value_take_slice (fx_slice_new (fx_value_none (), fx_value_copy (&args[0]), fx_value_none ()));
  else
    *out = fx_value_take_slice (fx_slice_new (fx_value_copy (&args[0]), fx_value_copy (&args[1]),
                                              n == 3 ? fx_value_copy (&args[2]) : fx_value_none ()));
  (void) data;
  return TRUE;
}

static gboolean
object_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  if (n || has_kwargs (kwargs))
    return sc_raise (S, SC_T_TYPE_ERROR, "object() takes no arguments");
  *out = sc_instance_new (S, S->types[SC_T_OBJECT]);
  (void) data;
  return TRUE;
}

static FxValue *
frame_global (FxScript *S, const char *name)
{
  if (!S->frame || !S->frame->globals)
    return NULL;
  return sc_dict_get_str (S->frame->globals, sc_intern_cstr (name));
}

static gboolean
type_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxScriptClass **bases;
  FxSeq *bt;
  FxDict *ns;
  const FxValue *k, *v;
  gboolean ok;
  (void) data;
  if (n == 1 && !has_kwargs (kwargs))
    {
      *out = sc_class_value (sc_type_of (S, &args[0]));
      return TRUE;
    }
  if (n != 3)
    {
      if (n == 1 || n == 2)
        return sc_raise (S, SC_T_TYPE_ERROR, n == 1 ? "type() takes no keyword arguments"
                                                    : "type() takes 1 or 3 arguments");
      return sc_raise (S, SC_T_TYPE_ERROR, "type() takes 1 or 3 arguments");
    }
  if (args[0].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "type.__new__() argument 1 must be str, not %s",
                     sc_type_name (S, &args[0]));
  if (args[1].kind != FX_VALUE_TUPLE)
    return sc_raise (S, SC_T_TYPE_ERROR, "type.__new__() argument 2 must be tuple, not %s",
                     sc_type_name (S, &args[1]));
  if (args[2].kind != FX_VALUE_DICT)
    return sc_raise (S, SC_T_TYPE_ERROR, "type.__new__() argument 3 must be dict, not %s",
                     sc_type_name (S, &args[2]));
  bt = args[1].seq;
  bases = g_new (FxScriptClass *, bt->len + 1);
  for (guint i = 0; i < bt->len; i++)
    {
      bases[i] = sc_value_class (&bt->items[i]);
      if (!bases[i])
        {
          g_free (bases);
          return sc_raise (S, SC_T_TYPE_ERROR, "metaclass conflict: the metaclass of a derived class must "
                           "be a (non-strict) subclass of the metaclasses of all its bases");
        }
    }
  ns = fx_dict_new ();
  for (guint i = 0; fx_dict_entry (args[2].dict, i, &k, &v); i++)
    fx_dict_set (ns, fx_value_copy (k), fx_value_copy (v));
  if (!sc_dict_get_str (ns, sc_n.module))
    {
      FxValue *modname = frame_global (S, "__name__");
      if (modname && modname->kind == FX_VALUE_STR)
        fx_dict_set (ns, sc_str_value (sc_n.module), fx_value_copy (modname));
    }
  ok = sc_build_class (S, out, sc_intern (args[0].s->data, args[0].s->len), bases, (int) bt->len, ns,
                       kwargs);
  fx_dict_unref (ns);
  g_free (bases);
  return ok;
}

/* ------------------------------------------------------------------ property, staticmethod */

static FxValue
property_new (const FxValue *fget, const FxValue *fset, const FxValue *fdel, const FxValue *doc,
              FxStr *name)
{
  ScProperty *p = g_new0 (ScProperty, 1);
  fx_object_init (&p->base, &sc_property_klass);
  p->fget = fget ? fx_value_copy (fget) : fx_value_none ();
  p->fset = fset ? fx_value_copy (fset) : fx_value_none ();
  p->fdel = fdel ? fx_value_copy (fdel) : fx_value_none ();
  p->doc = doc ? fx_value_copy (doc) : fx_value_none ();
  p->name = name ? fx_str_ref (name) : NULL;
  return fx_value_take_object (&p->base);
}

static FxStr *
callable_name (const FxValue *f)
{
  if (sc_is_klass (f, &sc_function_klass))
    return ((ScFunction *) f->obj)->name;
  if (sc_is_klass (f, &sc_native_klass))
    return ((ScNative *) f->obj)->name;
  return NULL;
}

static gboolean
property_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  static const char *const names[] = { "fget", "fset", "fdel", "doc" };
  const FxValue *a[4];
  FxValue doc = fx_value_none ();
  (void) data;
  if (!bind_args (S, "property", args, n, kwargs, names, 4, 0, 4, 0, a))
    return FALSE;
  for (int i = 0; i < 3; i++)
    if (a[i] && a[i]->kind == FX_VALUE_NONE)
      a[i] = NULL;
  if (!is_none (a[3]))
    doc = fx_value_copy (a[3]);
  else if (a[0] && sc_is_klass (a[0], &sc_function_klass))
    doc = fx_value_copy (&((ScFunction *) a[0]->obj)->doc);
  else if (a[0])
    {
      int got = sc_getattr_opt (S, a[0], sc_n.doc, &doc);
      if (got < 0)
        return FALSE;
      if (got == 0)
        doc = fx_value_none ();
    }
  *out = property_new (a[0], a[1], a[2], &doc, a[0] ? callable_name (a[0]) : NULL);
  fx_value_clear (&doc);
  return TRUE;
}

static ScProperty *
property_self (FxScript *S, const FxValue *args, int n, const char *method)
{
  if (n < 1 || !sc_is_klass (&args[0], &sc_property_klass))
    {
      sc_raise (S, SC_T_TYPE_ERROR, "descriptor '%s' requires a 'property' object", method);
      return NULL;
    }
  return (ScProperty *) args[0].obj;
}

/* property.getter / setter / deleter: a copy with one accessor replaced */
static gboolean
property_with (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  int which = GPOINTER_TO_INT (data);
  static const char *const names[] = { "getter", "setter", "deleter" };
  ScProperty *p = property_self (S, args, n, names[which]);
  const FxValue *f;
  FxStr *name;
  if (!p || !no_kwargs (S, kwargs, names[which]))
    return FALSE;
  if (n != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes exactly one argument (%d given)", names[which], n - 1);
  f = args[1].kind == FX_VALUE_NONE ? NULL : &args[1];
  name = p->name;
  if (which == 0 && f && callable_name (f))
    name = callable_name (f);
  *out = property_new (which == 0 ? f : (p->fget.kind == FX_VALUE_NONE ? NULL : &p->fget),
                       which == 1 ? f : (p->fset.kind == FX_VALUE_NONE ? NULL : &p->fset),
                       which == 2 ? f : (p->fdel.kind == FX_VALUE_NONE ? NULL : &p->fdel),
                       &p->doc, name);
  return TRUE;
}

static gboolean
property_dunder_get (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  ScProperty *p = property_self (S, args, n, "__get__");
  (void) data;
  if (!p || !no_kwargs (S, kwargs, "__get__"))
    return FALSE;
  if (n < 2 || n > 3)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected 1 or 2 arguments, got %d", n - 1);
  if (args[1].kind == FX_VALUE_NONE)
    {
      *out = fx_value_copy (&args[0]);
      return TRUE;
    }
  if (p->fget.kind == FX_VALUE_NONE)
    {
      if (p->name)
        return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "property '%s' of '%s' object has no getter",
                         p->name->data, sc_type_name (S, &args[1]));
      return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "unreadable attribute");
    }
  return sc_call1 (S, &p->fget, &args[1], out);
}

static gboolean
property_dunder_set (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  gboolean is_delete = GPOINTER_TO_INT (data);
  ScProperty *p = property_self (S, args, n, is_delete ? "__delete__" : "__set__");
  const FxValue *f;
  FxValue r;
  if (!p || !no_kwargs (S, kwargs, is_delete ? "__delete__" : "__set__"))
    return FALSE;
  if (n != (is_delete ? 2 : 3))
    return sc_raise (S, SC_T_TYPE_ERROR, "expected %d argument%s, got %d", is_delete ? 1 : 2,
                     is_delete ? "" : "s", n - 1);
  f = is_delete ? &p->fdel : &p->fset;
  if (f->kind == FX_VALUE_NONE)
    {
      if (p->name)
        return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "property '%s' of '%s' object has no %s", p->name->data,
                         sc_type_name (S, &args[1]), is_delete ? "deleter" : "setter");
      return sc_raise (S, SC_T_ATTRIBUTE_ERROR, is_delete ? "can't delete attribute" : "can't set attribute");
    }
  if (!sc_call (S, f, args + 1, n - 1, NULL, 0, &r))
    return FALSE;
  fx_value_clear (&r);
  *out = fx_value_none ();
  return TRUE;
}

static gboolean
property_field (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  ScProperty *p;
  (void) kwargs;
  if (n < 1 || !sc_is_klass (&args[0], &sc_property_klass))
    return sc_raise (S, SC_T_TYPE_ERROR, "expected a property");
  p = (ScProperty *) args[0].obj;
  switch (GPOINTER_TO_INT (data))
    {
    case 0: *out = fx_value_copy (&p->fget); break;
    case 1: *out = fx_value_copy (&p->fset); break;
    case 2: *out = fx_value_copy (&p->fdel); break;
    default: *out = fx_value_copy (&p->doc); break;
    }
  return TRUE;
}

static gboolean
wrapper_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxScriptClass *cls = data;
  gboolean is_static = cls == S->types[SC_T_STATICMETHOD];
  const char *name = is_static ? "staticmethod" : "classmethod";
  ScWrapper *w;
  if (!no_kwargs (S, kwargs, name) || !check_positional (S, name, n, 1, 1))
    return FALSE;
  w = g_new0 (ScWrapper, 1);
  fx_object_init (&w->base, is_static ? &sc_staticmethod_klass : &sc_classmethod_klass);
  w->func = fx_value_copy (&args[0]);
  *out = fx_value_take_object (&w->base);
  return TRUE;
}

static gboolean
wrapper_func (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  (void) kwargs;
  (void) data;
  if (n < 1 || !(sc_is_klass (&args[0], &sc_staticmethod_klass) || sc_is_klass (&args[0], &sc_classmethod_klass)))
    return sc_raise (S, SC_T_TYPE_ERROR, "expected a staticmethod or classmethod");
  *out = fx_value_copy (&((ScWrapper *) args[0].obj)->func);
  return TRUE;
}

static gboolean
range_field (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  ScRange *r;
  (void) kwargs;
  if (n < 1 || !sc_is_klass (&args[0], &sc_range_klass))
    return sc_raise (S, SC_T_TYPE_ERROR, "expected a range");
  r = (ScRange *) args[0].obj;
  switch (GPOINTER_TO_INT (data))
    {
    case 0: *out = fx_value_int (r->start); break;
    case 1: *out = fx_value_int (r->stop); break;
    default: *out = fx_value_int (r->step); break;
    }
  return TRUE;
}

static gboolean
slice_field (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxSlice *sl;
  (void) kwargs;
  if (n < 1 || args[0].kind != FX_VALUE_SLICE)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected a slice");
  sl = args[0].slice;
  switch (GPOINTER_TO_INT (data))
    {
    case 0: *out = fx_value_copy (&sl->start); break;
    case 1: *out = fx_value_copy (&sl->stop); break;
    default: *out = fx_value_copy (&sl->step); break;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ number attributes */

/* int and float attributes: real, imag, numerator, denominator (data selects), conjugate(),
 * bit_length(), is_integer(), hex(). self is args[0]. */
static gboolean
number_self (FxScript *S, const FxValue *args, int n, FxDict *kwargs, const char *owner,
             const char *name, gboolean is_float)
{
  if (n < 1 || (is_float ? args[0].kind != FX_VALUE_FLOAT
                         : args[0].kind != FX_VALUE_INT && args[0].kind != FX_VALUE_BOOL))
    return sc_raise (S, SC_T_TYPE_ERROR, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object",
                     name, owner, n < 1 ? "NoneType" : sc_type_name (S, &args[0]));
  if (!no_kwargs (S, kwargs, name))
    return FALSE;
  return TRUE;
}

static gboolean
number_no_args (FxScript *S, int n, const char *owner, const char *name)
{
  if (n != 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s.%s() takes no arguments (%d given)", owner, name, n - 1);
  return TRUE;
}

static gboolean
int_field (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  static const char *const names[] = { "real", "imag", "numerator", "denominator" };
  int which = GPOINTER_TO_INT (data);
  if (!number_self (S, args, n, kwargs, "int", names[which], FALSE))
    return FALSE;
  if (which == 1)
    *out = fx_value_int (0);
  else if (which == 3)
    *out = fx_value_int (1);
  else
    *out = fx_value_int (args[0].kind == FX_VALUE_BOOL ? args[0].b : args[0].i);
  return TRUE;
}

static gboolean
float_field (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  int which = GPOINTER_TO_INT (data);
  if (!number_self (S, args, n, kwargs, "float", which ? "imag" : "real", TRUE))
    return FALSE;
  *out = fx_value_float (which ? 0.0 : args[0].f);
  return TRUE;
}

static gboolean
int_conjugate (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  (void) data;
  if (!number_self (S, args, n, kwargs, "int", "conjugate", FALSE) || !number_no_args (S, n, "int", "conjugate"))
    return FALSE;
  *out = fx_value_int (args[0].kind == FX_VALUE_BOOL ? args[0].b : args[0].i);
  return TRUE;
}

static gboolean
int_bit_length (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  guint64 x;
  int bits = 0;
  (void) data;
  if (!number_self (S, args, n, kwargs, "int", "bit_length", FALSE) || !number_no_args (S, n, "int", "bit_length"))
    return FALSE;
  x = args[0].kind == FX_VALUE_BOOL ? (guint64) args[0].b
      : args[0].i < 0 ? 0 - (guint64) args[0].i : (guint64) args[0].i;
  while (x)
    {
      bits++;
      x >>= 1;
    }
  *out = fx_value_int (bits);
  return TRUE;
}

static gboolean
float_conjugate (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  (void) data;
  if (!number_self (S, args, n, kwargs, "float", "conjugate", TRUE) || !number_no_args (S, n, "float", "conjugate"))
    return FALSE;
  *out = fx_value_float (args[0].f);
  return TRUE;
}

static gboolean
float_is_integer (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  double f;
  (void) data;
  if (!number_self (S, args, n, kwargs, "float", "is_integer", TRUE) || !number_no_args (S, n, "float", "is_integer"))
    return FALSE;
  f = args[0].f;
  *out = fx_value_bool (isfinite (f) && f == floor (f));
  return TRUE;
}

/* float.hex(): [-]0x1.<13 hex digits>p<exponent>, subnormals as 0x0.<digits>p-1022 */
static gboolean
float_hex (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  double f, a;
  char buf[64];
  (void) data;
  if (!number_self (S, args, n, kwargs, "float", "hex", TRUE) || !number_no_args (S, n, "float", "hex"))
    return FALSE;
  f = args[0].f;
  a = fabs (f);
  if (isnan (f))
    g_strlcpy (buf, "nan", sizeof buf);
  else if (isinf (f))
    g_strlcpy (buf, f > 0 ? "inf" : "-inf", sizeof buf);
  else if (a == 0)
    g_strlcpy (buf, signbit (f) ? "-0x0.0p+0" : "0x0.0p+0", sizeof buf);
  else
    {
      int e, lead = 1;
      double m = frexp (a, &e);         /* a = m * 2**e, 0.5 <= m < 1 */
      guint64 bits;
      if (e - 1 < -1022)
        {
          lead = 0;
          bits = (guint64) ldexp (a, 1022 + 52);
          e = -1022;
        }
      else
        {
          bits = (guint64) ldexp (m * 2 - 1, 52);
          e -= 1;
        }
      g_snprintf (buf, sizeof buf, "%s0x%d.%013" G_GINT64_MODIFIER "xp%+d", f < 0 ? "-" : "", lead,
                  bits, e);
    }
  *out = fx_value_str (buf);
  return TRUE;
}

/* slice.indices(length) */
static gboolean
slice_indices_method (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  int64_t len, start, stop, step, count;
  FxSeq *t;
  (void) data;
  if (n < 1 || args[0].kind != FX_VALUE_SLICE)
    return sc_raise (S, SC_T_TYPE_ERROR, "descriptor 'indices' for 'slice' objects doesn't apply to a '%s' object",
                     n < 1 ? "NoneType" : sc_type_name (S, &args[0]));
  if (!no_kwargs (S, kwargs, "slice.indices"))
    return FALSE;
  if (n != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "slice.indices() takes exactly one argument (%d given)", n - 1);
  if (!sc_index (S, &args[1], &len))
    return FALSE;
  if (len < 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "length should not be negative");
  if (!sc_slice_indices (S, args[0].slice, len, &start, &stop, &step, &count))
    return FALSE;
  t = fx_seq_new (3);
  t->items[0] = fx_value_int (start);
  t->items[1] = fx_value_int (stop);
  t->items[2] = fx_value_int (step);
  *out = fx_value_take_tuple (t);
  return TRUE;
}

/* __args__ and __origin__ of typing objects (unions list None as NoneType) */
static gboolean
typing_field (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  ScTyping *t;
  (void) kwargs;
  if (n < 1 || !sc_is_klass (&args[0], &sc_typing_klass))
    return sc_raise (S, SC_T_TYPE_ERROR, "expected a typing object");
  t = (ScTyping *) args[0].obj;
  if (GPOINTER_TO_INT (data) == 1)
    {
      *out = fx_value_copy (&t->origin);
      return TRUE;
    }
  if (t->args.kind != FX_VALUE_TUPLE)
    return sc_raise_attribute_error (S, &args[0], sc_intern_cstr ("__args__"));
  {
    gboolean optional = strcmp (t->name->data, "typing.Optional") == 0;
    FxSeq *a = fx_seq_new (t->args.seq->len + (optional ? 1 : 0));
    for (guint i = 0; i < a->len; i++)
      {
        const FxValue *m = i < t->args.seq->len ? &t->args.seq->items[i] : NULL;
        a->items[i] = !m || m->kind == FX_VALUE_NONE ? sc_class_value (S->types[SC_T_NONE]) : fx_value_copy (m);
      }
    *out = fx_value_take_tuple (a);
  }
  return TRUE;
}

static FxStr *
prefixed_name (const char *prefix, const char *name)
{
  char *t = g_strconcat (prefix, name, NULL);
  FxStr *r = fx_str_new (t);
  g_free (t);
  return r;
}

/* __name__, __qualname__ and __module__ of registry functions, as PyTorch 1.13 defines them:
 * Python functions (torch.nn.functional.relu) live in their path's module; C functions in
 * torch are methods of torch._C._VariableFunctionsClass; operator.X is _operator's. */
static gboolean
op_field (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  const FxOp *op;
  const char *q, *name, *dot;
  gboolean python;
  int which = GPOINTER_TO_INT (data);   /* 0 __name__, 1 __qualname__, 2 __module__ */
  (void) kwargs;
  if (n < 1 || args[0].kind != FX_VALUE_OP)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected a builtin function");
  op = args[0].op;
  q = op->qualified_name ? op->qualified_name : "";
  name = op->name ? op->name : q;
  if (which == 0)
    {
      *out = fx_value_str (name);
      return TRUE;
    }
  if (op->kind == FX_OP_METHOD)
    {
      *out = which == 1 ? fx_value_take_str (prefixed_name ("_TensorBase.", name)) : fx_value_none ();
      return TRUE;
    }
  dot = strrchr (q, '.');
  python = (op->flags & FX_OP_FLAG_PYTHON_FUNCTION) || g_str_has_prefix (q, "torch.nn.functional.")
           || g_str_has_prefix (q, "torch.functional.") || g_str_has_prefix (q, "torch.fx.");
  if (which == 1)
    {
      if (!python && dot && g_str_has_prefix (q, "torch.") && dot == q + 5)
        *out = fx_value_take_str (prefixed_name ("_VariableFunctionsClass.", name));
      else if (python && g_str_has_suffix (q, "max_pool1d") + g_str_has_suffix (q, "max_pool2d")
               + g_str_has_suffix (q, "max_pool3d") > 0 && g_str_has_prefix (q, "torch.nn.functional."))
        *out = fx_value_str ("boolean_dispatch.<locals>.fn");
      else
        *out = fx_value_str (name);
      return TRUE;
    }
  if (!dot)
    *out = fx_value_str ("builtins");
  else if (g_str_has_prefix (q, "operator."))
    *out = fx_value_str ("_operator");
  else
    *out = fx_value_take_str (fx_str_new_len (q, (gsize) (dot - q)));
  return TRUE;
}

/* super(): CPython checks the first argument's type before the argument count. */
static gboolean
super_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  if (!no_kwargs (S, kwargs, "super"))
    return FALSE;
  if (n > 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "super() expected at most 2 arguments, got %d", n);
  if (n >= 1 && !sc_value_class (&args[0]))
    return sc_raise (S, SC_T_TYPE_ERROR, "super() argument 1 must be a type, not %s", sc_type_name (S, &args[0]));
  if (n == 1)
    return sc_raise (S, SC_T_NOT_IMPLEMENTED_ERROR, "unbound super objects (super(type)) are not supported by fx");
  return sc_super_construct_func () (S, args, n, kwargs, out, data);
}

/* ------------------------------------------------------------------ iterator builtins */

static int
enumerate_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  FxValue x;
  int r = sc_iter_next (S, &it->inner, &x);
  if (r <= 0)
    return r;
  *out = make_pair (fx_value_int (it->count), x);
  it->count++;
  return 1;
}

static gboolean
enumerate_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  static const char *const names[] = { "iterable", "start" };
  const FxValue *a[2];
  int64_t start = 0;
  FxValue r;
  ScIterObj *o;
  (void) data;
  if (!bind_args (S, "enumerate", args, n, kwargs, names, 2, 0, 2, 0, a))
    return FALSE;
  if (!a[0])
    return sc_raise (S, SC_T_TYPE_ERROR, "enumerate() missing required argument 'iterable'");
  if (a[1] && !sc_index (S, a[1], &start))
    return FALSE;
  r = sc_iterobj_new (S, SC_T_ENUMERATE, enumerate_next);
  o = (ScIterObj *) r.obj;
  if (!sc_iter_init (S, a[0], &o->inner))
    {
      o->inner.kind = SC_ITER_EMPTY;
      fx_value_clear (&r);
      return FALSE;
    }
  o->count = start;
  *out = r;
  return TRUE;
}

static gboolean
zip_length_error (FxScript *S, int i, gboolean longer)
{
  if (i == 1)
    return sc_raise (S, SC_T_VALUE_ERROR, "zip() argument 2 is %s than argument 1",
                     longer ? "longer" : "shorter");
  return sc_raise (S, SC_T_VALUE_ERROR, "zip() argument %d is %s than arguments 1-%d", i + 1,
                   longer ? "longer" : "shorter", i);
}

/* zip: `count` holds the strict flag */
static int
zip_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  int n = it->n_inners;
  FxSeq *t;
  if (n == 0 || it->exhausted)
    return 0;
  t = fx_seq_new (n);
  for (int i = 0; i < n; i++)
    {
      int r = sc_iter_next (S, &it->inners[i], &t->items[i]);
      if (r < 0)
        {
          fx_seq_unref (t);
          return -1;
        }
      if (r == 0)
        {
          it->exhausted = TRUE;
          fx_seq_unref (t);
          if (!it->count)
            return 0;
          if (i > 0)
            {
              zip_length_error (S, i, FALSE);
              return -1;
            }
          for (int j = 1; j < n; j++)
            {
              FxValue y;
              r = sc_iter_next (S, &it->inners[j], &y);
              if (r < 0)
                return -1;
              if (r > 0)
                {
                  fx_value_clear (&y);
                  zip_length_error (S, j, TRUE);
                  return -1;
                }
            }
          return 0;
        }
    }
  *out = fx_value_take_tuple (t);
  return 1;
}

/* Fills o->inners from iterables; FALSE with an exception pending. */
static gboolean
init_inners (FxScript *S, ScIterObj *o, const FxValue *iterables, int n)
{
  o->inners = g_new0 (ScIter, n + 1);
  for (int i = 0; i < n; i++)
    {
      if (!sc_iter_init (S, &iterables[i], &o->inners[i]))
        return FALSE;
      o->n_inners = i + 1;
    }
  return TRUE;
}

static gboolean
zip_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  const FxValue *k, *v;
  gboolean strict = FALSE;
  FxValue r;
  (void) data;
  for (guint e = 0; kwargs && fx_dict_entry (kwargs, e, &k, &v); e++)
    {
      if (k->kind != FX_VALUE_STR || strcmp (k->s->data, "strict") != 0)
        return sc_raise (S, SC_T_TYPE_ERROR, "'%s' is an invalid keyword argument for zip()",
                         k->kind == FX_VALUE_STR ? k->s->data : "?");
      if (!sc_truth (S, v, &strict))
        return FALSE;
    }
  r = sc_iterobj_new (S, SC_T_ZIP, zip_next);
  if (!init_inners (S, (ScIterObj *) r.obj, args, n))
    {
      fx_value_clear (&r);
      return FALSE;
    }
  ((ScIterObj *) r.obj)->count = strict;
  *out = r;
  return TRUE;
}

static int
map_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  int n = it->n_inners, r = 1;
  FxValue buf[8], *items = n <= 8 ? buf : g_new (FxValue, n);
  int got = 0;
  gboolean ok;
  if (it->exhausted)
    r = 0;
  for (; r > 0 && got < n; got++)
    {
      r = sc_iter_next (S, &it->inners[got], &items[got]);
      if (r <= 0)
        break;
    }
  if (r > 0)
    {
      ok = sc_call (S, &it->func, items, n, NULL, 0, out);
      r = ok ? 1 : -1;
    }
  else if (r == 0)
    it->exhausted = TRUE;
  for (int i = 0; i < got; i++)
    fx_value_clear (&items[i]);
  if (items != buf)
    g_free (items);
  return r;
}

static gboolean
map_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxValue r;
  (void) data;
  if (!no_kwargs (S, kwargs, "map"))
    return FALSE;
  if (n < 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "map() must have at least two arguments.");
  r = sc_iterobj_new (S, SC_T_MAP, map_next);
  ((ScIterObj *) r.obj)->func = fx_value_copy (&args[0]);
  if (!init_inners (S, (ScIterObj *) r.obj, args + 1, n - 1))
    {
      fx_value_clear (&r);
      return FALSE;
    }
  *out = r;
  return TRUE;
}

static int
filter_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  FxValue x, t;
  int r;
  while ((r = sc_iter_next (S, &it->inner, &x)) > 0)
    {
      gboolean keep;
      if (it->func.kind == FX_VALUE_NONE)
        {
          if (!sc_truth (S, &x, &keep))
            {
              fx_value_clear (&x);
              return -1;
            }
        }
      else
        {
          gboolean ok = sc_call1 (S, &it->func, &x, &t);
          if (ok)
            {
              ok = sc_truth (S, &t, &keep);
              fx_value_clear (&t);
            }
          if (!ok)
            {
              fx_value_clear (&x);
              return -1;
            }
        }
      if (keep)
        {
          *out = x;
          return 1;
        }
      fx_value_clear (&x);
    }
  return r;
}

static gboolean
filter_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxValue r;
  ScIterObj *o;
  (void) data;
  if (!no_kwargs (S, kwargs, "filter") || !check_positional (S, "filter", n, 2, 2))
    return FALSE;
  r = sc_iterobj_new (S, SC_T_FILTER, filter_next);
  o = (ScIterObj *) r.obj;
  o->func = fx_value_copy (&args[0]);
  if (!sc_iter_init (S, &args[1], &o->inner))
    {
      o->inner.kind = SC_ITER_EMPTY;
      fx_value_clear (&r);
      return FALSE;
    }
  *out = r;
  return TRUE;
}

/* reversed() over __len__ + __getitem__: inner.src the sequence, count the next index */
static int
reversed_getitem_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  FxValue idx;
  if (it->exhausted || it->count < 0)
    return 0;
  idx = fx_value_int (it->count--);
  if (!sc_getitem (S, &it->inner.src, &idx, out))
    {
      if (sc_matches (S, SC_T_INDEX_ERROR) || sc_matches (S, SC_T_STOP_ITERATION))
        {
          sc_clear_exc (S);
          it->exhausted = TRUE;
          return 0;
        }
      return -1;
    }
  return 1;
}

/* reversed(range): counts the remaining items (count) rather than comparing with a bound,
 * so ranges reaching the ends of int64 cannot overflow */
static int
reversed_range_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  if (it->count <= 0)
    return 0;
  *out = fx_value_int (it->inner.i);
  if (--it->count > 0)
    it->inner.i = (int64_t) ((guint64) it->inner.i + (guint64) it->inner.step);
  return 1;
}

static int
plain_inner_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  return sc_iter_next (S, &it->inner, out);
}

/* A reversed iterator over a materialised sequence (takes seq). */
static FxValue
reversed_over_seq (FxScript *S, FxSeq *seq)
{
  FxValue r = sc_iterobj_new (S, SC_T_REVERSED, plain_inner_next);
  ScIterObj *o = (ScIterObj *) r.obj;
  o->inner.kind = SC_ITER_SEQ_REVERSED;
  o->inner.src = fx_value_take_tuple (seq);
  o->inner.i = (int64_t) seq->len - 1;
  return r;
}

static gboolean
reversed_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  const FxValue *v;
  FxValue r;
  ScIterObj *o;
  (void) data;
  if (!no_kwargs (S, kwargs, "reversed") || !check_positional (S, "reversed", n, 1, 1))
    return FALSE;
  v = &args[0];
  if (v->kind == FX_VALUE_LIST || (v->kind == FX_VALUE_TUPLE && (v->seq->type == NULL
                                                                  || !sc_special_lookup (S, v, "__reversed__"))))
    {
      r = sc_iterobj_new (S, SC_T_REVERSED, plain_inner_next);
      o = (ScIterObj *) r.obj;
      o->inner.kind = SC_ITER_SEQ_REVERSED;
      o->inner.src = fx_value_copy (v);
      o->inner.i = (int64_t) v->seq->len - 1;
      *out = r;
      return TRUE;
    }
  if (sc_is_klass (v, &sc_range_klass))
    {
      ScRange *rg = (ScRange *) v->obj;
      int64_t len = 0;
      if (rg->step > 0 && rg->start < rg->stop)
        len = (int64_t) (((guint64) rg->stop - (guint64) rg->start - 1) / (guint64) rg->step + 1);
      else if (rg->step < 0 && rg->start > rg->stop)
        len = (int64_t) (((guint64) rg->start - (guint64) rg->stop - 1) / (0 - (guint64) rg->step) + 1);
      r = sc_iterobj_new (S, SC_T_REVERSED, reversed_range_next);
      o = (ScIterObj *) r.obj;
      o->count = len;
      if (len > 0)
        {
          o->inner.i = (int64_t) ((guint64) rg->start + (guint64) (len - 1) * (guint64) rg->step);
          o->inner.step = (int64_t) (0 - (guint64) rg->step);
        }
      *out = r;
      return TRUE;
    }
  if (v->kind == FX_VALUE_STR || v->kind == FX_VALUE_DICT || sc_is_klass (v, &sc_dictkeys_klass)
      || sc_is_klass (v, &sc_dictvalues_klass) || sc_is_klass (v, &sc_dictitems_klass))
    {
      FxSeq *seq;
      if (!sc_collect (S, v, &seq))
        return FALSE;
      *out = reversed_over_seq (S, seq);
      return TRUE;
    }
  if (v->kind == FX_VALUE_OBJECT || (v->kind == FX_VALUE_TUPLE && v->seq->type)
      || (v->kind >= FX_VALUE_DTYPE && v->kind <= FX_VALUE_OP))
    {
      FxValue *rev = sc_special_lookup (S, v, "__reversed__");
      if (rev && rev->kind != FX_VALUE_NONE)
        return sc_call_special (S, v, "__reversed__", NULL, 0, out) > 0;
      if (!rev && !(sc_type_of (S, v)->flags & SC_CLASS_BUILTIN) && sc_special_lookup (S, v, "__len__")
          && sc_special_lookup (S, v, "__getitem__"))
        {
          int64_t len;
          if (!sc_len (S, v, &len))
            return FALSE;
          r = sc_iterobj_new (S, SC_T_REVERSED, reversed_getitem_next);
          o = (ScIterObj *) r.obj;
          o->inner.kind = SC_ITER_GETITEM;
          o->inner.src = fx_value_copy (v);
          o->count = len - 1;
          *out = r;
          return TRUE;
        }
    }
  return sc_raise (S, SC_T_TYPE_ERROR, "'%s' object is not reversible", sc_type_name (S, v));
}

/* iter(callable, sentinel): `values` holds the sentinel */
static int
callable_iter_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  FxValue r;
  gboolean eq;
  if (it->exhausted)
    return 0;
  if (!sc_call0 (S, &it->func, &r))
    {
      if (sc_matches (S, SC_T_STOP_ITERATION))
        {
          sc_clear_exc (S);
          it->exhausted = TRUE;
          return 0;
        }
      return -1;
    }
  if (!sc_equal (S, &r, &it->values->items[0], &eq))
    {
      fx_value_clear (&r);
      return -1;
    }
  if (eq)
    {
      fx_value_clear (&r);
      it->exhausted = TRUE;
      return 0;
    }
  *out = r;
  return 1;
}

static gboolean
builtin_iter (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxValue r;
  ScIterObj *o;
  (void) data;
  if (!no_kwargs (S, kwargs, "iter") || !check_positional (S, "iter", n, 1, 2))
    return FALSE;
  if (n == 1)
    return sc_get_iter (S, &args[0], out);
  if (!sc_callable (S, &args[0]))
    return sc_raise (S, SC_T_TYPE_ERROR, "iter(v, w): v must be callable");
  r = sc_iterobj_new (S, SC_T_ITERATOR, callable_iter_next);
  o = (ScIterObj *) r.obj;
  o->func = fx_value_copy (&args[0]);
  o->values = fx_seq_new (1);
  o->values->items[0] = fx_value_copy (&args[1]);
  *out = r;
  return TRUE;
}

static gboolean
builtin_next (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  int r;
  (void) data;
  if (!no_kwargs (S, kwargs, "next") || !check_positional (S, "next", n, 1, 2))
    return FALSE;
  r = sc_next (S, &args[0], out);
  if (r > 0)
    return TRUE;
  if (r < 0)
    return FALSE;
  if (n == 2)
    {
      *out = fx_value_copy (&args[1]);
      return TRUE;
    }
  return sc_raise_args (S, SC_T_STOP_ITERATION, fx_value_take_tuple (fx_seq_new (0)));
}

/* ------------------------------------------------------------------ len, sorted, min, max, sum */

static gboolean
builtin_len (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  int64_t len;
  (void) data;
  if (!check_one (S, "len", n, kwargs) || !sc_len (S, &args[0], &len))
    return FALSE;
  *out = fx_value_int (len);
  return TRUE;
}

static gboolean
builtin_sorted (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  const FxValue *key = NULL, *rev = NULL, *k, *v;
  int64_t reverse = 0;
  FxSeq *seq;
  (void) data;
  if (n != 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "sorted expected 1 argument, got %d", n);
  for (guint e = 0; kwargs && fx_dict_entry (kwargs, e, &k, &v); e++)
    {
      if (k->kind == FX_VALUE_STR && strcmp (k->s->data, "key") == 0)
        key = v;
      else if (k->kind == FX_VALUE_STR && strcmp (k->s->data, "reverse") == 0)
        rev = v;
      else
        return sc_raise (S, SC_T_TYPE_ERROR, "'%s' is an invalid keyword argument for sort()",
                         k->kind == FX_VALUE_STR ? k->s->data : "?");
    }
  if (rev && !sc_index (S, rev, &reverse))
    return FALSE;
  if (!sc_collect (S, &args[0], &seq))
    return FALSE;
  seq->type = NULL;
  if (!sc_sort (S, seq, is_none (key) ? NULL : key, reverse != 0))
    {
      fx_seq_unref (seq);
      return FALSE;
    }
  *out = fx_value_take_list (seq);
  return TRUE;
}

static gboolean
minmax (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gboolean is_max)
{
  const char *name = is_max ? "max" : "min";
  const FxValue *key = NULL, *dflt = NULL, *k, *v;
  FxValue best = fx_value_none (), best_key = fx_value_none (), x, xk;
  gboolean have = FALSE, ok = TRUE;
  ScIter it;
  int r = 0, i = 0;

  if (n == 0)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s expected at least 1 argument, got 0", name);
  for (guint e = 0; kwargs && fx_dict_entry (kwargs, e, &k, &v); e++)
    {
      if (k->kind == FX_VALUE_STR && strcmp (k->s->data, "key") == 0)
        key = v;
      else if (k->kind == FX_VALUE_STR && strcmp (k->s->data, "default") == 0)
        dflt = v;
      else
        return sc_raise (S, SC_T_TYPE_ERROR, "'%s' is an invalid keyword argument for %s()",
                         k->kind == FX_VALUE_STR ? k->s->data : "?", name);
    }
  if (dflt && n > 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "Cannot specify a default for %s() with multiple positional arguments",
                     name);
  if (is_none (key))
    key = NULL;
  if (n == 1 && !sc_iter_init (S, &args[0], &it))
    return FALSE;
  for (;;)
    {
      if (n == 1)
        {
          r = sc_iter_next (S, &it, &x);
          if (r <= 0)
            break;
        }
      else
        {
          if (i >= n)
            break;
          x = fx_value_copy (&args[i++]);
        }
      if (key)
        {
          if (!sc_call1 (S, key, &x, &xk))
            {
              fx_value_clear (&x);
              ok = FALSE;
              break;
            }
        }
      else
        xk = fx_value_copy (&x);
      if (!have)
        {
          best = x;
          best_key = xk;
          have = TRUE;
          continue;
        }
      {
        FxValue cmp;
        gboolean better;
        if (!sc_compare (S, is_max ? SC_CMP_GT : SC_CMP_LT, &xk, &best_key, &cmp))
          ok = FALSE;
        else
          {
            ok = sc_truth (S, &cmp, &better);
            fx_value_clear (&cmp);
          }
        if (!ok)
          {
            fx_value_clear (&x);
            fx_value_clear (&xk);
            break;
          }
        if (better)
          {
            fx_value_clear (&best);
            fx_value_clear (&best_key);
            best = x;
            best_key = xk;
          }
        else
          {
            fx_value_clear (&x);
            fx_value_clear (&xk);
          }
      }
    }
  if (n == 1)
    sc_iter_clear (&it);
  fx_value_clear (&best_key);
  if (!ok || r < 0)
    {
      fx_value_clear (&best);
      return FALSE;
    }
  if (!have)
    {
      if (dflt)
        {
          *out = fx_value_copy (dflt);
          return TRUE;
        }
      return sc_raise (S, SC_T_VALUE_ERROR, "%s() arg is an empty sequence", name);
    }
  *out = best;
  return TRUE;
}

static gboolean
builtin_min (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  (void) data;
  return minmax (S, args, n, kwargs, out, FALSE);
}

static gboolean
builtin_max (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  (void) data;
  return minmax (S, args, n, kwargs, out, TRUE);
}

static gboolean
builtin_sum (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  static const char *const names[] = { "iterable", "start" };
  const FxValue *a[2];
  FxValue acc, x, r;
  ScIter it;
  int got;
  (void) data;
  if (n == 0)
    return sc_raise (S, SC_T_TYPE_ERROR, "sum() takes at least 1 positional argument (0 given)");
  if (!bind_args (S, "sum", args, n, kwargs, names, 2, 1, 2, 1, a))
    return FALSE;
  if (a[1] && a[1]->kind == FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "sum() can't sum strings [use ''.join(seq) instead]");
  if (!sc_iter_init (S, a[0], &it))
    return FALSE;
  acc = a[1] ? fx_value_copy (a[1]) : fx_value_int (0);
  while ((got = sc_iter_next (S, &it, &x)) > 0)
    {
      if (IS_INTLIKE (&acc) && IS_INTLIKE (&x))
        {
          int64_t s;
          if (!__builtin_add_overflow (IVAL (&acc), IVAL (&x), &s))
            {
              acc = fx_value_int (s);
              continue;
            }
        }
      else if (acc.kind == FX_VALUE_FLOAT && (x.kind == FX_VALUE_FLOAT || IS_INTLIKE (&x)))
        {
          acc.f += x.kind == FX_VALUE_FLOAT ? x.f : (double) IVAL (&x);
          continue;
        }
      if (!sc_binary (S, SC_BIN_ADD, &acc, &x, &r, FALSE))
        {
          fx_value_clear (&x);
          got = -1;
          break;
        }
      fx_value_clear (&x);
      fx_value_clear (&acc);
      acc = r;
    }
  sc_iter_clear (&it);
  if (got < 0)
    {
      fx_value_clear (&acc);
      return FALSE;
    }
  *out = acc;
  return TRUE;
}

/* ------------------------------------------------------------------ numbers */

static gboolean
builtin_abs (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  const FxValue *v;
  int got;
  (void) data;
  if (!check_one (S, "abs", n, kwargs))
    return FALSE;
  v = &args[0];
  if (IS_INTLIKE (v))
    {
      int64_t i = IVAL (v);
      if (i == G_MININT64)
        return int_overflow (S);
      *out = fx_value_int (i < 0 ? -i : i);
      return TRUE;
    }
  if (v->kind == FX_VALUE_FLOAT)
    {
      *out = fx_value_float (fabs (v->f));
      return TRUE;
    }
  got = sc_call_special (S, v, "__abs__", NULL, 0, out);
  if (got != 0)
    return got > 0;
  if (v->kind == FX_VALUE_TENSOR)
    {
      const FxOp *op = fx_op_lookup ("torch.abs");
      if (op)
        {
          FxValue f = fx_value_op (op);
          return sc_call1 (S, &f, v, out);
        }
    }
  return sc_raise (S, SC_T_TYPE_ERROR, "bad operand type for abs(): '%s'", sc_type_name (S, v));
}

/* x rounded half-even to 10**-nd decimal places of its exact decimal expansion, as CPython's
 * correctly rounded dtoa does (nd <= 323, so the fixed buffer holds 309 + 323 digits). */
static double
round_float_digits (double x, int nd)
{
  char *buf;
  if (nd >= 0)
    {
      /* glibc's printf rounds the exact binary value, ties to even: the same digits */
      char fixed[720];
      snprintf (fixed, sizeof fixed, "%.*f", nd, x);
      return g_ascii_strtod (fixed, NULL);
    }
  buf = g_strdup_printf ("%.1100f", fabs (x));
  char *dot = strchr (buf, '.');
  int int_len = (int) (dot - buf), total, cut, j;
  GString *digits = g_string_new_len (buf, int_len);
  GString *res;
  gboolean up = FALSE;
  double r;
  g_string_append (digits, dot + 1);
  g_free (buf);
  total = (int) digits->len;
  cut = int_len + nd;
  if (cut >= total)
    {
      g_string_free (digits, TRUE);
      return x;
    }
  if (cut < 0)
    {
      g_string_free (digits, TRUE);
      return copysign (0.0, x);
    }
  if (digits->str[cut] > '5')
    up = TRUE;
  else if (digits->str[cut] == '5')
    {
      for (j = cut + 1; j < total && !up; j++)
        if (digits->str[j] != '0')
          up = TRUE;
      if (!up && cut > 0 && ((digits->str[cut - 1] - '0') & 1))
        up = TRUE;
    }
  g_string_truncate (digits, cut);
  if (up)
    {
      for (j = cut - 1; j >= 0; j--)
        {
          if (digits->str[j] == '9')
            digits->str[j] = '0';
          else
            {
              digits->str[j]++;
              break;
            }
        }
      if (j < 0)
        {
          g_string_prepend_c (digits, '1');
          int_len++;
          cut++;
        }
    }
  res = g_string_new (NULL);
  if (cut == 0)
    g_string_append_c (res, '0');
  else if (cut <= int_len)
    {
      g_string_append_len (res, digits->str, cut);
      for (j = cut; j < int_len; j++)
        g_string_append_c (res, '0');
    }
  else
    {
      g_string_append_len (res, digits->str, int_len);
      g_string_append_c (res, '.');
      g_string_append_len (res, digits->str + int_len, cut - int_len);
    }
  r = g_ascii_strtod (res->str, NULL);
  g_string_free (res, TRUE);
  g_string_free (digits, TRUE);
  return copysign (r, x);
}

static gboolean
round_int (FxScript *S, int64_t x, int64_t nd, FxValue *out)
{
  __int128 m = 1, q, rem;
  if (nd >= 0)
    {
      *out = fx_value_int (x);
      return TRUE;
    }
  if (nd < -19)
    {
      *out = fx_value_int (0);
      return TRUE;
    }
  for (int64_t i = 0; i < -nd; i++)
    m *= 10;
  rem = ((__int128) x % m + m) % m;
  q = (__int128) x - rem;
  if (2 * rem > m || (2 * rem == m && ((q / m) & 1)))
    q += m;
  if (q > G_MAXINT64 || q < G_MININT64)
    return int_overflow (S);
  *out = fx_value_int ((int64_t) q);
  return TRUE;
}

static gboolean
builtin_round (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  static const char *const names[] = { "number", "ndigits" };
  const FxValue *a[2];
  int64_t nd = 0;
  gboolean have_nd;
  (void) data;
  if (!bind_args (S, "round", args, n, kwargs, names, 2, 0, 2, 1, a))
    return FALSE;
  have_nd = !is_none (a[1]);
  if (IS_INTLIKE (a[0]) || a[0]->kind == FX_VALUE_FLOAT)
    {
      if (have_nd && !sc_index (S, a[1], &nd))
        return FALSE;
      if (IS_INTLIKE (a[0]))
        return round_int (S, IVAL (a[0]), have_nd ? nd : 0, out);
      if (!have_nd)
        return float_to_int (S, rint (a[0]->f), out);
      {
        double x = a[0]->f, r;
        if (nd > 323 || !isfinite (x) || x == 0.0)
          {
            *out = fx_value_float (x);
            return TRUE;
          }
        if (nd < -308)
          {
            *out = fx_value_float (0.0 * x);
            return TRUE;
          }
        r = round_float_digits (x, (int) nd);
        if (isinf (r))
          return sc_raise (S, SC_T_OVERFLOW_ERROR, "rounded value too large to represent");
        *out = fx_value_float (r);
        return TRUE;
      }
    }
  {
    int got = sc_call_special (S, a[0], "__round__", have_nd ? a[1] : NULL, have_nd ? 1 : 0, out);
    if (got != 0)
      return got > 0;
  }
  return sc_raise (S, SC_T_TYPE_ERROR, "type %s doesn't define __round__ method", sc_type_name (S, a[0]));
}

static gboolean
int_divmod (FxScript *S, int64_t a, int64_t b, FxValue *out)
{
  int64_t q, r;
  if (b == 0)
    return sc_raise (S, SC_T_ZERO_DIVISION_ERROR, "integer division or modulo by zero");
  if (a == G_MININT64 && b == -1)
    return int_overflow (S);
  q = a / b;
  r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    {
      q -= 1;
      r += b;
    }
  *out = make_pair (fx_value_int (q), fx_value_int (r));
  return TRUE;
}

/* CPython's float_divmod */
static gboolean
float_divmod (FxScript *S, double vx, double wx, FxValue *out)
{
  double mod, div, floordiv;
  if (wx == 0.0)
    return sc_raise (S, SC_T_ZERO_DIVISION_ERROR, "float divmod()");
  mod = fmod (vx, wx);
  div = (vx - mod) / wx;
  if (mod)
    {
      if ((wx < 0) != (mod < 0))
        {
          mod += wx;
          div -= 1.0;
        }
    }
  else
    mod = copysign (0.0, wx);
  if (div)
    {
      floordiv = floor (div);
      if (div - floordiv > 0.5)
        floordiv += 1.0;
    }
  else
    floordiv = copysign (0.0, vx / wx);
  *out = make_pair (fx_value_float (floordiv), fx_value_float (mod));
  return TRUE;
}

static gboolean
builtin_divmod (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  const FxValue *a, *b;
  int got;
  (void) data;
  if (!no_kwargs (S, kwargs, "divmod") || !check_positional (S, "divmod", n, 2, 2))
    return FALSE;
  a = &args[0];
  b = &args[1];
  if (IS_INTLIKE (a) && IS_INTLIKE (b))
    return int_divmod (S, IVAL (a), IVAL (b), out);
  if ((IS_INTLIKE (a) || a->kind == FX_VALUE_FLOAT) && (IS_INTLIKE (b) || b->kind == FX_VALUE_FLOAT))
    return float_divmod (S, a->kind == FX_VALUE_FLOAT ? a->f : (double) IVAL (a),
                         b->kind == FX_VALUE_FLOAT ? b->f : (double) IVAL (b), out);
  got = sc_call_special (S, a, "__divmod__", b, 1, out);
  if (got < 0)
    return FALSE;
  if (got > 0)
    {
      if (!sc_is_notimpl (S, out))
        return TRUE;
      fx_value_clear (out);
    }
  got = sc_call_special (S, b, "__rdivmod__", a, 1, out);
  if (got < 0)
    return FALSE;
  if (got > 0)
    {
      if (!sc_is_notimpl (S, out))
        return TRUE;
      fx_value_clear (out);
    }
  return sc_raise (S, SC_T_TYPE_ERROR, "unsupported operand type(s) for divmod(): '%s' and '%s'",
                   sc_type_name (S, a), sc_type_name (S, b));
}

static guint64
mulmod (guint64 a, guint64 b, guint64 m)
{
  return (guint64) (((unsigned __int128) a * b) % m);
}

static gboolean
int_powmod (FxScript *S, int64_t base, int64_t exp, int64_t mod, FxValue *out)
{
  guint64 m, b, r;
  if (mod == 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "pow() 3rd argument cannot be 0");
  m = mod < 0 ? 0 - (guint64) mod : (guint64) mod;
  b = base < 0 ? (m - (0 - (guint64) base) % m) % m : (guint64) base % m;
  if (exp < 0)
    {
      /* modular inverse by the extended Euclidean algorithm */
      __int128 t = 0, nt = 1, rr = m, nr = b;
      while (nr != 0)
        {
          __int128 q = rr / nr, tmp;
          tmp = t - q * nt; t = nt; nt = tmp;
          tmp = rr - q * nr; rr = nr; nr = tmp;
        }
      if (rr != 1 && m != 1)
        return sc_raise (S, SC_T_VALUE_ERROR, "base is not invertible for the given modulus");
      if (t < 0)
        t += m;
      b = (guint64) t % m;
    }
  {
    guint64 e = exp < 0 ? 0 - (guint64) exp : (guint64) exp;
    r = 1 % m;
    while (e)
      {
        if (e & 1)
          r = mulmod (r, b, m);
        b = mulmod (b, b, m);
        e >>= 1;
      }
  }
  if (mod < 0 && r != 0)
    *out = fx_value_int ((int64_t) (r - m));
  else
    *out = fx_value_int ((int64_t) r);
  return TRUE;
}

static gboolean
builtin_pow (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  static const char *const names[] = { "base", "exp", "mod" };
  const FxValue *a[3];
  (void) data;
  if (!bind_args (S, "pow", args, n, kwargs, names, 3, 0, 3, 2, a))
    return FALSE;
  if (is_none (a[2]))
    return sc_binary (S, SC_BIN_POW, a[0], a[1], out, FALSE);
  if (IS_INTLIKE (a[0]) && IS_INTLIKE (a[1]) && IS_INTLIKE (a[2]))
    return int_powmod (S, IVAL (a[0]), IVAL (a[1]), IVAL (a[2]), out);
  if ((IS_INTLIKE (a[0]) || a[0]->kind == FX_VALUE_FLOAT) && (IS_INTLIKE (a[1]) || a[1]->kind == FX_VALUE_FLOAT))
    return sc_raise (S, SC_T_TYPE_ERROR, "pow() 3rd argument not allowed unless all arguments are integers");
  {
    FxValue extra[2] = { *a[1], *a[2] };
    int got = sc_call_special (S, a[0], "__pow__", extra, 2, out);
    if (got < 0)
      return FALSE;
    if (got > 0)
      {
        if (!sc_is_notimpl (S, out))
          return TRUE;
        fx_value_clear (out);
      }
  }
  return sc_raise (S, SC_T_TYPE_ERROR, "unsupported operand type(s) for ** or pow(): '%s', '%s', '%s'",
                   sc_type_name (S, a[0]), sc_type_name (S, a[1]), sc_type_name (S, a[2]));
}

static gboolean
format_radix (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, const char *fname,
              int shift, const char *prefix)
{
  int64_t i;
  guint64 mag;
  char buf[80], *p = buf + sizeof buf - 1;
  gboolean neg;
  if (!check_one (S, fname, n, kwargs) || !sc_index (S, &args[0], &i))
    return FALSE;
  neg = i < 0;
  mag = neg ? 0 - (guint64) i : (guint64) i;
  *p = '\0';
  do
    {
      *--p = "0123456789abcdef"[mag & ((1u << shift) - 1)];
      mag >>= shift;
    }
  while (mag);
  p -= strlen (prefix);
  memcpy (p, prefix, strlen (prefix));
  if (neg)
    *--p = '-';
  *out = fx_value_str (p);
  return TRUE;
}

static gboolean
builtin_hex (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  (void) data;
  return format_radix (S, args, n, kwargs, out, "hex", 4, "0x");
}

static gboolean
builtin_oct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  (void) data;
  return format_radix (S, args, n, kwargs, out, "oct", 3, "0o");
}

static gboolean
builtin_bin (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  (void) data;
  return format_radix (S, args, n, kwargs, out, "bin", 1, "0b");
}

static gboolean
builtin_chr (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  int64_t i;
  char buf[8];
  int len;
  (void) data;
  if (!check_one (S, "chr", n, kwargs) || !sc_index (S, &args[0], &i))
    return FALSE;
  if (i < 0 || i > 0x10FFFF)
    return sc_raise (S, SC_T_VALUE_ERROR, "chr() arg not in range(0x110000)");
  len = g_unichar_to_utf8 ((gunichar) i, buf);
  *out = fx_value_take_str (fx_str_new_len (buf, len));
  return TRUE;
}

static gboolean
builtin_ord (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  int64_t len;
  (void) data;
  if (!check_one (S, "ord", n, kwargs))
    return FALSE;
  if (args[0].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "ord() expected string of length 1, but %s found",
                     sc_type_name (S, &args[0]));
  len = sc_utf8_len (args[0].s);
  if (len != 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "ord() expected a character, but string of length %" G_GINT64_FORMAT
                     " found", len);
  *out = fx_value_int (g_utf8_get_char (args[0].s->data));
  return TRUE;
}

/* ------------------------------------------------------------------ objects */

static gboolean
builtin_repr (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  GString *s;
  (void) data;
  if (!check_one (S, "repr", n, kwargs))
    return FALSE;
  s = g_string_new (NULL);
  if (!sc_repr (S, &args[0], s))
    {
      g_string_free (s, TRUE);
      return FALSE;
    }
  *out = fx_value_take_str (fx_str_new_len (s->str, s->len));
  g_string_free (s, TRUE);
  return TRUE;
}

static gboolean
builtin_ascii (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  GString *s, *a;
  (void) data;
  if (!check_one (S, "ascii", n, kwargs))
    return FALSE;
  s = g_string_new (NULL);
  if (!sc_repr (S, &args[0], s))
    {
      g_string_free (s, TRUE);
      return FALSE;
    }
  a = g_string_sized_new (s->len);
  for (const char *p = s->str; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      if (c < 0x80)
        g_string_append_c (a, (char) c);
      else if (c < 0x100)
        g_string_append_printf (a, "\\x%02x", c);
      else if (c < 0x10000)
        g_string_append_printf (a, "\\u%04x", c);
      else
        g_string_append_printf (a, "\\U%08x", c);
    }
  *out = fx_value_take_str (fx_str_new_len (a->str, a->len));
  g_string_free (a, TRUE);
  g_string_free (s, TRUE);
  return TRUE;
}

static gboolean
builtin_hash (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  gint64 h;
  (void) data;
  if (!check_one (S, "hash", n, kwargs) || !sc_hash (S, &args[0], &h))
    return FALSE;
  *out = fx_value_int (h);
  return TRUE;
}

static gboolean
builtin_id (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  static const char anchors[4] = { 0 };
  const FxValue *v;
  guint64 id;
  (void) data;
  if (!check_one (S, "id", n, kwargs))
    return FALSE;
  v = &args[0];
  switch (v->kind)
    {
    case FX_VALUE_NONE: id = (guintptr) &anchors[0]; break;
    case FX_VALUE_BOOL: id = (guintptr) &anchors[v->b ? 2 : 1]; break;
    case FX_VALUE_ELLIPSIS: id = (guintptr) &anchors[3]; break;
    case FX_VALUE_INT: id = ((guint64) v->i << 1 | 1) & G_MAXINT64; break;
    case FX_VALUE_FLOAT: id = (fx_value_hash (v) << 1 | 1) & G_MAXINT64; break;
    case FX_VALUE_DTYPE: id = ((guint64) v->dtype << 4 | 3); break;
    case FX_VALUE_STR: case FX_VALUE_DEVICE: id = (guintptr) v->s; break;
    case FX_VALUE_TUPLE: case FX_VALUE_LIST: id = (guintptr) v->seq; break;
    case FX_VALUE_DICT: id = (guintptr) v->dict; break;
    case FX_VALUE_SLICE: id = (guintptr) v->slice; break;
    case FX_VALUE_TENSOR: id = (guintptr) v->tensor; break;
    case FX_VALUE_NODE: id = (guintptr) v->node; break;
    case FX_VALUE_OP: id = (guintptr) v->op; break;
    default: id = (guintptr) v->obj; break;
    }
  *out = fx_value_int ((int64_t) id);
  return TRUE;
}

static gboolean
builtin_callable (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  (void) data;
  if (!check_one (S, "callable", n, kwargs))
    return FALSE;
  *out = fx_value_bool (sc_callable (S, &args[0]));
  return TRUE;
}

static gboolean
builtin_format (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  GString *s;
  (void) data;
  if (!no_kwargs (S, kwargs, "format") || !check_positional (S, "format", n, 1, 2))
    return FALSE;
  if (n == 2 && args[1].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "format() argument 2 must be str, not %s", sc_type_name (S, &args[1]));
  s = g_string_new (NULL);
  if (!sc_format (S, &args[0], n == 2 ? args[1].s->data : "", s))
    {
      g_string_free (s, TRUE);
      return FALSE;
    }
  *out = fx_value_take_str (fx_str_new_len (s->str, s->len));
  g_string_free (s, TRUE);
  return TRUE;
}

static gboolean
builtin_any_all (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  gboolean is_all = GPOINTER_TO_INT (data), result = is_all, t;
  ScIter it;
  FxValue x;
  int r;
  if (!check_one (S, is_all ? "all" : "any", n, kwargs) || !sc_iter_init (S, &args[0], &it))
    return FALSE;
  while ((r = sc_iter_next (S, &it, &x)) > 0)
    {
      gboolean ok = sc_truth (S, &x, &t);
      fx_value_clear (&x);
      if (!ok)
        {
          r = -1;
          break;
        }
      if (t != is_all)
        {
          result = !is_all;
          break;
        }
    }
  sc_iter_clear (&it);
  if (r < 0)
    return FALSE;
  *out = fx_value_bool (result);
  return TRUE;
}

/* 1 match, 0 no match, -1 error (bad spec raised). */
static int
class_check (FxScript *S, const FxValue *v, FxScriptClass *vcls, const FxValue *spec, gboolean sub)
{
  FxScriptClass *cls = sc_value_class (spec);
  if (cls)
    return sub ? sc_is_subclass (vcls, cls) : sc_isinstance (S, v, cls);
  if (spec->kind == FX_VALUE_TUPLE)
    {
      if (!sc_check_stack (S))
        return -1;
      for (guint i = 0; i < spec->seq->len; i++)
        {
          int r = class_check (S, v, vcls, &spec->seq->items[i], sub);
          if (r != 0)
            return r;
        }
      return 0;
    }
  if (sc_is_klass (spec, &sc_typing_klass))
    {
      ScTyping *t = (ScTyping *) spec->obj;
      gboolean optional = strcmp (t->name->data, "typing.Optional") == 0;
      if (t->args.kind == FX_VALUE_TUPLE
          && (optional || strcmp (t->name->data, SC_UNION_NAME) == 0 || strcmp (t->name->data, "typing.Union") == 0))
        {
          /* unions: any member (None stands for NoneType) */
          FxValue none_type = sc_class_value (S->types[SC_T_NONE]);
          int r = optional ? class_check (S, v, vcls, &none_type, sub) : 0;
          fx_value_clear (&none_type);
          for (guint i = 0; r == 0 && i < t->args.seq->len; i++)
            {
              const FxValue *m = &t->args.seq->items[i];
              if (m->kind == FX_VALUE_NONE)
                r = sub ? sc_is_subclass (vcls, S->types[SC_T_NONE]) : v->kind == FX_VALUE_NONE;
              else
                r = class_check (S, v, vcls, m, sub);
            }
          return r;
        }
      if (t->args.kind == FX_VALUE_TUPLE)
        {
          sc_raise (S, SC_T_TYPE_ERROR, "Subscripted generics cannot be used with class and instance checks");
          return -1;
        }
      if (sc_value_class (&t->origin))
        return class_check (S, v, vcls, &t->origin, sub);
      sc_raise (S, SC_T_TYPE_ERROR, "%s cannot be used with %s()", t->name->data,
                sub ? "issubclass" : "isinstance");
      return -1;
    }
  if (sub)
    sc_raise (S, SC_T_TYPE_ERROR, "issubclass() arg 2 must be a class, a tuple of classes, or a union");
  else
    sc_raise (S, SC_T_TYPE_ERROR, "isinstance() arg 2 must be a type, a tuple of types, or a union");
  return -1;
}

static gboolean
builtin_isinstance (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  gboolean sub = GPOINTER_TO_INT (data);
  const char *name = sub ? "issubclass" : "isinstance";
  FxScriptClass *vcls = NULL;
  int r;
  if (!no_kwargs (S, kwargs, name) || !check_positional (S, name, n, 2, 2))
    return FALSE;
  if (sub)
    {
      vcls = sc_value_class (&args[0]);
      if (!vcls)
        return sc_raise (S, SC_T_TYPE_ERROR, "issubclass() arg 1 must be a class");
    }
  r = class_check (S, &args[0], vcls, &args[1], sub);
  if (r < 0)
    return FALSE;
  *out = fx_value_bool (r);
  return TRUE;
}

static FxStr *
attr_name (FxScript *S, const FxValue *v)
{
  if (v->kind != FX_VALUE_STR)
    {
      sc_raise (S, SC_T_TYPE_ERROR, "attribute name must be string, not '%s'", sc_type_name (S, v));
      return NULL;
    }
  return sc_intern (v->s->data, v->s->len);
}

static gboolean
builtin_getattr (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxStr *name;
  int got;
  (void) data;
  if (!no_kwargs (S, kwargs, "getattr") || !check_positional (S, "getattr", n, 2, 3))
    return FALSE;
  if (!(name = attr_name (S, &args[1])))
    return FALSE;
  if (n == 2)
    return sc_getattr (S, &args[0], name, out);
  got = sc_getattr_opt (S, &args[0], name, out);
  if (got < 0)
    return FALSE;
  if (got == 0)
    *out = fx_value_copy (&args[2]);
  return TRUE;
}

static gboolean
builtin_hasattr (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxStr *name;
  FxValue v;
  int got;
  (void) data;
  if (!no_kwargs (S, kwargs, "hasattr") || !check_positional (S, "hasattr", n, 2, 2))
    return FALSE;
  if (!(name = attr_name (S, &args[1])))
    return FALSE;
  got = sc_getattr_opt (S, &args[0], name, &v);
  if (got < 0)
    return FALSE;
  if (got > 0)
    fx_value_clear (&v);
  *out = fx_value_bool (got > 0);
  return TRUE;
}

static gboolean
builtin_setattr (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxStr *name;
  (void) data;
  if (!no_kwargs (S, kwargs, "setattr") || !check_positional (S, "setattr", n, 3, 3))
    return FALSE;
  if (!(name = attr_name (S, &args[1])) || !sc_setattr (S, &args[0], name, &args[2]))
    return FALSE;
  *out = fx_value_none ();
  return TRUE;
}

static gboolean
builtin_delattr (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxStr *name;
  (void) data;
  if (!no_kwargs (S, kwargs, "delattr") || !check_positional (S, "delattr", n, 2, 2))
    return FALSE;
  if (!(name = attr_name (S, &args[1])) || !sc_delattr (S, &args[0], name))
    return FALSE;
  *out = fx_value_none ();
  return TRUE;
}

/* ------------------------------------------------------------------ namespaces */

/* locals() of the running frame: the namespace itself for modules and class bodies, a
 * snapshot for functions. */
static FxValue
frame_locals (FxScript *S)
{
  ScFrame *F = S->frame;
  FxDict *d;
  if (!F)
    return fx_value_take_dict (fx_dict_new ());
  if (F->ns)
    return fx_value_take_dict (fx_dict_ref (F->ns));
  if (!F->code || (F->code->flags & SC_CODE_MODULE) || !F->locals)
    return fx_value_take_dict (fx_dict_ref (F->globals));
  d = fx_dict_new ();
  for (int i = 0; i < F->code->n_locals; i++)
    if (!sc_is_unbound (&F->locals[i]))
      fx_dict_set (d, sc_str_value (F->code->local_names[i]), fx_value_copy (&F->locals[i]));
  for (int i = 0; F->cells && i < F->code->n_cellvars + F->code->n_freevars; i++)
    if (F->cells[i] && !sc_is_unbound (&F->cells[i]->value))
      fx_dict_set (d, sc_str_value (F->code->cell_names[i]), fx_value_copy (&F->cells[i]->value));
  return fx_value_take_dict (d);
}

static gboolean
builtin_locals (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  (void) args;
  (void) data;
  if (!no_kwargs (S, kwargs, "locals"))
    return FALSE;
  if (n)
    return sc_raise (S, SC_T_TYPE_ERROR, "locals() takes no arguments (%d given)", n);
  *out = frame_locals (S);
  return TRUE;
}

static gboolean
builtin_globals (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  (void) args;
  (void) data;
  if (!no_kwargs (S, kwargs, "globals"))
    return FALSE;
  if (n)
    return sc_raise (S, SC_T_TYPE_ERROR, "globals() takes no arguments (%d given)", n);
  *out = S->frame && S->frame->globals ? fx_value_take_dict (fx_dict_ref (S->frame->globals))
                                       : fx_value_take_dict (fx_dict_new ());
  return TRUE;
}

static gboolean
builtin_vars (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  (void) data;
  if (!no_kwargs (S, kwargs, "vars") || !check_positional (S, "vars", n, 0, 1))
    return FALSE;
  if (n == 0)
    {
      *out = frame_locals (S);
      return TRUE;
    }
  if (sc_getattr (S, &args[0], sc_n.dict, out))
    return TRUE;
  if (sc_matches (S, SC_T_ATTRIBUTE_ERROR))
    {
      sc_clear_exc (S);
      return sc_raise (S, SC_T_TYPE_ERROR, "vars() argument must have __dict__ attribute");
    }
  return FALSE;
}

static gint
compare_str_items (gconstpointer a, gconstpointer b)
{
  const FxValue *x = a, *y = b;
  if (x->kind != FX_VALUE_STR || y->kind != FX_VALUE_STR)
    return (int) x->kind - (int) y->kind;
  return strcmp (x->s->data, y->s->data);
}

static gboolean
builtin_dir (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxSeq *seq;
  (void) data;
  if (!no_kwargs (S, kwargs, "dir") || !check_positional (S, "dir", n, 0, 1))
    return FALSE;
  if (n == 0)
    {
      FxValue loc = frame_locals (S);
      const FxValue *k;
      seq = fx_seq_new (0);
      for (guint i = 0; fx_dict_entry (loc.dict, i, &k, NULL); i++)
        fx_seq_append (seq, fx_value_copy (k));
      fx_value_clear (&loc);
    }
  else
    {
      FxScriptClass *t = sc_type_of (S, &args[0]);
      FxValue *m = sc_value_class (&args[0]) || (t->flags & SC_CLASS_BUILTIN) ? NULL
                   : sc_type_lookup (S, t, sc_n.dir);
      if (m)
        {
          FxValue r;
          if (sc_call_special (S, &args[0], "__dir__", NULL, 0, &r) < 0)
            return FALSE;
          if (!sc_collect (S, &r, &seq))
            {
              fx_value_clear (&r);
              return FALSE;
            }
          fx_value_clear (&r);
        }
      else if (!sc_dir (S, &args[0], &seq))
        return FALSE;
    }
  seq->type = NULL;
  if (seq->len > 1)
    qsort (seq->items, seq->len, sizeof (FxValue), compare_str_items);
  *out = fx_value_take_list (seq);
  return TRUE;
}

static gboolean
builtin_import (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  static const char *const names[] = { "name", "globals", "locals", "fromlist", "level" };
  const FxValue *a[5];
  FxValue mod;
  gboolean from = FALSE;
  int64_t level = 0;
  (void) data;
  if (!bind_args (S, "__import__", args, n, kwargs, names, 5, 0, 5, 1, a))
    return FALSE;
  if (a[0]->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "__import__() argument 1 must be str, not %s", sc_type_name (S, a[0]));
  if (a[4] && !sc_index (S, a[4], &level))
    return FALSE;
  if (level != 0)
    return sc_raise (S, SC_T_NOT_IMPLEMENTED_ERROR, "relative __import__() is not supported by fx");
  if (a[3] && !sc_truth (S, a[3], &from))
    return FALSE;
  if (!sc_import (S, a[0]->s->data, &mod))
    return FALSE;
  if (!from && strchr (a[0]->s->data, '.'))
    {
      const char *dot = strchr (a[0]->s->data, '.');
      FxValue *top = S->modules ? sc_dict_get_str (S->modules, sc_intern (a[0]->s->data, dot - a[0]->s->data))
                                : NULL;
      if (top)
        {
          fx_value_clear (&mod);
          mod = fx_value_copy (top);
        }
    }
  *out = mod;
  return TRUE;
}

static gboolean
builtin_unsupported (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  (void) args;
  (void) n;
  (void) kwargs;
  (void) out;
  return sc_raise_str (S, SC_T_NOT_IMPLEMENTED_ERROR, data);
}

static gboolean
builtin_exit (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxSeq *t;
  (void) data;
  (void) out;
  if (!no_kwargs (S, kwargs, "exit") || !check_positional (S, "exit", n, 0, 1))
    return FALSE;
  t = fx_seq_new (n);
  if (n)
    t->items[0] = fx_value_copy (&args[0]);
  return sc_raise_args (S, SC_T_SYSTEM_EXIT, fx_value_take_tuple (t));
}

/* Classes of objects fx does not have (bytes, complex, ...): isinstance() against them is
 * simply False, and calling them says what is missing. */
static gboolean
unsupported_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxScriptClass *cls = data;
  (void) args;
  (void) n;
  (void) kwargs;
  (void) out;
  return sc_raise (S, SC_T_NOT_IMPLEMENTED_ERROR, "%s objects are not supported by fx", cls->name->data);
}

static void
add_unsupported_class (FxScript *S, const char *name)
{
  FxScriptClass *cls = sc_builtin_class (S, -1, name, SC_T_OBJECT, 0);
  cls->construct = unsupported_construct;
  sc_dict_set_str (S->builtins, name, sc_class_value (cls));
  fx_object_unref (&cls->base);
}

/* ------------------------------------------------------------------ setup */

FxValue
sc_builtin_lookup (FxScript *S, const char *name)
{
  FxValue *v = S->builtins ? sc_dict_get_str (S->builtins, sc_intern_cstr (name)) : NULL;
  return v ? fx_value_copy (v) : fx_value_none ();
}

/* Adds a method or property to a builtin type unless the type already defines it. */
static void
add_type_native (FxScript *S, int type_id, const char *name, FxScriptFunc func, gpointer data)
{
  FxScriptClass *cls = S->types[type_id];
  if (!cls || sc_dict_get_str (cls->dict, sc_intern_cstr (name)))
    return;
  sc_add_native (cls->dict, cls->name->data, name, SC_NATIVE_METHOD, func, data);
}

static void
add_type_field (FxScript *S, int type_id, const char *name, FxScriptFunc get, gpointer data)
{
  FxScriptClass *cls = S->types[type_id];
  ScProperty *p;
  if (!cls || sc_dict_get_str (cls->dict, sc_intern_cstr (name)))
    return;
  p = g_new0 (ScProperty, 1);
  fx_object_init (&p->base, &sc_property_klass);
  p->fget = sc_native_new (cls->name->data, name, SC_NATIVE_FUNCTION, get, data, NULL);
  p->fset = fx_value_none ();
  p->fdel = fx_value_none ();
  p->doc = fx_value_none ();
  p->name = fx_str_ref (sc_intern_cstr (name));
  sc_dict_set_str (cls->dict, name, fx_value_take_object (&p->base));
}

typedef struct {
  const char *name;
  FxScriptFunc func;
  gpointer data;
} BuiltinEntry;

void
sc_builtins_init (FxScript *S)
{
  static const BuiltinEntry functions[] = {
    { "print", builtin_print, NULL },
    { "len", builtin_len, NULL },
    { "sorted", builtin_sorted, NULL },
    { "min", builtin_min, NULL },
    { "max", builtin_max, NULL },
    { "sum", builtin_sum, NULL },
    { "abs", builtin_abs, NULL },
    { "any", builtin_any_all, GINT_TO_POINTER (0) },
    { "all", builtin_any_all, GINT_TO_POINTER (1) },
    { "isinstance", builtin_isinstance, GINT_TO_POINTER (0) },
    { "issubclass", builtin_isinstance, GINT_TO_POINTER (1) },
    { "getattr", builtin_getattr, NULL },
    { "setattr", builtin_setattr, NULL },
    { "hasattr", builtin_hasattr, NULL },
    { "delattr", builtin_delattr, NULL },
    { "iter", builtin_iter, NULL },
    { "next", builtin_next, NULL },
    { "repr", builtin_repr, NULL },
    { "ascii", builtin_ascii, NULL },
    { "hash", builtin_hash, NULL },
    { "id", builtin_id, NULL },
    { "callable", builtin_callable, NULL },
    { "round", builtin_round, NULL },
    { "divmod", builtin_divmod, NULL },
    { "pow", builtin_pow, NULL },
    { "chr", builtin_chr, NULL },
    { "ord", builtin_ord, NULL },
    { "hex", builtin_hex, NULL },
    { "oct", builtin_oct, NULL },
    { "bin", builtin_bin, NULL },
    { "format", builtin_format, NULL },
    { "vars", builtin_vars, NULL },
    { "dir", builtin_dir, NULL },
    { "globals", builtin_globals, NULL },
    { "locals", builtin_locals, NULL },
    { "__import__", builtin_import, NULL },
    { "exit", builtin_exit, NULL },
    { "quit", builtin_exit, NULL },
    { "input", builtin_unsupported, (gpointer) "input() is not supported by fx: scripts cannot read from stdin" },
    { "open", builtin_unsupported, (gpointer) "open() is not supported by fx: scripts cannot read or write files" },
    { "exec", builtin_unsupported, (gpointer) "exec() is not supported by fx" },
    { "eval", builtin_unsupported, (gpointer) "eval() is not supported by fx" },
    { "compile", builtin_unsupported, (gpointer) "compile() is not supported by fx" },
    { "breakpoint", builtin_unsupported, (gpointer) "breakpoint() is not supported by fx" },
    { "help", builtin_unsupported, (gpointer) "help() is not supported by fx" },
  };
  static const struct { int id; FxScriptFunc construct; } types[] = {
    { SC_T_OBJECT, object_construct }, { SC_T_TYPE, type_construct }, { SC_T_BOOL, bool_construct },
    { SC_T_INT, int_construct }, { SC_T_FLOAT, float_construct }, { SC_T_STR, str_construct },
    { SC_T_TUPLE, tuple_construct }, { SC_T_LIST, list_construct }, { SC_T_DICT, dict_construct },
    { SC_T_SLICE, slice_construct }, { SC_T_RANGE, range_construct }, { SC_T_SET, set_construct },
    { SC_T_FROZENSET, frozenset_construct }, { SC_T_PROPERTY, property_construct },
    { SC_T_STATICMETHOD, wrapper_construct }, { SC_T_CLASSMETHOD, wrapper_construct },
    { SC_T_SUPER, super_construct }, { SC_T_ENUMERATE, enumerate_construct }, { SC_T_ZIP, zip_construct },
    { SC_T_MAP, map_construct }, { SC_T_FILTER, filter_construct },
    { SC_T_REVERSED, reversed_construct },
  };

  if (!S->builtins)
    S->builtins = fx_dict_new ();

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      FxScriptClass *cls = S->types[types[i].id];
      if (!cls)
        continue;
      cls->construct = types[i].construct;
      sc_dict_set_str (S->builtins, cls->name->data, sc_class_value (cls));
    }

  /* exception classes, None/True/False, Ellipsis and NotImplemented are bound by types.c */
  for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
    sc_dict_set_str (S->builtins, functions[i].name,
                     sc_native_new ("builtins", functions[i].name, SC_NATIVE_FUNCTION, functions[i].func,
                                    functions[i].data, NULL));

  add_unsupported_class (S, "bytes");
  add_unsupported_class (S, "bytearray");
  add_unsupported_class (S, "memoryview");
  add_unsupported_class (S, "complex");

  sc_dict_set_str (S->builtins, "__name__", fx_value_str ("builtins"));
  sc_dict_set_str (S->builtins, "__doc__", fx_value_none ());

  /* attributes of the descriptor and sequence types the constructors above make */
  add_type_native (S, SC_T_PROPERTY, "getter", property_with, GINT_TO_POINTER (0));
  add_type_native (S, SC_T_PROPERTY, "setter", property_with, GINT_TO_POINTER (1));
  add_type_native (S, SC_T_PROPERTY, "deleter", property_with, GINT_TO_POINTER (2));
  add_type_native (S, SC_T_PROPERTY, "__get__", property_dunder_get, NULL);
  add_type_native (S, SC_T_PROPERTY, "__set__", property_dunder_set, GINT_TO_POINTER (0));
  add_type_native (S, SC_T_PROPERTY, "__delete__", property_dunder_set, GINT_TO_POINTER (1));
  add_type_field (S, SC_T_PROPERTY, "fget", property_field, GINT_TO_POINTER (0));
  add_type_field (S, SC_T_PROPERTY, "fset", property_field, GINT_TO_POINTER (1));
  add_type_field (S, SC_T_PROPERTY, "fdel", property_field, GINT_TO_POINTER (2));
  add_type_field (S, SC_T_PROPERTY, "__doc__", property_field, GINT_TO_POINTER (3));
  add_type_field (S, SC_T_STATICMETHOD, "__func__", wrapper_func, NULL);
  add_type_field (S, SC_T_CLASSMETHOD, "__func__", wrapper_func, NULL);
  add_type_field (S, SC_T_STATICMETHOD, "__wrapped__", wrapper_func, NULL);
  add_type_field (S, SC_T_CLASSMETHOD, "__wrapped__", wrapper_func, NULL);
  add_type_field (S, SC_T_RANGE, "start", range_field, GINT_TO_POINTER (0));
  add_type_field (S, SC_T_RANGE, "stop", range_field, GINT_TO_POINTER (1));
  add_type_field (S, SC_T_RANGE, "step", range_field, GINT_TO_POINTER (2));
  add_type_native (S, SC_T_SLICE, "indices", slice_indices_method, NULL);
  add_type_field (S, SC_T_OP, "__name__", op_field, GINT_TO_POINTER (0));
  add_type_field (S, SC_T_OP, "__qualname__", op_field, GINT_TO_POINTER (1));
  add_type_field (S, SC_T_OP, "__module__", op_field, GINT_TO_POINTER (2));
  add_type_field (S, SC_T_TYPING, "__args__", typing_field, GINT_TO_POINTER (0));
  add_type_field (S, SC_T_TYPING, "__origin__", typing_field, GINT_TO_POINTER (1));
  add_type_field (S, SC_T_INT, "real", int_field, GINT_TO_POINTER (0));
  add_type_field (S, SC_T_INT, "imag", int_field, GINT_TO_POINTER (1));
  add_type_field (S, SC_T_INT, "numerator", int_field, GINT_TO_POINTER (2));
  add_type_field (S, SC_T_INT, "denominator", int_field, GINT_TO_POINTER (3));
  add_type_native (S, SC_T_INT, "conjugate", int_conjugate, NULL);
  add_type_native (S, SC_T_INT, "bit_length", int_bit_length, NULL);
  add_type_field (S, SC_T_FLOAT, "real", float_field, GINT_TO_POINTER (0));
  add_type_field (S, SC_T_FLOAT, "imag", float_field, GINT_TO_POINTER (1));
  add_type_native (S, SC_T_FLOAT, "conjugate", float_conjugate, NULL);
  add_type_native (S, SC_T_FLOAT, "is_integer", float_is_integer, NULL);
  add_type_native (S, SC_T_FLOAT, "hex", float_hex, NULL);
  add_type_field (S, SC_T_SLICE, "start", slice_field, GINT_TO_POINTER (0));
  add_type_field (S, SC_T_SLICE, "stop", slice_field, GINT_TO_POINTER (1));
  add_type_field (S, SC_T_SLICE, "step", slice_field, GINT_TO_POINTER (2));
}
