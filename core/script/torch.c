/* torch.c: the `torch` and `torch.nn.functional` modules of the script front end. Their
 * functions are the op registry's FX_VALUE_OP values themselves (so the tracer and codegen see
 * the very op a script calls); around them, dtypes, devices, torch.Size, grad modes and the
 * small helpers model code uses. torch.Tensor is in torch-tensor.c. */
#include "script/torch-private.h"
#include "script/nn-private.h"
#include "ops/grad.h"
#include "tensor/random.h"
#include "tensor/blas.h"
#include "ir/checkpoint.h"
#include "ir/safetensors.h"
#include "fx-error.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define TORCH_VERSION "1.13.0a0"

/* ------------------------------------------------------------------ state */

G_LOCK_DEFINE_STATIC (torch_states);
static GHashTable *torch_states;   /* FxScript* → TorchState* */

TorchState *
torch_state (FxScript *S)
{
  TorchState *st;
  G_LOCK (torch_states);
  st = torch_states ? g_hash_table_lookup (torch_states, S) : NULL;
  G_UNLOCK (torch_states);
  return st;
}

static void
torch_state_free (gpointer p)
{
  G_LOCK (torch_states);
  if (torch_states)
    {
      GHashTableIter it;
      gpointer k, v;
      g_hash_table_iter_init (&it, torch_states);
      while (g_hash_table_iter_next (&it, &k, &v))
        if (v == p)
          {
            g_hash_table_iter_remove (&it);
            break;
          }
    }
  G_UNLOCK (torch_states);
  if (((TorchState *) p)->tensor_attrs)
    g_hash_table_destroy (((TorchState *) p)->tensor_attrs);
  if (((TorchState *) p)->node_classes)   /* the classes belong to the script */
    g_hash_table_destroy (((TorchState *) p)->node_classes);
  fx_grad_mode_set (((TorchState *) p)->outer_grad_mode);
  g_free (p);
}

gboolean
torch_raise_gerror (FxScript *S, GError *error)
{
  fx_script_raise_gerror (S, error);
  g_error_free (error);
  return FALSE;
}

/* ------------------------------------------------------------------ public API */

FxScriptClass *
sc_torch_tensor_class (FxScript *S)
{
  TorchState *st = torch_state (S);
  return st ? st->tensor_cls : NULL;
}

gboolean
sc_torch_unwrap_tensor (FxScript *S, const FxValue *v, FxTensor **out)
{
  TorchState *st;
  if (v->kind == FX_VALUE_TENSOR)
    {
      *out = v->tensor;
      return TRUE;
    }
  if (v->kind != FX_VALUE_OBJECT || v->obj->klass != &sc_instance_klass)
    return FALSE;
  st = torch_state (S);
  if (st == NULL || !sc_is_subclass (((ScInstance *) v->obj)->cls, st->tensor_cls))
    return FALSE;
  {
    TorchTensorPayload *p = fx_script_instance_payload (v);
    if (p == NULL || p->tensor == NULL)
      return FALSE;
    *out = p->tensor;
  }
  return TRUE;
}

gboolean
sc_torch_is_tensor (FxScript *S, const FxValue *v)
{
  TorchState *st;
  if (v->kind == FX_VALUE_TENSOR)
    return TRUE;
  st = torch_state (S);
  return st && v->kind == FX_VALUE_OBJECT && sc_isinstance (S, v, st->tensor_cls);
}

gboolean
sc_torch_set_instance_tensor (FxScript *S, const FxValue *v, FxTensor *t)
{
  TorchState *st = torch_state (S);
  TorchTensorPayload *p;
  if (st == NULL || v->kind != FX_VALUE_OBJECT || v->obj->klass != &sc_instance_klass
      || !sc_is_subclass (((ScInstance *) v->obj)->cls, st->tensor_cls))
    return FALSE;
  p = fx_script_instance_payload (v);
  if (p == NULL)
    return FALSE;
  fx_tensor_ref (t);
  if (p->tensor)
    fx_tensor_unref (p->tensor);
  p->tensor = t;
  return TRUE;
}

/* Grad mode as torch.is_grad_enabled() says: off under no_grad and inference_mode. */
static gboolean
grad_enabled (const TorchState *st)
{
  return st->grad_enabled && !st->inference_mode;
}

gboolean
sc_torch_grad_enabled (FxScript *S)
{
  TorchState *st = torch_state (S);
  return st == NULL || grad_enabled (st);
}

/* libfx's grad mode (what ops record) follows the script's. */
static void
grad_mode_sync (TorchState *st)
{
  fx_grad_mode_set (grad_enabled (st));
}

FxTensor *
torch_self (FxScript *S, const FxValue *v, const char *fname)
{
  FxTensor *t;
  if (sc_torch_unwrap_tensor (S, v, &t))
    return t;
  fx_script_raise (S, "TypeError", "descriptor '%s' requires a 'torch._C._TensorBase' object but received a '%s'",
                   fname, sc_type_name (S, v));
  return NULL;
}

gboolean
sc_torch_call_op (FxScript *S, const FxOp *op, const FxValue *args, int n_args, FxDict *kwargs,
                  FxValue *result)
{
  FxValue stack[8], *conv = NULL;
  FxDict *kw = kwargs;
  gboolean ok;

  /* tensor-subclass instances (nn.Parameter) reach the kernels as their tensors */
  for (int i = 0; i < n_args; i++)
    if (args[i].kind == FX_VALUE_OBJECT)
      {
        FxTensor *t;
        if (!sc_torch_unwrap_tensor (S, &args[i], &t))
          continue;
        if (conv == NULL)
          {
            conv = n_args <= (int) G_N_ELEMENTS (stack) ? stack : g_new (FxValue, n_args);
            memcpy (conv, args, sizeof (FxValue) * n_args);
          }
        conv[i].kind = FX_VALUE_TENSOR;
        conv[i].tensor = t;
      }
  if (kwargs)
    {
      const FxValue *k, *v;
      for (guint i = 0; fx_dict_entry (kwargs, i, &k, &v); i++)
        {
          FxTensor *t;
          if (v->kind != FX_VALUE_OBJECT || !sc_torch_unwrap_tensor (S, v, &t))
            continue;
          if (kw == kwargs)
            {
              kw = fx_dict_new ();
              for (guint j = 0; fx_dict_entry (kwargs, j, &k, &v); j++)
                fx_dict_set (kw, fx_value_copy (k), fx_value_copy (v));
              fx_dict_entry (kwargs, i, &k, &v);
            }
          fx_dict_set (kw, fx_value_copy (k), fx_value_tensor (t));
        }
    }
  if (conv)
    args = conv;

  *result = fx_value_none ();
  ok = sc_op_invoke (S, op, args, n_args, kw, result);
  if (conv && conv != stack)
    g_free (conv);
  if (kw && kw != kwargs)
    fx_dict_unref (kw);
  if (!ok && !fx_script_exception_pending (S))
    fx_script_raise (S, "SystemError", "%s failed without an exception", op->qualified_name);
  return ok;
}

/* ------------------------------------------------------------------ small helpers */

static gboolean
parse (FxScript *S, const char *fname, const FxValue *args, int n_args, FxDict *kwargs,
       const char *const *names, int n_names, int n_positional, int n_required, const FxValue **out)
{
  return fx_script_parse_args (S, fname, args, n_args, kwargs, names, n_names, n_positional,
                               n_required, out);
}

static gboolean
get_dtype_arg (FxScript *S, const FxValue *v, const char *fname, FxDType *out)
{
  if (v->kind != FX_VALUE_DTYPE)
    return fx_script_raise (S, "TypeError", "%s(): argument 'type' must be torch.dtype, not %s",
                            fname, sc_type_name (S, v));
  *out = v->dtype;
  return TRUE;
}

/* ------------------------------------------------------------------ torch.dtype */

static gboolean
dtype_repr (TORCH_ARGS)
{
  char *s = g_strconcat ("torch.", fx_dtype_name (args[0].dtype), NULL);
  *result = fx_value_str (s);
  g_free (s);
  return TRUE;
}

static gboolean
dtype_is_floating_point (TORCH_ARGS)
{
  *result = fx_value_bool (fx_dtype_is_floating (args[0].dtype));
  return TRUE;
}

static gboolean
dtype_is_signed (TORCH_ARGS)
{
  FxDType d = args[0].dtype;
  *result = fx_value_bool (d != FX_DTYPE_BOOL && d != FX_DTYPE_UINT8);
  return TRUE;
}

static gboolean
dtype_false (TORCH_ARGS)
{
  *result = fx_value_bool (FALSE);
  return TRUE;
}

static gboolean
dtype_construct (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                 gpointer data)
{
  return fx_script_raise (S, "TypeError", "cannot create 'torch.dtype' instances");
}

/* ------------------------------------------------------------------ torch.device */

static const char *const device_types[] = {
  "cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga",
  "ort", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "privateuseone",
};

/* Splits "cuda:1" into its type and index (-1 when none); validates like PyTorch. */
static gboolean
device_parse (FxScript *S, const char *s, char **type, int64_t *index)
{
  const char *colon = strchr (s, ':');
  char *t = colon ? g_strndup (s, colon - s) : g_strdup (s);
  gboolean known = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (device_types); i++)
    if (g_str_equal (t, device_types[i]))
      known = TRUE;
  if (!known)
    {
      GString *msg = g_string_new ("Expected one of ");
      for (guint i = 0; i < G_N_ELEMENTS (device_types); i++)
        g_string_append_printf (msg, "%s%s", i ? ", " : "", device_types[i]);
      g_string_append_printf (msg, " device type at start of device string: %s", s);
      fx_script_raise (S, "RuntimeError", "%s", msg->str);
      g_string_free (msg, TRUE);
      g_free (t);
      return FALSE;
    }
  *index = -1;
  if (colon)
    {
      char *end;
      gint64 i = g_ascii_strtoll (colon + 1, &end, 10);
      if (colon[1] == 0 || *end != 0 || i < 0 || !g_ascii_isdigit (colon[1]))
        {
          g_free (t);
          return fx_script_raise (S, "RuntimeError", "Invalid device string: '%s'", s);
        }
      *index = i;
    }
  *type = t;
  return TRUE;
}

