/* object.c: the object model — classes (C3 MRO, lookup cache), instances, functions' and
 * natives' object shells, modules, properties, super(), and the attribute protocol
 * (getattr/setattr/delattr with descriptors, __getattr__, __setattr__, __getattribute__). */
#include "script/internal.h"

#include <string.h>

ScNames sc_n;

void
sc_names_init (void)
{
  static gsize once = 0;
  static const char *const bin_names[SC_BIN_N] = {
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lshift", "rshift", "and",
    "or", "xor", "matmul",
  };
  if (!g_once_init_enter (&once))
    return;
#define SC_X(n) sc_n.n = sc_intern_cstr ("__" #n "__");
  SC_DUNDERS (SC_X)
#undef SC_X
#define SC_X(n) sc_n.s_##n = sc_intern_cstr (#n);
  SC_PLAIN_NAMES (SC_X)
#undef SC_X
  for (int i = 0; i < SC_BIN_N; i++)
    {
      g_autofree char *a = g_strdup_printf ("__%s__", bin_names[i]);
      g_autofree char *r = g_strdup_printf ("__r%s__", bin_names[i]);
      g_autofree char *x = g_strdup_printf ("__i%s__", bin_names[i]);
      sc_n.bin[i] = sc_intern_cstr (a);
      sc_n.rbin[i] = sc_intern_cstr (r);
      sc_n.ibin[i] = sc_intern_cstr (x);
    }
  sc_n.dot0 = sc_intern_cstr (".0");
  g_once_init_leave (&once, 1);
}

static __thread FxScript *current_script;

FxScript *
sc_current (void)
{
  return current_script;
}

void
sc_set_current (FxScript *S)
{
  current_script = S;
}

/* ------------------------------------------------------------------ object classes */

static guint
mix_pointer (gconstpointer p)
{
  return fx_pointer_hash (p);
}

/* Other layers print our objects through fx_value_repr(): use the running interpreter. */
static void
obj_repr_hook (const FxObject *obj, GString *out)
{
  FxScript *S = sc_current ();
  FxValue v = { .kind = FX_VALUE_OBJECT, .obj = (FxObject *) obj };
  if (S && sc_repr (S, &v, out))
    return;
  if (S)
    sc_clear_exc (S);
  g_string_append_printf (out, "<%s object at %p>", obj->klass->name, (void *) obj);
}

static void
class_finalize (FxObject *obj)
{
  FxScriptClass *cls = (FxScriptClass *) obj;
  fx_str_unref (cls->name);
  fx_str_unref (cls->qualname);
  fx_str_unref (cls->module);
  fx_dict_unref (cls->dict);
  for (int i = 0; i < cls->n_bases; i++)
    fx_object_unref (&cls->bases[i]->base);
  for (int i = 1; i < cls->n_mro; i++)
    fx_object_unref (&cls->mro[i]->base);
  g_free (cls->bases);
  g_free (cls->mro);
  sc_type_cache_free (cls->cache);
  g_free (cls);
}

static const char *
class_qualified_name (const FxObject *obj)
{
  return ((FxScriptClass *) obj)->qualname->data;
}

const FxObjectClass sc_class_klass = {
  "type", class_finalize, obj_repr_hook, NULL, NULL, class_qualified_name,
};

static void
instance_finalize (FxObject *obj)
{
  ScInstance *inst = (ScInstance *) obj;
  if (inst->payload && inst->payload_free)
    inst->payload_free (inst->payload);
  if (inst->dict)
    fx_dict_unref (inst->dict);
  fx_object_unref (&inst->cls->base);
  fx_mem_free (inst, sizeof *inst);
}

/* Dict keys that are instances with __hash__/__eq__ use them (errors count as unequal). */
static guint
instance_hash (const FxObject *obj)
{
  FxScript *S = sc_current ();
  FxValue v = { .kind = FX_VALUE_OBJECT, .obj = (FxObject *) obj };
  gint64 h;
  if (S)
    {
      FxValue *m = sc_type_lookup (S, ((ScInstance *) obj)->cls, sc_n.hash);
      if (m && m->kind == FX_VALUE_OBJECT && m->obj->klass == &sc_function_klass)
        {
          if (sc_hash (S, &v, &h))
            return (guint) (h ^ (h >> 32));
          sc_clear_exc (S);
        }
    }
  return mix_pointer (obj);
}

static gboolean
instance_equal (const FxObject *a, const FxObject *b)
{
  FxScript *S = sc_current ();
  FxValue va = { .kind = FX_VALUE_OBJECT, .obj = (FxObject *) a };
  FxValue vb = { .kind = FX_VALUE_OBJECT, .obj = (FxObject *) b };
  gboolean eq;
  if (a == b)
    return TRUE;
  if (S == NULL)
    return FALSE;
  if (!sc_equal (S, &va, &vb, &eq))
    {
      sc_clear_exc (S);
      return FALSE;
    }
  return eq;
}

/* an instance's type name is its class's (libfx's messages: "..., not Proxy") */
static const char *
instance_type_name (const FxObject *obj)
{
  return ((const ScInstance *) obj)->cls->name->data;
}

const FxObjectClass sc_instance_klass = {
  "object", instance_finalize, obj_repr_hook, instance_hash, instance_equal, NULL,
  instance_type_name,
};

static void
function_finalize (FxObject *obj)
{
  ScFunction *f = (ScFunction *) obj;
  for (int i = 0; i < f->n_defaults; i++)
    fx_value_clear (&f->defaults[i]);
  g_free (f->defaults);
  if (f->kwdefaults)
    {
      for (int i = 0; i < f->code->n_kwonly; i++)
        fx_value_clear (&f->kwdefaults[i]);
      g_free (f->kwdefaults);
    }
  for (int i = 0; i < f->n_closure; i++)
    fx_object_unref (&f->closure[i]->base);
  g_free (f->closure);
  fx_dict_unref (f->globals);
  fx_str_unref (f->name);
  fx_str_unref (f->qualname);
  fx_value_clear (&f->module);
  fx_value_clear (&f->doc);
  if (f->dict)
    fx_dict_unref (f->dict);
  if (f->annotations)
    fx_dict_unref (f->annotations);
  sc_unit_unref (f->unit);
  g_free (f);
}

/* torch.fx 1.13 names call_function targets "module.__name__" (_get_qualified_name). The
 * text is interned so that it lives as long as the pointer handed out may be used. */
static const char *
function_qualified_name (const FxObject *obj)
{
  ScFunction *f = (ScFunction *) obj;
  const char *module = f->module.kind == FX_VALUE_STR ? f->module.s->data : "__main__";
  g_autofree char *text = g_strdup_printf ("%s.%s", module, f->name->data);
  return sc_intern_cstr (text)->data;
}

const FxObjectClass sc_function_klass = {
  "function", function_finalize, obj_repr_hook, NULL, NULL, function_qualified_name,
};

static void
native_finalize (FxObject *obj)
{
  ScNative *n = (ScNative *) obj;
  if (n->destroy)
    n->destroy (n->data);
  fx_str_unref (n->name);
  if (n->owner)
    fx_str_unref (n->owner);
  g_free (n->qualified);
  g_free (n);
}

/* As torch.fx's _get_qualified_name: builtins by name, module functions as module.name. */
static const char *
native_qualified_name (const FxObject *obj)
{
  ScNative *n = (ScNative *) obj;
  if (n->kind != SC_NATIVE_FUNCTION || n->owner == NULL || g_str_equal (n->owner->data, "builtins"))
    return n->name->data;
  if (n->qualified == NULL)
    n->qualified = g_strconcat (n->owner->data, ".", n->name->data, NULL);
  return n->qualified;
}

const FxObjectClass sc_native_klass = {
  "builtin_function_or_method", native_finalize, obj_repr_hook, NULL, NULL, native_qualified_name,
};

static void
method_finalize (FxObject *obj)
{
  ScMethod *m = (ScMethod *) obj;
  fx_value_clear (&m->func);
  fx_value_clear (&m->self);
  g_free (m);
}

static guint
method_hash (const FxObject *obj)
{
  const ScMethod *m = (const ScMethod *) obj;
  return fx_value_hash (&m->func) ^ mix_pointer (m->self.kind == FX_VALUE_OBJECT ? (gpointer) m->self.obj : NULL);
}

static gboolean
method_equal (const FxObject *a, const FxObject *b)
{
  const ScMethod *x = (const ScMethod *) a, *y = (const ScMethod *) b;
  return fx_value_equal (&x->func, &y->func) && x->self.kind == y->self.kind
         && (x->self.kind != FX_VALUE_OBJECT || x->self.obj == y->self.obj)
         && (x->self.kind == FX_VALUE_OBJECT || fx_value_equal (&x->self, &y->self));
}

const FxObjectClass sc_method_klass = {
  "method", method_finalize, obj_repr_hook, method_hash, method_equal, NULL,
};

