/* containers.c: the methods of list, tuple, dict, set and frozenset with CPython 3.11's
 * results and error messages, and sc_sort (a stable merge sort through sc_lt, so user
 * __lt__ methods take part). The operators on these types live in ops.c. */
#include "script/internal.h"

#include <string.h>

/* ------------------------------------------------------------------ helpers */

static gboolean
repr_error (FxScript *S, int type_id, const FxValue *v, const char *suffix)
{
  GString *g = g_string_new (NULL);
  if (!sc_repr (S, v, g))
    {
      g_string_free (g, TRUE);
      return FALSE;
    }
  sc_raise (S, type_id, "%s%s", g->str, suffix);
  g_string_free (g, TRUE);
  return FALSE;
}

/* Equality of a borrowed container item with x; the item is held while user code runs. */
static gboolean
item_equal (FxScript *S, const FxValue *item, const FxValue *x, gboolean *eq)
{
  FxValue held;
  gboolean ok;
  if (item->kind == x->kind && item->kind == FX_VALUE_OBJECT && item->obj == x->obj)
    {
      *eq = TRUE;
      return TRUE;
    }
  held = fx_value_copy (item);
  ok = sc_equal (S, &held, x, eq);
  fx_value_clear (&held);
  return ok;
}

/* start/stop of index(): None is not allowed here, only ints (or __index__). */
static gboolean
seq_bounds (FxScript *S, const FxValue *a, int n, int64_t len, int64_t *start, int64_t *stop)
{
  *start = 0;
  *stop = len;
  for (int i = 1; i < n && i < 3; i++)
    {
      const FxValue *v = &a[i];
      if (v->kind != FX_VALUE_INT && v->kind != FX_VALUE_BOOL && !sc_special_lookup (S, v, "__index__"))
        return sc_raise (S, SC_T_TYPE_ERROR, "slice indices must be integers or have an __index__ method");
      if (!sc_index (S, v, i == 1 ? start : stop))
        return FALSE;
    }
  if (*start < 0)
    {
      *start += len;
      if (*start < 0)
        *start = 0;
    }
  if (*stop < 0)
    {
      *stop += len;
      if (*stop < 0)
        *stop = 0;
    }
  return TRUE;
}

static gboolean
seq_index (FxScript *S, const FxValue *self, const FxValue *a, int n, const char *what, FxValue *out)
{
  FxSeq *seq = self->seq;
  int64_t start, stop;
  if (!seq_bounds (S, a, n, seq->len, &start, &stop))
    return FALSE;
  for (int64_t i = start; i < stop && i < (int64_t) seq->len; i++)
    {
      gboolean eq;
      if (!item_equal (S, &seq->items[i], &a[0], &eq))
        return FALSE;
      if (eq)
        {
          *out = fx_value_int (i);
          return TRUE;
        }
    }
  if (what)
    return sc_raise (S, SC_T_VALUE_ERROR, "%s", what);
  return repr_error (S, SC_T_VALUE_ERROR, &a[0], " is not in list");
}

static gboolean
seq_count (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxSeq *seq = self->seq;
  int64_t count = 0;
  for (guint i = 0; i < seq->len; i++)
    {
      gboolean eq;
      if (!item_equal (S, &seq->items[i], &a[0], &eq))
        return FALSE;
      count += eq;
    }
  *out = fx_value_int (count);
  return TRUE;
}

/* ------------------------------------------------------------------ sort */

static gboolean
all_kind (const FxValue *keys, guint n, FxValueKind kind)
{
  for (guint i = 0; i < n; i++)
    if (keys[i].kind != kind)
      return FALSE;
  return TRUE;
}

typedef enum { CMP_GENERIC, CMP_INT, CMP_FLOAT, CMP_STR } CmpKind;

/* *lt = keys[a] < keys[b] */
static gboolean
key_lt (FxScript *S, CmpKind kind, const FxValue *x, const FxValue *y, gboolean *lt)
{
  switch (kind)
    {
    case CMP_INT:
      *lt = x->i < y->i;
      return TRUE;
    case CMP_FLOAT:
      *lt = x->f < y->f;
      return TRUE;
    case CMP_STR:
      {
        gsize n = MIN (x->s->len, y->s->len);
        int c = memcmp (x->s->data, y->s->data, n);
        *lt = c < 0 || (c == 0 && x->s->len < y->s->len);
        return TRUE;
      }
    default:
      return sc_lt (S, x, y, lt);
    }
}

/* Stable bottom-up merge sort of the permutation idx[0..n) by keys; O(n log n) comparisons,
 * O(n) for runs already in order. */
