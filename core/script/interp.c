/* interp.c: the FxScript lifecycle and embedding API of script.h — running files and
 * strings as CPython does (tracebacks, SystemExit), the import system (native modules,
 * .py files on sys.path, sys.modules), the sys module, and the C wrappers over classes,
 * modules, attributes, calls and iteration. */
#define _GNU_SOURCE
#include "script/internal.h"
#include "fx-error.h"

#include <errno.h>
#include <float.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ entering */

/* The C stack bound below which calls raise RecursionError instead of overflowing. */
static void
set_stack_limit (FxScript *S)
{
  pthread_attr_t attr;
  void *addr;
  size_t size;
  if (pthread_getattr_np (pthread_self (), &attr) != 0)
    return;
  if (pthread_attr_getstack (&attr, &addr, &size) == 0)
    {
      size_t margin = MAX ((size_t) 64 * 1024, MIN (size / 8, (size_t) 512 * 1024));
      S->stack_limit = (guintptr) addr + margin;
    }
  pthread_attr_destroy (&attr);
}

static FxScript *
enter (FxScript *S)
{
  FxScript *prev = sc_current ();
  sc_set_current (S);
  if (S->frame == NULL)
    set_stack_limit (S);
  return prev;
}

static void
leave (FxScript *prev)
{
  sc_set_current (prev);
}

FxScript *
fx_script_get_current (void)
{
  return sc_current ();
}

/* ------------------------------------------------------------------ output */

void
fx_script_write_stdout (FxScript *S, const char *text, gssize len)
{
  gsize n = len < 0 ? strlen (text) : (gsize) len;
  if (S->out)
    S->out (text, n, S->out_data);
  else
    fwrite (text, 1, n, stdout);
}

void
fx_script_write_stderr (FxScript *S, const char *text, gssize len)
{
  gsize n = len < 0 ? strlen (text) : (gsize) len;
  if (S->err)
    S->err (text, n, S->out_data);
  else
    {
      /* keep the order of interleaved output, as an unbuffered stderr does */
      fflush (stdout);
      fwrite (text, 1, n, stderr);
      fflush (stderr);
    }
}

void
fx_script_set_output (FxScript *S, FxScriptWriteFunc out, FxScriptWriteFunc err, gpointer user_data)
{
  S->out = out;
  S->err = err;
  S->out_data = user_data;
}

/* ------------------------------------------------------------------ sys */

static const char *const version_fields[] = { "major", "minor", "micro", "releaselevel", "serial" };
static const FxTupleType version_info_type = { "sys.version_info", 5, version_fields };
static const char *const float_info_fields[] = {
  "max", "max_exp", "max_10_exp", "min", "min_exp", "min_10_exp", "dig", "mant_dig", "epsilon",
  "radix", "rounds",
};
static const FxTupleType float_info_type = { "sys.float_info", 11, float_info_fields };

static gboolean
stream_write (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  ScInstance *inst = n > 0 ? sc_value_instance (&args[0]) : NULL;
  (void) kwargs;
  (void) data;
  if (inst == NULL || n != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "write() takes exactly one argument (%d given)", MAX (n - 1, 0));
  if (args[1].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "write() argument must be str, not %s", sc_type_name (S, &args[1]));
  if (GPOINTER_TO_INT (inst->payload) == 2)
    fx_script_write_stderr (S, args[1].s->data, args[1].s->len);
  else
    fx_script_write_stdout (S, args[1].s->data, args[1].s->len);
  *result = fx_value_int (g_utf8_strlen (args[1].s->data, args[1].s->len));
  return TRUE;
}

