/* schema.c: parses the op table's schema lines and binds call arguments to them, with the
 * argument conversions and the TypeError messages of PyTorch 1.13's Python bindings.
 *
 * Two error dialects exist in PyTorch: functions written in Python (torch.nn.functional.*,
 * torch.functional.*, a few Tensor methods) fail binding with CPython's messages, C++
 * bindings with those of PyTorch's argument parser. Both are reproduced here.
 *
 * Schema extensions beyond op.h's grammar: a leading '~' marks an overload that binds but is
 * left out of error listings (PyTorch's hidden/deprecated signatures, or a Scalar twin of a
 * Tensor overload); "SymInt" is int spelled the way 1.13 names it in error messages
 * ("tuple of SymInts"); "Dimname" is a str (or None) naming a dimension, for the named-tensor
 * overloads that PyTorch lists in its errors ("name dim"). */
#include "ops/grad.h"
#include "ops/op-table.h"
#include "fx-error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------
 * Parsing
 * ------------------------------------------------------------------------------------------ */

typedef struct {
  const char *text;
  const char *p;
} Scanner;

static void
skip_ws (Scanner *s)
{
  while (*s->p == ' ' || *s->p == '\t' || *s->p == '\n')
    s->p++;
}

static gboolean
is_ident_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '.';
}

/* Returns a newly allocated identifier (may contain dots), or NULL. */
static char *
scan_ident (Scanner *s)
{
  skip_ws (s);
  const char *start = s->p;
  while (is_ident_char (*s->p) && !(s->p[0] == '.' && s->p[1] == '.'))
    s->p++;
  if (s->p == start)
    return NULL;
  return g_strndup (start, s->p - start);
}

static gboolean
parse_fail (Scanner *s, GError **error, const char *what)
{
  g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "schema '%s': %s at offset %d", s->text, what,
               (int) (s->p - s->text));
  return FALSE;
}


