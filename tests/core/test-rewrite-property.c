/* test-rewrite-property.c: properties of the subgraph rewriter (core/rewrite/) on random
 * graphs — after replace_pattern the graph lints and computes what the original computes
 * when each returned match is given the replacement's semantics — plus match filters, the
 * matcher's options and graphs far deeper than torch.fx 1.13 survives. Graphs are of scalar
 * ops, evaluated on doubles by a small evaluator of this file. */
#include <fx.h>
#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- building graphs */

static FxValue
op_value (const char *path)
{
  const FxOp *op = fx_op_lookup (path);
  g_assert_nonnull (op);
  return fx_value_op (op);
}

static FxNode *
call (FxGraph *g, const char *path, int n, const FxValue *args)
{
  FxValue target = op_value (path);
  FxSeq *seq = fx_seq_new (n);
  g_auto (FxValue) tuple = fx_value_none ();
  for (int i = 0; i < n; i++)
    seq->items[i] = fx_value_copy (&args[i]);
  tuple = fx_value_take_tuple (seq);
  return fx_graph_call_function (g, &target, &tuple, NULL, NULL);
}

static FxNode *
call1 (FxGraph *g, const char *path, FxNode *a)
{
  FxValue v = fx_value_node (a);
  return call (g, path, 1, &v);
}

static FxNode *
call2 (FxGraph *g, const char *path, FxValue a, FxValue b)
{
  FxValue v[2] = { a, b };
  return call (g, path, 2, v);
}

static void
output (FxGraph *g, int n, FxNode **nodes)
{
  g_auto (FxValue) result = fx_value_none ();
  if (n == 1)
    result = fx_value_node (nodes[0]);
  else
    {
      FxSeq *seq = fx_seq_new (n);
      for (int i = 0; i < n; i++)
        seq->items[i] = fx_value_node (nodes[i]);
      result = fx_value_take_tuple (seq);
    }
  fx_graph_output (g, &result, NULL);
}

/* ---------------------------------------------------------------- evaluating on doubles */

static double
number (const FxValue *v, GHashTable *values)
{
  if (v->kind == FX_VALUE_NODE)
    {
      double *d = g_hash_table_lookup (values, v->node->name);
      g_assert_nonnull (d);
      return *d;
    }
  if (v->kind == FX_VALUE_INT)
    return (double) v->i;
  g_assert_cmpint (v->kind, ==, FX_VALUE_FLOAT);
  return v->f;
}

static double
apply (const FxNode *n, GHashTable *values)
{
  const char *name = fx_target_qualified_name (&n->target);
  const FxValue *a = n->args.seq->items;
  double x = number (&a[0], values);

  if (strcmp (name, "torch.relu") == 0)
    return x > 0 ? x : 0;
  if (strcmp (name, "torch.neg") == 0)
    return -x;
  if (strcmp (name, "torch.sigmoid") == 0)
    return 1 / (1 + exp (-x));
  if (strcmp (name, "torch.tanh") == 0)
    return tanh (x);
  if (strcmp (name, "operator.add") == 0)
    return x + number (&a[1], values);
  if (strcmp (name, "operator.mul") == 0)
    return x * number (&a[1], values);
  g_error ("unexpected op %s", name);
}

/* Pattern and replacement bodies: given the placeholders, build the nodes and return how
 * many outputs they put in out. */
typedef int (*BuildFunc) (FxGraph *g, FxNode *const *in, FxNode **out);

/* A rewrite rule: pattern, replacement, and the replacement's meaning on doubles. */
typedef struct {
  const char *name;
  int n_inputs;
  BuildFunc pattern, replacement;
  void (*meaning) (const double *in, double *out);
} Rule;

typedef struct {
  const Rule *rule;
  GPtrArray *matches;      /* FxMatch, their nodes erased but named */
  GHashTable *returned;    /* returned node name → (match index << 8 | output index) + 1 */
} Overrides;

/* Evaluates graph on inputs; with ov, each match's returned nodes take the rule's meaning of
 * the match's placeholder values instead of their own. Returns the outputs. */
