/* index.c: Python indexing of tensors, following PyTorch 1.13's two stages: the items of the
 * index are applied one by one as views (select, slice, unsqueeze), while index tensors are
 * set aside by dim; then, if any were set aside, one "advanced" gather (or scatter, for
 * x[idx] = v) runs over the view, with the indexed dims' results placed where the first of
 * them was when they are adjacent, and in front otherwise. */
#include "tensor/index.h"
#include "tensor/shape.h"
#include "fx-error.h"

#include <math.h>
#include <string.h>

#define MAX_SLOTS (FX_TENSOR_MAX_DIMS + 1)

static const char zero_dim_message[] =
  "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ "
  "to convert a 0-dim tensor to a number";

/* The Python type name of an index or value, for error messages. */
static const char *
py_type_name (const FxValue *v)
{
  if (v->kind == FX_VALUE_OBJECT && v->obj && v->obj->klass)
    return v->obj->klass->name;
  if (v->kind == FX_VALUE_TUPLE && v->seq->type == &fx_tuple_type_size)
    return "torch.Size";
  return fx_value_kind_name (v->kind);
}

static FxTensor *
alias_of (FxTensor *t)
{
  FxTensor *v = fx_tensor_new_view (t->storage, t->dtype, t->ndim, t->shape, t->strides,
                                    t->offset);
  v->requires_grad = t->requires_grad;
  return v;
}

/* ------------------------------------------------------------------ basic indexing */

/* real_dim is the item's position in the index tuple: PyTorch names it in the message. */
static FxTensor *
apply_select (FxTensor *t, int dim, int64_t index, int real_dim, GError **error)
{
  int64_t size;

  if (index == 0 && dim == 0 && t->ndim == 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_INDEX, zero_dim_message);
      return NULL;
    }
  size = dim < t->ndim ? t->shape[dim] : 0;
  if (index < -size || index >= size)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                   "index %" G_GINT64_FORMAT " is out of bounds for dimension %d with size %"
                   G_GINT64_FORMAT, index, real_dim, size);
      return NULL;
    }
  return fx_tensor_select (t, dim, index, error);
}

static gboolean
slice_part (const FxValue *v, gboolean *given, int64_t *out, GError **error)
{
  *given = TRUE;
  switch (v->kind)
    {
    case FX_VALUE_NONE:
      *given = FALSE;
      return TRUE;
    case FX_VALUE_INT:
      *out = v->i;
      return TRUE;
    case FX_VALUE_BOOL:
      *out = v->b;
      return TRUE;
    case FX_VALUE_TENSOR:
      if (v->tensor->ndim == 0 && !fx_dtype_is_floating (v->tensor->dtype))
        {
          *out = fx_tensor_get_int64 (v->tensor, 0);
          return TRUE;
        }
      break;
    default:
      break;
    }
  g_set_error_literal (error, FX_ERROR, FX_ERROR_DTYPE,
                       "slice indices must be integers or None or have an __index__ method");
  return FALSE;
}

static FxTensor *
apply_slice (FxTensor *t, int dim, const FxSlice *s, GError **error)
{
  int64_t start = 0, stop = INT64_MAX, step = 1;
  gboolean given;

  if (!slice_part (&s->step, &given, &step, error))
    return NULL;
  if (given && step == 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                           "slice step cannot be zero");
      return NULL;
    }
  if (!slice_part (&s->start, &given, &start, error)
      || !slice_part (&s->stop, &given, &stop, error))
    return NULL;
  if (!given)
    stop = INT64_MAX;
  if (step < 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                           "step must be greater than zero");
      return NULL;
    }
  if (t->ndim == 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_INDEX,
                           "slice() cannot be applied to a 0-dim tensor.");
      return NULL;
    }
  return fx_tensor_slice (t, dim, start, stop, step, error);
}

/* The index tensor that a bool stands for: [0] for True, [] for False. */
static FxTensor *
bool_index_tensor (gboolean value)
{
  int64_t n = value ? 1 : 0;
  return fx_tensor_zeros (FX_DTYPE_INT64, 1, &n);
}

/* ------------------------------------------------------------------ lists as index tensors */

typedef struct {
  int ndim;
  int64_t shape[FX_TENSOR_MAX_DIMS];
  gboolean any_number;     /* an int or a float: the result is int64, else bool */
  GArray *values;          /* int64 */
} SeqConv;

static gboolean
is_sequence (const FxValue *v)
{
  return v->kind == FX_VALUE_LIST || v->kind == FX_VALUE_TUPLE;
}

