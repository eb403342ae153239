/* golden-values.c: see golden-values.h. */
#include "golden-values.h"

#include <math.h>
#include <string.h>

static GoldenObjectDecoder object_decoder;

void
golden_set_object_decoder (GoldenObjectDecoder decoder)
{
  object_decoder = decoder;
}



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

gboolean
golden_number_of (JsonNode *n, double *out)
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
      else if (!golden_number_of (n, &d))
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
      if (!golden_decode_value (json_array_get_element (a, i), &v, err))
        {
          fx_seq_unref (seq);
          return FALSE;
        }
      fx_seq_append (seq, v);
    }
  *out = seq;
  return TRUE;
}

gboolean
golden_decode_value (JsonNode *node, FxValue *out, char **err)
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
      if (!golden_number_of (json_object_get_member (o, "float"), &d))
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
          if (!golden_decode_value (json_array_get_element (kv, 0), &k, err))
            {
              fx_dict_unref (d);
              return FALSE;
            }
          if (!golden_decode_value (json_array_get_element (kv, 1), &v, err))
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
        if (!golden_decode_value (json_array_get_element (a, i), &p[i], err))
          {
            for (int j = 0; j < i; j++)
              fx_value_clear (&p[j]);
            return FALSE;
          }
      *out = fx_value_take_slice (fx_slice_new (p[0], p[1], p[2]));
    }
  else if (object_decoder != NULL && object_decoder (o, out, err) != 0)
    return *err == NULL;
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


gboolean
golden_close_enough (double got, double want, double rtol, double atol)
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
compare_tensor (const FxTensor *got, const FxTensor *want, const GoldenTol *tol, GString *why)
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
          if (!golden_close_enough (g, w, rtol, atol))
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

gboolean
golden_compare_value (const FxValue *got, const FxValue *want, const GoldenTol *tol, GString *why)
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
      if (!golden_close_enough (got->f, want->f, tol->rtol, tol->atol))
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
          if (!golden_compare_value (&got->seq->items[i], &want->seq->items[i], tol, why))
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
            if (gv == NULL || !golden_compare_value (gv, v, tol, why))
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
