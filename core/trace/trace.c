/* trace.c: symbolic tracing of a model file for `fx trace` and the editor — list what a file
 * can trace, trace one of its objects into a stand-alone FxGraphModule, parse --concrete
 * literals, and find where in the source a tracing error happened. */
#include "script/internal.h"
#include "script/parser.h"
#include "script/nn-bind.h"
#include "script/fx-ir.h"
#include "trace/trace.h"
#include "trace/tracer.h"

#include "fx-error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The Python half: a Tracer honouring extra leaf classes, symbolic_trace's naming, and the
 * candidate listing (isinstance / issubclass / __init__ signatures are Python questions). */
#define DRIVER_FILE "<fx trace>"
#define DRIVER_MODULE "_fx_trace_driver"
static const char driver_source[] =
  "import torch\n"
  "import torch.fx\n"
  "from torch.fx import _glue\n"
  "\n"
  "class LeafTracer(torch.fx.Tracer):\n"
  "    def __init__(self, leaf_names):\n"
  "        super().__init__()\n"
  "        self.leaf_names = leaf_names\n"
  "\n"
  "    def is_leaf_module(self, m, qualname):\n"
  "        return (type(m).__name__ in self.leaf_names\n"
  "                or super().is_leaf_module(m, qualname))\n"
  "\n"
  "def trace(root, concrete_args, leaf_names, c_tracer):\n"
  "    if leaf_names:\n"
  "        tracer = LeafTracer(leaf_names)\n"
  "    else:\n"
  "        tracer = torch.fx.Tracer()\n"
  "    if c_tracer is not None:\n"
  "        tracer._fx_c_tracer = c_tracer\n"
  "    graph = tracer.trace(root, concrete_args)\n"
  "    if isinstance(root, torch.nn.Module):\n"
  "        name = root.__class__.__name__\n"
  "    else:\n"
  "        name = root.__name__\n"
  "    return torch.fx.GraphModule(tracer.root, graph, name)\n"
  "\n"
  "def constructible(cls):\n"
  "    init = cls.__init__\n"
  "    if init is torch.nn.Module.__init__:\n"
  "        return True\n"
  "    try:\n"
  "        params = _glue.signature(init)\n"
  "    except TypeError:\n"
  "        return False\n"
  "    for i, (name, kind, has_default, default, annotation) in enumerate(params):\n"
  "        if i > 0 and kind in ('positional', 'keyword_only') and not has_default:\n"
  "            return False\n"
  "    return True\n"
  "\n"
  "def describe(module):\n"
  "    out = []\n"
  "    for name, value in list(module.__dict__.items()):\n"
  "        if isinstance(value, torch.nn.Module):\n"
  "            out.append((name, 0, type(value).__name__, True))\n"
  "        elif isinstance(value, type):\n"
  "            if (issubclass(value, torch.nn.Module)\n"
  "                    and getattr(value, '__module__', None) == module.__name__):\n"
  "                out.append((name, 1, value.__name__, constructible(value)))\n"
  "        elif (type(value).__name__ == 'function'\n"
  "                and getattr(value, '__module__', None) == module.__name__):\n"
  "            out.append((name, 2, value.__name__, True))\n"
  "    return out\n"
  "\n"
  "def root_of(module, name):\n"
  "    if name not in module.__dict__:\n"
  "        raise NameError(f\"{module.__file__} defines no module-level name '{name}'\")\n"
  "    value = module.__dict__[name]\n"
  "    if isinstance(value, torch.nn.Module):\n"
  "        return value\n"
  "    if isinstance(value, type) and issubclass(value, torch.nn.Module):\n"
  "        return value()\n"
  "    if type(value).__name__ == 'function':\n"
  "        return value\n"
  "    raise TypeError(f\"'{name}' is a {type(value).__name__}, not an nn.Module, \"\n"
  "                    \"an nn.Module subclass or a function\")\n";

/* One interpreter with the model file loaded as a module. */
typedef struct {
  FxScript *S;
  char *file;            /* canonical path */
  FxValue module;
  FxValue driver;
} Session;

static void
write_to_stderr (const char *text, gsize len, gpointer user_data)
{
  (void) user_data;
  fwrite (text, 1, len, stderr);
  fflush (stderr);
}