static void
module_finalize (FxObject *obj)
{
  FxScriptModule *m = (FxScriptModule *) obj;
  fx_str_unref (m->name);
  fx_dict_unref (m->dict);
  fx_value_clear (&m->getattr);
  g_free (m->file);
  g_free (m);
}

const FxObjectClass sc_module_klass = {
  "module", module_finalize, obj_repr_hook, NULL, NULL, NULL,
};

static void
cell_finalize (FxObject *obj)
{
  ScCell *c = (ScCell *) obj;
  fx_value_clear (&c->value);
  g_free (c);
}

const FxObjectClass sc_cell_klass = { "cell", cell_finalize, obj_repr_hook, NULL, NULL, NULL };

static void
property_finalize (FxObject *obj)
{
  ScProperty *p = (ScProperty *) obj;
  fx_value_clear (&p->fget);
  fx_value_clear (&p->fset);
  fx_value_clear (&p->fdel);
  fx_value_clear (&p->doc);
  if (p->name)
    fx_str_unref (p->name);
  g_free (p);
}

const FxObjectClass sc_property_klass = {
  "property", property_finalize, obj_repr_hook, NULL, NULL, NULL,
};

static void
wrapper_finalize (FxObject *obj)
{
  ScWrapper *w = (ScWrapper *) obj;
  fx_value_clear (&w->func);
  g_free (w);
}

const FxObjectClass sc_staticmethod_klass = {
  "staticmethod", wrapper_finalize, obj_repr_hook, NULL, NULL, NULL,
};
const FxObjectClass sc_classmethod_klass = {
  "classmethod", wrapper_finalize, obj_repr_hook, NULL, NULL, NULL,
};

static void
super_finalize (FxObject *obj)
{
  ScSuper *s = (ScSuper *) obj;
  fx_value_clear (&s->self);
  fx_object_unref (&s->start->base);
  fx_object_unref (&s->self_type->base);
  g_free (s);
}

const FxObjectClass sc_super_klass = { "super", super_finalize, obj_repr_hook, NULL, NULL, NULL };

static guint
range_hash (const FxObject *obj)
{
  const ScRange *r = (const ScRange *) obj;
  return (guint) (r->start * 31 + r->stop * 17 + r->step);
}

static gboolean
range_equal (const FxObject *a, const FxObject *b)
{
  const ScRange *x = (const ScRange *) a, *y = (const ScRange *) b;
  return x->start == y->start && x->stop == y->stop && x->step == y->step;
}

const FxObjectClass sc_range_klass = { "range", NULL, obj_repr_hook, range_hash, range_equal, NULL };

static void
set_finalize (FxObject *obj)
{
  ScSet *s = (ScSet *) obj;
  fx_dict_unref (s->d);
  g_free (s);
}

static gboolean
set_equal (const FxObject *a, const FxObject *b)
{
  const ScSet *x = (const ScSet *) a, *y = (const ScSet *) b;
  const FxValue *k;
  if (fx_dict_len (x->d) != fx_dict_len (y->d))
    return FALSE;
  for (guint i = 0; fx_dict_entry (x->d, i, &k, NULL); i++)
    if (!fx_dict_get (y->d, k))
      return FALSE;
  return TRUE;
}

static guint
set_hash (const FxObject *obj)
{
  const ScSet *s = (const ScSet *) obj;
  const FxValue *k;
  guint h = 0x51ed;
  for (guint i = 0; fx_dict_entry (s->d, i, &k, NULL); i++)
    h ^= fx_value_hash (k) * 2654435761u;
  return h;
}

const FxObjectClass sc_set_klass = { "set", set_finalize, obj_repr_hook, set_hash, set_equal, NULL };
const FxObjectClass sc_frozenset_klass = { "frozenset", set_finalize, obj_repr_hook, set_hash, set_equal, NULL };

static void
iterobj_finalize (FxObject *obj)
{
  ScIterObj *it = (ScIterObj *) obj;
  sc_iter_clear (&it->inner);
  for (int i = 0; i < it->n_inners; i++)
    sc_iter_clear (&it->inners[i]);
  g_free (it->inners);
  fx_value_clear (&it->func);
  if (it->values)
    fx_seq_unref (it->values);
  if (it->gen && it->gen_free)
    it->gen_free (it->gen);
  if (it->name)
    fx_str_unref (it->name);
  g_free (it);
}

const FxObjectClass sc_iterobj_klass = { "iterator", iterobj_finalize, obj_repr_hook, NULL, NULL, NULL };

static void
view_finalize (FxObject *obj)
{
  ScDictView *v = (ScDictView *) obj;
  fx_dict_unref (v->d);
  g_free (v);
}

const FxObjectClass sc_dictkeys_klass = { "dict_keys", view_finalize, obj_repr_hook, NULL, NULL, NULL };
const FxObjectClass sc_dictvalues_klass = { "dict_values", view_finalize, obj_repr_hook, NULL, NULL, NULL };
const FxObjectClass sc_dictitems_klass = { "dict_items", view_finalize, obj_repr_hook, NULL, NULL, NULL };
const FxObjectClass sc_notimpl_klass = { "NotImplementedType", NULL, obj_repr_hook, NULL, NULL, NULL };

static void
partial_finalize (FxObject *obj)
{
  ScPartial *p = (ScPartial *) obj;
  fx_value_clear (&p->func);
  for (int i = 0; i < p->n_args; i++)
    fx_value_clear (&p->args[i]);
  g_free (p->args);
  if (p->kwargs)
    fx_dict_unref (p->kwargs);
  g_free (p);
}

const FxObjectClass sc_partial_klass = { "functools.partial", partial_finalize, obj_repr_hook, NULL, NULL, NULL };

static void
typing_finalize (FxObject *obj)
{
  ScTyping *t = (ScTyping *) obj;
  fx_str_unref (t->name);
  fx_value_clear (&t->args);
  fx_value_clear (&t->origin);
  g_free (t);
}

static guint
typing_hash (const FxObject *obj)
{
  const ScTyping *t = (const ScTyping *) obj;
  return fx_str_hash (t->name) ^ fx_value_hash (&t->args);
}

static gboolean
typing_equal (const FxObject *a, const FxObject *b)
{
  const ScTyping *x = (const ScTyping *) a, *y = (const ScTyping *) b;
  return strcmp (x->name->data, y->name->data) == 0 && fx_value_equal (&x->args, &y->args);
}

const FxObjectClass sc_typing_klass = { "typing", typing_finalize, obj_repr_hook, typing_hash, typing_equal, NULL };

/* ------------------------------------------------------------------ type of a value */

FxScriptClass *
sc_type_of (FxScript *S, const FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_NONE: return S->types[SC_T_NONE];
    case FX_VALUE_BOOL: return S->types[SC_T_BOOL];
    case FX_VALUE_INT: return S->types[SC_T_INT];
    case FX_VALUE_FLOAT: return S->types[SC_T_FLOAT];
    case FX_VALUE_STR: return S->types[SC_T_STR];
    case FX_VALUE_TUPLE:
      if (v->seq->type && S->tuple_classes)
        {
          FxScriptClass *c = g_hash_table_lookup (S->tuple_classes, v->seq->type);
          if (c)
            return c;
        }
      return S->types[SC_T_TUPLE];
    case FX_VALUE_LIST: return S->types[SC_T_LIST];
    case FX_VALUE_DICT: return S->types[SC_T_DICT];
    case FX_VALUE_SLICE: return S->types[SC_T_SLICE];
    case FX_VALUE_ELLIPSIS: return S->types[SC_T_ELLIPSIS];
    case FX_VALUE_DTYPE:
    case FX_VALUE_DEVICE:
    case FX_VALUE_TENSOR:
    case FX_VALUE_NODE:
    case FX_VALUE_OP:
      if (v->kind == FX_VALUE_TENSOR && v->tensor->is_parameter)
        {
          FxScriptClass *pc = sc_nn_parameter_class (S);   /* nn-layers.c */
          if (pc)
            return pc;
        }
      if (S->kind_classes[v->kind])
        return S->kind_classes[v->kind];
      return S->types[v->kind == FX_VALUE_DTYPE ? SC_T_DTYPE : v->kind == FX_VALUE_DEVICE ? SC_T_DEVICE
                      : v->kind == FX_VALUE_TENSOR ? SC_T_TENSOR : v->kind == FX_VALUE_NODE ? SC_T_NODE
                                                                                             : SC_T_OP];
    case FX_VALUE_OBJECT:
      {
        const FxObjectClass *k = v->obj->klass;
        if (k == &sc_instance_klass) return ((ScInstance *) v->obj)->cls;
        if (k == &sc_class_klass) return S->types[SC_T_TYPE];
        if (k == &sc_function_klass) return S->types[SC_T_FUNCTION];
        if (k == &sc_native_klass) return S->types[SC_T_BUILTIN];
        if (k == &sc_method_klass)
          return ((ScMethod *) v->obj)->func.kind == FX_VALUE_OBJECT
                 && ((ScMethod *) v->obj)->func.obj->klass == &sc_function_klass
                   ? S->types[SC_T_METHOD] : S->types[SC_T_BUILTIN];
        if (k == &sc_iterobj_klass) return S->types[((ScIterObj *) v->obj)->type_id];
        if (k == &sc_module_klass) return S->types[SC_T_MODULE];
        if (k == &sc_set_klass) return S->types[SC_T_SET];
        if (k == &sc_frozenset_klass) return S->types[SC_T_FROZENSET];
        if (k == &sc_range_klass) return S->types[SC_T_RANGE];
        if (k == &sc_property_klass) return S->types[SC_T_PROPERTY];
        if (k == &sc_staticmethod_klass) return S->types[SC_T_STATICMETHOD];
        if (k == &sc_classmethod_klass) return S->types[SC_T_CLASSMETHOD];
        if (k == &sc_super_klass) return S->types[SC_T_SUPER];
        if (k == &sc_cell_klass) return S->types[SC_T_CELL];
        if (k == &sc_dictkeys_klass) return S->types[SC_T_DICT_KEYS];
        if (k == &sc_dictvalues_klass) return S->types[SC_T_DICT_VALUES];
        if (k == &sc_dictitems_klass) return S->types[SC_T_DICT_ITEMS];
        if (k == &sc_notimpl_klass) return S->types[SC_T_NOTIMPLEMENTED];
        if (k == &sc_partial_klass) return S->types[SC_T_PARTIAL];
        if (k == &sc_typing_klass) return S->types[SC_T_TYPING];
        if (S->object_classes)
          {
            FxScriptClass *c = g_hash_table_lookup (S->object_classes, k);
            if (c)
              return c;
          }
        return S->types[SC_T_FOREIGN];
      }
    default:
      return S->types[SC_T_OBJECT];
    }
}