static gboolean
lookup_type (const char *base, gboolean list, gboolean varargs, FxArgType *type,
             const char **display)
{
  gboolean sym = g_str_equal (base, "SymInt");
  if (list || varargs)
    {
      if (g_str_equal (base, "int") || sym)
        {
          *type = FX_ARG_INT_LIST;
          *display = sym ? "tuple of SymInts" : "tuple of ints";
          return TRUE;
        }
      if (varargs)
        return FALSE;
      if (g_str_equal (base, "float"))
        {
          *type = FX_ARG_FLOAT_LIST;
          *display = "tuple of floats";
          return TRUE;
        }
      if (g_str_equal (base, "Tensor"))
        {
          *type = FX_ARG_TENSOR_LIST;
          *display = "tuple of Tensors";
          return TRUE;
        }
      return FALSE;
    }
  static const struct { const char *name; FxArgType type; const char *display; } names[] = {
    { "Tensor", FX_ARG_TENSOR, "Tensor" },
    { "int", FX_ARG_INT, "int" },
    { "SymInt", FX_ARG_INT, "SymInt" },
    { "float", FX_ARG_FLOAT, "float" },
    { "bool", FX_ARG_BOOL, "bool" },
    { "Scalar", FX_ARG_SCALAR, "Number" },
    { "Number", FX_ARG_SCALAR, "Number" },
    { "str", FX_ARG_STR, "str" },
    { "ScalarType", FX_ARG_DTYPE, "torch.dtype" },
    { "Device", FX_ARG_DEVICE, "torch.device" },
    { "Any", FX_ARG_ANY, "object" },
    { "Dimname", FX_ARG_STR, "name" },
    { "MemoryFormat", FX_ARG_ANY, "torch.memory_format" },
    { "Layout", FX_ARG_ANY, "torch.layout" },
    { "Generator", FX_ARG_ANY, "torch.Generator" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (base, names[i].name))
      {
        *type = names[i].type;
        *display = names[i].display;
        return TRUE;
      }
  return FALSE;
}

/* A default's literal as a plain value (not yet converted to the argument's type). */
static gboolean
parse_literal (const char *lit, FxValue *out)
{
  while (g_ascii_isspace (*lit))
    lit++;
  gsize len = strlen (lit);
  while (len > 0 && g_ascii_isspace (lit[len - 1]))
    len--;
  if (len == 0)
    return FALSE;
  g_autofree char *s = g_strndup (lit, len);

  if (g_str_equal (s, "None"))
    {
      *out = fx_value_none ();
      return TRUE;
    }
  if (g_str_equal (s, "True") || g_str_equal (s, "False"))
    {
      *out = fx_value_bool (s[0] == 'T');
      return TRUE;
    }
  if ((s[0] == '\'' || s[0] == '"') && len >= 2 && s[len - 1] == s[0])
    {
      s[len - 1] = '\0';
      *out = fx_value_str (s + 1);
      return TRUE;
    }
  if ((s[0] == '[' && s[len - 1] == ']') || (s[0] == '(' && s[len - 1] == ')'))
    {
      FxSeq *seq = fx_seq_new (0);
      s[len - 1] = '\0';
      char **parts = g_strsplit (s + 1, ",", -1);
      gboolean ok = TRUE;
      for (int i = 0; parts[i] != NULL && ok; i++)
        {
          g_strstrip (parts[i]);
          if (parts[i][0] == '\0')
            {
              /* "(1,)" and "[]" */
              if (parts[i + 1] != NULL && !(parts[i + 1][0] == '\0' && parts[i + 2] == NULL))
                ok = FALSE;
              continue;
            }
          FxValue item;
          if (!parse_literal (parts[i], &item))
            ok = FALSE;
          else
            fx_seq_append (seq, item);
        }
      g_strfreev (parts);
      if (!ok)
        {
          fx_seq_unref (seq);
          return FALSE;
        }
      *out = fx_value_take_tuple (seq);
      return TRUE;
    }
  if (g_str_has_prefix (s, "torch."))
    {
      FxDType dt;
      if (fx_dtype_from_name (s, &dt))
        *out = fx_value_dtype (dt);
      else
        *out = fx_value_str (s);   /* torch.contiguous_format and friends: kept as a name */
      return TRUE;
    }
  if (g_str_equal (s, "inf") || g_str_equal (s, "-inf") || g_str_equal (s, "nan"))
    {
      *out = fx_value_float (s[0] == '-' ? -INFINITY : s[0] == 'n' ? NAN : INFINITY);
      return TRUE;
    }
  char *end = NULL;
  gint64 iv = g_ascii_strtoll (s, &end, 10);
  if (end != s && *end == '\0')
    {
      *out = fx_value_int (iv);
      return TRUE;
    }
  double dv = g_ascii_strtod (s, &end);
  if (end != s && *end == '\0')
    {
      *out = fx_value_float (dv);
      return TRUE;
    }
  return FALSE;
}

static gboolean convert_arg (const FxArgSpec *spec, const FxValue *v, gboolean lenient,
                             FxValue *out, int *bad_elem);

/* Parses text into out; when displays is non-NULL, it receives each argument's display type. */
static gboolean
schema_parse_full (const char *text, FxOverload *out, GPtrArray *displays, char **name_out,
                   GError **error)
{
  Scanner sc = { text, text };
  Scanner *s = &sc;
  GArray *args = g_array_new (FALSE, TRUE, sizeof (FxArgSpec));
  gboolean kwarg_only = FALSE;
  char *name = NULL;

  memset (out, 0, sizeof *out);
  skip_ws (s);
  if (*s->p == '~')
    s->p++;
  name = scan_ident (s);
  if (name == NULL)
    {
      parse_fail (s, error, "expected a name");
      goto fail;
    }
  skip_ws (s);
  if (*s->p != '(')
    {
      parse_fail (s, error, "expected '('");
      goto fail;
    }
  s->p++;
  skip_ws (s);
  if (*s->p == ')')
    s->p++;
  else
    for (;;)
      {
        skip_ws (s);
        if (*s->p == '*')
          {
            s->p++;
            if (kwarg_only)
              {
                parse_fail (s, error, "second '*'");
                goto fail;
              }
            kwarg_only = TRUE;
          }
        else
          {
            FxArgSpec spec = { 0 };
            g_autofree char *base = scan_ident (s);
            gboolean list = FALSE, varargs = FALSE;
            const char *display = NULL;
            if (base == NULL)
              {
                parse_fail (s, error, "expected a type");
                goto fail;
              }
            if (*s->p == '(')        /* alias annotations such as Tensor(a!) */
              {
                const char *close = strchr (s->p, ')');
                if (close == NULL)
                  {
                    parse_fail (s, error, "unclosed annotation");
                    goto fail;
                  }
                s->p = close + 1;
              }
            if (*s->p == '[')
              {
                s->p++;
                list = TRUE;
                if (g_ascii_isdigit (*s->p))
                  spec.list_len = (int) strtol (s->p, (char **) &s->p, 10);
                if (*s->p != ']')
                  {
                    parse_fail (s, error, "expected ']'");
                    goto fail;
                  }
                s->p++;
              }
            else if (g_str_has_prefix (s->p, "..."))
              {
                s->p += 3;
                varargs = TRUE;
              }
            if (*s->p == '?')
              {
                s->p++;
                spec.optional = TRUE;
              }
            if (!lookup_type (base, list, varargs, &spec.type, &display))
              {
                parse_fail (s, error, "unknown type");
                goto fail;
              }
            spec.varargs = varargs;
            spec.kwarg_only = kwarg_only;
            /* a dimension name; None is a wildcard there */
            if (g_str_equal (base, "Dimname"))
              spec.optional = TRUE;
            g_autofree char *argname = scan_ident (s);
            if (argname == NULL || strchr (argname, '.') != NULL)
              {
                parse_fail (s, error, "expected an argument name");
                goto fail;
              }
            for (guint i = 0; i < args->len; i++)
              if (g_str_equal (g_array_index (args, FxArgSpec, i).name, argname))
                {
                  parse_fail (s, error, "duplicate argument name");
                  goto fail;
                }
            spec.name = g_intern_string (argname);
            skip_ws (s);
            if (*s->p == '=')
              {
                s->p++;
                const char *start = s->p;
                int depth = 0;
                char quote = 0;
                for (; *s->p; s->p++)
                  {
                    char c = *s->p;
                    if (quote)
                      {
                        if (c == quote)
                          quote = 0;
                      }
                    else if (c == '\'' || c == '"')
                      quote = c;
                    else if (c == '[' || c == '(')
                      depth++;
                    else if ((c == ']' || c == ')') && depth > 0)
                      depth--;
                    else if ((c == ',' || c == ')') && depth == 0)
                      break;
                  }
                g_autofree char *lit = g_strndup (start, s->p - start);
                FxValue raw;
                if (!parse_literal (lit, &raw))
                  {
                    parse_fail (s, error, "bad default value");
                    goto fail;
                  }
                int bad = -1;
                if (!convert_arg (&spec, &raw, TRUE, &spec.default_value, &bad))
                  {
                    fx_value_clear (&raw);
                    parse_fail (s, error, "default value does not fit the type");
                    goto fail;
                  }
                fx_value_clear (&raw);
                spec.has_default = TRUE;
              }
            g_array_append_val (args, spec);
            if (displays)
              g_ptr_array_add (displays, (gpointer) display);
          }
        skip_ws (s);
        if (*s->p == ',')
          {
            s->p++;
            continue;
          }
        if (*s->p == ')')
          {
            s->p++;
            break;
          }
        parse_fail (s, error, "expected ',' or ')'");
        goto fail;
      }

  /* Varargs only make sense as the last positional argument. */
  for (guint i = 0; i < args->len; i++)
    {
      FxArgSpec *a = &g_array_index (args, FxArgSpec, i);
      if (a->varargs && (a->kwarg_only || (i + 1 < args->len
                                           && !g_array_index (args, FxArgSpec, i + 1).kwarg_only)))
        {
          parse_fail (s, error, "varargs must be the last positional argument");
          goto fail;
        }
    }
  skip_ws (s);
  if (*s->p != '\0' && !g_str_has_prefix (s->p, "->"))
    {
      parse_fail (s, error, "trailing text");
      goto fail;
    }

  out->text = g_intern_string (text);
  out->n_args = (int) args->len;
  out->args = (FxArgSpec *) g_array_free (args, FALSE);
  if (out->n_args == 0)
    g_clear_pointer (&out->args, g_free);
  if (name_out)
    *name_out = name;
  else
    g_free (name);
  return TRUE;

fail:
  for (guint i = 0; i < args->len; i++)
    fx_value_clear (&g_array_index (args, FxArgSpec, i).default_value);
  g_array_free (args, TRUE);
  g_free (name);
  memset (out, 0, sizeof *out);
  return FALSE;
}

gboolean
fx_schema_parse (const char *text, FxOverload *out, GError **error)
{
  g_return_val_if_fail (text != NULL && out != NULL, FALSE);
  return schema_parse_full (text, out, NULL, NULL, error);
}

void
fx_overload_clear (FxOverload *overload)
{
  if (overload == NULL)
    return;
  for (int i = 0; i < overload->n_args; i++)
    fx_value_clear (&overload->args[i].default_value);
  g_free (overload->args);
  overload->args = NULL;
  overload->n_args = 0;
}

/* ------------------------------------------------------------------------------------------
 * Conversions
 * ------------------------------------------------------------------------------------------ */

/* The Python type name of a value, as PyTorch's messages print it. */
static const char *
py_type_name (const FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_NONE: return "NoneType";
    case FX_VALUE_BOOL: return "bool";
    case FX_VALUE_INT: return "int";
    case FX_VALUE_FLOAT: return "float";
    case FX_VALUE_STR: return "str";
    case FX_VALUE_TUPLE:
      if (v->seq->type == &fx_tuple_type_size)
        return "torch.Size";
      if (v->seq->type != NULL && v->seq->type->name != NULL)
        {
          const char *dot = strrchr (v->seq->type->name, '.');
          return g_str_has_prefix (v->seq->type->name, "torch.") ? v->seq->type->name
                 : dot ? dot + 1 : v->seq->type->name;
        }
      return "tuple";
    case FX_VALUE_LIST: return "list";
    case FX_VALUE_DICT: return "dict";
    case FX_VALUE_SLICE: return "slice";
    case FX_VALUE_ELLIPSIS: return "ellipsis";
    case FX_VALUE_DTYPE: return "torch.dtype";
    case FX_VALUE_DEVICE: return "torch.device";
    case FX_VALUE_TENSOR: return "Tensor";
    case FX_VALUE_NODE: return "Node";
    case FX_VALUE_OP: return "builtin_function_or_method";
    case FX_VALUE_OBJECT:
      if (v->obj == NULL || v->obj->klass == NULL)
        return "object";
      return v->obj->klass->type_name ? v->obj->klass->type_name (v->obj) : v->obj->klass->name;
    }
  return "object";
}