/* Is the class of exc (or a base) named class_name? (TraceError is a Python class.) */
static gboolean
exception_is (FxScript *S, const FxValue *exc, const char *class_name)
{
  FxScriptClass *cls = fx_script_type_of (S, exc);
  for (int i = 0; cls != NULL && i < cls->n_mro; i++)
    if (strcmp (cls->mro[i]->name->data, class_name) == 0)
      return TRUE;
  return FALSE;
}

/* The traceback without the frames of the driver (a C caller has none in CPython either). */
static char *
without_driver_frames (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GString *out = g_string_new (NULL);
  gboolean skipping = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      if (g_str_has_prefix (line, "  File \""))
        skipping = g_str_has_prefix (line, "  File \"" DRIVER_FILE "\"");
      else if (!g_str_has_prefix (line, "    "))
        skipping = FALSE;
      if (skipping)
        continue;
      if (out->len > 0)
        g_string_append_c (out, '\n');
      g_string_append (out, line);
    }
  while (out->len > 0 && out->str[out->len - 1] == '\n')
    g_string_truncate (out, out->len - 1);
  /* an error of the driver itself (no such name, ...) keeps no frame: just its last line */
  if (g_str_has_prefix (out->str, "Traceback (most recent call last):\n")
      && !g_str_has_prefix (out->str + strlen ("Traceback (most recent call last):\n"), "  "))
    g_string_erase (out, 0, strlen ("Traceback (most recent call last):\n"));
  return g_string_free (out, FALSE);
}

/* Moves the pending exception into error: its traceback as the message. */
static void
take_exception (FxScript *S, GError **error, int default_code)
{
  g_auto (FxValue) exc = fx_script_get_exception (S);
  g_autofree char *text = fx_script_format_exception (S);
  g_autofree char *message = without_driver_frames (text ? text : "");
  int code = default_code;

  if (exception_is (S, &exc, "SyntaxError"))
    code = FX_ERROR_PARSE;
  else if (exception_is (S, &exc, "TraceError"))
    code = FX_ERROR_TRACE;
  else if (exception_is (S, &exc, "OSError"))
    code = FX_ERROR_IO;
  fx_script_clear_exception (S);
  g_set_error_literal (error, FX_ERROR, code, message);
}

static void
session_close (Session *s)
{
  fx_value_clear (&s->module);
  fx_value_clear (&s->driver);
  g_clear_pointer (&s->S, fx_script_free);
  g_clear_pointer (&s->file, g_free);
}

/* The module called `name` in sys.modules (new reference), or None. */
static FxValue
loaded_module (FxScript *S, const char *name)
{
  FxValue *v = sc_dict_get_str (S->modules, sc_intern_cstr (name));
  return v != NULL ? fx_value_copy (v) : fx_value_none ();
}

/* Runs path as the module named after its stem, then the driver. */
static gboolean
session_open (Session *s, const char *path, GError **error)
{
  g_autofree char *source = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autoptr (GError) read_error = NULL;
  FxScriptModule *m;
  FxSeq *sys_path;
  gsize len;
  char *dot;

  memset (s, 0, sizeof *s);
  s->module = fx_value_none ();
  s->driver = fx_value_none ();
  s->file = g_canonicalize_filename (path, NULL);
  if (!g_file_get_contents (s->file, &source, &len, &read_error))
    {
      int err = read_error->code == G_FILE_ERROR_NOENT ? ENOENT
                : read_error->code == G_FILE_ERROR_ACCES ? EACCES
                : read_error->code == G_FILE_ERROR_ISDIR ? EISDIR : EIO;
      g_set_error (error, FX_ERROR, FX_ERROR_IO, "can't open file '%s': [Errno %d] %s",
                   s->file, err, g_strerror (err));
      return FALSE;
    }
  if (memchr (source, '\0', len) != NULL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE,
                   "SyntaxError: source code string cannot contain null bytes");
      return FALSE;
    }

  s->S = fx_script_new ();
  fx_script_set_output (s->S, write_to_stderr, write_to_stderr, NULL);

  /* sys.path[0] is the file's directory */
  dir = g_path_get_dirname (s->file);
  sys_path = s->S->sys_path.seq;
  fx_seq_append (sys_path, fx_value_none ());
  memmove (sys_path->items + 1, sys_path->items, sizeof (FxValue) * (sys_path->len - 1));
  sys_path->items[0] = fx_value_str (dir);

  base = g_path_get_basename (s->file);
  dot = strrchr (base, '.');
  if (dot != NULL && dot != base)
    *dot = '\0';
  m = sc_module_new (s->S, base);
  sc_dict_set_str (m->dict, "__package__", fx_value_none ());
  sc_dict_set_str (m->dict, "__spec__", fx_value_none ());
  sc_dict_set_str (m->dict, "__loader__", fx_value_none ());
  sc_dict_set_str (m->dict, "__file__", fx_value_str (s->file));
  m->file = g_strdup (s->file);
  s->module = fx_value_take_object (&m->base);
  sc_dict_set_str (s->S->modules, base, fx_value_copy (&s->module));

  if (!fx_script_run_string (s->S, source, s->file, base))
    {
      take_exception (s->S, error, FX_ERROR_FAILED);
      return FALSE;
    }
  if (!fx_script_run_string (s->S, driver_source, DRIVER_FILE, DRIVER_MODULE))
    {
      take_exception (s->S, error, FX_ERROR_FAILED);
      return FALSE;
    }
  s->driver = loaded_module (s->S, DRIVER_MODULE);
  return TRUE;
}

