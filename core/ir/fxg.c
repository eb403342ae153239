/* fxg.c: saving and loading .fxg documents. The saver walks the module tree and the graph,
 * naming each distinct tensor once (tied weights stay tied); the loader trusts nothing: each
 * member's JSON type, every name, node reference, op path, tensor size and the sidecar's
 * checksum are checked, and errors name the element ("node 'add_3': ..."). */
#include "ir/fxg.h"
#include "ir/json-depth.h"
#include "ir/safetensors.h"
#include "ir/codegen.h"
#include "ops/op.h"
#include "ops/layers.h"
#include "fx-error.h"

#include <string.h>
#include <math.h>

#define MAX_JSON_DEPTH 200

/* ================================================================== saving */

typedef struct {
  GHashTable *names;            /* FxTensor* → name (owned by `used`) */
  GHashTable *used;             /* tensor names */
  JsonObject *tensors;          /* the document's "tensors" */
  FxDict *sidecar;              /* name → tensor, for the large ones */
} Saver;

static JsonNode *
node_for_array (JsonArray *a)
{
  JsonNode *n = json_node_new (JSON_NODE_ARRAY);
  json_node_take_array (n, a);
  return n;
}

static JsonNode *
node_for_object (JsonObject *o)
{
  JsonNode *n = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (n, o);
  return n;
}

static JsonNode *
tagged (const char *tag, JsonNode *payload)
{
  JsonObject *o = json_object_new ();
  json_object_set_member (o, tag, payload);
  return node_for_object (o);
}

static JsonNode *
string_node (const char *s)
{
  JsonNode *n = json_node_new (JSON_NODE_VALUE);
  json_node_set_string (n, s);
  return n;
}

static const char *
save_tensor (Saver *s, FxTensor *t, const char *hint)
{
  const char *name = g_hash_table_lookup (s->names, t);
  g_autofree char *candidate = NULL;
  JsonObject *entry;
  JsonArray *shape;
  int64_t numel = fx_tensor_numel (t);

  if (name != NULL)
    return name;
  candidate = g_strdup (hint && *hint ? hint : "tensor");
  for (guint i = 1; g_hash_table_contains (s->used, candidate); i++)
    {
      g_free (candidate);
      candidate = g_strdup_printf ("%s_%u", hint && *hint ? hint : "tensor", i);
    }
  name = candidate;
  g_hash_table_add (s->used, g_steal_pointer (&candidate));
  g_hash_table_insert (s->names, t, (gpointer) name);

  entry = json_object_new ();
  json_object_set_string_member (entry, "dtype", fx_dtype_name (t->dtype));
  shape = json_array_new ();
  for (int d = 0; d < t->ndim; d++)
    json_array_add_int_element (shape, t->shape[d]);
  json_object_set_array_member (entry, "shape", shape);
  json_object_set_boolean_member (entry, "requires_grad", t->requires_grad);
  if (numel < FX_FXG_INLINE_MAX_ELEMENTS)
    {
      g_autoptr (FxTensor) c = fx_tensor_contiguous (t);
      g_autofree char *b64 = g_base64_encode (numel ? fx_tensor_data (c) : (const guchar *) "",
                                              (gsize) numel * fx_dtype_size (t->dtype));
      json_object_set_string_member (entry, "data", b64);
    }
  else
    {
      json_object_set_boolean_member (entry, "sidecar", TRUE);
      fx_dict_set (s->sidecar, fx_value_str (name), fx_value_tensor (t));
    }
  json_object_set_object_member (s->tensors, name, entry);
  return name;
}

static JsonNode *encode_value (Saver *s, const FxValue *v, const char *hint, const char *context,
                               GError **error);

static JsonNode *
encode_seq (Saver *s, const FxSeq *seq, const char *hint, const char *context, GError **error)
{
  JsonArray *a = json_array_new ();
  for (guint i = 0; i < seq->len; i++)
    {
      g_autofree char *sub = g_strdup_printf ("%s.%u", hint, i);
      JsonNode *item = encode_value (s, &seq->items[i], sub, context, error);
      if (item == NULL)
        {
          json_array_unref (a);
          return NULL;
        }
      json_array_add_element (a, item);
    }
  return node_for_array (a);
}

static JsonNode *
encode_pairs (Saver *s, const FxDict *dict, const char *hint, const char *context, GError **error)
{
  JsonArray *a = json_array_new ();
  const FxValue *k, *v;

  for (guint i = 0; fx_dict_entry (dict, i, &k, &v); i++)
    {
      g_autofree char *sub = g_strdup_printf ("%s.%u", hint, i);
      JsonArray *pair = json_array_new ();
      JsonNode *kn = encode_value (s, k, sub, context, error), *vn;
      if (kn == NULL)
        {
          json_array_unref (pair);
          json_array_unref (a);
          return NULL;
        }
      json_array_add_element (pair, kn);
      vn = encode_value (s, v, sub, context, error);
      if (vn == NULL)
        {
          json_array_unref (pair);
          json_array_unref (a);
          return NULL;
        }
      json_array_add_element (pair, vn);
      json_array_add_array_element (a, pair);
    }
  return node_for_array (a);
}

static JsonNode *
encode_value (Saver *s, const FxValue *v, const char *hint, const char *context, GError **error)
{
  JsonNode *n;

  switch (v->kind)
    {
    case FX_VALUE_NONE:
      return json_node_new (JSON_NODE_NULL);
    case FX_VALUE_BOOL:
      n = json_node_new (JSON_NODE_VALUE);
      json_node_set_boolean (n, v->b);
      return n;
    case FX_VALUE_INT:
      n = json_node_new (JSON_NODE_VALUE);
      json_node_set_int (n, v->i);
      return n;
    case FX_VALUE_FLOAT:
      if (isnan (v->f))
        return tagged ("float", string_node ("nan"));
      if (isinf (v->f))
        return tagged ("float", string_node (v->f > 0 ? "inf" : "-inf"));
      n = json_node_new (JSON_NODE_VALUE);
      json_node_set_double (n, v->f);
      return n;
    case FX_VALUE_STR:
      return string_node (v->s->data);
    case FX_VALUE_TUPLE:
      if (v->seq->type != NULL && v->seq->type != &fx_tuple_type_size)
        break;
      n = encode_seq (s, v->seq, hint, context, error);
      return n ? tagged (v->seq->type ? "size" : "tuple", n) : NULL;
    case FX_VALUE_LIST:
      n = encode_seq (s, v->seq, hint, context, error);
      return n ? tagged ("list", n) : NULL;
    case FX_VALUE_DICT:
      n = encode_pairs (s, v->dict, hint, context, error);
      return n ? tagged ("dict", n) : NULL;
    case FX_VALUE_SLICE:
      {
        FxSeq *parts = fx_seq_new (3);
        parts->items[0] = fx_value_copy (&v->slice->start);
        parts->items[1] = fx_value_copy (&v->slice->stop);
        parts->items[2] = fx_value_copy (&v->slice->step);
        n = encode_seq (s, parts, hint, context, error);
        fx_seq_unref (parts);
        return n ? tagged ("slice", n) : NULL;
      }
    case FX_VALUE_ELLIPSIS:
      n = json_node_new (JSON_NODE_VALUE);
      json_node_set_boolean (n, TRUE);
      return tagged ("ellipsis", n);
    case FX_VALUE_DTYPE:
      return tagged ("dtype", string_node (fx_dtype_name (v->dtype)));
    case FX_VALUE_DEVICE:
      return tagged ("device", string_node (v->s->data));
    case FX_VALUE_TENSOR:
      return tagged ("tensor", string_node (save_tensor (s, v->tensor, hint)));
    case FX_VALUE_NODE:
      return tagged ("node", string_node (fx_node_get_name (v->node)));
    case FX_VALUE_OP:
      return tagged ("op", string_node (v->op->qualified_name));
    case FX_VALUE_OBJECT:
      break;
    }
  {
    g_autofree char *repr = fx_value_to_repr (v);
    g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                 "%s: a value of type %s cannot be saved in an .fxg file: %s", context,
                 v->kind == FX_VALUE_OBJECT ? v->obj->klass->name
                 : v->kind == FX_VALUE_TUPLE ? v->seq->type->name : fx_value_kind_name (v->kind),
                 repr);
  }
  return NULL;
}