const char *
sc_type_name (FxScript *S, const FxValue *v)
{
  return sc_type_of (S, v)->name->data;
}

/* ------------------------------------------------------------------ classes */

gboolean
sc_is_subclass (const FxScriptClass *cls, const FxScriptClass *base)
{
  if (cls == base)
    return TRUE;
  for (int i = 0; i < cls->n_mro; i++)
    if (cls->mro[i] == base)
      return TRUE;
  return FALSE;
}

gboolean
sc_isinstance (FxScript *S, const FxValue *v, FxScriptClass *cls)
{
  return sc_is_subclass (sc_type_of (S, v), cls);
}

gboolean
sc_isinstance_id (FxScript *S, const FxValue *v, int type_id)
{
  return sc_is_subclass (sc_type_of (S, v), S->types[type_id]);
}

/* C3 linearisation; NULL (TypeError raised) when the bases cannot be ordered. */
static gboolean
compute_mro (FxScript *S, FxScriptClass *cls)
{
  int n = cls->n_bases + 1;
  GPtrArray **lists = g_new0 (GPtrArray *, n);
  g_autoptr (GPtrArray) out = g_ptr_array_new ();
  gboolean ok = TRUE;

  g_ptr_array_add (out, cls);
  for (int i = 0; i < cls->n_bases; i++)
    {
      lists[i] = g_ptr_array_new ();
      for (int j = 0; j < cls->bases[i]->n_mro; j++)
        g_ptr_array_add (lists[i], cls->bases[i]->mro[j]);
    }
  lists[n - 1] = g_ptr_array_new ();
  for (int i = 0; i < cls->n_bases; i++)
    g_ptr_array_add (lists[n - 1], cls->bases[i]);

  for (;;)
    {
      gboolean empty = TRUE;
      FxScriptClass *cand = NULL;
      for (int i = 0; i < n; i++)
        if (lists[i]->len)
          empty = FALSE;
      if (empty)
        break;
      for (int i = 0; i < n && !cand; i++)
        {
          FxScriptClass *head;
          gboolean in_tail = FALSE;
          if (lists[i]->len == 0)
            continue;
          head = lists[i]->pdata[0];
          for (int j = 0; j < n && !in_tail; j++)
            for (guint k = 1; k < lists[j]->len; k++)
              if (lists[j]->pdata[k] == head)
                {
                  in_tail = TRUE;
                  break;
                }
          if (!in_tail)
            cand = head;
        }
      if (!cand)
        {
          /* CPython names the heads of the lists that are left, each once */
          GString *names = g_string_new (NULL);
          GPtrArray *heads = g_ptr_array_new ();
          for (int i = 0; i < n; i++)
            if (lists[i]->len && !g_ptr_array_find (heads, lists[i]->pdata[0], NULL))
              g_ptr_array_add (heads, lists[i]->pdata[0]);
          for (guint i = 0; i < heads->len; i++)
            g_string_append_printf (names, "%s%s", i ? ", " : "",
                                    ((FxScriptClass *) heads->pdata[i])->name->data);
          g_ptr_array_free (heads, TRUE);
          sc_raise (S, SC_T_TYPE_ERROR, "Cannot create a consistent method resolution\norder (MRO) for bases %s",
                    names->str);
          g_string_free (names, TRUE);
          ok = FALSE;
          break;
        }
      g_ptr_array_add (out, cand);
      for (int i = 0; i < n; i++)
        if (lists[i]->len && lists[i]->pdata[0] == cand)
          g_ptr_array_remove_index (lists[i], 0);
    }
  for (int i = 0; i < n; i++)
    g_ptr_array_free (lists[i], TRUE);
  g_free (lists);
  if (!ok)
    return FALSE;
  cls->n_mro = out->len;
  cls->mro = g_new (FxScriptClass *, out->len);
  for (guint i = 0; i < out->len; i++)
    {
      cls->mro[i] = out->pdata[i];
      if (i > 0)
        fx_object_ref (&cls->mro[i]->base);
    }
  return TRUE;
}

static FxScriptClass *
class_alloc (FxScript *S, const char *module, const char *name, const char *qualname)
{
  FxScriptClass *cls = g_new0 (FxScriptClass, 1);
  fx_object_init (&cls->base, &sc_class_klass);
  cls->script = S;
  cls->name = fx_str_new (name);
  cls->qualname = fx_str_new (qualname ? qualname : name);
  cls->module = fx_str_new (module ? module : "builtins");
  cls->type_id = -1;
  return cls;
}

static void
inherit_native (FxScriptClass *cls)
{
  for (int i = 0; i < cls->n_mro; i++)
    {
      FxScriptClass *m = cls->mro[i];
      if (m->payload_new)
        {
          cls->payload_class = m;
          break;
        }
    }
  for (int i = 1; i < cls->n_mro; i++)
    {
      if (cls->mro[i]->flags & SC_CLASS_EXCEPTION)
        cls->flags |= SC_CLASS_EXCEPTION;
      if (cls->mro[i]->flags & SC_CLASS_HAS_DICT)
        cls->flags |= SC_CLASS_HAS_DICT;
      if (!cls->construct && cls->mro[i]->construct && cls->mro[i]->type_id != SC_T_OBJECT
          && !(cls->payload_class && cls->payload_class->payload_new))
        cls->construct = cls->mro[i]->construct;
    }
}

FxScriptClass *
sc_builtin_class (FxScript *S, int type_id, const char *name, int base_id, ScClassFlags flags)
{
  FxScriptClass *cls = class_alloc (S, "builtins", name, NULL);
  cls->dict = fx_dict_new ();
  cls->flags = flags | SC_CLASS_BUILTIN;
  cls->type_id = type_id;
  if (base_id >= 0)
    {
      cls->n_bases = 1;
      cls->bases = g_new (FxScriptClass *, 1);
      cls->bases[0] = S->types[base_id];
      fx_object_ref (&cls->bases[0]->base);
    }
  compute_mro (S, cls);
  inherit_native (cls);
  if (type_id >= 0)
    S->types[type_id] = cls;
  return cls;
}