static gboolean
device_construct (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                  gpointer data)
{
  static const char *const names[] = { "type", "index" };
  const FxValue *a[2];
  char *type = NULL;
  int64_t index = -1;
  if (!parse (S, "device", args, n_args, kwargs, names, 2, 2, 1, a))
    return FALSE;
  if (a[0]->kind == FX_VALUE_DEVICE && a[1] == NULL)
    {
      *result = fx_value_copy (a[0]);
      return TRUE;
    }
  if (a[0]->kind != FX_VALUE_STR)
    return fx_script_raise (S, "TypeError", "device() received an invalid combination of arguments - got (%s)",
                            sc_type_name (S, a[0]));
  if (!device_parse (S, a[0]->s->data, &type, &index))
    return FALSE;
  if (a[1] && a[1]->kind != FX_VALUE_NONE)
    {
      if (index >= 0)
        {
          g_free (type);
          return fx_script_raise (S, "RuntimeError", "type (string) must not include an index because index was passed explicitly: %s",
                                  a[0]->s->data);
        }
      if (!fx_script_to_int (S, a[1], &index))
        {
          g_free (type);
          return FALSE;
        }
      if (index < 0)
        {
          g_free (type);
          return fx_script_raise (S, "RuntimeError", "Device index must not be negative");
        }
    }
  if (index >= 0)
    {
      char *s = g_strdup_printf ("%s:%" G_GINT64_FORMAT, type, index);
      *result = fx_value_device (s);
      g_free (s);
    }
  else
    *result = fx_value_device (type);
  g_free (type);
  return TRUE;
}

static void
device_split (const FxValue *v, char **type, int64_t *index)
{
  const char *s = v->s->data, *colon = strchr (s, ':');
  *type = colon ? g_strndup (s, colon - s) : g_strdup (s);
  *index = colon ? g_ascii_strtoll (colon + 1, NULL, 10) : -1;
}

static gboolean
device_repr (TORCH_ARGS)
{
  char *type, *s;
  int64_t index;
  device_split (&args[0], &type, &index);
  if (index >= 0)
    s = g_strdup_printf ("device(type='%s', index=%" G_GINT64_FORMAT ")", type, index);
  else
    s = g_strdup_printf ("device(type='%s')", type);
  *result = fx_value_str (s);
  g_free (s);
  g_free (type);
  return TRUE;
}

static gboolean
device_str (TORCH_ARGS)
{
  *result = fx_value_copy (&args[0]);
  result->kind = FX_VALUE_STR;
  return TRUE;
}

static gboolean
device_type (TORCH_ARGS)
{
  char *type;
  int64_t index;
  device_split (&args[0], &type, &index);
  *result = fx_value_str (type);
  g_free (type);
  return TRUE;
}

static gboolean
device_index (TORCH_ARGS)
{
  char *type;
  int64_t index;
  device_split (&args[0], &type, &index);
  *result = index >= 0 ? fx_value_int (index) : fx_value_none ();
  g_free (type);
  return TRUE;
}

/* dtypes and devices compare and hash by value */
static gboolean
value_eq (TORCH_ARGS)
{
  gboolean ne = GPOINTER_TO_INT (data);
  if (n_args != 2)
    return fx_script_raise (S, "TypeError", "expected 1 argument, got %d", n_args - 1);
  if (args[1].kind != args[0].kind)
    {
      *result = sc_notimpl (S);
      return TRUE;
    }
  *result = fx_value_bool (fx_value_equal (&args[0], &args[1]) != ne);
  return TRUE;
}

static gboolean
value_hash (TORCH_ARGS)
{
  *result = fx_value_int (fx_value_hash (&args[0]));
  return TRUE;
}

/* ------------------------------------------------------------------ torch.Size */

typedef struct {
  FxSeq *seq;
} SizeBuild;

static gboolean
size_item (FxScript *S, const FxValue *item, gpointer user_data)
{
  SizeBuild *b = user_data;
  if (item->kind == FX_VALUE_INT)
    fx_seq_append (b->seq, fx_value_copy (item));
  else
    {
      FxTensor *t;
      if (sc_torch_unwrap_tensor (S, item, &t) && t->ndim == 0 && fx_dtype_is_integral (t->dtype))
        fx_seq_append (b->seq, fx_value_int (fx_tensor_get_int64 (t, 0)));
      else
        return fx_script_raise (S, "TypeError", "torch.Size() takes an iterable of 'int' (item %u is '%s')",
                                b->seq->len, sc_type_name (S, item));
    }
  return TRUE;
}

static gboolean
size_construct (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                gpointer data)
{
  SizeBuild b;
  if (kwargs && fx_dict_len (kwargs))
    return fx_script_raise (S, "TypeError", "Size() takes no keyword arguments");
  if (n_args > 1)
    return fx_script_raise (S, "TypeError", "Size() takes at most 1 argument (%d given)", n_args);
  b.seq = fx_seq_new (0);
  if (n_args == 1 && !fx_script_iterate (S, &args[0], size_item, &b))
    {
      fx_seq_unref (b.seq);
      return FALSE;
    }
  b.seq->type = &fx_tuple_type_size;
  *result = fx_value_take_tuple (b.seq);
  return TRUE;
}

static gboolean
size_repr (TORCH_ARGS)
{
  GString *s = g_string_new ("torch.Size([");
  const FxSeq *seq = args[0].seq;
  for (guint i = 0; i < seq->len; i++)
    {
      if (i)
        g_string_append (s, ", ");
      if (!sc_repr (S, &seq->items[i], s))
        {
          g_string_free (s, TRUE);
          return FALSE;
        }
    }
  g_string_append (s, "])");
  *result = fx_value_take_str (fx_str_new_len (s->str, s->len));
  g_string_free (s, TRUE);
  return TRUE;
}

static gboolean
size_numel (TORCH_ARGS)
{
  int64_t n = 1;
  const FxSeq *seq = args[0].seq;
  for (guint i = 0; i < seq->len; i++)
    n *= seq->items[i].kind == FX_VALUE_INT ? seq->items[i].i : 1;
  *result = fx_value_int (n);
  return TRUE;
}

static gboolean
size_getitem (TORCH_ARGS)
{
  const FxSeq *seq = args[0].seq;
  if (n_args != 2)
    return fx_script_raise (S, "TypeError", "__getitem__ expected 1 argument");
  if (args[1].kind == FX_VALUE_SLICE)
    {
      int64_t start, stop, step, count;
      FxSeq *out;
      if (!sc_slice_indices (S, args[1].slice, seq->len, &start, &stop, &step, &count))
        return FALSE;
      out = fx_seq_new ((guint) count);
      for (int64_t i = 0, k = start; i < count; i++, k += step)
        out->items[i] = fx_value_copy (&seq->items[k]);
      out->type = &fx_tuple_type_size;
      *result = fx_value_take_tuple (out);
      return TRUE;
    }
  {
    int64_t i;
    if (args[1].kind != FX_VALUE_INT && args[1].kind != FX_VALUE_BOOL
        && !sc_special_lookup (S, &args[1], "__index__"))
      return fx_script_raise (S, "TypeError", "tuple indices must be integers or slices, not %s",
                              sc_type_name (S, &args[1]));
    if (!sc_index (S, &args[1], &i))
      return FALSE;
    if (i < 0)
      i += seq->len;
    if (i < 0 || i >= (int64_t) seq->len)
      return fx_script_raise (S, "IndexError", "tuple index out of range");
    *result = fx_value_copy (&seq->items[i]);
  }
  return TRUE;
}

static gboolean
size_concat (FxScript *S, const FxValue *a, const FxValue *b, FxValue *result)
{
  FxSeq *out;
  if (a->kind != FX_VALUE_TUPLE || b->kind != FX_VALUE_TUPLE)
    {
      *result = sc_notimpl (S);
      return TRUE;
    }
  out = fx_seq_new (0);
  for (guint i = 0; i < a->seq->len; i++)
    fx_seq_append (out, fx_value_copy (&a->seq->items[i]));
  for (guint i = 0; i < b->seq->len; i++)
    fx_seq_append (out, fx_value_copy (&b->seq->items[i]));
  out->type = &fx_tuple_type_size;
  *result = fx_value_take_tuple (out);
  return TRUE;
}

static gboolean
size_add (TORCH_ARGS)
{
  return size_concat (S, &args[0], &args[1], result);
}

/* == and != as tuples compare (the interpreter compares by identity once a class defines
 * them). */
static gboolean
size_eq (TORCH_ARGS)
{
  gboolean ne = GPOINTER_TO_INT (data), eq = TRUE;
  const FxSeq *a, *b;
  if (n_args != 2)
    return fx_script_raise (S, "TypeError", "expected 1 argument, got %d", n_args - 1);
  if (args[1].kind != FX_VALUE_TUPLE)
    {
      *result = sc_notimpl (S);
      return TRUE;
    }
  a = args[0].seq;
  b = args[1].seq;
  if (a->len != b->len)
    eq = FALSE;
  for (guint i = 0; eq && i < a->len; i++)
    if (!sc_equal (S, &a->items[i], &b->items[i], &eq))
      return FALSE;
  *result = fx_value_bool (eq != ne);
  return TRUE;
}

/* ------------------------------------------------------------------ named constants */

/* torch.strided, torch.contiguous_format, ...: instances whose repr is their name. */
static gpointer
constant_payload_new (FxScript *S, FxScriptClass *cls, gpointer class_data)
{
  return g_new0 (char *, 1);
}

static void
constant_payload_free (gpointer p)
{
  g_free (*(char **) p);
  g_free (p);
}

static gboolean
constant_repr (TORCH_ARGS)
{
  char **name = fx_script_instance_payload (&args[0]);
  *result = fx_value_str (name && *name ? *name : "?");
  return TRUE;
}

static FxScriptClass *
constant_class (FxScript *S, const char *name)
{
  FxScriptClassInfo info = {
    .module = "torch", .name = name,
    .payload_new = constant_payload_new, .payload_free = constant_payload_free,
  };
  FxScriptClass *cls = fx_script_class_new (S, &info, NULL);
  fx_script_class_add_method (cls, "__repr__", constant_repr, NULL);
  return cls;
}

static FxValue
constant_new (FxScript *S, FxScriptClass *cls, const char *name)
{
  FxValue v = fx_script_instance_new (S, cls);
  char **p = fx_script_instance_payload (&v);
  if (p)
    *p = g_strconcat ("torch.", name, NULL);
  return v;
}

/* ------------------------------------------------------------------ torch.Generator */

