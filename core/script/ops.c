/* ops.c: Python's operator semantics on FxValues — truth, ==/</is/in, arithmetic with
 * __op__/__rop__ dispatch, item access, len(), hash(), repr() and str() — with CPython's
 * error messages. Tensors without a registered class fall back to the op registry's
 * operator.* entries. */
#include "script/internal.h"
#include "ir/graph.h"

#include <math.h>
#include <string.h>

static const char *const bin_syms[SC_BIN_N] = {
  "+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "@",
};
static const char *const bin_op_paths[SC_BIN_N] = {
  "operator.add", "operator.sub", "operator.mul", "operator.truediv", "operator.floordiv",
  "operator.mod", "operator.pow", "operator.lshift", "operator.rshift", "operator.and_",
  "operator.or_", "operator.xor", "operator.matmul",
};
static const char *const ibin_op_paths[SC_BIN_N] = {
  "operator.iadd", "operator.isub", "operator.imul", "operator.itruediv", "operator.ifloordiv",
  "operator.imod", "operator.ipow", "operator.ilshift", "operator.irshift", "operator.iand",
  "operator.ior", "operator.ixor", "operator.imatmul",
};

#define IS_NUM(v) ((v)->kind == FX_VALUE_INT || (v)->kind == FX_VALUE_BOOL || (v)->kind == FX_VALUE_FLOAT)
#define IS_INTLIKE(v) ((v)->kind == FX_VALUE_INT || (v)->kind == FX_VALUE_BOOL)
#define IS_SEQ(v) ((v)->kind == FX_VALUE_TUPLE || (v)->kind == FX_VALUE_LIST)

static inline int64_t
ival (const FxValue *v)
{
  return v->kind == FX_VALUE_BOOL ? v->b : v->i;
}

static inline double
fval (const FxValue *v)
{
  return v->kind == FX_VALUE_FLOAT ? v->f : (double) ival (v);
}

/* A value whose behaviour comes from a class (instances, native classes, value kinds with a
 * registered class) rather than from the built-in switch below. */
static gboolean
has_class_behaviour (FxScript *S, const FxValue *v)
{
  if (v->kind == FX_VALUE_OBJECT)
    return v->obj->klass == &sc_instance_klass || !(sc_type_of (S, v)->flags & SC_CLASS_BUILTIN);
  if (v->kind >= FX_VALUE_DTYPE && v->kind <= FX_VALUE_OP)
    return S->kind_classes[v->kind] != NULL;
  if (v->kind == FX_VALUE_TUPLE && v->seq->type)
    return !(sc_type_of (S, v)->flags & SC_CLASS_BUILTIN);
  return FALSE;
}

/* object's default implementation of a dunder, which means "not defined" for dispatch */
static gboolean
is_object_slot (FxScript *S, const FxValue *m, FxStr *name)
{
  FxValue *od = sc_dict_get_str (S->types[SC_T_OBJECT]->dict, name);
  return od && od->kind == FX_VALUE_OBJECT && m->kind == FX_VALUE_OBJECT && od->obj == m->obj;
}

static FxValue *
class_slot (FxScript *S, const FxValue *v, FxStr *name)
{
  FxValue *m;
  if (!has_class_behaviour (S, v))
    return NULL;
  m = sc_type_lookup (S, sc_type_of (S, v), name);
  if (m && (m->kind == FX_VALUE_NONE || is_object_slot (S, m, name)))
    return NULL;
  return m;
}

/* Calls method m (found on type(self)) as m(self, args...). */
static gboolean
call_slot (FxScript *S, const FxValue *m, const FxValue *self, const FxValue *args, int n, FxValue *out)
{
  FxValue buf[4];
  buf[0] = *self;
  for (int i = 0; i < n && i < 3; i++)
    buf[i + 1] = args[i];
  if (m->kind == FX_VALUE_OBJECT && m->obj->klass == &sc_staticmethod_klass)
    return sc_call (S, &((ScWrapper *) m->obj)->func, args, n, NULL, 0, out);
  return sc_call (S, m, buf, n + 1, NULL, 0, out);
}

static gboolean
registry_call (FxScript *S, const char *path, const FxValue *args, int n, FxValue *out)
{
  const FxOp *op = fx_op_lookup (path);
  if (op == NULL)
    return sc_raise (S, SC_T_NOT_IMPLEMENTED_ERROR, "%s is not available in this build", path);
  return sc_op_invoke (S, op, args, n, NULL, out);
}

/* ------------------------------------------------------------------ truth */

gboolean
sc_truth (FxScript *S, const FxValue *v, gboolean *out)
{
  switch (v->kind)
    {
    case FX_VALUE_NONE: *out = FALSE; return TRUE;
    case FX_VALUE_BOOL: *out = v->b; return TRUE;
    case FX_VALUE_INT: *out = v->i != 0; return TRUE;
    case FX_VALUE_FLOAT: *out = v->f != 0; return TRUE;
    case FX_VALUE_STR: *out = v->s->len != 0; return TRUE;
    case FX_VALUE_TUPLE:
      if (v->seq->type && has_class_behaviour (S, v))
        break;
      *out = v->seq->len != 0;
      return TRUE;
    case FX_VALUE_LIST: *out = v->seq->len != 0; return TRUE;
    case FX_VALUE_DICT: *out = fx_dict_len (v->dict) != 0; return TRUE;
    case FX_VALUE_TENSOR:
      if (S->kind_classes[FX_VALUE_TENSOR])
        break;
      {
        int64_t n = fx_tensor_numel (v->tensor);
        if (n != 1)
          return sc_raise (S, SC_T_RUNTIME_ERROR, n == 0
                           ? "Boolean value of Tensor with no values is ambiguous"
                           : "Boolean value of Tensor with more than one value is ambiguous");
        *out = fx_tensor_get_double (v->tensor, 0) != 0;
        return TRUE;
      }
    case FX_VALUE_OBJECT:
      break;
    default:
      if (v->kind >= FX_VALUE_DTYPE && v->kind <= FX_VALUE_OP && S->kind_classes[v->kind])
        break;
      *out = TRUE;
      return TRUE;
    }
  if (v->kind == FX_VALUE_OBJECT)
    {
      const FxObjectClass *k = v->obj->klass;
      if (k == &sc_set_klass || k == &sc_frozenset_klass)
        {
          *out = fx_dict_len (((ScSet *) v->obj)->d) != 0;
          return TRUE;
        }
      if (k == &sc_range_klass || k == &sc_dictkeys_klass || k == &sc_dictvalues_klass
          || k == &sc_dictitems_klass)
        {
          int64_t n;
          if (!sc_len (S, v, &n))
            return FALSE;
          *out = n != 0;
          return TRUE;
        }
    }
  {
    FxValue *m = class_slot (S, v, sc_n.bool), r;
    if (m)
      {
        if (!call_slot (S, m, v, NULL, 0, &r))
          return FALSE;
        if (r.kind != FX_VALUE_BOOL)
          {
            const char *tn = sc_type_name (S, &r);
            fx_value_clear (&r);
            return sc_raise (S, SC_T_TYPE_ERROR, "__bool__ should return bool, returned %s", tn);
          }
        *out = r.b;
        return TRUE;
      }
    m = class_slot (S, v, sc_n.len);
    if (m)
      {
        int64_t n;
        if (!sc_len (S, v, &n))
          return FALSE;
        *out = n != 0;
        return TRUE;
      }
  }
  *out = TRUE;
  return TRUE;
}

/* ------------------------------------------------------------------ numbers */

static gboolean
int_overflow (FxScript *S)
{
  return sc_raise (S, SC_T_OVERFLOW_ERROR, "integer overflow: fx ints are 64-bit");
}

static gboolean
float_pow (FxScript *S, double x, double y, FxValue *out)
{
  double r;
  if (x == 0 && y < 0)
    return sc_raise (S, SC_T_ZERO_DIVISION_ERROR, "0.0 cannot be raised to a negative power");
  if (x < 0 && y != floor (y) && isfinite (y))
    return sc_raise (S, SC_T_VALUE_ERROR, "complex results are not supported by fx");
  r = pow (x, y);
  if (isinf (r) && isfinite (x) && isfinite (y))
    return sc_raise (S, SC_T_OVERFLOW_ERROR, "(34, 'Numerical result out of range')");
  *out = fx_value_float (r);
  return TRUE;
}

gboolean
sc_number_binary (FxScript *S, ScBinOp op, const FxValue *a, const FxValue *b, FxValue *out,
                  gboolean *handled)
{
  *handled = TRUE;
  if (IS_INTLIKE (a) && IS_INTLIKE (b))
    {
      int64_t x = ival (a), y = ival (b), r;
      gboolean both_bool = a->kind == FX_VALUE_BOOL && b->kind == FX_VALUE_BOOL;
      switch (op)
        {
        case SC_BIN_ADD:
          if (__builtin_add_overflow (x, y, &r)) return int_overflow (S);
          break;
        case SC_BIN_SUB:
          if (__builtin_sub_overflow (x, y, &r)) return int_overflow (S);
          break;
        case SC_BIN_MUL:
          if (__builtin_mul_overflow (x, y, &r)) return int_overflow (S);
          break;
        case SC_BIN_DIV:
          if (y == 0)
            return sc_raise (S, SC_T_ZERO_DIVISION_ERROR, "division by zero");
          *out = fx_value_float ((double) x / (double) y);
          if ((x > (1LL << 53) || x < -(1LL << 53) || y > (1LL << 53) || y < -(1LL << 53)) && x % y == 0)
            *out = fx_value_float ((double) (x / y));
          return TRUE;
        case SC_BIN_FLOORDIV:
        case SC_BIN_MOD:
          if (y == 0)
            return sc_raise (S, SC_T_ZERO_DIVISION_ERROR, op == SC_BIN_MOD
                             ? "integer modulo by zero" : "integer division or modulo by zero");
          if (x == INT64_MIN && y == -1)
            {
              if (op == SC_BIN_MOD)
                r = 0;
              else
                return int_overflow (S);
              break;
            }
          {
            int64_t q = x / y, m = x % y;
            if (m != 0 && ((m < 0) != (y < 0)))
              {
                q--;
                m += y;
              }
            r = op == SC_BIN_FLOORDIV ? q : m;
          }
          break;
        case SC_BIN_POW:
          if (y < 0)
            {
              if (x == 0)
                return sc_raise (S, SC_T_ZERO_DIVISION_ERROR, "0.0 cannot be raised to a negative power");
              *out = fx_value_float (pow ((double) x, (double) y));
              return TRUE;
            }
          r = 1;
          {
            int64_t base = x, e = y;
            while (e > 0)
              {
                if (e & 1)
                  {
                    if (__builtin_mul_overflow (r, base, &r)) return int_overflow (S);
                  }
                e >>= 1;
                if (e > 0 && __builtin_mul_overflow (base, base, &base))
                  return int_overflow (S);
              }
          }
          break;
        case SC_BIN_LSHIFT:
          if (y < 0)
            return sc_raise (S, SC_T_VALUE_ERROR, "negative shift count");
          if (x == 0)
            r = 0;
          else if (y >= 63 || (x > 0 ? x > (INT64_MAX >> y) : x < (INT64_MIN >> y)))
            return int_overflow (S);
          else
            r = (int64_t) ((uint64_t) x << y);
          break;
        case SC_BIN_RSHIFT:
          if (y < 0)
            return sc_raise (S, SC_T_VALUE_ERROR, "negative shift count");
          r = y >= 64 ? (x < 0 ? -1 : 0) : x >> y;
          break;
        case SC_BIN_AND:
          r = x & y;
          if (both_bool) { *out = fx_value_bool (r != 0); return TRUE; }
          break;
        case SC_BIN_OR:
          r = x | y;
          if (both_bool) { *out = fx_value_bool (r != 0); return TRUE; }
          break;
        case SC_BIN_XOR:
          r = x ^ y;
          if (both_bool) { *out = fx_value_bool (r != 0); return TRUE; }
          break;
        default:
          *handled = FALSE;
          return FALSE;
        }
      *out = fx_value_int (r);
      return TRUE;
    }
  if (IS_NUM (a) && IS_NUM (b))
    {
      double x = fval (a), y = fval (b), r;
      switch (op)
        {
        case SC_BIN_ADD: r = x + y; break;
        case SC_BIN_SUB: r = x - y; break;
        case SC_BIN_MUL: r = x * y; break;
        case SC_BIN_DIV:
          if (y == 0)
            return sc_raise (S, SC_T_ZERO_DIVISION_ERROR, "float division by zero");
          r = x / y;
          break;
        case SC_BIN_FLOORDIV:
        case SC_BIN_MOD:
          {
            double mod, div, fl;
            if (y == 0)
              return sc_raise (S, SC_T_ZERO_DIVISION_ERROR, op == SC_BIN_MOD ? "float modulo"
                                                                           : "float floor division by zero");
            mod = fmod (x, y);
            div = (x - mod) / y;
            if (mod != 0)
              {
                if ((y < 0) != (mod < 0))
                  {
                    mod += y;
                    div -= 1.0;
                  }
              }
            else
              mod = copysign (0.0, y);
            if (div != 0)
              {
                fl = floor (div);
                if (div - fl > 0.5)
                  fl += 1.0;
              }
            else
              fl = copysign (0.0, x / y);
            r = op == SC_BIN_MOD ? mod : fl;
            break;
          }
        case SC_BIN_POW:
          return float_pow (S, x, y, out);
        default:
          *handled = FALSE;
          return FALSE;
        }
      *out = fx_value_float (r);
      return TRUE;
    }
  *handled = FALSE;
  return FALSE;
}