static gboolean
stream_flush (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  (void) args;
  (void) n;
  (void) kwargs;
  (void) data;
  if (!S->out)
    fflush (stdout);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
stream_isatty (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  (void) S;
  (void) args;
  (void) n;
  (void) kwargs;
  (void) data;
  *result = fx_value_bool (FALSE);
  return TRUE;
}

static gboolean
sys_exit (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  FxSeq *a;
  (void) kwargs;
  (void) data;
  (void) result;
  if (n > 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "exit expected at most 1 argument, got %d", n);
  a = fx_seq_new (n);
  if (n)
    a->items[0] = fx_value_copy (&args[0]);
  return sc_raise_args (S, SC_T_SYSTEM_EXIT, fx_value_take_tuple (a));
}

static gboolean
sys_getrecursionlimit (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result,
                       gpointer data)
{
  (void) args;
  (void) kwargs;
  (void) data;
  if (n)
    return sc_raise (S, SC_T_TYPE_ERROR, "sys.getrecursionlimit() takes no arguments (%d given)", n);
  *result = fx_value_int (S->recursion_limit);
  return TRUE;
}

static gboolean
sys_setrecursionlimit (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result,
                       gpointer data)
{
  (void) kwargs;
  (void) data;
  if (n != 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "setrecursionlimit() takes exactly one argument (%d given)", n);
  if (args[0].kind != FX_VALUE_INT)
    return sc_raise (S, SC_T_TYPE_ERROR, "'%s' object cannot be interpreted as an integer",
                     sc_type_name (S, &args[0]));
  if (args[0].i < 1)
    return sc_raise (S, SC_T_VALUE_ERROR, "recursion limit must be greater or equal than 1");
  /* eval.c checks S->depth against it; the C stack guard still stops runs that go too deep */
  S->recursion_limit = (int) MIN (args[0].i, G_MAXINT);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
sys_exc_info (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  FxSeq *t = fx_seq_new (3);
  (void) args;
  (void) n;
  (void) kwargs;
  (void) data;
  if (S->handling.kind != FX_VALUE_NONE)
    {
      t->items[0] = sc_class_value (sc_type_of (S, &S->handling));
      t->items[1] = fx_value_copy (&S->handling);
    }
  *result = fx_value_take_tuple (t);
  return TRUE;
}

static gboolean
sys_intern (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  (void) kwargs;
  (void) data;
  if (n != 1 || args[0].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "intern() argument must be str");
  *result = sc_str_value (sc_intern (args[0].s->data, args[0].s->len));
  return TRUE;
}

static gboolean
structseq_field (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  int i = GPOINTER_TO_INT (data);
  (void) kwargs;
  if (n < 1 || args[0].kind != FX_VALUE_TUPLE || (guint) i >= args[0].seq->len)
    return sc_raise (S, SC_T_TYPE_ERROR, "descriptor needs a struct sequence");
  *result = fx_value_copy (&args[0].seq->items[i]);
  return TRUE;
}

/* A class for sys's struct sequences (version_info, float_info): a tuple with named fields. */
static void
structseq_class (FxScript *S, const FxTupleType *type, const char *name)
{
  FxScriptClassInfo info = { .module = "sys", .name = name };
  FxScriptClass *cls = fx_script_class_new (S, &info, S->types[SC_T_TUPLE]);
  if (cls == NULL)
    return;
  for (int i = 0; i < type->n_fields; i++)
    fx_script_class_add_property (cls, type->fields[i], structseq_field, NULL, GINT_TO_POINTER (i));
  cls->tuple_type = type;
  fx_script_register_tuple_type (S, type, cls);
}

static FxValue
make_stream (FxScript *S, FxScriptClass *cls, int which)
{
  FxValue v = sc_instance_new (S, cls);
  ScInstance *inst = sc_value_instance (&v);
  inst->payload = GINT_TO_POINTER (which);
  inst->payload_free = NULL;
  sc_dict_set_str (sc_instance_dict (inst), "encoding", fx_value_str ("utf-8"));
  sc_dict_set_str (sc_instance_dict (inst), "name", fx_value_str (which == 2 ? "<stderr>" : "<stdout>"));
  return v;
}

static void
sys_module_init (FxScript *S)
{
  FxScriptModule *m = sc_module_new (S, "sys");
  FxDict *d = m->dict;
  FxScriptClass *stream;
  gboolean ok;
  FxDict *ns = fx_dict_new ();
  FxSeq *vi = fx_seq_new (5), *fi = fx_seq_new (11);

  sc_dict_set_str (ns, "__module__", fx_value_str ("_io"));
  stream = sc_class_new (S, "_io", "TextIOWrapper", NULL, 0, ns, &ok);
  fx_dict_unref (ns);
  sc_add_native (stream->dict, "TextIOWrapper", "write", SC_NATIVE_METHOD, stream_write, NULL);
  sc_add_native (stream->dict, "TextIOWrapper", "flush", SC_NATIVE_METHOD, stream_flush, NULL);
  sc_add_native (stream->dict, "TextIOWrapper", "isatty", SC_NATIVE_METHOD, stream_isatty, NULL);
  {
    FxValue out = make_stream (S, stream, 1), err = make_stream (S, stream, 2);
    sc_dict_set_str (d, "__stdout__", fx_value_copy (&out));
    sc_dict_set_str (d, "__stderr__", fx_value_copy (&err));
    sc_dict_set_str (d, "stdout", out);
    sc_dict_set_str (d, "stderr", err);
  }
  g_ptr_array_add (S->native_classes, stream);

  sc_dict_set_str (d, "argv", fx_value_copy (&S->argv));
  sc_dict_set_str (d, "path", fx_value_copy (&S->sys_path));
  sc_dict_set_str (d, "modules", fx_value_take_dict (fx_dict_ref (S->modules)));
  sc_dict_set_str (d, "platform", fx_value_str ("linux"));
  sc_dict_set_str (d, "byteorder", fx_value_str (G_BYTE_ORDER == G_LITTLE_ENDIAN ? "little" : "big"));
  sc_dict_set_str (d, "executable", fx_value_str (""));
  sc_dict_set_str (d, "version", fx_value_str ("3.11.7 (fx)"));
  sc_dict_set_str (d, "hexversion", fx_value_int (0x030b07f0));
  sc_dict_set_str (d, "maxsize", fx_value_int (G_MAXINT64));
  sc_dict_set_str (d, "warnoptions", fx_value_take_list (fx_seq_new (0)));
  vi->type = &version_info_type;
  vi->items[0] = fx_value_int (3);
  vi->items[1] = fx_value_int (11);
  vi->items[2] = fx_value_int (7);
  vi->items[3] = fx_value_str ("final");
  vi->items[4] = fx_value_int (0);
  sc_dict_set_str (d, "version_info", fx_value_take_tuple (vi));
  fi->type = &float_info_type;
  fi->items[0] = fx_value_float (G_MAXDOUBLE);
  fi->items[1] = fx_value_int (DBL_MAX_EXP);
  fi->items[2] = fx_value_int (DBL_MAX_10_EXP);
  fi->items[3] = fx_value_float (G_MINDOUBLE);
  fi->items[4] = fx_value_int (DBL_MIN_EXP);
  fi->items[5] = fx_value_int (DBL_MIN_10_EXP);
  fi->items[6] = fx_value_int (DBL_DIG);
  fi->items[7] = fx_value_int (DBL_MANT_DIG);
  fi->items[8] = fx_value_float (DBL_EPSILON);
  fi->items[9] = fx_value_int (FLT_RADIX);
  fi->items[10] = fx_value_int (1);
  sc_dict_set_str (d, "float_info", fx_value_take_tuple (fi));
  structseq_class (S, &version_info_type, "version_info");
  structseq_class (S, &float_info_type, "float_info");
  sc_add_native (d, "sys", "exit", SC_NATIVE_FUNCTION, sys_exit, NULL);
  sc_add_native (d, "sys", "getrecursionlimit", SC_NATIVE_FUNCTION, sys_getrecursionlimit, NULL);
  sc_add_native (d, "sys", "setrecursionlimit", SC_NATIVE_FUNCTION, sys_setrecursionlimit, NULL);
  sc_add_native (d, "sys", "exc_info", SC_NATIVE_FUNCTION, sys_exc_info, NULL);
  sc_add_native (d, "sys", "intern", SC_NATIVE_FUNCTION, sys_intern, NULL);
  sc_dict_set_str (S->modules, "sys", fx_value_take_object (&m->base));
}

static void
builtins_module_init (FxScript *S)
{
  FxScriptModule *m = sc_module_new (S, "builtins");
  fx_dict_unref (m->dict);
  m->dict = fx_dict_ref (S->builtins);
  if (!sc_dict_get_str (S->builtins, sc_n.name))
    sc_dict_set_str (S->builtins, "__name__", fx_value_str ("builtins"));
  sc_dict_set_str (S->modules, "builtins", fx_value_take_object (&m->base));
}

/* ------------------------------------------------------------------ lifecycle */

static void
native_module_free (gpointer p)
{
  ScNativeModule *nm = p;
  if (nm->destroy)
    nm->destroy (nm->data);
  g_free (nm->name);
  g_free (nm);
}

/* Frees classes and modules held in the interpreter's arrays and tables. */
static void
class_unref (gpointer p)
{
  fx_object_unref (p);
}

FxScript *
fx_script_new (void)
{
  FxScript *S = g_new0 (FxScript, 1);
  FxScript *prev;

  sc_names_init ();
  S->exc = fx_value_none ();
  S->handling = fx_value_none ();
  S->none_notimpl = fx_value_none ();
  S->builtins = fx_dict_new ();
  S->modules = fx_dict_new ();
  S->native_modules = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, native_module_free);
  S->exceptions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, class_unref);
  S->tuple_classes = g_hash_table_new_full (NULL, NULL, NULL, class_unref);
  S->object_classes = g_hash_table_new_full (NULL, NULL, NULL, class_unref);
  S->importing = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  S->warned = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  S->repr_stack = g_ptr_array_new ();
  S->native_classes = g_ptr_array_new_with_free_func (class_unref);
  S->failed_modules = g_ptr_array_new_with_free_func (class_unref);
  S->argv = fx_value_take_list (fx_seq_new (0));
  S->sys_path = fx_value_take_list (fx_seq_new (0));
  S->recursion_limit = SC_RECURSION_LIMIT;
  S->type_version = 1;

  prev = enter (S);
  sc_types_init (S);
  sys_module_init (S);
  builtins_module_init (S);
  if (S->exc.kind != FX_VALUE_NONE)
    {
      /* an init function failed: report it, the interpreter still works */
      g_autofree char *msg = fx_script_format_exception (S);
      g_warning ("fx_script_new: %s", msg);
      sc_clear_exc (S);
    }
  leave (prev);
  return S;
}

/* Teardown: modules, classes, functions and instances refer to each other in cycles
 * (a function's globals hold the function; a method's __class__ cell holds its class), so
 * everything reachable from the interpreter is emptied before the references drop. */
typedef struct {
  GHashTable *seen;      /* FxObject* / containers → strong ref held in `clear` */
  GPtrArray *stack;      /* FxValue* to visit (borrowed, inside seen objects) */
  GPtrArray *clear;      /* FxObject* to empty (strong refs) */
  GPtrArray *containers; /* boxed class/cell values pushed on the stack (freed at the end) */
  GPtrArray *lists;      /* FxSeq* of list values (strong), emptied too */
  GPtrArray *dicts;      /* FxDict* of dict values (strong), emptied too */
} Teardown;

static void
td_push_value (Teardown *T, const FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_OBJECT:
    case FX_VALUE_LIST:
    case FX_VALUE_TUPLE:
    case FX_VALUE_DICT:
      g_ptr_array_add (T->stack, (gpointer) v);
      break;
    default:
      break;
    }
}

static void
td_push_dict (Teardown *T, FxDict *d)
{
  const FxValue *k, *v;
  if (d == NULL || !g_hash_table_add (T->seen, d))
    return;
  for (guint i = 0; fx_dict_entry (d, i, &k, &v); i++)
    {
      td_push_value (T, k);
      td_push_value (T, v);
    }
}