/* driver.NAME(args...) into *result, or FALSE with error. */
static gboolean
call_driver (Session *s, const char *name, const FxValue *args, int n_args, FxValue *result,
             GError **error, int error_code)
{
  if (fx_script_call_method (s->S, &s->driver, name, args, n_args, NULL, result))
    return TRUE;
  take_exception (s->S, error, error_code);
  return FALSE;
}

/* ---------------------------------------------------------------- definition lines */

static void
note_target (GHashTable *lines, const ScExpr *target, int line)
{
  if (target->kind == SC_E_NAME)
    g_hash_table_insert (lines, (gpointer) target->name.id->data, GINT_TO_POINTER (line));
  else if (target->kind == SC_E_TUPLE || target->kind == SC_E_LIST)
    for (int i = 0; i < target->seq.n; i++)
      note_target (lines, target->seq.items[i], line);
  else if (target->kind == SC_E_STARRED)
    note_target (lines, target->starred.value, line);
}

/* name → line of the last module-level statement binding it (def, class, assignment, also
 * inside top-level if/try/with/for blocks). Keys point into unit's interned names. */
static void
note_block (GHashTable *lines, const ScBlock *block)
{
  GPtrArray *pending = g_ptr_array_new ();

  g_ptr_array_add (pending, (gpointer) block);
  /* breadth-first: a nested block's binding wins over its parent block's (rare in model
   * files; what matters is that `if __name__ == '__main__':` bindings are found at all) */
  for (guint b = 0; b < pending->len; b++)
    {
      const ScBlock *blk = pending->pdata[b];
      for (int i = 0; i < blk->n; i++)
        {
          const ScStmt *st = blk->items[i];
          switch (st->kind)
            {
            case SC_S_DEF:
              g_hash_table_insert (lines, (gpointer) st->def.name.id->data,
                                   GINT_TO_POINTER (st->pos.line));
              break;
            case SC_S_CLASS:
              g_hash_table_insert (lines, (gpointer) st->class_.name.id->data,
                                   GINT_TO_POINTER (st->pos.line));
              break;
            case SC_S_ASSIGN:
              for (int t = 0; t < st->assign.n_targets; t++)
                note_target (lines, st->assign.targets[t], st->pos.line);
              break;
            case SC_S_ANNASSIGN:
              if (st->annassign.value != NULL)
                note_target (lines, st->annassign.target, st->pos.line);
              break;
            case SC_S_IF:
              g_ptr_array_add (pending, (gpointer) &st->if_.body);
              g_ptr_array_add (pending, (gpointer) &st->if_.orelse);
              break;
            case SC_S_TRY:
              g_ptr_array_add (pending, (gpointer) &st->try_.body);
              g_ptr_array_add (pending, (gpointer) &st->try_.orelse);
              break;
            case SC_S_WITH:
              g_ptr_array_add (pending, (gpointer) &st->with.body);
              break;
            default:
              break;
            }
        }
    }
  g_ptr_array_unref (pending);
}

/* ---------------------------------------------------------------- candidates */

void
fx_trace_candidate_free (FxTraceCandidate *candidate)
{
  if (candidate == NULL)
    return;
  g_free (candidate->name);
  g_free (candidate->type_name);
  g_free (candidate);
}