gboolean
sc_op_name_binary (ScBinOp op, const char **sym, const char **dunder, const char **rdunder,
                   const char **idunder)
{
  if (sym) *sym = bin_syms[op];
  if (dunder) *dunder = sc_n.bin[op]->data;
  if (rdunder) *rdunder = sc_n.rbin[op]->data;
  if (idunder) *idunder = sc_n.ibin[op]->data;
  return TRUE;
}

static gboolean
unsupported_binary (FxScript *S, ScBinOp op, const FxValue *a, const FxValue *b, gboolean inplace)
{
  if (op == SC_BIN_POW && !inplace)
    return sc_raise (S, SC_T_TYPE_ERROR, "unsupported operand type(s) for ** or pow(): '%s' and '%s'",
                     sc_type_name (S, a), sc_type_name (S, b));
  return sc_raise (S, SC_T_TYPE_ERROR, "unsupported operand type(s) for %s%s: '%s' and '%s'",
                   bin_syms[op], inplace ? "=" : "", sc_type_name (S, a), sc_type_name (S, b));
}

static FxSeq *
seq_concat (const FxSeq *x, const FxSeq *y)
{
  FxSeq *s = fx_seq_new (x->len + y->len);
  for (guint i = 0; i < x->len; i++)
    s->items[i] = fx_value_copy (&x->items[i]);
  for (guint i = 0; i < y->len; i++)
    s->items[x->len + i] = fx_value_copy (&y->items[i]);
  return s;
}

static gboolean
seq_repeat (FxScript *S, const FxValue *a, int64_t n, FxValue *out)
{
  FxSeq *s;
  if (n < 0)
    n = 0;
  if (a->kind == FX_VALUE_STR)
    {
      GString *g;
      if (n > 0 && a->s->len > (gsize) (G_MAXINT32 / n))
        return sc_raise (S, SC_T_MEMORY_ERROR, "repeated string is too long");
      g = g_string_sized_new (a->s->len * n);
      for (int64_t i = 0; i < n; i++)
        g_string_append_len (g, a->s->data, a->s->len);
      *out = fx_value_take_str (fx_str_new_len (g->str, g->len));
      g_string_free (g, TRUE);
      return TRUE;
    }
  if (n > 0 && a->seq->len > (guint) (G_MAXINT32 / n))
    return sc_raise (S, SC_T_MEMORY_ERROR, "repeated sequence is too long");
  s = fx_seq_new (a->seq->len * n);
  for (int64_t i = 0, k = 0; i < n; i++)
    for (guint j = 0; j < a->seq->len; j++)
      s->items[k++] = fx_value_copy (&a->seq->items[j]);
  if (a->kind == FX_VALUE_LIST)
    *out = fx_value_take_list (s);
  else
    {
      s->type = a->seq->type == &fx_tuple_type_size ? a->seq->type : NULL;
      *out = fx_value_take_tuple (s);
    }
  return TRUE;
}

static gboolean
is_set (const FxValue *v)
{
  return v->kind == FX_VALUE_OBJECT && (v->obj->klass == &sc_set_klass || v->obj->klass == &sc_frozenset_klass);
}

static gboolean
set_binary (FxScript *S, ScBinOp op, const FxValue *a, const FxValue *b, FxValue *out, gboolean inplace)
{
  FxDict *x = ((ScSet *) a->obj)->d, *y = ((ScSet *) b->obj)->d;
  const FxValue *k;
  FxValue r;
  FxDict *d;
  if (inplace && a->obj->klass == &sc_set_klass)
    {
      r = fx_value_copy (a);
      d = x;
      if (op == SC_BIN_OR)
        for (guint i = 0; fx_dict_entry (y, i, &k, NULL); i++)
          fx_dict_set (d, fx_value_copy (k), fx_value_none ());
      else
        {
          FxSeq *rm = fx_seq_new (0);
          for (guint i = 0; fx_dict_entry (d, i, &k, NULL); i++)
            {
              gboolean in_y = fx_dict_get (y, k) != NULL;
              if ((op == SC_BIN_AND && !in_y) || (op == SC_BIN_SUB && in_y))
                fx_seq_append (rm, fx_value_copy (k));
            }
          for (guint i = 0; i < rm->len; i++)
            fx_dict_remove (d, &rm->items[i]);
          fx_seq_unref (rm);
          if (op == SC_BIN_XOR)
            for (guint i = 0; fx_dict_entry (y, i, &k, NULL); i++)
              {
                if (fx_dict_get (x, k))
                  fx_dict_remove (d, k);
                else
                  fx_dict_set (d, fx_value_copy (k), fx_value_none ());
              }
        }
      *out = r;
      return TRUE;
    }
  r = sc_set_new (S, a->obj->klass == &sc_frozenset_klass);
  d = ((ScSet *) r.obj)->d;
  switch (op)
    {
    case SC_BIN_OR:
      for (guint i = 0; fx_dict_entry (x, i, &k, NULL); i++)
        fx_dict_set (d, fx_value_copy (k), fx_value_none ());
      for (guint i = 0; fx_dict_entry (y, i, &k, NULL); i++)
        fx_dict_set (d, fx_value_copy (k), fx_value_none ());
      break;
    case SC_BIN_AND:
      for (guint i = 0; fx_dict_entry (x, i, &k, NULL); i++)
        if (fx_dict_get (y, k))
          fx_dict_set (d, fx_value_copy (k), fx_value_none ());
      break;
    case SC_BIN_SUB:
      for (guint i = 0; fx_dict_entry (x, i, &k, NULL); i++)
        if (!fx_dict_get (y, k))
          fx_dict_set (d, fx_value_copy (k), fx_value_none ());
      break;
    case SC_BIN_XOR:
      for (guint i = 0; fx_dict_entry (x, i, &k, NULL); i++)
        if (!fx_dict_get (y, k))
          fx_dict_set (d, fx_value_copy (k), fx_value_none ());
      for (guint i = 0; fx_dict_entry (y, i, &k, NULL); i++)
        if (!fx_dict_get (x, k))
          fx_dict_set (d, fx_value_copy (k), fx_value_none ());
      break;
    default:
      fx_value_clear (&r);
      return unsupported_binary (S, op, a, b, inplace);
    }
  *out = r;
  return TRUE;
}

/* dict_keys and dict_items views behave like sets in operators and comparisons. */
static gboolean
is_set_view (const FxValue *v)
{
  return v->kind == FX_VALUE_OBJECT
         && (v->obj->klass == &sc_dictkeys_klass || v->obj->klass == &sc_dictitems_klass);
}

/* A set with the values of a set, a dict view or any iterable (new reference in *out). */
static gboolean
set_of (FxScript *S, const FxValue *v, FxValue *out)
{
  FxDict *d;
  if (is_set (v))
    {
      *out = fx_value_copy (v);
      return TRUE;
    }
  *out = sc_set_new (S, FALSE);
  d = ((ScSet *) out->obj)->d;
  if (v->kind == FX_VALUE_OBJECT && v->obj->klass == &sc_dictkeys_klass)
    {
      const FxValue *k;
      for (guint i = 0; fx_dict_entry (((ScDictView *) v->obj)->d, i, &k, NULL); i++)
        fx_dict_set (d, fx_value_copy (k), fx_value_none ());
      return TRUE;
    }
  {
    ScIter it;
    FxValue item;
    int r;
    if (!sc_iter_init (S, v, &it))
      {
        fx_value_clear (out);
        return FALSE;
      }
    while ((r = sc_iter_next (S, &it, &item)) > 0)
      {
        if (!sc_dict_key_check (S, &item))
          {
            fx_value_clear (&item);
            r = -1;
            break;
          }
        fx_dict_set (d, item, fx_value_none ());
      }
    sc_iter_clear (&it);
    if (r < 0)
      {
        fx_value_clear (out);
        return FALSE;
      }
  }
  return TRUE;
}

/* X | Y on classes, None and typing objects: a union (types.UnionType), an ScTyping named
 * SC_UNION_NAME whose args are the member classes (None as NoneType), flattened, unique. */
static gboolean
is_union_member (FxScript *S, const FxValue *v)
{
  (void) S;
  return v->kind == FX_VALUE_NONE || sc_value_class (v) || sc_is_klass (v, &sc_typing_klass);
}

static gboolean
is_union (const FxValue *v)
{
  return sc_is_klass (v, &sc_typing_klass) && strcmp (((ScTyping *) v->obj)->name->data, SC_UNION_NAME) == 0;
}

static void
union_add_member (FxScript *S, FxSeq *members, const FxValue *v)
{
  FxValue m;
  if (is_union (v))
    {
      const FxSeq *a = ((ScTyping *) v->obj)->args.seq;
      for (guint i = 0; i < a->len; i++)
        union_add_member (S, members, &a->items[i]);
      return;
    }
  m = v->kind == FX_VALUE_NONE ? sc_class_value (S->types[SC_T_NONE]) : fx_value_copy (v);
  for (guint i = 0; i < members->len; i++)
    if (fx_value_equal (&members->items[i], &m))
      {
        fx_value_clear (&m);
        return;
      }
  fx_seq_append (members, m);
}

static FxValue
union_new (FxScript *S, const FxValue *a, const FxValue *b)
{
  FxSeq *members = fx_seq_new (0);
  ScTyping *t;
  union_add_member (S, members, a);
  union_add_member (S, members, b);
  if (members->len == 1)
    {
      FxValue one = fx_value_copy (&members->items[0]);
      fx_seq_unref (members);
      return one;
    }
  t = g_new0 (ScTyping, 1);
  fx_object_init (&t->base, &sc_typing_klass);
  t->name = fx_str_new (SC_UNION_NAME);
  t->args = fx_value_take_tuple (members);
  t->origin = fx_value_none ();
  return fx_value_take_object (&t->base);
}