static gboolean
merge_sort (FxScript *S, const FxValue *keys, guint *idx, guint n, CmpKind kind)
{
  guint *tmp = g_new (guint, n);
  gboolean ok = TRUE;
  for (guint width = 1; width < n && ok; width *= 2)
    {
      for (guint lo = 0; lo < n && ok; lo += 2 * width)
        {
          guint mid = MIN (lo + width, n), hi = MIN (lo + 2 * width, n);
          guint i = lo, j = mid, k = lo;
          gboolean lt;
          if (mid >= hi)
            continue;
          /* already ordered: the right run's first is not below the left run's last */
          if (!key_lt (S, kind, &keys[idx[mid]], &keys[idx[mid - 1]], &lt))
            {
              ok = FALSE;
              break;
            }
          if (!lt)
            continue;
          while (i < mid && j < hi)
            {
              if (!key_lt (S, kind, &keys[idx[j]], &keys[idx[i]], &lt))
                {
                  ok = FALSE;
                  break;
                }
              tmp[k++] = lt ? idx[j++] : idx[i++];
            }
          if (!ok)
            break;
          while (i < mid)
            tmp[k++] = idx[i++];
          while (j < hi)
            tmp[k++] = idx[j++];
          memcpy (idx + lo, tmp + lo, (hi - lo) * sizeof (guint));
        }
    }
  g_free (tmp);
  return ok;
}

gboolean
sc_sort (FxScript *S, FxSeq *seq, const FxValue *key, gboolean reverse)
{
  guint n = seq->len;
  FxValue *items, *keys = NULL;
  guint *idx;
  CmpKind kind = CMP_GENERIC;
  gboolean ok = TRUE;

  if (n < 2)
    return TRUE;
  /* work on a private copy: user code run by key() or __lt__ may change the sequence */
  items = g_new (FxValue, n);
  for (guint i = 0; i < n; i++)
    items[i] = fx_value_copy (&seq->items[i]);
  if (key && key->kind != FX_VALUE_NONE)
    {
      keys = g_new0 (FxValue, n);
      for (guint i = 0; i < n && ok; i++)
        ok = sc_call1 (S, key, &items[i], &keys[i]);
    }
  /* reverse=True: sort the reversed sequence stably, then reverse the result, so that equal
   * items keep their original order (as CPython does) */
  if (reverse && ok)
    for (guint i = 0, j = n - 1; i < j; i++, j--)
      {
        FxValue t = items[i];
        items[i] = items[j];
        items[j] = t;
        if (keys)
          {
            t = keys[i];
            keys[i] = keys[j];
            keys[j] = t;
          }
      }
  if (ok)
    {
      const FxValue *k = keys ? keys : items;
      if (all_kind (k, n, FX_VALUE_INT))
        kind = CMP_INT;
      else if (all_kind (k, n, FX_VALUE_FLOAT))
        kind = CMP_FLOAT;
      else if (all_kind (k, n, FX_VALUE_STR))
        kind = CMP_STR;
      idx = g_new (guint, n);
      for (guint i = 0; i < n; i++)
        idx[i] = i;
      ok = merge_sort (S, k, idx, n, kind);
      if (ok)
        {
          /* write back in order (reversed again when reverse=True: stability is kept) */
          if (seq->len == n)
            for (guint i = 0; i < n; i++)
              {
                guint src = idx[reverse ? n - 1 - i : i];
                fx_value_clear (&seq->items[i]);
                seq->items[i] = items[src];
                items[src] = fx_value_none ();
              }
        }
      g_free (idx);
    }
  for (guint i = 0; i < n; i++)
    {
      fx_value_clear (&items[i]);
      if (keys)
        fx_value_clear (&keys[i]);
    }
  g_free (items);
  g_free (keys);
  return ok;
}

/* ------------------------------------------------------------------ list */

static void
list_insert_at (FxSeq *seq, int64_t i, FxValue item)
{
  fx_seq_append (seq, fx_value_none ());
  memmove (seq->items + i + 1, seq->items + i, (seq->len - 1 - i) * sizeof (FxValue));
  seq->items[i] = item;
}

static gboolean
l_append (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  fx_seq_append (self->seq, fx_value_copy (&a[0]));
  return TRUE;
}

static gboolean
l_extend (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxSeq *seq = self->seq;
  if (a[0].kind == FX_VALUE_LIST || a[0].kind == FX_VALUE_TUPLE)
    {
      FxSeq *src = a[0].seq;
      guint m = src->len;     /* self.extend(self) adds the original items once */
      for (guint i = 0; i < m; i++)
        fx_seq_append (seq, fx_value_copy (&src->items[i]));
      return TRUE;
    }
  {
    FxSeq *items;
    if (!sc_collect (S, &a[0], &items))
      return FALSE;
    for (guint i = 0; i < items->len; i++)
      fx_seq_append (seq, fx_value_copy (&items->items[i]));
    fx_seq_unref (items);
    return TRUE;
  }
}

