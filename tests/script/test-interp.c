/* test-interp.c: the embedding API of script.h — running source with captured output,
 * exceptions as GErrors, native modules and classes (subclassed from Python with super()),
 * CPython-exact traceback and SyntaxError text, and fx_script_main's exit statuses. The
 * expected texts are what python3 3.11 prints for the same files. */
#include <fx.h>
#include "script/script.h"

#include <glib/gstdio.h>
#include <string.h>

typedef struct {
  GString *out, *err;
} Capture;

static void
capture_out (const char *text, gsize len, gpointer data)
{
  g_string_append_len (((Capture *) data)->out, text, len);
}

static void
capture_err (const char *text, gsize len, gpointer data)
{
  g_string_append_len (((Capture *) data)->err, text, len);
}

typedef struct {
  FxScript *script;
  Capture cap;
  char *dir;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  (void) data;
  f->script = fx_script_new ();
  f->cap.out = g_string_new (NULL);
  f->cap.err = g_string_new (NULL);
  fx_script_set_output (f->script, capture_out, capture_err, &f->cap);
  f->dir = g_dir_make_tmp ("fx-test-interp-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
}

static void
remove_tree (const char *path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  const char *name;
  if (d == NULL)
    {
      g_remove (path);
      return;
    }
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      remove_tree (child);
    }
  g_dir_close (d);
  g_rmdir (path);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  (void) data;
  fx_script_free (f->script);
  g_string_free (f->cap.out, TRUE);
  g_string_free (f->cap.err, TRUE);
  remove_tree (f->dir);
  g_free (f->dir);
}

/* Writes name into the fixture's directory; returns its path (g_free). */
static char *
write_file (Fixture *f, const char *name, const char *text)
{
  char *path = g_build_filename (f->dir, name, NULL);
  g_autofree char *parent = g_path_get_dirname (path);
  g_mkdir_with_parents (parent, 0700);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* ------------------------------------------------------------------ running */

static void
test_run_string_output (Fixture *f, gconstpointer data)
{
  (void) data;
  g_assert_true (fx_script_run_string (f->script,
                                       "x = [1, 2]\n"
                                       "x.append(3)\n"
                                       "print(sum(x), 'items')\n"
                                       "import sys\n"
                                       "sys.stdout.write('direct\\n')\n"
                                       "sys.stderr.write('to err\\n')\n",
                                       "snippet.py", NULL));
  g_assert_false (fx_script_exception_pending (f->script));
  g_assert_cmpstr (f->cap.out->str, ==, "6 items\ndirect\n");
  g_assert_cmpstr (f->cap.err->str, ==, "to err\n");

  /* the same module keeps its globals across runs */
  g_assert_true (fx_script_run_string (f->script, "print(x[-1] * 10)\n", "more.py", NULL));
  g_assert_cmpstr (f->cap.out->str, ==, "6 items\ndirect\n30\n");
}

static void
test_exception_to_gerror (Fixture *f, gconstpointer data)
{
  GError *error = NULL;
  (void) data;

  g_assert_false (fx_script_run_string (f->script, "raise ValueError('bad value')\n", "v.py", NULL));
  g_assert_true (fx_script_exception_pending (f->script));
  g_assert_true (fx_script_exception_matches (f->script, "ValueError"));
  g_assert_true (fx_script_exception_matches (f->script, "Exception"));
  g_assert_false (fx_script_exception_matches (f->script, "KeyError"));
  fx_script_exception_to_gerror (f->script, &error);
  g_assert_false (fx_script_exception_pending (f->script));
  g_assert_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "ValueError: bad value");
  g_clear_error (&error);

  g_assert_false (fx_script_run_string (f->script, "d = {}\nd['k']\n", "k.py", NULL));
  fx_script_exception_to_gerror (f->script, &error);
  g_assert_error (error, FX_ERROR, FX_ERROR_KEY);
  g_assert_cmpstr (error->message, ==, "KeyError: 'k'");
  g_clear_error (&error);

  /* a subclass maps through its MRO; an unknown class is FX_ERROR_FAILED */
  g_assert_false (fx_script_run_string (f->script,
                                        "class MyError(IndexError):\n    pass\n"
                                        "raise MyError('out')\n", "i.py", NULL));
  fx_script_exception_to_gerror (f->script, &error);
  g_assert_error (error, FX_ERROR, FX_ERROR_INDEX);
  g_assert_cmpstr (error->message, ==, "MyError: out");
  g_clear_error (&error);

  g_assert_false (fx_script_run_string (f->script, "raise RuntimeError\n", "r.py", NULL));
  fx_script_exception_to_gerror (f->script, &error);
  g_assert_error (error, FX_ERROR, FX_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, "RuntimeError");
  g_clear_error (&error);

  /* and back: a GError raised from C becomes the matching Python class */
  g_set_error (&error, FX_ERROR, FX_ERROR_ZERO_DIVISION, "division by zero");
  g_assert_false (fx_script_raise_gerror (f->script, error));
  g_clear_error (&error);
  g_assert_true (fx_script_exception_matches (f->script, "ZeroDivisionError"));
  fx_script_clear_exception (f->script);

  g_assert_false (fx_script_raise (f->script, "NoSuchError", "x=%d", 5));
  g_assert_true (fx_script_exception_matches (f->script, "RuntimeError"));
  fx_script_exception_to_gerror (f->script, &error);
  g_assert_cmpstr (error->message, ==, "RuntimeError: x=5");
  g_clear_error (&error);
}

