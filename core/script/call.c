/* call.c: calling — Python functions (argument binding with CPython's TypeError messages,
 * frames on the C stack, closures), natives, bound methods, classes (instance creation,
 * __init__), partial objects and registry ops; eager generators; the recursion and C stack
 * guards. */
#include "script/internal.h"

#include <pthread.h>
#include <string.h>

/* ------------------------------------------------------------------ stack guard */

gboolean
sc_check_stack (FxScript *S)
{
  volatile char here = 0;
  if (S->stack_limit && (guintptr) &here < S->stack_limit)
    {
      if (S->exc.kind == FX_VALUE_NONE)
        sc_raise (S, SC_T_RECURSION_ERROR, "maximum recursion depth exceeded");
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ functions */

FxValue
sc_function_new (FxScript *S, ScCode *code, FxDict *globals, FxValue *defaults, int n_defaults,
                 FxValue *kwdefaults, ScCell **closure)
{
  ScFunction *f = g_new0 (ScFunction, 1);
  FxValue *mod = sc_dict_get_str (globals, sc_n.name);
  fx_object_init (&f->base, &sc_function_klass);
  f->code = code;
  f->unit = sc_unit_ref (code->unit);
  f->globals = fx_dict_ref (globals);
  f->defaults = defaults;
  f->n_defaults = n_defaults;
  f->kwdefaults = kwdefaults;
  f->closure = closure;
  f->n_closure = code->n_freevars;
  f->name = fx_str_ref (code->name);
  f->qualname = fx_str_ref (code->qualname);
  f->module = mod ? fx_value_copy (mod) : fx_value_none ();
  f->doc = code->docstring ? sc_str_value (code->docstring) : fx_value_none ();
  (void) S;
  return fx_value_take_object (&f->base);
}

static void
format_names (GString *out, GPtrArray *names)
{
  guint n = names->len;
  for (guint i = 0; i < n; i++)
    {
      if (i)
        g_string_append (out, n == 2 ? " and " : i == n - 1 ? ", and " : ", ");
      g_string_append_printf (out, "'%s'", (char *) names->pdata[i]);
    }
}

static gboolean
missing_arguments (FxScript *S, ScFunction *fn, FxValue *locals, int start, int end, const char *kind)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GString) list = g_string_new (NULL);
  for (int i = start; i < end; i++)
    if (sc_is_unbound (&locals[i]))
      g_ptr_array_add (names, fn->code->params[i].id->data);
  format_names (list, names);
  return sc_raise (S, SC_T_TYPE_ERROR, "%s() missing %u required %s argument%s: %s",
                   fn->qualname->data, names->len, kind, names->len == 1 ? "" : "s", list->str);
}