GPtrArray *
fx_trace_list_candidates (const char *path, GError **error)
{
  Session s;
  GPtrArray *out = NULL;
  g_auto (FxValue) listing = { 0 };
  g_autoptr (GHashTable) lines = NULL;
  ScUnit *unit = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  if (!session_open (&s, path, error)
      || !call_driver (&s, "describe", &s.module, 1, &listing, error, FX_ERROR_FAILED))
    {
      session_close (&s);
      return NULL;
    }

  lines = g_hash_table_new (g_str_hash, g_str_equal);
  {
    g_autofree char *source = NULL;
    gsize len;
    ScSyntaxError syntax = { 0 };
    if (g_file_get_contents (s.file, &source, &len, NULL))
      unit = sc_compile (s.file, source, len, &syntax);
    sc_syntax_error_clear (&syntax);
    if (unit != NULL)
      note_block (lines, &unit->module->body);
  }

  out = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_trace_candidate_free);
  if (listing.kind == FX_VALUE_LIST)
    for (guint i = 0; i < listing.seq->len; i++)
      {
        const FxValue *row = &listing.seq->items[i];
        FxTraceCandidate *c;
        if (row->kind != FX_VALUE_TUPLE || row->seq->len != 4)
          continue;
        c = g_new0 (FxTraceCandidate, 1);
        c->name = g_strdup (row->seq->items[0].s->data);
        c->kind = (FxTraceCandidateKind) row->seq->items[1].i;
        c->type_name = g_strdup (row->seq->items[2].s->data);
        c->constructible = row->seq->items[3].b;
        c->line = GPOINTER_TO_INT (g_hash_table_lookup (lines, c->name));
        g_ptr_array_add (out, c);
      }
  if (unit != NULL)
    sc_unit_unref (unit);
  session_close (&s);
  return out;
}

/* ---------------------------------------------------------------- the traced GraphModule */

/* Values that live without the interpreter: no script objects inside. */
static gboolean
is_plain_value (const FxValue *v)
{
  const FxValue *k, *item;
  switch (v->kind)
    {
    case FX_VALUE_OBJECT:
    case FX_VALUE_NODE:
      return FALSE;
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST:
      for (guint i = 0; i < v->seq->len; i++)
        if (!is_plain_value (&v->seq->items[i]))
          return FALSE;
      return TRUE;
    case FX_VALUE_DICT:
      for (guint i = 0; fx_dict_entry (v->dict, i, &k, &item); i++)
        if (!is_plain_value (k) || !is_plain_value (item))
          return FALSE;
      return TRUE;
    default:
      return TRUE;
    }
}

/* A copy of a module tree that does not point back into the interpreter (no impl, no
 * script objects among the attributes); tensors are shared. */
static FxModule *
copy_module_tree (FxModule *src)
{
  FxModule *m = fx_module_new (src->type_name);
  const FxValue *k, *v;
  GHashTableIter iter;
  gpointer key;

  m->layer = src->layer;
  m->training = src->training;
  m->extra_repr = src->extra_repr;
  for (guint i = 0; fx_dict_entry (src->parameters, i, &k, &v); i++)
    fx_dict_set (m->parameters, fx_value_copy (k), fx_value_copy (v));
  for (guint i = 0; fx_dict_entry (src->buffers, i, &k, &v); i++)
    fx_dict_set (m->buffers, fx_value_copy (k), fx_value_copy (v));
  g_hash_table_iter_init (&iter, src->non_persistent);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_add (m->non_persistent, g_strdup (key));
  for (guint i = 0; fx_dict_entry (src->children, i, &k, &v); i++)
    {
      FxModule *child = fx_value_get_module (v);
      if (child != NULL)
        {
          FxModule *copy = copy_module_tree (child);
          fx_dict_set (m->children, fx_value_copy (k), fx_value_module (copy));
          fx_module_unref (copy);
        }
      else
        fx_dict_set (m->children, fx_value_copy (k), fx_value_none ());
    }
  for (guint i = 0; fx_dict_entry (src->attributes, i, &k, &v); i++)
    if (k->kind == FX_VALUE_STR && strcmp (k->s->data, "_graph") != 0
        && strcmp (k->s->data, "_code") != 0 && strcmp (k->s->data, "forward") != 0
        && strcmp (k->s->data, "training") != 0 && is_plain_value (v))
      fx_dict_set (m->attributes, fx_value_copy (k), fx_value_copy (v));
  return m;
}