static gboolean
generator_construct (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                     gpointer data)
{
  static const char *const names[] = { "device" };
  const FxValue *a[1];
  if (!parse (S, "Generator", args, n_args, kwargs, names, 1, 1, 0, a))
    return FALSE;
  if (a[0] && a[0]->kind != FX_VALUE_NONE)
    {
      const char *d = a[0]->kind == FX_VALUE_STR || a[0]->kind == FX_VALUE_DEVICE ? a[0]->s->data : "";
      if (!g_str_equal (d, "cpu"))
        return fx_script_raise (S, "RuntimeError", "Device type %s is not supported for torch.Generator() api.",
                                *d ? d : sc_type_name (S, a[0]));
    }
  *result = fx_value_take_generator (fx_generator_new (FX_DEFAULT_SEED));
  return TRUE;
}

static FxGenerator *
generator_self (FxScript *S, const FxValue *v)
{
  FxGenerator *g = fx_value_get_generator (v);
  if (g == NULL)
    fx_script_raise (S, "TypeError", "expected a torch.Generator, got %s", sc_type_name (S, v));
  return g;
}

static gboolean
generator_manual_seed (TORCH_ARGS)
{
  FxGenerator *g = generator_self (S, &args[0]);
  int64_t seed;
  if (g == NULL)
    return FALSE;
  if (n_args != 2)
    return fx_script_raise (S, "TypeError", "manual_seed() takes exactly one argument (%d given)", n_args - 1);
  if (!fx_script_to_int (S, &args[1], &seed))
    return FALSE;
  fx_generator_manual_seed (g, (uint64_t) seed);
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
generator_initial_seed (TORCH_ARGS)
{
  FxGenerator *g = generator_self (S, &args[0]);
  if (g == NULL)
    return FALSE;
  *result = fx_value_int ((int64_t) fx_generator_initial_seed (g));
  return TRUE;
}

static gboolean
generator_seed (TORCH_ARGS)
{
  FxGenerator *g = generator_self (S, &args[0]);
  uint64_t seed;
  if (g == NULL)
    return FALSE;
  seed = g_random_int () | ((uint64_t) (g_random_int () & 0x7fffffff) << 32);
  fx_generator_manual_seed (g, seed);
  *result = fx_value_int ((int64_t) seed);
  return TRUE;
}

static gboolean
generator_device (TORCH_ARGS)
{
  *result = fx_value_device ("cpu");
  return TRUE;
}

/* ------------------------------------------------------------------ grad modes */

typedef enum { GRAD_NO_GRAD, GRAD_ENABLE_GRAD, GRAD_SET_ENABLED, GRAD_INFERENCE } GradModeKind;
static const char *const grad_mode_names[] = { "no_grad", "enable_grad", "set_grad_enabled", "inference_mode" };

typedef struct {
  gboolean mode;                 /* the grad (or inference) mode it sets */
  gboolean prev;                 /* the one __enter__ found */
} GradMode;

static gpointer
grad_mode_payload_new (FxScript *S, FxScriptClass *cls, gpointer class_data)
{
  GradMode *g = g_new0 (GradMode, 1);
  GradModeKind kind = GPOINTER_TO_INT (class_data);
  g->mode = kind == GRAD_ENABLE_GRAD || kind == GRAD_INFERENCE;
  return g;
}

static GradMode *
grad_mode_self (FxScript *S, const FxValue *v)
{
  GradMode *g = fx_script_instance_payload (v);
  if (g == NULL)
    fx_script_raise (S, "TypeError", "expected a grad mode object, got %s", sc_type_name (S, v));
  return g;
}

static gboolean
grad_mode_init (TORCH_ARGS)
{
  GradModeKind kind = GPOINTER_TO_INT (data);
  TorchState *st = torch_state (S);
  GradMode *g = grad_mode_self (S, &args[0]);
  if (g == NULL)
    return FALSE;
  if (kind == GRAD_NO_GRAD || kind == GRAD_ENABLE_GRAD)
    {
      if (n_args > 1 || (kwargs && fx_dict_len (kwargs)))
        return fx_script_raise (S, "TypeError", "%s.__init__() takes 1 positional argument but %d were given",
                                grad_mode_names[kind], n_args);
      return TRUE;
    }
  {
    static const char *const names[] = { "mode" };
    const FxValue *a[1];
    char *fname = g_strdup_printf ("%s.__init__", grad_mode_names[kind]);
    gboolean ok = parse (S, fname, args + 1, n_args - 1, kwargs, names, 1, 1,
                         kind == GRAD_SET_ENABLED ? 1 : 0, a);
    g_free (fname);
    if (!ok)
      return FALSE;
    if (a[0] && !fx_script_to_bool (S, a[0], &g->mode))
      return FALSE;
    if (kind == GRAD_SET_ENABLED && st)
      {
        /* set_grad_enabled(mode) takes effect at once, like the function form */
        g->prev = st->grad_enabled;
        st->grad_enabled = g->mode;
        grad_mode_sync (st);
      }
  }
  return TRUE;
}

static void
grad_mode_apply (TorchState *st, GradModeKind kind, gboolean mode, gboolean *prev)
{
  if (kind == GRAD_INFERENCE)
    {
      *prev = st->inference_mode;
      st->inference_mode = mode;
      grad_mode_sync (st);
      return;
    }
  *prev = st->grad_enabled;
  st->grad_enabled = mode;
  grad_mode_sync (st);
}

static void
grad_mode_restore (TorchState *st, GradModeKind kind, gboolean prev)
{
  if (kind == GRAD_INFERENCE)
    st->inference_mode = prev;
  else
    st->grad_enabled = prev;
  grad_mode_sync (st);
}

static gboolean
grad_mode_enter (TORCH_ARGS)
{
  GradModeKind kind = GPOINTER_TO_INT (data);
  TorchState *st = torch_state (S);
  GradMode *g = grad_mode_self (S, &args[0]);
  if (g == NULL || st == NULL)
    return g != NULL;
  if (kind != GRAD_SET_ENABLED)
    grad_mode_apply (st, kind, g->mode, &g->prev);
  return TRUE;
}

static gboolean
grad_mode_exit (TORCH_ARGS)
{
  GradModeKind kind = GPOINTER_TO_INT (data);
  TorchState *st = torch_state (S);
  GradMode *g = grad_mode_self (S, &args[0]);
  if (g == NULL || st == NULL)
    return g != NULL;
  grad_mode_restore (st, kind, g->prev);
  *result = fx_value_bool (FALSE);
  return TRUE;
}

typedef struct {
  FxValue func;
  GradModeKind kind;
  gboolean mode;
} GradWrapper;

static void
grad_wrapper_free (gpointer p)
{
  GradWrapper *w = p;
  fx_value_clear (&w->func);
  g_free (w);
}

static gboolean
grad_wrapper_call (TORCH_ARGS)
{
  GradWrapper *w = data;
  TorchState *st = torch_state (S);
  gboolean prev = FALSE, ok;
  if (st)
    grad_mode_apply (st, w->kind, w->mode, &prev);
  ok = fx_script_call (S, &w->func, args, n_args, kwargs, result);
  if (st)
    grad_mode_restore (st, w->kind, prev);
  return ok;
}

static gboolean
grad_mode_call (TORCH_ARGS)
{
  GradModeKind kind = GPOINTER_TO_INT (data);
  GradMode *g = grad_mode_self (S, &args[0]);
  GradWrapper *w;
  FxValue name;
  const char *fname = "wrapper";
  if (g == NULL)
    return FALSE;
  if (n_args != 2 || (kwargs && fx_dict_len (kwargs)))
    return fx_script_raise (S, "TypeError", "__call__() takes 2 positional arguments but %d were given", n_args);
  if (!fx_script_is_callable (S, &args[1]))
    return fx_script_raise (S, "TypeError", "'%s' object is not callable", sc_type_name (S, &args[1]));
  w = g_new0 (GradWrapper, 1);
  w->func = fx_value_copy (&args[1]);
  w->kind = kind;
  w->mode = g->mode;
  if (fx_script_lookup_attr (S, &args[1], "__name__", &name))
    {
      if (name.kind == FX_VALUE_STR)
        fname = g_intern_string (name.s->data);
      fx_value_clear (&name);
    }
  else if (fx_script_exception_pending (S))
    fx_script_clear_exception (S);
  /* a method-kind native, so that decorated methods still bind self as functions do */
  *result = sc_native_new (NULL, fname, SC_NATIVE_METHOD, grad_wrapper_call, w, grad_wrapper_free);
  return TRUE;
}

static FxScriptClass *
grad_mode_class (FxScript *S, GradModeKind kind)
{
  FxScriptClassInfo info = {
    .module = "torch.autograd.grad_mode", .name = grad_mode_names[kind],
    .payload_new = grad_mode_payload_new, .payload_free = g_free,
    .class_data = GINT_TO_POINTER (kind),
  };
  FxScriptClass *cls = fx_script_class_new (S, &info, NULL);
  gpointer d = GINT_TO_POINTER (kind);
  fx_script_class_add_method (cls, "__init__", grad_mode_init, d);
  fx_script_class_add_method (cls, "__enter__", grad_mode_enter, d);
  fx_script_class_add_method (cls, "__exit__", grad_mode_exit, d);
  fx_script_class_add_method (cls, "__call__", grad_mode_call, d);
  return cls;
}

/* ------------------------------------------------------------------ finfo / iinfo */

static gpointer
info_payload_new (FxScript *S, FxScriptClass *cls, gpointer class_data)
{
  return g_new0 (FxDType, 1);
}

static void
format_g (GString *s, double v)
{
  char buf[64];
  g_snprintf (buf, sizeof buf, "%g", v);
  g_string_append (s, buf);
}

typedef struct {
  int bits;
  double eps, max, tiny, resolution;
} FloatInfo;

static FloatInfo
float_info (FxDType d)
{
  FloatInfo fi;
  if (d == FX_DTYPE_FLOAT16)
    fi = (FloatInfo) { 16, 0.0009765625, 65504.0, 6.103515625e-05, 0.001 };
  else if (d == FX_DTYPE_FLOAT64)
    fi = (FloatInfo) { 64, DBL_EPSILON, DBL_MAX, DBL_MIN, 1e-15 };
  else
    fi = (FloatInfo) { 32, FLT_EPSILON, FLT_MAX, FLT_MIN, 1e-06 };
  return fi;
}

static gboolean
finfo_construct (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                 gpointer data)
{
  static const char *const names[] = { "type" };
  const FxValue *a[1];
  FxDType d = FX_DTYPE_FLOAT32;
  FxScriptClass *cls = data;
  if (!parse (S, "finfo", args, n_args, kwargs, names, 1, 1, 0, a))
    return FALSE;
  if (a[0] && !get_dtype_arg (S, a[0], "finfo", &d))
    return FALSE;
  if (!fx_dtype_is_floating (d))
    return fx_script_raise (S, "TypeError", "torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'");
  *result = fx_script_instance_new (S, cls);
  *(FxDType *) fx_script_instance_payload (result) = d;
  return TRUE;
}

static gboolean
iinfo_construct (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                 gpointer data)
{
  static const char *const names[] = { "type" };
  const FxValue *a[1];
  FxDType d = FX_DTYPE_INT64;
  FxScriptClass *cls = data;
  if (!parse (S, "iinfo", args, n_args, kwargs, names, 1, 1, 1, a))
    return FALSE;
  if (!get_dtype_arg (S, a[0], "iinfo", &d))
    return FALSE;
  if (!fx_dtype_is_integral (d))
    return fx_script_raise (S, "TypeError", "torch.iinfo() requires an integer input type. Use torch.finfo to handle '%s'",
                            fx_dtype_name (d));
  *result = fx_script_instance_new (S, cls);
  *(FxDType *) fx_script_instance_payload (result) = d;
  return TRUE;
}

static FxDType
info_dtype (const FxValue *v)
{
  FxDType *p = fx_script_instance_payload (v);
  return p ? *p : FX_DTYPE_FLOAT32;
}

static void
int_limits (FxDType d, int64_t *min, int64_t *max, int *bits)
{
  switch (d)
    {
    case FX_DTYPE_UINT8: *min = 0; *max = 255; *bits = 8; break;
    case FX_DTYPE_INT8: *min = -128; *max = 127; *bits = 8; break;
    case FX_DTYPE_INT16: *min = G_MININT16; *max = G_MAXINT16; *bits = 16; break;
    case FX_DTYPE_INT32: *min = G_MININT32; *max = G_MAXINT32; *bits = 32; break;
    default: *min = G_MININT64; *max = G_MAXINT64; *bits = 64; break;
    }
}

static gboolean
info_attr (TORCH_ARGS)
{
  const char *attr = data;
  FxDType d = info_dtype (&args[0]);
  if (fx_dtype_is_floating (d))
    {
      FloatInfo fi = float_info (d);
      if (g_str_equal (attr, "bits")) *result = fx_value_int (fi.bits);
      else if (g_str_equal (attr, "eps")) *result = fx_value_float (fi.eps);
      else if (g_str_equal (attr, "max")) *result = fx_value_float (fi.max);
      else if (g_str_equal (attr, "min")) *result = fx_value_float (-fi.max);
      else if (g_str_equal (attr, "tiny") || g_str_equal (attr, "smallest_normal"))
        *result = fx_value_float (fi.tiny);
      else if (g_str_equal (attr, "resolution")) *result = fx_value_float (fi.resolution);
      else *result = fx_value_str (fx_dtype_name (d));
    }
  else
    {
      int64_t min, max;
      int bits;
      int_limits (d, &min, &max, &bits);
      if (g_str_equal (attr, "bits")) *result = fx_value_int (bits);
      else if (g_str_equal (attr, "max")) *result = fx_value_int (max);
      else if (g_str_equal (attr, "min")) *result = fx_value_int (min);
      else if (g_str_equal (attr, "dtype")) *result = fx_value_str (fx_dtype_name (d));
      else
        return fx_script_raise (S, "AttributeError", "'torch.iinfo' object has no attribute '%s'", attr);
    }
  return TRUE;
}

static gboolean
info_repr (TORCH_ARGS)
{
  FxDType d = info_dtype (&args[0]);
  GString *s = g_string_new (NULL);
  if (fx_dtype_is_floating (d))
    {
      FloatInfo fi = float_info (d);
      g_string_append (s, "finfo(resolution=");
      format_g (s, fi.resolution);
      g_string_append (s, ", min=");
      format_g (s, -fi.max);
      g_string_append (s, ", max=");
      format_g (s, fi.max);
      g_string_append (s, ", eps=");
      format_g (s, fi.eps);
      g_string_append (s, ", smallest_normal=");
      format_g (s, fi.tiny);
      g_string_append (s, ", tiny=");
      format_g (s, fi.tiny);
    }
  else
    {
      int64_t min, max;
      int bits;
      int_limits (d, &min, &max, &bits);
      g_string_append (s, "iinfo(min=");
      format_g (s, (double) min);
      g_string_append (s, ", max=");
      format_g (s, (double) max);
    }
  g_string_append_printf (s, ", dtype=%s)", fx_dtype_name (d));
  *result = fx_value_take_str (fx_str_new_len (s->str, s->len));
  g_string_free (s, TRUE);
  return TRUE;
}

static FxScriptClass *
info_class (FxScript *S, const char *name)
{
  FxScriptClassInfo info = {
    .module = "torch", .name = name,
    .payload_new = info_payload_new, .payload_free = g_free,
  };
  static const char *const attrs[] = { "bits", "eps", "max", "min", "tiny", "smallest_normal",
                                       "resolution", "dtype" };
  FxScriptClass *cls = fx_script_class_new (S, &info, NULL);
  gboolean is_int = g_str_equal (name, "iinfo");
  for (guint i = 0; i < G_N_ELEMENTS (attrs); i++)
    if (!is_int || g_str_equal (attrs[i], "bits") || g_str_equal (attrs[i], "max")
        || g_str_equal (attrs[i], "min") || g_str_equal (attrs[i], "dtype"))
      fx_script_class_add_property (cls, attrs[i], info_attr, NULL, (gpointer) attrs[i]);
  fx_script_class_add_method (cls, "__repr__", info_repr, NULL);
  cls->construct = is_int ? iinfo_construct : finfo_construct;
  return cls;
}

/* ------------------------------------------------------------------ torch functions */

static gboolean
fn_is_tensor (TORCH_ARGS)
{
  static const char *const names[] = { "obj" };
  const FxValue *a[1];
  if (!parse (S, "is_tensor", args, n_args, kwargs, names, 1, 1, 1, a))
    return FALSE;
  *result = fx_value_bool (sc_torch_is_tensor (S, a[0]));
  return TRUE;
}

static gboolean
fn_is_storage (TORCH_ARGS)
{
  *result = fx_value_bool (FALSE);
  return TRUE;
}

/* ---- torch.save / torch.load: script values ↔ the plain value trees of checkpoint.c, with
 * collections.OrderedDict kept apart from dict both ways (state_dict() is an OrderedDict). */

#define CHECKPOINT_MAX_DEPTH 200

/* One walk for both directions. Saving (saving TRUE): obj as a plain tree (tensors,
 * numbers, strs, None, tuples, lists, dicts), the dicts that were OrderedDicts put into
 * ordered; anything else raises. Loading: the loaded tree with the dicts in ordered made
 * collections.OrderedDicts again. */
static gboolean
convert_checkpoint_value (FxScript *S, const FxValue *v, GHashTable *ordered, gboolean saving,
                          int depth, FxValue *out)
{
  FxTensor *t;
  if (depth > CHECKPOINT_MAX_DEPTH)
    return sc_raise (S, SC_T_RECURSION_ERROR, "maximum recursion depth exceeded while %s",
                     saving ? "pickling an object" : "unpickling");
  if (v->kind == FX_VALUE_TUPLE || v->kind == FX_VALUE_LIST)
    {
      FxSeq *seq = fx_seq_new (0);
      for (guint i = 0; i < v->seq->len; i++)
        {
          FxValue item;
          if (!convert_checkpoint_value (S, &v->seq->items[i], ordered, saving, depth + 1, &item))
            {
              fx_seq_unref (seq);
              return FALSE;
            }
          fx_seq_append (seq, item);
        }
      *out = v->kind == FX_VALUE_TUPLE ? fx_value_take_tuple (seq) : fx_value_take_list (seq);
      return TRUE;
    }
  if (v->kind == FX_VALUE_DICT)
    {
      FxDict *d = fx_dict_new ();
      const FxValue *k, *x;
      for (guint i = 0; fx_dict_entry (v->dict, i, &k, &x); i++)
        {
          FxValue kk, xx;
          if (!convert_checkpoint_value (S, k, ordered, saving, depth + 1, &kk))
            {
              fx_dict_unref (d);
              return FALSE;
            }
          if (!convert_checkpoint_value (S, x, ordered, saving, depth + 1, &xx))
            {
              fx_value_clear (&kk);
              fx_dict_unref (d);
              return FALSE;
            }
          fx_dict_set (d, kk, xx);
        }
      if (!saving && g_hash_table_contains (ordered, v->dict))
        *out = nn_ordered_dict (S, d);
      else
        *out = fx_value_take_dict (d);
      return TRUE;
    }
  if (!saving || v->kind == FX_VALUE_NONE || v->kind == FX_VALUE_BOOL || v->kind == FX_VALUE_INT
      || v->kind == FX_VALUE_FLOAT || v->kind == FX_VALUE_STR || v->kind == FX_VALUE_TENSOR)
    {
      *out = fx_value_copy (v);
      return TRUE;
    }
  if (sc_torch_unwrap_tensor (S, v, &t))
    {
      *out = fx_value_tensor (t);
      return TRUE;
    }
  if (strcmp (sc_type_name (S, v), "OrderedDict") == 0)
    {
      FxValue dict_cls = sc_builtin_lookup (S, "dict"), plain;
      gboolean ok = sc_call1 (S, &dict_cls, v, &plain);
      fx_value_clear (&dict_cls);
      if (!ok)
        return FALSE;
      ok = plain.kind == FX_VALUE_DICT
           && convert_checkpoint_value (S, &plain, ordered, TRUE, depth, out);
      fx_value_clear (&plain);
      if (ok)
        g_hash_table_add (ordered, fx_dict_ref (out->dict));
      return ok;
    }
  return sc_raise (S, SC_T_NOT_IMPLEMENTED_ERROR,
                   "torch.save: cannot save a '%s' object (tensors, numbers, strings, None, "
                   "tuples, lists, dicts and OrderedDicts can be saved; save a module's "
                   "state_dict())", sc_type_name (S, v));
}

/* The file name argument of torch.save/load and safetensors' save_file/load_file: a str,
 * naming an existing file when must_exist. FALSE with the exception raised. */
static gboolean
file_name_arg (FxScript *S, const char *what, const FxValue *v, gboolean must_exist,
               const char **path)
{
  if (v->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s must be a file name (str), not '%s'", what,
                     sc_type_name (S, v));
  *path = v->s->data;
  if (must_exist && !g_file_test (*path, G_FILE_TEST_EXISTS))
    return sc_raise (S, SC_T_FILE_NOT_FOUND_ERROR, "[Errno 2] No such file or directory: '%s'",
                     *path);
  return TRUE;
}

/* The end of a write: None, or the GError raised as its exception (and freed). */
static gboolean
written (FxScript *S, gboolean ok, GError *error, FxValue *result)
{
  if (!ok)
    {
      fx_script_raise_gerror (S, error);
      g_error_free (error);
      return FALSE;
    }
  *result = fx_value_none ();
  return TRUE;
}

/* torch.save(obj, f): f names the file; the zip format of 1.13 (ir/checkpoint.c). */
static gboolean
fn_save (TORCH_ARGS)
{
  static const char *const names[] = { "obj", "f", "pickle_module", "pickle_protocol",
                                       "_use_new_zipfile_serialization" };
  const FxValue *a[5] = { NULL };
  g_autoptr (GHashTable) ordered = g_hash_table_new_full (g_direct_hash, g_direct_equal,
                                                          (GDestroyNotify) fx_dict_unref, NULL);
  g_autofree char *dir = NULL;
  const char *path = NULL;
  FxValue plain;
  GError *error = NULL;
  gboolean ok;
  if (!parse (S, "save", args, n_args, kwargs, names, 5, 5, 2, a)
      || !file_name_arg (S, "torch.save: f", a[1], FALSE, &path))
    return FALSE;
  dir = g_path_get_dirname (path);
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    return sc_raise (S, SC_T_RUNTIME_ERROR, "Parent directory %s does not exist.", dir);
  if (!convert_checkpoint_value (S, a[0], ordered, TRUE, 0, &plain))
    return FALSE;
  ok = fx_checkpoint_save_value (&plain, ordered, path, &error);
  fx_value_clear (&plain);
  return written (S, ok, error, result);
}

/* torch.load(f, map_location=None, ...): what torch.save wrote to the file named f (the
 * state_dict.pt of to_folder's modules, checkpoints); map_location is moot on the CPU.
 * (Added by the seeds helper: seeds/022_to_folder.py's module loads its state with it.) */
static gboolean
fn_load (TORCH_ARGS)
{
  static const char *const names[] = { "f", "map_location", "pickle_module", "weights_only" };
  const FxValue *a[4] = { NULL };
  g_autoptr (GHashTable) ordered = NULL;
  GError *error = NULL;
  const char *path = NULL;
  FxValue v;
  gboolean ok;
  if (!parse (S, "load", args, n_args, kwargs, names, 4, 4, 1, a)
      || !file_name_arg (S, "torch.load: f", a[0], TRUE, &path))
    return FALSE;
  if (!fx_checkpoint_load_value_ordered (path, &v, &ordered, &error))
    {
      fx_script_raise_gerror (S, error);
      g_error_free (error);
      return FALSE;
    }
  ok = convert_checkpoint_value (S, &v, ordered, FALSE, 0, result);
  fx_value_clear (&v);
  return ok;
}

static FxTensor *
tensor_arg (FxScript *S, const char *fname, const FxValue *args, int n_args, FxDict *kwargs)
{
  static const char *const names[] = { "input" };
  const FxValue *a[1];
  FxTensor *t;
  if (!parse (S, fname, args, n_args, kwargs, names, 1, 1, 1, a))
    return NULL;
  if (!sc_torch_unwrap_tensor (S, a[0], &t))
    {
      fx_script_raise (S, "TypeError", "%s(): argument 'input' (position 1) must be Tensor, not %s",
                       fname, sc_type_name (S, a[0]));
      return NULL;
    }
  return t;
}

static gboolean
fn_numel (TORCH_ARGS)
{
  FxTensor *t = tensor_arg (S, "numel", args, n_args, kwargs);
  if (t == NULL)
    return FALSE;
  *result = fx_value_int (fx_tensor_numel (t));
  return TRUE;
}

static gboolean
fn_is_floating_point (TORCH_ARGS)
{
  FxTensor *t = tensor_arg (S, "is_floating_point", args, n_args, kwargs);
  if (t == NULL)
    return FALSE;
  *result = fx_value_bool (fx_dtype_is_floating (t->dtype));
  return TRUE;
}

static gboolean
fn_is_complex (TORCH_ARGS)
{
  FxTensor *t = tensor_arg (S, "is_complex", args, n_args, kwargs);
  if (t == NULL)
    return FALSE;
  *result = fx_value_bool (FALSE);
  return TRUE;
}

static gboolean
fn_get_default_dtype (TORCH_ARGS)
{
  *result = fx_value_dtype (FX_DTYPE_DEFAULT_FLOAT);
  return TRUE;
}

static gboolean
fn_set_default_dtype (TORCH_ARGS)
{
  static const char *const names[] = { "d" };
  const FxValue *a[1];
  FxDType d = FX_DTYPE_DEFAULT_FLOAT;
  if (!parse (S, "set_default_dtype", args, n_args, kwargs, names, 1, 1, 1, a))
    return FALSE;
  if (!get_dtype_arg (S, a[0], "set_default_dtype", &d))
    return FALSE;
  if (!fx_dtype_is_floating (d))
    return fx_script_raise (S, "TypeError", "only floating-point types are supported as the default type");
  if (d != FX_DTYPE_DEFAULT_FLOAT)
    return fx_script_raise (S, "NotImplementedError",
                            "torch.set_default_dtype(torch.%s): fx supports only torch.float32 as the default dtype",
                            fx_dtype_name (d));
  return TRUE;
}

static gboolean
fn_is_grad_enabled (TORCH_ARGS)
{
  TorchState *st = data;
  *result = fx_value_bool (grad_enabled (st));
  return TRUE;
}

static gboolean
fn_is_inference_mode_enabled (TORCH_ARGS)
{
  TorchState *st = data;
  *result = fx_value_bool (st->inference_mode);
  return TRUE;
}

static gboolean
fn_as_tensor (TORCH_ARGS)
{
  static const char *const names[] = { "data", "dtype", "device" };
  const FxValue *a[3];
  FxTensor *t;
  const FxOp *op;
  if (!parse (S, "as_tensor", args, n_args, kwargs, names, 3, 3, 1, a))
    return FALSE;
  if (sc_torch_unwrap_tensor (S, a[0], &t))
    {
      if (a[1] == NULL || a[1]->kind == FX_VALUE_NONE || (a[1]->kind == FX_VALUE_DTYPE && a[1]->dtype == t->dtype))
        {
          *result = fx_value_tensor (t);
          return TRUE;
        }
      if (a[1]->kind != FX_VALUE_DTYPE)
        return fx_script_raise (S, "TypeError", "as_tensor(): argument 'dtype' must be torch.dtype, not %s",
                                sc_type_name (S, a[1]));
      *result = fx_value_take_tensor (fx_tensor_to_dtype (t, a[1]->dtype));
      return TRUE;
    }
  op = fx_op_lookup ("torch.tensor");
  if (op == NULL)
    return fx_script_raise (S, "NotImplementedError", "torch.tensor is not available");
  {
    FxDict *kw = fx_dict_new ();
    gboolean ok;
    if (a[1])
      fx_dict_set (kw, fx_value_str ("dtype"), fx_value_copy (a[1]));
    if (a[2])
      fx_dict_set (kw, fx_value_str ("device"), fx_value_copy (a[2]));
    ok = sc_torch_call_op (S, op, a[0], 1, kw, result);
    fx_dict_unref (kw);
    return ok;
  }
}

static gboolean
fn_from_numpy (TORCH_ARGS)
{
  return fx_script_raise (S, "NotImplementedError", "torch.from_numpy() is not supported: fx has no NumPy");
}

/* torch.FloatTensor(...) and friends: user_data is the dtype. */
static gboolean
fn_typed_tensor (TORCH_ARGS)
{
  FxDType d = GPOINTER_TO_INT (data);
  const char *name = fx_dtype_legacy_name (d);
  return torch_tensor_construct (S, d, args, n_args, kwargs, name + strlen ("torch."), result);
}

/* torch.typename(o): a tensor's legacy type name, else module-qualified __qualname__ */
static gboolean
fn_typename (TORCH_ARGS)
{
  static const char *const names[] = { "o" };
  const FxValue *a[1];
  FxTensor *t;
  FxValue mod = fx_value_none (), name = fx_value_none ();
  GString *out;
  if (!parse (S, "typename", args, n_args, kwargs, names, 1, 1, 1, a))
    return FALSE;
  if (sc_torch_unwrap_tensor (S, a[0], &t))
    {
      *result = fx_value_str (fx_dtype_legacy_name (t->dtype));
      return TRUE;
    }
  out = g_string_new (NULL);
  if (fx_script_lookup_attr (S, a[0], "__module__", &mod) && mod.kind == FX_VALUE_STR
      && !g_str_equal (mod.s->data, "builtins"))
    g_string_append_printf (out, "%s.", mod.s->data);
  if (fx_script_exception_pending (S))
    goto fail;
  if (fx_script_lookup_attr (S, a[0], "__qualname__", &name)
      || (!fx_script_exception_pending (S) && fx_script_lookup_attr (S, a[0], "__name__", &name)))
    {
      char *str = fx_script_value_str (S, &name);
      if (str == NULL)
        goto fail;
      g_string_append (out, str);
      g_free (str);
    }
  else if (fx_script_exception_pending (S))
    goto fail;
  else
    g_string_append (out, sc_type_name (S, a[0]));
  fx_value_clear (&mod);
  fx_value_clear (&name);
  *result = fx_value_take_str (fx_str_new_len (out->str, out->len));
  g_string_free (out, TRUE);
  return TRUE;
fail:
  fx_value_clear (&mod);
  fx_value_clear (&name);
  g_string_free (out, TRUE);
  return FALSE;
}

/* Tensors always print with PyTorch's defaults; anything else is refused clearly. */
static gboolean
fn_set_printoptions (TORCH_ARGS)
{
  static const char *const names[] = { "precision", "threshold", "edgeitems", "linewidth",
                                       "profile", "sci_mode" };
  static const int64_t defaults[] = { 4, 1000, 3, 80 };
  const FxValue *a[6];
  if (!parse (S, "set_printoptions", args, n_args, kwargs, names, 6, 6, 0, a))
    return FALSE;
  for (int i = 0; i < 4; i++)
    if (a[i] && a[i]->kind != FX_VALUE_NONE && !(a[i]->kind == FX_VALUE_INT && a[i]->i == defaults[i]))
      return fx_script_raise (S, "NotImplementedError",
                              "torch.set_printoptions(%s=...): fx prints tensors with PyTorch's default options only",
                              names[i]);
  if (a[4] && a[4]->kind != FX_VALUE_NONE
      && !(a[4]->kind == FX_VALUE_STR && g_str_equal (a[4]->s->data, "default")))
    return fx_script_raise (S, "NotImplementedError",
                            "torch.set_printoptions(profile=...): fx prints tensors with PyTorch's default options only");
  if (a[5] && a[5]->kind != FX_VALUE_NONE)
    return fx_script_raise (S, "NotImplementedError",
                            "torch.set_printoptions(sci_mode=...): fx prints tensors with PyTorch's default options only");
  return TRUE;
}

static gboolean
fn_promote_types (TORCH_ARGS)
{
  static const char *const names[] = { "type1", "type2" };
  const FxValue *a[2];
  FxDType x = FX_DTYPE_FLOAT32, y = FX_DTYPE_FLOAT32;
  if (!parse (S, "promote_types", args, n_args, kwargs, names, 2, 2, 2, a))
    return FALSE;
  if (!get_dtype_arg (S, a[0], "promote_types", &x) || !get_dtype_arg (S, a[1], "promote_types", &y))
    return FALSE;
  *result = fx_value_dtype (fx_dtype_promote (x, y));
  return TRUE;
}

static gboolean
fn_noop (TORCH_ARGS)
{
  *result = fx_value_none ();
  return TRUE;
}

/* torch.get_num_threads / set_num_threads: libfx's compute threads (cores by default) */
static gboolean
fn_get_num_threads (TORCH_ARGS)
{
  *result = fx_value_int (fx_blas_num_threads ());
  return TRUE;
}

static gboolean
fn_set_num_threads (TORCH_ARGS)
{
  if (n_args != 1 || (kwargs && fx_dict_len (kwargs) > 0))
    return fx_script_raise (S, "TypeError",
                            "torch.set_num_threads() takes exactly one argument (%d given)",
                            n_args + (kwargs ? (int) fx_dict_len (kwargs) : 0));
  if (args[0].kind != FX_VALUE_INT)
    return fx_script_raise (S, "RuntimeError", "set_num_threads expects an int, but got %s",
                            sc_type_name (S, &args[0]));
  if (args[0].i <= 0)
    return fx_script_raise (S, "RuntimeError", "set_num_threads expects a positive integer");
  fx_blas_set_num_threads ((int) MIN (args[0].i, (int64_t) 4096));
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
fn_false (TORCH_ARGS)
{
  *result = fx_value_bool (FALSE);
  return TRUE;
}

static gboolean
fn_zero (TORCH_ARGS)
{
  *result = fx_value_int (0);
  return TRUE;
}

static gboolean
fn_cuda_unavailable (TORCH_ARGS)
{
  return fx_script_raise (S, "AssertionError", "Torch not compiled with CUDA enabled");
}

/* ------------------------------------------------------------------ modules */

static gboolean fn_equal (TORCH_ARGS);

/* Binds every registry function whose path (or an alias) is `prefix`.NAME, NAME without dots. */
static void
bind_ops (FxScriptModule *m, const char *prefix)
{
  guint n_ops;
  const FxOp *const *ops = fx_ops_all (&n_ops);
  gsize plen = strlen (prefix);
  for (guint i = 0; i < n_ops; i++)
    {
      const FxOp *op = ops[i];
      if (op->kind != FX_OP_FUNCTION)
        continue;
      for (int j = -1; j < 0 || op->aliases[j] != NULL; j++)
        {
          const char *path = j < 0 ? op->qualified_name : op->aliases[j];
          const char *name = path + plen + 1;
          if (strncmp (path, prefix, plen) != 0 || path[plen] != '.' || strchr (name, '.'))
            continue;
          if (fx_script_module_lookup (m, name) == NULL)
            fx_script_module_set (m, name, fx_value_op (op));
        }
    }
}

/* Submodules as attributes (torch.nn, torch.cuda, ...): imported on first use. user_data is
 * the module's interned name. */
static gboolean
submodule_getattr (TORCH_ARGS)
{
  const char *modname = data;
  const FxValue *namev = n_args ? &args[n_args - 1] : NULL;
  char *full;
  gboolean known;
  if (namev == NULL || namev->kind != FX_VALUE_STR)
    return fx_script_raise (S, "TypeError", "__getattr__ expects a str");
  full = g_strconcat (modname, ".", namev->s->data, NULL);
  known = S->native_modules && g_hash_table_contains (S->native_modules, full);
  if (known)
    {
      gboolean ok = fx_script_import (S, full, result);
      g_free (full);
      return ok;
    }
  g_free (full);
  return fx_script_raise (S, "AttributeError", "module '%s' has no attribute '%s'", modname,
                          namev->s->data);
}

static void
add_fn (FxScriptModule *m, const char *name, FxScriptFunc func, gpointer data)
{
  fx_script_module_set (m, name, fx_script_function_new (fx_script_module_get_name (m), name,
                                                         func, data, NULL));
}

static void
set_class (FxScriptModule *m, const char *name, FxScriptClass *cls)
{
  fx_script_module_set (m, name, fx_script_class_value (cls));
}

static gboolean
torch_module_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  TorchState *st = user_data;
  static const struct { const char *name; FxDType dtype; } dtypes[] = {
    { "float32", FX_DTYPE_FLOAT32 }, { "float", FX_DTYPE_FLOAT32 },
    { "float64", FX_DTYPE_FLOAT64 }, { "double", FX_DTYPE_FLOAT64 },
    { "float16", FX_DTYPE_FLOAT16 }, { "half", FX_DTYPE_FLOAT16 },
    { "int64", FX_DTYPE_INT64 }, { "long", FX_DTYPE_INT64 },
    { "int32", FX_DTYPE_INT32 }, { "int", FX_DTYPE_INT32 },
    { "int16", FX_DTYPE_INT16 }, { "short", FX_DTYPE_INT16 },
    { "int8", FX_DTYPE_INT8 }, { "uint8", FX_DTYPE_UINT8 }, { "bool", FX_DTYPE_BOOL },
  };
  static const struct { const char *name; FxDType dtype; } typed[] = {
    { "FloatTensor", FX_DTYPE_FLOAT32 }, { "DoubleTensor", FX_DTYPE_FLOAT64 },
    { "HalfTensor", FX_DTYPE_FLOAT16 }, { "LongTensor", FX_DTYPE_INT64 },
    { "IntTensor", FX_DTYPE_INT32 }, { "ShortTensor", FX_DTYPE_INT16 },
    { "CharTensor", FX_DTYPE_INT8 }, { "ByteTensor", FX_DTYPE_UINT8 },
    { "BoolTensor", FX_DTYPE_BOOL },
  };
  FxScriptClass *layout_cls, *format_cls;

  bind_ops (m, "torch");

  for (guint i = 0; i < G_N_ELEMENTS (dtypes); i++)
    fx_script_module_set (m, dtypes[i].name, fx_value_dtype (dtypes[i].dtype));
  for (guint i = 0; i < G_N_ELEMENTS (typed); i++)
    add_fn (m, typed[i].name, fn_typed_tensor, GINT_TO_POINTER (typed[i].dtype));

  set_class (m, "Tensor", st->tensor_cls);
  set_class (m, "Size", st->size_cls);
  set_class (m, "dtype", st->dtype_cls);
  set_class (m, "device", st->device_cls);
  set_class (m, "Generator", st->generator_cls);
  for (int k = 0; k < 4; k++)
    set_class (m, grad_mode_names[k], st->grad_mode_cls[k]);
  set_class (m, "finfo", info_class (S, "finfo"));
  set_class (m, "iinfo", info_class (S, "iinfo"));

  layout_cls = constant_class (S, "layout");
  format_cls = constant_class (S, "memory_format");
  set_class (m, "layout", layout_cls);
  set_class (m, "memory_format", format_cls);
  fx_script_module_set (m, "strided", constant_new (S, layout_cls, "strided"));
  fx_script_module_set (m, "sparse_coo", constant_new (S, layout_cls, "sparse_coo"));
  fx_script_module_set (m, "contiguous_format", constant_new (S, format_cls, "contiguous_format"));
  fx_script_module_set (m, "channels_last", constant_new (S, format_cls, "channels_last"));
  fx_script_module_set (m, "channels_last_3d", constant_new (S, format_cls, "channels_last_3d"));
  fx_script_module_set (m, "preserve_format", constant_new (S, format_cls, "preserve_format"));

  fx_script_module_set (m, "__version__", fx_value_str (TORCH_VERSION));

  add_fn (m, "is_tensor", fn_is_tensor, st);
  if (fx_script_module_lookup (m, "equal") == NULL)
    add_fn (m, "equal", fn_equal, st);
  add_fn (m, "is_storage", fn_is_storage, st);
  add_fn (m, "load", fn_load, st);
  add_fn (m, "save", fn_save, st);
  add_fn (m, "numel", fn_numel, st);
  add_fn (m, "is_floating_point", fn_is_floating_point, st);
  add_fn (m, "is_complex", fn_is_complex, st);
  add_fn (m, "get_default_dtype", fn_get_default_dtype, st);
  add_fn (m, "set_default_dtype", fn_set_default_dtype, st);
  add_fn (m, "is_grad_enabled", fn_is_grad_enabled, st);
  add_fn (m, "is_inference_mode_enabled", fn_is_inference_mode_enabled, st);
  /* torch._assert is the registry op (traced through __torch_function__) */
  add_fn (m, "as_tensor", fn_as_tensor, st);
  add_fn (m, "from_numpy", fn_from_numpy, st);
  add_fn (m, "set_num_threads", fn_set_num_threads, st);
  add_fn (m, "typename", fn_typename, st);
  add_fn (m, "promote_types", fn_promote_types, st);
  add_fn (m, "set_printoptions", fn_set_printoptions, st);
  add_fn (m, "get_num_threads", fn_get_num_threads, st);
  add_fn (m, "use_deterministic_algorithms", fn_noop, st);
  add_fn (m, "are_deterministic_algorithms_enabled", fn_false, st);

  fx_script_module_set_getattr (m, submodule_getattr, (gpointer) g_intern_string ("torch"));
  return TRUE;
}

static gboolean
functional_module_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  bind_ops (m, "torch.nn.functional");
  return TRUE;
}

