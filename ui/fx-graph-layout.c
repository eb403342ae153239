/* fx-graph-layout.c: the graph view's geometry — groups nodes into module clusters, builds
 * a cgraph graph of boxes, runs `dot` with bounded effort, and reads back boxes, splines
 * and frames (y pointing down, origin at the drawing's top-left); concat fan-in edges that
 * other edges already order are routed here, beside the boxes, instead of by dot. */
#include "fx-graph-layout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <math.h>
#include <string.h>

/* Graphviz keeps global state (its context, plugin tables, error handlers): one layout at a
 * time in the whole process. */
static GMutex layout_lock;
static GVC_t *layout_context;

#define LABEL_MAX_CHARS 44
#define BOX_MIN_WIDTH 64.0

static void
box_clear (FxLayoutBox *box)
{
  g_free (box->title);
  g_free (box->subtitle);
  g_free (box->detail);
}

static void
edge_clear (FxLayoutEdge *edge)
{
  g_free (edge->points);
}

static void
cluster_clear (FxLayoutCluster *cluster)
{
  g_free (cluster->path);
  g_free (cluster->label);
}

void
fx_graph_layout_free (FxGraphLayout *layout)
{
  if (layout == NULL)
    return;
  g_array_unref (layout->boxes);
  g_array_unref (layout->edges);
  g_array_unref (layout->clusters);
  g_hash_table_unref (layout->box_of_node);
  g_hash_table_unref (layout->cluster_of_path);
  g_free (layout);
}

/* ---- labels ---- */

/* Long targets would make boxes as wide as the screen: keep the start, mark the cut. */
static char *
clip_label (char *text)
{
  if (text == NULL || g_utf8_strlen (text, -1) <= LABEL_MAX_CHARS)
    return text;
  char *end = g_utf8_offset_to_pointer (text, LABEL_MAX_CHARS - 1);
  char *clipped = g_strndup (text, end - text);
  g_free (text);
  text = g_strconcat (clipped, "…", NULL);
  g_free (clipped);
  return text;
}

static const FxValue *
tuple_field (const FxValue *value, const char *field)
{
  if (value->kind != FX_VALUE_TUPLE || value->seq->type == NULL)
    return NULL;
  const FxTupleType *type = value->seq->type;
  for (int i = 0; i < type->n_fields && (guint) i < value->seq->len; i++)
    if (strcmp (type->fields[i], field) == 0)
      return &value->seq->items[i];
  return NULL;
}

/* "[1, 16, 32, 32] float32" from a TensorMetadata (or the first of a structure of them). */
static char *
tensor_meta_label (const FxNode *node)
{
  if (node->meta == NULL)
    return NULL;
  g_auto(FxValue) key = fx_value_str ("tensor_meta");
  const FxValue *meta = fx_dict_get (node->meta, &key);
  gboolean more = FALSE;

  /* A tuple/list of results: describe the first, say there are more. */
  while (meta && (meta->kind == FX_VALUE_TUPLE || meta->kind == FX_VALUE_LIST) &&
         tuple_field (meta, "shape") == NULL && meta->seq->len > 0)
    {
      more |= meta->seq->len > 1;
      meta = &meta->seq->items[0];
    }
  if (meta == NULL)
    return NULL;
  const FxValue *shape = tuple_field (meta, "shape");
  const FxValue *dtype = tuple_field (meta, "dtype");
  if (shape == NULL)
    return NULL;

  GString *out = g_string_new ("[");
  if (shape->kind == FX_VALUE_TUPLE || shape->kind == FX_VALUE_LIST)
    for (guint i = 0; i < shape->seq->len; i++)
      {
        if (i > 0)
          g_string_append (out, ", ");
        if (shape->seq->items[i].kind == FX_VALUE_INT)
          g_string_append_printf (out, "%" G_GINT64_FORMAT, shape->seq->items[i].i);
        else
          fx_value_repr (&shape->seq->items[i], out);
      }
  g_string_append_c (out, ']');
  if (dtype != NULL)
    {
      g_autofree char *repr = fx_value_to_repr (dtype);
      g_string_append_printf (out, " %s", g_str_has_prefix (repr, "torch.") ? repr + 6 : repr);
    }
  if (more)
    g_string_append (out, ", …");
  return g_string_free (out, FALSE);
}

static char *
node_subtitle (const FxNode *node, FxModule *root)
{
  const char *target = node->target.kind == FX_VALUE_STR ? node->target.s->data : NULL;

  switch (node->op)
    {
    case FX_OP_PLACEHOLDER:
      return g_strdup ("input");
    case FX_OP_OUTPUT:
      return g_strdup ("output");
    case FX_OP_GET_ATTR:
      return g_strdup (target ? target : "?");
    case FX_OP_CALL_METHOD:
      return g_strdup_printf (".%s()", target ? target : "?");
    case FX_OP_CALL_MODULE:
      {
        FxModule *module = root && target ? fx_module_get_submodule (root, target, NULL) : NULL;
        if (module != NULL && module->type_name != NULL)
          return g_strdup_printf ("%s · %s", target, module->type_name);
        return g_strdup (target ? target : "?");
      }
    case FX_OP_CALL_FUNCTION:
    default:
      return fx_node_pretty_target (node);
    }
}

