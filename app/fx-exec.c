/* fx-exec.c: `fx exec MODEL.py --module NAME [--weights FILE] --input SPEC...` — trace a
 * module, load its weights strictly (PyTorch's load_state_dict messages), run it on generated
 * or loaded inputs and print each output's shape, dtype and statistics, its values, or a
 * per-node profile. */
#include <fx.h>
#include "trace/trace.h"
#include "run/run.h"
#include "ir/checkpoint.h"
#include "ir/safetensors.h"
#include "tensor/creation.h"
#include "tensor/random.h"
#include "tensor/print.h"
#include "fx-cli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* nanoseconds: a small model's forward takes a few microseconds */
static gint64
monotonic_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#define EXEC_SYNOPSIS \
  "MODEL.py --module NAME [--weights FILE] --input SPEC [--input SPEC]... " \
  "[--eval] [--print-values] [--profile] [-o FILE]"

#define PROFILE_MIN_RUNS 5
#define PROFILE_MAX_RUNS 100
#define PROFILE_MIN_NS ((gint64) 500000000)

static int
exec_usage_error (const char *message)
{
  fprintf (stderr, "fx exec: %s\nUsage: fx exec %s\n", message, EXEC_SYNOPSIS);
  return 2;
}

/* ------------------------------------------------------------------ input specs */

static gboolean
spec_fail (GError **error, const char *spec, const char *format, ...) G_GNUC_PRINTF (3, 4);

static gboolean
spec_fail (GError **error, const char *spec, const char *format, ...)
{
  va_list ap;
  GError *e;

  va_start (ap, format);
  e = g_error_new_valist (FX_ERROR, FX_ERROR_INVALID_ARGUMENT, format, ap);
  va_end (ap);
  g_prefix_error (&e, "--input '%s': ", spec);
  g_propagate_error (error, e);
  return FALSE;
}

/* "1x3x224x224" (or "" / "scalar" for a 0-d tensor). */
static gboolean
parse_shape (const char *spec, const char *text, int *ndim, int64_t *shape, GError **error)
{
  g_auto (GStrv) dims = NULL;

  *ndim = 0;
  if (*text == '\0' || strcmp (text, "scalar") == 0)
    return TRUE;
  dims = g_strsplit (text, "x", -1);
  for (int i = 0; dims[i] != NULL; i++)
    {
      guint64 n;
      if (i >= FX_TENSOR_MAX_DIMS)
        return spec_fail (error, spec, "a shape has at most %d dimensions", FX_TENSOR_MAX_DIMS);
      if (!g_ascii_string_to_unsigned (dims[i], 10, 0, G_MAXINT32, &n, NULL))
        return spec_fail (error, spec, "bad shape '%s' (sizes joined by x, like 1x3x224x224)",
                          text);
      shape[i] = (int64_t) n;
      *ndim = i + 1;
    }
  return TRUE;
}

/* "randn(7)" → name "randn", params "7"; NULL params without parentheses. */
static gboolean
split_fill (const char *spec, const char *fill, char **name, char **params, GError **error)
{
  const char *open = strchr (fill, '(');
  gsize len = strlen (fill);

  if (open == NULL)
    {
      *name = g_strdup (fill);
      *params = NULL;
      return TRUE;
    }
  if (len == 0 || fill[len - 1] != ')')
    return spec_fail (error, spec, "unbalanced parentheses in '%s'", fill);
  *name = g_strndup (fill, open - fill);
  *params = g_strndup (open + 1, fill + len - 1 - (open + 1));
  return TRUE;
}

static gboolean
parse_number (const char *spec, const char *text, double *out, GError **error)
{
  g_autofree char *t = g_strstrip (g_strdup (text));
  char *end = NULL;

  *out = g_ascii_strtod (t, &end);
  if (*t == '\0' || end == NULL || *end != '\0')
    return spec_fail (error, spec, "'%s' is not a number", t);
  return TRUE;
}

