/* fx-graph-module.c: torch.fx.GraphModule for scripts — an nn.Module subclass made from a
 * root module (or dict) and a Graph, whose forward is the generated code compiled by the
 * interpreter, as torch.fx 1.13 does it (one class per instance, named class_name). Calls of
 * a GraphModule whose graph core/run can execute go through a compiled plan instead. */
#include "script/fx-ir.h"
#include "script/internal.h"
#include "script/nn-bind.h"
#include "script/nn-private.h"
#include "ir/codegen.h"
#include "ir/graph-module.h"
#include "run/run-private.h"

#include <math.h>
#include <string.h>

#define FX_ARGS FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result, \
  gpointer data

/* __qualname__ of the per-instance classes (what 1.13 shows). */
#define IMPL_QUALNAME "GraphModule.__new__.<locals>.GraphModuleImpl"

typedef struct {
  FxScriptClass *gm_cls;
  FxScriptClass *module_cls;     /* torch.nn.Module */
} GmState;

static GmState *
gm_state (gpointer data)
{
  return data;
}

static gboolean
parse (FxScript *S, const char *fname, const FxValue *args, int n_args, FxDict *kwargs,
       const char *const *names, int n_names, int n_required, const FxValue **out)
{
  return fx_script_parse_args (S, fname, args + 1, n_args - 1, kwargs, names, n_names, n_names,
                               n_required, out);
}

static gboolean
raise_gerror (FxScript *S, GError *error)
{
  fx_script_raise_gerror (S, error);
  g_error_free (error);
  return FALSE;
}

/* _graph, _code and forward live in the instance's own GraphModuleImpl class: the Graph
 * refers to its owning module's tree, so keeping it in that tree's attributes (the instance
 * dict) would make a reference cycle. */
static gboolean
has_impl_class (const FxValue *self)
{
  ScInstance *inst = sc_value_instance (self);
  return inst != NULL && strcmp (inst->cls->qualname->data, IMPL_QUALNAME) == 0;
}

static gboolean
store (FxScript *S, const FxValue *self, const char *name, const FxValue *value)
{
  if (has_impl_class (self))
    {
      sc_dict_set_str (sc_value_instance (self)->cls->dict, name, fx_value_copy (value));
      sc_type_modified_class (S, sc_value_instance (self)->cls);
      return TRUE;
    }
  return fx_script_generic_setattr (S, self, name, value);
}

static gboolean
check_self (FxScript *S, GmState *st, const FxValue *self, const char *fname)
{
  if (!sc_isinstance (S, self, st->gm_cls))
    return sc_raise (S, SC_T_TYPE_ERROR,
                     "descriptor '%s' requires a 'GraphModule' object but received a '%s'",
                     fname, sc_type_name (S, self));
  return TRUE;
}

/* self._graph (new reference) and its FxGraph, or FALSE with AttributeError. */
static gboolean
self_graph (FxScript *S, const FxValue *self, FxValue *gv, FxGraph **graph)
{
  if (!fx_script_generic_getattr (S, self, "_graph", gv))
    return FALSE;
  *graph = sc_fx_graph_get (gv);
  if (*graph == NULL)
    {
      fx_value_clear (gv);
      return sc_raise (S, SC_T_TYPE_ERROR, "GraphModule._graph is not a Graph");
    }
  return TRUE;
}

/* target.split('.') as Python does it: "" gives [""], never an empty list. */
static GStrv
split_target (const char *target)
{
  GStrv atoms = g_strsplit (target, ".", -1);
  if (atoms[0] == NULL)
    {
      g_strfreev (atoms);
      atoms = g_new0 (char *, 2);
      atoms[0] = g_strdup ("");
    }
  return atoms;
}

/* ------------------------------------------------------------------ recompile */

static volatile gint eval_counter;

static gboolean
add_torch_globals (FxScript *S, FxDict *globals)
{
  FxValue torch, dev;
  if (!fx_script_import (S, "torch", &torch))
    return FALSE;
  if (fx_script_lookup_attr (S, &torch, "device", &dev))
    sc_dict_set_str (globals, "device", dev);
  else if (fx_script_exception_pending (S))
    {
      fx_value_clear (&torch);
      return FALSE;
    }
  sc_dict_set_str (globals, "torch", torch);
  sc_dict_set_str (globals, "inf", fx_value_float (INFINITY));
  sc_dict_set_str (globals, "nan", fx_value_float (NAN));
  sc_dict_set_str (globals, "NoneType", sc_class_value (S->types[SC_T_NONE]));
  return TRUE;
}

/* The generated source as 1.13 runs it, wrap() preamble included: each
 * torch.fx._symbolic_trace.wrap("name") registers the global of the wrapped function in the
 * code's own globals, so that tracing this GraphModule again records its call instead of
 * tracing through it. */
static char *
runnable_source (const char *code)
{
  return g_strdup (code);
}

/* Compiles code into forward(self, ...) with globals for what it calls; key numbers the
 * <eval_with_key> file (taken when recompile() ran, as 1.13 numbers them). */
static gboolean
compile_forward (FxScript *S, const char *code, int key, GPtrArray *names, GPtrArray *values,
                 FxValue *forward)
{
  g_autofree char *src = runnable_source (code);
  g_autofree char *filename = g_strdup_printf ("<eval_with_key>.%d", key);
  ScSyntaxError err = { 0 };
  ScUnit *unit = sc_compile (filename, src, strlen (src), &err);
  FxDict *globals;
  FxValue out = fx_value_none ();
  FxValue *fwd;
  gboolean ok;

  if (unit == NULL)
    {
      gboolean r = sc_raise (S, SC_T_SYNTAX_ERROR, "generated code does not compile: %s (line %d)",
                             err.msg ? err.msg : "?", err.line);
      sc_syntax_error_clear (&err);
      return r;
    }
  globals = fx_dict_new ();
  sc_dict_set_str (globals, "__name__", fx_value_str (filename));
  if (!add_torch_globals (S, globals))
    {
      fx_dict_unref (globals);
      sc_unit_unref (unit);
      return FALSE;
    }
  for (guint i = 0; i < names->len; i++)
    {
      const FxValue *v = values->pdata[i];
      sc_dict_set_str (globals, names->pdata[i], fx_value_copy (v));
    }
  ok = sc_run_code (S, unit->module, globals, NULL, NULL, &out);
  fx_value_clear (&out);
  sc_unit_unref (unit);
  if (ok)
    {
      fwd = sc_dict_get_str (globals, sc_intern_cstr ("forward"));
      if (fwd == NULL)
        ok = sc_raise (S, SC_T_RUNTIME_ERROR, "generated code defines no forward");
      else
        {
          /* the function holds its globals; the globals must not hold it (no cycle) */
          FxValue key = fx_value_str ("forward");
          *forward = fx_value_copy (fwd);
          fx_dict_remove (globals, &key);
          fx_value_clear (&key);
        }
    }
  fx_dict_unref (globals);
  return ok;
}

/* What compiling forward needs, kept from recompile() until forward is first looked up:
 * most traced GraphModules run through a plan (or are only printed) and never need it. */
