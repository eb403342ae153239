/* test-parser.c: the front end's lexer, parser and scope analysis against CPython 3.11 —
 * sources it compiles, the exact SyntaxError class, message and position of sources it
 * rejects, literal values and tree shapes with positions (all in parser-cases.h, generated
 * by gen-parser-cases.py from the real python3). */
#include <fx.h>
#include "script/parser.h"

#include <string.h>

#include "parser-cases.h"

static char *
escape (const char *s)
{
  return g_strescape (s, NULL);
}

static void
test_valid (gconstpointer data)
{
  const char *src = data;
  ScSyntaxError err;
  ScUnit *unit = sc_compile ("f", src, strlen (src), &err);

  if (unit == NULL)
    {
      g_autofree char *esc = escape (src);
      g_test_message ("source \"%s\": %s: %s (line %d, col %d)", esc, err.cls, err.msg,
                      err.line, err.col);
      sc_syntax_error_clear (&err);
      g_test_fail ();
      return;
    }
  sc_unit_unref (unit);
}

static void
test_error (gconstpointer data)
{
  const ErrorCase *c = data;
  ScSyntaxError err;
  ScUnit *unit = sc_compile ("f", c->src, strlen (c->src), &err);
  g_autofree char *esc = escape (c->src);

  if (unit != NULL)
    {
      g_test_message ("source \"%s\" compiled; CPython: %s: %s", esc, c->cls, c->msg);
      sc_unit_unref (unit);
      g_test_fail ();
      return;
    }
  if (g_strcmp0 (err.cls, c->cls) != 0 || g_strcmp0 (err.msg, c->msg) != 0
      || err.line != c->line || err.col != c->col)
    {
      g_test_message ("source \"%s\"\n  got      %s: %s @%d:%d\n  CPython  %s: %s @%d:%d",
                      esc, err.cls, err.msg, err.line, err.col, c->cls, c->msg, c->line,
                      c->col);
      g_test_fail ();
    }
  else if (c->end_col >= 0 && (err.end_line != c->end_line || err.end_col != c->end_col))
    {
      /* The end decides how many carets the traceback prints. */
      g_test_message ("source \"%s\" (%s): end %d:%d, CPython %d:%d", esc, c->msg,
                      err.end_line, err.end_col, c->end_line, c->end_col);
      g_test_fail ();
    }
  sc_syntax_error_clear (&err);
}

static void
test_literal (gconstpointer data)
{
  const LiteralCase *c = data;
  g_autofree char *src = g_strdup_printf ("x = %s\n", c->src);
  g_autofree char *esc = escape (c->src);
  ScSyntaxError err;
  ScUnit *unit = sc_compile ("f", src, strlen (src), &err);
  const ScExpr *e;
  const FxValue *v;

  if (unit == NULL)
    {
      g_test_message ("literal %s: %s: %s", esc, err.cls, err.msg);
      sc_syntax_error_clear (&err);
      g_test_fail ();
      return;
    }
  g_assert_cmpint (unit->module->body.n, ==, 1);
  g_assert_cmpint (unit->module->body.items[0]->kind, ==, SC_S_ASSIGN);
  e = unit->module->body.items[0]->assign.value;
  if (e->kind != SC_E_CONST)
    {
      g_test_message ("literal %s: expression kind %d, not a constant", esc, e->kind);
      g_test_fail ();
      sc_unit_unref (unit);
      return;
    }
  v = &e->constant;
  switch (c->kind)
    {
    case 'i':
      g_assert_cmpint (v->kind, ==, FX_VALUE_INT);
      g_assert_cmpint (v->i, ==, c->i);
      break;
    case 'f':
      g_assert_cmpint (v->kind, ==, FX_VALUE_FLOAT);
      if (v->f != c->f)
        {
          g_test_message ("literal %s: %.17g, CPython %.17g", esc, v->f, c->f);
          g_test_fail ();
        }
      break;
    case 'b':
      g_assert_cmpint (v->kind, ==, FX_VALUE_BOOL);
      g_assert_cmpint (!!v->b, ==, c->i);
      break;
    case 'N':
      g_assert_cmpint (v->kind, ==, FX_VALUE_NONE);
      break;
    case 'E':
      g_assert_cmpint (v->kind, ==, FX_VALUE_ELLIPSIS);
      break;
    case 's':
      g_assert_cmpint (v->kind, ==, FX_VALUE_STR);
      if (v->s->len != c->len || memcmp (v->s->data, c->s, c->len) != 0)
        {
          g_autofree char *got = escape (v->s->data);
          g_autofree char *want = escape (c->s);
          g_test_message ("literal %s: \"%s\" (%zu bytes), CPython \"%s\" (%zu bytes)", esc,
                          got, v->s->len, want, c->len);
          g_test_fail ();
        }
      break;
    default:
      g_assert_not_reached ();
    }
  sc_unit_unref (unit);
}