static gboolean
l_insert (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxSeq *seq = self->seq;
  int64_t i, len = seq->len;
  if (!sc_index (S, &a[0], &i))
    return FALSE;
  if (i < 0)
    {
      i += len;
      if (i < 0)
        i = 0;
    }
  if (i > len)
    i = len;
  list_insert_at (seq, i, fx_value_copy (&a[1]));
  return TRUE;
}

static gboolean
l_pop (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxSeq *seq = self->seq;
  int64_t i = -1, len = seq->len;
  if (n > 0 && !sc_index (S, &a[0], &i))
    return FALSE;
  if (len == 0)
    return sc_raise (S, SC_T_INDEX_ERROR, "pop from empty list");
  if (i < 0)
    i += len;
  if (i < 0 || i >= len)
    return sc_raise (S, SC_T_INDEX_ERROR, "pop index out of range");
  *out = seq->items[i];
  memmove (seq->items + i, seq->items + i + 1, (len - 1 - i) * sizeof (FxValue));
  seq->len--;
  return TRUE;
}

static gboolean
l_remove (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxSeq *seq = self->seq;
  for (guint i = 0; i < seq->len; i++)
    {
      gboolean eq;
      if (!item_equal (S, &seq->items[i], &a[0], &eq))
        return FALSE;
      if (eq && i < seq->len)
        {
          FxValue gone = seq->items[i];
          memmove (seq->items + i, seq->items + i + 1, (seq->len - 1 - i) * sizeof (FxValue));
          seq->len--;
          fx_value_clear (&gone);
          return TRUE;
        }
    }
  return sc_raise (S, SC_T_VALUE_ERROR, "list.remove(x): x not in list");
}

static gboolean
l_index (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return seq_index (S, self, a, n, NULL, out);
}

static gboolean
l_sort (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  static const char *const names[] = { "key", "reverse" };
  const FxValue *got[2];
  int64_t reverse = 0;
  FxSeq *seq = self->seq, *work;
  gboolean ok, modified;
  if (!sc_bind_args (S, "sort", a, n, kw, names, 2, 0, got))
    return FALSE;
  if (got[1] && !sc_index (S, got[1], &reverse))
    return FALSE;
  /* the list looks empty while it is sorted (as in CPython); changes are detected after */
  work = fx_seq_new (0);
  work->items = seq->items;
  work->len = seq->len;
  work->cap = seq->cap;
  seq->items = NULL;
  seq->len = seq->cap = 0;
  ok = sc_sort (S, work, got[0], reverse != 0);
  modified = seq->items != NULL || seq->len != 0;
  {
    FxValue *junk = seq->items;
    guint junk_len = seq->len;
    seq->items = work->items;
    seq->len = work->len;
    seq->cap = work->cap;
    work->items = junk;
    work->len = junk_len;
    work->cap = junk_len;
    fx_seq_unref (work);
  }
  if (!ok)
    return FALSE;
  if (modified)
    return sc_raise (S, SC_T_VALUE_ERROR, "list modified during sort");
  return TRUE;
}

static gboolean
l_reverse (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxSeq *seq = self->seq;
  if (seq->len > 1)
    for (guint i = 0, j = seq->len - 1; i < j; i++, j--)
      {
        FxValue t = seq->items[i];
        seq->items[i] = seq->items[j];
        seq->items[j] = t;
      }
  return TRUE;
}

static gboolean
l_copy (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxSeq *src = self->seq, *c = fx_seq_new (src->len);
  for (guint i = 0; i < src->len; i++)
    c->items[i] = fx_value_copy (&src->items[i]);
  *out = fx_value_take_list (c);
  return TRUE;
}

static gboolean
l_clear (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxSeq *seq = self->seq;
  FxValue *items = seq->items;
  guint len = seq->len;
  seq->items = NULL;
  seq->len = seq->cap = 0;
  for (guint i = 0; i < len; i++)
    fx_value_clear (&items[i]);
  g_free (items);
  return TRUE;
}

/* ------------------------------------------------------------------ tuple */

static gboolean
t_index (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return seq_index (S, self, a, n, "tuple.index(x): x not in tuple", out);
}

/* ------------------------------------------------------------------ dict */

