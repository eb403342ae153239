/* test-layers-golden.c: the builtin layers (core/ops/layers.c) against goldens/layers.json,
 * recorded from PyTorch 1.13 by gen_layers.py: constructor signatures, repr, parameters and
 * buffers in registration order, state_dict values after torch.manual_seed(0), attributes,
 * constructor errors, and forward outputs (a forward whose kernel libfx does not have yet is
 * skipped, not passed). One GLib test per constructor call and per forward call. */
#include "fx.h"
#include "golden-values.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

static GPtrArray *parsers;

/* ---- decoding (golden_encode.py, plus {"module": {...}} for layers built in place) ---- */

static FxModule *decode_module (JsonObject *o, char **err);

static int
decode_module_object (JsonObject *o, FxValue *out, char **err)
{
  FxModule *m;
  if (!json_object_has_member (o, "module"))
    return 0;
  m = decode_module (json_object_get_object_member (o, "module"), err);
  if (m != NULL)
    *out = fx_value_take_object (&m->parent);
  return 1;
}

static gboolean
decode_args (JsonObject *o, FxValue **argv_out, int *n_out, FxDict **kwargs_out, char **err)
{
  JsonArray *a = json_object_get_array_member (o, "args");
  int n = a ? (int) json_array_get_length (a) : 0;
  FxValue *argv = g_new0 (FxValue, MAX (n, 1));
  FxDict *kwargs = NULL;
  *argv_out = argv;
  *n_out = 0;
  *kwargs_out = NULL;
  for (int i = 0; i < n; i++)
    {
      if (!golden_decode_value (json_array_get_element (a, i), &argv[i], err))
        return FALSE;
      *n_out = i + 1;
    }
  if (json_object_has_member (o, "kwargs"))
    {
      JsonObject *kw = json_object_get_object_member (o, "kwargs");
      JsonObjectIter it;
      const char *name;
      JsonNode *node;
      json_object_iter_init_ordered (&it, kw);
      while (json_object_iter_next_ordered (&it, &name, &node))
        {
          FxValue v;
          if (!golden_decode_value (node, &v, err))
            return FALSE;
          if (kwargs == NULL)
            *kwargs_out = kwargs = fx_dict_new ();
          fx_dict_set (kwargs, fx_value_str (name), v);
        }
    }
  return TRUE;
}

static void
free_args (FxValue *argv, int n, FxDict *kwargs)
{
  for (int i = 0; i < n; i++)
    fx_value_clear (&argv[i]);
  g_free (argv);
  if (kwargs)
    fx_dict_unref (kwargs);
}

static FxModule *
decode_module (JsonObject *o, char **err)
{
  FxValue *argv;
  int n;
  FxDict *kwargs;
  GError *error = NULL;
  FxModule *m = NULL;
  if (decode_args (o, &argv, &n, &kwargs, err))
    {
      m = fx_layer_new (json_object_get_string_member (o, "layer"), argv, n, kwargs, &error);
      if (m == NULL)
        {
          *err = g_strdup_printf ("cannot build %s: %s", json_object_get_string_member (o, "layer"),
                                  error->message);
          g_error_free (error);
        }
    }
  free_args (argv, n, kwargs);
  return m;
}

/* Values must match in kind too: Dropout(1) keeps the int 1, and repr shows it. */
static gboolean
strict_equal (const FxValue *a, const FxValue *b)
{
  if (a->kind != b->kind)
    return FALSE;
  switch (a->kind)
    {
    case FX_VALUE_FLOAT:
      return a->f == b->f || (isnan (a->f) && isnan (b->f));
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST:
      if (a->seq->len != b->seq->len)
        return FALSE;
      if (a->kind == FX_VALUE_TUPLE
          && (a->seq->type == &fx_tuple_type_size) != (b->seq->type == &fx_tuple_type_size))
        return FALSE;
      for (guint i = 0; i < a->seq->len; i++)
        if (!strict_equal (&a->seq->items[i], &b->seq->items[i]))
          return FALSE;
      return TRUE;
    default:
      return fx_value_equal (a, b);
    }
}

static const char *
error_type (const GError *error)
{
  return error->domain == FX_ERROR ? fx_error_code_python_name ((FxErrorCode) error->code) : "?";
}

/* Compares a raised error with the golden's {type, message}; PyTorch's AssertionErrors and
 * KeyErrors have no code of their own in FX_ERROR, so only their message is compared. */
