/* codegen.c: GraphModule.code — torch.fx 1.13's CodeGen._gen_python_code, rule for rule:
 * operators written as operators, values deleted after their last use (`;  x = None`),
 * globals named in a fresh namespace, wrapped functions re-registered in a preamble. */
#include "ir/codegen.h"
#include "ops/op.h"

#include <string.h>

typedef struct {
  FxNamespace *names;
  GHashTable *wrapped;        /* global name → TRUE, in wrapped_order */
  GPtrArray *wrapped_order;
  GPtrArray *global_names;    /* fx_graph_python_code_full: names and values of the globals */
  GPtrArray *global_values;
  GHashTable *globals_seen;
} CodeGen;

/* Operators that print as Python syntax (graph.py's magic_methods and inplace_methods). */
static const struct { const char *name; const char *format; } magic_methods[] = {
  { "add", "{} + {}" }, { "sub", "{} - {}" }, { "mul", "{} * {}" }, { "floordiv", "{} // {}" },
  { "truediv", "{} / {}" }, { "div", "{} / {}" }, { "mod", "{} % {}" }, { "pow", "{} ** {}" },
  { "lshift", "{} << {}" }, { "rshift", "{} >> {}" }, { "and_", "{} & {}" }, { "or_", "{} | {}" },
  { "xor", "{} ^ {}" }, { "getitem", "{}[{}]" }, { "matmul", "{} @ {}" },
  { "eq", "{} == {}" }, { "ne", "{} != {}" }, { "lt", "{} < {}" }, { "gt", "{} > {}" },
  { "le", "{} <= {}" }, { "ge", "{} >= {}" }, { "pos", "+{}" }, { "neg", "-{}" },
  { "invert", "~{}" },
};
static const struct { const char *name; const char *format; } inplace_methods[] = {
  { "iadd", "{} += {}" }, { "iand", "{} &= {}" }, { "ifloordiv", "{} //= {}" },
  { "ilshift", "{} <<= {}" }, { "imod", "{} %= {}" }, { "imul", "{} *= {}" },
  { "imatmul", "{} @= {}" }, { "ior", "{} |= {}" }, { "ipow", "{} **= {}" },
  { "irshift", "{} >>= {}" }, { "isub", "{} -= {}" }, { "itruediv", "{} /= {}" },
  { "ixor", "{} ^= {}" }, { "setitem", "{}[{}] = {}" },
};

/* GLib 2.74's g_string_append is an out-of-line insert; the code of a graph is a few
 * appends per node, so these are inline. */
static inline void
out_append_len (GString *out, const char *text, gsize len)
{
  if (out->len + len >= out->allocated_len)
    {
      gsize keep = out->len;
      g_string_set_size (out, keep + len);   /* grows the buffer */
      out->len = keep;
    }
  memcpy (out->str + out->len, text, len);
  out->len += len;
  out->str[out->len] = '\0';
}

static inline void
out_append (GString *out, const char *text)
{
  out_append_len (out, text, strlen (text));
}

static const char *
node_repr (CodeGen *cg, FxNode *node)
{
  /* node names come from their graph's namespace, which made them legal identifiers */
  return fx_namespace_create_name_of_named (cg->names, node->name, node);
}

/* repr() of an argument with nodes named in the code's namespace. */
static void
arg_repr (CodeGen *cg, const FxValue *value, GString *out)
{
  switch (value->kind)
    {
    case FX_VALUE_NODE:
      out_append (out, node_repr (cg, value->node));
      break;
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST:
      if (value->kind == FX_VALUE_TUPLE && value->seq->type != NULL)
        {
          fx_value_repr (value, out);   /* torch.Size and the like print as themselves */
          break;
        }
      g_string_append_c (out, value->kind == FX_VALUE_LIST ? '[' : '(');
      for (guint i = 0; i < value->seq->len; i++)
        {
          if (i > 0)
            out_append (out, ", ");
          arg_repr (cg, &value->seq->items[i], out);
        }
      if (value->kind == FX_VALUE_TUPLE && value->seq->len == 1)
        g_string_append_c (out, ',');
      g_string_append_c (out, value->kind == FX_VALUE_LIST ? ']' : ')');
      break;
    case FX_VALUE_DICT:
      {
        const FxValue *k, *v;
        g_string_append_c (out, '{');
        for (guint i = 0; fx_dict_entry (value->dict, i, &k, &v); i++)
          {
            if (i > 0)
              out_append (out, ", ");
            arg_repr (cg, k, out);
            out_append (out, ": ");
            arg_repr (cg, v, out);
          }
        g_string_append_c (out, '}');
      }
      break;
    case FX_VALUE_SLICE:
      out_append (out, "slice(");
      arg_repr (cg, &value->slice->start, out);
      out_append (out, ", ");
      arg_repr (cg, &value->slice->stop, out);
      out_append (out, ", ");
      arg_repr (cg, &value->slice->step, out);
      g_string_append_c (out, ')');
      break;
    default:
      fx_value_repr (value, out);
      break;
    }
}

