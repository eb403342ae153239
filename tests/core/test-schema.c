/* test-schema.c: the schema grammar, argument binding with PyTorch's conversions and
 * TypeError messages, and the registry's lookups. */
#include "fx.h"
#include "ops/op-table.h"

#include <math.h>
#include <string.h>

/* ---- helpers ---- */

static gboolean
kernel_echo (const FxValue *argv, FxValue *result, GError **error)
{
  *result = fx_value_copy (&argv[0]);
  return TRUE;
}

/* A hand-made op over the given schema lines (NULL-ended). */
static FxOp *
make_op (FxOpKind kind, const char *path, const char *const *schemas)
{
  FxOp *op = g_new0 (FxOp, 1);
  const char *dot = strrchr (path, '.');
  static const char *const no_aliases[] = { NULL };
  op->kind = kind;
  op->qualified_name = path;
  op->name = dot ? dot + 1 : path;
  op->aliases = no_aliases;
  while (schemas[op->n_overloads])
    op->n_overloads++;
  op->overloads = g_new0 (FxOverload, op->n_overloads);
  for (int i = 0; i < op->n_overloads; i++)
    {
      GError *error = NULL;
      g_assert_true (fx_schema_parse (schemas[i], &op->overloads[i], &error));
      g_assert_no_error (error);
      op->overloads[i].kernel = kernel_echo;
    }
  return op;
}

static void
free_op (FxOp *op)
{
  for (int i = 0; i < op->n_overloads; i++)
    fx_overload_clear (&op->overloads[i]);
  g_free (op->overloads);
  g_free (op);
}

static FxTensor *
small_tensor (void)
{
  int64_t shape[2] = { 2, 3 };
  return fx_tensor_ones (FX_DTYPE_FLOAT32, 2, shape);
}

static FxDict *
kw1 (const char *k, FxValue v)
{
  FxDict *d = fx_dict_new ();
  fx_dict_set (d, fx_value_str (k), v);
  return d;
}

/* Binds and returns the bound argv as repr text "a, b, c", or NULL with *msg set. */
static char *
bind_repr (const FxOp *op, const FxValue *args, int n, FxDict *kwargs, char **msg,
           int *which)
{
  FxValue argv[16];
  const FxOverload *ov = NULL;
  GError *error = NULL;
  *msg = NULL;
  if (!fx_op_bind (op, args, n, kwargs, &ov, argv, &error))
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == FX_ERROR);
      *msg = g_strdup (error->message);
      g_error_free (error);
      return NULL;
    }
  g_assert_no_error (error);
  GString *out = g_string_new (NULL);
  for (int i = 0; i < ov->n_args; i++)
    {
      if (i)
        g_string_append (out, ", ");
      if (argv[i].kind == FX_VALUE_TENSOR)
        g_string_append (out, "T");
      else
        fx_value_repr (&argv[i], out);
      fx_value_clear (&argv[i]);
    }
  if (which)
    *which = (int) (ov - op->overloads);
  return g_string_free (out, FALSE);
}

static char *
first_line (const char *s)
{
  const char *nl = strchr (s, '\n');
  return nl ? g_strndup (s, nl - s) : g_strdup (s);
}

/* Expects a bind failure whose first line is expected. */
static void
assert_bind_error (const FxOp *op, const FxValue *args, int n, FxDict *kwargs,
                   const char *expected)
{
  char *msg = NULL;
  char *r = bind_repr (op, args, n, kwargs, &msg, NULL);
  if (r != NULL)
    g_error ("expected failure \"%s\", bound (%s)", expected, r);
  g_autofree char *line = first_line (msg);
  g_assert_cmpstr (line, ==, expected);
  g_free (msg);
}

static void
assert_bind (const FxOp *op, const FxValue *args, int n, FxDict *kwargs, const char *expected)
{
  char *msg = NULL;
  char *r = bind_repr (op, args, n, kwargs, &msg, NULL);
  if (r == NULL)
    g_error ("expected (%s), failed: %s", expected, msg);
  g_assert_cmpstr (r, ==, expected);
  g_free (r);
}

/* ---- parsing ---- */