/* ------------------------------------------------------------------ native modules */

static int demo_inits;

static gboolean
demo_add (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  static const char *const names[] = { "a", "b" };
  const FxValue *a[2];
  int64_t x, y;
  (void) data;
  if (!fx_script_parse_args (S, "add", args, n, kwargs, names, 2, 2, 2, a)
      || !fx_script_to_int (S, a[0], &x) || !fx_script_to_int (S, a[1], &y))
    return FALSE;
  *result = fx_value_int (x + y);
  return TRUE;
}

typedef struct {
  int64_t count;
} CounterPayload;

static int payloads_alive;

static gpointer
counter_payload_new (FxScript *S, FxScriptClass *cls, gpointer class_data)
{
  (void) S;
  (void) cls;
  (void) class_data;
  payloads_alive++;
  return g_new0 (CounterPayload, 1);
}

static void
counter_payload_free (gpointer p)
{
  payloads_alive--;
  g_free (p);
}

static gboolean
counter_init (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  CounterPayload *p = fx_script_instance_payload (&args[0]);
  (void) kwargs;
  (void) data;
  if (n != 2)
    return fx_script_raise (S, "TypeError", "Counter() takes 1 argument (%d given)", n - 1);
  if (!fx_script_to_int (S, &args[1], &p->count))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
counter_incr (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  CounterPayload *p = fx_script_instance_payload (&args[0]);
  (void) S;
  (void) n;
  (void) kwargs;
  (void) data;
  *result = fx_value_int (++p->count);
  return TRUE;
}

static gboolean
counter_value (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  CounterPayload *p = fx_script_instance_payload (&args[0]);
  (void) S;
  (void) n;
  (void) kwargs;
  (void) data;
  *result = fx_value_int (p->count);
  return TRUE;
}

static gboolean
demo_init (FxScript *S, FxScriptModule *module, gpointer data)
{
  FxScriptClassInfo info = {
    .module = "demo", .name = "Counter",
    .payload_new = counter_payload_new, .payload_free = counter_payload_free,
  };
  FxScriptClass *cls = fx_script_class_new (S, &info, NULL);
  g_assert_cmpstr (data, ==, "demo-data");
  demo_inits++;
  fx_script_class_add_method (cls, "__init__", counter_init, NULL);
  fx_script_class_add_method (cls, "incr", counter_incr, NULL);
  fx_script_class_add_property (cls, "value", counter_value, NULL, NULL);
  fx_script_module_set (module, "Counter", fx_script_class_value (cls));
  fx_script_module_add_function (module, "add", demo_add, NULL);
  fx_script_module_set (module, "NAME", fx_value_str ("demo"));
  return TRUE;
}

static gboolean
demo_sub_init (FxScript *S, FxScriptModule *module, gpointer data)
{
  (void) S;
  (void) data;
  fx_script_module_set (module, "DEPTH", fx_value_int (2));
  return TRUE;
}

static void
test_native_module (Fixture *f, gconstpointer data)
{
  FxValue mod, fn, args[2], r;
  (void) data;
  demo_inits = 0;
  fx_script_register_module (f->script, "demo", demo_init, (gpointer) "demo-data", NULL);
  fx_script_register_module (f->script, "demo.sub", demo_sub_init, NULL, NULL);
  fx_script_register_module (f->script, "deep.er.est", demo_sub_init, NULL, NULL);
  g_assert_true (fx_script_run_string (f->script,
                                       "import demo\n"
                                       "import demo as again\n"
                                       "print(demo.add(2, 3), demo.add(a=1, b=1), demo.NAME, again is demo)\n"
                                       "import demo.sub\n"
                                       "from demo.sub import DEPTH\n"
                                       "print(demo.sub.DEPTH, DEPTH, demo.__name__, demo.sub.__name__)\n"
                                       "try:\n"
                                       "    demo.add(1)\n"
                                       "except TypeError as e:\n"
                                       "    print(e)\n"
                                       "try:\n"
                                       "    import demo.nope\n"
                                       "except ModuleNotFoundError as e:\n"
                                       "    print(e, e.name)\n"
                                       "import deep.er.est\n"
                                       "print(deep.er.est.DEPTH, deep.er.__name__)\n",
                                       "m.py", NULL));
  g_assert_cmpstr (f->cap.out->str, ==,
                   "5 2 demo True\n"
                   "2 2 demo demo.sub\n"
                   "add() missing required argument 'b' (pos 2)\n"
                   "No module named 'demo.nope' demo.nope\n"
                   "2 deep.er\n");
  g_assert_cmpint (demo_inits, ==, 1);

  /* from C: import, getattr, call */
  g_assert_true (fx_script_import (f->script, "demo", &mod));
  g_assert_true (fx_script_getattr (f->script, &mod, "add", &fn));
  args[0] = fx_value_int (40);
  args[1] = fx_value_int (2);
  g_assert_true (fx_script_call (f->script, &fn, args, 2, NULL, &r));
  g_assert_cmpint (r.kind, ==, FX_VALUE_INT);
  g_assert_cmpint (r.i, ==, 42);
  fx_value_clear (&fn);
  g_assert_false (fx_script_lookup_attr (f->script, &mod, "missing", &fn));
  g_assert_false (fx_script_exception_pending (f->script));
  fx_value_clear (&mod);

  g_assert_false (fx_script_import (f->script, "no_such_module_xyz", &mod));
  {
    char *text = fx_script_format_exception (f->script);
    g_assert_cmpstr (text, ==, "ModuleNotFoundError: No module named 'no_such_module_xyz'\n");
    g_free (text);
  }
  fx_script_clear_exception (f->script);
}

static void
test_native_subclass (Fixture *f, gconstpointer data)
{
  FxValue r;
  (void) data;
  payloads_alive = 0;
  fx_script_register_module (f->script, "demo", demo_init, (gpointer) "demo-data", NULL);
  g_assert_true (fx_script_run_string (f->script,
                                       "import demo\n"
                                       "class Big(demo.Counter):\n"
                                       "    def __init__(self):\n"
                                       "        super().__init__(10)\n"
                                       "        self.tag = 'big'\n"
                                       "    def incr(self):\n"
                                       "        return super().incr() * 100\n"
                                       "b = Big()\n"
                                       "print(b.incr(), b.incr(), b.value, b.tag)\n"
                                       "print(isinstance(b, demo.Counter), type(b).__mro__)\n"
                                       "c = demo.Counter(5)\n"
                                       "print(c.incr(), c.value, type(c))\n",
                                       "sub.py", NULL));
  g_assert_cmpstr (f->cap.out->str, ==,
                   "1100 1200 12 big\n"
                   "True (<class '__main__.Big'>, <class 'demo.Counter'>, <class 'object'>)\n"
                   "6 6 <class 'demo.Counter'>\n");
  g_assert_cmpint (payloads_alive, ==, 2);

  /* calling a Python method (which calls the native one through super()) from C */
  {
    FxValue mainmod, b;
    g_assert_true (fx_script_import (f->script, "__main__", &mainmod));
    g_assert_true (fx_script_lookup_attr (f->script, &mainmod, "b", &b));
    g_assert_true (fx_script_call_method (f->script, &b, "incr", NULL, 0, NULL, &r));
    g_assert_cmpint (r.kind, ==, FX_VALUE_INT);
    g_assert_cmpint (r.i, ==, 1300);
    g_assert_false (fx_script_call_method (f->script, &b, "nope", NULL, 0, NULL, &r));
    g_assert_true (fx_script_exception_matches (f->script, "AttributeError"));
    fx_script_clear_exception (f->script);
    fx_value_clear (&b);
    fx_value_clear (&mainmod);
  }
  /* instances die with the interpreter, cycles included */
  fx_script_free (f->script);
  f->script = fx_script_new ();
  g_assert_cmpint (payloads_alive, ==, 0);
}

/* ------------------------------------------------------------------ error text */

static void
test_traceback_text (Fixture *f, gconstpointer data)
{
  g_autofree char *path = write_file (f, "tb.py",
                                      "def inner(d):\n"
                                      "    return d[\"missing\"]\n"
                                      "\n"
                                      "def outer():\n"
                                      "    data = {\"a\": 1}\n"
                                      "    return inner(data)\n"
                                      "\n"
                                      "outer()\n");
  g_autofree char *expected = g_strdup_printf (
    "Traceback (most recent call last):\n"
    "  File \"%s\", line 8, in <module>\n"
    "    outer()\n"
    "  File \"%s\", line 6, in outer\n"
    "    return inner(data)\n"
    "           ^^^^^^^^^^^\n"
    "  File \"%s\", line 2, in inner\n"
    "    return d[\"missing\"]\n"
    "           ~^^^^^^^^^^^\n"
    "KeyError: 'missing'\n", path, path, path);
  (void) data;
  g_assert_cmpint (fx_script_main (f->script, path, 1, (const char *const *) &path), ==, 1);
  g_assert_cmpstr (f->cap.err->str, ==, expected);
  g_assert_false (fx_script_exception_pending (f->script));
}

static void
test_chained_traceback (Fixture *f, gconstpointer data)
{
  g_autofree char *path = write_file (f, "ch.py",
                                      "try:\n"
                                      "    {}[\"a\"]\n"
                                      "except KeyError as e:\n"
                                      "    raise ValueError(\"bad\") from e\n");
  g_autofree char *expected = g_strdup_printf (
    "Traceback (most recent call last):\n"
    "  File \"%s\", line 2, in <module>\n"
    "    {}[\"a\"]\n"
    "    ~~^^^^^\n"
    "KeyError: 'a'\n"
    "\n"
    "The above exception was the direct cause of the following exception:\n"
    "\n"
    "Traceback (most recent call last):\n"
    "  File \"%s\", line 4, in <module>\n"
    "    raise ValueError(\"bad\") from e\n"
    "ValueError: bad\n", path, path);
  (void) data;
  g_assert_cmpint (fx_script_main (f->script, path, 0, NULL), ==, 1);
  g_assert_cmpstr (f->cap.err->str, ==, expected);
}

static void
test_syntax_error_text (Fixture *f, gconstpointer data)
{
  g_autofree char *path = write_file (f, "se.py", "x = 1\ny = x +* 2\n");
  g_autofree char *expected = g_strdup_printf (
    "  File \"%s\", line 2\n"
    "    y = x +* 2\n"
    "           ^\n"
    "SyntaxError: invalid syntax\n", path);
  (void) data;
  g_assert_false (fx_script_run_file (f->script, path));
  g_assert_true (fx_script_exception_matches (f->script, "SyntaxError"));
  fx_script_print_exception (f->script);
  g_assert_false (fx_script_exception_pending (f->script));
  g_assert_cmpstr (f->cap.err->str, ==, expected);
  g_assert_cmpstr (f->cap.out->str, ==, "");
}

/* ------------------------------------------------------------------ fx_script_main */

static void
test_main_exit_codes (Fixture *f, gconstpointer data)
{
  static const struct { const char *source; int status; const char *err; } cases[] = {
    { "print('ok')\n", 0, "" },
    { "import sys\nsys.exit(3)\n", 3, "" },
    { "import sys\nsys.exit()\n", 0, "" },
    { "raise SystemExit(None)\n", 0, "" },
    { "raise SystemExit(300)\n", 44, "" },
    { "import sys\nsys.exit('bye')\n", 1, "bye\n" },
    { "raise SystemExit(True)\n", 1, "" },
    { "1/0\n", 1, NULL },
  };
  (void) data;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("exit%u.py", i);
      g_autofree char *path = write_file (f, name, cases[i].source);
      FxScript *S = fx_script_new ();
      Capture cap = { g_string_new (NULL), g_string_new (NULL) };
      const char *argv[] = { path, "arg1" };
      fx_script_set_output (S, capture_out, capture_err, &cap);
      g_assert_cmpint (fx_script_main (S, path, 2, argv), ==, cases[i].status);
      if (cases[i].err)
        g_assert_cmpstr (cap.err->str, ==, cases[i].err);
      else
        g_assert_true (g_str_has_suffix (cap.err->str, "ZeroDivisionError: division by zero\n"));
      fx_script_free (S);
      g_string_free (cap.out, TRUE);
      g_string_free (cap.err, TRUE);
    }
  {
    g_autofree char *missing = g_build_filename (f->dir, "missing.py", NULL);
    g_autofree char *expected = g_strdup_printf (
      "fx: can't open file '%s': [Errno 2] No such file or directory\n", missing);
    g_assert_cmpint (fx_script_main (f->script, missing, 0, NULL), ==, 2);
    g_assert_cmpstr (f->cap.err->str, ==, expected);
  }
}

