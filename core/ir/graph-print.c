/* graph-print.c: how torch.fx 1.13 prints graphs — Node.format_node(), str(graph) and
 * Graph.print_tabular() (tabulate's "simple" table). */
#include "ir/graph.h"
#include "ops/op.h"

#include <string.h>

/* _format_arg: containers are walked, nodes print as %name, anything else as str(). */
void
fx_format_arg (const FxValue *value, GString *out)
{
  switch (value->kind)
    {
    case FX_VALUE_LIST:
    case FX_VALUE_TUPLE:
      {
        gboolean is_list = value->kind == FX_VALUE_LIST;
        g_string_append_c (out, is_list ? '[' : '(');
        for (guint i = 0; i < value->seq->len; i++)
          {
            if (i > 0)
              g_string_append (out, ", ");
            fx_format_arg (&value->seq->items[i], out);
          }
        if (!is_list && value->seq->len == 1)
          g_string_append_c (out, ',');
        g_string_append_c (out, is_list ? ']' : ')');
      }
      break;
    case FX_VALUE_DICT:
      {
        const FxValue *k, *v;
        g_string_append_c (out, '{');
        for (guint i = 0; fx_dict_entry (value->dict, i, &k, &v); i++)
          {
            if (i > 0)
              g_string_append (out, ", ");
            if (k->kind == FX_VALUE_STR)
              g_string_append (out, k->s->data);
            else
              fx_value_repr (k, out);
            g_string_append (out, ": ");
            fx_format_arg (v, out);
          }
        g_string_append_c (out, '}');
      }
      break;
    case FX_VALUE_NODE:
      g_string_append_c (out, '%');
      g_string_append (out, value->node->name);
      break;
    case FX_VALUE_STR:
      g_string_append (out, value->s->data);
      break;
    default:
      fx_value_repr (value, out);
      break;
    }
}

static const char *
type_str (const FxNode *node)
{
  return node->type.kind == FX_VALUE_STR ? node->type.s->data : NULL;
}

char *
fx_node_format (const FxNode *node)
{
  GString *s = g_string_new (NULL);
  const char *type = type_str (node);
  g_autofree char *target = NULL;

  switch (node->op)
    {
    case FX_OP_PLACEHOLDER:
      g_string_append_printf (s, "%%%s : %s%s[#users=%u] = placeholder[target=%s]", node->name,
                              type ? type : "", type ? " " : "", fx_node_set_size (&node->users),
                              node->target.s->data);
      if (node->args.seq->len > 0)
        {
          g_string_append (s, "(default=");
          /* str() of the default */
          if (node->args.seq->items[0].kind == FX_VALUE_STR)
            g_string_append (s, node->args.seq->items[0].s->data);
          else
            fx_value_repr (&node->args.seq->items[0], s);
          g_string_append_c (s, ')');
        }
      break;
    case FX_OP_OUTPUT:
      g_string_append (s, "return ");
      {
        const FxValue *result = &node->args.seq->items[0];
        if (result->kind == FX_VALUE_STR)
          g_string_append (s, result->s->data);
        else
          fx_value_repr (result, s);
      }
      break;
    case FX_OP_GET_ATTR:
      target = fx_node_pretty_target (node);
      g_string_append_printf (s, "%%%s : %s%s[#users=%u] = get_attr[target=%s]", node->name,
                              type ? type : "", type ? " " : "", fx_node_set_size (&node->users),
                              target);
      break;
    default:
      target = fx_node_pretty_target (node);
      g_string_append_printf (s, "%%%s : %s%s[#users=%u] = %s[target=%s](args = ", node->name,
                              type ? type : "", type ? " " : "", fx_node_set_size (&node->users),
                              fx_node_op_name (node->op), target);
      fx_format_arg (&node->args, s);
      g_string_append (s, ", kwargs = ");
      fx_format_arg (&node->kwargs, s);
      g_string_append_c (s, ')');
      break;
    }
  return g_string_free (s, FALSE);
}

/* str(graph). torch.fx 1.13 means to list placeholders in the signature, but its list only
 * grows once non-empty, so it never does: every placeholder prints as a node line, the header
 * is always "graph():" and no return annotation is shown. */
char *
fx_graph_to_string (FxGraph *graph)
{
  GString *s = g_string_new ("graph():");

  for (FxNode *node = fx_graph_first (graph); node != NULL; node = fx_node_next (node))
    {
      g_autofree char *line = fx_node_format (node);
      g_string_append_printf (s, "\n    %s", line);
    }
  return g_string_free (s, FALSE);
}

/* torch.nn.functional's functions that 1.13 makes with boolean_dispatch (on return_indices):
 * Python functions whose name is that of boolean_dispatch's inner function. */
static const char *const boolean_dispatched[] = {
  "torch.nn.functional.max_pool1d", "torch.nn.functional.max_pool2d",
  "torch.nn.functional.max_pool3d", "torch.nn.functional.adaptive_max_pool1d",
  "torch.nn.functional.adaptive_max_pool2d", "torch.nn.functional.adaptive_max_pool3d",
  "torch.nn.functional.fractional_max_pool2d", "torch.nn.functional.fractional_max_pool3d",
};

