/* test-ops-golden.c: runs every case of tests/conformance/goldens/ops/<group>.json (recorded from
 * PyTorch 1.13 by the gen_ops_*.py scripts) through fx_op_call() and compares the result or
 * the error with what PyTorch gave. One GLib test per case: /ops/<file>/<id>. */
#include "fx.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

/* random.c may not be there yet; seeded cases are skipped without it. */
extern void fx_manual_seed (uint64_t seed) __attribute__ ((weak));

typedef struct {
  char *file;
  JsonObject *obj;     /* the case; owned by the parser kept in parsers */
} Case;

static GPtrArray *parsers;

/* ---- decoding (see golden_encode.py) ---- */

static gboolean decode_value (JsonNode *node, FxValue *out, char **err);

static GHashTable *tuple_types;    /* name → FxTupleType* for named tuples */

static const FxTupleType *
tuple_type_for (const char *name)
{
  if (g_str_equal (name, "torch.Size"))
    return &fx_tuple_type_size;
  if (tuple_types == NULL)
    tuple_types = g_hash_table_new (g_str_hash, g_str_equal);
  FxTupleType *t = g_hash_table_lookup (tuple_types, name);
  if (t == NULL)
    {
      t = g_new0 (FxTupleType, 1);
      t->name = g_strdup (name);
      g_hash_table_insert (tuple_types, (gpointer) t->name, t);
    }
  return t;
}

static gboolean
number_of (JsonNode *n, double *out)
{
  if (JSON_NODE_HOLDS_VALUE (n))
    {
      GType t = json_node_get_value_type (n);
      if (t == G_TYPE_INT64)
        *out = (double) json_node_get_int (n);
      else if (t == G_TYPE_DOUBLE)
        *out = json_node_get_double (n);
      else if (t == G_TYPE_BOOLEAN)
        *out = json_node_get_boolean (n);
      else if (t == G_TYPE_STRING)
        {
          const char *s = json_node_get_string (n);
          if (g_str_equal (s, "nan"))
            *out = NAN;
          else if (g_str_equal (s, "inf"))
            *out = INFINITY;
          else if (g_str_equal (s, "-inf"))
            *out = -INFINITY;
          else
            return FALSE;
        }
      else
        return FALSE;
      return TRUE;
    }
  return FALSE;
}