FxScriptClass *
sc_class_new (FxScript *S, const char *module, const char *name, FxScriptClass **bases,
              int n_bases, FxDict *dict, gboolean *ok)
{
  FxScriptClass *cls;
  FxValue *qn = sc_dict_get_str (dict, sc_n.qualname);
  g_autofree FxScriptClass **own_bases = NULL;
  *ok = FALSE;
  for (int i = 0; i < n_bases; i++)
    {
      /* a Python subclass of dict derives from dict's stand-in (mod-collections.c) */
      if (bases[i] == S->types[SC_T_DICT] && !S->native_class_new)
        {
          if (own_bases == NULL)
            bases = own_bases = g_memdup2 (bases, sizeof (FxScriptClass *) * n_bases);
          bases[i] = sc_dict_standin (S);
        }
      if (bases[i]->flags & SC_CLASS_FINAL)
        {
          sc_raise (S, SC_T_TYPE_ERROR, "type '%s' is not an acceptable base type", bases[i]->name->data);
          return NULL;
        }
      if ((bases[i]->flags & SC_CLASS_BUILTIN) && bases[i]->type_id != SC_T_OBJECT
          && !(bases[i]->flags & SC_CLASS_EXCEPTION) && !S->native_class_new)
        {
          sc_raise (S, SC_T_NOT_IMPLEMENTED_ERROR,
                    "subclassing the builtin type '%s' is not supported by fx", bases[i]->name->data);
          return NULL;
        }
      for (int j = 0; j < i; j++)
        if (bases[j] == bases[i])
          {
            sc_raise (S, SC_T_TYPE_ERROR, "duplicate base class %s", bases[i]->name->data);
            return NULL;
          }
    }
  cls = class_alloc (S, module, name, qn && qn->kind == FX_VALUE_STR ? qn->s->data : name);
  cls->dict = fx_dict_ref (dict);
  cls->flags = SC_CLASS_HAS_DICT;
  if (n_bases == 0)
    {
      bases = &S->types[SC_T_OBJECT];
      n_bases = 1;
    }
  cls->n_bases = n_bases;
  cls->bases = g_new (FxScriptClass *, n_bases);
  for (int i = 0; i < n_bases; i++)
    {
      cls->bases[i] = bases[i];
      fx_object_ref (&bases[i]->base);
      bases[i]->flags |= SC_CLASS_SUBCLASSED;
    }
  if (!compute_mro (S, cls))
    {
      fx_object_unref (&cls->base);
      return NULL;
    }
  inherit_native (cls);
  /* instances of several native bases would need several payloads */
  for (int i = 0; i < cls->n_mro; i++)
    if (cls->mro[i]->payload_new && cls->payload_class && cls->mro[i] != cls->payload_class
        && !sc_is_subclass (cls->payload_class, cls->mro[i]))
      {
        sc_raise (S, SC_T_TYPE_ERROR, "multiple bases have instance lay-out conflict");
        fx_object_unref (&cls->base);
        return NULL;
      }
  *ok = TRUE;
  return cls;
}

FxValue
sc_class_value (FxScriptClass *cls)
{
  return fx_value_take_object (fx_object_ref (&cls->base));
}

void
sc_type_modified (FxScript *S)
{
  S->type_version++;
  if (S->type_version == 0)
    S->type_version = 1;
}

void
sc_type_modified_class (FxScript *S, FxScriptClass *cls)
{
  if (cls->flags & SC_CLASS_SUBCLASSED)
    sc_type_modified (S);
  else
    cls->cache_version = 0;   /* type_version is never 0: the next lookup refills it */
}

static const FxValue not_found_marker;

/* A class's attribute lookup cache: open addressing over names (a reference each), probed
 * on every attribute access of the interpreter — a GHashTable costs two indirect calls a
 * probe. Names are mostly interned, so compared by address first. */
struct _ScTypeCache {
  struct {
    FxStr *name;                 /* NULL: empty */
    const FxValue *value;        /* &not_found_marker: no such attribute */
  } *slots;
  guint size, count;             /* size: a power of two */
};

static gboolean
cache_name_equal (const FxStr *a, const FxStr *b)
{
  return a == b || (a->len == b->len && memcmp (a->data, b->data, a->len) == 0);
}

/* name's slot in cache: its entry, or the empty slot where it goes. */
static guint
cache_slot (const ScTypeCache *cache, FxStr *name)
{
  guint mask = cache->size - 1, i = fx_str_hash (name) & mask;
  while (cache->slots[i].name != NULL && !cache_name_equal (cache->slots[i].name, name))
    i = (i + 1) & mask;
  return i;
}

static void
cache_insert (ScTypeCache *cache, FxStr *name, const FxValue *value)
{
  guint i;

  if (2 * (cache->count + 1) > cache->size)
    {
      ScTypeCache grown = { NULL, cache->size ? 2 * cache->size : 16, 0 };
      grown.slots = g_malloc0 (sizeof *grown.slots * grown.size);
      for (guint j = 0; j < cache->size; j++)
        if (cache->slots[j].name != NULL)
          {
            guint k = cache_slot (&grown, cache->slots[j].name);
            grown.slots[k] = cache->slots[j];
            grown.count++;
          }
      g_free (cache->slots);
      *cache = grown;
    }
  i = cache_slot (cache, name);
  if (cache->slots[i].name == NULL)
    {
      cache->slots[i].name = fx_str_ref (name);
      cache->count++;
    }
  cache->slots[i].value = value;
}

void
sc_type_cache_clear (ScTypeCache *cache)
{
  if (cache == NULL)
    return;
  for (guint i = 0; i < cache->size; i++)
    if (cache->slots[i].name != NULL)
      {
        fx_str_unref (cache->slots[i].name);
        cache->slots[i].name = NULL;
      }
  cache->count = 0;
}

void
sc_type_cache_free (ScTypeCache *cache)
{
  if (cache == NULL)
    return;
  sc_type_cache_clear (cache);
  g_free (cache->slots);
  g_free (cache);
}

/* A class attribute computed when first looked up (GraphModule's compiled forward): the
 * callback stores the real value in the owner's dict in place of the placeholder. */
typedef struct {
  FxObject base;
  ScLazyResolve resolve;
  gpointer data;
  GDestroyNotify destroy;
} ScLazyAttr;

static void
lazy_attr_finalize (FxObject *obj)
{
  ScLazyAttr *l = (ScLazyAttr *) obj;
  if (l->destroy != NULL)
    l->destroy (l->data);
  g_free (l);
}

const FxObjectClass sc_lazy_attr_klass = { "lazy_attr", lazy_attr_finalize, NULL, NULL, NULL,
                                           NULL };

FxValue
sc_lazy_attr_new (ScLazyResolve resolve, gpointer data, GDestroyNotify destroy)
{
  ScLazyAttr *l = g_new0 (ScLazyAttr, 1);
  fx_object_init (&l->base, &sc_lazy_attr_klass);
  l->resolve = resolve;
  l->data = data;
  l->destroy = destroy;
  return fx_value_take_object (&l->base);
}

gboolean
sc_lazy_attr_force (FxScript *S, FxScriptClass *owner, FxStr *name, const FxValue *d)
{
  FxObject *obj;
  gboolean ok;
  if (d == NULL || d->kind != FX_VALUE_OBJECT || d->obj->klass != &sc_lazy_attr_klass)
    return TRUE;
  obj = fx_object_ref (d->obj);   /* the callback replaces d */
  ok = ((ScLazyAttr *) obj)->resolve (S, owner, name, ((ScLazyAttr *) obj)->data);
  fx_object_unref (obj);
  sc_type_modified (S);
  return ok;
}

/* Resolves every placeholder of cls's own dict (before the dict itself is shown). */
static gboolean
lazy_attrs_force_all (FxScript *S, FxScriptClass *cls)
{
  const FxValue *k, *v;
  for (guint i = 0; fx_dict_entry (cls->dict, i, &k, &v); i++)
    if (v->kind == FX_VALUE_OBJECT && v->obj->klass == &sc_lazy_attr_klass
        && k->kind == FX_VALUE_STR && !sc_lazy_attr_force (S, cls, k->s, v))
      return FALSE;
  return TRUE;
}

FxValue *
sc_type_lookup (FxScript *S, FxScriptClass *cls, FxStr *name)
{
  FxValue key = { .kind = FX_VALUE_STR, .s = name };
  FxValue *found = NULL;
  int owner = 0;

  if (cls->cache == NULL || cls->cache_version != S->type_version)
    {
      if (cls->cache == NULL)
        cls->cache = g_new0 (ScTypeCache, 1);
      else
        sc_type_cache_clear (cls->cache);
      cls->cache_version = S->type_version;
    }
  else if (cls->cache->count > 0)
    {
      guint i = cache_slot (cls->cache, name);
      if (cls->cache->slots[i].name != NULL)
        {
          const FxValue *cached = cls->cache->slots[i].value;
          return cached == &not_found_marker ? NULL : (FxValue *) cached;
        }
    }
  for (int i = 0; i < cls->n_mro; i++)
    {
      found = fx_dict_get (cls->mro[i]->dict, &key);
      if (found)
        {
          owner = i;
          break;
        }
    }
  if (found && found->kind == FX_VALUE_OBJECT && found->obj->klass == &sc_lazy_attr_klass)
    {
      /* not cached: the callback puts the real value in its place (an error stays pending) */
      if (!sc_lazy_attr_force (S, cls->mro[owner], name, found))
        return NULL;
      found = fx_dict_get (cls->mro[owner]->dict, &key);
      if (found && found->kind == FX_VALUE_OBJECT && found->obj->klass == &sc_lazy_attr_klass)
        return NULL;
      return sc_type_lookup (S, cls, name);   /* once: the placeholder is gone */
    }
  cache_insert (cls->cache, name, found ? found : &not_found_marker);
  return found;
}

