/* nn-layers.c: the classes of torch.nn besides Module — Parameter, every builtin layer of
 * ops/layers.c (constructed, run and printed by it) and the containers Sequential,
 * ModuleList and ModuleDict, with PyTorch 1.13's behaviour. */
#include "script/nn-private.h"
#include "tensor/shape.h"
#include "tensor/random.h"

#include <math.h>
#include <string.h>

static FxValue
str_value (const char *s)
{
  return fx_value_str (s);
}

static FxValue
index_name (int64_t i)
{
  char buf[32];
  g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, i);
  return fx_value_str (buf);
}

/* ------------------------------------------------------------------ Parameter */

FxScriptClass *
sc_nn_parameter_class (FxScript *S)
{
  FxValue *m = sc_dict_get_str (S->modules, sc_intern_cstr ("torch.nn"));
  FxValue *c;
  if (m == NULL || !sc_is_klass (m, &sc_module_klass))
    return NULL;
  c = sc_dict_get_str (((FxScriptModule *) m->obj)->dict, sc_intern_cstr ("Parameter"));
  return c ? sc_value_class (c) : NULL;
}

/* Parameter(data=None, requires_grad=True): a new tensor sharing data's storage. */
static gboolean
parameter_construct (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                     FxValue *result, gpointer data)
{
  static const char *const names[] = { "data", "requires_grad" };
  const FxValue *a[2] = { NULL, NULL };
  gboolean rg = TRUE;
  FxTensor *t;
  (void) data;
  if (!fx_script_parse_args (S, "Parameter", args, n_args, kwargs, names, 2, 2, 0, a))
    return FALSE;
  if (a[1] && !sc_truth (S, a[1], &rg))
    return FALSE;
  if (a[0] == NULL || a[0]->kind == FX_VALUE_NONE)
    {
      int64_t zero = 0;
      t = fx_tensor_zeros (FX_DTYPE_DEFAULT_FLOAT, 1, &zero);
    }
  else if (a[0]->kind != FX_VALUE_TENSOR)
    return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "'%s' object has no attribute 'detach'",
                     sc_type_name (S, a[0]));
  else
    t = fx_tensor_detach (a[0]->tensor);
  if (rg && !fx_dtype_is_floating (t->dtype))
    {
      fx_tensor_unref (t);
      return sc_raise (S, SC_T_RUNTIME_ERROR,
                       "Only Tensors of floating point and complex dtype can require gradients");
    }
  t->requires_grad = rg;
  nn_mark_parameter (t);
  *result = fx_value_take_tensor (t);
  return TRUE;
}

static gboolean
parameter_repr (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                gpointer data)
{
  FxScriptClass *pc = data;
  GString *s = g_string_new ("Parameter containing:\n");
  FxValue *base_repr = NULL;
  (void) n_args; (void) kwargs;
  if (pc && pc->n_bases > 0)
    base_repr = sc_type_lookup (S, pc->bases[0], sc_n.repr);
  if (base_repr != NULL)
    {
      FxValue r;
      if (!sc_call1 (S, base_repr, &args[0], &r))
        {
          g_string_free (s, TRUE);
          return FALSE;
        }
      if (r.kind == FX_VALUE_STR)
        g_string_append (s, r.s->data);
      fx_value_clear (&r);
    }
  else
    fx_value_repr (&args[0], s);
  *result = fx_value_take_str (fx_str_new_len (s->str, s->len));
  g_string_free (s, TRUE);
  return TRUE;
}

/* deepcopy keeps the copy a Parameter with the same requires_grad */
static gboolean
parameter_deepcopy (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                    FxValue *result, gpointer data)
{
  FxTensor *c;
  (void) n_args; (void) kwargs; (void) data;
  if (args[0].kind != FX_VALUE_TENSOR)
    return sc_raise (S, SC_T_TYPE_ERROR, "Parameter.__deepcopy__ needs a Parameter");
  c = fx_tensor_clone (args[0].tensor);
  c->requires_grad = args[0].tensor->requires_grad;
  nn_mark_parameter (c);
  *result = fx_value_take_tensor (c);
  return TRUE;
}

static FxScriptClass *
tensor_class (FxScript *S)
{
  FxValue torch, tc;
  FxScriptClass *cls = NULL;
  if (sc_import (S, "torch", &torch))
    {
      if (sc_getattr_opt (S, &torch, sc_intern_cstr ("Tensor"), &tc) > 0)
        {
          cls = sc_value_class (&tc);
          fx_value_clear (&tc);
        }
      fx_value_clear (&torch);
    }
  sc_clear_exc (S);
  if (cls == NULL)
    cls = S->kind_classes[FX_VALUE_TENSOR] ? S->kind_classes[FX_VALUE_TENSOR]
                                           : S->types[SC_T_TENSOR];
  return cls;
}

static void
parameter_init (FxScript *S, FxScriptModule *mod, NnState *st)
{
  FxScriptClassInfo info = { .module = "torch.nn.parameter", .name = "Parameter" };
  FxScriptClass *pc = fx_script_class_new (S, &info, tensor_class (S));
  pc->construct = parameter_construct;
  fx_script_class_add_method (pc, "__repr__", parameter_repr, pc);
  fx_script_class_add_method (pc, "__deepcopy__", parameter_deepcopy, pc);
  st->parameter_cls = pc;
  fx_script_module_set (mod, "Parameter", fx_script_class_value (pc));
}

/* ------------------------------------------------------------------ builtin layers */

static gboolean layer_reset (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                             FxValue *result, gpointer data);

/* the layers whose PyTorch constructor ends with self.reset_parameters() */
static gboolean
has_reset_parameters (const FxLayerKind *k)
{
  return g_str_equal (k->type_name, "Linear") || g_str_has_prefix (k->type_name, "Conv")
         || g_str_equal (k->type_name, "Bilinear") || g_str_equal (k->type_name, "Embedding")
         || g_str_equal (k->type_name, "LayerNorm") || g_str_equal (k->type_name, "GroupNorm")
         || g_str_has_prefix (k->type_name, "BatchNorm")
         || g_str_has_prefix (k->type_name, "InstanceNorm");
}

static const FxLayerKind *
layer_of (NnModule *p, gpointer data)
{
  return p->fx->layer ? p->fx->layer : data;
}

static gboolean
layer_init (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  const FxLayerKind *kind = data;
  GError *error = NULL;
  FxModule *m;
  NnModule *p = nn_self (S, &args[0], "__init__");
  if (p == NULL)
    return FALSE;
  m = fx_layer_new (kind->type_name, args + 1, n_args - 1, kwargs, &error);
  if (m == NULL)
    return nn_raise_gerror (S, error);
  nn_adopt_layer (S, &args[0], m);
  fx_module_unref (m);
  *result = fx_value_none ();
  /* PyTorch's constructors end with self.reset_parameters(): a Python override runs (after
   * the default draws here, which PyTorch would not have made) */
  {
    FxValue *rp = has_reset_parameters (kind)
                  ? sc_type_lookup_c (S, sc_type_of (S, &args[0]), "reset_parameters") : NULL;
    if (rp && !(sc_is_klass (rp, &sc_native_klass) && ((ScNative *) rp->obj)->func == layer_reset))
      {
        FxValue r;
        FxStr *name = sc_intern_cstr ("reset_parameters");
        FxValue meth;
        if (!sc_getattr (S, &args[0], name, &meth))
          return FALSE;
        if (!sc_call0 (S, &meth, &r))
          {
            fx_value_clear (&meth);
            return FALSE;
          }
        fx_value_clear (&meth);
        fx_value_clear (&r);
      }
  }
  return TRUE;
}

/* A Python object standing in for a tensor (a torch.fx Proxy, anything with
 * __torch_function__): an instance of a script class other than a Module, at the top level
 * or one level down in a tuple or list. */
static gboolean
is_stand_in (const FxValue *v)
{
  const FxValue *items = v;
  guint n_items = 1;
  if (v->kind == FX_VALUE_TUPLE || v->kind == FX_VALUE_LIST)
    {
      items = v->seq->items;
      n_items = v->seq->len;
    }
  for (guint i = 0; i < n_items; i++)
    if (sc_value_instance (&items[i]) != NULL && nn_payload (&items[i]) == NULL)
      return TRUE;
  return FALSE;
}

static gboolean
has_stand_in (const FxValue *args, int n_args, FxDict *kwargs)
{
  const FxValue *k, *v;
  for (int i = 0; i < n_args; i++)
    if (is_stand_in (&args[i]))
      return TRUE;
  for (guint i = 0; kwargs != NULL && fx_dict_entry (kwargs, i, &k, &v); i++)
    if (is_stand_in (v))
      return TRUE;
  return FALSE;
}

/* The layer's forward written in Python (core/trace/torch_nn_forward.py), which reads
 * self.weight etc. and calls torch.nn.functional as PyTorch's forward does, so that a tracer
 * tracing through the layer records what PyTorch records. */