static void
check_error (const GError *error, JsonObject *e)
{
  const char *type = json_object_get_string_member (e, "type");
  const char *message = json_object_get_string_member (e, "message");
  const char *nl = strchr (error->message, '\n');
  g_autofree char *got_msg = nl ? g_strndup (error->message, nl - error->message)
                                : g_strdup (error->message);
  gboolean type_ok = g_str_equal (type, "AssertionError") || g_str_equal (type, "KeyError")
                     || g_str_equal (error_type (error), type);
  if (!type_ok || g_strcmp0 (got_msg, message) != 0)
    g_test_fail_printf ("error %s: %s\n   expected %s: %s", error_type (error), got_msg, type,
                        message);
}

/* The module of a case, built after fx_manual_seed (0) as the generator built it. */
static FxModule *
build_case (JsonObject *o, GError **error, char **err)
{
  FxValue *argv;
  int n;
  FxDict *kwargs;
  FxModule *m = NULL;
  fx_manual_seed ((uint64_t) json_object_get_int_member_with_default (o, "seed", 0));
  if (decode_args (o, &argv, &n, &kwargs, err))
    m = fx_layer_new (json_object_get_string_member (o, "layer"), argv, n, kwargs, error);
  free_args (argv, n, kwargs);
  return m;
}

static gboolean
compare_data (const FxTensor *t, JsonArray *data, double rtol, double atol, GString *why)
{
  int64_t n = fx_tensor_numel (t);
  if ((int64_t) json_array_get_length (data) != n)
    {
      g_string_append_printf (why, "%" G_GINT64_FORMAT " values, expected %u", n,
                              json_array_get_length (data));
      return FALSE;
    }
  for (int64_t i = 0; i < n; i++)
    {
      double w;
      if (!golden_number_of (json_array_get_element (data, (guint) i), &w))
        {
          g_string_append (why, "bad golden value");
          return FALSE;
        }
      double g = fx_tensor_get_double (t, i);
      if (!golden_close_enough (g, w, rtol, atol))
        {
          g_string_append_printf (why, "element %" G_GINT64_FORMAT " is %.9g, expected %.9g", i,
                                  g, w);
          return FALSE;
        }
    }
  return TRUE;
}

static void
check_names (const char *what, const FxDict *dict, JsonArray *want, const FxModule *m)
{
  guint n = json_array_get_length (want);
  if (fx_dict_len (dict) != n)
    {
      g_test_fail_printf ("%u %s, expected %u", fx_dict_len (dict), what, n);
      return;
    }
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (want, i);
      const FxValue *k, *v;
      fx_dict_entry (dict, i, &k, &v);
      const char *name;
      gboolean is_set = TRUE;
      if (JSON_NODE_HOLDS_ARRAY (node))
        {
          JsonArray *e = json_node_get_array (node);
          name = json_array_get_string_element (e, 0);
          is_set = json_array_get_boolean_element (e, 1);
          if (json_array_get_length (e) > 2)
            {
              gboolean persistent = json_array_get_boolean_element (e, 2);
              if (persistent == g_hash_table_contains (m->non_persistent, name))
                g_test_fail_printf ("%s %s: persistent should be %d", what, name, persistent);
            }
        }
      else
        name = json_node_get_string (node);
      if (g_strcmp0 (k->s->data, name) != 0)
        g_test_fail_printf ("%s %u is %s, expected %s", what, i, k->s->data, name);
      else if ((v->kind != FX_VALUE_NONE) != is_set)
        g_test_fail_printf ("%s %s should%s be None", what, name, is_set ? " not" : "");
    }
}