/* torch.random, torch.functional, torch._C._nn: the registry's functions under those paths. */
static gboolean
op_module_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  const char *name = user_data;
  bind_ops (m, name);
  fx_script_module_set_getattr (m, submodule_getattr, (gpointer) name);
  return TRUE;
}

/* ---- safetensors.torch: the safetensors package is not in Debian, so scripts get its two
 * file functions here, on ir/safetensors.c. load_file returns the tensors sorted by name,
 * as the package's safe_open().keys() lists them. */

static gboolean
fn_st_save_file (TORCH_ARGS)
{
  static const char *const names[] = { "tensors", "filename", "metadata" };
  const FxValue *a[3] = { NULL };
  g_autoptr (GHashTable) ordered = g_hash_table_new_full (g_direct_hash, g_direct_equal,
                                                          (GDestroyNotify) fx_dict_unref, NULL);
  g_autoptr (GHashTable) meta = NULL;
  const char *path = NULL;
  FxValue plain = fx_value_none ();
  const FxValue *k, *v;
  GError *error = NULL;
  gboolean ok;
  if (!parse (S, "save_file", args, n_args, kwargs, names, 3, 3, 2, a)
      || !file_name_arg (S, "save_file: filename", a[1], FALSE, &path))
    return FALSE;
  if (!convert_checkpoint_value (S, a[0], ordered, TRUE, 0, &plain))
    return FALSE;
  if (plain.kind != FX_VALUE_DICT)
    {
      fx_value_clear (&plain);
      return sc_raise (S, SC_T_TYPE_ERROR, "save_file: tensors must be a dict of str to Tensor");
    }
  for (guint i = 0; fx_dict_entry (plain.dict, i, &k, &v); i++)
    if (k->kind != FX_VALUE_STR || v->kind != FX_VALUE_TENSOR)
      {
        fx_value_clear (&plain);
        return sc_raise (S, SC_T_TYPE_ERROR, "save_file: tensors must be a dict of str to Tensor");
      }
  if (a[2] != NULL && a[2]->kind != FX_VALUE_NONE)
    {
      if (a[2]->kind != FX_VALUE_DICT)
        {
          fx_value_clear (&plain);
          return sc_raise (S, SC_T_TYPE_ERROR, "save_file: metadata must be a dict of str to str");
        }
      meta = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      for (guint i = 0; fx_dict_entry (a[2]->dict, i, &k, &v); i++)
        {
          if (k->kind != FX_VALUE_STR || v->kind != FX_VALUE_STR)
            {
              fx_value_clear (&plain);
              return sc_raise (S, SC_T_TYPE_ERROR, "save_file: metadata must be a dict of str to str");
            }
          g_hash_table_insert (meta, g_strdup (k->s->data), g_strdup (v->s->data));
        }
    }
  ok = fx_safetensors_save (plain.dict, meta, path, &error);
  fx_value_clear (&plain);
  return written (S, ok, error, result);
}