static gboolean
is_seq (const FxValue *v)
{
  return v->kind == FX_VALUE_TUPLE || v->kind == FX_VALUE_LIST;
}

/* An int argument: Python ints, 0-d integer tensors; bools only where lenient. */
static gboolean
as_int (const FxValue *v, gboolean accept_bool, int64_t *out)
{
  switch (v->kind)
    {
    case FX_VALUE_INT:
      *out = v->i;
      return TRUE;
    case FX_VALUE_BOOL:
      *out = v->b;
      return accept_bool;
    case FX_VALUE_TENSOR:
      if (v->tensor->ndim == 0 && fx_dtype_is_integral (v->tensor->dtype))
        {
          *out = fx_tensor_get_int64 (v->tensor, 0);
          return TRUE;
        }
      return FALSE;
    default:
      return FALSE;
    }
}

static gboolean
as_float (const FxValue *v, double *out)
{
  switch (v->kind)
    {
    case FX_VALUE_FLOAT:
      *out = v->f;
      return TRUE;
    case FX_VALUE_INT:
      *out = (double) v->i;
      return TRUE;
    case FX_VALUE_BOOL:
      *out = v->b;
      return TRUE;
    case FX_VALUE_TENSOR:
      if (v->tensor->ndim == 0)
        {
          *out = fx_tensor_get_double (v->tensor, 0);
          return TRUE;
        }
      return FALSE;
    default:
      return FALSE;
    }
}