static gboolean
python_layer_forward (FxScript *S, const FxLayerKind *kind, const FxValue *args, int n_args,
                      FxDict *kwargs, FxValue *result)
{
  FxValue module, table, forward;
  const FxValue *found;
  FxValue key;
  gboolean ok;

  if (!sc_import (S, "torch.fx._nn_forward", &module))
    return FALSE;
  ok = fx_script_generic_getattr (S, &module, "FORWARDS", &table);
  fx_value_clear (&module);
  if (!ok)
    return FALSE;
  key = str_value (kind->type_name);
  found = table.kind == FX_VALUE_DICT ? fx_dict_get (table.dict, &key) : NULL;
  fx_value_clear (&key);
  if (found == NULL)
    {
      fx_value_clear (&table);
      return sc_raise (S, SC_T_TYPE_ERROR, "%s.forward() needs a tensor input",
                       kind->type_name);
    }
  forward = fx_value_copy (found);
  fx_value_clear (&table);
  ok = sc_call_dict (S, &forward, args, n_args, kwargs, result);
  fx_value_clear (&forward);
  return ok;
}

static gboolean
layer_forward (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
               gpointer data)
{
  GError *error = NULL;
  NnModule *p = nn_self (S, &args[0], "forward");
  if (p == NULL)
    return FALSE;
  if (has_stand_in (args + 1, n_args - 1, kwargs))
    return python_layer_forward (S, layer_of (p, data), args, n_args, kwargs, result);
  if (!fx_module_forward_layer (p->fx, args + 1, n_args - 1, kwargs, result, &error))
    return nn_raise_gerror (S, error);
  return TRUE;
}

static gboolean
layer_extra_repr (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                  FxValue *result, gpointer data)
{
  NnModule *p = nn_self (S, &args[0], "extra_repr");
  const FxLayerKind *kind;
  (void) kwargs;
  if (p == NULL)
    return FALSE;
  if (n_args != 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "extra_repr() takes 1 positional argument but %d were "
                     "given", n_args);
  kind = layer_of (p, data);
  if (kind && kind->extra_repr && p->fx->layer)
    {
      char *s = kind->extra_repr (p->fx);
      *result = str_value (s ? s : "");
      g_free (s);
    }
  else
    *result = str_value ("");
  return TRUE;
}

/* reset_parameters(): the builtin layers' default initialisation drawn again, in PyTorch's
 * order (and reset_running_stats() for the norms). */
static FxTensor *
param_of (NnModule *p, const char *name)
{
  FxValue key = str_value (name);
  const FxValue *v = fx_dict_get (p->fx->parameters, &key);
  if (v == NULL)
    v = fx_dict_get (p->fx->buffers, &key);
  fx_value_clear (&key);
  return v && v->kind == FX_VALUE_TENSOR ? v->tensor : NULL;
}

static gboolean
attr_true (NnModule *p, const char *name)
{
  FxValue key = str_value (name);
  const FxValue *v = fx_dict_get (p->fx->attributes, &key);
  fx_value_clear (&key);
  return v && ((v->kind == FX_VALUE_BOOL && v->b) || (v->kind == FX_VALUE_INT && v->i));
}

static gboolean
reset_running_stats (NnModule *p, GError **error)
{
  FxTensor *mean = param_of (p, "running_mean"), *var = param_of (p, "running_var");
  FxTensor *n = param_of (p, "num_batches_tracked");
  if (!attr_true (p, "track_running_stats"))
    return TRUE;
  return (!mean || fx_init_zeros_ (mean, error)) && (!var || fx_init_ones_ (var, error))
         && (!n || fx_init_zeros_ (n, error));
}

static gboolean
reset_parameters (NnModule *p, gboolean stats_only, GError **error)
{
  const char *kind = p->fx->layer ? p->fx->layer->type_name : "";
  const char *owner = p->fx->layer ? p->fx->layer->init_owner : "";
  FxTensor *w = param_of (p, "weight"), *b = param_of (p, "bias");
  int64_t fan_in, fan_out;

  if (strcmp (owner, "_BatchNorm") == 0 || strcmp (owner, "_InstanceNorm") == 0)
    {
      if (!reset_running_stats (p, error))
        return FALSE;
      if (stats_only || !attr_true (p, "affine"))
        return TRUE;
      return (!w || fx_init_ones_ (w, error)) && (!b || fx_init_zeros_ (b, error));
    }
  if (stats_only)
    return TRUE;
  if (g_str_equal (kind, "LayerNorm") || g_str_equal (kind, "GroupNorm"))
    return (!w || fx_init_ones_ (w, error)) && (!b || fx_init_zeros_ (b, error));
  if (w == NULL)
    return TRUE;
  if (g_str_equal (kind, "Linear") || g_str_has_prefix (kind, "Conv"))
    {
      if (!fx_init_kaiming_uniform_ (w, sqrt (5.0), "fan_in", "leaky_relu", NULL, error))
        return FALSE;
      if (b == NULL)
        return TRUE;
      if (!fx_init_fan_in_and_out (w, &fan_in, &fan_out, error))
        return FALSE;
      if (fan_in == 0 && !g_str_equal (kind, "Linear"))
        return TRUE;
      return fx_init_uniform_ (b, fan_in ? -1.0 / sqrt ((double) fan_in) : 0.0,
                               fan_in ? 1.0 / sqrt ((double) fan_in) : 0.0, NULL, error);
    }
  if (g_str_equal (kind, "Bilinear"))
    {
      double bound = w->ndim > 1 && w->shape[1] > 0 ? 1.0 / sqrt ((double) w->shape[1]) : 0.0;
      return fx_init_uniform_ (w, -bound, bound, NULL, error)
             && (b == NULL || fx_init_uniform_ (b, -bound, bound, NULL, error));
    }
  if (g_str_equal (kind, "Embedding"))
    {
      FxValue key = str_value ("padding_idx");
      const FxValue *pi = fx_dict_get (p->fx->attributes, &key);
      gboolean ok = fx_init_normal_ (w, 0.0, 1.0, NULL, error);
      fx_value_clear (&key);
      if (ok && pi && pi->kind == FX_VALUE_INT && w->ndim == 2 && pi->i >= 0 && pi->i < w->shape[0])
        {
          FxTensor *row = fx_tensor_select (w, 0, pi->i, error);
          ok = row != NULL && fx_init_zeros_ (row, error);
          if (row)
            fx_tensor_unref (row);
        }
      return ok;
    }
  return TRUE;
}

static gboolean
layer_reset (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
             gpointer data)
{
  GError *error = NULL;
  NnModule *p = nn_self (S, &args[0], "reset_parameters");
  if (p == NULL)
    return FALSE;
  if (n_args != 1 || (kwargs && fx_dict_len (kwargs)))
    return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes 1 positional argument but %d were given",
                     data ? "reset_running_stats" : "reset_parameters", n_args);
  if (!reset_parameters (p, data != NULL, &error))
    return nn_raise_gerror (S, error);
  *result = fx_value_none ();
  return TRUE;
}

/* ------------------------------------------------------------------ container helpers */

static int64_t
n_children (NnModule *p)
{
  return fx_dict_len (p->modules);
}

/* The i-th (key, value) of _modules; borrowed. */
static gboolean
child_at (NnModule *p, int64_t i, const FxValue **key, const FxValue **value)
{
  return fx_dict_entry (p->modules, (guint) i, key, value);
}

/* operator.index(idx) in -size <= idx < size, made non-negative; IndexError with msg_fmt. */
static gboolean
norm_index (FxScript *S, const FxValue *idx, int64_t size, int64_t *out)
{
  int64_t i;
  if (!sc_index (S, idx, &i))
    return FALSE;
  if (!(-size <= i && i < size))
    return sc_raise (S, SC_T_INDEX_ERROR, "index %" G_GINT64_FORMAT " is out of range", i);
  *out = i < 0 ? i + size : i;
  return TRUE;
}

/* _modules renumbered 0..n-1 after a deletion. */
static void
renumber (NnModule *p)
{
  FxDict *old = fx_dict_ref (p->modules);
  const FxValue *k, *v;
  guint n = 0;
  fx_dict_unref (p->modules);
  p->modules = fx_dict_new ();
  fx_dict_unref (p->fx->children);
  p->fx->children = fx_dict_new ();
  for (guint i = 0; fx_dict_entry (old, i, &k, &v); i++)
    {
      FxValue name = index_name (n++);
      nn_set_child (p, name.s->data, v);
      fx_value_clear (&name);
    }
  fx_dict_unref (old);
}

static gboolean
del_child (FxScript *S, const FxValue *self, const FxValue *key)
{
  return key->kind == FX_VALUE_STR ? sc_delattr (S, self, key->s) : TRUE;
}