static gboolean
seq_scalar (SeqConv *c, const FxValue *v, GError **error)
{
  int64_t x;
  switch (v->kind)
    {
    case FX_VALUE_BOOL:
      x = v->b;
      break;
    case FX_VALUE_INT:
      x = v->i;
      c->any_number = TRUE;
      break;
    case FX_VALUE_FLOAT:
      x = isfinite (v->f) && fabs (v->f) < 9.2e18 ? (int64_t) v->f : INT64_MIN;
      c->any_number = TRUE;
      break;
    case FX_VALUE_TENSOR:
      if (fx_tensor_numel (v->tensor) != 1)
        {
          g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                               "only one element tensors can be converted to Python scalars");
          return FALSE;
        }
      if (fx_dtype_is_floating (v->tensor->dtype))
        {
          double f = fx_tensor_get_double (v->tensor, 0);
          x = isfinite (f) && fabs (f) < 9.2e18 ? (int64_t) f : INT64_MIN;
        }
      else
        x = fx_tensor_get_int64 (v->tensor, 0);
      if (v->tensor->dtype != FX_DTYPE_BOOL)
        c->any_number = TRUE;
      break;
    case FX_VALUE_STR:
      g_set_error_literal (error, FX_ERROR, FX_ERROR_DTYPE, "new(): invalid data type 'str'");
      return FALSE;
    default:
      g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "Could not infer dtype of %s",
                   py_type_name (v));
      return FALSE;
    }
  g_array_append_val (c->values, x);
  return TRUE;
}

static gboolean
seq_store (SeqConv *c, const FxValue *v, int dim, GError **error)
{
  if (dim == c->ndim)
    {
      if (is_sequence (v))
        {
          g_set_error_literal (error, FX_ERROR, FX_ERROR_DTYPE,
                               "an index list must hold numbers or equal-length lists");
          return FALSE;
        }
      return seq_scalar (c, v, error);
    }
  if (!is_sequence (v))
    {
      if (v->kind == FX_VALUE_STR)
        g_set_error_literal (error, FX_ERROR, FX_ERROR_DTYPE, "new(): invalid data type 'str'");
      else
        g_set_error_literal (error, FX_ERROR, FX_ERROR_DTYPE, "not a sequence");
      return FALSE;
    }
  if ((int64_t) v->seq->len != c->shape[dim])
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                   "expected sequence of length %" G_GINT64_FORMAT " at dim %d (got %u)",
                   c->shape[dim], dim, v->seq->len);
      return FALSE;
    }
  for (guint i = 0; i < v->seq->len; i++)
    if (!seq_store (c, &v->seq->items[i], dim + 1, error))
      return FALSE;
  return TRUE;
}

/* A list such as [0, 2] or [[True, False]] as an index tensor: bool when every item is a
 * bool, int64 otherwise (floats truncated), as torch's indexing_tensor_from_data does. */
static FxTensor *
sequence_to_tensor (const FxValue *v, GError **error)
{
  SeqConv c = { 0 };
  const FxValue *p = v;
  FxTensor *out = NULL;

  while (is_sequence (p))
    {
      if (c.ndim == FX_TENSOR_MAX_DIMS)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                       "libfx tensors have at most %d dimensions", FX_TENSOR_MAX_DIMS);
          return NULL;
        }
      c.shape[c.ndim++] = p->seq->len;
      if (p->seq->len == 0)
        break;
      p = &p->seq->items[0];
    }
  c.values = g_array_new (FALSE, FALSE, sizeof (int64_t));
  if (seq_store (&c, v, 0, error))
    {
      /* an empty list holds no bools: PyTorch infers its default float, hence int64 */
      gboolean as_bool = !c.any_number && c.values->len > 0;
      out = fx_tensor_new_uninit (as_bool ? FX_DTYPE_BOOL : FX_DTYPE_INT64, c.ndim, c.shape);
      if (as_bool)
        {
          uint8_t *d = fx_tensor_data (out);
          for (guint i = 0; i < c.values->len; i++)
            d[i] = g_array_index (c.values, int64_t, i) != 0;
        }
      else if (c.values->len > 0)
        memcpy (fx_tensor_data (out), c.values->data, sizeof (int64_t) * c.values->len);
    }
  g_array_free (c.values, TRUE);
  return out;
}

/* ------------------------------------------------------------------ applying the items */

typedef struct {
  FxTensor *result;              /* t after the basic items */
  FxTensor *slots[MAX_SLOTS];    /* index tensors by dim of result; NULL: none */
  int n_slots;
} Parsed;

static void
parsed_clear (Parsed *p)
{
  g_clear_pointer (&p->result, fx_tensor_unref);
  for (int i = 0; i < p->n_slots; i++)
    g_clear_pointer (&p->slots[i], fx_tensor_unref);
  p->n_slots = 0;
}

static gboolean
record_index (Parsed *p, FxTensor *index, int *dim, GError **error)
{
  if (index == NULL)
    return FALSE;
  if (*dim >= MAX_SLOTS)
    {
      fx_tensor_unref (index);
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "libfx tensors have at most %d dimensions", FX_TENSOR_MAX_DIMS);
      return FALSE;
    }
  while (p->n_slots <= *dim)
    p->slots[p->n_slots++] = NULL;
  if (p->slots[*dim])
    fx_tensor_unref (p->slots[*dim]);
  p->slots[*dim] = index;
  (*dim)++;
  return TRUE;
}