/* ------------------------------------------------------------------ shapes */

static void dump_expr (GString *out, const ScExpr *e);
static void dump_block (GString *out, const ScBlock *b);

static const char *const bin_names[] = {
  "+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "@",
};
static const char *const unary_names[] = { "-", "+", "~", "not" };
static const char *const cmp_names[] = {
  "<", "<=", "==", "!=", ">", ">=", "is", "is not", "in", "not in",
};

static void
dump_pos (GString *out, const char *kind, const ScPos *p)
{
  g_string_append_printf (out, "%s@%d:%d-%d:%d", kind, p->line, p->col, p->end_line, p->end_col);
}

static void
dump_def_pos (GString *out, const char *kind, const ScStmt *s, const ScCode *code)
{
  g_string_append_printf (out, "%s@%d:%d-%d:%d", kind, code->pos.line, code->pos.col,
                          s->pos.end_line, s->pos.end_col);
}

static void
dump_kid (GString *out, const ScExpr *e)
{
  g_string_append_c (out, ' ');
  dump_expr (out, e);
}

static void
dump_list (GString *out, ScExpr *const *items, int n)
{
  g_string_append_c (out, '[');
  for (int i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (out, ' ');
      dump_expr (out, items[i]);
    }
  g_string_append_c (out, ']');
}

static void
dump_comp (GString *out, const ScExpr *e)
{
  for (int i = 0; i < e->comp.n_gens; i++)
    {
      const ScComprehension *g = &e->comp.gens[i];
      g_string_append (out, " for");
      dump_kid (out, g->target);
      dump_kid (out, g->iter);
      for (int j = 0; j < g->n_ifs; j++)
        {
          g_string_append (out, " if ");
          dump_expr (out, g->ifs[j]);
        }
    }
}