static void
test_main_argv_and_imports (Fixture *f, gconstpointer data)
{
  g_autofree char *helper = write_file (f, "helper.py", "VALUE = 7\ndef twice(x):\n    return 2 * x\n");
  g_autofree char *pkg = write_file (f, "pkg/__init__.py", "X = 1\n");
  g_autofree char *sub = write_file (f, "pkg/sub.py", "from . import X\nY = X + 1\n");
  g_autofree char *path = write_file (f, "main.py",
                                      "import sys\n"
                                      "import helper\n"
                                      "from helper import twice\n"
                                      "import pkg.sub\n"
                                      "print(sys.argv[1:], helper.VALUE, twice(4), pkg.sub.Y)\n"
                                      "print('pkg.sub' in sys.modules, pkg.sub.__package__)\n"
                                      "from . import nothing\n");
  const char *argv[] = { path, "a", "b" };
  (void) data;
  (void) helper;
  (void) pkg;
  (void) sub;
  g_assert_cmpint (fx_script_main (f->script, path, 3, argv), ==, 1);
  g_assert_cmpstr (f->cap.out->str, ==, "['a', 'b'] 7 8 2\nTrue pkg\n");
  g_assert_true (g_str_has_suffix (f->cap.err->str,
                                   "ImportError: attempted relative import with no known parent package\n"));
}