static void
td_walk (Teardown *T)
{
  while (T->stack->len)
    {
      const FxValue *v = g_ptr_array_steal_index (T->stack, T->stack->len - 1);
      if (v->kind == FX_VALUE_LIST || v->kind == FX_VALUE_TUPLE)
        {
          if (!g_hash_table_add (T->seen, v->seq))
            continue;
          if (v->kind == FX_VALUE_LIST)
            g_ptr_array_add (T->lists, fx_seq_ref (v->seq));
          for (guint i = 0; i < v->seq->len; i++)
            td_push_value (T, &v->seq->items[i]);
          continue;
        }
      if (v->kind == FX_VALUE_DICT)
        {
          if (!g_hash_table_contains (T->seen, v->dict))
            g_ptr_array_add (T->dicts, fx_dict_ref (v->dict));
          td_push_dict (T, v->dict);
          continue;
        }
      {
        FxObject *o = v->obj;
        const FxObjectClass *k = o->klass;
        if (!g_hash_table_add (T->seen, o))
          continue;
        if (k == &sc_module_klass)
          {
            g_ptr_array_add (T->clear, fx_object_ref (o));
            td_push_dict (T, ((FxScriptModule *) o)->dict);
            td_push_value (T, &((FxScriptModule *) o)->getattr);
          }
        else if (k == &sc_class_klass)
          {
            FxScriptClass *c = (FxScriptClass *) o;
            if (!(c->flags & SC_CLASS_BUILTIN))
              g_ptr_array_add (T->clear, fx_object_ref (o));
            td_push_dict (T, c->dict);
          }
        else if (k == &sc_instance_klass)
          {
            ScInstance *inst = (ScInstance *) o;
            g_ptr_array_add (T->clear, fx_object_ref (o));
            td_push_dict (T, inst->dict);
            {
              FxValue c = { .kind = FX_VALUE_OBJECT, .obj = &inst->cls->base };
              g_ptr_array_add (T->stack, g_memdup2 (&c, sizeof c));
              g_ptr_array_add (T->containers, T->stack->pdata[T->stack->len - 1]);
            }
          }
        else if (k == &sc_function_klass)
          {
            ScFunction *f = (ScFunction *) o;
            g_ptr_array_add (T->clear, fx_object_ref (o));
            td_push_dict (T, f->globals);
            td_push_dict (T, f->dict);
            for (int i = 0; i < f->n_defaults; i++)
              td_push_value (T, &f->defaults[i]);
            for (int i = 0; f->kwdefaults && i < f->code->n_kwonly; i++)
              if (!sc_is_unbound (&f->kwdefaults[i]))
                td_push_value (T, &f->kwdefaults[i]);
            for (int i = 0; i < f->n_closure; i++)
              {
                FxValue c = { .kind = FX_VALUE_OBJECT, .obj = &f->closure[i]->base };
                g_ptr_array_add (T->stack, g_memdup2 (&c, sizeof c));
                g_ptr_array_add (T->containers, T->stack->pdata[T->stack->len - 1]);
              }
          }
        else if (k == &sc_cell_klass)
          {
            ScCell *c = (ScCell *) o;
            g_ptr_array_add (T->clear, fx_object_ref (o));
            if (!sc_is_unbound (&c->value))
              td_push_value (T, &c->value);
          }
        else if (k == &sc_method_klass)
          {
            td_push_value (T, &((ScMethod *) o)->func);
            td_push_value (T, &((ScMethod *) o)->self);
          }
        else if (k == &sc_property_klass)
          {
            td_push_value (T, &((ScProperty *) o)->fget);
            td_push_value (T, &((ScProperty *) o)->fset);
            td_push_value (T, &((ScProperty *) o)->fdel);
          }
        else if (k == &sc_staticmethod_klass || k == &sc_classmethod_klass)
          td_push_value (T, &((ScWrapper *) o)->func);
        else if (k == &sc_partial_klass)
          {
            ScPartial *p = (ScPartial *) o;
            td_push_value (T, &p->func);
            for (int i = 0; i < p->n_args; i++)
              td_push_value (T, &p->args[i]);
            td_push_dict (T, p->kwargs);
          }
        else if (k == &sc_set_klass || k == &sc_frozenset_klass)
          td_push_dict (T, ((ScSet *) o)->d);
      }
    }
}

/* Removes every entry of d; the values die after d is empty. */
void
sc_dict_empty (FxDict *d)
{
  GArray *keys;
  const FxValue *k;
  if (d == NULL || fx_dict_len (d) == 0)
    return;
  keys = g_array_new (FALSE, FALSE, sizeof (FxValue));
  g_array_set_clear_func (keys, (GDestroyNotify) fx_value_clear);
  for (guint i = 0; fx_dict_entry (d, i, &k, NULL); i++)
    {
      FxValue c = fx_value_copy (k);
      g_array_append_val (keys, c);
    }
  for (guint i = 0; i < keys->len; i++)
    {
      FxValue *key = &g_array_index (keys, FxValue, i);
      FxValue *val = fx_dict_get (d, key);
      if (val)
        {
          /* drop the value after it left the dict (its finalizer may look at d) */
          FxValue hold = fx_value_copy (val);
          fx_dict_remove (d, key);
          fx_value_clear (&hold);
        }
    }
  g_array_free (keys, TRUE);
}

static void
td_clear (FxObject *o)
{
  const FxObjectClass *k = o->klass;
  if (k == &sc_module_klass)
    sc_dict_empty (((FxScriptModule *) o)->dict);
  else if (k == &sc_class_klass)
    {
      sc_dict_empty (((FxScriptClass *) o)->dict);
      sc_type_cache_clear (((FxScriptClass *) o)->cache);
    }
  else if (k == &sc_instance_klass)
    sc_dict_empty (((ScInstance *) o)->dict);
  else if (k == &sc_function_klass)
    {
      ScFunction *f = (ScFunction *) o;
      sc_dict_empty (f->dict);
      for (int i = 0; i < f->n_defaults; i++)
        {
          FxValue hold = f->defaults[i];
          f->defaults[i] = fx_value_none ();
          fx_value_clear (&hold);
        }
    }
  else if (k == &sc_cell_klass)
    {
      ScCell *c = (ScCell *) o;
      FxValue hold = c->value;
      c->value = sc_unbound ();
      if (!sc_is_unbound (&hold))
        fx_value_clear (&hold);
    }
}

static void
break_cycles (FxScript *S)
{
  Teardown T;
  FxValue mods = { .kind = FX_VALUE_DICT, .dict = S->modules };
  FxValue bi = { .kind = FX_VALUE_DICT, .dict = S->builtins };
  T.seen = g_hash_table_new (NULL, NULL);
  T.stack = g_ptr_array_new ();
  T.clear = g_ptr_array_new ();
  T.containers = g_ptr_array_new_with_free_func (g_free);
  T.lists = g_ptr_array_new ();
  T.dicts = g_ptr_array_new ();
  td_push_value (&T, &mods);
  td_push_value (&T, &bi);
  for (guint i = 0; i < S->native_classes->len; i++)
    {
      FxValue c = { .kind = FX_VALUE_OBJECT, .obj = S->native_classes->pdata[i] };
      g_ptr_array_add (T.stack, g_memdup2 (&c, sizeof c));
      g_ptr_array_add (T.containers, T.stack->pdata[T.stack->len - 1]);
    }
  for (guint i = 0; i < S->failed_modules->len; i++)
    {
      FxValue c = { .kind = FX_VALUE_OBJECT, .obj = S->failed_modules->pdata[i] };
      g_ptr_array_add (T.stack, g_memdup2 (&c, sizeof c));
      g_ptr_array_add (T.containers, T.stack->pdata[T.stack->len - 1]);
    }
  td_walk (&T);
  for (guint i = 0; i < T.clear->len; i++)
    td_clear (T.clear->pdata[i]);
  /* lists and dicts reachable from the modules can hold cycles too (l.append(l)) */
  for (guint i = 0; i < T.lists->len; i++)
    {
      FxSeq *seq = T.lists->pdata[i];
      while (seq->len)
        {
          FxValue hold = seq->items[--seq->len];
          fx_value_clear (&hold);
        }
    }
  for (guint i = 0; i < T.dicts->len; i++)
    sc_dict_empty (T.dicts->pdata[i]);
  for (guint i = 0; i < T.clear->len; i++)
    fx_object_unref (T.clear->pdata[i]);
  for (guint i = 0; i < T.lists->len; i++)
    fx_seq_unref (T.lists->pdata[i]);
  for (guint i = 0; i < T.dicts->len; i++)
    fx_dict_unref (T.dicts->pdata[i]);
  g_ptr_array_free (T.lists, TRUE);
  g_ptr_array_free (T.dicts, TRUE);
  g_ptr_array_free (T.clear, TRUE);
  g_ptr_array_free (T.stack, TRUE);
  g_ptr_array_free (T.containers, TRUE);
  g_hash_table_destroy (T.seen);
}

void
fx_script_free (FxScript *S)
{
  FxScript *prev;
  if (S == NULL)
    return;
  prev = enter (S);
  sc_clear_exc (S);
  fx_value_clear (&S->handling);
  sc_generators_teardown (S, TRUE);   /* finally blocks of unfinished generators */
  break_cycles (S);
  sc_dict_empty (S->modules);
  fx_dict_unref (S->modules);
  S->modules = NULL;
  g_hash_table_destroy (S->native_modules);
  g_hash_table_destroy (S->exceptions);
  for (int i = 0; i <= FX_VALUE_OBJECT; i++)
    if (S->kind_classes[i])
      fx_object_unref (&S->kind_classes[i]->base);
  g_hash_table_destroy (S->tuple_classes);
  g_hash_table_destroy (S->object_classes);
  g_ptr_array_free (S->native_classes, TRUE);
  g_ptr_array_free (S->failed_modules, TRUE);
  sc_dict_empty (S->builtins);
  fx_dict_unref (S->builtins);
  S->builtins = NULL;
  fx_value_clear (&S->argv);
  fx_value_clear (&S->sys_path);
  sc_types_clear (S);
  sc_clear_exc (S);
  g_hash_table_destroy (S->importing);
  g_hash_table_destroy (S->warned);
  g_ptr_array_free (S->repr_stack, TRUE);
  if (S->stdout_buf)
    g_string_free (S->stdout_buf, TRUE);
  sc_generators_teardown (S, FALSE);
  leave (prev == S ? NULL : prev);
  g_free (S);
}