static void
dump_expr (GString *out, const ScExpr *e)
{
  if (e == NULL)
    {
      g_string_append_c (out, '_');
      return;
    }
  switch (e->kind)
    {
    case SC_E_CONST:
      dump_pos (out, "Constant", &e->pos);
      return;
    case SC_E_FSTRING:
      dump_pos (out, "JoinedStr", &e->pos);
      return;
    case SC_E_NAME:
      dump_pos (out, "Name", &e->pos);
      g_string_append_printf (out, "(%s)", e->name.id->data);
      return;
    case SC_E_BINOP:
      dump_pos (out, "BinOp", &e->pos);
      g_string_append_printf (out, "(%s", bin_names[e->binop.op]);
      dump_kid (out, e->binop.left);
      dump_kid (out, e->binop.right);
      break;
    case SC_E_UNARY:
      dump_pos (out, "UnaryOp", &e->pos);
      g_string_append_printf (out, "(%s", unary_names[e->unary.op]);
      dump_kid (out, e->unary.operand);
      break;
    case SC_E_BOOLOP:
      dump_pos (out, "BoolOp", &e->pos);
      g_string_append (out, e->boolop.is_and ? "(and" : "(or");
      for (int i = 0; i < e->boolop.n; i++)
        dump_kid (out, e->boolop.values[i]);
      break;
    case SC_E_COMPARE:
      dump_pos (out, "Compare", &e->pos);
      g_string_append_c (out, '(');
      dump_expr (out, e->compare.left);
      for (int i = 0; i < e->compare.n; i++)
        {
          g_string_append_printf (out, " %s", cmp_names[e->compare.ops[i]]);
          dump_kid (out, e->compare.comparators[i]);
        }
      break;
    case SC_E_CALL:
      dump_pos (out, "Call", &e->pos);
      g_string_append_c (out, '(');
      dump_expr (out, e->call.func);
      for (int i = 0; i < e->call.n_args; i++)
        dump_kid (out, e->call.args[i]);
      for (int i = 0; i < e->call.n_kws; i++)
        {
          const ScKeyword *k = &e->call.kws[i];
          g_string_append_printf (out, " %s=", k->name != NULL ? k->name->data : "**");
          dump_expr (out, k->value);
        }
      break;
    case SC_E_ATTR:
      dump_pos (out, "Attribute", &e->pos);
      g_string_append_c (out, '(');
      dump_expr (out, e->attr.value);
      g_string_append_printf (out, " .%s", e->attr.attr->data);
      break;
    case SC_E_SUBSCRIPT:
      dump_pos (out, "Subscript", &e->pos);
      g_string_append_c (out, '(');
      dump_expr (out, e->subscript.value);
      dump_kid (out, e->subscript.index);
      break;
    case SC_E_SLICE:
      dump_pos (out, "Slice", &e->pos);
      g_string_append_c (out, '(');
      dump_expr (out, e->slice.lower);
      dump_kid (out, e->slice.upper);
      dump_kid (out, e->slice.step);
      break;
    case SC_E_TUPLE:
    case SC_E_LIST:
    case SC_E_SET:
      dump_pos (out, e->kind == SC_E_TUPLE ? "Tuple" : e->kind == SC_E_LIST ? "List" : "Set",
                &e->pos);
      if (e->seq.n == 0)
        return;
      g_string_append_c (out, '(');
      for (int i = 0; i < e->seq.n; i++)
        {
          if (i > 0)
            g_string_append_c (out, ' ');
          dump_expr (out, e->seq.items[i]);
        }
      break;
    case SC_E_DICT:
      dump_pos (out, "Dict", &e->pos);
      if (e->dict.n == 0)
        return;
      g_string_append_c (out, '(');
      for (int i = 0; i < e->dict.n; i++)
        {
          if (i > 0)
            g_string_append_c (out, ' ');
          if (e->dict.keys[i] == NULL)
            g_string_append (out, "**");
          else
            dump_expr (out, e->dict.keys[i]);
          dump_kid (out, e->dict.values[i]);
        }
      break;
    case SC_E_STARRED:
      dump_pos (out, "Starred", &e->pos);
      g_string_append_c (out, '(');
      dump_expr (out, e->starred.value);
      break;
    case SC_E_IFEXP:
      dump_pos (out, "IfExp", &e->pos);
      g_string_append_c (out, '(');
      dump_expr (out, e->ifexp.test);
      dump_kid (out, e->ifexp.body);
      dump_kid (out, e->ifexp.orelse);
      break;
    case SC_E_LAMBDA:
      dump_pos (out, "Lambda", &e->pos);
      g_string_append_c (out, '(');
      dump_expr (out, e->lambda.code->lambda_body);
      break;
    case SC_E_LISTCOMP:
    case SC_E_SETCOMP:
    case SC_E_GENEXP:
      dump_pos (out, e->kind == SC_E_LISTCOMP ? "ListComp"
                     : e->kind == SC_E_SETCOMP ? "SetComp" : "GeneratorExp", &e->pos);
      g_string_append_c (out, '(');
      dump_expr (out, e->comp.elt);
      dump_comp (out, e);
      break;
    case SC_E_DICTCOMP:
      dump_pos (out, "DictComp", &e->pos);
      g_string_append_c (out, '(');
      dump_expr (out, e->comp.elt);
      dump_kid (out, e->comp.value);
      dump_comp (out, e);
      break;
    case SC_E_YIELD:
    case SC_E_YIELD_FROM:
      dump_pos (out, e->kind == SC_E_YIELD ? "Yield" : "YieldFrom", &e->pos);
      g_string_append_c (out, '(');
      dump_expr (out, e->yield.value);
      break;
    case SC_E_NAMED:
      dump_pos (out, "NamedExpr", &e->pos);
      g_string_append_c (out, '(');
      dump_expr (out, e->named.target);
      dump_kid (out, e->named.value);
      break;
    default:
      g_string_append_printf (out, "?kind%d", e->kind);
      return;
    }
  g_string_append_c (out, ')');
}