static char *
arg_repr_str (CodeGen *cg, const FxValue *value)
{
  GString *s = g_string_new (NULL);
  arg_repr (cg, value, s);
  return g_string_free (s, FALSE);
}

/* add_global: torch's own callables keep their qualified name; anything else gets a name in
 * the namespace (builtins keep theirs: len, getattr). */
static const char *
add_global (CodeGen *cg, const char *name_hint, gconstpointer obj, const char *builtin_name)
{
  if (g_str_has_prefix (name_hint, "torch.") || strcmp (name_hint, "torch") == 0)
    return name_hint;
  return fx_namespace_create_name (cg->names, name_hint, obj, builtin_name);
}

static const char *
type_repr (CodeGen *cg, const char *type)
{
  if (g_str_has_prefix (type, "torch.") || fx_is_python_builtin (type) || strcmp (type, "()") == 0)
    return type;
  return add_global (cg, type, g_intern_string (type), NULL);
}

/* fx_is_identifier for the len bytes at s. */
static gboolean
is_identifier_n (const char *s, gsize len)
{
  if (len == 0 || g_ascii_isdigit (*s))
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isalnum (s[i]) && s[i] != '_' && !((guchar) s[i] & 0x80))
      return FALSE;
  return TRUE;
}

/* "name annotation = " without a format string (once per node). */
static void
append_assign (GString *body, const char *name, const char *annotation)
{
  out_append (body, name);
  out_append (body, annotation);
  out_append (body, " = ");
}

void
fx_format_target (GString *out, const char *base, const char *target)
{
  /* the expression is built in place at the end of out: an atom that is not an identifier
   * wraps what is there so far in getattr(..., "atom") */
  gsize start = out->len;

  out_append (out, base);
  for (const char *p = target;;)
    {
      const char *dot = strchr (p, '.');
      gsize len = dot != NULL ? (gsize) (dot - p) : strlen (p);
      if (is_identifier_n (p, len))
        {
          g_string_append_c (out, '.');
          out_append_len (out, p, len);
        }
      else
        {
          g_string_insert (out, start, "getattr(");
          out_append (out, ", \"");
          out_append_len (out, p, len);
          out_append (out, "\")");
        }
      if (dot == NULL)
        break;
      p = dot + 1;
    }
}

static void
format_args (CodeGen *cg, GString *out, const FxValue *args, guint first, const FxValue *kwargs)
{
  const FxValue *k, *v;
  gboolean any = FALSE;

  for (guint i = first; i < args->seq->len; i++)
    {
      if (any)
        out_append (out, ", ");
      arg_repr (cg, &args->seq->items[i], out);
      any = TRUE;
    }
  for (guint i = 0; fx_dict_entry (kwargs->dict, i, &k, &v); i++)
    {
      if (any)
        out_append (out, ", ");
      out_append_len (out, k->s->data, k->s->len);
      out_append_len (out, " = ", 3);
      arg_repr (cg, v, out);
      any = TRUE;
    }
}

/* Substitutes the reprs of args into a "{} + {}" pattern. */
static void
append_operator (CodeGen *cg, GString *out, const char *format, const FxValue *args)
{
  guint next = 0;

  for (const char *p = format; *p; p++)
    {
      if (p[0] == '{' && p[1] == '}')
        {
          if (next < args->seq->len)
            arg_repr (cg, &args->seq->items[next], out);
          next++;
          p++;
        }
      else
        g_string_append_c (out, *p);
    }
}