static int
key_order (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static gboolean
fn_st_load_file (TORCH_ARGS)
{
  static const char *const names[] = { "filename", "device" };
  const FxValue *a[2] = { NULL };
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();
  GError *error = NULL;
  FxDict *d, *sorted;
  const FxValue *k, *v;
  const char *path = NULL;
  if (!parse (S, "load_file", args, n_args, kwargs, names, 2, 2, 1, a)
      || !file_name_arg (S, "load_file: filename", a[0], TRUE, &path))
    return FALSE;
  d = fx_safetensors_load (path, NULL, &error);
  if (d == NULL)
    {
      fx_script_raise_gerror (S, error);
      g_error_free (error);
      return FALSE;
    }
  for (guint i = 0; fx_dict_entry (d, i, &k, &v); i++)
    g_ptr_array_add (keys, k->s->data);
  g_ptr_array_sort (keys, key_order);
  sorted = fx_dict_new ();
  for (guint i = 0; i < keys->len; i++)
    {
      FxValue key = fx_value_take_str (fx_str_new (keys->pdata[i]));
      const FxValue *t = fx_dict_get (d, &key);
      fx_dict_set (sorted, key, fx_value_copy (t));
    }
  fx_dict_unref (d);
  *result = fx_value_take_dict (sorted);
  return TRUE;
}

static gboolean
safetensors_module_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  (void) S;
  (void) user_data;
  if (strcmp (fx_script_module_get_name (m), "safetensors.torch") == 0)
    {
      add_fn (m, "save_file", fn_st_save_file, NULL);
      add_fn (m, "load_file", fn_st_load_file, NULL);
    }
  return TRUE;
}