/* How many dims of t the items consume (a mask consumes as many as it has). */
static int64_t
count_specified (const FxValue *items, guint n)
{
  int64_t count = 0;
  for (guint i = 0; i < n; i++)
    {
      const FxValue *v = &items[i];
      if (v->kind == FX_VALUE_TENSOR)
        count += (v->tensor->dtype == FX_DTYPE_BOOL || v->tensor->dtype == FX_DTYPE_UINT8)
                 ? v->tensor->ndim : 1;
      else if (v->kind != FX_VALUE_NONE && v->kind != FX_VALUE_ELLIPSIS
               && v->kind != FX_VALUE_BOOL)
        count++;
    }
  return count;
}

static gboolean
apply_items (FxTensor *t, const FxValue *items, guint n, Parsed *p, GError **error)
{
  int64_t specified = count_specified (items, n);
  int dim = 0;

  memset (p, 0, sizeof *p);
  if (specified > t->ndim)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX, "too many indices for tensor of dimension %d",
                   t->ndim);
      return FALSE;
    }
  p->result = fx_tensor_ref (t);
  for (guint i = 0; i < n; i++)
    {
      const FxValue *v = &items[i];
      FxTensor *next = NULL;

      switch (v->kind)
        {
        case FX_VALUE_INT:
          next = apply_select (p->result, dim, v->i, (int) i, error);
          break;
        case FX_VALUE_SLICE:
          next = apply_slice (p->result, dim, v->slice, error);
          dim++;
          break;
        case FX_VALUE_ELLIPSIS:
          dim += (int) (t->ndim - specified);
          continue;
        case FX_VALUE_NONE:
          next = fx_tensor_unsqueeze (p->result, dim, error);
          dim++;
          break;
        case FX_VALUE_BOOL:
          next = fx_tensor_unsqueeze (p->result, dim, error);
          if (next && !record_index (p, bool_index_tensor (v->b), &dim, error))
            g_clear_pointer (&next, fx_tensor_unref);
          break;
        case FX_VALUE_TENSOR:
          {
            FxTensor *x = v->tensor;
            if (x->ndim == 0 && !fx_dtype_is_floating (x->dtype))
              {
                int64_t item = fx_tensor_get_int64 (x, 0);
                if (x->dtype != FX_DTYPE_BOOL && x->dtype != FX_DTYPE_UINT8)
                  next = apply_select (p->result, dim, item, (int) i, error);
                else
                  {
                    next = fx_tensor_unsqueeze (p->result, dim, error);
                    if (next && !record_index (p, bool_index_tensor (item != 0), &dim, error))
                      g_clear_pointer (&next, fx_tensor_unref);
                  }
              }
            else if (!record_index (p, fx_tensor_ref (x), &dim, error))
              goto fail;
            else
              continue;
          }
          break;
        case FX_VALUE_LIST:
        case FX_VALUE_TUPLE:
          if (!record_index (p, sequence_to_tensor (v, error), &dim, error))
            goto fail;
          continue;
        case FX_VALUE_STR:
          g_set_error_literal (error, FX_ERROR, FX_ERROR_DTYPE, "new(): invalid data type 'str'");
          goto fail;
        default:
          g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                       "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                       "Variables are valid indices (got %s)", py_type_name (v));
          goto fail;
        }
      if (next == NULL)
        goto fail;
      fx_tensor_unref (p->result);
      p->result = next;
    }
  return TRUE;

fail:
  parsed_clear (p);
  return FALSE;
}

/* A list is one index (a list of ints) or stands for a tuple (it holds slices, tensors, ...),
 * by NumPy's old heuristic that PyTorch keeps. */
static gboolean
list_is_tuple (const FxSeq *seq)
{
  if (seq->len >= 32)
    return FALSE;
  for (guint i = 0; i < seq->len; i++)
    switch (seq->items[i].kind)
      {
      case FX_VALUE_TENSOR:
      case FX_VALUE_LIST:
      case FX_VALUE_TUPLE:
      case FX_VALUE_STR:
      case FX_VALUE_SLICE:
      case FX_VALUE_ELLIPSIS:
      case FX_VALUE_NONE:
        return TRUE;
      default:
        break;
      }
  return FALSE;
}

/* The items of an index that is not handled as a single simple item. */
static void
index_items (const FxValue *index, const FxValue **items, guint *n)
{
  if (index->kind == FX_VALUE_TUPLE
      || (index->kind == FX_VALUE_LIST && list_is_tuple (index->seq)))
    {
      *items = index->seq->items;
      *n = index->seq->len;
    }
  else
    {
      *items = index;
      *n = 1;
    }
}

/* ------------------------------------------------------------------ advanced indexing */

typedef struct {
  FxTensor *src;                          /* t, permuted so that the indexed dims are adjacent */
  int before, n_indexed, after;
  FxTensor *idx[MAX_SLOTS];               /* int64 indices of the indexed dims */
  int repl_ndim;
  int64_t repl[FX_TENSOR_MAX_DIMS];       /* the broadcast shape of the indices */
  int out_ndim;
  int64_t out_shape[FX_TENSOR_MAX_DIMS];
} AdvIndex;

static void
adv_clear (AdvIndex *a)
{
  g_clear_pointer (&a->src, fx_tensor_unref);
  for (int i = 0; i < a->n_indexed; i++)
    g_clear_pointer (&a->idx[i], fx_tensor_unref);
}

