/* eval.c: the evaluator — a tree-walker over the resolved syntax tree.
 *
 * Why a tree-walker and not bytecode: scope analysis (scope.c) already turns every name into
 * a frame slot, a cell or a dict lookup, so the walker does no name lookups a compiler could
 * save; what a bytecode VM would still win is dispatch (one indirect jump per instruction
 * instead of a switch per node) and smaller working sets. Measured on this machine
 * (tests/script/test-eval.c's /eval/bench, see the report in the commit): a call-heavy
 * micro-benchmark (fib(22)) and a loop of integer arithmetic run within ~1.5-2.5x of
 * CPython 3.11's time per operation, while model scripts spend well over 90% of their time
 * in tensor kernels and tracing, not in the interpreter. A tree-walker keeps positions on the
 * nodes that tracebacks and the tracer need, keeps the code small, and makes CPython's
 * exact error locations (carets under the failing sub-expression) a by-product: the node
 * that failed is at hand when an error is recorded (sc_fail_at).
 *
 * Conventions: eval() returns FALSE with an exception pending; the first node that sees a
 * failure of its own operation records (frame, position) in the traceback — parents only
 * propagate. Statements return an ExStatus. Frames live on the C stack (call.c). */
#include "script/internal.h"

#include <string.h>

typedef enum { EX_OK, EX_RETURN, EX_BREAK, EX_CONTINUE, EX_ERROR } ExStatus;

static gboolean eval (FxScript *S, ScFrame *F, const ScExpr *e, FxValue *out);
static gboolean eval_annotation (FxScript *S, ScFrame *F, const ScExpr *e, FxValue *out);
static ExStatus exec_block (FxScript *S, ScFrame *F, const ScBlock *b);

#define FAIL(e) sc_fail_at (S, F, &(e)->pos, (e))

/* Where CPython 3.11 places a failed truth test of an if/while/conditional-expression
 * condition: a comparison keeps its own span (so does the last comparison among the leading
 * operands of an and/or), anything else is reported at the enclosing statement or
 * expression, whose span covers the line (no carets). */
static gboolean
fail_condition (FxScript *S, ScFrame *F, const ScExpr *test, const ScPos *enclosing,
                const ScExpr *enclosing_expr)
{
  if (test->kind == SC_E_COMPARE)
    return FAIL (test);
  if (test->kind == SC_E_BOOLOP)
    for (int i = test->boolop.n - 2; i >= 0; i--)
      if (test->boolop.values[i]->kind == SC_E_COMPARE)
        return FAIL (test->boolop.values[i]);
  return sc_fail_at (S, F, enclosing, enclosing_expr);
}

/* ------------------------------------------------------------------ names */

static gboolean
load_name (FxScript *S, ScFrame *F, const ScExpr *e, FxValue *out)
{
  const ScName *n = &e->name;
  FxValue *v;
  switch (n->scope)
    {
    case SC_SCOPE_LOCAL:
      v = &F->locals[n->index];
      if (G_UNLIKELY (sc_is_unbound (v)))
        {
          sc_raise_name_error (S, F, n->id, TRUE, FALSE);
          return FAIL (e);
        }
      *out = fx_value_copy (v);
      return TRUE;
    case SC_SCOPE_CELL:
      v = &F->cells[n->index]->value;
      if (sc_is_unbound (v))
        {
          sc_raise_name_error (S, F, n->id, n->index < F->code->n_cellvars, n->index >= F->code->n_cellvars);
          return FAIL (e);
        }
      *out = fx_value_copy (v);
      return TRUE;
    case SC_SCOPE_CLASS_CELL:
      v = sc_dict_get_str (F->ns, n->id);
      if (v)
        {
          *out = fx_value_copy (v);
          return TRUE;
        }
      v = &F->cells[n->index]->value;
      if (sc_is_unbound (v))
        {
          sc_raise_name_error (S, F, n->id, FALSE, TRUE);
          return FAIL (e);
        }
      *out = fx_value_copy (v);
      return TRUE;
    case SC_SCOPE_NAME:
      if (F->ns && (v = sc_dict_get_str (F->ns, n->id)))
        {
          *out = fx_value_copy (v);
          return TRUE;
        }
      /* fall through */
    default:
      v = sc_dict_get_str (F->globals, n->id);
      if (!v)
        v = sc_dict_get_str (S->builtins, n->id);
      if (!v)
        {
          sc_raise_name_error (S, F, n->id, FALSE, FALSE);
          return FAIL (e);
        }
      *out = fx_value_copy (v);
      return TRUE;
    }
}

/* Takes ownership of value. */
static void
store_name (FxScript *S, ScFrame *F, const ScName *n, FxValue value)
{
  FxValue old;
  switch (n->scope)
    {
    case SC_SCOPE_LOCAL:
      old = F->locals[n->index];
      F->locals[n->index] = value;
      fx_value_clear (&old);
      return;
    case SC_SCOPE_CELL:
      old = F->cells[n->index]->value;
      F->cells[n->index]->value = value;
      fx_value_clear (&old);
      return;
    case SC_SCOPE_NAME:
    case SC_SCOPE_CLASS_CELL:
      if (F->ns)
        {
          fx_dict_set (F->ns, sc_str_value (n->id), value);
          return;
        }
      /* fall through */
    default:
      fx_dict_set (F->globals, sc_str_value (n->id), value);
      (void) S;
      return;
    }
}

static gboolean
delete_name (FxScript *S, ScFrame *F, const ScName *n, const ScPos *pos)
{
  FxValue key = { .kind = FX_VALUE_STR, .s = n->id };
  switch (n->scope)
    {
    case SC_SCOPE_LOCAL:
      if (sc_is_unbound (&F->locals[n->index]))
        {
          sc_raise_name_error (S, F, n->id, TRUE, FALSE);
          return sc_fail_at (S, F, pos, NULL);
        }
      fx_value_clear (&F->locals[n->index]);
      F->locals[n->index] = sc_unbound ();
      return TRUE;
    case SC_SCOPE_CELL:
      if (sc_is_unbound (&F->cells[n->index]->value))
        {
          sc_raise_name_error (S, F, n->id, n->index < F->code->n_cellvars, n->index >= F->code->n_cellvars);
          return sc_fail_at (S, F, pos, NULL);
        }
      fx_value_clear (&F->cells[n->index]->value);
      F->cells[n->index]->value = sc_unbound ();
      return TRUE;
    case SC_SCOPE_NAME:
    case SC_SCOPE_CLASS_CELL:
      if (F->ns)
        {
          if (!fx_dict_remove (F->ns, &key))
            {
              sc_raise_name_error (S, F, n->id, FALSE, FALSE);
              return sc_fail_at (S, F, pos, NULL);
            }
          return TRUE;
        }
      /* fall through */
    default:
      if (!fx_dict_remove (F->globals, &key))
        {
          sc_raise_name_error (S, F, n->id, FALSE, FALSE);
          return sc_fail_at (S, F, pos, NULL);
        }
      return TRUE;
    }
}

/* ------------------------------------------------------------------ assignment */

static gboolean assign (FxScript *S, ScFrame *F, const ScExpr *t, const FxValue *value);

static gboolean
unpack (FxScript *S, ScFrame *F, const ScExpr *t, const FxValue *value)
{
  int n = t->seq.n, star = -1;
  FxSeq *items;
  gboolean ok = TRUE;

  for (int i = 0; i < n; i++)
    if (t->seq.items[i]->kind == SC_E_STARRED)
      {
        if (star >= 0)
          {
            sc_raise (S, SC_T_SYNTAX_ERROR, "multiple starred expressions in assignment");
            return FAIL (t);
          }
        star = i;
      }
  if (value->kind == FX_VALUE_LIST || (value->kind == FX_VALUE_TUPLE))
    items = fx_seq_ref (value->seq);
  else if (star < 0 && sc_value_instance (value) != NULL
           && sc_type_lookup (S, sc_value_instance (value)->cls, sc_intern_cstr ("__fx_unpack__")))
    {
      /* `a, b = proxy`: torch.fx's Proxy.__iter__ sees the UNPACK_SEQUENCE of its caller and
       * gives that many items; here the object is told the count (a list back) */
      FxValue count = fx_value_int (n), got;
      if (!fx_script_call_method (S, value, "__fx_unpack__", &count, 1, NULL, &got))
        return FAIL (t);
      if (got.kind != FX_VALUE_LIST && got.kind != FX_VALUE_TUPLE)
        {
          sc_raise (S, SC_T_TYPE_ERROR, "__fx_unpack__ must return a list, not %s",
                    sc_type_name (S, &got));
          fx_value_clear (&got);
          return FAIL (t);
        }
      items = fx_seq_ref (got.seq);
      fx_value_clear (&got);
    }
  else
    {
      ScIter it;
      FxValue x;
      int r;
      if (!sc_iter_init (S, value, &it))
        {
          if (sc_matches (S, SC_T_TYPE_ERROR))
            {
              sc_clear_exc (S);
              sc_raise (S, SC_T_TYPE_ERROR, "cannot unpack non-iterable %s object", sc_type_name (S, value));
            }
          return FAIL (t);
        }
      items = fx_seq_new (0);
      while ((r = sc_iter_next (S, &it, &x)) > 0)
        {
          fx_seq_append (items, x);
          if (star < 0 && (int) items->len > n)
            break;
        }
      sc_iter_clear (&it);
      if (r < 0)
        {
          fx_seq_unref (items);
          return FAIL (t);
        }
    }
  if (star < 0)
    {
      if ((int) items->len != n)
        {
          if ((int) items->len > n)
            sc_raise (S, SC_T_VALUE_ERROR, "too many values to unpack (expected %d)", n);
          else
            sc_raise (S, SC_T_VALUE_ERROR, "not enough values to unpack (expected %d, got %u)", n, items->len);
          fx_seq_unref (items);
          return FAIL (t);
        }
      for (int i = 0; i < n && ok; i++)
        ok = assign (S, F, t->seq.items[i], &items->items[i]);
    }
  else
    {
      int after = n - star - 1;
      if ((int) items->len < n - 1)
        {
          sc_raise (S, SC_T_VALUE_ERROR, "not enough values to unpack (expected at least %d, got %u)",
                    n - 1, items->len);
          fx_seq_unref (items);
          return FAIL (t);
        }
      for (int i = 0; i < star && ok; i++)
        ok = assign (S, F, t->seq.items[i], &items->items[i]);
      if (ok)
        {
          int count = (int) items->len - star - after;
          FxSeq *mid = fx_seq_new (count);
          FxValue lv;
          for (int i = 0; i < count; i++)
            mid->items[i] = fx_value_copy (&items->items[star + i]);
          lv = fx_value_take_list (mid);
          ok = assign (S, F, t->seq.items[star]->starred.value, &lv);
          fx_value_clear (&lv);
        }
      for (int i = 0; i < after && ok; i++)
        ok = assign (S, F, t->seq.items[star + 1 + i], &items->items[items->len - after + i]);
    }
  fx_seq_unref (items);
  return ok;
}