static void
run_construct (gconstpointer data)
{
  JsonObject *o = (JsonObject *) data;
  GError *error = NULL;
  char *err = NULL;
  FxModule *m = build_case (o, &error, &err);

  if (err != NULL)
    {
      g_test_fail_printf ("cannot decode the arguments: %s", err);
      g_free (err);
      g_clear_error (&error);
      g_clear_pointer (&m, fx_module_unref);
      return;
    }
  if (json_object_has_member (o, "error"))
    {
      if (m != NULL)
        {
          g_autofree char *r = fx_module_repr (m);
          g_test_fail_printf ("expected an error, built %s", r);
          fx_module_unref (m);
          return;
        }
      check_error (error, json_object_get_object_member (o, "error"));
      g_error_free (error);
      return;
    }
  if (m == NULL)
    {
      g_test_fail_printf ("failed with %s: %s", error_type (error), error->message);
      g_error_free (error);
      return;
    }

  g_autofree char *repr = fx_module_repr (m);
  g_assert_cmpstr (repr, ==, json_object_get_string_member (o, "repr"));
  g_assert_true (m->training);

  check_names ("parameters", m->parameters, json_object_get_array_member (o, "params"), m);
  check_names ("buffers", m->buffers, json_object_get_array_member (o, "buffers"), m);
  check_names ("children", m->children, json_object_get_array_member (o, "children"), m);

  /* state_dict: keys, order, dtypes, shapes, values */
  FxDict *state = fx_module_state_dict (m);
  JsonArray *want = json_object_get_array_member (o, "state");
  g_assert_cmpuint (fx_dict_len (state), ==, json_array_get_length (want));
  for (guint i = 0; i < json_array_get_length (want) && i < fx_dict_len (state); i++)
    {
      JsonArray *e = json_array_get_array_element (want, i);
      const FxValue *k, *v;
      fx_dict_entry (state, i, &k, &v);
      const char *key = json_array_get_string_element (e, 0);
      g_assert_cmpstr (k->s->data, ==, key);
      FxTensor *t = v->tensor;
      g_assert_cmpstr (fx_dtype_name (t->dtype), ==, json_array_get_string_element (e, 1));
      JsonArray *shape = json_array_get_array_element (e, 2);
      g_assert_cmpint (t->ndim, ==, (int) json_array_get_length (shape));
      for (int d = 0; d < t->ndim && d < (int) json_array_get_length (shape); d++)
        g_assert_cmpint (t->shape[d], ==, json_array_get_int_element (shape, d));
      g_assert_cmpint (t->requires_grad, ==, json_array_get_boolean_element (e, 4));
      JsonNode *values = json_array_get_element (e, 3);
      if (!JSON_NODE_HOLDS_NULL (values))
        {
          GString *why = g_string_new (NULL);
          if (!compare_data (t, json_node_get_array (values), 1e-6, 1e-7, why))
            g_test_fail_printf ("%s: %s", key, why->str);
          g_string_free (why, TRUE);
        }
    }
  fx_dict_unref (state);

  /* the attributes PyTorch keeps, as PyTorch keeps them */
  JsonArray *attrs = json_object_get_array_member (o, "attributes");
  g_assert_cmpuint (fx_dict_len (m->attributes), ==, json_array_get_length (attrs));
  for (guint i = 0; i < json_array_get_length (attrs); i++)
    {
      JsonArray *e = json_array_get_array_element (attrs, i);
      const char *name = json_array_get_string_element (e, 0);
      FxValue want_v, key = fx_value_str (name);
      if (!golden_decode_value (json_array_get_element (e, 1), &want_v, &err))
        {
          g_test_fail_printf ("cannot decode attribute %s: %s", name, err);
          g_clear_pointer (&err, g_free);
          fx_value_clear (&key);
          continue;
        }
      const FxValue *got = fx_dict_get (m->attributes, &key);
      if (got == NULL)
        g_test_fail_printf ("attribute %s is missing", name);
      else if (!strict_equal (got, &want_v))
        {
          g_autofree char *g = fx_value_to_repr (got);
          g_autofree char *w = fx_value_to_repr (&want_v);
          g_test_fail_printf ("attribute %s is %s (%s), expected %s (%s)", name, g,
                              fx_value_kind_name (got->kind), w,
                              fx_value_kind_name (want_v.kind));
        }
      fx_value_clear (&want_v);
      fx_value_clear (&key);
    }
  fx_module_unref (m);
}

typedef struct {
  JsonObject *c;
  guint index;
} ForwardCase;

/* Runs forward number `index` of the case's module (replaying the ones before it, since they
 * may change buffers); NULL result and *skipped when one of them is not implemented yet. */