static void
test_parse_basic (void)
{
  FxOverload ov;
  GError *error = NULL;
  g_assert_true (fx_schema_parse (
      "sum(Tensor input, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
      &ov, &error));
  g_assert_no_error (error);
  g_assert_cmpint (ov.n_args, ==, 4);
  g_assert_cmpstr (ov.args[0].name, ==, "input");
  g_assert_cmpint (ov.args[0].type, ==, FX_ARG_TENSOR);
  g_assert_false (ov.args[0].has_default);
  g_assert_cmpint (ov.args[1].type, ==, FX_ARG_INT_LIST);
  g_assert_true (ov.args[1].optional);
  g_assert_true (ov.args[1].has_default);
  g_assert_cmpint (ov.args[1].default_value.kind, ==, FX_VALUE_NONE);
  g_assert_cmpint (ov.args[2].type, ==, FX_ARG_BOOL);
  g_assert_cmpint (ov.args[2].default_value.kind, ==, FX_VALUE_BOOL);
  g_assert_false (ov.args[2].default_value.b);
  g_assert_false (ov.args[2].kwarg_only);
  g_assert_true (ov.args[3].kwarg_only);
  g_assert_cmpint (ov.args[3].type, ==, FX_ARG_DTYPE);
  g_assert_true (ov.args[3].optional);
  fx_overload_clear (&ov);
}

static void
test_parse_defaults (void)
{
  FxOverload ov;
  GError *error = NULL;
  g_assert_true (fx_schema_parse (
      "f(Tensor x, int[2] stride=1, int[2]? pad=[1, 1], float eps=1e-05, int dim=-1, "
      "str reduction='mean', float scale=1, ScalarType dtype=torch.float64, Scalar alpha=1, "
      "float[] w=[0.5, 2], Any fmt=torch.contiguous_format, float lo=-inf, "
      "Device device=\"cpu\", int... size)",
      &ov, &error));
  g_assert_no_error (error);
  g_assert_cmpint (ov.n_args, ==, 14);
  g_autofree char *stride = fx_value_to_repr (&ov.args[1].default_value);
  g_assert_cmpstr (stride, ==, "(1, 1)");
  g_assert_cmpint (ov.args[1].list_len, ==, 2);
  g_autofree char *pad = fx_value_to_repr (&ov.args[2].default_value);
  g_assert_cmpstr (pad, ==, "(1, 1)");
  g_assert_cmpint (ov.args[3].default_value.kind, ==, FX_VALUE_FLOAT);
  g_assert_cmpfloat (ov.args[3].default_value.f, ==, 1e-05);
  g_assert_cmpint (ov.args[4].default_value.kind, ==, FX_VALUE_INT);
  g_assert_cmpint (ov.args[4].default_value.i, ==, -1);
  g_assert_cmpint (ov.args[5].default_value.kind, ==, FX_VALUE_STR);
  g_assert_cmpstr (ov.args[5].default_value.s->data, ==, "mean");
  g_assert_cmpint (ov.args[6].default_value.kind, ==, FX_VALUE_FLOAT);   /* widened */
  g_assert_cmpint (ov.args[7].default_value.kind, ==, FX_VALUE_DTYPE);
  g_assert_cmpint (ov.args[7].default_value.dtype, ==, FX_DTYPE_FLOAT64);
  g_assert_cmpint (ov.args[8].default_value.kind, ==, FX_VALUE_INT);     /* Scalar as given */
  g_autofree char *w = fx_value_to_repr (&ov.args[9].default_value);
  g_assert_cmpstr (w, ==, "(0.5, 2.0)");
  g_assert_cmpint (ov.args[11].default_value.kind, ==, FX_VALUE_FLOAT);
  g_assert_true (isinf (ov.args[11].default_value.f) && ov.args[11].default_value.f < 0);
  g_assert_cmpint (ov.args[12].default_value.kind, ==, FX_VALUE_DEVICE);
  g_assert_true (ov.args[13].varargs);
  g_assert_cmpint (ov.args[13].type, ==, FX_ARG_INT_LIST);
  g_assert_false (ov.args[13].has_default);
  fx_overload_clear (&ov);

  g_assert_true (fx_schema_parse ("relu(Tensor self) -> Tensor", &ov, &error));
  g_assert_cmpint (ov.n_args, ==, 1);
  fx_overload_clear (&ov);
  g_assert_true (fx_schema_parse ("seed()", &ov, &error));
  g_assert_cmpint (ov.n_args, ==, 0);
  fx_overload_clear (&ov);
  g_assert_true (fx_schema_parse ("~add_(Tensor(a!) self, Scalar other, *, Scalar alpha=1) -> Tensor(a!)",
                                  &ov, &error));
  g_assert_cmpint (ov.n_args, ==, 3);
  fx_overload_clear (&ov);
  g_assert_true (fx_schema_parse ("view(Tensor self, SymInt... size)", &ov, &error));
  g_assert_true (ov.args[1].varargs);
  fx_overload_clear (&ov);
}