static gboolean
assign (FxScript *S, ScFrame *F, const ScExpr *t, const FxValue *value)
{
  FxValue obj, key;
  gboolean ok;
  switch (t->kind)
    {
    case SC_E_NAME:
      store_name (S, F, &t->name, fx_value_copy (value));
      return TRUE;
    case SC_E_ATTR:
      if (!eval (S, F, t->attr.value, &obj))
        return FALSE;
      ok = sc_setattr (S, &obj, t->attr.attr, value);
      fx_value_clear (&obj);
      return ok || FAIL (t);
    case SC_E_SUBSCRIPT:
      if (!eval (S, F, t->subscript.value, &obj))
        return FALSE;
      if (!eval (S, F, t->subscript.index, &key))
        {
          fx_value_clear (&obj);
          return FALSE;
        }
      ok = sc_setitem (S, &obj, &key, value);
      fx_value_clear (&obj);
      fx_value_clear (&key);
      return ok || FAIL (t);
    case SC_E_TUPLE:
    case SC_E_LIST:
      return unpack (S, F, t, value);
    case SC_E_STARRED:
      sc_raise (S, SC_T_SYNTAX_ERROR, "starred assignment target must be in a list or tuple");
      return FAIL (t);
    default:
      sc_raise (S, SC_T_SYNTAX_ERROR, "cannot assign to expression");
      return FAIL (t);
    }
}

/* ------------------------------------------------------------------ functions */

static ScCell **
make_closure (ScFrame *F, ScCode *code)
{
  ScCell **closure;
  if (code->n_freevars == 0)
    return NULL;
  closure = g_new (ScCell *, code->n_freevars);
  for (int i = 0; i < code->n_freevars; i++)
    closure[i] = (ScCell *) fx_object_ref (&F->cells[code->free_from[i]]->base);
  return closure;
}

static gboolean
make_function (FxScript *S, ScFrame *F, ScCode *code, FxValue *out)
{
  FxValue *defaults = NULL, *kwdefaults = NULL;
  FxDict *annotations = NULL;
  int n_params = code->n_pos + code->n_kwonly + ((code->flags & SC_CODE_VARARGS) ? 1 : 0)
                 + ((code->flags & SC_CODE_VARKEYWORDS) ? 1 : 0);

  if (code->n_defaults)
    {
      defaults = g_new (FxValue, code->n_defaults);
      for (int i = 0; i < code->n_defaults; i++)
        if (!eval (S, F, code->defaults[i], &defaults[i]))
          {
            for (int j = 0; j < i; j++)
              fx_value_clear (&defaults[j]);
            g_free (defaults);
            return FALSE;
          }
    }
  if (code->n_kwonly)
    {
      kwdefaults = g_new (FxValue, code->n_kwonly);
      for (int i = 0; i < code->n_kwonly; i++)
        kwdefaults[i] = sc_unbound ();
      for (int i = 0; i < code->n_kwonly; i++)
        if (code->kw_defaults && code->kw_defaults[i] && !eval (S, F, code->kw_defaults[i], &kwdefaults[i]))
          {
            for (int j = 0; j < code->n_kwonly; j++)
              fx_value_clear (&kwdefaults[j]);
            g_free (kwdefaults);
            for (int j = 0; j < code->n_defaults; j++)
              fx_value_clear (&defaults[j]);
            g_free (defaults);
            return FALSE;
          }
    }
  for (int k = 0; code->annotations && k < n_params; k++)
    {
      /* CPython's order: positional, *args, keyword-only, **kwargs */
      gboolean varargs = (code->flags & SC_CODE_VARARGS) != 0;
      int kw_end = code->n_pos + code->n_kwonly, i = k;
      if (varargs && k == code->n_pos)
        i = kw_end;
      else if (varargs && k > code->n_pos && k <= kw_end)
        i = k - 1;
      if (code->annotations[i])
        {
          FxValue a;
          if (!annotations)
            annotations = fx_dict_new ();
          if (!eval_annotation (S, F, code->annotations[i], &a))
            goto fail;
          fx_dict_set (annotations, sc_str_value (code->params[i].id), a);
        }
    }
  if (code->returns)
    {
      FxValue a;
      if (!annotations)
        annotations = fx_dict_new ();
      if (!eval_annotation (S, F, code->returns, &a))
        goto fail;
      sc_dict_set_str (annotations, "return", a);
    }
  *out = sc_function_new (S, code, F->globals, defaults, code->n_defaults, kwdefaults,
                          make_closure (F, code));
  ((ScFunction *) out->obj)->annotations = annotations;
  return TRUE;
fail:
  for (int j = 0; j < code->n_defaults; j++)
    fx_value_clear (&defaults[j]);
  g_free (defaults);
  if (kwdefaults)
    {
      for (int j = 0; j < code->n_kwonly; j++)
        fx_value_clear (&kwdefaults[j]);
      g_free (kwdefaults);
    }
  if (annotations)
    fx_dict_unref (annotations);
  return FALSE;
}

static gboolean
apply_decorators (FxScript *S, ScFrame *F, FxValue *decs, int n, FxValue *obj, const ScPos *pos)
{
  for (int i = n - 1; i >= 0; i--)
    {
      FxValue r;
      if (!sc_call1 (S, &decs[i], obj, &r))
        return sc_fail_at (S, F, pos, NULL);
      fx_value_clear (obj);
      *obj = r;
    }
  return TRUE;
}

static gboolean
eval_decorators (FxScript *S, ScFrame *F, ScCode *code, FxValue **out)
{
  *out = NULL;
  if (code->n_decorators == 0)
    return TRUE;
  *out = g_new (FxValue, code->n_decorators);
  for (int i = 0; i < code->n_decorators; i++)
    if (!eval (S, F, code->decorators[i], &(*out)[i]))
      {
        for (int j = 0; j < i; j++)
          fx_value_clear (&(*out)[j]);
        g_free (*out);
        *out = NULL;
        return FALSE;
      }
  return TRUE;
}

static void
free_values (FxValue *v, int n)
{
  if (!v)
    return;
  for (int i = 0; i < n; i++)
    fx_value_clear (&v[i]);
  g_free (v);
}

static ExStatus
exec_def (FxScript *S, ScFrame *F, const ScStmt *s)
{
  ScCode *code = s->def.code;
  FxValue *decs, fn;
  if (!eval_decorators (S, F, code, &decs))
    return EX_ERROR;
  if (!make_function (S, F, code, &fn))
    {
      free_values (decs, code->n_decorators);
      return EX_ERROR;
    }
  if (!apply_decorators (S, F, decs, code->n_decorators, &fn, code->n_decorators ? &code->decorators[0]->pos : &s->pos))
    {
      fx_value_clear (&fn);
      free_values (decs, code->n_decorators);
      return EX_ERROR;
    }
  free_values (decs, code->n_decorators);
  store_name (S, F, &s->def.name, fn);
  return EX_OK;
}