static const char *
lookup_format (const char *qualified, gboolean inplace)
{
  const char *name;

  if (!g_str_has_prefix (qualified, "operator."))
    return NULL;
  name = qualified + strlen ("operator.");
  if (inplace)
    {
      for (guint i = 0; i < G_N_ELEMENTS (inplace_methods); i++)
        if (strcmp (inplace_methods[i].name, name) == 0)
          return inplace_methods[i].format;
    }
  else
    {
      for (guint i = 0; i < G_N_ELEMENTS (magic_methods); i++)
        if (strcmp (magic_methods[i].name, name) == 0)
          return magic_methods[i].format;
    }
  return NULL;
}

static void
emit_stacktrace_summary (GString *body, const FxNode *node, char **prev)
{
  const FxValue key = fx_value_str ("stack_trace");
  FxValue *trace = fx_dict_get (node->meta, &key);
  const char *text;

  fx_value_clear ((FxValue *) &key);
  if (node->op == FX_OP_PLACEHOLDER || node->op == FX_OP_OUTPUT)
    return;
  text = trace != NULL && trace->kind == FX_VALUE_STR && trace->s->len > 0 ? trace->s->data : NULL;
  if (text != NULL)
    {
      g_auto (GStrv) lines = NULL;
      g_autofree char *stripped = NULL;
      GString *summary;
      guint idx = 0, n;

      if (*prev != NULL && strcmp (*prev, text) == 0)
        return;
      g_free (*prev);
      *prev = g_strdup (text);
      stripped = g_strstrip (g_strdup (text));
      lines = g_strsplit (stripped, "\n", -1);
      n = g_strv_length (lines);
      summary = g_string_new (NULL);
      for (; idx < n; idx++)
        {
          g_strstrip (lines[idx]);
          if (g_str_has_prefix (lines[idx], "File "))
            break;
          if (summary->len > 0)
            out_append (summary, ", ");
          out_append (summary, lines[idx]);
        }
      if (idx + 1 < n)
        {
          const char *line = lines[idx];
          const char *q1 = strchr (line, '"');
          const char *q2 = q1 ? strchr (q1 + 1, '"') : NULL;
          const char *ln = q2 ? strstr (q2, ", line ") : NULL;
          if (q1 && q2 && ln && strstr (ln, ", in ") != NULL)
            {
              g_autofree char *file = g_strndup (q1 + 1, q2 - q1 - 1);
              int lineno = atoi (ln + strlen (", line "));
              if (summary->len > 0)
                out_append (summary, ", ");
              g_string_append_printf (summary, "File: %s:%d", file, lineno);
            }
          if (summary->len > 0)
            out_append (summary, ", ");
          g_string_append_printf (summary, "code: %s", g_strstrip (lines[idx + 1]));
        }
      g_string_append_printf (body, "\n# %s\n", summary->str);
      g_string_free (summary, TRUE);
    }
  else if (*prev == NULL || **prev != '\0')
    {
      g_free (*prev);
      *prev = g_strdup ("");
      out_append (body, "\n# No stacktrace found for following nodes \n");
    }
}

static gboolean
is_wrapped (const FxNode *node)
{
  FxValue key;
  FxValue *v;
  gboolean wrapped;

  if (fx_dict_len (node->meta) == 0)   /* most nodes: no allocation for the key */
    return FALSE;
  key = fx_value_str ("is_wrapped");
  v = fx_dict_get (node->meta, &key);
  wrapped = v != NULL && v->kind == FX_VALUE_BOOL && v->b;
  fx_value_clear (&key);
  return wrapped;
}

/* Last uses: walking the nodes backwards, the first use of a node met is its last. The
 * (user, node) pairs come out grouped by user, users last to first, each group in the order
 * torch.fx lists them; the forward walk takes its groups from the end. */
typedef struct {
  FxNode *user, *node;
} LastUse;