typedef struct {
  FxStr *code;
  int key;
  GPtrArray *names;      /* of the globals (owned strings) */
  GPtrArray *values;     /* owned FxValue copies */
} LazyForward;

static void
lazy_forward_free (gpointer data)
{
  LazyForward *lf = data;
  fx_str_unref (lf->code);
  g_ptr_array_unref (lf->names);
  g_ptr_array_unref (lf->values);
  g_free (lf);
}

static void
value_free (gpointer v)
{
  fx_value_clear (v);
  g_free (v);
}

static gboolean
lazy_forward_resolve (FxScript *S, FxScriptClass *owner, FxStr *name, gpointer data)
{
  LazyForward *lf = data;
  FxValue forward;
  (void) name;
  if (!compile_forward (S, lf->code->data, lf->key, lf->names, lf->values, &forward))
    return FALSE;
  sc_dict_set_str (owner->dict, "forward", forward);
  return TRUE;
}

/* gm.recompile(): regenerates _code and the class's forward (compiled when first needed). */
static gboolean
recompile (FxScript *S, const FxValue *self, FxValue *python_code)
{
  g_auto (FxValue) gv = { 0 };
  g_auto (FxValue) code_v = { 0 };
  g_auto (FxValue) forward = { 0 };
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) values = g_ptr_array_new ();
  g_autofree char *code = NULL;
  FxGraph *graph;
  LazyForward *lf;

  if (!self_graph (S, self, &gv, &graph))
    return FALSE;
  code = fx_graph_python_code_full (graph, "self", FALSE, names, values);
  code_v = fx_value_str (code);
  if (!store (S, self, "_code", &code_v))
    return FALSE;
  if (!has_impl_class (self))
    {
      /* only a GraphModuleImpl class holds the placeholder (lookups resolve it there) */
      if (!compile_forward (S, code, g_atomic_int_add (&eval_counter, 1), names, values, &forward)
          || !store (S, self, "forward", &forward))
        return FALSE;
      goto stored;
    }
  lf = g_new0 (LazyForward, 1);
  lf->code = fx_str_ref (code_v.s);
  lf->key = g_atomic_int_add (&eval_counter, 1);
  lf->names = g_ptr_array_new_with_free_func (g_free);
  lf->values = g_ptr_array_new_with_free_func (value_free);
  for (guint i = 0; i < names->len; i++)
    {
      FxValue *v = g_new (FxValue, 1);
      *v = fx_value_copy (values->pdata[i]);
      g_ptr_array_add (lf->names, g_strdup (names->pdata[i]));
      g_ptr_array_add (lf->values, v);
    }
  forward = sc_lazy_attr_new (lazy_forward_resolve, lf, lazy_forward_free);
  if (!store (S, self, "forward", &forward))
    return FALSE;
stored:
  if (python_code != NULL)
    {
      FxValue pc_cls;
      *python_code = fx_value_none ();
      if (fx_script_import (S, "torch.fx._ir", &pc_cls))
        {
          FxValue mod = pc_cls, cls;
          if (fx_script_getattr (S, &mod, "PythonCode", &cls))
            {
              FxScriptClass *c = fx_script_value_get_class (&cls);
              if (c != NULL)
                {
                  FxDict *globals = fx_dict_new ();
                  *python_code = fx_script_instance_new (S, c);
                  sc_dict_set_str (fx_script_instance_dict (python_code), "src", fx_value_str (code));
                  for (guint i = 0; i < names->len; i++)
                    sc_dict_set_str (globals, names->pdata[i], fx_value_copy (values->pdata[i]));
                  sc_dict_set_str (fx_script_instance_dict (python_code), "globals",
                                   fx_value_take_dict (globals));
                }
              fx_value_clear (&cls);
            }
          fx_value_clear (&mod);
        }
      if (fx_script_exception_pending (S))
        return FALSE;
    }
  return TRUE;
}

static gboolean
set_graph (FxScript *S, const FxValue *self, const FxValue *graph_value)
{
  if (sc_fx_graph_get (graph_value) == NULL)
    return sc_raise (S, SC_T_TYPE_ERROR, "GraphModule.graph must be a Graph, not '%s'",
                     sc_type_name (S, graph_value));
  if (!store (S, self, "_graph", graph_value))
    return FALSE;
  sc_fx_graph_add_owner (S, graph_value, self);
  return recompile (S, self, NULL);
}

/* ------------------------------------------------------------------ construction */

static gboolean
call_unbound (FxScript *S, FxScriptClass *cls, const char *name, const FxValue *self,
              const FxValue *rest, int n_rest, FxValue *out)
{
  FxValue *fn = sc_type_lookup_c (S, cls, name);
  FxValue argv[4];
  if (fn == NULL)
    return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "type object '%s' has no attribute '%s'",
                     cls->name->data, name);
  argv[0] = *self;
  for (int i = 0; i < n_rest && i < 3; i++)
    argv[i + 1] = rest[i];
  return sc_call_dict (S, fn, argv, n_rest + 1, NULL, out);
}

static gboolean
new_plain_module (FxScript *S, GmState *st, FxValue *out)
{
  FxValue cls = sc_class_value (st->module_cls);
  gboolean ok = sc_call0 (S, &cls, out);
  fx_value_clear (&cls);
  return ok;
}

/* A parent path already walked by copy_attr: the objects at it in from and in to. */
typedef struct {
  FxValue from, to;
} WalkedPair;

static void
walked_pair_free (gpointer p)
{
  WalkedPair *w = p;
  fx_value_clear (&w->from);
  fx_value_clear (&w->to);
  g_free (w);
}

/* obj is a Module whose class keeps Module's own __getattribute__, __getattr__ and
 * __setattr__: its attributes can be read from and written to its tables directly, without
 * raising and clearing an AttributeError for each name missing (most names copy_attr walks
 * are missing from the new GraphModule). */
typedef struct {
  GmState *st;
  /* plain_module's answers per class; no class changes while attributes are copied */
  FxScriptClass *classes[8];
  gboolean plain[8];
  guint n_classes;
  /* atom → its interned FxStr (borrowed): the same few atoms recur in every target, and
   * sc_intern takes a process-wide lock */
  GHashTable *atoms;
} CopyCtx;

/* The interned name of target's atom [p, p + len). */
static FxStr *
copy_atom (CopyCtx *cx, const char *p, gsize len)
{
  char buf[64];
  g_autofree char *heap = len < sizeof buf ? NULL : g_strndup (p, len);
  char *key = heap != NULL ? heap : buf;
  FxStr *name;

  if (heap == NULL)
    {
      memcpy (buf, p, len);
      buf[len] = '\0';
    }
  if (cx->atoms == NULL)
    cx->atoms = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  else if ((name = g_hash_table_lookup (cx->atoms, key)) != NULL)
    return name;
  name = sc_intern (key, len);
  g_hash_table_insert (cx->atoms, g_strndup (key, len), name);
  return name;
}