/* Built-in types: sequences, strings, dicts, sets, tensors. */
static gboolean
builtin_binary (FxScript *S, ScBinOp op, const FxValue *a, const FxValue *b, FxValue *out,
                gboolean inplace)
{
  gboolean handled;
  if (IS_NUM (a) && IS_NUM (b))
    {
      if (sc_number_binary (S, op, a, b, out, &handled))
        return TRUE;
      if (handled)
        return FALSE;
      return unsupported_binary (S, op, a, b, inplace);
    }
  if (a->kind == FX_VALUE_TENSOR || b->kind == FX_VALUE_TENSOR)
    {
      FxValue args[2] = { *a, *b };
      return registry_call (S, inplace && a->kind == FX_VALUE_TENSOR ? ibin_op_paths[op] : bin_op_paths[op],
                            args, 2, out);
    }
  if (op == SC_BIN_ADD)
    {
      if (a->kind == FX_VALUE_STR && b->kind == FX_VALUE_STR)
        {
          FxStr *s = fx_mem_alloc (sizeof (FxStr) + a->s->len + b->s->len + 1);   /* as fx_str_unref frees */
          g_atomic_ref_count_init (&s->ref);
          s->hash = 0;
          s->len = a->s->len + b->s->len;
          memcpy (s->data, a->s->data, a->s->len);
          memcpy (s->data + a->s->len, b->s->data, b->s->len);
          s->data[s->len] = 0;
          *out = fx_value_take_str (s);
          return TRUE;
        }
      if (a->kind == FX_VALUE_LIST && b->kind == FX_VALUE_LIST)
        {
          if (inplace)
            {
              FxSeq *copy = seq_concat (b->seq, &(FxSeq) { .len = 0 });
              for (guint i = 0; i < copy->len; i++)
                fx_seq_append (a->seq, fx_value_copy (&copy->items[i]));
              fx_seq_unref (copy);
              *out = fx_value_copy (a);
              return TRUE;
            }
          *out = fx_value_take_list (seq_concat (a->seq, b->seq));
          return TRUE;
        }
      if (a->kind == FX_VALUE_LIST && inplace)
        {
          /* list += iterable */
          FxSeq *items;
          if (!sc_collect (S, b, &items))
            return FALSE;
          for (guint i = 0; i < items->len; i++)
            fx_seq_append (a->seq, fx_value_copy (&items->items[i]));
          fx_seq_unref (items);
          *out = fx_value_copy (a);
          return TRUE;
        }
      if (a->kind == FX_VALUE_TUPLE && b->kind == FX_VALUE_TUPLE)
        {
          FxSeq *s = seq_concat (a->seq, b->seq);
          s->type = a->seq->type == &fx_tuple_type_size ? a->seq->type : NULL;
          *out = fx_value_take_tuple (s);
          return TRUE;
        }
      if ((a->kind == FX_VALUE_STR || IS_SEQ (a)) && !has_class_behaviour (S, b))
        {
          const char *tn = a->kind == FX_VALUE_STR ? "str" : a->kind == FX_VALUE_LIST ? "list" : "tuple";
          return sc_raise (S, SC_T_TYPE_ERROR, "can only concatenate %s (not \"%s\") to %s", tn,
                           sc_type_name (S, b), tn);
        }
    }
  if (op == SC_BIN_MUL)
    {
      const FxValue *seq = NULL, *n = NULL;
      if ((a->kind == FX_VALUE_STR || IS_SEQ (a)))
        seq = a, n = b;
      else if ((b->kind == FX_VALUE_STR || IS_SEQ (b)))
        seq = b, n = a;
      if (seq)
        {
          int64_t count;
          if (!IS_INTLIKE (n))
            {
              if (n->kind == FX_VALUE_OBJECT && sc_special_lookup (S, n, "__index__"))
                {
                  if (!sc_index (S, n, &count))
                    return FALSE;
                }
              else
                return sc_raise (S, SC_T_TYPE_ERROR, "can't multiply sequence by non-int of type '%s'",
                                 sc_type_name (S, n));
            }
          else
            count = ival (n);
          if (inplace && seq == a && a->kind == FX_VALUE_LIST)
            {
              FxSeq *copy = seq_concat (a->seq, &(FxSeq) { .len = 0 });
              for (guint i = 0; i < a->seq->len; i++)
                fx_value_clear (&a->seq->items[i]);
              a->seq->len = 0;
              for (int64_t k = 0; k < count; k++)
                for (guint i = 0; i < copy->len; i++)
                  fx_seq_append (a->seq, fx_value_copy (&copy->items[i]));
              fx_seq_unref (copy);
              *out = fx_value_copy (a);
              return TRUE;
            }
          return seq_repeat (S, seq, count, out);
        }
    }
  if (op == SC_BIN_MOD && a->kind == FX_VALUE_STR)
    return sc_str_mod_format (S, a->s, b, out);
  if (op == SC_BIN_OR && a->kind == FX_VALUE_DICT && b->kind == FX_VALUE_DICT)
    {
      const FxValue *k, *v;
      FxValue r = inplace ? fx_value_copy (a) : sc_dict_copy (a->dict);
      for (guint i = 0; fx_dict_entry (b->dict, i, &k, &v); i++)
        fx_dict_set (r.dict, fx_value_copy (k), fx_value_copy (v));
      *out = r;
      return TRUE;
    }
  if (is_set (a) && is_set (b))
    return set_binary (S, op, a, b, out, inplace);
  if (op == SC_BIN_OR && is_union_member (S, a) && is_union_member (S, b)
      && (a->kind != FX_VALUE_NONE || b->kind != FX_VALUE_NONE))
    {
      *out = union_new (S, a, b);
      return TRUE;
    }
  if ((is_set_view (a) || is_set_view (b))
      && (op == SC_BIN_AND || op == SC_BIN_OR || op == SC_BIN_SUB || op == SC_BIN_XOR))
    {
      /* dict_keys / dict_items with any iterable: set(a) OP set(b), a set */
      FxValue x, y;
      gboolean ok;
      if (!set_of (S, a, &x))
        return FALSE;
      if (!set_of (S, b, &y))
        {
          fx_value_clear (&x);
          return FALSE;
        }
      ok = set_binary (S, op, &x, &y, out, FALSE);
      fx_value_clear (&x);
      fx_value_clear (&y);
      return ok;
    }
  return unsupported_binary (S, op, a, b, inplace);
}

gboolean
sc_binary (FxScript *S, ScBinOp op, const FxValue *a, const FxValue *b, FxValue *out,
           gboolean inplace)
{
  gboolean ca, cb;
  if (IS_NUM (a) && IS_NUM (b))
    {
      gboolean handled;
      if (sc_number_binary (S, op, a, b, out, &handled))
        return TRUE;
      if (handled)
        return FALSE;
      return unsupported_binary (S, op, a, b, inplace);
    }
  /* str % x formats first: str.__mod__ accepts anything (x.__rmod__ only runs first when
   * type(x) is a str subclass) */
  if (op == SC_BIN_MOD && a->kind == FX_VALUE_STR
      && !(b->kind == FX_VALUE_OBJECT && b->obj->klass == &sc_instance_klass
           && sc_isinstance_id (S, b, SC_T_STR)))
    return sc_str_mod_format (S, a->s, b, out);
  ca = has_class_behaviour (S, a);
  cb = has_class_behaviour (S, b);
  if (ca || cb)
    {
      FxScriptClass *ta = sc_type_of (S, a), *tb = sc_type_of (S, b);
      FxValue *fa = NULL, *fb = NULL, r;
      if (inplace && ca)
        {
          FxValue *fi = class_slot (S, a, sc_n.ibin[op]);
          if (fi)
            {
              if (!call_slot (S, fi, a, b, 1, &r))
                return FALSE;
              if (!sc_is_notimpl (S, &r))
                {
                  *out = r;
                  return TRUE;
                }
              fx_value_clear (&r);
            }
        }
      if (ca)
        fa = class_slot (S, a, sc_n.bin[op]);
      if (cb && tb != ta)
        fb = class_slot (S, b, sc_n.rbin[op]);
      if (fb && fa && sc_is_subclass (tb, ta))
        {
          if (!call_slot (S, fb, b, a, 1, &r))
            return FALSE;
          if (!sc_is_notimpl (S, &r))
            {
              *out = r;
              return TRUE;
            }
          fx_value_clear (&r);
          fb = NULL;
        }
      if (fa)
        {
          if (!call_slot (S, fa, a, b, 1, &r))
            return FALSE;
          if (!sc_is_notimpl (S, &r))
            {
              *out = r;
              return TRUE;
            }
          fx_value_clear (&r);
        }
      if (fb)
        {
          if (!call_slot (S, fb, b, a, 1, &r))
            return FALSE;
          if (!sc_is_notimpl (S, &r))
            {
              *out = r;
              return TRUE;
            }
          fx_value_clear (&r);
        }
      if ((ca && a->kind == FX_VALUE_OBJECT) || (cb && b->kind == FX_VALUE_OBJECT))
        return unsupported_binary (S, op, a, b, inplace);
    }
  return builtin_binary (S, op, a, b, out, inplace);
}

gboolean
sc_unary (FxScript *S, ScUnaryOp op, const FxValue *a, FxValue *out)
{
  static const char *const syms[] = { "unary -", "unary +", "unary ~" };
  static const char *const paths[] = { "operator.neg", "operator.pos", "operator.invert" };
  FxStr *names[] = { sc_n.neg, sc_n.pos, sc_n.invert };
  if (op == SC_UNARY_NOT)
    {
      gboolean t;
      if (!sc_truth (S, a, &t))
        return FALSE;
      *out = fx_value_bool (!t);
      return TRUE;
    }
  switch (a->kind)
    {
    case FX_VALUE_BOOL:
    case FX_VALUE_INT:
      {
        int64_t x = ival (a);
        if (op == SC_UNARY_NEG)
          {
            if (x == INT64_MIN)
              return int_overflow (S);
            *out = fx_value_int (-x);
          }
        else if (op == SC_UNARY_POS)
          *out = fx_value_int (x);
        else
          *out = fx_value_int (~x);
        return TRUE;
      }
    case FX_VALUE_FLOAT:
      if (op == SC_UNARY_INVERT)
        break;
      *out = fx_value_float (op == SC_UNARY_NEG ? -a->f : a->f);
      return TRUE;
    default:
      break;
    }
  if (has_class_behaviour (S, a))
    {
      FxValue *m = class_slot (S, a, names[op]);
      if (m)
        return call_slot (S, m, a, NULL, 0, out);
    }
  if (a->kind == FX_VALUE_TENSOR)
    return registry_call (S, paths[op], a, 1, out);
  return sc_raise (S, SC_T_TYPE_ERROR, "bad operand type for %s: '%s'", syms[op], sc_type_name (S, a));
}

/* ------------------------------------------------------------------ comparisons */

static gboolean
identical (const FxValue *a, const FxValue *b)
{
  if (a->kind != b->kind)
    return FALSE;
  switch (a->kind)
    {
    case FX_VALUE_NONE:
    case FX_VALUE_ELLIPSIS:
      return TRUE;
    case FX_VALUE_BOOL: return a->b == b->b;
    case FX_VALUE_INT: return a->i == b->i;
    case FX_VALUE_FLOAT: return a->f == b->f || (isnan (a->f) && isnan (b->f));
    case FX_VALUE_STR: return a->s == b->s || (a->s->len == b->s->len && memcmp (a->s->data, b->s->data, a->s->len) == 0);
    case FX_VALUE_DTYPE: return a->dtype == b->dtype;
    case FX_VALUE_DEVICE: return strcmp (a->s->data, b->s->data) == 0;
    default:
      return a->obj == b->obj;   /* every other payload is a pointer */
    }
}

static int
cmp_strings (const FxStr *a, const FxStr *b)
{
  gsize n = MIN (a->len, b->len);
  int c = memcmp (a->data, b->data, n);
  if (c)
    return c < 0 ? -1 : 1;
  return a->len < b->len ? -1 : a->len > b->len;
}

static gboolean
cmp_result (ScCmpOp op, int c)
{
  switch (op)
    {
    case SC_CMP_LT: return c < 0;
    case SC_CMP_LE: return c <= 0;
    case SC_CMP_GT: return c > 0;
    case SC_CMP_GE: return c >= 0;
    case SC_CMP_EQ: return c == 0;
    case SC_CMP_NE: return c != 0;
    default: return FALSE;
    }
}

static const char *
cmp_sym (ScCmpOp op)
{
  static const char *const s[] = { "<", "<=", "==", "!=", ">", ">=" };
  return op <= SC_CMP_GE ? s[op] : "?";
}

static ScCmpOp
cmp_swap (ScCmpOp op)
{
  switch (op)
    {
    case SC_CMP_LT: return SC_CMP_GT;
    case SC_CMP_LE: return SC_CMP_GE;
    case SC_CMP_GT: return SC_CMP_LT;
    case SC_CMP_GE: return SC_CMP_LE;
    default: return op;
    }
}

static FxStr *
cmp_dunder (ScCmpOp op)
{
  switch (op)
    {
    case SC_CMP_LT: return sc_n.lt;
    case SC_CMP_LE: return sc_n.le;
    case SC_CMP_GT: return sc_n.gt;
    case SC_CMP_GE: return sc_n.ge;
    case SC_CMP_EQ: return sc_n.eq;
    default: return sc_n.ne;
    }
}

static gboolean rich_compare (FxScript *S, ScCmpOp op, const FxValue *a, const FxValue *b, FxValue *out);

static gboolean
enter_recursive (FxScript *S, const char *where)
{
  if (++S->repr_depth > SC_RECURSION_LIMIT || !sc_check_stack (S))
    {
      S->repr_depth--;
      if (S->exc.kind == FX_VALUE_NONE)
        sc_raise (S, SC_T_RECURSION_ERROR, "maximum recursion depth exceeded%s", where);
      return FALSE;
    }
  return TRUE;
}