typedef struct {
  FxPtrMap seen;                  /* nodes whose last use is known (as a set) */
  GArray *pairs;                  /* of LastUse */
  FxNode *user;
} LastUses;

static void
register_last_use (FxNode *node, gpointer data)
{
  LastUses *lu = data;
  LastUse pair = { lu->user, node };

  if (fx_ptr_map_insert (&lu->seen, node, node))
    g_array_append_val (lu->pairs, pair);
}

/* The names FX pre-registers as globals of every generated module. */
static const char *const custom_builtins[] = {
  "inf", "nan", "NoneType", "torch", "device", "fx_pytree", "pytree",
};

char *
fx_graph_python_code (FxGraph *graph, const char *root_module, gboolean verbose)
{
  return fx_graph_python_code_full (graph, root_module, verbose, NULL, NULL);
}

static char *python_code (FxGraph *graph, const char *root_module, gboolean verbose,
                          GPtrArray *global_names, GPtrArray *global_values,
                          GPtrArray *line_nodes);

char *
fx_graph_python_code_full (FxGraph *graph, const char *root_module, gboolean verbose,
                           GPtrArray *global_names, GPtrArray *global_values)
{
  return python_code (graph, root_module, verbose, global_names, global_values, NULL);
}

char *
fx_graph_python_code_with_lines (FxGraph *graph, const char *root_module, gboolean verbose,
                                 GPtrArray *line_nodes)
{
  g_return_val_if_fail (line_nodes != NULL, NULL);
  return python_code (graph, root_module, verbose, NULL, NULL, line_nodes);
}

/* Fills line_nodes (0-based line of code → FxNode* or NULL) from where each node's statement
 * starts in body (starts: node, body offset pairs in body order, taken after any stack-trace
 * comment). A node whose statement is empty (most placeholders) starts where the next one
 * does, which then overwrites it. One pass over the body: linear in the code's size. */
static void
fill_line_map (GPtrArray *line_nodes, const char *code, const GString *body, GArray *starts)
{
  guint body_first_line = 0, body_line = 0;
  gsize pos = 0;
  const char *def = strstr (code, "\ndef forward(");

  /* The body is indented below the `def forward(...):` line. */
  for (const char *c = code; def != NULL && c <= def + 1; c++)
    body_first_line += *c == '\n';
  body_first_line++;
  for (const char *c = code; *c; c++)
    if (*c == '\n')
      g_ptr_array_add (line_nodes, NULL);
  g_ptr_array_add (line_nodes, NULL);

  for (guint i = 0; i < starts->len; i += 2)
    {
      FxNode *node = g_array_index (starts, gpointer, i);
      gsize offset = GPOINTER_TO_SIZE (g_array_index (starts, gpointer, i + 1));

      for (; pos < offset && pos < body->len; pos++)
        body_line += body->str[pos] == '\n';
      if (body_first_line + body_line < line_nodes->len)
        line_nodes->pdata[body_first_line + body_line] = node;
    }
}