void
fx_script_set_argv (FxScript *S, int argc, const char *const *argv)
{
  FxSeq *seq = S->argv.seq;
  while (seq->len)
    fx_value_clear (&seq->items[--seq->len]);
  for (int i = 0; i < argc; i++)
    fx_seq_append (seq, fx_value_str (argv[i]));
}

/* ------------------------------------------------------------------ running */

static FxScriptModule *
module_for (FxScript *S, const char *name)
{
  FxValue *v = sc_dict_get_str (S->modules, sc_intern_cstr (name));
  FxScriptModule *m;
  if (v && sc_is_klass (v, &sc_module_klass))
    return (FxScriptModule *) v->obj;
  m = sc_module_new (S, name);
  sc_dict_set_str (m->dict, "__package__", fx_value_none ());
  sc_dict_set_str (m->dict, "__spec__", fx_value_none ());
  sc_dict_set_str (m->dict, "__loader__", fx_value_none ());
  sc_dict_set_str (S->modules, name, fx_value_take_object (&m->base));
  return m;
}

static gboolean
raise_syntax_error (FxScript *S, ScSyntaxError *err, const char *filename, const char *source, gsize len)
{
  FxValue exc = sc_syntax_error_value (S, err, filename, source, len);
  sc_syntax_error_clear (err);
  return sc_raise_instance (S, exc, FALSE);
}

/* Compiles and runs source in module m's namespace. */
static gboolean
exec_source (FxScript *S, FxScriptModule *m, const char *source, gsize len, const char *filename)
{
  ScSyntaxError err = { 0 };
  ScUnit *unit = sc_compile (filename, source, len, &err);
  FxValue out;
  gboolean ok;
  if (unit == NULL)
    return raise_syntax_error (S, &err, filename, source, len);
  ok = sc_run_code (S, unit->module, m->dict, NULL, NULL, &out);
  if (ok)
    fx_value_clear (&out);
  sc_unit_unref (unit);
  return ok;
}

gboolean
fx_script_run_string (FxScript *S, const char *source, const char *filename, const char *module_name)
{
  FxScript *prev = enter (S);
  FxScriptModule *m = module_for (S, module_name ? module_name : "__main__");
  gboolean ok;
  FxValue hold = fx_value_take_object (fx_object_ref (&m->base));
  ok = exec_source (S, m, source, strlen (source), filename ? filename : "<string>");
  fx_value_clear (&hold);
  leave (prev);
  return ok;
}

static gboolean
raise_os_error (FxScript *S, int err_no, const char *filename)
{
  int id = err_no == ENOENT ? SC_T_FILE_NOT_FOUND_ERROR : err_no == EACCES ? SC_T_PERMISSION_ERROR
           : err_no == EISDIR ? SC_T_IS_A_DIRECTORY_ERROR : SC_T_OS_ERROR;
  FxSeq *args = fx_seq_new (2);
  FxValue exc;
  args->items[0] = fx_value_int (err_no);
  args->items[1] = fx_value_str (g_strerror (err_no));
  exc = sc_exc_new (S, S->types[id], fx_value_take_tuple (args));
  sc_dict_set_str (sc_instance_dict (sc_value_instance (&exc)), "filename", fx_value_str (filename));
  sc_dict_set_str (sc_instance_dict (sc_value_instance (&exc)), "errno", fx_value_int (err_no));
  sc_dict_set_str (sc_instance_dict (sc_value_instance (&exc)), "strerror", fx_value_str (g_strerror (err_no)));
  return sc_raise_instance (S, exc, FALSE);
}

static gboolean
read_source (FxScript *S, const char *path, char **contents, gsize *len)
{
  GError *error = NULL;
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    return raise_os_error (S, EISDIR, path);
  if (!g_file_get_contents (path, contents, len, &error))
    {
      int e = error->domain == G_FILE_ERROR && error->code == G_FILE_ERROR_NOENT ? ENOENT
              : error->domain == G_FILE_ERROR && error->code == G_FILE_ERROR_ACCES ? EACCES : EIO;
      g_error_free (error);
      return raise_os_error (S, e, path);
    }
  return TRUE;
}

gboolean
fx_script_run_file (FxScript *S, const char *path)
{
  FxScript *prev = enter (S);
  char *source = NULL;
  gsize len = 0;
  gboolean ok = FALSE;

  if (read_source (S, path, &source, &len))
    {
      FxScriptModule *m = module_for (S, "__main__");
      FxValue hold = fx_value_take_object (fx_object_ref (&m->base));
      FxSeq *sp = S->sys_path.seq;
      /* CPython shows the main script by its absolute path (__file__, tracebacks) */
      g_autofree char *file = g_canonicalize_filename (path, NULL);
      g_autofree char *abs = g_path_get_dirname (file);
      /* sys.path[0] is the script's directory */
      if (sp->len == 0 || sp->items[0].kind != FX_VALUE_STR || strcmp (sp->items[0].s->data, abs) != 0)
        {
          fx_seq_append (sp, fx_value_none ());
          memmove (sp->items + 1, sp->items, sizeof (FxValue) * (sp->len - 1));
          sp->items[0] = fx_value_str (abs);
        }
      sc_dict_set_str (m->dict, "__file__", fx_value_str (file));
      g_free (m->file);
      m->file = g_strdup (file);
      ok = exec_source (S, m, source, len, file);
      fx_value_clear (&hold);
      g_free (source);
    }
  leave (prev);
  return ok;
}

/* SystemExit's code as an exit status, printing a non-integer code as CPython does. */
static int
system_exit_status (FxScript *S)
{
  FxValue exc = sc_take_exc (S);
  ScExcData *d = sc_exc_data (&exc);
  const FxValue *code = NULL;
  int status = 0;
  if (d && d->args.kind == FX_VALUE_TUPLE && d->args.seq->len == 1)
    code = &d->args.seq->items[0];
  else if (d && d->args.kind == FX_VALUE_TUPLE && d->args.seq->len > 1)
    code = &d->args;
  if (code == NULL || code->kind == FX_VALUE_NONE)
    status = 0;
  else if (code->kind == FX_VALUE_INT || code->kind == FX_VALUE_BOOL)
    status = (int) ((code->kind == FX_VALUE_BOOL ? code->b : code->i) & 0xff);
  else
    {
      GString *s = g_string_new (NULL);
      if (!sc_str (S, code, s))
        sc_clear_exc (S);
      g_string_append_c (s, '\n');
      fx_script_write_stderr (S, s->str, s->len);
      g_string_free (s, TRUE);
      status = 1;
    }
  fx_value_clear (&exc);
  return status;
}

int
fx_script_main (FxScript *S, const char *path, int argc, const char *const *argv)
{
  FxScript *prev = enter (S);
  int status = 0;
  if (argc > 0 && argv)
    fx_script_set_argv (S, argc, argv);
  else
    fx_script_set_argv (S, 1, &path);
  if (!g_file_test (path, G_FILE_TEST_EXISTS) || g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *abs = g_canonicalize_filename (path, NULL);
      g_autofree char *msg = g_strdup_printf ("fx: can't open file '%s': [Errno %d] %s\n", abs,
                                              g_file_test (path, G_FILE_TEST_IS_DIR) ? EISDIR : ENOENT,
                                              g_strerror (g_file_test (path, G_FILE_TEST_IS_DIR) ? EISDIR : ENOENT));
      fx_script_write_stderr (S, msg, -1);
      leave (prev);
      return 2;
    }
  {
    /* $PYTHONPATH after the script's directory (which run_file puts first) */
    const char *pp = g_getenv ("PYTHONPATH");
    if (pp && *pp)
      {
        g_auto (GStrv) parts = g_strsplit (pp, G_SEARCHPATH_SEPARATOR_S, -1);
        for (int i = 0; parts[i]; i++)
          if (*parts[i])
            fx_seq_append (S->sys_path.seq, fx_value_str (parts[i]));
      }
  }
  if (!fx_script_run_file (S, path))
    {
      if (sc_matches (S, SC_T_SYSTEM_EXIT))
        status = system_exit_status (S);
      else
        {
          fx_script_print_exception (S);
          status = 1;
        }
    }
  if (!S->out)
    fflush (stdout);
  leave (prev);
  return status;
}