/* Converts v to spec's normal form. On a bad element of a list, *bad_elem is its index. */
static gboolean
convert_arg (const FxArgSpec *spec, const FxValue *v, gboolean lenient, FxValue *out,
             int *bad_elem)
{
  *bad_elem = -1;
  if (v->kind == FX_VALUE_NONE && (spec->optional || spec->type == FX_ARG_ANY))
    {
      *out = fx_value_none ();
      return TRUE;
    }
  switch (spec->type)
    {
    case FX_ARG_ANY:
      *out = fx_value_copy (v);
      return TRUE;

    case FX_ARG_TENSOR:
      if (v->kind != FX_VALUE_TENSOR)
        return FALSE;
      *out = fx_value_copy (v);
      return TRUE;

    case FX_ARG_INT:
      {
        int64_t i;
        if (!as_int (v, lenient, &i))
          return FALSE;
        *out = fx_value_int (i);
        return TRUE;
      }

    case FX_ARG_FLOAT:
      {
        double f;
        if (!as_float (v, &f))
          return FALSE;
        *out = fx_value_float (f);
        return TRUE;
      }

    case FX_ARG_BOOL:
      if (v->kind == FX_VALUE_BOOL)
        {
          *out = fx_value_bool (v->b);
          return TRUE;
        }
      if (lenient && v->kind == FX_VALUE_INT)
        {
          *out = fx_value_bool (v->i != 0);
          return TRUE;
        }
      if (v->kind == FX_VALUE_TENSOR && v->tensor->ndim == 0
          && v->tensor->dtype == FX_DTYPE_BOOL)
        {
          *out = fx_value_bool (fx_tensor_get_int64 (v->tensor, 0) != 0);
          return TRUE;
        }
      return FALSE;

    case FX_ARG_SCALAR:
      if (v->kind == FX_VALUE_BOOL || v->kind == FX_VALUE_INT || v->kind == FX_VALUE_FLOAT)
        {
          *out = fx_value_copy (v);
          return TRUE;
        }
      /* PyTorch unwraps 0-d tensors (not 1-element 1-d ones) for Number arguments. */
      if (v->kind == FX_VALUE_TENSOR && v->tensor->ndim == 0)
        {
          FxTensor *t = v->tensor;
          if (t->dtype == FX_DTYPE_BOOL)
            *out = fx_value_bool (fx_tensor_get_int64 (t, 0) != 0);
          else if (fx_dtype_is_integral (t->dtype))
            *out = fx_value_int (fx_tensor_get_int64 (t, 0));
          else
            *out = fx_value_float (fx_tensor_get_double (t, 0));
          return TRUE;
        }
      return FALSE;

    case FX_ARG_STR:
      if (v->kind != FX_VALUE_STR)
        return FALSE;
      *out = fx_value_copy (v);
      return TRUE;

    case FX_ARG_DTYPE:
      if (v->kind != FX_VALUE_DTYPE)
        return FALSE;
      *out = fx_value_copy (v);
      return TRUE;

    case FX_ARG_DEVICE:
      if (v->kind == FX_VALUE_DEVICE)
        {
          *out = fx_value_copy (v);
          return TRUE;
        }
      if (v->kind == FX_VALUE_STR)
        {
          *out = fx_value_device (v->s->data);
          return TRUE;
        }
      return FALSE;

    case FX_ARG_INT_LIST:
    case FX_ARG_FLOAT_LIST:
      {
        gboolean is_float = spec->type == FX_ARG_FLOAT_LIST;
        if (is_seq (v))
          {
            FxSeq *seq = fx_seq_new (0);
            for (guint i = 0; i < v->seq->len; i++)
              {
                const FxValue *e = &v->seq->items[i];
                int64_t iv;
                double fv;
                if (!is_float && as_int (e, TRUE, &iv))
                  fx_seq_append (seq, fx_value_int (iv));
                else if (is_float && as_float (e, &fv))
                  fx_seq_append (seq, fx_value_float (fv));
                else
                  {
                    fx_seq_unref (seq);
                    *bad_elem = (int) i;
                    return FALSE;
                  }
              }
            *out = fx_value_take_tuple (seq);
            return TRUE;
          }
        /* A single number stands for the whole list: N copies for T[N]. PyTorch's C++ binder
         * refuses it for an unsized T[] (torch.flip (x, 1) is a TypeError); Python functions
         * and varargs sizes take it. */
        if (spec->list_len == 0 && !spec->varargs && !lenient)
          return FALSE;
        int64_t iv;
        double fv;
        gboolean ok = is_float ? (v->kind != FX_VALUE_TENSOR && as_float (v, &fv))
                               : as_int (v, lenient, &iv);
        if (!ok)
          return FALSE;
        int n = spec->list_len > 0 ? spec->list_len : 1;
        FxSeq *seq = fx_seq_new (0);
        for (int i = 0; i < n; i++)
          fx_seq_append (seq, is_float ? fx_value_float (fv) : fx_value_int (iv));
        *out = fx_value_take_tuple (seq);
        return TRUE;
      }

    case FX_ARG_TENSOR_LIST:
      {
        if (!is_seq (v))
          return FALSE;
        for (guint i = 0; i < v->seq->len; i++)
          if (v->seq->items[i].kind != FX_VALUE_TENSOR)
            {
              *bad_elem = (int) i;
              return FALSE;
            }
        FxSeq *seq = fx_seq_new (0);
        for (guint i = 0; i < v->seq->len; i++)
          fx_seq_append (seq, fx_value_copy (&v->seq->items[i]));
        *out = fx_value_take_tuple (seq);
        return TRUE;
      }
    }
  return FALSE;
}

/* ------------------------------------------------------------------------------------------
 * Binding
 * ------------------------------------------------------------------------------------------ */

typedef enum {
  STYLE_CPP,        /* PyTorch's C++ argument parser */
  STYLE_PYTHON,     /* a def in Python */
  STYLE_OPERATOR,   /* CPython's operator module */
  STYLE_BUILTIN,    /* builtins.getattr and the like */
} BindStyle;

/* Tensor methods that torch/_tensor.py defines in Python. */
static const char *const python_methods[] = {
  "split", "unique", "unique_consecutive", "norm", "stft", "istft", "lu", "unflatten",
  "resize", "resize_as", "refine_names", "align_to", "rename", "rename_", "share_memory_",
  "backward", "register_hook", "detach_", "is_shared", "storage", "storage_type",
  "__rsub__", "__rdiv__", "__rtruediv__", "__itruediv__", "__rpow__", "__floordiv__",
  "__rfloordiv__", "__rlshift__", "__rrshift__", "__rmatmul__", "__format__", "__len__",
  "__contains__", "__iter__", "__reversed__", "__hash__", "__array__", "__deepcopy__",
  NULL,
};