static ExStatus
exec_class (FxScript *S, ScFrame *F, const ScStmt *s)
{
  ScCode *code = s->class_.code;
  FxValue *decs = NULL, *bases = NULL, cls = fx_value_none (), cell = fx_value_none ();
  FxScriptClass **base_classes = NULL;
  FxDict *ns = NULL, *kwargs = NULL;
  ScCell **closure = NULL;
  FxValue *modname;
  ExStatus status = EX_ERROR;
  int nb = s->class_.n_bases;

  if (!eval_decorators (S, F, code, &decs))
    return EX_ERROR;
  bases = g_new0 (FxValue, nb + 1);
  base_classes = g_new0 (FxScriptClass *, nb + 1);
  for (int i = 0; i < nb; i++)
    {
      if (!eval (S, F, s->class_.bases[i], &bases[i]))
        goto out;
      base_classes[i] = sc_value_class (&bases[i]);
      if (!base_classes[i])
        {
          if (sc_is_klass (&bases[i], &sc_typing_klass))
            {
              /* Generic[T], typing.NamedTuple, ... as bases: treat as object */
              ScTyping *t = (ScTyping *) bases[i].obj;
              FxScriptClass *orig = sc_value_class (&t->origin);
              base_classes[i] = orig ? orig : S->types[SC_T_OBJECT];
            }
          else
            {
              sc_raise (S, SC_T_TYPE_ERROR, "bases must be types");
              sc_fail_at (S, F, &s->class_.bases[i]->pos, NULL);
              goto out;
            }
        }
    }
  /* typing.Generic and friends map to object: drop duplicates of object */
  {
    int k = 0;
    for (int i = 0; i < nb; i++)
      {
        gboolean dup = FALSE;
        if (base_classes[i] == S->types[SC_T_OBJECT] && nb > 1)
          dup = TRUE;
        for (int j = 0; j < k && !dup; j++)
          if (base_classes[j] == base_classes[i] && !sc_value_class (&bases[i]))
            dup = TRUE;
        if (!dup)
          base_classes[k++] = base_classes[i];
      }
    nb = k;
  }
  if (s->class_.n_kws)
    {
      kwargs = fx_dict_new ();
      for (int i = 0; i < s->class_.n_kws; i++)
        {
          FxValue v;
          if (!eval (S, F, s->class_.kws[i].value, &v))
            goto out;
          fx_dict_set (kwargs, sc_str_value (s->class_.kws[i].name), v);
        }
    }
  ns = fx_dict_new ();
  modname = sc_dict_get_str (F->globals, sc_n.name);
  sc_dict_set_str (ns, "__module__", modname ? fx_value_copy (modname) : fx_value_str ("__main__"));
  sc_dict_set_str (ns, "__qualname__", sc_str_value (code->qualname));
  if (code->docstring)
    sc_dict_set_str (ns, "__doc__", sc_str_value (code->docstring));
  closure = make_closure (F, code);
  if (!sc_run_code (S, code, F->globals, ns, closure, &cell))
    {
      sc_fail_at (S, F, &s->pos, NULL);
      goto out;
    }
  /* a class that defines __eq__ but not __hash__ is unhashable */
  if (sc_dict_get_str (ns, sc_n.eq) && !sc_dict_get_str (ns, sc_n.hash))
    sc_dict_set_str (ns, "__hash__", fx_value_none ());
  if (!sc_build_class (S, &cls, s->class_.name.id, base_classes, nb, ns, kwargs))
    {
      sc_fail_at (S, F, &s->pos, NULL);
      goto out;
    }
  if (sc_is_klass (&cell, &sc_cell_klass))
    {
      ScCell *c = (ScCell *) cell.obj;
      fx_value_clear (&c->value);
      c->value = fx_value_copy (&cls);
    }
  if (!apply_decorators (S, F, decs, code->n_decorators, &cls, code->n_decorators ? &code->decorators[0]->pos : &s->pos))
    goto out;
  store_name (S, F, &s->class_.name, cls);
  cls = fx_value_none ();
  status = EX_OK;
out:
  fx_value_clear (&cls);
  fx_value_clear (&cell);
  free_values (decs, code->n_decorators);
  free_values (bases, s->class_.n_bases);
  g_free (base_classes);
  if (closure)
    {
      for (int i = 0; i < code->n_freevars; i++)
        fx_object_unref (&closure[i]->base);
      g_free (closure);
    }
  if (ns)
    fx_dict_unref (ns);
  if (kwargs)
    fx_dict_unref (kwargs);
  return status;
}

/* ------------------------------------------------------------------ calls */

/* Appends the items of a *iterable to args. */
static const char *func_display_name (const FxValue *func, GString *buf);

static gboolean
extend_args (FxScript *S, const FxValue *func, GArray *args, const FxValue *v)
{
  FxSeq *items;
  if (!sc_collect (S, v, &items))
    {
      if (sc_matches (S, SC_T_TYPE_ERROR) && !sc_callable (S, v))
        {
          g_autoptr (GString) fname = g_string_new (NULL);
          sc_clear_exc (S);
          sc_raise (S, SC_T_TYPE_ERROR, "%s argument after * must be an iterable, not %s",
                    func_display_name (func, fname), sc_type_name (S, v));
        }
      return FALSE;
    }
  for (guint i = 0; i < items->len; i++)
    {
      FxValue c = fx_value_copy (&items->items[i]);
      g_array_append_val (args, c);
    }
  fx_seq_unref (items);
  return TRUE;
}

static void
python_function_name (const ScFunction *fn, GString *buf)
{
  /* CPython: "__main__.f()" — module and qualified name */
  if (fn->module.kind == FX_VALUE_STR)
    g_string_printf (buf, "%s.%s()", fn->module.s->data, fn->qualname->data);
  else
    g_string_printf (buf, "%s()", fn->qualname->data);
}

static const char *
func_display_name (const FxValue *func, GString *buf)
{
  if (sc_is_klass (func, &sc_function_klass))
    python_function_name ((ScFunction *) func->obj, buf);
  else if (sc_is_klass (func, &sc_native_klass))
    g_string_printf (buf, "%s()", ((ScNative *) func->obj)->name->data);
  else if (sc_is_klass (func, &sc_method_klass) && sc_is_klass (&((ScMethod *) func->obj)->func, &sc_function_klass))
    python_function_name ((ScFunction *) ((ScMethod *) func->obj)->func.obj, buf);
  else if (sc_value_class (func))
    {
      FxScriptClass *cls = sc_value_class (func);
      if (cls->module != NULL && strcmp (cls->module->data, "builtins") != 0)
        g_string_printf (buf, "%s.%s()", cls->module->data, cls->qualname->data);
      else
        g_string_printf (buf, "%s()", cls->name->data);
    }
  else
    g_string_assign (buf, "function");
  return buf->str;
}

/* Merges a **mapping into names (owned refs) and values, refusing duplicates like CPython. */
static gboolean
extend_kwargs (FxScript *S, const FxValue *func, GPtrArray *names, GArray *values, const FxValue *m)
{
  FxDict *d = NULL;
  const FxValue *k, *v;
  FxValue tmp = fx_value_none ();
  g_autoptr (GString) fname = g_string_new (NULL);
  if (m->kind == FX_VALUE_DICT)
    d = m->dict;
  else
    {
      FxValue keys, r;
      int got = sc_getattr_opt (S, m, sc_n.s_keys, &keys);
      FxSeq *ks;
      if (got <= 0)
        {
          if (got == 0)
            sc_raise (S, SC_T_TYPE_ERROR, "%s argument after ** must be a mapping, not %s",
                      func_display_name (func, fname), sc_type_name (S, m));
          return FALSE;
        }
      if (!sc_call0 (S, &keys, &r))
        {
          fx_value_clear (&keys);
          return FALSE;
        }
      fx_value_clear (&keys);
      if (!sc_collect (S, &r, &ks))
        {
          fx_value_clear (&r);
          return FALSE;
        }
      fx_value_clear (&r);
      d = fx_dict_new ();
      tmp = fx_value_take_dict (d);
      for (guint i = 0; i < ks->len; i++)
        {
          FxValue val;
          if (!sc_getitem (S, m, &ks->items[i], &val))
            {
              fx_seq_unref (ks);
              fx_value_clear (&tmp);
              return FALSE;
            }
          fx_dict_set (d, fx_value_copy (&ks->items[i]), val);
        }
      fx_seq_unref (ks);
    }
  for (guint i = 0; fx_dict_entry (d, i, &k, &v); i++)
    {
      FxValue c;
      if (k->kind != FX_VALUE_STR)
        {
          fx_value_clear (&tmp);
          return sc_raise (S, SC_T_TYPE_ERROR, "keywords must be strings");
        }
      for (guint j = 0; j < names->len; j++)
        if (strcmp (((FxStr *) names->pdata[j])->data, k->s->data) == 0)
          {
            fx_value_clear (&tmp);
            return sc_raise (S, SC_T_TYPE_ERROR, "%s got multiple values for keyword argument '%s'",
                             func_display_name (func, fname), k->s->data);
          }
      g_ptr_array_add (names, fx_str_ref (k->s));
      c = fx_value_copy (v);
      g_array_append_val (values, c);
    }
  fx_value_clear (&tmp);
  return TRUE;
}

static gboolean
eval_call (FxScript *S, ScFrame *F, const ScExpr *e, FxValue *out)
{
  const ScExpr *fe = e->call.func;
  FxValue func, self = fx_value_none ();
  gboolean has_self = FALSE, ok;

  if (fe->kind == SC_E_ATTR)
    {
      FxValue obj;
      if (!eval (S, F, fe->attr.value, &obj))
        return FALSE;
      if (!sc_get_method (S, &obj, fe->attr.attr, &func, &has_self))
        {
          fx_value_clear (&obj);
          return FAIL (fe);
        }
      if (has_self)
        self = obj;
      else
        fx_value_clear (&obj);
    }
  else if (!eval (S, F, fe, &func))
    return FALSE;

  if (e->call.simple)
    {
      int na = e->call.n_args, nk = e->call.n_kws, off = has_self ? 1 : 0;
      int total = na + nk + off;
      FxValue buf[8];
      FxValue *argv = total <= 8 ? buf : g_new (FxValue, total);
      int k = 0;
      if (has_self)
        argv[k++] = self;
      for (int i = 0; i < na; i++, k++)
        if (!eval (S, F, e->call.args[i], &argv[k]))
          goto fail_simple;
      for (int i = 0; i < nk; i++, k++)
        if (!eval (S, F, e->call.kws[i].value, &argv[k]))
          goto fail_simple;
      F->loc = &e->pos;
      ok = sc_call (S, &func, argv, na + off, e->call.kwnames, nk, out);
      for (int i = 0; i < total; i++)
        fx_value_clear (&argv[i]);
      if (argv != buf)
        g_free (argv);
      fx_value_clear (&func);
      return ok || FAIL (e);
    fail_simple:
      for (int i = 0; i < k; i++)
        fx_value_clear (&argv[i]);
      if (argv != buf)
        g_free (argv);
      fx_value_clear (&func);
      return FALSE;
    }
  else
    {
      GArray *args = g_array_new (FALSE, FALSE, sizeof (FxValue));
      GArray *kwvals = g_array_new (FALSE, FALSE, sizeof (FxValue));
      GPtrArray *kwnames = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_str_unref);
      FxValue *all;
      ok = TRUE;
      if (has_self)
        g_array_append_val (args, self);
      for (int i = 0; i < e->call.n_args && ok; i++)
        {
          const ScExpr *a = e->call.args[i];
          FxValue v;
          if (a->kind == SC_E_STARRED)
            {
              if (!eval (S, F, a->starred.value, &v))
                ok = FALSE;
              else
                {
                  ok = extend_args (S, &func, args, &v);
                  fx_value_clear (&v);
                  if (!ok)
                    FAIL (e);
                }
            }
          else if (!eval (S, F, a, &v))
            ok = FALSE;
          else
            g_array_append_val (args, v);
        }
      for (int i = 0; i < e->call.n_kws && ok; i++)
        {
          const ScKeyword *kw = &e->call.kws[i];
          FxValue v;
          if (!eval (S, F, kw->value, &v))
            {
              ok = FALSE;
              break;
            }
          if (kw->name)
            {
              for (guint j = 0; j < kwnames->len && ok; j++)
                if (strcmp (((FxStr *) kwnames->pdata[j])->data, kw->name->data) == 0)
                  {
                    g_autoptr (GString) fname = g_string_new (NULL);
                    sc_raise (S, SC_T_TYPE_ERROR, "%s got multiple values for keyword argument '%s'",
                              func_display_name (&func, fname), kw->name->data);
                    ok = FALSE;
                    FAIL (e);
                  }
              if (!ok)
                {
                  fx_value_clear (&v);
                  break;
                }
              g_ptr_array_add (kwnames, fx_str_ref (kw->name));
              g_array_append_val (kwvals, v);
            }
          else
            {
              ok = extend_kwargs (S, &func, kwnames, kwvals, &v);
              fx_value_clear (&v);
              if (!ok)
                FAIL (e);
            }
        }
      if (ok)
        {
          all = g_new (FxValue, args->len + kwvals->len + 1);
          if (args->len > 0)   /* an empty GArray has no data (NULL) */
            memcpy (all, args->data, sizeof (FxValue) * args->len);
          if (kwvals->len > 0)   /* an empty GArray has no data (NULL) */
            memcpy (all + args->len, kwvals->data, sizeof (FxValue) * kwvals->len);
          F->loc = &e->pos;
          ok = sc_call (S, &func, all, args->len, (FxStr **) kwnames->pdata, kwnames->len, out);
          g_free (all);
          if (!ok)
            FAIL (e);
        }
      for (guint i = 0; i < args->len; i++)
        fx_value_clear (&g_array_index (args, FxValue, i));
      for (guint i = 0; i < kwvals->len; i++)
        fx_value_clear (&g_array_index (kwvals, FxValue, i));
      g_array_free (args, TRUE);
      g_array_free (kwvals, TRUE);
      g_ptr_array_free (kwnames, TRUE);
      fx_value_clear (&func);
      return ok;
    }
}