static void
dump_stmt (GString *out, const ScStmt *s)
{
  switch (s->kind)
    {
    case SC_S_EXPR:
      dump_pos (out, "Expr", &s->pos);
      g_string_append_c (out, '(');
      dump_expr (out, s->expr.value);
      break;
    case SC_S_ASSIGN:
      dump_pos (out, "Assign", &s->pos);
      g_string_append_c (out, '(');
      for (int i = 0; i < s->assign.n_targets; i++)
        {
          dump_expr (out, s->assign.targets[i]);
          g_string_append_c (out, ' ');
        }
      g_string_append (out, "=");
      dump_kid (out, s->assign.value);
      break;
    case SC_S_AUGASSIGN:
      dump_pos (out, "AugAssign", &s->pos);
      g_string_append_c (out, '(');
      dump_expr (out, s->augassign.target);
      g_string_append_printf (out, " %s=", bin_names[s->augassign.op]);
      dump_kid (out, s->augassign.value);
      break;
    case SC_S_ANNASSIGN:
      dump_pos (out, "AnnAssign", &s->pos);
      g_string_append_c (out, '(');
      dump_expr (out, s->annassign.target);
      dump_kid (out, s->annassign.annotation);
      dump_kid (out, s->annassign.value);
      break;
    case SC_S_RETURN:
      dump_pos (out, "Return", &s->pos);
      g_string_append_c (out, '(');
      dump_expr (out, s->ret.value);
      break;
    case SC_S_IF:
    case SC_S_WHILE:
      dump_pos (out, s->kind == SC_S_IF ? "If" : "While", &s->pos);
      g_string_append_c (out, '(');
      dump_expr (out, s->if_.test);
      g_string_append_c (out, ' ');
      dump_block (out, &s->if_.body);
      g_string_append_c (out, ' ');
      dump_block (out, &s->if_.orelse);
      break;
    case SC_S_FOR:
      dump_pos (out, "For", &s->pos);
      g_string_append_c (out, '(');
      dump_expr (out, s->for_.target);
      dump_kid (out, s->for_.iter);
      g_string_append_c (out, ' ');
      dump_block (out, &s->for_.body);
      g_string_append_c (out, ' ');
      dump_block (out, &s->for_.orelse);
      break;
    case SC_S_DEF:
      /* decorated: the statement starts at the first decorator (tracebacks show it there),
       * the code where CPython's ast puts the node, at `def` */
      dump_def_pos (out, "FunctionDef", s, s->def.code);
      g_string_append_printf (out, "(%s ", s->def.code->name->data);
      dump_list (out, s->def.code->decorators, s->def.code->n_decorators);
      g_string_append_c (out, ' ');
      dump_list (out, s->def.code->defaults, s->def.code->n_defaults);
      g_string_append_c (out, ' ');
      dump_block (out, &s->def.code->body);
      break;
    case SC_S_CLASS:
      dump_def_pos (out, "ClassDef", s, s->class_.code);
      g_string_append_printf (out, "(%s ", s->class_.code->name->data);
      dump_list (out, s->class_.bases, s->class_.n_bases);
      g_string_append_c (out, ' ');
      dump_block (out, &s->class_.code->body);
      break;
    case SC_S_TRY:
      dump_pos (out, "Try", &s->pos);
      g_string_append_c (out, '(');
      dump_block (out, &s->try_.body);
      for (int i = 0; i < s->try_.n_handlers; i++)
        {
          const ScHandler *h = &s->try_.handlers[i];
          g_string_append (out, " except");
          dump_kid (out, h->type);
          g_string_append_printf (out, " %s ", h->name.id != NULL ? h->name.id->data : "_");
          dump_block (out, &h->body);
        }
      g_string_append_c (out, ' ');
      dump_block (out, &s->try_.orelse);
      g_string_append_c (out, ' ');
      dump_block (out, &s->try_.finalbody);
      break;
    case SC_S_WITH:
      dump_pos (out, "With", &s->pos);
      g_string_append_c (out, '(');
      for (int i = 0; i < s->with.n_items; i++)
        {
          dump_expr (out, s->with.items[i].context);
          dump_kid (out, s->with.items[i].target);
          g_string_append_c (out, ' ');
        }
      dump_block (out, &s->with.body);
      break;
    case SC_S_ASSERT:
      dump_pos (out, "Assert", &s->pos);
      g_string_append_c (out, '(');
      dump_expr (out, s->assert_.test);
      dump_kid (out, s->assert_.msg);
      break;
    case SC_S_DEL:
      dump_pos (out, "Delete", &s->pos);
      g_string_append_c (out, '(');
      for (int i = 0; i < s->del.n_targets; i++)
        {
          if (i > 0)
            g_string_append_c (out, ' ');
          dump_expr (out, s->del.targets[i]);
        }
      break;
    case SC_S_RAISE:
      dump_pos (out, "Raise", &s->pos);
      g_string_append_c (out, '(');
      dump_expr (out, s->raise.exc);
      dump_kid (out, s->raise.cause);
      break;
    case SC_S_IMPORT:
    case SC_S_IMPORT_FROM:
      dump_pos (out, s->kind == SC_S_IMPORT ? "Import" : "ImportFrom", &s->pos);
      return;
    case SC_S_GLOBAL:
    case SC_S_NONLOCAL:
      dump_pos (out, s->kind == SC_S_GLOBAL ? "Global" : "Nonlocal", &s->pos);
      return;
    case SC_S_PASS:
      dump_pos (out, "Pass", &s->pos);
      return;
    case SC_S_BREAK:
      dump_pos (out, "Break", &s->pos);
      return;
    case SC_S_CONTINUE:
      dump_pos (out, "Continue", &s->pos);
      return;
    }
  g_string_append_c (out, ')');
}