/* A whole .npy file: magic, version, a Python-dict header (descr, fortran_order, shape),
 * then the data. Little-endian numeric dtypes only. */
static FxTensor *
load_npy (const char *spec, const char *path, GError **error)
{
  static const struct { const char *descr; FxDType dtype; } descrs[] = {
    { "<f4", FX_DTYPE_FLOAT32 }, { "<f8", FX_DTYPE_FLOAT64 }, { "<f2", FX_DTYPE_FLOAT16 },
    { "<i8", FX_DTYPE_INT64 }, { "<i4", FX_DTYPE_INT32 }, { "<i2", FX_DTYPE_INT16 },
    { "|i1", FX_DTYPE_INT8 }, { "|u1", FX_DTYPE_UINT8 }, { "|b1", FX_DTYPE_BOOL },
  };
  g_autofree char *data = NULL;
  g_autoptr (GError) local = NULL;
  g_auto (FxValue) header = fx_value_none ();
  gsize len, header_len, start;
  const FxValue *descr = NULL, *fortran = NULL, *shape_v = NULL, *k, *v;
  int64_t shape[FX_TENSOR_MAX_DIMS], numel = 1;
  int ndim;
  FxDType dtype = FX_DTYPE_N;
  FxTensor *t;

  if (!g_file_get_contents (path, &data, &len, &local))
    {
      spec_fail (error, spec, "%s", local->message);
      return NULL;
    }
  if (len < 10 || memcmp (data, "\x93NUMPY", 6) != 0)
    {
      spec_fail (error, spec, "%s is not a .npy file", path);
      return NULL;
    }
  if (data[6] == 1)
    {
      header_len = (guint8) data[8] | ((gsize) (guint8) data[9] << 8);
      start = 10;
    }
  else if ((data[6] == 2 || data[6] == 3) && len >= 12)
    {
      header_len = (guint8) data[8] | ((gsize) (guint8) data[9] << 8)
                   | ((gsize) (guint8) data[10] << 16) | ((gsize) (guint8) data[11] << 24);
      start = 12;
    }
  else
    {
      spec_fail (error, spec, "%s: unsupported .npy version %d", path, data[6]);
      return NULL;
    }
  if (header_len > len - start)
    {
      spec_fail (error, spec, "%s: truncated .npy header", path);
      return NULL;
    }
  {
    g_autofree char *text = g_strstrip (g_strndup (data + start, header_len));
    if (!fx_trace_parse_literal (text, &header, &local) || header.kind != FX_VALUE_DICT)
      {
        spec_fail (error, spec, "%s: unreadable .npy header", path);
        return NULL;
      }
  }
  for (guint i = 0; fx_dict_entry (header.dict, i, &k, &v); i++)
    if (k->kind == FX_VALUE_STR)
      {
        if (strcmp (k->s->data, "descr") == 0)
          descr = v;
        else if (strcmp (k->s->data, "fortran_order") == 0)
          fortran = v;
        else if (strcmp (k->s->data, "shape") == 0)
          shape_v = v;
      }
  if (descr == NULL || descr->kind != FX_VALUE_STR || shape_v == NULL
      || shape_v->kind != FX_VALUE_TUPLE || shape_v->seq->len > FX_TENSOR_MAX_DIMS)
    {
      spec_fail (error, spec, "%s: .npy header lacks descr or shape", path);
      return NULL;
    }
  for (guint i = 0; i < G_N_ELEMENTS (descrs); i++)
    if (strcmp (descr->s->data, descrs[i].descr) == 0)
      dtype = descrs[i].dtype;
  if (dtype == FX_DTYPE_N)
    {
      spec_fail (error, spec, "%s: unsupported .npy dtype '%s'", path, descr->s->data);
      return NULL;
    }
  ndim = (int) shape_v->seq->len;
  for (int i = 0; i < ndim; i++)
    {
      const FxValue *d = &shape_v->seq->items[i];
      if (d->kind != FX_VALUE_INT || d->i < 0 || d->i > G_MAXINT32)
        {
          spec_fail (error, spec, "%s: bad .npy shape", path);
          return NULL;
        }
      shape[i] = d->i;
      numel *= d->i;
    }
  start += header_len;
  if ((guint64) numel * fx_dtype_size (dtype) > len - start)
    {
      spec_fail (error, spec, "%s: truncated .npy data", path);
      return NULL;
    }
  if (fortran != NULL && fortran->kind == FX_VALUE_BOOL && fortran->b)
    {
      /* column-major: read with the shape reversed, then reverse the dims back */
      int64_t rev[FX_TENSOR_MAX_DIMS];
      int perm[FX_TENSOR_MAX_DIMS];
      for (int i = 0; i < ndim; i++)
        {
          rev[i] = shape[ndim - 1 - i];
          perm[i] = ndim - 1 - i;
        }
      g_autoptr (FxTensor) raw = fx_tensor_new_from_data (dtype, ndim, rev, data + start);
      g_autoptr (FxTensor) view = fx_tensor_permute (raw, ndim, perm, error);
      return view ? fx_tensor_clone (view) : NULL;
    }
  t = fx_tensor_new_from_data (dtype, ndim, shape, data + start);
  return t;
}

