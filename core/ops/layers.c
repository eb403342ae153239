/* layers.c: the builtin torch.nn layers — constructor checks and attributes as PyTorch 1.13
 * sets them, parameters drawn in its order from the default generator, extra_repr and forward
 * (through the op registry, so that errors read like PyTorch's functional calls).
 *
 * Constructors bind with CPython's rules: __init__ converts nothing, so every argument is kept
 * as given (Dropout(1) prints p=1) and each layer checks what PyTorch's code checks. */
#include "ops/layers.h"
#include "ops/op-table.h"
#include "tensor/random.h"
#include "fx-error.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------
 * Small helpers
 * ------------------------------------------------------------------------------------------ */

static const FxValue none_value = { .kind = FX_VALUE_NONE };

/* value.h declares no autoptr cleanups for these (adding them here could clash later). */
static void
dict_cleanup (FxDict **d)
{
  if (*d)
    fx_dict_unref (*d);
}

static void
seq_cleanup (FxSeq **s)
{
  if (*s)
    fx_seq_unref (*s);
}

#define AUTO_DICT __attribute__ ((cleanup (dict_cleanup)))
#define AUTO_SEQ __attribute__ ((cleanup (seq_cleanup)))

/* type(v).__name__ as Python prints it. */
static const char *
py_type_name (const FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_NONE: return "NoneType";
    case FX_VALUE_TUPLE:
      return v->seq->type == &fx_tuple_type_size ? "Size" : "tuple";
    case FX_VALUE_DTYPE: return "dtype";
    case FX_VALUE_DEVICE: return "device";
    case FX_VALUE_TENSOR: return "Tensor";
    case FX_VALUE_OP: return "builtin_function_or_method";
    case FX_VALUE_OBJECT:
      if (fx_value_is_module (v))
        return fx_value_get_module (v)->type_name;
      return v->obj->klass->name;
    default:
      return fx_value_kind_name (v->kind);
    }
}

/* bool(v) */
static gboolean
py_truth (const FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_NONE: return FALSE;
    case FX_VALUE_BOOL: return v->b;
    case FX_VALUE_INT: return v->i != 0;
    case FX_VALUE_FLOAT: return v->f != 0.0;
    case FX_VALUE_STR: return v->s->len > 0;
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST: return v->seq->len > 0;
    case FX_VALUE_DICT: return fx_dict_len (v->dict) > 0;
    case FX_VALUE_TENSOR:
      return fx_tensor_numel (v->tensor) == 1 && fx_tensor_get_double (v->tensor, 0) != 0.0;
    default: return TRUE;
    }
}

/* str(v): strings bare, everything else as repr. */
static void
py_str (const FxValue *v, GString *out)
{
  if (v->kind == FX_VALUE_STR)
    g_string_append (out, v->s->data);
  else
    fx_value_repr (v, out);
}

/* An int (Python bools are ints). */
static gboolean
as_int (const FxValue *v, int64_t *out)
{
  if (v->kind == FX_VALUE_INT)
    *out = v->i;
  else if (v->kind == FX_VALUE_BOOL)
    *out = v->b;
  else
    return FALSE;
  return TRUE;
}

static gboolean
as_number (const FxValue *v, double *out)
{
  if (v->kind == FX_VALUE_FLOAT)
    *out = v->f;
  else if (v->kind == FX_VALUE_INT)
    *out = (double) v->i;
  else if (v->kind == FX_VALUE_BOOL)
    *out = v->b;
  else
    return FALSE;
  return TRUE;
}

static gboolean
is_seq (const FxValue *v)
{
  return v->kind == FX_VALUE_TUPLE || v->kind == FX_VALUE_LIST;
}

static gboolean
fail (GError **error, FxErrorCode code, const char *fmt, ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (GError **error, FxErrorCode code, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error_literal (error, FX_ERROR, code, msg);
  g_free (msg);
  return FALSE;
}

/* ---- attributes (self.x) ---- */

static const FxValue *
lookup_in (const FxDict *dict, const char *name)
{
  FxValue key = fx_value_str (name);
  const FxValue *v = fx_dict_get (dict, &key);
  fx_value_clear (&key);
  return v;
}

/* self.name: an attribute, a parameter or a buffer; None when missing. Borrowed. */
static const FxValue *
attr (const FxModule *m, const char *name)
{
  const FxValue *v = lookup_in (m->attributes, name);
  if (v == NULL)
    v = lookup_in (m->parameters, name);
  if (v == NULL)
    v = lookup_in (m->buffers, name);
  return v ? v : &none_value;
}

static FxTensor *
attr_tensor (const FxModule *m, const char *name)
{
  const FxValue *v = attr (m, name);
  return v->kind == FX_VALUE_TENSOR ? v->tensor : NULL;
}

/* self.name = v (takes v). */
static void
set_attr (FxModule *m, const char *name, FxValue v)
{
  fx_module_set_attribute (m, name, &v);
  fx_value_clear (&v);
}

static void
copy_attr (FxModule *m, const char *name, const FxValue *v)
{
  fx_module_set_attribute (m, name, v);
}

/* extra_repr text "name=value, name=value" of the attributes named in the NULL-ended list;
 * a name starting with '@' is printed as a bare value ("3, eps=1e-05"), one starting with '?'
 * as "name=True" only when the attribute is true (", inplace=True"). */
static char *
attrs_repr (const FxModule *m, const char *first, ...)
{
  GString *s = g_string_new (NULL);
  va_list ap;
  va_start (ap, first);
  for (const char *name = first; name != NULL; name = va_arg (ap, const char *))
    {
      if (s->len > 0)
        g_string_append (s, ", ");
      if (name[0] == '?')
        {
          if (py_truth (attr (m, name + 1)))
            g_string_append_printf (s, "%s=True", name + 1);
          else if (s->len > 0)
            g_string_truncate (s, s->len - 2);
          continue;
        }
      if (name[0] == '@')
        name++;
      else
        g_string_append_printf (s, "%s=", name);
      py_str (attr (m, name), s);
    }
  va_end (ap);
  return g_string_free (s, FALSE);
}

/* Stores argv[0], argv[1], ... as the attributes named in the NULL-ended list. */
static void
copy_attrs (FxModule *m, const FxValue *argv, const char *first, ...)
{
  va_list ap;
  va_start (ap, first);
  for (const char *name = first; name != NULL; name = va_arg (ap, const char *))
    copy_attr (m, name, argv++);
  va_end (ap);
}

/* collections' _ntuple(n): an iterable becomes a tuple, anything else n copies of itself. */
static FxValue
ntuple (const FxValue *v, int n)
{
  FxSeq *seq = fx_seq_new (0);
  if (is_seq (v))
    for (guint i = 0; i < v->seq->len; i++)
      fx_seq_append (seq, fx_value_copy (&v->seq->items[i]));
  else if (v->kind == FX_VALUE_STR)
    for (gsize i = 0; i < v->s->len; i++)
      fx_seq_append (seq, fx_value_take_str (fx_str_new_len (v->s->data + i, 1)));
  else
    for (int i = 0; i < n; i++)
      fx_seq_append (seq, fx_value_copy (v));
  return fx_value_take_tuple (seq);
}

/* v is a tuple whose items all equal x (Python's `v == (x,) * len(v)`). */
static gboolean
tuple_all (const FxValue *v, int64_t x)
{
  if (v->kind != FX_VALUE_TUPLE)
    return FALSE;
  FxValue xv = fx_value_int (x);
  for (guint i = 0; i < v->seq->len; i++)
    if (!fx_value_equal (&v->seq->items[i], &xv))
      return FALSE;
  return TRUE;
}

/* Ints of a tuple/list attribute (or one int for every slot). */
static int
int_items (const FxValue *v, int64_t *out, int max)
{
  int64_t x;
  if (as_int (v, &x))
    {
      for (int i = 0; i < max; i++)
        out[i] = x;
      return max;
    }
  if (!is_seq (v))
    return -1;
  for (guint i = 0; i < v->seq->len; i++)
    {
      if (!as_int (&v->seq->items[i], &x))
        return -1;
      if ((int) i < max)
        out[i] = x;
    }
  return (int) v->seq->len;
}

/* ---- calling the op registry ---- */

/* path may list alternatives, "a|b": the first one registered. */
static const FxOp *
find_op (const char *path)
{
  fx_ops_init ();
  while (path != NULL && *path)
    {
      const char *bar = strchr (path, '|');
      g_autofree char *one = bar ? g_strndup (path, bar - path) : g_strdup (path);
      const FxOp *op = g_str_has_prefix (one, "Tensor.") ? fx_op_lookup_method (one + 7)
                                                         : fx_op_lookup (one);
      if (op != NULL)
        return op;
      path = bar ? bar + 1 : NULL;
    }
  return NULL;
}

static gboolean
call_op (const char *path, const FxValue *args, int n_args, const FxDict *kwargs,
         FxValue *result, GError **error)
{
  const FxOp *op = find_op (path);
  *result = fx_value_none ();
  if (op == NULL)
    {
      const char *bar = strchr (path, '|');
      g_autofree char *first = bar ? g_strndup (path, bar - path) : g_strdup (path);
      return fail (error, FX_ERROR_NOT_IMPLEMENTED, "%s is not available in libfx yet", first);
    }
  return fx_op_call (op, args, n_args, kwargs, result, error);
}

/* kwargs[name] = v (takes v) */
static void
kw_set (FxDict *kw, const char *name, FxValue v)
{
  fx_dict_set (kw, fx_value_str (name), v);
}

/* "'int' object has no attribute 'dim'" for forwards that call a Tensor method first. */
static gboolean
need_tensor (const FxValue *input, const char *method, GError **error)
{
  if (input->kind == FX_VALUE_TENSOR)
    return TRUE;
  return fail (error, FX_ERROR_ATTRIBUTE, "'%s' object has no attribute '%s'",
               py_type_name (input), method);
}

/* ------------------------------------------------------------------------------------------
 * Parameters: torch.empty(size, dtype=..., device=...) and the init functions
 * ------------------------------------------------------------------------------------------ */

typedef struct {
  FxDType dtype;
  const FxValue *device;    /* as given, for messages */
  const FxValue *dtype_v;
} Factory;

static gboolean
factory_init (Factory *f, const FxValue *device, const FxValue *dtype, GError **error)
{
  f->device = device;
  f->dtype_v = dtype;
  f->dtype = FX_DTYPE_DEFAULT_FLOAT;
  if (dtype->kind == FX_VALUE_DTYPE)
    f->dtype = dtype->dtype;
  else if (dtype->kind != FX_VALUE_NONE)
    return fail (error, FX_ERROR_DTYPE,
                 "empty() received an invalid combination of arguments - got (tuple, "
                 "dtype=%s, device=%s), but expected one of:", py_type_name (dtype),
                 py_type_name (device));
  const char *dev = device->kind == FX_VALUE_STR || device->kind == FX_VALUE_DEVICE
                    ? device->s->data : NULL;
  if (device->kind != FX_VALUE_NONE && dev == NULL)
    return fail (error, FX_ERROR_DTYPE,
                 "empty() received an invalid combination of arguments - got (tuple, "
                 "dtype=%s, device=%s), but expected one of:", py_type_name (dtype),
                 py_type_name (device));
  if (dev != NULL && !g_str_equal (dev, "cpu") && !g_str_has_prefix (dev, "cpu:"))
    return fail (error, FX_ERROR_NOT_IMPLEMENTED,
                 "libfx runs on the CPU only; device '%s' is not supported", dev);
  return TRUE;
}

/* torch.empty(sizes): sizes are the Python values of the size tuple (ints computed by the
 * layer, or the caller's own values), checked with torch.empty's messages. */
static FxTensor *
new_empty (const Factory *f, int n, const FxValue *sizes, GError **error)
{
  int64_t shape[FX_TENSOR_MAX_DIMS] = { 0 };
  if (n > FX_TENSOR_MAX_DIMS)
    {
      fail (error, FX_ERROR_FAILED, "libfx tensors have at most %d dimensions, not %d",
            FX_TENSOR_MAX_DIMS, n);
      return NULL;
    }
  for (int i = 0; i < n; i++)
    if (!as_int (&sizes[i], &shape[i]))
      {
        if (sizes[i].kind == FX_VALUE_FLOAT)
          fail (error, FX_ERROR_DTYPE, "empty(): argument 'size' must be tuple of SymInts, but "
                "found element of type float at pos %d", i + 1);
        else
          fail (error, FX_ERROR_DTYPE,
                "empty() received an invalid combination of arguments - got (tuple, dtype=%s, "
                "device=%s), but expected one of:",
                py_type_name (f->dtype_v ? f->dtype_v : &none_value),
                py_type_name (f->device ? f->device : &none_value));
        return NULL;
      }
  for (int i = 0; i < n; i++)
    if (shape[i] < 0)
      {
        GString *s = g_string_new (NULL);
        for (int j = 0; j < n; j++)
          g_string_append_printf (s, "%s%" G_GINT64_FORMAT, j ? ", " : "", shape[j]);
        fail (error, FX_ERROR_FAILED, "Trying to create tensor with negative dimension %"
              G_GINT64_FORMAT ": [%s]", shape[i], s->str);
        g_string_free (s, TRUE);
        return NULL;
      }
  FxTensor *t = fx_tensor_zeros (f->dtype, n, shape);
  if (t == NULL)
    {
      /* the size overflows, or the allocation failed */
      double bytes = (double) fx_dtype_size (f->dtype);
      for (int i = 0; i < n; i++)
        bytes *= (double) shape[i];
      fail (error, FX_ERROR_FAILED, "DefaultCPUAllocator: can't allocate memory: you tried to "
            "allocate %.0f bytes.", bytes);
    }
  return t;
}

/* Registers a parameter made by new_empty (takes t; NULL registers None). */
static void
add_param (FxModule *m, const char *name, FxTensor *t)
{
  fx_module_register_parameter (m, name, t);
  if (t)
    fx_tensor_unref (t);
}

static void
add_buffer (FxModule *m, const char *name, FxTensor *t)
{
  fx_module_register_buffer (m, name, t, TRUE);
  if (t)
    fx_tensor_unref (t);
}

/* Linear's and Conv's default: kaiming_uniform_(weight, a=sqrt(5)), then the bias uniform in
 * ±1/sqrt(fan_in). Linear draws the bias even for fan_in 0 (bound 0); Conv skips it then. */
static gboolean
reset_kaiming (FxModule *m, gboolean draw_zero_fan, GError **error)
{
  FxTensor *w = attr_tensor (m, "weight"), *b = attr_tensor (m, "bias");
  int64_t fan_in, fan_out;
  if (w == NULL)
    return TRUE;
  if (!fx_init_kaiming_uniform_ (w, sqrt (5.0), "fan_in", "leaky_relu", NULL, error))
    return FALSE;
  if (b == NULL)
    return TRUE;
  if (!fx_init_fan_in_and_out (w, &fan_in, &fan_out, error))
    return FALSE;
  if (fan_in == 0 && !draw_zero_fan)
    return TRUE;
  double bound = fan_in > 0 ? 1.0 / sqrt ((double) fan_in) : 0.0;
  return fx_init_uniform_ (b, -bound, bound, NULL, error);
}

/* ------------------------------------------------------------------------------------------
 * Linear, Bilinear, Identity
 * ------------------------------------------------------------------------------------------ */

static gboolean
linear_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  Factory f;
  (void) n_argv;
  if (!factory_init (&f, &argv[3], &argv[4], error))
    return FALSE;
  copy_attrs (m, &argv[0], "in_features", "out_features", NULL);
  FxValue wsize[2] = { argv[1], argv[0] };
  FxTensor *w = new_empty (&f, 2, wsize, error);
  if (w == NULL)
    return FALSE;
  add_param (m, "weight", w);
  if (py_truth (&argv[2]))
    {
      FxTensor *b = new_empty (&f, 1, &argv[1], error);
      if (b == NULL)
        return FALSE;
      add_param (m, "bias", b);
    }
  else
    add_param (m, "bias", NULL);
  return reset_kaiming (m, TRUE, error);
}