static void
test_parse_errors (void)
{
  const char *bad[] = {
    "f(Tensor x", "f Tensor x)", "f(Blob x)", "f(Tensor)", "f(int x=abc)", "f(int x=1.5)",
    "f(int... a, int b)", "f(Tensor x, Tensor x)", "f(int x=None)", "(Tensor x)",
    "f(str s='a')junk", "f(*, *, int a)", "f(bool b=[1, 2])", "f(float... a)",
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      FxOverload ov;
      GError *error = NULL;
      if (fx_schema_parse (bad[i], &ov, &error))
        g_error ("schema \"%s\" should not parse", bad[i]);
      g_assert_error (error, FX_ERROR, FX_ERROR_PARSE);
      g_clear_error (&error);
    }
}

/* ---- binding ---- */

static void
test_bind_kwargs_defaults (void)
{
  const char *s[] = { "sum(Tensor input, int[1]? dim=None, bool keepdim=False, *, "
                      "ScalarType? dtype=None) -> Tensor", NULL };
  FxOp *op = make_op (FX_OP_FUNCTION, "torch.sum", s);
  FxValue a[3] = { fx_value_take_tensor (small_tensor ()), fx_value_int (1), fx_value_bool (TRUE) };
  assert_bind (op, a, 1, NULL, "T, None, False, None");
  assert_bind (op, a, 2, NULL, "T, (1,), False, None");
  assert_bind (op, a, 3, NULL, "T, (1,), True, None");
  FxDict *kw = kw1 ("keepdim", fx_value_bool (TRUE));
  fx_dict_set (kw, fx_value_str ("dtype"), fx_value_dtype (FX_DTYPE_FLOAT64));
  assert_bind (op, a, 1, kw, "T, None, True, torch.float64");
  fx_dict_unref (kw);
  /* tuples and lists both become tuples; bools inside int lists count as ints */
  FxSeq *l = fx_seq_new (0);
  fx_seq_append (l, fx_value_int (0));
  fx_seq_append (l, fx_value_bool (TRUE));
  FxValue b[2] = { fx_value_copy (&a[0]), fx_value_take_list (l) };
  assert_bind (op, b, 2, NULL, "T, (0, 1), False, None");
  /* keyword-only cannot be given by position: 4 positional */
  FxValue c[4] = { fx_value_copy (&a[0]), fx_value_int (0), fx_value_bool (FALSE),
                   fx_value_dtype (FX_DTYPE_FLOAT32) };
  assert_bind_error (op, c, 4, NULL, "sum() takes from 1 to 3 positional arguments but 4 were given");
  /* CPU parser: bool is not an int, int is not a bool */
  FxValue d[3] = { fx_value_copy (&a[0]), fx_value_int (0), fx_value_int (1) };
  assert_bind_error (op, d, 3, NULL, "sum(): argument 'keepdim' (position 3) must be bool, not int");
  kw = kw1 ("keepdim", fx_value_int (1));
  assert_bind_error (op, a, 1, kw, "sum(): argument 'keepdim' must be bool, not int");
  fx_dict_unref (kw);
  /* bad element of an int list */
  FxSeq *l2 = fx_seq_new (0);
  fx_seq_append (l2, fx_value_int (0));
  fx_seq_append (l2, fx_value_str ("a"));
  kw = kw1 ("dim", fx_value_take_tuple (l2));
  assert_bind_error (op, a, 1, kw,
                     "sum(): argument 'dim' must be tuple of ints, but found element of type str at pos 2");
  fx_dict_unref (kw);
  kw = kw1 ("foo", fx_value_int (1));
  assert_bind_error (op, a, 1, kw, "sum() got an unexpected keyword argument 'foo'");
  fx_dict_unref (kw);
  kw = kw1 ("input", fx_value_copy (&a[0]));
  assert_bind_error (op, a, 1, kw, "sum() got multiple values for argument 'input'");
  assert_bind (op, NULL, 0, kw, "T, None, False, None");
  fx_dict_unref (kw);
  assert_bind_error (op, NULL, 0, NULL, "sum() missing 1 required positional arguments: \"input\"");
  for (int i = 0; i < 3; i++)
    fx_value_clear (&a[i]);
  for (int i = 0; i < 2; i++)
    fx_value_clear (&b[i]);
  for (int i = 0; i < 4; i++)
    fx_value_clear (&c[i]);
  for (int i = 0; i < 3; i++)
    fx_value_clear (&d[i]);
  free_op (op);
}