/* ------------------------------------------------------------------ displays */

static gboolean
eval_items (FxScript *S, ScFrame *F, ScExpr *const *items, int n, gboolean has_star, FxSeq **out)
{
  FxSeq *seq = fx_seq_new (has_star ? 0 : n);
  for (int i = 0; i < n; i++)
    {
      FxValue v;
      if (items[i]->kind == SC_E_STARRED)
        {
          FxSeq *more;
          if (!eval (S, F, items[i]->starred.value, &v))
            goto fail;
          if (!sc_collect (S, &v, &more))
            {
              fx_value_clear (&v);
              sc_fail_at (S, F, &items[i]->pos, NULL);
              goto fail;
            }
          fx_value_clear (&v);
          for (guint j = 0; j < more->len; j++)
            fx_seq_append (seq, fx_value_copy (&more->items[j]));
          fx_seq_unref (more);
        }
      else
        {
          if (!eval (S, F, items[i], &v))
            goto fail;
          if (has_star)
            fx_seq_append (seq, v);
          else
            seq->items[i] = v;
        }
    }
  *out = seq;
  return TRUE;
fail:
  fx_seq_unref (seq);
  return FALSE;
}

static gboolean
eval_dict (FxScript *S, ScFrame *F, const ScExpr *e, FxValue *out)
{
  FxDict *d = fx_dict_new ();
  for (int i = 0; i < e->dict.n; i++)
    {
      FxValue k, v;
      if (e->dict.keys[i] == NULL)
        {
          if (!eval (S, F, e->dict.values[i], &v))
            goto fail;
          if (v.kind == FX_VALUE_DICT)
            {
              const FxValue *kk, *vv;
              for (guint j = 0; fx_dict_entry (v.dict, j, &kk, &vv); j++)
                fx_dict_set (d, fx_value_copy (kk), fx_value_copy (vv));
              fx_value_clear (&v);
            }
          else
            {
              FxValue keys, r;
              FxSeq *ks;
              int got = sc_getattr_opt (S, &v, sc_n.s_keys, &keys);
              if (got <= 0)
                {
                  if (got == 0)
                    sc_raise (S, SC_T_TYPE_ERROR, "'%s' object is not a mapping", sc_type_name (S, &v));
                  fx_value_clear (&v);
                  FAIL (e);
                  goto fail;
                }
              if (!sc_call0 (S, &keys, &r) || !sc_collect (S, &r, &ks))
                {
                  fx_value_clear (&keys);
                  fx_value_clear (&v);
                  FAIL (e);
                  goto fail;
                }
              fx_value_clear (&keys);
              fx_value_clear (&r);
              for (guint j = 0; j < ks->len; j++)
                {
                  FxValue val;
                  if (!sc_getitem (S, &v, &ks->items[j], &val))
                    {
                      fx_seq_unref (ks);
                      fx_value_clear (&v);
                      FAIL (e);
                      goto fail;
                    }
                  fx_dict_set (d, fx_value_copy (&ks->items[j]), val);
                }
              fx_seq_unref (ks);
              fx_value_clear (&v);
            }
          continue;
        }
      if (!eval (S, F, e->dict.keys[i], &k))
        goto fail;
      if (!eval (S, F, e->dict.values[i], &v))
        {
          fx_value_clear (&k);
          goto fail;
        }
      if (!sc_dict_key_check (S, &k))
        {
          fx_value_clear (&k);
          fx_value_clear (&v);
          FAIL (e);
          goto fail;
        }
      fx_dict_set (d, k, v);
    }
  *out = fx_value_take_dict (d);
  return TRUE;
fail:
  fx_dict_unref (d);
  return FALSE;
}

/* ------------------------------------------------------------------ comprehensions */

typedef struct {
  const ScExpr *e;
  FxValue result;     /* list, set (object) or dict */
} CompState;

static gboolean
comp_loop (FxScript *S, ScFrame *C, CompState *cs, int g, ScIter *first)
{
  const ScExpr *e = cs->e;
  const ScComprehension *gen = &e->comp.gens[g];
  ScIter local;
  ScIter *it = first;
  FxValue x;
  int r;
  gboolean ok = TRUE;

  if (!it)
    {
      FxValue iterable;
      if (!eval (S, C, gen->iter, &iterable))
        return FALSE;
      if (!sc_iter_init (S, &iterable, &local))
        {
          fx_value_clear (&iterable);
          return sc_fail_at (S, C, &gen->iter->pos, gen->iter);
        }
      fx_value_clear (&iterable);
      it = &local;
    }
  while (ok && (r = sc_iter_next (S, it, &x)) > 0)
    {
      gboolean keep = TRUE;
      ok = assign (S, C, gen->target, &x);
      fx_value_clear (&x);
      for (int i = 0; ok && keep && i < gen->n_ifs; i++)
        {
          FxValue c;
          if (!eval (S, C, gen->ifs[i], &c))
            ok = FALSE;
          else
            {
              ok = sc_truth (S, &c, &keep);
              fx_value_clear (&c);
              if (!ok)
                sc_fail_at (S, C, &gen->ifs[i]->pos, gen->ifs[i]);
            }
        }
      if (!ok || !keep)
        continue;
      if (g + 1 < e->comp.n_gens)
        {
          ok = comp_loop (S, C, cs, g + 1, NULL);
          continue;
        }
      if (e->kind == SC_E_DICTCOMP)
        {
          FxValue k, v;
          if (!eval (S, C, e->comp.elt, &k))
            ok = FALSE;
          else if (!eval (S, C, e->comp.value, &v))
            {
              fx_value_clear (&k);
              ok = FALSE;
            }
          else if (!sc_dict_key_check (S, &k))
            {
              fx_value_clear (&k);
              fx_value_clear (&v);
              ok = sc_fail_at (S, C, &e->pos, NULL);
            }
          else
            fx_dict_set (cs->result.dict, k, v);
        }
      else
        {
          FxValue v;
          if (!eval (S, C, e->comp.elt, &v))
            ok = FALSE;
          else if (e->kind == SC_E_SETCOMP)
            {
              if (!sc_check_hashable (S, &v))
                {
                  fx_value_clear (&v);
                  ok = sc_fail_at (S, C, &e->pos, NULL);
                }
              else
                fx_dict_set (((ScSet *) cs->result.obj)->d, v, fx_value_none ());
            }
          else
            fx_seq_append (cs->result.seq, v);
        }
    }
  if (ok && r < 0)
    ok = sc_fail_at (S, C, &gen->iter->pos, NULL);
  if (it == &local)
    sc_iter_clear (&local);
  return ok;
}