/* Sequences: first differing item decides, then the lengths. */
static gboolean
seq_compare (FxScript *S, ScCmpOp op, const FxSeq *a, const FxSeq *b, FxValue *out)
{
  guint n = MIN (a->len, b->len), i;
  if ((op == SC_CMP_EQ || op == SC_CMP_NE) && a->len != b->len)
    {
      *out = fx_value_bool (op == SC_CMP_NE);
      return TRUE;
    }
  if (!enter_recursive (S, " in comparison"))
    return FALSE;
  for (i = 0; i < n; i++)
    {
      gboolean eq;
      if (identical (&a->items[i], &b->items[i]))
        continue;
      if (!sc_equal (S, &a->items[i], &b->items[i], &eq))
        {
          S->repr_depth--;
          return FALSE;
        }
      if (!eq)
        break;
    }
  if (i < n)
    {
      gboolean ok;
      if (op == SC_CMP_EQ || op == SC_CMP_NE)
        {
          *out = fx_value_bool (op == SC_CMP_NE);
          S->repr_depth--;
          return TRUE;
        }
      ok = rich_compare (S, op, &a->items[i], &b->items[i], out);
      S->repr_depth--;
      return ok;
    }
  S->repr_depth--;
  *out = fx_value_bool (cmp_result (op, a->len < b->len ? -1 : a->len > b->len));
  return TRUE;
}

static gboolean
dict_equal (FxScript *S, FxDict *a, FxDict *b, gboolean *out)
{
  const FxValue *k, *v;
  if (fx_dict_len (a) != fx_dict_len (b))
    {
      *out = FALSE;
      return TRUE;
    }
  if (!enter_recursive (S, " in comparison"))
    return FALSE;
  for (guint i = 0; fx_dict_entry (a, i, &k, &v); i++)
    {
      FxValue *w = fx_dict_get (b, k);
      gboolean eq;
      if (!w)
        {
          *out = FALSE;
          S->repr_depth--;
          return TRUE;
        }
      if (!identical (v, w))
        {
          if (!sc_equal (S, v, w, &eq))
            {
              S->repr_depth--;
              return FALSE;
            }
          if (!eq)
            {
              *out = FALSE;
              S->repr_depth--;
              return TRUE;
            }
        }
    }
  S->repr_depth--;
  *out = TRUE;
  return TRUE;
}

static gboolean
set_compare (FxScript *S, ScCmpOp op, FxDict *a, FxDict *b, FxValue *out)
{
  const FxValue *k;
  gboolean a_in_b = TRUE, b_in_a = TRUE;
  for (guint i = 0; fx_dict_entry (a, i, &k, NULL) && a_in_b; i++)
    if (!fx_dict_get (b, k))
      a_in_b = FALSE;
  for (guint i = 0; fx_dict_entry (b, i, &k, NULL) && b_in_a; i++)
    if (!fx_dict_get (a, k))
      b_in_a = FALSE;
  switch (op)
    {
    case SC_CMP_EQ: *out = fx_value_bool (a_in_b && b_in_a); break;
    case SC_CMP_NE: *out = fx_value_bool (!(a_in_b && b_in_a)); break;
    case SC_CMP_LE: *out = fx_value_bool (a_in_b); break;
    case SC_CMP_LT: *out = fx_value_bool (a_in_b && !b_in_a); break;
    case SC_CMP_GE: *out = fx_value_bool (b_in_a); break;
    case SC_CMP_GT: *out = fx_value_bool (b_in_a && !a_in_b); break;
    default: break;
    }
  (void) S;
  return TRUE;
}

/* Every item of x is in y (items views hold unhashable values: no sets are built). */
static gboolean
all_contained_in (FxScript *S, const FxValue *x, const FxValue *y, gboolean *out)
{
  ScIter it;
  FxValue item;
  int r;
  *out = TRUE;
  if (!sc_iter_init (S, x, &it))
    return FALSE;
  while (*out && (r = sc_iter_next (S, &it, &item)) > 0)
    {
      gboolean ok = sc_contains (S, y, &item, out);
      fx_value_clear (&item);
      if (!ok)
        {
          r = -1;
          break;
        }
    }
  sc_iter_clear (&it);
  return r >= 0;   /* r stays > 0 when a missing item ended the loop */
}

/* dict_keys / dict_items against sets and views: sizes, then containment. */
static gboolean
view_compare (FxScript *S, ScCmpOp op, const FxValue *a, const FxValue *b, FxValue *out)
{
  int64_t la, lb;
  gboolean size_ok, contained = FALSE, result;
  if (!sc_len (S, a, &la) || !sc_len (S, b, &lb))
    return FALSE;
  switch (op)
    {
    case SC_CMP_EQ: case SC_CMP_NE: size_ok = la == lb; break;
    case SC_CMP_LT: size_ok = la < lb; break;
    case SC_CMP_LE: size_ok = la <= lb; break;
    case SC_CMP_GT: size_ok = la > lb; break;
    default: size_ok = la >= lb; break;
    }
  if (size_ok)
    {
      gboolean ok = op == SC_CMP_GT || op == SC_CMP_GE ? all_contained_in (S, b, a, &contained)
                                                       : all_contained_in (S, a, b, &contained);
      if (!ok)
        return FALSE;
    }
  result = size_ok && contained;
  *out = fx_value_bool (op == SC_CMP_NE ? !result : result);
  return TRUE;
}

/* Built-in comparison: TRUE with *out, or FALSE with *unsupported (nothing raised). */
static gboolean
builtin_compare (FxScript *S, ScCmpOp op, const FxValue *a, const FxValue *b, FxValue *out,
                 gboolean *unsupported)
{
  *unsupported = FALSE;
  if (IS_NUM (a) && IS_NUM (b))
    {
      int c;
      if (IS_INTLIKE (a) && IS_INTLIKE (b))
        {
          int64_t x = ival (a), y = ival (b);
          c = x < y ? -1 : x > y;
        }
      else
        {
          double x = fval (a), y = fval (b);
          if (isnan (x) || isnan (y))
            {
              *out = fx_value_bool (op == SC_CMP_NE);
              return TRUE;
            }
          if (a->kind == FX_VALUE_FLOAT && b->kind == FX_VALUE_FLOAT)
            c = x < y ? -1 : x > y;
          else
            {
              /* exact int/float comparison */
              FxValue fa = *a, fb = *b;
              if (fx_value_equal (&fa, &fb))
                c = 0;
              else
                c = x < y ? -1 : x > y ? 1 : (a->kind == FX_VALUE_FLOAT ? (x < (double) ival (b) ? -1 : 1)
                                                                        : (ival (a) < (int64_t) y ? -1 : 1));
            }
        }
      *out = fx_value_bool (cmp_result (op, c));
      return TRUE;
    }
  if (a->kind == FX_VALUE_STR && b->kind == FX_VALUE_STR)
    {
      *out = fx_value_bool (cmp_result (op, cmp_strings (a->s, b->s)));
      return TRUE;
    }
  if (IS_SEQ (a) && a->kind == b->kind)
    return seq_compare (S, op, a->seq, b->seq, out);
  if (a->kind == FX_VALUE_DICT && b->kind == FX_VALUE_DICT && (op == SC_CMP_EQ || op == SC_CMP_NE))
    {
      gboolean eq;
      if (!dict_equal (S, a->dict, b->dict, &eq))
        return FALSE;
      *out = fx_value_bool (op == SC_CMP_EQ ? eq : !eq);
      return TRUE;
    }
  if (is_set (a) && is_set (b))
    return set_compare (S, op, ((ScSet *) a->obj)->d, ((ScSet *) b->obj)->d, out);
  if ((op == SC_CMP_EQ || op == SC_CMP_NE) && is_union (a) && is_union (b))
    {
      /* unions are equal when they have the same members in any order */
      const FxSeq *x = ((ScTyping *) a->obj)->args.seq, *y = ((ScTyping *) b->obj)->args.seq;
      gboolean eq = x->len == y->len;
      for (guint i = 0; eq && i < x->len; i++)
        {
          gboolean found = FALSE;
          for (guint j = 0; !found && j < y->len; j++)
            found = fx_value_equal (&x->items[i], &y->items[j]);
          eq = found;
        }
      *out = fx_value_bool (op == SC_CMP_EQ ? eq : !eq);
      return TRUE;
    }
  if ((is_set_view (a) && (is_set (b) || is_set_view (b))) || (is_set (a) && is_set_view (b)))
    return view_compare (S, op, a, b, out);
  if (a->kind == FX_VALUE_TENSOR || b->kind == FX_VALUE_TENSOR)
    {
      static const char *const paths[] = { "operator.lt", "operator.le", "operator.eq",
                                           "operator.ne", "operator.gt", "operator.ge" };
      FxValue args[2] = { *a, *b };
      return registry_call (S, paths[op], args, 2, out);
    }
  if (op == SC_CMP_EQ || op == SC_CMP_NE)
    {
      gboolean eq = identical (a, b);
      if (!eq && a->kind == b->kind && a->kind != FX_VALUE_OBJECT)
        eq = fx_value_equal (a, b);
      else if (!eq && a->kind == FX_VALUE_OBJECT && b->kind == FX_VALUE_OBJECT
               && a->obj->klass == b->obj->klass && a->obj->klass != &sc_instance_klass
               && a->obj->klass->equal)
        eq = a->obj->klass->equal (a->obj, b->obj);
      *out = fx_value_bool (op == SC_CMP_EQ ? eq : !eq);
      return TRUE;
    }
  *unsupported = TRUE;
  return FALSE;
}

static gboolean
rich_compare (FxScript *S, ScCmpOp op, const FxValue *a, const FxValue *b, FxValue *out)
{
  gboolean ca = has_class_behaviour (S, a), cb = has_class_behaviour (S, b), unsupported;
  if (ca || cb)
    {
      FxScriptClass *ta = sc_type_of (S, a), *tb = sc_type_of (S, b);
      FxValue *fa = ca ? class_slot (S, a, cmp_dunder (op)) : NULL;
      FxValue *fb = cb ? class_slot (S, b, cmp_dunder (cmp_swap (op))) : NULL;
      FxValue r;
      gboolean checked_reflected = FALSE;
      if (fb && ta != tb && sc_is_subclass (tb, ta))
        {
          checked_reflected = TRUE;
          if (!call_slot (S, fb, b, a, 1, &r))
            return FALSE;
          if (!sc_is_notimpl (S, &r))
            {
              *out = r;
              return TRUE;
            }
          fx_value_clear (&r);
        }
      if (fa)
        {
          if (!call_slot (S, fa, a, b, 1, &r))
            return FALSE;
          if (!sc_is_notimpl (S, &r))
            {
              *out = r;
              return TRUE;
            }
          fx_value_clear (&r);
        }
      if (fb && !checked_reflected)
        {
          if (!call_slot (S, fb, b, a, 1, &r))
            return FALSE;
          if (!sc_is_notimpl (S, &r))
            {
              *out = r;
              return TRUE;
            }
          fx_value_clear (&r);
        }
      if (op == SC_CMP_NE && ca)
        {
          /* object.__ne__ inverts __eq__ */
          FxValue *eq = class_slot (S, a, sc_n.eq);
          if (eq)
            {
              gboolean t;
              if (!call_slot (S, eq, a, b, 1, &r))
                return FALSE;
              if (!sc_is_notimpl (S, &r))
                {
                  gboolean ok = sc_truth (S, &r, &t);
                  fx_value_clear (&r);
                  if (!ok)
                    return FALSE;
                  *out = fx_value_bool (!t);
                  return TRUE;
                }
              fx_value_clear (&r);
            }
        }
      if (op == SC_CMP_EQ || op == SC_CMP_NE)
        {
          gboolean eq = identical (a, b);
          *out = fx_value_bool (op == SC_CMP_EQ ? eq : !eq);
          return TRUE;
        }
      if ((ca && a->kind == FX_VALUE_OBJECT) || (cb && b->kind == FX_VALUE_OBJECT))
        return sc_raise (S, SC_T_TYPE_ERROR, "'%s' not supported between instances of '%s' and '%s'",
                         cmp_sym (op), sc_type_name (S, a), sc_type_name (S, b));
    }
  if (builtin_compare (S, op, a, b, out, &unsupported))
    return TRUE;
  if (!unsupported)
    return FALSE;
  return sc_raise (S, SC_T_TYPE_ERROR, "'%s' not supported between instances of '%s' and '%s'",
                   cmp_sym (op), sc_type_name (S, a), sc_type_name (S, b));
}