static double
text_width (const char *text, const FxLayoutMetrics *metrics)
{
  return text ? g_utf8_strlen (text, -1) * metrics->char_width : 0;
}

static void
box_size (FxLayoutBox *box, const FxLayoutMetrics *metrics)
{
  double w = MAX (text_width (box->title, metrics), text_width (box->subtitle, metrics));
  guint lines = 1 + (box->subtitle != NULL) + (box->detail != NULL);

  w = MAX (w, text_width (box->detail, metrics));
  box->width = MAX (BOX_MIN_WIDTH, ceil (w + 2 * metrics->pad_x));
  box->height = ceil (lines * metrics->line_height + 2 * metrics->pad_y);
}

/* ---- grouping into modules ---- */

/* The module whose forward produced node, from nn_module_stack (last entry), if recorded. */
static const char *
module_stack_path (const FxNode *node)
{
  if (node->meta == NULL)
    return NULL;
  g_auto(FxValue) key = fx_value_str ("nn_module_stack");
  const FxValue *stack = fx_dict_get (node->meta, &key);
  const FxValue *k, *v;
  guint n;

  if (stack == NULL || stack->kind != FX_VALUE_DICT || (n = fx_dict_len (stack->dict)) == 0)
    return NULL;
  if (!fx_dict_entry (stack->dict, n - 1, &k, &v) || k->kind != FX_VALUE_STR)
    return NULL;
  return k->s->data;
}

/* "layer1.0.conv1" → "layer1.0"; NULL at top level. */
static char *
parent_path (const char *path)
{
  const char *dot = path ? strrchr (path, '.') : NULL;
  return dot ? g_strndup (path, dot - path) : NULL;
}

/* Longest common prefix of two dotted paths, component-wise; NULL when empty. */
static char *
common_path (const char *a, const char *b)
{
  if (a == NULL || b == NULL)
    return NULL;
  gsize end = 0, i = 0;
  for (; a[i] && a[i] == b[i]; i++)
    if (a[i] == '.')
      end = i;
  if ((a[i] == '\0' || a[i] == '.') && (b[i] == '\0' || b[i] == '.'))
    end = i;
  return end ? g_strndup (a, end) : NULL;
}

typedef struct {
  char *path;
  int parent;
  guint direct_nodes;
  guint children;
  gboolean dropped;
  int kept;              /* index in the final array, or -1 */
} RawCluster;

static int
ensure_cluster (GArray *raw, GHashTable *index, const char *path)
{
  gpointer found = g_hash_table_lookup (index, path);
  if (found)
    return GPOINTER_TO_INT (found) - 1;

  /* Parents first, walking down the path's components without recursion. */
  int parent = -1;
  for (const char *p = strchr (path, '.'); ; p = strchr (p + 1, '.'))
    {
      g_autofree char *prefix = p ? g_strndup (path, p - path) : g_strdup (path);
      found = g_hash_table_lookup (index, prefix);
      if (found)
        parent = GPOINTER_TO_INT (found) - 1;
      else
        {
          RawCluster rc = { .path = g_steal_pointer (&prefix), .parent = parent, .kept = -1 };
          if (parent >= 0)
            g_array_index (raw, RawCluster, parent).children++;
          g_array_append_val (raw, rc);
          parent = raw->len - 1;
          g_hash_table_insert (index, rc.path, GINT_TO_POINTER (parent + 1));
        }
      if (p == NULL)
        break;
    }
  return parent;
}