static char *
linear_repr (const FxModule *m)
{
  GString *s = g_string_new ("in_features=");
  py_str (attr (m, "in_features"), s);
  g_string_append (s, ", out_features=");
  py_str (attr (m, "out_features"), s);
  g_string_append_printf (s, ", bias=%s", attr_tensor (m, "bias") ? "True" : "False");
  return g_string_free (s, FALSE);
}

static gboolean
linear_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[3] = { argv[0], *attr (m, "weight"), *attr (m, "bias") };
  return call_op ("torch._C._nn.linear", args, 3, NULL, result, error);
}

static gboolean
bilinear_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  Factory f;
  (void) n_argv;
  if (!factory_init (&f, &argv[4], &argv[5], error))
    return FALSE;
  copy_attrs (m, &argv[0], "in1_features", "in2_features", "out_features", NULL);
  FxValue wsize[3] = { argv[2], argv[0], argv[1] };
  FxTensor *w = new_empty (&f, 3, wsize, error);
  if (w == NULL)
    return FALSE;
  add_param (m, "weight", w);
  if (py_truth (&argv[3]))
    {
      FxTensor *b = new_empty (&f, 1, &argv[2], error);
      if (b == NULL)
        return FALSE;
      add_param (m, "bias", b);
    }
  else
    add_param (m, "bias", NULL);

  FxTensor *weight = attr_tensor (m, "weight"), *bias = attr_tensor (m, "bias");
  if (weight->shape[1] == 0)
    return fail (error, FX_ERROR_ZERO_DIVISION, "float division by zero");
  double bound = 1.0 / sqrt ((double) weight->shape[1]);
  if (!fx_init_uniform_ (weight, -bound, bound, NULL, error))
    return FALSE;
  return bias == NULL || fx_init_uniform_ (bias, -bound, bound, NULL, error);
}

static char *
bilinear_repr (const FxModule *m)
{
  GString *s = g_string_new ("in1_features=");
  py_str (attr (m, "in1_features"), s);
  g_string_append (s, ", in2_features=");
  py_str (attr (m, "in2_features"), s);
  g_string_append (s, ", out_features=");
  py_str (attr (m, "out_features"), s);
  g_string_append_printf (s, ", bias=%s", attr_tensor (m, "bias") ? "True" : "False");
  return g_string_free (s, FALSE);
}

static gboolean
bilinear_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[4] = { argv[0], argv[1], *attr (m, "weight"), *attr (m, "bias") };
  return call_op ("torch.bilinear", args, 4, NULL, result, error);
}

static gboolean
noop_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) m;
  (void) argv;
  (void) n_argv;
  (void) error;
  return TRUE;
}

static gboolean
identity_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  (void) m;
  (void) error;
  *result = fx_value_copy (&argv[0]);
  return TRUE;
}

/* ------------------------------------------------------------------------------------------
 * Flatten, Unflatten
 * ------------------------------------------------------------------------------------------ */

static gboolean
flatten_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  (void) error;
  copy_attrs (m, &argv[0], "start_dim", "end_dim", NULL);
  return TRUE;
}

static char *
flatten_repr (const FxModule *m)
{
  return attrs_repr (m, "start_dim", "end_dim", NULL);
}

static gboolean
flatten_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  if (!need_tensor (&argv[0], "flatten", error))
    return FALSE;
  FxValue args[3] = { argv[0], *attr (m, "start_dim"), *attr (m, "end_dim") };
  return call_op ("Tensor.flatten", args, 3, NULL, result, error);
}

static gboolean
unflatten_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  const FxValue *dim = &argv[0], *sizes = &argv[1];
  (void) n_argv;
  copy_attr (m, "dim", dim);
  if (dim->kind == FX_VALUE_INT || dim->kind == FX_VALUE_BOOL)
    {
      if (!is_seq (sizes))
        return fail (error, FX_ERROR_DTYPE,
                     "unflattened_size must be a tuple of ints, but found type %s",
                     py_type_name (sizes));
      for (guint i = 0; i < sizes->seq->len; i++)
        {
          const FxValue *e = &sizes->seq->items[i];
          if (e->kind != FX_VALUE_INT && e->kind != FX_VALUE_BOOL)
            return fail (error, FX_ERROR_DTYPE, "unflattened_size must be tuple of ints, but "
                         "found element of type %s at pos %u", py_type_name (e), i);
        }
    }
  else if (dim->kind == FX_VALUE_STR)
    return fail (error, FX_ERROR_NOT_IMPLEMENTED,
                 "named tensors are not supported: Unflatten needs an int dim");
  else
    return fail (error, FX_ERROR_DTYPE, "invalid argument type for dim parameter");
  copy_attr (m, "unflattened_size", sizes);
  return TRUE;
}

static char *
unflatten_repr (const FxModule *m)
{
  return attrs_repr (m, "dim", "unflattened_size", NULL);
}

static gboolean
unflatten_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  if (!need_tensor (&argv[0], "unflatten", error))
    return FALSE;
  FxValue args[3] = { argv[0], *attr (m, "dim"), *attr (m, "unflattened_size") };
  return call_op ("Tensor.unflatten", args, 3, NULL, result, error);
}

/* ------------------------------------------------------------------------------------------
 * Convolutions
 * ------------------------------------------------------------------------------------------ */

#define MAX_SPATIAL 8     /* spatial dims a conv layer's tuples may have */

/* _ConvNd.__init__ after the subclass made its tuples: argv holds in_channels, out_channels,
 * then the processed kernel_size, stride, padding, dilation, output_padding (tuples, padding
 * possibly a str), groups, bias, padding_mode, device, dtype. */
static gboolean
conv_setup (FxModule *m, int nd, gboolean transposed, const FxValue *in_ch, const FxValue *out_ch,
            FxValue kernel, FxValue stride, FxValue padding, FxValue dilation,
            FxValue output_padding, const FxValue *groups, const FxValue *bias,
            const FxValue *padding_mode, const FxValue *device, const FxValue *dtype,
            GError **error)
{
  gboolean ok = FALSE;
  Factory f;
  int64_t g = 1, in_c = 0, out_c = 0;
  gboolean have_g = as_int (groups, &g);
  gboolean have_in = as_int (in_ch, &in_c), have_out = as_int (out_ch, &out_c);

  if (have_g && g <= 0)
    {
      fail (error, FX_ERROR_INVALID_ARGUMENT, "groups must be a positive integer");
      goto out;
    }
  if (have_g && have_in && in_c % g != 0)
    {
      fail (error, FX_ERROR_INVALID_ARGUMENT, "in_channels must be divisible by groups");
      goto out;
    }
  if (have_g && have_out && out_c % g != 0)
    {
      fail (error, FX_ERROR_INVALID_ARGUMENT, "out_channels must be divisible by groups");
      goto out;
    }
  if (padding.kind == FX_VALUE_STR)
    {
      const char *p = padding.s->data;
      if (!g_str_equal (p, "same") && !g_str_equal (p, "valid"))
        {
          /* the set's order is the one CPython prints with PYTHONHASHSEED=0 */
          fail (error, FX_ERROR_INVALID_ARGUMENT,
                "Invalid padding string '%s', should be one of {'same', 'valid'}", p);
          goto out;
        }
      if (g_str_equal (p, "same") && !tuple_all (&stride, 1))
        {
          fail (error, FX_ERROR_INVALID_ARGUMENT,
                "padding='same' is not supported for strided convolutions");
          goto out;
        }
    }
  {
    const char *pm = padding_mode->kind == FX_VALUE_STR ? padding_mode->s->data : NULL;
    if (pm == NULL || !(g_str_equal (pm, "zeros") || g_str_equal (pm, "reflect")
                        || g_str_equal (pm, "replicate") || g_str_equal (pm, "circular")))
      {
        GString *s = g_string_new (NULL);
        py_str (padding_mode, s);
        fail (error, FX_ERROR_INVALID_ARGUMENT,
              "padding_mode must be one of {'replicate', 'reflect', 'zeros', 'circular'}, "
              "but got padding_mode='%s'", s->str);
        g_string_free (s, TRUE);
        goto out;
      }
  }
  if (!factory_init (&f, device, dtype, error))
    goto out;

  copy_attr (m, "in_channels", in_ch);
  copy_attr (m, "out_channels", out_ch);
  copy_attr (m, "kernel_size", &kernel);
  copy_attr (m, "stride", &stride);
  copy_attr (m, "padding", &padding);
  copy_attr (m, "dilation", &dilation);
  set_attr (m, "transposed", fx_value_bool (transposed));
  copy_attr (m, "output_padding", &output_padding);
  copy_attr (m, "groups", groups);
  copy_attr (m, "padding_mode", padding_mode);

  {
    FxValue sizes[FX_TENSOR_MAX_DIMS];
    int n = 2;
    const FxValue *first = transposed ? in_ch : out_ch;
    const FxValue *second = transposed ? out_ch : in_ch;
    sizes[0] = *first;
    /* `second // groups` */
    int64_t s2;
    if (as_int (second, &s2) && have_g && g != 0)
      sizes[1] = fx_value_int (s2 >= 0 ? s2 / g : -((-s2 + g - 1) / g));
    else
      sizes[1] = *second;
    if (kernel.kind == FX_VALUE_TUPLE && kernel.seq->len + 2 > FX_TENSOR_MAX_DIMS)
      {
        fail (error, FX_ERROR_FAILED, "libfx tensors have at most %d dimensions, not %u",
              FX_TENSOR_MAX_DIMS, kernel.seq->len + 2);
        goto out;
      }
    if (kernel.kind == FX_VALUE_TUPLE)
      for (guint i = 0; i < kernel.seq->len; i++)
        sizes[n++] = kernel.seq->items[i];
    FxTensor *w = new_empty (&f, n, sizes, error);
    if (w == NULL)
      goto out;
    add_param (m, "weight", w);
  }
  if (py_truth (bias))
    {
      FxTensor *b = new_empty (&f, 1, out_ch, error);
      if (b == NULL)
        goto out;
      add_param (m, "bias", b);
    }
  else
    add_param (m, "bias", NULL);
  (void) nd;
  ok = reset_kaiming (m, FALSE, error);

out:
  fx_value_clear (&kernel);
  fx_value_clear (&stride);
  fx_value_clear (&padding);
  fx_value_clear (&dilation);
  fx_value_clear (&output_padding);
  return ok;
}