gboolean
sc_compare (FxScript *S, ScCmpOp op, const FxValue *a, const FxValue *b, FxValue *out)
{
  gboolean r;
  switch (op)
    {
    case SC_CMP_IS:
      *out = fx_value_bool (identical (a, b));
      return TRUE;
    case SC_CMP_IS_NOT:
      *out = fx_value_bool (!identical (a, b));
      return TRUE;
    case SC_CMP_IN:
    case SC_CMP_NOT_IN:
      if (!sc_contains (S, b, a, &r))
        return FALSE;
      *out = fx_value_bool (op == SC_CMP_IN ? r : !r);
      return TRUE;
    default:
      if (IS_INTLIKE (a) && IS_INTLIKE (b))
        {
          int64_t x = ival (a), y = ival (b);
          *out = fx_value_bool (cmp_result (op, x < y ? -1 : x > y));
          return TRUE;
        }
      return rich_compare (S, op, a, b, out);
    }
}

gboolean
sc_equal (FxScript *S, const FxValue *a, const FxValue *b, gboolean *out)
{
  FxValue r;
  gboolean ok;
  if (identical (a, b) && a->kind != FX_VALUE_FLOAT)
    {
      *out = TRUE;
      return TRUE;
    }
  if (IS_NUM (a) && IS_NUM (b))
    {
      *out = fx_value_equal (a, b);
      return TRUE;
    }
  if (a->kind == FX_VALUE_STR && b->kind == FX_VALUE_STR)
    {
      *out = a->s->len == b->s->len && memcmp (a->s->data, b->s->data, a->s->len) == 0;
      return TRUE;
    }
  if (!rich_compare (S, SC_CMP_EQ, a, b, &r))
    return FALSE;
  if (r.kind == FX_VALUE_BOOL)
    {
      *out = r.b;
      return TRUE;
    }
  ok = sc_truth (S, &r, out);
  fx_value_clear (&r);
  return ok;
}

gboolean
sc_lt (FxScript *S, const FxValue *a, const FxValue *b, gboolean *out)
{
  FxValue r;
  gboolean ok;
  if (!sc_compare (S, SC_CMP_LT, a, b, &r))
    return FALSE;
  if (r.kind == FX_VALUE_BOOL)
    {
      *out = r.b;
      return TRUE;
    }
  ok = sc_truth (S, &r, out);
  fx_value_clear (&r);
  return ok;
}

/* ------------------------------------------------------------------ hashing */

gboolean
sc_check_hashable (FxScript *S, const FxValue *v)
{
  gint64 h;
  switch (v->kind)
    {
    case FX_VALUE_NONE: case FX_VALUE_BOOL: case FX_VALUE_INT: case FX_VALUE_FLOAT:
    case FX_VALUE_STR: case FX_VALUE_DTYPE: case FX_VALUE_DEVICE: case FX_VALUE_TENSOR:
    case FX_VALUE_NODE: case FX_VALUE_OP: case FX_VALUE_ELLIPSIS:
      return TRUE;
    case FX_VALUE_TUPLE:
      for (guint i = 0; i < v->seq->len; i++)
        if (!sc_check_hashable (S, &v->seq->items[i]))
          return FALSE;
      return TRUE;
    case FX_VALUE_OBJECT:
      if (v->obj->klass == &sc_instance_klass || v->obj->klass == &sc_set_klass)
        return sc_hash (S, v, &h);
      return TRUE;
    default:
      return sc_raise (S, SC_T_TYPE_ERROR, "unhashable type: '%s'", sc_type_name (S, v));
    }
}

gboolean
sc_dict_key_check (FxScript *S, const FxValue *key)
{
  if (key->kind == FX_VALUE_STR || key->kind == FX_VALUE_INT)
    return TRUE;
  return sc_check_hashable (S, key);
}

/* hash(float) as CPython: the value as a rational reduced modulo 2**61 - 1 (a power of two
 * is a rotation in 61 bits), ±314159 for infinities. */
gint64
sc_hash_float (double f)
{
  const guint64 P = (G_GUINT64_CONSTANT (1) << 61) - 1;
  int e, rot;
  double m;
  guint64 x;
  gint64 h;
  if (isinf (f))
    return f > 0 ? 314159 : -314159;
  if (isnan (f) || f == 0)
    return 0;
  m = frexp (fabs (f), &e);           /* f = m * 2**e, 0.5 <= m < 1 */
  x = (guint64) ldexp (m, 53);        /* exact: 53-bit integer mantissa, < P */
  e -= 53;
  rot = ((e % 61) + 61) % 61;
  if (rot)
    x = ((x << rot) & P) | x >> (61 - rot);
  if (x == P)
    x = 0;
  h = f < 0 ? -(gint64) x : (gint64) x;
  return h == -1 ? -2 : h;
}

gboolean
sc_hash (FxScript *S, const FxValue *v, gint64 *out)
{
  switch (v->kind)
    {
    case FX_VALUE_BOOL:
    case FX_VALUE_INT:
      {
        /* CPython: x mod (2**61 - 1), with -1 mapped to -2 */
        const int64_t P = (INT64_C (1) << 61) - 1;
        int64_t x = ival (v), h;
        h = (x < 0 ? -((-(x + 1)) % P + 1) : x % P);
        if (x < 0 && h == -P)
          h = 0;
        *out = h == -1 ? -2 : h;
        return TRUE;
      }
    case FX_VALUE_FLOAT:
      *out = sc_hash_float (v->f);
      return TRUE;
    case FX_VALUE_LIST:
    case FX_VALUE_DICT:
    case FX_VALUE_SLICE:
      return sc_raise (S, SC_T_TYPE_ERROR, "unhashable type: '%s'", sc_type_name (S, v));
    case FX_VALUE_TUPLE:
      {
        /* CPython 3.11's xxHash-style combination of the items' hashes */
        const guint64 prime1 = G_GUINT64_CONSTANT (11400714785074694791);
        const guint64 prime2 = G_GUINT64_CONSTANT (14029467366897019727);
        const guint64 prime5 = G_GUINT64_CONSTANT (2870177450012600261);
        guint64 acc = prime5;
        for (guint i = 0; i < v->seq->len; i++)
          {
            gint64 ih;
            if (!sc_hash (S, &v->seq->items[i], &ih))
              return FALSE;
            acc += (guint64) ih * prime2;
            acc = acc << 31 | acc >> 33;
            acc *= prime1;
          }
        acc += (guint64) v->seq->len ^ (prime5 ^ G_GUINT64_CONSTANT (3527539));
        *out = acc == G_MAXUINT64 ? 1546275796 : (gint64) acc;
        return TRUE;
      }
    case FX_VALUE_TENSOR:
      *out = (gint64) (guintptr) v->tensor;   /* Tensor.__hash__ is id(self) */
      return TRUE;
    case FX_VALUE_OBJECT:
      if (v->obj->klass == &sc_set_klass)
        return sc_raise (S, SC_T_TYPE_ERROR, "unhashable type: 'set'");
      if (v->obj->klass == &sc_instance_klass)
        {
          FxValue *m = sc_type_lookup (S, ((ScInstance *) v->obj)->cls, sc_n.hash), r;
          if (m && m->kind == FX_VALUE_NONE)
            return sc_raise (S, SC_T_TYPE_ERROR, "unhashable type: '%s'", sc_type_name (S, v));
          if (m && !is_object_slot (S, m, sc_n.hash))
            {
              if (!call_slot (S, m, v, NULL, 0, &r))
                return FALSE;
              if (!IS_INTLIKE (&r))
                {
                  fx_value_clear (&r);
                  return sc_raise (S, SC_T_TYPE_ERROR, "__hash__ method should return an integer");
                }
              *out = ival (&r);
              return TRUE;
            }
          *out = (gint64) ((guintptr) v->obj >> 4);
          return TRUE;
        }
      *out = fx_value_hash (v);
      return TRUE;
    default:
      *out = fx_value_hash (v);
      return TRUE;
    }
}

/* ------------------------------------------------------------------ items */

/* The number of values of a range, without overflow (up to 2**64 - 1). */
guint64
sc_range_count (const ScRange *r)
{
  if (r->step > 0 && r->start < r->stop)
    return ((guint64) r->stop - (guint64) r->start - 1) / (guint64) r->step + 1;
  if (r->step < 0 && r->start > r->stop)
    return ((guint64) r->start - (guint64) r->stop - 1) / (0 - (guint64) r->step) + 1;
  return 0;
}

gboolean
sc_index (FxScript *S, const FxValue *v, int64_t *out)
{
  if (IS_INTLIKE (v))
    {
      *out = ival (v);
      return TRUE;
    }
  if (has_class_behaviour (S, v))
    {
      FxValue *m = class_slot (S, v, sc_n.index), r;
      if (m)
        {
          if (!call_slot (S, m, v, NULL, 0, &r))
            return FALSE;
          if (!IS_INTLIKE (&r))
            {
              const char *tn = sc_type_name (S, &r);
              fx_value_clear (&r);
              return sc_raise (S, SC_T_TYPE_ERROR, "__index__ returned non-int (type %s)", tn);
            }
          *out = ival (&r);
          return TRUE;
        }
    }
  return sc_raise (S, SC_T_TYPE_ERROR, "'%s' object cannot be interpreted as an integer",
                   sc_type_name (S, v));
}

static gboolean
slice_part (FxScript *S, const FxValue *v, gboolean *given, int64_t *out)
{
  *given = v->kind != FX_VALUE_NONE;
  if (!*given)
    return TRUE;
  if (IS_INTLIKE (v))
    {
      *out = ival (v);
      return TRUE;
    }
  if (has_class_behaviour (S, v) && class_slot (S, v, sc_n.index))
    return sc_index (S, v, out);
  return sc_raise (S, SC_T_TYPE_ERROR, "slice indices must be integers or None or have an __index__ method");
}

gboolean
sc_slice_indices (FxScript *S, const FxSlice *sl, int64_t len, int64_t *start, int64_t *stop,
                  int64_t *step, int64_t *count)
{
  gboolean has_start, has_stop, has_step;
  int64_t a = 0, b = 0, s = 1;
  if (!slice_part (S, &sl->step, &has_step, &s))
    return FALSE;
  if (!has_step)
    s = 1;
  if (s == 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "slice step cannot be zero");
  if (!slice_part (S, &sl->start, &has_start, &a) || !slice_part (S, &sl->stop, &has_stop, &b))
    return FALSE;
  if (!has_start)
    a = s < 0 ? len - 1 : 0;
  else
    {
      if (a < 0)
        {
          a += len;
          if (a < 0)
            a = s < 0 ? -1 : 0;
        }
      else if (a >= len)
        a = s < 0 ? len - 1 : len;
    }
  if (!has_stop)
    b = s < 0 ? -1 : len;
  else
    {
      if (b < 0)
        {
          b += len;
          if (b < 0)
            b = s < 0 ? -1 : 0;
        }
      else if (b >= len)
        b = s < 0 ? len - 1 : len;
    }
  *start = a;
  *stop = b;
  *step = s;
  if (s < 0)
    *count = b < a ? (a - b - 1) / (-s) + 1 : 0;
  else
    *count = a < b ? (b - a - 1) / s + 1 : 0;
  return TRUE;
}

int64_t
sc_utf8_len (const FxStr *s)
{
  int64_t n = 0;
  for (gsize i = 0; i < s->len; i++)
    if (((guchar) s->data[i] & 0xC0) != 0x80)
      n++;
  return n;
}

static gboolean
is_ascii (const FxStr *s)
{
  for (gsize i = 0; i < s->len; i++)
    if ((guchar) s->data[i] >= 0x80)
      return FALSE;
  return TRUE;
}