static gboolean
d_keys (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  *out = sc_dict_view_new (self->dict, SC_T_DICT_KEYS);
  return TRUE;
}

static gboolean
d_values (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  *out = sc_dict_view_new (self->dict, SC_T_DICT_VALUES);
  return TRUE;
}

static gboolean
d_items (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  *out = sc_dict_view_new (self->dict, SC_T_DICT_ITEMS);
  return TRUE;
}

static gboolean
d_get (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxValue *v;
  if (!sc_dict_key_check (S, &a[0]))
    return FALSE;
  v = fx_dict_get (self->dict, &a[0]);
  *out = v ? fx_value_copy (v) : n > 1 ? fx_value_copy (&a[1]) : fx_value_none ();
  return TRUE;
}

static gboolean
d_pop (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxValue *v;
  if (!sc_dict_key_check (S, &a[0]))
    return FALSE;
  v = fx_dict_get (self->dict, &a[0]);
  if (v == NULL)
    {
      if (n > 1)
        {
          *out = fx_value_copy (&a[1]);
          return TRUE;
        }
      return sc_raise_key_error (S, &a[0]);
    }
  *out = fx_value_copy (v);
  fx_dict_remove (self->dict, &a[0]);
  return TRUE;
}

static gboolean
d_popitem (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxDict *d = self->dict;
  const FxValue *k, *v;
  FxSeq *t;
  guint len = fx_dict_len (d);
  if (len == 0)
    return sc_raise (S, SC_T_KEY_ERROR, "popitem(): dictionary is empty");
  fx_dict_entry (d, len - 1, &k, &v);
  t = fx_seq_new (2);
  t->items[0] = fx_value_copy (k);
  t->items[1] = fx_value_copy (v);
  fx_dict_remove (d, &t->items[0]);
  *out = fx_value_take_tuple (t);
  return TRUE;
}

static gboolean
d_setdefault (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxValue *v;
  if (!sc_dict_key_check (S, &a[0]))
    return FALSE;
  v = fx_dict_get (self->dict, &a[0]);
  if (v == NULL)
    {
      FxValue def = n > 1 ? fx_value_copy (&a[1]) : fx_value_none ();
      fx_dict_set (self->dict, fx_value_copy (&a[0]), fx_value_copy (&def));
      *out = def;
      return TRUE;
    }
  *out = fx_value_copy (v);
  return TRUE;
}

/* d[k] = v for every item of a mapping or an iterable of pairs (dict.update / dict()). */
static gboolean
dict_merge (FxScript *S, FxDict *d, const FxValue *other)
{
  FxValue keys_fn;
  int has_keys;
  if (other->kind == FX_VALUE_DICT)
    {
      const FxValue *k, *v;
      FxValue src = fx_value_copy (other);   /* d.update(d) is fine; hold other meanwhile */
      for (guint i = 0; fx_dict_entry (src.dict, i, &k, &v); i++)
        {
          if (src.dict == d)
            continue;
          fx_dict_set (d, fx_value_copy (k), fx_value_copy (v));
        }
      fx_value_clear (&src);
      return TRUE;
    }
  has_keys = other->kind == FX_VALUE_OBJECT || other->kind == FX_VALUE_TUPLE
               ? sc_getattr_opt (S, other, sc_n.s_keys, &keys_fn) : 0;
  if (has_keys < 0)
    return FALSE;
  if (has_keys > 0)
    {
      FxValue keys;
      FxSeq *ks;
      gboolean ok = sc_call0 (S, &keys_fn, &keys);
      fx_value_clear (&keys_fn);
      if (!ok)
        return FALSE;
      ok = sc_collect (S, &keys, &ks);
      fx_value_clear (&keys);
      if (!ok)
        return FALSE;
      for (guint i = 0; i < ks->len && ok; i++)
        {
          FxValue v;
          ok = sc_getitem (S, other, &ks->items[i], &v) && sc_dict_key_check (S, &ks->items[i]);
          if (ok)
            fx_dict_set (d, fx_value_copy (&ks->items[i]), v);
        }
      fx_seq_unref (ks);
      return ok;
    }
  {
    ScIter it;
    FxValue item;
    int r;
    guint index = 0;
    if (!sc_iter_init (S, other, &it))
      return FALSE;
    while ((r = sc_iter_next (S, &it, &item)) == 1)
      {
        FxSeq *pair;
        gboolean ok;
        if (item.kind == FX_VALUE_TUPLE || item.kind == FX_VALUE_LIST)
          pair = fx_seq_ref (item.seq);
        else if (!sc_collect (S, &item, &pair))
          {
            if (sc_matches (S, SC_T_TYPE_ERROR))
              {
                sc_clear_exc (S);
                sc_raise (S, SC_T_TYPE_ERROR, "cannot convert dictionary update sequence element #%u to a sequence", index);
              }
            fx_value_clear (&item);
            r = -1;
            break;
          }
        fx_value_clear (&item);
        ok = pair->len == 2;
        if (!ok)
          sc_raise (S, SC_T_VALUE_ERROR, "dictionary update sequence element #%u has length %u; 2 is required",
                    index, pair->len);
        else
          ok = sc_dict_key_check (S, &pair->items[0]);
        if (ok)
          fx_dict_set (d, fx_value_copy (&pair->items[0]), fx_value_copy (&pair->items[1]));
        fx_seq_unref (pair);
        if (!ok)
          {
            r = -1;
            break;
          }
        index++;
      }
    sc_iter_clear (&it);
    return r == 0;
  }
}