/* ------------------------------------------------------------------ exceptions */

static FxScriptClass *
exception_class (FxScript *S, const char *name)
{
  FxValue *v = sc_dict_get_str (S->builtins, sc_intern_cstr (name));
  FxScriptClass *cls = v ? sc_value_class (v) : NULL;
  if (cls && (cls->flags & SC_CLASS_EXCEPTION))
    return cls;
  return g_hash_table_lookup (S->exceptions, name);
}

static gboolean
raise_message (FxScript *S, FxScriptClass *cls, char *msg)
{
  FxSeq *args = fx_seq_new (1);
  args->items[0] = fx_value_take_str (fx_str_new (msg));
  g_free (msg);
  return sc_raise_instance (S, sc_exc_new (S, cls, fx_value_take_tuple (args)), TRUE);
}

gboolean
fx_script_raise (FxScript *S, const char *class_name, const char *format, ...)
{
  FxScriptClass *cls = exception_class (S, class_name);
  va_list ap;
  char *msg;
  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  if (cls == NULL)
    cls = S->types[SC_T_RUNTIME_ERROR];
  return raise_message (S, cls, msg);
}

gboolean
fx_script_raise_class (FxScript *S, FxScriptClass *cls, const char *format, ...)
{
  va_list ap;
  char *msg;
  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  if (cls == NULL || !(cls->flags & SC_CLASS_EXCEPTION))
    {
      g_free (msg);
      return sc_raise (S, SC_T_TYPE_ERROR, "exceptions must derive from BaseException");
    }
  return raise_message (S, cls, msg);
}

gboolean
fx_script_raise_value (FxScript *S, const FxValue *exc)
{
  FxScriptClass *cls = sc_value_class (exc);
  if (cls && (cls->flags & SC_CLASS_EXCEPTION))
    {
      FxValue inst;
      if (!sc_call0 (S, exc, &inst))
        return FALSE;
      return sc_raise_instance (S, inst, TRUE);
    }
  if (sc_exc_data (exc) || sc_isinstance_id (S, exc, SC_T_BASE_EXCEPTION))
    return sc_raise_instance (S, fx_value_copy (exc), TRUE);
  return sc_raise (S, SC_T_TYPE_ERROR, "exceptions must derive from BaseException");
}

gboolean
fx_script_raise_gerror (FxScript *S, const GError *error)
{
  return sc_raise_gerror (S, error);
}

gboolean
fx_script_exception_pending (FxScript *S)
{
  return S->exc.kind != FX_VALUE_NONE;
}

gboolean
fx_script_exception_matches (FxScript *S, const char *class_name)
{
  FxScriptClass *cls = exception_class (S, class_name);
  return cls && S->exc.kind != FX_VALUE_NONE && sc_isinstance (S, &S->exc, cls);
}

FxValue
fx_script_get_exception (FxScript *S)
{
  return fx_value_copy (&S->exc);
}

void
fx_script_clear_exception (FxScript *S)
{
  sc_clear_exc (S);
}

void
fx_script_exception_to_gerror (FxScript *S, GError **error)
{
  FxValue exc = sc_take_exc (S);
  FxScriptClass *cls;
  int code = FX_ERROR_FAILED;
  gboolean found = FALSE;
  GString *tmp, *text;
  const char *msg;

  if (exc.kind == FX_VALUE_NONE)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "no exception pending");
      return;
    }
  cls = sc_type_of (S, &exc);
  for (int i = 0; i < cls->n_mro && !found; i++)
    for (int c = FX_ERROR_INVALID_ARGUMENT; c <= FX_ERROR_OVERFLOW; c++)
      if (strcmp (fx_error_code_python_name ((FxErrorCode) c), cls->mro[i]->name->data) == 0
          && strcmp (cls->mro[i]->name->data, "RuntimeError") != 0)
        {
          code = c;
          found = TRUE;
          break;
        }
  tmp = g_string_new (NULL);
  text = g_string_new (cls->name->data);
  msg = sc_exc_message (S, &exc, tmp);
  sc_clear_exc (S);
  if (msg && *msg)
    g_string_append_printf (text, ": %s", msg);
  g_set_error_literal (error, FX_ERROR, code, text->str);
  g_string_free (tmp, TRUE);
  g_string_free (text, TRUE);
  fx_value_clear (&exc);
}

char *
fx_script_format_exception (FxScript *S)
{
  GString *out = g_string_new (NULL);
  FxValue exc;
  if (S->exc.kind == FX_VALUE_NONE)
    return g_string_free (out, FALSE);
  exc = fx_value_copy (&S->exc);
  sc_format_exception (S, &exc, out);
  fx_value_clear (&exc);
  return g_string_free (out, FALSE);
}

void
fx_script_print_exception (FxScript *S)
{
  FxScript *prev = enter (S);
  char *text = fx_script_format_exception (S);
  sc_clear_exc (S);
  fx_script_write_stderr (S, text, -1);
  g_free (text);
  leave (prev);
}

void
fx_script_register_exception (FxScript *S, FxScriptClass *cls)
{
  g_hash_table_replace (S->exceptions, g_strdup (cls->name->data), fx_object_ref (&cls->base));
}

/* ------------------------------------------------------------------ natives */

FxValue
fx_script_function_new (const char *module, const char *name, FxScriptFunc func, gpointer user_data,
                        GDestroyNotify destroy)
{
  sc_names_init ();
  return sc_native_new (module, name, SC_NATIVE_FUNCTION, func, user_data, destroy);
}

gboolean
fx_script_parse_args (FxScript *S, const char *fname, const FxValue *args, int n_args, FxDict *kwargs,
                      const char *const *names, int n_names, int n_positional, int n_required,
                      const FxValue **out)
{
  const FxValue *k, *v;
  for (int i = 0; i < n_names; i++)
    out[i] = NULL;
  if (n_args > n_positional)
    {
      if (n_positional == 0)
        return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes no positional arguments", fname);
      if (n_required == n_positional)
        return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes exactly %d positional argument%s (%d given)",
                         fname, n_positional, n_positional == 1 ? "" : "s", n_args);
      return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes at most %d positional argument%s (%d given)",
                       fname, n_positional, n_positional == 1 ? "" : "s", n_args);
    }
  for (int i = 0; i < n_args; i++)
    out[i] = &args[i];
  for (guint i = 0; kwargs && fx_dict_entry (kwargs, i, &k, &v); i++)
    {
      int j;
      if (k->kind != FX_VALUE_STR)
        return sc_raise (S, SC_T_TYPE_ERROR, "keywords must be strings");
      for (j = 0; j < n_names; j++)
        if (strcmp (names[j], k->s->data) == 0)
          break;
      if (j == n_names)
        return sc_raise (S, SC_T_TYPE_ERROR, "%s() got an unexpected keyword argument '%s'", fname,
                         k->s->data);
      if (out[j])
        {
          if (j < n_args)
            return sc_raise (S, SC_T_TYPE_ERROR, "argument for %s() given by name ('%s') and position (%d)",
                             fname, names[j], j + 1);
          return sc_raise (S, SC_T_TYPE_ERROR, "%s() got multiple values for argument '%s'", fname, names[j]);
        }
      out[j] = v;
    }
  for (int i = 0; i < n_required; i++)
    if (out[i] == NULL)
      {
        if (i < n_positional)
          return sc_raise (S, SC_T_TYPE_ERROR, "%s() missing required argument '%s' (pos %d)", fname,
                           names[i], i + 1);
        return sc_raise (S, SC_T_TYPE_ERROR, "%s() missing required keyword-only argument '%s'", fname,
                         names[i]);
      }
  return TRUE;
}

gboolean
fx_script_to_int (FxScript *S, const FxValue *v, int64_t *out)
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
  return sc_index (S, v, out);
}