static void
run_forward (gconstpointer data)
{
  const ForwardCase *fc = data;
  GError *error = NULL;
  char *err = NULL;
  FxModule *m = build_case (fc->c, &error, &err);
  JsonArray *fws = json_object_get_array_member (fc->c, "forwards");

  if (m == NULL)
    {
      g_test_fail_printf ("cannot build the module: %s", err ? err : error->message);
      g_free (err);
      g_clear_error (&error);
      return;
    }
  for (guint i = 0; i <= fc->index; i++)
    {
      JsonObject *f = json_array_get_object_element (fws, i);
      FxValue *argv;
      int n;
      FxDict *kwargs;
      FxValue result = fx_value_none ();
      gboolean last = i == fc->index;

      if (!decode_args (f, &argv, &n, &kwargs, &err))
        {
          g_test_fail_printf ("cannot decode forward %u: %s", i, err);
          g_free (err);
          free_args (argv, n, kwargs);
          break;
        }
      fx_module_train (m, json_object_get_boolean_member (f, "train"));
      if (json_object_has_member (f, "seed"))
        fx_manual_seed ((uint64_t) json_object_get_int_member (f, "seed"));
      /* the goldens were made under torch.no_grad() */
      gboolean grad_mode = fx_grad_mode_set (FALSE);
      gboolean ok = fx_module_forward_layer (m, argv, n, kwargs, &result, &error);
      fx_grad_mode_set (grad_mode);
      free_args (argv, n, kwargs);

      JsonObject *want_error = json_object_has_member (f, "error")
                               ? json_object_get_object_member (f, "error") : NULL;
      if (!ok && error->domain == FX_ERROR && error->code == FX_ERROR_NOT_IMPLEMENTED
          && !(want_error && g_str_equal (json_object_get_string_member (want_error, "type"),
                                          "NotImplementedError")))
        {
          g_autofree char *why = g_strdup_printf ("%sforward %u: %s", last ? "" : "earlier ", i,
                                                  error->message);
          g_test_skip (why);
          g_clear_error (&error);
          break;
        }
      if (!last)
        {
          g_clear_error (&error);
          fx_value_clear (&result);
          continue;
        }

      if (want_error)
        {
          if (ok)
            {
              g_autofree char *r = fx_value_to_repr (&result);
              g_test_fail_printf ("expected an error, got %.500s", r);
            }
          else
            check_error (error, want_error);
        }
      else if (!ok)
        g_test_fail_printf ("failed with %s: %s", error_type (error), error->message);
      else
        {
          FxValue want;
          if (!golden_decode_value (json_object_get_member (f, "expect"), &want, &err))
            {
              g_test_fail_printf ("cannot decode the expected value: %s", err);
              g_free (err);
            }
          else
            {
              GoldenTol tol = { 1e-4, 1e-5, TRUE };
              GString *why = g_string_new (NULL);
              if (!golden_compare_value (&result, &want, &tol, why))
                {
                  g_autofree char *r = fx_value_to_repr (&result);
                  g_test_fail_printf ("%s\n   got: %.1000s", why->str, r);
                }
              g_string_free (why, TRUE);
              fx_value_clear (&want);
            }
        }
      /* buffers after the call (running statistics, num_batches_tracked) */
      if (json_object_has_member (f, "state"))
        {
          JsonArray *st = json_object_get_array_member (f, "state");
          FxDict *state = fx_module_state_dict (m);
          for (guint j = 0; j < json_array_get_length (st); j++)
            {
              JsonArray *e = json_array_get_array_element (st, j);
              const char *key = json_array_get_string_element (e, 0);
              FxValue k = fx_value_str (key);
              const FxValue *v = fx_dict_get (state, &k);
              fx_value_clear (&k);
              if (v == NULL)
                {
                  g_test_fail_printf ("state %s is missing", key);
                  continue;
                }
              GString *why = g_string_new (NULL);
              if (!compare_data (v->tensor, json_array_get_array_element (e, 1), 1e-4, 1e-5, why))
                g_test_fail_printf ("state %s after the call: %s", key, why->str);
              g_string_free (why, TRUE);
            }
          fx_dict_unref (state);
        }
      g_clear_error (&error);
      fx_value_clear (&result);
    }
  fx_module_unref (m);
}

/* ---- the registry itself ---- */