static BindStyle
op_style (const FxOp *op)
{
  const char *q = op->qualified_name ? op->qualified_name : "";
  if (op->flags & FX_OP_FLAG_PYTHON_FUNCTION)
    return STYLE_PYTHON;
  if (op->kind == FX_OP_METHOD)
    {
      for (int i = 0; python_methods[i]; i++)
        if (g_strcmp0 (op->name, python_methods[i]) == 0)
          return STYLE_PYTHON;
      return STYLE_CPP;
    }
  if (g_str_has_prefix (q, "torch.nn.functional.") || g_str_has_prefix (q, "torch.functional."))
    return STYLE_PYTHON;
  if (g_str_has_prefix (q, "operator."))
    return STYLE_OPERATOR;
  if (strchr (q, '.') == NULL)
    return STYLE_BUILTIN;
  return STYLE_CPP;
}

typedef struct {
  const FxOp *op;
  BindStyle style;
  gboolean method;
  const char *name;          /* function name in messages */
} BindCtx;

static const char *
kwarg_name (const FxValue *key)
{
  return key->kind == FX_VALUE_STR ? key->s->data : NULL;
}

static const FxValue *
kwargs_find (const FxDict *kwargs, const char *name)
{
  const FxValue *k, *v;
  if (kwargs == NULL)
    return NULL;
  for (guint i = 0; fx_dict_entry (kwargs, i, &k, &v); i++)
    if (g_strcmp0 (kwarg_name (k), name) == 0)
      return v;
  return NULL;
}

int
fx_overload_param (const FxOverload *ov, const char *name)
{
  if (name == NULL)
    return -1;
  for (int i = 0; i < ov->n_args; i++)
    if (g_str_equal (ov->args[i].name, name))
      return i;
  return -1;
}

/* The display names of an overload's argument types and its name (re-parsed: error path). */
static GPtrArray *
overload_displays (const FxOverload *ov, char **name)
{
  GPtrArray *d = g_ptr_array_new ();
  FxOverload tmp;
  if (schema_parse_full (ov->text, &tmp, d, name, NULL))
    fx_overload_clear (&tmp);
  while (d->len < (guint) ov->n_args)
    g_ptr_array_add (d, (gpointer) "object");
  return d;
}

static char *
overload_name (const FxOverload *ov)
{
  const char *p = ov->text;
  while (*p == ' ' || *p == '~')
    p++;
  const char *e = strchr (p, '(');
  return e ? g_strndup (p, e - p) : g_strdup (p);
}

static gboolean
overload_hidden (const FxOverload *ov)
{
  const char *p = ov->text;
  while (*p == ' ')
    p++;
  return *p == '~';
}

/* "'a'", "'a' and 'b'", "'a', 'b', and 'c'" (CPython) */
static void
append_python_names (GString *out, GPtrArray *names)
{
  for (guint i = 0; i < names->len; i++)
    {
      if (i > 0)
        g_string_append (out, names->len == 2 ? " and " : i + 1 == names->len ? ", and " : ", ");
      g_string_append_printf (out, "'%s'", (const char *) names->pdata[i]);
    }
}

typedef struct {
  gboolean quiet;     /* only whether it failed: the fast first pass */
  char *msg;          /* the single-overload error */
  FxErrorCode code;
  gboolean eager;     /* PyTorch raises this one even while trying other overloads */
} BindFail;

static gboolean
fail_set (BindFail *f, FxErrorCode code, gboolean eager, const char *fmt, ...) G_GNUC_PRINTF (4, 5);

static gboolean
fail_set (BindFail *f, FxErrorCode code, gboolean eager, const char *fmt, ...)
{
  va_list ap;
  f->code = code;
  f->eager = eager;
  if (f->quiet)
    return FALSE;
  va_start (ap, fmt);
  g_free (f->msg);
  f->msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  f->code = code;
  f->eager = eager;
  return FALSE;
}

static int
n_positional_params (const FxOverload *ov)
{
  int n = 0;
  for (int i = 0; i < ov->n_args; i++)
    if (!ov->args[i].kwarg_only)
      n++;
  return n;
}

static gboolean
too_many_positional (const BindCtx *ctx, const FxOverload *ov, int n_pos, BindFail *fail)
{
  if (fail->quiet)
    return fail_set (fail, FX_ERROR_DTYPE, FALSE, "-");
  int max = n_positional_params (ov);
  int min = 0;
  for (int i = 0; i < max; i++)
    if (!ov->args[i].has_default)
      min++;
  int shown = n_pos;
  if (ctx->style == STYLE_CPP && ctx->method)
    {
      /* self is not counted by the C++ parser */
      max--;
      min--;
      shown--;
    }
  g_autofree char *prefix = ctx->style == STYLE_PYTHON && ctx->method
                            ? g_strdup_printf ("Tensor.%s", ctx->name) : g_strdup (ctx->name);
  if (ctx->style == STYLE_PYTHON && min != max)
    return fail_set (fail, FX_ERROR_DTYPE, FALSE,
                     "%s() takes from %d to %d positional arguments but %d %s given", prefix,
                     min, max, shown, shown == 1 ? "was" : "were");
  if (ctx->style == STYLE_CPP && min != max)
    return fail_set (fail, FX_ERROR_DTYPE, FALSE,
                     "%s() takes from %d to %d positional arguments but %d were given", prefix,
                     min, max, shown);
  return fail_set (fail, FX_ERROR_DTYPE, FALSE,
                   "%s() takes %d positional argument%s but %d %s given", prefix, max,
                   max == 1 ? "" : "s", shown, shown == 1 ? "was" : "were");
}