static guint64
mix (guint64 h, guint64 v)
{
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

FxGraphLayout *
fx_graph_layout_prepare (FxGraph *graph, FxModule *root, GHashTable *collapsed,
                         guint auto_collapse_above, const FxLayoutMetrics *metrics)
{
  FxGraphLayout *layout = g_new0 (FxGraphLayout, 1);
  guint n_nodes = fx_graph_n_nodes (graph);

  layout->boxes = g_array_new (FALSE, TRUE, sizeof (FxLayoutBox));
  g_array_set_clear_func (layout->boxes, (GDestroyNotify) box_clear);
  layout->edges = g_array_new (FALSE, TRUE, sizeof (FxLayoutEdge));
  g_array_set_clear_func (layout->edges, (GDestroyNotify) edge_clear);
  layout->clusters = g_array_new (FALSE, TRUE, sizeof (FxLayoutCluster));
  g_array_set_clear_func (layout->clusters, (GDestroyNotify) cluster_clear);
  layout->box_of_node = g_hash_table_new (NULL, NULL);
  layout->cluster_of_path = g_hash_table_new (g_str_hash, g_str_equal);

  /* 1. Each node's module path. Nodes without one (functions, methods) take the deepest
   * module shared by the grouped nodes traced just before and after them: torch.fx appends
   * nodes in execution order, so `out += identity` inside layer1.0's forward lies between
   * layer1.0.bn2 and layer1.0.relu. */
  FxNode **nodes = g_new (FxNode *, n_nodes + 1);
  char **paths = g_new0 (char *, n_nodes + 1);
  gboolean *guessed = g_new0 (gboolean, n_nodes + 1);
  guint n = 0;
  for (FxNode *node = fx_graph_first (graph); node; node = fx_node_next (node), n++)
    {
      const char *target = node->target.kind == FX_VALUE_STR ? node->target.s->data : NULL;
      const char *stack = module_stack_path (node);
      nodes[n] = node;
      if (node->op == FX_OP_CALL_MODULE || node->op == FX_OP_GET_ATTR)
        paths[n] = parent_path (target);
      else if (stack != NULL)
        paths[n] = g_strdup (stack);
      else
        guessed[n] = node->op == FX_OP_CALL_FUNCTION || node->op == FX_OP_CALL_METHOD;
    }
  {
    const char *before = NULL;
    g_autofree const char **prev = g_new0 (const char *, n + 1);
    for (guint i = 0; i < n; i++)
      if (guessed[i])
        prev[i] = before;
      else
        before = paths[i];
    /* Then, when all its users sit inside one module within that one, the node goes there:
     * DenseNet's torch.cat runs in the layer that consumes it. Users come later in the graph,
     * so a backward pass has their modules settled. Besides reading better, it keeps edges
     * between sibling clusters, which dot ranks well, rather than into a parent's. */
    GHashTable *index = g_hash_table_new (NULL, NULL);
    for (guint i = 0; i < n; i++)
      g_hash_table_insert (index, nodes[i], GUINT_TO_POINTER (i + 1));
    const char *after = NULL;
    for (guint i = n; i-- > 0;)
      {
        if (!guessed[i])
          {
            after = paths[i];
            continue;
          }
        char *base = common_path (prev[i], after);
        char *users = NULL;
        gboolean first = TRUE;
        FxNode *user;
        for (guint pos = 0; fx_node_set_iter (&nodes[i]->users, &pos, &user);)
          {
            guint u = GPOINTER_TO_UINT (g_hash_table_lookup (index, user));
            const char *path = u ? paths[u - 1] : NULL;
            char *common = first ? g_strdup (path) : common_path (users, path);
            g_free (users);
            users = common;
            first = FALSE;
            if (users == NULL)
              break;
          }
        gsize base_len = base ? strlen (base) : 0;
        if (users != NULL && (base == NULL || (strncmp (users, base, base_len) == 0 &&
                                               (users[base_len] == '\0' || users[base_len] == '.'))))
          {
            g_free (base);
            paths[i] = users;
          }
        else
          {
            g_free (users);
            paths[i] = base;
          }
      }
    g_hash_table_unref (index);
  }

  /* 2. Clusters for every prefix; a leaf cluster holding a single node (a layer's weight
   * fetched by get_attr) is only noise and gives its node to the parent. */
  GArray *raw = g_array_new (FALSE, TRUE, sizeof (RawCluster));
  GHashTable *raw_index = g_hash_table_new (g_str_hash, g_str_equal);
  int *node_cluster = g_new (int, n + 1);
  for (guint i = 0; i < n; i++)
    {
      node_cluster[i] = paths[i] ? ensure_cluster (raw, raw_index, paths[i]) : -1;
      if (node_cluster[i] >= 0)
        g_array_index (raw, RawCluster, node_cluster[i]).direct_nodes++;
    }
  for (guint c = raw->len; c-- > 0;)   /* children come after their parents */
    {
      RawCluster *rc = &g_array_index (raw, RawCluster, c);
      if (rc->children == 0 && rc->direct_nodes <= 1)
        {
          rc->dropped = TRUE;
          if (rc->parent >= 0)
            {
              RawCluster *parent = &g_array_index (raw, RawCluster, rc->parent);
              parent->children--;
              parent->direct_nodes += rc->direct_nodes;
            }
        }
    }
  for (guint c = 0; c < raw->len; c++)
    {
      RawCluster *rc = &g_array_index (raw, RawCluster, c);
      int parent = rc->parent;
      while (parent >= 0 && g_array_index (raw, RawCluster, parent).dropped)
        parent = g_array_index (raw, RawCluster, parent).parent;
      parent = parent >= 0 ? g_array_index (raw, RawCluster, parent).kept : -1;
      if (rc->dropped)
        {
          rc->kept = parent;   /* where its nodes go */
          continue;
        }
      FxLayoutCluster cl = { .path = g_strdup (rc->path), .parent = parent };
      FxModule *module = root ? fx_module_get_submodule (root, rc->path, NULL) : NULL;
      /* GraphModule rebuilds parents of copied layers as plain Modules: that type says nothing. */
      gboolean typed = module && module->type_name && strcmp (module->type_name, "Module") != 0;
      cl.label = typed ? g_strdup_printf ("%s · %s", rc->path, module->type_name) : g_strdup (rc->path);
      if (parent >= 0)
        {
          FxLayoutCluster *pc = &g_array_index (layout->clusters, FxLayoutCluster, parent);
          cl.depth = pc->depth + 1;
          cl.hidden = pc->hidden || pc->collapsed;
        }
      if (collapsed != NULL)
        cl.collapsed = g_hash_table_contains (collapsed, cl.path);
      else
        cl.collapsed = cl.depth == 0 && n_nodes > auto_collapse_above;
      g_array_append_val (layout->clusters, cl);
      rc->kept = layout->clusters->len - 1;
      g_hash_table_insert (layout->cluster_of_path, g_array_index (layout->clusters, FxLayoutCluster, rc->kept).path,
                           GINT_TO_POINTER (rc->kept + 1));
    }
  for (guint i = 0; i < n; i++)
    if (node_cluster[i] >= 0)
      node_cluster[i] = g_array_index (raw, RawCluster, node_cluster[i]).kept;

  /* 3. Boxes: one per node, or one per outermost collapsed module. */
  guint n_clusters = layout->clusters->len;
  int *collapsed_root = g_new (int, n_clusters + 1);
  int *module_box = g_new (int, n_clusters + 1);
  for (guint c = 0; c < n_clusters; c++)
    {
      FxLayoutCluster *cl = &g_array_index (layout->clusters, FxLayoutCluster, c);
      int parent_root = cl->parent >= 0 ? collapsed_root[cl->parent] : -1;
      collapsed_root[c] = parent_root >= 0 ? parent_root : (cl->collapsed ? (int) c : -1);
      module_box[c] = -1;
    }
  guint64 structure = 0;
  for (guint i = 0; i < n; i++)
    {
      int c = node_cluster[i];
      int box_index;
      for (int a = c; a >= 0; a = g_array_index (layout->clusters, FxLayoutCluster, a).parent)
        g_array_index (layout->clusters, FxLayoutCluster, a).n_nodes++;
      if (c >= 0 && collapsed_root[c] >= 0)
        {
          int r = collapsed_root[c];
          if (module_box[r] < 0)
            {
              FxLayoutBox box = { .cluster = r, .op = FX_OP_CALL_MODULE };
              box.title = g_strdup (g_array_index (layout->clusters, FxLayoutCluster, r).path);
              g_array_append_val (layout->boxes, box);
              module_box[r] = layout->boxes->len - 1;
              structure = mix (structure, g_str_hash (box.title));
            }
          box_index = module_box[r];
        }
      else
        {
          FxLayoutBox box = { .node = nodes[i], .cluster = c, .op = nodes[i]->op };
          box.title = clip_label (g_strdup (nodes[i]->name));
          box.subtitle = clip_label (node_subtitle (nodes[i], root));
          box.detail = clip_label (tensor_meta_label (nodes[i]));
          box_size (&box, metrics);
          g_array_append_val (layout->boxes, box);
          box_index = layout->boxes->len - 1;
          structure = mix (structure, (guint64) (gsize) nodes[i]);
          structure = mix (structure, (guint64) (c + 1));
        }
      g_hash_table_insert (layout->box_of_node, nodes[i], GINT_TO_POINTER (box_index + 1));
    }
  for (guint c = 0; c < n_clusters; c++)
    if (module_box[c] >= 0)
      {
        FxLayoutBox *box = &g_array_index (layout->boxes, FxLayoutBox, module_box[c]);
        FxLayoutCluster *cl = &g_array_index (layout->clusters, FxLayoutCluster, c);
        const char *type = strstr (cl->label, " · ");
        box->subtitle = g_strdup_printf ("%s%s%u nodes", type ? type + strlen (" · ") : "",
                                         type ? " · " : "", cl->n_nodes);
        box->detail = g_strdup ("collapsed module");
        box_size (box, metrics);
      }

  /* 4. Edges input → user between boxes, once per pair. */
  GHashTable *seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; i < n; i++)
    {
      guint head = GPOINTER_TO_UINT (g_hash_table_lookup (layout->box_of_node, nodes[i])) - 1;
      FxNode *input;
      for (guint pos = 0; fx_node_set_iter (&nodes[i]->input_nodes, &pos, &input);)
        {
          gpointer t = g_hash_table_lookup (layout->box_of_node, input);
          if (t == NULL)
            continue;
          guint tail = GPOINTER_TO_UINT (t) - 1;
          gint64 key = ((gint64) tail << 32) | head;
          if (tail == head || g_hash_table_contains (seen, &key))
            continue;
          gint64 *stored = g_new (gint64, 1);
          *stored = key;
          g_hash_table_add (seen, stored);
          FxLayoutEdge edge = { .tail = tail, .head = head };
          g_array_append_val (layout->edges, edge);
          structure = mix (structure, (guint64) key);
        }
    }
  g_hash_table_unref (seen);
  layout->structure = structure;

  for (guint i = 0; i < n; i++)
    g_free (paths[i]);
  for (guint c = 0; c < raw->len; c++)
    g_free (g_array_index (raw, RawCluster, c).path);
  g_array_unref (raw);
  g_hash_table_unref (raw_index);
  g_free (collapsed_root);
  g_free (module_box);
  g_free (node_cluster);
  g_free (guessed);
  g_free (paths);
  g_free (nodes);
  return layout;
}