static gboolean
check_mask_shape (const FxTensor *self, const FxTensor *mask, int first, GError **error)
{
  for (int j = 0; j < mask->ndim; j++)
    {
      int src = first + j;
      if (src >= self->ndim)
        {
          int n = self->ndim > 0 ? self->ndim : 1;
          g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                       "Dimension out of range (expected to be in range of [%d, %d], but got %d)",
                       -n, n - 1, src);
          return FALSE;
        }
      if (mask->shape[j] != self->shape[src])
        {
          char *a = fx_shape_to_string (mask->ndim, mask->shape);
          char *b = fx_shape_to_string (self->ndim, self->shape);
          g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                       "The shape of the mask %s at index %d does not match the shape of the "
                       "indexed tensor %s at index %d", a, j, b, src);
          g_free (a);
          g_free (b);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
too_many_indices (const FxTensor *t, int n, GError **error)
{
  if (n > t->ndim)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                   "too many indices for tensor of dimension %d (got %d)", t->ndim, n);
      return TRUE;
    }
  return FALSE;
}

static gboolean
adv_make (FxTensor *self, FxTensor *const *indices, int n, AdvIndex *a, GError **error)
{
  FxTensor *e[MAX_SLOTS * 2] = { NULL };
  int m = 0, first = -1, last = -1, n_def = 0;
  gboolean ok = FALSE;

  memset (a, 0, sizeof *a);
  if (too_many_indices (self, n, error))
    return FALSE;
  for (int i = 0; i < n; i++)
    if (indices[i] && indices[i]->dtype != FX_DTYPE_INT64 && indices[i]->dtype != FX_DTYPE_BOOL
        && indices[i]->dtype != FX_DTYPE_UINT8)
      {
        g_set_error_literal (error, FX_ERROR, FX_ERROR_INDEX,
                             "tensors used as indices must be long, byte or bool tensors");
        return FALSE;
      }

  /* masks become one long index per dim they cover */
  for (int i = 0; i < n; i++)
    {
      FxTensor *x = indices[i];
      if (x == NULL)
        e[m++] = NULL;
      else if (x->dtype == FX_DTYPE_BOOL || x->dtype == FX_DTYPE_UINT8)
        {
          FxTensor *nz;
          if (!check_mask_shape (self, x, m, error))
            goto out;
          nz = fx_tensor_nonzero (x);
          for (int j = 0; j < x->ndim; j++)
            e[m++] = fx_tensor_select (nz, 1, j, NULL);
          fx_tensor_unref (nz);
        }
      else
        e[m++] = fx_tensor_ref (x);
    }
  if (too_many_indices (self, m, error))
    goto out;

  /* broadcast the indices together */
  for (int i = 0; i < m; i++)
    if (e[i])
      {
        if (n_def == 0)
          {
            a->repl_ndim = e[i]->ndim;
            memcpy (a->repl, e[i]->shape, sizeof (int64_t) * e[i]->ndim);
          }
        else if (!fx_broadcast_shapes (a->repl_ndim, a->repl, e[i]->ndim, e[i]->shape,
                                       &a->repl_ndim, a->repl, NULL))
          {
            GString *s = g_string_new (NULL);
            for (int k = 0, c = 0; k < m; k++)
              if (e[k])
                {
                  char *sh = fx_shape_to_string (e[k]->ndim, e[k]->shape);
                  g_string_append_printf (s, "%s%s", c++ ? ", " : "", sh);
                  g_free (sh);
                }
            g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                         "shape mismatch: indexing tensors could not be broadcast together with "
                         "shapes %s", s->str);
            g_string_free (s, TRUE);
            goto out;
          }
        n_def++;
        if (first < 0)
          first = i;
        last = i;
      }
  while (m < self->ndim)
    e[m++] = NULL;

  if (last - first + 1 != n_def)
    {
      /* not adjacent: the indexed dims go to the front, in order */
      int order[FX_TENSOR_MAX_DIMS], k = 0;
      FxTensor *re[MAX_SLOTS * 2];
      for (int i = 0; i < m; i++)
        if (e[i])
          {
            re[k] = e[i];
            order[k++] = i;
          }
      for (int i = 0; i < m; i++)
        if (!e[i])
          {
            re[k] = NULL;
            order[k++] = i;
          }
      a->src = fx_tensor_permute (self, self->ndim, order, error);
      if (a->src == NULL)
        goto out;
      memcpy (e, re, sizeof (FxTensor *) * m);
      first = 0;
    }
  else
    a->src = fx_tensor_ref (self);

  a->before = first;
  a->n_indexed = n_def;
  a->after = self->ndim - first - n_def;
  for (int j = 0; j < n_def; j++)
    {
      a->idx[j] = e[first + j];
      e[first + j] = NULL;
    }
  {
    gboolean zero_size = FALSE;
    int64_t repl_numel = 1;
    for (int j = 0; j < n_def; j++)
      zero_size |= a->src->shape[first + j] == 0;
    for (int k = 0; k < a->repl_ndim; k++)
      repl_numel *= a->repl[k];
    if (zero_size && repl_numel != 0)
      {
        g_set_error_literal (error, FX_ERROR, FX_ERROR_INDEX,
                             "index is out of bounds for dimension with size 0");
        goto out;
      }
  }
  a->out_ndim = a->before + a->repl_ndim + a->after;
  if (a->out_ndim > FX_TENSOR_MAX_DIMS)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "libfx tensors have at most %d dimensions, got %d", FX_TENSOR_MAX_DIMS,
                   a->out_ndim);
      goto out;
    }
  memcpy (a->out_shape, a->src->shape, sizeof (int64_t) * a->before);
  memcpy (a->out_shape + a->before, a->repl, sizeof (int64_t) * a->repl_ndim);
  memcpy (a->out_shape + a->before + a->repl_ndim, a->src->shape + a->before + n_def,
          sizeof (int64_t) * a->after);
  ok = TRUE;

