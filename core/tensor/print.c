/* print.c: PyTorch's tensor repr. One pass over the elements that will be shown chooses the
 * number format (integer-valued "1.", fixed "1.5000" or scientific "1.5000e+10") and the
 * column width; a second pass lays them out in nested brackets, wrapping rows at 80 columns
 * and eliding the middle of long dimensions with "...". */
#include "tensor/print.h"

#include <math.h>
#include <string.h>

#define PRINT_PRECISION 4
#define PRINT_THRESHOLD 1000   /* more elements than this: summarise */
#define PRINT_EDGEITEMS 3
#define PRINT_LINEWIDTH 80

typedef enum {
  FMT_INT,        /* integer dtypes */
  FMT_BOOL,
  FMT_FLOAT_INT,  /* floats whose finite values are all integers: "3." */
  FMT_FLOAT_FIXED,
  FMT_FLOAT_SCI,
} FmtMode;

typedef struct {
  const FxTensor *t;
  const char *data;      /* element 0 of the view */
  gboolean summarize;
  FmtMode mode;
  int width;
  /* statistics gathered over the shown elements */
  gboolean all_int;
  gboolean any_finite_nonzero;
  double nz_min, nz_max;
} Printer;

static double
read_double (const Printer *p, int64_t off)
{
  const char *ptr = p->data + off * (int64_t) fx_dtype_size (p->t->dtype);
  switch (p->t->dtype)
    {
    case FX_DTYPE_FLOAT16: return fx_half_to_float (*(const uint16_t *) ptr);
    case FX_DTYPE_FLOAT32: return *(const float *) ptr;
    case FX_DTYPE_FLOAT64: return *(const double *) ptr;
    default: return 0;
    }
}

static int64_t
read_int (const Printer *p, int64_t off)
{
  const char *ptr = p->data + off * (int64_t) fx_dtype_size (p->t->dtype);
  switch (p->t->dtype)
    {
    case FX_DTYPE_BOOL: return *(const guint8 *) ptr != 0;
    case FX_DTYPE_UINT8: return *(const guint8 *) ptr;
    case FX_DTYPE_INT8: return *(const gint8 *) ptr;
    case FX_DTYPE_INT16: return *(const gint16 *) ptr;
    case FX_DTYPE_INT32: return *(const gint32 *) ptr;
    case FX_DTYPE_INT64: return *(const gint64 *) ptr;
    default: return 0;
    }
}

/* An element without padding. */
static void
format_element (const Printer *p, int64_t off, GString *out)
{
  switch (p->mode)
    {
    case FMT_INT:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, read_int (p, off));
      return;
    case FMT_BOOL:
      g_string_append (out, read_int (p, off) ? "True" : "False");
      return;
    default:
      break;
    }
  double v = read_double (p, off);
  if (isnan (v))
    g_string_append (out, "nan");
  else if (isinf (v))
    g_string_append (out, v > 0 ? "inf" : "-inf");
  else if (p->mode == FMT_FLOAT_INT)
    g_string_append_printf (out, "%.0f.", v);
  else if (p->mode == FMT_FLOAT_FIXED)
    g_string_append_printf (out, "%.*f", PRINT_PRECISION, v);
  else
    g_string_append_printf (out, "%.*e", PRINT_PRECISION, v);
}

/* Whether index i of a dimension of the given size is shown. */
static gboolean
shown (const Printer *p, int64_t size, int64_t i)
{
  return !p->summarize || size <= 2 * PRINT_EDGEITEMS || i < PRINT_EDGEITEMS
         || i >= size - PRINT_EDGEITEMS;
}

/* Visits the shown elements; skips the elided middle in O(1). */
typedef void (*VisitFunc) (Printer *p, int64_t off);

static void
visit (Printer *p, int d, int64_t off, VisitFunc fn)
{
  const FxTensor *t = p->t;
  if (d == t->ndim)
    {
      fn (p, off);
      return;
    }
  for (int64_t i = 0; i < t->shape[d]; i++)
    {
      if (!shown (p, t->shape[d], i))
        i = t->shape[d] - PRINT_EDGEITEMS;
      visit (p, d + 1, off + i * t->strides[d], fn);
    }
}

static void
gather_stats (Printer *p, int64_t off)
{
  double v = read_double (p, off);
  if (!isfinite (v))
    return;
  if (v != ceil (v))
    p->all_int = FALSE;
  if (v == 0)
    return;
  double a = fabs (v);
  if (!p->any_finite_nonzero)
    {
      p->nz_min = p->nz_max = a;
      p->any_finite_nonzero = TRUE;
    }
  else
    {
      p->nz_min = MIN (p->nz_min, a);
      p->nz_max = MAX (p->nz_max, a);
    }
}

/* For floats only the finite nonzero values set the column width (at least 1): [-0., 1.],
 * [inf, -inf] and [1., nan] print unpadded, and all-zero rows wrap as if one wide. */
static void
measure (Printer *p, int64_t off)
{
  if (p->mode != FMT_INT && p->mode != FMT_BOOL)
    {
      double v = read_double (p, off);
      if (!isfinite (v) || v == 0)
        return;
    }
  GString *s = g_string_sized_new (24);
  format_element (p, off, s);
  p->width = MAX (p->width, (int) s->len);
  g_string_free (s, TRUE);
}