static FxTensor *
load_input_file (const char *spec, GError **error)
{
  g_autoptr (GError) local = NULL;

  if (!g_file_test (spec, G_FILE_TEST_IS_REGULAR))
    {
      spec_fail (error, spec, "no such file (a SPEC is FILL:SHAPE[:DTYPE] or a .safetensors/.npy file)");
      return NULL;
    }
  if (g_str_has_suffix (spec, ".npy"))
    return load_npy (spec, spec, error);
  {
    g_autoptr (FxDict) d = fx_safetensors_load (spec, NULL, &local);
    const FxValue *k, *v;
    if (d == NULL)
      {
        spec_fail (error, spec, "%s", local->message);
        return NULL;
      }
    if (fx_dict_len (d) != 1 || !fx_dict_entry (d, 0, &k, &v))
      {
        spec_fail (error, spec, "the file holds %u tensors; an input file must hold exactly one",
                   fx_dict_len (d));
        return NULL;
      }
    return fx_tensor_ref (v->tensor);
  }
}

/* One --input SPEC: FILL:SHAPE[:DTYPE] or a .safetensors / .npy path. Plain randn and rand
 * draw from `shared` (seeded 0 once per run), so that `--input randn:2 --input randn:2`
 * are what torch.manual_seed(0); torch.randn(2); torch.randn(2) give. */