out:
  for (int i = 0; i < MAX_SLOTS * 2; i++)
    if (e[i])
      fx_tensor_unref (e[i]);
  if (!ok)
    adv_clear (a);
  return ok;
}

/* Element offsets into a->src of every index position (row-major over a->repl), checking
 * bounds in the order PyTorch's kernel visits them. */
static int64_t *
adv_offsets (const AdvIndex *a, int64_t *n_out, GError **error)
{
  int64_t n = 1, bad_r = -1, bad_v = 0;
  int bad_j = -1;
  int64_t *offs;

  for (int k = 0; k < a->repl_ndim; k++)
    n *= a->repl[k];
  offs = g_new0 (int64_t, n > 0 ? n : 1);
  for (int j = 0; j < a->n_indexed; j++)
    {
      FxTensor *e = fx_tensor_expand (a->idx[j], a->repl_ndim, a->repl, NULL);
      const int64_t *ip = fx_tensor_data (e);
      int64_t size = a->src->shape[a->before + j], stride = a->src->strides[a->before + j];
      FxStridedIter it;
      fx_strided_iter_init (&it, e->ndim, e->shape, e->strides);
      for (int64_t r = 0; fx_strided_iter_next (&it); r++)
        {
          int64_t v = ip[it.offset];
          if (v < -size || v >= size)
            {
              if (bad_r < 0 || r < bad_r)
                {
                  bad_r = r;
                  bad_j = j;
                  bad_v = v;
                }
              break;
            }
          offs[r] += (v < 0 ? v + size : v) * stride;
        }
      fx_tensor_unref (e);
    }
  if (bad_j >= 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                   "index %" G_GINT64_FORMAT " is out of bounds for dimension %d with size %"
                   G_GINT64_FORMAT, bad_v, bad_j, a->src->shape[a->before + bad_j]);
      g_free (offs);
      return NULL;
    }
  *n_out = n;
  return offs;
}

/* Offsets of the elements of a block of dims of src (row-major), and whether they are
 * simply 0, 1, 2, ... */
static int64_t *
block_offsets (const FxTensor *src, int first, int ndim, int64_t *n_out, gboolean *dense)
{
  int64_t n = 1, i = 0;
  int64_t *offs;
  FxStridedIter it;

  for (int k = 0; k < ndim; k++)
    n *= src->shape[first + k];
  offs = g_new (int64_t, n > 0 ? n : 1);
  *dense = TRUE;
  fx_strided_iter_init (&it, ndim, src->shape + first, src->strides + first);
  while (fx_strided_iter_next (&it))
    {
      offs[i] = it.offset;
      if (it.offset != i)
        *dense = FALSE;
      i++;
    }
  *n_out = n;
  return offs;
}

static inline void
copy_elem (char *dst, const char *src, gsize es)
{
  switch (es)
    {
    case 1: *(uint8_t *) dst = *(const uint8_t *) src; break;
    case 2: memcpy (dst, src, 2); break;
    case 4: memcpy (dst, src, 4); break;
    default: memcpy (dst, src, 8); break;
    }
}

FxTensor *
fx_tensor_index_tensors (FxTensor *t, FxTensor *const *indices, int n, GError **error)
{
  AdvIndex a;
  FxTensor *out;
  int64_t nr, nb, na, *roffs, *boffs, *aoffs;
  gboolean bdense, adense;
  gsize es = fx_dtype_size (t->dtype);

  if (!adv_make (t, indices, n, &a, error))
    return NULL;
  out = fx_tensor_empty_checked (t->dtype, a.out_ndim, a.out_shape, error);
  if (out == NULL || fx_tensor_numel (out) == 0)
    goto done;
  out->requires_grad = t->requires_grad;
  roffs = adv_offsets (&a, &nr, error);
  if (roffs == NULL)
    {
      g_clear_pointer (&out, fx_tensor_unref);
      goto done;
    }
  boffs = block_offsets (a.src, 0, a.before, &nb, &bdense);
  aoffs = block_offsets (a.src, a.before + a.n_indexed, a.after, &na, &adense);
  {
    const char *sp = fx_tensor_data (a.src);
    char *op = fx_tensor_data (out);
    gsize row = (gsize) na * es;
    for (int64_t b = 0; b < nb; b++)
      for (int64_t r = 0; r < nr; r++)
        {
          const char *base = sp + (boffs[b] + roffs[r]) * (int64_t) es;
          if (adense)
            memcpy (op, base, row);
          else
            for (int64_t k = 0; k < na; k++)
              copy_elem (op + k * (int64_t) es, base + aoffs[k] * (int64_t) es, es);
          op += row;
        }
  }
  g_free (roffs);
  g_free (boffs);
  g_free (aoffs);
done:
  adv_clear (&a);
  return out;
}