static gboolean
bind_args (FxScript *S, ScFunction *fn, const FxValue *self, const FxValue *args, int nargs,
           FxStr *const *kwnames, int nkw, FxValue *locals)
{
  ScCode *co = fn->code;
  int n_pos = co->n_pos, n_kwonly = co->n_kwonly, total = n_pos + n_kwonly;
  int given = nargs + (self ? 1 : 0);
  int n = MIN (given, n_pos), slot = total;
  FxDict *kwdict = NULL;

#define ARG(i) (self ? ((i) == 0 ? self : &args[(i) - 1]) : &args[i])
  for (int i = 0; i < n; i++)
    locals[i] = fx_value_copy (ARG (i));
  if (co->flags & SC_CODE_VARARGS)
    {
      FxSeq *rest = fx_seq_new (given > n_pos ? given - n_pos : 0);
      for (int i = n_pos; i < given; i++)
        rest->items[i - n_pos] = fx_value_copy (ARG (i));
      locals[slot++] = fx_value_take_tuple (rest);
    }
  if (co->flags & SC_CODE_VARKEYWORDS)
    {
      kwdict = fx_dict_new ();
      locals[slot] = fx_value_take_dict (kwdict);
    }
#undef ARG

  for (int k = 0; k < nkw; k++)
    {
      FxStr *name = kwnames[k];
      const FxValue *value = &args[nargs + k];
      int j;
      for (j = co->n_posonly; j < total; j++)
        if (co->params[j].id == name
            || (co->params[j].id->len == name->len && memcmp (co->params[j].id->data, name->data, name->len) == 0))
          break;
      if (j < total)
        {
          if (!sc_is_unbound (&locals[j]))
            return sc_raise (S, SC_T_TYPE_ERROR, "%s() got multiple values for argument '%s'",
                             fn->qualname->data, name->data);
          locals[j] = fx_value_copy (value);
          continue;
        }
      if (kwdict)
        {
          fx_dict_set (kwdict, sc_str_value (name), fx_value_copy (value));
          continue;
        }
      {
        g_autoptr (GPtrArray) posonly = g_ptr_array_new ();
        for (int p = 0; p < co->n_posonly; p++)
          for (int q = 0; q < nkw; q++)
            if (strcmp (co->params[p].id->data, kwnames[q]->data) == 0)
              g_ptr_array_add (posonly, co->params[p].id->data);
        if (posonly->len)
          {
            g_autoptr (GString) l = g_string_new (NULL);
            for (guint i = 0; i < posonly->len; i++)
              g_string_append_printf (l, "%s%s", i ? ", " : "", (char *) posonly->pdata[i]);
            return sc_raise (S, SC_T_TYPE_ERROR, "%s() got some positional-only arguments passed as "
                             "keyword arguments: '%s'", fn->qualname->data, l->str);
          }
      }
      return sc_raise (S, SC_T_TYPE_ERROR, "%s() got an unexpected keyword argument '%s'",
                       fn->qualname->data, name->data);
    }

  if (given > n_pos && !(co->flags & SC_CODE_VARARGS))
    {
      int kwonly_given = 0;
      g_autofree char *sig = NULL;
      g_autofree char *kwsig = NULL;
      gboolean plural;
      for (int i = n_pos; i < total; i++)
        if (!sc_is_unbound (&locals[i]))
          kwonly_given++;
      if (fn->n_defaults)
        {
          plural = TRUE;
          sig = g_strdup_printf ("from %d to %d", n_pos - fn->n_defaults, n_pos);
        }
      else
        {
          plural = n_pos != 1;
          sig = g_strdup_printf ("%d", n_pos);
        }
      kwsig = kwonly_given ? g_strdup_printf (" positional argument%s (and %d keyword-only argument%s)",
                                              given != 1 ? "s" : "", kwonly_given,
                                              kwonly_given != 1 ? "s" : "")
                           : g_strdup ("");
      return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes %s positional argument%s but %d%s %s given",
                       fn->qualname->data, sig, plural ? "s" : "", given, kwsig,
                       given == 1 && !kwonly_given ? "was" : "were");
    }
  if (given < n_pos)
    {
      int m = n_pos - fn->n_defaults;
      for (int i = given; i < m; i++)
        if (sc_is_unbound (&locals[i]))
          return missing_arguments (S, fn, locals, 0, m, "positional");
      for (int i = MAX (given, m); i < n_pos; i++)
        if (sc_is_unbound (&locals[i]))
          locals[i] = fx_value_copy (&fn->defaults[i - m]);
    }
  if (n_kwonly)
    {
      gboolean missing = FALSE;
      for (int i = n_pos; i < total; i++)
        {
          if (!sc_is_unbound (&locals[i]))
            continue;
          if (fn->kwdefaults && !sc_is_unbound (&fn->kwdefaults[i - n_pos]))
            locals[i] = fx_value_copy (&fn->kwdefaults[i - n_pos]);
          else
            missing = TRUE;
        }
      if (missing)
        return missing_arguments (S, fn, locals, n_pos, total, "keyword-only");
    }
  return TRUE;
}

/* ------------------------------------------------------------------ generators */

typedef struct {
  ScFunction *fn;
  FxValue *locals;
  ScCell **cells;
  FxValue error;     /* raised after the collected values are delivered */
} ScGenState;

static void
gen_state_free (gpointer p)
{
  ScGenState *g = p;
  ScCode *co = g->fn->code;
  for (int i = 0; i < co->n_locals; i++)
    fx_value_clear (&g->locals[i]);
  for (int i = 0; i < co->n_cellvars + co->n_freevars; i++)
    if (g->cells[i])
      fx_object_unref (&g->cells[i]->base);
  g_free (g->locals);
  g_free (g->cells);
  fx_value_clear (&g->error);
  fx_object_unref (&g->fn->base);
  g_free (g);
}