static FxTensor *
parse_input (const char *spec, FxGenerator *shared, GError **error)
{
  g_auto (GStrv) parts = NULL;
  g_autofree char *name = NULL, *params = NULL;
  int64_t shape[FX_TENSOR_MAX_DIMS], numel = 1;
  int ndim, n_parts;
  FxDType dtype = FX_DTYPE_FLOAT32;
  FxTensor *t = NULL;
  g_autoptr (GError) local = NULL;

  if (g_str_has_suffix (spec, ".safetensors") || g_str_has_suffix (spec, ".npy"))
    return load_input_file (spec, error);
  parts = g_strsplit (spec, ":", -1);
  n_parts = (int) g_strv_length (parts);
  if (n_parts < 2 || n_parts > 3)
    {
      spec_fail (error, spec, "expected FILL:SHAPE[:DTYPE] (e.g. randn:1x3x224x224) or a "
                 ".safetensors/.npy file");
      return NULL;
    }
  if (!parse_shape (spec, parts[1], &ndim, shape, error))
    return NULL;
  for (int i = 0; i < ndim; i++)
    numel *= shape[i];
  if (n_parts == 3 && !fx_dtype_from_name (parts[2], &dtype))
    {
      spec_fail (error, spec, "unknown dtype '%s' (e.g. float32, float64, int64, bool)", parts[2]);
      return NULL;
    }
  if (!split_fill (spec, parts[0], &name, &params, error))
    return NULL;

  if (strcmp (name, "randn") == 0 || strcmp (name, "rand") == 0)
    {
      FxGenerator *gen = shared, *own = NULL;
      if (params != NULL)
        {
          guint64 seed;
          if (!g_ascii_string_to_unsigned (params, 10, 0, G_MAXUINT64, &seed, NULL))
            {
              spec_fail (error, spec, "the seed of %s(SEED) must be a non-negative integer", name);
              return NULL;
            }
          gen = own = fx_generator_new (seed);
        }
      t = name[4] == 'n' ? fx_randn (dtype, ndim, shape, gen, &local)
                         : fx_rand (dtype, ndim, shape, gen, &local);
      if (own != NULL)
        fx_generator_free (own);
    }
  else if (params != NULL && strcmp (name, "linspace") != 0)
    {
      spec_fail (error, spec, "%s takes no arguments", name);
      return NULL;
    }
  else if (strcmp (name, "zeros") == 0)
    t = fx_tensor_zeros (dtype, ndim, shape);
  else if (strcmp (name, "ones") == 0)
    t = fx_tensor_ones (dtype, ndim, shape);
  else if (strcmp (name, "arange") == 0 || strcmp (name, "linspace") == 0)
    {
      g_autoptr (FxTensor) flat = NULL;
      if (name[0] == 'a')
        {
          FxValue zero = fx_value_int (0), end = fx_value_int (numel), one = fx_value_int (1);
          flat = fx_arange (&zero, &end, &one, TRUE, dtype, &local);
        }
      else
        {
          g_auto (GStrv) ab = params ? g_strsplit (params, ",", -1) : NULL;
          double a, b;
          if (ab == NULL || g_strv_length (ab) != 2)
            {
              spec_fail (error, spec, "linspace needs its ends: linspace(A,B)");
              return NULL;
            }
          if (!parse_number (spec, ab[0], &a, error) || !parse_number (spec, ab[1], &b, error))
            return NULL;
          flat = fx_linspace (a, b, numel, dtype, &local);
        }
      if (flat != NULL)
        t = fx_tensor_reshape (flat, ndim, shape, &local);
    }
  else
    {
      spec_fail (error, spec, "unknown fill '%s' (choose from randn, randn(SEED), rand, rand(SEED), "
                 "zeros, ones, arange, linspace(A,B))", name);
      return NULL;
    }
  if (t == NULL)
    spec_fail (error, spec, "%s", local ? local->message : "cannot make this tensor");
  return t;
}

/* ------------------------------------------------------------------ weights */

/* The "Error(s) in loading state_dict" collection of Module.load_state_dict(strict=True). */
typedef struct {
  GPtrArray *missing, *unexpected, *mismatch;   /* char*, in PyTorch's order */
} LoadReport;