static gboolean
is_ordered_dict (FxScript *S, const FxValue *v)
{
  return v->kind == FX_VALUE_DICT
         || (v->kind == FX_VALUE_OBJECT && strcmp (sc_type_name (S, v), "OrderedDict") == 0);
}

/* The (key, value) pairs of a mapping as a new list. */
static gboolean
mapping_items (FxScript *S, const FxValue *m, FxSeq **out)
{
  FxValue items, r;
  gboolean ok;
  if (m->kind == FX_VALUE_DICT)
    {
      const FxValue *k, *v;
      FxSeq *seq = fx_seq_new (0);
      for (guint i = 0; fx_dict_entry (m->dict, i, &k, &v); i++)
        {
          FxSeq *t = fx_seq_new (2);
          t->items[0] = fx_value_copy (k);
          t->items[1] = fx_value_copy (v);
          fx_seq_append (seq, fx_value_take_tuple (t));
        }
      *out = seq;
      return TRUE;
    }
  if (!sc_getattr (S, m, sc_n.s_items, &items))
    return FALSE;
  ok = sc_call0 (S, &items, &r);
  fx_value_clear (&items);
  if (!ok)
    return FALSE;
  ok = sc_collect (S, &r, out);
  fx_value_clear (&r);
  return ok;
}

static gboolean
unpack_pair (FxScript *S, const FxValue *item, FxValue *k, FxValue *v)
{
  FxSeq *s;
  if (!sc_collect (S, item, &s))
    return FALSE;
  if (s->len != 2)
    {
      guint n = s->len;
      fx_seq_unref (s);
      return sc_raise (S, SC_T_VALUE_ERROR, "expected 2 items to unpack, got %u", n);
    }
  *k = fx_value_copy (&s->items[0]);
  *v = fx_value_copy (&s->items[1]);
  fx_seq_unref (s);
  return TRUE;
}

static gboolean
add_module_by_index (FxScript *S, const FxValue *self, int64_t i, const FxValue *module)
{
  FxValue name = index_name (i);
  gboolean ok = nn_add_module (S, self, &name, module);
  fx_value_clear (&name);
  return ok;
}

/* type(self)(arg) */
static gboolean
new_like (FxScript *S, const FxValue *self, FxValue arg, FxValue *out)
{
  FxValue cls = sc_class_value (sc_type_of (S, self));
  gboolean ok = sc_call1 (S, &cls, &arg, out);
  fx_value_clear (&cls);
  fx_value_clear (&arg);
  return ok;
}

#define SELF(fname) \
  NnModule *p = nn_self (S, &args[0], fname); \
  if (p == NULL) \
    return FALSE

#define NEED_ARGS(n, fname) \
  if (n_args != (n) + 1 || (kwargs && fx_dict_len (kwargs) > 0)) \
    return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes %d positional argument%s but %d were given", \
                     fname, (n) + 1, (n) ? "s" : "", n_args)

static gboolean
c_len (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
       gpointer data)
{
  (void) data;
  SELF ("__len__");
  NEED_ARGS (0, "__len__");
  *result = fx_value_int (n_children (p));
  return TRUE;
}

/* iter(self._modules.values()) */
static gboolean
c_iter_values (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
               gpointer data)
{
  FxValue view;
  gboolean ok;
  (void) data;
  SELF ("__iter__");
  NEED_ARGS (0, "__iter__");
  view = sc_dict_view_new (p->modules, SC_T_DICT_VALUES);
  ok = sc_get_iter (S, &view, result);
  fx_value_clear (&view);
  return ok;
}

static gboolean
c_dir (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
       gpointer data)
{
  FxValue m, all;
  FxSeq *out;
  gboolean ok;
  (void) data;
  SELF ("__dir__");
  (void) p;
  NEED_ARGS (0, "__dir__");
  /* Module.__dir__ without the digit names */
  m = sc_class_value (nn_payload (&args[0]) ? ((NnState *) data)->module_cls
                                            : sc_type_of (S, &args[0]));
  {
    FxValue f;
    ok = sc_getattr (S, &m, sc_n.dir, &f);
    fx_value_clear (&m);
    if (!ok)
      return FALSE;
    ok = sc_call1 (S, &f, &args[0], &all);
    fx_value_clear (&f);
    if (!ok)
      return FALSE;
  }
  out = fx_seq_new (0);
  if (all.kind == FX_VALUE_LIST)
    for (guint i = 0; i < all.seq->len; i++)
      if (all.seq->items[i].kind == FX_VALUE_STR && !g_ascii_isdigit (all.seq->items[i].s->data[0]))
        fx_seq_append (out, fx_value_copy (&all.seq->items[i]));
  fx_value_clear (&all);
  *result = fx_value_take_list (out);
  return TRUE;
}

/* Module.__init__(self), as the containers' __init__ start with super().__init__(). */
static gboolean
module_base_init (FxScript *S, NnState *st, const FxValue *self)
{
  FxValue mod_cls = sc_class_value (st->module_cls), init, r;
  gboolean ok = sc_getattr (S, &mod_cls, sc_n.init, &init);
  fx_value_clear (&mod_cls);
  if (!ok)
    return FALSE;
  ok = sc_call1 (S, &init, self, &r);
  fx_value_clear (&init);
  if (ok)
    fx_value_clear (&r);
  return ok;
}

/* ------------------------------------------------------------------ Sequential */