int
sc_generator_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  ScGenState *g = it->gen;
  if (!it->started)
    {
      ScFrame F = { 0 };
      FxValue ret;
      gboolean ok;
      it->started = TRUE;
      it->values = fx_seq_new (0);
      F.code = g->fn->code;
      F.func = g->fn;
      F.locals = g->locals;
      F.cells = g->cells;
      F.globals = g->fn->globals;
      F.yields = it->values;
      ok = sc_exec_frame (S, &F, &ret);
      if (ok)
        fx_value_clear (&ret);
      else
        g->error = sc_take_exc (S);
    }
  if (it->pos < it->values->len)
    {
      *out = fx_value_copy (&it->values->items[it->pos++]);
      return 1;
    }
  if (g && g->error.kind != FX_VALUE_NONE)
    {
      FxValue e = g->error;
      g->error = fx_value_none ();
      sc_raise_instance (S, e, FALSE);
      return -1;
    }
  return 0;
}

static FxValue
make_generator (FxScript *S, ScFunction *fn, FxValue *locals, ScCell **cells)
{
  ScCode *co = fn->code;
  FxValue v = sc_iterobj_new (S, SC_T_GENERATOR, sc_generator_next);
  ScIterObj *it = (ScIterObj *) v.obj;
  ScGenState *g = g_new0 (ScGenState, 1);
  int ncells = co->n_cellvars + co->n_freevars;
  g->fn = (ScFunction *) fx_object_ref (&fn->base);
  g->locals = g_new (FxValue, MAX (co->n_locals, 1));
  memcpy (g->locals, locals, sizeof (FxValue) * co->n_locals);
  g->cells = g_new0 (ScCell *, MAX (ncells, 1));
  memcpy (g->cells, cells, sizeof (ScCell *) * ncells);
  g->error = fx_value_none ();
  it->gen = g;
  it->gen_free = gen_state_free;
  it->name = fx_str_ref (fn->qualname);
  return v;
}

/* ------------------------------------------------------------------ Python calls */

static gboolean
call_function (FxScript *S, ScFunction *fn, const FxValue *self, const FxValue *args, int nargs,
               FxStr *const *kwnames, int nkw, FxValue *out)
{
  ScCode *co = fn->code;
  int nlocals = co->n_locals, ncells = co->n_cellvars + co->n_freevars;
  FxValue local_buf[12];
  ScCell *cell_buf[6];
  FxValue *locals = nlocals <= 12 ? local_buf : g_new (FxValue, nlocals);
  ScCell **cells = ncells <= 6 ? cell_buf : g_new (ScCell *, MAX (ncells, 1));
  ScFrame F = { 0 };
  gboolean ok;

  for (int i = 0; i < nlocals; i++)
    locals[i] = sc_unbound ();
  if (!bind_args (S, fn, self, args, nargs, kwnames, nkw, locals))
    {
      for (int i = 0; i < nlocals; i++)
        fx_value_clear (&locals[i]);
      if (locals != local_buf)
        g_free (locals);
      if (cells != cell_buf)
        g_free (cells);
      return FALSE;
    }
  for (int i = 0; i < co->n_cellvars; i++)
    cells[i] = sc_cell_new (sc_unbound ());
  if (co->param_cells)
    {
      int np = co->n_pos + co->n_kwonly + ((co->flags & SC_CODE_VARARGS) ? 1 : 0)
               + ((co->flags & SC_CODE_VARKEYWORDS) ? 1 : 0);
      for (int p = 0; p < np; p++)
        if (co->param_cells[p] >= 0)
          {
            cells[co->param_cells[p]]->value = locals[p];
            locals[p] = sc_unbound ();
          }
    }
  for (int i = 0; i < co->n_freevars; i++)
    cells[co->n_cellvars + i] = (ScCell *) fx_object_ref (&fn->closure[i]->base);

  if (co->flags & SC_CODE_GENERATOR)
    {
      *out = make_generator (S, fn, locals, cells);
      ok = TRUE;
    }
  else
    {
      F.code = co;
      F.func = fn;
      F.locals = locals;
      F.cells = cells;
      F.globals = fn->globals;
      ok = sc_exec_frame (S, &F, out);
      for (int i = 0; i < nlocals; i++)
        fx_value_clear (&locals[i]);
      for (int i = 0; i < ncells; i++)
        fx_object_unref (&cells[i]->base);
    }
  if (locals != local_buf)
    g_free (locals);
  if (cells != cell_buf)
    g_free (cells);
  return ok;
}