static gboolean
eval_comprehension (FxScript *S, ScFrame *F, const ScExpr *e, FxValue *out)
{
  ScCode *co = e->comp.code;
  int nlocals = co->n_locals, ncells = co->n_cellvars + co->n_freevars;
  FxValue iterable, local_buf[8];
  FxValue *locals = nlocals <= 8 ? local_buf : g_new (FxValue, nlocals);
  ScCell **cells = g_new0 (ScCell *, MAX (ncells, 1));
  ScIter first;
  ScFrame C = { 0 };
  CompState cs;
  gboolean ok;

  if (!eval (S, F, e->comp.gens[0].iter, &iterable))
    {
      if (locals != local_buf)
        g_free (locals);
      g_free (cells);
      return FALSE;
    }
  ok = sc_iter_init (S, &iterable, &first);
  fx_value_clear (&iterable);
  if (!ok)
    {
      if (locals != local_buf)
        g_free (locals);
      g_free (cells);
      return FAIL (e);
    }
  for (int i = 0; i < nlocals; i++)
    locals[i] = sc_unbound ();
  for (int i = 0; i < co->n_cellvars; i++)
    cells[i] = sc_cell_new (sc_unbound ());
  for (int i = 0; i < co->n_freevars; i++)
    cells[co->n_cellvars + i] = (ScCell *) fx_object_ref (&F->cells[co->free_from[i]]->base);
  cs.e = e;
  if (e->kind == SC_E_DICTCOMP)
    cs.result = fx_value_take_dict (fx_dict_new ());
  else if (e->kind == SC_E_SETCOMP)
    cs.result = sc_set_new (S, FALSE);
  else
    cs.result = fx_value_take_list (fx_seq_new (0));

  C.code = co;
  C.locals = locals;
  C.cells = cells;
  C.globals = F->globals;
  C.back = S->frame;
  if (S->depth >= S->recursion_limit || !sc_check_stack (S))
    {
      if (S->exc.kind == FX_VALUE_NONE)
        sc_raise (S, SC_T_RECURSION_ERROR, "maximum recursion depth exceeded");
      ok = FALSE;
    }
  else
    {
      S->frame = &C;
      S->depth++;
      ok = comp_loop (S, &C, &cs, 0, &first);
      S->depth--;
      S->frame = C.back;
    }
  sc_iter_clear (&first);
  for (int i = 0; i < nlocals; i++)
    fx_value_clear (&locals[i]);
  for (int i = 0; i < ncells; i++)
    fx_object_unref (&cells[i]->base);
  g_free (cells);
  if (locals != local_buf)
    g_free (locals);
  if (!ok)
    {
      fx_value_clear (&cs.result);
      return FAIL (e);
    }
  if (e->kind == SC_E_GENEXP)
    {
      /* eager generator: the values are ready; iteration hands them out */
      FxValue g = sc_iterobj_new (S, SC_T_GENERATOR, sc_generator_next);
      ScIterObj *it = (ScIterObj *) g.obj;
      it->values = fx_seq_ref (cs.result.seq);
      it->started = TRUE;
      it->name = fx_str_ref (co->qualname);
      fx_value_clear (&cs.result);
      *out = g;
      return TRUE;
    }
  *out = cs.result;
  return TRUE;
}

/* ------------------------------------------------------------------ f-strings */

static gboolean
eval_fstring (FxScript *S, ScFrame *F, const ScExpr *e, FxValue *out)
{
  GString *s = g_string_new (NULL);
  for (int i = 0; i < e->fstring.n; i++)
    {
      const ScExpr *p = e->fstring.parts[i];
      if (p->kind == SC_E_CONST)
        g_string_append_len (s, p->constant.s->data, p->constant.s->len);
      else
        {
          FxValue v, spec = fx_value_none ();
          gboolean ok;
          if (!eval (S, F, p->formatted.value, &v))
            goto fail;
          if (p->formatted.spec && !eval (S, F, p->formatted.spec, &spec))
            {
              fx_value_clear (&v);
              goto fail;
            }
          if (p->formatted.conversion == 'r' || p->formatted.conversion == 'a'
              || p->formatted.conversion == 's')
            {
              GString *c = g_string_new (NULL);
              ok = p->formatted.conversion == 's' ? sc_str (S, &v, c) : sc_repr (S, &v, c);
              fx_value_clear (&v);
              v = fx_value_take_str (fx_str_new_len (c->str, c->len));
              g_string_free (c, TRUE);
              if (!ok)
                {
                  fx_value_clear (&spec);
                  sc_fail_at (S, F, &p->formatted.value->pos, p->formatted.value);
                  goto fail;
                }
            }
          ok = sc_format (S, &v, spec.kind == FX_VALUE_STR ? spec.s->data : "", s);
          fx_value_clear (&v);
          fx_value_clear (&spec);
          if (!ok)
            {
              sc_fail_at (S, F, &p->formatted.value->pos, p->formatted.value);
              goto fail;
            }
        }
    }
  *out = fx_value_take_str (fx_str_new_len (s->str, s->len));
  g_string_free (s, TRUE);
  return TRUE;
fail:
  g_string_free (s, TRUE);
  return FALSE;
}

/* ------------------------------------------------------------------ expressions */

static gboolean
eval (FxScript *S, ScFrame *F, const ScExpr *e, FxValue *out)
{
  switch (e->kind)
    {
    case SC_E_CONST:
      *out = fx_value_copy (&e->constant);
      return TRUE;

    case SC_E_NAME:
      return load_name (S, F, e, out);

    case SC_E_BINOP:
      {
        FxValue a, b;
        gboolean ok;
        if (!eval (S, F, e->binop.left, &a))
          return FALSE;
        if (!eval (S, F, e->binop.right, &b))
          {
            fx_value_clear (&a);
            return FALSE;
          }
        if (a.kind == FX_VALUE_INT && b.kind == FX_VALUE_INT)
          {
            int64_t r;
            switch (e->binop.op)
              {
              case SC_BIN_ADD:
                if (!__builtin_add_overflow (a.i, b.i, &r)) { *out = fx_value_int (r); return TRUE; }
                break;
              case SC_BIN_SUB:
                if (!__builtin_sub_overflow (a.i, b.i, &r)) { *out = fx_value_int (r); return TRUE; }
                break;
              case SC_BIN_MUL:
                if (!__builtin_mul_overflow (a.i, b.i, &r)) { *out = fx_value_int (r); return TRUE; }
                break;
              default:
                break;
              }
          }
        ok = sc_binary (S, e->binop.op, &a, &b, out, FALSE);
        fx_value_clear (&a);
        fx_value_clear (&b);
        return ok || FAIL (e);
      }

    case SC_E_UNARY:
      {
        FxValue a;
        gboolean ok;
        if (!eval (S, F, e->unary.operand, &a))
          return FALSE;
        ok = sc_unary (S, e->unary.op, &a, out);
        fx_value_clear (&a);
        return ok || FAIL (e);
      }

    case SC_E_BOOLOP:
      {
        for (int i = 0; i < e->boolop.n; i++)
          {
            gboolean t;
            if (!eval (S, F, e->boolop.values[i], out))
              return FALSE;
            if (i == e->boolop.n - 1)
              return TRUE;
            if (!sc_truth (S, out, &t))
              {
                fx_value_clear (out);
                return sc_fail_at (S, F, &e->boolop.values[i]->pos, e->boolop.values[i]);
              }
            if (t != e->boolop.is_and)
              return TRUE;
            fx_value_clear (out);
          }
        *out = fx_value_none ();
        return TRUE;
      }

    case SC_E_COMPARE:
      {
        FxValue left, right;
        if (!eval (S, F, e->compare.left, &left))
          return FALSE;
        for (int i = 0; i < e->compare.n; i++)
          {
            FxValue r;
            gboolean t;
            if (!eval (S, F, e->compare.comparators[i], &right))
              {
                fx_value_clear (&left);
                return FALSE;
              }
            if (!sc_compare (S, e->compare.ops[i], &left, &right, &r))
              {
                fx_value_clear (&left);
                fx_value_clear (&right);
                return FAIL (e);
              }
            fx_value_clear (&left);
            if (i == e->compare.n - 1)
              {
                fx_value_clear (&right);
                *out = r;
                return TRUE;
              }
            if (!sc_truth (S, &r, &t))
              {
                fx_value_clear (&r);
                fx_value_clear (&right);
                return FAIL (e);
              }
            if (!t)
              {
                fx_value_clear (&right);
                *out = r;
                return TRUE;
              }
            fx_value_clear (&r);
            left = right;
          }
        *out = left;
        return TRUE;
      }

    case SC_E_CALL:
      return eval_call (S, F, e, out);

    case SC_E_ATTR:
      {
        FxValue obj;
        gboolean ok;
        if (!eval (S, F, e->attr.value, &obj))
          return FALSE;
        ok = sc_getattr (S, &obj, e->attr.attr, out);
        fx_value_clear (&obj);
        return ok || FAIL (e);
      }

    case SC_E_SUBSCRIPT:
      {
        FxValue obj, key;
        gboolean ok;
        if (!eval (S, F, e->subscript.value, &obj))
          return FALSE;
        if (!eval (S, F, e->subscript.index, &key))
          {
            fx_value_clear (&obj);
            return FALSE;
          }
        if (obj.kind == FX_VALUE_LIST && key.kind == FX_VALUE_INT)
          {
            int64_t i = key.i < 0 ? key.i + obj.seq->len : key.i;
            if (i >= 0 && i < (int64_t) obj.seq->len)
              {
                *out = fx_value_copy (&obj.seq->items[i]);
                fx_value_clear (&obj);
                return TRUE;
              }
          }
        ok = sc_getitem (S, &obj, &key, out);
        fx_value_clear (&obj);
        fx_value_clear (&key);
        return ok || FAIL (e);
      }

    case SC_E_SLICE:
      {
        FxValue parts[3] = { fx_value_none (), fx_value_none (), fx_value_none () };
        const ScExpr *src[3] = { e->slice.lower, e->slice.upper, e->slice.step };
        for (int i = 0; i < 3; i++)
          if (src[i] && !eval (S, F, src[i], &parts[i]))
            {
              for (int j = 0; j < i; j++)
                fx_value_clear (&parts[j]);
              return FALSE;
            }
        *out = fx_value_take_slice (fx_slice_new (parts[0], parts[1], parts[2]));
        return TRUE;
      }

    case SC_E_TUPLE:
    case SC_E_LIST:
      {
        FxSeq *seq;
        if (!eval_items (S, F, e->seq.items, e->seq.n, e->seq.has_star, &seq))
          return FALSE;
        *out = e->kind == SC_E_TUPLE ? fx_value_take_tuple (seq) : fx_value_take_list (seq);
        return TRUE;
      }

    case SC_E_SET:
      {
        FxSeq *seq;
        FxValue set;
        if (!eval_items (S, F, e->seq.items, e->seq.n, e->seq.has_star, &seq))
          return FALSE;
        set = sc_set_new (S, FALSE);
        for (guint i = 0; i < seq->len; i++)
          {
            if (!sc_check_hashable (S, &seq->items[i]))
              {
                fx_seq_unref (seq);
                fx_value_clear (&set);
                return FAIL (e);
              }
            fx_dict_set (((ScSet *) set.obj)->d, fx_value_copy (&seq->items[i]), fx_value_none ());
          }
        fx_seq_unref (seq);
        *out = set;
        return TRUE;
      }

    case SC_E_DICT:
      return eval_dict (S, F, e, out);

    case SC_E_STARRED:
      sc_raise (S, SC_T_SYNTAX_ERROR, "can't use starred expression here");
      return FAIL (e);

    case SC_E_IFEXP:
      {
        FxValue t;
        gboolean b, ok;
        if (!eval (S, F, e->ifexp.test, &t))
          return FALSE;
        ok = sc_truth (S, &t, &b);
        fx_value_clear (&t);
        if (!ok)
          return fail_condition (S, F, e->ifexp.test, &e->pos, e);
        return eval (S, F, b ? e->ifexp.body : e->ifexp.orelse, out);
      }

    case SC_E_LAMBDA:
      return make_function (S, F, e->lambda.code, out);

    case SC_E_LISTCOMP:
    case SC_E_SETCOMP:
    case SC_E_DICTCOMP:
    case SC_E_GENEXP:
      return eval_comprehension (S, F, e, out);

    case SC_E_FSTRING:
      return eval_fstring (S, F, e, out);

    case SC_E_FORMATTED:
      {
        ScExpr wrap = { 0 };
        ScExpr *parts[1] = { (ScExpr *) e };
        wrap.kind = SC_E_FSTRING;
        wrap.pos = e->pos;
        wrap.fstring.parts = parts;
        wrap.fstring.n = 1;
        return eval_fstring (S, F, &wrap, out);
      }

    case SC_E_YIELD:
      {
        FxValue v = fx_value_none ();
        if (e->yield.value && !eval (S, F, e->yield.value, &v))
          return FALSE;
        /* suspends a lazy generator (call.c) */
        return sc_generator_yield (S, F, v, out) ? TRUE : FAIL (e);
      }

    case SC_E_YIELD_FROM:
      {
        FxValue v;
        if (!eval (S, F, e->yield.value, &v))
          return FALSE;
        return sc_generator_yield_from (S, F, v, out) ? TRUE : FAIL (e);
      }

    case SC_E_NAMED:
      if (!eval (S, F, e->named.value, out))
        return FALSE;
      store_name (S, F, &e->named.target->name, fx_value_copy (out));
      return TRUE;

    case SC_E_UNSUPPORTED:
      if (strstr (e->unsupported.what, "64 bits"))
        sc_raise (S, SC_T_OVERFLOW_ERROR, "%s are not supported by fx", e->unsupported.what);
      else
        sc_raise (S, SC_T_NOT_IMPLEMENTED_ERROR, "%s are not supported by fx (line %d)",
                  e->unsupported.what, e->pos.line);
      return FAIL (e);
    }
  sc_raise (S, SC_T_SYSTEM_ERROR, "unknown expression");
  return FAIL (e);
}