/* Conv1d/Conv2d(in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
 * bias, padding_mode, device, dtype) */
static gboolean
conv_init_common (FxModule *m, const FxValue *argv, int nd, GError **error)
{
  FxValue zero = fx_value_int (0);
  return conv_setup (m, nd, FALSE, &argv[0], &argv[1], ntuple (&argv[2], nd),
                     ntuple (&argv[3], nd),
                     argv[4].kind == FX_VALUE_STR ? fx_value_copy (&argv[4]) : ntuple (&argv[4], nd),
                     ntuple (&argv[5], nd), ntuple (&zero, nd), &argv[6], &argv[7], &argv[8],
                     &argv[9], &argv[10], error);
}

static gboolean
conv1d_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  return conv_init_common (m, argv, 1, error);
}

static gboolean
conv2d_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  return conv_init_common (m, argv, 2, error);
}

/* ConvTranspose2d(in_channels, out_channels, kernel_size, stride, padding, output_padding,
 * groups, bias, dilation, padding_mode, device, dtype) */
static gboolean
conv_transpose2d_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  const FxValue *pm = &argv[9];
  if (!(pm->kind == FX_VALUE_STR && g_str_equal (pm->s->data, "zeros")))
    return fail (error, FX_ERROR_INVALID_ARGUMENT,
                 "Only \"zeros\" padding mode is supported for %s", m->type_name);
  return conv_setup (m, 2, TRUE, &argv[0], &argv[1], ntuple (&argv[2], 2), ntuple (&argv[3], 2),
                     ntuple (&argv[4], 2), ntuple (&argv[8], 2), ntuple (&argv[5], 2), &argv[6],
                     &argv[7], pm, &argv[10], &argv[11], error);
}

static char *
conv_repr (const FxModule *m)
{
  GString *s = g_string_new (NULL);
  const FxValue *padding = attr (m, "padding"), *dilation = attr (m, "dilation");
  const FxValue *output_padding = attr (m, "output_padding");
  const FxValue *groups = attr (m, "groups"), *pm = attr (m, "padding_mode");
  FxValue one = fx_value_int (1);

  py_str (attr (m, "in_channels"), s);
  g_string_append (s, ", ");
  py_str (attr (m, "out_channels"), s);
  g_string_append (s, ", kernel_size=");
  py_str (attr (m, "kernel_size"), s);
  g_string_append (s, ", stride=");
  py_str (attr (m, "stride"), s);
  if (!tuple_all (padding, 0))
    {
      g_string_append (s, ", padding=");
      py_str (padding, s);
    }
  if (!tuple_all (dilation, 1))
    {
      g_string_append (s, ", dilation=");
      py_str (dilation, s);
    }
  if (!tuple_all (output_padding, 0))
    {
      g_string_append (s, ", output_padding=");
      py_str (output_padding, s);
    }
  if (!fx_value_equal (groups, &one))
    {
      g_string_append (s, ", groups=");
      py_str (groups, s);
    }
  if (attr (m, "bias")->kind == FX_VALUE_NONE)
    g_string_append (s, ", bias=False");
  if (!(pm->kind == FX_VALUE_STR && g_str_equal (pm->s->data, "zeros")))
    {
      g_string_append (s, ", padding_mode=");
      py_str (pm, s);
    }
  return g_string_free (s, FALSE);
}

/* F.convNd / F.conv_transposeNd through the registry. */
static gboolean
conv_call (int nd, gboolean transposed, const FxValue *input, const FxValue *weight,
           const FxValue *bias, const FxValue *stride, const FxValue *padding,
           const FxValue *output_padding, const FxValue *dilation, const FxValue *groups,
           FxValue *result, GError **error)
{
  if (transposed)
    {
      FxValue args[8] = { *input, *weight, *bias, *stride, *padding, *output_padding, *groups,
                          *dilation };
      return call_op (nd == 1 ? "torch.conv_transpose1d" : "torch.conv_transpose2d", args, 8,
                      NULL, result, error);
    }
  FxValue args[7] = { *input, *weight, *bias, *stride, *padding, *dilation, *groups };
  return call_op (nd == 1 ? "torch.conv1d" : "torch.conv2d", args, 7, NULL, result, error);
}

/* Conv1d/Conv2d.forward: non-'zeros' padding modes pad with F.pad first, by
 * _reversed_padding_repeated_twice, then convolve without padding. */
static gboolean
conv_forward_nd (FxModule *m, const FxValue *argv, int nd, FxValue *result, GError **error)
{
  const FxValue *pm = attr (m, "padding_mode"), *padding = attr (m, "padding");
  const FxValue *kernel = attr (m, "kernel_size"), *dilation = attr (m, "dilation");

  if (pm->kind == FX_VALUE_STR && g_str_equal (pm->s->data, "zeros"))
    return conv_call (nd, FALSE, &argv[0], attr (m, "weight"), attr (m, "bias"),
                      attr (m, "stride"), padding, NULL, dilation, attr (m, "groups"), result,
                      error);

  int64_t k[MAX_SPATIAL], d[MAX_SPATIAL], p[MAX_SPATIAL];
  int64_t pad[2 * MAX_SPATIAL];
  int nk = int_items (kernel, k, MAX_SPATIAL);
  if (nk < 1 || nk > MAX_SPATIAL)
    return fail (error, FX_ERROR_DTYPE, "kernel_size must be a tuple of ints");
  if (padding->kind == FX_VALUE_STR)
    {
      gboolean same = g_str_equal (padding->s->data, "same");
      if (int_items (dilation, d, MAX_SPATIAL) < nk)
        return fail (error, FX_ERROR_DTYPE, "dilation must be a tuple of ints");
      for (int i = 0; i < nk; i++)
        {
          int j = nk - 1 - i;       /* padding runs from the last dim backwards */
          int64_t total = same ? d[i] * (k[i] - 1) : 0;
          pad[2 * j] = total / 2;
          pad[2 * j + 1] = total - total / 2;
        }
    }
  else
    {
      int np = int_items (padding, p, MAX_SPATIAL);
      if (np < 1 || np > MAX_SPATIAL)
        return fail (error, FX_ERROR_DTYPE, "padding must be a tuple of ints");
      for (int i = 0; i < np; i++)
        pad[2 * i] = pad[2 * i + 1] = p[np - 1 - i];
      nk = np;
    }
  FxValue pad_v = fx_value_int_tuple (NULL, 2 * nk, pad);
  FxValue padded;
  AUTO_DICT FxDict *kw = fx_dict_new ();
  kw_set (kw, "mode", fx_value_copy (pm));
  FxValue pargs[2] = { argv[0], pad_v };
  gboolean ok = call_op ("torch.nn.functional.pad", pargs, 2, kw, &padded, error);
  fx_value_clear (&pad_v);
  if (!ok)
    return FALSE;
  int64_t zeros[MAX_SPATIAL] = { 0 };
  FxValue zero_pad = fx_value_int_tuple (NULL, nd, zeros);
  ok = conv_call (nd, FALSE, &padded, attr (m, "weight"), attr (m, "bias"), attr (m, "stride"),
                  &zero_pad, NULL, dilation, attr (m, "groups"), result, error);
  fx_value_clear (&zero_pad);
  fx_value_clear (&padded);
  return ok;
}

static gboolean
conv1d_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  return conv_forward_nd (m, argv, 1, result, error);
}

static gboolean
conv2d_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  return conv_forward_nd (m, argv, 2, result, error);
}

static void
append_int_list (GString *s, const int64_t *v, int n)
{
  g_string_append_c (s, '[');
  for (int i = 0; i < n; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", v[i]);
  g_string_append_c (s, ']');
}

/* _ConvTransposeNd._output_padding: the output_padding that makes output_size. */
static gboolean
transposed_output_padding (FxModule *m, const FxTensor *input, const FxValue *output_size,
                           int nd, FxValue *out, GError **error)
{
  if (output_size->kind == FX_VALUE_NONE)
    {
      *out = ntuple (attr (m, "output_padding"), 1);
      return TRUE;
    }
  if (!is_seq (output_size))
    return fail (error, FX_ERROR_DTYPE, "object of type '%s' has no len()",
                 py_type_name (output_size));
  int64_t stride[MAX_SPATIAL], padding[MAX_SPATIAL], kernel[MAX_SPATIAL];
  int64_t dilation[MAX_SPATIAL], size[MAX_SPATIAL];
  int64_t min_sizes[MAX_SPATIAL], max_sizes[MAX_SPATIAL];
  if (int_items (attr (m, "stride"), stride, nd) < nd
      || int_items (attr (m, "padding"), padding, nd) < nd
      || int_items (attr (m, "kernel_size"), kernel, nd) < nd
      || int_items (attr (m, "dilation"), dilation, nd) < nd)
    return fail (error, FX_ERROR_DTYPE, "stride, padding, kernel_size and dilation must be "
                 "tuples of ints");
  gboolean batched = input->ndim == nd + 2;
  int non_spatial = batched ? 2 : 1;
  guint first = 0, len = output_size->seq->len;
  if ((int) len == non_spatial + nd)
    {
      first = (guint) non_spatial;
      len -= first;
    }
  if ((int) len != nd)
    return fail (error, FX_ERROR_INVALID_ARGUMENT, "ConvTranspose%dD: for %dD input, "
                 "output_size must have %d or %d elements (got %u)", nd, input->ndim, nd,
                 non_spatial + nd, len);
  for (int d = 0; d < nd; d++)
    {
      if (input->ndim <= d + non_spatial)
        return fail (error, FX_ERROR_INDEX, "Dimension out of range");
      min_sizes[d] = (input->shape[d + non_spatial] - 1) * stride[d] - 2 * padding[d]
                     + dilation[d] * (kernel[d] - 1) + 1;
      max_sizes[d] = min_sizes[d] + stride[d] - 1;
      if (!as_int (&output_size->seq->items[first + d], &size[d]))
        return fail (error, FX_ERROR_DTYPE, "output_size must hold ints");
    }
  for (int d = 0; d < nd; d++)
    if (size[d] < min_sizes[d] || size[d] > max_sizes[d])
      {
        /* output_size[2:] keeps its type: a list prints as [..], a tuple as (..) */
        FxSeq *sl = fx_seq_new (0);
        for (guint i = first; i < output_size->seq->len; i++)
          fx_seq_append (sl, fx_value_copy (&output_size->seq->items[i]));
        sl->type = output_size->kind == FX_VALUE_TUPLE ? output_size->seq->type : NULL;
        FxValue slv = output_size->kind == FX_VALUE_TUPLE ? fx_value_take_tuple (sl)
                                                            : fx_value_take_list (sl);
        GString *s = g_string_new ("requested an output size of ");
        fx_value_repr (&slv, s);
        g_string_append (s, ", but valid sizes range from ");
        append_int_list (s, min_sizes, nd);
        g_string_append (s, " to ");
        append_int_list (s, max_sizes, nd);
        g_string_append (s, " (for an input of torch.Size([");
        for (int i = 2; i < input->ndim; i++)
          g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i > 2 ? ", " : "", input->shape[i]);
        g_string_append (s, "]))");
        g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, s->str);
        g_string_free (s, TRUE);
        fx_value_clear (&slv);
        return FALSE;
      }
  for (int d = 0; d < nd; d++)
    size[d] -= min_sizes[d];
  *out = fx_value_int_tuple (NULL, nd, size);
  return TRUE;
}