static gboolean
d_update (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  const FxValue *k, *v;
  if (n > 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "update expected at most 1 argument, got %d", n);
  if (n == 1 && !dict_merge (S, self->dict, &a[0]))
    return FALSE;
  for (guint i = 0; kw && fx_dict_entry (kw, i, &k, &v); i++)
    fx_dict_set (self->dict, fx_value_copy (k), fx_value_copy (v));
  return TRUE;
}

/* dict.__init__(self, ...), what a subclass's __init__ calls: update, named as dict() */
static gboolean
d_init (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  if (n > 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "dict expected at most 1 argument, got %d", n);
  return d_update (S, self, a, n, kw, out);
}

static gboolean
d_copy (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  *out = sc_dict_copy (self->dict);
  return TRUE;
}

static gboolean
d_clear (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxDict *d = self->dict;
  const FxValue *k;
  /* remove from the end: no holes are left behind, so no compaction */
  while (fx_dict_len (d) > 0)
    {
      FxValue key;
      fx_dict_entry (d, fx_dict_len (d) - 1, &k, NULL);
      key = fx_value_copy (k);
      fx_dict_remove (d, &key);
      fx_value_clear (&key);
    }
  return TRUE;
}

static gboolean
d_fromkeys (FxScript *S, const FxValue *cls, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxScriptClass *c = sc_value_class (cls);
  FxValue value = n > 1 ? fx_value_copy (&a[1]) : fx_value_none ();
  FxValue result;
  ScIter it;
  FxValue item;
  int r;
  gboolean plain = c == NULL || c == S->types[SC_T_DICT];
  if (plain)
    result = fx_value_take_dict (fx_dict_new ());
  else if (!sc_call0 (S, cls, &result))
    {
      fx_value_clear (&value);
      return FALSE;
    }
  if (!sc_iter_init (S, &a[0], &it))
    {
      fx_value_clear (&value);
      fx_value_clear (&result);
      return FALSE;
    }
  while ((r = sc_iter_next (S, &it, &item)) == 1)
    {
      gboolean ok;
      if (result.kind == FX_VALUE_DICT)
        {
          ok = sc_dict_key_check (S, &item);
          if (ok)
            fx_dict_set (result.dict, fx_value_copy (&item), fx_value_copy (&value));
        }
      else
        ok = sc_setitem (S, &result, &item, &value);
      fx_value_clear (&item);
      if (!ok)
        {
          r = -1;
          break;
        }
    }
  sc_iter_clear (&it);
  fx_value_clear (&value);
  if (r < 0)
    {
      fx_value_clear (&result);
      return FALSE;
    }
  *out = result;
  return TRUE;
}

static gboolean
d_contains (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  if (!sc_dict_key_check (S, &a[0]))
    return FALSE;
  *out = fx_value_bool (fx_dict_get (self->dict, &a[0]) != NULL);
  return TRUE;
}

static gboolean
d_getitem (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return sc_getitem (S, self, &a[0], out);
}

static gboolean
d_setitem (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return sc_setitem (S, self, &a[0], &a[1]);
}

static gboolean
d_delitem (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return sc_delitem (S, self, &a[0]);
}

/* ------------------------------------------------------------------ set / frozenset */

static FxDict *
set_dict (const FxValue *v)
{
  return ((ScSet *) v->obj)->d;
}

static gboolean
is_anyset (const FxValue *v)
{
  return sc_is_klass (v, &sc_set_klass) || sc_is_klass (v, &sc_frozenset_klass);
}

static gboolean
set_add_key (FxScript *S, FxDict *d, const FxValue *k)
{
  if (!sc_dict_key_check (S, k))
    return FALSE;
  fx_dict_set (d, fx_value_copy (k), fx_value_none ());
  return TRUE;
}