FxValue *
sc_type_lookup_c (FxScript *S, FxScriptClass *cls, const char *name)
{
  return sc_type_lookup (S, cls, sc_intern_cstr (name));
}

/* ------------------------------------------------------------------ small objects */

FxValue
sc_instance_new (FxScript *S, FxScriptClass *cls)
{
  ScInstance *inst = fx_new0 (ScInstance, 1);
  fx_object_init (&inst->base, &sc_instance_klass);
  inst->cls = cls;
  fx_object_ref (&cls->base);
  if (cls->payload_class)
    {
      inst->payload = cls->payload_class->payload_new (S, cls, cls->payload_class->class_data);
      inst->payload_free = cls->payload_class->payload_free;
    }
  return fx_value_take_object (&inst->base);
}

FxDict *
sc_instance_dict (ScInstance *inst)
{
  if (inst->dict == NULL)
    inst->dict = fx_dict_new ();
  return inst->dict;
}

FxValue
sc_native_new (const char *owner, const char *name, ScNativeKind kind, FxScriptFunc func,
               gpointer data, GDestroyNotify destroy)
{
  ScNative *n = fx_new0 (ScNative, 1);
  fx_object_init (&n->base, &sc_native_klass);
  n->func = func;
  n->data = data;
  n->destroy = destroy;
  n->kind = kind;
  n->name = fx_str_ref (sc_intern_cstr (name));
  n->owner = owner ? fx_str_new (owner) : NULL;
  return fx_value_take_object (&n->base);
}

void
sc_dict_set_str (FxDict *d, const char *key, FxValue value)
{
  fx_dict_set (d, sc_str_value (sc_intern_cstr (key)), value);
}

FxValue *
sc_dict_get_str (FxDict *d, FxStr *key)
{
  FxValue k = { .kind = FX_VALUE_STR, .s = key };
  return fx_dict_get (d, &k);
}

void
sc_add_native (FxDict *dict, const char *owner, const char *name, ScNativeKind kind,
               FxScriptFunc func, gpointer data)
{
  sc_dict_set_str (dict, name, sc_native_new (owner, name, kind, func, data, NULL));
}

void
sc_add_property (FxScriptClass *cls, const char *name, FxScriptFunc get, FxScriptFunc set)
{
  ScProperty *p = g_new0 (ScProperty, 1);
  fx_object_init (&p->base, &sc_property_klass);
  p->fget = get ? sc_native_new (cls->name->data, name, SC_NATIVE_FUNCTION, get, NULL, NULL) : fx_value_none ();
  p->fset = set ? sc_native_new (cls->name->data, name, SC_NATIVE_FUNCTION, set, NULL, NULL) : fx_value_none ();
  p->name = fx_str_ref (sc_intern_cstr (name));
  sc_dict_set_str (cls->dict, name, fx_value_take_object (&p->base));
}

FxValue
sc_method_new (const FxValue *func, const FxValue *self)
{
  ScMethod *m = fx_new0 (ScMethod, 1);
  fx_object_init (&m->base, &sc_method_klass);
  m->func = fx_value_copy (func);
  m->self = fx_value_copy (self);
  return fx_value_take_object (&m->base);
}

ScCell *
sc_cell_new (FxValue value)
{
  ScCell *c = fx_new0 (ScCell, 1);
  fx_object_init (&c->base, &sc_cell_klass);
  c->value = value;
  return c;
}

FxScriptModule *
sc_module_new (FxScript *S, const char *name)
{
  FxScriptModule *m = g_new0 (FxScriptModule, 1);
  fx_object_init (&m->base, &sc_module_klass);
  m->name = fx_str_new (name);
  m->dict = fx_dict_new ();
  m->getattr = fx_value_none ();
  sc_dict_set_str (m->dict, "__name__", fx_value_str (name));
  sc_dict_set_str (m->dict, "__doc__", fx_value_none ());
  (void) S;
  return m;
}

FxValue
sc_set_new (FxScript *S, gboolean frozen)
{
  ScSet *s = fx_new0 (ScSet, 1);
  fx_object_init (&s->base, frozen ? &sc_frozenset_klass : &sc_set_klass);
  s->d = fx_dict_new ();
  (void) S;
  return fx_value_take_object (&s->base);
}

FxValue
sc_range_new (int64_t start, int64_t stop, int64_t step)
{
  ScRange *r = g_new0 (ScRange, 1);
  fx_object_init (&r->base, &sc_range_klass);
  r->start = start;
  r->stop = stop;
  r->step = step;
  return fx_value_take_object (&r->base);
}

FxValue
sc_dict_view_new (FxDict *d, int type_id)
{
  ScDictView *v = fx_new0 (ScDictView, 1);
  fx_object_init (&v->base, type_id == SC_T_DICT_KEYS ? &sc_dictkeys_klass
                            : type_id == SC_T_DICT_VALUES ? &sc_dictvalues_klass : &sc_dictitems_klass);
  v->d = fx_dict_ref (d);
  return fx_value_take_object (&v->base);
}

FxValue
sc_dict_copy (FxDict *d)
{
  FxDict *c = fx_dict_new ();
  const FxValue *k, *v;
  for (guint i = 0; fx_dict_entry (d, i, &k, &v); i++)
    fx_dict_set (c, fx_value_copy (k), fx_value_copy (v));
  return fx_value_take_dict (c);
}

/* ------------------------------------------------------------------ attributes */

/* The __dict__ of objects that have one (instances, functions, modules, classes). */
static FxDict *
object_dict (const FxValue *obj, gboolean create)
{
  if (obj->kind != FX_VALUE_OBJECT)
    return NULL;
  if (obj->obj->klass == &sc_instance_klass)
    {
      ScInstance *inst = (ScInstance *) obj->obj;
      if (!(inst->cls->flags & SC_CLASS_HAS_DICT) && !(inst->cls->flags & SC_CLASS_EXCEPTION))
        return NULL;
      return create ? sc_instance_dict (inst) : inst->dict;
    }
  if (obj->obj->klass == &sc_function_klass)
    {
      ScFunction *f = (ScFunction *) obj->obj;
      if (create && f->dict == NULL)
        f->dict = fx_dict_new ();
      return f->dict;
    }
  if (obj->obj->klass == &sc_module_klass)
    return ((FxScriptModule *) obj->obj)->dict;
  return NULL;
}

static gboolean
is_data_descriptor (FxScript *S, const FxValue *d)
{
  if (d->kind != FX_VALUE_OBJECT)
    return FALSE;
  if (d->obj->klass == &sc_property_klass)
    return TRUE;
  if (d->obj->klass == &sc_instance_klass)
    {
      FxScriptClass *t = ((ScInstance *) d->obj)->cls;
      return sc_type_lookup (S, t, sc_n.set) != NULL || sc_type_lookup (S, t, sc_n.delete) != NULL;
    }
  return FALSE;
}

static gboolean
property_get (FxScript *S, ScProperty *p, const FxValue *obj, FxValue *out)
{
  if (p->fget.kind == FX_VALUE_NONE)
    {
      if (p->name)
        return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "property '%s' of '%s' object has no getter",
                         p->name->data, sc_type_name (S, obj));
      return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "unreadable attribute");
    }
  return sc_call1 (S, &p->fget, obj, out);
}

/* Binds a class attribute found for an instance (descriptor __get__). */
static gboolean
bind_descriptor (FxScript *S, const FxValue *d, const FxValue *obj, FxScriptClass *type, FxValue *out)
{
  if (d->kind == FX_VALUE_OBJECT)
    {
      const FxObjectClass *k = d->obj->klass;
      if (k == &sc_function_klass)
        {
          *out = sc_method_new (d, obj);
          return TRUE;
        }
      if (k == &sc_native_klass)
        {
          ScNative *n = (ScNative *) d->obj;
          if (n->kind == SC_NATIVE_METHOD)
            *out = sc_method_new (d, obj);
          else if (n->kind == SC_NATIVE_CLASSMETHOD)
            {
              FxValue c = sc_class_value (type);
              *out = sc_method_new (d, &c);
              fx_value_clear (&c);
            }
          else
            *out = fx_value_copy (d);
          return TRUE;
        }
      if (k == &sc_staticmethod_klass)
        {
          *out = fx_value_copy (&((ScWrapper *) d->obj)->func);
          return TRUE;
        }
      if (k == &sc_classmethod_klass)
        {
          FxValue c = sc_class_value (type);
          *out = sc_method_new (&((ScWrapper *) d->obj)->func, &c);
          fx_value_clear (&c);
          return TRUE;
        }
      if (k == &sc_property_klass)
        return property_get (S, (ScProperty *) d->obj, obj, out);
      if (k == &sc_instance_klass)
        {
          FxValue *get = sc_type_lookup (S, ((ScInstance *) d->obj)->cls, sc_n.get);
          if (get)
            {
              FxValue args[3], c = sc_class_value (type);
              gboolean ok;
              args[0] = *d;
              args[1] = *obj;
              args[2] = c;
              ok = sc_call (S, get, args, 3, NULL, 0, out);
              fx_value_clear (&c);
              return ok;
            }
        }
    }
  *out = fx_value_copy (d);
  return TRUE;
}