static JsonNode *
tensor_ref (Saver *s, FxTensor *t, const char *hint)
{
  return t ? tagged ("tensor", string_node (save_tensor (s, t, hint))) : json_node_new (JSON_NODE_NULL);
}

/* Module trees are as deep as the model's source nesting, so recursion is fine. */
static JsonNode *
encode_module (Saver *s, FxModule *m, const char *path, GError **error)
{
  JsonObject *o = json_object_new ();
  JsonArray *params = json_array_new (), *buffers = json_array_new ();
  JsonArray *attrs = json_array_new (), *children = json_array_new ();
  g_autofree char *context = g_strdup_printf ("module '%s'", path);
  const FxValue *k, *v;

  json_object_set_string_member (o, "type", m->type_name);
  json_object_set_boolean_member (o, "layer", m->layer != NULL);
  json_object_set_boolean_member (o, "training", m->training);
  json_object_set_array_member (o, "parameters", params);
  json_object_set_array_member (o, "buffers", buffers);
  json_object_set_array_member (o, "attributes", attrs);
  json_object_set_array_member (o, "children", children);
  for (guint i = 0; fx_dict_entry (m->parameters, i, &k, &v); i++)
    {
      g_autofree char *hint = *path ? g_strdup_printf ("%s.%s", path, k->s->data) : g_strdup (k->s->data);
      JsonArray *e = json_array_new ();
      json_array_add_string_element (e, k->s->data);
      json_array_add_element (e, tensor_ref (s, v->kind == FX_VALUE_TENSOR ? v->tensor : NULL, hint));
      json_array_add_array_element (params, e);
    }
  for (guint i = 0; fx_dict_entry (m->buffers, i, &k, &v); i++)
    {
      g_autofree char *hint = *path ? g_strdup_printf ("%s.%s", path, k->s->data) : g_strdup (k->s->data);
      JsonArray *e = json_array_new ();
      json_array_add_string_element (e, k->s->data);
      json_array_add_element (e, tensor_ref (s, v->kind == FX_VALUE_TENSOR ? v->tensor : NULL, hint));
      json_array_add_boolean_element (e, !g_hash_table_contains (m->non_persistent, k->s->data));
      json_array_add_array_element (buffers, e);
    }
  for (guint i = 0; fx_dict_entry (m->attributes, i, &k, &v); i++)
    {
      g_autofree char *hint = *path ? g_strdup_printf ("%s.%s", path, k->s->data) : g_strdup (k->s->data);
      g_autofree char *actx = g_strdup_printf ("%s attribute '%s'", context, k->s->data);
      JsonNode *value = encode_value (s, v, hint, actx, error);
      JsonArray *e;
      if (value == NULL)
        goto fail;
      e = json_array_new ();
      json_array_add_string_element (e, k->s->data);
      json_array_add_element (e, value);
      json_array_add_array_element (attrs, e);
    }
  for (guint i = 0; fx_dict_entry (m->children, i, &k, &v); i++)
    {
      g_autofree char *sub = *path ? g_strdup_printf ("%s.%s", path, k->s->data) : g_strdup (k->s->data);
      JsonNode *child = fx_value_is_module (v) ? encode_module (s, fx_value_get_module (v), sub, error)
                                               : json_node_new (JSON_NODE_NULL);
      JsonArray *e;
      if (child == NULL)
        goto fail;
      e = json_array_new ();
      json_array_add_string_element (e, k->s->data);
      json_array_add_element (e, child);
      json_array_add_array_element (children, e);
    }
  return node_for_object (o);
fail:
  json_object_unref (o);
  return NULL;
}

/* Values made of plain data only (depth is that of the value, which its owner built). */
static gboolean
plain_value (const FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_TENSOR: case FX_VALUE_NODE: case FX_VALUE_OBJECT:
      return FALSE;
    case FX_VALUE_TUPLE: case FX_VALUE_LIST:
      if (v->kind == FX_VALUE_TUPLE && v->seq->type != NULL && v->seq->type != &fx_tuple_type_size)
        return FALSE;
      for (guint i = 0; i < v->seq->len; i++)
        if (!plain_value (&v->seq->items[i]))
          return FALSE;
      return TRUE;
    case FX_VALUE_DICT:
      {
        const FxValue *k, *x;
        for (guint i = 0; fx_dict_entry (v->dict, i, &k, &x); i++)
          if (!plain_value (k) || !plain_value (x))
            return FALSE;
        return TRUE;
      }
    case FX_VALUE_SLICE:
      return plain_value (&v->slice->start) && plain_value (&v->slice->stop)
             && plain_value (&v->slice->step);
    default:
      return TRUE;
    }
}

static JsonNode *
encode_node (Saver *s, FxNode *node, GError **error)
{
  JsonObject *o = json_object_new ();
  g_autofree char *context = g_strdup_printf ("node '%s'", node->name);
  g_autofree char *hint = g_strdup_printf ("%s.arg", node->name);
  JsonNode *args, *kwargs;
  JsonArray *meta = json_array_new ();
  const FxValue *k, *v;

  json_object_set_string_member (o, "name", node->name);
  json_object_set_string_member (o, "op", fx_node_op_name (node->op));
  if (node->op == FX_OP_CALL_FUNCTION)
    {
      if (node->target.kind != FX_VALUE_OP)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                       "%s: its target %s is not a registry op and cannot be saved", context,
                       fx_target_qualified_name (&node->target));
          json_object_unref (o);
          json_array_unref (meta);
          return NULL;
        }
      json_object_set_string_member (o, "target", node->target.op->qualified_name);
    }
  else
    json_object_set_string_member (o, "target", node->target.s->data);
  args = encode_value (s, &node->args, hint, context, error);
  kwargs = args ? encode_value (s, &node->kwargs, hint, context, error) : NULL;
  if (args == NULL || kwargs == NULL)
    {
      if (args)
        json_node_unref (args);
      json_object_unref (o);
      json_array_unref (meta);
      return NULL;
    }
  /* args is {"tuple": [...]}, kwargs {"dict": [...]}: store their insides */
  json_object_set_member (o, "args", json_node_copy (json_object_get_member (json_node_get_object (args), "tuple")));
  json_object_set_member (o, "kwargs", json_node_copy (json_object_get_member (json_node_get_object (kwargs), "dict")));
  json_node_unref (args);
  json_node_unref (kwargs);
  if (node->type.kind == FX_VALUE_STR)
    json_object_set_string_member (o, "type", node->type.s->data);
  else
    json_object_set_null_member (o, "type");
  /* meta: what is plain data (shapes, dtypes, stack traces, flags); tensors, objects and
   * node references there are the passes' scratch and are left out */
  for (guint i = 0; fx_dict_entry (node->meta, i, &k, &v); i++)
    {
      JsonNode *value;
      JsonArray *e;

      if (k->kind != FX_VALUE_STR || !plain_value (v))
        continue;
      value = encode_value (s, v, "meta", context, NULL);
      if (value == NULL)
        continue;
      e = json_array_new ();
      json_array_add_string_element (e, k->s->data);
      json_array_add_element (e, value);
      json_array_add_array_element (meta, e);
    }
  json_object_set_array_member (o, "meta", meta);
  return node_for_object (o);
}