static FxTensor *
decode_tensor (JsonObject *o, char **err)
{
  FxDType dtype;
  const char *dname = json_object_get_string_member_with_default (o, "dtype", "");
  if (!fx_dtype_from_name (dname, &dtype))
    {
      *err = g_strdup_printf ("unknown dtype %s", dname);
      return NULL;
    }
  JsonArray *shape_a = json_object_get_array_member (o, "shape");
  JsonArray *data = json_object_get_array_member (o, "data");
  int ndim = (int) json_array_get_length (shape_a);
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int64_t numel = 1;
  if (ndim > FX_TENSOR_MAX_DIMS)
    {
      *err = g_strdup ("too many dims");
      return NULL;
    }
  for (int i = 0; i < ndim; i++)
    {
      shape[i] = json_array_get_int_element (shape_a, i);
      numel *= shape[i];
    }
  if ((int64_t) json_array_get_length (data) != numel)
    {
      *err = g_strdup ("data length does not match shape");
      return NULL;
    }
  gsize esize = fx_dtype_size (dtype);
  guint8 *buf = g_malloc0 (MAX (1, numel) * esize);
  for (int64_t i = 0; i < numel; i++)
    {
      JsonNode *n = json_array_get_element (data, (guint) i);
      double d = 0;
      int64_t iv = 0;
      if (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_INT64)
        {
          iv = json_node_get_int (n);
          d = (double) iv;
        }
      else if (!number_of (n, &d))
        {
          g_free (buf);
          *err = g_strdup ("bad tensor element");
          return NULL;
        }
      else
        iv = (int64_t) d;
      void *p = buf + i * esize;
      switch (dtype)
        {
        case FX_DTYPE_BOOL: *(guint8 *) p = d != 0; break;
        case FX_DTYPE_UINT8: *(guint8 *) p = (guint8) iv; break;
        case FX_DTYPE_INT8: *(gint8 *) p = (gint8) iv; break;
        case FX_DTYPE_INT16: *(gint16 *) p = (gint16) iv; break;
        case FX_DTYPE_INT32: *(gint32 *) p = (gint32) iv; break;
        case FX_DTYPE_INT64: *(gint64 *) p = iv; break;
        case FX_DTYPE_FLOAT16: *(guint16 *) p = fx_float_to_half ((float) d); break;
        case FX_DTYPE_FLOAT32: *(float *) p = (float) d; break;
        case FX_DTYPE_FLOAT64: *(double *) p = d; break;
        default: break;
        }
    }
  FxTensor *t = fx_tensor_new_from_data (dtype, ndim, shape, buf);
  g_free (buf);
  if (t == NULL)
    {
      *err = g_strdup ("fx_tensor_new_from_data failed");
      return NULL;
    }

  if (json_object_has_member (o, "view"))
    {
      JsonArray *steps = json_object_get_array_member (o, "view");
      for (guint s = 0; s < json_array_get_length (steps); s++)
        {
          JsonArray *st = json_array_get_array_element (steps, s);
          const char *name = json_array_get_string_element (st, 0);
          GError *error = NULL;
          FxTensor *v = NULL;
          if (g_str_equal (name, "t"))
            v = fx_tensor_t (t, &error);
          else if (g_str_equal (name, "permute"))
            {
              JsonArray *dims_a = json_array_get_array_element (st, 1);
              int dims[FX_TENSOR_MAX_DIMS];
              int n = (int) MIN (json_array_get_length (dims_a), FX_TENSOR_MAX_DIMS);
              for (int i = 0; i < n; i++)
                dims[i] = (int) json_array_get_int_element (dims_a, i);
              v = fx_tensor_permute (t, n, dims, &error);
            }
          else if (g_str_equal (name, "transpose"))
            v = fx_tensor_transpose (t, (int) json_array_get_int_element (st, 1),
                                     (int) json_array_get_int_element (st, 2), &error);
          else if (g_str_equal (name, "slice"))
            {
              int dim = (int) json_array_get_int_element (st, 1);
              JsonNode *a = json_array_get_element (st, 2), *b = json_array_get_element (st, 3),
                       *c = json_array_get_element (st, 4);
              int64_t start = JSON_NODE_HOLDS_NULL (a) ? 0 : json_node_get_int (a);
              int64_t stop = JSON_NODE_HOLDS_NULL (b) ? G_MAXINT64 : json_node_get_int (b);
              int64_t step = JSON_NODE_HOLDS_NULL (c) ? 1 : json_node_get_int (c);
              v = fx_tensor_slice (t, dim, start, stop, step, &error);
            }
          else if (g_str_equal (name, "expand"))
            {
              JsonArray *sa = json_array_get_array_element (st, 1);
              int64_t sh[FX_TENSOR_MAX_DIMS];
              int n = (int) MIN (json_array_get_length (sa), FX_TENSOR_MAX_DIMS);
              for (int i = 0; i < n; i++)
                sh[i] = json_array_get_int_element (sa, i);
              v = fx_tensor_expand (t, n, sh, &error);
            }
          else
            {
              *err = g_strdup_printf ("unknown view step %s", name);
              fx_tensor_unref (t);
              return NULL;
            }
          fx_tensor_unref (t);
          if (v == NULL)
            {
              *err = g_strdup_printf ("view step %s failed: %s", name,
                                      error ? error->message : "?");
              g_clear_error (&error);
              return NULL;
            }
          t = v;
        }
    }
  if (json_object_get_boolean_member_with_default (o, "requires_grad", FALSE))
    t->requires_grad = TRUE;
  return t;
}