static int
class_getattr (FxScript *S, FxScriptClass *cls, const FxValue *obj, FxStr *name, FxValue *out)
{
  FxValue *d;
  if (name == sc_n.name) { *out = sc_str_value (cls->name); return 1; }
  if (name == sc_n.qualname) { *out = sc_str_value (cls->qualname); return 1; }
  if (name == sc_n.module)
    {
      FxValue *m = sc_dict_get_str (cls->dict, sc_n.module);
      *out = m ? fx_value_copy (m) : sc_str_value (cls->module);
      return 1;
    }
  if (name == sc_n.mro || name == sc_n.bases)
    {
      /* a stand-in shows as the builtin it stands in for (which follows it in the MRO) */
      gboolean mro = name == sc_n.mro;
      int n = mro ? cls->n_mro : cls->n_bases, len = 0;
      FxSeq *seq = fx_seq_new (n);
      for (int i = 0; i < n; i++)
        {
          FxScriptClass *c = mro ? cls->mro[i] : cls->bases[i];
          if (c->flags & SC_CLASS_STANDIN)
            {
              if (mro)
                continue;
              c = c->bases[0];
            }
          seq->items[len++] = sc_class_value (c);
        }
      seq->len = len;
      *out = fx_value_take_tuple (seq);
      return 1;
    }
  if (name == sc_n.base)
    {
      FxScriptClass *b = cls->n_bases ? cls->bases[0] : NULL;
      if (b && (b->flags & SC_CLASS_STANDIN))
        b = b->bases[0];
      *out = b ? sc_class_value (b) : fx_value_none ();
      return 1;
    }
  if (name == sc_n.dict)
    {
      if (!lazy_attrs_force_all (S, cls))
        return -1;
      *out = sc_dict_copy (cls->dict);
      return 1;
    }
  if (name == sc_n.class)
    {
      *out = sc_class_value (S->types[SC_T_TYPE]);
      return 1;
    }
  d = sc_type_lookup (S, cls, name);
  if (d)
    {
      if (d->kind == FX_VALUE_OBJECT)
        {
          const FxObjectClass *k = d->obj->klass;
          if (k == &sc_staticmethod_klass)
            {
              *out = fx_value_copy (&((ScWrapper *) d->obj)->func);
              return 1;
            }
          if (k == &sc_classmethod_klass)
            {
              *out = sc_method_new (&((ScWrapper *) d->obj)->func, obj);
              return 1;
            }
          if (k == &sc_native_klass && ((ScNative *) d->obj)->kind == SC_NATIVE_CLASSMETHOD)
            {
              *out = sc_method_new (d, obj);
              return 1;
            }
          if (k == &sc_instance_klass)
            {
              FxValue *get = sc_type_lookup (S, ((ScInstance *) d->obj)->cls, sc_n.get);
              if (get)
                {
                  FxValue args[3];
                  args[0] = *d;
                  args[1] = fx_value_none ();
                  args[2] = *obj;
                  return sc_call (S, get, args, 3, NULL, 0, out) ? 1 : -1;
                }
            }
        }
      *out = fx_value_copy (d);
      return 1;
    }
  if (name == sc_n.doc)
    {
      *out = fx_value_none ();
      return 1;
    }
  /* methods of `type` itself (mro(), __subclasses__()) */
  d = sc_type_lookup (S, S->types[SC_T_TYPE], name);
  if (d)
    return bind_descriptor (S, d, obj, S->types[SC_T_TYPE], out) ? 1 : -1;
  return 0;
}

/* object.__getattribute__: 1 found, 0 missing (nothing raised), -1 error. */
static int
generic_getattr (FxScript *S, const FxValue *obj, FxStr *name, FxValue *out)
{
  FxScriptClass *type;
  FxValue *d, *v;
  FxDict *dict;

  if (obj->kind == FX_VALUE_OBJECT)
    {
      const FxObjectClass *k = obj->obj->klass;
      if (k == &sc_class_klass)
        return class_getattr (S, (FxScriptClass *) obj->obj, obj, name, out);
      if (k == &sc_module_klass)
        {
          FxScriptModule *m = (FxScriptModule *) obj->obj;
          v = sc_dict_get_str (m->dict, name);
          if (v)
            {
              *out = fx_value_copy (v);
              return 1;
            }
          if (name == sc_n.dict)
            {
              *out = fx_value_take_dict (fx_dict_ref (m->dict));
              return 1;
            }
          if (m->getattr.kind != FX_VALUE_NONE)
            {
              FxValue nv = sc_str_value (name);
              gboolean ok = sc_call1 (S, &m->getattr, &nv, out);
              fx_value_clear (&nv);
              if (ok)
                return 1;
              if (sc_matches (S, SC_T_ATTRIBUTE_ERROR))
                {
                  sc_clear_exc (S);
                  return 0;
                }
              return -1;
            }
          return 0;
        }
      if (k == &sc_super_klass)
        {
          ScSuper *sp = (ScSuper *) obj->obj;
          FxScriptClass *t = sp->self_type;
          FxValue key = { .kind = FX_VALUE_STR, .s = name };
          int i = 0;
          if (name == sc_n.class)
            {
              *out = sc_class_value (S->types[SC_T_SUPER]);
              return 1;
            }
          while (i < t->n_mro && t->mro[i] != sp->start)
            i++;
          for (i++; i < t->n_mro; i++)
            {
              d = fx_dict_get (t->mro[i]->dict, &key);
              if (d && d->kind == FX_VALUE_OBJECT && d->obj->klass == &sc_lazy_attr_klass)
                {
                  if (!sc_lazy_attr_force (S, t->mro[i], name, d))
                    return -1;
                  d = fx_dict_get (t->mro[i]->dict, &key);
                }
              if (d)
                {
                  if (sc_value_class (&sp->self) && sc_value_class (&sp->self) == t)
                    {
                      /* super() in a classmethod: bind to the class */
                      if (d->kind == FX_VALUE_OBJECT && d->obj->klass == &sc_classmethod_klass)
                        {
                          *out = sc_method_new (&((ScWrapper *) d->obj)->func, &sp->self);
                          return 1;
                        }
                      if (d->kind == FX_VALUE_OBJECT && d->obj->klass == &sc_staticmethod_klass)
                        {
                          *out = fx_value_copy (&((ScWrapper *) d->obj)->func);
                          return 1;
                        }
                      if (d->kind == FX_VALUE_OBJECT && d->obj->klass == &sc_native_klass
                          && ((ScNative *) d->obj)->kind == SC_NATIVE_CLASSMETHOD)
                        {
                          *out = sc_method_new (d, &sp->self);
                          return 1;
                        }
                      *out = fx_value_copy (d);
                      return 1;
                    }
                  return bind_descriptor (S, d, &sp->self, t, out) ? 1 : -1;
                }
            }
          return 0;
        }
    }

  type = sc_type_of (S, obj);
  if (name == sc_n.class)
    {
      *out = sc_class_value (type);
      return 1;
    }
  d = sc_type_lookup (S, type, name);
  if (d && is_data_descriptor (S, d))
    return bind_descriptor (S, d, obj, type, out) ? 1 : -1;
  dict = object_dict (obj, FALSE);
  if (dict && (v = sc_dict_get_str (dict, name)))
    {
      *out = fx_value_copy (v);
      return 1;
    }
  if (d)
    return bind_descriptor (S, d, obj, type, out) ? 1 : -1;
  if (name == sc_n.dict && obj->kind == FX_VALUE_OBJECT && (dict = object_dict (obj, TRUE)))
    {
      *out = fx_value_take_dict (fx_dict_ref (dict));
      return 1;
    }
  return 0;
}

gboolean
sc_generic_getattr (FxScript *S, const FxValue *obj, FxStr *name, FxValue *out, gboolean raise)
{
  int r = generic_getattr (S, obj, name, out);
  if (r > 0)
    return TRUE;
  if (r == 0 && raise)
    sc_raise_attribute_error (S, obj, name);
  return FALSE;
}