static char *
python_code (FxGraph *graph, const char *root_module, gboolean verbose,
             GPtrArray *global_names, GPtrArray *global_values, GPtrArray *line_nodes)
{
  CodeGen cg = { 0 };
  LastUses lu = { 0 };
  /* about a line per node: sized once instead of regrown a dozen times */
  GString *body = g_string_sized_new (48 * (gsize) fx_graph_n_nodes (graph) + 64);
  g_autoptr (GPtrArray) free_vars = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *return_annotation = g_strdup ("");
  g_autofree char *prev_trace = NULL;
  GString *code, *result;
  g_autoptr (GArray) starts = g_array_new (FALSE, FALSE, sizeof (gpointer));

  cg.names = fx_namespace_new ();
  /* a name per node and a few globals */
  fx_namespace_reserve (cg.names, fx_graph_n_nodes (graph) + 16);
  cg.wrapped = g_hash_table_new (g_str_hash, g_str_equal);
  cg.wrapped_order = g_ptr_array_new ();
  cg.global_names = global_names;
  cg.global_values = global_values;
  cg.globals_seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < G_N_ELEMENTS (custom_builtins); i++)
    fx_namespace_create_name (cg.names, custom_builtins[i], custom_builtins[i], custom_builtins[i]);

  fx_ptr_map_reserve (&lu.seen, fx_graph_n_nodes (graph));
  lu.pairs = g_array_sized_new (FALSE, FALSE, sizeof (LastUse), fx_graph_n_nodes (graph));
  for (FxNode *node = fx_graph_last (graph); node != NULL; node = fx_node_prev (node))
    {
      lu.user = node;
      fx_value_foreach_node (&node->args, register_last_use, &lu);
      fx_value_foreach_node (&node->kwargs, register_last_use, &lu);
    }

  guint dead_end = lu.pairs->len;
  for (FxNode *node = fx_graph_first (graph); node != NULL; node = fx_node_next (node))
    {
      /* node's group of last uses: pairs[dead_from .. dead_to) */
      guint dead_to = dead_end, dead_from = dead_end;
      const char *type = node->type.kind == FX_VALUE_STR ? node->type.s->data : NULL;
      g_autofree char *annotation_owned = type ? g_strdup_printf (" : %s", type_repr (&cg, type)) : NULL;
      const char *annotation = annotation_owned != NULL ? annotation_owned : "";

      while (dead_from > 0 && g_array_index (lu.pairs, LastUse, dead_from - 1).user == node)
        dead_from--;
      dead_end = dead_from;
      if (verbose)
        emit_stacktrace_summary (body, node, &prev_trace);
      if (line_nodes != NULL && node->op != FX_OP_ROOT)
        {
          gpointer offset = GSIZE_TO_POINTER (body->len);
          g_array_append_val (starts, node);
          g_array_append_val (starts, offset);
        }

      switch (node->op)
        {
        case FX_OP_PLACEHOLDER:
          {
            const char *target = node->target.s->data;
            GString *var = g_string_new (target);
            g_autofree char *raw_name = NULL;
            const char *repr;

            out_append (var, annotation);
            if (node->args.seq->len > 0)
              {
                out_append (var, " = ");
                arg_repr (&cg, &node->args.seq->items[0], var);
              }
            g_ptr_array_add (free_vars, g_string_free (var, FALSE));
            raw_name = g_strdup (target);
            {
              char *w = raw_name;
              for (char *r = raw_name; *r; r++)
                if (*r != '*')
                  *w++ = *r;
              *w = '\0';
            }
            repr = node_repr (&cg, node);
            if (strcmp (raw_name, repr) != 0)
              g_string_append_printf (body, "%s = %s\n", repr, raw_name);
            continue;   /* placeholders add no line ending of their own */
          }
        case FX_OP_CALL_METHOD:
          {
            g_autofree char *self = arg_repr_str (&cg, &node->args.seq->items[0]);
            append_assign (body, node_repr (&cg, node), annotation);
            fx_format_target (body, self, node->target.s->data);
            g_string_append_c (body, '(');
            format_args (&cg, body, &node->args, 1, &node->kwargs);
            g_string_append_c (body, ')');
          }
          break;
        case FX_OP_CALL_FUNCTION:
          {
            const char *qualified = fx_target_qualified_name (&node->target);
            const char *format;
            const char *global;
            gconstpointer obj = node->target.kind == FX_VALUE_OP ? (gconstpointer) node->target.op
                                                                  : (gconstpointer) node->target.obj;

            if ((format = lookup_format (qualified, FALSE)) != NULL)
              {
                append_assign (body, node_repr (&cg, node), annotation);
                append_operator (&cg, body, format, &node->args);
                break;
              }
            if ((format = lookup_format (qualified, TRUE)) != NULL)
              {
                append_operator (&cg, body, format, &node->args);
                out_append (body, ";  ");
                append_assign (body, node_repr (&cg, node), annotation);
                arg_repr (&cg, &node->args.seq->items[0], body);
                break;
              }
            global = add_global (&cg, qualified, obj,
                                 strchr (qualified, '.') == NULL ? qualified : NULL);
            if (cg.global_names != NULL && global != qualified
                && g_hash_table_add (cg.globals_seen, (gpointer) global))
              {
                g_ptr_array_add (cg.global_names, g_strdup (global));
                g_ptr_array_add (cg.global_values, &node->target);
              }
            if (strcmp (global, "getattr") == 0 && node->args.seq->len == 2
                && node->args.seq->items[1].kind == FX_VALUE_STR
                && fx_is_identifier (node->args.seq->items[1].s->data))
              {
                g_autofree char *base = arg_repr_str (&cg, &node->args.seq->items[0]);
                append_assign (body, node_repr (&cg, node), annotation);
                fx_format_target (body, base, node->args.seq->items[1].s->data);
                break;
              }
            append_assign (body, node_repr (&cg, node), annotation);
            out_append (body, global);
            g_string_append_c (body, '(');
            format_args (&cg, body, &node->args, 0, &node->kwargs);
            g_string_append_c (body, ')');
            if (is_wrapped (node) && !g_hash_table_contains (cg.wrapped, global))
              {
                g_hash_table_add (cg.wrapped, (gpointer) global);
                g_ptr_array_add (cg.wrapped_order, (gpointer) global);
              }
          }
          break;
        case FX_OP_CALL_MODULE:
          append_assign (body, node_repr (&cg, node), annotation);
          fx_format_target (body, root_module, node->target.s->data);
          g_string_append_c (body, '(');
          format_args (&cg, body, &node->args, 0, &node->kwargs);
          g_string_append_c (body, ')');
          break;
        case FX_OP_GET_ATTR:
          append_assign (body, node_repr (&cg, node), annotation);
          fx_format_target (body, root_module, node->target.s->data);
          break;
        case FX_OP_OUTPUT:
          if (type != NULL)
            {
              g_free (return_annotation);
              return_annotation = g_strdup_printf (" -> %s", type_repr (&cg, type));
            }
          out_append (body, "return ");
          arg_repr (&cg, &node->args.seq->items[0], body);
          g_string_append_c (body, '\n');
          continue;
        case FX_OP_ROOT:
          continue;
        }

      /* delete_unused_values */
      {
        if (dead_from < dead_to)
          {
            out_append (body, ";  ");
            for (guint i = dead_from; i < dead_to; i++)
              {
                out_append (body, node_repr (&cg, g_array_index (lu.pairs, LastUse, i).node));
                out_append_len (body, " = ", 3);
              }
            out_append (body, "None\n");
          }
        else
          g_string_append_c (body, '\n');
      }
    }

  if (body->len == 0)
    out_append (body, "pass\n");

  result = g_string_new ("\n");
  for (guint i = 0; i < cg.wrapped_order->len; i++)
    g_string_append_printf (result, "%storch.fx._symbolic_trace.wrap(\"%s\")", i ? "\n" : "",
                            (char *) cg.wrapped_order->pdata[i]);
  out_append (result, "\n\ndef forward(");
  if (free_vars->len == 0 || strcmp (free_vars->pdata[0], "self") != 0)
    g_string_append_printf (result, "self%s", free_vars->len ? ", " : "");
  for (guint i = 0; i < free_vars->len; i++)
    g_string_append_printf (result, "%s%s", i ? ", " : "", (char *) free_vars->pdata[i]);
  g_string_append_printf (result, ")%s:\n", return_annotation);

  /* Every line of the body, including the empty one after its last newline, is indented. */
  code = g_string_sized_new (body->len + body->len / 4 + 8);
  out_append (code, "    ");
  for (const char *p = body->str;;)
    {
      const char *nl = strchr (p, '\n');
      if (nl == NULL)
        {
          out_append (code, p);
          break;
        }
      out_append_len (code, p, nl + 1 - p);
      out_append (code, "    ");
      p = nl + 1;
    }
  out_append (result, code->str);
  if (line_nodes != NULL)
    fill_line_map (line_nodes, result->str, body, starts);

  g_string_free (code, TRUE);
  g_string_free (body, TRUE);
  fx_ptr_map_clear (&lu.seen);
  g_array_unref (lu.pairs);
  g_hash_table_unref (cg.wrapped);
  g_ptr_array_unref (cg.wrapped_order);
  g_hash_table_unref (cg.globals_seen);
  fx_namespace_free (cg.names);
  return g_string_free (result, FALSE);
}