static void
test_bind_conversions (void)
{
  const char *s[] = { "f(Tensor input, int[2] k, float p=0.5, Scalar alpha=1, "
                      "Device? device=None, int n=0, str mode='x') -> Tensor", NULL };
  FxOp *op = make_op (FX_OP_FUNCTION, "torch.f", s);
  FxValue a[4] = { fx_value_take_tensor (small_tensor ()), fx_value_int (3), fx_value_int (1),
                   fx_value_bool (TRUE) };
  assert_bind (op, a, 4, NULL, "T, (3, 3), 1.0, True, None, 0, 'x'");
  FxDict *kw = kw1 ("device", fx_value_str ("cpu"));
  g_autofree char *msg = NULL;
  g_autofree char *r = bind_repr (op, a, 2, kw, &msg, NULL);
  g_assert_nonnull (r);
  g_assert_true (g_str_has_suffix (r, "'x'"));
  fx_dict_unref (kw);
  /* 0-d tensors: int arguments take integer ones, Scalars unwrap any */
  kw = kw1 ("n", fx_value_take_tensor (fx_tensor_scalar_int64 (FX_DTYPE_INT64, 7)));
  fx_dict_set (kw, fx_value_str ("alpha"), fx_value_take_tensor (fx_tensor_scalar_double (FX_DTYPE_FLOAT32, 2.5)));
  assert_bind (op, a, 2, kw, "T, (3, 3), 0.5, 2.5, None, 7, 'x'");
  fx_dict_unref (kw);
  kw = kw1 ("alpha", fx_value_copy (&a[0]));
  assert_bind_error (op, a, 2, kw, "f(): argument 'alpha' must be Number, not Tensor");
  fx_dict_unref (kw);
  kw = kw1 ("p", fx_value_str ("a"));
  assert_bind_error (op, a, 2, kw, "f(): argument 'p' must be float, not str");
  fx_dict_unref (kw);
  FxValue b[2] = { fx_value_copy (&a[0]), fx_value_float (2.5) };
  assert_bind_error (op, b, 2, NULL, "f(): argument 'k' (position 2) must be tuple of ints, not float");
  FxValue c[2] = { fx_value_none (), fx_value_int (1) };
  assert_bind_error (op, c, 2, NULL, "f(): argument 'input' (position 1) must be Tensor, not NoneType");
  for (int i = 0; i < 4; i++)
    fx_value_clear (&a[i]);
  for (int i = 0; i < 2; i++)
    fx_value_clear (&b[i]);
  free_op (op);
}