static void
choose_format (Printer *p)
{
  const FxTensor *t = p->t;
  if (t->dtype == FX_DTYPE_BOOL)
    p->mode = FMT_BOOL;
  else if (!fx_dtype_is_floating (t->dtype))
    p->mode = FMT_INT;
  else
    {
      p->all_int = TRUE;
      visit (p, 0, 0, gather_stats);
      /* The thresholds are compared in double precision, after the cast from the dtype. */
      gboolean sci = FALSE;
      if (p->any_finite_nonzero)
        {
          double ratio = p->nz_max / p->nz_min;
          sci = ratio > 1000.0 || p->nz_max > 1e8 || (!p->all_int && p->nz_min < 1e-4);
        }
      p->mode = sci ? FMT_FLOAT_SCI : p->all_int ? FMT_FLOAT_INT : FMT_FLOAT_FIXED;
    }
  p->width = 1;
  visit (p, 0, 0, measure);
}

static void
append_padded (const Printer *p, int64_t off, GString *out)
{
  gsize start = out->len;
  format_element (p, off, out);
  int len = (int) (out->len - start);
  if (len < p->width)
    {
      char pad[64];
      int n = MIN (p->width - len, (int) sizeof pad);
      memset (pad, ' ', n);
      g_string_insert_len (out, start, pad, n);
    }
}

static void
append_spaces (GString *out, int n)
{
  for (int i = 0; i < n; i++)
    g_string_append_c (out, ' ');
}

static void
render (const Printer *p, int d, int64_t off, int indent, GString *out)
{
  const FxTensor *t = p->t;
  int64_t size = t->shape[d];
  gboolean elide = p->summarize && size > 2 * PRINT_EDGEITEMS;

  g_string_append_c (out, '[');
  if (d == t->ndim - 1)
    {
      int per_line = MAX (1, (PRINT_LINEWIDTH - indent) / (p->width + 2));
      int col = 0;
      for (int64_t i = 0; i < size; i++)
        {
          gboolean dots = elide && i == PRINT_EDGEITEMS;
          if (col == per_line)
            {
              g_string_append (out, ",\n");
              append_spaces (out, indent + 1);
              col = 0;
            }
          else if (i > 0)
            g_string_append (out, ", ");
          if (dots)
            {
              g_string_append (out, " ...");
              i = size - PRINT_EDGEITEMS - 1;
            }
          else
            append_padded (p, off + i * t->strides[d], out);
          col++;
        }
    }
  else
    {
      int newlines = t->ndim - d - 1;
      for (int64_t i = 0; i < size; i++)
        {
          if (i > 0)
            {
              g_string_append_c (out, ',');
              for (int k = 0; k < newlines; k++)
                g_string_append_c (out, '\n');
              append_spaces (out, indent + 1);
            }
          if (elide && i == PRINT_EDGEITEMS)
            {
              g_string_append (out, "...");
              i = size - PRINT_EDGEITEMS - 1;
            }
          else
            render (p, d + 1, off + i * t->strides[d], indent + 1, out);
        }
    }
  g_string_append_c (out, ']');
}

/* ", suffix", or a new line when it would pass the line width. PyTorch measures the line
 * the tensor ends on as two columns longer than it is (but not a line that a suffix
 * started), and so do we: its wrapping is the reference. */
static void
add_suffix (GString *out, const char *suffix, int indent, gsize *last_line)
{
  if (*last_line + strlen (suffix) + 2 > PRINT_LINEWIDTH)
    {
      g_string_append (out, ",\n");
      append_spaces (out, indent);
      *last_line = indent + strlen (suffix);
    }
  else
    {
      g_string_append (out, ", ");
      *last_line += strlen (suffix) + 2;
    }
  g_string_append (out, suffix);
}

void
fx_tensor_repr (const FxTensor *t, GString *out)
{
  const int indent = (int) strlen ("tensor(");
  GString *s = g_string_new ("tensor(");
  int64_t numel;

  g_return_if_fail (t != NULL && out != NULL);
  numel = fx_tensor_numel (t);
  if (numel == 0)
    g_string_append (s, "[]");
  else
    {
      Printer p = { 0 };
      p.t = t;
      p.data = fx_tensor_data (t);
      p.summarize = numel > PRINT_THRESHOLD;
      choose_format (&p);
      if (t->ndim == 0)
        format_element (&p, 0, s);
      else
        render (&p, 0, 0, indent, s);
    }

  const char *nl = strrchr (s->str, '\n');
  gsize last_line = (nl ? s->len - (gsize) (nl + 1 - s->str) : s->len) + 2;
  if (numel == 0 && t->ndim != 1)
    {
      GString *size = g_string_new ("size=(");
      for (int i = 0; i < t->ndim; i++)
        g_string_append_printf (size, "%s%" G_GINT64_FORMAT, i ? ", " : "", t->shape[i]);
      g_string_append (size, t->ndim == 1 ? ",)" : ")");
      add_suffix (s, size->str, indent, &last_line);
      g_string_free (size, TRUE);
    }
  /* float32, int64 and bool go without saying, except for an empty tensor, whose values
   * cannot tell int64 or bool. */
  if (t->dtype != FX_DTYPE_FLOAT32
      && ((t->dtype != FX_DTYPE_INT64 && t->dtype != FX_DTYPE_BOOL) || numel == 0))
    {
      g_autofree char *dt = g_strdup_printf ("dtype=torch.%s", fx_dtype_name (t->dtype));
      add_suffix (s, dt, indent, &last_line);
    }
  if (t->grad_fn != NULL)
    {
      g_autofree char *node = g_strdup_printf ("grad_fn=<%s>", t->grad_fn);
      add_suffix (s, node, indent, &last_line);
    }
  else if (t->requires_grad)
    add_suffix (s, "requires_grad=True", indent, &last_line);
  g_string_append_c (s, ')');
  g_string_append_len (out, s->str, s->len);
  g_string_free (s, TRUE);
}

char *
fx_tensor_to_string (const FxTensor *t)
{
  GString *out = g_string_new (NULL);
  fx_tensor_repr (t, out);
  return g_string_free (out, FALSE);
}