/* ------------------------------------------------------------------ statements */

static ExStatus exec_stmt (FxScript *S, ScFrame *F, const ScStmt *s);

static ExStatus
exec_block (FxScript *S, ScFrame *F, const ScBlock *b)
{
  for (int i = 0; i < b->n; i++)
    {
      ExStatus st = exec_stmt (S, F, b->items[i]);
      if (st != EX_OK)
        return st;
    }
  return EX_OK;
}

static ExStatus
exec_for (FxScript *S, ScFrame *F, const ScStmt *s)
{
  FxValue iterable, x;
  ScIter it;
  ExStatus st = EX_OK;
  int r;
  gboolean broke = FALSE;

  if (!eval (S, F, s->for_.iter, &iterable))
    return EX_ERROR;
  if (!sc_iter_init (S, &iterable, &it))
    {
      fx_value_clear (&iterable);
      sc_fail_at (S, F, &s->pos, NULL);
      return EX_ERROR;
    }
  fx_value_clear (&iterable);
  while ((r = sc_iter_next (S, &it, &x)) > 0)
    {
      gboolean ok;
      if (s->for_.target->kind == SC_E_NAME)
        store_name (S, F, &s->for_.target->name, x);
      else
        {
          ok = assign (S, F, s->for_.target, &x);
          fx_value_clear (&x);
          if (!ok)
            {
              st = EX_ERROR;
              break;
            }
        }
      st = exec_block (S, F, &s->for_.body);
      if (st == EX_BREAK)
        {
          st = EX_OK;
          broke = TRUE;
          break;
        }
      if (st == EX_CONTINUE)
        st = EX_OK;
      if (st != EX_OK)
        break;
    }
  sc_iter_clear (&it);
  if (r < 0 && st == EX_OK)
    {
      sc_fail_at (S, F, &s->pos, NULL);
      return EX_ERROR;
    }
  if (st == EX_OK && !broke && r == 0)
    st = exec_block (S, F, &s->for_.orelse);
  return st;
}

static ExStatus
exec_while (FxScript *S, ScFrame *F, const ScStmt *s)
{
  for (;;)
    {
      FxValue t;
      gboolean b, ok;
      ExStatus st;
      if (!eval (S, F, s->while_.test, &t))
        return EX_ERROR;
      ok = sc_truth (S, &t, &b);
      fx_value_clear (&t);
      if (!ok)
        {
          fail_condition (S, F, s->while_.test, &s->pos, NULL);
          return EX_ERROR;
        }
      if (!b)
        return exec_block (S, F, &s->while_.orelse);
      st = exec_block (S, F, &s->while_.body);
      if (st == EX_BREAK)
        return EX_OK;
      if (st == EX_CONTINUE || st == EX_OK)
        continue;
      return st;
    }
}

static gboolean
make_exception (FxScript *S, FxValue *v, const char *what)
{
  FxScriptClass *cls = sc_value_class (v);
  if (cls && (cls->flags & SC_CLASS_EXCEPTION))
    {
      FxValue inst;
      if (!sc_call0 (S, v, &inst))
        return FALSE;
      fx_value_clear (v);
      *v = inst;
    }
  if (!sc_exc_data (v))
    {
      fx_value_clear (v);
      return sc_raise (S, SC_T_TYPE_ERROR, "%s", what);
    }
  return TRUE;
}

static ExStatus
exec_raise (FxScript *S, ScFrame *F, const ScStmt *s)
{
  FxValue exc, cause;
  ScExcData *d;
  if (!s->raise.exc)
    {
      if (S->handling.kind == FX_VALUE_NONE)
        {
          sc_raise (S, SC_T_RUNTIME_ERROR, "No active exception to reraise");
          sc_fail_at (S, F, &s->pos, NULL);
          return EX_ERROR;
        }
      sc_raise_instance (S, fx_value_copy (&S->handling), FALSE);
      return EX_ERROR;
    }
  if (!eval (S, F, s->raise.exc, &exc))
    return EX_ERROR;
  if (!make_exception (S, &exc, "exceptions must derive from BaseException"))
    {
      sc_fail_at (S, F, &s->pos, NULL);
      return EX_ERROR;
    }
  d = sc_exc_data (&exc);
  if (s->raise.cause)
    {
      if (!eval (S, F, s->raise.cause, &cause))
        {
          fx_value_clear (&exc);
          return EX_ERROR;
        }
      if (cause.kind != FX_VALUE_NONE
          && !make_exception (S, &cause, "exception causes must derive from BaseException"))
        {
          fx_value_clear (&exc);
          sc_fail_at (S, F, &s->pos, NULL);
          return EX_ERROR;
        }
      fx_value_clear (&d->cause);
      d->cause = cause;
      d->suppress_context = TRUE;
    }
  sc_raise_instance (S, exc, TRUE);
  sc_fail_at (S, F, &s->pos, NULL);
  return EX_ERROR;
}

static void
unbind_handler_name (FxScript *S, ScFrame *F, const ScName *n)
{
  FxValue key = { .kind = FX_VALUE_STR, .s = n->id };
  switch (n->scope)
    {
    case SC_SCOPE_LOCAL:
      fx_value_clear (&F->locals[n->index]);
      F->locals[n->index] = sc_unbound ();
      break;
    case SC_SCOPE_CELL:
      fx_value_clear (&F->cells[n->index]->value);
      F->cells[n->index]->value = sc_unbound ();
      break;
    case SC_SCOPE_NAME:
    case SC_SCOPE_CLASS_CELL:
      if (F->ns)
        {
          fx_dict_remove (F->ns, &key);
          break;
        }
      /* fall through */
    default:
      fx_dict_remove (F->globals, &key);
      break;
    }
  (void) S;
}

static ExStatus
exec_try (FxScript *S, ScFrame *F, const ScStmt *s)
{
  ExStatus st = exec_block (S, F, &s->try_.body);

  if (st == EX_ERROR && s->try_.n_handlers > 0)
    {
      FxValue exc = sc_take_exc (S);
      gboolean handled = FALSE;
      for (int i = 0; i < s->try_.n_handlers && !handled; i++)
        {
          const ScHandler *h = &s->try_.handlers[i];
          gboolean match = TRUE, ok = TRUE;
          if (h->type)
            {
              FxValue spec;
              FxValue saved = S->handling;
              S->handling = exc;
              if (!eval (S, F, h->type, &spec))
                ok = FALSE;
              else
                {
                  match = sc_exc_matches (S, &exc, &spec, &ok);
                  fx_value_clear (&spec);
                  if (!ok)
                    sc_fail_at (S, F, &h->type->pos, h->type);
                }
              S->handling = saved;
              if (!ok)
                {
                  fx_value_clear (&exc);
                  return EX_ERROR;
                }
            }
          if (match)
            {
              FxValue saved = S->handling;
              handled = TRUE;
              if (h->name.id)
                store_name (S, F, &h->name, fx_value_copy (&exc));
              S->handling = exc;
              st = exec_block (S, F, &h->body);
              S->handling = saved;
              if (h->name.id)
                unbind_handler_name (S, F, &h->name);
            }
        }
      if (!handled)
        sc_raise_instance (S, exc, FALSE);
      else
        fx_value_clear (&exc);
    }
  else if (st == EX_OK)
    st = exec_block (S, F, &s->try_.orelse);

  if (s->try_.finalbody.n > 0)
    {
      FxValue pending = fx_value_none (), saved_ret = fx_value_none (), saved_handling;
      ExStatus fst;
      if (st == EX_ERROR)
        pending = sc_take_exc (S);
      if (st == EX_RETURN)
        {
          saved_ret = F->retval;
          F->retval = fx_value_none ();
        }
      saved_handling = S->handling;
      if (pending.kind != FX_VALUE_NONE)
        S->handling = pending;
      fst = exec_block (S, F, &s->try_.finalbody);
      S->handling = saved_handling;
      if (fst != EX_OK)
        {
          fx_value_clear (&pending);
          fx_value_clear (&saved_ret);
          return fst;
        }
      if (st == EX_ERROR)
        sc_raise_instance (S, pending, FALSE);
      if (st == EX_RETURN)
        {
          fx_value_clear (&F->retval);
          F->retval = saved_ret;
        }
    }
  return st;
}