int
fx_graph_layout_box_of (const FxGraphLayout *layout, FxNode *node)
{
  return GPOINTER_TO_INT (g_hash_table_lookup (layout->box_of_node, node)) - 1;
}

int
fx_graph_layout_cluster_of (const FxGraphLayout *layout, const char *path)
{
  return GPOINTER_TO_INT (g_hash_table_lookup (layout->cluster_of_path, path)) - 1;
}

/* ---- running dot ---- */

static void
set_attr (void *object, Agsym_t *sym, const char *value)
{
  agxset (object, sym, (char *) value);
}

static char *
inches (double points)
{
  return g_strdup_printf ("%.4f", points / 72.0);
}

/* ---- edges implied by others ---- */

/* DenseNet hands every layer's output to the torch.cat of every later layer in its block:
 * over half of its edges, most spanning many ranks into nested clusters. Given to dot they
 * took most of its time (virtual nodes, and delete_fast_node's list scans for clusters) and
 * came back looping around whole blocks, 65 of them pointing up. So an edge into a box with
 * three or more inputs is left out of dot when its tail already reaches the head through
 * "primary" inputs (each box's latest input, in graph order), which dot does see: ranks still
 * put the tail above the head, and route_implied() draws the edge beside the boxes after.
 * Primary inputs form a forest (a parent always comes earlier), where ancestry is an O(1)
 * test on the entry/exit numbers of one iterative depth-first walk. */