static char *seen_location;

static gboolean
where (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  const char *file = NULL, *fn = NULL;
  int line = 0;
  g_autofree char *stack = fx_script_format_stack (S);
  (void) args;
  (void) n;
  (void) kwargs;
  (void) data;
  g_assert_true (fx_script_current_location (S, &file, &line, &fn));
  g_free (seen_location);
  seen_location = g_strdup_printf ("%s:%d:%s\n%s", file, line, fn, stack);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
where_init (FxScript *S, FxScriptModule *module, gpointer data)
{
  (void) S;
  (void) data;
  fx_script_module_add_function (module, "where", where, NULL);
  return TRUE;
}

static void
test_location_and_stack (Fixture *f, gconstpointer data)
{
  const char *file = NULL, *fn = NULL;
  int line = 0;
  (void) data;
  g_assert_false (fx_script_current_location (f->script, &file, &line, &fn));
  fx_script_register_module (f->script, "loc", where_init, NULL, NULL);
  g_assert_true (fx_script_run_string (f->script,
                                       "import loc\n"
                                       "def f(x):\n"
                                       "    loc.where()\n"
                                       "    return x + 1\n"
                                       "print(f(1), hash(f) == hash(f), f == f)\n",
                                       "loc.py", NULL));
  g_assert_cmpstr (f->cap.out->str, ==, "2 True True\n");
  g_assert_cmpstr (seen_location, ==,
                   "loc.py:3:f\n"
                   "  File \"loc.py\", line 5, in <module>\n"
                   "    print(f(1), hash(f) == hash(f), f == f)\n"
                   "  File \"loc.py\", line 3, in f\n"
                   "    loc.where()\n");
  g_clear_pointer (&seen_location, g_free);
}

static gboolean
sum_item (FxScript *S, const FxValue *item, gpointer data)
{
  int64_t v;
  if (!fx_script_to_int (S, item, &v))
    return FALSE;
  *(int64_t *) data += v;
  return TRUE;
}

static void
test_operations (Fixture *f, gconstpointer data)
{
  FxValue mainmod, obj, items, r;
  FxScriptClass *err_cls;
  FxScriptClassInfo info = { .module = "torch.fx.proxy", .name = "TraceError" };
  GError *error = NULL;
  gboolean b;
  gint64 h1, h2;
  int64_t total = 0;
  char *text;
  (void) data;

  g_assert_true (fx_script_run_string (f->script,
                                       "class P:\n"
                                       "    def __init__(self, v):\n"
                                       "        self.v = v\n"
                                       "    def __repr__(self):\n"
                                       "        return f'P({self.v})'\n"
                                       "    def __str__(self):\n"
                                       "        return 'p' + str(self.v)\n"
                                       "    def __eq__(self, other):\n"
                                       "        return isinstance(other, P) and other.v == self.v\n"
                                       "    def __lt__(self, other):\n"
                                       "        return self.v < other.v\n"
                                       "    def __hash__(self):\n"
                                       "        return hash(self.v)\n"
                                       "p = P(3)\n"
                                       "q = P(4)\n"
                                       "items = (x * x for x in range(4))\n",
                                       "ops.py", NULL));
  g_assert_true (fx_script_import (f->script, "__main__", &mainmod));
  g_assert_true (fx_script_getattr (f->script, &mainmod, "p", &obj));
  text = fx_script_value_repr (f->script, &obj);
  g_assert_cmpstr (text, ==, "P(3)");
  g_free (text);
  text = fx_script_value_str (f->script, &obj);
  g_assert_cmpstr (text, ==, "p3");
  g_free (text);
  g_assert_true (fx_script_getattr (f->script, &mainmod, "q", &r));
  g_assert_true (fx_script_compare (f->script, &obj, &r, "<", &b));
  g_assert_true (b);
  g_assert_true (fx_script_compare (f->script, &obj, &r, "==", &b));
  g_assert_false (b);
  g_assert_true (fx_script_compare (f->script, &obj, &obj, "!=", &b));
  g_assert_false (b);
  g_assert_true (fx_script_hash (f->script, &obj, &h1));
  g_assert_true (fx_script_hash (f->script, &(FxValue) { .kind = FX_VALUE_INT, .i = 3 }, &h2));
  g_assert_cmpint (h1, ==, h2);
  fx_value_clear (&r);

  /* attributes from C, through the instance dict */
  g_assert_true (fx_script_setattr (f->script, &obj, "extra", &(FxValue) { .kind = FX_VALUE_INT, .i = 9 }));
  g_assert_cmpuint (fx_dict_len (fx_script_instance_dict (&obj)), ==, 2);
  g_assert_true (fx_script_getattr (f->script, &obj, "extra", &r));
  g_assert_cmpint (r.i, ==, 9);
  g_assert_true (fx_script_delattr (f->script, &obj, "extra"));
  g_assert_false (fx_script_getattr (f->script, &obj, "extra", &r));
  g_assert_true (fx_script_exception_matches (f->script, "AttributeError"));
  text = fx_script_format_exception (f->script);
  g_assert_cmpstr (text, ==, "AttributeError: 'P' object has no attribute 'extra'\n");
  g_free (text);
  fx_script_clear_exception (f->script);
  g_assert_true (fx_script_isinstance (f->script, &obj, fx_script_type_of (f->script, &obj)));
  g_assert_cmpstr (fx_script_class_get_name (fx_script_type_of (f->script, &obj)), ==, "P");
  g_assert_true (fx_script_is_subclass (fx_script_type_of (f->script, &obj),
                                        fx_script_builtin_class (f->script, "object")));
  fx_value_clear (&obj);

  /* iteration of a generator */
  g_assert_true (fx_script_getattr (f->script, &mainmod, "items", &items));
  g_assert_true (fx_script_iterate (f->script, &items, sum_item, &total));
  g_assert_cmpint (total, ==, 0 + 1 + 4 + 9);
  fx_value_clear (&items);
  fx_value_clear (&mainmod);

  /* a native exception class, raisable by name, mapped to its FX_ERROR code */
  err_cls = fx_script_class_new (f->script, &info, fx_script_builtin_class (f->script, "Exception"));
  fx_script_register_exception (f->script, err_cls);
  g_assert_false (fx_script_raise (f->script, "TraceError", "symbolic %s", "bool"));
  g_assert_true (fx_script_exception_matches (f->script, "TraceError"));
  g_assert_true (fx_script_exception_matches (f->script, "Exception"));
  fx_script_exception_to_gerror (f->script, &error);
  g_assert_error (error, FX_ERROR, FX_ERROR_TRACE);
  g_assert_cmpstr (error->message, ==, "TraceError: symbolic bool");
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/interp/run-string-output", test_run_string_output);
  ADD ("/interp/exception-to-gerror", test_exception_to_gerror);
  ADD ("/interp/native-module", test_native_module);
  ADD ("/interp/native-subclass", test_native_subclass);
  ADD ("/interp/traceback-text", test_traceback_text);
  ADD ("/interp/chained-traceback", test_chained_traceback);
  ADD ("/interp/syntax-error-text", test_syntax_error_text);
  ADD ("/interp/main-exit-codes", test_main_exit_codes);
  ADD ("/interp/main-argv-imports", test_main_argv_and_imports);
  ADD ("/interp/location", test_location_and_stack);
  ADD ("/interp/operations", test_operations);
#undef ADD
  return g_test_run ();
}