/* The items of any iterable as a (new) dict of keys; sets are shared (a new reference). */
static gboolean
keys_of (FxScript *S, const FxValue *v, FxDict **out)
{
  ScIter it;
  FxValue item;
  int r;
  FxDict *d;
  if (is_anyset (v))
    {
      *out = fx_dict_ref (set_dict (v));
      return TRUE;
    }
  if (v->kind == FX_VALUE_DICT)
    {
      *out = fx_dict_ref (v->dict);
      return TRUE;
    }
  if (!sc_iter_init (S, v, &it))
    return FALSE;
  d = fx_dict_new ();
  while ((r = sc_iter_next (S, &it, &item)) == 1)
    {
      gboolean ok = set_add_key (S, d, &item);
      fx_value_clear (&item);
      if (!ok)
        {
          r = -1;
          break;
        }
    }
  sc_iter_clear (&it);
  if (r < 0)
    {
      fx_dict_unref (d);
      return FALSE;
    }
  *out = d;
  return TRUE;
}

static FxValue
new_set_like (FxScript *S, const FxValue *self)
{
  return sc_set_new (S, sc_is_klass (self, &sc_frozenset_klass));
}

static void
copy_keys (FxDict *dst, FxDict *src)
{
  const FxValue *k;
  for (guint i = 0; fx_dict_entry (src, i, &k, NULL); i++)
    fx_dict_set (dst, fx_value_copy (k), fx_value_none ());
}

static gboolean
s_add (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  return set_add_key (S, set_dict (self), &a[0]);
}

static gboolean
s_discard (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  if (!sc_dict_key_check (S, &a[0]))
    return FALSE;
  fx_dict_remove (set_dict (self), &a[0]);
  return TRUE;
}

static gboolean
s_remove (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  if (!sc_dict_key_check (S, &a[0]))
    return FALSE;
  if (!fx_dict_remove (set_dict (self), &a[0]))
    return sc_raise_key_error (S, &a[0]);
  return TRUE;
}

static gboolean
s_pop (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxDict *d = set_dict (self);
  const FxValue *k;
  if (!fx_dict_entry (d, 0, &k, NULL))
    return sc_raise (S, SC_T_KEY_ERROR, "pop from an empty set");
  *out = fx_value_copy (k);
  fx_dict_remove (d, out);
  return TRUE;
}

static gboolean
s_clear (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  ScSet *s = (ScSet *) self->obj;
  FxDict *old = s->d;
  s->d = fx_dict_new ();
  fx_dict_unref (old);
  return TRUE;
}

static gboolean
s_copy (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  if (sc_is_klass (self, &sc_frozenset_klass))
    {
      *out = fx_value_copy (self);
      return TRUE;
    }
  *out = new_set_like (S, self);
  copy_keys (set_dict (out), set_dict (self));
  return TRUE;
}

static gboolean
s_update (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  for (int i = 0; i < n; i++)
    {
      FxDict *k;
      if (!keys_of (S, &a[i], &k))
        return FALSE;
      if (k != set_dict (self))
        copy_keys (set_dict (self), k);
      fx_dict_unref (k);
    }
  return TRUE;
}

static gboolean
s_union (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxValue r = new_set_like (S, self);
  copy_keys (set_dict (&r), set_dict (self));
  if (!s_update (S, &r, a, n, kw, out))
    {
      fx_value_clear (&r);
      return FALSE;
    }
  *out = r;
  return TRUE;
}

/* keep: d ∩ k (keep TRUE) or d − k (keep FALSE), into a new dict */
static FxDict *
filter_keys (FxDict *d, FxDict *k, gboolean keep)
{
  FxDict *r = fx_dict_new ();
  const FxValue *x;
  for (guint i = 0; fx_dict_entry (d, i, &x, NULL); i++)
    if ((fx_dict_get (k, x) != NULL) == keep)
      fx_dict_set (r, fx_value_copy (x), fx_value_none ());
  return r;
}

static void
set_replace (const FxValue *set, FxDict *d)
{
  ScSet *s = (ScSet *) set->obj;
  FxDict *old = s->d;
  s->d = d;
  fx_dict_unref (old);
}

static gboolean
filter_many (FxScript *S, const FxValue *self, const FxValue *a, int n, gboolean keep, FxDict **out)
{
  FxDict *cur = fx_dict_ref (set_dict (self));
  for (int i = 0; i < n; i++)
    {
      FxDict *k, *next;
      if (!keys_of (S, &a[i], &k))
        {
          fx_dict_unref (cur);
          return FALSE;
        }
      next = filter_keys (cur, k, keep);
      fx_dict_unref (k);
      fx_dict_unref (cur);
      cur = next;
    }
  if (cur == set_dict (self))
    {
      FxDict *c = fx_dict_new ();
      copy_keys (c, cur);
      fx_dict_unref (cur);
      cur = c;
    }
  *out = cur;
  return TRUE;
}