static char *
size_repr (const FxTensor *t)
{
  GString *s = g_string_new ("torch.Size([");
  for (int i = 0; i < t->ndim; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", t->shape[i]);
  g_string_append (s, "])");
  return g_string_free (s, FALSE);
}

static gboolean
is_batchnorm_counter (FxModule *root, const char *key)
{
  const char *dot = strrchr (key, '.');
  g_autofree char *owner = dot ? g_strndup (key, dot - key) : g_strdup ("");
  FxModule *m;
  const char *name = dot ? dot + 1 : key;

  if (strcmp (name, "num_batches_tracked") != 0)
    return FALSE;
  m = fx_module_get_submodule (root, owner, NULL);
  return m != NULL && m->layer != NULL && strstr (m->type_name, "Norm") != NULL;
}

/* torch reports unexpected keys module by module (named_modules order), each module
 * listing the keys under its prefix whose next component is neither a child nor one of
 * its own parameters or buffers; rank is that module's position. */
typedef struct {
  guint rank, index;
  const char *key;
} Unexpected;

static int
unexpected_cmp (gconstpointer a, gconstpointer b)
{
  const Unexpected *x = a, *y = b;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

static void
find_unexpected (FxModule *root, FxDict *model_sd, FxDict *file_sd, LoadReport *report)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) modules = g_ptr_array_new ();
  g_autoptr (GHashTable) rank = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GArray) found = g_array_new (FALSE, FALSE, sizeof (Unexpected));
  const FxValue *k, *v;

  fx_module_named_modules (root, names, modules);
  for (guint i = 0; i < names->len; i++)
    g_hash_table_insert (rank, names->pdata[i], GUINT_TO_POINTER (i + 1));
  for (guint i = 0; fx_dict_entry (file_sd, i, &k, &v); i++)
    {
      const char *key = k->s->data, *end = key + strlen (key);
      Unexpected u = { 0, i, key };
      if (fx_dict_get (model_sd, k) != NULL)
        continue;
      /* the deepest module whose prefix the key has: "a.b.c" tries "a.b", "a", "" */
      for (const char *p = end; ; p--)
        {
          if (p == key || *p == '.')
            {
              g_autofree char *prefix = g_strndup (key, p - key);
              gpointer r = g_hash_table_lookup (rank, prefix);
              if (r != NULL)
                {
                  FxModule *m = modules->pdata[GPOINTER_TO_UINT (r) - 1];
                  const char *rest = p == key ? key : p + 1, *dot = strchr (rest, '.');
                  g_autofree char *first = dot ? g_strndup (rest, dot - rest) : g_strdup (rest);
                  char kind = fx_module_attr_kind (m, first);
                  /* a key below one of the module's own tensors is silently ignored */
                  if (kind != 'p' && kind != 'b')
                    {
                      u.rank = GPOINTER_TO_UINT (r);
                      g_array_append_val (found, u);
                    }
                  break;
                }
            }
          if (p == key)
            break;
        }
    }
  g_array_sort (found, unexpected_cmp);
  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (report->unexpected,
                     g_strdup (g_array_index (found, Unexpected, i).key));
}

/* Module.load_state_dict(file_sd, strict=True) on the traced module's tree: FALSE with
 * PyTorch's RuntimeError text. Missing BatchNorm counters load as 0, as torch does for
 * state dicts without version metadata. */
static gboolean
load_weights (FxModule *root, FxDict *file_sd, GError **error)
{
  g_autoptr (FxDict) model_sd = fx_module_state_dict (root);
  LoadReport report = {
    g_ptr_array_new_with_free_func (g_free), g_ptr_array_new_with_free_func (g_free),
    g_ptr_array_new_with_free_func (g_free),
  };
  const FxValue *k, *v;
  gboolean ok;

  for (guint i = 0; fx_dict_entry (model_sd, i, &k, &v); i++)
    {
      const FxValue *in = fx_dict_get (file_sd, k);
      FxTensor *param = v->tensor;
      gboolean same;
      if (in == NULL)
        {
          if (is_batchnorm_counter (root, k->s->data))
            {
              g_autoptr (FxTensor) zero = fx_tensor_scalar_int64 (param->dtype, 0);
              fx_tensor_copy_into (param, zero, NULL);
            }
          else
            g_ptr_array_add (report.missing, g_strdup (k->s->data));
          continue;
        }
      same = in->tensor->ndim == param->ndim;
      for (int d = 0; same && d < param->ndim; d++)
        same = in->tensor->shape[d] == param->shape[d];
      if (!same)
        {
          g_autofree char *a = size_repr (in->tensor), *b = size_repr (param);
          g_ptr_array_add (report.mismatch, g_strdup_printf (
            "size mismatch for %s: copying a param with shape %s from checkpoint, the shape in "
            "current model is %s.", k->s->data, a, b));
          continue;
        }
      if (!fx_tensor_copy_into (param, in->tensor, error))
        goto out;
    }
  find_unexpected (root, model_sd, file_sd, &report);

out:
  ok = error == NULL || *error == NULL;
  if (ok && (report.missing->len || report.unexpected->len || report.mismatch->len))
    {
      GString *s = g_string_new (NULL);
      const char *sep = "\n\t";
      g_string_append_printf (s, "Error(s) in loading state_dict for %s:%s", root->type_name, sep);
      if (report.missing->len)
        {
          g_string_append (s, "Missing key(s) in state_dict: ");
          for (guint i = 0; i < report.missing->len; i++)
            g_string_append_printf (s, "%s\"%s\"", i ? ", " : "", (char *) report.missing->pdata[i]);
          g_string_append (s, ". ");
        }
      if (report.unexpected->len)
        {
          if (report.missing->len)
            g_string_append (s, sep);
          g_string_append (s, "Unexpected key(s) in state_dict: ");
          for (guint i = 0; i < report.unexpected->len; i++)
            g_string_append_printf (s, "%s\"%s\"", i ? ", " : "", (char *) report.unexpected->pdata[i]);
          g_string_append (s, ". ");
        }
      for (guint i = 0; i < report.mismatch->len; i++)
        {
          if (i > 0 || report.missing->len || report.unexpected->len)
            g_string_append (s, sep);
          g_string_append (s, report.mismatch->pdata[i]);
        }
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, s->str);
      g_string_free (s, TRUE);
      ok = FALSE;
    }
  g_ptr_array_unref (report.missing);
  g_ptr_array_unref (report.unexpected);
  g_ptr_array_unref (report.mismatch);
  return ok;
}