static gboolean
str_getitem (FxScript *S, const FxValue *obj, const FxValue *key, FxValue *out)
{
  FxStr *s = obj->s;
  gboolean ascii = is_ascii (s);
  int64_t len = ascii ? (int64_t) s->len : sc_utf8_len (s);
  if (key->kind == FX_VALUE_SLICE)
    {
      int64_t start, stop, step, count;
      GString *g;
      if (!sc_slice_indices (S, key->slice, len, &start, &stop, &step, &count))
        return FALSE;
      g = g_string_sized_new (count);
      for (int64_t i = 0, k = start; i < count; i++, k += step)
        {
          if (ascii)
            g_string_append_c (g, s->data[k]);
          else
            {
              const char *p = g_utf8_offset_to_pointer (s->data, k);
              g_string_append_len (g, p, g_utf8_next_char (p) - p);
            }
        }
      *out = fx_value_take_str (fx_str_new_len (g->str, g->len));
      g_string_free (g, TRUE);
      return TRUE;
    }
  {
    int64_t i;
    if (!IS_INTLIKE (key) && !(has_class_behaviour (S, key) && class_slot (S, key, sc_n.index)))
      return sc_raise (S, SC_T_TYPE_ERROR, "string indices must be integers, not '%s'", sc_type_name (S, key));
    if (!sc_index (S, key, &i))
      return FALSE;
    if (i < 0)
      i += len;
    if (i < 0 || i >= len)
      return sc_raise (S, SC_T_INDEX_ERROR, "string index out of range");
    if (ascii)
      *out = fx_value_take_str (fx_str_new_len (s->data + i, 1));
    else
      {
        const char *p = g_utf8_offset_to_pointer (s->data, i);
        *out = fx_value_take_str (fx_str_new_len (p, g_utf8_next_char (p) - p));
      }
    return TRUE;
  }
}

static gboolean
seq_getitem (FxScript *S, const FxValue *obj, const FxValue *key, FxValue *out)
{
  FxSeq *seq = obj->seq;
  const char *what = obj->kind == FX_VALUE_LIST ? "list" : "tuple";
  if (key->kind == FX_VALUE_SLICE)
    {
      int64_t start, stop, step, count;
      FxSeq *r;
      if (!sc_slice_indices (S, key->slice, seq->len, &start, &stop, &step, &count))
        return FALSE;
      r = fx_seq_new (count);
      for (int64_t i = 0, k = start; i < count; i++, k += step)
        r->items[i] = fx_value_copy (&seq->items[k]);
      if (obj->kind == FX_VALUE_LIST)
        *out = fx_value_take_list (r);
      else
        {
          r->type = seq->type && seq->type->n_fields == 0 ? seq->type : NULL;
          *out = fx_value_take_tuple (r);
        }
      return TRUE;
    }
  {
    int64_t i;
    if (!IS_INTLIKE (key) && !(has_class_behaviour (S, key) && class_slot (S, key, sc_n.index)))
      return sc_raise (S, SC_T_TYPE_ERROR, "%s indices must be integers or slices, not %s", what,
                       sc_type_name (S, key));
    if (!sc_index (S, key, &i))
      return FALSE;
    if (i < 0)
      i += seq->len;
    if (i < 0 || i >= (int64_t) seq->len)
      return sc_raise (S, SC_T_INDEX_ERROR, "%s index out of range", what);
    *out = fx_value_copy (&seq->items[i]);
    return TRUE;
  }
}

static FxValue
generic_alias (FxScript *S, const FxValue *origin, const FxValue *key)
{
  ScTyping *t = g_new0 (ScTyping, 1);
  FxScriptClass *cls = sc_value_class (origin);
  fx_object_init (&t->base, &sc_typing_klass);
  t->name = fx_str_new (cls ? cls->name->data : "?");
  t->origin = fx_value_copy (origin);
  if (key->kind == FX_VALUE_TUPLE)
    t->args = fx_value_copy (key);
  else
    {
      FxSeq *a = fx_seq_new (1);
      a->items[0] = fx_value_copy (key);
      t->args = fx_value_take_tuple (a);
    }
  (void) S;
  return fx_value_take_object (&t->base);
}

gboolean
sc_getitem (FxScript *S, const FxValue *obj, const FxValue *key, FxValue *out)
{
  switch (obj->kind)
    {
    case FX_VALUE_LIST:
      return seq_getitem (S, obj, key, out);
    case FX_VALUE_TUPLE:
      if (obj->seq->type && has_class_behaviour (S, obj) && class_slot (S, obj, sc_n.getitem))
        break;
      return seq_getitem (S, obj, key, out);
    case FX_VALUE_STR:
      return str_getitem (S, obj, key, out);
    case FX_VALUE_DICT:
      {
        FxValue *v;
        if (!sc_dict_key_check (S, key))
          return FALSE;
        v = fx_dict_get (obj->dict, key);
        if (!v)
          return sc_raise_key_error (S, key);
        *out = fx_value_copy (v);
        return TRUE;
      }
    default:
      break;
    }
  if (obj->kind == FX_VALUE_OBJECT && obj->obj->klass == &sc_range_klass)
    {
      ScRange *r = (ScRange *) obj->obj;
      int64_t len;
      if (!sc_len (S, obj, &len))
        return FALSE;
      if (key->kind == FX_VALUE_SLICE)
        {
          int64_t start, stop, step, count;
          if (!sc_slice_indices (S, key->slice, len, &start, &stop, &step, &count))
            return FALSE;
          *out = sc_range_new (r->start + start * r->step, r->start + stop * r->step, r->step * step);
          return TRUE;
        }
      {
        int64_t i;
        if (!sc_index (S, key, &i))
          return FALSE;
        if (i < 0)
          i += len;
        if (i < 0 || i >= len)
          return sc_raise (S, SC_T_INDEX_ERROR, "range object index out of range");
        *out = fx_value_int ((int64_t) ((guint64) r->start + (guint64) i * (guint64) r->step));
        return TRUE;
      }
    }
  if (has_class_behaviour (S, obj))
    {
      FxValue *m = class_slot (S, obj, sc_n.getitem);
      if (m)
        return call_slot (S, m, obj, key, 1, out);
    }
  {
    FxScriptClass *cls = sc_value_class (obj);
    if (cls)
      {
        FxValue *cg = sc_type_lookup (S, cls, sc_n.class_getitem);
        if (cg)
          {
            if (cg->kind == FX_VALUE_OBJECT && cg->obj->klass == &sc_classmethod_klass)
              return sc_call2 (S, &((ScWrapper *) cg->obj)->func, obj, key, out);
            return sc_call2 (S, cg, obj, key, out);
          }
        if (cls->flags & SC_CLASS_BUILTIN)
          {
            *out = generic_alias (S, obj, key);
            return TRUE;
          }
        return sc_raise (S, SC_T_TYPE_ERROR, "type '%s' is not subscriptable", cls->name->data);
      }
  }
  if (obj->kind == FX_VALUE_TENSOR)
    {
      FxValue args[2] = { *obj, *key };
      return registry_call (S, "operator.getitem", args, 2, out);
    }
  return sc_raise (S, SC_T_TYPE_ERROR, "'%s' object is not subscriptable", sc_type_name (S, obj));
}

static gboolean
list_setslice (FxScript *S, FxSeq *seq, const FxSlice *sl, const FxValue *value)
{
  int64_t start, stop, step, count;
  FxSeq *items;
  if (!sc_slice_indices (S, sl, seq->len, &start, &stop, &step, &count))
    return FALSE;
  if (!sc_collect (S, value, &items))
    return FALSE;
  if (step == 1)
    {
      /* replace seq[start:stop] with items (lengths may differ) */
      int64_t old = stop > start ? stop - start : 0;
      guint new_len = seq->len - old + items->len;
      FxValue *n = g_new0 (FxValue, MAX (new_len, 1));
      guint k = 0;
      for (int64_t i = 0; i < start; i++)
        n[k++] = seq->items[i];
      for (guint i = 0; i < items->len; i++)
        n[k++] = fx_value_copy (&items->items[i]);
      for (int64_t i = start; i < start + old; i++)
        fx_value_clear (&seq->items[i]);
      for (guint i = start + old; i < seq->len; i++)
        n[k++] = seq->items[i];
      g_free (seq->items);
      seq->items = n;
      seq->len = seq->cap = new_len;
      fx_seq_unref (items);
      return TRUE;
    }
  if ((int64_t) items->len != count)
    {
      gboolean r = sc_raise (S, SC_T_VALUE_ERROR,
                             "attempt to assign sequence of size %u to extended slice of size %" G_GINT64_FORMAT,
                             items->len, count);
      fx_seq_unref (items);
      return r;
    }
  for (int64_t i = 0, k = start; i < count; i++, k += step)
    {
      fx_value_clear (&seq->items[k]);
      seq->items[k] = fx_value_copy (&items->items[i]);
    }
  fx_seq_unref (items);
  return TRUE;
}

gboolean
sc_setitem (FxScript *S, const FxValue *obj, const FxValue *key, const FxValue *value)
{
  if (obj->kind == FX_VALUE_LIST)
    {
      int64_t i;
      if (key->kind == FX_VALUE_SLICE)
        return list_setslice (S, obj->seq, key->slice, value);
      if (!IS_INTLIKE (key) && !(has_class_behaviour (S, key) && class_slot (S, key, sc_n.index)))
        return sc_raise (S, SC_T_TYPE_ERROR, "list indices must be integers or slices, not %s",
                         sc_type_name (S, key));
      if (!sc_index (S, key, &i))
        return FALSE;
      if (i < 0)
        i += obj->seq->len;
      if (i < 0 || i >= (int64_t) obj->seq->len)
        return sc_raise (S, SC_T_INDEX_ERROR, "list assignment index out of range");
      {
        FxValue old = obj->seq->items[i];
        obj->seq->items[i] = fx_value_copy (value);
        fx_value_clear (&old);
      }
      return TRUE;
    }
  if (obj->kind == FX_VALUE_DICT)
    {
      if (!sc_dict_key_check (S, key))
        return FALSE;
      fx_dict_set (obj->dict, fx_value_copy (key), fx_value_copy (value));
      return TRUE;
    }
  if (has_class_behaviour (S, obj))
    {
      FxValue *m = class_slot (S, obj, sc_n.setitem), r;
      if (m)
        {
          FxValue args[2] = { *key, *value };
          if (!call_slot (S, m, obj, args, 2, &r))
            return FALSE;
          fx_value_clear (&r);
          return TRUE;
        }
    }
  if (obj->kind == FX_VALUE_TENSOR)
    {
      FxValue args[3] = { *obj, *key, *value }, r;
      if (!registry_call (S, "operator.setitem", args, 3, &r))
        return FALSE;
      fx_value_clear (&r);
      return TRUE;
    }
  return sc_raise (S, SC_T_TYPE_ERROR, "'%s' object does not support item assignment",
                   sc_type_name (S, obj));
}

gboolean
sc_delitem (FxScript *S, const FxValue *obj, const FxValue *key)
{
  if (obj->kind == FX_VALUE_LIST)
    {
      FxSeq *seq = obj->seq;
      if (key->kind == FX_VALUE_SLICE)
        {
          int64_t start, stop, step, count;
          gboolean *drop;
          guint k = 0;
          if (!sc_slice_indices (S, key->slice, seq->len, &start, &stop, &step, &count))
            return FALSE;
          drop = g_new0 (gboolean, seq->len + 1);
          for (int64_t i = 0, j = start; i < count; i++, j += step)
            drop[j] = TRUE;
          for (guint i = 0; i < seq->len; i++)
            {
              if (drop[i])
                fx_value_clear (&seq->items[i]);
              else
                seq->items[k++] = seq->items[i];
            }
          seq->len = k;
          g_free (drop);
          return TRUE;
        }
      {
        int64_t i;
        if (!IS_INTLIKE (key) && !(has_class_behaviour (S, key) && class_slot (S, key, sc_n.index)))
          return sc_raise (S, SC_T_TYPE_ERROR, "list indices must be integers or slices, not %s",
                           sc_type_name (S, key));
        if (!sc_index (S, key, &i))
          return FALSE;
        if (i < 0)
          i += seq->len;
        if (i < 0 || i >= (int64_t) seq->len)
          return sc_raise (S, SC_T_INDEX_ERROR, "list assignment index out of range");
        fx_value_clear (&seq->items[i]);
        memmove (&seq->items[i], &seq->items[i + 1], sizeof (FxValue) * (seq->len - i - 1));
        seq->len--;
        return TRUE;
      }
    }
  if (obj->kind == FX_VALUE_DICT)
    {
      if (!sc_dict_key_check (S, key))
        return FALSE;
      if (!fx_dict_remove (obj->dict, key))
        return sc_raise_key_error (S, key);
      return TRUE;
    }
  if (has_class_behaviour (S, obj))
    {
      FxValue *m = class_slot (S, obj, sc_n.delitem), r;
      if (m)
        {
          if (!call_slot (S, m, obj, key, 1, &r))
            return FALSE;
          fx_value_clear (&r);
          return TRUE;
        }
    }
  return sc_raise (S, SC_T_TYPE_ERROR, "'%s' object doesn't support item deletion", sc_type_name (S, obj));
}