static void
dump_block (GString *out, const ScBlock *b)
{
  g_string_append_c (out, '[');
  for (int i = 0; i < b->n; i++)
    {
      if (i > 0)
        g_string_append_c (out, ' ');
      dump_stmt (out, b->items[i]);
    }
  g_string_append_c (out, ']');
}

static void
test_shape (gconstpointer data)
{
  const ShapeCase *c = data;
  ScSyntaxError err;
  ScUnit *unit = sc_compile ("f", c->src, strlen (c->src), &err);
  g_autofree char *esc = escape (c->src);
  g_autoptr (GString) out = g_string_new (NULL);

  if (unit == NULL)
    {
      g_test_message ("source \"%s\": %s: %s", esc, err.cls, err.msg);
      sc_syntax_error_clear (&err);
      g_test_fail ();
      return;
    }
  for (int i = 0; i < unit->module->body.n; i++)
    {
      if (i > 0)
        g_string_append_c (out, ' ');
      dump_stmt (out, unit->module->body.items[i]);
    }
  if (strcmp (out->str, c->shape) != 0)
    {
      g_test_message ("source \"%s\"\n  got     %s\n  CPython %s", esc, out->str, c->shape);
      g_test_fail ();
    }
  sc_unit_unref (unit);
}

/* Deep nesting must fail cleanly, not overflow the C stack. */
static void
test_deep_nesting (void)
{
  g_autoptr (GString) src = g_string_new ("x = ");
  ScSyntaxError err;
  ScUnit *unit;

  for (int i = 0; i < 100000; i++)
    g_string_append_c (src, '(');
  for (int i = 0; i < 100000; i++)
    g_string_append_c (src, ')');
  g_string_append_c (src, '\n');
  unit = sc_compile ("f", src->str, src->len, &err);
  g_assert_null (unit);
  g_assert_nonnull (err.msg);
  sc_syntax_error_clear (&err);

  g_string_assign (src, "x = ");
  for (int i = 0; i < 100000; i++)
    g_string_append (src, "-");
  g_string_append (src, "1\n");
  unit = sc_compile ("f", src->str, src->len, &err);
  if (unit != NULL)
    sc_unit_unref (unit);
  else
    sc_syntax_error_clear (&err);

  /* `**` nests to the right (found by fuzzing: tests/fuzz/crashes/). */
  g_string_assign (src, "x = ");
  for (int i = 0; i < 100000; i++)
    g_string_append (src, "2**");
  g_string_append (src, "2\n");
  unit = sc_compile ("f", src->str, src->len, &err);
  g_assert_null (unit);
  g_assert_cmpstr (err.cls, ==, "RecursionError");
  sc_syntax_error_clear (&err);
}