/* Module and class bodies. cells_in: the class body's free variables (or NULL). */
gboolean
sc_run_code (FxScript *S, ScCode *code, FxDict *globals, FxDict *ns, ScCell **cells_in, FxValue *out)
{
  int ncells = code->n_cellvars + code->n_freevars;
  ScCell **cells = g_new0 (ScCell *, MAX (ncells, 1));
  ScFrame F = { 0 };
  gboolean ok;

  for (int i = 0; i < code->n_cellvars; i++)
    cells[i] = sc_cell_new (sc_unbound ());
  for (int i = 0; i < code->n_freevars; i++)
    cells[code->n_cellvars + i] = (ScCell *) fx_object_ref (&cells_in[i]->base);
  F.code = code;
  F.cells = cells;
  F.globals = globals;
  F.ns = ns;
  ok = sc_exec_frame (S, &F, out);
  if (ok && code->class_cell >= 0)
    {
      /* hand the __class__ cell to the caller through the result */
      fx_value_clear (out);
      *out = fx_value_take_object (fx_object_ref (&cells[code->class_cell]->base));
    }
  for (int i = 0; i < ncells; i++)
    fx_object_unref (&cells[i]->base);
  g_free (cells);
  return ok;
}

/* ------------------------------------------------------------------ other callables */

static FxDict *
kwargs_dict (const FxValue *vals, FxStr *const *names, int n)
{
  FxDict *d;
  if (n == 0)
    return NULL;
  d = fx_dict_new ();
  for (int i = 0; i < n; i++)
    fx_dict_set (d, sc_str_value (names[i]), fx_value_copy (&vals[i]));
  return d;
}

static gboolean
call_native (FxScript *S, ScNative *n, const FxValue *args, int nargs, FxStr *const *kwnames,
             int nkw, FxValue *out)
{
  FxDict *kw = kwargs_dict (args + nargs, kwnames, nkw);
  gboolean ok;
  *out = fx_value_none ();
  ok = n->func (S, args, nargs, kw, out, n->data);
  if (kw)
    fx_dict_unref (kw);
  if (!ok && S->exc.kind == FX_VALUE_NONE)
    sc_raise (S, SC_T_SYSTEM_ERROR, "%s() returned an error without setting an exception", n->name->data);
  return ok;
}

static gboolean
call_op (FxScript *S, const FxOp *op, const FxValue *args, int nargs, FxStr *const *kwnames,
         int nkw, FxValue *out)
{
  FxDict *kw = kwargs_dict (args + nargs, kwnames, nkw);
  GError *error = NULL;
  gboolean ok, handled;
  /* operator.add(a, b) & co. on non-tensors: Python's own dispatch (__add__, ...) */
  ok = sc_operator_call (S, op, args, nargs, kw, out, &handled);
  if (handled)
    {
      if (kw)
        fx_dict_unref (kw);
      return ok;
    }
  if (S->op_call)
    ok = S->op_call (S, op, args, nargs, kw, out, S->op_call_data);
  else
    {
      ok = fx_op_call (op, args, nargs, kw, out, &error);
      if (!ok)
        {
          sc_raise_gerror (S, error);
          g_error_free (error);
        }
    }
  if (kw)
    fx_dict_unref (kw);
  if (!ok && S->exc.kind == FX_VALUE_NONE)
    sc_raise (S, SC_T_SYSTEM_ERROR, "%s failed without an exception", op->qualified_name);
  return ok;
}

static gboolean
call_with_self (FxScript *S, const FxValue *func, const FxValue *self, const FxValue *args,
                int nargs, FxStr *const *kwnames, int nkw, FxValue *out)
{
  FxValue buf[8];
  FxValue *all;
  gboolean ok;
  if (sc_is_klass (func, &sc_function_klass))
    return call_function (S, (ScFunction *) func->obj, self, args, nargs, kwnames, nkw, out);
  all = nargs + nkw + 1 <= 8 ? buf : g_new (FxValue, nargs + nkw + 1);
  all[0] = *self;
  if (nargs + nkw)
    memcpy (all + 1, args, sizeof (FxValue) * (nargs + nkw));
  ok = sc_call (S, func, all, nargs + 1, kwnames, nkw, out);
  if (all != buf)
    g_free (all);
  return ok;
}