static void
test_catalog (void)
{
  guint n = 0;
  const FxLayerKind *const *all = fx_layers_all (&n);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  g_assert_cmpuint (n, >=, 40);
  for (guint i = 0; i < n; i++)
    {
      const FxLayerKind *k = all[i];
      g_assert_nonnull (k->type_name);
      g_assert_true (g_hash_table_add (seen, (gpointer) k->type_name));
      g_assert_true (fx_layer_lookup (k->type_name) == k);
      g_assert_nonnull (k->category);
      g_assert_nonnull (k->doc);
      g_assert_nonnull (k->init);
      g_assert_true (g_str_has_prefix (k->module_path, "torch.nn.modules."));
      g_assert_true (g_str_has_prefix (k->schema, k->type_name));
      if (!(k->flags & (FX_LAYER_FLAG_VARARGS | FX_LAYER_FLAG_ANY_ARGS)))
        {
          FxOverload ov;
          GError *error = NULL;
          if (!fx_schema_parse (k->schema, &ov, &error))
            g_test_fail_printf ("%s: %s", k->type_name, error->message);
          else
            fx_overload_clear (&ov);
          g_clear_error (&error);
        }
      if (k->forward_schema)
        {
          FxOverload ov;
          g_assert_true (fx_schema_parse (k->forward_schema, &ov, NULL));
          fx_overload_clear (&ov);
        }
      g_assert_true ((k->forward == NULL) == (k->forward_schema == NULL));
    }
  g_assert_null (fx_layer_lookup ("NoSuchLayer"));

  GError *error = NULL;
  g_assert_null (fx_layer_new ("NoSuchLayer", NULL, 0, NULL, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_ATTRIBUTE);
  g_assert_cmpstr (error->message, ==, "module 'torch.nn' has no attribute 'NoSuchLayer'");
  g_clear_error (&error);

  /* a module without a layer has no forward of its own */
  FxModule *plain = fx_module_new ("Net");
  FxValue result;
  g_assert_false (fx_module_forward_layer (plain, NULL, 0, NULL, &result, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED);
  g_assert_cmpstr (error->message, ==, "Module [Net] is missing the required \"forward\" function");
  g_clear_error (&error);
  fx_module_unref (plain);
}

static gboolean
count_calls (FxModule *module, const FxValue *args, int n_args, const FxDict *kwargs,
             FxValue *result, gpointer user_data, GError **error)
{
  (*(int *) user_data)++;
  return fx_module_forward_layer (module, args, n_args, kwargs, result, error);
}

/* Sequential calls its children through the installed caller (the tracer's hook). */
static void
test_module_caller (void)
{
  GError *error = NULL;
  int calls = 0;
  FxValue children[2];
  children[0] = fx_value_take_object (&fx_layer_new ("ReLU", NULL, 0, NULL, &error)->parent);
  children[1] = fx_value_take_object (&fx_layer_new ("Tanh", NULL, 0, NULL, &error)->parent);
  g_assert_no_error (error);
  FxModule *seq = fx_layer_new ("Sequential", children, 2, NULL, &error);
  g_assert_no_error (error);
  int64_t shape[1] = { 3 };
  FxValue x = fx_value_take_tensor (fx_tensor_full (FX_DTYPE_FLOAT32, 1, shape, -1.0));
  FxValue y;
  fx_layers_set_module_caller (count_calls, &calls);
  gboolean ok = fx_module_call (seq, &x, 1, NULL, &y, &error);
  fx_layers_set_module_caller (NULL, NULL);
  if (!ok && error->code == FX_ERROR_NOT_IMPLEMENTED)
    g_test_skip (error->message);
  else
    {
      g_assert_no_error (error);
      g_assert_cmpint (calls, ==, 3);   /* the Sequential and its two children */
      g_assert_cmpfloat (fx_tensor_get_double (y.tensor, 0), ==, 0.0);
      fx_value_clear (&y);
    }
  g_clear_error (&error);
  fx_value_clear (&x);
  fx_value_clear (&children[0]);
  fx_value_clear (&children[1]);
  fx_module_unref (seq);
}

/* The schemas name and default the arguments as inspect.signature does in 1.13. */
static void
run_signature (gconstpointer data)
{
  JsonObject *s = (JsonObject *) data;
  const char *name = json_object_get_string_member (s, "layer");
  const FxLayerKind *k = fx_layer_lookup (name);
  if (k == NULL)
    {
      g_test_fail_printf ("%s is not a builtin layer", name);
      return;
    }
  g_assert_cmpstr (k->module_path, ==, json_object_get_string_member (s, "module"));
  g_assert_cmpstr (k->init_owner, ==, json_object_get_string_member (s, "init"));
  g_assert_cmpstr (k->forward_owner, ==, json_object_get_string_member (s, "forward"));
  JsonArray *params = json_object_get_array_member (s, "params");
  if (k->flags & (FX_LAYER_FLAG_VARARGS | FX_LAYER_FLAG_ANY_ARGS))
    {
      /* "Sequential(*args)", "Identity(*args, **kwargs)" */
      GString *want = g_string_new (name);
      g_string_append_c (want, '(');
      for (guint i = 0; i < json_array_get_length (params); i++)
        {
          JsonArray *p = json_array_get_array_element (params, i);
          g_string_append_printf (want, "%s%s%s", i ? ", " : "",
                                  json_array_get_string_element (p, 1),
                                  json_array_get_string_element (p, 0));
        }
      g_string_append_c (want, ')');
      g_assert_cmpstr (k->schema, ==, want->str);
      g_string_free (want, TRUE);
      return;
    }
  FxOverload ov;
  g_assert_true (fx_schema_parse (k->schema, &ov, NULL));
  g_assert_cmpint (ov.n_args, ==, (int) json_array_get_length (params));
  for (int i = 0; i < ov.n_args && i < (int) json_array_get_length (params); i++)
    {
      JsonArray *p = json_array_get_array_element (params, (guint) i);
      const FxArgSpec *a = &ov.args[i];
      g_assert_cmpstr (a->name, ==, json_array_get_string_element (p, 0));
      gboolean has_default = json_array_get_length (p) > 1;
      g_assert_cmpint (a->has_default, ==, has_default);
      if (!has_default)
        continue;
      FxValue want;
      char *err = NULL;
      g_assert_true (golden_decode_value (json_array_get_element (p, 2), &want, &err));
      /* int[N] defaults are parsed into N copies: compare each */
      gboolean same = fx_value_equal (&a->default_value, &want);
      if (!same && a->default_value.kind == FX_VALUE_TUPLE && want.kind != FX_VALUE_TUPLE)
        {
          same = a->default_value.seq->len > 0;
          for (guint j = 0; j < a->default_value.seq->len; j++)
            same = same && fx_value_equal (&a->default_value.seq->items[j], &want);
        }
      if (!same)
        {
          g_autofree char *g = fx_value_to_repr (&a->default_value);
          g_autofree char *w = fx_value_to_repr (&want);
          g_test_fail_printf ("%s: default %s, expected %s", a->name, g, w);
        }
      fx_value_clear (&want);
    }
  fx_overload_clear (&ov);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();

  const char *srcdir = g_getenv ("G_TEST_SRCDIR");
  g_autofree char *path = g_build_filename (srcdir ? srcdir : ".", "conformance", "goldens",
                                            "layers.json", NULL);
  golden_set_object_decoder (decode_module_object);
  parsers = g_ptr_array_new_with_free_func (g_object_unref);
  JsonParser *parser = json_parser_new ();
  GError *error = NULL;
  if (!json_parser_load_from_file (parser, path, &error))
    g_error ("%s: %s", path, error->message);
  g_ptr_array_add (parsers, parser);
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));

  g_test_add_func ("/layers/catalog", test_catalog);
  g_test_add_func ("/layers/module-caller", test_module_caller);

  JsonArray *sigs = json_object_get_array_member (root, "signatures");
  for (guint i = 0; i < json_array_get_length (sigs); i++)
    {
      JsonObject *s = json_array_get_object_element (sigs, i);
      g_autofree char *name = g_strdup_printf ("/layers/signature/%s",
                                               json_object_get_string_member (s, "layer"));
      g_test_add_data_func (name, s, run_signature);
    }

  GPtrArray *forward_cases = g_ptr_array_new_with_free_func (g_free);
  JsonArray *cases = json_object_get_array_member (root, "cases");
  for (guint i = 0; i < json_array_get_length (cases); i++)
    {
      JsonObject *c = json_array_get_object_element (cases, i);
      const char *id = json_object_get_string_member (c, "id");
      g_autofree char *name = g_strdup_printf ("/layers/new/%s", id);
      g_test_add_data_func (name, c, run_construct);
      if (!json_object_has_member (c, "forwards"))
        continue;
      JsonArray *fws = json_object_get_array_member (c, "forwards");
      for (guint j = 0; j < json_array_get_length (fws); j++)
        {
          ForwardCase *fc = g_new0 (ForwardCase, 1);
          fc->c = c;
          fc->index = j;
          g_ptr_array_add (forward_cases, fc);
          g_autofree char *fname = g_strdup_printf ("/layers/forward/%s/%u", id, j);
          g_test_add_data_func (fname, fc, run_forward);
        }
    }

  int rc = g_test_run ();
  g_ptr_array_free (forward_cases, TRUE);
  g_ptr_array_free (parsers, TRUE);
  return rc;
}