static gboolean
conv_transpose2d_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  const FxValue *pm = attr (m, "padding_mode");
  if (!(pm->kind == FX_VALUE_STR && g_str_equal (pm->s->data, "zeros")))
    return fail (error, FX_ERROR_INVALID_ARGUMENT,
                 "Only `zeros` padding mode is supported for ConvTranspose2d");
  FxValue output_padding;
  if (argv[1].kind != FX_VALUE_NONE && !need_tensor (&argv[0], "dim", error))
    return FALSE;
  if (!transposed_output_padding (m, argv[0].kind == FX_VALUE_TENSOR ? argv[0].tensor : NULL,
                                  &argv[1], 2, &output_padding, error))
    return FALSE;
  gboolean ok = conv_call (2, TRUE, &argv[0], attr (m, "weight"), attr (m, "bias"),
                           attr (m, "stride"), attr (m, "padding"), &output_padding,
                           attr (m, "dilation"), attr (m, "groups"), result, error);
  fx_value_clear (&output_padding);
  return ok;
}

/* ------------------------------------------------------------------------------------------
 * Normalisation
 * ------------------------------------------------------------------------------------------ */

/* _NormBase(num_features, eps, momentum, affine, track_running_stats, device, dtype) */
static gboolean
norm_base_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  Factory f;
  (void) n_argv;
  if (!factory_init (&f, &argv[5], &argv[6], error))
    return FALSE;
  copy_attrs (m, &argv[0], "num_features", "eps", "momentum", "affine", "track_running_stats",
              NULL);
  if (py_truth (&argv[3]))
    {
      FxTensor *w = new_empty (&f, 1, &argv[0], error);
      FxTensor *b = w ? new_empty (&f, 1, &argv[0], error) : NULL;
      if (b == NULL)
        {
          if (w)
            fx_tensor_unref (w);
          return FALSE;
        }
      fx_init_ones_ (w, NULL);
      fx_init_zeros_ (b, NULL);
      add_param (m, "weight", w);
      add_param (m, "bias", b);
    }
  else
    {
      add_param (m, "weight", NULL);
      add_param (m, "bias", NULL);
    }
  if (py_truth (&argv[4]))
    {
      FxTensor *mean = new_empty (&f, 1, &argv[0], error);
      FxTensor *var = mean ? new_empty (&f, 1, &argv[0], error) : NULL;
      if (var == NULL)
        {
          if (mean)
            fx_tensor_unref (mean);
          return FALSE;
        }
      fx_init_zeros_ (mean, NULL);
      fx_init_ones_ (var, NULL);
      add_buffer (m, "running_mean", mean);
      add_buffer (m, "running_var", var);
      add_buffer (m, "num_batches_tracked", fx_tensor_scalar_int64 (FX_DTYPE_INT64, 0));
    }
  else
    {
      add_buffer (m, "running_mean", NULL);
      add_buffer (m, "running_var", NULL);
      add_buffer (m, "num_batches_tracked", NULL);
    }
  return TRUE;
}

static char *
norm_base_repr (const FxModule *m)
{
  return attrs_repr (m, "@num_features", "eps", "momentum", "affine", "track_running_stats", NULL);
}

/* _BatchNorm.forward after _check_input_dim. */
static gboolean
batch_norm_run (FxModule *m, const FxValue *input, FxValue *result, GError **error)
{
  const FxValue *momentum = attr (m, "momentum");
  FxValue factor = momentum->kind == FX_VALUE_NONE ? fx_value_float (0.0) : *momentum;
  gboolean track = py_truth (attr (m, "track_running_stats"));

  if (m->training && track)
    {
      FxTensor *nbt = attr_tensor (m, "num_batches_tracked");
      if (nbt != NULL)
        {
          if (fx_tensor_numel (nbt) != 1)
            return fail (error, FX_ERROR_FAILED, "num_batches_tracked must hold one value");
          int64_t n = fx_tensor_get_int64 (nbt, 0) + 1;
          g_autoptr (FxTensor) one = fx_tensor_scalar_int64 (FX_DTYPE_INT64, n);
          if (!fx_tensor_copy_into (nbt, one, error))
            return FALSE;
          if (momentum->kind == FX_VALUE_NONE)
            factor = fx_value_float (1.0 / (double) n);
        }
    }
  const FxValue *rm = attr (m, "running_mean"), *rv = attr (m, "running_var");
  gboolean bn_training = m->training ? TRUE
                         : (rm->kind == FX_VALUE_NONE && rv->kind == FX_VALUE_NONE);
  gboolean pass_stats = !m->training || track;
  FxValue args[8] = { *input, pass_stats ? *rm : none_value, pass_stats ? *rv : none_value,
                      *attr (m, "weight"), *attr (m, "bias"), fx_value_bool (bn_training),
                      factor, *attr (m, "eps") };
  return call_op ("torch.nn.functional.batch_norm", args, 8, NULL, result, error);
}

static gboolean
batch_norm1d_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  if (!need_tensor (&argv[0], "dim", error))
    return FALSE;
  int nd = argv[0].tensor->ndim;
  if (nd != 2 && nd != 3)
    return fail (error, FX_ERROR_INVALID_ARGUMENT, "expected 2D or 3D input (got %dD input)", nd);
  return batch_norm_run (m, &argv[0], result, error);
}

static gboolean
batch_norm2d_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  if (!need_tensor (&argv[0], "dim", error))
    return FALSE;
  int nd = argv[0].tensor->ndim;
  if (nd != 4)
    return fail (error, FX_ERROR_INVALID_ARGUMENT, "expected 4D input (got %dD input)", nd);
  return batch_norm_run (m, &argv[0], result, error);
}

static gboolean
instance_norm_run (FxModule *m, const FxValue *input, FxValue *result, GError **error)
{
  gboolean use_input_stats = m->training || !py_truth (attr (m, "track_running_stats"));
  FxValue args[8] = { *input, *attr (m, "running_mean"), *attr (m, "running_var"),
                      *attr (m, "weight"), *attr (m, "bias"), fx_value_bool (use_input_stats),
                      *attr (m, "momentum"), *attr (m, "eps") };
  return call_op ("torch.nn.functional.instance_norm", args, 8, NULL, result, error);
}

static gboolean
instance_norm2d_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  if (!need_tensor (&argv[0], "dim", error))
    return FALSE;
  FxTensor *x = argv[0].tensor;
  if (x->ndim != 3 && x->ndim != 4)
    return fail (error, FX_ERROR_INVALID_ARGUMENT, "expected 3D or 4D input (got %dD input)",
                 x->ndim);
  if (x->ndim == 4)
    return instance_norm_run (m, &argv[0], result, error);
  /* an unbatched (C, H, W) input runs as a batch of one */
  FxTensor *batched = fx_tensor_unsqueeze (x, 0, error);
  if (batched == NULL)
    return FALSE;
  FxValue bv = fx_value_take_tensor (batched), out;
  gboolean ok = instance_norm_run (m, &bv, &out, error);
  fx_value_clear (&bv);
  if (!ok)
    return FALSE;
  if (out.kind != FX_VALUE_TENSOR)
    {
      fx_value_clear (&out);
      return fail (error, FX_ERROR_FAILED, "instance_norm did not return a tensor");
    }
  FxTensor *sq = fx_tensor_squeeze_dim (out.tensor, 0, error);
  fx_value_clear (&out);
  return fx_result_tensor (result, sq);
}

/* LayerNorm(normalized_shape, eps, elementwise_affine, device, dtype) */
static gboolean
layer_norm_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  Factory f;
  const FxValue *ns = &argv[0];
  FxValue shape;
  (void) n_argv;
  if (!factory_init (&f, &argv[3], &argv[4], error))
    return FALSE;
  if (ns->kind == FX_VALUE_INT || ns->kind == FX_VALUE_BOOL)
    shape = ntuple (ns, 1);
  else if (is_seq (ns))
    {
      FxSeq *seq = fx_seq_new (0);
      for (guint i = 0; i < ns->seq->len; i++)
        fx_seq_append (seq, fx_value_copy (&ns->seq->items[i]));
      shape = fx_value_take_tuple (seq);
    }
  else
    return fail (error, FX_ERROR_DTYPE, "'%s' object is not iterable", py_type_name (ns));
  set_attr (m, "normalized_shape", shape);
  copy_attrs (m, &argv[1], "eps", "elementwise_affine", NULL);
  shape = *attr (m, "normalized_shape");
  if (py_truth (&argv[2]))
    {
      FxTensor *w = new_empty (&f, (int) shape.seq->len, shape.seq->items, error);
      FxTensor *b = w ? new_empty (&f, (int) shape.seq->len, shape.seq->items, error) : NULL;
      if (b == NULL)
        {
          if (w)
            fx_tensor_unref (w);
          return FALSE;
        }
      fx_init_ones_ (w, NULL);
      fx_init_zeros_ (b, NULL);
      add_param (m, "weight", w);
      add_param (m, "bias", b);
    }
  else
    {
      add_param (m, "weight", NULL);
      add_param (m, "bias", NULL);
    }
  return TRUE;
}

static char *
layer_norm_repr (const FxModule *m)
{
  return attrs_repr (m, "@normalized_shape", "eps", "elementwise_affine", NULL);
}

static gboolean
layer_norm_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[5] = { argv[0], *attr (m, "normalized_shape"), *attr (m, "weight"),
                      *attr (m, "bias"), *attr (m, "eps") };
  return call_op ("torch.nn.functional.layer_norm", args, 5, NULL, result, error);
}

/* GroupNorm(num_groups, num_channels, eps, affine, device, dtype) */
static gboolean
group_norm_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  Factory f;
  int64_t groups, channels;
  (void) n_argv;
  if (!factory_init (&f, &argv[4], &argv[5], error))
    return FALSE;
  if (as_int (&argv[0], &groups) && as_int (&argv[1], &channels))
    {
      if (groups == 0)
        return fail (error, FX_ERROR_ZERO_DIVISION, "integer division or modulo by zero");
      int64_t r = channels % groups;
      if (r != 0)
        return fail (error, FX_ERROR_INVALID_ARGUMENT,
                     "num_channels must be divisible by num_groups");
    }
  copy_attrs (m, &argv[0], "num_groups", "num_channels", "eps", "affine", NULL);
  if (py_truth (&argv[3]))
    {
      FxTensor *w = new_empty (&f, 1, &argv[1], error);
      FxTensor *b = w ? new_empty (&f, 1, &argv[1], error) : NULL;
      if (b == NULL)
        {
          if (w)
            fx_tensor_unref (w);
          return FALSE;
        }
      fx_init_ones_ (w, NULL);
      fx_init_zeros_ (b, NULL);
      add_param (m, "weight", w);
      add_param (m, "bias", b);
    }
  else
    {
      add_param (m, "weight", NULL);
      add_param (m, "bias", NULL);
    }
  return TRUE;
}

static char *
group_norm_repr (const FxModule *m)
{
  return attrs_repr (m, "@num_groups", "@num_channels", "eps", "affine", NULL);
}

static gboolean
group_norm_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[5] = { argv[0], *attr (m, "num_groups"), *attr (m, "weight"), *attr (m, "bias"),
                      *attr (m, "eps") };
  return call_op ("torch.nn.functional.group_norm", args, 5, NULL, result, error);
}

/* ------------------------------------------------------------------------------------------
 * Dropout
 * ------------------------------------------------------------------------------------------ */