static gboolean *
find_implied_edges (const FxGraphLayout *layout)
{
  guint n_boxes = layout->boxes->len, n_edges = layout->edges->len;
  gboolean *implied = g_new0 (gboolean, n_edges + 1);
  guint *in_degree = g_new0 (guint, n_boxes + 1);
  int *primary = g_new (int, n_boxes + 1);
  guint *start = g_new0 (guint, n_boxes + 2);
  guint *fill = g_new (guint, n_boxes + 1);
  guint *child = g_new (guint, n_boxes + 1);
  guint *enter = g_new (guint, n_boxes + 1);
  guint *leave = g_new (guint, n_boxes + 1);
  guint *stack = g_new (guint, n_boxes + 1);
  guint clock = 0;

  for (guint b = 0; b < n_boxes; b++)
    primary[b] = -1;
  for (guint e = 0; e < n_edges; e++)
    {
      const FxLayoutEdge *edge = &g_array_index (layout->edges, FxLayoutEdge, e);
      in_degree[edge->head]++;
      if (edge->tail < edge->head && (int) edge->tail > primary[edge->head])
        primary[edge->head] = edge->tail;
    }
  for (guint b = 0; b < n_boxes; b++)
    if (primary[b] >= 0)
      start[primary[b] + 1]++;
  for (guint b = 0; b < n_boxes; b++)
    start[b + 1] += start[b];
  memcpy (fill, start, n_boxes * sizeof *fill);
  for (guint b = 0; b < n_boxes; b++)
    if (primary[b] >= 0)
      child[fill[primary[b]]++] = b;
  /* fill[v] now runs over v's children again as the walk's cursor. */
  memcpy (fill, start, n_boxes * sizeof *fill);
  for (guint root = 0; root < n_boxes; root++)
    {
      if (primary[root] >= 0)
        continue;
      guint depth = 0;
      stack[depth++] = root;
      enter[root] = clock++;
      while (depth > 0)
        {
          guint v = stack[depth - 1];
          if (fill[v] < start[v + 1])
            {
              guint c = child[fill[v]++];
              enter[c] = clock++;
              stack[depth++] = c;
            }
          else
            {
              leave[v] = clock++;
              depth--;
            }
        }
    }
  for (guint e = 0; e < n_edges; e++)
    {
      const FxLayoutEdge *edge = &g_array_index (layout->edges, FxLayoutEdge, e);
      int p = primary[edge->head];
      implied[e] = in_degree[edge->head] >= 3 && p >= 0 && edge->tail != (guint) p &&
                   enter[edge->tail] <= enter[p] && leave[p] <= leave[edge->tail];
    }
  g_free (in_degree);
  g_free (primary);
  g_free (start);
  g_free (fill);
  g_free (child);
  g_free (enter);
  g_free (leave);
  g_free (stack);
  return implied;
}

static int
compare_centre_y (gconstpointer a, gconstpointer b, gpointer data)
{
  const GArray *boxes = data;
  const FxLayoutBox *p = &g_array_index (boxes, FxLayoutBox, *(const guint *) a);
  const FxLayoutBox *q = &g_array_index (boxes, FxLayoutBox, *(const guint *) b);
  double y = p->y + p->height / 2, z = q->y + q->height / 2;
  return y < z ? -1 : y > z;
}