static GArray *
evaluate (FxGraph *graph, const double *inputs, const Overrides *ov)
{
  g_autoptr (GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (double));
  guint n_inputs = 0;

  for (FxNode *n = fx_graph_first (graph); n != NULL; n = fx_node_next (n))
    {
      double *v = g_new (double, 1);
      gpointer code = ov != NULL ? g_hash_table_lookup (ov->returned, n->name) : NULL;

      if (n->op == FX_OP_OUTPUT)
        {
          const FxValue *r = &n->args.seq->items[0];
          g_free (v);
          if (r->kind == FX_VALUE_NODE)
            {
              double d = number (r, values);
              g_array_append_val (out, d);
            }
          else
            for (guint i = 0; i < r->seq->len; i++)
              {
                double d = number (&r->seq->items[i], values);
                g_array_append_val (out, d);
              }
          break;
        }
      if (n->op == FX_OP_PLACEHOLDER)
        *v = inputs[n_inputs++];
      else if (code != NULL)
        {
          guint c = GPOINTER_TO_UINT (code) - 1;
          const FxMatch *m = ov->matches->pdata[c >> 8];
          double in[8], res[8];
          g_assert_cmpuint (m->n_placeholders, <=, 8);
          for (guint i = 0; i < m->n_placeholders; i++)
            in[i] = number (&m->placeholders[i], values);
          ov->rule->meaning (in, res);
          *v = res[c & 0xff];
        }
      else
        *v = apply (n, values);
      g_hash_table_insert (values, g_strdup (n->name), v);
    }
  return out;
}

static gboolean
close_enough (double a, double b)
{
  if (isnan (a) || isnan (b))
    return isnan (a) && isnan (b);
  if (isinf (a) || isinf (b))
    return a == b;
  return fabs (a - b) <= 1e-9 * MAX (1.0, MAX (fabs (a), fabs (b)));
}

/* ---------------------------------------------------------------- rules */

static FxGraph *
rule_graph (int n_inputs, BuildFunc build)
{
  static const char *const names[] = { "x", "y" };
  FxGraph *g = fx_graph_new ();
  FxNode *in[2], *out[2];
  for (int i = 0; i < n_inputs; i++)
    in[i] = fx_graph_placeholder (g, names[i], NULL, NULL);
  output (g, build (g, in, out), out);
  return g;
}

/* neg(relu(x)) → sigmoid(x) + x */
static int
p_neg_relu (FxGraph *g, FxNode *const *in, FxNode **out)
{
  out[0] = call1 (g, "torch.neg", call1 (g, "torch.relu", in[0]));
  return 1;
}

static int
r_neg_relu (FxGraph *g, FxNode *const *in, FxNode **out)
{
  out[0] = call2 (g, "operator.add", fx_value_node (call1 (g, "torch.sigmoid", in[0])),
                  fx_value_node (in[0]));
  return 1;
}

static void
m_neg_relu (const double *in, double *out)
{
  out[0] = 1 / (1 + exp (-in[0])) + in[0];
}

/* x * 2 → tanh(x) */
static int
p_mul2 (FxGraph *g, FxNode *const *in, FxNode **out)
{
  out[0] = call2 (g, "operator.mul", fx_value_node (in[0]), fx_value_int (2));
  return 1;
}

static int
r_tanh (FxGraph *g, FxNode *const *in, FxNode **out)
{
  out[0] = call1 (g, "torch.tanh", in[0]);
  return 1;
}

static void
m_tanh (const double *in, double *out)
{
  out[0] = tanh (in[0]);
}

/* (relu(x), sigmoid(x)) → (tanh(x), -x) */
static int
p_two_outputs (FxGraph *g, FxNode *const *in, FxNode **out)
{
  out[0] = call1 (g, "torch.relu", in[0]);
  out[1] = call1 (g, "torch.sigmoid", in[0]);
  return 2;
}

static int
r_two_outputs (FxGraph *g, FxNode *const *in, FxNode **out)
{
  out[0] = call1 (g, "torch.tanh", in[0]);
  out[1] = call1 (g, "torch.neg", in[0]);
  return 2;
}

static void
m_two_outputs (const double *in, double *out)
{
  out[0] = tanh (in[0]);
  out[1] = -in[0];
}

/* x * y + y → x + y (a placeholder used twice) */
static int
p_mul_add (FxGraph *g, FxNode *const *in, FxNode **out)
{
  FxNode *m = call2 (g, "operator.mul", fx_value_node (in[0]), fx_value_node (in[1]));
  out[0] = call2 (g, "operator.add", fx_value_node (m), fx_value_node (in[1]));
  return 1;
}

static int
r_add (FxGraph *g, FxNode *const *in, FxNode **out)
{
  out[0] = call2 (g, "operator.add", fx_value_node (in[0]), fx_value_node (in[1]));
  return 1;
}

static void
m_add (const double *in, double *out)
{
  out[0] = in[0] + in[1];
}

static const Rule rules[] = {
  { "neg-relu", 1, p_neg_relu, r_neg_relu, m_neg_relu },
  { "mul2", 1, p_mul2, r_tanh, m_tanh },
  { "two-outputs", 1, p_two_outputs, r_two_outputs, m_two_outputs },
  { "mul-add", 2, p_mul_add, r_add, m_add },
};