static gboolean
cuda_module_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  add_fn (m, "is_available", fn_false, NULL);
  add_fn (m, "is_initialized", fn_false, NULL);
  add_fn (m, "device_count", fn_zero, NULL);
  add_fn (m, "manual_seed", fn_noop, NULL);
  add_fn (m, "manual_seed_all", fn_noop, NULL);
  add_fn (m, "synchronize", fn_cuda_unavailable, NULL);
  add_fn (m, "current_device", fn_cuda_unavailable, NULL);
  add_fn (m, "empty_cache", fn_noop, NULL);
  return TRUE;
}

static gboolean
backends_module_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  fx_script_module_set_getattr (m, submodule_getattr, (gpointer) g_intern_string ("torch.backends"));
  return TRUE;
}

static gboolean
cudnn_module_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  fx_script_module_set (m, "enabled", fx_value_bool (TRUE));
  fx_script_module_set (m, "benchmark", fx_value_bool (FALSE));
  fx_script_module_set (m, "deterministic", fx_value_bool (FALSE));
  fx_script_module_set (m, "allow_tf32", fx_value_bool (TRUE));
  add_fn (m, "is_available", fn_false, NULL);
  return TRUE;
}

/* ------------------------------------------------------------------ torch.jit, torch.utils */

/* Model code guards TorchScript-only paths with these; under fx nothing is ever scripted. */
static gboolean
jit_identity (TORCH_ARGS)
{
  if (n_args != 1 || (kwargs && fx_dict_len (kwargs)))
    return fx_script_raise (S, "TypeError", "%s() takes exactly one argument (%d given)",
                            (const char *) data, n_args);
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

/* torch.jit.ignore(fn) / torch.jit.ignore(drop=True)(fn) */
static gboolean
jit_ignore (TORCH_ARGS)
{
  if (n_args == 1)
    {
      *result = fx_value_copy (&args[0]);
      return TRUE;
    }
  *result = fx_script_function_new ("torch.jit", "decorator", jit_identity, (gpointer) "decorator", NULL);
  return TRUE;
}

static gboolean
jit_annotate (TORCH_ARGS)
{
  static const char *const names[] = { "the_type", "the_value" };
  const FxValue *a[2];
  if (!parse (S, "annotate", args, n_args, kwargs, names, 2, 2, 2, a))
    return FALSE;
  *result = fx_value_copy (a[1]);
  return TRUE;
}

static gboolean
jit_unsupported (TORCH_ARGS)
{
  return fx_script_raise (S, "NotImplementedError",
                          "torch.jit.%s() is not supported: fx has no TorchScript (torch.fx.symbolic_trace traces modules)",
                          (const char *) data);
}

static gboolean
jit_module_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  add_fn (m, "is_scripting", fn_false, NULL);
  add_fn (m, "is_tracing", fn_false, NULL);
  add_fn (m, "unused", jit_identity, (gpointer) "unused");
  add_fn (m, "export", jit_identity, (gpointer) "export");
  add_fn (m, "_overload_method", jit_identity, (gpointer) "_overload_method");
  add_fn (m, "_overload", jit_identity, (gpointer) "_overload");
  add_fn (m, "ignore", jit_ignore, NULL);
  add_fn (m, "annotate", jit_annotate, NULL);
  add_fn (m, "script", jit_unsupported, (gpointer) "script");
  add_fn (m, "trace", jit_unsupported, (gpointer) "trace");
  return TRUE;
}