static gboolean
plain_module (FxScript *S, CopyCtx *cx, const FxValue *obj, NnModule **p)
{
  ScInstance *inst = sc_value_instance (obj);
  FxStr *hooks[3] = { sc_n.getattribute, sc_n.getattr, sc_n.setattr };
  gboolean plain = TRUE;

  *p = nn_payload (obj);
  if (inst == NULL || *p == NULL)
    return FALSE;
  for (guint i = 0; i < cx->n_classes; i++)
    if (cx->classes[i] == inst->cls)
      return cx->plain[i];
  for (int i = 0; i < 3 && plain; i++)
    plain = sc_type_lookup (S, inst->cls, hooks[i]) == sc_type_lookup (S, cx->st->module_cls, hooks[i]);
  if (cx->n_classes < G_N_ELEMENTS (cx->classes))
    {
      cx->classes[cx->n_classes] = inst->cls;
      cx->plain[cx->n_classes++] = plain;
    }
  return plain;
}

/* getattr(obj, name), or with missing_ok getattr(obj, name, None). */
static gboolean
module_attr (FxScript *S, CopyCtx *cx, const FxValue *obj, FxStr *key, gboolean missing_ok,
             FxValue *out)
{
  NnModule *p;

  if (plain_module (S, cx, obj, &p))
    {
      FxValue k = sc_str_value (key);
      const FxValue *found;
      if (sc_generic_getattr (S, obj, key, out, FALSE))
        {
          fx_value_clear (&k);
          return TRUE;
        }
      if (fx_script_exception_pending (S))
        {
          fx_value_clear (&k);
          return FALSE;
        }
      /* Module.__getattr__ */
      found = fx_dict_get (p->fx->parameters, &k);
      if (found == NULL)
        found = fx_dict_get (p->fx->buffers, &k);
      if (found == NULL)
        found = fx_dict_get (p->modules, &k);
      fx_value_clear (&k);
      if (found != NULL || missing_ok)
        {
          *out = found != NULL ? fx_value_copy (found) : fx_value_none ();
          return TRUE;
        }
    }
  if (!missing_ok)
    return sc_getattr (S, obj, key, out);
  switch (sc_getattr_opt (S, obj, key, out))
    {
    case 0:
      *out = fx_value_none ();
      return TRUE;
    case 1:
      return TRUE;
    default:
      return FALSE;
    }
}

/* setattr(obj, name, value); a Module value goes straight into a plain module's children. */
static gboolean
module_setattr (FxScript *S, CopyCtx *cx, const FxValue *obj, FxStr *key, const FxValue *value)
{
  NnModule *p;

  if (nn_payload (value) != NULL && plain_module (S, cx, obj, &p) && p->initialized
      && sc_type_lookup (S, sc_value_instance (obj)->cls, key) == NULL)
    {
      FxValue k = sc_str_value (key);
      gboolean param = fx_dict_get (p->fx->parameters, &k) != NULL;   /* Module raises */
      fx_value_clear (&k);
      if (!param)
        {
          nn_assign_child (p, key->data, value);
          return TRUE;
        }
    }
  return sc_setattr (S, obj, key, value);
}

/* 1.13's _copy_attr: the object at `target` in from is installed at the same path in to;
 * parents missing in `to` become plain Modules; a tensor that is not a Parameter becomes a
 * buffer. walked remembers the parents reached (path → WalkedPair): targets share them
 * ("layer1.0.conv1", "layer1.0.bn1"), and walking them again finds the same objects. */
static gboolean
copy_attr (FxScript *S, CopyCtx *cx, const FxValue *from_root, const FxValue *to_root,
           const char *target, GHashTable *walked)
{
  GmState *st = cx->st;
  FxStr *last_key;
  g_auto (FxValue) from = { 0 };
  g_auto (FxValue) to = { 0 };
  g_auto (FxValue) orig = { 0 };
  const char *dot = strrchr (target, '.');
  const char *last = dot != NULL ? dot + 1 : target;   /* split_target's last atom */
  const char *p = target;    /* the parent atoms left to walk: [p, last - 1) */
  WalkedPair *known = NULL;

  if (dot != NULL)
    {
      /* the parent path, on the stack when it fits (module paths do) */
      char buf[128];
      gsize len = dot - target;
      g_autofree char *heap = len < sizeof buf ? NULL : g_strndup (target, len);
      if (heap == NULL)
        {
          memcpy (buf, target, len);
          buf[len] = '\0';
        }
      known = g_hash_table_lookup (walked, heap != NULL ? heap : buf);
    }
  if (known != NULL)
    {
      /* only the last atom is left to walk */
      from = fx_value_copy (&known->from);
      to = fx_value_copy (&known->to);
      p = last;
    }
  else
    {
      from = fx_value_copy (from_root);
      to = fx_value_copy (to_root);
    }
  while (p < last)
    {
      g_auto (FxValue) f = { 0 };
      g_auto (FxValue) t = { 0 };
      const char *end = strchr (p, '.');   /* a parent atom ends at a dot */
      FxStr *key = copy_atom (cx, p, end - p);
      if (!module_attr (S, cx, &from, key, FALSE, &f) || !module_attr (S, cx, &to, key, TRUE, &t))
        return FALSE;
      if (f.kind == FX_VALUE_OBJECT && t.kind == FX_VALUE_OBJECT && f.obj == t.obj)
        return TRUE;
      if (t.kind == FX_VALUE_NONE)
        {
          if (!new_plain_module (S, st, &t) || !module_setattr (S, cx, &to, key, &t))
            return FALSE;
        }
      fx_value_clear (&from);
      fx_value_clear (&to);
      from = f;
      to = t;
      f = fx_value_none ();
      t = fx_value_none ();
      {
        WalkedPair *w = g_new (WalkedPair, 1);
        w->from = fx_value_copy (&from);
        w->to = fx_value_copy (&to);
        g_hash_table_replace (walked, g_strndup (target, end - target), w);
      }
      p = end + 1;
    }
  /* installing at a walked path replaces the object remembered for it (and below it) */
  if (g_hash_table_contains (walked, target))
    g_hash_table_remove_all (walked);
  last_key = copy_atom (cx, last, strlen (last));
  if (!module_attr (S, cx, &from, last_key, FALSE, &orig))
    return FALSE;
  if (orig.kind == FX_VALUE_TENSOR && !sc_nn_is_parameter (S, &orig))
    {
      FxValue a[2] = { fx_value_str (last), orig };
      FxValue r;
      gboolean ok = fx_script_call_method (S, &to, "register_buffer", a, 2, NULL, &r);
      fx_value_clear (&a[0]);
      if (ok)
        fx_value_clear (&r);
      return ok;
    }
  return module_setattr (S, cx, &to, last_key, &orig);
}