/* The message for an argument of the wrong type. */
static gboolean
type_fail (const BindCtx *ctx, const FxOverload *ov, int idx, gboolean by_kw,
           const FxValue *v, int bad_elem, BindFail *fail)
{
  if (fail->quiet)
    return fail_set (fail, FX_ERROR_DTYPE, bad_elem >= 0, "-");
  g_autoptr (GPtrArray) displays = overload_displays (ov, NULL);
  const char *display = displays->pdata[idx];
  const FxArgSpec *a = &ov->args[idx];
  if (bad_elem >= 0 && a->type == FX_ARG_TENSOR_LIST)
    return fail_set (fail, FX_ERROR_DTYPE, TRUE,
                     "expected Tensor as element %d in argument %d, but got %s", bad_elem,
                     ctx->method ? idx - 1 : idx, py_type_name (&v->seq->items[bad_elem]));
  if (bad_elem >= 0)
    return fail_set (fail, FX_ERROR_DTYPE, TRUE,
                     "%s(): argument '%s' must be %s, but found element of type %s at pos %d",
                     ctx->name, a->name, display, py_type_name (&v->seq->items[bad_elem]),
                     bad_elem + 1);
  if (by_kw)
    return fail_set (fail, FX_ERROR_DTYPE, FALSE, "%s(): argument '%s' must be %s, not %s",
                     ctx->name, a->name, display, py_type_name (v));
  return fail_set (fail, FX_ERROR_DTYPE, FALSE,
                   "%s(): argument '%s' (position %d) must be %s, not %s", ctx->name, a->name,
                   ctx->method ? idx : idx + 1, display, py_type_name (v));
}

/* Binds to one overload; on failure fills *fail and clears what was bound. */
static gboolean
bind_one (const BindCtx *ctx, const FxOverload *ov, const FxValue *args, int n_args,
          const FxDict *kwargs, FxValue *argv, BindFail *fail)
{
  gboolean lenient = ctx->style != STYLE_CPP;
  const FxValue *k, *kv;
  int n_params_pos = n_positional_params (ov);
  int var_idx = -1;
  FxValue var_value = fx_value_none ();   /* the list gathered from varargs */
  gboolean ok = FALSE;

  for (int i = 0; i < ov->n_args; i++)
    argv[i] = fx_value_none ();

  /* Varargs: f(2, 3) gathers the trailing positional ints into the list. */
  for (int i = 0; i < ov->n_args; i++)
    if (ov->args[i].varargs)
      var_idx = i;
  if (var_idx >= 0 && n_args > var_idx)
    {
      const FxValue *first = &args[var_idx];
      int64_t dummy;
      if (n_args > var_idx + 1 || as_int (first, FALSE, &dummy))
        {
          if (!as_int (first, FALSE, &dummy))
            return type_fail (ctx, ov, var_idx, FALSE, first, -1, fail);
          FxSeq *seq = fx_seq_new (0);
          for (int i = var_idx; i < n_args; i++)
            fx_seq_append (seq, fx_value_copy (&args[i]));
          var_value = fx_value_take_tuple (seq);
          n_args = var_idx + 1;
        }
    }

  if (n_args > n_params_pos)
    {
      too_many_positional (ctx, ov, n_args, fail);
      goto out;
    }

  if (ctx->style == STYLE_PYTHON)
    {
      /* CPython checks keywords first, then what is missing. */
      for (guint j = 0; kwargs && fx_dict_entry (kwargs, j, &k, &kv); j++)
        {
          const char *kn = kwarg_name (k);
          int p = fx_overload_param (ov, kn);
          if (p >= 0 && p >= n_args)
            continue;
          g_autofree char *prefix = ctx->method ? g_strdup_printf ("Tensor.%s", ctx->name)
                                                : g_strdup (ctx->name);
          if (p < 0)
            {
              fail_set (fail, FX_ERROR_DTYPE, FALSE,
                        "%s() got an unexpected keyword argument '%s'", prefix,
                        kn ? kn : "?");
              goto out;
            }
          if (p < n_args)
            {
              fail_set (fail, FX_ERROR_DTYPE, FALSE, "%s() got multiple values for argument '%s'",
                        prefix, kn);
              goto out;
            }
        }
      g_autoptr (GPtrArray) missing = g_ptr_array_new ();
      g_autoptr (GPtrArray) missing_kw = g_ptr_array_new ();
      for (int i = n_args; i < ov->n_args; i++)
        if (!ov->args[i].has_default && kwargs_find (kwargs, ov->args[i].name) == NULL)
          g_ptr_array_add (ov->args[i].kwarg_only ? missing_kw : missing,
                           (gpointer) ov->args[i].name);
      if ((missing->len > 0 || missing_kw->len > 0) && fail->quiet)
        {
          fail_set (fail, FX_ERROR_DTYPE, FALSE, "-");
          goto out;
        }
      if (missing->len > 0 || missing_kw->len > 0)
        {
          GPtrArray *m = missing->len > 0 ? missing : missing_kw;
          GString *msg = g_string_new (NULL);
          if (ctx->method)
            g_string_append (msg, "Tensor.");
          g_string_append_printf (msg, "%s() missing %u required %s argument%s: ", ctx->name,
                                  m->len, m == missing ? "positional" : "keyword-only",
                                  m->len == 1 ? "" : "s");
          append_python_names (msg, m);
          fail_set (fail, FX_ERROR_DTYPE, FALSE, "%s", msg->str);
          g_string_free (msg, TRUE);
          goto out;
        }
    }

  for (int i = 0; i < ov->n_args; i++)
    {
      const FxArgSpec *a = &ov->args[i];
      const FxValue *given = NULL;
      gboolean by_kw = FALSE;
      const FxValue *kw = kwargs_find (kwargs, a->name);
      if (i < n_args)
        given = i == var_idx && var_value.kind != FX_VALUE_NONE ? &var_value : &args[i];
      if (given && kw)
        {
          fail_set (fail, FX_ERROR_DTYPE, FALSE, "%s() got multiple values for argument '%s'",
                    ctx->name, a->name);
          goto out;
        }
      if (!given && kw)
        {
          given = kw;
          by_kw = TRUE;
        }
      if (!given)
        {
          if (a->has_default)
            {
              argv[i] = fx_value_copy (&a->default_value);
              continue;
            }
          /* PyTorch lists every required argument from here on, given by keyword or not, and
           * gets the plural backwards. */
          if (fail->quiet)
            {
              fail_set (fail, FX_ERROR_DTYPE, FALSE, "-");
              goto out;
            }
          GString *msg = g_string_new (NULL);
          int n_missing = 0;
          for (int j = i; j < ov->n_args; j++)
            if (!ov->args[j].has_default)
              {
                g_string_append_printf (msg, "%s\"%s\"", n_missing ? ", " : "", ov->args[j].name);
                n_missing++;
              }
          fail_set (fail, FX_ERROR_DTYPE, FALSE,
                    "%s() missing %d required positional argument%s: %s", ctx->name, n_missing,
                    n_missing == 1 ? "s" : "", msg->str);
          g_string_free (msg, TRUE);
          goto out;
        }
      int bad = -1;
      if (!convert_arg (a, given, lenient, &argv[i], &bad))
        {
          type_fail (ctx, ov, i, by_kw, given, bad, fail);
          goto out;
        }
    }

  for (guint j = 0; kwargs && fx_dict_entry (kwargs, j, &k, &kv); j++)
    {
      if (fx_overload_param (ov, kwarg_name (k)) < 0)
        {
          const char *kn = kwarg_name (k);
          fail_set (fail, FX_ERROR_DTYPE, FALSE, "%s() got an unexpected keyword argument '%s'",
                    ctx->name, kn ? kn : "?");
          goto out;
        }
    }
  ok = TRUE;

out:
  fx_value_clear (&var_value);
  if (!ok)
    for (int i = 0; i < ov->n_args; i++)
      fx_value_clear (&argv[i]);
  return ok;
}