char *
fx_fxg_to_data (FxGraphModule *gm, JsonObject *editor_state, const char *sidecar_name,
                GBytes **sidecar_out, GError **error)
{
  Saver s = { 0 };
  g_autoptr (JsonObject) doc = json_object_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  JsonArray *nodes = json_array_new ();
  JsonNode *module;
  char *text = NULL;

  if (sidecar_out)
    *sidecar_out = NULL;
  s.names = g_hash_table_new (g_direct_hash, g_direct_equal);
  s.used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  s.tensors = json_object_new ();
  s.sidecar = fx_dict_new ();

  json_object_set_string_member (doc, "format", "fxg");
  json_object_set_int_member (doc, "version", FX_FXG_VERSION);
  json_object_set_string_member (doc, "class_name", gm->module->type_name);
  module = encode_module (&s, gm->module, "", error);
  if (module == NULL)
    {
      json_array_unref (nodes);
      goto out;
    }
  json_object_set_member (doc, "module", module);
  json_object_set_array_member (doc, "nodes", nodes);
  for (FxNode *n = fx_graph_first (gm->graph); n != NULL; n = fx_node_next (n))
    {
      JsonNode *enc = encode_node (&s, n, error);
      if (enc == NULL)
        goto out;
      json_array_add_element (nodes, enc);
    }
  json_object_set_object_member (doc, "tensors", json_object_ref (s.tensors));
  if (fx_dict_len (s.sidecar) > 0)
    {
      g_autoptr (GHashTable) meta = g_hash_table_new (g_str_hash, g_str_equal);
      GBytes *bytes;
      JsonObject *sc = json_object_new ();
      g_autofree char *sum = NULL;

      g_hash_table_insert (meta, "format", "fxg-sidecar");
      bytes = fx_safetensors_serialize (s.sidecar, meta, error);
      if (bytes == NULL)
        {
          json_object_unref (sc);
          goto out;
        }
      sum = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, bytes);
      json_object_set_string_member (sc, "file", sidecar_name ? sidecar_name : "sidecar.safetensors");
      json_object_set_string_member (sc, "sha256", sum);
      json_object_set_object_member (doc, "sidecar", sc);
      if (sidecar_out)
        *sidecar_out = bytes;
      else
        g_bytes_unref (bytes);
    }
  if (editor_state != NULL)
    json_object_set_object_member (doc, "editor", json_object_ref (editor_state));

  root = node_for_object (json_object_ref (doc));
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 1);
  text = json_generator_to_data (gen, NULL);
out:
  g_hash_table_unref (s.names);
  g_hash_table_unref (s.used);
  json_object_unref (s.tensors);
  fx_dict_unref (s.sidecar);
  return text;
}

gboolean
fx_fxg_save (FxGraphModule *gm, JsonObject *editor_state, const char *path, GError **error)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *sidecar_name = g_strconcat (base, ".safetensors", NULL);
  g_autofree char *sidecar_path = g_strconcat (path, ".safetensors", NULL);
  g_autoptr (GBytes) sidecar = NULL;
  g_autoptr (GError) local = NULL;
  g_autofree char *text = fx_fxg_to_data (gm, editor_state, sidecar_name, &sidecar, error);

  if (text == NULL)
    return FALSE;
  if (sidecar != NULL
      && !g_file_set_contents (sidecar_path, g_bytes_get_data (sidecar, NULL),
                               (gssize) g_bytes_get_size (sidecar), &local))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_IO, "%s", local->message);
      return FALSE;
    }
  if (!g_file_set_contents (path, text, -1, &local))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_IO, "%s", local->message);
      return FALSE;
    }
  return TRUE;
}

/* ================================================================== loading */

typedef struct {
  JsonObject *tensors_json;     /* may be NULL */
  GHashTable *tensors;          /* name → FxTensor (ref) */
  FxDict *sidecar;              /* may be NULL */
  const char *sidecar_name;
  GHashTable *all_names;        /* every node name of the file */
} Loader;

static gboolean G_GNUC_PRINTF (3, 4)
fail (GError **error, const char *context, const char *format, ...)
{
  va_list ap;
  g_autofree char *msg = NULL;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  if (context != NULL)
    g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "%s: %s", context, msg);
  else
    g_set_error_literal (error, FX_ERROR, FX_ERROR_PARSE, msg);
  return FALSE;
}

static gboolean
is_string (JsonNode *n)
{
  return n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING;
}

static gboolean
is_bool (JsonNode *n)
{
  return n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_BOOLEAN;
}

static gboolean
is_int (JsonNode *n)
{
  return n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_INT64;
}

static gboolean
is_number (JsonNode *n)
{
  return n != NULL && JSON_NODE_HOLDS_VALUE (n)
         && (json_node_get_value_type (n) == G_TYPE_INT64 || json_node_get_value_type (n) == G_TYPE_DOUBLE);
}

/* Refuses members other than those listed (NULL-ended). */
static gboolean
only_members (JsonObject *o, const char *context, GError **error, ...)
{
  g_autoptr (GList) members = json_object_get_members (o);

  for (GList *l = members; l; l = l->next)
    {
      va_list ap;
      const char *allowed;
      gboolean ok = FALSE;
      va_start (ap, error);
      while ((allowed = va_arg (ap, const char *)) != NULL)
        if (strcmp (allowed, l->data) == 0)
          ok = TRUE;
      va_end (ap);
      if (!ok)
        return fail (error, context, "unknown member '%s'", (char *) l->data);
    }
  return TRUE;
}

static gboolean
valid_attr_name (const char *name)
{
  return *name != '\0' && strchr (name, '.') == NULL;
}

static gboolean
valid_path (const char *path)
{
  g_auto (GStrv) atoms = NULL;

  if (*path == '\0')
    return FALSE;
  atoms = g_strsplit (path, ".", -1);
  for (guint i = 0; atoms[i]; i++)
    if (*atoms[i] == '\0')
      return FALSE;
  return TRUE;
}