/* First index in the sorted ys[0..n) whose value is >= y (or > y when after). */
static guint
bisect (const double *ys, guint n, double y, gboolean after)
{
  guint lo = 0, hi = n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (ys[mid] < y || (after && ys[mid] == y))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Draws the edges dot did not see: out of the tail's right side, down a lane clear of every
 * box between the two heights, and into the head's right side. Longer edges take lanes
 * further out, so that nested spans nest rather than cross. The rightmost box side over a
 * band of heights comes from a sparse table of maxima over the boxes sorted by height. */
static void
route_implied (FxGraphLayout *layout, const gboolean *implied)
{
  guint n = layout->boxes->len, levels = 1;
  layout->n_implied = 0;
  if (n == 0)
    return;
  while ((1u << levels) <= n)
    levels++;
  guint *order = g_new (guint, n);
  double *ys = g_new (double, n);
  double *table = g_new (double, (gsize) levels * n);
  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof *order, compare_centre_y, layout->boxes);
  for (guint i = 0; i < n; i++)
    {
      const FxLayoutBox *box = &g_array_index (layout->boxes, FxLayoutBox, order[i]);
      ys[i] = box->y + box->height / 2;
      table[i] = box->x + box->width;
    }
  for (guint k = 1; k < levels; k++)
    for (guint i = 0; i + (1u << k) <= n; i++)
      table[k * n + i] = MAX (table[(k - 1) * n + i], table[(k - 1) * n + i + (1u << (k - 1))]);

  const double arrow = 6.0;   /* what dot leaves for arrowsize 0.6 */
  for (guint e = 0; e < layout->edges->len; e++)
    {
      if (!implied[e])
        continue;
      FxLayoutEdge *edge = &g_array_index (layout->edges, FxLayoutEdge, e);
      const FxLayoutBox *t = &g_array_index (layout->boxes, FxLayoutBox, edge->tail);
      const FxLayoutBox *h = &g_array_index (layout->boxes, FxLayoutBox, edge->head);
      double y0 = t->y + t->height / 2, y1 = h->y + h->height / 2;
      guint lo = bisect (ys, n, MIN (y0, y1), FALSE), hi = bisect (ys, n, MAX (y0, y1), TRUE);
      double right = MAX (t->x + t->width, h->x + h->width);
      if (hi > lo)
        {
          guint k = g_bit_nth_msf (hi - lo, -1);
          right = MAX (right, MAX (table[k * n + lo], table[k * n + hi - (1u << k)]));
        }
      double lane = right + 14 + 0.03 * fabs (y1 - y0);
      double r = MIN (24.0, fabs (y1 - y0) / 3) * (y1 >= y0 ? 1 : -1);
      double xt = t->x + t->width, xh = h->x + h->width + arrow;
      FxLayoutPoint pts[10] = {
        { xt, y0 }, { lane, y0 }, { lane, y0 }, { lane, y0 + r },
        { lane, y0 + r }, { lane, y1 - r }, { lane, y1 - r },
        { lane, y1 }, { lane, y1 }, { xh, y1 },
      };
      g_free (edge->points);
      edge->points = g_memdup2 (pts, sizeof pts);
      edge->n_points = G_N_ELEMENTS (pts);
      edge->has_arrow = TRUE;
      edge->arrow_tip = (FxLayoutPoint) { h->x + h->width, y1 };
      layout->width = MAX (layout->width, lane + 8);
      layout->n_implied++;
    }
  g_free (order);
  g_free (ys);
  g_free (table);
}