/* 1.13's _assign_attr for dict roots. */
static gboolean
assign_attr (FxScript *S, GmState *st, const FxValue *value, const FxValue *to_root,
             const char *target)
{
  g_auto (GStrv) atoms = split_target (target);
  guint n = g_strv_length (atoms);
  g_auto (FxValue) to = fx_value_copy (to_root);

  for (guint i = 0; i + 1 < n; i++)
    {
      g_auto (FxValue) t = { 0 };
      if (!fx_script_lookup_attr (S, &to, atoms[i], &t))
        {
          if (fx_script_exception_pending (S))
            return FALSE;
          t = fx_value_none ();
        }
      if (t.kind == FX_VALUE_NONE)
        {
          if (!new_plain_module (S, st, &t) || !fx_script_setattr (S, &to, atoms[i], &t))
            return FALSE;
        }
      fx_value_clear (&to);
      to = t;
      t = fx_value_none ();
    }
  if (value->kind == FX_VALUE_TENSOR && !sc_nn_is_parameter (S, value))
    {
      FxValue a[2] = { fx_value_str (atoms[n - 1]), *value };
      FxValue r;
      gboolean ok = fx_script_call_method (S, &to, "register_buffer", a, 2, NULL, &r);
      fx_value_clear (&a[0]);
      if (ok)
        fx_value_clear (&r);
      return ok;
    }
  return fx_script_setattr (S, &to, atoms[n - 1], value);
}

static int
count_dots (gconstpointer a, gconstpointer b)
{
  const char *sa = *(const char *const *) a, *sb = *(const char *const *) b;
  int da = 0, db = 0;
  for (; *sa; sa++)
    da += *sa == '.';
  for (; *sb; sb++)
    db += *sb == '.';
  return da - db;
}

/* Gives self a class of its own named class_name (1.13's GraphModuleImpl), so that forward
 * can live on the class. */
static gboolean
make_impl_class (FxScript *S, const FxValue *self, const char *class_name)
{
  ScInstance *inst = sc_value_instance (self);
  FxScriptClass *base, *impl;
  FxDict *ns;
  gboolean ok = TRUE;
  FxModule *fx;

  if (inst == NULL)
    return sc_raise (S, SC_T_TYPE_ERROR, "GraphModule.__init__ needs a GraphModule instance");
  base = inst->cls;
  if (strcmp (base->qualname->data, IMPL_QUALNAME) == 0)
    base = base->bases[0];
  ns = fx_dict_new ();
  sc_dict_set_str (ns, "__module__", fx_value_str ("torch.fx.graph_module"));
  impl = sc_class_new (S, "torch.fx.graph_module", class_name, &base, 1, ns, &ok);
  fx_dict_unref (ns);
  if (!ok || impl == NULL)
    return FALSE;
  fx_str_unref (impl->qualname);
  impl->qualname = fx_str_new (IMPL_QUALNAME);
  fx_object_unref (&inst->cls->base);
  inst->cls = impl;   /* takes the new reference */
  /* a new class: no lookup cache knows it, none other changes (no type_version bump) */
  fx = sc_nn_module_to_fx (S, self);
  if (fx != NULL)
    {
      g_free (fx->type_name);
      fx->type_name = g_strdup (class_name);
      fx_module_unref (fx);
    }
  return TRUE;
}

static gboolean
gm_init (FX_ARGS)
{
  static const char *const names[] = { "root", "graph", "class_name" };
  GmState *st = gm_state (data);
  const FxValue *a[3];
  const char *class_name = "GraphModule";
  FxGraph *graph;
  FxValue r;

  if (n_args < 1 || !check_self (S, st, &args[0], "__init__"))
    return FALSE;
  if (!parse (S, "GraphModule.__init__", args, n_args, kwargs, names, 3, 2, a))
    return FALSE;
  if (a[2] != NULL)
    {
      if (a[2]->kind != FX_VALUE_STR)
        return sc_raise (S, SC_T_TYPE_ERROR, "class_name must be a str");
      class_name = a[2]->s->data;
    }
  if ((graph = sc_fx_graph_get (a[1])) == NULL)
    return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "'%s' object has no attribute 'nodes'",
                     sc_type_name (S, a[1]));
  if (!call_unbound (S, st->module_cls, "__init__", &args[0], NULL, 0, &r))
    return FALSE;
  fx_value_clear (&r);
  if (!make_impl_class (S, &args[0], class_name))
    return FALSE;

  if (sc_nn_is_module (S, a[0]))
    {
      FxValue training;
      if (fx_script_lookup_attr (S, a[0], "training", &training))
        {
          gboolean ok = fx_script_setattr (S, &args[0], "training", &training);
          fx_value_clear (&training);
          if (!ok)
            return FALSE;
        }
      else if (fx_script_exception_pending (S))
        return FALSE;
      g_autoptr (GHashTable) walked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                             walked_pair_free);
      CopyCtx cx = { .st = st };
      FxPtrMap copied = { 0 };
      gboolean ok = TRUE;
      /* A module called n times is n call_module nodes sharing one target string (the
       * tracer's path for it): copying it again would put the same object at the same
       * path, which changes nothing (not even the children's order), so it is done once.
       * Equal targets in distinct strings are copied again, as 1.13 does. */
      fx_ptr_map_reserve (&copied, fx_graph_n_nodes (graph));
      for (FxNode *n = fx_graph_first (graph); ok && n != NULL; n = fx_node_next (n))
        if ((n->op == FX_OP_GET_ATTR || n->op == FX_OP_CALL_MODULE)
            && fx_ptr_map_insert (&copied, n->target.s, n->target.s))
          ok = copy_attr (S, &cx, a[0], &args[0], n->target.s->data, walked);
      fx_ptr_map_clear (&copied);
      if (cx.atoms != NULL)
        g_hash_table_unref (cx.atoms);
      if (!ok)
        return FALSE;
    }
  else if (a[0]->kind == FX_VALUE_DICT)
    {
      g_autoptr (GPtrArray) targets = g_ptr_array_new ();
      for (FxNode *n = fx_graph_first (graph); n != NULL; n = fx_node_next (n))
        if (n->op == FX_OP_GET_ATTR || n->op == FX_OP_CALL_MODULE)
          {
            if (fx_dict_get (a[0]->dict, &n->target) == NULL)
              {
                g_autofree char *s = fx_node_format (n);
                (void) s;
                return sc_raise (S, SC_T_RUNTIME_ERROR, "Node %s referenced target %s but that "
                                 "target was not provided in ``root``!", n->name, n->target.s->data);
              }
            g_ptr_array_add (targets, n->target.s->data);
          }
      g_ptr_array_sort (targets, count_dots);
      for (guint i = 0; i < targets->len; i++)
        {
          FxValue key = fx_value_str (targets->pdata[i]);
          const FxValue *value = fx_dict_get (a[0]->dict, &key);
          gboolean ok = assign_attr (S, st, value, &args[0], targets->pdata[i]);
          fx_value_clear (&key);
          if (!ok)
            return FALSE;
        }
    }
  else
    {
      g_autofree char *s = fx_script_value_str (S, a[0]);
      if (s == NULL)
        return FALSE;
      return sc_raise (S, SC_T_RUNTIME_ERROR, "Unsupported type %s passed for root!", s);
    }
  if (!set_graph (S, &args[0], a[1]))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

/* ------------------------------------------------------------------ methods */