static gboolean
is_object_default (FxScript *S, const FxValue *m, FxStr *name)
{
  FxValue *od = sc_dict_get_str (S->types[SC_T_OBJECT]->dict, name);
  return od && od->kind == FX_VALUE_OBJECT && m->kind == FX_VALUE_OBJECT && od->obj == m->obj;
}

/* 1 found, 0 missing (nothing pending), -1 error */
static int
getattr_impl (FxScript *S, const FxValue *obj, FxStr *name, FxValue *out)
{
  FxScriptClass *type = sc_type_of (S, obj);
  FxValue *ga = NULL;
  int r;

  if (type->flags & (SC_CLASS_HAS_DICT | SC_CLASS_NATIVE))
    {
      ga = sc_type_lookup (S, type, sc_n.getattribute);
      if (ga && is_object_default (S, ga, sc_n.getattribute))
        ga = NULL;
    }
  if (ga)
    {
      FxValue nv = sc_str_value (name);
      FxValue args[2] = { *obj, nv };
      gboolean ok = sc_call (S, ga, args, 2, NULL, 0, out);
      fx_value_clear (&nv);
      if (ok)
        return 1;
      if (!sc_matches (S, SC_T_ATTRIBUTE_ERROR))
        return -1;
      if (!sc_type_lookup (S, type, sc_n.getattr))
        return -1;
      sc_clear_exc (S);
      r = 0;
    }
  else
    {
      r = generic_getattr (S, obj, name, out);
      if (r != 0)
        return r;
    }
  if (type->n_mro > 1 || type->type_id < 0)
    {
      FxValue *gattr = sc_type_lookup (S, type, sc_n.getattr);
      if (gattr)
        {
          FxValue nv = sc_str_value (name);
          FxValue args[2] = { *obj, nv };
          gboolean ok = sc_call (S, gattr, args, 2, NULL, 0, out);
          fx_value_clear (&nv);
          return ok ? 1 : -1;
        }
    }
  return 0;
}

gboolean
sc_getattr (FxScript *S, const FxValue *obj, FxStr *name, FxValue *out)
{
  int r = getattr_impl (S, obj, name, out);
  if (r > 0)
    return TRUE;
  if (r == 0)
    sc_raise_attribute_error (S, obj, name);
  return FALSE;
}

int
sc_getattr_opt (FxScript *S, const FxValue *obj, FxStr *name, FxValue *out)
{
  int r = getattr_impl (S, obj, name, out);
  if (r < 0 && sc_matches (S, SC_T_ATTRIBUTE_ERROR))
    {
      sc_clear_exc (S);
      return 0;
    }
  return r;
}

gboolean
sc_get_method (FxScript *S, const FxValue *obj, FxStr *name, FxValue *out, gboolean *unbound)
{
  FxScriptClass *type;
  FxValue *d;
  FxDict *dict;

  *unbound = FALSE;
  if (obj->kind == FX_VALUE_OBJECT && obj->obj->klass != &sc_instance_klass)
    return sc_getattr (S, obj, name, out);
  type = sc_type_of (S, obj);
  if (type->flags & (SC_CLASS_HAS_DICT | SC_CLASS_NATIVE))
    {
      FxValue *ga = sc_type_lookup (S, type, sc_n.getattribute);
      if (ga && !is_object_default (S, ga, sc_n.getattribute))
        return sc_getattr (S, obj, name, out);
    }
  d = sc_type_lookup (S, type, name);
  if (d && d->kind == FX_VALUE_OBJECT
      && (d->obj->klass == &sc_function_klass
          || (d->obj->klass == &sc_native_klass && ((ScNative *) d->obj)->kind == SC_NATIVE_METHOD)))
    {
      dict = object_dict (obj, FALSE);
      if (!dict || !sc_dict_get_str (dict, name))
        {
          *out = fx_value_copy (d);
          *unbound = TRUE;
          return TRUE;
        }
    }
  return sc_getattr (S, obj, name, out);
}

gboolean
sc_generic_setattr (FxScript *S, const FxValue *obj, FxStr *name, const FxValue *value)
{
  FxScriptClass *type = sc_type_of (S, obj);
  FxValue *d;
  FxDict *dict;

  if (obj->kind == FX_VALUE_OBJECT && obj->obj->klass == &sc_class_klass)
    {
      FxScriptClass *cls = (FxScriptClass *) obj->obj;
      if (cls->flags & SC_CLASS_BUILTIN)
        return sc_raise (S, SC_T_TYPE_ERROR, "cannot set '%s' attribute of immutable type '%s'",
                         name->data, cls->name->data);
      if (name == sc_n.name && value->kind == FX_VALUE_STR)
        {
          fx_str_unref (cls->name);
          cls->name = fx_str_ref (value->s);
          return TRUE;
        }
      if (name == sc_n.qualname && value->kind == FX_VALUE_STR)
        {
          fx_str_unref (cls->qualname);
          cls->qualname = fx_str_ref (value->s);
          return TRUE;
        }
      {
        FxValue key = sc_str_value (name);
        /* a name the class already has is replaced in its dict slot, which every lookup
         * cache that found it points at, and which still shadows what it did: no cache goes
         * stale (Tracer.trace patching nn.Module.__call__ would otherwise flush them all) */
        gboolean in_place = fx_dict_get (cls->dict, &key) != NULL;
        fx_dict_set (cls->dict, key, fx_value_copy (value));
        if (!in_place)
          sc_type_modified (S);
      }
      return TRUE;
    }
  d = sc_type_lookup (S, type, name);
  if (d && d->kind == FX_VALUE_OBJECT)
    {
      if (d->obj->klass == &sc_property_klass)
        {
          ScProperty *p = (ScProperty *) d->obj;
          FxValue r;
          if (p->fset.kind == FX_VALUE_NONE)
            return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "property '%s' of '%s' object has no setter",
                             name->data, type->name->data);
          if (!sc_call2 (S, &p->fset, obj, value, &r))
            return FALSE;
          fx_value_clear (&r);
          return TRUE;
        }
      if (d->obj->klass == &sc_instance_klass)
        {
          FxValue *set = sc_type_lookup (S, ((ScInstance *) d->obj)->cls, sc_n.set);
          if (set)
            {
              FxValue args[3] = { *d, *obj, *value }, r;
              if (!sc_call (S, set, args, 3, NULL, 0, &r))
                return FALSE;
              fx_value_clear (&r);
              return TRUE;
            }
        }
    }
  if (obj->kind == FX_VALUE_OBJECT && obj->obj->klass == &sc_function_klass)
    {
      ScFunction *f = (ScFunction *) obj->obj;
      if (name == sc_n.name && value->kind == FX_VALUE_STR)
        {
          fx_str_unref (f->name);
          f->name = fx_str_ref (value->s);
          return TRUE;
        }
      if (name == sc_n.qualname && value->kind == FX_VALUE_STR)
        {
          fx_str_unref (f->qualname);
          f->qualname = fx_str_ref (value->s);
          return TRUE;
        }
      if (name == sc_n.doc)
        {
          fx_value_clear (&f->doc);
          f->doc = fx_value_copy (value);
          return TRUE;
        }
      if (name == sc_n.module)
        {
          fx_value_clear (&f->module);
          f->module = fx_value_copy (value);
          return TRUE;
        }
    }
  dict = object_dict (obj, TRUE);
  if (dict)
    {
      fx_dict_set (dict, sc_str_value (name), fx_value_copy (value));
      return TRUE;
    }
  if (d)
    return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "'%s' object attribute '%s' is read-only",
                     type->name->data, name->data);
  return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "'%s' object has no attribute '%s'", type->name->data,
                   name->data);
}

gboolean
sc_setattr (FxScript *S, const FxValue *obj, FxStr *name, const FxValue *value)
{
  FxScriptClass *type = sc_type_of (S, obj);
  if (type->flags & (SC_CLASS_HAS_DICT | SC_CLASS_NATIVE))
    {
      FxValue *sa = sc_type_lookup (S, type, sc_n.setattr);
      if (sa && !is_object_default (S, sa, sc_n.setattr))
        {
          FxValue nv = sc_str_value (name), r;
          FxValue args[3] = { *obj, nv, *value };
          gboolean ok = sc_call (S, sa, args, 3, NULL, 0, &r);
          fx_value_clear (&nv);
          if (ok)
            fx_value_clear (&r);
          return ok;
        }
    }
  return sc_generic_setattr (S, obj, name, value);
}