/* " * (Tensor input, int dim, bool keepdim, *, ...)" without self, as PyTorch lists them. */
static void
append_signature (GString *out, const FxOverload *ov, gboolean method)
{
  g_autoptr (GPtrArray) displays = overload_displays (ov, NULL);
  gboolean first = TRUE, star = FALSE;
  g_string_append_c (out, '(');
  for (int i = method ? 1 : 0; i < ov->n_args; i++)
    {
      if (!first)
        g_string_append (out, ", ");
      first = FALSE;
      if (ov->args[i].kwarg_only && !star)
        {
          g_string_append (out, "*, ");
          star = TRUE;
        }
      g_string_append_printf (out, "%s %s", (const char *) displays->pdata[i], ov->args[i].name);
    }
  g_string_append_c (out, ')');
}

static char *
invalid_combination (const BindCtx *ctx, const FxOp *op, const FxValue *args, int n_args,
                     const FxDict *kwargs)
{
  GString *msg = g_string_new (NULL);
  const FxValue *k, *v;
  int n_kw = kwargs ? (int) fx_dict_len (kwargs) : 0;
  int first = ctx->method ? 1 : 0;
  int n_pos = n_args - first;

  g_string_append_printf (msg, "%s() received an invalid combination of arguments - got (",
                          ctx->name);
  for (int i = first; i < n_args; i++)
    g_string_append_printf (msg, "%s%s", i > first ? ", " : "", py_type_name (&args[i]));
  /* PyTorch prints the keywords last to first. */
  for (int j = n_kw - 1; j >= 0; j--)
    if (fx_dict_entry (kwargs, (guint) j, &k, &v))
      {
        const char *kn = kwarg_name (k);
        if (n_pos > 0)
          g_string_append_printf (msg, ", %s=%s", kn ? kn : "?", py_type_name (v));
        else
          g_string_append_printf (msg, "%s=%s, ", kn ? kn : "?", py_type_name (v));
      }
  g_string_append (msg, "), but expected ");
  int n_visible = 0;
  for (int i = 0; i < op->n_overloads; i++)
    if (!overload_hidden (&op->overloads[i]))
      n_visible++;
  if (n_visible == 1)
    {
      for (int i = 0; i < op->n_overloads; i++)
        if (!overload_hidden (&op->overloads[i]))
          append_signature (msg, &op->overloads[i], ctx->method);
    }
  else
    {
      g_string_append (msg, "one of:");
      for (int i = 0; i < op->n_overloads; i++)
        if (!overload_hidden (&op->overloads[i]))
          {
            g_string_append (msg, "\n * ");
            append_signature (msg, &op->overloads[i], ctx->method);
          }
    }
  return g_string_free (msg, FALSE);
}