static gboolean
load_tensor (Loader *L, const char *name, const char *context, FxTensor **out, GError **error)
{
  FxTensor *t = g_hash_table_lookup (L->tensors, name);
  g_autofree char *tctx = g_strdup_printf ("tensor '%s'", name);
  JsonNode *entry_node, *dtype_n, *shape_n, *grad_n, *data_n, *side_n;
  JsonObject *entry;
  JsonArray *shape_a;
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int ndim;
  FxDType dtype;
  guint64 numel = 1, nbytes;

  if (t != NULL)
    {
      *out = t;
      return TRUE;
    }
  entry_node = L->tensors_json ? json_object_get_member (L->tensors_json, name) : NULL;
  if (entry_node == NULL)
    return fail (error, context, "refers to unknown tensor '%s'", name);
  if (!JSON_NODE_HOLDS_OBJECT (entry_node))
    return fail (error, tctx, "not an object");
  entry = json_node_get_object (entry_node);
  if (!only_members (entry, tctx, error, "dtype", "shape", "requires_grad", "data", "sidecar", NULL))
    return FALSE;
  dtype_n = json_object_get_member (entry, "dtype");
  shape_n = json_object_get_member (entry, "shape");
  grad_n = json_object_get_member (entry, "requires_grad");
  data_n = json_object_get_member (entry, "data");
  side_n = json_object_get_member (entry, "sidecar");
  if (!is_string (dtype_n) || !fx_dtype_from_name (json_node_get_string (dtype_n), &dtype)
      || strcmp (fx_dtype_name (dtype), json_node_get_string (dtype_n)) != 0)
    return fail (error, tctx, "missing or unknown dtype");
  if (shape_n == NULL || !JSON_NODE_HOLDS_ARRAY (shape_n))
    return fail (error, tctx, "missing shape");
  shape_a = json_node_get_array (shape_n);
  if (json_array_get_length (shape_a) > FX_TENSOR_MAX_DIMS)
    return fail (error, tctx, "more than %d dimensions", FX_TENSOR_MAX_DIMS);
  ndim = (int) json_array_get_length (shape_a);
  for (int d = 0; d < ndim; d++)
    {
      JsonNode *s = json_array_get_element (shape_a, d);
      if (!is_int (s) || json_node_get_int (s) < 0)
        return fail (error, tctx, "shape[%d] is not a non-negative integer", d);
      shape[d] = json_node_get_int (s);
      if (shape[d] != 0 && numel > (G_MAXUINT64 >> 8) / (guint64) shape[d])
        return fail (error, tctx, "shape overflows");
      numel *= (guint64) shape[d];
    }
  nbytes = numel * fx_dtype_size (dtype);
  if (grad_n != NULL && !is_bool (grad_n))
    return fail (error, tctx, "requires_grad is not a bool");
  if ((data_n == NULL) == (side_n == NULL))
    return fail (error, tctx, "needs exactly one of 'data' and 'sidecar'");
  if (data_n != NULL)
    {
      const char *b64;
      gsize len, got;
      g_autofree guchar *bytes = NULL;

      if (!is_string (data_n))
        return fail (error, tctx, "data is not a base64 string");
      b64 = json_node_get_string (data_n);
      len = strlen (b64);
      if (len % 4 != 0 || strspn (b64, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") != len
          || (strchr (b64, '=') && strspn (strchr (b64, '='), "=") != strlen (strchr (b64, '='))))
        return fail (error, tctx, "data is not valid base64");
      if (len / 4 * 3 > nbytes + 2)
        return fail (error, tctx, "data hold more than the %" G_GUINT64_FORMAT " bytes of its dtype and shape", nbytes);
      bytes = g_base64_decode (b64, &got);
      if (got != nbytes)
        return fail (error, tctx, "data hold %" G_GSIZE_FORMAT " bytes but dtype and shape need %" G_GUINT64_FORMAT,
                     got, nbytes);
      t = fx_tensor_new_uninit (dtype, ndim, shape);
      if (t == NULL)
        return fail (error, tctx, "cannot allocate");
      if (nbytes)
        memcpy (fx_tensor_data (t), bytes, nbytes);
    }
  else
    {
      FxValue key;
      const FxValue *v;
      if (!is_bool (side_n) || !json_node_get_boolean (side_n))
        return fail (error, tctx, "'sidecar' must be true");
      if (L->sidecar == NULL)
        return fail (error, tctx, "is stored in a sidecar but the document names none");
      key = fx_value_str (name);
      v = fx_dict_get (L->sidecar, &key);
      fx_value_clear (&key);
      if (v == NULL)
        return fail (error, tctx, "missing from sidecar '%s'", L->sidecar_name);
      t = fx_tensor_ref (v->tensor);
      if (t->dtype != dtype || t->ndim != ndim || memcmp (t->shape, shape, sizeof (int64_t) * ndim) != 0)
        {
          fx_tensor_unref (t);
          return fail (error, tctx, "dtype or shape differ from sidecar '%s'", L->sidecar_name);
        }
    }
  if (dtype == FX_DTYPE_BOOL)
    {
      guint8 *p = fx_tensor_data (t);
      for (guint64 i = 0; i < nbytes; i++)
        p[i] = p[i] != 0;
    }
  t->requires_grad = grad_n != NULL && json_node_get_boolean (grad_n);
  g_hash_table_insert (L->tensors, g_strdup (name), t);
  *out = t;
  return TRUE;
}

static const FxOp *
lookup_op (const char *path)
{
  const FxOp *op = fx_op_lookup (path);
  if (op == NULL && g_str_has_prefix (path, "Tensor."))
    op = fx_op_lookup_method (path + 7);
  return op;
}

static gboolean
hashable (const FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_NONE: case FX_VALUE_BOOL: case FX_VALUE_INT: case FX_VALUE_FLOAT:
    case FX_VALUE_STR: case FX_VALUE_DTYPE: case FX_VALUE_ELLIPSIS: case FX_VALUE_DEVICE:
    case FX_VALUE_OP: case FX_VALUE_NODE:
      return TRUE;
    case FX_VALUE_TUPLE:
      for (guint i = 0; i < v->seq->len; i++)
        if (!hashable (&v->seq->items[i]))
          return FALSE;
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean decode_value (Loader *L, JsonNode *n, GHashTable *nodes, const char *context,
                              FxValue *out, GError **error);

static gboolean
decode_items (Loader *L, JsonNode *n, GHashTable *nodes, const char *context, gboolean tuple,
              FxValue *out, GError **error)
{
  JsonArray *a;
  FxSeq *seq;

  if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n))
    return fail (error, context, "expected an array of values");
  a = json_node_get_array (n);
  seq = fx_seq_new (json_array_get_length (a));
  for (guint i = 0; i < seq->len; i++)
    if (!decode_value (L, json_array_get_element (a, i), nodes, context, &seq->items[i], error))
      {
        fx_seq_unref (seq);
        return FALSE;
      }
  *out = tuple ? fx_value_take_tuple (seq) : fx_value_take_list (seq);
  return TRUE;
}