static gboolean
gm_graph (FX_ARGS)
{
  GmState *st = gm_state (data);
  (void) n_args; (void) kwargs;
  if (!check_self (S, st, &args[0], "graph"))
    return FALSE;
  return fx_script_generic_getattr (S, &args[0], "_graph", result);
}

static gboolean
gm_set_graph (FX_ARGS)
{
  GmState *st = gm_state (data);
  (void) n_args; (void) kwargs;
  if (!check_self (S, st, &args[0], "graph") || !set_graph (S, &args[0], &args[1]))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
gm_code (FX_ARGS)
{
  GmState *st = gm_state (data);
  (void) n_args; (void) kwargs;
  if (!check_self (S, st, &args[0], "code"))
    return FALSE;
  return fx_script_generic_getattr (S, &args[0], "_code", result);
}

static gboolean
gm_recompile (FX_ARGS)
{
  GmState *st = gm_state (data);
  if (n_args < 1 || !check_self (S, st, &args[0], "recompile")
      || !parse (S, "recompile", args, n_args, kwargs, NULL, 0, 0, NULL))
    return FALSE;
  return recompile (S, &args[0], result);
}

/* A stand-in FxGraphModule over self's module tree, for core's printing and to_folder:
 * the mirror without the attributes GraphModule keeps for itself. */
static gboolean
temp_graph_module (FxScript *S, const FxValue *self, FxGraphModule *tmp, FxValue *gv)
{
  FxModule *fx;
  FxModule *copy;
  const FxValue *k, *v;
  g_auto (FxValue) code = { 0 };
  FxGraph *graph;

  memset (tmp, 0, sizeof *tmp);
  if (!self_graph (S, self, gv, &graph))
    return FALSE;
  if (!fx_script_generic_getattr (S, self, "_code", &code))
    return FALSE;
  fx = sc_nn_module_to_fx (S, self);
  if (fx == NULL)
    return sc_raise (S, SC_T_TYPE_ERROR, "not a Module");
  copy = fx_module_new (fx->type_name);
  copy->training = fx->training;
  copy->layer = fx->layer;
  fx_dict_unref (copy->parameters);
  copy->parameters = fx_dict_ref (fx->parameters);
  fx_dict_unref (copy->buffers);
  copy->buffers = fx_dict_ref (fx->buffers);
  g_hash_table_unref (copy->non_persistent);
  copy->non_persistent = g_hash_table_ref (fx->non_persistent);
  fx_dict_unref (copy->children);
  copy->children = fx_dict_ref (fx->children);
  for (guint i = 0; fx_dict_entry (fx->attributes, i, &k, &v); i++)
    if (k->kind == FX_VALUE_STR && strcmp (k->s->data, "_graph") != 0
        && strcmp (k->s->data, "_code") != 0 && strcmp (k->s->data, "forward") != 0
        && strcmp (k->s->data, "training") != 0)
      fx_dict_set (copy->attributes, fx_value_copy (k), fx_value_copy (v));
  fx_module_unref (fx);
  tmp->module = copy;
  tmp->graph = graph;
  tmp->code = g_strdup (code.kind == FX_VALUE_STR ? code.s->data : "");
  return TRUE;
}

static void
temp_graph_module_clear (FxGraphModule *tmp)
{
  g_clear_pointer (&tmp->module, fx_module_unref);
  g_clear_pointer (&tmp->code, g_free);
}

static gboolean
gm_print_readable (FX_ARGS)
{
  GmState *st = gm_state (data);
  g_auto (FxValue) gv = { 0 };
  g_autofree char *s = NULL;
  FxGraphModule tmp;
  if (n_args < 1 || !check_self (S, st, &args[0], "print_readable")
      || !parse (S, "print_readable", args, n_args, kwargs, NULL, 0, 0, NULL))
    return FALSE;
  if (!temp_graph_module (S, &args[0], &tmp, &gv))
    return FALSE;
  s = fx_graph_module_print_readable (&tmp);
  temp_graph_module_clear (&tmp);
  fx_script_write_stdout (S, s, -1);
  fx_script_write_stdout (S, "\n", 1);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
gm_str (FX_ARGS)
{
  GmState *st = gm_state (data);
  g_auto (FxValue) code = { 0 };
  g_autofree char *repr = NULL;
  (void) n_args; (void) kwargs;
  if (!check_self (S, st, &args[0], "__str__"))
    return FALSE;
  repr = fx_script_value_repr (S, &args[0]);
  if (repr == NULL || !fx_script_generic_getattr (S, &args[0], "_code", &code))
    return FALSE;
  {
    g_autofree char *s = g_strdup_printf (
      "%s\n%s\n# To see more debug info, please use `graph_module.print_readable()`", repr,
      code.kind == FX_VALUE_STR ? code.s->data : "");
    *result = fx_value_str (s);
  }
  return TRUE;
}

static gboolean
gm_to_folder (FX_ARGS)
{
  static const char *const names[] = { "folder", "module_name" };
  GmState *st = gm_state (data);
  const FxValue *a[2];
  g_auto (FxValue) gv = { 0 };
  g_autofree char *folder = NULL;
  GError *error = NULL;
  FxGraphModule tmp;
  gboolean ok;
  if (n_args < 1 || !check_self (S, st, &args[0], "to_folder")
      || !parse (S, "to_folder", args, n_args, kwargs, names, 2, 1, a))
    return FALSE;
  if (a[0]->kind == FX_VALUE_STR)
    folder = g_strdup (a[0]->s->data);
  else
    {
      /* os.PathLike objects */
      folder = fx_script_value_str (S, a[0]);
      if (folder == NULL)
        return FALSE;
    }
  if (a[1] != NULL && a[1]->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "to_folder() module_name must be a str");
  if (!temp_graph_module (S, &args[0], &tmp, &gv))
    return FALSE;
  ok = fx_graph_module_to_folder (&tmp, folder, a[1] ? a[1]->s->data : NULL, &error);
  temp_graph_module_clear (&tmp);
  if (!ok)
    return raise_gerror (S, error);
  *result = fx_value_none ();
  return TRUE;
}

/* 1.13: a plain Module gets deep copies of self's contents, and a GraphModule (named
 * "GraphModule": 1.13 drops class_name here) is built from it and the copied graph. */
static gboolean
gm_deepcopy (FX_ARGS)
{
  GmState *st = gm_state (data);
  const FxValue *memo = NULL;   /* 1.13 deep-copies the contents with a fresh memo */
  g_auto (FxValue) copy_mod = { 0 };
  g_auto (FxValue) deepcopy = { 0 };
  g_auto (FxValue) fake = { 0 };
  g_auto (FxValue) gv = { 0 };
  g_auto (FxValue) graph_copy = { 0 };
  static const char *const tables[] = { "_parameters", "_buffers", "_modules" };
  FxValue cls;
  gboolean ok;
  (void) kwargs;

  if (n_args < 1 || !check_self (S, st, &args[0], "__deepcopy__"))
    return FALSE;
  if (!fx_script_import (S, "copy", &copy_mod) || !fx_script_getattr (S, &copy_mod, "deepcopy", &deepcopy))
    return FALSE;
  if (!new_plain_module (S, st, &fake))
    return FALSE;
  for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
    {
      g_auto (FxValue) table = { 0 };
      const FxValue *k, *v;
      if (!fx_script_getattr (S, &args[0], tables[t], &table))
        return FALSE;
      if (table.kind != FX_VALUE_DICT)
        continue;
      for (guint i = 0; fx_dict_entry (table.dict, i, &k, &v); i++)
        {
          FxValue cargs[2] = { *v, memo ? *memo : fx_value_none () };
          g_auto (FxValue) c = { 0 };
          if (k->kind != FX_VALUE_STR || !sc_call_dict (S, &deepcopy, cargs, memo ? 2 : 1, NULL, &c))
            return FALSE;
          if (t == 1 && c.kind == FX_VALUE_TENSOR)
            {
              FxValue rb[2] = { *k, c };
              FxValue r;
              if (!fx_script_call_method (S, &fake, "register_buffer", rb, 2, NULL, &r))
                return FALSE;
              fx_value_clear (&r);
            }
          else if (!fx_script_setattr (S, &fake, k->s->data, &c))
            return FALSE;
        }
    }
  if (!fx_script_generic_getattr (S, &args[0], "_graph", &gv))
    return FALSE;
  {
    FxValue cargs[2] = { gv, memo ? *memo : fx_value_none () };
    if (!sc_call_dict (S, &deepcopy, cargs, memo ? 2 : 1, NULL, &graph_copy))
      return FALSE;
  }
  cls = sc_class_value (st->gm_cls);
  {
    FxValue cargs[2] = { fake, graph_copy };
    ok = sc_call_dict (S, &cls, cargs, 2, NULL, result);
  }
  fx_value_clear (&cls);
  return ok;
}

/* 1.13: GraphModule(self, self.graph) */
static gboolean
gm_copy (FX_ARGS)
{
  GmState *st = gm_state (data);
  g_auto (FxValue) gv = { 0 };
  FxValue cls;
  gboolean ok;
  (void) n_args; (void) kwargs;
  if (!check_self (S, st, &args[0], "__copy__")
      || !fx_script_generic_getattr (S, &args[0], "_graph", &gv))
    return FALSE;
  cls = sc_class_value (st->gm_cls);
  {
    FxValue cargs[2] = { args[0], gv };
    ok = sc_call_dict (S, &cls, cargs, 2, NULL, result);
  }
  fx_value_clear (&cls);
  return ok;
}

/* ------------------------------------------------------------------ submodules */

static gboolean
is_module (FxScript *S, const FxValue *v)
{
  return sc_nn_is_module (S, v);
}

static gboolean
add_submodule (FxScript *S, GmState *st, const FxValue *self, const char *target,
               const FxValue *m, gboolean *added)
{
  g_auto (GStrv) atoms = split_target (target);
  guint n = g_strv_length (atoms);
  g_auto (FxValue) mod = fx_value_copy (self);
  FxValue a[2], r;

  *added = FALSE;
  for (guint i = 0; i + 1 < n; i++)
    {
      FxValue sub;
      if (!fx_script_lookup_attr (S, &mod, atoms[i], &sub))
        {
          if (fx_script_exception_pending (S))
            return FALSE;
          sub = fx_value_none ();
        }
      if (sub.kind == FX_VALUE_NONE)
        {
          if (!new_plain_module (S, st, &sub))
            return FALSE;
          if (!fx_script_setattr (S, &mod, atoms[i], &sub))
            {
              fx_value_clear (&sub);
              return FALSE;
            }
        }
      if (!is_module (S, &sub))
        {
          fx_value_clear (&sub);
          return TRUE;
        }
      fx_value_clear (&mod);
      mod = sub;
    }
  a[0] = fx_value_str (atoms[n - 1]);
  a[1] = *m;
  if (!fx_script_call_method (S, &mod, "add_module", a, 2, NULL, &r))
    {
      fx_value_clear (&a[0]);
      return FALSE;
    }
  fx_value_clear (&a[0]);
  fx_value_clear (&r);
  *added = TRUE;
  return TRUE;
}

static gboolean
gm_add_submodule (FX_ARGS)
{
  static const char *const names[] = { "target", "m" };
  GmState *st = gm_state (data);
  const FxValue *a[2];
  gboolean added;
  if (n_args < 1 || !check_self (S, st, &args[0], "add_submodule")
      || !parse (S, "add_submodule", args, n_args, kwargs, names, 2, 2, a))
    return FALSE;
  if (a[0]->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "add_submodule() target must be a str");
  if (!add_submodule (S, st, &args[0], a[0]->s->data, a[1], &added))
    return FALSE;
  *result = fx_value_bool (added);
  return TRUE;
}

/* 1 deleted, 0 not there (or not a module), -1 error */
static int
delete_submodule (FxScript *S, const FxValue *self, const char *target)
{
  g_auto (GStrv) atoms = split_target (target);
  guint n = g_strv_length (atoms);
  g_auto (FxValue) mod = fx_value_copy (self);
  g_auto (FxValue) last = { 0 };

  for (guint i = 0; i + 1 < n; i++)
    {
      FxValue sub;
      if (!fx_script_lookup_attr (S, &mod, atoms[i], &sub))
        return fx_script_exception_pending (S) ? -1 : 0;
      fx_value_clear (&mod);
      mod = sub;
      if (!is_module (S, &mod))
        return 0;
    }
  if (!fx_script_lookup_attr (S, &mod, atoms[n - 1], &last))
    return fx_script_exception_pending (S) ? -1 : 0;
  if (!is_module (S, &last))
    return 0;
  return fx_script_delattr (S, &mod, atoms[n - 1]) ? 1 : -1;
}

static gboolean
gm_delete_submodule (FX_ARGS)
{
  static const char *const names[] = { "target" };
  GmState *st = gm_state (data);
  const FxValue *a[1];
  int r;
  if (n_args < 1 || !check_self (S, st, &args[0], "delete_submodule")
      || !parse (S, "delete_submodule", args, n_args, kwargs, names, 1, 1, a))
    return FALSE;
  if (a[0]->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "delete_submodule() target must be a str");
  if ((r = delete_submodule (S, &args[0], a[0]->s->data)) < 0)
    return FALSE;
  *result = fx_value_bool (r == 1);
  return TRUE;
}

typedef struct {
  GHashTable *used;
  GPtrArray *names;
} UsedNames;

static gboolean
collect_module_name (FxScript *S, const FxValue *item, gpointer user_data)
{
  GPtrArray *names = user_data;
  (void) S;
  if (item->kind == FX_VALUE_TUPLE && item->seq->len == 2 && item->seq->items[0].kind == FX_VALUE_STR)
    g_ptr_array_add (names, g_strdup (item->seq->items[0].s->data));
  return TRUE;
}

/* named_modules() names of v (prefix-less). */
static gboolean
module_names (FxScript *S, const FxValue *v, GPtrArray *names)
{
  g_auto (FxValue) it = { 0 };
  if (!fx_script_call_method (S, v, "named_modules", NULL, 0, NULL, &it))
    return FALSE;
  return fx_script_iterate (S, &it, collect_module_name, names);
}

static gboolean
gm_delete_all_unused_submodules (FX_ARGS)
{
  GmState *st = gm_state (data);
  g_autoptr (GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) all = g_ptr_array_new_with_free_func (g_free);
  g_auto (FxValue) gv = { 0 };
  FxGraph *graph;

  if (n_args < 1 || !check_self (S, st, &args[0], "delete_all_unused_submodules")
      || !parse (S, "delete_all_unused_submodules", args, n_args, kwargs, NULL, 0, 0, NULL)
      || !self_graph (S, &args[0], &gv, &graph))
    return FALSE;
  for (FxNode *n = fx_graph_first (graph); n != NULL; n = fx_node_next (n))
    {
      g_auto (GStrv) atoms = NULL;
      GString *path;
      if (n->op != FX_OP_CALL_MODULE && n->op != FX_OP_GET_ATTR)
        continue;
      atoms = g_strsplit (n->target.s->data, ".", -1);
      path = g_string_new (NULL);
      for (guint i = 0; atoms[i] != NULL; i++)
        {
          if (i > 0)
            g_string_append_c (path, '.');
          g_string_append (path, atoms[i]);
          g_hash_table_add (used, g_strdup (path->str));
        }
      g_string_free (path, TRUE);
      if (n->op == FX_OP_CALL_MODULE)
        {
          FxValue sub, tv = fx_value_str (n->target.s->data);
          gboolean ok = fx_script_call_method (S, &args[0], "get_submodule", &tv, 1, NULL, &sub);
          fx_value_clear (&tv);
          if (ok)
            {
              g_autoptr (GPtrArray) subs = g_ptr_array_new_with_free_func (g_free);
              ok = module_names (S, &sub, subs);
              fx_value_clear (&sub);
              if (!ok)
                return FALSE;
              for (guint i = 0; i < subs->len; i++)
                if (*(char *) subs->pdata[i] != '\0')
                  g_hash_table_add (used, g_strdup_printf ("%s.%s", n->target.s->data,
                                                           (char *) subs->pdata[i]));
            }
          else if (fx_script_exception_matches (S, "AttributeError"))
            fx_script_clear_exception (S);
          else
            return FALSE;
        }
    }
  if (!module_names (S, &args[0], all))
    return FALSE;
  for (guint i = 0; i < all->len; i++)
    if (!g_hash_table_contains (used, all->pdata[i])
        && delete_submodule (S, &args[0], all->pdata[i]) < 0)
      return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

/* ------------------------------------------------------------------ class */

/* ------------------------------------------------------------------ calls through a plan */

/* The plan compiled for one recompile() of one GraphModule, kept in its GraphModuleImpl
 * class next to forward: code and graph say which recompile, root which module tree. */
typedef struct {
  FxObject base;
  FxStr *code;
  FxGraph *graph;
  FxModule *root;
  FxExecPlan *plan;              /* NULL: the graph needs the interpreter */
} PlanBox;

static void
plan_box_finalize (FxObject *obj)
{
  PlanBox *box = (PlanBox *) obj;
  fx_str_unref (box->code);
  fx_graph_unref (box->graph);
  g_clear_pointer (&box->root, fx_module_unref);
  g_clear_pointer (&box->plan, fx_exec_plan_unref);
  g_free (box);
}

static const FxObjectClass plan_box_class = { "fx_exec_plan", plan_box_finalize, NULL, NULL,
                                              NULL, NULL };

/* Values the plan passes to kernels as they are: no script objects (Proxies, tensor
 * subclasses with __torch_function__, instances) that the interpreter dispatches on. Node
 * references (in a graph's args) are fine; inputs never hold them. */
static gboolean
plain_value (const FxValue *v)
{
  /* an explicit stack: argument trees may nest deeply */
  g_autoptr (GPtrArray) todo = g_ptr_array_new ();
  const FxValue *k, *x;

  g_ptr_array_add (todo, (gpointer) v);
  while (todo->len > 0)
    {
      const FxValue *cur = g_ptr_array_steal_index_fast (todo, todo->len - 1);
      if (cur->kind == FX_VALUE_OBJECT)
        return FALSE;
      if (cur->kind == FX_VALUE_TUPLE || cur->kind == FX_VALUE_LIST)
        for (guint i = 0; i < cur->seq->len; i++)
          g_ptr_array_add (todo, &cur->seq->items[i]);
      else if (cur->kind == FX_VALUE_DICT)
        for (guint i = 0; fx_dict_entry (cur->dict, i, &k, &x); i++)
          {
            g_ptr_array_add (todo, (gpointer) k);
            g_ptr_array_add (todo, (gpointer) x);
          }
      else if (cur->kind == FX_VALUE_SLICE)
        {
          g_ptr_array_add (todo, &cur->slice->start);
          g_ptr_array_add (todo, &cur->slice->stop);
          g_ptr_array_add (todo, &cur->slice->step);
        }
    }
  return TRUE;
}

/* Compiles the plan of self's graph when the plan runs it exactly as the generated code
 * would: registry ops only, constants without script objects, no in-place or random ops
 * (so that a failing run changed nothing and can be repeated by the interpreter to raise
 * its own traceback). */
static PlanBox *
plan_box_new (FxScript *S, const FxValue *self, FxStr *code, FxGraph *graph)
{
  PlanBox *box = g_new0 (PlanBox, 1);
  FxGraphModule tmp = { 0 };
  gboolean ok = TRUE;

  fx_object_init (&box->base, &plan_box_class);
  box->code = fx_str_ref (code);
  box->graph = fx_graph_ref (graph);
  box->root = sc_nn_module_to_fx (S, self);
  for (FxNode *n = fx_graph_first (graph); n != NULL && ok; n = fx_node_next (n))
    ok = plain_value (&n->args) && plain_value (&n->kwargs);
  if (ok && box->root != NULL)
    {
      tmp.module = box->root;
      tmp.graph = graph;
      box->plan = fx_exec_plan_new (&tmp, NULL);
      if (box->plan != NULL)
        {
          ExecPlan *p = (ExecPlan *) box->plan;
          gboolean effects = FALSE;
          for (int i = 0; i < p->n_instrs && !effects; i++)
            effects = p->instrs[i].fop != NULL
                      && (p->instrs[i].fop->flags & (FX_OP_FLAG_INPLACE | FX_OP_FLAG_RANDOM
                                                     | FX_OP_FLAG_IMPURE));
          if (effects)
            g_clear_pointer (&box->plan, fx_exec_plan_unref);
        }
    }
  return box;
}

static gboolean
no_hooks (NnModule *p)
{
  return p != NULL && (!p->forward_pre_hooks || fx_dict_len (p->forward_pre_hooks) == 0)
         && (!p->forward_hooks || fx_dict_len (p->forward_hooks) == 0);
}

/* Each call_module target is a builtin layer as torch.nn defines it (not a subclass), with
 * no hooks and no state that a forward changes (BatchNorm / Dropout in training). */
static gboolean
modules_runnable (PlanBox *box)
{
  ExecPlan *plan = (ExecPlan *) box->plan;
  for (int i = 0; i < plan->n_instrs; i++)
    {
      if (plan->instrs[i].op != FX_OP_CALL_MODULE)
        continue;
      /* by the plan's interned path atoms: splitting each path on every call took 76-104 us
       * of a ResNet-50 call, now about 50 */
      FxModule *m = fx_run_resolve_module (plan, &plan->instrs[i], FALSE, NULL);
      if (m == NULL || m->layer == NULL || m->impl == NULL
          || strcmp (m->type_name, m->layer->type_name) != 0)
        return FALSE;
      FxValue inst = { .kind = FX_VALUE_OBJECT, .obj = m->impl };
      if (!no_hooks (nn_payload (&inst)))
        return FALSE;
      if (m->training && (strstr (m->type_name, "BatchNorm") || strstr (m->type_name, "Dropout")
                          || strstr (m->type_name, "Norm")))
        return FALSE;
    }
  return TRUE;
}

typedef enum { PLAN_SKIPPED, PLAN_DONE } PlanCall;

static PlanCall
call_through_plan (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                   FxValue *result)
{
  ScInstance *inst;
  FxDict *cls_dict, *inst_dict;
  FxValue *code, *graph_v, *box_v;
  FxGraph *graph;
  PlanBox *box;

  if (n_args < 1 || !has_impl_class (&args[0]))
    return PLAN_SKIPPED;
  inst = sc_value_instance (&args[0]);
  if (!no_hooks (nn_payload (&args[0])))
    return PLAN_SKIPPED;
  inst_dict = fx_script_instance_dict (&args[0]);
  if (inst_dict != NULL && sc_dict_get_str (inst_dict, sc_intern_cstr ("forward")) != NULL)
    return PLAN_SKIPPED;
  for (int i = 1; i < n_args; i++)
    if (!plain_value (&args[i]))
      return PLAN_SKIPPED;
  if (kwargs != NULL)
    {
      FxValue kv = { .kind = FX_VALUE_DICT, .dict = kwargs };
      if (!plain_value (&kv))
        return PLAN_SKIPPED;
    }
  cls_dict = inst->cls->dict;
  code = sc_dict_get_str (cls_dict, sc_intern_cstr ("_code"));
  graph_v = sc_dict_get_str (cls_dict, sc_intern_cstr ("_graph"));
  if (code == NULL || code->kind != FX_VALUE_STR || graph_v == NULL
      || (graph = sc_fx_graph_get (graph_v)) == NULL)
    return PLAN_SKIPPED;

  box_v = sc_dict_get_str (cls_dict, sc_intern_cstr ("_fx_exec_plan"));
  box = box_v != NULL && box_v->kind == FX_VALUE_OBJECT && box_v->obj->klass == &plan_box_class
        ? (PlanBox *) box_v->obj : NULL;
  FxModule *root = sc_nn_module_to_fx (S, &args[0]);   /* also syncs the mirror tree */
  if (root != NULL)
    fx_module_unref (root);   /* self keeps it alive */
  if (box == NULL || box->code != code->s || box->graph != graph || box->root != root)
    {
      box = plan_box_new (S, &args[0], code->s, graph);
      sc_dict_set_str (cls_dict, "_fx_exec_plan", fx_value_take_object (&box->base));
      sc_type_modified (S);
    }
  if (box->plan == NULL || !modules_runnable (box))
    return PLAN_SKIPPED;

  GError *error = NULL;
  if (fx_exec_plan_run_plain (box->plan, args + 1, n_args - 1, kwargs, result, &error))
    return PLAN_DONE;
  /* The graph changed nothing before failing: the generated code runs it again and raises
   * the error with its own traceback. */
  g_error_free (error);
  return PLAN_SKIPPED;
}

/* GraphModule.__call__: through the plan when it can run the graph, else nn.Module's. */
static gboolean
gm_call (FX_ARGS)
{
  GmState *st = gm_state (data);
  if (call_through_plan (S, args, n_args, kwargs, result) == PLAN_DONE)
    return TRUE;
  FxValue *call = sc_type_lookup_c (S, st->module_cls, "__call__");
  if (call == NULL)
    return sc_raise (S, SC_T_TYPE_ERROR, "'GraphModule' object is not callable");
  return sc_call_dict (S, call, args, n_args, kwargs, result);
}

static gboolean
never_called (FX_ARGS)
{
  (void) args; (void) n_args; (void) kwargs; (void) result; (void) data;
  return sc_raise (S, SC_T_TYPE_ERROR, "not callable");
}

FxScriptClass *
sc_fx_graph_module_init (FxScript *S)
{
  FxScriptClassInfo info = { "torch.fx.graph_module", "GraphModule", NULL, NULL, NULL, NULL };
  g_auto (FxValue) nn = { 0 };
  g_auto (FxValue) module_cls = { 0 };
  GmState *st;
  FxScriptClass *base, *c;

  if (!fx_script_import (S, "torch.nn", &nn) || !fx_script_getattr (S, &nn, "Module", &module_cls))
    return NULL;
  base = fx_script_value_get_class (&module_cls);
  if (base == NULL)
    {
      sc_raise (S, SC_T_TYPE_ERROR, "torch.nn.Module is not a class");
      return NULL;
    }
  c = fx_script_class_new (S, &info, base);
  if (c == NULL)
    {
      sc_raise (S, SC_T_RUNTIME_ERROR, "cannot create GraphModule");
      return NULL;
    }
  st = g_new0 (GmState, 1);
  st->gm_cls = c;
  st->module_cls = base;
  /* the state lives as long as the class: a never-called native owns it */
  fx_script_class_set_attr (c, "_fx_state_keeper",
                            fx_script_function_new ("torch.fx.graph_module", "_fx_state_keeper",
                                                    never_called, st, g_free));
  fx_script_class_add_method (c, "__init__", gm_init, st);
  fx_script_class_add_method (c, "__call__", gm_call, st);
  fx_script_class_add_property (c, "graph", gm_graph, gm_set_graph, st);
  fx_script_class_add_property (c, "code", gm_code, NULL, st);
  fx_script_class_add_method (c, "recompile", gm_recompile, st);
  fx_script_class_add_method (c, "print_readable", gm_print_readable, st);
  fx_script_class_add_method (c, "__str__", gm_str, st);
  fx_script_class_add_method (c, "to_folder", gm_to_folder, st);
  fx_script_class_add_method (c, "__deepcopy__", gm_deepcopy, st);
  fx_script_class_add_method (c, "__copy__", gm_copy, st);
  fx_script_class_add_method (c, "add_submodule", gm_add_submodule, st);
  fx_script_class_add_method (c, "delete_submodule", gm_delete_submodule, st);
  fx_script_class_add_method (c, "delete_all_unused_submodules", gm_delete_all_unused_submodules, st);
  return c;
}