gboolean
fx_script_to_float (FxScript *S, const FxValue *v, double *out)
{
  switch (v->kind)
    {
    case FX_VALUE_FLOAT: *out = v->f; return TRUE;
    case FX_VALUE_INT: *out = (double) v->i; return TRUE;
    case FX_VALUE_BOOL: *out = v->b; return TRUE;
    default:
      {
        FxValue r;
        int got = sc_call_special (S, v, "__float__", NULL, 0, &r);
        if (got < 0)
          return FALSE;
        if (got > 0)
          {
            gboolean ok = r.kind == FX_VALUE_FLOAT;
            if (ok)
              *out = r.f;
            else
              sc_raise (S, SC_T_TYPE_ERROR, "%s.__float__ returned non-float (type %s)",
                        sc_type_name (S, v), sc_type_name (S, &r));
            fx_value_clear (&r);
            return ok;
          }
        {
          int64_t i;
          if (sc_special_lookup (S, v, "__index__") && sc_index (S, v, &i))
            {
              *out = (double) i;
              return TRUE;
            }
        }
        if (S->exc.kind != FX_VALUE_NONE)
          return FALSE;
        return sc_raise (S, SC_T_TYPE_ERROR, "must be real number, not %s", sc_type_name (S, v));
      }
    }
}

gboolean
fx_script_to_bool (FxScript *S, const FxValue *v, gboolean *out)
{
  return sc_truth (S, v, out);
}

const char *
fx_script_to_str (FxScript *S, const FxValue *v)
{
  if (v->kind == FX_VALUE_STR)
    return v->s->data;
  sc_raise (S, SC_T_TYPE_ERROR, "expected str, got %s", sc_type_name (S, v));
  return NULL;
}

/* ------------------------------------------------------------------ imports */

void
fx_script_register_module (FxScript *S, const char *name, FxScriptModuleInit init, gpointer user_data,
                           GDestroyNotify destroy)
{
  ScNativeModule *nm = g_new0 (ScNativeModule, 1);
  nm->name = g_strdup (name);
  nm->init = init;
  nm->data = user_data;
  nm->destroy = destroy;
  g_hash_table_replace (S->native_modules, nm->name, nm);
}

static gboolean
raise_not_found (FxScript *S, const char *name)
{
  FxSeq *args = fx_seq_new (1);
  FxValue exc;
  {
    g_autofree char *msg = g_strdup_printf ("No module named '%s'", name);
    args->items[0] = fx_value_str (msg);
  }
  exc = sc_exc_new (S, S->types[SC_T_MODULE_NOT_FOUND_ERROR], fx_value_take_tuple (args));
  sc_dict_set_str (sc_instance_dict (sc_value_instance (&exc)), "name", fx_value_str (name));
  return sc_raise_instance (S, exc, TRUE);
}

static FxValue *
loaded_module (FxScript *S, const char *name)
{
  return sc_dict_get_str (S->modules, sc_intern_cstr (name));
}

/* The directories a module named `name` is searched in: its package's __path__ or sys.path. */
static GPtrArray *
search_dirs (FxScript *S, FxScriptModule *parent)
{
  GPtrArray *dirs = g_ptr_array_new_with_free_func (g_free);
  FxValue *path = parent ? sc_dict_get_str (parent->dict, sc_n.path) : &S->sys_path;
  if (path && (path->kind == FX_VALUE_LIST || path->kind == FX_VALUE_TUPLE))
    for (guint i = 0; i < path->seq->len; i++)
      if (path->seq->items[i].kind == FX_VALUE_STR)
        g_ptr_array_add (dirs, g_strdup (path->seq->items[i].s->data[0] ? path->seq->items[i].s->data : "."));
  return dirs;
}

/* A native module registered under name (it is a package then). */
static gboolean
has_native_submodules (FxScript *S, const char *name)
{
  GHashTableIter iter;
  gpointer key;
  gsize len = strlen (name);
  g_hash_table_iter_init (&iter, S->native_modules);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (strncmp (key, name, len) == 0 && ((const char *) key)[len] == '.')
      return TRUE;
  return FALSE;
}

/* Loads one module whose parent (if any) is loaded; takes the new module into sys.modules. */
static gboolean
load_module (FxScript *S, const char *name, FxScriptModule *parent)
{
  ScNativeModule *nm = g_hash_table_lookup (S->native_modules, name);
  const char *last = strrchr (name, '.');
  g_autoptr (GPtrArray) dirs = NULL;
  g_autofree char *file = NULL, *pkgdir = NULL, *nsdir = NULL;
  FxScriptModule *m;
  FxValue hold;
  gboolean ok;

  last = last ? last + 1 : name;
  if (nm)
    {
      m = sc_module_new (S, name);
      sc_dict_set_str (m->dict, "__package__", fx_value_str (parent ? parent->name->data : ""));
      sc_dict_set_str (m->dict, "__spec__", fx_value_none ());
      sc_dict_set_str (m->dict, "__loader__", fx_value_none ());
      hold = fx_value_take_object (&m->base);
      if (has_native_submodules (S, name))
        sc_dict_set_str (m->dict, "__path__", fx_value_take_list (fx_seq_new (0)));
      sc_dict_set_str (S->modules, name, fx_value_copy (&hold));
      ok = nm->init (S, m, nm->data);
      if (!ok)
        {
          FxValue key = fx_value_str (name);
          if (S->exc.kind == FX_VALUE_NONE)
            sc_raise (S, SC_T_IMPORT_ERROR, "initialization of %s failed", name);
          fx_dict_remove (S->modules, &key);
          fx_value_clear (&key);
        }
      fx_value_clear (&hold);
      return ok;
    }

  dirs = search_dirs (S, parent);
  for (guint i = 0; i < dirs->len && !file; i++)
    {
      g_autofree char *pkg = g_build_filename (dirs->pdata[i], last, NULL);
      g_autofree char *init = g_build_filename (pkg, "__init__.py", NULL);
      g_autofree char *py = g_strdup_printf ("%s.py", pkg);
      if (g_file_test (init, G_FILE_TEST_IS_REGULAR))
        {
          file = g_steal_pointer (&init);
          pkgdir = g_steal_pointer (&pkg);
        }
      else if (g_file_test (py, G_FILE_TEST_IS_REGULAR))
        file = g_steal_pointer (&py);
      else if (!nsdir && g_file_test (pkg, G_FILE_TEST_IS_DIR))
        nsdir = g_steal_pointer (&pkg);   /* a namespace package, unless a module comes later */
    }
  if (!file && !nsdir && has_native_submodules (S, name))
    {
      /* "a.b.c" registered without "a.b": an empty package in between */
      m = sc_module_new (S, name);
      sc_dict_set_str (m->dict, "__path__", fx_value_take_list (fx_seq_new (0)));
      sc_dict_set_str (m->dict, "__package__", fx_value_str (name));
      sc_dict_set_str (S->modules, name, fx_value_take_object (&m->base));
      return TRUE;
    }
  if (!file && !nsdir)
    {
      if (parent && !sc_dict_get_str (parent->dict, sc_n.path))
        {
          FxSeq *args = fx_seq_new (1);
          g_autofree char *msg = g_strdup_printf ("No module named '%s'; '%s' is not a package", name,
                                                  parent->name->data);
          FxValue exc;
          args->items[0] = fx_value_str (msg);
          exc = sc_exc_new (S, S->types[SC_T_MODULE_NOT_FOUND_ERROR], fx_value_take_tuple (args));
          sc_dict_set_str (sc_instance_dict (sc_value_instance (&exc)), "name", fx_value_str (name));
          return sc_raise_instance (S, exc, TRUE);
        }
      return raise_not_found (S, name);
    }

  m = sc_module_new (S, name);
  hold = fx_value_take_object (&m->base);
  sc_dict_set_str (m->dict, "__spec__", fx_value_none ());
  sc_dict_set_str (m->dict, "__loader__", fx_value_none ());
  if (file)
    {
      sc_dict_set_str (m->dict, "__file__", fx_value_str (file));
      m->file = g_strdup (file);
    }
  if (pkgdir || !file)
    {
      FxSeq *p = fx_seq_new (1);
      p->items[0] = fx_value_str (pkgdir ? pkgdir : nsdir);
      sc_dict_set_str (m->dict, "__path__", fx_value_take_list (p));
      sc_dict_set_str (m->dict, "__package__", fx_value_str (name));
    }
  else
    sc_dict_set_str (m->dict, "__package__", fx_value_str (parent ? parent->name->data : ""));
  sc_dict_set_str (S->modules, name, fx_value_copy (&hold));
  ok = TRUE;
  if (file)
    {
      char *source = NULL;
      gsize len = 0;
      ok = read_source (S, file, &source, &len) && exec_source (S, m, source, len, file);
      g_free (source);
      if (!ok)
        {
          FxValue key = fx_value_str (name);
          fx_dict_remove (S->modules, &key);
          fx_value_clear (&key);
          /* its functions may still hold its globals (and themselves through them) */
          g_ptr_array_add (S->failed_modules, fx_object_ref (&m->base));
        }
    }
  fx_value_clear (&hold);
  return ok;
}