/* ---------------------------------------------------------------- random graphs */

#define N_INPUTS 3

/* n random scalar ops over N_INPUTS inputs, inputs mostly recent nodes (so that chains
 * form); every node without users is returned, so there is no dead code. */
static FxGraph *
random_graph (GRand *rand, guint n)
{
  static const char *const unary[] = { "torch.relu", "torch.neg", "torch.sigmoid", "torch.tanh" };
  static const char *const binary[] = { "operator.add", "operator.mul" };
  FxGraph *g = fx_graph_new ();
  g_autoptr (GPtrArray) nodes = g_ptr_array_new ();
  g_autoptr (GPtrArray) sinks = g_ptr_array_new ();

  for (guint i = 0; i < N_INPUTS; i++)
    {
      g_autofree char *name = g_strdup_printf ("in%u", i);
      g_ptr_array_add (nodes, fx_graph_placeholder (g, name, NULL, NULL));
    }
  for (guint i = 0; i < n; i++)
    {
      guint len = nodes->len;
      FxNode *a = nodes->pdata[len - 1 - g_rand_int_range (rand, 0, MIN (len, 4))];
      FxNode *b = nodes->pdata[g_rand_int_range (rand, 0, len)];
      FxNode *node;
      int kind;

      /* sometimes reuse an input of a, so that x * y + y shapes appear */
      if (a->op != FX_OP_PLACEHOLDER && a->args.seq->items[a->args.seq->len - 1].kind == FX_VALUE_NODE
          && g_rand_boolean (rand))
        b = a->args.seq->items[a->args.seq->len - 1].node;
      kind = g_rand_int_range (rand, 0, 10);

      if (kind < 6)
        node = call1 (g, unary[g_rand_int_range (rand, 0, G_N_ELEMENTS (unary))], a);
      else if (kind < 8)
        node = call2 (g, binary[g_rand_int_range (rand, 0, 2)], fx_value_node (a),
                      g_rand_int_range (rand, 0, 4) > 0 ? fx_value_node (b) : fx_value_node (a));
      else
        node = call2 (g, "operator.mul", fx_value_node (a), fx_value_int (g_rand_int_range (rand, 2, 4)));
      g_ptr_array_add (nodes, node);
    }
  for (guint i = N_INPUTS; i < nodes->len; i++)
    if (fx_node_set_size (&((FxNode *) nodes->pdata[i])->users) == 0)
      g_ptr_array_add (sinks, nodes->pdata[i]);
  output (g, sinks->len, (FxNode **) sinks->pdata);
  return g;
}

static void
check_rewrite (FxGraph *graph, const Rule *rule, const double *inputs, guint *n_matches)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FxGraph) original = fx_graph_copy (graph, &error);
  g_autoptr (FxGraph) pattern = rule_graph (rule->n_inputs, rule->pattern);
  g_autoptr (FxGraph) replacement = rule_graph (rule->n_inputs, rule->replacement);
  g_autoptr (GPtrArray) matches = NULL;
  g_autoptr (GHashTable) returned = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) used = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GArray) want = NULL;
  g_autoptr (GArray) got = NULL;
  Overrides ov;

  g_assert_no_error (error);
  g_assert_true (fx_replace_pattern_graph (graph, pattern, replacement, NULL, NULL, NULL,
                                           &matches, &error));
  g_assert_no_error (error);
  g_assert_true (fx_graph_lint (graph, &error));
  g_assert_no_error (error);
  *n_matches += matches->len;

  for (guint i = 0; i < matches->len; i++)
    {
      const FxMatch *m = matches->pdata[i];
      /* matches share no compute node */
      for (guint e = 0; e < m->n_entries; e++)
        if (m->entries[e].pattern->op != FX_OP_PLACEHOLDER)
          {
            const char *name = m->entries[e].value.node->name;
            g_assert_false (g_hash_table_contains (used, name));
            g_hash_table_add (used, (gpointer) name);
          }
      for (guint r = 0; r < m->n_returning; r++)
        g_hash_table_insert (returned, (gpointer) m->returning[r]->name,
                             GUINT_TO_POINTER (((i << 8) | r) + 1));
    }
  ov.rule = rule;
  ov.matches = matches;
  ov.returned = returned;
  want = evaluate (original, inputs, &ov);
  got = evaluate (graph, inputs, NULL);
  g_assert_cmpuint (want->len, ==, got->len);
  for (guint i = 0; i < want->len; i++)
    if (!close_enough (g_array_index (want, double, i), g_array_index (got, double, i)))
      g_error ("rule %s: output %u: want %.17g, got %.17g", rule->name, i,
               g_array_index (want, double, i), g_array_index (got, double, i));
}