static gboolean
set_from_dict (FxScript *S, const FxValue *self, FxDict *d, FxValue *out)
{
  *out = new_set_like (S, self);
  set_replace (out, d);
  return TRUE;
}

static gboolean
s_intersection (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxDict *d;
  return filter_many (S, self, a, n, TRUE, &d) && set_from_dict (S, self, d, out);
}

static gboolean
s_difference (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxDict *d;
  return filter_many (S, self, a, n, FALSE, &d) && set_from_dict (S, self, d, out);
}

static gboolean
s_intersection_update (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxDict *d;
  if (!filter_many (S, self, a, n, TRUE, &d))
    return FALSE;
  set_replace (self, d);
  return TRUE;
}

static gboolean
s_difference_update (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxDict *d;
  if (!filter_many (S, self, a, n, FALSE, &d))
    return FALSE;
  set_replace (self, d);
  return TRUE;
}

static FxDict *
symmetric (FxDict *x, FxDict *y)
{
  FxDict *r = filter_keys (x, y, FALSE);
  const FxValue *k;
  for (guint i = 0; fx_dict_entry (y, i, &k, NULL); i++)
    if (!fx_dict_get (x, k))
      fx_dict_set (r, fx_value_copy (k), fx_value_none ());
  return r;
}

static gboolean
s_symmetric_difference (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxDict *k;
  if (!keys_of (S, &a[0], &k))
    return FALSE;
  set_from_dict (S, self, symmetric (set_dict (self), k), out);
  fx_dict_unref (k);
  return TRUE;
}

static gboolean
s_symmetric_difference_update (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw,
                               FxValue *out)
{
  FxDict *k;
  if (!keys_of (S, &a[0], &k))
    return FALSE;
  set_replace (self, symmetric (set_dict (self), k));
  fx_dict_unref (k);
  return TRUE;
}

static gboolean
subset_of (FxDict *x, FxDict *y)
{
  const FxValue *k;
  if (fx_dict_len (x) > fx_dict_len (y))
    return FALSE;
  for (guint i = 0; fx_dict_entry (x, i, &k, NULL); i++)
    if (!fx_dict_get (y, k))
      return FALSE;
  return TRUE;
}

static gboolean
s_issubset (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxDict *k;
  if (!keys_of (S, &a[0], &k))
    return FALSE;
  *out = fx_value_bool (subset_of (set_dict (self), k));
  fx_dict_unref (k);
  return TRUE;
}

static gboolean
s_issuperset (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxDict *k;
  if (!keys_of (S, &a[0], &k))
    return FALSE;
  *out = fx_value_bool (subset_of (k, set_dict (self)));
  fx_dict_unref (k);
  return TRUE;
}

static gboolean
s_isdisjoint (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  FxDict *k, *d = set_dict (self);
  const FxValue *x;
  gboolean disjoint = TRUE;
  if (!keys_of (S, &a[0], &k))
    return FALSE;
  for (guint i = 0; disjoint && fx_dict_entry (k, i, &x, NULL); i++)
    if (fx_dict_get (d, x))
      disjoint = FALSE;
  fx_dict_unref (k);
  *out = fx_value_bool (disjoint);
  return TRUE;
}

static gboolean
s_contains (FxScript *S, const FxValue *self, const FxValue *a, int n, FxDict *kw, FxValue *out)
{
  if (!sc_dict_key_check (S, &a[0]))
    return FALSE;
  *out = fx_value_bool (fx_dict_get (set_dict (self), &a[0]) != NULL);
  return TRUE;
}

/* ------------------------------------------------------------------ registration */