/* [[key, value], ...] → dict; str_keys: keys must be unique strs (kwargs, meta). */
static gboolean
decode_pairs (Loader *L, JsonNode *n, GHashTable *nodes, const char *context, gboolean str_keys,
              FxValue *out, GError **error)
{
  JsonArray *a;
  FxDict *dict;

  if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n))
    return fail (error, context, "expected an array of [key, value] pairs");
  a = json_node_get_array (n);
  dict = fx_dict_new ();
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonNode *pn = json_array_get_element (a, i);
      JsonArray *pair;
      FxValue k = fx_value_none (), v = fx_value_none ();

      if (!JSON_NODE_HOLDS_ARRAY (pn) || json_array_get_length (pair = json_node_get_array (pn)) != 2)
        {
          fx_dict_unref (dict);
          return fail (error, context, "entry %u is not a [key, value] pair", i);
        }
      if (!decode_value (L, json_array_get_element (pair, 0), nodes, context, &k, error)
          || !decode_value (L, json_array_get_element (pair, 1), nodes, context, &v, error))
        {
          fx_value_clear (&k);
          fx_dict_unref (dict);
          return FALSE;
        }
      if ((str_keys && k.kind != FX_VALUE_STR) || !hashable (&k))
        {
          fx_value_clear (&k);
          fx_value_clear (&v);
          fx_dict_unref (dict);
          return fail (error, context, "entry %u has an invalid key", i);
        }
      if (str_keys && fx_dict_get (dict, &k) != NULL)
        {
          fail (error, context, "duplicate key '%s'", k.s->data);
          fx_value_clear (&k);
          fx_value_clear (&v);
          fx_dict_unref (dict);
          return FALSE;
        }
      fx_dict_set (dict, k, v);
    }
  *out = fx_value_take_dict (dict);
  return TRUE;
}

static gboolean
decode_value (Loader *L, JsonNode *n, GHashTable *nodes, const char *context, FxValue *out,
              GError **error)
{
  JsonObject *o;
  const char *tag;
  JsonNode *p;
  g_autoptr (GList) members = NULL;

  *out = fx_value_none ();
  if (n == NULL)
    return fail (error, context, "missing value");
  switch (json_node_get_node_type (n))
    {
    case JSON_NODE_NULL:
      return TRUE;
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (n))
        {
        case G_TYPE_BOOLEAN:
          *out = fx_value_bool (json_node_get_boolean (n));
          return TRUE;
        case G_TYPE_INT64:
          *out = fx_value_int (json_node_get_int (n));
          return TRUE;
        case G_TYPE_DOUBLE:
          *out = fx_value_float (json_node_get_double (n));
          return TRUE;
        case G_TYPE_STRING:
          *out = fx_value_str (json_node_get_string (n));
          return TRUE;
        default:
          return fail (error, context, "unsupported JSON value");
        }
    case JSON_NODE_ARRAY:
      return fail (error, context, "a bare array is not a value (use {\"tuple\": ...} or {\"list\": ...})");
    case JSON_NODE_OBJECT:
      break;
    }
  o = json_node_get_object (n);
  members = json_object_get_members (o);
  if (members == NULL || members->next != NULL)
    return fail (error, context, "a tagged value needs exactly one member");
  tag = members->data;
  p = json_object_get_member (o, tag);
  if (strcmp (tag, "tuple") == 0 || strcmp (tag, "list") == 0)
    return decode_items (L, p, nodes, context, tag[0] == 't', out, error);
  if (strcmp (tag, "size") == 0)
    {
      JsonArray *a;
      int64_t items[FX_TENSOR_MAX_DIMS * 4];
      guint len;
      if (p == NULL || !JSON_NODE_HOLDS_ARRAY (p))
        return fail (error, context, "size is not an array");
      a = json_node_get_array (p);
      len = json_array_get_length (a);
      if (len > G_N_ELEMENTS (items))
        return fail (error, context, "size too long");
      for (guint i = 0; i < len; i++)
        {
          if (!is_int (json_array_get_element (a, i)))
            return fail (error, context, "size holds a non-integer");
          items[i] = json_array_get_int_element (a, i);
        }
      *out = fx_value_int_tuple (&fx_tuple_type_size, (int) len, items);
      return TRUE;
    }
  if (strcmp (tag, "dict") == 0)
    return decode_pairs (L, p, nodes, context, FALSE, out, error);
  if (strcmp (tag, "slice") == 0)
    {
      FxValue parts = fx_value_none ();
      if (!decode_items (L, p, nodes, context, TRUE, &parts, error))
        return FALSE;
      if (parts.seq->len != 3)
        {
          fx_value_clear (&parts);
          return fail (error, context, "a slice needs [start, stop, step]");
        }
      *out = fx_value_take_slice (fx_slice_new (fx_value_copy (&parts.seq->items[0]),
                                                fx_value_copy (&parts.seq->items[1]),
                                                fx_value_copy (&parts.seq->items[2])));
      fx_value_clear (&parts);
      return TRUE;
    }
  if (strcmp (tag, "ellipsis") == 0)
    {
      if (!is_bool (p) || !json_node_get_boolean (p))
        return fail (error, context, "invalid ellipsis");
      *out = fx_value_ellipsis ();
      return TRUE;
    }
  if (strcmp (tag, "float") == 0)
    {
      const char *s = is_string (p) ? json_node_get_string (p) : "";
      if (strcmp (s, "nan") == 0)
        *out = fx_value_float (NAN);
      else if (strcmp (s, "inf") == 0)
        *out = fx_value_float (INFINITY);
      else if (strcmp (s, "-inf") == 0)
        *out = fx_value_float (-INFINITY);
      else
        return fail (error, context, "invalid float");
      return TRUE;
    }
  if (!is_string (p))
    return fail (error, context, "unknown value tag '%s'", tag);
  if (strcmp (tag, "dtype") == 0)
    {
      FxDType d;
      if (!fx_dtype_from_name (json_node_get_string (p), &d))
        return fail (error, context, "unknown dtype '%s'", json_node_get_string (p));
      *out = fx_value_dtype (d);
      return TRUE;
    }
  if (strcmp (tag, "device") == 0)
    {
      const char *s = json_node_get_string (p);
      gsize letters = strspn (s, "abcdefghijklmnopqrstuvwxyz");
      if (letters == 0 || (s[letters] != '\0' && (s[letters] != ':' || s[letters + 1] == '\0'
                                                  || strspn (s + letters + 1, "0123456789") != strlen (s + letters + 1))))
        return fail (error, context, "invalid device '%s'", s);
      *out = fx_value_device (s);
      return TRUE;
    }
  if (strcmp (tag, "tensor") == 0)
    {
      FxTensor *t = NULL;
      if (!load_tensor (L, json_node_get_string (p), context, &t, error))
        return FALSE;
      *out = fx_value_tensor (t);
      return TRUE;
    }
  if (strcmp (tag, "node") == 0)
    {
      const char *name = json_node_get_string (p);
      FxNode *node = nodes ? g_hash_table_lookup (nodes, name) : NULL;
      if (node != NULL)
        {
          *out = fx_value_node (node);
          return TRUE;
        }
      if (nodes == NULL)
        return fail (error, context, "refers to node '%s' outside node arguments", name);
      if (g_hash_table_contains (L->all_names, name))
        return fail (error, context, "argument refers to node '%s' defined after it", name);
      return fail (error, context, "argument refers to unknown node '%s'", name);
    }
  if (strcmp (tag, "op") == 0)
    {
      const FxOp *op = lookup_op (json_node_get_string (p));
      if (op == NULL)
        return fail (error, context, "unknown op '%s'", json_node_get_string (p));
      *out = fx_value_op (op);
      return TRUE;
    }
  return fail (error, context, "unknown value tag '%s'", tag);
}

