/* strings.c: the methods of str, printf-style `%` formatting, str.format() and the format
 * mini-language of format()/f-strings for int, float, str and bool, with CPython 3.11's
 * results and error messages; also the method-table dispatcher shared with containers.c. */
#define _GNU_SOURCE               /* memmem */
#include "script/internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ method tables */

static gboolean
self_matches (ScSelfKind kind, const FxValue *v)
{
  switch (kind)
    {
    case SC_SELF_STR: return v->kind == FX_VALUE_STR;
    case SC_SELF_LIST: return v->kind == FX_VALUE_LIST;
    case SC_SELF_TUPLE: return v->kind == FX_VALUE_TUPLE;
    case SC_SELF_DICT: return v->kind == FX_VALUE_DICT;
    case SC_SELF_SET: return sc_is_klass (v, &sc_set_klass);
    case SC_SELF_ANYSET: return sc_is_klass (v, &sc_set_klass) || sc_is_klass (v, &sc_frozenset_klass);
    case SC_SELF_ANY: default: return TRUE;
    }
}

static const char *
plural (int n)
{
  return n == 1 ? "" : "s";
}

static gboolean
method_dispatch (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *out,
                 gpointer data)
{
  const ScMethodDef *d = data;
  const FxValue *self = NULL;
  FxDict *mapping = NULL;   /* dict's methods on a mapping object: the dict it holds */
  int n_kw = kwargs ? (int) fx_dict_len (kwargs) : 0;

  if (d->kind != SC_NATIVE_STATIC)
    {
      if (n_args < 1)
        return sc_raise (S, SC_T_TYPE_ERROR, "unbound method %s.%s() needs an argument",
                         d->owner, d->name);
      self = args;
      args++;
      n_args--;
      if (d->kind == SC_NATIVE_METHOD && !self_matches (d->self, self)
          && !(d->self == SC_SELF_DICT && (mapping = sc_mapping_dict (S, self)) != NULL))
        return sc_raise (S, SC_T_TYPE_ERROR,
                         "descriptor '%s' for '%s' objects doesn't apply to a '%s' object",
                         d->name, d->owner, sc_type_name (S, self));
    }
  if (d->style != SC_ARGS_KW && n_kw > 0)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s.%s() takes no keyword arguments", d->owner, d->name);
  switch (d->style)
    {
    case SC_ARGS_NOARGS:
      if (n_args != 0)
        return sc_raise (S, SC_T_TYPE_ERROR, "%s.%s() takes no arguments (%d given)", d->owner,
                         d->name, n_args);
      break;
    case SC_ARGS_ONE:
      if (n_args != 1)
        return sc_raise (S, SC_T_TYPE_ERROR, "%s.%s() takes exactly one argument (%d given)",
                         d->owner, d->name, n_args);
      break;
    case SC_ARGS_RANGE:
      if (n_args < d->min_args || n_args > d->max_args)
        {
          if (d->min_args == d->max_args)
            return sc_raise (S, SC_T_TYPE_ERROR, "%s expected %d argument%s, got %d", d->name,
                             d->min_args, plural (d->min_args), n_args);
          if (n_args < d->min_args)
            return sc_raise (S, SC_T_TYPE_ERROR, "%s expected at least %d argument%s, got %d",
                             d->name, d->min_args, plural (d->min_args), n_args);
          return sc_raise (S, SC_T_TYPE_ERROR, "%s expected at most %d argument%s, got %d",
                           d->name, d->max_args, plural (d->max_args), n_args);
        }
      break;
    case SC_ARGS_OLD:
      if (n_args < d->min_args)
        return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes at least %d argument%s (%d given)",
                         d->name, d->min_args, plural (d->min_args), n_args);
      if (n_args > d->max_args)
        return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes at most %d argument%s (%d given)",
                         d->name, d->max_args, plural (d->max_args), n_args);
      break;
    case SC_ARGS_KW:
      break;
    }
  if (mapping == NULL)
    return d->impl (S, self, args, n_args, kwargs, out);
  FxValue as_dict = fx_value_take_dict (fx_dict_ref (mapping));
  gboolean ok = d->impl (S, &as_dict, args, n_args, kwargs, out);
  fx_value_clear (&as_dict);
  return ok;
}

void
sc_add_methods (FxScriptClass *cls, const ScMethodDef *defs, int n)
{
  for (int i = 0; i < n; i++)
    sc_dict_set_str (cls->dict, defs[i].name,
                     sc_native_new (defs[i].owner, defs[i].name, defs[i].kind, method_dispatch,
                                    (gpointer) &defs[i], NULL));
}