static FxDict *
read_weights (const char *path, GError **error)
{
  if (g_str_has_suffix (path, ".safetensors"))
    return fx_safetensors_load (path, NULL, error);
  if (g_str_has_suffix (path, ".pt") || g_str_has_suffix (path, ".pth")
      || g_str_has_suffix (path, ".bin") || g_str_has_suffix (path, ".ckpt"))
    return fx_checkpoint_load (path, error);
  g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
               "--weights '%s': expected a .safetensors file or a torch.save checkpoint "
               "(.pt, .pth)", path);
  return NULL;
}

/* ------------------------------------------------------------------ outputs */

typedef struct {
  gboolean print_values;
  FxDict *save;                 /* name → tensor for -o, or NULL */
  GString *out;
} OutputWalk;

/* "output  shape=[1, 1000]  dtype=torch.float32  min=... max=... mean=... std=..." — the
 * statistics in float64 over every element, std unbiased as torch.std's default; %.7g
 * keeps them short and the same from run to run. */
static void
describe_tensor (OutputWalk *w, const char *name, FxTensor *t)
{
  int64_t n = fx_tensor_numel (t);
  g_autofree char *shape = fx_shape_to_string (t->ndim, t->shape);

  g_string_append_printf (w->out, "%s  shape=%s  dtype=torch.%s", name, shape,
                          fx_dtype_name (t->dtype));
  if (n > 0)
    {
      g_autoptr (FxTensor) d = fx_tensor_to_dtype (t, FX_DTYPE_FLOAT64);
      g_autoptr (FxTensor) c = fx_tensor_contiguous (d);
      const double *x = fx_tensor_data (c);
      double lo = x[0], hi = x[0], sum = 0, mean, ss = 0;
      for (int64_t i = 0; i < n; i++)
        {
          /* NaN wins, as in torch.min/max */
          if (isnan (x[i]) || x[i] < lo)
            lo = isnan (lo) ? lo : x[i];
          if (isnan (x[i]) || x[i] > hi)
            hi = isnan (hi) ? hi : x[i];
          sum += x[i];
        }
      mean = sum / (double) n;
      for (int64_t i = 0; i < n; i++)
        ss += (x[i] - mean) * (x[i] - mean);
      g_string_append_printf (w->out, "  min=%.7g  max=%.7g  mean=%.7g  std=%.7g", lo, hi, mean,
                              n > 1 ? sqrt (ss / (double) (n - 1)) : NAN);
    }
  else
    g_string_append (w->out, "  (empty)");
  g_string_append_c (w->out, '\n');
  if (w->print_values)
    {
      fx_tensor_repr (t, w->out);
      g_string_append_c (w->out, '\n');
    }
  if (w->save != NULL)
    {
      FxValue key = fx_value_take_str (fx_str_new (name));
      fx_dict_set (w->save, key, fx_value_tensor (t));
    }
}