gboolean
fx_op_bind (const FxOp *op, const FxValue *args, int n_args, const FxDict *kwargs,
            const FxOverload **overload, FxValue *argv, GError **error)
{
  g_return_val_if_fail (op != NULL && op->n_overloads > 0, FALSE);
  g_return_val_if_fail (n_args == 0 || args != NULL, FALSE);

  BindCtx ctx = { op, op_style (op), op->kind == FX_OP_METHOD, op->name };
  int n_kw = kwargs ? (int) fx_dict_len (kwargs) : 0;
  /* Messages name the function as its schema does; only errors need it. */
  g_autofree char *schema_name = NULL;
#define NAME_FOR_ERRORS() \
  G_STMT_START { \
    if (schema_name == NULL) \
      { \
        schema_name = overload_name (&op->overloads[0]); \
        if (schema_name[0] != '\0') \
          ctx.name = schema_name; \
      } \
  } G_STMT_END

  if (ctx.method)
    {
      const FxArgSpec *self = op->overloads[0].n_args > 0 ? &op->overloads[0].args[0] : NULL;
      if (self && self->type == FX_ARG_TENSOR && ctx.style == STYLE_CPP)
        {
          if (n_args == 0 || args[0].kind != FX_VALUE_TENSOR)
            {
              NAME_FOR_ERRORS ();
              if (n_args == 0)
                g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                             "descriptor '%s' of 'torch._C._TensorBase' object needs an argument",
                             ctx.name);
              else
                g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                             "descriptor '%s' for 'torch._C._TensorBase' objects doesn't apply "
                             "to a '%s' object", ctx.name, py_type_name (&args[0]));
              return FALSE;
            }
          gboolean noargs = TRUE;
          for (int i = 0; i < op->n_overloads; i++)
            if (op->overloads[i].n_args != 1)
              noargs = FALSE;
          if (noargs && (n_kw > 0 || n_args > 1))
            NAME_FOR_ERRORS ();
          if (noargs && n_kw > 0)
            {
              g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                           "_TensorBase.%s() takes no keyword arguments", ctx.name);
              return FALSE;
            }
          if (noargs && n_args > 1)
            {
              g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                           "_TensorBase.%s() takes no arguments (%d given)", ctx.name,
                           n_args - 1);
              return FALSE;
            }
        }
    }

  if (ctx.style == STYLE_OPERATOR || ctx.style == STYLE_BUILTIN)
    {
      /* CPython's own wording; arity over all overloads (getattr takes 2 or 3). */
      int min = G_MAXINT, max = 0;
      for (int i = 0; i < op->n_overloads; i++)
        {
          const FxOverload *ov = &op->overloads[i];
          int m = 0;
          for (int j = 0; j < ov->n_args; j++)
            if (!ov->args[j].has_default)
              m++;
          min = MIN (min, m);
          max = MAX (max, ov->n_args);
        }
      const char *prefix = ctx.style == STYLE_OPERATOR ? "_operator." : "";
      if (n_kw > 0 || n_args < min || n_args > max)
        NAME_FOR_ERRORS ();
      if (n_kw > 0)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "%s%s() takes no keyword arguments",
                       prefix, ctx.name);
          return FALSE;
        }
      if (n_args < min || n_args > max)
        {
          if (max == 1)
            g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                         "%s%s() takes exactly one argument (%d given)", prefix, ctx.name, n_args);
          else if (min == max)
            g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "%s expected %d arguments, got %d",
                         ctx.name, min, n_args);
          else
            g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "%s expected at %s %d arguments, got %d",
                         ctx.name, n_args < min ? "least" : "most", n_args < min ? min : max,
                         n_args);
          return FALSE;
        }
    }

  /* Fast pass: no messages. */
  for (int i = 0; i < op->n_overloads; i++)
    {
      BindFail quiet = { .quiet = TRUE };
      if (bind_one (&ctx, &op->overloads[i], args, n_args, kwargs, argv, &quiet))
        {
          if (overload)
            *overload = &op->overloads[i];
          return TRUE;
        }
      if (quiet.eager)
        break;
    }

  /* It fails: bind again, collecting each overload's message. */
  NAME_FOR_ERRORS ();
  BindFail *fails = g_new0 (BindFail, op->n_overloads);
  gboolean ok = FALSE;
  int eager = -1;
  for (int i = 0; i < op->n_overloads && !ok; i++)
    {
      const FxOverload *ov = &op->overloads[i];
      if (bind_one (&ctx, ov, args, n_args, kwargs, argv, &fails[i]))
        {
          if (overload)
            *overload = ov;
          ok = TRUE;
        }
      else if (fails[i].eager)
        {
          eager = i;
          break;
        }
    }

  if (!ok)
    {
      int chosen = eager;
      if (chosen < 0 && op->n_overloads == 1)
        chosen = 0;
      if (chosen < 0)
        {
          /* One plausible signature (by argument count, hidden ones aside): its own error. */
          int num = n_args + n_kw - (ctx.method ? 1 : 0);
          int plausible = -1, n_plausible = 0;
          for (int i = 0; i < op->n_overloads; i++)
            {
              const FxOverload *ov = &op->overloads[i];
              int min = 0, max = ov->n_args - (ctx.method ? 1 : 0);
              for (int j = ctx.method ? 1 : 0; j < ov->n_args; j++)
                if (!ov->args[j].has_default)
                  min++;
              if (!overload_hidden (ov) && num >= min && num <= max)
                {
                  plausible = i;
                  n_plausible++;
                }
            }
          if (n_plausible == 1 || ctx.style != STYLE_CPP)
            chosen = plausible >= 0 ? plausible : 0;
        }
      if (chosen >= 0)
        g_set_error_literal (error, FX_ERROR, fails[chosen].code, fails[chosen].msg);
      else
        {
          g_autofree char *msg = invalid_combination (&ctx, op, args, n_args, kwargs);
          g_set_error_literal (error, FX_ERROR, FX_ERROR_DTYPE, msg);
        }
    }
  for (int i = 0; i < op->n_overloads; i++)
    g_free (fails[i].msg);
  g_free (fails);
  return ok;
#undef NAME_FOR_ERRORS
}

gboolean
fx_op_call (const FxOp *op, const FxValue *args, int n_args, const FxDict *kwargs,
            FxValue *result, GError **error)
{
  const FxOverload *ov = NULL;
  int max = 0;
  g_return_val_if_fail (op != NULL && result != NULL, FALSE);
  *result = fx_value_none ();
  for (int i = 0; i < op->n_overloads; i++)
    max = MAX (max, op->overloads[i].n_args);
  FxValue stackv[16];
  FxValue *argv = max <= 16 ? stackv : g_new (FxValue, max);
  gboolean ok = fx_op_bind (op, args, n_args, kwargs, &ov, argv, error);
  if (ok)
    {
      *result = fx_value_none ();
      if (ov->kernel == NULL)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED, "%s is not implemented",
                       ov->text);
          ok = FALSE;
        }
      else if (!fx_grad_check_inplace (op, ov, argv, error))
        ok = FALSE;
      else
        {
          GError *local = NULL;
          ok = ov->kernel (argv, result, &local);
          if (!ok)
            {
              fx_value_clear (result);
              if (local == NULL)
                local = g_error_new (FX_ERROR, FX_ERROR_FAILED, "%s failed", op->qualified_name);
              g_propagate_error (error, local);
            }
          else
            {
              g_clear_error (&local);
              fx_grad_record (op, ov, argv, result);
            }
        }
      for (int i = 0; i < ov->n_args; i++)
        fx_value_clear (&argv[i]);
    }
  if (argv != stackv)
    g_free (argv);
  return ok;
}