/* ------------------------------------------------------------------ writing */

static gboolean
is_dense (const FxTensor *t)
{
  int64_t st[FX_TENSOR_MAX_DIMS], sz[FX_TENSOR_MAX_DIMS], expected = 1;
  int n = 0;
  for (int i = 0; i < t->ndim; i++)
    {
      int j;
      if (t->shape[i] == 0)
        return TRUE;
      if (t->shape[i] == 1)
        continue;
      for (j = n++; j > 0 && st[j - 1] > t->strides[i]; j--)
        {
          st[j] = st[j - 1];
          sz[j] = sz[j - 1];
        }
      st[j] = t->strides[i];
      sz[j] = t->shape[i];
    }
  for (int i = 0; i < n; i++)
    {
      if (st[i] != expected)
        return FALSE;
      expected *= sz[i];
    }
  return TRUE;
}

static void
byte_span (const FxTensor *t, int64_t *lo, int64_t *hi)
{
  int64_t es = (int64_t) fx_dtype_size (t->dtype), min = t->offset, max = t->offset;
  for (int i = 0; i < t->ndim; i++)
    {
      int64_t ext = (t->shape[i] - 1) * t->strides[i];
      if (ext < 0)
        min += ext;
      else
        max += ext;
    }
  *lo = min * es;
  *hi = (max + 1) * es;
}

/* PyTorch's assert_no_overlap: refuses a value that shares memory with the destination;
 * sets *copy when the layouts are too irregular to tell (the value is then snapshotted). */
static gboolean
check_no_overlap (const FxTensor *dst, const FxTensor *src, gboolean *copy, GError **error)
{
  int64_t dlo, dhi, slo, shi;

  *copy = FALSE;
  if (dst->storage != src->storage || fx_tensor_numel (dst) == 0 || fx_tensor_numel (src) == 0)
    return TRUE;
  byte_span (dst, &dlo, &dhi);
  byte_span (src, &slo, &shi);
  if (!(dlo < shi && slo < dhi))
    return TRUE;
  if (is_dense (dst) && is_dense (src))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "unsupported operation: some elements of the input tensor and the "
                           "written-to tensor refer to a single memory location. Please clone() "
                           "the tensor before performing the operation.");
      return FALSE;
    }
  *copy = TRUE;
  return TRUE;
}

static void
accumulate_elem (char *dst, const char *src, FxDType dtype)
{
  switch (dtype)
    {
    case FX_DTYPE_BOOL:    *(uint8_t *) dst = *(uint8_t *) dst || *(const uint8_t *) src; break;
    case FX_DTYPE_UINT8:   *(uint8_t *) dst += *(const uint8_t *) src; break;
    case FX_DTYPE_INT8:    *(int8_t *) dst = (int8_t) (*(int8_t *) dst + *(const int8_t *) src); break;
    case FX_DTYPE_INT16:   *(int16_t *) dst = (int16_t) (*(int16_t *) dst + *(const int16_t *) src); break;
    case FX_DTYPE_INT32:   *(int32_t *) dst = (int32_t) ((uint32_t) *(int32_t *) dst + (uint32_t) *(const int32_t *) src); break;
    case FX_DTYPE_INT64:   *(int64_t *) dst = (int64_t) ((uint64_t) *(int64_t *) dst + (uint64_t) *(const int64_t *) src); break;
    case FX_DTYPE_FLOAT16:
      *(uint16_t *) dst = fx_float_to_half (fx_half_to_float (*(uint16_t *) dst)
                                            + fx_half_to_float (*(const uint16_t *) src));
      break;
    case FX_DTYPE_FLOAT32: *(float *) dst += *(const float *) src; break;
    case FX_DTYPE_FLOAT64: *(double *) dst += *(const double *) src; break;
    default: break;
    }
}