/* \N{...} escapes need Unicode's name database, which fx does not carry: a clear
 * SyntaxError naming the construct (DESIGN §4), not a wrong string. */
static void
test_named_escape (void)
{
  static const char src[] = "x = '\\N{BULLET}'\n";
  ScSyntaxError err;
  ScUnit *unit = sc_compile ("f", src, strlen (src), &err);
  g_assert_null (unit);
  g_assert_cmpstr (err.cls, ==, "SyntaxError");
  g_assert_nonnull (strstr (err.msg, "\\N{...}"));
  g_assert_nonnull (strstr (err.msg, "not supported"));
  g_assert_cmpint (err.line, ==, 1);
  sc_syntax_error_clear (&err);
}

/* Sources that are not text Python must be errors, never crashes. */
static void
test_garbage (void)
{
  static const char *const sources[] = {
    "\xff\xfe", "x = '\xff'\n", "\0x = 1", "if", "def", "class", "(", ")", "f'{", "'\\", "\\",
    "x = \\", "lambda", "@", "*", "**", "x[", "x = 1 if", "for", "try", "with", "import .",
    "from", "0x", "1e", "'''", "\"\"\"abc", "f'{a!", "f'{a:", "f'{a:{'", "async def f(): pass\n",
    "match x:\n  case 1: pass\n", "x = `1`\n", "print >>f, x\n", "exec 'x'\n",
  };
  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      ScSyntaxError err;
      gsize len = i == 2 ? 6 : strlen (sources[i]);
      ScUnit *unit = sc_compile ("f", sources[i], len, &err);
      if (unit != NULL)
        sc_unit_unref (unit);
      else
        sc_syntax_error_clear (&err);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (valid_sources); i++)
    {
      g_autofree char *path = g_strdup_printf ("/parser/valid/%u", i);
      g_test_add_data_func (path, valid_sources[i], test_valid);
    }
  for (guint i = 0; i < G_N_ELEMENTS (error_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/parser/error/%u", i);
      g_test_add_data_func (path, &error_cases[i], test_error);
    }
  for (guint i = 0; i < G_N_ELEMENTS (literal_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/parser/literal/%u", i);
      g_test_add_data_func (path, &literal_cases[i], test_literal);
    }
  for (guint i = 0; i < G_N_ELEMENTS (shape_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/parser/shape/%u", i);
      g_test_add_data_func (path, &shape_cases[i], test_shape);
    }
  g_test_add_func ("/parser/deep-nesting", test_deep_nesting);
  g_test_add_func ("/parser/garbage", test_garbage);
  g_test_add_func ("/parser/named-escape", test_named_escape);
  return g_test_run ();
}