static ExStatus
exec_with_items (FxScript *S, ScFrame *F, const ScStmt *s, int i)
{
  const ScWithItem *item = &s->with.items[i];
  FxValue mgr, enter, exit_, val, r;
  FxScriptClass *type;
  FxValue *enter_m, *exit_m;
  ExStatus st;

  if (!eval (S, F, item->context, &mgr))
    return EX_ERROR;
  type = sc_type_of (S, &mgr);
  enter_m = sc_type_lookup (S, type, sc_n.enter);
  exit_m = sc_type_lookup (S, type, sc_n.exit);
  if (!enter_m || !exit_m)
    {
      sc_raise (S, SC_T_TYPE_ERROR, "'%s' object does not support the context manager protocol%s",
                type->name->data, enter_m ? " (missed __exit__ method)" : "");
      fx_value_clear (&mgr);
      sc_fail_at (S, F, &s->pos, NULL);
      return EX_ERROR;
    }
  if (!sc_getattr (S, &mgr, sc_n.exit, &exit_) || !sc_getattr (S, &mgr, sc_n.enter, &enter))
    {
      fx_value_clear (&mgr);
      sc_fail_at (S, F, &s->pos, NULL);
      return EX_ERROR;
    }
  fx_value_clear (&mgr);
  if (!sc_call0 (S, &enter, &val))
    {
      fx_value_clear (&enter);
      fx_value_clear (&exit_);
      sc_fail_at (S, F, &s->pos, NULL);
      return EX_ERROR;
    }
  fx_value_clear (&enter);
  if (item->target)
    {
      gboolean ok = assign (S, F, item->target, &val);
      if (!ok)
        {
          fx_value_clear (&val);
          st = EX_ERROR;
          goto exit_with_error;
        }
    }
  fx_value_clear (&val);
  st = i + 1 < s->with.n_items ? exec_with_items (S, F, s, i + 1) : exec_block (S, F, &s->with.body);
  if (st != EX_ERROR)
    {
      FxValue args[3] = { fx_value_none (), fx_value_none (), fx_value_none () };
      FxValue saved_ret = fx_value_none ();
      if (st == EX_RETURN)
        {
          saved_ret = F->retval;
          F->retval = fx_value_none ();
        }
      if (!sc_call (S, &exit_, args, 3, NULL, 0, &r))
        {
          fx_value_clear (&exit_);
          fx_value_clear (&saved_ret);
          sc_fail_at (S, F, &s->pos, NULL);
          return EX_ERROR;
        }
      if (st == EX_RETURN)
        {
          fx_value_clear (&F->retval);
          F->retval = saved_ret;
        }
      fx_value_clear (&r);
      fx_value_clear (&exit_);
      return st;
    }
exit_with_error:
  {
    FxValue exc = sc_take_exc (S), saved = S->handling, args[3];
    gboolean suppress, ok;
    args[0] = sc_class_value (sc_type_of (S, &exc));
    args[1] = exc;
    args[2] = fx_value_none ();
    S->handling = exc;
    ok = sc_call (S, &exit_, args, 3, NULL, 0, &r);
    S->handling = saved;
    fx_value_clear (&args[0]);
    fx_value_clear (&exit_);
    if (!ok)
      {
        fx_value_clear (&exc);
        sc_fail_at (S, F, &s->pos, NULL);
        return EX_ERROR;
      }
    ok = sc_truth (S, &r, &suppress);
    fx_value_clear (&r);
    if (!ok)
      {
        fx_value_clear (&exc);
        return EX_ERROR;
      }
    if (suppress)
      {
        fx_value_clear (&exc);
        return EX_OK;
      }
    sc_raise_instance (S, exc, FALSE);
    return EX_ERROR;
  }
}

static ExStatus
exec_import (FxScript *S, ScFrame *F, const ScStmt *s)
{
  for (int i = 0; i < s->import.n; i++)
    {
      const ScAlias *a = &s->import.names[i];
      FxValue mod;
      if (!sc_import (S, a->module->data, &mod))
        {
          sc_fail_at (S, F, &s->pos, NULL);
          return EX_ERROR;
        }
      if (a->name == NULL && strchr (a->module->data, '.') && a->asname.id != a->module)
        {
          /* import a.b binds the top package a */
          const char *dot = strchr (a->module->data, '.');
          g_autofree char *top = g_strndup (a->module->data, dot - a->module->data);
          if (strcmp (top, a->asname.id->data) == 0)
            {
              FxValue *m = sc_dict_get_str (S->modules, sc_intern_cstr (top));
              fx_value_clear (&mod);
              mod = m ? fx_value_copy (m) : fx_value_none ();
            }
        }
      store_name (S, F, &a->asname, mod);
    }
  return EX_OK;
}

/* An annotation's value: evaluated, or under `from __future__ import annotations` its
 * source text. */
static gboolean
eval_annotation (FxScript *S, ScFrame *F, const ScExpr *e, FxValue *out)
{
  ScUnit *u = F->code->unit;
  if (u && u->future_annotations && e->pos.line >= 1 && e->pos.end_line >= e->pos.line
      && (guint) e->pos.end_line <= u->line_starts->len)
    {
      gsize start = GPOINTER_TO_SIZE (u->line_starts->pdata[e->pos.line - 1]) + (gsize) e->pos.col;
      gsize end = GPOINTER_TO_SIZE (u->line_starts->pdata[e->pos.end_line - 1]) + (gsize) e->pos.end_col;
      if (start <= end && end <= u->source_len)
        {
          *out = fx_value_take_str (fx_str_new_len (u->source + start, end - start));
          return TRUE;
        }
    }
  return eval (S, F, e, out);
}

static ExStatus
exec_import_from (FxScript *S, ScFrame *F, const ScStmt *s)
{
  FxValue mod;
  FxScriptModule *m;
  if (s->import.level == 0 && strcmp (s->import.module->data, "__future__") == 0)
    {
      /* compiler directives: the parser has applied them; the names are bound to True */
      for (int i = 0; i < s->import.n; i++)
        {
          FxValue flag = fx_value_bool (TRUE);
          store_name (S, F, &s->import.names[i].asname, flag);
        }
      return EX_OK;
    }
  if (!sc_import_from (S, F, s->import.module, s->import.level, &mod))
    {
      sc_fail_at (S, F, &s->pos, NULL);
      return EX_ERROR;
    }
  m = sc_is_klass (&mod, &sc_module_klass) ? (FxScriptModule *) mod.obj : NULL;
  for (int i = 0; i < s->import.n; i++)
    {
      const ScAlias *a = &s->import.names[i];
      FxValue v;
      int got;
      if (strcmp (a->name->data, "*") == 0)
        {
          const FxValue *k, *val;
          FxValue *all = m ? sc_dict_get_str (m->dict, sc_n.all) : NULL;
          if (all && (all->kind == FX_VALUE_LIST || all->kind == FX_VALUE_TUPLE))
            {
              for (guint j = 0; j < all->seq->len; j++)
                if (all->seq->items[j].kind == FX_VALUE_STR)
                  {
                    FxValue *x = sc_dict_get_str (m->dict, all->seq->items[j].s);
                    if (x)
                      fx_dict_set (F->ns ? F->ns : F->globals, fx_value_copy (&all->seq->items[j]), fx_value_copy (x));
                  }
            }
          else if (m)
            for (guint j = 0; fx_dict_entry (m->dict, j, &k, &val); j++)
              if (k->kind == FX_VALUE_STR && k->s->data[0] != '_')
                fx_dict_set (F->ns ? F->ns : F->globals, fx_value_copy (k), fx_value_copy (val));
          continue;
        }
      got = sc_getattr_opt (S, &mod, a->name, &v);
      if (got < 0)
        {
          fx_value_clear (&mod);
          sc_fail_at (S, F, &s->pos, NULL);
          return EX_ERROR;
        }
      if (got == 0 && m)
        {
          /* a submodule not imported yet */
          g_autofree char *sub = g_strdup_printf ("%s.%s", m->name->data, a->name->data);
          if (sc_import (S, sub, &v))
            got = 1;
          else if (sc_matches (S, SC_T_MODULE_NOT_FOUND_ERROR))
            sc_clear_exc (S);
          else
            {
              fx_value_clear (&mod);
              sc_fail_at (S, F, &s->pos, NULL);
              return EX_ERROR;
            }
        }
      if (got == 0)
        {
          const char *mname = m ? m->name->data : "?";
          if (m && m->file)
            sc_raise (S, SC_T_IMPORT_ERROR, "cannot import name '%s' from '%s' (%s)", a->name->data, mname, m->file);
          else
            sc_raise (S, SC_T_IMPORT_ERROR, "cannot import name '%s' from '%s' (unknown location)",
                      a->name->data, mname);
          fx_value_clear (&mod);
          sc_fail_at (S, F, &s->pos, NULL);
          return EX_ERROR;
        }
      store_name (S, F, &a->asname, v);
    }
  fx_value_clear (&mod);
  return EX_OK;
}