gboolean
sc_bind_args (FxScript *S, const char *fname, const FxValue *args, int n_args, FxDict *kwargs,
              const char *const *names, int n_names, int n_positional, const FxValue **out)
{
  const FxValue *k, *v;
  for (int i = 0; i < n_names; i++)
    out[i] = NULL;
  if (n_args > n_positional)
    {
      if (n_positional == 0)
        return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes no positional arguments", fname);
      return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes at most %d argument%s (%d given)", fname,
                       n_positional, plural (n_positional), n_args + (kwargs ? (int) fx_dict_len (kwargs) : 0));
    }
  for (int i = 0; i < n_args; i++)
    out[i] = &args[i];
  for (guint i = 0; kwargs && fx_dict_entry (kwargs, i, &k, &v); i++)
    {
      int j;
      for (j = 0; j < n_names; j++)
        if (k->kind == FX_VALUE_STR && strcmp (k->s->data, names[j]) == 0)
          break;
      if (j == n_names)
        return sc_raise (S, SC_T_TYPE_ERROR, "'%s' is an invalid keyword argument for %s()",
                         k->kind == FX_VALUE_STR ? k->s->data : "?", fname);
      if (out[j])
        return sc_raise (S, SC_T_TYPE_ERROR, "argument for %s() given by name ('%s') and position (%d)",
                         fname, names[j], j + 1);
      out[j] = v;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ UTF-8 helpers */

static FxValue
take_gstring (GString *g)
{
  FxValue v = fx_value_take_str (fx_str_new_len (g->str, g->len));
  g_string_free (g, TRUE);
  return v;
}

static FxValue
str_from (const char *p, gsize n)
{
  return fx_value_take_str (fx_str_new_len (p, n));
}

static gboolean
bytes_ascii (const char *p, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if ((guchar) p[i] >= 0x80)
      return FALSE;
  return TRUE;
}

static int64_t
cp_count (const char *p, gsize n)
{
  int64_t c = 0;
  for (gsize i = 0; i < n; i++)
    if (((guchar) p[i] & 0xC0) != 0x80)
      c++;
  return c;
}

/* Byte offset of code point cp (0 <= cp <= length) in s. */
static gsize
cp_to_byte (const FxStr *s, gboolean ascii, int64_t cp)
{
  gsize b = 0;
  if (ascii)
    return (gsize) cp;
  while (cp > 0 && b < s->len)
    {
      b++;
      while (b < s->len && ((guchar) s->data[b] & 0xC0) == 0x80)
        b++;
      cp--;
    }
  return b;
}

static gunichar
next_char (const char **p)
{
  gunichar c = g_utf8_get_char (*p);
  *p = g_utf8_next_char (*p);
  return c;
}

static void
append_unichar (GString *g, gunichar c)
{
  if (c < 0x80)
    g_string_append_c (g, (char) c);
  else
    g_string_append_unichar (g, c);
}

static void
append_repeat (GString *g, const char *fill, gsize fill_len, int64_t n)
{
  for (int64_t i = 0; i < n; i++)
    g_string_append_len (g, fill, fill_len);
}

/* Python's str.isspace() characters (also split()'s and strip()'s default). */
static gboolean
py_isspace (gunichar c)
{
  if (c < 128)
    return (c >= 9 && c <= 13) || (c >= 28 && c <= 32);
  return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028
         || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

static gboolean
py_islinebreak (gunichar c)
{
  return c == '\n' || c == '\r' || c == 0x0B || c == 0x0C || c == 0x1C || c == 0x1D || c == 0x1E
         || c == 0x85 || c == 0x2028 || c == 0x2029;
}

static gboolean
py_isdecimal (gunichar c)
{
  return c < 128 ? (c >= '0' && c <= '9') : g_unichar_type (c) == G_UNICODE_DECIMAL_NUMBER;
}

static gboolean
py_isdigit (gunichar c)
{
  if (py_isdecimal (c))
    return TRUE;
  return c == 0xB2 || c == 0xB3 || c == 0xB9 || c == 0x2070 || (c >= 0x2074 && c <= 0x2079)
         || (c >= 0x2080 && c <= 0x2089) || (c >= 0x2460 && c <= 0x2468)
         || (c >= 0x2474 && c <= 0x247C) || (c >= 0x2488 && c <= 0x2490) || c == 0x24EA
         || (c >= 0x24F5 && c <= 0x24FD) || c == 0x24FF || (c >= 0x2776 && c <= 0x277E)
         || (c >= 0x2780 && c <= 0x2788) || (c >= 0x278A && c <= 0x2792)
         || (c >= 0x1369 && c <= 0x1371);
}

static gboolean
py_isnumeric (gunichar c)
{
  GUnicodeType t;
  if (c < 128)
    return c >= '0' && c <= '9';
  t = g_unichar_type (c);
  if (t == G_UNICODE_DECIMAL_NUMBER || t == G_UNICODE_LETTER_NUMBER || t == G_UNICODE_OTHER_NUMBER)
    return TRUE;
  return (c == 0x3007 || c == 0x4E00 || c == 0x4E8C || c == 0x4E09 || c == 0x56DB
                            || c == 0x4E94 || c == 0x516D || c == 0x4E03 || c == 0x516B
                            || c == 0x4E5D || c == 0x5341 || c == 0x767E || c == 0x5343
                            || c == 0x4E07 || c == 0x5104 || c == 0x5146 || c == 0x96F6);
}

static gboolean
py_isalpha (gunichar c)
{
  if (c < 128)
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  return g_unichar_isalpha (c);
}

static gboolean
py_iscased (gunichar c)
{
  return g_unichar_isupper (c) || g_unichar_islower (c) || g_unichar_istitle (c);
}

static gboolean
py_isprintable (gunichar c)
{
  if (c < 128)
    return c >= 32 && c < 127;
  switch (g_unichar_type (c))
    {
    case G_UNICODE_CONTROL: case G_UNICODE_FORMAT: case G_UNICODE_UNASSIGNED:
    case G_UNICODE_PRIVATE_USE: case G_UNICODE_SURROGATE: case G_UNICODE_LINE_SEPARATOR:
    case G_UNICODE_PARAGRAPH_SEPARATOR: case G_UNICODE_SPACE_SEPARATOR:
      return FALSE;
    default:
      return TRUE;
    }
}

static gboolean
py_isid_start (gunichar c)
{
  if (c < 128)
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  return g_unichar_isalpha (c) || g_unichar_type (c) == G_UNICODE_LETTER_NUMBER;
}

static gboolean
py_isid_continue (gunichar c)
{
  GUnicodeType t;
  if (c < 128)
    return py_isid_start (c) || (c >= '0' && c <= '9');
  if (py_isid_start (c))
    return TRUE;
  if (c == 0xB7 || c == 0x387 || c == 0x19DA || (c >= 0x1369 && c <= 0x1371))
    return TRUE;
  t = g_unichar_type (c);
  return t == G_UNICODE_DECIMAL_NUMBER || t == G_UNICODE_NON_SPACING_MARK
         || t == G_UNICODE_SPACING_MARK || t == G_UNICODE_CONNECT_PUNCTUATION;
}

/* Case mapping of one character with the full (possibly multi-character) mapping. */
static void
append_case (GString *g, gunichar c, int which)   /* 'u' upper, 'l' lower, 't' title */
{
  char buf[8];
  int n;
  if (c < 128)
    {
      if (which == 'l')
        g_string_append_c (g, g_ascii_tolower ((char) c));
      else
        g_string_append_c (g, g_ascii_toupper ((char) c));
      return;
    }
  if (which == 't')
    {
      gunichar t = g_unichar_totitle (c);
      if (t == c && g_unichar_islower (c))
        {
          /* no single-character title case ('ß', 'ﬁ'): the full upper case mapping's first
           * character, then the rest lowered ('Ss', 'Fi') */
          char *up;
          const char *q;
          n = g_unichar_to_utf8 (c, buf);
          up = g_utf8_strup (buf, n);
          q = g_utf8_next_char (up);
          g_string_append_len (g, up, q - up);
          if (*q)
            {
              char *rest = g_utf8_strdown (q, -1);
              g_string_append (g, rest);
              g_free (rest);
            }
          g_free (up);
          return;
        }
      append_unichar (g, t);
      return;
    }
  n = g_unichar_to_utf8 (c, buf);
  {
    char *m = which == 'u' ? g_utf8_strup (buf, n) : g_utf8_strdown (buf, n);
    g_string_append (g, m);
    g_free (m);
  }
}

/* ------------------------------------------------------------------ argument helpers */

static gboolean
need_str (FxScript *S, const FxValue *v, const char *what)
{
  if (v->kind == FX_VALUE_STR)
    return TRUE;
  if (what)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s must be str, not %s", what, sc_type_name (S, v));
  return sc_raise (S, SC_T_TYPE_ERROR, "must be str, not %s", sc_type_name (S, v));
}

/* start/end arguments of find(), count(), startswith(), ...: None or an index. */
static gboolean
slice_index (FxScript *S, const FxValue *v, int64_t *out)
{
  if (v == NULL || v->kind == FX_VALUE_NONE)
    return TRUE;
  if (v->kind == FX_VALUE_INT || v->kind == FX_VALUE_BOOL || sc_special_lookup (S, v, "__index__"))
    return sc_index (S, v, out);
  return sc_raise (S, SC_T_TYPE_ERROR, "slice indices must be integers or None or have an __index__ method");
}

/* CPython's ADJUST_INDICES */
static void
adjust_indices (int64_t *start, int64_t *end, int64_t len)
{
  if (*end > len)
    *end = len;
  else if (*end < 0)
    {
      *end += len;
      if (*end < 0)
        *end = 0;
    }
  if (*start < 0)
    {
      *start += len;
      if (*start < 0)
        *start = 0;
    }
}

/* A substring search range over self: code points [start, end) and the matching bytes. */
typedef struct {
  gboolean ascii;
  int64_t len, start, end;       /* code points */
  gsize bstart, bend;            /* bytes */
} Range;

static gboolean
get_range (FxScript *S, const FxStr *s, const FxValue *a_start, const FxValue *a_end, Range *r)
{
  r->ascii = bytes_ascii (s->data, s->len);
  r->len = r->ascii ? (int64_t) s->len : cp_count (s->data, s->len);
  r->start = 0;
  r->end = G_MAXINT64;
  if (!slice_index (S, a_start, &r->start) || !slice_index (S, a_end, &r->end))
    return FALSE;
  adjust_indices (&r->start, &r->end, r->len);
  r->bstart = r->start <= r->len ? cp_to_byte (s, r->ascii, r->start) : s->len;
  r->bend = r->end > r->start ? cp_to_byte (s, r->ascii, r->end) : r->bstart;
  return TRUE;
}

static int64_t
to_cp (const FxStr *s, const Range *r, gsize byte)
{
  return r->ascii ? (int64_t) byte : cp_count (s->data, byte);
}

static const char *
find_bytes (const char *hay, gsize hn, const char *needle, gsize nn)
{
  if (nn == 0)
    return hay;
  if (nn > hn)
    return NULL;
  if (nn == 1)
    return memchr (hay, needle[0], hn);
  return memmem (hay, hn, needle, nn);
}

static const char *
rfind_bytes (const char *hay, gsize hn, const char *needle, gsize nn)
{
  if (nn > hn)
    return NULL;
  if (nn == 0)
    return hay + hn;
  for (gsize i = hn - nn + 1; i-- > 0;)
    if (hay[i] == needle[0] && memcmp (hay + i, needle, nn) == 0)
      return hay + i;
  return NULL;
}

static gboolean
int_arg (FxScript *S, const FxValue *v, int64_t *out)
{
  return sc_index (S, v, out);
}

/* ------------------------------------------------------------------ join */

static gboolean
join_not_iterable (FxScript *S, const FxValue *iterable)
{
  if (sc_matches (S, SC_T_TYPE_ERROR)
      && !(sc_value_instance (iterable) && (sc_special_lookup (S, iterable, "__iter__")
                                            || sc_special_lookup (S, iterable, "__getitem__"))))
    {
      sc_clear_exc (S);
      return sc_raise (S, SC_T_TYPE_ERROR, "can only join an iterable");
    }
  return FALSE;
}

static gboolean
join_item_error (FxScript *S, gsize i, const FxValue *item)
{
  return sc_raise (S, SC_T_TYPE_ERROR, "sequence item %" G_GSIZE_FORMAT ": expected str instance, %s found",
                   i, sc_type_name (S, item));
}

gboolean
sc_str_join (FxScript *S, FxStr *sep, const FxValue *iterable, FxValue *out)
{
  GString *g;
  if (iterable->kind == FX_VALUE_LIST || iterable->kind == FX_VALUE_TUPLE)
    {
      const FxSeq *seq = iterable->seq;
      gsize total = 0;
      if (seq->len == 1 && seq->items[0].kind == FX_VALUE_STR)
        {
          *out = fx_value_copy (&seq->items[0]);
          return TRUE;
        }
      for (guint i = 0; i < seq->len; i++)
        {
          if (seq->items[i].kind != FX_VALUE_STR)
            return join_item_error (S, i, &seq->items[i]);
          total += seq->items[i].s->len + (i ? sep->len : 0);
        }
      g = g_string_sized_new (total + 1);
      for (guint i = 0; i < seq->len; i++)
        {
          if (i)
            g_string_append_len (g, sep->data, sep->len);
          g_string_append_len (g, seq->items[i].s->data, seq->items[i].s->len);
        }
      *out = take_gstring (g);
      return TRUE;
    }
  {
    ScIter it;
    FxValue item;
    gsize i = 0;
    int r;
    if (!sc_iter_init (S, iterable, &it))
      return join_not_iterable (S, iterable);
    g = g_string_new (NULL);
    while ((r = sc_iter_next (S, &it, &item)) == 1)
      {
        if (item.kind != FX_VALUE_STR)
          {
            join_item_error (S, i, &item);
            fx_value_clear (&item);
            r = -1;
            break;
          }
        if (i)
          g_string_append_len (g, sep->data, sep->len);
        g_string_append_len (g, item.s->data, item.s->len);
        fx_value_clear (&item);
        i++;
      }
    sc_iter_clear (&it);
    if (r < 0)
      {
        g_string_free (g, TRUE);
        return FALSE;
      }
    *out = take_gstring (g);
    return TRUE;
  }
}

static gboolean
m_join (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return sc_str_join (S, self->s, &a[0], out);
}

/* ------------------------------------------------------------------ split family */

static gboolean
split_args (FxScript *S, const char *fname, const FxValue *a, int n, FxDict *kw,
            const FxValue **sep, int64_t *maxsplit)
{
  static const char *const names[] = { "sep", "maxsplit" };
  const FxValue *got[2];
  if (!sc_bind_args (S, fname, a, n, kw, names, 2, 2, got))
    return FALSE;
  *sep = got[0] && got[0]->kind != FX_VALUE_NONE ? got[0] : NULL;
  *maxsplit = -1;
  if (*sep && (*sep)->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "must be str or None, not %s", sc_type_name (S, *sep));
  if (*sep && (*sep)->s->len == 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "empty separator");
  if (got[1] && !int_arg (S, got[1], maxsplit))
    return FALSE;
  if (*maxsplit < 0)
    *maxsplit = G_MAXINT64;
  return TRUE;
}

static void
list_add (FxSeq *l, const char *p, gsize n)
{
  fx_seq_append (l, str_from (p, n));
}

static gboolean
m_split (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  const FxValue *sep;
  int64_t maxsplit;
  const char *s = self->s->data, *end = s + self->s->len;
  FxSeq *l;
  if (!split_args (S, "split", a, n, kw, &sep, &maxsplit))
    return FALSE;
  l = fx_seq_new (0);
  if (sep == NULL)
    {
      const char *p = s;
      for (;;)
        {
          const char *q;
          /* skip whitespace */
          while (p < end)
            {
              const char *t = p;
              if (!py_isspace (next_char (&t)))
                break;
              p = t;
            }
          if (p >= end)
            break;
          if (maxsplit-- == 0)
            {
              list_add (l, p, end - p);
              break;
            }
          q = p;
          while (q < end)
            {
              const char *t = q;
              if (py_isspace (next_char (&t)))
                break;
              q = t;
            }
          list_add (l, p, q - p);
          p = q;
        }
    }
  else
    {
      const char *p = s, *hit;
      gsize sl = sep->s->len;
      while (maxsplit-- > 0 && (hit = find_bytes (p, end - p, sep->s->data, sl)) != NULL)
        {
          list_add (l, p, hit - p);
          p = hit + sl;
        }
      list_add (l, p, end - p);
    }
  *out = fx_value_take_list (l);
  return TRUE;
}

static void
seq_reverse (FxSeq *l)
{
  for (guint i = 0, j = l->len ? l->len - 1 : 0; i < j; i++, j--)
    {
      FxValue t = l->items[i];
      l->items[i] = l->items[j];
      l->items[j] = t;
    }
}

static const char *
prev_char_start (const char *begin, const char *p)
{
  do
    p--;
  while (p > begin && ((guchar) *p & 0xC0) == 0x80);
  return p;
}

static gboolean
m_rsplit (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  const FxValue *sep;
  int64_t maxsplit;
  const char *s = self->s->data, *end = s + self->s->len;
  FxSeq *l;
  if (!split_args (S, "rsplit", a, n, kw, &sep, &maxsplit))
    return FALSE;
  l = fx_seq_new (0);
  if (sep == NULL)
    {
      const char *p = end;
      for (;;)
        {
          const char *q;
          while (p > s)
            {
              const char *t = prev_char_start (s, p);
              if (!py_isspace (g_utf8_get_char (t)))
                break;
              p = t;
            }
          if (p <= s)
            break;
          if (maxsplit-- == 0)
            {
              list_add (l, s, p - s);
              break;
            }
          q = p;
          while (q > s)
            {
              const char *t = prev_char_start (s, q);
              if (py_isspace (g_utf8_get_char (t)))
                break;
              q = t;
            }
          list_add (l, q, p - q);
          p = q;
        }
    }
  else
    {
      const char *p = end, *hit;
      gsize sl = sep->s->len;
      while (maxsplit-- > 0 && (hit = rfind_bytes (s, p - s, sep->s->data, sl)) != NULL)
        {
          list_add (l, hit + sl, p - (hit + sl));
          p = hit;
        }
      list_add (l, s, p - s);
    }
  seq_reverse (l);
  *out = fx_value_take_list (l);
  return TRUE;
}

static gboolean
m_splitlines (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  static const char *const names[] = { "keepends" };
  const FxValue *got[1];
  gboolean keepends = FALSE;
  const char *s = self->s->data, *end = s + self->s->len, *p = s, *line = s;
  FxSeq *l;
  if (!sc_bind_args (S, "splitlines", a, n, kw, names, 1, 1, got))
    return FALSE;
  if (got[0])
    {
      int64_t k;
      if (!int_arg (S, got[0], &k))
        return FALSE;
      keepends = k != 0;
    }
  l = fx_seq_new (0);
  while (p < end)
    {
      const char *t = p;
      gunichar c = next_char (&t);
      if (py_islinebreak (c))
        {
          const char *eol = p;
          if (c == '\r' && t < end && *t == '\n')
            t++;
          list_add (l, line, (keepends ? t : eol) - line);
          line = t;
        }
      p = t;
    }
  if (line < end)
    list_add (l, line, end - line);
  *out = fx_value_take_list (l);
  return TRUE;
}

static gboolean
partition_impl (FxScript *S, const FxValue *self, const FxValue *sepv, gboolean right, FxValue *out)
{
  const FxStr *s = self->s;
  const char *hit;
  FxSeq *t;
  if (!need_str (S, sepv, NULL))
    return FALSE;
  if (sepv->s->len == 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "empty separator");
  hit = right ? rfind_bytes (s->data, s->len, sepv->s->data, sepv->s->len)
              : find_bytes (s->data, s->len, sepv->s->data, sepv->s->len);
  t = fx_seq_new (3);
  if (hit == NULL)
    {
      FxValue empty = fx_value_str ("");
      t->items[right ? 2 : 0] = fx_value_copy (self);
      t->items[1] = fx_value_copy (&empty);
      t->items[right ? 0 : 2] = empty;
    }
  else
    {
      gsize at = hit - s->data;
      t->items[0] = str_from (s->data, at);
      t->items[1] = fx_value_copy (sepv);
      t->items[2] = str_from (hit + sepv->s->len, s->len - at - sepv->s->len);
    }
  *out = fx_value_take_tuple (t);
  return TRUE;
}

static gboolean
m_partition (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return partition_impl (S, self, &a[0], FALSE, out);
}

static gboolean
m_rpartition (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return partition_impl (S, self, &a[0], TRUE, out);
}

/* ------------------------------------------------------------------ strip */

static gboolean
in_chars (gunichar c, const FxStr *chars)
{
  const char *p, *end;
  if (chars == NULL)
    return py_isspace (c);
  if (c < 128)
    return memchr (chars->data, (int) c, chars->len) != NULL;
  for (p = chars->data, end = p + chars->len; p < end;)
    if (next_char (&p) == c)
      return TRUE;
  return FALSE;
}

static gboolean
strip_impl (FxScript *S, const char *name, const FxValue *self, const FxValue *a, int n,
            gboolean left, gboolean right, FxValue *out)
{
  const FxStr *chars = NULL;
  const char *s = self->s->data, *b = s, *e = s + self->s->len;
  if (n > 0 && a[0].kind != FX_VALUE_NONE)
    {
      if (a[0].kind != FX_VALUE_STR)
        return sc_raise (S, SC_T_TYPE_ERROR, "%s arg must be None or str", name);
      chars = a[0].s;
    }
  if (left)
    while (b < e)
      {
        const char *t = b;
        if (!in_chars (next_char (&t), chars))
          break;
        b = t;
      }
  if (right)
    while (e > b)
      {
        const char *t = prev_char_start (b, e);
        if (!in_chars (g_utf8_get_char (t), chars))
          break;
        e = t;
      }
  if (b == s && e == s + self->s->len)
    *out = fx_value_copy (self);
  else
    *out = str_from (b, e - b);
  return TRUE;
}

static gboolean
m_strip (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return strip_impl (S, "strip", self, a, n, TRUE, TRUE, out);
}

static gboolean
m_lstrip (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return strip_impl (S, "lstrip", self, a, n, TRUE, FALSE, out);
}

static gboolean
m_rstrip (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return strip_impl (S, "rstrip", self, a, n, FALSE, TRUE, out);
}

static gboolean
m_removeprefix (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  const FxStr *s = self->s, *p;
  if (a[0].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "removeprefix() argument must be str, not %s", sc_type_name (S, &a[0]));
  p = a[0].s;
  if (p->len <= s->len && memcmp (s->data, p->data, p->len) == 0)
    *out = str_from (s->data + p->len, s->len - p->len);
  else
    *out = fx_value_copy (self);
  return TRUE;
}

static gboolean
m_removesuffix (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  const FxStr *s = self->s, *p;
  if (a[0].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "removesuffix() argument must be str, not %s", sc_type_name (S, &a[0]));
  p = a[0].s;
  if (p->len > 0 && p->len <= s->len && memcmp (s->data + s->len - p->len, p->data, p->len) == 0)
    *out = str_from (s->data, s->len - p->len);
  else
    *out = fx_value_copy (self);
  return TRUE;
}

/* ------------------------------------------------------------------ searching */

static gboolean
tailmatch (const FxStr *s, const Range *r, const FxStr *sub, gboolean at_end)
{
  gsize n = sub->len;
  if (r->start > r->len)
    return FALSE;
  if (r->end - r->start < (r->ascii ? (int64_t) n : cp_count (sub->data, n)))
    return FALSE;
  if (n > r->bend - r->bstart)
    return FALSE;
  if (at_end)
    return memcmp (s->data + r->bend - n, sub->data, n) == 0;
  return memcmp (s->data + r->bstart, sub->data, n) == 0;
}

static gboolean
startsends (FxScript *S, const char *name, const FxValue *self, const FxValue *a, int n,
            gboolean at_end, FxValue *out)
{
  Range r;
  if (!get_range (S, self->s, n > 1 ? &a[1] : NULL, n > 2 ? &a[2] : NULL, &r))
    return FALSE;
  if (a[0].kind == FX_VALUE_TUPLE)
    {
      for (guint i = 0; i < a[0].seq->len; i++)
        {
          const FxValue *x = &a[0].seq->items[i];
          if (x->kind != FX_VALUE_STR)
            return sc_raise (S, SC_T_TYPE_ERROR, "tuple for %s must only contain str, not %s", name,
                             sc_type_name (S, x));
          if (tailmatch (self->s, &r, x->s, at_end))
            {
              *out = fx_value_bool (TRUE);
              return TRUE;
            }
        }
      *out = fx_value_bool (FALSE);
      return TRUE;
    }
  if (a[0].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s first arg must be str or a tuple of str, not %s", name,
                     sc_type_name (S, &a[0]));
  *out = fx_value_bool (tailmatch (self->s, &r, a[0].s, at_end));
  return TRUE;
}

static gboolean
m_startswith (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return startsends (S, "startswith", self, a, n, FALSE, out);
}

static gboolean
m_endswith (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return startsends (S, "endswith", self, a, n, TRUE, out);
}

/* find/rfind/index/rindex: the code point position or -1 */
static gboolean
find_impl (FxScript *S, const FxValue *self, const FxValue *a, int n, gboolean right, int64_t *pos)
{
  Range r;
  const char *hit;
  const FxStr *s = self->s;
  if (!need_str (S, &a[0], NULL))
    return FALSE;
  if (!get_range (S, s, n > 1 ? &a[1] : NULL, n > 2 ? &a[2] : NULL, &r))
    return FALSE;
  *pos = -1;
  if (r.start > r.len || r.end < r.start)
    return TRUE;
  hit = right ? rfind_bytes (s->data + r.bstart, r.bend - r.bstart, a[0].s->data, a[0].s->len)
              : find_bytes (s->data + r.bstart, r.bend - r.bstart, a[0].s->data, a[0].s->len);
  if (hit)
    *pos = to_cp (s, &r, hit - s->data);
  return TRUE;
}

static gboolean
m_find (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  int64_t pos;
  if (!find_impl (S, self, a, n, FALSE, &pos))
    return FALSE;
  *out = fx_value_int (pos);
  return TRUE;
}

static gboolean
m_rfind (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  int64_t pos;
  if (!find_impl (S, self, a, n, TRUE, &pos))
    return FALSE;
  *out = fx_value_int (pos);
  return TRUE;
}

static gboolean
m_index (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  int64_t pos;
  if (!find_impl (S, self, a, n, FALSE, &pos))
    return FALSE;
  if (pos < 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "substring not found");
  *out = fx_value_int (pos);
  return TRUE;
}

static gboolean
m_rindex (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  int64_t pos;
  if (!find_impl (S, self, a, n, TRUE, &pos))
    return FALSE;
  if (pos < 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "substring not found");
  *out = fx_value_int (pos);
  return TRUE;
}

static gboolean
m_count (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  Range r;
  const FxStr *s = self->s, *sub;
  int64_t count = 0;
  if (!need_str (S, &a[0], NULL))
    return FALSE;
  sub = a[0].s;
  if (!get_range (S, s, n > 1 ? &a[1] : NULL, n > 2 ? &a[2] : NULL, &r))
    return FALSE;
  if (r.start > r.len || r.end < r.start)
    count = 0;
  else if (sub->len == 0)
    count = r.end - r.start + 1;
  else
    {
      const char *p = s->data + r.bstart, *end = s->data + r.bend, *hit;
      while ((hit = find_bytes (p, end - p, sub->data, sub->len)) != NULL)
        {
          count++;
          p = hit + sub->len;
        }
    }
  *out = fx_value_int (count);
  return TRUE;
}

static gboolean
m_replace (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  const FxStr *s = self->s, *old, *new_;
  int64_t count = -1;
  GString *g;
  for (int i = 0; i < 2; i++)
    if (a[i].kind != FX_VALUE_STR)
      return sc_raise (S, SC_T_TYPE_ERROR, "replace() argument %d must be str, not %s", i + 1,
                       sc_type_name (S, &a[i]));
  if (n > 2 && !int_arg (S, &a[2], &count))
    return FALSE;
  old = a[0].s;
  new_ = a[1].s;
  if (count < 0)
    count = G_MAXINT64;
  g = g_string_sized_new (s->len + 1);
  if (old->len == 0)
    {
      const char *p = s->data, *end = p + s->len;
      while (count > 0)
        {
          g_string_append_len (g, new_->data, new_->len);
          count--;
          if (p >= end)
            break;
          {
            const char *t = g_utf8_next_char (p);
            g_string_append_len (g, p, t - p);
            p = t;
          }
        }
      g_string_append_len (g, p, end - p);
    }
  else
    {
      const char *p = s->data, *end = p + s->len, *hit;
      while (count > 0 && (hit = find_bytes (p, end - p, old->data, old->len)) != NULL)
        {
          g_string_append_len (g, p, hit - p);
          g_string_append_len (g, new_->data, new_->len);
          p = hit + old->len;
          count--;
        }
      g_string_append_len (g, p, end - p);
    }
  *out = take_gstring (g);
  return TRUE;
}

/* ------------------------------------------------------------------ case */

static gboolean
case_ignorable (gunichar c)
{
  switch (g_unichar_type (c))
    {
    case G_UNICODE_NON_SPACING_MARK: case G_UNICODE_ENCLOSING_MARK: case G_UNICODE_FORMAT:
    case G_UNICODE_MODIFIER_LETTER: case G_UNICODE_MODIFIER_SYMBOL:
      return TRUE;
    default:
      return c == '\'' || c == '.' || c == ':' || c == '^' || c == '`' || c == 0xB7 || c == 0x2019;
    }
}

/* Python's Final_Sigma rule for the capital sigma at `at`: a cased letter before it and none
 * after it (case-ignorable characters skipped). */
static gboolean
final_sigma (const char *begin, const char *at, const char *end)
{
  const char *p = at;
  gboolean before = FALSE;
  while (p > begin)
    {
      gunichar c;
      p = prev_char_start (begin, p);
      c = g_utf8_get_char (p);
      if (!case_ignorable (c))
        {
          before = py_iscased (c);
          break;
        }
    }
  if (!before)
    return FALSE;
  p = g_utf8_next_char (at);
  while (p < end)
    {
      gunichar c = next_char (&p);
      if (!case_ignorable (c))
        return !py_iscased (c);
    }
  return TRUE;
}

static gboolean
case_map (const FxValue *self, int mode, FxValue *out)   /* 'u', 'l', 's' swap, 'f' fold */
{
  const FxStr *s = self->s;
  GString *g;
  const char *p = s->data, *end = p + s->len;
  g = g_string_sized_new (s->len + 1);
  while (p < end)
    {
      const char *at = p;
      gunichar c = next_char (&p);
      switch (mode)
        {
        case 'u': append_case (g, c, 'u'); break;
        case 'l':
          if (c == 0x3A3)
            append_unichar (g, final_sigma (s->data, at, end) ? 0x3C2 : 0x3C3);
          else
            append_case (g, c, 'l');
          break;
        case 's':
          if (g_unichar_isupper (c))
            append_case (g, c, 'l');
          else if (g_unichar_islower (c))
            append_case (g, c, 'u');
          else
            append_unichar (g, c);
          break;
        default:
          if (c < 128)
            g_string_append_c (g, g_ascii_tolower ((char) c));
          else
            {
              char buf[8];
              int k = g_unichar_to_utf8 (c, buf);
              char *f = g_utf8_casefold (buf, k);
              g_string_append (g, f);
              g_free (f);
            }
        }
    }
  *out = take_gstring (g);
  return TRUE;
}

static gboolean
m_upper (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return case_map (self, 'u', out);
}

static gboolean
m_lower (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return case_map (self, 'l', out);
}

static gboolean
m_swapcase (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return case_map (self, 's', out);
}

static gboolean
m_casefold (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return case_map (self, 'f', out);
}

static gboolean
m_capitalize (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  const FxStr *s = self->s;
  GString *g = g_string_sized_new (s->len + 1);
  const char *p = s->data, *end = p + s->len;
  gboolean first = TRUE;
  while (p < end)
    {
      gunichar c = next_char (&p);
      append_case (g, c, first ? 't' : 'l');
      first = FALSE;
    }
  *out = take_gstring (g);
  return TRUE;
}

static gboolean
m_title (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  const FxStr *s = self->s;
  GString *g = g_string_sized_new (s->len + 1);
  const char *p = s->data, *end = p + s->len;
  gboolean prev_cased = FALSE;
  while (p < end)
    {
      gunichar c = next_char (&p);
      append_case (g, c, prev_cased ? 'l' : 't');
      prev_cased = py_iscased (c);
    }
  *out = take_gstring (g);
  return TRUE;
}

/* ------------------------------------------------------------------ predicates */

typedef gboolean (*CharPred) (gunichar c);

static gboolean
all_chars (const FxValue *self, CharPred pred, FxValue *out)
{
  const char *p = self->s->data, *end = p + self->s->len;
  gboolean ok = p < end;
  while (ok && p < end)
    ok = pred (next_char (&p));
  *out = fx_value_bool (ok);
  return TRUE;
}

static gboolean
py_isalnum (gunichar c)
{
  return py_isalpha (c) || py_isnumeric (c) || py_isdigit (c);
}

#define PRED_METHOD(fname, pred) \
  static gboolean fname (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out) \
  { return all_chars (self, pred, out); }

PRED_METHOD (m_isdigit, py_isdigit)
PRED_METHOD (m_isdecimal, py_isdecimal)
PRED_METHOD (m_isnumeric, py_isnumeric)
PRED_METHOD (m_isalpha, py_isalpha)
PRED_METHOD (m_isalnum, py_isalnum)
PRED_METHOD (m_isspace, py_isspace)

static gboolean
m_isprintable (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  const char *p = self->s->data, *end = p + self->s->len;
  gboolean ok = TRUE;
  while (ok && p < end)
    ok = py_isprintable (next_char (&p));
  *out = fx_value_bool (ok);
  return TRUE;
}

static gboolean
m_isascii (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  *out = fx_value_bool (bytes_ascii (self->s->data, self->s->len));
  return TRUE;
}

static gboolean
case_pred (const FxValue *self, int mode, FxValue *out)   /* 'u' isupper, 'l' islower, 't' istitle */
{
  const char *p = self->s->data, *end = p + self->s->len;
  gboolean cased = FALSE, prev_cased = FALSE;
  while (p < end)
    {
      gunichar c = next_char (&p);
      gboolean title = g_unichar_istitle (c);
      gboolean up = g_unichar_isupper (c) || title, low = g_unichar_islower (c);
      if (mode == 'u' && (low || title))
        goto no;
      if (mode == 'l' && up)
        goto no;
      if (mode == 't')
        {
          if (up && prev_cased)
            goto no;
          if (low && !prev_cased)
            goto no;
          prev_cased = up || low;
        }
      if (up || low)
        cased = TRUE;
    }
  *out = fx_value_bool (cased);
  return TRUE;
no:
  *out = fx_value_bool (FALSE);
  return TRUE;
}

static gboolean
m_isupper (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return case_pred (self, 'u', out);
}

static gboolean
m_islower (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return case_pred (self, 'l', out);
}

static gboolean
m_istitle (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return case_pred (self, 't', out);
}

static gboolean
m_isidentifier (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  const char *p = self->s->data, *end = p + self->s->len;
  gboolean ok = p < end && py_isid_start (next_char (&p));
  while (ok && p < end)
    ok = py_isid_continue (next_char (&p));
  *out = fx_value_bool (ok);
  return TRUE;
}

/* ------------------------------------------------------------------ padding */

static gboolean
fill_arg (FxScript *S, const FxValue *a, int n, int at, char *fill, gsize *fill_len)
{
  fill[0] = ' ';
  *fill_len = 1;
  if (n <= at)
    return TRUE;
  if (a[at].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "The fill character must be a unicode character, not %s",
                     sc_type_name (S, &a[at]));
  if (cp_count (a[at].s->data, a[at].s->len) != 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "The fill character must be exactly one character long");
  memcpy (fill, a[at].s->data, a[at].s->len);
  *fill_len = a[at].s->len;
  return TRUE;
}

static gboolean
pad_impl (FxScript *S, const FxValue *self, const FxValue *a, int n, int mode, FxValue *out)
{
  int64_t width, len, marg, left;
  char fill[8];
  gsize fill_len;
  GString *g;
  if (!int_arg (S, &a[0], &width) || !fill_arg (S, a, n, 1, fill, &fill_len))
    return FALSE;
  len = cp_count (self->s->data, self->s->len);
  if (width <= len)
    {
      *out = fx_value_copy (self);
      return TRUE;
    }
  marg = width - len;
  if (mode == '<')
    left = 0;
  else if (mode == '>')
    left = marg;
  else
    left = marg / 2 + (marg & width & 1);
  g = g_string_sized_new (self->s->len + marg * fill_len + 1);
  append_repeat (g, fill, fill_len, left);
  g_string_append_len (g, self->s->data, self->s->len);
  append_repeat (g, fill, fill_len, marg - left);
  *out = take_gstring (g);
  return TRUE;
}

static gboolean
m_center (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return pad_impl (S, self, a, n, '^', out);
}

static gboolean
m_ljust (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return pad_impl (S, self, a, n, '<', out);
}

static gboolean
m_rjust (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return pad_impl (S, self, a, n, '>', out);
}

static gboolean
m_zfill (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  int64_t width, len;
  const FxStr *s = self->s;
  GString *g;
  gsize sign = 0;
  if (!int_arg (S, &a[0], &width))
    return FALSE;
  len = cp_count (s->data, s->len);
  if (width <= len)
    {
      *out = fx_value_copy (self);
      return TRUE;
    }
  g = g_string_sized_new (s->len + (width - len) + 1);
  if (s->len > 0 && (s->data[0] == '+' || s->data[0] == '-'))
    {
      g_string_append_c (g, s->data[0]);
      sign = 1;
    }
  append_repeat (g, "0", 1, width - len);
  g_string_append_len (g, s->data + sign, s->len - sign);
  *out = take_gstring (g);
  return TRUE;
}

static gboolean
m_expandtabs (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  static const char *const names[] = { "tabsize" };
  const FxValue *got[1];
  int64_t tabsize = 8, col = 0;
  const char *p = self->s->data, *end = p + self->s->len;
  GString *g;
  if (!sc_bind_args (S, "expandtabs", a, n, kw, names, 1, 1, got))
    return FALSE;
  if (got[0] && !int_arg (S, got[0], &tabsize))
    return FALSE;
  g = g_string_sized_new (self->s->len + 1);
  while (p < end)
    {
      const char *t = p;
      gunichar c = next_char (&t);
      if (c == '\t')
        {
          if (tabsize > 0)
            {
              int64_t k = tabsize - col % tabsize;
              append_repeat (g, " ", 1, k);
              col += k;
            }
        }
      else
        {
          g_string_append_len (g, p, t - p);
          col = (c == '\n' || c == '\r') ? 0 : col + 1;
        }
      p = t;
    }
  *out = take_gstring (g);
  return TRUE;
}

static gboolean
m_encode (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return sc_raise (S, SC_T_NOT_IMPLEMENTED_ERROR,
                   "str.encode(): bytes objects are not supported by this interpreter");
}

/* ------------------------------------------------------------------ maketrans / translate */

static gboolean
m_maketrans (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxDict *d = fx_dict_new ();
  if (n == 1)
    {
      const FxValue *k, *v;
      if (a[0].kind != FX_VALUE_DICT)
        {
          fx_dict_unref (d);
          return sc_raise (S, SC_T_TYPE_ERROR, "if you give only one argument to maketrans it must be a dict");
        }
      for (guint i = 0; fx_dict_entry (a[0].dict, i, &k, &v); i++)
        {
          FxValue key;
          if (k->kind == FX_VALUE_STR)
            {
              if (cp_count (k->s->data, k->s->len) != 1)
                {
                  fx_dict_unref (d);
                  return sc_raise (S, SC_T_VALUE_ERROR, "string keys in translate table must be of length 1");
                }
              key = fx_value_int (g_utf8_get_char (k->s->data));
            }
          else if (k->kind == FX_VALUE_INT)
            key = fx_value_copy (k);
          else
            {
              fx_dict_unref (d);
              return sc_raise (S, SC_T_TYPE_ERROR, "keys in translate table must be strings or integers");
            }
          fx_dict_set (d, key, fx_value_copy (v));
        }
    }
  else
    {
      const char *p, *q, *pe;
      if (a[0].kind != FX_VALUE_STR || a[1].kind != FX_VALUE_STR || (n > 2 && a[2].kind != FX_VALUE_STR))
        {
          fx_dict_unref (d);
          return sc_raise (S, SC_T_TYPE_ERROR, "maketrans() argument must be str");
        }
      if (cp_count (a[0].s->data, a[0].s->len) != cp_count (a[1].s->data, a[1].s->len))
        {
          fx_dict_unref (d);
          return sc_raise (S, SC_T_VALUE_ERROR, "the first two maketrans arguments must have equal length");
        }
      for (p = a[0].s->data, pe = p + a[0].s->len, q = a[1].s->data; p < pe;)
        {
          gunichar x = next_char (&p), y = next_char (&q);
          fx_dict_set (d, fx_value_int (x), fx_value_int (y));
        }
      if (n > 2)
        for (p = a[2].s->data, pe = p + a[2].s->len; p < pe;)
          fx_dict_set (d, fx_value_int (next_char (&p)), fx_value_none ());
    }
  *out = fx_value_take_dict (d);
  return TRUE;
}

static gboolean
m_translate (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  const char *p = self->s->data, *end = p + self->s->len;
  GString *g = g_string_sized_new (self->s->len + 1);
  while (p < end)
    {
      const char *start = p;
      gunichar c = next_char (&p);
      FxValue key = fx_value_int (c), r;
      if (!sc_getitem (S, &a[0], &key, &r))
        {
          if (sc_matches (S, SC_T_LOOKUP_ERROR))
            {
              sc_clear_exc (S);
              g_string_append_len (g, start, p - start);
              continue;
            }
          g_string_free (g, TRUE);
          return FALSE;
        }
      if (r.kind == FX_VALUE_STR)
        g_string_append_len (g, r.s->data, r.s->len);
      else if (r.kind == FX_VALUE_INT)
        {
          if (r.i < 0 || r.i > 0x10FFFF)
            {
              g_string_free (g, TRUE);
              return sc_raise (S, SC_T_VALUE_ERROR, "character mapping must be in range(0x110000)");
            }
          append_unichar (g, (gunichar) r.i);
        }
      else if (r.kind != FX_VALUE_NONE)
        {
          fx_value_clear (&r);
          g_string_free (g, TRUE);
          return sc_raise (S, SC_T_TYPE_ERROR, "character mapping must return integer, None or str");
        }
      fx_value_clear (&r);
    }
  *out = take_gstring (g);
  return TRUE;
}

/* ------------------------------------------------------------------ format mini-language */

typedef struct {
  char fill[8];
  gsize fill_len;
  gboolean fill_given;
  char align;                    /* '<' '>' '^' '=' or 0 */
  char sign;                     /* '+' '-' ' ' or 0 */
  gboolean z, alt;
  int64_t width;                 /* -1: none */
  char grouping;                 /* ',' '_' or 0 */
  int64_t precision;             /* -1: none */
  gunichar type;                 /* 0: none */
} Spec;

static gboolean
is_align (gunichar c)
{
  return c == '<' || c == '>' || c == '^' || c == '=';
}

static gboolean
spec_int (FxScript *S, const gunichar *u, int n, int *pos, int64_t *out)
{
  int start = *pos;
  int64_t v = 0;
  while (*pos < n && u[*pos] >= '0' && u[*pos] <= '9')
    {
      if (v > (G_MAXINT64 - 9) / 10)
        return sc_raise (S, SC_T_VALUE_ERROR, "Too many decimal digits in format string");
      v = v * 10 + (u[*pos] - '0');
      (*pos)++;
    }
  *out = *pos > start ? v : -1;
  return TRUE;
}

static gboolean
parse_spec (FxScript *S, const char *spec, const char *type_name, gunichar default_type,
            char default_align, Spec *f)
{
  glong n = 0;
  gunichar *u = g_utf8_to_ucs4_fast (spec, -1, &n);
  int pos = 0;
  gboolean ok = FALSE;

  memset (f, 0, sizeof *f);
  f->fill[0] = ' ';
  f->fill_len = 1;
  f->width = f->precision = -1;
  f->type = default_type;
  if (n >= 2 && is_align (u[1]))
    {
      f->fill_len = g_unichar_to_utf8 (u[0], f->fill);
      f->fill_given = TRUE;
      f->align = (char) u[1];
      pos = 2;
    }
  else if (n >= 1 && is_align (u[0]))
    {
      f->align = (char) u[0];
      pos = 1;
    }
  if (pos < n && (u[pos] == '+' || u[pos] == '-' || u[pos] == ' '))
    f->sign = (char) u[pos++];
  if (pos < n && u[pos] == 'z')
    {
      f->z = TRUE;
      pos++;
    }
  if (pos < n && u[pos] == '#')
    {
      f->alt = TRUE;
      pos++;
    }
  if (pos < n && u[pos] == '0' && !f->fill_given)
    {
      f->fill[0] = '0';
      f->fill_len = 1;
      f->fill_given = TRUE;
      if (!f->align && default_align == '>')
        f->align = '=';
      pos++;
    }
  if (!spec_int (S, u, n, &pos, &f->width))
    goto out;
  if (pos < n && u[pos] == ',')
    {
      f->grouping = ',';
      pos++;
    }
  if (pos < n && u[pos] == '_')
    {
      if (f->grouping)
        {
          sc_raise (S, SC_T_VALUE_ERROR, "Cannot specify both ',' and '_'.");
          goto out;
        }
      f->grouping = '_';
      pos++;
    }
  if (pos < n && u[pos] == ',' && f->grouping == '_')
    {
      sc_raise (S, SC_T_VALUE_ERROR, "Cannot specify both ',' and '_'.");
      goto out;
    }
  if (pos < n && u[pos] == '.')
    {
      pos++;
      if (!spec_int (S, u, n, &pos, &f->precision))
        goto out;
      if (f->precision < 0)
        {
          sc_raise (S, SC_T_VALUE_ERROR, "Format specifier missing precision");
          goto out;
        }
    }
  if (n - pos > 1)
    {
      sc_raise (S, SC_T_VALUE_ERROR, "Invalid format specifier '%s' for object of type '%s'", spec, type_name);
      goto out;
    }
  if (n - pos == 1)
    f->type = u[pos];
  if (f->grouping)
    {
      switch (f->type)
        {
        case 'd': case 'e': case 'f': case 'g': case 'E': case 'G': case '%': case 'F': case 0:
          break;
        case 'b': case 'o': case 'x': case 'X':
          if (f->grouping == '_')
            break;
          /* fall through */
        default:
          {
            char tb[8] = { 0 };
            g_unichar_to_utf8 (f->type, tb);
            sc_raise (S, SC_T_VALUE_ERROR, "Cannot specify '%c' with '%s'.", f->grouping, tb);
            goto out;
          }
        }
    }
  if (!f->align)
    f->align = default_align;
  ok = TRUE;
out:
  g_free (u);
  return ok;
}

static gboolean
unknown_code (FxScript *S, gunichar type, const char *type_name)
{
  if (type > 32 && type < 128)
    return sc_raise (S, SC_T_VALUE_ERROR, "Unknown format code '%c' for object of type '%s'",
                     (char) type, type_name);
  return sc_raise (S, SC_T_VALUE_ERROR, "Unknown format code '\\x%x' for object of type '%s'",
                   (unsigned) type, type_name);
}

/* Appends body (UTF-8, body_cps code points) padded to the spec's width. */
static void
pad_body (GString *out, const Spec *f, const char *body, gsize body_len, int64_t body_cps)
{
  int64_t pad = f->width > body_cps ? f->width - body_cps : 0, left;
  switch (f->align)
    {
    case '<': left = 0; break;
    case '^': left = pad / 2; break;
    default: left = pad; break;
    }
  append_repeat (out, f->fill, f->fill_len, left);
  g_string_append_len (out, body, body_len);
  append_repeat (out, f->fill, f->fill_len, pad - left);
}

/* Digits with separators every `group`; zero-extended (CPython style: never starting with a
 * separator) to at least min_width characters. */
static void
group_digits (GString *out, const char *digits, gsize nd, int group, char sep, int64_t min_width)
{
  gsize total = nd;
  if (group <= 0 || !sep)
    {
      for (int64_t i = (int64_t) nd; i < min_width; i++)
        g_string_append_c (out, '0');
      g_string_append_len (out, digits, nd);
      return;
    }
  while ((int64_t) (total + (total - 1) / group) < min_width)
    total++;
  for (gsize i = 0; i < total; i++)
    {
      gsize remaining = total - i;
      if (i > 0 && remaining % group == 0)
        g_string_append_c (out, sep);
      g_string_append_c (out, i < total - nd ? '0' : digits[i - (total - nd)]);
    }
}

/* sign + prefix + digits (grouped) + rest, aligned in the spec's width. */
static void
emit_number (GString *out, const Spec *f, gboolean negative, const char *prefix,
             const char *digits, gsize nd, const char *rest, int group)
{
  GString *body = g_string_new (NULL);
  char sign = negative ? '-' : (f->sign == '+' ? '+' : f->sign == ' ' ? ' ' : 0);
  int64_t fixed = (sign ? 1 : 0) + (int64_t) strlen (prefix) + (int64_t) strlen (rest);
  char sep = group ? f->grouping : 0;

  if (sign)
    g_string_append_c (body, sign);
  g_string_append (body, prefix);
  if (f->align == '=' && f->fill_len == 1 && f->fill[0] == '0' && f->width > 0)
    {
      group_digits (body, digits, nd, group, sep, f->width - fixed);
      g_string_append (body, rest);
      g_string_append_len (out, body->str, body->len);
    }
  else if (f->align == '=')
    {
      GString *num = g_string_new (NULL);
      int64_t len;
      group_digits (num, digits, nd, group, sep, 0);
      g_string_append (num, rest);
      len = (int64_t) body->len + (int64_t) num->len;
      if (f->width > len)
        append_repeat (body, f->fill, f->fill_len, f->width - len);
      g_string_append_len (body, num->str, num->len);
      g_string_append_len (out, body->str, body->len);
      g_string_free (num, TRUE);
    }
  else
    {
      group_digits (body, digits, nd, group, sep, 0);
      g_string_append (body, rest);
      pad_body (out, f, body->str, body->len, (int64_t) body->len);
    }
  g_string_free (body, TRUE);
}

static void
format_uint_base (char *buf, gsize size, guint64 v, gunichar type)
{
  switch (type)
    {
    case 'x': g_snprintf (buf, size, "%" G_GINT64_MODIFIER "x", v); break;
    case 'X': g_snprintf (buf, size, "%" G_GINT64_MODIFIER "X", v); break;
    case 'o': g_snprintf (buf, size, "%" G_GINT64_MODIFIER "o", v); break;
    case 'b':
      {
        char tmp[72];
        int k = 0;
        do
          {
            tmp[k++] = (char) ('0' + (v & 1));
            v >>= 1;
          }
        while (v);
        for (int i = 0; i < k; i++)
          buf[i] = tmp[k - 1 - i];
        buf[k] = 0;
        break;
      }
    default: g_snprintf (buf, size, "%" G_GUINT64_FORMAT, v); break;
    }
}

static gboolean format_float_spec (FxScript *S, double x, const Spec *f, const char *type_name,
                                   GString *out);

static gboolean
format_int_spec (FxScript *S, int64_t v, const Spec *f, const char *type_name, GString *out)
{
  char digits[80];
  const char *prefix = "";
  guint64 mag = v < 0 ? (guint64) 0 - (guint64) v : (guint64) v;
  gunichar type = f->type ? f->type : 'd';
  switch (type)
    {
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case '%':
      return format_float_spec (S, (double) v, f, type_name, out);
    case 'b': case 'c': case 'd': case 'o': case 'x': case 'X': case 'n':
      break;
    default:
      return unknown_code (S, type, type_name);
    }
  if (f->precision >= 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "Precision not allowed in integer format specifier");
  if (f->z)
    return sc_raise (S, SC_T_VALUE_ERROR, "Negative zero coercion (z) not allowed in integer format specifier");
  if (type == 'c')
    {
      char buf[8];
      int k;
      if (f->sign)
        return sc_raise (S, SC_T_VALUE_ERROR, "Sign not allowed with integer format specifier 'c'");
      if (f->alt)
        return sc_raise (S, SC_T_VALUE_ERROR, "Alternate form (#) not allowed with integer format specifier 'c'");
      if (v < 0 || v > 0x10FFFF)
        return sc_raise (S, SC_T_OVERFLOW_ERROR, "%%c arg not in range(0x110000)");
      k = g_unichar_to_utf8 ((gunichar) v, buf);
      pad_body (out, f, buf, k, 1);
      return TRUE;
    }
  format_uint_base (digits, sizeof digits, mag, type);
  if (f->alt)
    prefix = type == 'x' ? "0x" : type == 'X' ? "0X" : type == 'o' ? "0o" : type == 'b' ? "0b" : "";
  emit_number (out, f, v < 0, prefix, digits, strlen (digits), "",
               (type == 'd' || type == 'n') ? 3 : 4);
  return TRUE;
}

/* Shortest-repr digits of |x| with Python's rules; for the format type '' without precision. */
static void
float_repr_body (double ax, gboolean alt, GString *body)
{
  fx_format_float_repr (ax, body);
  if (alt && !strchr (body->str, '.'))
    {
      const char *e = strchr (body->str, 'e');
      if (e)
        g_string_insert_c (body, e - body->str, '.');
      else
        g_string_append_c (body, '.');
    }
}

/* Type '' with a precision: like 'g' but fixed notation keeps a digit after the point and
 * switches to exponents one digit earlier (CPython's Py_DTSF_ADD_DOT_0). */
static void
float_general_dot0 (double ax, int64_t prec, gboolean alt, GString *body)
{
  g_autofree char *buf = NULL;
  g_autofree char *digits = NULL;
  int nd = 0, exp10;
  const char *p;
  if (prec == 0)
    prec = 1;
  prec = MIN (prec, 10000);
  buf = g_strdup_printf ("%.*e", (int) prec - 1, ax);
  digits = g_malloc (strlen (buf) + 1);
  for (p = buf; *p && *p != 'e'; p++)
    if (*p >= '0' && *p <= '9')
      digits[nd++] = *p;
  exp10 = atoi (p + 1);
  if (!alt)
    while (nd > 1 && digits[nd - 1] == '0')
      nd--;
  if (exp10 < -4 || exp10 >= prec - 1)
    {
      g_string_append_c (body, digits[0]);
      if (nd > 1 || alt)
        g_string_append_c (body, '.');
      g_string_append_len (body, digits + 1, nd - 1);
      g_string_append_printf (body, "e%c%02d", exp10 < 0 ? '-' : '+', ABS (exp10));
    }
  else if (exp10 < 0)
    {
      g_string_append (body, "0.");
      for (int i = 0; i < -exp10 - 1; i++)
        g_string_append_c (body, '0');
      g_string_append_len (body, digits, nd);
    }
  else
    {
      int int_digits = exp10 + 1;
      for (int i = 0; i < int_digits; i++)
        g_string_append_c (body, i < nd ? digits[i] : '0');
      g_string_append_c (body, '.');
      if (nd > int_digits)
        g_string_append_len (body, digits + int_digits, nd - int_digits);
      else
        g_string_append_c (body, '0');
    }
}

static gboolean
format_float_spec (FxScript *S, double x, const Spec *f, const char *type_name, GString *out)
{
  gunichar type = f->type;
  gboolean negative, upper = FALSE, finite = isfinite (x);
  int64_t prec = f->precision;
  GString *body = g_string_new (NULL);
  const char *p, *int_end;
  g_autofree char *digits = NULL;
  g_autofree char *rest = NULL;

  switch (type)
    {
    case 0: case 'e': case 'f': case 'g': case 'n': case '%':
      break;
    case 'E': case 'F': case 'G':
      upper = TRUE;
      break;
    default:
      g_string_free (body, TRUE);
      return unknown_code (S, type, type_name);
    }
  negative = !isnan (x) && signbit (x);
  if (type == '%')
    x *= 100;
  if (!finite)
    g_string_append (body, isnan (x) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"));
  else
    {
      double ax = fabs (x);
      int ip = prec < 0 ? 6 : (int) MIN (prec, 10000);
      switch (type)
        {
        case 0:
          if (prec < 0)
            float_repr_body (ax, f->alt, body);
          else
            float_general_dot0 (ax, prec, f->alt, body);
          break;
        case 'e': case 'E':
          {
            g_autofree char *s = g_strdup_printf (f->alt ? "%#.*e" : "%.*e", ip, ax);
            g_string_append (body, s);
            break;
          }
        case 'f': case 'F': case '%':
          {
            g_autofree char *s = g_strdup_printf (f->alt ? "%#.*f" : "%.*f", ip, ax);
            g_string_append (body, s);
            break;
          }
        default:   /* g G n */
          {
            g_autofree char *s = g_strdup_printf (f->alt ? "%#.*g" : "%.*g", ip == 0 ? 1 : ip, ax);
            g_string_append (body, s);
            break;
          }
        }
      if (upper)
        for (gsize i = 0; i < body->len; i++)
          body->str[i] = g_ascii_toupper (body->str[i]);
    }
  if (type == '%')
    g_string_append_c (body, '%');
  /* z: a negative value that rounds to zero prints without its sign */
  if (negative && f->z && finite)
    {
      gboolean zero = TRUE;
      for (p = body->str; *p && *p != 'e' && *p != 'E'; p++)
        if (*p >= '1' && *p <= '9')
          zero = FALSE;
      if (zero)
        negative = FALSE;
    }
  /* split into integer digits and the rest for grouping */
  for (int_end = body->str; *int_end >= '0' && *int_end <= '9'; int_end++)
    ;
  digits = g_strndup (body->str, int_end - body->str);
  rest = g_strdup (int_end);
  emit_number (out, f, negative, "", digits, strlen (digits), rest, finite ? 3 : 0);
  g_string_free (body, TRUE);
  return TRUE;
}

static gboolean
format_str_spec (FxScript *S, const FxStr *s, const Spec *f, GString *out)
{
  int64_t cps;
  gsize len = s->len;
  if (f->type != 's')
    return unknown_code (S, f->type, "str");
  if (f->sign)
    return sc_raise (S, SC_T_VALUE_ERROR, "Sign not allowed in string format specifier");
  if (f->z)
    return sc_raise (S, SC_T_VALUE_ERROR, "Negative zero coercion (z) not allowed in string format specifier");
  if (f->alt)
    return sc_raise (S, SC_T_VALUE_ERROR, "Alternate form (#) not allowed in string format specifier");
  if (f->align == '=')
    return sc_raise (S, SC_T_VALUE_ERROR, "'=' alignment not allowed in string format specifier");
  cps = cp_count (s->data, s->len);
  if (f->precision >= 0 && f->precision < cps)
    {
      len = cp_to_byte (s, FALSE, f->precision);
      cps = f->precision;
    }
  pad_body (out, f, s->data, len, cps);
  return TRUE;
}

gboolean
sc_format_spec (FxScript *S, const FxValue *v, const char *spec, GString *out)
{
  Spec f;
  const char *tn = sc_type_name (S, v);
  switch (v->kind)
    {
    case FX_VALUE_STR:
      if (!*spec)
        {
          g_string_append_len (out, v->s->data, v->s->len);
          return TRUE;
        }
      return parse_spec (S, spec, tn, 's', '<', &f) && format_str_spec (S, v->s, &f, out);
    case FX_VALUE_INT:
    case FX_VALUE_BOOL:
      if (!*spec)
        {
          if (v->kind == FX_VALUE_BOOL)
            g_string_append (out, v->b ? "True" : "False");
          else
            g_string_append_printf (out, "%" G_GINT64_FORMAT, v->i);
          return TRUE;
        }
      return parse_spec (S, spec, tn, 'd', '>', &f)
             && format_int_spec (S, v->kind == FX_VALUE_BOOL ? v->b : v->i, &f, tn, out);
    case FX_VALUE_FLOAT:
      if (!*spec)
        {
          fx_format_float_repr (v->f, out);
          return TRUE;
        }
      return parse_spec (S, spec, tn, 0, '>', &f) && format_float_spec (S, v->f, &f, tn, out);
    default:
      if (*spec)
        return sc_raise (S, SC_T_TYPE_ERROR, "unsupported format string passed to %s.__format__", tn);
      return sc_str (S, v, out);
    }
}

/* ------------------------------------------------------------------ printf-style % */

typedef struct {
  const FxValue *items;          /* positional arguments */
  int n, next;
  const FxValue *mapping;        /* %(name)s source, or NULL */
} ModArgs;

static const FxValue *
mod_next_arg (FxScript *S, ModArgs *m)
{
  if (m->next >= m->n)
    {
      sc_raise (S, SC_T_TYPE_ERROR, "not enough arguments for format string");
      return NULL;
    }
  return &m->items[m->next++];
}

/* ascii(): repr with non-ASCII characters escaped */
static void
ascii_escape (const char *s, gsize len, GString *out)
{
  const char *p = s, *end = s + len;
  while (p < end)
    {
      gunichar c = next_char (&p);
      if (c < 128)
        g_string_append_c (out, (char) c);
      else if (c < 0x100)
        g_string_append_printf (out, "\\x%02x", c);
      else if (c < 0x10000)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_printf (out, "\\U%08x", c);
    }
}

static gboolean
mod_to_int (FxScript *S, const FxValue *v, char conv, gboolean integer_only, int64_t *out)
{
  if (v->kind == FX_VALUE_INT || v->kind == FX_VALUE_BOOL)
    {
      *out = v->kind == FX_VALUE_BOOL ? v->b : v->i;
      return TRUE;
    }
  if (v->kind == FX_VALUE_FLOAT && !integer_only)
    {
      if (isnan (v->f))
        return sc_raise (S, SC_T_VALUE_ERROR, "cannot convert float NaN to integer");
      if (isinf (v->f))
        return sc_raise (S, SC_T_OVERFLOW_ERROR, "cannot convert float infinity to integer");
      if (v->f >= 9.2233720368547758e18 || v->f < -9.2233720368547758e18)
        return sc_raise (S, SC_T_OVERFLOW_ERROR, "int too large to convert");
      *out = (int64_t) v->f;
      return TRUE;
    }
  if (sc_special_lookup (S, v, "__index__"))
    return sc_index (S, v, out);
  if (!integer_only && sc_special_lookup (S, v, "__int__"))
    {
      FxValue r;
      int c = sc_call_special (S, v, "__int__", NULL, 0, &r);
      if (c < 0)
        return FALSE;
      if (r.kind != FX_VALUE_INT && r.kind != FX_VALUE_BOOL)
        {
          fx_value_clear (&r);
          return sc_raise (S, SC_T_TYPE_ERROR, "__int__ returned non-int");
        }
      *out = r.kind == FX_VALUE_BOOL ? r.b : r.i;
      return TRUE;
    }
  if (integer_only)
    return sc_raise (S, SC_T_TYPE_ERROR, "%%%c format: an integer is required, not %s", conv, sc_type_name (S, v));
  return sc_raise (S, SC_T_TYPE_ERROR, "%%%c format: a real number is required, not %s", conv, sc_type_name (S, v));
}

static gboolean
mod_to_float (FxScript *S, const FxValue *v, double *out)
{
  FxValue r;
  if (v->kind == FX_VALUE_FLOAT)
    {
      *out = v->f;
      return TRUE;
    }
  if (v->kind == FX_VALUE_INT || v->kind == FX_VALUE_BOOL)
    {
      *out = v->kind == FX_VALUE_BOOL ? v->b : (double) v->i;
      return TRUE;
    }
  if (sc_special_lookup (S, v, "__float__"))
    {
      int c = sc_call_special (S, v, "__float__", NULL, 0, &r);
      if (c < 0)
        return FALSE;
      if (r.kind != FX_VALUE_FLOAT)
        {
          fx_value_clear (&r);
          return sc_raise (S, SC_T_TYPE_ERROR, "__float__ returned non-float");
        }
      *out = r.f;
      return TRUE;
    }
  if (sc_special_lookup (S, v, "__index__"))
    {
      int64_t i;
      if (!sc_index (S, v, &i))
        return FALSE;
      *out = (double) i;
      return TRUE;
    }
  return sc_raise (S, SC_T_TYPE_ERROR, "must be real number, not %s", sc_type_name (S, v));
}

/* pads body for %-formatting: '-' left, '0' zeros after the sign/prefix (numbers only) */
static void
mod_pad (GString *out, const char *body, gsize len, int64_t cps, int64_t width, gboolean left,
         gboolean zero, gsize sign_prefix_len)
{
  int64_t pad = width > cps ? width - cps : 0;
  if (left)
    {
      g_string_append_len (out, body, len);
      append_repeat (out, " ", 1, pad);
    }
  else if (zero)
    {
      g_string_append_len (out, body, sign_prefix_len);
      append_repeat (out, "0", 1, pad);
      g_string_append_len (out, body + sign_prefix_len, len - sign_prefix_len);
    }
  else
    {
      append_repeat (out, " ", 1, pad);
      g_string_append_len (out, body, len);
    }
}

static gboolean
mod_is_mapping (FxScript *S, const FxValue *v)
{
  if (v->kind == FX_VALUE_TUPLE || v->kind == FX_VALUE_STR)
    return FALSE;
  if (v->kind == FX_VALUE_DICT || v->kind == FX_VALUE_LIST || v->kind == FX_VALUE_TENSOR
      || sc_is_klass (v, &sc_range_klass))
    return TRUE;
  if (v->kind == FX_VALUE_NONE || v->kind == FX_VALUE_BOOL || v->kind == FX_VALUE_INT
      || v->kind == FX_VALUE_FLOAT)
    return FALSE;
  /* anything with __getitem__ (CPython's PyMapping_Check): instances, tensors, ranges */
  return sc_special_lookup (S, v, "__getitem__") != NULL;
}

gboolean
sc_str_mod_format (FxScript *S, FxStr *fmt, const FxValue *args, FxValue *out)
{
  const char *s = fmt->data, *end = s + fmt->len, *p = s;
  GString *g = g_string_sized_new (fmt->len + 16);
  ModArgs m = { 0 };
  FxValue key_val = fx_value_none ();
  FxValue looked = fx_value_none ();
  gboolean ok = FALSE;

  if (args->kind == FX_VALUE_TUPLE)
    {
      m.items = args->seq->items;
      m.n = (int) args->seq->len;
    }
  else
    {
      m.items = args;
      m.n = 1;
    }
  if (mod_is_mapping (S, args))
    m.mapping = args;

  while (p < end)
    {
      const char *pct = memchr (p, '%', end - p);
      gboolean f_left = FALSE, f_plus = FALSE, f_space = FALSE, f_alt = FALSE, f_zero = FALSE;
      int64_t width = -1, prec = -1;
      const FxValue *arg = NULL;
      char conv;
      GString *body;
      gsize sp_len = 0;

      if (pct == NULL)
        {
          g_string_append_len (g, p, end - p);
          break;
        }
      g_string_append_len (g, p, pct - p);
      p = pct + 1;
      if (p < end && *p == '%')
        {
          g_string_append_c (g, '%');
          p++;
          continue;
        }
      if (p < end && *p == '(')
        {
          int depth = 1;
          const char *ks = ++p;
          while (p < end && depth > 0)
            {
              if (*p == '(')
                depth++;
              else if (*p == ')')
                depth--;
              p++;
            }
          if (depth > 0)
            {
              sc_raise (S, SC_T_VALUE_ERROR, "incomplete format key");
              goto done;
            }
          if (m.mapping == NULL)
            {
              sc_raise (S, SC_T_TYPE_ERROR, "format requires a mapping");
              goto done;
            }
          key_val = str_from (ks, p - 1 - ks);
          fx_value_clear (&looked);
          if (!sc_getitem (S, m.mapping, &key_val, &looked))
            goto done;
          fx_value_clear (&key_val);
          arg = &looked;
          /* a mapping key means the positional arguments are not used */
          m.n = 0;
        }
      for (; p < end; p++)
        {
          if (*p == '-') f_left = TRUE;
          else if (*p == '+') f_plus = TRUE;
          else if (*p == ' ') f_space = TRUE;
          else if (*p == '#') f_alt = TRUE;
          else if (*p == '0') f_zero = TRUE;
          else break;
        }
      if (p < end && *p == '*')
        {
          const FxValue *w = mod_next_arg (S, &m);
          p++;
          if (w == NULL)
            goto done;
          if (w->kind != FX_VALUE_INT && w->kind != FX_VALUE_BOOL)
            {
              sc_raise (S, SC_T_TYPE_ERROR, "* wants int");
              goto done;
            }
          width = w->kind == FX_VALUE_BOOL ? w->b : w->i;
          if (width < 0)
            {
              f_left = TRUE;
              width = -width;
            }
        }
      else
        while (p < end && *p >= '0' && *p <= '9')
          {
            width = (width < 0 ? 0 : width) * 10 + (*p++ - '0');
            if (width > G_MAXINT32)
              {
                sc_raise (S, SC_T_VALUE_ERROR, "width too big");
                goto done;
              }
          }
      if (p < end && *p == '.')
        {
          p++;
          prec = 0;
          if (p < end && *p == '*')
            {
              const FxValue *w = mod_next_arg (S, &m);
              p++;
              if (w == NULL)
                goto done;
              if (w->kind != FX_VALUE_INT && w->kind != FX_VALUE_BOOL)
                {
                  sc_raise (S, SC_T_TYPE_ERROR, "* wants int");
                  goto done;
                }
              prec = w->kind == FX_VALUE_BOOL ? w->b : w->i;
              if (prec < 0)
                prec = 0;
            }
          else
            while (p < end && *p >= '0' && *p <= '9')
              {
                prec = prec * 10 + (*p++ - '0');
                if (prec > G_MAXINT32)
                  {
                    sc_raise (S, SC_T_VALUE_ERROR, "precision too big");
                    goto done;
                  }
              }
        }
      while (p < end && (*p == 'h' || *p == 'l' || *p == 'L'))
        p++;
      if (p >= end)
        {
          sc_raise (S, SC_T_VALUE_ERROR, "incomplete format");
          goto done;
        }
      conv = *p;
      /* every conversion takes an argument, even an unsupported one (CPython's order) */
      if (arg == NULL)
        {
          arg = mod_next_arg (S, &m);
          if (arg == NULL)
            goto done;
        }
      body = g_string_new (NULL);
      switch (conv)
        {
        case 's': case 'r': case 'a':
          {
            gboolean r = conv == 's' ? sc_str (S, arg, body) : sc_repr (S, arg, body);
            if (!r)
              {
                g_string_free (body, TRUE);
                goto done;
              }
            if (conv == 'a')
              {
                GString *e = g_string_new (NULL);
                ascii_escape (body->str, body->len, e);
                g_string_free (body, TRUE);
                body = e;
              }
            if (prec >= 0 && prec < cp_count (body->str, body->len))
              {
                const char *q = body->str;
                for (int64_t i = 0; i < prec; i++)
                  q = g_utf8_next_char (q);
                g_string_truncate (body, q - body->str);
              }
            break;
          }
        case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
          {
            int64_t v;
            char digits[80];
            guint64 mag;
            const char *prefix = "";
            gsize nd;
            if (!mod_to_int (S, arg, conv, conv == 'o' || conv == 'x' || conv == 'X', &v))
              {
                g_string_free (body, TRUE);
                goto done;
              }
            mag = v < 0 ? (guint64) 0 - (guint64) v : (guint64) v;
            format_uint_base (digits, sizeof digits, mag, conv == 'o' || conv == 'x' || conv == 'X' ? (gunichar) conv : 'd');
            if (v < 0)
              g_string_append_c (body, '-');
            else if (f_plus)
              g_string_append_c (body, '+');
            else if (f_space)
              g_string_append_c (body, ' ');
            if (f_alt)
              prefix = conv == 'o' ? "0o" : conv == 'x' ? "0x" : conv == 'X' ? "0X" : "";
            g_string_append (body, prefix);
            sp_len = body->len;
            nd = strlen (digits);
            for (int64_t i = (int64_t) nd; i < prec; i++)
              g_string_append_c (body, '0');
            g_string_append (body, digits);
            break;
          }
        case 'e': case 'E': case 'f': case 'F': case 'g': case 'G':
          {
            double x;
            char cfmt[8];
            if (!mod_to_float (S, arg, &x))
              {
                g_string_free (body, TRUE);
                goto done;
              }
            if (!isnan (x) && signbit (x))
              g_string_append_c (body, '-');
            else if (f_plus)
              g_string_append_c (body, '+');
            else if (f_space)
              g_string_append_c (body, ' ');
            sp_len = body->len;
            if (!isfinite (x))
              {
                gboolean up = conv == 'E' || conv == 'F' || conv == 'G';
                g_string_append (body, isnan (x) ? (up ? "NAN" : "nan") : (up ? "INF" : "inf"));
              }
            else
              {
                g_autofree char *num = NULL;
                g_snprintf (cfmt, sizeof cfmt, f_alt ? "%%#.*%c" : "%%.*%c", conv);
                num = g_strdup_printf (cfmt, (int) (prec < 0 ? 6 : MIN (prec, 10000)), fabs (x));
                g_string_append (body, num);
              }
            break;
          }
        case 'c':
          if (arg->kind == FX_VALUE_STR)
            {
              if (cp_count (arg->s->data, arg->s->len) != 1)
                {
                  g_string_free (body, TRUE);
                  sc_raise (S, SC_T_TYPE_ERROR, "%%c requires int or char");
                  goto done;
                }
              g_string_append_len (body, arg->s->data, arg->s->len);
            }
          else if (arg->kind == FX_VALUE_INT || arg->kind == FX_VALUE_BOOL)
            {
              int64_t v = arg->kind == FX_VALUE_BOOL ? arg->b : arg->i;
              if (v < 0 || v > 0x10FFFF)
                {
                  g_string_free (body, TRUE);
                  sc_raise (S, SC_T_OVERFLOW_ERROR, "%%c arg not in range(0x110000)");
                  goto done;
                }
              append_unichar (body, (gunichar) v);
            }
          else
            {
              g_string_free (body, TRUE);
              sc_raise (S, SC_T_TYPE_ERROR, "%%c requires int or char");
              goto done;
            }
          break;
        default:
          {
            const char *q = p;
            gunichar c = g_utf8_get_char_validated (q, end - q);
            g_string_free (body, TRUE);
            if (c >= 32 && c < 127)
              sc_raise (S, SC_T_VALUE_ERROR, "unsupported format character '%c' (0x%x) at index %" G_GINT64_FORMAT,
                        (char) c, (unsigned) c, cp_count (s, p - s));
            else
              sc_raise (S, SC_T_VALUE_ERROR, "unsupported format character '?' (0x%x) at index %" G_GINT64_FORMAT,
                        (unsigned) c, cp_count (s, p - s));
            goto done;
          }
        }
      p++;
      {
        gboolean numeric = strchr ("diuoxXeEfFgG", conv) != NULL;
        mod_pad (g, body->str, body->len, cp_count (body->str, body->len), width, f_left,
                 f_zero && numeric, sp_len);
      }
      g_string_free (body, TRUE);
      fx_value_clear (&looked);
    }
  if (m.next < m.n && m.mapping == NULL)
    {
      sc_raise (S, SC_T_TYPE_ERROR, "not all arguments converted during string formatting");
      goto done;
    }
  ok = TRUE;
done:
  fx_value_clear (&key_val);
  fx_value_clear (&looked);
  if (ok)
    *out = take_gstring (g);
  else
    g_string_free (g, TRUE);
  return ok;
}

/* ------------------------------------------------------------------ str.format */

typedef struct {
  const FxValue *args;
  int n_args;
  FxDict *kwargs;
  const FxValue *mapping;        /* format_map */
  int auto_index;                /* -1: manual numbering in use */
  gboolean manual;
} FmtCtx;

static gboolean fmt_render (FxScript *S, FmtCtx *c, const char *s, gsize len, int depth, GString *out);

static gboolean
all_digits (const char *s, gsize n)
{
  if (n == 0)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9')
      return FALSE;
  return TRUE;
}

static gboolean
parse_index (FxScript *S, const char *s, gsize n, int64_t *out)
{
  int64_t v = 0;
  for (gsize i = 0; i < n; i++)
    {
      if (v > (G_MAXINT64 - 9) / 10)
        return sc_raise (S, SC_T_VALUE_ERROR, "Too many decimal digits in format string");
      v = v * 10 + (s[i] - '0');
    }
  *out = v;
  return TRUE;
}

/* Resolves a field name ("0", "name", "", "0.attr[key]") to a new reference. */
static gboolean
fmt_get_field (FxScript *S, FmtCtx *c, const char *s, gsize n, FxValue *out)
{
  gsize first = 0;
  FxValue cur;
  while (first < n && s[first] != '.' && s[first] != '[')
    first++;
  if (first == 0 || all_digits (s, first))
    {
      int64_t idx = 0;
      if (first == 0)
        {
          if (c->manual)
            return sc_raise (S, SC_T_VALUE_ERROR, "cannot switch from manual field specification to automatic field numbering");
          idx = c->auto_index++;
        }
      else
        {
          if (c->auto_index > 0)
            return sc_raise (S, SC_T_VALUE_ERROR, "cannot switch from automatic field numbering to manual field specification");
          c->manual = TRUE;
          if (!parse_index (S, s, first, &idx))
            return FALSE;
        }
      if (c->mapping)
        return sc_raise (S, SC_T_VALUE_ERROR, "Format string contains positional fields");
      if (idx >= c->n_args)
        return sc_raise (S, SC_T_INDEX_ERROR, "Replacement index %" G_GINT64_FORMAT " out of range for positional args tuple", idx);
      cur = fx_value_copy (&c->args[idx]);
    }
  else
    {
      FxValue key = str_from (s, first);
      if (c->mapping)
        {
          gboolean ok = sc_getitem (S, c->mapping, &key, &cur);
          fx_value_clear (&key);
          if (!ok)
            return FALSE;
        }
      else
        {
          FxValue *v = c->kwargs ? fx_dict_get (c->kwargs, &key) : NULL;
          if (v == NULL)
            {
              sc_raise_key_error (S, &key);
              fx_value_clear (&key);
              return FALSE;
            }
          cur = fx_value_copy (v);
          fx_value_clear (&key);
        }
    }
  /* accessors */
  {
    gsize i = first;
    while (i < n)
      {
        FxValue next;
        gboolean ok;
        if (s[i] == '.')
          {
            gsize j = ++i;
            while (i < n && s[i] != '.' && s[i] != '[')
              i++;
            if (i == j)
              {
                fx_value_clear (&cur);
                return sc_raise (S, SC_T_VALUE_ERROR, "Empty attribute in format string");
              }
            ok = sc_getattr (S, &cur, sc_intern (s + j, i - j), &next);
          }
        else if (s[i] == '[')
          {
            gsize j = ++i;
            FxValue key;
            while (i < n && s[i] != ']')
              i++;
            if (i >= n)
              {
                fx_value_clear (&cur);
                return sc_raise (S, SC_T_VALUE_ERROR, "Missing ']' in format string");
              }
            if (i == j)
              {
                fx_value_clear (&cur);
                return sc_raise (S, SC_T_VALUE_ERROR, "Empty attribute in format string");
              }
            if (all_digits (s + j, i - j))
              {
                int64_t k = 0;
                if (!parse_index (S, s + j, i - j, &k))
                  {
                    fx_value_clear (&cur);
                    return FALSE;
                  }
                key = fx_value_int (k);
              }
            else
              key = str_from (s + j, i - j);
            i++;
            if (i < n && s[i] != '.' && s[i] != '[')
              {
                fx_value_clear (&key);
                fx_value_clear (&cur);
                return sc_raise (S, SC_T_VALUE_ERROR, "Only '.' or '[' may follow ']' in format field specifier");
              }
            ok = sc_getitem (S, &cur, &key, &next);
            fx_value_clear (&key);
          }
        else
          {
            fx_value_clear (&cur);
            return sc_raise (S, SC_T_VALUE_ERROR, "Only '.' or '[' may follow ']' in format field specifier");
          }
        fx_value_clear (&cur);
        if (!ok)
          return FALSE;
        cur = next;
      }
  }
  *out = cur;
  return TRUE;
}

/* One replacement field, parsed as CPython's parse_field() does: s[*pos] is just after the
 * opening brace; on return *pos is just after the closing one. */
static gboolean
fmt_field (FxScript *S, FmtCtx *c, const char *s, gsize len, gsize *pos, int depth, GString *out)
{
  gsize i = *pos, name_start = i, name_end, spec_start = 0, spec_end = 0;
  char ch = 0, conv = 0;
  gboolean has_spec = FALSE, spec_nested = FALSE;
  FxValue v;
  gboolean ok;

  while (i < len)
    {
      ch = s[i++];
      if (ch == '{')
        return sc_raise (S, SC_T_VALUE_ERROR, "unexpected '{' in field name");
      if (ch == '[')
        {
          while (i < len && s[i] != ']')
            i++;
          continue;
        }
      if (ch == '}' || ch == ':' || ch == '!')
        break;
      ch = 0;
    }
  name_end = ch ? i - 1 : i;
  if (ch == '!' || ch == ':')
    {
      int count = 1;
      if (ch == '!')
        {
          if (i >= len)
            return sc_raise (S, SC_T_VALUE_ERROR, "end of string while looking for conversion specifier");
          conv = s[i++];
          if (i < len)
            {
              char d = s[i++];
              if (d == '}')
                goto parsed;
              if (d != ':')
                return sc_raise (S, SC_T_VALUE_ERROR, "expected ':' after conversion specifier");
            }
        }
      has_spec = TRUE;
      spec_start = i;
      while (i < len)
        {
          char d = s[i++];
          if (d == '{')
            {
              spec_nested = TRUE;
              count++;
            }
          else if (d == '}' && --count == 0)
            {
              spec_end = i - 1;
              goto parsed;
            }
        }
      return sc_raise (S, SC_T_VALUE_ERROR, "unmatched '{' in format spec");
    }
  else if (ch != '}')
    return sc_raise (S, SC_T_VALUE_ERROR, "expected '}' before end of string");
parsed:
  *pos = i;
  if (!fmt_get_field (S, c, s + name_start, name_end - name_start, &v))
    return FALSE;
  if (conv)
    {
      GString *t = g_string_new (NULL);
      switch (conv)
        {
        case 'r': ok = sc_repr (S, &v, t); break;
        case 's': ok = sc_str (S, &v, t); break;
        case 'a':
          ok = sc_repr (S, &v, t);
          if (ok)
            {
              GString *e = g_string_new (NULL);
              ascii_escape (t->str, t->len, e);
              g_string_free (t, TRUE);
              t = e;
            }
          break;
        default:
          g_string_free (t, TRUE);
          fx_value_clear (&v);
          if (conv > 32 && conv < 127)
            return sc_raise (S, SC_T_VALUE_ERROR, "Unknown conversion specifier %c", conv);
          return sc_raise (S, SC_T_VALUE_ERROR, "Unknown conversion specifier \\x%02x", (guchar) conv);
        }
      fx_value_clear (&v);
      if (!ok)
        {
          g_string_free (t, TRUE);
          return FALSE;
        }
      v = take_gstring (t);
    }
  if (has_spec && spec_nested)
    {
      GString *expanded = g_string_new (NULL);
      if (depth >= 1)
        {
          g_string_free (expanded, TRUE);
          fx_value_clear (&v);
          return sc_raise (S, SC_T_VALUE_ERROR, "Max string recursion exceeded");
        }
      ok = fmt_render (S, c, s + spec_start, spec_end - spec_start, depth + 1, expanded);
      if (ok)
        ok = sc_format (S, &v, expanded->str, out);
      g_string_free (expanded, TRUE);
    }
  else
    {
      g_autofree char *sp = g_strndup (has_spec ? s + spec_start : "", has_spec ? spec_end - spec_start : 0);
      ok = sc_format (S, &v, sp, out);
    }
  fx_value_clear (&v);
  return ok;
}

static gboolean
fmt_render (FxScript *S, FmtCtx *c, const char *s, gsize len, int depth, GString *out)
{
  gsize i = 0;
  while (i < len)
    {
      char ch = s[i];
      if (ch == '}')
        {
          if (i + 1 < len && s[i + 1] == '}')
            {
              g_string_append_c (out, '}');
              i += 2;
              continue;
            }
          return sc_raise (S, SC_T_VALUE_ERROR, "Single '}' encountered in format string");
        }
      if (ch != '{')
        {
          gsize j = i;
          while (j < len && s[j] != '{' && s[j] != '}')
            j++;
          g_string_append_len (out, s + i, j - i);
          i = j;
          continue;
        }
      if (i + 1 >= len)
        return sc_raise (S, SC_T_VALUE_ERROR, "Single '{' encountered in format string");
      if (s[i + 1] == '{')
        {
          g_string_append_c (out, '{');
          i += 2;
          continue;
        }
      i++;
      if (!fmt_field (S, c, s, len, &i, depth, out))
        return FALSE;
    }
  return TRUE;
}

gboolean
sc_str_format_method (FxScript *S, const char *fmt, const FxValue *args, int n_args,
                      FxDict *kwargs, GString *out)
{
  FmtCtx c = { args, n_args, kwargs, NULL, 0, FALSE };
  return fmt_render (S, &c, fmt, strlen (fmt), 0, out);
}

static gboolean
m_format (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FmtCtx c = { a, n, kw, NULL, 0, FALSE };
  GString *g = g_string_sized_new (self->s->len + 16);
  if (!fmt_render (S, &c, self->s->data, self->s->len, 0, g))
    {
      g_string_free (g, TRUE);
      return FALSE;
    }
  *out = take_gstring (g);
  return TRUE;
}

static gboolean
m_format_map (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FmtCtx c = { NULL, 0, NULL, &a[0], 0, FALSE };
  GString *g = g_string_sized_new (self->s->len + 16);
  if (!fmt_render (S, &c, self->s->data, self->s->len, 0, g))
    {
      g_string_free (g, TRUE);
      return FALSE;
    }
  *out = take_gstring (g);
  return TRUE;
}

static gboolean
m_dunder_format (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  GString *g;
  if (a[0].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "__format__() argument must be str, not %s", sc_type_name (S, &a[0]));
  g = g_string_new (NULL);
  if (!sc_format_spec (S, self, a[0].s->data, g))
    {
      g_string_free (g, TRUE);
      return FALSE;
    }
  *out = take_gstring (g);
  return TRUE;
}

static gboolean
m_mod (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return sc_str_mod_format (S, self->s, &a[0], out);
}

/* ------------------------------------------------------------------ registration */

#define M(name, fn, style, lo, hi) { "str", name, fn, SC_ARGS_##style, lo, hi, SC_SELF_STR, SC_NATIVE_METHOD }

static const ScMethodDef str_methods[] = {
  M ("join", m_join, ONE, 1, 1),
  M ("split", m_split, KW, 0, 2),
  M ("rsplit", m_rsplit, KW, 0, 2),
  M ("splitlines", m_splitlines, KW, 0, 1),
  M ("partition", m_partition, ONE, 1, 1),
  M ("rpartition", m_rpartition, ONE, 1, 1),
  M ("strip", m_strip, RANGE, 0, 1),
  M ("lstrip", m_lstrip, RANGE, 0, 1),
  M ("rstrip", m_rstrip, RANGE, 0, 1),
  M ("removeprefix", m_removeprefix, ONE, 1, 1),
  M ("removesuffix", m_removesuffix, ONE, 1, 1),
  M ("startswith", m_startswith, OLD, 1, 3),
  M ("endswith", m_endswith, OLD, 1, 3),
  M ("find", m_find, OLD, 1, 3),
  M ("rfind", m_rfind, OLD, 1, 3),
  M ("index", m_index, OLD, 1, 3),
  M ("rindex", m_rindex, OLD, 1, 3),
  M ("count", m_count, OLD, 1, 3),
  M ("replace", m_replace, RANGE, 2, 3),
  M ("upper", m_upper, NOARGS, 0, 0),
  M ("lower", m_lower, NOARGS, 0, 0),
  M ("capitalize", m_capitalize, NOARGS, 0, 0),
  M ("title", m_title, NOARGS, 0, 0),
  M ("swapcase", m_swapcase, NOARGS, 0, 0),
  M ("casefold", m_casefold, NOARGS, 0, 0),
  M ("isdigit", m_isdigit, NOARGS, 0, 0),
  M ("isdecimal", m_isdecimal, NOARGS, 0, 0),
  M ("isnumeric", m_isnumeric, NOARGS, 0, 0),
  M ("isalpha", m_isalpha, NOARGS, 0, 0),
  M ("isalnum", m_isalnum, NOARGS, 0, 0),
  M ("isspace", m_isspace, NOARGS, 0, 0),
  M ("isupper", m_isupper, NOARGS, 0, 0),
  M ("islower", m_islower, NOARGS, 0, 0),
  M ("istitle", m_istitle, NOARGS, 0, 0),
  M ("isidentifier", m_isidentifier, NOARGS, 0, 0),
  M ("isprintable", m_isprintable, NOARGS, 0, 0),
  M ("isascii", m_isascii, NOARGS, 0, 0),
  M ("center", m_center, RANGE, 1, 2),
  M ("ljust", m_ljust, RANGE, 1, 2),
  M ("rjust", m_rjust, RANGE, 1, 2),
  M ("zfill", m_zfill, ONE, 1, 1),
  M ("expandtabs", m_expandtabs, KW, 0, 1),
  M ("format", m_format, KW, 0, 0),
  M ("format_map", m_format_map, ONE, 1, 1),
  M ("__format__", m_dunder_format, ONE, 1, 1),
  M ("__mod__", m_mod, ONE, 1, 1),
  M ("encode", m_encode, KW, 0, 2),
  M ("translate", m_translate, ONE, 1, 1),
  { "str", "maketrans", m_maketrans, SC_ARGS_RANGE, 1, 3, SC_SELF_ANY, SC_NATIVE_STATIC },
};

#undef M

void
sc_str_methods_init (FxScript *S)
{
  sc_add_methods (S->types[SC_T_STR], str_methods, G_N_ELEMENTS (str_methods));
}