/* index_put_'s shortcut: a one-element value through a single mask is a masked_fill_. */
static gboolean
try_masked_fill (FxTensor *t, FxTensor *const *indices, int n, const FxTensor *value,
                 gboolean *done, GError **error)
{
  FxTensor *mask = NULL, *m, *scalar;
  int num_ind = 0;
  int64_t shape[FX_TENSOR_MAX_DIMS];
  gboolean ok;

  *done = FALSE;
  if (fx_tensor_numel (value) != 1)
    return TRUE;
  for (int i = 0; i < n; i++)
    {
      FxTensor *x = indices[i];
      if (x == NULL)
        num_ind++;
      else if ((x->dtype != FX_DTYPE_BOOL && x->dtype != FX_DTYPE_UINT8) || mask != NULL)
        return TRUE;
      else
        {
          mask = x;
          if (!check_mask_shape (t, x, num_ind, error))
            return FALSE;
          num_ind += x->ndim;
        }
    }
  if (mask == NULL)
    return TRUE;
  /* trailing size-1 dims let the mask broadcast over the dims it does not cover */
  memcpy (shape, mask->shape, sizeof (int64_t) * mask->ndim);
  for (int i = mask->ndim; i < mask->ndim + (t->ndim - num_ind); i++)
    shape[i] = 1;
  m = fx_tensor_reshape (mask, mask->ndim + (t->ndim - num_ind), shape, error);
  if (m == NULL)
    return FALSE;
  scalar = fx_tensor_reshape ((FxTensor *) value, 0, NULL, error);
  ok = scalar != NULL && fx_tensor_masked_fill_ (t, m, scalar, error);
  fx_tensor_unref (m);
  if (scalar)
    fx_tensor_unref (scalar);
  *done = ok;
  return ok;
}

gboolean
fx_tensor_index_put_tensors (FxTensor *t, FxTensor *const *indices, int n,
                             const FxTensor *value, gboolean accumulate, GError **error)
{
  AdvIndex a;
  gboolean done, copy, ok = FALSE;
  FxTensor *v = NULL, *snapshot = NULL;
  int64_t nr, nb, na, *roffs = NULL, *boffs = NULL, *aoffs = NULL;
  gboolean bdense, adense;
  gsize es = fx_dtype_size (t->dtype);

  if (too_many_indices (t, n, error))
    return FALSE;
  if (!accumulate)
    {
      if (!try_masked_fill (t, indices, n, value, &done, error))
        return FALSE;
      if (done)
        return TRUE;
    }
  if (!check_no_overlap (t, value, &copy, error))
    return FALSE;
  if (!adv_make (t, indices, n, &a, error))
    return FALSE;

  /* the value must broadcast to the indexing result, and have t's dtype */
  {
    gboolean fits = value->ndim <= a.out_ndim;
    for (int i = 0; fits && i < value->ndim; i++)
      {
        int64_t vs = value->shape[value->ndim - 1 - i];
        if (vs != 1 && vs != a.out_shape[a.out_ndim - 1 - i])
          fits = FALSE;
      }
    if (!fits)
      {
        char *x = fx_shape_to_string (value->ndim, value->shape);
        char *y = fx_shape_to_string (a.out_ndim, a.out_shape);
        g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                     "shape mismatch: value tensor of shape %s cannot be broadcast to indexing "
                     "result of shape %s", x, y);
        g_free (x);
        g_free (y);
        goto out;
      }
  }
  if (value->dtype != t->dtype)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Index put requires the source and destination dtypes match, got %s for the "
                   "destination and %s for the source.", fx_dtype_scalar_type_name (t->dtype),
                   fx_dtype_scalar_type_name (value->dtype));
      goto out;
    }
  {
    int64_t total = 1;
    for (int i = 0; i < a.out_ndim; i++)
      total *= a.out_shape[i];
    if (total == 0)
      {
        ok = TRUE;
        goto out;
      }
  }
  roffs = adv_offsets (&a, &nr, error);
  if (roffs == NULL)
    goto out;
  if (copy)
    snapshot = fx_tensor_clone (value);
  v = fx_tensor_expand (snapshot ? snapshot : (FxTensor *) value, a.out_ndim, a.out_shape, error);
  if (v == NULL)
    goto out;
  boffs = block_offsets (a.src, 0, a.before, &nb, &bdense);
  aoffs = block_offsets (a.src, a.before + a.n_indexed, a.after, &na, &adense);
  {
    char *dp = fx_tensor_data (a.src);
    const char *vp = fx_tensor_data (v);
    FxStridedIter it;
    fx_strided_iter_init (&it, v->ndim, v->shape, v->strides);
    for (int64_t b = 0; b < nb; b++)
      for (int64_t r = 0; r < nr; r++)
        for (int64_t k = 0; k < na; k++)
          {
            char *d = dp + (boffs[b] + roffs[r] + aoffs[k]) * (int64_t) es;
            fx_strided_iter_next (&it);
            if (accumulate)
              accumulate_elem (d, vp + it.offset * (int64_t) es, t->dtype);
            else
              copy_elem (d, vp + it.offset * (int64_t) es, es);
          }
  }
  ok = TRUE;

out:
  g_free (roffs);
  g_free (boffs);
  g_free (aoffs);
  if (v)
    fx_tensor_unref (v);
  if (snapshot)
    fx_tensor_unref (snapshot);
  adv_clear (&a);
  return ok;
}

/* ------------------------------------------------------------------ entry points */