gboolean
sc_len (FxScript *S, const FxValue *v, int64_t *out)
{
  switch (v->kind)
    {
    case FX_VALUE_STR: *out = sc_utf8_len (v->s); return TRUE;
    case FX_VALUE_TUPLE:
      if (v->seq->type && has_class_behaviour (S, v) && class_slot (S, v, sc_n.len))
        break;
      *out = v->seq->len;
      return TRUE;
    case FX_VALUE_LIST: *out = v->seq->len; return TRUE;
    case FX_VALUE_DICT: *out = fx_dict_len (v->dict); return TRUE;
    case FX_VALUE_OBJECT:
      {
        const FxObjectClass *k = v->obj->klass;
        if (k == &sc_set_klass || k == &sc_frozenset_klass)
          {
            *out = fx_dict_len (((ScSet *) v->obj)->d);
            return TRUE;
          }
        if (k == &sc_dictkeys_klass || k == &sc_dictvalues_klass || k == &sc_dictitems_klass)
          {
            *out = fx_dict_len (((ScDictView *) v->obj)->d);
            return TRUE;
          }
        if (k == &sc_range_klass)
          {
            guint64 n = sc_range_count ((ScRange *) v->obj);
            if (n > (guint64) G_MAXINT64)
              return sc_raise (S, SC_T_OVERFLOW_ERROR, "Python int too large to convert to C ssize_t");
            *out = (int64_t) n;
            return TRUE;
          }
        break;
      }
    default:
      break;
    }
  if (has_class_behaviour (S, v))
    {
      FxValue *m = class_slot (S, v, sc_n.len), r;
      if (m)
        {
          int64_t n;
          if (!call_slot (S, m, v, NULL, 0, &r))
            return FALSE;
          if (!IS_INTLIKE (&r))
            {
              const char *tn = sc_type_name (S, &r);
              fx_value_clear (&r);
              return sc_raise (S, SC_T_TYPE_ERROR, "'%s' object cannot be interpreted as an integer", tn);
            }
          n = ival (&r);
          if (n < 0)
            return sc_raise (S, SC_T_VALUE_ERROR, "__len__() should return >= 0");
          *out = n;
          return TRUE;
        }
    }
  if (v->kind == FX_VALUE_TENSOR)
    {
      if (v->tensor->ndim == 0)
        return sc_raise (S, SC_T_TYPE_ERROR, "len() of a 0-d tensor");
      *out = v->tensor->shape[0];
      return TRUE;
    }
  return sc_raise (S, SC_T_TYPE_ERROR, "object of type '%s' has no len()", sc_type_name (S, v));
}

gboolean
sc_contains (FxScript *S, const FxValue *container, const FxValue *item, gboolean *out)
{
  switch (container->kind)
    {
    case FX_VALUE_LIST:
    case FX_VALUE_TUPLE:
      for (guint i = 0; i < container->seq->len; i++)
        {
          gboolean eq;
          if (identical (&container->seq->items[i], item))
            {
              *out = TRUE;
              return TRUE;
            }
          if (!sc_equal (S, &container->seq->items[i], item, &eq))
            return FALSE;
          if (eq)
            {
              *out = TRUE;
              return TRUE;
            }
        }
      *out = FALSE;
      return TRUE;
    case FX_VALUE_STR:
      if (item->kind != FX_VALUE_STR)
        return sc_raise (S, SC_T_TYPE_ERROR, "'in <string>' requires string as left operand, not %s",
                         sc_type_name (S, item));
      *out = item->s->len == 0
             || g_strstr_len (container->s->data, container->s->len, item->s->data) != NULL;
      if (memchr (item->s->data, 0, item->s->len) || memchr (container->s->data, 0, container->s->len))
        {
          *out = FALSE;
          for (gsize i = 0; i + item->s->len <= container->s->len; i++)
            if (memcmp (container->s->data + i, item->s->data, item->s->len) == 0)
              {
                *out = TRUE;
                break;
              }
        }
      return TRUE;
    case FX_VALUE_DICT:
      if (!sc_dict_key_check (S, item))
        return FALSE;
      *out = fx_dict_get (container->dict, item) != NULL;
      return TRUE;
    default:
      break;
    }
  if (container->kind == FX_VALUE_OBJECT)
    {
      const FxObjectClass *k = container->obj->klass;
      if (k == &sc_set_klass || k == &sc_frozenset_klass || k == &sc_dictkeys_klass)
        {
          FxDict *d = k == &sc_dictkeys_klass ? ((ScDictView *) container->obj)->d
                                              : ((ScSet *) container->obj)->d;
          if (!sc_check_hashable (S, item))
            return FALSE;
          *out = fx_dict_get (d, item) != NULL;
          return TRUE;
        }
      if (k == &sc_range_klass && IS_INTLIKE (item))
        {
          ScRange *r = (ScRange *) container->obj;
          int64_t x = ival (item);
          if (r->step > 0)
            *out = x >= r->start && x < r->stop && (x - r->start) % r->step == 0;
          else
            *out = x <= r->start && x > r->stop && (r->start - x) % (-r->step) == 0;
          return TRUE;
        }
    }
  if (has_class_behaviour (S, container))
    {
      FxValue *m = class_slot (S, container, sc_n.contains), r;
      if (m)
        {
          gboolean ok;
          if (!call_slot (S, m, container, item, 1, &r))
            return FALSE;
          ok = sc_truth (S, &r, out);
          fx_value_clear (&r);
          return ok;
        }
    }
  {
    ScIter it;
    FxValue x;
    int r;
    if (!sc_iter_init (S, container, &it))
      {
        if (sc_matches (S, SC_T_TYPE_ERROR))
          {
            sc_clear_exc (S);
            return sc_raise (S, SC_T_TYPE_ERROR, "argument of type '%s' is not iterable",
                             sc_type_name (S, container));
          }
        return FALSE;
      }
    *out = FALSE;
    while ((r = sc_iter_next (S, &it, &x)) > 0)
      {
        gboolean eq;
        if (!sc_equal (S, &x, item, &eq))
          {
            fx_value_clear (&x);
            sc_iter_clear (&it);
            return FALSE;
          }
        fx_value_clear (&x);
        if (eq)
          {
            *out = TRUE;
            break;
          }
      }
    sc_iter_clear (&it);
    return r >= 0;
  }
}

/* ------------------------------------------------------------------ repr / str */

void
sc_repr_float (double f, GString *out)
{
  fx_format_float_repr (f, out);
}

static gboolean
repr_enter (FxScript *S, const void *container, const char *ellipsis, GString *out, gboolean *skip)
{
  *skip = FALSE;
  for (guint i = 0; i < S->repr_stack->len; i++)
    if (S->repr_stack->pdata[i] == container)
      {
        g_string_append (out, ellipsis);
        *skip = TRUE;
        return TRUE;
      }
  if (!enter_recursive (S, " while getting the repr of an object"))
    return FALSE;
  g_ptr_array_add (S->repr_stack, (gpointer) container);
  return TRUE;
}

static void
repr_leave (FxScript *S)
{
  g_ptr_array_set_size (S->repr_stack, S->repr_stack->len - 1);
  S->repr_depth--;
}

static gboolean
repr_items (FxScript *S, const FxSeq *seq, GString *out)
{
  for (guint i = 0; i < seq->len; i++)
    {
      if (i)
        g_string_append (out, ", ");
      if (!sc_repr (S, &seq->items[i], out))
        return FALSE;
    }
  return TRUE;
}

static gboolean
repr_dict_items (FxScript *S, FxDict *d, GString *out)
{
  const FxValue *k, *v;
  for (guint i = 0; fx_dict_entry (d, i, &k, &v); i++)
    {
      if (i)
        g_string_append (out, ", ");
      if (!sc_repr (S, k, out))
        return FALSE;
      g_string_append (out, ": ");
      if (!sc_repr (S, v, out))
        return FALSE;
    }
  return TRUE;
}

static gboolean
repr_tuple (FxScript *S, const FxSeq *seq, GString *out)
{
  const FxTupleType *type = seq->type;
  if (type && type->n_fields == 0)
    {
      g_string_append (out, type->name);
      g_string_append (out, "([");
      if (!repr_items (S, seq, out))
        return FALSE;
      g_string_append (out, "])");
      return TRUE;
    }
  if (type)
    {
      gboolean structseq = g_str_has_prefix (type->name, "torch.return_types.");
      const char *name = type->name;
      if (!structseq && strrchr (name, '.'))
        name = strrchr (name, '.') + 1;
      g_string_append (out, name);
      g_string_append_c (out, '(');
      for (guint i = 0; i < seq->len; i++)
        {
          if (i)
            g_string_append_c (out, ',');
          if (structseq)
            g_string_append_c (out, '\n');
          else if (i)
            g_string_append_c (out, ' ');
          if ((int) i < type->n_fields)
            {
              g_string_append (out, type->fields[i]);
              g_string_append_c (out, '=');
            }
          if (!sc_repr (S, &seq->items[i], out))
            return FALSE;
        }
      g_string_append_c (out, ')');
      return TRUE;
    }
  g_string_append_c (out, '(');
  if (!repr_items (S, seq, out))
    return FALSE;
  if (seq->len == 1)
    g_string_append_c (out, ',');
  g_string_append_c (out, ')');
  return TRUE;
}

static void
repr_address (GString *out, const void *p)
{
  g_string_append_printf (out, "0x%012" G_GINT64_MODIFIER "x", (guint64) (guintptr) p);
}