gboolean
fx_graph_layout_run (FxGraphLayout *layout, GCancellable *cancellable, GError **error)
{
  guint n_boxes = layout->boxes->len, n_edges = layout->edges->len;
  guint n_clusters = layout->clusters->len;
  gboolean ok = FALSE;

  g_mutex_lock (&layout_lock);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    goto out;
  if (layout_context == NULL)
    layout_context = gvContext ();

  gint64 start = g_get_monotonic_time ();
  Agraph_t *g = agopen ((char *) "fx", Agdirected, NULL);
  /* The settings that keep dot fast on real networks (DESIGN §5): bounded crossing
   * minimisation (mclimit) and network simplex (nslimit, nslimit1, searchsize), tighter
   * still on big graphs, where their cost grows faster than the graph; simple polylines
   * instead of splines past a few thousand edges. nslimit bounds the x-placement pass,
   * whose auxiliary graph (a node per box and per edge, plus DenseNet's many long edges'
   * virtual nodes) makes it the costliest: each simplex pivot walks the whole tree. Cut
   * from 2 to 0.2 it took DenseNet-121 given all its edges from 0.53 to 0.31 s CPU for a
   * sum of horizontal edge runs 0.6% longer (Graphviz 2.42); small graphs keep the full
   * search, which costs them nothing. */
  gboolean big = n_boxes > 1000, small = n_boxes <= 200;
  agattr (g, AGRAPH, (char *) "rankdir", (char *) "TB");
  agattr (g, AGRAPH, (char *) "nodesep", (char *) "0.25");
  agattr (g, AGRAPH, (char *) "ranksep", (char *) "0.35");
  agattr (g, AGRAPH, (char *) "mclimit", (char *) (big ? "0.1" : "0.3"));
  agattr (g, AGRAPH, (char *) "nslimit", (char *) (big ? "0.1" : small ? "2" : "0.2"));
  agattr (g, AGRAPH, (char *) "nslimit1", (char *) (big ? "0.1" : "2"));
  agattr (g, AGRAPH, (char *) "searchsize", (char *) "20");
  agattr (g, AGRAPH, (char *) "remincross", (char *) "false");
  agattr (g, AGRAPH, (char *) "splines", (char *) (n_edges > 3000 ? "polyline" : "spline"));
  Agsym_t *g_label = agattr (g, AGRAPH, (char *) "label", (char *) "");
  agattr (g, AGRAPH, (char *) "labeljust", (char *) "l");
  agattr (g, AGRAPH, (char *) "labelloc", (char *) "t");
  agattr (g, AGRAPH, (char *) "fontsize", (char *) "10");
  agattr (g, AGRAPH, (char *) "fontname", (char *) "Helvetica");
  agattr (g, AGRAPH, (char *) "margin", (char *) "8");
  agattr (g, AGNODE, (char *) "shape", (char *) "box");
  agattr (g, AGNODE, (char *) "fixedsize", (char *) "true");
  agattr (g, AGNODE, (char *) "label", (char *) "");
  Agsym_t *n_width = agattr (g, AGNODE, (char *) "width", (char *) "1");
  Agsym_t *n_height = agattr (g, AGNODE, (char *) "height", (char *) "0.5");
  agattr (g, AGEDGE, (char *) "arrowsize", (char *) "0.6");

  /* dot spends time quadratic in the ranks a cluster spans times the clusters nested around
   * it (rank leaders deleted from a linked list). A module holding nothing but submodules
   * (a ModuleList, `features`) gets no subgraph of its own on big graphs: its frame is drawn
   * around its children's afterwards. */
  guint *direct = g_new0 (guint, n_clusters + 1);
  for (guint b = 0; b < n_boxes; b++)
    {
      FxLayoutBox *box = &g_array_index (layout->boxes, FxLayoutBox, b);
      int c = box->node ? box->cluster
                        : g_array_index (layout->clusters, FxLayoutCluster, box->cluster).parent;
      if (c >= 0)
        direct[c]++;
    }

  /* Subgraphs for the expanded, shown clusters; parents come first in the array. */
  Agraph_t **subgraphs = g_new0 (Agraph_t *, n_clusters + 1);
  for (guint c = 0; c < n_clusters; c++)
    {
      FxLayoutCluster *cl = &g_array_index (layout->clusters, FxLayoutCluster, c);
      if (cl->hidden || cl->collapsed || (big && direct[c] == 0))
        continue;
      Agraph_t *parent = g;
      for (int a = cl->parent; a >= 0 && parent == g;
           a = g_array_index (layout->clusters, FxLayoutCluster, a).parent)
        if (subgraphs[a])
          parent = subgraphs[a];
      char name[32];
      g_snprintf (name, sizeof name, "cluster_%u", c);
      subgraphs[c] = agsubg (parent, name, TRUE);
      set_attr (subgraphs[c], g_label, cl->label);
    }

  Agnode_t **gv_nodes = g_new (Agnode_t *, n_boxes + 1);
  for (guint b = 0; b < n_boxes; b++)
    {
      FxLayoutBox *box = &g_array_index (layout->boxes, FxLayoutBox, b);
      char name[32];
      g_snprintf (name, sizeof name, "n%u", b);
      gv_nodes[b] = agnode (g, name, TRUE);
      g_autofree char *w = inches (box->width);
      g_autofree char *h = inches (box->height);
      set_attr (gv_nodes[b], n_width, w);
      set_attr (gv_nodes[b], n_height, h);
      /* A module box sits in its collapsed module's parent; a node in its own cluster. */
      int c = box->node ? box->cluster
                        : g_array_index (layout->clusters, FxLayoutCluster, box->cluster).parent;
      while (c >= 0 && subgraphs[c] == NULL)
        c = g_array_index (layout->clusters, FxLayoutCluster, c).parent;
      if (c >= 0)
        agsubnode (subgraphs[c], gv_nodes[b], TRUE);
    }
  Agedge_t **gv_edges = g_new (Agedge_t *, n_edges + 1);
  gboolean *implied = find_implied_edges (layout);
  for (guint e = 0; e < n_edges; e++)
    {
      FxLayoutEdge *edge = &g_array_index (layout->edges, FxLayoutEdge, e);
      gv_edges[e] = implied[e] ? NULL
                               : agedge (g, gv_nodes[edge->tail], gv_nodes[edge->head], NULL, TRUE);
    }

  if (gvLayout (layout_context, g, "dot") != 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "graph layout: Graphviz could not lay out the graph (is its dot plugin installed?)");
      agclose (g);
      g_free (implied);
      g_free (direct);
      g_free (subgraphs);
      g_free (gv_nodes);
      g_free (gv_edges);
      goto out;
    }

  boxf bb = GD_bb (g);
  double top = bb.UR.y, left = bb.LL.x;
  layout->width = bb.UR.x - bb.LL.x;
  layout->height = bb.UR.y - bb.LL.y;
  for (guint b = 0; b < n_boxes; b++)
    {
      FxLayoutBox *box = &g_array_index (layout->boxes, FxLayoutBox, b);
      pointf p = ND_coord (gv_nodes[b]);
      box->x = p.x - left - box->width / 2;
      box->y = top - p.y - box->height / 2;
    }
  for (guint e = 0; e < n_edges; e++)
    {
      FxLayoutEdge *edge = &g_array_index (layout->edges, FxLayoutEdge, e);
      splines *spl = gv_edges[e] ? ED_spl (gv_edges[e]) : NULL;
      if (spl == NULL || spl->size == 0)
        continue;
      guint total = 0;
      for (int i = 0; i < spl->size; i++)
        total += spl->list[i].size;
      edge->points = g_new (FxLayoutPoint, total);
      for (int i = 0; i < spl->size; i++)
        {
          bezier *bz = &spl->list[i];
          /* Several pieces only for edges dot splits; joining them keeps one path. */
          for (int j = (i > 0); j < bz->size; j++)
            edge->points[edge->n_points++] = (FxLayoutPoint) { bz->list[j].x - left, top - bz->list[j].y };
          if (bz->eflag)
            {
              edge->has_arrow = TRUE;
              edge->arrow_tip = (FxLayoutPoint) { bz->ep.x - left, top - bz->ep.y };
            }
        }
      /* Bézier pieces come as 3k+1 points; anything else is drawn as a polyline. */
    }
  route_implied (layout, implied);
  /* Frames: dot's for subgraphs; for the modules left out, around what they hold (children
   * come after parents, so one backward pass collects bottom-up). */
  double (*ext)[4] = g_malloc_n (n_clusters + 1, sizeof *ext);
  for (guint c = 0; c < n_clusters; c++)
    ext[c][0] = ext[c][1] = G_MAXDOUBLE, ext[c][2] = ext[c][3] = -G_MAXDOUBLE;
  for (guint b = 0; b < n_boxes; b++)
    {
      FxLayoutBox *box = &g_array_index (layout->boxes, FxLayoutBox, b);
      int c = box->node ? box->cluster
                        : g_array_index (layout->clusters, FxLayoutCluster, box->cluster).parent;
      if (c < 0)
        continue;
      ext[c][0] = MIN (ext[c][0], box->x), ext[c][1] = MIN (ext[c][1], box->y);
      ext[c][2] = MAX (ext[c][2], box->x + box->width);
      ext[c][3] = MAX (ext[c][3], box->y + box->height);
    }
  for (guint c = n_clusters; c-- > 0;)
    {
      FxLayoutCluster *cl = &g_array_index (layout->clusters, FxLayoutCluster, c);
      if (cl->hidden || cl->collapsed)
        continue;
      if (subgraphs[c])
        {
          boxf cb = GD_bb (subgraphs[c]);
          cl->x = cb.LL.x - left;
          cl->y = top - cb.UR.y;
          cl->width = cb.UR.x - cb.LL.x;
          cl->height = cb.UR.y - cb.LL.y;
        }
      else if (ext[c][0] <= ext[c][2])
        {
          cl->x = ext[c][0] - 8;
          cl->y = ext[c][1] - 26;   /* room for the title */
          cl->width = ext[c][2] - ext[c][0] + 16;
          cl->height = ext[c][3] - ext[c][1] + 34;
        }
      if (cl->parent >= 0 && cl->width > 0)
        {
          double *pe = ext[cl->parent];
          pe[0] = MIN (pe[0], cl->x), pe[1] = MIN (pe[1], cl->y);
          pe[2] = MAX (pe[2], cl->x + cl->width), pe[3] = MAX (pe[3], cl->y + cl->height);
        }
    }
  g_free (ext);
  g_free (implied);
  g_free (direct);
  gvFreeLayout (layout_context, g);
  agclose (g);
  g_free (subgraphs);
  g_free (gv_nodes);
  g_free (gv_edges);
  layout->seconds = (g_get_monotonic_time () - start) / 1e6;
  layout->laid_out = TRUE;
  ok = !g_cancellable_set_error_if_cancelled (cancellable, error);