static gboolean
claim_name (GHashTable *names, const char *name, const char *context, GError **error)
{
  if (!valid_attr_name (name))
    return fail (error, context, "invalid attribute name '%s'", name);
  if (!g_hash_table_add (names, (gpointer) name))
    return fail (error, context, "attribute '%s' already exists", name);
  return TRUE;
}

/* One [name, ...] entry of a module table: its name and length checked. */
static JsonArray *
table_entry (JsonArray *table, guint i, guint min_len, guint max_len, const char *what,
             const char *context, const char **name, GError **error)
{
  JsonNode *e = json_array_get_element (table, i);
  JsonArray *a;

  if (!JSON_NODE_HOLDS_ARRAY (e) || json_array_get_length (a = json_node_get_array (e)) < min_len
      || json_array_get_length (a) > max_len || !is_string (json_array_get_element (a, 0)))
    {
      fail (error, context, "%s entry %u is malformed", what, i);
      return NULL;
    }
  *name = json_array_get_string_element (a, 0);
  return a;
}

static JsonArray *
get_table (JsonObject *o, const char *member, const char *context, GError **error)
{
  JsonNode *n = json_object_get_member (o, member);
  if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n))
    {
      fail (error, context, "missing or invalid '%s'", member);
      return NULL;
    }
  return json_node_get_array (n);
}

static FxModule *
decode_module (Loader *L, JsonNode *n, const char *path, GError **error)
{
  g_autofree char *context = g_strdup_printf ("module '%s'", path);
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (FxModule) m = NULL;
  JsonObject *o;
  JsonNode *type, *layer, *training;
  JsonArray *params, *buffers, *attrs, *children;

  if (n == NULL || !JSON_NODE_HOLDS_OBJECT (n))
    {
      fail (error, context, "not an object");
      return NULL;
    }
  o = json_node_get_object (n);
  if (!only_members (o, context, error, "type", "layer", "training", "parameters", "buffers",
                     "attributes", "children", NULL))
    return NULL;
  type = json_object_get_member (o, "type");
  layer = json_object_get_member (o, "layer");
  training = json_object_get_member (o, "training");
  if (!is_string (type) || !fx_is_identifier (json_node_get_string (type)))
    {
      fail (error, context, "missing or invalid type name");
      return NULL;
    }
  if (!is_bool (layer) || !is_bool (training))
    {
      fail (error, context, "'layer' and 'training' must be bools");
      return NULL;
    }
  if ((params = get_table (o, "parameters", context, error)) == NULL
      || (buffers = get_table (o, "buffers", context, error)) == NULL
      || (attrs = get_table (o, "attributes", context, error)) == NULL
      || (children = get_table (o, "children", context, error)) == NULL)
    return NULL;
  m = fx_module_new (json_node_get_string (type));
  m->training = json_node_get_boolean (training);
  if (json_node_get_boolean (layer))
    {
      const FxLayerKind *kind = fx_layer_lookup (m->type_name);
      if (kind == NULL)
        {
          fail (error, context, "unknown layer type '%s'", m->type_name);
          return NULL;
        }
      m->layer = kind;
      m->extra_repr = kind->extra_repr;
    }

  for (guint i = 0; i < json_array_get_length (params); i++)
    {
      const char *name;
      JsonArray *e = table_entry (params, i, 2, 2, "parameter", context, &name, error);
      FxValue v = fx_value_none ();
      g_autofree char *pctx = NULL;
      if (e == NULL || !claim_name (names, name, context, error))
        return NULL;
      pctx = g_strdup_printf ("%s parameter '%s'", context, name);
      if (!decode_value (L, json_array_get_element (e, 1), NULL, pctx, &v, error))
        return NULL;
      if (v.kind != FX_VALUE_TENSOR && v.kind != FX_VALUE_NONE)
        {
          fx_value_clear (&v);
          fail (error, pctx, "is neither a tensor nor None");
          return NULL;
        }
      fx_module_register_parameter (m, name, v.kind == FX_VALUE_TENSOR ? v.tensor : NULL);
      fx_value_clear (&v);
    }
  for (guint i = 0; i < json_array_get_length (buffers); i++)
    {
      const char *name;
      JsonArray *e = table_entry (buffers, i, 3, 3, "buffer", context, &name, error);
      FxValue v = fx_value_none ();
      g_autofree char *bctx = NULL;
      if (e == NULL || !claim_name (names, name, context, error))
        return NULL;
      bctx = g_strdup_printf ("%s buffer '%s'", context, name);
      if (!is_bool (json_array_get_element (e, 2)))
        {
          fail (error, bctx, "persistent flag is not a bool");
          return NULL;
        }
      if (!decode_value (L, json_array_get_element (e, 1), NULL, bctx, &v, error))
        return NULL;
      if (v.kind != FX_VALUE_TENSOR && v.kind != FX_VALUE_NONE)
        {
          fx_value_clear (&v);
          fail (error, bctx, "is neither a tensor nor None");
          return NULL;
        }
      fx_module_register_buffer (m, name, v.kind == FX_VALUE_TENSOR ? v.tensor : NULL,
                                 json_array_get_boolean_element (e, 2));
      fx_value_clear (&v);
    }
  for (guint i = 0; i < json_array_get_length (attrs); i++)
    {
      const char *name;
      JsonArray *e = table_entry (attrs, i, 2, 2, "attribute", context, &name, error);
      FxValue v = fx_value_none ();
      g_autofree char *actx = NULL;
      if (e == NULL || !claim_name (names, name, context, error))
        return NULL;
      actx = g_strdup_printf ("%s attribute '%s'", context, name);
      if (!decode_value (L, json_array_get_element (e, 1), NULL, actx, &v, error))
        return NULL;
      fx_module_set_attribute (m, name, &v);
      fx_value_clear (&v);
    }
  for (guint i = 0; i < json_array_get_length (children); i++)
    {
      const char *name;
      JsonArray *e = table_entry (children, i, 2, 2, "child", context, &name, error);
      JsonNode *cn;
      g_autofree char *sub = NULL;
      if (e == NULL || !claim_name (names, name, context, error))
        return NULL;
      cn = json_array_get_element (e, 1);
      if (JSON_NODE_HOLDS_NULL (cn))
        fx_module_add_module (m, name, NULL);
      else
        {
          g_autoptr (FxModule) child = NULL;
          sub = *path ? g_strdup_printf ("%s.%s", path, name) : g_strdup (name);
          child = decode_module (L, cn, sub, error);
          if (child == NULL)
            return NULL;
          fx_module_add_module (m, name, child);
        }
    }
  return g_steal_pointer (&m);
}

static gboolean
valid_target (FxNodeOp op, const char *target)
{
  switch (op)
    {
    case FX_OP_PLACEHOLDER:
      {
        const char *t = target;
        if (g_str_has_prefix (t, "**"))
          t += 2;
        else if (*t == '*')
          t++;
        return fx_is_identifier (t);
      }
    case FX_OP_CALL_METHOD:
      return fx_is_identifier (target);
    case FX_OP_GET_ATTR:
    case FX_OP_CALL_MODULE:
      return valid_path (target);
    case FX_OP_OUTPUT:
      return strcmp (target, "output") == 0;
    default:
      return TRUE;
    }
}