static gboolean
dropout_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  double p;
  (void) n_argv;
  if (!as_number (&argv[0], &p))
    return fail (error, FX_ERROR_DTYPE, "'<' not supported between instances of '%s' and 'int'",
                 py_type_name (&argv[0]));
  if (p < 0 || p > 1)
    {
      GString *s = g_string_new (NULL);
      py_str (&argv[0], s);
      fail (error, FX_ERROR_INVALID_ARGUMENT,
            "dropout probability has to be between 0 and 1, but got %s", s->str);
      g_string_free (s, TRUE);
      return FALSE;
    }
  copy_attrs (m, &argv[0], "p", "inplace", NULL);
  return TRUE;
}

static char *
dropout_repr (const FxModule *m)
{
  return attrs_repr (m, "p", "inplace", NULL);
}

static gboolean
dropout_run (const char *path, FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[4] = { argv[0], *attr (m, "p"), fx_value_bool (m->training), *attr (m, "inplace") };
  return call_op (path, args, 4, NULL, result, error);
}

static gboolean
dropout_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  return dropout_run ("torch.nn.functional.dropout", m, argv, result, error);
}

static gboolean
dropout2d_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  return dropout_run ("torch.nn.functional.dropout2d", m, argv, result, error);
}

/* ------------------------------------------------------------------------------------------
 * Activations
 * ------------------------------------------------------------------------------------------ */

/* ReLU, SiLU, Hardswish, Hardsigmoid (inplace) */
static gboolean
inplace_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  (void) error;
  copy_attr (m, "inplace", &argv[0]);
  return TRUE;
}

static char *
inplace_repr (const FxModule *m)
{
  return g_strdup (py_truth (attr (m, "inplace")) ? "inplace=True" : "");
}

static gboolean
relu_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[2] = { argv[0], *attr (m, "inplace") };
  return call_op ("torch.nn.functional.relu", args, 2, NULL, result, error);
}

static gboolean
silu_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  AUTO_DICT FxDict *kw = fx_dict_new ();
  kw_set (kw, "inplace", fx_value_copy (attr (m, "inplace")));
  return call_op ("torch.nn.functional.silu", argv, 1, kw, result, error);
}

static gboolean
hardswish_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[2] = { argv[0], *attr (m, "inplace") };
  return call_op ("torch.nn.functional.hardswish", args, 2, NULL, result, error);
}

static gboolean
hardsigmoid_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[2] = { argv[0], *attr (m, "inplace") };
  return call_op ("torch.nn.functional.hardsigmoid", args, 2, NULL, result, error);
}

/* Hardtanh(min_val, max_val, inplace, min_value, max_value); the last two are deprecated
 * spellings that win when given. */
static gboolean
hardtanh_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  const FxValue *lo = argv[3].kind != FX_VALUE_NONE ? &argv[3] : &argv[0];
  const FxValue *hi = argv[4].kind != FX_VALUE_NONE ? &argv[4] : &argv[1];
  copy_attr (m, "min_val", lo);
  copy_attr (m, "max_val", hi);
  copy_attr (m, "inplace", &argv[2]);
  double a, b;
  if (as_number (lo, &a) && as_number (hi, &b) && !(b > a))
    return fail (error, FX_ERROR_INVALID_ARGUMENT, "Hardtanh: max_val must be greater than "
                 "min_val");
  return TRUE;
}

static gboolean
relu6_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  (void) error;
  set_attr (m, "min_val", fx_value_float (0.0));
  set_attr (m, "max_val", fx_value_float (6.0));
  copy_attr (m, "inplace", &argv[0]);
  return TRUE;
}

static char *
hardtanh_repr (const FxModule *m)
{
  return attrs_repr (m, "min_val", "max_val", "?inplace", NULL);
}

static gboolean
hardtanh_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[4] = { argv[0], *attr (m, "min_val"), *attr (m, "max_val"), *attr (m, "inplace") };
  return call_op ("torch.nn.functional.hardtanh", args, 4, NULL, result, error);
}

static gboolean
gelu_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  (void) error;
  copy_attr (m, "approximate", &argv[0]);
  return TRUE;
}

static char *
gelu_repr (const FxModule *m)
{
  GString *s = g_string_new ("approximate=");
  fx_value_repr (attr (m, "approximate"), s);
  return g_string_free (s, FALSE);
}

static gboolean
gelu_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  AUTO_DICT FxDict *kw = fx_dict_new ();
  kw_set (kw, "approximate", fx_value_copy (attr (m, "approximate")));
  return call_op ("torch._C._nn.gelu|torch.nn.functional.gelu", argv, 1, kw, result, error);
}

static gboolean
sigmoid_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  (void) m;
  return call_op ("torch.sigmoid", argv, 1, NULL, result, error);
}

static gboolean
tanh_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  (void) m;
  return call_op ("torch.tanh", argv, 1, NULL, result, error);
}

static gboolean
leaky_relu_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  (void) error;
  copy_attrs (m, &argv[0], "negative_slope", "inplace", NULL);
  return TRUE;
}

static char *
leaky_relu_repr (const FxModule *m)
{
  return attrs_repr (m, "negative_slope", "?inplace", NULL);
}

static gboolean
leaky_relu_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[3] = { argv[0], *attr (m, "negative_slope"), *attr (m, "inplace") };
  return call_op ("torch.nn.functional.leaky_relu", args, 3, NULL, result, error);
}

static gboolean
elu_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  (void) error;
  copy_attrs (m, &argv[0], "alpha", "inplace", NULL);
  return TRUE;
}

static char *
elu_repr (const FxModule *m)
{
  return attrs_repr (m, "alpha", "?inplace", NULL);
}

static gboolean
elu_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[3] = { argv[0], *attr (m, "alpha"), *attr (m, "inplace") };
  return call_op ("torch.nn.functional.elu", args, 3, NULL, result, error);
}

static gboolean
softplus_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  (void) error;
  copy_attrs (m, &argv[0], "beta", "threshold", NULL);
  return TRUE;
}

static char *
softplus_repr (const FxModule *m)
{
  return attrs_repr (m, "beta", "threshold", NULL);
}

static gboolean
softplus_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[3] = { argv[0], *attr (m, "beta"), *attr (m, "threshold") };
  return call_op ("torch._C._nn.softplus|torch.nn.functional.softplus", args, 3, NULL, result,
                  error);
}

static gboolean
softmax_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  (void) error;
  copy_attr (m, "dim", &argv[0]);
  return TRUE;
}

static char *
softmax_repr (const FxModule *m)
{
  return attrs_repr (m, "dim", NULL);
}

static gboolean
softmax_run (const char *path, FxModule *m, const FxValue *argv, FxValue *result,
             GError **error)
{
  AUTO_DICT FxDict *kw = fx_dict_new ();
  kw_set (kw, "_stacklevel", fx_value_int (5));
  FxValue args[2] = { argv[0], *attr (m, "dim") };
  return call_op (path, args, 2, kw, result, error);
}

static gboolean
softmax_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  return softmax_run ("torch.nn.functional.softmax", m, argv, result, error);
}

static gboolean
log_softmax_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  return softmax_run ("torch.nn.functional.log_softmax", m, argv, result, error);
}

/* ------------------------------------------------------------------------------------------
 * Pooling
 * ------------------------------------------------------------------------------------------ */

/* _MaxPoolNd(kernel_size, stride, padding, dilation, return_indices, ceil_mode) */
static gboolean
max_pool_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  (void) error;
  copy_attr (m, "kernel_size", &argv[0]);
  copy_attr (m, "stride", argv[1].kind != FX_VALUE_NONE ? &argv[1] : &argv[0]);
  copy_attrs (m, &argv[2], "padding", "dilation", "return_indices", "ceil_mode", NULL);
  return TRUE;
}

static char *
max_pool_repr (const FxModule *m)
{
  return attrs_repr (m, "kernel_size", "stride", "padding", "dilation", "ceil_mode", NULL);
}

static gboolean
max_pool2d_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[7] = { argv[0], *attr (m, "kernel_size"), *attr (m, "stride"),
                      *attr (m, "padding"), *attr (m, "dilation"), *attr (m, "ceil_mode"),
                      *attr (m, "return_indices") };
  return call_op ("torch.nn.functional.max_pool2d", args, 7, NULL, result, error);
}

/* AvgPool2d(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override) */
static gboolean
avg_pool2d_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  (void) error;
  copy_attr (m, "kernel_size", &argv[0]);
  copy_attr (m, "stride", argv[1].kind != FX_VALUE_NONE ? &argv[1] : &argv[0]);
  copy_attrs (m, &argv[2], "padding", "ceil_mode", "count_include_pad", "divisor_override", NULL);
  return TRUE;
}

static char *
avg_pool_repr (const FxModule *m)
{
  return attrs_repr (m, "kernel_size", "stride", "padding", NULL);
}

static gboolean
avg_pool2d_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[7] = { argv[0], *attr (m, "kernel_size"), *attr (m, "stride"),
                      *attr (m, "padding"), *attr (m, "ceil_mode"),
                      *attr (m, "count_include_pad"), *attr (m, "divisor_override") };
  return call_op ("torch._C._nn.avg_pool2d|torch.nn.functional.avg_pool2d", args, 7, NULL,
                  result, error);
}

static gboolean
adaptive_avg_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  (void) error;
  copy_attr (m, "output_size", &argv[0]);
  return TRUE;
}

static gboolean
adaptive_max_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  (void) error;
  copy_attrs (m, &argv[0], "output_size", "return_indices", NULL);
  return TRUE;
}

static char *
adaptive_repr (const FxModule *m)
{
  return attrs_repr (m, "output_size", NULL);
}

static gboolean
adaptive_avg_pool2d_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[2] = { argv[0], *attr (m, "output_size") };
  return call_op ("torch.nn.functional.adaptive_avg_pool2d", args, 2, NULL, result, error);
}

static gboolean
adaptive_max_pool2d_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[3] = { argv[0], *attr (m, "output_size"), *attr (m, "return_indices") };
  return call_op ("torch.nn.functional.adaptive_max_pool2d", args, 3, NULL, result, error);
}

/* ------------------------------------------------------------------------------------------
 * Embedding
 * ------------------------------------------------------------------------------------------ */

/* Embedding(num_embeddings, embedding_dim, padding_idx, max_norm, norm_type,
 * scale_grad_by_freq, sparse, _weight, device, dtype) */
static gboolean
embedding_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  Factory f;
  int64_t num = 0, pad;
  FxValue padding_idx = fx_value_copy (&argv[2]);
  (void) n_argv;
  if (!factory_init (&f, &argv[8], &argv[9], error))
    goto error_out;
  copy_attrs (m, &argv[0], "num_embeddings", "embedding_dim", NULL);
  if (padding_idx.kind != FX_VALUE_NONE && as_int (&padding_idx, &pad) && as_int (&argv[0], &num))
    {
      /* PyTorch asserts these; AssertionError has no code of its own here */
      if ((pad > 0 && pad >= num) || (pad < 0 && pad < -num))
        {
          fail (error, FX_ERROR_INVALID_ARGUMENT, "Padding_idx must be within num_embeddings");
          goto error_out;
        }
      if (pad < 0)
        {
          fx_value_clear (&padding_idx);
          padding_idx = fx_value_int (num + pad);
        }
    }
  set_attr (m, "padding_idx", padding_idx);
  copy_attrs (m, &argv[3], "max_norm", "norm_type", "scale_grad_by_freq", NULL);
  if (argv[7].kind == FX_VALUE_NONE)
    {
      FxValue size[2] = { argv[0], argv[1] };
      FxTensor *w = new_empty (&f, 2, size, error);
      if (w == NULL)
        return FALSE;
      add_param (m, "weight", w);
      w = attr_tensor (m, "weight");
      if (!fx_init_normal_ (w, 0.0, 1.0, NULL, error))
        return FALSE;
      const FxValue *pi = attr (m, "padding_idx");
      if (pi->kind != FX_VALUE_NONE && as_int (pi, &pad))
        {
          FxTensor *row = fx_tensor_select (w, 0, pad, error);
          if (row == NULL)
            return FALSE;
          gboolean ok = fx_init_zeros_ (row, error);
          fx_tensor_unref (row);
          if (!ok)
            return FALSE;
        }
    }
  else
    {
      const FxValue *wv = &argv[7];
      int64_t dim;
      if (wv->kind != FX_VALUE_TENSOR)
        return fail (error, FX_ERROR_ATTRIBUTE, "'%s' object has no attribute 'shape'",
                     py_type_name (wv));
      FxTensor *given = wv->tensor;
      if (!(given->ndim == 2 && as_int (&argv[0], &num) && as_int (&argv[1], &dim)
            && given->shape[0] == num && given->shape[1] == dim))
        return fail (error, FX_ERROR_INVALID_ARGUMENT,
                     "Shape of weight does not match num_embeddings and embedding_dim");
      /* nn.Parameter(_weight): a new tensor object on the same storage */
      add_param (m, "weight", fx_tensor_new_view (given->storage, given->dtype, given->ndim,
                                                 given->shape, given->strides, given->offset));
    }
  copy_attr (m, "sparse", &argv[6]);
  return TRUE;