/* Python's str() of a callable target. The address is this process's object address. */
char *
fx_target_python_str (const FxValue *target)
{
  const char *qualified = fx_target_qualified_name (target);
  const char *name = fx_target_function_name (target);
  gsize address = GPOINTER_TO_SIZE (target->kind == FX_VALUE_OP ? (gconstpointer) target->op
                                                                 : (gconstpointer) target->obj);

  if (target->kind == FX_VALUE_STR)
    return g_strdup (target->s->data);
  if (target->kind == FX_VALUE_OP)
    for (guint i = 0; i < G_N_ELEMENTS (boolean_dispatched); i++)
      if (strcmp (qualified, boolean_dispatched[i]) == 0)
        name = "boolean_dispatch.<locals>.fn";
  /* the script interpreter's native functions: builtins (len, getattr) and those of the C
   * modules of CPython are built-in functions there too */
  if (target->kind == FX_VALUE_OBJECT
      && strcmp (target->obj->klass->name, "builtin_function_or_method") == 0
      && (strchr (qualified, '.') == NULL || g_str_has_prefix (qualified, "operator.")
          || g_str_has_prefix (qualified, "math.") || g_str_has_prefix (qualified, "time.")))
    return g_strdup_printf ("<built-in function %s>", name);
  if (target->kind == FX_VALUE_OBJECT
      || (target->kind == FX_VALUE_OP && (target->op->flags & FX_OP_FLAG_PYTHON_FUNCTION)))
    return g_strdup_printf ("<function %s at %#" G_GSIZE_MODIFIER "x>", name, address);
  if (strchr (qualified, '.') == NULL || g_str_has_prefix (qualified, "operator.")
      || g_str_has_prefix (qualified, "math.") || g_str_has_prefix (qualified, "torch._C._nn."))
    return g_strdup_printf ("<built-in function %s>", name);
  if (g_str_has_prefix (qualified, "torch.nn.functional.") || g_str_has_prefix (qualified, "torch.functional.")
      || g_str_has_prefix (qualified, "torch.fx."))
    return g_strdup_printf ("<function %s at %#" G_GSIZE_MODIFIER "x>", name, address);
  return g_strdup_printf ("<built-in method %s of type object at %#" G_GSIZE_MODIFIER "x>", name,
                          address);
}

/* str() of a value as tabulate receives it: strings bare, everything else repr(). */
static char *
cell_str (const FxValue *value)
{
  GString *s = g_string_new (NULL);

  if (value->kind == FX_VALUE_STR)
    g_string_append (s, value->s->data);
  else
    fx_value_repr (value, s);
  return g_string_free (s, FALSE);
}

/* tabulate(rows, headers, tablefmt="simple"): columns two spaces apart, each as wide as its
 * widest cell or its header plus two, left-aligned, trailing blanks stripped per line. */
char *
fx_graph_tabular (FxGraph *graph)
{
  static const char *const headers[] = { "opcode", "name", "target", "args", "kwargs" };
  enum { N_COLUMNS = G_N_ELEMENTS (headers) };
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  gsize width[N_COLUMNS];
  GString *s = g_string_new (NULL);
  guint n_rows = 0;

  for (guint c = 0; c < N_COLUMNS; c++)
    width[c] = strlen (headers[c]) + 2;

  for (FxNode *node = fx_graph_first (graph); node != NULL; node = fx_node_next (node), n_rows++)
    {
      char *row[N_COLUMNS] = {
        g_strdup (fx_node_op_name (node->op)),
        g_strdup (node->name),
        node->op == FX_OP_CALL_FUNCTION ? fx_target_python_str (&node->target) : cell_str (&node->target),
        cell_str (&node->args),
        cell_str (&node->kwargs),
      };
      for (guint c = 0; c < N_COLUMNS; c++)
        {
          width[c] = MAX (width[c], (gsize) g_utf8_strlen (row[c], -1));
          g_ptr_array_add (cells, row[c]);
        }
    }

#define APPEND_ROW(get)                                                          \
  G_STMT_START {                                                                 \
    gsize line_start = s->len;                                                   \
    for (guint c = 0; c < N_COLUMNS; c++)                                        \
      {                                                                          \
        const char *cell = (get);                                                \
        if (c > 0)                                                               \
          g_string_append (s, "  ");                                             \
        g_string_append (s, cell);                                               \
        for (gsize k = g_utf8_strlen (cell, -1); k < width[c]; k++)              \
          g_string_append_c (s, ' ');                                            \
      }                                                                          \
    while (s->len > line_start && s->str[s->len - 1] == ' ')                     \
      g_string_truncate (s, s->len - 1);                                         \
    g_string_append_c (s, '\n');                                                 \
  } G_STMT_END

  APPEND_ROW (headers[c]);
  for (guint c = 0; c < N_COLUMNS; c++)
    {
      if (c > 0)
        g_string_append (s, "  ");
      for (gsize k = 0; k < width[c]; k++)
        g_string_append_c (s, '-');
    }
  g_string_append_c (s, '\n');
  for (guint r = 0; r < n_rows; r++)
    APPEND_ROW ((const char *) cells->pdata[r * N_COLUMNS + c]);
#undef APPEND_ROW

  /* print() adds the final newline; the table itself ends without one. */
  if (s->len > 0)
    g_string_truncate (s, s->len - 1);
  return g_string_free (s, FALSE);
}