#define D(owner, self, name, fn, style, lo, hi) \
  { owner, name, fn, SC_ARGS_##style, lo, hi, SC_SELF_##self, SC_NATIVE_METHOD }

static const ScMethodDef list_methods[] = {
  D ("list", LIST, "append", l_append, ONE, 1, 1),
  D ("list", LIST, "extend", l_extend, ONE, 1, 1),
  D ("list", LIST, "insert", l_insert, RANGE, 2, 2),
  D ("list", LIST, "pop", l_pop, RANGE, 0, 1),
  D ("list", LIST, "remove", l_remove, ONE, 1, 1),
  D ("list", LIST, "index", l_index, RANGE, 1, 3),
  D ("list", LIST, "count", seq_count, ONE, 1, 1),
  D ("list", LIST, "sort", l_sort, KW, 0, 0),
  D ("list", LIST, "reverse", l_reverse, NOARGS, 0, 0),
  D ("list", LIST, "copy", l_copy, NOARGS, 0, 0),
  D ("list", LIST, "clear", l_clear, NOARGS, 0, 0),
};

static const ScMethodDef tuple_methods[] = {
  D ("tuple", TUPLE, "index", t_index, RANGE, 1, 3),
  D ("tuple", TUPLE, "count", seq_count, ONE, 1, 1),
};

static const ScMethodDef dict_methods[] = {
  D ("dict", DICT, "keys", d_keys, NOARGS, 0, 0),
  D ("dict", DICT, "values", d_values, NOARGS, 0, 0),
  D ("dict", DICT, "items", d_items, NOARGS, 0, 0),
  D ("dict", DICT, "get", d_get, RANGE, 1, 2),
  D ("dict", DICT, "pop", d_pop, RANGE, 1, 2),
  D ("dict", DICT, "popitem", d_popitem, NOARGS, 0, 0),
  D ("dict", DICT, "setdefault", d_setdefault, RANGE, 1, 2),
  D ("dict", DICT, "update", d_update, KW, 0, 1),
  D ("dict", DICT, "__init__", d_init, KW, 0, 1),
  D ("dict", DICT, "copy", d_copy, NOARGS, 0, 0),
  D ("dict", DICT, "clear", d_clear, NOARGS, 0, 0),
  D ("dict", DICT, "__contains__", d_contains, ONE, 1, 1),
  D ("dict", DICT, "__getitem__", d_getitem, ONE, 1, 1),
  D ("dict", DICT, "__setitem__", d_setitem, RANGE, 2, 2),
  D ("dict", DICT, "__delitem__", d_delitem, ONE, 1, 1),
  { "dict", "fromkeys", d_fromkeys, SC_ARGS_RANGE, 1, 2, SC_SELF_ANY, SC_NATIVE_CLASSMETHOD },
};

#define SET_SHARED(owner) \
  D (owner, ANYSET, "copy", s_copy, NOARGS, 0, 0), \
  D (owner, ANYSET, "union", s_union, RANGE, 0, G_MAXINT), \
  D (owner, ANYSET, "intersection", s_intersection, RANGE, 0, G_MAXINT), \
  D (owner, ANYSET, "difference", s_difference, RANGE, 0, G_MAXINT), \
  D (owner, ANYSET, "symmetric_difference", s_symmetric_difference, ONE, 1, 1), \
  D (owner, ANYSET, "issubset", s_issubset, ONE, 1, 1), \
  D (owner, ANYSET, "issuperset", s_issuperset, ONE, 1, 1), \
  D (owner, ANYSET, "isdisjoint", s_isdisjoint, ONE, 1, 1), \
  D (owner, ANYSET, "__contains__", s_contains, ONE, 1, 1)

static const ScMethodDef set_methods[] = {
  SET_SHARED ("set"),
  D ("set", SET, "add", s_add, ONE, 1, 1),
  D ("set", SET, "discard", s_discard, ONE, 1, 1),
  D ("set", SET, "remove", s_remove, ONE, 1, 1),
  D ("set", SET, "pop", s_pop, NOARGS, 0, 0),
  D ("set", SET, "clear", s_clear, NOARGS, 0, 0),
  D ("set", SET, "update", s_update, RANGE, 0, G_MAXINT),
  D ("set", SET, "intersection_update", s_intersection_update, RANGE, 0, G_MAXINT),
  D ("set", SET, "difference_update", s_difference_update, RANGE, 0, G_MAXINT),
  D ("set", SET, "symmetric_difference_update", s_symmetric_difference_update, ONE, 1, 1),
};

static const ScMethodDef frozenset_methods[] = {
  SET_SHARED ("frozenset"),
};

#undef D

void
sc_container_methods_init (FxScript *S)
{
  sc_add_methods (S->types[SC_T_LIST], list_methods, G_N_ELEMENTS (list_methods));
  sc_add_methods (S->types[SC_T_TUPLE], tuple_methods, G_N_ELEMENTS (tuple_methods));
  sc_add_methods (S->types[SC_T_DICT], dict_methods, G_N_ELEMENTS (dict_methods));
  sc_add_methods (S->types[SC_T_SET], set_methods, G_N_ELEMENTS (set_methods));
  sc_add_methods (S->types[SC_T_FROZENSET], frozenset_methods, G_N_ELEMENTS (frozenset_methods));
}