error_out:
  fx_value_clear (&padding_idx);
  return FALSE;
}

static char *
embedding_repr (const FxModule *m)
{
  GString *s = g_string_new (NULL);
  const FxValue *v;
  FxValue two = fx_value_int (2);
  py_str (attr (m, "num_embeddings"), s);
  g_string_append (s, ", ");
  py_str (attr (m, "embedding_dim"), s);
  if ((v = attr (m, "padding_idx"))->kind != FX_VALUE_NONE)
    {
      g_string_append (s, ", padding_idx=");
      py_str (v, s);
    }
  if ((v = attr (m, "max_norm"))->kind != FX_VALUE_NONE)
    {
      g_string_append (s, ", max_norm=");
      py_str (v, s);
    }
  if (!fx_value_equal ((v = attr (m, "norm_type")), &two))
    {
      g_string_append (s, ", norm_type=");
      py_str (v, s);
    }
  /* `is not False`: only the False object itself is left out */
  v = attr (m, "scale_grad_by_freq");
  if (!(v->kind == FX_VALUE_BOOL && !v->b))
    {
      g_string_append (s, ", scale_grad_by_freq=");
      py_str (v, s);
    }
  v = attr (m, "sparse");
  if (!(v->kind == FX_VALUE_BOOL && !v->b))
    g_string_append (s, ", sparse=True");
  return g_string_free (s, FALSE);
}

static gboolean
embedding_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[7] = { argv[0], *attr (m, "weight"), *attr (m, "padding_idx"),
                      *attr (m, "max_norm"), *attr (m, "norm_type"),
                      *attr (m, "scale_grad_by_freq"), *attr (m, "sparse") };
  return call_op ("torch.nn.functional.embedding", args, 7, NULL, result, error);
}

/* ------------------------------------------------------------------------------------------
 * Vision: Upsample, PixelShuffle, ChannelShuffle, padding
 * ------------------------------------------------------------------------------------------ */

/* float(v) */
static gboolean
py_float (const FxValue *v, FxValue *out, GError **error)
{
  double d;
  if (as_number (v, &d))
    {
      *out = fx_value_float (d);
      return TRUE;
    }
  if (v->kind == FX_VALUE_STR)
    {
      char *end = NULL;
      g_autofree char *s = g_strstrip (g_strdup (v->s->data));
      d = g_ascii_strtod (s, &end);
      if (*s && end && *end == '\0')
        {
          *out = fx_value_float (d);
          return TRUE;
        }
      return fail (error, FX_ERROR_INVALID_ARGUMENT, "could not convert string to float: '%s'",
                   v->s->data);
    }
  return fail (error, FX_ERROR_DTYPE,
               "float() argument must be a string or a real number, not '%s'", py_type_name (v));
}

/* Upsample(size, scale_factor, mode, align_corners, recompute_scale_factor) */
static gboolean
upsample_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  const FxValue *sf = &argv[1];
  FxValue scale = fx_value_none ();
  (void) n_argv;
  if (sf->kind == FX_VALUE_TUPLE)
    {
      FxSeq *seq = fx_seq_new (0);
      for (guint i = 0; i < sf->seq->len; i++)
        {
          FxValue f;
          if (!py_float (&sf->seq->items[i], &f, error))
            {
              fx_seq_unref (seq);
              return FALSE;
            }
          fx_seq_append (seq, f);
        }
      scale = fx_value_take_tuple (seq);
    }
  else if (py_truth (sf) && !py_float (sf, &scale, error))
    return FALSE;
  set_attr (m, "name", fx_value_str (m->type_name));
  copy_attr (m, "size", &argv[0]);
  set_attr (m, "scale_factor", scale);
  copy_attrs (m, &argv[2], "mode", "align_corners", "recompute_scale_factor", NULL);
  return TRUE;
}

static char *
upsample_repr (const FxModule *m)
{
  GString *s = g_string_new (NULL);
  const FxValue *sf = attr (m, "scale_factor"), *mode = attr (m, "mode");
  if (sf->kind != FX_VALUE_NONE)
    {
      g_string_append (s, "scale_factor=");
      py_str (sf, s);
    }
  else
    {
      g_string_append (s, "size=");
      py_str (attr (m, "size"), s);
    }
  /* `info += ', mode=' + self.mode` */
  g_string_append (s, ", mode=");
  py_str (mode, s);
  return g_string_free (s, FALSE);
}

static gboolean
upsample_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  AUTO_DICT FxDict *kw = fx_dict_new ();
  kw_set (kw, "recompute_scale_factor", fx_value_copy (attr (m, "recompute_scale_factor")));
  FxValue args[5] = { argv[0], *attr (m, "size"), *attr (m, "scale_factor"), *attr (m, "mode"),
                      *attr (m, "align_corners") };
  return call_op ("torch.nn.functional.interpolate", args, 5, kw, result, error);
}

static gboolean
pixel_shuffle_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  (void) error;
  copy_attr (m, "upscale_factor", &argv[0]);
  return TRUE;
}

static char *
pixel_shuffle_repr (const FxModule *m)
{
  return attrs_repr (m, "upscale_factor", NULL);
}

static gboolean
pixel_shuffle_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[2] = { argv[0], *attr (m, "upscale_factor") };
  return call_op ("torch.pixel_shuffle", args, 2, NULL, result, error);
}

static gboolean
channel_shuffle_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  (void) error;
  copy_attr (m, "groups", &argv[0]);
  return TRUE;
}

static char *
channel_shuffle_repr (const FxModule *m)
{
  return attrs_repr (m, "groups", NULL);
}

static gboolean
channel_shuffle_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue args[2] = { argv[0], *attr (m, "groups") };
  return call_op ("torch.channel_shuffle", args, 2, NULL, result, error);
}

/* ZeroPad2d(padding): _ConstantPadNd with value 0.0 */
static gboolean
zero_pad2d_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  (void) error;
  set_attr (m, "value", fx_value_float (0.0));
  set_attr (m, "padding", ntuple (&argv[0], 4));
  return TRUE;
}

static gboolean
constant_pad2d_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  (void) error;
  copy_attr (m, "value", &argv[1]);
  set_attr (m, "padding", ntuple (&argv[0], 4));
  return TRUE;
}

static char *
zero_pad_repr (const FxModule *m)
{
  return attrs_repr (m, "@padding", NULL);
}

static char *
constant_pad_repr (const FxModule *m)
{
  return attrs_repr (m, "padding", "value", NULL);
}

static gboolean
constant_pad_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  FxValue mode = fx_value_str ("constant");
  FxValue args[4] = { argv[0], *attr (m, "padding"), mode, *attr (m, "value") };
  gboolean ok = call_op ("torch.nn.functional.pad", args, 4, NULL, result, error);
  fx_value_clear (&mode);
  return ok;
}

/* ------------------------------------------------------------------------------------------
 * Containers
 * ------------------------------------------------------------------------------------------ */

/* nn.Module.add_module's checks. */
static gboolean
add_child (FxModule *m, const FxValue *name, const FxValue *child, GError **error)
{
  if (child->kind != FX_VALUE_NONE && !fx_value_is_module (child))
    return fail (error, FX_ERROR_DTYPE, "%s is not a Module subclass", py_type_name (child));
  if (name->kind != FX_VALUE_STR)
    return fail (error, FX_ERROR_DTYPE, "module name should be a string. Got %s",
                 py_type_name (name));
  const char *n = name->s->data;
  if (strchr (n, '.') != NULL)
    return fail (error, FX_ERROR_INVALID_ARGUMENT,
                 "'module name can\\'t contain \".\", got: %s'", n);
  if (*n == '\0')
    return fail (error, FX_ERROR_INVALID_ARGUMENT, "'module name can\\'t be empty string \"\"'");
  fx_module_add_module (m, n, fx_value_get_module (child));
  return TRUE;
}

static gboolean
add_child_at (FxModule *m, guint index, const FxValue *child, GError **error)
{
  g_autofree char *s = g_strdup_printf ("%u", index);
  FxValue name = fx_value_str (s);
  gboolean ok = add_child (m, &name, child, error);
  fx_value_clear (&name);
  return ok;
}

/* Sequential(*args) or Sequential(OrderedDict) */
static gboolean
sequential_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  if (n_argv == 1 && argv[0].kind == FX_VALUE_DICT)
    {
      const FxValue *k, *v;
      for (guint i = 0; fx_dict_entry (argv[0].dict, i, &k, &v); i++)
        if (!add_child (m, k, v, error))
          return FALSE;
      return TRUE;
    }
  for (int i = 0; i < n_argv; i++)
    if (!add_child_at (m, (guint) i, &argv[i], error))
      return FALSE;
  return TRUE;
}

/* The items `for x in v` visits, for the iterables a container accepts. */
static FxSeq *
iterate (const FxValue *v)
{
  FxSeq *seq = NULL;
  const FxValue *k, *x;
  if (is_seq (v))
    return fx_seq_ref (v->seq);
  seq = fx_seq_new (0);
  if (v->kind == FX_VALUE_DICT)
    for (guint i = 0; fx_dict_entry (v->dict, i, &k, &x); i++)
      fx_seq_append (seq, fx_value_copy (k));
  else if (fx_value_is_module (v))
    {
      FxModule *mod = fx_value_get_module (v);
      gboolean keys = g_strcmp0 (mod->type_name, "ModuleDict") == 0;
      for (guint i = 0; fx_dict_entry (mod->children, i, &k, &x); i++)
        fx_seq_append (seq, fx_value_copy (keys ? k : x));
    }
  else
    g_clear_pointer (&seq, fx_seq_unref);
  return seq;
}

static gboolean
module_list_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  (void) n_argv;
  if (argv[0].kind == FX_VALUE_NONE)
    return TRUE;
  AUTO_SEQ FxSeq *items = iterate (&argv[0]);
  if (items == NULL)
    return fail (error, FX_ERROR_DTYPE,
                 "ModuleList.extend should be called with an iterable, but got %s",
                 py_type_name (&argv[0]));
  for (guint i = 0; i < items->len; i++)
    if (!add_child_at (m, i, &items->items[i], error))
      return FALSE;
  return TRUE;
}