static gboolean
call_class (FxScript *S, FxScriptClass *cls, const FxValue *args, int nargs, FxStr *const *kwnames,
            int nkw, FxValue *out)
{
  FxValue inst, *init, *newm, r;
  if (cls->construct)
    {
      FxDict *kw = kwargs_dict (args + nargs, kwnames, nkw);
      gboolean ok;
      *out = fx_value_none ();
      ok = cls->construct (S, args, nargs, kw, out, cls);
      if (kw)
        fx_dict_unref (kw);
      return ok;
    }
  newm = sc_type_lookup (S, cls, sc_n.new);
  if (newm && newm->kind == FX_VALUE_OBJECT
      && (newm->obj->klass == &sc_function_klass || newm->obj->klass == &sc_staticmethod_klass))
    {
      FxValue c = sc_class_value (cls);
      const FxValue *f = newm->obj->klass == &sc_staticmethod_klass ? &((ScWrapper *) newm->obj)->func : newm;
      gboolean ok = call_with_self (S, f, &c, args, nargs, kwnames, nkw, &inst);
      fx_value_clear (&c);
      if (!ok)
        return FALSE;
      if (!sc_isinstance (S, &inst, cls))
        {
          *out = inst;
          return TRUE;
        }
    }
  else
    inst = sc_instance_new (S, cls);
  if (cls->flags & SC_CLASS_EXCEPTION)
    {
      ScExcData *d = sc_exc_data (&inst);
      if (d)
        {
          FxSeq *a = fx_seq_new (nargs);
          for (int i = 0; i < nargs; i++)
            a->items[i] = fx_value_copy (&args[i]);
          fx_value_clear (&d->args);
          d->args = fx_value_take_tuple (a);
        }
    }
  init = sc_type_lookup (S, cls, sc_n.init);
  if (init && !(init->kind == FX_VALUE_OBJECT && init->obj == sc_dict_get_str (S->types[SC_T_OBJECT]->dict, sc_n.init)->obj))
    {
      if (!call_with_self (S, init, &inst, args, nargs, kwnames, nkw, &r))
        {
          fx_value_clear (&inst);
          return FALSE;
        }
      if (r.kind != FX_VALUE_NONE)
        {
          const char *tn = sc_type_name (S, &r);
          fx_value_clear (&r);
          fx_value_clear (&inst);
          return sc_raise (S, SC_T_TYPE_ERROR, "__init__() should return None, not '%s'", tn);
        }
    }
  else if (nargs || nkw)
    {
      fx_value_clear (&inst);
      return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes no arguments", cls->name->data);
    }
  *out = inst;
  return TRUE;
}

static gboolean
call_partial (FxScript *S, ScPartial *p, const FxValue *args, int nargs, FxStr *const *kwnames,
              int nkw, FxValue *out)
{
  int np = p->n_args, nk = p->kwargs ? (int) fx_dict_len (p->kwargs) : 0;
  FxValue *all = g_new (FxValue, np + nargs + nk + nkw + 1);
  FxStr **names = g_new (FxStr *, nk + nkw + 1);
  const FxValue *k, *v;
  int kcount = 0;
  gboolean ok;
  for (int i = 0; i < np; i++)
    all[i] = p->args[i];
  for (int i = 0; i < nargs; i++)
    all[np + i] = args[i];
  /* call-site keywords override the stored ones */
  for (guint i = 0; p->kwargs && fx_dict_entry (p->kwargs, i, &k, &v); i++)
    {
      gboolean overridden = FALSE;
      for (int j = 0; j < nkw; j++)
        if (strcmp (kwnames[j]->data, k->s->data) == 0)
          overridden = TRUE;
      if (overridden)
        continue;
      all[np + nargs + kcount] = *v;
      names[kcount++] = k->s;
    }
  for (int j = 0; j < nkw; j++)
    {
      all[np + nargs + kcount] = args[nargs + j];
      names[kcount++] = kwnames[j];
    }
  ok = sc_call (S, &p->func, all, np + nargs, names, kcount, out);
  g_free (all);
  g_free (names);
  return ok;
}