static void
test_random_graphs (void)
{
  guint n_matches[G_N_ELEMENTS (rules)] = { 0 };
  guint n_graphs = g_test_slow () ? 400 : 120;

  for (guint seed = 1; seed <= n_graphs; seed++)
    {
      g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
      guint size = g_rand_int_range (rand, 5, seed % 10 == 0 ? 1500 : 120);
      double inputs[N_INPUTS];
      for (guint i = 0; i < N_INPUTS; i++)
        inputs[i] = g_rand_double_range (rand, -1.5, 1.5);
      for (guint r = 0; r < G_N_ELEMENTS (rules); r++)
        {
          g_autoptr (FxGraph) graph = random_graph (rand, size);
          check_rewrite (graph, &rules[r], inputs, &n_matches[r]);
        }
    }
  /* the random graphs do exercise every rule */
  for (guint r = 0; r < G_N_ELEMENTS (rules); r++)
    {
      g_test_message ("%s: %u matches", rules[r].name, n_matches[r]);
      g_assert_cmpuint (n_matches[r], >=, 5);
    }
}

/* ---------------------------------------------------------------- filters and options */

static FxGraph *
relu_neg_chain (guint blocks)
{
  FxGraph *g = fx_graph_new ();
  FxNode *x = fx_graph_placeholder (g, "x", NULL, NULL);
  for (guint i = 0; i < blocks; i++)
    x = call1 (g, "torch.neg", call1 (g, "torch.relu", x));
  output (g, 1, &x);
  return g;
}

typedef struct {
  guint seen;
  guint fail_at;           /* 0: never */
} FilterState;

static gboolean
keep_every_other (const FxMatch *match, gboolean *keep, gpointer user_data, GError **error)
{
  FilterState *st = user_data;
  (void) match;
  if (++st->seen == st->fail_at)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "filter refused");
      return FALSE;
    }
  *keep = st->seen % 2 == 1;
  return TRUE;
}