gboolean
sc_import (FxScript *S, const char *name, FxValue *out)
{
  FxValue *v = loaded_module (S, name);
  FxScriptModule *parent = NULL;
  const char *p;

  if (v)
    {
      *out = fx_value_copy (v);
      return TRUE;
    }
  if (name[0] == '\0' || name[0] == '.' || name[strlen (name) - 1] == '.')
    return sc_raise (S, SC_T_VALUE_ERROR, "Empty module name");
  /* each prefix of a dotted name, left to right */
  for (p = name;; p++)
    {
      if (*p == '.' || *p == '\0')
        {
          g_autofree char *prefix = g_strndup (name, p - name);
          v = loaded_module (S, prefix);
          if (v == NULL)
            {
              if (!load_module (S, prefix, parent))
                return FALSE;
              v = loaded_module (S, prefix);
              if (v == NULL)
                return sc_raise (S, SC_T_IMPORT_ERROR, "loader of %s removed it from sys.modules", prefix);
              if (parent)
                {
                  /* bind the submodule as an attribute of its parent */
                  const char *dot = strrchr (prefix, '.');
                  sc_dict_set_str (parent->dict, dot + 1, fx_value_copy (v));
                }
            }
          parent = sc_is_klass (v, &sc_module_klass) ? (FxScriptModule *) v->obj : NULL;
          if (*p == '\0')
            break;
        }
    }
  *out = fx_value_copy (v);
  return TRUE;
}

gboolean
sc_import_from (FxScript *S, ScFrame *F, FxStr *module, int level, FxValue *out)
{
  FxValue *pkg;
  g_autofree char *base = NULL;
  g_autofree char *full = NULL;

  if (level == 0)
    return sc_import (S, module->data, out);
  pkg = F && F->globals ? sc_dict_get_str (F->globals, sc_n.package) : NULL;
  if (pkg == NULL || pkg->kind != FX_VALUE_STR || pkg->s->len == 0)
    return sc_raise (S, SC_T_IMPORT_ERROR, "attempted relative import with no known parent package");
  base = g_strdup (pkg->s->data);
  for (int i = 1; i < level; i++)
    {
      char *dot = strrchr (base, '.');
      if (dot == NULL)
        return sc_raise (S, SC_T_IMPORT_ERROR, "attempted relative import beyond top-level package");
      *dot = '\0';
    }
  full = module && module->len ? g_strdup_printf ("%s.%s", base, module->data) : g_strdup (base);
  return sc_import (S, full, out);
}

gboolean
fx_script_import (FxScript *S, const char *name, FxValue *module)
{
  FxScript *prev = enter (S);
  gboolean ok = sc_import (S, name, module);
  leave (prev);
  return ok;
}

const char *
fx_script_module_get_name (FxScriptModule *module)
{
  return module->name->data;
}

FxValue
fx_script_module_value (FxScriptModule *module)
{
  return fx_value_take_object (fx_object_ref (&module->base));
}

FxDict *
fx_script_module_dict (FxScriptModule *module)
{
  return module->dict;
}

void
fx_script_module_set (FxScriptModule *module, const char *name, FxValue value)
{
  sc_dict_set_str (module->dict, name, value);
}

FxValue *
fx_script_module_lookup (FxScriptModule *module, const char *name)
{
  return sc_dict_get_str (module->dict, sc_intern_cstr (name));
}

void
fx_script_module_add_function (FxScriptModule *module, const char *name, FxScriptFunc func,
                               gpointer user_data)
{
  sc_dict_set_str (module->dict, name,
                   sc_native_new (module->name->data, name, SC_NATIVE_FUNCTION, func, user_data, NULL));
}

void
fx_script_module_set_getattr (FxScriptModule *module, FxScriptFunc func, gpointer user_data)
{
  fx_value_clear (&module->getattr);
  module->getattr = sc_native_new (module->name->data, "__getattr__", SC_NATIVE_FUNCTION, func,
                                   user_data, NULL);
}

/* ------------------------------------------------------------------ classes */

FxScriptClass *
fx_script_class_new (FxScript *S, const FxScriptClassInfo *info, FxScriptClass *base)
{
  FxDict *ns = fx_dict_new ();
  FxScriptClass *cls;
  gboolean ok;
  FxValue saved = sc_take_exc (S);

  sc_dict_set_str (ns, "__module__", fx_value_str (info->module ? info->module : "builtins"));
  S->native_class_new = TRUE;
  cls = sc_class_new (S, info->module, info->name, base ? &base : NULL, base ? 1 : 0, ns, &ok);
  S->native_class_new = FALSE;
  fx_dict_unref (ns);
  if (!ok)
    {
      /* only a final base can fail here: a programming error of the embedder */
      g_autofree char *msg = fx_script_format_exception (S);
      g_critical ("fx_script_class_new (%s): %s", info->name, msg);
      sc_clear_exc (S);
      S->exc = saved;
      return NULL;
    }
  S->exc = saved;
  if (info->qualname)
    {
      fx_str_unref (cls->qualname);
      cls->qualname = fx_str_new (info->qualname);
    }
  cls->flags |= SC_CLASS_NATIVE;
  if (info->payload_new)
    {
      cls->payload_new = info->payload_new;
      cls->payload_free = info->payload_free;
      cls->class_data = info->class_data;
      cls->payload_class = cls;
      /* its instances are objects with this payload, made by __init__, even over a builtin
       * base (collections' mappings derive from dict): not the base's values */
      cls->construct = NULL;
    }
  g_ptr_array_add (S->native_classes, cls);
  sc_type_modified (S);
  return cls;
}

static void
class_add_native (FxScriptClass *cls, const char *name, ScNativeKind kind, FxScriptFunc func,
                  gpointer user_data)
{
  sc_dict_set_str (cls->dict, name, sc_native_new (cls->name->data, name, kind, func, user_data, NULL));
  sc_type_modified (cls->script);
}

void
fx_script_class_add_method (FxScriptClass *cls, const char *name, FxScriptFunc func, gpointer user_data)
{
  class_add_native (cls, name, SC_NATIVE_METHOD, func, user_data);
}

void
fx_script_class_add_classmethod (FxScriptClass *cls, const char *name, FxScriptFunc func,
                                 gpointer user_data)
{
  class_add_native (cls, name, SC_NATIVE_CLASSMETHOD, func, user_data);
}

void
fx_script_class_add_staticmethod (FxScriptClass *cls, const char *name, FxScriptFunc func,
                                  gpointer user_data)
{
  class_add_native (cls, name, SC_NATIVE_STATIC, func, user_data);
}

void
fx_script_class_add_property (FxScriptClass *cls, const char *name, FxScriptFunc getter,
                              FxScriptFunc setter, gpointer user_data)
{
  ScProperty *p = g_new0 (ScProperty, 1);
  fx_object_init (&p->base, &sc_property_klass);
  p->fget = getter ? sc_native_new (cls->name->data, name, SC_NATIVE_FUNCTION, getter, user_data, NULL)
                   : fx_value_none ();
  p->fset = setter ? sc_native_new (cls->name->data, name, SC_NATIVE_FUNCTION, setter, user_data, NULL)
                   : fx_value_none ();
  p->fdel = fx_value_none ();
  p->doc = fx_value_none ();
  p->name = fx_str_ref (sc_intern_cstr (name));
  sc_dict_set_str (cls->dict, name, fx_value_take_object (&p->base));
  sc_type_modified (cls->script);
}

void
fx_script_class_set_attr (FxScriptClass *cls, const char *name, FxValue value)
{
  sc_dict_set_str (cls->dict, name, value);
  sc_type_modified (cls->script);
}

FxValue
fx_script_class_value (FxScriptClass *cls)
{
  return sc_class_value (cls);
}

const char *
fx_script_class_get_name (FxScriptClass *cls)
{
  return cls->name->data;
}

FxScriptClass *
fx_script_value_get_class (const FxValue *v)
{
  return sc_value_class (v);
}

FxScriptClass *
fx_script_type_of (FxScript *S, const FxValue *v)
{
  return sc_type_of (S, v);
}

gboolean
fx_script_is_subclass (FxScriptClass *cls, FxScriptClass *base)
{
  return sc_is_subclass (cls, base);
}

gboolean
fx_script_isinstance (FxScript *S, const FxValue *v, FxScriptClass *cls)
{
  return sc_isinstance (S, v, cls);
}