static FxGraphModule *
to_c_graph_module (Session *s, const FxValue *gm_value, GError **error)
{
  g_auto (FxValue) graph_value = { 0 };
  g_autoptr (FxModule) tree = NULL;
  g_autoptr (FxModule) copy = NULL;
  g_autoptr (FxGraph) graph = NULL;
  FxGraph *script_graph;
  const char *class_name;

  if (!fx_script_getattr (s->S, gm_value, "graph", &graph_value))
    {
      take_exception (s->S, error, FX_ERROR_FAILED);
      return NULL;
    }
  script_graph = sc_fx_graph_get (&graph_value);
  tree = sc_nn_module_to_fx (s->S, gm_value);
  if (script_graph == NULL || tree == NULL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "tracing did not give a GraphModule");
      return NULL;
    }
  class_name = fx_script_class_get_name (fx_script_type_of (s->S, gm_value));
  copy = copy_module_tree (tree);
  graph = fx_graph_copy (script_graph, error);
  if (graph == NULL)
    return NULL;
  return fx_graph_module_new (copy, graph, class_name, error);
}

static FxGraphModule *
trace_file (const char *path, const char *name, FxDict *concrete_args,
            const char *const *extra_leaf_modules, FxTracer *c_tracer, GError **error)
{
  Session s;
  FxGraphModule *result = NULL;
  g_auto (FxValue) root = { 0 };
  g_auto (FxValue) gm = { 0 };
  FxValue args[4];

  g_return_val_if_fail (path != NULL && name != NULL, NULL);
  if (!session_open (&s, path, error))
    {
      session_close (&s);
      return NULL;
    }
  args[0] = fx_value_copy (&s.module);
  args[1] = fx_value_str (name);
  if (call_driver (&s, "root_of", args, 2, &root, error, FX_ERROR_INVALID_ARGUMENT))
    {
      FxSeq *leaves = fx_seq_new (0);
      fx_value_clear (&args[0]);
      fx_value_clear (&args[1]);
      for (guint i = 0; extra_leaf_modules != NULL && extra_leaf_modules[i] != NULL; i++)
        fx_seq_append (leaves, fx_value_str (extra_leaf_modules[i]));
      args[0] = fx_value_copy (&root);
      args[1] = concrete_args != NULL ? fx_value_take_dict (fx_dict_ref (concrete_args))
                                      : fx_value_none ();
      args[2] = fx_value_take_tuple (leaves);
      args[3] = c_tracer != NULL ? fx_tracer_capsule_new (c_tracer) : fx_value_none ();
      if (call_driver (&s, "trace", args, 4, &gm, error, FX_ERROR_FAILED))
        result = to_c_graph_module (&s, &gm, error);
      fx_value_clear (&args[2]);
      fx_value_clear (&args[3]);
    }
  fx_value_clear (&args[0]);
  fx_value_clear (&args[1]);
  fx_value_clear (&gm);
  fx_value_clear (&root);
  session_close (&s);
  return result;
}

FxGraphModule *
fx_trace_file (const char *path, const char *name, FxDict *concrete_args,
               const char *const *extra_leaf_modules, GError **error)
{
  return trace_file (path, name, concrete_args, extra_leaf_modules, NULL, error);
}

FxGraphModule *
fx_tracer_trace_file (FxTracer *tracer, const char *path, const char *name,
                      FxDict *concrete_args, GError **error)
{
  g_return_val_if_fail (tracer != NULL && tracer->klass != NULL, NULL);
  return trace_file (path, name, concrete_args, NULL, tracer, error);
}

/* ---------------------------------------------------------------- error locations */