FxTensor *
fx_tensor_index (FxTensor *t, const FxValue *index, GError **error)
{
  const FxValue *items;
  guint n;
  Parsed p;
  FxTensor *out;

  g_return_val_if_fail (t != NULL && index != NULL, NULL);
  switch (index->kind)
    {
    case FX_VALUE_NONE:
      return fx_tensor_unsqueeze (t, 0, error);
    case FX_VALUE_ELLIPSIS:
      return alias_of (t);
    case FX_VALUE_INT:
      return apply_select (t, 0, index->i, 0, error);
    case FX_VALUE_SLICE:
      return apply_slice (t, 0, index->slice, error);
    case FX_VALUE_BOOL:
      {
        FxTensor *u = fx_tensor_unsqueeze (t, 0, error), *b;
        if (u == NULL)
          return NULL;
        b = bool_index_tensor (index->b);
        out = fx_tensor_index_tensors (u, &b, 1, error);
        fx_tensor_unref (b);
        fx_tensor_unref (u);
        return out;
      }
    default:
      break;
    }
  index_items (index, &items, &n);
  if (!apply_items (t, items, n, &p, error))
    return NULL;
  if (p.n_slots == 0)
    out = p.result == t ? alias_of (t) : fx_tensor_ref (p.result);
  else
    out = fx_tensor_index_tensors (p.result, p.slots, p.n_slots, error);
  parsed_clear (&p);
  return out;
}

/* A Python number becomes a 0-d tensor of t's dtype, with PyTorch's overflow check. */
static FxTensor *
value_to_tensor (const FxTensor *t, const FxValue *value, GError **error)
{
  FxTensor *wrapped, *out;

  switch (value->kind)
    {
    case FX_VALUE_TENSOR:
      return fx_tensor_ref (value->tensor);
    case FX_VALUE_BOOL:
      wrapped = fx_tensor_wrap_bool (value->b);
      break;
    case FX_VALUE_INT:
      wrapped = fx_tensor_wrap_int64 (value->i);
      break;
    case FX_VALUE_FLOAT:
      wrapped = fx_tensor_wrap_double (value->f);
      break;
    default:
      g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "can't assign a %s to a %s",
                   py_type_name (value), fx_dtype_legacy_name (t->dtype));
      return NULL;
    }
  out = fx_tensor_new_uninit (t->dtype, 0, NULL);
  if (!fx_scalar_to_dtype (wrapped, t->dtype, fx_tensor_data (out), error))
    g_clear_pointer (&out, fx_tensor_unref);
  fx_tensor_unref (wrapped);
  return out;
}

/* The value with its leading size-1 dims dropped (a view). */
static FxTensor *
strip_leading_ones (FxTensor *v)
{
  int k = 0;
  while (k < v->ndim && v->shape[k] == 1)
    k++;
  if (k == 0)
    return fx_tensor_ref (v);
  return fx_tensor_new_view (v->storage, v->dtype, v->ndim - k, v->shape + k, v->strides + k,
                             v->offset);
}

/* dst[...] = src for basic indexing: src broadcasts to dst after dropping its leading 1s. */
static gboolean
copy_to (FxTensor *dst, FxTensor *src, GError **error)
{
  FxTensor *s, *e;
  gboolean ok;

  if (fx_tensor_same_shape (dst, src) || src->ndim == 0)
    return fx_tensor_copy_into (dst, src, error);
  s = strip_leading_ones (src);
  e = fx_tensor_expand (s, dst->ndim, dst->shape, error);
  fx_tensor_unref (s);
  if (e == NULL)
    return FALSE;
  ok = fx_tensor_copy_into (dst, e, error);
  fx_tensor_unref (e);
  return ok;
}

gboolean
fx_tensor_index_put (FxTensor *t, const FxValue *index, const FxValue *value, GError **error)
{
  FxTensor *v, *target = NULL;
  const FxValue *items;
  guint n;
  Parsed p;
  gboolean ok = FALSE;

  g_return_val_if_fail (t != NULL && index != NULL && value != NULL, FALSE);
  v = value_to_tensor (t, value, error);
  if (v == NULL)
    return FALSE;
  switch (index->kind)
    {
    case FX_VALUE_BOOL:
      if (!index->b)
        {
          ok = TRUE;
          goto out;
        }
      /* True is like None here */
      G_GNUC_FALLTHROUGH;
    case FX_VALUE_NONE:
      target = fx_tensor_unsqueeze (t, 0, error);
      break;
    case FX_VALUE_ELLIPSIS:
      target = fx_tensor_ref (t);
      break;
    case FX_VALUE_INT:
      target = apply_select (t, 0, index->i, 0, error);
      break;
    case FX_VALUE_SLICE:
      target = apply_slice (t, 0, index->slice, error);
      break;
    default:
      index_items (index, &items, &n);
      if (!apply_items (t, items, n, &p, error))
        goto out;
      if (p.n_slots == 0)
        target = fx_tensor_ref (p.result);
      else
        {
          FxTensor *stripped = strip_leading_ones (v);
          ok = fx_tensor_index_put_tensors (p.result, p.slots, p.n_slots, stripped, FALSE,
                                            error);
          fx_tensor_unref (stripped);
          parsed_clear (&p);
          goto out;
        }
      parsed_clear (&p);
      break;
    }
  if (target != NULL)
    ok = copy_to (target, v, error);

out:
  if (target)
    fx_tensor_unref (target);
  fx_tensor_unref (v);
  return ok;
}