FxScriptClass *
fx_script_builtin_class (FxScript *S, const char *name)
{
  FxValue *v = sc_dict_get_str (S->builtins, sc_intern_cstr (name));
  FxScriptClass *cls = v ? sc_value_class (v) : NULL;
  if (cls)
    return cls;
  for (int i = 0; i < SC_T_N; i++)
    if (S->types[i] && strcmp (S->types[i]->name->data, name) == 0)
      return S->types[i];
  return NULL;
}

FxValue
fx_script_instance_new (FxScript *S, FxScriptClass *cls)
{
  return sc_instance_new (S, cls);
}

gpointer
fx_script_instance_payload (const FxValue *v)
{
  ScInstance *inst = sc_value_instance (v);
  return inst ? inst->payload : NULL;
}

FxDict *
fx_script_instance_dict (const FxValue *v)
{
  ScInstance *inst = sc_value_instance (v);
  return inst ? sc_instance_dict (inst) : NULL;
}

void
fx_script_set_kind_class (FxScript *S, FxValueKind kind, FxScriptClass *cls)
{
  g_return_if_fail ((int) kind >= 0 && kind <= FX_VALUE_OBJECT);
  if (cls)
    fx_object_ref (&cls->base);
  if (S->kind_classes[kind])
    fx_object_unref (&S->kind_classes[kind]->base);
  S->kind_classes[kind] = cls;
  sc_type_modified (S);
}

void
fx_script_register_tuple_type (FxScript *S, const FxTupleType *type, FxScriptClass *cls)
{
  g_hash_table_replace (S->tuple_classes, (gpointer) type, fx_object_ref (&cls->base));
}

void
fx_script_register_object_class (FxScript *S, const FxObjectClass *klass, FxScriptClass *cls)
{
  g_hash_table_replace (S->object_classes, (gpointer) klass, fx_object_ref (&cls->base));
}

void
fx_script_set_op_call (FxScript *S, FxScriptOpCallFunc func, gpointer user_data)
{
  S->op_call = func;
  S->op_call_data = user_data;
}

/* ------------------------------------------------------------------ operations */

gboolean
fx_script_getattr (FxScript *S, const FxValue *obj, const char *name, FxValue *out)
{
  return sc_getattr (S, obj, sc_intern_cstr (name), out);
}

gboolean
fx_script_setattr (FxScript *S, const FxValue *obj, const char *name, const FxValue *value)
{
  return sc_setattr (S, obj, sc_intern_cstr (name), value);
}

gboolean
fx_script_delattr (FxScript *S, const FxValue *obj, const char *name)
{
  return sc_delattr (S, obj, sc_intern_cstr (name));
}

gboolean
fx_script_lookup_attr (FxScript *S, const FxValue *obj, const char *name, FxValue *out)
{
  return sc_getattr_opt (S, obj, sc_intern_cstr (name), out) > 0;
}

gboolean
fx_script_generic_getattr (FxScript *S, const FxValue *obj, const char *name, FxValue *out)
{
  return sc_generic_getattr (S, obj, sc_intern_cstr (name), out, TRUE);
}

gboolean
fx_script_generic_setattr (FxScript *S, const FxValue *obj, const char *name, const FxValue *value)
{
  return sc_generic_setattr (S, obj, sc_intern_cstr (name), value);
}

gboolean
fx_script_call (FxScript *S, const FxValue *callable, const FxValue *args, int n_args, FxDict *kwargs,
                FxValue *result)
{
  FxScript *prev = enter (S);
  gboolean ok = sc_call_dict (S, callable, args, n_args, kwargs, result);
  leave (prev);
  return ok;
}

gboolean
fx_script_call_method (FxScript *S, const FxValue *obj, const char *name, const FxValue *args,
                       int n_args, FxDict *kwargs, FxValue *result)
{
  FxScript *prev = enter (S);
  FxValue m;
  gboolean unbound, ok;
  if (!sc_get_method (S, obj, sc_intern_cstr (name), &m, &unbound))
    {
      leave (prev);
      return FALSE;
    }
  if (unbound)
    {
      FxValue *all = g_new (FxValue, n_args + 1);
      all[0] = *obj;
      if (n_args)
        memcpy (all + 1, args, sizeof (FxValue) * n_args);
      ok = sc_call_dict (S, &m, all, n_args + 1, kwargs, result);
      g_free (all);
    }
  else
    ok = sc_call_dict (S, &m, args, n_args, kwargs, result);
  fx_value_clear (&m);
  leave (prev);
  return ok;
}

gboolean
fx_script_is_callable (FxScript *S, const FxValue *v)
{
  return sc_callable (S, v);
}

char *
fx_script_value_str (FxScript *S, const FxValue *v)
{
  GString *s = g_string_new (NULL);
  if (!sc_str (S, v, s))
    {
      g_string_free (s, TRUE);
      return NULL;
    }
  return g_string_free (s, FALSE);
}

char *
fx_script_value_repr (FxScript *S, const FxValue *v)
{
  GString *s = g_string_new (NULL);
  if (!sc_repr (S, v, s))
    {
      g_string_free (s, TRUE);
      return NULL;
    }
  return g_string_free (s, FALSE);
}

gboolean
fx_script_compare (FxScript *S, const FxValue *a, const FxValue *b, const char *op, gboolean *out)
{
  static const struct { const char *text; ScCmpOp op; } ops[] = {
    { "<", SC_CMP_LT }, { "<=", SC_CMP_LE }, { "==", SC_CMP_EQ }, { "!=", SC_CMP_NE },
    { ">", SC_CMP_GT }, { ">=", SC_CMP_GE },
  };
  FxValue r;
  gboolean ok;
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (strcmp (op, ops[i].text) == 0)
      {
        if (ops[i].op == SC_CMP_EQ)
          return sc_equal (S, a, b, out);
        if (!sc_compare (S, ops[i].op, a, b, &r))
          return FALSE;
        ok = sc_truth (S, &r, out);
        fx_value_clear (&r);
        return ok;
      }
  return sc_raise (S, SC_T_VALUE_ERROR, "unknown comparison operator '%s'", op);
}

gboolean
fx_script_hash (FxScript *S, const FxValue *v, gint64 *out)
{
  return sc_hash (S, v, out);
}

gboolean
fx_script_iterate (FxScript *S, const FxValue *iterable, FxScriptIterFunc func, gpointer user_data)
{
  ScIter it;
  FxValue item;
  int r;
  if (!sc_iter_init (S, iterable, &it))
    return FALSE;
  while ((r = sc_iter_next (S, &it, &item)) > 0)
    {
      gboolean go = func (S, &item, user_data);
      fx_value_clear (&item);
      if (!go)
        {
          sc_iter_clear (&it);
          return FALSE;
        }
    }
  sc_iter_clear (&it);
  return r == 0;
}

gboolean
fx_script_to_list (FxScript *S, const FxValue *iterable, FxSeq **out)
{
  return sc_collect (S, iterable, out);
}

/* ------------------------------------------------------------------ locations */

gboolean
fx_script_current_location (FxScript *S, const char **filename, int *line, const char **function)
{
  ScFrame *F = S->frame;
  if (F == NULL)
    return FALSE;
  if (filename)
    *filename = F->code->unit->filename;
  if (line)
    *line = F->loc ? F->loc->line : F->code->pos.line;
  if (function)
    *function = F->code->name ? F->code->name->data : "<module>";
  return TRUE;
}

char *
fx_script_format_stack (FxScript *S)
{
  GString *out = g_string_new (NULL);
  GPtrArray *frames = g_ptr_array_new ();
  for (ScFrame *F = S->frame; F; F = F->back)
    g_ptr_array_add (frames, F);
  for (guint i = frames->len; i-- > 0;)
    {
      ScFrame *F = frames->pdata[i];
      int line = F->loc ? F->loc->line : F->code->pos.line;
      const char *fname = F->code->unit->filename;
      gsize flen = strlen (fname);
      /* like tracebacks: no source lines for "<string>"-style names */
      char *text = flen && fname[0] == '<' && fname[flen - 1] == '>' ? NULL
                                                                     : sc_unit_line (F->code->unit, line);
      g_string_append_printf (out, "  File \"%s\", line %d, in %s\n", F->code->unit->filename, line,
                              F->code->name ? F->code->name->data : "<module>");
      if (text)
        {
          const char *t = text;
          while (*t == ' ' || *t == '\t')
            t++;
          if (*t)
            g_string_append_printf (out, "    %s\n", g_strchomp ((char *) t));
          g_free (text);
        }
    }
  g_ptr_array_free (frames, TRUE);
  return g_string_free (out, FALSE);
}