static gboolean
seq_init (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
          gpointer data)
{
  NnState *st = data;
  const FxValue *k, *v;
  SELF ("__init__");
  if (kwargs && fx_dict_entry (kwargs, 0, &k, &v))
    {
      return sc_raise (S, SC_T_TYPE_ERROR,
                       "Sequential.__init__() got an unexpected keyword argument '%s'",
                       k->kind == FX_VALUE_STR ? k->s->data : "?");
    }
  if (!module_base_init (S, st, &args[0]))
    return FALSE;
  p->fx->layer = fx_layer_lookup ("Sequential");
  if (n_args == 2 && is_ordered_dict (S, &args[1]))
    {
      FxSeq *items;
      if (!mapping_items (S, &args[1], &items))
        return FALSE;
      for (guint i = 0; i < items->len; i++)
        {
          FxValue key, val;
          gboolean ok;
          if (!unpack_pair (S, &items->items[i], &key, &val))
            {
              fx_seq_unref (items);
              return FALSE;
            }
          ok = nn_add_module (S, &args[0], &key, &val);
          fx_value_clear (&key);
          fx_value_clear (&val);
          if (!ok)
            {
              fx_seq_unref (items);
              return FALSE;
            }
        }
      fx_seq_unref (items);
    }
  else
    for (int i = 1; i < n_args; i++)
      if (!add_module_by_index (S, &args[0], i - 1, &args[i]))
        return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
seq_forward (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
             gpointer data)
{
  FxValue x;
  FxSeq *mods = fx_seq_new (0);
  const FxValue *k, *v;
  (void) data;
  SELF ("forward");
  if (n_args != 2 || (kwargs && fx_dict_len (kwargs) > 0))
    {
      fx_seq_unref (mods);
      if (kwargs && fx_dict_entry (kwargs, 0, &k, &v) && n_args == 1)
        return sc_raise (S, SC_T_TYPE_ERROR,
                         "Sequential.forward() got an unexpected keyword argument '%s'",
                         k->kind == FX_VALUE_STR ? k->s->data : "?");
      if (n_args < 2)
        return sc_raise (S, SC_T_TYPE_ERROR,
                         "Sequential.forward() missing 1 required positional argument: 'input'");
      return sc_raise (S, SC_T_TYPE_ERROR,
                       "Sequential.forward() takes 2 positional arguments but %d were given",
                       n_args);
    }
  for (guint i = 0; fx_dict_entry (p->modules, i, &k, &v); i++)
    fx_seq_append (mods, fx_value_copy (v));
  x = fx_value_copy (&args[1]);
  for (guint i = 0; i < mods->len; i++)
    {
      FxValue y;
      gboolean ok = sc_call1 (S, &mods->items[i], &x, &y);
      fx_value_clear (&x);
      if (!ok)
        {
          fx_seq_unref (mods);
          return FALSE;
        }
      x = y;
    }
  fx_seq_unref (mods);
  *result = x;
  return TRUE;
}

static gboolean
seq_getitem (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
             gpointer data)
{
  const FxValue *k, *v;
  int64_t i;
  (void) data;
  SELF ("__getitem__");
  NEED_ARGS (1, "__getitem__");
  if (args[1].kind == FX_VALUE_SLICE)
    {
      int64_t start, stop, step, count;
      FxDict *d = fx_dict_new ();
      if (!sc_slice_indices (S, args[1].slice, n_children (p), &start, &stop, &step, &count))
        {
          fx_dict_unref (d);
          return FALSE;
        }
      for (int64_t j = 0, at = start; j < count; j++, at += step)
        if (child_at (p, at, &k, &v))
          fx_dict_set (d, fx_value_copy (k), fx_value_copy (v));
      return new_like (S, &args[0], nn_ordered_dict (S, d), result);
    }
  if (!norm_index (S, &args[1], n_children (p), &i))
    return FALSE;
  child_at (p, i, &k, &v);
  *result = fx_value_copy (v);
  return TRUE;
}

static gboolean
seq_setitem (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
             gpointer data)
{
  const FxValue *k, *v;
  int64_t i;
  (void) data;
  SELF ("__setitem__");
  NEED_ARGS (2, "__setitem__");
  if (!norm_index (S, &args[1], n_children (p), &i))
    return FALSE;
  child_at (p, i, &k, &v);
  {
    FxValue key = fx_value_copy (k);
    gboolean ok = sc_setattr (S, &args[0], key.s, &args[2]);
    fx_value_clear (&key);
    if (!ok)
      return FALSE;
  }
  *result = fx_value_none ();
  return TRUE;
}

/* Sequential and ModuleList: delete by index or slice, then renumber. */
static gboolean
c_delitem (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
           gpointer data)
{
  const FxValue *k, *v;
  int64_t i;
  (void) data;
  SELF ("__delitem__");
  NEED_ARGS (1, "__delitem__");
  if (args[1].kind == FX_VALUE_SLICE)
    {
      int64_t start, stop, step, count;
      FxSeq *keys = fx_seq_new (0);
      if (!sc_slice_indices (S, args[1].slice, n_children (p), &start, &stop, &step, &count))
        {
          fx_seq_unref (keys);
          return FALSE;
        }
      for (int64_t j = 0, at = start; j < count; j++, at += step)
        if (child_at (p, at, &k, &v))
          fx_seq_append (keys, fx_value_copy (k));
      for (guint j = 0; j < keys->len; j++)
        if (!del_child (S, &args[0], &keys->items[j]))
          {
            fx_seq_unref (keys);
            return FALSE;
          }
      fx_seq_unref (keys);
    }
  else
    {
      FxValue key;
      gboolean ok;
      if (!norm_index (S, &args[1], n_children (p), &i))
        return FALSE;
      child_at (p, i, &k, &v);
      key = fx_value_copy (k);
      ok = del_child (S, &args[0], &key);
      fx_value_clear (&key);
      if (!ok)
        return FALSE;
    }
  renumber (p);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
seq_append (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  (void) data;
  SELF ("append");
  NEED_ARGS (1, "append");
  if (!add_module_by_index (S, &args[0], n_children (p), &args[1]))
    return FALSE;
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
append_all (FxScript *S, const FxValue *self, const FxValue *iterable)
{
  FxSeq *items;
  if (!sc_collect (S, iterable, &items))
    return FALSE;
  for (guint i = 0; i < items->len; i++)
    {
      NnModule *p = nn_payload (self);
      if (!add_module_by_index (S, self, n_children (p), &items->items[i]))
        {
          fx_seq_unref (items);
          return FALSE;
        }
    }
  fx_seq_unref (items);
  return TRUE;
}

static gboolean
seq_extend (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  (void) data;
  SELF ("extend");
  (void) p;
  NEED_ARGS (1, "extend");
  if (!append_all (S, &args[0], &args[1]))
    return FALSE;
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

/* for i in range(n, index, -1): _modules[str(i)] = _modules[str(i - 1)]; then the new one */
static gboolean
shift_insert (FxScript *S, NnModule *p, int64_t index, const FxValue *module)
{
  int64_t n = n_children (p);
  for (int64_t i = n; i > index; i--)
    {
      FxValue from = index_name (i - 1), to = index_name (i);
      const FxValue *v = fx_dict_get (p->modules, &from);
      if (v == NULL)
        {
          sc_raise_key_error (S, &from);
          fx_value_clear (&from);
          fx_value_clear (&to);
          return FALSE;
        }
      {
        FxValue keep = fx_value_copy (v);
        nn_set_child (p, to.s->data, &keep);
        fx_value_clear (&keep);
      }
      fx_value_clear (&from);
      fx_value_clear (&to);
    }
  {
    FxValue at = index_name (index);
    nn_set_child (p, at.s->data, module);
    fx_value_clear (&at);
  }
  return TRUE;
}

static gboolean
seq_insert (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  int64_t index, n;
  (void) data;
  SELF ("insert");
  NEED_ARGS (2, "insert");
  if (nn_payload (&args[2]) == NULL)
    return sc_raise (S, SC_T_ASSERTION_ERROR,
                     "module should be of type: <class 'torch.nn.modules.module.Module'>");
  if (!sc_index (S, &args[1], &index))
    return FALSE;
  n = n_children (p);
  if (!(-n <= index && index <= n))
    return sc_raise (S, SC_T_INDEX_ERROR, "Index out of range: %" G_GINT64_FORMAT, index);
  if (index < 0)
    index += n;
  if (!shift_insert (S, p, index, &args[2]))
    return FALSE;
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
c_pop (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
       gpointer data)
{
  FxValue v;
  (void) data;
  SELF ("pop");
  (void) p;
  NEED_ARGS (1, "pop");
  if (!sc_getitem (S, &args[0], &args[1], &v))
    return FALSE;
  if (!sc_delitem (S, &args[0], &args[1]))
    {
      fx_value_clear (&v);
      return FALSE;
    }
  *result = v;
  return TRUE;
}

static gboolean
type_str (FxScript *S, const FxValue *v, GString *out)
{
  FxValue cls = sc_class_value (sc_type_of (S, v));
  gboolean ok = sc_repr (S, &cls, out);
  fx_value_clear (&cls);
  return ok;
}

static gboolean
seq_add (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
         gpointer data, gboolean inplace)
{
  NnState *st = data;
  SELF ("__add__");
  (void) p;
  NEED_ARGS (1, inplace ? "__iadd__" : "__add__");
  if (!fx_script_isinstance (S, &args[1], st->sequential_cls))
    {
      GString *t = g_string_new (NULL);
      if (type_str (S, &args[1], t))
        sc_raise (S, SC_T_VALUE_ERROR, "add operator supports only objects of Sequential class, "
                  "but %s is given.", t->str);
      g_string_free (t, TRUE);
      return FALSE;
    }
  if (inplace)
    {
      if (!append_all (S, &args[0], &args[1]))
        return FALSE;
      *result = fx_value_copy (&args[0]);
      return TRUE;
    }
  {
    FxValue cls = sc_class_value (st->sequential_cls), ret;
    if (!sc_call0 (S, &cls, &ret))
      {
        fx_value_clear (&cls);
        return FALSE;
      }
    fx_value_clear (&cls);
    if (!append_all (S, &ret, &args[0]) || !append_all (S, &ret, &args[1]))
      {
        fx_value_clear (&ret);
        return FALSE;
      }
    *result = ret;
  }
  return TRUE;
}

static gboolean
seq_add_op (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  return seq_add (S, args, n_args, kwargs, result, data, FALSE);
}

static gboolean
seq_iadd_op (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
             gpointer data)
{
  return seq_add (S, args, n_args, kwargs, result, data, TRUE);
}

static gboolean
seq_mul (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
         gpointer data)
{
  NnState *st = data;
  FxValue cls, ret;
  FxSeq *mods;
  const FxValue *k, *v;
  int64_t times, offset = 0;
  SELF ("__mul__");
  NEED_ARGS (1, "__mul__");
  if (args[1].kind != FX_VALUE_INT)
    {
      GString *a = g_string_new (NULL), *b = g_string_new (NULL);
      if (type_str (S, &args[0], a) && type_str (S, &args[1], b))
        sc_raise (S, SC_T_TYPE_ERROR, "unsupported operand type(s) for *: %s and %s", a->str,
                  b->str);
      g_string_free (a, TRUE);
      g_string_free (b, TRUE);
      return FALSE;
    }
  times = args[1].i;
  if (times <= 0)
    {
      GString *a = g_string_new (NULL);
      if (type_str (S, &args[0], a))
        sc_raise (S, SC_T_VALUE_ERROR, "Non-positive multiplication factor %" G_GINT64_FORMAT
                  " for %s", times, a->str);
      g_string_free (a, TRUE);
      return FALSE;
    }
  cls = sc_class_value (st->sequential_cls);
  if (!sc_call0 (S, &cls, &ret))
    {
      fx_value_clear (&cls);
      return FALSE;
    }
  fx_value_clear (&cls);
  mods = fx_seq_new (0);
  for (guint i = 0; fx_dict_entry (p->modules, i, &k, &v); i++)
    fx_seq_append (mods, fx_value_copy (v));
  for (int64_t t = 0; t < times; t++)
    for (guint i = 0; i < mods->len; i++)
      if (!add_module_by_index (S, &ret, offset++, &mods->items[i]))
        {
          fx_seq_unref (mods);
          fx_value_clear (&ret);
          return FALSE;
        }
  fx_seq_unref (mods);
  *result = ret;
  return TRUE;
}

/* ------------------------------------------------------------------ ModuleList */

static gboolean
ml_extend_impl (FxScript *S, const FxValue *self, const FxValue *modules)
{
  FxSeq *items;
  int64_t offset;
  if (!sc_collect (S, modules, &items))
    {
      if (sc_matches (S, SC_T_TYPE_ERROR))
        {
          sc_clear_exc (S);
          return sc_raise (S, SC_T_TYPE_ERROR, "ModuleList.extend should be called with an "
                           "iterable, but got %s", sc_type_name (S, modules));
        }
      return FALSE;
    }
  offset = n_children (nn_payload (self));
  for (guint i = 0; i < items->len; i++)
    if (!add_module_by_index (S, self, offset + i, &items->items[i]))
      {
        fx_seq_unref (items);
        return FALSE;
      }
  fx_seq_unref (items);
  return TRUE;
}

static gboolean
ml_init (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
         gpointer data)
{
  static const char *const names[] = { "modules" };
  const FxValue *a[1] = { NULL };
  NnState *st = data;
  SELF ("__init__");
  (void) p;
  if (!fx_script_parse_args (S, "ModuleList.__init__", args + 1, n_args - 1, kwargs, names, 1, 1,
                             0, a))
    return FALSE;
  if (!module_base_init (S, st, &args[0]))
    return FALSE;
  p->fx->layer = fx_layer_lookup ("ModuleList");
  if (a[0] && a[0]->kind != FX_VALUE_NONE && !ml_extend_impl (S, &args[0], a[0]))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
ml_getitem (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  const FxValue *k, *v;
  int64_t i;
  (void) data;
  SELF ("__getitem__");
  NEED_ARGS (1, "__getitem__");
  if (args[1].kind == FX_VALUE_SLICE)
    {
      int64_t start, stop, step, count;
      FxSeq *l = fx_seq_new (0);
      if (!sc_slice_indices (S, args[1].slice, n_children (p), &start, &stop, &step, &count))
        {
          fx_seq_unref (l);
          return FALSE;
        }
      for (int64_t j = 0, at = start; j < count; j++, at += step)
        if (child_at (p, at, &k, &v))
          fx_seq_append (l, fx_value_copy (v));
      return new_like (S, &args[0], fx_value_take_list (l), result);
    }
  if (!norm_index (S, &args[1], n_children (p), &i))
    return FALSE;
  {
    FxValue key = index_name (i);
    const FxValue *found = fx_dict_get (p->modules, &key);
    if (found == NULL)
      {
        sc_raise_key_error (S, &key);
        fx_value_clear (&key);
        return FALSE;
      }
    fx_value_clear (&key);
    *result = fx_value_copy (found);
  }
  return TRUE;
}

static gboolean
ml_setitem (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  int64_t i;
  FxValue key;
  gboolean ok;
  (void) data;
  SELF ("__setitem__");
  NEED_ARGS (2, "__setitem__");
  if (!norm_index (S, &args[1], n_children (p), &i))
    return FALSE;
  key = index_name (i);
  ok = sc_setattr (S, &args[0], key.s, &args[2]);
  fx_value_clear (&key);
  if (!ok)
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
ml_extend (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
           gpointer data)
{
  (void) data;
  SELF ("extend");
  (void) p;
  NEED_ARGS (1, "extend");
  if (!ml_extend_impl (S, &args[0], &args[1]))
    return FALSE;
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
ml_insert (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
           gpointer data)
{
  int64_t index;
  (void) data;
  SELF ("insert");
  NEED_ARGS (2, "insert");
  if (!sc_index (S, &args[1], &index) || !shift_insert (S, p, index, &args[2]))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
ml_add (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
        gpointer data)
{
  NnState *st = data;
  FxValue cls, ret;
  SELF ("__add__");
  (void) p;
  NEED_ARGS (1, "__add__");
  cls = sc_class_value (st->module_list_cls);
  if (!sc_call0 (S, &cls, &ret))
    {
      fx_value_clear (&cls);
      return FALSE;
    }
  fx_value_clear (&cls);
  if (!append_all (S, &ret, &args[0]) || !append_all (S, &ret, &args[1]))
    {
      fx_value_clear (&ret);
      return FALSE;
    }
  *result = ret;
  return TRUE;
}

/* ------------------------------------------------------------------ ModuleDict */

static gboolean
md_update_impl (FxScript *S, const FxValue *self, const FxValue *modules)
{
  FxSeq *items;
  gboolean mapping = is_ordered_dict (S, modules) || nn_payload (modules) != NULL;
  if (!mapping)
    {
      FxValue keys;
      int r = sc_getattr_opt (S, modules, sc_n.s_keys, &keys);
      if (r < 0)
        return FALSE;
      if (r > 0)
        {
          mapping = TRUE;
          fx_value_clear (&keys);
        }
    }
  if (mapping)
    {
      if (!mapping_items (S, modules, &items))
        return FALSE;
    }
  else if (!sc_collect (S, modules, &items))
    {
      if (sc_matches (S, SC_T_TYPE_ERROR))
        {
          sc_clear_exc (S);
          return sc_raise (S, SC_T_TYPE_ERROR, "ModuleDict.update should be called with an "
                           "iterable of key/value pairs, but got %s", sc_type_name (S, modules));
        }
      return FALSE;
    }
  for (guint j = 0; j < items->len; j++)
    {
      const FxValue *m = &items->items[j];
      FxValue key, val;
      gboolean ok;
      if (!mapping)
        {
          int64_t len;
          if (!sc_len (S, m, &len))
            {
              sc_clear_exc (S);
              fx_seq_unref (items);
              return sc_raise (S, SC_T_TYPE_ERROR, "ModuleDict update sequence element #%u "
                               "should be Iterable; is%s", j, sc_type_name (S, m));
            }
          if (len != 2)
            {
              fx_seq_unref (items);
              return sc_raise (S, SC_T_VALUE_ERROR, "ModuleDict update sequence element #%u has "
                               "length %" G_GINT64_FORMAT "; 2 is required", j, len);
            }
        }
      if (!unpack_pair (S, m, &key, &val))
        {
          fx_seq_unref (items);
          return FALSE;
        }
      ok = sc_setitem (S, self, &key, &val);
      fx_value_clear (&key);
      fx_value_clear (&val);
      if (!ok)
        {
          fx_seq_unref (items);
          return FALSE;
        }
    }
  fx_seq_unref (items);
  return TRUE;
}

static gboolean
md_init (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
         gpointer data)
{
  static const char *const names[] = { "modules" };
  const FxValue *a[1] = { NULL };
  NnState *st = data;
  SELF ("__init__");
  (void) p;
  if (!fx_script_parse_args (S, "ModuleDict.__init__", args + 1, n_args - 1, kwargs, names, 1, 1,
                             0, a))
    return FALSE;
  if (!module_base_init (S, st, &args[0]))
    return FALSE;
  p->fx->layer = fx_layer_lookup ("ModuleDict");
  if (a[0] && a[0]->kind != FX_VALUE_NONE && !md_update_impl (S, &args[0], a[0]))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
md_getitem (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  const FxValue *v;
  (void) data;
  SELF ("__getitem__");
  NEED_ARGS (1, "__getitem__");
  v = fx_dict_get (p->modules, &args[1]);
  if (v == NULL)
    return sc_raise_key_error (S, &args[1]);
  *result = fx_value_copy (v);
  return TRUE;
}

static gboolean
md_setitem (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  (void) data;
  SELF ("__setitem__");
  (void) p;
  NEED_ARGS (2, "__setitem__");
  if (!nn_add_module (S, &args[0], &args[1], &args[2]))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
md_delitem (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  (void) data;
  SELF ("__delitem__");
  NEED_ARGS (1, "__delitem__");
  if (fx_dict_get (p->modules, &args[1]) == NULL)
    return sc_raise_key_error (S, &args[1]);
  fx_dict_remove (p->modules, &args[1]);
  fx_dict_remove (p->fx->children, &args[1]);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
md_contains (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
             gpointer data)
{
  (void) data;
  SELF ("__contains__");
  NEED_ARGS (1, "__contains__");
  *result = fx_value_bool (fx_dict_get (p->modules, &args[1]) != NULL);
  return TRUE;
}

static gboolean
md_view (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
         int type_id, const char *fname)
{
  SELF (fname);
  NEED_ARGS (0, fname);
  *result = sc_dict_view_new (p->modules, type_id);
  return TRUE;
}

static gboolean
md_keys (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
         gpointer data)
{
  (void) data;
  return md_view (S, args, n_args, kwargs, result, SC_T_DICT_KEYS, "keys");
}

static gboolean
md_values (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
           gpointer data)
{
  (void) data;
  return md_view (S, args, n_args, kwargs, result, SC_T_DICT_VALUES, "values");
}

static gboolean
md_items (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
          gpointer data)
{
  (void) data;
  return md_view (S, args, n_args, kwargs, result, SC_T_DICT_ITEMS, "items");
}

static gboolean
md_iter (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
         gpointer data)
{
  FxValue view;
  gboolean ok;
  (void) data;
  SELF ("__iter__");
  NEED_ARGS (0, "__iter__");
  view = sc_dict_view_new (p->modules, SC_T_DICT_KEYS);
  ok = sc_get_iter (S, &view, result);
  fx_value_clear (&view);
  return ok;
}

static gboolean
md_clear (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
          gpointer data)
{
  (void) data;
  SELF ("clear");
  NEED_ARGS (0, "clear");
  fx_dict_unref (p->modules);
  p->modules = fx_dict_new ();
  fx_dict_unref (p->fx->children);
  p->fx->children = fx_dict_new ();
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
md_update (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
           gpointer data)
{
  (void) data;
  SELF ("update");
  (void) p;
  NEED_ARGS (1, "update");
  if (!md_update_impl (S, &args[0], &args[1]))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

/* ------------------------------------------------------------------ ParameterList */

static int64_t
pl_size (NnModule *p)
{
  FxValue key = str_value ("_size");
  const FxValue *v = fx_dict_get (p->fx->attributes, &key);
  fx_value_clear (&key);
  return v && v->kind == FX_VALUE_INT ? v->i : 0;
}

static void
pl_set_size (NnModule *p, int64_t n)
{
  fx_dict_set (p->fx->attributes, str_value ("_size"), fx_value_int (n));
}

/* self[idx] = param, a plain tensor becoming a Parameter */
static gboolean
pl_store (FxScript *S, NnState *st, const FxValue *self, int64_t idx, const FxValue *param)
{
  FxValue key = index_name (idx), value;
  gboolean ok;
  if (param->kind == FX_VALUE_TENSOR && !nn_is_parameter (param))
    {
      FxValue cls = sc_class_value (st->parameter_cls);
      ok = sc_call1 (S, &cls, param, &value);
      fx_value_clear (&cls);
      if (!ok)
        {
          fx_value_clear (&key);
          return FALSE;
        }
    }
  else
    value = fx_value_copy (param);
  ok = sc_setattr (S, self, key.s, &value);
  fx_value_clear (&key);
  fx_value_clear (&value);
  return ok;
}

static gboolean
pl_append_one (FxScript *S, NnState *st, const FxValue *self, const FxValue *value)
{
  NnModule *p = nn_payload (self);
  int64_t n = pl_size (p);
  pl_set_size (p, n + 1);
  return pl_store (S, st, self, n, value);
}

static gboolean
pl_extend_impl (FxScript *S, NnState *st, const FxValue *self, const FxValue *values)
{
  FxSeq *items;
  if (!sc_collect (S, values, &items))
    {
      if (sc_matches (S, SC_T_TYPE_ERROR))
        {
          sc_clear_exc (S);
          return sc_raise (S, SC_T_TYPE_ERROR, "ParameterList.extend should be called with an "
                           "iterable, but got %s", sc_type_name (S, values));
        }
      return FALSE;
    }
  for (guint i = 0; i < items->len; i++)
    if (!pl_append_one (S, st, self, &items->items[i]))
      {
        fx_seq_unref (items);
        return FALSE;
      }
  fx_seq_unref (items);
  return TRUE;
}

static gboolean
pl_init (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
         gpointer data)
{
  static const char *const names[] = { "values" };
  const FxValue *a[1] = { NULL };
  NnState *st = data;
  SELF ("__init__");
  if (!fx_script_parse_args (S, "ParameterList.__init__", args + 1, n_args - 1, kwargs, names, 1,
                             1, 0, a))
    return FALSE;
  if (!module_base_init (S, st, &args[0]))
    return FALSE;
  pl_set_size (p, 0);
  if (a[0] && a[0]->kind != FX_VALUE_NONE && !pl_extend_impl (S, st, &args[0], a[0]))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
pl_len (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
        gpointer data)
{
  (void) data;
  SELF ("__len__");
  NEED_ARGS (0, "__len__");
  *result = fx_value_int (pl_size (p));
  return TRUE;
}

static gboolean
pl_item (FxScript *S, const FxValue *self, int64_t i, FxValue *out)
{
  FxValue key = index_name (i);
  gboolean ok = sc_getattr (S, self, key.s, out);
  fx_value_clear (&key);
  return ok;
}

static gboolean
pl_items (FxScript *S, const FxValue *self, NnModule *p, FxSeq **out)
{
  int64_t n = pl_size (p);
  FxSeq *seq = fx_seq_new (0);
  for (int64_t i = 0; i < n; i++)
    {
      FxValue v;
      if (!pl_item (S, self, i, &v))
        {
          fx_seq_unref (seq);
          return FALSE;
        }
      fx_seq_append (seq, v);
    }
  *out = seq;
  return TRUE;
}

static gboolean
pl_getitem (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  int64_t i;
  (void) data;
  SELF ("__getitem__");
  NEED_ARGS (1, "__getitem__");
  if (args[1].kind == FX_VALUE_SLICE)
    {
      int64_t start, stop, step, count;
      FxSeq *all, *l;
      if (!pl_items (S, &args[0], p, &all))
        return FALSE;
      if (!sc_slice_indices (S, args[1].slice, all->len, &start, &stop, &step, &count))
        {
          fx_seq_unref (all);
          return FALSE;
        }
      l = fx_seq_new (0);
      for (int64_t j = 0, at = start; j < count; j++, at += step)
        fx_seq_append (l, fx_value_copy (&all->items[at]));
      fx_seq_unref (all);
      return new_like (S, &args[0], fx_value_take_list (l), result);
    }
  if (!norm_index (S, &args[1], pl_size (p), &i))
    return FALSE;
  return pl_item (S, &args[0], i, result);
}

static gboolean
pl_setitem (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  int64_t i;
  SELF ("__setitem__");
  NEED_ARGS (2, "__setitem__");
  if (!norm_index (S, &args[1], pl_size (p), &i) || !pl_store (S, data, &args[0], i, &args[2]))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
pl_iter (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
         gpointer data)
{
  FxSeq *all;
  FxValue l;
  gboolean ok;
  (void) data;
  SELF ("__iter__");
  NEED_ARGS (0, "__iter__");
  if (!pl_items (S, &args[0], p, &all))
    return FALSE;
  l = fx_value_take_list (all);
  ok = sc_get_iter (S, &l, result);
  fx_value_clear (&l);
  return ok;
}

static gboolean
pl_append (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
           gpointer data)
{
  SELF ("append");
  (void) p;
  NEED_ARGS (1, "append");
  if (!pl_append_one (S, data, &args[0], &args[1]))
    return FALSE;
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
pl_extend (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
           gpointer data)
{
  SELF ("extend");
  (void) p;
  NEED_ARGS (1, "extend");
  if (!pl_extend_impl (S, data, &args[0], &args[1]))
    return FALSE;
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
pl_extra_repr (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
               gpointer data)
{
  FxSeq *all;
  GString *s;
  (void) data;
  SELF ("extra_repr");
  NEED_ARGS (0, "extra_repr");
  if (!pl_items (S, &args[0], p, &all))
    return FALSE;
  s = g_string_new (NULL);
  for (guint i = 0; i < all->len; i++)
    {
      const FxValue *v = &all->items[i];
      if (i > 0)
        g_string_append_c (s, '\n');
      g_string_append_printf (s, "  (%u): ", i);
      if (v->kind == FX_VALUE_TENSOR)
        {
          g_string_append_printf (s, "%s containing: [torch.%s of size ",
                                  nn_is_parameter (v) ? "Parameter" : "Tensor",
                                  fx_dtype_name (v->tensor->dtype));
          for (int d = 0; d < v->tensor->ndim; d++)
            g_string_append_printf (s, "%s%" G_GINT64_FORMAT, d ? "x" : "", v->tensor->shape[d]);
          g_string_append_c (s, ']');
        }
      else
        g_string_append_printf (s, "Object of type: %s", sc_type_name (S, v));
    }
  fx_seq_unref (all);
  *result = fx_value_take_str (fx_str_new (s->str));
  g_string_free (s, TRUE);
  return TRUE;
}

/* ------------------------------------------------------------------ ParameterDict */

/* self._keys: the insertion-ordered key set (a dict of None values in the instance dict) */
static FxDict *
pd_keys (NnModule *p)
{
  FxValue key = str_value ("_keys");
  const FxValue *v = fx_dict_get (p->fx->attributes, &key);
  if (v == NULL || v->kind != FX_VALUE_DICT)
    {
      fx_dict_set (p->fx->attributes, fx_value_copy (&key), fx_value_take_dict (fx_dict_new ()));
      v = fx_dict_get (p->fx->attributes, &key);
    }
  fx_value_clear (&key);
  return v->dict;
}

static gboolean
pd_check_key (FxScript *S, const FxValue *key)
{
  if (key->kind == FX_VALUE_STR)
    return TRUE;
  return sc_raise (S, SC_T_TYPE_ERROR, "Index given to ParameterDict cannot be used as a key as it "
                   "is not a string (type is '%s'). Open an issue on github if you need non-string "
                   "keys.", sc_type_name (S, key));
}

static gboolean
pd_store (FxScript *S, NnState *st, const FxValue *self, const FxValue *key, const FxValue *param)
{
  NnModule *p = nn_payload (self);
  FxValue value;
  gboolean ok;
  fx_dict_set (pd_keys (p), fx_value_copy (key), fx_value_none ());
  if (!pd_check_key (S, key))
    return FALSE;
  if (param->kind == FX_VALUE_TENSOR && !nn_is_parameter (param))
    {
      FxValue cls = sc_class_value (st->parameter_cls);
      ok = sc_call1 (S, &cls, param, &value);
      fx_value_clear (&cls);
      if (!ok)
        return FALSE;
    }
  else
    value = fx_value_copy (param);
  ok = sc_setattr (S, self, key->s, &value);
  fx_value_clear (&value);
  return ok;
}

static gboolean
pd_update_impl (FxScript *S, NnState *st, const FxValue *self, const FxValue *params)
{
  FxSeq *items;
  gboolean ordered = params->kind == FX_VALUE_OBJECT
                     && (strcmp (sc_type_name (S, params), "OrderedDict") == 0
                         || strcmp (sc_type_name (S, params), "ParameterDict") == 0);
  gboolean mapping = ordered || params->kind == FX_VALUE_DICT;
  if (!mapping)
    {
      FxValue keys;
      int r = sc_getattr_opt (S, params, sc_n.s_keys, &keys);
      if (r < 0)
        return FALSE;
      if (r > 0)
        {
          mapping = TRUE;
          fx_value_clear (&keys);
        }
    }
  if (mapping)
    {
      if (!mapping_items (S, params, &items))
        return FALSE;
      if (!ordered && !sc_sort (S, items, NULL, FALSE))
        {
          fx_seq_unref (items);
          return FALSE;
        }
    }
  else if (!sc_collect (S, params, &items))
    {
      if (sc_matches (S, SC_T_TYPE_ERROR))
        {
          sc_clear_exc (S);
          return sc_raise (S, SC_T_TYPE_ERROR, "ParametersDict.update should be called with an "
                           "iterable of key/value pairs, but got %s", sc_type_name (S, params));
        }
      return FALSE;
    }
  for (guint j = 0; j < items->len; j++)
    {
      FxValue key, val;
      gboolean ok;
      if (!mapping)
        {
          int64_t len;
          if (!sc_len (S, &items->items[j], &len))
            {
              sc_clear_exc (S);
              fx_seq_unref (items);
              return sc_raise (S, SC_T_TYPE_ERROR, "ParameterDict update sequence element #%u "
                               "should be Iterable; is%s", j, sc_type_name (S, &items->items[j]));
            }
          if (len != 2)
            {
              fx_seq_unref (items);
              return sc_raise (S, SC_T_VALUE_ERROR, "ParameterDict update sequence element #%u has "
                               "length %" G_GINT64_FORMAT "; 2 is required", j, len);
            }
        }
      if (!unpack_pair (S, &items->items[j], &key, &val))
        {
          fx_seq_unref (items);
          return FALSE;
        }
      ok = pd_store (S, st, self, &key, &val);
      fx_value_clear (&key);
      fx_value_clear (&val);
      if (!ok)
        {
          fx_seq_unref (items);
          return FALSE;
        }
    }
  fx_seq_unref (items);
  return TRUE;
}

static gboolean
pd_init (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
         gpointer data)
{
  static const char *const names[] = { "parameters" };
  const FxValue *a[1] = { NULL };
  NnState *st = data;
  SELF ("__init__");
  if (!fx_script_parse_args (S, "ParameterDict.__init__", args + 1, n_args - 1, kwargs, names, 1,
                             1, 0, a))
    return FALSE;
  if (!module_base_init (S, st, &args[0]))
    return FALSE;
  pd_keys (p);
  if (a[0] && a[0]->kind != FX_VALUE_NONE && !pd_update_impl (S, st, &args[0], a[0]))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
pd_getitem (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  (void) data;
  SELF ("__getitem__");
  (void) p;
  NEED_ARGS (1, "__getitem__");
  if (!pd_check_key (S, &args[1]))
    return FALSE;
  return sc_getattr (S, &args[0], args[1].s, result);
}

static gboolean
pd_setitem (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  SELF ("__setitem__");
  (void) p;
  NEED_ARGS (2, "__setitem__");
  if (!pd_store (S, data, &args[0], &args[1], &args[2]))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
pd_delitem (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  (void) data;
  SELF ("__delitem__");
  NEED_ARGS (1, "__delitem__");
  if (!fx_dict_remove (pd_keys (p), &args[1]))
    return sc_raise_key_error (S, &args[1]);
  if (!pd_check_key (S, &args[1]) || !sc_delattr (S, &args[0], args[1].s))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
pd_len (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
        gpointer data)
{
  (void) data;
  SELF ("__len__");
  NEED_ARGS (0, "__len__");
  *result = fx_value_int (fx_dict_len (pd_keys (p)));
  return TRUE;
}

static gboolean
pd_contains (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
             gpointer data)
{
  (void) data;
  SELF ("__contains__");
  NEED_ARGS (1, "__contains__");
  *result = fx_value_bool (fx_dict_get (pd_keys (p), &args[1]) != NULL);
  return TRUE;
}

/* keys (0), values (1), items (2) or iter (3) */
static gboolean
pd_listing (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            int what)
{
  static const char *const fnames[] = { "keys", "values", "items", "__iter__" };
  const FxValue *k, *v;
  FxSeq *out, *keys;
  SELF (fnames[what]);
  NEED_ARGS (0, fnames[what]);
  if (what == 0)
    {
      *result = sc_dict_view_new (pd_keys (p), SC_T_DICT_KEYS);
      return TRUE;
    }
  keys = fx_seq_new (0);
  for (guint i = 0; fx_dict_entry (pd_keys (p), i, &k, &v); i++)
    fx_seq_append (keys, fx_value_copy (k));
  if (what == 3)
    {
      FxValue l = fx_value_take_list (keys);
      gboolean ok = sc_get_iter (S, &l, result);
      fx_value_clear (&l);
      return ok;
    }
  out = fx_seq_new (0);
  for (guint i = 0; i < keys->len; i++)
    {
      FxValue item;
      if (keys->items[i].kind != FX_VALUE_STR
          || !sc_getattr (S, &args[0], keys->items[i].s, &item))
        {
          if (keys->items[i].kind != FX_VALUE_STR)
            pd_check_key (S, &keys->items[i]);
          fx_seq_unref (keys);
          fx_seq_unref (out);
          return FALSE;
        }
      if (what == 2)
        {
          FxSeq *t = fx_seq_new (2);
          t->items[0] = fx_value_copy (&keys->items[i]);
          t->items[1] = item;
          fx_seq_append (out, fx_value_take_tuple (t));
        }
      else
        fx_seq_append (out, item);
    }
  fx_seq_unref (keys);
  *result = nn_iterator (S, out, what == 1 ? "ParameterDict.values.<locals>.<genexpr>"
                                           : "ParameterDict.items.<locals>.<genexpr>");
  return TRUE;
}

static gboolean
pd_keys_m (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
           gpointer data)
{
  (void) data;
  return pd_listing (S, args, n_args, kwargs, result, 0);
}

static gboolean
pd_values_m (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
             gpointer data)
{
  (void) data;
  return pd_listing (S, args, n_args, kwargs, result, 1);
}

static gboolean
pd_items_m (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  (void) data;
  return pd_listing (S, args, n_args, kwargs, result, 2);
}

static gboolean
pd_iter (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
         gpointer data)
{
  (void) data;
  return pd_listing (S, args, n_args, kwargs, result, 3);
}

static gboolean
pd_get (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
        gpointer data)
{
  static const char *const names[] = { "key", "default" };
  const FxValue *a[2] = { NULL, NULL };
  (void) data;
  SELF ("get");
  if (!fx_script_parse_args (S, "get", args + 1, n_args - 1, kwargs, names, 2, 2, 1, a))
    return FALSE;
  if (fx_dict_get (pd_keys (p), a[0]) == NULL)
    {
      *result = a[1] ? fx_value_copy (a[1]) : fx_value_none ();
      return TRUE;
    }
  if (!pd_check_key (S, a[0]))
    return FALSE;
  return sc_getattr (S, &args[0], a[0]->s, result);
}

static gboolean
pd_update (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
           gpointer data)
{
  SELF ("update");
  (void) p;
  NEED_ARGS (1, "update");
  if (!pd_update_impl (S, data, &args[0], &args[1]))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
pd_clear (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
          gpointer data)
{
  FxSeq *keys = fx_seq_new (0);
  const FxValue *k, *v;
  (void) data;
  SELF ("clear");
  NEED_ARGS (0, "clear");
  for (guint i = 0; fx_dict_entry (pd_keys (p), i, &k, &v); i++)
    fx_seq_append (keys, fx_value_copy (k));
  for (guint i = 0; i < keys->len; i++)
    {
      fx_dict_remove (pd_keys (p), &keys->items[i]);
      if (keys->items[i].kind == FX_VALUE_STR && !sc_delattr (S, &args[0], keys->items[i].s))
        {
          fx_seq_unref (keys);
          return FALSE;
        }
    }
  fx_seq_unref (keys);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
pd_extra_repr (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
               gpointer data)
{
  FxValue items_it;
  FxSeq *items;
  GString *s;
  (void) data;
  if (!pd_listing (S, args, n_args, kwargs, &items_it, 2))
    return FALSE;
  if (!sc_collect (S, &items_it, &items))
    {
      fx_value_clear (&items_it);
      return FALSE;
    }
  fx_value_clear (&items_it);
  s = g_string_new (NULL);
  for (guint i = 0; i < items->len; i++)
    {
      const FxValue *k = &items->items[i].seq->items[0], *v = &items->items[i].seq->items[1];
      if (i > 0)
        g_string_append_c (s, '\n');
      g_string_append_printf (s, "  (%s): ", k->kind == FX_VALUE_STR ? k->s->data : "?");
      if (v->kind == FX_VALUE_TENSOR)
        {
          g_string_append_printf (s, "%s containing: [%s of size ",
                                  nn_is_parameter (v) ? "Parameter" : "Tensor",
                                  fx_dtype_legacy_name (v->tensor->dtype));
          for (int d = 0; d < v->tensor->ndim; d++)
            g_string_append_printf (s, "%s%" G_GINT64_FORMAT, d ? "x" : "", v->tensor->shape[d]);
          g_string_append_c (s, ']');
        }
      else
        g_string_append_printf (s, "Object of type: %s", sc_type_name (S, v));
    }
  fx_seq_unref (items);
  *result = fx_value_take_str (fx_str_new (s->str));
  g_string_free (s, TRUE);
  return TRUE;
}

/* ------------------------------------------------------------------ setup */

static void
method (FxScriptClass *cls, const char *name, FxScriptFunc func, gpointer data)
{
  fx_script_class_add_method (cls, name, func, data);
}

static FxScriptClass *
container (FxScript *S, FxScriptModule *mod, NnState *st, const char *name)
{
  FxScriptClass *cls = nn_class (S, st, "torch.nn.modules.container", name, st->module_cls);
  fx_script_module_set (mod, name, fx_script_class_value (cls));
  return cls;
}

/* Sequential.forward written in Python, as in PyTorch: the tracer traces through it and
 * needs a Python function (its __globals__ and signature). FALSE: keep the native one. */
static gboolean
python_forward (FxScript *S, FxScriptClass *cls)
{
  static const char source[] =
    "def forward(self, input):\n"
    "    for module in self:\n"
    "        input = module(input)\n"
    "    return input\n";
  const char *module_name = "torch.nn.modules._container_forward";
  FxValue mod, fn, qualname;
  FxValue *found;
  if (!fx_script_run_string (S, source, "<torch.nn.modules.container>", module_name))
    {
      fx_script_clear_exception (S);
      return FALSE;
    }
  if (!fx_script_import (S, module_name, &mod))
    {
      fx_script_clear_exception (S);
      return FALSE;
    }
  found = fx_script_module_lookup ((FxScriptModule *) mod.obj, "forward");
  if (found == NULL)
    {
      fx_value_clear (&mod);
      return FALSE;
    }
  fn = fx_value_copy (found);
  fx_value_clear (&mod);
  qualname = fx_value_str ("Sequential.forward");
  if (!fx_script_setattr (S, &fn, "__qualname__", &qualname))
    fx_script_clear_exception (S);
  fx_value_clear (&qualname);
  fx_script_class_set_attr (cls, "forward", fn);
  return TRUE;
}

void
nn_layers_init (FxScript *S, FxScriptModule *mod, NnState *st)
{
  const FxLayerKind *const *kinds;
  guint n;
  FxScriptClass *c;

  parameter_init (S, mod, st);

  kinds = fx_layers_all (&n);
  for (guint i = 0; i < n; i++)
    {
      const FxLayerKind *k = kinds[i];
      if (k->flags & FX_LAYER_FLAG_CONTAINER)
        continue;
      c = nn_class (S, st, k->module_path, k->type_name, st->module_cls);
      method (c, "__init__", layer_init, (gpointer) k);
      if (k->forward)
        method (c, "forward", layer_forward, (gpointer) k);
      method (c, "extra_repr", layer_extra_repr, (gpointer) k);
      if (has_reset_parameters (k))
        method (c, "reset_parameters", layer_reset, NULL);
      if (g_str_has_prefix (k->type_name, "BatchNorm")
          || g_str_has_prefix (k->type_name, "InstanceNorm"))
        method (c, "reset_running_stats", layer_reset, (gpointer) "stats");
      fx_script_module_set (mod, k->type_name, fx_script_class_value (c));
    }

  c = st->sequential_cls = container (S, mod, st, "Sequential");
  method (c, "__init__", seq_init, st);
  if (!python_forward (S, c))
    method (c, "forward", seq_forward, st);
  method (c, "__getitem__", seq_getitem, st);
  method (c, "__setitem__", seq_setitem, st);
  method (c, "__delitem__", c_delitem, st);
  method (c, "__len__", c_len, st);
  method (c, "__iter__", c_iter_values, st);
  method (c, "__dir__", c_dir, st);
  method (c, "__add__", seq_add_op, st);
  method (c, "__iadd__", seq_iadd_op, st);
  method (c, "__mul__", seq_mul, st);
  method (c, "append", seq_append, st);
  method (c, "extend", seq_extend, st);
  method (c, "insert", seq_insert, st);
  method (c, "pop", c_pop, st);

  c = st->module_list_cls = container (S, mod, st, "ModuleList");
  method (c, "__init__", ml_init, st);
  method (c, "__getitem__", ml_getitem, st);
  method (c, "__setitem__", ml_setitem, st);
  method (c, "__delitem__", c_delitem, st);
  method (c, "__len__", c_len, st);
  method (c, "__iter__", c_iter_values, st);
  method (c, "__dir__", c_dir, st);
  method (c, "__iadd__", ml_extend, st);
  method (c, "__add__", ml_add, st);
  method (c, "append", seq_append, st);
  method (c, "extend", ml_extend, st);
  method (c, "insert", ml_insert, st);
  method (c, "pop", c_pop, st);

  c = container (S, mod, st, "ParameterList");
  method (c, "__init__", pl_init, st);
  method (c, "__getitem__", pl_getitem, st);
  method (c, "__setitem__", pl_setitem, st);
  method (c, "__len__", pl_len, st);
  method (c, "__iter__", pl_iter, st);
  method (c, "__iadd__", pl_extend, st);
  method (c, "append", pl_append, st);
  method (c, "extend", pl_extend, st);
  method (c, "extra_repr", pl_extra_repr, st);

  c = container (S, mod, st, "ParameterDict");
  method (c, "__init__", pd_init, st);
  method (c, "__getitem__", pd_getitem, st);
  method (c, "__setitem__", pd_setitem, st);
  method (c, "__delitem__", pd_delitem, st);
  method (c, "__len__", pd_len, st);
  method (c, "__iter__", pd_iter, st);
  method (c, "__contains__", pd_contains, st);
  method (c, "keys", pd_keys_m, st);
  method (c, "values", pd_values_m, st);
  method (c, "items", pd_items_m, st);
  method (c, "get", pd_get, st);
  method (c, "pop", c_pop, st);
  method (c, "update", pd_update, st);
  method (c, "clear", pd_clear, st);
  method (c, "extra_repr", pd_extra_repr, st);

  c = st->module_dict_cls = container (S, mod, st, "ModuleDict");
  method (c, "__init__", md_init, st);
  method (c, "__getitem__", md_getitem, st);
  method (c, "__setitem__", md_setitem, st);
  method (c, "__delitem__", md_delitem, st);
  method (c, "__len__", c_len, st);
  method (c, "__iter__", md_iter, st);
  method (c, "__contains__", md_contains, st);
  method (c, "keys", md_keys, st);
  method (c, "values", md_values, st);
  method (c, "items", md_items, st);
  method (c, "clear", md_clear, st);
  method (c, "pop", c_pop, st);
  method (c, "update", md_update, st);
}