gboolean
sc_call (FxScript *S, const FxValue *callable, const FxValue *args, int nargs,
         FxStr *const *kwnames, int nkw, FxValue *out)
{
  if (callable->kind == FX_VALUE_OBJECT)
    {
      const FxObjectClass *k = callable->obj->klass;
      if (k == &sc_function_klass)
        return call_function (S, (ScFunction *) callable->obj, NULL, args, nargs, kwnames, nkw, out);
      if (k == &sc_native_klass)
        return call_native (S, (ScNative *) callable->obj, args, nargs, kwnames, nkw, out);
      if (k == &sc_method_klass)
        {
          ScMethod *m = (ScMethod *) callable->obj;
          return call_with_self (S, &m->func, &m->self, args, nargs, kwnames, nkw, out);
        }
      if (k == &sc_class_klass)
        return call_class (S, (FxScriptClass *) callable->obj, args, nargs, kwnames, nkw, out);
      if (k == &sc_partial_klass)
        return call_partial (S, (ScPartial *) callable->obj, args, nargs, kwnames, nkw, out);
      if (k == &sc_staticmethod_klass || k == &sc_classmethod_klass)
        {
          if (k == &sc_staticmethod_klass)
            return sc_call (S, &((ScWrapper *) callable->obj)->func, args, nargs, kwnames, nkw, out);
        }
    }
  else if (callable->kind == FX_VALUE_OP && !S->kind_classes[FX_VALUE_OP])
    return call_op (S, callable->op, args, nargs, kwnames, nkw, out);
  {
    FxScriptClass *t = sc_type_of (S, callable);
    FxValue *m = (t->flags & SC_CLASS_BUILTIN) ? NULL : sc_type_lookup (S, t, sc_n.call);
    if (m)
      return call_with_self (S, m, callable, args, nargs, kwnames, nkw, out);
    if (callable->kind == FX_VALUE_OP)
      return call_op (S, callable->op, args, nargs, kwnames, nkw, out);
  }
  return sc_raise (S, SC_T_TYPE_ERROR, "'%s' object is not callable", sc_type_name (S, callable));
}

gboolean
sc_kwargs_to_vector (FxScript *S, FxDict *kwargs, FxValue **vals, FxStr ***names, int *n)
{
  const FxValue *k, *v;
  int count = kwargs ? (int) fx_dict_len (kwargs) : 0;
  *vals = g_new (FxValue, count + 1);
  *names = g_new (FxStr *, count + 1);
  *n = 0;
  for (guint i = 0; kwargs && fx_dict_entry (kwargs, i, &k, &v); i++)
    {
      if (k->kind != FX_VALUE_STR)
        {
          g_free (*vals);
          g_free (*names);
          return sc_raise (S, SC_T_TYPE_ERROR, "keywords must be strings");
        }
      (*vals)[*n] = *v;
      (*names)[*n] = k->s;
      (*n)++;
    }
  return TRUE;
}

gboolean
sc_call_dict (FxScript *S, const FxValue *callable, const FxValue *args, int nargs, FxDict *kwargs,
              FxValue *out)
{
  FxValue *kv, *all;
  FxStr **names;
  int nk;
  gboolean ok;
  if (kwargs == NULL || fx_dict_len (kwargs) == 0)
    return sc_call (S, callable, args, nargs, NULL, 0, out);
  if (!sc_kwargs_to_vector (S, kwargs, &kv, &names, &nk))
    return FALSE;
  all = g_new (FxValue, nargs + nk + 1);
  if (nargs)
    memcpy (all, args, sizeof (FxValue) * nargs);
  memcpy (all + nargs, kv, sizeof (FxValue) * nk);
  ok = sc_call (S, callable, all, nargs, names, nk, out);
  g_free (all);
  g_free (kv);
  g_free (names);
  return ok;
}

gboolean
sc_call0 (FxScript *S, const FxValue *callable, FxValue *out)
{
  return sc_call (S, callable, NULL, 0, NULL, 0, out);
}