/* The output value tree: tensors described, containers walked ("output[0]",
 * "output['logits']"), anything else shown by its repr. depth bounds nesting. */
static void
describe_value (OutputWalk *w, const char *name, const FxValue *v, int depth)
{
  if (v->kind == FX_VALUE_TENSOR)
    describe_tensor (w, name, v->tensor);
  else if ((v->kind == FX_VALUE_TUPLE || v->kind == FX_VALUE_LIST) && depth < 64)
    for (guint i = 0; i < v->seq->len; i++)
      {
        g_autofree char *sub = g_strdup_printf ("%s[%u]", name, i);
        describe_value (w, sub, &v->seq->items[i], depth + 1);
      }
  else if (v->kind == FX_VALUE_DICT && depth < 64)
    {
      const FxValue *k, *x;
      for (guint i = 0; fx_dict_entry (v->dict, i, &k, &x); i++)
        {
          g_autofree char *kr = fx_value_to_repr (k);
          g_autofree char *sub = g_strdup_printf ("%s[%s]", name, kr);
          describe_value (w, sub, x, depth + 1);
        }
    }
  else
    {
      g_autofree char *r = fx_value_to_repr (v);
      g_string_append_printf (w->out, "%s  %s\n", name, r);
    }
}

/* ------------------------------------------------------------------ the command */