/* torch.utils.checkpoint.checkpoint(function, *args, **kwargs): without autograd, a call */
static gboolean
checkpoint_call (TORCH_ARGS)
{
  FxDict *kw = NULL;
  gboolean ok;
  if (n_args < 1)
    return fx_script_raise (S, "TypeError", "checkpoint() missing 1 required positional argument: 'function'");
  if (kwargs && fx_dict_len (kwargs))
    {
      const FxValue *k, *v;
      kw = fx_dict_new ();
      for (guint i = 0; fx_dict_entry (kwargs, i, &k, &v); i++)
        if (k->kind != FX_VALUE_STR
            || (!g_str_equal (k->s->data, "use_reentrant") && !g_str_equal (k->s->data, "preserve_rng_state")))
          fx_dict_set (kw, fx_value_copy (k), fx_value_copy (v));
    }
  ok = fx_script_call (S, &args[0], args + 1, n_args - 1, kw, result);
  if (kw)
    fx_dict_unref (kw);
  return ok;
}

static gboolean
utils_module_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  fx_script_module_set_getattr (m, submodule_getattr, (gpointer) g_intern_string ("torch.utils"));
  return TRUE;
}

static gboolean
checkpoint_module_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  add_fn (m, "checkpoint", checkpoint_call, NULL);
  return TRUE;
}

/* torch.equal(a, b): same shape and elements */
static gboolean
fn_equal (TORCH_ARGS)
{
  static const char *const names[] = { "input", "other" };
  const FxValue *a[2];
  FxTensor *x, *y;
  FxValue eq, all, pair[2];
  gboolean ok, truth = FALSE;
  if (!parse (S, "equal", args, n_args, kwargs, names, 2, 2, 2, a))
    return FALSE;
  if (!sc_torch_unwrap_tensor (S, a[0], &x) || !sc_torch_unwrap_tensor (S, a[1], &y))
    return fx_script_raise (S, "TypeError", "equal(): argument '%s' must be Tensor, not %s",
                            sc_torch_is_tensor (S, a[0]) ? "other" : "input",
                            sc_type_name (S, sc_torch_is_tensor (S, a[0]) ? a[1] : a[0]));
  if (!fx_tensor_same_shape (x, y))
    {
      *result = fx_value_bool (FALSE);
      return TRUE;
    }
  pair[0] = *a[0];
  pair[1] = *a[1];
  if (!sc_torch_call_op (S, fx_op_lookup ("torch.eq"), pair, 2, NULL, &eq))
    return FALSE;
  ok = sc_torch_call_op (S, fx_op_lookup ("torch.all"), &eq, 1, NULL, &all);
  fx_value_clear (&eq);
  if (ok)
    ok = sc_truth (S, &all, &truth);
  fx_value_clear (&all);
  if (ok)
    *result = fx_value_bool (truth);
  return ok;
}