static void
test_bind_varargs (void)
{
  const char *s[] = { "view(Tensor self, ScalarType dtype) -> Tensor",
                      "view(Tensor self, SymInt... size) -> Tensor", NULL };
  FxOp *op = make_op (FX_OP_METHOD, "Tensor.view", s);
  FxValue self = fx_value_take_tensor (small_tensor ());
  FxValue a[3] = { fx_value_copy (&self), fx_value_int (3), fx_value_int (2) };
  int which = -1;
  g_autofree char *msg = NULL;
  g_autofree char *r = bind_repr (op, a, 3, NULL, &msg, &which);
  g_assert_cmpstr (r, ==, "T, (3, 2)");
  g_assert_cmpint (which, ==, 1);
  assert_bind (op, a, 2, NULL, "T, (3,)");
  FxValue b[2] = { fx_value_copy (&self), fx_value_int_tuple (&fx_tuple_type_size, 2, (int64_t[]) { 6, 1 }) };
  assert_bind (op, b, 2, NULL, "T, (6, 1)");
  FxValue c[2] = { fx_value_copy (&self), fx_value_dtype (FX_DTYPE_INT32) };
  assert_bind (op, c, 2, NULL, "T, torch.int32");
  FxValue d[3] = { fx_value_copy (&self), fx_value_int (2), fx_value_str ("a") };
  assert_bind_error (op, d, 3, NULL,
                     "view(): argument 'size' must be tuple of SymInts, but found element of type str at pos 2");
  FxValue e[2] = { fx_value_copy (&self), fx_value_float (2.5) };
  assert_bind_error (op, e, 2, NULL,
                     "view() received an invalid combination of arguments - got (float), but expected one of:");
  /* the rest of the message lists the signatures without self */
  g_free (r);
  g_free (msg);
  r = bind_repr (op, e, 2, NULL, &msg, NULL);
  g_assert_null (r);
  g_assert_cmpstr (msg, ==,
                   "view() received an invalid combination of arguments - got (float), but expected one of:\n"
                   " * (torch.dtype dtype)\n * (tuple of SymInts size)");
  FxDict *kw = kw1 ("foo", fx_value_int (1));
  fx_dict_set (kw, fx_value_str ("bar"), fx_value_int (2));
  assert_bind_error (op, a, 1, kw,
                     "view() received an invalid combination of arguments - got (bar=int, foo=int, ), but expected one of:");
  assert_bind_error (op, a, 2, kw,
                     "view() received an invalid combination of arguments - got (int, bar=int, foo=int), but expected one of:");
  fx_dict_unref (kw);
  /* self must be a tensor */
  FxValue f[1] = { fx_value_int (1) };
  assert_bind_error (op, f, 1, NULL,
                     "descriptor 'view' for 'torch._C._TensorBase' objects doesn't apply to a 'int' object");
  for (int i = 0; i < 3; i++)
    {
      fx_value_clear (&a[i]);
      fx_value_clear (&d[i]);
    }
  for (int i = 0; i < 2; i++)
    {
      fx_value_clear (&b[i]);
      fx_value_clear (&c[i]);
      fx_value_clear (&e[i]);
    }
  fx_value_clear (&self);
  free_op (op);
}

static void
test_bind_overloads (void)
{
  const char *s[] = { "max(Tensor input) -> Tensor",
                      "max(Tensor input, Tensor other) -> Tensor",
                      "max(Tensor input, int dim, bool keepdim=False) -> Any", NULL };
  FxOp *op = make_op (FX_OP_FUNCTION, "torch.max", s);
  FxValue t = fx_value_take_tensor (small_tensor ());
  FxValue a[3] = { fx_value_copy (&t), fx_value_int (1), fx_value_bool (TRUE) };
  int which = -1;
  g_autofree char *msg = NULL;
  char *r = bind_repr (op, a, 1, NULL, &msg, &which);
  g_assert_cmpint (which, ==, 0);
  g_free (r);
  r = bind_repr (op, a, 3, NULL, &msg, &which);
  g_assert_cmpint (which, ==, 2);
  g_assert_cmpstr (r, ==, "T, 1, True");
  g_free (r);
  FxValue b[2] = { fx_value_copy (&t), fx_value_copy (&t) };
  r = bind_repr (op, b, 2, NULL, &msg, &which);
  g_assert_cmpint (which, ==, 1);
  g_free (r);
  FxDict *kw = kw1 ("dim", fx_value_int (0));
  r = bind_repr (op, a, 1, kw, &msg, &which);
  g_assert_cmpint (which, ==, 2);
  g_free (r);
  fx_dict_unref (kw);
  FxValue c[2] = { fx_value_copy (&t), fx_value_float (1.5) };
  assert_bind_error (op, c, 2, NULL,
                     "max() received an invalid combination of arguments - got (Tensor, float), but expected one of:");
  /* only one signature fits the argument count: its own error */
  FxValue d[1] = { fx_value_int (1) };
  assert_bind_error (op, d, 1, NULL, "max(): argument 'input' (position 1) must be Tensor, not int");
  for (int i = 0; i < 3; i++)
    fx_value_clear (&a[i]);
  for (int i = 0; i < 2; i++)
    {
      fx_value_clear (&b[i]);
      fx_value_clear (&c[i]);
    }
  fx_value_clear (&t);
  free_op (op);
}