static gboolean
repr_object (FxScript *S, const FxValue *v, GString *out)
{
  const FxObjectClass *k = v->obj->klass;
  gboolean skip;
  if (k == &sc_class_klass)
    {
      FxScriptClass *c = (FxScriptClass *) v->obj;
      FxValue *m = sc_dict_get_str (c->dict, sc_n.module);
      const char *mod = m && m->kind == FX_VALUE_STR ? m->s->data : c->module->data;
      if (strcmp (mod, "builtins") == 0)
        g_string_append_printf (out, "<class '%s'>", c->qualname->data);
      else
        g_string_append_printf (out, "<class '%s.%s'>", mod, c->qualname->data);
      return TRUE;
    }
  if (k == &sc_function_klass)
    {
      g_string_append_printf (out, "<function %s at ", ((ScFunction *) v->obj)->qualname->data);
      repr_address (out, v->obj);
      g_string_append_c (out, '>');
      return TRUE;
    }
  if (k == &sc_native_klass)
    {
      ScNative *n = (ScNative *) v->obj;
      if (n->kind == SC_NATIVE_METHOD && n->owner)
        g_string_append_printf (out, "<method '%s' of '%s' objects>", n->name->data, n->owner->data);
      else
        g_string_append_printf (out, "<built-in function %s>", n->name->data);
      return TRUE;
    }
  if (k == &sc_method_klass)
    {
      ScMethod *m = (ScMethod *) v->obj;
      if (sc_is_klass (&m->func, &sc_function_klass))
        {
          g_string_append_printf (out, "<bound method %s of ", ((ScFunction *) m->func.obj)->qualname->data);
          if (!sc_repr (S, &m->self, out))
            return FALSE;
          g_string_append_c (out, '>');
        }
      else
        {
          const char *name = sc_is_klass (&m->func, &sc_native_klass) ? ((ScNative *) m->func.obj)->name->data : "?";
          g_string_append_printf (out, "<built-in method %s of %s object at ", name, sc_type_name (S, &m->self));
          repr_address (out, m->self.kind == FX_VALUE_OBJECT ? (void *) m->self.obj : (void *) m);
          g_string_append_c (out, '>');
        }
      return TRUE;
    }
  if (k == &sc_module_klass)
    {
      FxScriptModule *m = (FxScriptModule *) v->obj;
      if (m->file)
        g_string_append_printf (out, "<module '%s' from '%s'>", m->name->data, m->file);
      else
        g_string_append_printf (out, "<module '%s' (built-in)>", m->name->data);
      return TRUE;
    }
  if (k == &sc_range_klass)
    {
      ScRange *r = (ScRange *) v->obj;
      if (r->step == 1)
        g_string_append_printf (out, "range(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")", r->start, r->stop);
      else
        g_string_append_printf (out, "range(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")",
                                r->start, r->stop, r->step);
      return TRUE;
    }
  if (k == &sc_set_klass || k == &sc_frozenset_klass)
    {
      ScSet *s = (ScSet *) v->obj;
      const FxValue *key;
      gboolean frozen = k == &sc_frozenset_klass;
      if (fx_dict_len (s->d) == 0)
        {
          g_string_append (out, frozen ? "frozenset()" : "set()");
          return TRUE;
        }
      if (!repr_enter (S, s, frozen ? "frozenset(...)" : "set(...)", out, &skip))
        return FALSE;
      if (skip)
        return TRUE;
      g_string_append (out, frozen ? "frozenset({" : "{");
      for (guint i = 0; fx_dict_entry (s->d, i, &key, NULL); i++)
        {
          if (i)
            g_string_append (out, ", ");
          if (!sc_repr (S, key, out))
            {
              repr_leave (S);
              return FALSE;
            }
        }
      g_string_append (out, frozen ? "})" : "}");
      repr_leave (S);
      return TRUE;
    }
  if (k == &sc_dictkeys_klass || k == &sc_dictvalues_klass || k == &sc_dictitems_klass)
    {
      ScDictView *dv = (ScDictView *) v->obj;
      const FxValue *key, *val;
      if (dv->ordered)
        g_string_append_c (out, 'o');
      g_string_append (out, k->name);
      g_string_append (out, "([");
      for (guint i = 0; fx_dict_entry (dv->d, i, &key, &val); i++)
        {
          if (i)
            g_string_append (out, ", ");
          if (k == &sc_dictitems_klass)
            {
              g_string_append_c (out, '(');
              if (!sc_repr (S, key, out))
                return FALSE;
              g_string_append (out, ", ");
              if (!sc_repr (S, val, out))
                return FALSE;
              g_string_append_c (out, ')');
            }
          else if (!sc_repr (S, k == &sc_dictkeys_klass ? key : val, out))
            return FALSE;
        }
      g_string_append (out, "])");
      return TRUE;
    }
  if (k == &sc_notimpl_klass)
    {
      g_string_append (out, "NotImplemented");
      return TRUE;
    }
  if (k == &sc_iterobj_klass)
    {
      ScIterObj *it = (ScIterObj *) v->obj;
      if (it->type_id == SC_T_GENERATOR)
        g_string_append_printf (out, "<generator object %s at ", it->name ? it->name->data : "?");
      else
        g_string_append_printf (out, "<%s object at ", S->types[it->type_id]->name->data);
      repr_address (out, it);
      g_string_append_c (out, '>');
      return TRUE;
    }
  if (k == &sc_partial_klass)
    {
      ScPartial *p = (ScPartial *) v->obj;
      const FxValue *key, *val;
      g_string_append (out, "functools.partial(");
      if (!sc_repr (S, &p->func, out))
        return FALSE;
      for (int i = 0; i < p->n_args; i++)
        {
          g_string_append (out, ", ");
          if (!sc_repr (S, &p->args[i], out))
            return FALSE;
        }
      for (guint i = 0; p->kwargs && fx_dict_entry (p->kwargs, i, &key, &val); i++)
        {
          g_string_append_printf (out, ", %s=", key->s->data);
          if (!sc_repr (S, val, out))
            return FALSE;
        }
      g_string_append_c (out, ')');
      return TRUE;
    }
  if (k == &sc_typing_klass && strcmp (((ScTyping *) v->obj)->name->data, SC_UNION_NAME) == 0)
    {
      const FxSeq *a = ((ScTyping *) v->obj)->args.seq;
      for (guint i = 0; i < a->len; i++)
        {
          FxScriptClass *c = sc_value_class (&a->items[i]);
          if (i)
            g_string_append (out, " | ");
          if (c == S->types[SC_T_NONE])
            g_string_append (out, "None");
          else if (c)
            {
              FxValue *m = sc_dict_get_str (c->dict, sc_n.module);
              const char *mod = m && m->kind == FX_VALUE_STR ? m->s->data : c->module->data;
              if (strcmp (mod, "builtins") == 0)
                g_string_append (out, c->qualname->data);
              else
                g_string_append_printf (out, "%s.%s", mod, c->qualname->data);
            }
          else if (!sc_repr (S, &a->items[i], out))
            return FALSE;
        }
      return TRUE;
    }
  if (k == &sc_typing_klass)
    {
      ScTyping *t = (ScTyping *) v->obj;
      g_string_append (out, t->name->data);
      if (t->args.kind == FX_VALUE_TUPLE)
        {
          g_string_append_c (out, '[');
          for (guint i = 0; i < t->args.seq->len; i++)
            {
              const FxValue *a = &t->args.seq->items[i];
              FxScriptClass *c = sc_value_class (a);
              if (i)
                g_string_append (out, ", ");
              if (c)
                {
                  FxValue *m = sc_dict_get_str (c->dict, sc_n.module);
                  const char *mod = m && m->kind == FX_VALUE_STR ? m->s->data : c->module->data;
                  if (strcmp (mod, "builtins") == 0)
                    g_string_append (out, c->qualname->data);
                  else
                    g_string_append_printf (out, "%s.%s", mod, c->qualname->data);
                }
              else if (a->kind == FX_VALUE_NONE)
                g_string_append (out, "NoneType");
              else if (!sc_repr (S, a, out))
                return FALSE;
            }
          g_string_append_c (out, ']');
        }
      return TRUE;
    }
  if (k == &sc_super_klass)
    {
      ScSuper *sp = (ScSuper *) v->obj;
      g_string_append_printf (out, "<super: <class '%s'>, <%s object>>", sp->start->name->data,
                              sp->self_type->name->data);
      return TRUE;
    }
  if (k == &sc_property_klass || k == &sc_staticmethod_klass || k == &sc_classmethod_klass
      || k == &sc_cell_klass)
    {
      g_string_append_printf (out, "<%s object at ", k->name);
      repr_address (out, v->obj);
      g_string_append_c (out, '>');
      return TRUE;
    }
  if (k != &sc_instance_klass && sc_type_of (S, v) == S->types[SC_T_FOREIGN])
    {
      if (k->repr)
        k->repr (v->obj, out);
      else
        {
          g_string_append_printf (out, "<%s object at ", k->name ? k->name : "object");
          repr_address (out, v->obj);
          g_string_append_c (out, '>');
        }
      return TRUE;
    }
  {
    FxScriptClass *c = sc_type_of (S, v);
    FxValue *m = sc_dict_get_str (c->dict, sc_n.module);
    const char *mod = m && m->kind == FX_VALUE_STR ? m->s->data : c->module->data;
    if (strcmp (mod, "builtins") == 0)
      g_string_append_printf (out, "<%s object at ", c->qualname->data);
    else
      g_string_append_printf (out, "<%s.%s object at ", mod, c->qualname->data);
    repr_address (out, v->obj);
    g_string_append_c (out, '>');
    return TRUE;
  }
}

static gboolean
call_str_slot (FxScript *S, FxValue *m, const FxValue *v, const char *what, GString *out)
{
  FxValue r;
  if (!call_slot (S, m, v, NULL, 0, &r))
    return FALSE;
  if (r.kind != FX_VALUE_STR)
    {
      const char *tn = sc_type_name (S, &r);
      fx_value_clear (&r);
      return sc_raise (S, SC_T_TYPE_ERROR, "%s returned non-string (type %s)", what, tn);
    }
  g_string_append_len (out, r.s->data, r.s->len);
  fx_value_clear (&r);
  return TRUE;
}

gboolean
sc_repr (FxScript *S, const FxValue *v, GString *out)
{
  gboolean skip, ok;
  switch (v->kind)
    {
    case FX_VALUE_NONE: case FX_VALUE_BOOL: case FX_VALUE_INT: case FX_VALUE_FLOAT:
    case FX_VALUE_STR: case FX_VALUE_ELLIPSIS: case FX_VALUE_NODE:
      fx_value_repr (v, out);
      return TRUE;
    case FX_VALUE_DTYPE: case FX_VALUE_DEVICE: case FX_VALUE_TENSOR: case FX_VALUE_OP:
      if (S->kind_classes[v->kind])
        break;
      if (v->kind == FX_VALUE_OP && v->op->kind == FX_OP_FUNCTION)
        {
          /* as PyTorch prints it: <built-in function add>, <function relu at 0x...> */
          char *text = fx_target_python_str (v);
          g_string_append (out, text);
          g_free (text);
          return TRUE;
        }
      fx_value_repr (v, out);
      return TRUE;
    case FX_VALUE_TUPLE:
      if (v->seq->type && has_class_behaviour (S, v))
        break;
      if (!repr_enter (S, v->seq, "(...)", out, &skip))
        return FALSE;
      if (skip)
        return TRUE;
      ok = repr_tuple (S, v->seq, out);
      repr_leave (S);
      return ok;
    case FX_VALUE_LIST:
      if (!repr_enter (S, v->seq, "[...]", out, &skip))
        return FALSE;
      if (skip)
        return TRUE;
      g_string_append_c (out, '[');
      ok = repr_items (S, v->seq, out);
      g_string_append_c (out, ']');
      repr_leave (S);
      return ok;
    case FX_VALUE_DICT:
      if (!repr_enter (S, v->dict, "{...}", out, &skip))
        return FALSE;
      if (skip)
        return TRUE;
      g_string_append_c (out, '{');
      ok = repr_dict_items (S, v->dict, out);
      g_string_append_c (out, '}');
      repr_leave (S);
      return ok;
    case FX_VALUE_SLICE:
      g_string_append (out, "slice(");
      if (!sc_repr (S, &v->slice->start, out))
        return FALSE;
      g_string_append (out, ", ");
      if (!sc_repr (S, &v->slice->stop, out))
        return FALSE;
      g_string_append (out, ", ");
      if (!sc_repr (S, &v->slice->step, out))
        return FALSE;
      g_string_append_c (out, ')');
      return TRUE;
    case FX_VALUE_OBJECT:
      break;
    default:
      fx_value_repr (v, out);
      return TRUE;
    }
  {
    FxValue *m = class_slot (S, v, sc_n.repr);
    if (m)
      {
        if (!enter_recursive (S, " while getting the repr of an object"))
          return FALSE;
        ok = call_str_slot (S, m, v, "__repr__", out);
        S->repr_depth--;
        return ok;
      }
    if (v->kind == FX_VALUE_OBJECT && v->obj->klass == &sc_instance_klass)
      {
        /* builtin __repr__ of natives / exceptions */
        m = sc_type_lookup (S, sc_type_of (S, v), sc_n.repr);
        if (m && !is_object_slot (S, m, sc_n.repr))
          return call_str_slot (S, m, v, "__repr__", out);
      }
  }
  if (v->kind != FX_VALUE_OBJECT)
    {
      fx_value_repr (v, out);
      return TRUE;
    }
  return repr_object (S, v, out);
}

gboolean
sc_str (FxScript *S, const FxValue *v, GString *out)
{
  FxValue *m;
  switch (v->kind)
    {
    case FX_VALUE_STR:
      g_string_append_len (out, v->s->data, v->s->len);
      return TRUE;
    case FX_VALUE_OBJECT:
      m = sc_type_lookup (S, sc_type_of (S, v), sc_n.str);
      if (m && !is_object_slot (S, m, sc_n.str))
        return call_str_slot (S, m, v, "__str__", out);
      return sc_repr (S, v, out);
    default:
      if (has_class_behaviour (S, v))
        {
          m = class_slot (S, v, sc_n.str);
          if (m)
            return call_str_slot (S, m, v, "__str__", out);
        }
      return sc_repr (S, v, out);
    }
}

gboolean
sc_format (FxScript *S, const FxValue *v, const char *spec, GString *out)
{
  if (has_class_behaviour (S, v))
    {
      FxValue *m = class_slot (S, v, sc_n.format);
      if (m)
        {
          FxValue sv = fx_value_str (spec), r;
          gboolean ok = call_slot (S, m, v, &sv, 1, &r);
          fx_value_clear (&sv);
          if (!ok)
            return FALSE;
          if (r.kind != FX_VALUE_STR)
            {
              fx_value_clear (&r);
              return sc_raise (S, SC_T_TYPE_ERROR, "__format__ must return a str, not %s", sc_type_name (S, &r));
            }
          g_string_append_len (out, r.s->data, r.s->len);
          fx_value_clear (&r);
          return TRUE;
        }
      if (*spec)
        return sc_raise (S, SC_T_TYPE_ERROR, "unsupported format string passed to %s.__format__",
                         sc_type_name (S, v));
      return sc_str (S, v, out);
    }
  return sc_format_spec (S, v, spec, out);
}