static gboolean
module_dict_init (FxModule *m, const FxValue *argv, int n_argv, GError **error)
{
  const FxValue *mods = &argv[0], *k, *v;
  (void) n_argv;
  if (mods->kind == FX_VALUE_NONE)
    return TRUE;
  if (mods->kind == FX_VALUE_DICT)
    {
      for (guint i = 0; fx_dict_entry (mods->dict, i, &k, &v); i++)
        if (!add_child (m, k, v, error))
          return FALSE;
      return TRUE;
    }
  if (fx_value_is_module (mods) && g_strcmp0 (fx_value_get_module (mods)->type_name,
                                              "ModuleDict") == 0)
    {
      FxModule *src = fx_value_get_module (mods);
      for (guint i = 0; fx_dict_entry (src->children, i, &k, &v); i++)
        if (!add_child (m, k, v, error))
          return FALSE;
      return TRUE;
    }
  AUTO_SEQ FxSeq *items = iterate (mods);
  if (items == NULL)
    return fail (error, FX_ERROR_DTYPE, "ModuleDict.update should be called with an iterable of "
                 "key/value pairs, but got %s", py_type_name (mods));
  for (guint j = 0; j < items->len; j++)
    {
      const FxValue *pair = &items->items[j];
      if (!is_seq (pair) && pair->kind != FX_VALUE_STR)
        return fail (error, FX_ERROR_DTYPE, "ModuleDict update sequence element #%u should be "
                     "Iterable; is%s", j, py_type_name (pair));
      gsize len = is_seq (pair) ? pair->seq->len : g_utf8_strlen (pair->s->data, -1);
      if (len != 2)
        return fail (error, FX_ERROR_INVALID_ARGUMENT, "ModuleDict update sequence element #%u "
                     "has length %" G_GSIZE_FORMAT "; 2 is required", j, len);
      if (!is_seq (pair))
        return fail (error, FX_ERROR_DTYPE, "str is not a Module subclass");
      if (!add_child (m, &pair->seq->items[0], &pair->seq->items[1], error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
sequential_forward (FxModule *m, const FxValue *argv, FxValue *result, GError **error)
{
  const FxValue *k, *v;
  FxValue x = fx_value_copy (&argv[0]);
  for (guint i = 0; fx_dict_entry (m->children, i, &k, &v); i++)
    {
      FxValue y;
      if (!fx_value_is_module (v))
        {
          fx_value_clear (&x);
          return fail (error, FX_ERROR_DTYPE, "'%s' object is not callable", py_type_name (v));
        }
      gboolean ok = fx_module_call (fx_value_get_module (v), &x, 1, NULL, &y, error);
      fx_value_clear (&x);
      if (!ok)
        return FALSE;
      x = y;
    }
  *result = x;
  return TRUE;
}

/* ------------------------------------------------------------------------------------------
 * The table
 * ------------------------------------------------------------------------------------------ */

#define FWD "forward(Tensor input) -> Tensor"
#define FACTORY "Device? device=None, ScalarType? dtype=None"

static const FxLayerKind layer_kinds[] = {
  /* ---- linear ---- */
  { "Identity", "torch.nn.modules.linear", "Identity(*args, **kwargs)", FWD, "Identity",
    "Identity", "linear", "Returns its input unchanged", FX_LAYER_FLAG_ANY_ARGS,
    noop_init, NULL, identity_forward },
  { "Linear", "torch.nn.modules.linear",
    "Linear(int in_features, int out_features, bool bias=True, " FACTORY ")", FWD,
    "Linear", "Linear", "linear", "y = x Aᵀ + b", 0, linear_init, linear_repr, linear_forward },
  { "Bilinear", "torch.nn.modules.linear",
    "Bilinear(int in1_features, int in2_features, int out_features, bool bias=True, "
    FACTORY ")", "forward(Tensor input1, Tensor input2) -> Tensor",
    "Bilinear", "Bilinear", "linear", "y = x₁ᵀ A x₂ + b", 0, bilinear_init, bilinear_repr,
    bilinear_forward },

  /* ---- convolution ---- */
  { "Conv1d", "torch.nn.modules.conv",
    "Conv1d(int in_channels, int out_channels, int[1] kernel_size, int[1] stride=1, "
    "Any padding=0, int[1] dilation=1, int groups=1, bool bias=True, "
    "str padding_mode='zeros', " FACTORY ")", FWD, "Conv1d", "Conv1d", "convolution",
    "1-d convolution over (N, C, L) inputs", 0, conv1d_init, conv_repr, conv1d_forward },
  { "Conv2d", "torch.nn.modules.conv",
    "Conv2d(int in_channels, int out_channels, int[2] kernel_size, int[2] stride=1, "
    "Any padding=0, int[2] dilation=1, int groups=1, bool bias=True, "
    "str padding_mode='zeros', " FACTORY ")", FWD, "Conv2d", "Conv2d", "convolution",
    "2-d convolution over (N, C, H, W) inputs", 0, conv2d_init, conv_repr, conv2d_forward },
  { "ConvTranspose2d", "torch.nn.modules.conv",
    "ConvTranspose2d(int in_channels, int out_channels, int[2] kernel_size, int[2] stride=1, "
    "int[2] padding=0, int[2] output_padding=0, int groups=1, bool bias=True, "
    "int[2] dilation=1, str padding_mode='zeros', " FACTORY ")",
    "forward(Tensor input, int[]? output_size=None) -> Tensor", "ConvTranspose2d",
    "ConvTranspose2d", "convolution", "2-d transposed convolution (\"deconvolution\")", 0,
    conv_transpose2d_init, conv_repr, conv_transpose2d_forward },

  /* ---- normalization ---- */
  { "BatchNorm1d", "torch.nn.modules.batchnorm",
    "BatchNorm1d(int num_features, float eps=1e-05, float? momentum=0.1, bool affine=True, "
    "bool track_running_stats=True, " FACTORY ")", FWD, "_BatchNorm", "_BatchNorm",
    "normalization", "Batch normalisation over (N, C) or (N, C, L) inputs", 0,
    norm_base_init, norm_base_repr, batch_norm1d_forward },
  { "BatchNorm2d", "torch.nn.modules.batchnorm",
    "BatchNorm2d(int num_features, float eps=1e-05, float? momentum=0.1, bool affine=True, "
    "bool track_running_stats=True, " FACTORY ")", FWD, "_BatchNorm", "_BatchNorm",
    "normalization", "Batch normalisation over (N, C, H, W) inputs", 0,
    norm_base_init, norm_base_repr, batch_norm2d_forward },
  { "LayerNorm", "torch.nn.modules.normalization",
    "LayerNorm(int[] normalized_shape, float eps=1e-05, bool elementwise_affine=True, "
    FACTORY ")", FWD, "LayerNorm", "LayerNorm", "normalization",
    "Layer normalisation over the trailing dims", 0, layer_norm_init, layer_norm_repr,
    layer_norm_forward },
  { "GroupNorm", "torch.nn.modules.normalization",
    "GroupNorm(int num_groups, int num_channels, float eps=1e-05, bool affine=True, "
    FACTORY ")", FWD, "GroupNorm", "GroupNorm", "normalization",
    "Group normalisation over channel groups", 0, group_norm_init, group_norm_repr,
    group_norm_forward },
  { "InstanceNorm2d", "torch.nn.modules.instancenorm",
    "InstanceNorm2d(int num_features, float eps=1e-05, float? momentum=0.1, bool affine=False, "
    "bool track_running_stats=False, " FACTORY ")", FWD, "_InstanceNorm", "_InstanceNorm",
    "normalization", "Instance normalisation over (N, C, H, W) inputs", 0,
    norm_base_init, norm_base_repr, instance_norm2d_forward },

  /* ---- dropout ---- */
  { "Dropout", "torch.nn.modules.dropout", "Dropout(float p=0.5, bool inplace=False)", FWD,
    "_DropoutNd", "Dropout", "dropout", "Zeroes elements with probability p in training", 0,
    dropout_init, dropout_repr, dropout_forward },
  { "Dropout2d", "torch.nn.modules.dropout", "Dropout2d(float p=0.5, bool inplace=False)", FWD,
    "_DropoutNd", "Dropout2d", "dropout", "Zeroes whole channels with probability p in training",
    0, dropout_init, dropout_repr, dropout2d_forward },

  /* ---- activation ---- */
  { "ReLU", "torch.nn.modules.activation", "ReLU(bool inplace=False)", FWD, "ReLU", "ReLU",
    "activation", "max(x, 0)", 0, inplace_init, inplace_repr, relu_forward },
  { "ReLU6", "torch.nn.modules.activation", "ReLU6(bool inplace=False)", FWD, "ReLU6",
    "Hardtanh", "activation", "min(max(x, 0), 6)", 0, relu6_init, inplace_repr,
    hardtanh_forward },
  { "LeakyReLU", "torch.nn.modules.activation",
    "LeakyReLU(float negative_slope=0.01, bool inplace=False)", FWD, "LeakyReLU", "LeakyReLU",
    "activation", "x for x > 0, negative_slope · x otherwise", 0, leaky_relu_init,
    leaky_relu_repr, leaky_relu_forward },
  { "ELU", "torch.nn.modules.activation", "ELU(float alpha=1.0, bool inplace=False)", FWD, "ELU",
    "ELU", "activation", "x for x > 0, alpha · (eˣ − 1) otherwise", 0, elu_init, elu_repr,
    elu_forward },
  { "GELU", "torch.nn.modules.activation", "GELU(str approximate='none')", FWD, "GELU", "GELU",
    "activation", "Gaussian error linear unit", 0, gelu_init, gelu_repr, gelu_forward },
  { "SiLU", "torch.nn.modules.activation", "SiLU(bool inplace=False)", FWD, "SiLU", "SiLU",
    "activation", "x · sigmoid(x) (swish)", 0, inplace_init, inplace_repr, silu_forward },
  { "Sigmoid", "torch.nn.modules.activation", "Sigmoid()", FWD, "Module", "Sigmoid",
    "activation", "1 / (1 + e⁻ˣ)", 0, noop_init, NULL, sigmoid_forward },
  { "Tanh", "torch.nn.modules.activation", "Tanh()", FWD, "Module", "Tanh", "activation",
    "Hyperbolic tangent", 0, noop_init, NULL, tanh_forward },
  { "Hardtanh", "torch.nn.modules.activation",
    "Hardtanh(float min_val=-1.0, float max_val=1.0, bool inplace=False, "
    "float? min_value=None, float? max_value=None)", FWD, "Hardtanh", "Hardtanh", "activation",
    "Clamps to [min_val, max_val]", 0, hardtanh_init, hardtanh_repr, hardtanh_forward },
  { "Hardswish", "torch.nn.modules.activation", "Hardswish(bool inplace=False)", FWD,
    "Hardswish", "Hardswish", "activation", "x · relu6(x + 3) / 6", 0, inplace_init, NULL,
    hardswish_forward },
  { "Hardsigmoid", "torch.nn.modules.activation", "Hardsigmoid(bool inplace=False)", FWD,
    "Hardsigmoid", "Hardsigmoid", "activation", "relu6(x + 3) / 6", 0, inplace_init, NULL,
    hardsigmoid_forward },
  { "Softplus", "torch.nn.modules.activation", "Softplus(int beta=1, int threshold=20)", FWD,
    "Softplus", "Softplus", "activation", "log(1 + e^(beta · x)) / beta", 0, softplus_init,
    softplus_repr, softplus_forward },
  { "Softmax", "torch.nn.modules.activation", "Softmax(int? dim=None)", FWD, "Softmax",
    "Softmax", "activation", "Softmax along dim", 0, softmax_init, softmax_repr,
    softmax_forward },
  { "LogSoftmax", "torch.nn.modules.activation", "LogSoftmax(int? dim=None)", FWD, "LogSoftmax",
    "LogSoftmax", "activation", "Log of the softmax along dim", 0, softmax_init, softmax_repr,
    log_softmax_forward },

  /* ---- pooling ---- */
  { "MaxPool2d", "torch.nn.modules.pooling",
    "MaxPool2d(int[] kernel_size, int[]? stride=None, int[] padding=0, int[] dilation=1, "
    "bool return_indices=False, bool ceil_mode=False)", "forward(Tensor input)",
    "_MaxPoolNd", "MaxPool2d", "pooling", "2-d max pooling", 0, max_pool_init, max_pool_repr,
    max_pool2d_forward },
  { "AvgPool2d", "torch.nn.modules.pooling",
    "AvgPool2d(int[2] kernel_size, int[2]? stride=None, int[2] padding=0, bool ceil_mode=False, "
    "bool count_include_pad=True, int? divisor_override=None)", FWD, "AvgPool2d", "AvgPool2d",
    "pooling", "2-d average pooling", 0, avg_pool2d_init, avg_pool_repr, avg_pool2d_forward },
  { "AdaptiveAvgPool2d", "torch.nn.modules.pooling", "AdaptiveAvgPool2d(Any output_size)", FWD,
    "_AdaptiveAvgPoolNd", "AdaptiveAvgPool2d", "pooling",
    "2-d average pooling to a given output size", 0, adaptive_avg_init, adaptive_repr,
    adaptive_avg_pool2d_forward },
  { "AdaptiveMaxPool2d", "torch.nn.modules.pooling",
    "AdaptiveMaxPool2d(Any output_size, bool return_indices=False)", "forward(Tensor input)",
    "_AdaptiveMaxPoolNd", "AdaptiveMaxPool2d", "pooling",
    "2-d max pooling to a given output size", 0, adaptive_max_init, adaptive_repr,
    adaptive_max_pool2d_forward },

  /* ---- sparse ---- */
  { "Embedding", "torch.nn.modules.sparse",
    "Embedding(int num_embeddings, int embedding_dim, int? padding_idx=None, "
    "float? max_norm=None, float norm_type=2.0, bool scale_grad_by_freq=False, "
    "bool sparse=False, Tensor? _weight=None, " FACTORY ")", FWD, "Embedding", "Embedding",
    "sparse", "Lookup table of embedding vectors", 0, embedding_init, embedding_repr,
    embedding_forward },

  /* ---- vision ---- */
  { "Upsample", "torch.nn.modules.upsampling",
    "Upsample(int[]? size=None, float[]? scale_factor=None, str mode='nearest', "
    "bool? align_corners=None, bool? recompute_scale_factor=None)", FWD, "Upsample", "Upsample",
    "vision", "Resizes by size or scale factor (nearest, bilinear, ...)", 0, upsample_init,
    upsample_repr, upsample_forward },
  { "PixelShuffle", "torch.nn.modules.pixelshuffle", "PixelShuffle(int upscale_factor)", FWD,
    "PixelShuffle", "PixelShuffle", "vision", "(*, C r², H, W) → (*, C, H r, W r)", 0,
    pixel_shuffle_init, pixel_shuffle_repr, pixel_shuffle_forward },
  { "ChannelShuffle", "torch.nn.modules.channelshuffle", "ChannelShuffle(int groups)", FWD,
    "ChannelShuffle", "ChannelShuffle", "vision", "Interleaves channel groups", 0,
    channel_shuffle_init, channel_shuffle_repr, channel_shuffle_forward },
  { "ZeroPad2d", "torch.nn.modules.padding", "ZeroPad2d(int[4] padding)", FWD, "ZeroPad2d",
    "_ConstantPadNd", "padding", "Pads the last two dims with zeros", 0, zero_pad2d_init,
    zero_pad_repr, constant_pad_forward },
  { "ConstantPad2d", "torch.nn.modules.padding", "ConstantPad2d(int[4] padding, float value)",
    FWD, "ConstantPad2d", "_ConstantPadNd", "padding", "Pads the last two dims with a constant",
    0, constant_pad2d_init, constant_pad_repr, constant_pad_forward },

  /* ---- shape ---- */
  { "Flatten", "torch.nn.modules.flatten", "Flatten(int start_dim=1, int end_dim=-1)", FWD,
    "Flatten", "Flatten", "shape", "Flattens dims start_dim..end_dim into one", 0, flatten_init,
    flatten_repr, flatten_forward },
  { "Unflatten", "torch.nn.modules.flatten", "Unflatten(Any dim, int[] unflattened_size)", FWD,
    "Unflatten", "Unflatten", "shape", "Splits dim into unflattened_size", 0, unflatten_init,
    unflatten_repr, unflatten_forward },

  /* ---- containers ---- */
  { "Sequential", "torch.nn.modules.container", "Sequential(*args)", "forward(Any input)",
    "Sequential", "Sequential", "container", "Runs its children in order",
    FX_LAYER_FLAG_VARARGS | FX_LAYER_FLAG_CONTAINER, sequential_init, NULL,
    sequential_forward },
  { "ModuleList", "torch.nn.modules.container", "ModuleList(Any modules=None)", NULL,
    "ModuleList", "_forward_unimplemented", "container", "Holds submodules in a list",
    FX_LAYER_FLAG_CONTAINER, module_list_init, NULL, NULL },
  { "ModuleDict", "torch.nn.modules.container", "ModuleDict(Any modules=None)", NULL,
    "ModuleDict", "_forward_unimplemented", "container", "Holds submodules by name",
    FX_LAYER_FLAG_CONTAINER, module_dict_init, NULL, NULL },
};

#define N_KINDS G_N_ELEMENTS (layer_kinds)

/* ------------------------------------------------------------------------------------------
 * Binding: each __init__ and forward as a Python function of untyped arguments
 * ------------------------------------------------------------------------------------------ */

typedef struct {
  FxOp op;
  FxOverload overload;
  gboolean ok;
} Binder;

static Binder init_binders[N_KINDS];
static Binder forward_binders[N_KINDS];
static const FxLayerKind *kind_ptrs[N_KINDS];
static GHashTable *kinds_by_name;

/* "Linear(int in_features, bool bias=True)" → "Linear.__init__(Any self, Any in_features,
 * Any bias=True)": CPython's arity and keyword rules without its (absent) type checks. */
static char *
untyped_schema (const char *owner, const char *fn, const char *schema)
{
  const char *open = strchr (schema, '(');
  GString *out = g_string_new (NULL);
  g_string_append_printf (out, "%s.%s(Any self", owner, fn);
  if (open == NULL)
    return g_string_free (out, FALSE);
  const char *p = open + 1;
  int depth = 0;
  char quote = 0;
  const char *start = p;
  for (; *p; p++)
    {
      char c = *p;
      gboolean end_param = FALSE, end_all = FALSE;
      if (quote)
        {
          if (c == quote)
            quote = 0;
          continue;
        }
      if (c == '\'' || c == '"')
        quote = c;
      else if (c == '[' || c == '(')
        depth++;
      else if ((c == ']' || c == ')') && depth > 0)
        depth--;
      else if (c == ',' && depth == 0)
        end_param = TRUE;
      else if (c == ')' && depth == 0)
        end_all = TRUE;
      if (end_param || end_all)
        {
          g_autofree char *param = g_strstrip (g_strndup (start, p - start));
          if (*param)
            {
              const char *sp = strchr (param, ' ');
              if (g_str_equal (param, "*") || sp == NULL)
                g_string_append_printf (out, ", %s", param);
              else
                g_string_append_printf (out, ", Any %s", sp + 1);
            }
          start = p + 1;
          if (end_all)
            break;
        }
    }
  g_string_append_c (out, ')');
  return g_string_free (out, FALSE);
}

static gboolean
binder_init (Binder *b, const FxLayerKind *kind, const char *owner, const char *fn,
             const char *schema)
{
  g_autofree char *text = untyped_schema (owner, fn, schema);
  GError *error = NULL;
  if (!fx_schema_parse (text, &b->overload, &error))
    {
      g_critical ("layer %s: %s", kind->type_name, error->message);
      g_error_free (error);
      return FALSE;
    }
  b->op.kind = FX_OP_FUNCTION;
  b->op.qualified_name = kind->type_name;
  b->op.name = fn;
  b->op.aliases = NULL;
  b->op.category = kind->category;
  b->op.doc = kind->doc;
  b->op.flags = FX_OP_FLAG_PYTHON_FUNCTION;
  b->op.n_overloads = 1;
  b->op.overloads = &b->overload;
  b->ok = TRUE;
  return TRUE;
}

static void
layers_init (void)
{
  static gsize once = 0;
  if (!g_once_init_enter (&once))
    return;
  kinds_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < N_KINDS; i++)
    {
      const FxLayerKind *k = &layer_kinds[i];
      kind_ptrs[i] = k;
      g_hash_table_insert (kinds_by_name, (gpointer) k->type_name, (gpointer) k);
      if (!(k->flags & (FX_LAYER_FLAG_VARARGS | FX_LAYER_FLAG_ANY_ARGS)))
        binder_init (&init_binders[i], k, k->init_owner, "__init__", k->schema);
      if (k->forward_schema != NULL)
        binder_init (&forward_binders[i], k, k->forward_owner, "forward", k->forward_schema);
    }
  g_once_init_leave (&once, 1);
}

const FxLayerKind *
fx_layer_lookup (const char *type_name)
{
  layers_init ();
  return type_name ? g_hash_table_lookup (kinds_by_name, type_name) : NULL;
}

const FxLayerKind *const *
fx_layers_all (guint *n)
{
  layers_init ();
  if (n)
    *n = N_KINDS;
  return kind_ptrs;
}

/* Binds args to b with a placeholder self first; argv gets overload.n_args values. */
static gboolean
bind_with_self (const Binder *b, const FxValue *args, int n_args, const FxDict *kwargs,
                FxValue *argv, GError **error)
{
  FxValue *with_self = g_new0 (FxValue, n_args + 1);
  with_self[0] = fx_value_none ();
  for (int i = 0; i < n_args; i++)
    with_self[i + 1] = args[i];     /* borrowed: fx_op_bind copies what it keeps */
  gboolean ok = fx_op_bind (&b->op, with_self, n_args + 1, kwargs, NULL, argv, error);
  g_free (with_self);
  return ok;
}

FxModule *
fx_layer_new (const char *type_name, const FxValue *args, int n_args, const FxDict *kwargs,
              GError **error)
{
  const FxLayerKind *kind = fx_layer_lookup (type_name);
  g_return_val_if_fail (n_args == 0 || args != NULL, NULL);
  if (kind == NULL)
    {
      fail (error, FX_ERROR_ATTRIBUTE, "module 'torch.nn' has no attribute '%s'",
            type_name ? type_name : "None");
      return NULL;
    }
  guint idx = (guint) (kind - layer_kinds);
  FxModule *m = fx_module_new (kind->type_name);
  gboolean ok;
  m->layer = kind;
  m->extra_repr = kind->extra_repr;

  if (kind->flags & (FX_LAYER_FLAG_VARARGS | FX_LAYER_FLAG_ANY_ARGS))
    {
      const FxValue *k, *v;
      if ((kind->flags & FX_LAYER_FLAG_VARARGS) && kwargs && fx_dict_entry (kwargs, 0, &k, &v))
        {
          fail (error, FX_ERROR_DTYPE, "%s.__init__() got an unexpected keyword argument '%s'",
                kind->init_owner, k->kind == FX_VALUE_STR ? k->s->data : "?");
          ok = FALSE;
        }
      else
        ok = kind->init (m, args, n_args, error);
    }
  else
    {
      const Binder *b = &init_binders[idx];
      if (!b->ok)
        {
          fx_module_unref (m);
          fail (error, FX_ERROR_NOT_IMPLEMENTED, "%s: bad constructor schema", kind->type_name);
          return NULL;
        }
      int n = b->overload.n_args;
      FxValue *argv = g_new0 (FxValue, n);
      ok = bind_with_self (b, args, n_args, kwargs, argv, error)
           && kind->init (m, argv + 1, n - 1, error);
      for (int i = 0; i < n; i++)
        fx_value_clear (&argv[i]);
      g_free (argv);
    }
  if (!ok)
    {
      fx_module_unref (m);
      return NULL;
    }
  return m;
}

gboolean
fx_module_forward_layer (FxModule *module, const FxValue *args, int n_args,
                         const FxDict *kwargs, FxValue *result, GError **error)
{
  g_return_val_if_fail (module != NULL && result != NULL, FALSE);
  g_return_val_if_fail (n_args == 0 || args != NULL, FALSE);
  *result = fx_value_none ();
  layers_init ();
  const FxLayerKind *kind = module->layer;
  if (kind == NULL || kind->forward == NULL)
    return fail (error, FX_ERROR_NOT_IMPLEMENTED,
                 "Module [%s] is missing the required \"forward\" function", module->type_name);
  guint idx = (guint) (kind - layer_kinds);
  if (idx >= N_KINDS || !forward_binders[idx].ok)
    return fail (error, FX_ERROR_NOT_IMPLEMENTED, "%s: bad forward schema", kind->type_name);
  const Binder *b = &forward_binders[idx];
  int n = b->overload.n_args;
  FxValue *argv = g_new0 (FxValue, n);
  gboolean ok = bind_with_self (b, args, n_args, kwargs, argv, error)
                && kind->forward (module, argv + 1, result, error);
  for (int i = 0; i < n; i++)
    fx_value_clear (&argv[i]);
  g_free (argv);
  if (!ok)
    fx_value_clear (result);
  return ok;
}

/* ---- how containers call their children ---- */

static FxModuleCallFunc module_caller;
static gpointer module_caller_data;

void
fx_layers_set_module_caller (FxModuleCallFunc func, gpointer user_data)
{
  module_caller = func;
  module_caller_data = user_data;
}

gboolean
fx_module_call (FxModule *module, const FxValue *args, int n_args, const FxDict *kwargs,
                FxValue *result, GError **error)
{
  if (module_caller != NULL)
    {
      *result = fx_value_none ();
      return module_caller (module, args, n_args, kwargs, result, module_caller_data, error);
    }
  return fx_module_forward_layer (module, args, n_args, kwargs, result, error);
}