static void
test_bind_python_style (void)
{
  const char *s[] = { "relu(Tensor input, bool inplace=False) -> Tensor", NULL };
  FxOp *op = make_op (FX_OP_FUNCTION, "torch.nn.functional.relu", s);
  FxValue t = fx_value_take_tensor (small_tensor ());
  FxValue a[3] = { fx_value_copy (&t), fx_value_bool (TRUE), fx_value_int (3) };
  FxDict *kw = kw1 ("foo", fx_value_int (1));
  assert_bind_error (op, a, 1, kw, "relu() got an unexpected keyword argument 'foo'");
  assert_bind_error (op, NULL, 0, kw, "relu() got an unexpected keyword argument 'foo'");
  fx_dict_unref (kw);
  assert_bind_error (op, NULL, 0, NULL, "relu() missing 1 required positional argument: 'input'");
  assert_bind_error (op, a, 3, NULL, "relu() takes from 1 to 2 positional arguments but 3 were given");
  kw = kw1 ("inplace", fx_value_bool (TRUE));
  assert_bind_error (op, a, 2, kw, "relu() got multiple values for argument 'inplace'");
  fx_dict_unref (kw);
  /* Python's `if inplace:` takes any int */
  FxValue b[2] = { fx_value_copy (&t), fx_value_int (1) };
  assert_bind (op, b, 2, NULL, "T, True");
  free_op (op);

  const char *s2[] = { "batch_norm(Tensor input, Tensor? running_mean, Tensor? running_var, "
                       "Tensor? weight=None) -> Tensor", NULL };
  op = make_op (FX_OP_FUNCTION, "torch.nn.functional.batch_norm", s2);
  assert_bind_error (op, a, 1, NULL,
                     "batch_norm() missing 2 required positional arguments: 'running_mean' and 'running_var'");
  free_op (op);
  const char *s3[] = { "f(Tensor a, Tensor b, Tensor c) -> Tensor", NULL };
  op = make_op (FX_OP_FUNCTION, "torch.nn.functional.f", s3);
  assert_bind_error (op, NULL, 0, NULL, "f() missing 3 required positional arguments: 'a', 'b', and 'c'");
  free_op (op);
  const char *s4[] = { "split(Tensor self, Any split_size, int dim=0) -> Any", NULL };
  op = make_op (FX_OP_METHOD, "Tensor.split", s4);
  assert_bind_error (op, a, 1, NULL, "Tensor.split() missing 1 required positional argument: 'split_size'");
  free_op (op);
  const char *s5[] = { "mm(Tensor input, Tensor mat2) -> Tensor", NULL };
  op = make_op (FX_OP_FUNCTION, "torch.mm", s5);
  assert_bind_error (op, NULL, 0, NULL, "mm() missing 2 required positional argument: \"input\", \"mat2\"");
  assert_bind_error (op, a, 3, NULL, "mm() takes 2 positional arguments but 3 were given");
  kw = kw1 ("y", fx_value_copy (&t));
  assert_bind_error (op, a, 1, kw, "mm() missing 1 required positional arguments: \"mat2\"");
  fx_dict_unref (kw);
  free_op (op);
  const char *s6[] = { "relu(Tensor self) -> Tensor", NULL };
  op = make_op (FX_OP_METHOD, "Tensor.relu", s6);
  assert_bind_error (op, a, 2, NULL, "_TensorBase.relu() takes no arguments (1 given)");
  kw = kw1 ("y", fx_value_copy (&t));
  assert_bind_error (op, a, 1, kw, "_TensorBase.relu() takes no keyword arguments");
  fx_dict_unref (kw);
  free_op (op);
  const char *s9[] = { "_assert(Any condition, str message) -> Any", NULL };
  op = make_op (FX_OP_FUNCTION, "torch._assert", s9);
  op->flags = FX_OP_FLAG_PYTHON_FUNCTION;
  assert_bind_error (op, a, 1, NULL, "_assert() missing 1 required positional argument: 'message'");
  free_op (op);
  const char *s7[] = { "add(Any a, Any b) -> Any", NULL };
  op = make_op (FX_OP_FUNCTION, "operator.add", s7);
  assert_bind_error (op, a, 1, NULL, "add expected 2 arguments, got 1");
  free_op (op);
  const char *s8[] = { "neg(Any a) -> Any", NULL };
  op = make_op (FX_OP_FUNCTION, "operator.neg", s8);
  assert_bind_error (op, a, 2, NULL, "_operator.neg() takes exactly one argument (2 given)");
  free_op (op);
  for (int i = 0; i < 3; i++)
    fx_value_clear (&a[i]);
  for (int i = 0; i < 2; i++)
    fx_value_clear (&b[i]);
  fx_value_clear (&t);
}