int
fx_command_exec (int argc, char **argv)
{
  g_autofree char *module = NULL, *weights = NULL, *output = NULL;
  g_auto (GStrv) inputs = NULL, rest = NULL;
  gboolean print_values = FALSE, profile = FALSE, eval_mode = FALSE;
  GOptionEntry entries[] = {
    { "module", 0, 0, G_OPTION_ARG_STRING, &module, "Module, class or function to trace", "NAME" },
    { "weights", 0, 0, G_OPTION_ARG_FILENAME, &weights, "Load a state dict (.safetensors, .pt)", "FILE" },
    { "input", 0, 0, G_OPTION_ARG_STRING_ARRAY, &inputs, "An input, in order", "SPEC" },
    { "eval", 0, 0, G_OPTION_ARG_NONE, &eval_mode, "Run in eval mode (module.eval())", NULL },
    { "print-values", 0, 0, G_OPTION_ARG_NONE, &print_values, "Print the outputs' values", NULL },
    { "profile", 0, 0, G_OPTION_ARG_NONE, &profile, "Print per-node times (mean and fastest of several runs after a warm-up)", NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the output tensors as safetensors", "FILE" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (FxGraphModule) gm = NULL;
  g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_tensor_unref);
  FxGenerator *shared = NULL;
  FxValue *argv_values;
  FxValue result = fx_value_none ();
  OutputWalk walk = { 0 };
  gint64 start, elapsed, best = 0;
  int runs = 0;
  gboolean ok;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_help_enabled (context, FALSE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return exec_usage_error (error->message);
  if (rest == NULL || rest[0] == NULL)
    return exec_usage_error ("missing MODEL.py");
  if (rest[1] != NULL)
    {
      g_autofree char *message = g_strdup_printf ("unexpected argument '%s'", rest[1]);
      return exec_usage_error (message);
    }
  if (module == NULL)
    return exec_usage_error ("--module NAME is required");
  if (inputs == NULL)
    return exec_usage_error ("at least one --input SPEC is required");

  /* inputs first: a bad SPEC is reported before the model runs at all */
  shared = fx_generator_new (0);
  for (int i = 0; inputs[i] != NULL; i++)
    {
      FxTensor *t = parse_input (inputs[i], shared, &error);
      if (t == NULL)
        {
          fx_generator_free (shared);
          return exec_usage_error (error->message);
        }
      g_ptr_array_add (args, t);
    }
  fx_generator_free (shared);

  gm = fx_cli_trace (rest[0], module, NULL, NULL, &error);
  if (gm == NULL)
    return fx_cli_fail ("exec", NULL, error);
  if (weights != NULL)
    {
      g_autoptr (FxDict) sd = read_weights (weights, &error);
      if (sd == NULL)
        return fx_cli_fail ("exec", weights, error);
      if (!load_weights (gm->module, sd, &error))
        {
          fprintf (stderr, "fx exec: %s: RuntimeError: %s\n", weights, error->message);
          return 1;
        }
    }
  /* module.eval() after tracing: BatchNorm and Dropout read the flag when they run */
  if (eval_mode)
    fx_module_train (gm->module, FALSE);
  argv_values = g_new0 (FxValue, args->len ? args->len : 1);
  for (guint i = 0; i < args->len; i++)
    argv_values[i] = fx_value_tensor (args->pdata[i]);
  /* inference, as under torch.no_grad(): the outputs print without grad_fn */
  fx_grad_mode_set (FALSE);
  if (profile)
    {
      /* one warm-up run first: the first call of a kernel pays for thread pools, BLAS
       * buffers and page faults, which would swamp the first nodes' times */
      g_autoptr (FxExecPlan) plan = fx_graph_module_get_plan (gm, &error);
      if (plan == NULL || !fx_graph_module_call (gm, argv_values, (int) args->len, NULL, &result,
                                                 &error))
        {
          for (guint i = 0; i < args->len; i++)
            fx_value_clear (&argv_values[i]);
          g_free (argv_values);
          return fx_cli_fail ("exec", NULL, error);
        }
      fx_value_clear (&result);
      fx_exec_plan_set_profiling (plan, TRUE);
    }
  /* a profile averages several runs (at least PROFILE_MIN_RUNS, for PROFILE_MIN_NS or up
   * to PROFILE_MAX_RUNS): one run's node times swing with the machine, and the first ones
   * after the warm-up still meet cold caches */
  start = monotonic_ns ();
  do
    {
      gint64 t0 = monotonic_ns (), dt;
      fx_value_clear (&result);
      ok = fx_graph_module_call (gm, argv_values, (int) args->len, NULL, &result, &error);
      runs++;
      dt = monotonic_ns () - t0;
      best = runs == 1 ? dt : MIN (best, dt);
      elapsed = monotonic_ns () - start;
    }
  while (ok && profile && runs < PROFILE_MAX_RUNS
         && (runs < PROFILE_MIN_RUNS || elapsed < PROFILE_MIN_NS));
  for (guint i = 0; i < args->len; i++)
    fx_value_clear (&argv_values[i]);
  g_free (argv_values);
  if (!ok)
    return fx_cli_fail ("exec", NULL, error);

  walk.print_values = print_values;
  walk.out = g_string_new (NULL);
  walk.save = output ? fx_dict_new () : NULL;
  describe_value (&walk, "output", &result, 0);
  fx_value_clear (&result);
  fputs (walk.out->str, stdout);
  g_string_free (walk.out, TRUE);
  if (profile)
    {
      g_autoptr (FxExecPlan) plan = fx_graph_module_get_plan (gm, &error);
      g_autofree char *table = plan ? fx_exec_plan_format_profile (plan) : NULL;
      if (table == NULL)
        return fx_cli_fail ("exec", NULL, error);
      printf ("\nforward: %.3f ms, the mean of %d runs after a warm-up (the table adds up all %d); "
              "the fastest run %.3f ms\n%s",
              (double) elapsed / 1e6 / runs, runs, runs, (double) best / 1e6, table);
      if (table[0] && table[strlen (table) - 1] != '\n')
        putchar ('\n');
    }
  if (walk.save != NULL)
    {
      ok = fx_safetensors_save (walk.save, NULL, output, &error);
      fx_dict_unref (walk.save);
      if (!ok)
        return fx_cli_fail ("exec", output, error);
    }
  return 0;
}