out:
  g_mutex_unlock (&layout_lock);
  return ok;
}

gboolean
fx_graph_layout_reuse (FxGraphLayout *layout, const FxGraphLayout *old)
{
  if (old == NULL || !old->laid_out || old->structure != layout->structure ||
      old->boxes->len != layout->boxes->len || old->edges->len != layout->edges->len ||
      old->clusters->len != layout->clusters->len)
    return FALSE;
  for (guint b = 0; b < layout->boxes->len; b++)
    {
      FxLayoutBox *box = &g_array_index (layout->boxes, FxLayoutBox, b);
      const FxLayoutBox *was = &g_array_index (old->boxes, FxLayoutBox, b);
      /* Same centre: a longer label grows the box around where it was. */
      box->x = was->x + was->width / 2 - box->width / 2;
      box->y = was->y + was->height / 2 - box->height / 2;
    }
  for (guint e = 0; e < layout->edges->len; e++)
    {
      FxLayoutEdge *edge = &g_array_index (layout->edges, FxLayoutEdge, e);
      const FxLayoutEdge *was = &g_array_index (old->edges, FxLayoutEdge, e);
      edge->points = g_memdup2 (was->points, was->n_points * sizeof (FxLayoutPoint));
      edge->n_points = was->n_points;
      edge->has_arrow = was->has_arrow;
      edge->arrow_tip = was->arrow_tip;
    }
  for (guint c = 0; c < layout->clusters->len; c++)
    {
      FxLayoutCluster *cl = &g_array_index (layout->clusters, FxLayoutCluster, c);
      const FxLayoutCluster *was = &g_array_index (old->clusters, FxLayoutCluster, c);
      cl->x = was->x, cl->y = was->y, cl->width = was->width, cl->height = was->height;
    }
  layout->width = old->width;
  layout->height = old->height;
  layout->laid_out = TRUE;
  return TRUE;
}