static void
test_bind_hidden (void)
{
  const char *s[] = { "add(Tensor input, Tensor other, *, Scalar alpha=1) -> Tensor",
                      "~add(Tensor input, Scalar other, *, Scalar alpha=1) -> Tensor", NULL };
  FxOp *op = make_op (FX_OP_FUNCTION, "torch.add", s);
  FxValue a[2] = { fx_value_take_tensor (small_tensor ()), fx_value_int (2) };
  int which = -1;
  g_autofree char *msg = NULL;
  g_autofree char *r = bind_repr (op, a, 2, NULL, &msg, &which);
  g_assert_cmpint (which, ==, 1);
  g_assert_cmpstr (r, ==, "T, 2, 1");
  FxValue b[2] = { fx_value_copy (&a[0]), fx_value_str ("a") };
  assert_bind_error (op, b, 2, NULL, "add(): argument 'other' (position 2) must be Tensor, not str");
  assert_bind_error (op, NULL, 0, NULL,
                     "add() received an invalid combination of arguments - got (), but expected (Tensor input, Tensor other, *, Number alpha)");
  for (int i = 0; i < 2; i++)
    {
      fx_value_clear (&a[i]);
      fx_value_clear (&b[i]);
    }
  free_op (op);
}

static void
test_call (void)
{
  const char *s[] = { "f(Tensor input, int n=2) -> Tensor", NULL };
  FxOp *op = make_op (FX_OP_FUNCTION, "torch.f", s);
  FxValue a[1] = { fx_value_take_tensor (small_tensor ()) };
  FxValue result;
  GError *error = NULL;
  g_assert_true (fx_op_call (op, a, 1, NULL, &result, &error));
  g_assert_no_error (error);
  g_assert_cmpint (result.kind, ==, FX_VALUE_TENSOR);
  g_assert_true (result.tensor == a[0].tensor);
  fx_value_clear (&result);
  op->overloads[0].kernel = NULL;
  g_assert_false (fx_op_call (op, a, 1, NULL, &result, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED);
  g_clear_error (&error);
  fx_value_clear (&a[0]);
  free_op (op);
}

/* ---- the registry ---- */

static void
test_registry_all (void)
{
  guint n = 0;
  fx_ops_init ();
  fx_ops_init ();
  const FxOp *const *ops = fx_ops_all (&n);
  gboolean seen_method = FALSE;
  g_assert_cmpuint (n, >=, 6);
  for (guint i = 0; i < n; i++)
    {
      const FxOp *op = ops[i];
      g_assert_nonnull (op->qualified_name);
      g_assert_cmpint (op->n_overloads, >=, 1);
      gboolean has_kernel = FALSE;
      for (int j = 0; j < op->n_overloads; j++)
        if (op->overloads[j].kernel)
          has_kernel = TRUE;
      if (!has_kernel)
        g_error ("%s has no kernel", op->qualified_name);
      /* functions first, then methods */
      if (op->kind == FX_OP_METHOD)
        {
          seen_method = TRUE;
          g_assert_true (fx_op_lookup_method (op->name) != NULL);
        }
      else
        {
          g_assert_false (seen_method);
          g_assert_true (fx_op_lookup (op->qualified_name) == op);
        }
      for (int j = 0; op->aliases[j]; j++)
        g_assert_true (fx_op_lookup (op->aliases[j]) == op);
    }
}

static void
test_registry_lookup (void)
{
  g_assert_nonnull (fx_op_lookup ("getattr"));
  g_assert_nonnull (fx_op_lookup ("operator.getitem"));
  g_assert_null (fx_op_lookup ("torch.no_such_thing"));
  const FxOp *size = fx_op_lookup_method ("size");
  g_assert_nonnull (size);
  g_assert_true (size == fx_op_lookup_method ("Tensor.size"));
  g_assert_true (size == fx_op_lookup ("Tensor.size"));
  g_assert_cmpstr (size->qualified_name, ==, "Tensor.size");
  g_assert_cmpstr (size->name, ==, "size");
  g_assert_cmpint (size->kind, ==, FX_OP_METHOD);
  g_assert_null (fx_op_lookup_method ("no_such_method"));

  FxValue a[2] = { fx_value_take_tensor (small_tensor ()), fx_value_int (-1) };
  FxValue r;
  GError *error = NULL;
  g_assert_true (fx_op_call (size, a, 1, NULL, &r, &error));
  g_autofree char *s = fx_value_to_repr (&r);
  g_assert_cmpstr (s, ==, "torch.Size([2, 3])");
  fx_value_clear (&r);
  g_assert_true (fx_op_call (size, a, 2, NULL, &r, &error));
  g_assert_cmpint (r.kind, ==, FX_VALUE_INT);
  g_assert_cmpint (r.i, ==, 3);
  fx_value_clear (&r);
  FxValue g[2] = { fx_value_copy (&a[0]), fx_value_str ("shape") };
  g_assert_true (fx_op_call (fx_op_lookup ("getattr"), g, 2, NULL, &r, &error));
  g_assert_no_error (error);
  FxValue gi[2] = { r, fx_value_int (-2) };
  FxValue r2;
  g_assert_true (fx_op_call (fx_op_lookup ("operator.getitem"), gi, 2, NULL, &r2, &error));
  g_assert_cmpint (r2.kind, ==, FX_VALUE_INT);
  g_assert_cmpint (r2.i, ==, 2);
  fx_value_clear (&gi[0]);
  fx_value_clear (&gi[1]);
  fx_value_clear (&g[0]);
  fx_value_clear (&g[1]);
  fx_value_clear (&a[0]);
  fx_value_clear (&a[1]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/schema/parse/basic", test_parse_basic);
  g_test_add_func ("/schema/parse/defaults", test_parse_defaults);
  g_test_add_func ("/schema/parse/errors", test_parse_errors);
  g_test_add_func ("/schema/bind/kwargs-defaults", test_bind_kwargs_defaults);
  g_test_add_func ("/schema/bind/conversions", test_bind_conversions);
  g_test_add_func ("/schema/bind/varargs", test_bind_varargs);
  g_test_add_func ("/schema/bind/overloads", test_bind_overloads);
  g_test_add_func ("/schema/bind/python-style", test_bind_python_style);
  g_test_add_func ("/schema/bind/hidden", test_bind_hidden);
  g_test_add_func ("/schema/call", test_call);
  g_test_add_func ("/registry/all", test_registry_all);
  g_test_add_func ("/registry/lookup", test_registry_lookup);
  return g_test_run ();
}