static gboolean
decode_seq (JsonArray *a, FxSeq **out, char **err)
{
  FxSeq *seq = fx_seq_new (0);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      FxValue v;
      if (!decode_value (json_array_get_element (a, i), &v, err))
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
decode_value (JsonNode *node, FxValue *out, char **err)
{
  *out = fx_value_none ();
  if (JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (JSON_NODE_HOLDS_VALUE (node))
    {
      GType t = json_node_get_value_type (node);
      if (t == G_TYPE_BOOLEAN)
        *out = fx_value_bool (json_node_get_boolean (node));
      else if (t == G_TYPE_INT64)
        *out = fx_value_int (json_node_get_int (node));
      else if (t == G_TYPE_DOUBLE)
        *out = fx_value_float (json_node_get_double (node));
      else
        {
          *err = g_strdup ("bare string in golden (expected {\"str\": ...})");
          return FALSE;
        }
      return TRUE;
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      *err = g_strdup ("bare array in golden");
      return FALSE;
    }
  JsonObject *o = json_node_get_object (node);
  if (json_object_has_member (o, "float"))
    {
      double d;
      if (!number_of (json_object_get_member (o, "float"), &d))
        {
          *err = g_strdup ("bad float");
          return FALSE;
        }
      *out = fx_value_float (d);
    }
  else if (json_object_has_member (o, "str"))
    *out = fx_value_str (json_object_get_string_member (o, "str"));
  else if (json_object_has_member (o, "tuple") || json_object_has_member (o, "list"))
    {
      gboolean tuple = json_object_has_member (o, "tuple");
      FxSeq *seq;
      if (!decode_seq (json_object_get_array_member (o, tuple ? "tuple" : "list"), &seq, err))
        return FALSE;
      if (tuple && json_object_has_member (o, "type"))
        seq->type = tuple_type_for (json_object_get_string_member (o, "type"));
      *out = tuple ? fx_value_take_tuple (seq) : fx_value_take_list (seq);
    }
  else if (json_object_has_member (o, "size"))
    {
      JsonArray *a = json_object_get_array_member (o, "size");
      int n = (int) json_array_get_length (a);
      int64_t *items = g_new0 (int64_t, MAX (n, 1));
      for (int i = 0; i < n; i++)
        items[i] = json_array_get_int_element (a, i);
      *out = fx_value_int_tuple (&fx_tuple_type_size, n, items);
      g_free (items);
    }
  else if (json_object_has_member (o, "dict"))
    {
      JsonArray *a = json_object_get_array_member (o, "dict");
      FxDict *d = fx_dict_new ();
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          JsonArray *kv = json_array_get_array_element (a, i);
          FxValue k, v;
          if (!decode_value (json_array_get_element (kv, 0), &k, err))
            {
              fx_dict_unref (d);
              return FALSE;
            }
          if (!decode_value (json_array_get_element (kv, 1), &v, err))
            {
              fx_value_clear (&k);
              fx_dict_unref (d);
              return FALSE;
            }
          fx_dict_set (d, k, v);
        }
      *out = fx_value_take_dict (d);
    }
  else if (json_object_has_member (o, "slice"))
    {
      JsonArray *a = json_object_get_array_member (o, "slice");
      FxValue p[3];
      for (int i = 0; i < 3; i++)
        if (!decode_value (json_array_get_element (a, i), &p[i], err))
          {
            for (int j = 0; j < i; j++)
              fx_value_clear (&p[j]);
            return FALSE;
          }
      *out = fx_value_take_slice (fx_slice_new (p[0], p[1], p[2]));
    }
  else if (json_object_has_member (o, "ellipsis"))
    *out = fx_value_ellipsis ();
  else if (json_object_has_member (o, "dtype"))
    {
      FxDType d;
      if (!fx_dtype_from_name (json_object_get_string_member (o, "dtype"), &d))
        {
          *err = g_strdup ("unknown dtype");
          return FALSE;
        }
      *out = fx_value_dtype (d);
    }
  else if (json_object_has_member (o, "tensor"))
    {
      FxTensor *t = decode_tensor (json_object_get_object_member (o, "tensor"), err);
      if (t == NULL)
        return FALSE;
      *out = fx_value_take_tensor (t);
    }
  else
    {
      *err = g_strdup ("unknown encoded value");
      return FALSE;
    }
  return TRUE;
}

/* ---- comparison ---- */

typedef struct {
  double rtol, atol;
  gboolean explicit_tol;
} Tol;

static gboolean
close_enough (double got, double want, double rtol, double atol)
{
  if (isnan (want))
    return isnan (got);
  if (isinf (want))
    return got == want;
  if (isnan (got) || isinf (got))
    return FALSE;
  return fabs (got - want) <= atol + rtol * fabs (want);
}

static gboolean
compare_tensor (const FxTensor *got, const FxTensor *want, const Tol *tol, GString *why)
{
  if (got->dtype != want->dtype)
    {
      g_string_append_printf (why, "dtype %s, expected %s", fx_dtype_name (got->dtype),
                              fx_dtype_name (want->dtype));
      return FALSE;
    }
  if (got->ndim != want->ndim || !fx_tensor_same_shape (got, want))
    {
      g_string_append (why, "shape (");
      for (int i = 0; i < got->ndim; i++)
        g_string_append_printf (why, "%s%" G_GINT64_FORMAT, i ? ", " : "", got->shape[i]);
      g_string_append (why, "), expected (");
      for (int i = 0; i < want->ndim; i++)
        g_string_append_printf (why, "%s%" G_GINT64_FORMAT, i ? ", " : "", want->shape[i]);
      g_string_append (why, ")");
      return FALSE;
    }
  if (got->requires_grad != want->requires_grad)
    {
      g_string_append_printf (why, "requires_grad %d, expected %d", got->requires_grad,
                              want->requires_grad);
      return FALSE;
    }
  int64_t n = fx_tensor_numel (want);
  gboolean floating = fx_dtype_is_floating (want->dtype);
  double rtol = tol->rtol, atol = tol->atol;
  if (!tol->explicit_tol && want->dtype == FX_DTYPE_FLOAT16)
    {
      rtol = 1e-3;
      atol = 1e-5;
    }
  for (int64_t i = 0; i < n; i++)
    {
      if (floating)
        {
          double g = fx_tensor_get_double (got, i), w = fx_tensor_get_double (want, i);
          if (!close_enough (g, w, rtol, atol))
            {
              g_string_append_printf (why, "element %" G_GINT64_FORMAT " is %.9g, expected %.9g",
                                      i, g, w);
              return FALSE;
            }
        }
      else
        {
          int64_t g = fx_tensor_get_int64 (got, i), w = fx_tensor_get_int64 (want, i);
          if (g != w)
            {
              g_string_append_printf (why, "element %" G_GINT64_FORMAT " is %" G_GINT64_FORMAT
                                      ", expected %" G_GINT64_FORMAT, i, g, w);
              return FALSE;
            }
        }
    }
  return TRUE;
}

static gboolean
compare_value (const FxValue *got, const FxValue *want, const Tol *tol, GString *why)
{
  if (got->kind != want->kind)
    {
      g_string_append_printf (why, "got a %s, expected a %s", fx_value_kind_name (got->kind),
                              fx_value_kind_name (want->kind));
      return FALSE;
    }
  switch (want->kind)
    {
    case FX_VALUE_FLOAT:
      if (!close_enough (got->f, want->f, tol->rtol, tol->atol))
        {
          g_string_append_printf (why, "%.17g, expected %.17g", got->f, want->f);
          return FALSE;
        }
      return TRUE;
    case FX_VALUE_TENSOR:
      return compare_tensor (got->tensor, want->tensor, tol, why);
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST:
      {
        const char *gt = got->seq->type ? got->seq->type->name : "tuple";
        const char *wt = want->seq->type ? want->seq->type->name : "tuple";
        if (want->kind == FX_VALUE_TUPLE && g_strcmp0 (gt, wt) != 0)
          {
            g_string_append_printf (why, "tuple type %s, expected %s", gt, wt);
            return FALSE;
          }
        if (got->seq->len != want->seq->len)
          {
            g_string_append_printf (why, "length %u, expected %u", got->seq->len, want->seq->len);
            return FALSE;
          }
        for (guint i = 0; i < want->seq->len; i++)
          if (!compare_value (&got->seq->items[i], &want->seq->items[i], tol, why))
            {
              g_autofree char *where = g_strdup_printf ("[%u]: ", i);
              g_string_prepend (why, where);
              return FALSE;
            }
        return TRUE;
      }
    case FX_VALUE_DICT:
      {
        const FxValue *k, *v;
        if (fx_dict_len (got->dict) != fx_dict_len (want->dict))
          {
            g_string_append (why, "dict sizes differ");
            return FALSE;
          }
        for (guint i = 0; fx_dict_entry (want->dict, i, &k, &v); i++)
          {
            FxValue *gv = fx_dict_get (got->dict, k);
            if (gv == NULL || !compare_value (gv, v, tol, why))
              {
                g_string_append (why, gv ? " (in dict)" : "missing dict key");
                return FALSE;
              }
          }
        return TRUE;
      }
    default:
      if (!fx_value_equal (got, want))
        {
          g_autofree char *g = fx_value_to_repr (got);
          g_autofree char *w = fx_value_to_repr (want);
          g_string_append_printf (why, "%s, expected %s", g, w);
          return FALSE;
        }
      return TRUE;
    }
}

/* ---- running a case ---- */

static void
run_case (gconstpointer data)
{
  const Case *c = data;
  JsonObject *o = c->obj;
  const char *path = json_object_get_string_member (o, "op");
  const FxOp *op;
  char *err = NULL;
  FxValue *argv = NULL;
  int n_args = 0;
  FxDict *kwargs = NULL;
  FxValue result = fx_value_none ();
  GError *error = NULL;

  fx_ops_init ();
  op = g_str_has_prefix (path, "Tensor.") ? fx_op_lookup_method (path + strlen ("Tensor."))
                                         : fx_op_lookup (path);
  if (op == NULL)
    {
      g_test_fail_printf ("op %s is not in the registry", path);
      return;
    }

  if (json_object_has_member (o, "seed") && fx_manual_seed == NULL)
    {
      g_test_skip ("fx_manual_seed is not available");
      return;
    }

  JsonArray *a = json_object_get_array_member (o, "args");
  n_args = a ? (int) json_array_get_length (a) : 0;
  argv = g_new0 (FxValue, MAX (n_args, 1));
  for (int i = 0; i < n_args; i++)
    if (!decode_value (json_array_get_element (a, i), &argv[i], &err))
      {
        g_test_fail_printf ("cannot decode argument %d: %s", i, err);
        goto out;
      }
  if (json_object_has_member (o, "kwargs"))
    {
      JsonObject *kw = json_object_get_object_member (o, "kwargs");
      JsonObjectIter it;
      const char *name;
      JsonNode *node;
      kwargs = fx_dict_new ();
      json_object_iter_init_ordered (&it, kw);
      while (json_object_iter_next_ordered (&it, &name, &node))
        {
          FxValue v;
          if (!decode_value (node, &v, &err))
            {
              g_test_fail_printf ("cannot decode keyword %s: %s", name, err);
              goto out;
            }
          fx_dict_set (kwargs, fx_value_str (name), v);
        }
      if (fx_dict_len (kwargs) == 0)
        g_clear_pointer (&kwargs, fx_dict_unref);
    }

  if (json_object_has_member (o, "seed"))
    fx_manual_seed ((uint64_t) json_object_get_int_member (o, "seed"));

  gboolean ok = fx_op_call (op, argv, n_args, kwargs, &result, &error);

  if (json_object_has_member (o, "error"))
    {
      JsonObject *e = json_object_get_object_member (o, "error");
      const char *type = json_object_get_string_member (e, "type");
      const char *message = json_object_get_string_member (e, "message");
      if (ok)
        {
          g_autofree char *r = fx_value_to_repr (&result);
          g_test_fail_printf ("expected %s: %s; got %s", type, message, r);
          goto out;
        }
      const char *got_type = error->domain == FX_ERROR
                             ? fx_error_code_python_name ((FxErrorCode) error->code) : "?";
      const char *nl = strchr (error->message, '\n');
      g_autofree char *got_msg = nl ? g_strndup (error->message, nl - error->message)
                                    : g_strdup (error->message);
      if (g_strcmp0 (got_type, type) != 0 || g_strcmp0 (got_msg, message) != 0)
        g_test_fail_printf ("error %s: %s\n   expected %s: %s", got_type, got_msg, type,
                            message);
      goto out;
    }

  if (!ok)
    {
      g_test_fail_printf ("failed with %s: %s",
                          error->domain == FX_ERROR
                          ? fx_error_code_python_name ((FxErrorCode) error->code) : "?",
                          error->message);
      goto out;
    }
  FxValue want;
  if (!decode_value (json_object_get_member (o, "expect"), &want, &err))
    {
      g_test_fail_printf ("cannot decode the expected value: %s", err);
      goto out;
    }
  Tol tol = { 1e-5, 1e-6, FALSE };
  if (json_object_has_member (o, "rtol"))
    {
      tol.rtol = json_object_get_double_member (o, "rtol");
      tol.explicit_tol = TRUE;
    }
  if (json_object_has_member (o, "atol"))
    {
      tol.atol = json_object_get_double_member (o, "atol");
      tol.explicit_tol = TRUE;
    }
  GString *why = g_string_new (NULL);
  if (!compare_value (&result, &want, &tol, why))
    {
      g_autofree char *r = fx_value_to_repr (&result);
      g_test_fail_printf ("%s\n   got: %.2000s", why->str, r);
    }
  g_string_free (why, TRUE);
  fx_value_clear (&want);

out:
  g_free (err);
  g_clear_error (&error);
  fx_value_clear (&result);
  for (int i = 0; i < n_args; i++)
    fx_value_clear (&argv[i]);
  g_free (argv);
  if (kwargs)
    fx_dict_unref (kwargs);
}

static void
free_case (gpointer data)
{
  Case *c = data;
  g_free (c->file);
  g_free (c);
}

static void
add_file (const char *dir, const char *name, GPtrArray *cases)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  JsonParser *parser = json_parser_new ();
  GError *error = NULL;
  if (!json_parser_load_from_file (parser, path, &error))
    g_error ("%s: %s", path, error->message);
  g_ptr_array_add (parsers, parser);
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));
  JsonArray *list = json_object_get_array_member (root, "cases");
  g_autofree char *base = g_strndup (name, strlen (name) - strlen (".json"));
  GHashTable *seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      Case *c = g_new0 (Case, 1);
      c->file = g_strdup (base);
      c->obj = json_array_get_object_element (list, i);
      const char *id = json_object_get_string_member_with_default (c->obj, "id", "");
      char *test_path = g_strdup_printf ("/ops/%s/%s", base, id);
      if (g_hash_table_contains (seen, test_path))
        g_error ("%s: duplicate case id %s", path, id);
      g_hash_table_add (seen, g_strdup (test_path));
      g_ptr_array_add (cases, c);
      g_test_add_data_func (test_path, c, run_case);
      g_free (test_path);
    }
  g_hash_table_unref (seen);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
no_goldens (void)
{
  g_test_skip ("no golden files");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();

  const char *srcdir = g_getenv ("G_TEST_SRCDIR");
  g_autofree char *dir = g_build_filename (srcdir ? srcdir : ".", "conformance", "goldens", "ops",
                                           NULL);
  GPtrArray *cases = g_ptr_array_new_with_free_func (free_case);
  parsers = g_ptr_array_new_with_free_func (g_object_unref);
  GDir *d = g_dir_open (dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  if (d != NULL)
    {
      const char *name;
      while ((name = g_dir_read_name (d)) != NULL)
        if (g_str_has_suffix (name, ".json"))
          g_ptr_array_add (names, g_strdup (name));
      g_dir_close (d);
    }
  /* a stable order, whatever the file system's */
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    add_file (dir, names->pdata[i], cases);
  if (names->len == 0)
    g_test_add_func ("/ops/no-goldens", no_goldens);

  int rc = g_test_run ();
  g_ptr_array_free (names, TRUE);
  g_ptr_array_free (cases, TRUE);
  g_ptr_array_free (parsers, TRUE);
  return rc;
}