static void
test_filters (void)
{
  g_autoptr (FxGraph) pattern = rule_graph (1, p_neg_relu);
  g_autoptr (FxGraph) replacement = rule_graph (1, r_neg_relu);
  g_autoptr (FxGraph) graph = relu_neg_chain (10);
  g_autoptr (FxGraph) original = fx_graph_copy (graph, NULL);
  g_autoptr (FxGraph) failing = relu_neg_chain (10);
  g_autoptr (GPtrArray) all = fx_subgraph_match (graph, pattern, NULL, NULL);
  g_autoptr (GPtrArray) kept = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *before = fx_graph_to_string (failing);
  g_autofree char *after = NULL;
  FilterState st = { 0, 0 };
  double input = 0.7;

  g_assert_nonnull (all);
  g_assert_cmpuint (all->len, ==, 10);
  g_assert_true (fx_replace_pattern_graph (graph, pattern, replacement, NULL, keep_every_other,
                                           &st, &kept, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (st.seen, ==, 10);
  g_assert_cmpuint (kept->len, ==, 5);
  /* the kept matches are the 1st, 3rd, ... of the unfiltered list */
  for (guint i = 0; i < kept->len; i++)
    {
      const FxMatch *k = kept->pdata[i], *a = all->pdata[2 * i];
      g_assert_cmpuint (k->n_entries, ==, a->n_entries);
      for (guint e = 0; e < k->n_entries; e++)
        g_assert_true (fx_value_equal (&k->entries[e].value, &a->entries[e].value));
    }
  g_assert_true (fx_graph_lint (graph, &error));
  {
    /* 5 replaced, 5 untouched relu/neg pairs */
    g_autoptr (GPtrArray) relus = fx_graph_find_nodes (graph, FX_OP_CALL_FUNCTION, NULL);
    guint n_relu = 0;
    for (guint i = 0; i < relus->len; i++)
      n_relu += strcmp (fx_target_qualified_name (&((FxNode *) relus->pdata[i])->target), "torch.relu") == 0;
    g_assert_cmpuint (n_relu, ==, 5);
  }
  {
    Overrides ov;
    g_autoptr (GHashTable) returned = g_hash_table_new (g_str_hash, g_str_equal);
    g_autoptr (GArray) want = NULL, got = NULL;
    for (guint i = 0; i < kept->len; i++)
      g_hash_table_insert (returned, (gpointer) ((FxMatch *) kept->pdata[i])->returning[0]->name,
                           GUINT_TO_POINTER ((i << 8) + 1));
    ov.rule = &rules[0];
    ov.matches = kept;
    ov.returned = returned;
    want = evaluate (original, &input, &ov);
    got = evaluate (graph, &input, NULL);
    g_assert_true (close_enough (g_array_index (want, double, 0), g_array_index (got, double, 0)));
  }

  /* a failing filter stops the rewrite before the graph changes */
  st = (FilterState) { 0, 3 };
  g_assert_false (fx_replace_pattern_graph (failing, pattern, replacement, NULL,
                                            keep_every_other, &st, NULL, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_FAILED);
  after = fx_graph_to_string (failing);
  g_assert_cmpstr (before, ==, after);
}

static void
test_options (void)
{
  g_autoptr (FxGraph) graph = fx_graph_new ();
  g_autoptr (FxGraph) pattern = fx_graph_new ();
  g_autoptr (GPtrArray) overlapping = NULL, plain = NULL, at_output = NULL, at_input = NULL;
  g_autoptr (GError) error = NULL;
  FxMatchOptions opt = FX_MATCH_OPTIONS_INIT;
  FxNode *x = fx_graph_placeholder (graph, "x", NULL, NULL), *p, *r;

  /* relu(relu(x)) on five relus: 4 candidates, 2 without overlap */
  for (int i = 0; i < 5; i++)
    x = call1 (graph, "torch.relu", x);
  output (graph, 1, &x);
  p = fx_graph_placeholder (pattern, "p", NULL, NULL);
  r = call1 (pattern, "torch.relu", call1 (pattern, "torch.relu", p));
  output (pattern, 1, &r);

  plain = fx_subgraph_match (graph, pattern, &opt, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (plain->len, ==, 2);
  opt.remove_overlapping = FALSE;
  overlapping = fx_subgraph_match (graph, pattern, &opt, &error);
  g_assert_cmpuint (overlapping->len, ==, 4);
  g_assert_true (((FxMatch *) overlapping->pdata[0])->anchor == r);
  opt.match_output = TRUE;
  at_output = fx_subgraph_match (graph, pattern, &opt, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (at_output->len, ==, 1);
  g_assert_cmpstr (fx_match_lookup (at_output->pdata[0], p)->node->name, ==, "relu_2");
  opt = (FxMatchOptions) FX_MATCH_OPTIONS_INIT;
  opt.match_placeholder = TRUE;
  /* placeholders then match placeholders only: the first two relus */
  at_input = fx_subgraph_match (graph, pattern, &opt, &error);
  g_assert_cmpuint (at_input->len, ==, 1);
  g_assert_cmpstr (fx_match_lookup (at_input->pdata[0], p)->node->name, ==, "x");

  /* an anchor without candidates: no match, or 1.13's KeyError */
  {
    g_autoptr (FxGraph) sin_pattern = fx_graph_new ();
    g_autoptr (GPtrArray) empty = NULL;
    FxNode *q = fx_graph_placeholder (sin_pattern, "q", NULL, NULL);
    FxNode *s = call1 (sin_pattern, "torch.sigmoid", q);
    output (sin_pattern, 1, &s);
    opt = (FxMatchOptions) FX_MATCH_OPTIONS_INIT;
    empty = fx_subgraph_match (graph, sin_pattern, &opt, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (empty->len, ==, 0);
    opt.key_error_quirk = TRUE;
    g_assert_null (fx_subgraph_match (graph, sin_pattern, &opt, &error));
    g_assert_error (error, FX_ERROR, FX_ERROR_KEY);
    g_assert_cmpstr (error->message, ==, "q");
  }
}

/* 1.13 dies of RecursionError on a 3 000-node chain; here 60 000 nodes are routine. */
static void
test_deep_chain (void)
{
  g_autoptr (FxGraph) graph = relu_neg_chain (30000);
  g_autoptr (FxGraph) pattern = rule_graph (1, p_neg_relu);
  g_autoptr (FxGraph) replacement = rule_graph (1, r_tanh);
  g_autoptr (GPtrArray) matches = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (fx_replace_pattern_graph (graph, pattern, replacement, NULL, NULL, NULL,
                                           &matches, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (matches->len, ==, 30000);
  g_assert_cmpuint (fx_graph_n_nodes (graph), ==, 30002);
  g_assert_true (fx_graph_lint (graph, &error));
  g_assert_cmpstr (fx_node_prev (fx_graph_last (graph))->name, ==, "tanh_29999");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rewrite/property/random-graphs", test_random_graphs);
  g_test_add_func ("/rewrite/filters", test_filters);
  g_test_add_func ("/rewrite/options", test_options);
  g_test_add_func ("/rewrite/deep-chain", test_deep_chain);
  return g_test_run ();
}