static gboolean
decode_node (Loader *L, FxGraph *graph, FxModule *root, JsonNode *jn, guint index,
             GHashTable *nodes, GError **error)
{
  JsonObject *o = json_node_get_object (jn);
  const char *name = json_object_get_string_member (o, "name");
  g_autofree char *context = g_strdup_printf ("node '%s'", name);
  JsonNode *op_n = json_object_get_member (o, "op"), *target_n = json_object_get_member (o, "target");
  JsonNode *type_n = json_object_get_member (o, "type");
  g_auto (FxValue) target = fx_value_none ();
  g_auto (FxValue) args = fx_value_none ();
  g_auto (FxValue) kwargs = fx_value_none ();
  g_auto (FxValue) meta = fx_value_none ();
  g_autoptr (GError) local = NULL;
  FxNodeOp op;
  FxNode *node;
  const char *target_s;
  const FxValue *k, *v;

  (void) index;
  if (!only_members (o, context, error, "name", "op", "target", "args", "kwargs", "type", "meta", NULL))
    return FALSE;
  if (!is_string (op_n) || !fx_node_op_from_name (json_node_get_string (op_n), &op) || op == FX_OP_ROOT)
    return fail (error, context, "missing or unknown op");
  if (!is_string (target_n))
    return fail (error, context, "missing target");
  target_s = json_node_get_string (target_n);
  if (op == FX_OP_CALL_FUNCTION)
    {
      const FxOp *fop = lookup_op (target_s);
      if (fop == NULL)
        return fail (error, context, "unknown op '%s'", target_s);
      target = fx_value_op (fop);
    }
  else
    {
      if (!valid_target (op, target_s))
        return fail (error, context, "invalid %s target '%s'", fx_node_op_name (op), target_s);
      target = fx_value_str (target_s);
    }
  if (type_n != NULL && !JSON_NODE_HOLDS_NULL (type_n) && !is_string (type_n))
    return fail (error, context, "type is neither a string nor null");
  if (!decode_items (L, json_object_get_member (o, "args"), nodes, context, TRUE, &args, error)
      || !decode_pairs (L, json_object_get_member (o, "kwargs"), nodes, context, TRUE, &kwargs, error))
    return FALSE;
  if (json_object_has_member (o, "meta")
      && !decode_pairs (L, json_object_get_member (o, "meta"), NULL, context, TRUE, &meta, error))
    return FALSE;

  switch (op)
    {
    case FX_OP_PLACEHOLDER:
      if (args.seq->len > 1 || fx_dict_len (kwargs.dict) > 0)
        return fail (error, context, "a placeholder takes at most a default value");
      break;
    case FX_OP_GET_ATTR:
      if (args.seq->len > 0 || fx_dict_len (kwargs.dict) > 0)
        return fail (error, context, "get_attr takes no arguments");
      break;
    case FX_OP_OUTPUT:
      if (args.seq->len != 1 || fx_dict_len (kwargs.dict) > 0)
        return fail (error, context, "output takes exactly one argument");
      break;
    case FX_OP_CALL_METHOD:
      if (args.seq->len < 1)
        return fail (error, context, "call_method needs its self argument");
      break;
    default:
      break;
    }
  if (op == FX_OP_GET_ATTR || op == FX_OP_CALL_MODULE)
    {
      char kind = fx_module_attr_kind (root, target_s);
      if (kind == 0)
        return fail (error, context, "target '%s' does not exist in the module tree", target_s);
      if (op == FX_OP_CALL_MODULE && kind != 'm')
        return fail (error, context, "target '%s' is not a module", target_s);
    }

  node = fx_graph_create_node (graph, op, &target, &args, &kwargs, name,
                               type_n && is_string (type_n) ? json_node_get_string (type_n) : NULL,
                               &local);
  if (node == NULL)
    return fail (error, context, "%s", local->message);
  if (strcmp (node->name, name) != 0)
    return fail (error, context, "invalid node name (torch.fx would call it '%s')", node->name);
  if (meta.kind == FX_VALUE_DICT)
    for (guint i = 0; fx_dict_entry (meta.dict, i, &k, &v); i++)
      fx_dict_set (node->meta, fx_value_copy (k), fx_value_copy (v));
  g_hash_table_insert (nodes, (gpointer) node->name, node);
  return TRUE;
}

static gboolean
check_pair_of_numbers (JsonNode *n)
{
  JsonArray *a;
  if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n) || json_array_get_length (a = json_node_get_array (n)) != 2)
    return FALSE;
  for (guint i = 0; i < 2; i++)
    {
      JsonNode *x = json_array_get_element (a, i);
      if (!is_number (x) || !isfinite (json_node_get_double (x)))
        return FALSE;
    }
  return TRUE;
}

static gboolean
check_editor (JsonObject *editor, GHashTable *nodes, GError **error)
{
  JsonNode *positions = json_object_get_member (editor, "positions");
  JsonNode *zoom = json_object_get_member (editor, "zoom");
  JsonNode *scroll = json_object_get_member (editor, "scroll");

  if (positions != NULL)
    {
      JsonObject *po;
      g_autoptr (GList) members = NULL;
      if (!JSON_NODE_HOLDS_OBJECT (positions))
        return fail (error, "editor", "positions is not an object");
      po = json_node_get_object (positions);
      members = json_object_get_members (po);
      for (GList *l = members; l; l = l->next)
        {
          if (!g_hash_table_contains (nodes, l->data))
            return fail (error, "editor", "position of unknown node '%s'", (char *) l->data);
          if (!check_pair_of_numbers (json_object_get_member (po, l->data)))
            return fail (error, "editor", "position of node '%s' is not [x, y]", (char *) l->data);
        }
    }
  if (zoom != NULL && (!is_number (zoom) || !(json_node_get_double (zoom) > 0)
                       || !isfinite (json_node_get_double (zoom))))
    return fail (error, "editor", "zoom is not a positive number");
  if (scroll != NULL && !check_pair_of_numbers (scroll))
    return fail (error, "editor", "scroll is not [x, y]");
  return TRUE;
}