gboolean
fx_trace_error_location (const GError *error, const char *path, char **file, int *line)
{
  g_autofree char *wanted = path != NULL ? g_canonicalize_filename (path, NULL) : NULL;
  g_auto (GStrv) lines = NULL;
  gboolean found = FALSE;

  if (file != NULL)
    *file = NULL;
  if (line != NULL)
    *line = 0;
  if (error == NULL || error->message == NULL)
    return FALSE;
  lines = g_strsplit (error->message, "\n", -1);
  /* the last matching frame line is the innermost one (of the last exception shown) */
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      const char *end;
      g_autofree char *name = NULL;
      if (!g_str_has_prefix (l, "  File \""))
        continue;
      l += strlen ("  File \"");
      end = strstr (l, "\", line ");
      if (end == NULL)
        continue;
      name = g_strndup (l, end - l);
      if (wanted != NULL ? strcmp (name, wanted) != 0
                         : !g_file_test (name, G_FILE_TEST_IS_REGULAR))
        continue;
      if (file != NULL)
        {
          g_free (*file);
          *file = g_steal_pointer (&name);
        }
      if (line != NULL)
        *line = atoi (end + strlen ("\", line "));
      found = TRUE;
    }
  return found;
}

/* ---------------------------------------------------------------- literals */

static gboolean
literal_value (const ScExpr *e, FxValue *out)
{
  switch (e->kind)
    {
    case SC_E_CONST:
      if (e->constant.kind == FX_VALUE_ELLIPSIS || e->constant.kind == FX_VALUE_OBJECT)
        return FALSE;
      *out = fx_value_copy (&e->constant);
      return TRUE;
    case SC_E_UNARY:
      {
        FxValue inner;
        if ((e->unary.op != SC_UNARY_NEG && e->unary.op != SC_UNARY_POS)
            || !literal_value (e->unary.operand, &inner))
          return FALSE;
        if (inner.kind == FX_VALUE_INT && (e->unary.op == SC_UNARY_POS || inner.i != G_MININT64))
          *out = fx_value_int (e->unary.op == SC_UNARY_NEG ? -inner.i : inner.i);
        else if (inner.kind == FX_VALUE_FLOAT)
          *out = fx_value_float (e->unary.op == SC_UNARY_NEG ? -inner.f : inner.f);
        else
          {
            fx_value_clear (&inner);
            return FALSE;
          }
        return TRUE;
      }
    case SC_E_TUPLE:
    case SC_E_LIST:
      {
        FxSeq *seq = fx_seq_new (0);
        for (int i = 0; i < e->seq.n; i++)
          {
            FxValue item;
            if (!literal_value (e->seq.items[i], &item))
              {
                fx_seq_unref (seq);
                return FALSE;
              }
            fx_seq_append (seq, item);
          }
        *out = e->kind == SC_E_TUPLE ? fx_value_take_tuple (seq) : fx_value_take_list (seq);
        return TRUE;
      }
    case SC_E_DICT:
      {
        FxDict *dict = fx_dict_new ();
        for (int i = 0; i < e->dict.n; i++)
          {
            FxValue key, value;
            if (e->dict.keys[i] == NULL || !literal_value (e->dict.keys[i], &key))
              {
                fx_dict_unref (dict);
                return FALSE;
              }
            if (!literal_value (e->dict.values[i], &value))
              {
                fx_value_clear (&key);
                fx_dict_unref (dict);
                return FALSE;
              }
            fx_dict_set (dict, key, value);
          }
        *out = fx_value_take_dict (dict);
        return TRUE;
      }
    default:
      return FALSE;
    }
}

gboolean
fx_trace_parse_literal (const char *text, FxValue *out, GError **error)
{
  g_autofree char *source = NULL;
  ScSyntaxError syntax = { 0 };
  ScUnit *unit;
  const ScBlock *body;
  gboolean ok = FALSE;

  g_return_val_if_fail (text != NULL && out != NULL, FALSE);
  {
    g_autofree char *stripped = g_strstrip (g_strdup (text));
    if (*stripped == '\0')
      {
        g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "SyntaxError: invalid syntax");
        return FALSE;
      }
  }
  /* parenthesized so that a literal spanning lines is one expression, as eval() takes it */
  source = g_strdup_printf ("(%s\n)\n", text);
  unit = sc_compile ("<literal>", source, strlen (source), &syntax);
  if (unit == NULL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "%s: %s", syntax.cls, syntax.msg);
      sc_syntax_error_clear (&syntax);
      return FALSE;
    }
  body = &unit->module->body;
  if (body->n == 1 && body->items[0]->kind == SC_S_EXPR)
    ok = literal_value (body->items[0]->expr.value, out);
  if (!ok)
    g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "malformed node or string: %s", text);
  sc_unit_unref (unit);
  return ok;
}