/* torch.autograd: the grad modes and Variable (which has been the identity since 0.4) */
static gboolean
autograd_variable (TORCH_ARGS)
{
  static const char *const names[] = { "data", "requires_grad" };
  const FxValue *a[2];
  FxTensor *t;
  gboolean flag = FALSE;
  if (!parse (S, "Variable", args, n_args, kwargs, names, 2, 2, 1, a))
    return FALSE;
  if (!sc_torch_unwrap_tensor (S, a[0], &t))
    return fx_script_raise (S, "TypeError", "Variable data has to be a tensor, but got %s",
                            sc_type_name (S, a[0]));
  if (a[1] && !fx_script_to_bool (S, a[1], &flag))
    return FALSE;
  if (flag)
    t->requires_grad = TRUE;
  *result = fx_value_copy (a[0]);
  return TRUE;
}

static gboolean
autograd_module_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  TorchState *st = torch_state (S);
  if (st)
    for (int k = 0; k < 4; k++)
      set_class (m, grad_mode_names[k], st->grad_mode_cls[k]);
  if (user_data == NULL)
    {
      add_fn (m, "Variable", autograd_variable, NULL);
      fx_script_module_set_getattr (m, submodule_getattr, (gpointer) g_intern_string ("torch.autograd"));
    }
  return TRUE;
}

/* ------------------------------------------------------------------ torch.return_types */

static gboolean
structseq_field (TORCH_ARGS)
{
  int i = GPOINTER_TO_INT (data);
  if (n_args < 1 || args[0].kind != FX_VALUE_TUPLE || (guint) i >= args[0].seq->len)
    return fx_script_raise (S, "TypeError", "descriptor needs a torch.return_types object");
  *result = fx_value_copy (&args[0].seq->items[i]);
  return TRUE;
}

/* The named tuples ops return (torch.return_types.max, ...). Their FxTupleTypes are private
 * to the op groups, so each is found by calling its op once on a tiny tensor. */
static void
return_types_init (FxScript *S)
{
  static const struct { const char *path; int n_args; } probes[] = {
    { "torch.max", 2 }, { "torch.min", 2 }, { "torch.sort", 1 }, { "torch.topk", 2 },
    { "torch.aminmax", 1 },
  };
  int64_t two = 2;
  FxTensor *t = fx_tensor_zeros (FX_DTYPE_FLOAT32, 1, &two);
  FxValue args[2] = { fx_value_take_tensor (t), fx_value_int (1) };
  for (guint i = 0; i < G_N_ELEMENTS (probes); i++)
    {
      const FxOp *op = fx_op_lookup (probes[i].path);
      FxValue r = fx_value_none ();
      GError *error = NULL;
      const FxTupleType *type;
      if (probes[i].n_args == 2)
        args[1] = fx_value_int (g_str_equal (probes[i].path, "torch.topk") ? 1 : 0);
      if (op == NULL || !fx_op_call (op, args, probes[i].n_args, NULL, &r, &error))
        {
          g_clear_error (&error);
          continue;
        }
      type = r.kind == FX_VALUE_TUPLE ? r.seq->type : NULL;
      if (type && type->name && g_str_has_prefix (type->name, "torch.return_types.")
          && !g_hash_table_contains (S->tuple_classes, type))
        {
          FxScriptClassInfo info = { .module = "torch.return_types",
                                     .name = type->name + strlen ("torch.return_types.") };
          FxScriptClass *cls = fx_script_class_new (S, &info, S->types[SC_T_TUPLE]);
          if (cls)
            {
              for (int f = 0; f < type->n_fields; f++)
                fx_script_class_add_property (cls, type->fields[f], structseq_field, NULL,
                                              GINT_TO_POINTER (f));
              cls->tuple_type = type;
              fx_script_register_tuple_type (S, type, cls);
            }
        }
      fx_value_clear (&r);
    }
  fx_value_clear (&args[0]);
}

static gboolean
return_types_module_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, S->tuple_classes);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      const FxTupleType *type = k;
      if (type->name && g_str_has_prefix (type->name, "torch.return_types."))
        set_class (m, type->name + strlen ("torch.return_types."), v);
    }
  return TRUE;
}

/* ------------------------------------------------------------------ init */

static FxScriptClass *
kind_class (FxScript *S, const char *name, FxValueKind kind, FxScriptFunc construct)
{
  FxScriptClassInfo info = { .module = "torch", .name = name };
  FxScriptClass *cls = fx_script_class_new (S, &info, NULL);
  cls->construct = construct;
  fx_script_set_kind_class (S, kind, cls);
  return cls;
}

void
sc_torch_init (FxScript *S)
{
  TorchState *st = g_new0 (TorchState, 1);
  FxScriptClass *cls;

  st->grad_enabled = TRUE;
  st->outer_grad_mode = fx_grad_mode_enabled ();   /* given back when the script ends */
  grad_mode_sync (st);
  G_LOCK (torch_states);
  if (torch_states == NULL)
    torch_states = g_hash_table_new (NULL, NULL);
  g_hash_table_insert (torch_states, S, st);
  G_UNLOCK (torch_states);

  fx_ops_init ();
  torch_tensor_class_init (S, st);

  cls = st->dtype_cls = kind_class (S, "dtype", FX_VALUE_DTYPE, dtype_construct);
  fx_script_class_add_method (cls, "__repr__", dtype_repr, st);
  fx_script_class_add_property (cls, "is_floating_point", dtype_is_floating_point, NULL, st);
  fx_script_class_add_property (cls, "is_signed", dtype_is_signed, NULL, st);
  fx_script_class_add_property (cls, "is_complex", dtype_false, NULL, st);
  fx_script_class_add_method (cls, "__eq__", value_eq, GINT_TO_POINTER (FALSE));
  fx_script_class_add_method (cls, "__ne__", value_eq, GINT_TO_POINTER (TRUE));
  fx_script_class_add_method (cls, "__hash__", value_hash, NULL);

  cls = st->device_cls = kind_class (S, "device", FX_VALUE_DEVICE, device_construct);
  fx_script_class_add_method (cls, "__repr__", device_repr, st);
  fx_script_class_add_method (cls, "__str__", device_str, st);
  fx_script_class_add_property (cls, "type", device_type, NULL, st);
  fx_script_class_add_property (cls, "index", device_index, NULL, st);
  fx_script_class_add_method (cls, "__eq__", value_eq, GINT_TO_POINTER (FALSE));
  fx_script_class_add_method (cls, "__ne__", value_eq, GINT_TO_POINTER (TRUE));
  fx_script_class_add_method (cls, "__hash__", value_hash, NULL);

  {
    FxScriptClassInfo info = { .module = "torch", .name = "Size" };
    cls = st->size_cls = fx_script_class_new (S, &info, fx_script_builtin_class (S, "tuple"));
    cls->construct = size_construct;
    fx_script_class_add_method (cls, "__repr__", size_repr, st);
    fx_script_class_add_method (cls, "__getitem__", size_getitem, st);
    fx_script_class_add_method (cls, "__add__", size_add, st);
    fx_script_class_add_method (cls, "__eq__", size_eq, GINT_TO_POINTER (FALSE));
    fx_script_class_add_method (cls, "__ne__", size_eq, GINT_TO_POINTER (TRUE));
    fx_script_class_add_method (cls, "numel", size_numel, st);
    fx_script_register_tuple_type (S, &fx_tuple_type_size, cls);
  }

  {
    FxScriptClassInfo info = { .module = "torch._C", .name = "Generator" };
    cls = st->generator_cls = fx_script_class_new (S, &info, NULL);
    cls->construct = generator_construct;
    fx_script_class_add_method (cls, "manual_seed", generator_manual_seed, st);
    fx_script_class_add_method (cls, "initial_seed", generator_initial_seed, st);
    fx_script_class_add_method (cls, "seed", generator_seed, st);
    fx_script_class_add_property (cls, "device", generator_device, NULL, st);
    fx_script_register_object_class (S, &fx_generator_class, cls);
  }

  for (int k = 0; k < 4; k++)
    st->grad_mode_cls[k] = grad_mode_class (S, k);
  return_types_init (S);

  fx_script_register_module (S, "torch", torch_module_init, st, torch_state_free);
  fx_script_register_module (S, "torch.nn.functional", functional_module_init, NULL, NULL);
  fx_script_register_module (S, "torch.random", op_module_init,
                             (gpointer) g_intern_string ("torch.random"), NULL);
  fx_script_register_module (S, "torch.functional", op_module_init,
                             (gpointer) g_intern_string ("torch.functional"), NULL);
  fx_script_register_module (S, "torch._C", op_module_init, (gpointer) g_intern_string ("torch._C"), NULL);
  fx_script_register_module (S, "torch._C._nn", op_module_init,
                             (gpointer) g_intern_string ("torch._C._nn"), NULL);
  fx_script_register_module (S, "torch.cuda", cuda_module_init, NULL, NULL);
  fx_script_register_module (S, "safetensors", safetensors_module_init, NULL, NULL);
  fx_script_register_module (S, "safetensors.torch", safetensors_module_init, NULL, NULL);
  fx_script_register_module (S, "torch.backends", backends_module_init, NULL, NULL);
  fx_script_register_module (S, "torch.backends.cudnn", cudnn_module_init, NULL, NULL);
  fx_script_register_module (S, "torch.jit", jit_module_init, NULL, NULL);
  fx_script_register_module (S, "torch.return_types", return_types_module_init, NULL, NULL);
  fx_script_register_module (S, "torch.autograd", autograd_module_init, NULL, NULL);
  fx_script_register_module (S, "torch.autograd.grad_mode", autograd_module_init, GINT_TO_POINTER (1), NULL);
  fx_script_register_module (S, "torch.utils", utils_module_init, NULL, NULL);
  fx_script_register_module (S, "torch.utils.checkpoint", checkpoint_module_init, NULL, NULL);
}