static ExStatus
exec_augassign (FxScript *S, ScFrame *F, const ScStmt *s)
{
  const ScExpr *t = s->augassign.target;
  FxValue cur, rhs, r, obj = fx_value_none (), key = fx_value_none ();
  gboolean ok;

  switch (t->kind)
    {
    case SC_E_NAME:
      if (!load_name (S, F, t, &cur))
        return EX_ERROR;
      break;
    case SC_E_ATTR:
      if (!eval (S, F, t->attr.value, &obj))
        return EX_ERROR;
      if (!sc_getattr (S, &obj, t->attr.attr, &cur))
        {
          fx_value_clear (&obj);
          sc_fail_at (S, F, &t->pos, t);
          return EX_ERROR;
        }
      break;
    case SC_E_SUBSCRIPT:
      if (!eval (S, F, t->subscript.value, &obj))
        return EX_ERROR;
      if (!eval (S, F, t->subscript.index, &key))
        {
          fx_value_clear (&obj);
          return EX_ERROR;
        }
      if (!sc_getitem (S, &obj, &key, &cur))
        {
          fx_value_clear (&obj);
          fx_value_clear (&key);
          sc_fail_at (S, F, &t->pos, t);
          return EX_ERROR;
        }
      break;
    default:
      return EX_ERROR;
    }
  if (!eval (S, F, s->augassign.value, &rhs))
    {
      fx_value_clear (&cur);
      fx_value_clear (&obj);
      fx_value_clear (&key);
      return EX_ERROR;
    }
  ok = sc_binary (S, s->augassign.op, &cur, &rhs, &r, TRUE);
  fx_value_clear (&cur);
  fx_value_clear (&rhs);
  if (!ok)
    {
      fx_value_clear (&obj);
      fx_value_clear (&key);
      sc_fail_at (S, F, &s->pos, NULL);
      return EX_ERROR;
    }
  switch (t->kind)
    {
    case SC_E_NAME:
      store_name (S, F, &t->name, r);
      return EX_OK;
    case SC_E_ATTR:
      ok = sc_setattr (S, &obj, t->attr.attr, &r);
      break;
    default:
      ok = sc_setitem (S, &obj, &key, &r);
      break;
    }
  fx_value_clear (&r);
  fx_value_clear (&obj);
  fx_value_clear (&key);
  if (!ok)
    {
      sc_fail_at (S, F, &t->pos, t);
      return EX_ERROR;
    }
  return EX_OK;
}

static ExStatus
exec_stmt (FxScript *S, ScFrame *F, const ScStmt *s)
{
  F->loc = &s->pos;
  switch (s->kind)
    {
    case SC_S_EXPR:
      {
        FxValue v;
        if (!eval (S, F, s->expr.value, &v))
          return EX_ERROR;
        fx_value_clear (&v);
        return EX_OK;
      }
    case SC_S_ASSIGN:
      {
        FxValue v;
        gboolean ok = TRUE;
        if (!eval (S, F, s->assign.value, &v))
          return EX_ERROR;
        if (s->assign.n_targets == 1 && s->assign.targets[0]->kind == SC_E_NAME)
          {
            store_name (S, F, &s->assign.targets[0]->name, v);
            return EX_OK;
          }
        for (int i = 0; i < s->assign.n_targets && ok; i++)
          ok = assign (S, F, s->assign.targets[i], &v);
        fx_value_clear (&v);
        return ok ? EX_OK : EX_ERROR;
      }
    case SC_S_AUGASSIGN:
      return exec_augassign (S, F, s);
    case SC_S_ANNASSIGN:
      {
        const ScExpr *t = s->annassign.target;
        if (s->annassign.value)
          {
            FxValue v;
            gboolean ok;
            if (!eval (S, F, s->annassign.value, &v))
              return EX_ERROR;
            ok = assign (S, F, t, &v);
            fx_value_clear (&v);
            if (!ok)
              return EX_ERROR;
          }
        if (s->annassign.simple && !F->func)
          {
            FxDict *target = F->ns ? F->ns : F->globals;
            FxValue *ann = sc_dict_get_str (target, sc_n.annotations), a;
            if (!ann)
              {
                sc_dict_set_str (target, "__annotations__", fx_value_take_dict (fx_dict_new ()));
                ann = sc_dict_get_str (target, sc_n.annotations);
              }
            if (!eval_annotation (S, F, s->annassign.annotation, &a))
              return EX_ERROR;
            if (ann->kind == FX_VALUE_DICT)
              fx_dict_set (ann->dict, sc_str_value (t->name.id), a);
            else
              fx_value_clear (&a);
          }
        else if (!F->func)
          {
            FxValue a;
            if (!eval_annotation (S, F, s->annassign.annotation, &a))
              return EX_ERROR;
            fx_value_clear (&a);
          }
        return EX_OK;
      }
    case SC_S_RETURN:
      if (s->ret.value)
        {
          FxValue v;
          if (!eval (S, F, s->ret.value, &v))
            return EX_ERROR;
          fx_value_clear (&F->retval);
          F->retval = v;
        }
      else
        {
          fx_value_clear (&F->retval);
          F->retval = fx_value_none ();
        }
      return EX_RETURN;
    case SC_S_PASS:
    case SC_S_GLOBAL:
    case SC_S_NONLOCAL:
      return EX_OK;
    case SC_S_BREAK:
      return EX_BREAK;
    case SC_S_CONTINUE:
      return EX_CONTINUE;
    case SC_S_IF:
      {
        FxValue t;
        gboolean b, ok;
        if (!eval (S, F, s->if_.test, &t))
          return EX_ERROR;
        if (t.kind == FX_VALUE_BOOL)
          b = t.b;
        else
          {
            ok = sc_truth (S, &t, &b);
            fx_value_clear (&t);
            if (!ok)
              {
                fail_condition (S, F, s->if_.test, &s->pos, NULL);
                return EX_ERROR;
              }
          }
        return exec_block (S, F, b ? &s->if_.body : &s->if_.orelse);
      }
    case SC_S_WHILE:
      return exec_while (S, F, s);
    case SC_S_FOR:
      return exec_for (S, F, s);
    case SC_S_DEF:
      return exec_def (S, F, s);
    case SC_S_CLASS:
      return exec_class (S, F, s);
    case SC_S_RAISE:
      return exec_raise (S, F, s);
    case SC_S_TRY:
      return exec_try (S, F, s);
    case SC_S_WITH:
      return exec_with_items (S, F, s, 0);
    case SC_S_ASSERT:
      {
        FxValue t;
        gboolean b, ok;
        if (!eval (S, F, s->assert_.test, &t))
          return EX_ERROR;
        ok = sc_truth (S, &t, &b);
        fx_value_clear (&t);
        if (!ok)
          {
            fail_condition (S, F, s->assert_.test, &s->pos, NULL);
            return EX_ERROR;
          }
        if (b)
          return EX_OK;
        if (s->assert_.msg)
          {
            FxValue m;
            FxSeq *args;
            if (!eval (S, F, s->assert_.msg, &m))
              return EX_ERROR;
            args = fx_seq_new (1);
            args->items[0] = m;
            sc_raise_args (S, SC_T_ASSERTION_ERROR, fx_value_take_tuple (args));
          }
        else
          sc_raise_args (S, SC_T_ASSERTION_ERROR, fx_value_take_tuple (fx_seq_new (0)));
        /* CPython locates the AssertionError at the whole statement (no carets) */
        sc_fail_at (S, F, &s->pos, NULL);
        return EX_ERROR;
      }
    case SC_S_DEL:
      for (int i = 0; i < s->del.n_targets; i++)
        {
          const ScExpr *t = s->del.targets[i];
          FxValue obj, key;
          gboolean ok = TRUE;
          switch (t->kind)
            {
            case SC_E_NAME:
              ok = delete_name (S, F, &t->name, &t->pos);
              break;
            case SC_E_ATTR:
              if (!eval (S, F, t->attr.value, &obj))
                return EX_ERROR;
              ok = sc_delattr (S, &obj, t->attr.attr);
              fx_value_clear (&obj);
              if (!ok)
                sc_fail_at (S, F, &t->pos, t);
              break;
            case SC_E_SUBSCRIPT:
              if (!eval (S, F, t->subscript.value, &obj))
                return EX_ERROR;
              if (!eval (S, F, t->subscript.index, &key))
                {
                  fx_value_clear (&obj);
                  return EX_ERROR;
                }
              ok = sc_delitem (S, &obj, &key);
              fx_value_clear (&obj);
              fx_value_clear (&key);
              if (!ok)
                sc_fail_at (S, F, &t->pos, t);
              break;
            case SC_E_TUPLE:
            case SC_E_LIST:
              {
                ScStmt sub = *s;
                sub.del.targets = t->seq.items;
                sub.del.n_targets = t->seq.n;
                if (exec_stmt (S, F, &sub) != EX_OK)
                  return EX_ERROR;
                break;
              }
            default:
              break;
            }
          if (!ok)
            return EX_ERROR;
        }
      return EX_OK;
    case SC_S_IMPORT:
      return exec_import (S, F, s);
    case SC_S_IMPORT_FROM:
      return exec_import_from (S, F, s);
    }
  return EX_OK;
}

/* ------------------------------------------------------------------ frames */

gboolean
sc_exec_frame (FxScript *S, ScFrame *F, FxValue *out)
{
  ExStatus st;
  if (S->depth >= S->recursion_limit)
    return sc_raise (S, SC_T_RECURSION_ERROR, "maximum recursion depth exceeded");
  if (!sc_check_stack (S))
    return FALSE;
  F->back = S->frame;
  F->retval = fx_value_none ();
  S->frame = F;
  S->depth++;
  if (F->code->lambda_body && !(F->code->flags & SC_CODE_COMPREHENSION))
    {
      FxValue v;
      F->loc = &F->code->lambda_body->pos;
      if (eval (S, F, F->code->lambda_body, &v))
        {
          F->retval = v;
          st = EX_RETURN;
        }
      else
        st = EX_ERROR;
    }
  else
    st = exec_block (S, F, &F->code->body);
  S->depth--;
  S->frame = F->back;
  if (st == EX_ERROR)
    {
      fx_value_clear (&F->retval);
      return FALSE;
    }
  if (st == EX_BREAK || st == EX_CONTINUE)
    {
      fx_value_clear (&F->retval);
      return sc_raise (S, SC_T_SYNTAX_ERROR, "'break' outside loop");
    }
  *out = F->retval;
  F->retval = fx_value_none ();
  return TRUE;
}