gboolean
sc_generic_delattr (FxScript *S, const FxValue *obj, FxStr *name)
{
  FxScriptClass *type = sc_type_of (S, obj);
  FxValue key = { .kind = FX_VALUE_STR, .s = name };
  FxValue *d = sc_type_lookup (S, type, name);
  FxDict *dict;

  if (d && d->kind == FX_VALUE_OBJECT && d->obj->klass == &sc_property_klass)
    {
      ScProperty *p = (ScProperty *) d->obj;
      FxValue r;
      if (p->fdel.kind == FX_VALUE_NONE)
        return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "property '%s' of '%s' object has no deleter",
                         name->data, type->name->data);
      if (!sc_call1 (S, &p->fdel, obj, &r))
        return FALSE;
      fx_value_clear (&r);
      return TRUE;
    }
  if (obj->kind == FX_VALUE_OBJECT && obj->obj->klass == &sc_class_klass)
    {
      FxScriptClass *cls = (FxScriptClass *) obj->obj;
      if (cls->flags & SC_CLASS_BUILTIN)
        return sc_raise (S, SC_T_TYPE_ERROR, "cannot delete '%s' attribute of immutable type '%s'",
                         name->data, cls->name->data);
      if (!fx_dict_remove (cls->dict, &key))
        return sc_raise_attribute_error (S, obj, name);
      /* compact now so that cached pointers into the dict are never left dangling */
      fx_dict_entry (cls->dict, 0, NULL, NULL);
      sc_type_modified (S);
      return TRUE;
    }
  dict = object_dict (obj, FALSE);
  if (dict && fx_dict_remove (dict, &key))
    return TRUE;
  return sc_raise_attribute_error (S, obj, name);
}

gboolean
sc_delattr (FxScript *S, const FxValue *obj, FxStr *name)
{
  FxScriptClass *type = sc_type_of (S, obj);
  if (type->flags & (SC_CLASS_HAS_DICT | SC_CLASS_NATIVE))
    {
      FxValue *da = sc_type_lookup (S, type, sc_n.delattr);
      if (da && !is_object_default (S, da, sc_n.delattr))
        {
          FxValue nv = sc_str_value (name), r;
          FxValue args[2] = { *obj, nv };
          gboolean ok = sc_call (S, da, args, 2, NULL, 0, &r);
          fx_value_clear (&nv);
          if (ok)
            fx_value_clear (&r);
          return ok;
        }
    }
  return sc_generic_delattr (S, obj, name);
}

FxValue *
sc_special_lookup (FxScript *S, const FxValue *obj, const char *name)
{
  return sc_type_lookup (S, sc_type_of (S, obj), sc_intern_cstr (name));
}

int
sc_call_special (FxScript *S, const FxValue *obj, const char *name, const FxValue *args,
                 int n_args, FxValue *out)
{
  FxValue *m = sc_special_lookup (S, obj, name);
  FxValue buf[4];
  if (!m)
    return 0;
  g_assert (n_args < 4);
  buf[0] = *obj;
  for (int i = 0; i < n_args; i++)
    buf[i + 1] = args[i];
  if (m->kind == FX_VALUE_OBJECT
      && (m->obj->klass == &sc_function_klass
          || (m->obj->klass == &sc_native_klass && ((ScNative *) m->obj)->kind == SC_NATIVE_METHOD)))
    return sc_call (S, m, buf, n_args + 1, NULL, 0, out) ? 1 : -1;
  {
    FxValue bound;
    gboolean ok;
    if (!bind_descriptor (S, m, obj, sc_type_of (S, obj), &bound))
      return -1;
    ok = sc_call (S, &bound, args, n_args, NULL, 0, out);
    fx_value_clear (&bound);
    return ok ? 1 : -1;
  }
}

/* ------------------------------------------------------------------ dir() */

static const char *const object_dir_names[] = {
  "__class__", "__delattr__", "__dir__", "__doc__", "__eq__", "__format__", "__ge__",
  "__getattribute__", "__getstate__", "__gt__", "__hash__", "__init__", "__init_subclass__",
  "__le__", "__lt__", "__ne__", "__new__", "__reduce__", "__reduce_ex__", "__repr__",
  "__setattr__", "__sizeof__", "__str__", "__subclasshook__",
};

static gint
compare_str_values (gconstpointer a, gconstpointer b)
{
  const FxValue *x = a, *y = b;
  return strcmp (x->s->data, y->s->data);
}

static void
dir_add_dict (FxDict *seen, FxDict *d)
{
  const FxValue *k;
  for (guint i = 0; fx_dict_entry (d, i, &k, NULL); i++)
    if (k->kind == FX_VALUE_STR)
      fx_dict_set (seen, fx_value_copy (k), fx_value_none ());
}

gboolean
sc_dir (FxScript *S, const FxValue *obj, FxSeq **out)
{
  FxDict *seen = fx_dict_new ();
  FxScriptClass *type = sc_type_of (S, obj);
  FxScriptClass *cls = sc_value_class (obj);
  FxDict *dict;
  const FxValue *k;
  FxSeq *seq;

  if (obj->kind == FX_VALUE_OBJECT && obj->obj->klass == &sc_module_klass)
    dir_add_dict (seen, ((FxScriptModule *) obj->obj)->dict);
  else
    {
      FxScriptClass *walk = cls ? cls : type;
      for (guint i = 0; i < G_N_ELEMENTS (object_dir_names); i++)
        sc_dict_set_str (seen, object_dir_names[i], fx_value_none ());
      if (walk->flags & SC_CLASS_HAS_DICT && !(walk->flags & SC_CLASS_BUILTIN))
        {
          sc_dict_set_str (seen, "__dict__", fx_value_none ());
          sc_dict_set_str (seen, "__module__", fx_value_none ());
          sc_dict_set_str (seen, "__weakref__", fx_value_none ());
        }
      for (int i = walk->n_mro - 1; i >= 0; i--)
        dir_add_dict (seen, walk->mro[i]->dict);
      if (!cls && (dict = object_dict (obj, FALSE)))
        dir_add_dict (seen, dict);
    }
  seq = fx_seq_new (0);
  for (guint i = 0; fx_dict_entry (seen, i, &k, NULL); i++)
    fx_seq_append (seq, fx_value_copy (k));
  fx_dict_unref (seen);
  if (seq->len)
    qsort (seq->items, seq->len, sizeof (FxValue), compare_str_values);
  *out = seq;
  return TRUE;
}

/* ------------------------------------------------------------------ class statement */

gboolean
sc_build_class (FxScript *S, FxValue *out, FxStr *name, FxScriptClass **bases, int n_bases,
                FxDict *ns, FxDict *kwargs)
{
  FxValue *mod = sc_dict_get_str (ns, sc_n.module);
  gboolean ok;
  FxScriptClass *cls;
  const FxValue *k, *v;

  if (kwargs)
    for (guint i = 0; fx_dict_entry (kwargs, i, &k, &v); i++)
      {
        if (k->s == sc_n.s_metaclass || strcmp (k->s->data, "metaclass") == 0)
          {
            FxScriptClass *meta = sc_value_class (v);
            if (meta && meta == S->types[SC_T_TYPE])
              continue;
            return sc_raise (S, SC_T_NOT_IMPLEMENTED_ERROR, "metaclasses are not supported by fx");
          }
      }
  cls = sc_class_new (S, mod && mod->kind == FX_VALUE_STR ? mod->s->data : "__main__", name->data,
                      bases, n_bases, ns, &ok);
  if (!ok)
    return FALSE;
  *out = sc_class_value (cls);
  fx_object_unref (&cls->base);
  sc_type_modified (S);

  /* __set_name__ on descriptors, then the parent's __init_subclass__ */
  for (guint i = 0; fx_dict_entry (cls->dict, i, &k, &v); i++)
    if (v->kind == FX_VALUE_OBJECT && v->obj->klass == &sc_instance_klass)
      {
        FxValue *sn = sc_type_lookup (S, ((ScInstance *) v->obj)->cls, sc_n.set_name);
        if (sn)
          {
            FxValue args[3] = { *v, *out, *k }, r;
            FxValue hold = fx_value_copy (v);
            gboolean good = sc_call (S, sn, args, 3, NULL, 0, &r);
            fx_value_clear (&hold);
            if (!good)
              {
                fx_value_clear (out);
                return FALSE;
              }
            fx_value_clear (&r);
          }
      }
  if (cls->n_mro > 1)
    {
      FxValue key = { .kind = FX_VALUE_STR, .s = sc_n.init_subclass };
      for (int i = 1; i < cls->n_mro; i++)
        {
          FxValue *isc = fx_dict_get (cls->mro[i]->dict, &key);
          if (isc)
            {
              FxValue r;
              gboolean good = TRUE;
              if (isc->kind == FX_VALUE_OBJECT && isc->obj->klass == &sc_classmethod_klass)
                good = sc_call_dict (S, &((ScWrapper *) isc->obj)->func, out, 1, NULL, &r);
              else if (isc->kind == FX_VALUE_OBJECT && isc->obj->klass == &sc_function_klass)
                good = sc_call_dict (S, isc, out, 1, NULL, &r);
              else
                break;
              if (!good)
                {
                  fx_value_clear (out);
                  return FALSE;
                }
              fx_value_clear (&r);
              break;
            }
        }
    }
  return TRUE;
}