/* sidecar_dir: where to read the sidecar from, or NULL to use `sidecar` (may be NULL). */
static FxGraphModule *
load_document (const char *data, gsize length, const char *sidecar_dir, GBytes *sidecar,
               JsonObject **editor_state_out, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) local = NULL;
  g_autoptr (GHashTable) nodes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) all_names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) tensors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                          (GDestroyNotify) fx_tensor_unref);
  g_autoptr (FxModule) root = NULL;
  g_autoptr (FxGraph) graph = NULL;
  g_autoptr (GBytes) sidecar_bytes = sidecar ? g_bytes_ref (sidecar) : NULL;
  FxDict *sidecar_dict = NULL;
  g_autoptr (GPtrArray) holder = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_dict_unref);
  g_autoptr (FxGraphModule) gm = NULL;
  Loader L = { 0 };
  JsonNode *rootn, *format, *version, *class_name, *nodes_n, *tensors_n, *side_n, *editor_n;
  JsonObject *doc;
  JsonArray *node_list;
  g_autofree char *sidecar_name = NULL;

  if (editor_state_out)
    *editor_state_out = NULL;
  if (!g_utf8_validate (data, (gssize) length, NULL))
    return fail (error, NULL, "fxg: the document is not valid UTF-8"), NULL;
  if (!fx_json_depth_ok (data, length, MAX_JSON_DEPTH))
    return fail (error, NULL, "fxg: the document nests deeper than %d levels", MAX_JSON_DEPTH), NULL;
  if (!json_parser_load_from_data (parser, data, (gssize) length, &local))
    return fail (error, NULL, "fxg: invalid JSON: %s", local->message), NULL;
  rootn = json_parser_get_root (parser);
  if (rootn == NULL || !JSON_NODE_HOLDS_OBJECT (rootn))
    return fail (error, NULL, "fxg: the document is not a JSON object"), NULL;
  doc = json_node_get_object (rootn);
  format = json_object_get_member (doc, "format");
  version = json_object_get_member (doc, "version");
  if (!is_string (format) || strcmp (json_node_get_string (format), "fxg") != 0)
    return fail (error, NULL, "fxg: not an .fxg document (no \"format\": \"fxg\")"), NULL;
  if (!is_int (version) || json_node_get_int (version) < 1)
    return fail (error, NULL, "fxg: missing or invalid version"), NULL;
  if (json_node_get_int (version) > FX_FXG_VERSION)
    return fail (error, NULL, "fxg: file version %" G_GINT64_FORMAT " is newer than this libfx reads (%d)",
                 json_node_get_int (version), FX_FXG_VERSION), NULL;
  if (!only_members (doc, "fxg", error, "format", "version", "class_name", "module", "nodes",
                     "tensors", "sidecar", "editor", NULL))
    return NULL;

  tensors_n = json_object_get_member (doc, "tensors");
  if (tensors_n != NULL && !JSON_NODE_HOLDS_OBJECT (tensors_n))
    return fail (error, "fxg", "'tensors' is not an object"), NULL;
  side_n = json_object_get_member (doc, "sidecar");
  if (side_n != NULL)
    {
      JsonObject *so;
      const char *file, *sum;
      g_autofree char *actual = NULL;
      if (!JSON_NODE_HOLDS_OBJECT (side_n))
        return fail (error, "fxg", "'sidecar' is not an object"), NULL;
      if (!only_members (so = json_node_get_object (side_n), "sidecar", error, "file", "sha256", NULL))
        return NULL;
      if (!is_string (json_object_get_member (so, "file")) || !is_string (json_object_get_member (so, "sha256")))
        return fail (error, "sidecar", "needs 'file' and 'sha256' strings"), NULL;
      file = json_object_get_string_member (so, "file");
      sum = json_object_get_string_member (so, "sha256");
      sidecar_name = g_strdup (file);
      if (*file == '\0' || *file == '.' || strchr (file, '/') || strchr (file, '\\'))
        return fail (error, "sidecar", "invalid file name '%s'", file), NULL;
      if (sidecar_dir != NULL)
        {
          g_autofree char *spath = g_build_filename (sidecar_dir, file, NULL);
          char *contents;
          gsize len;
          g_clear_error (&local);
          if (!g_file_get_contents (spath, &contents, &len, &local))
            {
              g_set_error (error, FX_ERROR, FX_ERROR_IO, "sidecar '%s': %s", file, local->message);
              return NULL;
            }
          sidecar_bytes = g_bytes_new_take (contents, len);
        }
      if (sidecar_bytes == NULL)
        return fail (error, NULL, "sidecar '%s': missing", file), NULL;
      actual = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, sidecar_bytes);
      if (g_ascii_strcasecmp (actual, sum) != 0)
        return fail (error, NULL, "sidecar '%s': checksum mismatch (it does not belong to this document)",
                     file), NULL;
      sidecar_dict = fx_safetensors_deserialize (sidecar_bytes, NULL, &local);
      if (sidecar_dict == NULL)
        return fail (error, NULL, "sidecar '%s': %s", file, local->message), NULL;
      g_ptr_array_add (holder, sidecar_dict);
    }

  L.tensors_json = tensors_n ? json_node_get_object (tensors_n) : NULL;
  L.tensors = tensors;
  L.sidecar = sidecar_dict;
  L.sidecar_name = sidecar_name;
  L.all_names = all_names;

  root = decode_module (&L, json_object_get_member (doc, "module"), "", error);
  if (root == NULL)
    return NULL;
  class_name = json_object_get_member (doc, "class_name");
  if (class_name != NULL && (!is_string (class_name)
                             || strcmp (json_node_get_string (class_name), root->type_name) != 0))
    return fail (error, "fxg", "class_name differs from the root module's type"), NULL;

  nodes_n = json_object_get_member (doc, "nodes");
  if (nodes_n == NULL || !JSON_NODE_HOLDS_ARRAY (nodes_n))
    return fail (error, "fxg", "missing 'nodes' array"), NULL;
  node_list = json_node_get_array (nodes_n);
  for (guint i = 0; i < json_array_get_length (node_list); i++)
    {
      JsonNode *jn = json_array_get_element (node_list, i);
      JsonNode *name;
      if (!JSON_NODE_HOLDS_OBJECT (jn) || !is_string (name = json_object_get_member (json_node_get_object (jn), "name")))
        return fail (error, "fxg", "node %u has no name", i), NULL;
      if (!g_hash_table_add (all_names, (gpointer) json_node_get_string (name)))
        return fail (error, "fxg", "duplicate node name '%s'", json_node_get_string (name)), NULL;
    }
  graph = fx_graph_new ();
  for (guint i = 0; i < json_array_get_length (node_list); i++)
    if (!decode_node (&L, graph, root, json_array_get_element (node_list, i), i, nodes, error))
      return NULL;

  gm = fx_graph_module_new (root, graph, root->type_name, &local);
  if (gm == NULL)
    return fail (error, "graph", "%s", local->message), NULL;
  /* the document's module tree is the GraphModule's, entire (not only what the graph uses) */
  fx_module_unref (gm->module);
  gm->module = fx_module_ref (root);
  if (!fx_graph_lint (gm->graph, &local))
    return fail (error, "graph", "does not lint: %s", local->message), NULL;

  editor_n = json_object_get_member (doc, "editor");
  if (editor_n != NULL)
    {
      if (!JSON_NODE_HOLDS_OBJECT (editor_n))
        return fail (error, "fxg", "'editor' is not an object"), NULL;
      if (!check_editor (json_node_get_object (editor_n), nodes, error))
        return NULL;
      if (editor_state_out)
        *editor_state_out = json_object_ref (json_node_get_object (editor_n));
    }
  return g_steal_pointer (&gm);
}

FxGraphModule *
fx_fxg_from_data (const char *data, gsize length, GBytes *sidecar, JsonObject **editor_state_out,
                  GError **error)
{
  return load_document (data, length, NULL, sidecar, editor_state_out, error);
}

FxGraphModule *
fx_fxg_load (const char *path, JsonObject **editor_state_out, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *dir = g_path_get_dirname (path);
  gsize len;

  if (editor_state_out)
    *editor_state_out = NULL;
  if (!g_file_get_contents (path, &contents, &len, &local))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_IO, "%s", local->message);
      return NULL;
    }
  return load_document (contents, len, dir, NULL, editor_state_out, error);
}