gboolean
sc_call1 (FxScript *S, const FxValue *callable, const FxValue *a, FxValue *out)
{
  return sc_call (S, callable, a, 1, NULL, 0, out);
}

gboolean
sc_call2 (FxScript *S, const FxValue *callable, const FxValue *a, const FxValue *b, FxValue *out)
{
  FxValue args[2] = { *a, *b };
  return sc_call (S, callable, args, 2, NULL, 0, out);
}

gboolean
sc_callable (FxScript *S, const FxValue *v)
{
  if (v->kind == FX_VALUE_OP)
    return TRUE;
  if (v->kind == FX_VALUE_OBJECT)
    {
      const FxObjectClass *k = v->obj->klass;
      if (k == &sc_function_klass || k == &sc_native_klass || k == &sc_method_klass
          || k == &sc_class_klass || k == &sc_partial_klass || k == &sc_staticmethod_klass)
        return TRUE;
    }
  {
    FxScriptClass *t = sc_type_of (S, v);
    return !(t->flags & SC_CLASS_BUILTIN) && sc_type_lookup (S, t, sc_n.call) != NULL;
  }
}

/* ------------------------------------------------------------------ super() */

static gboolean
super_construct (FxScript *S, const FxValue *args, int nargs, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxScriptClass *start;
  FxValue self;
  ScSuper *sp;
  FxScriptClass *self_type;

  if (kwargs && fx_dict_len (kwargs))
    return sc_raise (S, SC_T_TYPE_ERROR, "super() takes no keyword arguments");
  if (nargs == 0)
    {
      ScFrame *F = S->frame;
      ScCode *co;
      FxValue *cv;
      if (F == NULL || F->func == NULL)
        return sc_raise (S, SC_T_RUNTIME_ERROR, "super(): no arguments");
      co = F->code;
      if (co->class_free < 0)
        return sc_raise (S, SC_T_RUNTIME_ERROR, "super(): __class__ cell not found");
      if (co->self_slot < 0)
        return sc_raise (S, SC_T_RUNTIME_ERROR, "super(): no arguments");
      cv = &F->cells[co->class_free]->value;
      if (sc_is_unbound (cv) || !sc_value_class (cv))
        return sc_raise (S, SC_T_RUNTIME_ERROR, "super(): empty __class__ cell");
      start = sc_value_class (cv);
      self = co->self_cell >= 0 ? F->cells[co->self_cell]->value : F->locals[co->self_slot];
      if (sc_is_unbound (&self))
        return sc_raise (S, SC_T_RUNTIME_ERROR, "super(): arg[0] deleted");
      if ((co->flags & SC_CODE_VARARGS) && co->n_pos == 0)
        {
          if (self.kind != FX_VALUE_TUPLE || self.seq->len == 0)
            return sc_raise (S, SC_T_RUNTIME_ERROR, "super(): no arguments");
          self = self.seq->items[0];
        }
    }
  else if (nargs == 2)
    {
      start = sc_value_class (&args[0]);
      if (!start)
        return sc_raise (S, SC_T_TYPE_ERROR, "super() argument 1 must be a type, not %s",
                         sc_type_name (S, &args[0]));
      self = args[1];
    }
  else
    return sc_raise (S, SC_T_TYPE_ERROR, "super() takes 0 or 2 arguments, not %d", nargs);

  if (sc_value_class (&self) && sc_is_subclass (sc_value_class (&self), start))
    self_type = sc_value_class (&self);
  else if (sc_isinstance (S, &self, start))
    self_type = sc_type_of (S, &self);
  else
    return sc_raise (S, SC_T_TYPE_ERROR, "super(type, obj): obj must be an instance or subtype of type");
  sp = g_new0 (ScSuper, 1);
  fx_object_init (&sp->base, &sc_super_klass);
  sp->start = (FxScriptClass *) fx_object_ref (&start->base);
  sp->self_type = (FxScriptClass *) fx_object_ref (&self_type->base);
  sp->self = fx_value_copy (&self);
  *out = fx_value_take_object (&sp->base);
  (void) data;
  return TRUE;
}

/* Registered by builtins.c: super's constructor needs the frames above. */
FxScriptFunc sc_super_construct_func (void);

FxScriptFunc
sc_super_construct_func (void)
{
  return super_construct;
}
