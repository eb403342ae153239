/* parser.c: recursive-descent parser for the Python subset, building ast.h nodes with
 * CPython's positions and reporting CPython 3.11's SyntaxError messages for common mistakes.
 * Recursion is bounded (MAX_DEPTH) so that hostile nesting cannot exhaust the C stack. */
#include "script/parser.h"
#include "script/lexer.h"

#include <string.h>

#define MAX_DEPTH 400

typedef struct {
  ScUnit *unit;
  const char *filename;
  const char *src;
  ScTokens toks;
  ScToken *tk;
  int n, pos;
  ScSyntaxError *err;
  gboolean failed;
  int depth;
  int loop_depth;
  gboolean in_function;
  GString *qual;          /* qualname prefix of the current scope: "", "A.", "f.<locals>." */
} Parser;

/* ------------------------------------------------------------------ interning */

static GMutex intern_lock;
static GHashTable *intern_table;

static guint
intern_hash (gconstpointer key)
{
  return fx_str_hash ((FxStr *) key);
}

static gboolean
intern_equal (gconstpointer a, gconstpointer b)
{
  const FxStr *x = a, *y = b;
  return x->len == y->len && memcmp (x->data, y->data, x->len) == 0;
}

FxStr *
sc_intern (const char *s, gsize len)
{
  /* Most names are short and already interned: look them up with a key on the stack, and
   * allocate only for a new name (every identifier token of every compile comes here). */
  union { FxStr str; char bytes[sizeof (FxStr) + 96]; } probe;
  FxStr *key = NULL, *found;

  if (len < sizeof probe.bytes - sizeof (FxStr))
    {
      g_atomic_ref_count_init (&probe.str.ref);
      probe.str.hash = 0;
      probe.str.len = len;
      memcpy (probe.str.data, s, len);
      probe.str.data[len] = '\0';
    }
  else
    key = fx_str_new_len (s, len);
  g_mutex_lock (&intern_lock);
  if (intern_table == NULL)
    intern_table = g_hash_table_new (intern_hash, intern_equal);
  found = g_hash_table_lookup (intern_table, key != NULL ? key : &probe.str);
  if (found == NULL)
    {
      if (key == NULL)
        key = fx_str_new_len (s, len);
      g_hash_table_add (intern_table, key);
      found = key;
      key = NULL;
    }
  g_mutex_unlock (&intern_lock);
  if (key)
    fx_str_unref (key);
  return found;
}

FxStr *
sc_intern_cstr (const char *s)
{
  return sc_intern (s, strlen (s));
}

/* ------------------------------------------------------------------ errors */

void
sc_syntax_error_clear (ScSyntaxError *err)
{
  g_clear_pointer (&err->msg, g_free);
}

static gboolean
error_range (Parser *P, const char *cls, int line, int col, int end_line, int end_col,
             const char *fmt, ...) G_GNUC_PRINTF (7, 8);

static gboolean
error_range (Parser *P, const char *cls, int line, int col, int end_line, int end_col,
             const char *fmt, ...)
{
  va_list ap;
  if (P->failed)
    return FALSE;
  P->failed = TRUE;
  P->err->cls = cls;
  va_start (ap, fmt);
  P->err->msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  P->err->line = line;
  P->err->col = col;
  P->err->end_line = end_line;
  P->err->end_col = end_col;
  return FALSE;
}

#define error_tok(P, t, ...) \
  error_range (P, "SyntaxError", (t)->line, (t)->col, (t)->end_line, (t)->end_col, __VA_ARGS__)
#define error_pos(P, p, ...) \
  error_range (P, "SyntaxError", (p)->line, (p)->col, (p)->end_line, (p)->end_col, __VA_ARGS__)

static ScToken *
tok (Parser *P)
{
  return &P->tk[P->pos];
}

static ScToken *
peek (Parser *P, int k)
{
  int i = P->pos + k;
  return &P->tk[i < P->n ? i : P->n - 1];
}

static ScToken *
prev (Parser *P)
{
  return &P->tk[P->pos > 0 ? P->pos - 1 : 0];
}

static ScToken *
advance (Parser *P)
{
  ScToken *t = tok (P);
  if (P->pos < P->n - 1)
    P->pos++;
  return t;
}

static gboolean
at_op (Parser *P, ScOp op)
{
  return tok (P)->kind == SC_TOK_OP && tok (P)->op == op;
}

static gboolean
at_kw (Parser *P, ScKw kw)
{
  return tok (P)->kind == SC_TOK_NAME && tok (P)->kw == kw;
}

static gboolean
accept_op (Parser *P, ScOp op)
{
  if (!at_op (P, op))
    return FALSE;
  advance (P);
  return TRUE;
}

static gboolean
accept_kw (Parser *P, ScKw kw)
{
  if (!at_kw (P, kw))
    return FALSE;
  advance (P);
  return TRUE;
}

/* "invalid syntax" at the current token, with CPython's special cases. */
static gboolean
error_invalid (Parser *P)
{
  ScToken *t = tok (P);
  if (t->kind == SC_TOK_INDENT)
    {
      ScToken *n = peek (P, 1);
      return error_range (P, "IndentationError", n->line, n->col > 0 ? n->col - 1 : 0, n->line, -1,
                          "unexpected indent");
    }
  if (t->kind == SC_TOK_NAME && (t->kw == SC_KW_ASYNC || t->kw == SC_KW_AWAIT))
    return error_tok (P, t, "'%s' is not supported by fx (asynchronous code)", sc_keyword_text (t->kw));
  return error_tok (P, t, "invalid syntax");
}

static gboolean
expect_op (Parser *P, ScOp op)
{
  if (accept_op (P, op))
    return TRUE;
  if (P->failed)
    return FALSE;
  if (op == SC_OP_COLON)
    {
      ScToken *p = prev (P);
      return error_range (P, "SyntaxError", p->end_line, p->end_col, p->end_line, p->end_col,
                          "expected ':'");
    }
  return error_invalid (P);
}

static gboolean
enter (Parser *P)
{
  if (++P->depth > MAX_DEPTH)
    {
      ScToken *t = tok (P);
      return error_range (P, "RecursionError", t->line, t->col, t->line, -1,
                          "maximum recursion depth exceeded during compilation");
    }
  return TRUE;
}

#define LEAVE(P, v) do { P->depth--; return (v); } while (0)

/* ------------------------------------------------------------------ node helpers */

static ScExpr *
mk (Parser *P, ScExprKind kind, const ScToken *start)
{
  ScExpr *e = sc_new (P->unit, ScExpr);
  e->kind = kind;
  e->pos.line = start->line;
  e->pos.col = start->col;
  e->pos.end_line = start->end_line;
  e->pos.end_col = start->end_col;
  return e;
}

static ScExpr *
end_prev (Parser *P, ScExpr *e)
{
  ScToken *t = prev (P);
  e->pos.end_line = t->end_line;
  e->pos.end_col = t->end_col;
  return e;
}

static ScExpr *
mk_span (Parser *P, ScExprKind kind, const ScPos *a, const ScPos *b)
{
  ScExpr *e = sc_new (P->unit, ScExpr);
  e->kind = kind;
  e->pos.line = a->line;
  e->pos.col = a->col;
  e->pos.end_line = b->end_line;
  e->pos.end_col = b->end_col;
  return e;
}

/* Where an operand starts and ends for its parent: with its brackets, as in CPython. */
static const ScPos *
span_of (const ScExpr *e)
{
  return e->parenthesized && e->group.line > 0 ? &e->group : &e->pos;
}

static gpointer
arena_array (Parser *P, GPtrArray *a, int *n)
{
  gpointer *items;
  *n = a ? (int) a->len : 0;
  if (*n == 0)
    return NULL;
  items = sc_new_n (P->unit, gpointer, a->len);
  memcpy (items, a->pdata, sizeof (gpointer) * a->len);
  return items;
}

static FxStr *
tok_name (Parser *P, const ScToken *t)
{
  return sc_intern (P->src + t->start, t->end - t->start);
}

static ScStmt *
mk_stmt (Parser *P, ScStmtKind kind, const ScToken *start)
{
  ScStmt *s = sc_new (P->unit, ScStmt);
  s->kind = kind;
  s->pos.line = start->line;
  s->pos.col = start->col;
  return s;
}

static ScStmt *
stmt_end (Parser *P, ScStmt *s)
{
  ScToken *t = prev (P);
  /* a block statement ends where its last statement ends */
  int i = P->pos - 1;
  while (i > 0 && (P->tk[i].kind == SC_TOK_DEDENT || P->tk[i].kind == SC_TOK_NEWLINE
                   || P->tk[i].kind == SC_TOK_INDENT))
    i--;
  t = &P->tk[i];
  s->pos.end_line = t->end_line;
  s->pos.end_col = t->end_col;
  return s;
}

/* ------------------------------------------------------------------ expressions: forward */

static ScExpr *parse_expression (Parser *P);
static ScExpr *parse_named_expression (Parser *P);
static ScExpr *parse_disjunction (Parser *P);
static ScExpr *parse_bitor (Parser *P);
static ScExpr *parse_star_expressions (Parser *P);
static ScExpr *parse_yield_expr (Parser *P);
static ScExpr *parse_strings (Parser *P);
static ScCode *new_code (Parser *P, ScCodeFlags flags, FxStr *name, const ScToken *start);
static gboolean parse_params (Parser *P, ScCode *code, gboolean is_lambda, ScOp end);
static gboolean parse_target_list (Parser *P, ScExpr **out, ScKw stop_kw);

static const char *
expr_name (const ScExpr *e)
{
  switch (e->kind)
    {
    case SC_E_CALL: return "function call";
    case SC_E_CONST:
      if (e->constant.kind == FX_VALUE_NONE) return "None";
      if (e->constant.kind == FX_VALUE_BOOL) return e->constant.b ? "True" : "False";
      if (e->constant.kind == FX_VALUE_ELLIPSIS) return "ellipsis";
      return "literal";
    case SC_E_UNSUPPORTED: return "literal";
    case SC_E_BINOP: case SC_E_UNARY: case SC_E_BOOLOP: return "expression";
    case SC_E_COMPARE: return "comparison";
    case SC_E_LAMBDA: return "lambda";
    case SC_E_IFEXP: return "conditional expression";
    case SC_E_DICT: return "dict literal";
    case SC_E_SET: return "set display";
    case SC_E_LISTCOMP: return "list comprehension";
    case SC_E_DICTCOMP: return "dict comprehension";
    case SC_E_SETCOMP: return "set comprehension";
    case SC_E_GENEXP: return "generator expression";
    case SC_E_YIELD: case SC_E_YIELD_FROM: return "yield expression";
    case SC_E_FSTRING: case SC_E_FORMATTED: return "f-string expression";
    case SC_E_NAMED: return "named expression";
    case SC_E_ATTR: return "attribute";
    case SC_E_SUBSCRIPT: return "subscript";
    case SC_E_STARRED: return "starred";
    case SC_E_NAME: return "name";
    case SC_E_LIST: return "list";
    case SC_E_TUPLE: return "tuple";
    case SC_E_SLICE: return "slice";
    }
  return "expression";
}

/* The first sub-expression that cannot be assigned to (or deleted), or NULL. */
static ScExpr *
invalid_target (ScExpr *e, gboolean del)
{
  switch (e->kind)
    {
    case SC_E_NAME: case SC_E_ATTR: case SC_E_SUBSCRIPT:
      return NULL;
    case SC_E_STARRED:
      return del ? e : invalid_target (e->starred.value, del);
    case SC_E_TUPLE: case SC_E_LIST:
      for (int i = 0; i < e->seq.n; i++)
        {
          ScExpr *bad = invalid_target (e->seq.items[i], del);
          if (bad)
            return bad;
        }
      return NULL;
    default:
      return e;
    }
}

static gboolean
check_target (Parser *P, ScExpr *e, gboolean del)
{
  ScExpr *bad = invalid_target (e, del);
  if (bad == NULL)
    return TRUE;
  if (del)
    return error_pos (P, &bad->pos, "cannot delete %s", expr_name (bad));
  return error_pos (P, &bad->pos, "cannot assign to %s", expr_name (bad));
}

/* ------------------------------------------------------------------ atoms */

static ScExpr *
parse_comprehension_tail (Parser *P, ScExprKind kind, ScExpr *elt, ScExpr *value,
                          const ScToken *start);

static ScExpr *
make_const (Parser *P, const ScToken *t, FxValue v)
{
  ScExpr *e = mk (P, SC_E_CONST, t);
  e->constant = v;
  return e;
}

static gboolean starts_expression (Parser *P);

/* Inside brackets, an expression directly followed by another: CPython 3.11's "Perhaps you
 * forgot a comma?" spanning both. TRUE when that error was raised; FALSE (and nothing
 * consumed) when it does not apply. */
static gboolean
forgot_comma (Parser *P, ScExpr *a)
{
  ScToken *t = tok (P);
  int saved_pos = P->pos, saved_depth = P->depth;
  ScExpr *b;

  if (P->failed || !starts_expression (P) || a->parenthesized
      || a->kind == SC_E_STARRED || a->kind == SC_E_LAMBDA || a->kind == SC_E_IFEXP
      || a->kind == SC_E_NAMED)
    return FALSE;
  if (t->kind == SC_TOK_OP && (t->op == SC_OP_STAR || t->op == SC_OP_MINUS
                               || t->op == SC_OP_PLUS))
    return FALSE;
  if (a->kind == SC_E_NAME && (t->kind == SC_TOK_STRING || strcmp (a->name.id->data, "print") == 0
                               || strcmp (a->name.id->data, "exec") == 0))
    return FALSE;
  b = parse_expression (P);
  if (b == NULL)
    {
      /* not an expression after all: the caller reports the first token */
      P->failed = FALSE;
      g_clear_pointer (&P->err->msg, g_free);
      P->pos = saved_pos;
      P->depth = saved_depth;
      return FALSE;
    }
  return !error_range (P, "SyntaxError", a->pos.line, a->pos.col, b->pos.end_line,
                       b->pos.end_col, "invalid syntax. Perhaps you forgot a comma?");
}

static ScExpr *
parse_paren (Parser *P)
{
  ScToken *start = advance (P);   /* ( */
  ScExpr *first, *e;
  g_autoptr (GPtrArray) items = NULL;

  if (accept_op (P, SC_OP_RPAR))
    {
      e = mk (P, SC_E_TUPLE, start);
      e->parenthesized = TRUE;
      return end_prev (P, e);
    }
  if (at_kw (P, SC_KW_YIELD))
    {
      e = parse_yield_expr (P);
      if (!e || !expect_op (P, SC_OP_RPAR))
        return NULL;
      e->parenthesized = TRUE;
      return e;
    }
  if (at_op (P, SC_OP_STAR))
    {
      ScToken *st = advance (P);
      ScExpr *v = parse_bitor (P);
      if (!v)
        return NULL;
      first = mk (P, SC_E_STARRED, st);
      first->starred.value = v;
      end_prev (P, first);
    }
  else
    {
      first = parse_named_expression (P);
      if (!first)
        return NULL;
      if (at_kw (P, SC_KW_FOR))
        {
          e = parse_comprehension_tail (P, SC_E_GENEXP, first, NULL, start);
          if (!e || !expect_op (P, SC_OP_RPAR))
            return NULL;
          return end_prev (P, e);
        }
    }
  if (accept_op (P, SC_OP_RPAR))
    {
      if (first->kind == SC_E_STARRED)
        return error_pos (P, &first->pos, "cannot use starred expression here"), NULL;
      /* a group: the node keeps its own position, as in CPython */
      first->parenthesized = TRUE;
      first->group.line = start->line;
      first->group.col = start->col;
      first->group.end_line = prev (P)->end_line;
      first->group.end_col = prev (P)->end_col;
      return first;
    }
  if (!at_op (P, SC_OP_COMMA))
    {
      if (forgot_comma (P, first))
        return NULL;
      return error_invalid (P), NULL;
    }
  items = g_ptr_array_new ();
  g_ptr_array_add (items, first);
  while (accept_op (P, SC_OP_COMMA))
    {
      ScExpr *item;
      if (at_op (P, SC_OP_RPAR))
        break;
      if (at_op (P, SC_OP_STAR))
        {
          ScToken *st = advance (P);
          ScExpr *v = parse_bitor (P);
          if (!v)
            return NULL;
          item = mk (P, SC_E_STARRED, st);
          item->starred.value = v;
          end_prev (P, item);
        }
      else
        item = parse_named_expression (P);
      if (!item)
        return NULL;
      g_ptr_array_add (items, item);
    }
  if (!expect_op (P, SC_OP_RPAR))
    return NULL;
  e = mk (P, SC_E_TUPLE, start);
  e->parenthesized = TRUE;
  e->seq.items = arena_array (P, items, &e->seq.n);
  for (int i = 0; i < e->seq.n; i++)
    if (e->seq.items[i]->kind == SC_E_STARRED)
      e->seq.has_star = TRUE;
  return end_prev (P, e);
}

/* Elements of a list or set display up to the closing bracket. */
static gboolean
parse_display_items (Parser *P, GPtrArray *items, ScOp close)
{
  while (!at_op (P, close))
    {
      ScExpr *item;
      if (at_op (P, SC_OP_STAR))
        {
          ScToken *st = advance (P);
          ScExpr *v = parse_bitor (P);
          if (!v)
            return FALSE;
          item = mk (P, SC_E_STARRED, st);
          item->starred.value = v;
          end_prev (P, item);
        }
      else if (!(item = parse_named_expression (P)))
        return FALSE;
      if (item->kind == SC_E_STARRED && at_kw (P, SC_KW_FOR))
        return error_pos (P, &item->pos, "iterable unpacking cannot be used in comprehension");
      g_ptr_array_add (items, item);
      if (!accept_op (P, SC_OP_COMMA))
        {
          if (!at_op (P, close) && forgot_comma (P, item))
            return FALSE;
          break;
        }
    }
  return expect_op (P, close);
}

static ScExpr *
parse_list (Parser *P)
{
  ScToken *start = advance (P);
  g_autoptr (GPtrArray) items = g_ptr_array_new ();
  ScExpr *e;

  if (!at_op (P, SC_OP_RSQB) && !at_op (P, SC_OP_STAR))
    {
      ScExpr *first = parse_named_expression (P);
      if (!first)
        return NULL;
      if (at_kw (P, SC_KW_FOR))
        {
          e = parse_comprehension_tail (P, SC_E_LISTCOMP, first, NULL, start);
          if (!e || !expect_op (P, SC_OP_RSQB))
            return NULL;
          return end_prev (P, e);
        }
      g_ptr_array_add (items, first);
      if (!accept_op (P, SC_OP_COMMA))
        {
          if (!at_op (P, SC_OP_RSQB) && forgot_comma (P, first))
            return NULL;
          if (!expect_op (P, SC_OP_RSQB))
            return NULL;
          goto done;
        }
    }
  if (!parse_display_items (P, items, SC_OP_RSQB))
    return NULL;
done:
  e = mk (P, SC_E_LIST, start);
  e->seq.items = arena_array (P, items, &e->seq.n);
  for (int i = 0; i < e->seq.n; i++)
    if (e->seq.items[i]->kind == SC_E_STARRED)
      e->seq.has_star = TRUE;
  return end_prev (P, e);
}

static ScExpr *
parse_brace (Parser *P)
{
  ScToken *start = advance (P);
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();
  g_autoptr (GPtrArray) values = g_ptr_array_new ();
  ScExpr *e;

  if (accept_op (P, SC_OP_RBRACE))
    {
      e = mk (P, SC_E_DICT, start);
      return end_prev (P, e);
    }
  if (at_op (P, SC_OP_STAR))
    {
      g_autoptr (GPtrArray) items = g_ptr_array_new ();
      if (!parse_display_items (P, items, SC_OP_RBRACE))
        return NULL;
      e = mk (P, SC_E_SET, start);
      e->seq.items = arena_array (P, items, &e->seq.n);
      e->seq.has_star = TRUE;
      return end_prev (P, e);
    }
  if (!at_op (P, SC_OP_DSTAR))
    {
      ScExpr *first = parse_named_expression (P);
      if (!first)
        return NULL;
      if (!at_op (P, SC_OP_COLON))
        {
          /* a set */
          g_autoptr (GPtrArray) items = g_ptr_array_new ();
          if (at_kw (P, SC_KW_FOR))
            {
              e = parse_comprehension_tail (P, SC_E_SETCOMP, first, NULL, start);
              if (!e || !expect_op (P, SC_OP_RBRACE))
                return NULL;
              return end_prev (P, e);
            }
          g_ptr_array_add (items, first);
          if (accept_op (P, SC_OP_COMMA))
            {
              if (!parse_display_items (P, items, SC_OP_RBRACE))
                return NULL;
            }
          else if (forgot_comma (P, first) || !expect_op (P, SC_OP_RBRACE))
            return NULL;
          e = mk (P, SC_E_SET, start);
          e->seq.items = arena_array (P, items, &e->seq.n);
          for (int i = 0; i < e->seq.n; i++)
            if (e->seq.items[i]->kind == SC_E_STARRED)
              e->seq.has_star = TRUE;
          return end_prev (P, e);
        }
      advance (P);   /* : */
      {
        ScExpr *v = parse_expression (P);
        if (!v)
          return NULL;
        if (at_kw (P, SC_KW_FOR))
          {
            e = parse_comprehension_tail (P, SC_E_DICTCOMP, first, v, start);
            if (!e || !expect_op (P, SC_OP_RBRACE))
              return NULL;
            return end_prev (P, e);
          }
        g_ptr_array_add (keys, first);
        g_ptr_array_add (values, v);
        if (!accept_op (P, SC_OP_COMMA))
          {
            if (forgot_comma (P, v) || !expect_op (P, SC_OP_RBRACE))
              return NULL;
            goto done;
          }
      }
    }
  while (!at_op (P, SC_OP_RBRACE))
    {
      if (accept_op (P, SC_OP_DSTAR))
        {
          ScExpr *v = parse_bitor (P);
          if (!v)
            return NULL;
          g_ptr_array_add (keys, NULL);
          g_ptr_array_add (values, v);
        }
      else
        {
          ScExpr *k = parse_expression (P), *v;
          if (!k || !expect_op (P, SC_OP_COLON) || !(v = parse_expression (P)))
            return NULL;
          g_ptr_array_add (keys, k);
          g_ptr_array_add (values, v);
        }
      if (!accept_op (P, SC_OP_COMMA))
        break;
    }
  if (!expect_op (P, SC_OP_RBRACE))
    return NULL;
done:
  e = mk (P, SC_E_DICT, start);
  e->dict.keys = arena_array (P, keys, &e->dict.n);
  e->dict.values = arena_array (P, values, &e->dict.n);
  return end_prev (P, e);
}

static ScExpr *
parse_atom (Parser *P)
{
  ScToken *t = tok (P);
  ScExpr *e;

  switch (t->kind)
    {
    case SC_TOK_NAME:
      switch (t->kw)
        {
        case SC_KW_NONE:
          advance (P);
          e = mk (P, SC_E_NAME, t);
          e->name.id = tok_name (P, t);
          return e;
        case SC_KW_NONE_:
          advance (P);
          return make_const (P, t, fx_value_none ());
        case SC_KW_TRUE:
          advance (P);
          return make_const (P, t, fx_value_bool (TRUE));
        case SC_KW_FALSE:
          advance (P);
          return make_const (P, t, fx_value_bool (FALSE));
        default:
          return error_invalid (P), NULL;
        }
    case SC_TOK_NUMBER:
      advance (P);
      if (t->number.kind == FX_VALUE_NONE)
        {
          e = mk (P, SC_E_UNSUPPORTED, t);
          e->unsupported.what = "complex numbers (imaginary literals)";
          return e;
        }
      if (t->number_overflow)
        {
          e = mk (P, SC_E_UNSUPPORTED, t);
          e->unsupported.what = "int literals beyond 64 bits";
          return e;
        }
      return make_const (P, t, t->number);
    case SC_TOK_STRING:
      return parse_strings (P);
    case SC_TOK_OP:
      switch (t->op)
        {
        case SC_OP_LPAR: return parse_paren (P);
        case SC_OP_LSQB: return parse_list (P);
        case SC_OP_LBRACE: return parse_brace (P);
        case SC_OP_ELLIPSIS:
          advance (P);
          return make_const (P, t, fx_value_ellipsis ());
        default:
          return error_invalid (P), NULL;
        }
    default:
      return error_invalid (P), NULL;
    }
}

/* ------------------------------------------------------------------ f-strings */

/* Byte offset → (line, col) in the unit's source. */
static void
offset_pos (Parser *P, gsize off, int *line, int *col)
{
  GPtrArray *ls = P->unit->line_starts;
  guint lo = 0, hi = ls->len;
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;
      if (GPOINTER_TO_SIZE (g_ptr_array_index (ls, mid)) <= off)
        lo = mid;
      else
        hi = mid;
    }
  *line = (int) lo + 1;
  *col = (int) (off - GPOINTER_TO_SIZE (g_ptr_array_index (ls, lo)));
}

static ScExpr *
const_str (Parser *P, const ScPos *pos, const char *s, gsize len)
{
  ScExpr *e = sc_new (P->unit, ScExpr);
  FxStr *str = fx_str_new_len (s, len);
  e->kind = SC_E_CONST;
  e->pos = *pos;
  e->constant = fx_value_take_str (str);
  g_ptr_array_add (P->unit->values, str);   /* the unit owns the one reference */
  return e;
}

static gboolean parse_fstring_body (Parser *P, const ScToken *t, gsize start, gsize end,
                                    GPtrArray *parts, GString *lit, int nesting);

/* Parses src[start,end) as an f-string replacement field's expression. */
static ScExpr *
parse_fstring_expr (Parser *P, const ScToken *t, gsize start, gsize end)
{
  ScTokens sub;
  Parser Q;
  int line, col;
  ScExpr *e;

  for (gsize i = start; i < end; i++)
    {
      if (P->src[i] == '\\')
        {
          ScPos pos = { t->end_line, t->end_col, t->end_line, t->end_col };
          return error_pos (P, &pos, "f-string expression part cannot include a backslash"), NULL;
        }
      if (P->src[i] == '#')
        {
          ScPos pos = { t->end_line, t->end_col, t->end_line, t->end_col };
          return error_pos (P, &pos, "f-string expression part cannot include '#'"), NULL;
        }
    }
  {
    gsize s = start;
    while (s < end && g_ascii_isspace (P->src[s]))
      s++;
    if (s == end)
      {
        ScPos pos = { t->end_line, t->end_col, t->end_line, t->end_col };
        return error_pos (P, &pos, "f-string: empty expression not allowed"), NULL;
      }
  }
  offset_pos (P, start, &line, &col);
  if (!sc_tokenize_expr (&sub, P->filename, P->src, start, end, line, col))
    {
      /* columns as in the "(" + expression + ")" CPython compiles (see below) */
      error_range (P, "SyntaxError", sub.error_line,
                   sub.error_line == line ? sub.error_col - col + 1 : sub.error_col,
                   sub.error_end_line,
                   sub.error_end_line == line && sub.error_end_col >= 0
                   ? sub.error_end_col - col + 1 : sub.error_end_col,
                   "f-string: %s", sub.error_msg);
      sc_tokens_clear (&sub);
      return NULL;
    }
  Q = *P;
  Q.toks = sub;
  Q.tk = (ScToken *) sub.tokens->data;
  Q.n = sub.tokens->len;
  Q.pos = 0;
  if (at_kw (&Q, SC_KW_YIELD))
    e = parse_yield_expr (&Q);
  else
    e = parse_star_expressions (&Q);
  if (e && Q.tk[Q.pos].kind != SC_TOK_ENDMARKER)
    {
      if (!forgot_comma (&Q, e))
        error_invalid (&Q);
      e = NULL;
    }
  P->failed = Q.failed;
  if (Q.failed)
    {
      /* CPython 3.11 compiles "(" + expression + ")" on its own: columns on the
       * expression's first line count from that '(' */
      char *msg = P->err->msg;
      if (P->err->line == line)
        P->err->col = P->err->col - col + 1;
      if (P->err->end_line == line && P->err->end_col >= 0)
        P->err->end_col = P->err->end_col - col + 1;
      /* the end of the expression is CPython's one-character ')' */
      if (Q.pos >= Q.n - 1 && P->err->end_line == P->err->line
          && P->err->end_col == P->err->col)
        P->err->end_col++;
      if (!g_str_has_prefix (msg, "f-string: "))
        {
          P->err->msg = g_strconcat ("f-string: ", msg, NULL);
          g_free (msg);
        }
    }
  sc_tokens_clear (&sub);
  return e;
}

/* Scans a replacement field starting after '{' at i; fills the FormattedValue. */
static gboolean
parse_fstring_field (Parser *P, const ScToken *t, gsize *i, gsize end, GPtrArray *parts,
                     GString *lit, int nesting)
{
  const char *s = P->src;
  gsize expr_start = *i, expr_end = 0, p = *i;
  int depth = 0;
  char quote = 0;
  gboolean debug = FALSE;
  int conversion = 0;
  ScExpr *value, *fv, *spec = NULL;
  ScPos tpos = { t->line, t->col, t->end_line, t->end_col };
  /* CPython 3.11 reports f-string errors where the string token ends */
  ScPos epos = { t->end_line, t->end_col, t->end_line, t->end_col };

  if (nesting >= 2)
    return error_pos (P, &epos, "f-string: expressions nested too deeply");
  for (; p < end; p++)
    {
      char c = s[p];
      if (quote)
        {
          if (c == quote)
            quote = 0;
          continue;
        }
      if (c == '\'' || c == '"')
        {
          quote = c;
          continue;
        }
      if (c == '(' || c == '[' || c == '{')
        depth++;
      else if (c == ')' || c == ']' || c == '}')
        {
          if (depth == 0)
            {
              if (c == '}')
                break;
              return error_pos (P, &epos, "f-string: unmatched '%c'", c);
            }
          depth--;
        }
      else if (depth == 0 && c == '!' && p + 1 < end && s[p + 1] != '=')
        break;
      else if (depth == 0 && c == ':')
        break;
      else if (depth == 0 && c == '=' && p + 1 < end && s[p + 1] != '='
               && p > expr_start && !strchr ("=!<>", s[p - 1]))
        {
          debug = TRUE;
          expr_end = p;
          p++;
          while (p < end && g_ascii_isspace (s[p]))
            p++;   /* the text printed keeps the blanks after '=' */
          break;
        }
    }
  if (quote)
    return error_pos (P, &epos, "f-string: unterminated string");
  if (p >= end)
    return error_pos (P, &epos, "f-string: expecting '}'");
  if (!debug)
    expr_end = p;
  value = parse_fstring_expr (P, t, expr_start, expr_end);
  if (!value)
    return FALSE;
  if (debug)
    {
      /* f"{x=}" prints the expression text, then repr() unless a conversion/spec says */
      g_string_append_len (lit, s + expr_start, p - expr_start);
      conversion = 'r';
    }
  if (p < end && s[p] == '!')
    {
      p++;
      if (p >= end || !strchr ("rsa", s[p]))
        return error_pos (P, &epos, "f-string: invalid conversion character: expected 's', "
                                   "'r', or 'a'");
      conversion = s[p];
      p++;
      if (p >= end || (s[p] != ':' && s[p] != '}'))
        return error_pos (P, &epos, "f-string: expecting '}'");
    }
  if (p < end && s[p] == ':')
    {
      g_autoptr (GPtrArray) sparts = g_ptr_array_new ();
      g_autoptr (GString) slit = g_string_new (NULL);
      gsize q = p + 1;
      int d = 0;
      /* the spec runs to the matching '}' */
      for (; q < end; q++)
        {
          if (s[q] == '{')
            d++;
          else if (s[q] == '}')
            {
              if (d == 0)
                break;
              d--;
            }
        }
      if (q >= end)
        return error_pos (P, &epos, "f-string: expecting '}'");
      if (!parse_fstring_body (P, t, p + 1, q, sparts, slit, nesting + 1))
        return FALSE;
      if (slit->len)
        g_ptr_array_add (sparts, const_str (P, &tpos, slit->str, slit->len));
      spec = sc_new (P->unit, ScExpr);
      spec->kind = SC_E_FSTRING;
      spec->pos = tpos;
      spec->fstring.parts = arena_array (P, sparts, &spec->fstring.n);
      p = q;
      if (debug && conversion == 'r')
        conversion = 0;   /* f"{x=:.2f}" formats with the spec, not repr */
    }
  if (p >= end || s[p] != '}')
    return error_pos (P, &epos, "f-string: expecting '}'");
  if (lit->len)
    {
      g_ptr_array_add (parts, const_str (P, &tpos, lit->str, lit->len));
      g_string_truncate (lit, 0);
    }
  fv = sc_new (P->unit, ScExpr);
  fv->kind = SC_E_FORMATTED;
  fv->pos = tpos;
  fv->formatted.value = value;
  fv->formatted.conversion = conversion;
  fv->formatted.spec = spec;
  g_ptr_array_add (parts, fv);
  *i = p + 1;
  return TRUE;
}

static gboolean
parse_fstring_body (Parser *P, const ScToken *t, gsize start, gsize end, GPtrArray *parts,
                    GString *lit, int nesting)
{
  const char *s = P->src;
  gboolean raw = (t->str_flags & SC_STR_RAW) != 0;
  ScPos tpos = { t->line, t->col, t->end_line, t->end_col };
  /* CPython 3.11 reports f-string errors where the string token ends */
  ScPos epos = { t->end_line, t->end_col, t->end_line, t->end_col };
  gsize i = start, chunk = start;

  while (i < end)
    {
      char c = s[i];
      if (c == '\\' && !raw && i + 1 < end)
        {
          i += 2;
          continue;
        }
      if (c == '{' || c == '}')
        {
          char *msg = NULL;
          gsize off;
          if (!sc_decode_string_body (s + chunk, i - chunk, raw, lit, &msg, &off))
            {
              error_pos (P, &tpos, "%s", msg);
              g_free (msg);
              return FALSE;
            }
          if (i + 1 < end && s[i + 1] == c && nesting == 0)
            {
              g_string_append_c (lit, c);
              i += 2;
              chunk = i;
              continue;
            }
          if (c == '}')
            return error_pos (P, &epos, "f-string: single '}' is not allowed");
          i++;
          if (!parse_fstring_field (P, t, &i, end, parts, lit, nesting))
            return FALSE;
          chunk = i;
          continue;
        }
      i++;
    }
  {
    char *msg = NULL;
    gsize off;
    if (!sc_decode_string_body (s + chunk, end - chunk, raw, lit, &msg, &off))
      {
        error_pos (P, &tpos, "%s", msg);
        g_free (msg);
        return FALSE;
      }
  }
  return TRUE;
}

/* g_utf8_validate() stops at NUL; "\0" and "\x00" are valid string contents. */
static gboolean
utf8_valid_with_nuls (const char *s, gsize len)
{
  gsize i = 0;
  while (i < len)
    {
      const char *end;
      if (s[i] == '\0')
        {
          i++;
          continue;
        }
      if (g_utf8_validate (s + i, len - i, &end))
        return TRUE;
      if (*end != '\0')
        return FALSE;
      i = end - s;
    }
  return TRUE;
}

/* One or more adjacent string literals: a str constant or an f-string (JoinedStr). */
static ScExpr *
parse_strings (Parser *P)
{
  ScToken *first = tok (P), *last = first;
  g_autoptr (GPtrArray) parts = g_ptr_array_new ();
  g_autoptr (GString) lit = g_string_new (NULL);
  gboolean is_f = FALSE, is_bytes = FALSE, any_str = FALSE;
  ScExpr *e;

  while (tok (P)->kind == SC_TOK_STRING)
    {
      ScToken *t = advance (P);
      last = t;
      if (t->str_flags & SC_STR_BYTES)
        is_bytes = TRUE;
      else
        any_str = TRUE;
      if (is_bytes && any_str)
        {
          /* CPython reports it after the last literal */
          while (tok (P)->kind == SC_TOK_STRING)
            advance (P);
          return error_tok (P, tok (P), "cannot mix bytes and nonbytes literals"), NULL;
        }
      if (t->str_flags & SC_STR_BYTES)
        for (gsize i = t->body_start; i < t->body_end; i++)
          if ((guchar) P->src[i] >= 0x80)
            return error_tok (P, t, "bytes can only contain ASCII literal characters"), NULL;
      if (t->str_flags & SC_STR_FORMAT)
        {
          is_f = TRUE;
          if (!parse_fstring_body (P, t, t->body_start, t->body_end, parts, lit, 0))
            return NULL;
        }
      else
        {
          char *msg = NULL;
          gsize off;
          if (!sc_decode_string_body (P->src + t->body_start, t->body_end - t->body_start,
                                      (t->str_flags & SC_STR_RAW) != 0, lit, &msg, &off))
            {
              error_tok (P, t, "%s", msg);
              g_free (msg);
              return NULL;
            }
        }
    }
  if (is_bytes)
    {
      e = mk (P, SC_E_UNSUPPORTED, first);
      e->unsupported.what = "bytes literals";
      return end_prev (P, e);
    }
  if (!utf8_valid_with_nuls (lit->str, lit->len))
    return error_tok (P, first, "(unicode error) invalid UTF-8 in string literal"), NULL;
  {
    ScPos pos = { first->line, first->col, last->end_line, last->end_col };
    if (!is_f)
      return const_str (P, &pos, lit->str, lit->len);
    if (lit->len)
      g_ptr_array_add (parts, const_str (P, &pos, lit->str, lit->len));
    e = sc_new (P->unit, ScExpr);
    e->kind = SC_E_FSTRING;
    e->pos = pos;
    e->fstring.parts = arena_array (P, parts, &e->fstring.n);
    for (int i = 0; i < e->fstring.n; i++)
      if (e->fstring.parts[i]->kind == SC_E_CONST)
        e->fstring.parts[i]->pos = pos;
    return e;
  }
}

/* ------------------------------------------------------------------ primaries */

static gboolean
parse_call_args (Parser *P, ScExpr *call)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autoptr (GArray) kws = g_array_new (FALSE, TRUE, sizeof (ScKeyword));
  gboolean seen_kw = FALSE, seen_dstar = FALSE, simple = TRUE;
  ScToken *open = prev (P);

  while (!at_op (P, SC_OP_RPAR))
    {
      ScToken *st = tok (P);
      if (at_op (P, SC_OP_STAR))
        {
          ScExpr *v, *e;
          advance (P);
          if (!(v = parse_expression (P)))
            return FALSE;
          e = mk (P, SC_E_STARRED, st);
          e->starred.value = v;
          end_prev (P, e);
          if (seen_dstar)
            return error_tok (P, st, "iterable argument unpacking follows keyword argument "
                                     "unpacking");
          g_ptr_array_add (args, e);
          simple = FALSE;
        }
      else if (at_op (P, SC_OP_DSTAR))
        {
          ScKeyword kw = { 0 };
          advance (P);
          if (!(kw.value = parse_expression (P)))
            return FALSE;
          kw.pos.line = st->line;
          kw.pos.col = st->col;
          kw.pos.end_line = kw.value->pos.end_line;
          kw.pos.end_col = kw.value->pos.end_col;
          g_array_append_val (kws, kw);
          seen_dstar = TRUE;
          simple = FALSE;
        }
      else if (st->kind == SC_TOK_NAME && st->kw == SC_KW_NONE && peek (P, 1)->kind == SC_TOK_OP
               && peek (P, 1)->op == SC_OP_EQUAL)
        {
          ScKeyword kw = { 0 };
          advance (P);
          advance (P);
          kw.name = tok_name (P, st);
          if (!(kw.value = parse_expression (P)))
            return FALSE;
          for (guint k = 0; k < kws->len; k++)
            if (g_array_index (kws, ScKeyword, k).name == kw.name)
              return error_range (P, "SyntaxError", st->line, st->col, kw.value->pos.end_line,
                                  kw.value->pos.end_col, "keyword argument repeated: %s",
                                  kw.name->data);
          kw.pos.line = st->line;
          kw.pos.col = st->col;
          kw.pos.end_line = kw.value->pos.end_line;
          kw.pos.end_col = kw.value->pos.end_col;
          g_array_append_val (kws, kw);
          seen_kw = TRUE;
        }
      else
        {
          ScExpr *e = parse_named_expression (P);
          if (!e)
            return FALSE;
          if (at_kw (P, SC_KW_FOR))
            {
              ScPos elt_pos = e->pos;
              e = parse_comprehension_tail (P, SC_E_GENEXP, e, NULL, open);
              if (!e)
                return FALSE;
              if (args->len > 0 || kws->len > 0 || !at_op (P, SC_OP_RPAR))
                {
                  if (at_op (P, SC_OP_COMMA) && peek (P, 1)->kind == SC_TOK_OP
                      && peek (P, 1)->op == SC_OP_RPAR && args->len == 0 && kws->len == 0)
                    ;
                  else
                    return error_range (P, "SyntaxError", elt_pos.line, elt_pos.col,
                                        e->pos.end_line, e->pos.end_col,
                                        "Generator expression must be parenthesized");
                }
              e->pos.end_line = tok (P)->end_line;
              e->pos.end_col = tok (P)->end_col;
            }
          else if (at_op (P, SC_OP_EQUAL))
            {
              ScToken *eq = tok (P);
              return error_range (P, "SyntaxError", e->pos.line, e->pos.col, eq->end_line,
                                  eq->end_col, "expression cannot contain assignment, perhaps "
                                  "you meant \"==\"?");
            }
          /* CPython reports these at the token after the argument */
          if (seen_dstar)
            return error_tok (P, tok (P), "positional argument follows keyword argument unpacking");
          if (seen_kw)
            return error_tok (P, tok (P), "positional argument follows keyword argument");
          g_ptr_array_add (args, e);
          if (!at_op (P, SC_OP_COMMA) && !at_op (P, SC_OP_RPAR) && forgot_comma (P, e))
            return FALSE;
        }
      if (!accept_op (P, SC_OP_COMMA))
        break;
    }
  if (!expect_op (P, SC_OP_RPAR))
    return FALSE;
  call->call.args = arena_array (P, args, &call->call.n_args);
  call->call.n_kws = kws->len;
  if (kws->len)
    {
      call->call.kws = sc_new_n (P->unit, ScKeyword, kws->len);
      memcpy (call->call.kws, kws->data, sizeof (ScKeyword) * kws->len);
    }
  call->call.simple = simple;
  if (simple && kws->len)
    {
      call->call.kwnames = sc_new_n (P->unit, FxStr *, kws->len);
      for (guint k = 0; k < kws->len; k++)
        call->call.kwnames[k] = call->call.kws[k].name;
    }
  return TRUE;
}

static ScExpr *
parse_slice_item (Parser *P)
{
  ScToken *start = tok (P);
  ScExpr *lower = NULL, *upper = NULL, *step = NULL, *e;

  if (!at_op (P, SC_OP_COLON))
    {
      lower = parse_named_expression (P);
      if (!lower)
        return NULL;
      if (!at_op (P, SC_OP_COLON))
        return lower;
    }
  advance (P);   /* : */
  if (!at_op (P, SC_OP_COLON) && !at_op (P, SC_OP_RSQB) && !at_op (P, SC_OP_COMMA))
    {
      if (!(upper = parse_expression (P)))
        return NULL;
    }
  if (accept_op (P, SC_OP_COLON))
    {
      if (!at_op (P, SC_OP_RSQB) && !at_op (P, SC_OP_COMMA))
        {
          if (!(step = parse_expression (P)))
            return NULL;
        }
    }
  e = mk (P, SC_E_SLICE, start);
  e->slice.lower = lower;
  e->slice.upper = upper;
  e->slice.step = step;
  return end_prev (P, e);
}

/* A slice or, since Python 3.11, a starred expression (a[*b] indexes with a tuple). */
static ScExpr *
parse_index_item (Parser *P, gboolean *starred)
{
  ScToken *st = tok (P);
  ScExpr *v, *e;
  if (!at_op (P, SC_OP_STAR))
    return parse_slice_item (P);
  advance (P);
  if (!(v = parse_bitor (P)))
    return NULL;
  e = mk (P, SC_E_STARRED, st);
  e->starred.value = v;
  *starred = TRUE;
  end_prev (P, e);
  if (at_kw (P, SC_KW_FOR))
    return error_pos (P, &e->pos, "iterable unpacking cannot be used in comprehension"), NULL;
  return e;
}

static ScExpr *
parse_subscript_index (Parser *P)
{
  ScToken *start = tok (P);
  g_autoptr (GPtrArray) items = NULL;
  gboolean starred = FALSE;
  ScExpr *first = parse_index_item (P, &starred), *e;

  if (!first)
    return NULL;
  if (!at_op (P, SC_OP_COMMA) && !starred)
    return first;
  items = g_ptr_array_new ();
  g_ptr_array_add (items, first);
  while (accept_op (P, SC_OP_COMMA))
    {
      ScExpr *item;
      if (at_op (P, SC_OP_RSQB))
        break;
      if (!(item = parse_index_item (P, &starred)))
        return NULL;
      g_ptr_array_add (items, item);
    }
  e = mk (P, SC_E_TUPLE, start);
  e->seq.items = arena_array (P, items, &e->seq.n);
  e->seq.has_star = starred;
  return end_prev (P, e);
}

static ScExpr *
parse_primary (Parser *P)
{
  ScExpr *e = parse_atom (P);

  while (e)
    {
      if (at_op (P, SC_OP_DOT))
        {
          ScExpr *a;
          advance (P);
          if (tok (P)->kind != SC_TOK_NAME || tok (P)->kw != SC_KW_NONE)
            return error_invalid (P), NULL;
          a = mk_span (P, SC_E_ATTR, span_of (e), span_of (e));
          a->attr.value = e;
          a->attr.attr = tok_name (P, advance (P));
          e = end_prev (P, a);
        }
      else if (at_op (P, SC_OP_LPAR))
        {
          ScExpr *c = mk_span (P, SC_E_CALL, span_of (e), span_of (e));
          advance (P);
          c->call.func = e;
          if (!parse_call_args (P, c))
            return NULL;
          e = end_prev (P, c);
        }
      else if (at_op (P, SC_OP_LSQB))
        {
          ScExpr *s = mk_span (P, SC_E_SUBSCRIPT, span_of (e), span_of (e));
          advance (P);
          s->subscript.value = e;
          if (!(s->subscript.index = parse_subscript_index (P)) || !expect_op (P, SC_OP_RSQB))
            return NULL;
          e = end_prev (P, s);
        }
      else
        break;
    }
  return e;
}

static ScExpr *parse_factor (Parser *P);

static ScExpr *
parse_power (Parser *P)
{
  ScExpr *left = parse_primary (P), *right, *e;
  if (!left || !at_op (P, SC_OP_DSTAR))
    return left;
  /* `**` is right-associative: each one nests a level, counted like any other nesting. */
  if (!enter (P))
    return NULL;
  advance (P);
  if (!(right = parse_factor (P)))
    LEAVE (P, NULL);
  e = mk_span (P, SC_E_BINOP, span_of (left), span_of (right));
  e->binop.left = left;
  e->binop.right = right;
  e->binop.op = SC_BIN_POW;
  LEAVE (P, e);
}

static ScExpr *
parse_factor (Parser *P)
{
  ScToken *t = tok (P);
  ScUnaryOp op;
  ScExpr *operand, *e;

  if (t->kind == SC_TOK_OP && (t->op == SC_OP_MINUS || t->op == SC_OP_PLUS || t->op == SC_OP_TILDE))
    op = t->op == SC_OP_MINUS ? SC_UNARY_NEG : t->op == SC_OP_PLUS ? SC_UNARY_POS : SC_UNARY_INVERT;
  else if (at_kw (P, SC_KW_AWAIT))
    return error_invalid (P), NULL;
  else
    return parse_power (P);
  if (!enter (P))
    return NULL;
  advance (P);
  if (!(operand = parse_factor (P)))
    LEAVE (P, NULL);
  /* -1 is a constant in CPython's AST too (after constant folding) */
  if (op == SC_UNARY_NEG && operand->kind == SC_E_CONST && !operand->parenthesized
      && (operand->constant.kind == FX_VALUE_FLOAT
          || (operand->constant.kind == FX_VALUE_INT && operand->constant.i != G_MININT64)))
    {
      ScExpr *c = mk_span (P, SC_E_CONST, span_of (operand), span_of (operand));
      c->pos.line = t->line;
      c->pos.col = t->col;
      c->constant = operand->constant.kind == FX_VALUE_FLOAT ? fx_value_float (-operand->constant.f)
                                                             : fx_value_int (-operand->constant.i);
      LEAVE (P, c);
    }
  e = mk (P, SC_E_UNARY, t);
  e->unary.op = op;
  e->unary.operand = operand;
  e->pos.end_line = operand->pos.end_line;
  e->pos.end_col = operand->pos.end_col;
  LEAVE (P, e);
}

static int
binop_prec (ScToken *t, ScBinOp *op)
{
  if (t->kind != SC_TOK_OP)
    return -1;
  switch (t->op)
    {
    case SC_OP_VBAR: *op = SC_BIN_OR; return 1;
    case SC_OP_CIRC: *op = SC_BIN_XOR; return 2;
    case SC_OP_AMP: *op = SC_BIN_AND; return 3;
    case SC_OP_LSHIFT: *op = SC_BIN_LSHIFT; return 4;
    case SC_OP_RSHIFT: *op = SC_BIN_RSHIFT; return 4;
    case SC_OP_PLUS: *op = SC_BIN_ADD; return 5;
    case SC_OP_MINUS: *op = SC_BIN_SUB; return 5;
    case SC_OP_STAR: *op = SC_BIN_MUL; return 6;
    case SC_OP_SLASH: *op = SC_BIN_DIV; return 6;
    case SC_OP_DSLASH: *op = SC_BIN_FLOORDIV; return 6;
    case SC_OP_PERCENT: *op = SC_BIN_MOD; return 6;
    case SC_OP_AT: *op = SC_BIN_MATMUL; return 6;
    default: return -1;
    }
}

static ScExpr *
parse_binary (Parser *P, int min_prec)
{
  ScExpr *left = parse_factor (P);
  ScBinOp op = SC_BIN_ADD;
  int prec;

  while (left && (prec = binop_prec (tok (P), &op)) >= min_prec)
    {
      ScExpr *right, *e;
      advance (P);
      right = prec < 6 ? parse_binary (P, prec + 1) : parse_factor (P);
      if (!right)
        return NULL;
      e = mk_span (P, SC_E_BINOP, span_of (left), span_of (right));
      e->binop.left = left;
      e->binop.right = right;
      e->binop.op = op;
      left = e;
    }
  return left;
}

static ScExpr *
parse_bitor (Parser *P)
{
  return parse_binary (P, 1);
}

static gboolean
comparison_op (Parser *P, ScCmpOp *op)
{
  ScToken *t = tok (P);
  if (t->kind == SC_TOK_OP)
    switch (t->op)
      {
      case SC_OP_LT: *op = SC_CMP_LT; advance (P); return TRUE;
      case SC_OP_LE: *op = SC_CMP_LE; advance (P); return TRUE;
      case SC_OP_GT: *op = SC_CMP_GT; advance (P); return TRUE;
      case SC_OP_GE: *op = SC_CMP_GE; advance (P); return TRUE;
      case SC_OP_EQEQ: *op = SC_CMP_EQ; advance (P); return TRUE;
      case SC_OP_NE: *op = SC_CMP_NE; advance (P); return TRUE;
      default: return FALSE;
      }
  if (at_kw (P, SC_KW_IN))
    {
      *op = SC_CMP_IN;
      advance (P);
      return TRUE;
    }
  if (at_kw (P, SC_KW_NOT) && peek (P, 1)->kind == SC_TOK_NAME && peek (P, 1)->kw == SC_KW_IN)
    {
      *op = SC_CMP_NOT_IN;
      advance (P);
      advance (P);
      return TRUE;
    }
  if (at_kw (P, SC_KW_NOT))
    {
      /* `a not b`: CPython read one token further looking for `in` */
      error_tok (P, peek (P, 1), "invalid syntax");
      return FALSE;
    }
  if (at_kw (P, SC_KW_IS))
    {
      advance (P);
      *op = accept_kw (P, SC_KW_NOT) ? SC_CMP_IS_NOT : SC_CMP_IS;
      return TRUE;
    }
  return FALSE;
}

static ScExpr *
parse_comparison (Parser *P)
{
  ScExpr *left = parse_bitor (P), *e;
  g_autoptr (GArray) ops = NULL;
  g_autoptr (GPtrArray) rights = NULL;
  ScCmpOp op;

  if (!left)
    return NULL;
  while (comparison_op (P, &op))
    {
      ScExpr *r = parse_bitor (P);
      if (!r)
        return NULL;
      if (!ops)
        {
          ops = g_array_new (FALSE, FALSE, sizeof (ScCmpOp));
          rights = g_ptr_array_new ();
        }
      g_array_append_val (ops, op);
      g_ptr_array_add (rights, r);
    }
  if (!ops)
    return left;
  e = mk_span (P, SC_E_COMPARE, span_of (left), span_of (rights->pdata[rights->len - 1]));
  e->compare.left = left;
  e->compare.comparators = arena_array (P, rights, &e->compare.n);
  e->compare.ops = sc_new_n (P->unit, ScCmpOp, ops->len);
  if (ops->len > 0)   /* an empty GArray has no data (NULL) */
    memcpy (e->compare.ops, ops->data, sizeof (ScCmpOp) * ops->len);
  return e;
}

static ScExpr *
parse_inversion (Parser *P)
{
  ScToken *t = tok (P);
  ScExpr *operand, *e;
  if (!at_kw (P, SC_KW_NOT))
    return parse_comparison (P);
  if (!enter (P))
    return NULL;
  advance (P);
  if (!(operand = parse_inversion (P)))
    LEAVE (P, NULL);
  e = mk (P, SC_E_UNARY, t);
  e->unary.op = SC_UNARY_NOT;
  e->unary.operand = operand;
  e->pos.end_line = operand->pos.end_line;
  e->pos.end_col = operand->pos.end_col;
  LEAVE (P, e);
}

static ScExpr *
parse_boolop (Parser *P, gboolean is_and)
{
  ScExpr *first = is_and ? parse_inversion (P) : parse_boolop (P, TRUE), *e;
  g_autoptr (GPtrArray) values = NULL;
  ScKw kw = is_and ? SC_KW_AND : SC_KW_OR;

  if (!first || !at_kw (P, kw))
    return first;
  values = g_ptr_array_new ();
  g_ptr_array_add (values, first);
  while (accept_kw (P, kw))
    {
      ScExpr *v = is_and ? parse_inversion (P) : parse_boolop (P, TRUE);
      if (!v)
        return NULL;
      g_ptr_array_add (values, v);
    }
  e = mk_span (P, SC_E_BOOLOP, span_of (first), span_of (values->pdata[values->len - 1]));
  e->boolop.is_and = is_and;
  e->boolop.values = arena_array (P, values, &e->boolop.n);
  return e;
}

static ScExpr *
parse_disjunction (Parser *P)
{
  return parse_boolop (P, FALSE);
}

static ScExpr *
parse_lambda (Parser *P)
{
  ScToken *start = advance (P);
  ScCode *code = new_code (P, SC_CODE_FUNCTION | SC_CODE_LAMBDA, sc_intern_cstr ("<lambda>"), start);
  ScExpr *e, *body;
  gsize qlen = P->qual->len;
  gboolean in_fn = P->in_function;
  int loops = P->loop_depth;

  if (!parse_params (P, code, TRUE, SC_OP_COLON))
    return NULL;
  if (!accept_op (P, SC_OP_COLON))
    return error_invalid (P), NULL;   /* CPython: plain "invalid syntax" here */
  g_string_append (P->qual, "<lambda>.<locals>.");
  P->in_function = TRUE;
  P->loop_depth = 0;
  body = parse_expression (P);
  g_string_truncate (P->qual, qlen);
  P->in_function = in_fn;
  P->loop_depth = loops;
  if (!body)
    return NULL;
  code->lambda_body = body;
  e = mk (P, SC_E_LAMBDA, start);
  e->lambda.code = code;
  e->pos.end_line = body->pos.end_line;
  e->pos.end_col = body->pos.end_col;
  code->pos = e->pos;
  return e;
}

/* expression: lambda | disjunction ['if' disjunction 'else' expression] */
static ScExpr *
parse_expression (Parser *P)
{
  ScExpr *body, *test, *orelse, *e;

  if (!enter (P))
    return NULL;
  if (at_kw (P, SC_KW_LAMBDA))
    {
      e = parse_lambda (P);
      LEAVE (P, e);
    }
  body = parse_disjunction (P);
  if (!body || !at_kw (P, SC_KW_IF))
    LEAVE (P, body);
  advance (P);
  if (!(test = parse_disjunction (P)))
    LEAVE (P, NULL);
  if (!accept_kw (P, SC_KW_ELSE))
    {
      if (P->failed)
        LEAVE (P, NULL);
      error_range (P, "SyntaxError", body->pos.line, body->pos.col, test->pos.end_line,
                   test->pos.end_col, "expected 'else' after 'if' expression");
      LEAVE (P, NULL);
    }
  if (!(orelse = parse_expression (P)))
    LEAVE (P, NULL);
  e = mk_span (P, SC_E_IFEXP, span_of (body), span_of (orelse));
  e->ifexp.test = test;
  e->ifexp.body = body;
  e->ifexp.orelse = orelse;
  LEAVE (P, e);
}

static ScExpr *
parse_named_expression (Parser *P)
{
  ScToken *t = tok (P);
  if (t->kind == SC_TOK_NAME && t->kw == SC_KW_NONE && peek (P, 1)->kind == SC_TOK_OP
      && peek (P, 1)->op == SC_OP_WALRUS)
    {
      ScExpr *target = mk (P, SC_E_NAME, t), *value, *e;
      advance (P);
      advance (P);
      target->name.id = tok_name (P, t);
      if (!(value = parse_expression (P)))
        return NULL;
      e = mk_span (P, SC_E_NAMED, span_of (target), span_of (value));
      e->named.target = target;
      e->named.value = value;
      return e;
    }
  {
    ScExpr *e = parse_expression (P);
    if (e && at_op (P, SC_OP_WALRUS))
      return error_pos (P, &e->pos, "cannot use assignment expressions with %s", expr_name (e)), NULL;
    return e;
  }
}

static ScExpr *
parse_star_expression (Parser *P)
{
  if (at_op (P, SC_OP_STAR))
    {
      ScToken *st = advance (P);
      ScExpr *v = parse_bitor (P), *e;
      if (!v)
        return NULL;
      e = mk (P, SC_E_STARRED, st);
      e->starred.value = v;
      return end_prev (P, e);
    }
  return parse_expression (P);
}

static gboolean
starts_expression (Parser *P)
{
  ScToken *t = tok (P);
  switch (t->kind)
    {
    case SC_TOK_NAME:
      return t->kw == SC_KW_NONE || t->kw == SC_KW_NONE_ || t->kw == SC_KW_TRUE
             || t->kw == SC_KW_FALSE || t->kw == SC_KW_NOT || t->kw == SC_KW_LAMBDA
             || t->kw == SC_KW_AWAIT;
    case SC_TOK_NUMBER:
    case SC_TOK_STRING:
      return TRUE;
    case SC_TOK_OP:
      return t->op == SC_OP_LPAR || t->op == SC_OP_LSQB || t->op == SC_OP_LBRACE
             || t->op == SC_OP_MINUS || t->op == SC_OP_PLUS || t->op == SC_OP_TILDE
             || t->op == SC_OP_STAR || t->op == SC_OP_ELLIPSIS;
    default:
      return FALSE;
    }
}

/* star_expressions: a tuple when there is a comma. */
static ScExpr *
parse_star_expressions (Parser *P)
{
  ScExpr *first = parse_star_expression (P), *e;
  g_autoptr (GPtrArray) items = NULL;

  if (!first || !at_op (P, SC_OP_COMMA))
    return first;
  items = g_ptr_array_new ();
  g_ptr_array_add (items, first);
  while (accept_op (P, SC_OP_COMMA))
    {
      ScExpr *item;
      if (!starts_expression (P))
        break;
      if (!(item = parse_star_expression (P)))
        return NULL;
      g_ptr_array_add (items, item);
    }
  e = mk_span (P, SC_E_TUPLE, span_of (first), span_of (first));
  e->seq.items = arena_array (P, items, &e->seq.n);
  for (int i = 0; i < e->seq.n; i++)
    if (e->seq.items[i]->kind == SC_E_STARRED)
      e->seq.has_star = TRUE;
  return end_prev (P, e);
}

static ScExpr *
parse_yield_expr (Parser *P)
{
  ScToken *start = advance (P);
  ScExpr *e;
  if (accept_kw (P, SC_KW_FROM))
    {
      ScExpr *v = parse_expression (P);
      if (!v)
        return NULL;
      e = mk (P, SC_E_YIELD_FROM, start);
      e->yield.value = v;
      return end_prev (P, e);
    }
  e = mk (P, SC_E_YIELD, start);
  if (starts_expression (P))
    {
      if (!(e->yield.value = parse_star_expressions (P)))
        return NULL;
    }
  return end_prev (P, e);
}

/* ------------------------------------------------------------------ comprehensions */

static ScExpr *
parse_comprehension_tail (Parser *P, ScExprKind kind, ScExpr *elt, ScExpr *value,
                          const ScToken *start)
{
  g_autoptr (GArray) gens = g_array_new (FALSE, TRUE, sizeof (ScComprehension));
  ScExpr *e = mk (P, kind, start);
  const char *name = kind == SC_E_LISTCOMP ? "<listcomp>" : kind == SC_E_SETCOMP ? "<setcomp>"
                     : kind == SC_E_DICTCOMP ? "<dictcomp>" : "<genexpr>";
  ScCode *code = new_code (P, SC_CODE_FUNCTION | SC_CODE_COMPREHENSION
                                | (kind == SC_E_GENEXP ? SC_CODE_GENEXP : 0),
                           sc_intern_cstr (name), start);

  while (at_kw (P, SC_KW_FOR) || at_kw (P, SC_KW_ASYNC))
    {
      ScComprehension c = { 0 };
      g_autoptr (GPtrArray) ifs = g_ptr_array_new ();
      if (at_kw (P, SC_KW_ASYNC))
        return error_invalid (P), NULL;
      advance (P);
      if (!parse_target_list (P, &c.target, SC_KW_IN))
        return NULL;
      if (!accept_kw (P, SC_KW_IN))
        return error_invalid (P), NULL;
      if (!(c.iter = parse_disjunction (P)))
        return NULL;
      while (accept_kw (P, SC_KW_IF))
        {
          ScExpr *cond = parse_disjunction (P);
          if (!cond)
            return NULL;
          g_ptr_array_add (ifs, cond);
        }
      c.ifs = arena_array (P, ifs, &c.n_ifs);
      g_array_append_val (gens, c);
    }
  e->comp.code = code;
  e->comp.elt = elt;
  e->comp.value = value;
  e->comp.n_gens = gens->len;
  e->comp.gens = sc_new_n (P->unit, ScComprehension, gens->len);
  if (gens->len > 0)   /* an empty GArray has no data (NULL) */
    memcpy (e->comp.gens, gens->data, sizeof (ScComprehension) * gens->len);
  /* the implicit argument: the outermost iterable, evaluated by the enclosing scope */
  code->n_pos = 1;
  code->params = sc_new_n (P->unit, ScName, 1);
  code->params[0].id = sc_intern_cstr (".0");
  end_prev (P, e);
  code->pos = e->pos;
  return e;
}

/* Targets of for / comprehension: star_targets, stopping before `stop_kw`. */
static gboolean
parse_target_list (Parser *P, ScExpr **out, ScKw stop_kw)
{
  ScExpr *first = NULL, *e;
  g_autoptr (GPtrArray) items = g_ptr_array_new ();
  gboolean tuple = FALSE;
  ScToken *start = tok (P);

  for (;;)
    {
      ScExpr *item;
      if (at_op (P, SC_OP_STAR))
        {
          ScToken *st = advance (P);
          ScExpr *v = parse_bitor (P);
          if (!v)
            return FALSE;
          item = mk (P, SC_E_STARRED, st);
          item->starred.value = v;
          end_prev (P, item);
        }
      else if (!(item = parse_bitor (P)))
        return FALSE;
      if (!first)
        first = item;
      g_ptr_array_add (items, item);
      if (!at_op (P, SC_OP_COMMA))
        break;
      advance (P);
      tuple = TRUE;
      if (at_kw (P, stop_kw))
        break;
    }
  if (!tuple)
    e = first;
  else
    {
      e = mk (P, SC_E_TUPLE, start);
      e->seq.items = arena_array (P, items, &e->seq.n);
      end_prev (P, e);
    }
  if (!check_target (P, e, FALSE))
    return FALSE;
  *out = e;
  return TRUE;
}

/* ------------------------------------------------------------------ parameters */

static ScCode *
new_code (Parser *P, ScCodeFlags flags, FxStr *name, const ScToken *start)
{
  ScCode *code = sc_new (P->unit, ScCode);
  g_autofree char *qual = g_strconcat (P->qual->str, name->data, NULL);
  code->unit = P->unit;
  code->flags = flags;
  code->name = name;
  code->qualname = sc_intern_cstr (qual);
  code->pos.line = start->line;
  code->pos.col = start->col;
  code->class_cell = -1;
  code->self_slot = -1;
  code->self_cell = -1;
  code->class_free = -1;
  return code;
}

/* def parameters up to `end` (')' for def, ':' for lambda). */
static gboolean
parse_params (Parser *P, ScCode *code, gboolean is_lambda, ScOp end)
{
  g_autoptr (GArray) pos = g_array_new (FALSE, TRUE, sizeof (ScName));
  g_autoptr (GArray) kwonly = g_array_new (FALSE, TRUE, sizeof (ScName));
  g_autoptr (GPtrArray) defaults = g_ptr_array_new ();
  g_autoptr (GPtrArray) kw_defaults = g_ptr_array_new ();
  g_autoptr (GPtrArray) pos_ann = g_ptr_array_new ();
  g_autoptr (GPtrArray) kw_ann = g_ptr_array_new ();
  ScName vararg = { 0 }, kwarg = { 0 };
  ScExpr *vararg_ann = NULL, *kwarg_ann = NULL;
  gboolean star = FALSE, slash = FALSE;
  int n_posonly = 0;
  GHashTable *seen = g_hash_table_new (NULL, NULL);
  gboolean ok = FALSE;
  ScToken *star_tok = NULL;

#define PARAM_NAME(var, ann)                                                               \
  do {                                                                                     \
    ScToken *nt = tok (P);                                                                 \
    if (nt->kind != SC_TOK_NAME || nt->kw != SC_KW_NONE)                                   \
      {                                                                                    \
        error_invalid (P);                                                                 \
        goto out;                                                                          \
      }                                                                                    \
    advance (P);                                                                           \
    (var).id = tok_name (P, nt);                                                           \
    if (g_hash_table_contains (seen, (var).id))                                            \
      {                                                                                    \
        error_tok (P, nt, "duplicate argument '%s' in function definition", (var).id->data); \
        goto out;                                                                          \
      }                                                                                    \
    g_hash_table_add (seen, (var).id);                                                     \
    ann = NULL;                                                                            \
    if (!is_lambda && accept_op (P, SC_OP_COLON))                                          \
      {                                                                                    \
        if (!(ann = parse_expression (P)))                                                 \
          goto out;                                                                        \
      }                                                                                    \
  } while (0)

  while (!at_op (P, end))
    {
      if (kwarg.id)
        {
          error_tok (P, tok (P), "arguments cannot follow var-keyword argument");
          goto out;
        }
      if (at_op (P, SC_OP_SLASH))
        {
          ScToken *st = advance (P);
          if (slash || star || pos->len == 0)
            {
              error_tok (P, st, slash ? "/ may appear only once"
                                : star ? "/ must be ahead of *"
                                       : "at least one argument must precede /");
              goto out;
            }
          slash = TRUE;
          n_posonly = pos->len;
        }
      else if (at_op (P, SC_OP_STAR))
        {
          star_tok = advance (P);
          if (star)
            {
              error_tok (P, star_tok, "* argument may appear only once");
              goto out;
            }
          star = TRUE;
          if (at_op (P, SC_OP_COMMA) || at_op (P, end))
            {
              if (at_op (P, end) || (peek (P, 1)->kind == SC_TOK_OP && peek (P, 1)->op == end))
                {
                  error_tok (P, star_tok, "named arguments must follow bare *");
                  goto out;
                }
            }
          else
            PARAM_NAME (vararg, vararg_ann);
        }
      else if (at_op (P, SC_OP_DSTAR))
        {
          advance (P);
          PARAM_NAME (kwarg, kwarg_ann);
        }
      else
        {
          ScName nm = { 0 };
          ScExpr *ann, *def = NULL;
          ScToken *nt = tok (P);
          PARAM_NAME (nm, ann);
          if (accept_op (P, SC_OP_EQUAL))
            {
              if (!(def = parse_expression (P)))
                goto out;
            }
          if (star)
            {
              g_array_append_val (kwonly, nm);
              g_ptr_array_add (kw_defaults, def);
              g_ptr_array_add (kw_ann, ann);
            }
          else
            {
              if (!def && defaults->len > 0)
                {
                  error_tok (P, nt, "non-default argument follows default argument");
                  goto out;
                }
              g_array_append_val (pos, nm);
              g_ptr_array_add (pos_ann, ann);
              if (def)
                g_ptr_array_add (defaults, def);
            }
        }
      if (!accept_op (P, SC_OP_COMMA))
        break;
    }
  if (star && !vararg.id && kwonly->len == 0 && !P->failed)
    {
      error_tok (P, star_tok, "named arguments must follow bare *");
      goto out;
    }
  {
    int n = pos->len + kwonly->len + (vararg.id ? 1 : 0) + (kwarg.id ? 1 : 0), k = 0;
    code->n_pos = pos->len;
    code->n_posonly = n_posonly;
    code->n_kwonly = kwonly->len;
    code->params = sc_new_n (P->unit, ScName, MAX (n, 1));
    code->annotations = sc_new_n (P->unit, ScExpr *, MAX (n, 1));
    for (guint i = 0; i < pos->len; i++, k++)
      {
        code->params[k] = g_array_index (pos, ScName, i);
        code->annotations[k] = pos_ann->pdata[i];
      }
    for (guint i = 0; i < kwonly->len; i++, k++)
      {
        code->params[k] = g_array_index (kwonly, ScName, i);
        code->annotations[k] = kw_ann->pdata[i];
      }
    if (vararg.id)
      {
        code->flags |= SC_CODE_VARARGS;
        code->annotations[k] = vararg_ann;
        code->params[k++] = vararg;
      }
    if (kwarg.id)
      {
        code->flags |= SC_CODE_VARKEYWORDS;
        code->annotations[k] = kwarg_ann;
        code->params[k++] = kwarg;
      }
    code->defaults = arena_array (P, defaults, &code->n_defaults);
    if (kwonly->len)
      {
        int nk;
        code->kw_defaults = arena_array (P, kw_defaults, &nk);
      }
  }
  ok = TRUE;
out:
  g_hash_table_destroy (seen);
  return ok && !P->failed;
#undef PARAM_NAME
}

/* ------------------------------------------------------------------ statements */

static gboolean parse_statement (Parser *P, GPtrArray *out);
static gboolean parse_simple_stmts (Parser *P, GPtrArray *out);

static gboolean
parse_block (Parser *P, ScBlock *block, const char *what, int header_line)
{
  g_autoptr (GPtrArray) stmts = g_ptr_array_new ();

  if (!expect_op (P, SC_OP_COLON))
    return FALSE;
  if (tok (P)->kind == SC_TOK_NEWLINE)
    {
      advance (P);
      if (tok (P)->kind != SC_TOK_INDENT)
        {
          ScToken *t = tok (P);
          return error_range (P, "IndentationError", t->line, t->col, t->end_line,
                              t->kind == SC_TOK_ENDMARKER ? -1
                              : t->end_col > t->col ? t->end_col : t->col + 1,
                              "expected an indented block after %s on line %d", what,
                              header_line);
        }
      advance (P);
      while (tok (P)->kind != SC_TOK_DEDENT && tok (P)->kind != SC_TOK_ENDMARKER)
        if (!parse_statement (P, stmts))
          return FALSE;
      if (tok (P)->kind == SC_TOK_DEDENT)
        advance (P);
    }
  else if (!parse_simple_stmts (P, stmts))
    return FALSE;
  block->items = arena_array (P, stmts, &block->n);
  return TRUE;
}

static FxStr *
block_docstring (ScBlock *b)
{
  if (b->n > 0 && b->items[0]->kind == SC_S_EXPR && b->items[0]->expr.value->kind == SC_E_CONST
      && b->items[0]->expr.value->constant.kind == FX_VALUE_STR)
    return b->items[0]->expr.value->constant.s;
  return NULL;
}

static gboolean
parse_funcdef (Parser *P, GPtrArray *out, GPtrArray *decorators)
{
  ScToken *start = advance (P);   /* def */
  ScToken *nt = tok (P);
  ScCode *code;
  ScStmt *s;
  gsize qlen = P->qual->len;
  gboolean in_fn = P->in_function;
  int loops = P->loop_depth;
  gboolean ok;

  if (nt->kind != SC_TOK_NAME || nt->kw != SC_KW_NONE)
    return error_invalid (P);
  advance (P);
  code = new_code (P, SC_CODE_FUNCTION, tok_name (P, nt), start);
  if (!expect_op (P, SC_OP_LPAR) || !parse_params (P, code, FALSE, SC_OP_RPAR)
      || !expect_op (P, SC_OP_RPAR))
    return FALSE;
  if (accept_op (P, SC_OP_ARROW) && !(code->returns = parse_expression (P)))
    return FALSE;
  code->decorators = arena_array (P, decorators, &code->n_decorators);
  g_string_append (P->qual, code->name->data);
  g_string_append (P->qual, ".<locals>.");
  P->in_function = TRUE;
  P->loop_depth = 0;
  ok = parse_block (P, &code->body, "function definition", start->line);
  g_string_truncate (P->qual, qlen);
  P->in_function = in_fn;
  P->loop_depth = loops;
  if (!ok)
    return FALSE;
  code->docstring = block_docstring (&code->body);
  s = mk_stmt (P, SC_S_DEF, start);
  if (decorators && decorators->len)
    s->pos.line = ((ScExpr *) decorators->pdata[0])->pos.line;
  s->def.code = code;
  s->def.name.id = code->name;
  stmt_end (P, s);
  code->pos = s->pos;
  code->pos.line = start->line;
  code->pos.col = start->col;
  g_ptr_array_add (out, s);
  return TRUE;
}

static gboolean
parse_classdef (Parser *P, GPtrArray *out, GPtrArray *decorators)
{
  ScToken *start = advance (P);   /* class */
  ScToken *nt = tok (P);
  ScCode *code;
  ScStmt *s;
  gsize qlen = P->qual->len;
  gboolean in_fn = P->in_function;
  int loops = P->loop_depth;
  gboolean ok;

  if (nt->kind != SC_TOK_NAME || nt->kw != SC_KW_NONE)
    return error_invalid (P);
  advance (P);
  code = new_code (P, SC_CODE_CLASS, tok_name (P, nt), start);
  s = mk_stmt (P, SC_S_CLASS, start);
  if (accept_op (P, SC_OP_LPAR))
    {
      ScExpr tmp = { 0 };
      int lpar = P->pos - 1;
      if (!parse_call_args (P, &tmp))
        return FALSE;
      if (tmp.call.n_args == 1 && tmp.call.args[0]->kind == SC_E_GENEXP
          && tmp.call.args[0]->pos.line == P->tk[lpar].line
          && tmp.call.args[0]->pos.col == P->tk[lpar].col)
        {
          /* class C(x for x in y): a generator is no base list; CPython stops at `for` */
          int depth = 0;
          for (int i = lpar + 1; i < P->pos; i++)
            {
              ScToken *t = &P->tk[i];
              if (t->kind == SC_TOK_OP && (t->op == SC_OP_LPAR || t->op == SC_OP_LSQB
                                           || t->op == SC_OP_LBRACE))
                depth++;
              else if (t->kind == SC_TOK_OP && (t->op == SC_OP_RPAR || t->op == SC_OP_RSQB
                                                || t->op == SC_OP_RBRACE))
                depth--;
              else if (depth == 0 && t->kind == SC_TOK_NAME && t->kw == SC_KW_FOR)
                return error_tok (P, t, "invalid syntax");
            }
        }
      if (!tmp.call.simple)
        return error_tok (P, prev (P), "*args and **kwargs in class bases are not supported by fx");
      s->class_.bases = tmp.call.args;
      s->class_.n_bases = tmp.call.n_args;
      s->class_.kws = tmp.call.kws;
      s->class_.n_kws = tmp.call.n_kws;
    }
  code->decorators = arena_array (P, decorators, &code->n_decorators);
  g_string_append (P->qual, code->name->data);
  g_string_append_c (P->qual, '.');
  P->in_function = FALSE;
  P->loop_depth = 0;
  ok = parse_block (P, &code->body, "class definition", start->line);
  g_string_truncate (P->qual, qlen);
  P->in_function = in_fn;
  P->loop_depth = loops;
  if (!ok)
    return FALSE;
  code->docstring = block_docstring (&code->body);
  if (decorators && decorators->len)
    s->pos.line = ((ScExpr *) decorators->pdata[0])->pos.line;
  s->class_.code = code;
  s->class_.name.id = code->name;
  stmt_end (P, s);
  code->pos = s->pos;
  g_ptr_array_add (out, s);
  return TRUE;
}

static gboolean
parse_decorated (Parser *P, GPtrArray *out)
{
  g_autoptr (GPtrArray) decorators = g_ptr_array_new ();
  while (accept_op (P, SC_OP_AT))
    {
      ScExpr *d = parse_named_expression (P);
      if (!d)
        return FALSE;
      if (tok (P)->kind != SC_TOK_NEWLINE)
        return error_invalid (P);
      advance (P);
      g_ptr_array_add (decorators, d);
    }
  if (at_kw (P, SC_KW_DEF))
    return parse_funcdef (P, out, decorators);
  if (at_kw (P, SC_KW_CLASS))
    return parse_classdef (P, out, decorators);
  return error_invalid (P);
}

/* `if x = 1:` — CPython 3.11's hints for '=' where a condition was expected. */
static gboolean
check_condition (Parser *P, ScExpr *test)
{
  ScExpr *rhs;
  if (!at_op (P, SC_OP_EQUAL))
    return TRUE;
  if (test->kind == SC_E_TUPLE || test->kind == SC_E_LIST || test->kind == SC_E_GENEXP
      || (test->kind == SC_E_CONST && (test->constant.kind == FX_VALUE_NONE
                                       || test->constant.kind == FX_VALUE_BOOL)))
    return TRUE;
  if (test->kind != SC_E_NAME || test->parenthesized)
    return error_pos (P, &test->pos, "cannot assign to %s here. Maybe you meant '==' instead "
                      "of '='?", expr_name (test));
  advance (P);
  if (!(rhs = parse_bitor (P)))
    return FALSE;
  return error_range (P, "SyntaxError", test->pos.line, test->pos.col, rhs->pos.end_line,
                      rhs->pos.end_col,
                      "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
}

static gboolean
parse_if (Parser *P, GPtrArray *out, gboolean elif)
{
  ScToken *start = advance (P);
  ScStmt *s = mk_stmt (P, SC_S_IF, start);
  if (!(s->if_.test = parse_named_expression (P)) || !check_condition (P, s->if_.test))
    return FALSE;
  if (!parse_block (P, &s->if_.body, elif ? "'elif' statement" : "'if' statement", start->line))
    return FALSE;
  if (at_kw (P, SC_KW_ELIF))
    {
      g_autoptr (GPtrArray) sub = g_ptr_array_new ();
      if (!parse_if (P, sub, TRUE))
        return FALSE;
      s->if_.orelse.items = arena_array (P, sub, &s->if_.orelse.n);
    }
  else if (at_kw (P, SC_KW_ELSE))
    {
      ScToken *et = advance (P);
      if (!parse_block (P, &s->if_.orelse, "'else' statement", et->line))
        return FALSE;
    }
  stmt_end (P, s);
  g_ptr_array_add (out, s);
  return TRUE;
}

static gboolean
parse_loop_body (Parser *P, ScBlock *body, const char *what, int line)
{
  gboolean ok;
  P->loop_depth++;
  ok = parse_block (P, body, what, line);
  P->loop_depth--;
  return ok;
}

static gboolean
parse_while (Parser *P, GPtrArray *out)
{
  ScToken *start = advance (P);
  ScStmt *s = mk_stmt (P, SC_S_WHILE, start);
  if (!(s->while_.test = parse_named_expression (P)) || !check_condition (P, s->while_.test))
    return FALSE;
  if (!parse_loop_body (P, &s->while_.body, "'while' statement", start->line))
    return FALSE;
  if (at_kw (P, SC_KW_ELSE))
    {
      ScToken *et = advance (P);
      if (!parse_block (P, &s->while_.orelse, "'else' statement", et->line))
        return FALSE;
    }
  stmt_end (P, s);
  g_ptr_array_add (out, s);
  return TRUE;
}

static gboolean
parse_for (Parser *P, GPtrArray *out)
{
  ScToken *start = advance (P);
  ScStmt *s = mk_stmt (P, SC_S_FOR, start);
  if (!parse_target_list (P, &s->for_.target, SC_KW_IN))
    return FALSE;
  if (!accept_kw (P, SC_KW_IN))
    return error_invalid (P);
  if (!(s->for_.iter = parse_star_expressions (P)))
    return FALSE;
  if (!parse_loop_body (P, &s->for_.body, "'for' statement", start->line))
    return FALSE;
  if (at_kw (P, SC_KW_ELSE))
    {
      ScToken *et = advance (P);
      if (!parse_block (P, &s->for_.orelse, "'else' statement", et->line))
        return FALSE;
    }
  stmt_end (P, s);
  g_ptr_array_add (out, s);
  return TRUE;
}

static gboolean
parse_try (Parser *P, GPtrArray *out)
{
  ScToken *start = advance (P);
  ScStmt *s = mk_stmt (P, SC_S_TRY, start);
  g_autoptr (GArray) handlers = g_array_new (FALSE, TRUE, sizeof (ScHandler));

  if (!parse_block (P, &s->try_.body, "'try' statement", start->line))
    return FALSE;
  while (at_kw (P, SC_KW_EXCEPT))
    {
      ScHandler h = { 0 };
      ScToken *et = advance (P);
      h.pos.line = et->line;
      h.pos.col = et->col;
      if (at_op (P, SC_OP_STAR))
        return error_tok (P, tok (P), "except* (exception groups) is not supported by fx");
      if (!at_op (P, SC_OP_COLON))
        {
          if (!(h.type = parse_expression (P)))
            return FALSE;
          if (at_op (P, SC_OP_COMMA))
            {
              /* except A, B: — CPython 3.11's message */
              ScToken *t = tok (P);
              return error_range (P, "SyntaxError", h.type->pos.line, h.type->pos.col,
                                  t->end_line, t->end_col,
                                  "multiple exception types must be parenthesized");
            }
          if (accept_kw (P, SC_KW_AS))
            {
              ScToken *nt = tok (P);
              if (nt->kind != SC_TOK_NAME || nt->kw != SC_KW_NONE)
                return error_invalid (P);
              advance (P);
              h.name.id = tok_name (P, nt);
            }
        }
      if (!parse_block (P, &h.body, "'except' statement", et->line))
        return FALSE;
      if (h.body.n > 0)
        {
          h.pos.end_line = h.body.items[h.body.n - 1]->pos.end_line;
          h.pos.end_col = h.body.items[h.body.n - 1]->pos.end_col;
        }
      g_array_append_val (handlers, h);
    }
  if (handlers->len > 0)
    {
      for (guint i = 0; i + 1 < handlers->len; i++)
        if (g_array_index (handlers, ScHandler, i).type == NULL)
          {
            ScHandler *h = &g_array_index (handlers, ScHandler, i);
            return error_range (P, "SyntaxError", h->pos.line, h->pos.col, h->pos.end_line,
                                h->pos.end_col, "default 'except:' must be last");
          }
      if (at_kw (P, SC_KW_ELSE))
        {
          ScToken *et = advance (P);
          if (!parse_block (P, &s->try_.orelse, "'else' statement", et->line))
            return FALSE;
        }
    }
  if (at_kw (P, SC_KW_FINALLY))
    {
      ScToken *ft = advance (P);
      if (!parse_block (P, &s->try_.finalbody, "'finally' statement", ft->line))
        return FALSE;
    }
  else if (handlers->len == 0)
    {
      int i = P->pos;
      while (i + 1 < P->n && P->tk[i].kind == SC_TOK_DEDENT)
        i++;
      return error_range (P, "SyntaxError", P->tk[i].line, P->tk[i].col, P->tk[i].end_line,
                          P->tk[i].kind == SC_TOK_ENDMARKER ? -1 : P->tk[i].end_col,
                          "expected 'except' or 'finally' block");
    }
  s->try_.n_handlers = handlers->len;
  s->try_.handlers = sc_new_n (P->unit, ScHandler, MAX (handlers->len, 1));
  if (handlers->len > 0)   /* an empty GArray has no data (NULL) */
    memcpy (s->try_.handlers, handlers->data, sizeof (ScHandler) * handlers->len);
  stmt_end (P, s);
  g_ptr_array_add (out, s);
  return TRUE;
}

/* Single targets only for `as` in with: a following comma separates items. */
static gboolean
parse_with_target (Parser *P, ScExpr **out)
{
  ScExpr *e;
  if (at_op (P, SC_OP_STAR))
    return error_invalid (P);
  if (!(e = parse_bitor (P)))
    return FALSE;
  if (!check_target (P, e, FALSE))
    return FALSE;
  *out = e;
  return TRUE;
}

static gboolean
parse_with (Parser *P, GPtrArray *out)
{
  ScToken *start = advance (P);
  ScStmt *s = mk_stmt (P, SC_S_WITH, start);
  g_autoptr (GArray) items = g_array_new (FALSE, TRUE, sizeof (ScWithItem));
  int save = P->pos;

  if (at_op (P, SC_OP_LPAR))
    {
      /* with (a as b, c as d): — try the parenthesized form first */
      int depth = 0, i = P->pos;
      gboolean paren_form = FALSE;
      for (; i < P->n; i++)
        {
          ScToken *t = &P->tk[i];
          if (t->kind == SC_TOK_OP && (t->op == SC_OP_LPAR || t->op == SC_OP_LSQB || t->op == SC_OP_LBRACE))
            depth++;
          else if (t->kind == SC_TOK_OP && (t->op == SC_OP_RPAR || t->op == SC_OP_RSQB || t->op == SC_OP_RBRACE))
            {
              if (--depth == 0)
                break;
            }
          else if (depth == 1 && t->kind == SC_TOK_NAME && t->kw == SC_KW_AS)
            paren_form = TRUE;
          else if (t->kind == SC_TOK_NEWLINE || t->kind == SC_TOK_ENDMARKER)
            break;
        }
      if (paren_form && i + 1 < P->n && P->tk[i + 1].kind == SC_TOK_OP && P->tk[i + 1].op == SC_OP_COLON)
        {
          advance (P);
          while (!at_op (P, SC_OP_RPAR))
            {
              ScWithItem it = { 0 };
              if (!(it.context = parse_expression (P)))
                return FALSE;
              if (accept_kw (P, SC_KW_AS) && !parse_with_target (P, &it.target))
                return FALSE;
              g_array_append_val (items, it);
              if (!accept_op (P, SC_OP_COMMA))
                break;
            }
          if (!expect_op (P, SC_OP_RPAR))
            return FALSE;
          goto body;
        }
      P->pos = save;
    }
  for (;;)
    {
      ScWithItem it = { 0 };
      if (!(it.context = parse_expression (P)))
        return FALSE;
      if (accept_kw (P, SC_KW_AS) && !parse_with_target (P, &it.target))
        return FALSE;
      g_array_append_val (items, it);
      if (!accept_op (P, SC_OP_COMMA))
        break;
    }
body:
  if (!parse_block (P, &s->with.body, "'with' statement", start->line))
    return FALSE;
  s->with.n_items = items->len;
  s->with.items = sc_new_n (P->unit, ScWithItem, items->len);
  if (items->len > 0)   /* an empty GArray has no data (NULL) */
    memcpy (s->with.items, items->data, sizeof (ScWithItem) * items->len);
  stmt_end (P, s);
  g_ptr_array_add (out, s);
  return TRUE;
}

static FxStr *
parse_dotted_name (Parser *P)
{
  g_autoptr (GString) name = g_string_new (NULL);
  for (;;)
    {
      ScToken *t = tok (P);
      if (t->kind != SC_TOK_NAME || t->kw != SC_KW_NONE)
        return error_invalid (P), NULL;
      advance (P);
      g_string_append_len (name, P->src + t->start, t->end - t->start);
      if (!at_op (P, SC_OP_DOT))
        break;
      advance (P);
      g_string_append_c (name, '.');
    }
  return sc_intern (name->str, name->len);
}

static gboolean
parse_import (Parser *P, GPtrArray *out)
{
  ScToken *start = advance (P);
  ScStmt *s = mk_stmt (P, SC_S_IMPORT, start);
  g_autoptr (GArray) names = g_array_new (FALSE, TRUE, sizeof (ScAlias));
  for (;;)
    {
      ScAlias a = { 0 };
      ScToken *st = tok (P);
      if (!(a.module = parse_dotted_name (P)))
        return FALSE;
      if (accept_kw (P, SC_KW_AS))
        {
          ScToken *nt = tok (P);
          if (nt->kind != SC_TOK_NAME || nt->kw != SC_KW_NONE)
            return error_invalid (P);
          advance (P);
          a.asname.id = tok_name (P, nt);
        }
      else
        {
          /* import a.b binds a */
          const char *dot = strchr (a.module->data, '.');
          a.asname.id = dot ? sc_intern (a.module->data, dot - a.module->data) : a.module;
        }
      a.pos.line = st->line;
      a.pos.col = st->col;
      a.pos.end_line = prev (P)->end_line;
      a.pos.end_col = prev (P)->end_col;
      a.name = a.asname.id != a.module && !strchr (a.module->data, '.') ? a.module : NULL;
      g_array_append_val (names, a);
      if (!accept_op (P, SC_OP_COMMA))
        break;
    }
  s->import.n = names->len;
  s->import.names = sc_new_n (P->unit, ScAlias, names->len);
  if (names->len > 0)   /* an empty GArray has no data (NULL) */
    memcpy (s->import.names, names->data, sizeof (ScAlias) * names->len);
  stmt_end (P, s);
  g_ptr_array_add (out, s);
  return TRUE;
}

static gboolean
parse_from_import (Parser *P, GPtrArray *out)
{
  ScToken *start = advance (P);
  ScStmt *s = mk_stmt (P, SC_S_IMPORT_FROM, start);
  g_autoptr (GArray) names = g_array_new (FALSE, TRUE, sizeof (ScAlias));
  int level = 0;
  gboolean paren;

  while (at_op (P, SC_OP_DOT) || at_op (P, SC_OP_ELLIPSIS))
    level += advance (P)->op == SC_OP_DOT ? 1 : 3;
  if (!at_kw (P, SC_KW_IMPORT))
    {
      if (!(s->import.module = parse_dotted_name (P)))
        return FALSE;
    }
  else if (level == 0)
    return error_invalid (P);
  if (!accept_kw (P, SC_KW_IMPORT))
    return error_invalid (P);
  s->import.level = level;
  if (at_op (P, SC_OP_STAR))
    {
      ScAlias a = { 0 };
      ScToken *st = advance (P);
      a.name = sc_intern_cstr ("*");
      a.pos.line = st->line;
      a.pos.col = st->col;
      a.pos.end_line = st->end_line;
      a.pos.end_col = st->end_col;
      g_array_append_val (names, a);
      if (P->in_function)
        return error_tok (P, st, "import * only allowed at module level");
    }
  else
    {
      paren = accept_op (P, SC_OP_LPAR);
      for (;;)
        {
          ScAlias a = { 0 };
          ScToken *nt = tok (P);
          if (nt->kind != SC_TOK_NAME || nt->kw != SC_KW_NONE)
            return error_invalid (P);
          advance (P);
          a.name = tok_name (P, nt);
          a.asname.id = a.name;
          if (accept_kw (P, SC_KW_AS))
            {
              ScToken *at = tok (P);
              if (at->kind != SC_TOK_NAME || at->kw != SC_KW_NONE)
                return error_invalid (P);
              advance (P);
              a.asname.id = tok_name (P, at);
            }
          a.pos.line = nt->line;
          a.pos.col = nt->col;
          a.pos.end_line = prev (P)->end_line;
          a.pos.end_col = prev (P)->end_col;
          /* from __future__ import annotations: annotations stay source strings (PEP 563) */
          if (level == 0 && strcmp (s->import.module->data, "__future__") == 0
              && strcmp (a.name->data, "annotations") == 0)
            P->unit->future_annotations = TRUE;
          g_array_append_val (names, a);
          if (!accept_op (P, SC_OP_COMMA))
            break;
          if (paren && at_op (P, SC_OP_RPAR))
            break;
          if (!paren && tok (P)->kind == SC_TOK_NEWLINE)
            return error_range (P, "SyntaxError", prev (P)->line, prev (P)->col, prev (P)->line,
                                prev (P)->end_col,
                                "trailing comma not allowed without surrounding parentheses");
        }
      if (paren && !expect_op (P, SC_OP_RPAR))
        return FALSE;
    }
  s->import.n = names->len;
  s->import.names = sc_new_n (P->unit, ScAlias, names->len);
  if (names->len > 0)   /* an empty GArray has no data (NULL) */
    memcpy (s->import.names, names->data, sizeof (ScAlias) * names->len);
  stmt_end (P, s);
  g_ptr_array_add (out, s);
  return TRUE;
}

static gboolean
is_augassign (ScToken *t, ScBinOp *op)
{
  if (t->kind != SC_TOK_OP || t->op < SC_OP_PLUSEQ || t->op > SC_OP_ATEQ)
    return FALSE;
  *op = (ScBinOp) (t->op - SC_OP_PLUSEQ);
  return TRUE;
}

/* Is e a "bitwise_or"-level expression (the kind CPython's "Maybe you meant '=='" covers)? */
static gboolean
bitor_level (const ScExpr *e)
{
  if (e->parenthesized)
    return e->kind != SC_E_TUPLE && e->kind != SC_E_GENEXP;
  switch (e->kind)
    {
    case SC_E_BOOLOP: case SC_E_COMPARE: case SC_E_IFEXP: case SC_E_LAMBDA: case SC_E_NAMED:
    case SC_E_TUPLE: case SC_E_LIST: case SC_E_GENEXP: case SC_E_STARRED:
      return FALSE;
    case SC_E_UNARY:
      return e->unary.op != SC_UNARY_NOT;
    case SC_E_CONST:
      return e->constant.kind != FX_VALUE_NONE && e->constant.kind != FX_VALUE_BOOL;
    default:
      return TRUE;
    }
}

static ScStmt *
parse_expr_stmt (Parser *P)
{
  ScToken *start = tok (P);
  ScExpr *e;
  ScBinOp op;

  if (at_kw (P, SC_KW_YIELD))
    e = parse_yield_expr (P);
  else
    e = parse_star_expressions (P);
  if (!e)
    return NULL;

  if (at_op (P, SC_OP_COLON))
    {
      ScStmt *s = mk_stmt (P, SC_S_ANNASSIGN, start);
      if (e->kind == SC_E_TUPLE)
        return error_pos (P, &e->pos, "only single target (not tuple) can be annotated"), NULL;
      if (e->kind == SC_E_LIST)
        return error_pos (P, &e->pos, "only single target (not list) can be annotated"), NULL;
      if (e->kind != SC_E_NAME && e->kind != SC_E_ATTR && e->kind != SC_E_SUBSCRIPT)
        return error_pos (P, &e->pos, "illegal target for annotation"), NULL;
      advance (P);
      s->annassign.target = e;
      s->annassign.simple = e->kind == SC_E_NAME && !e->parenthesized;
      if (!(s->annassign.annotation = parse_expression (P)))
        return NULL;
      if (accept_op (P, SC_OP_EQUAL))
        {
          s->annassign.value = at_kw (P, SC_KW_YIELD) ? parse_yield_expr (P)
                                                      : parse_star_expressions (P);
          if (!s->annassign.value)
            return NULL;
        }
      return stmt_end (P, s);
    }
  if (is_augassign (tok (P), &op))
    {
      ScStmt *s = mk_stmt (P, SC_S_AUGASSIGN, start);
      if (e->kind != SC_E_NAME && e->kind != SC_E_ATTR && e->kind != SC_E_SUBSCRIPT)
        return error_pos (P, &e->pos, "'%s' is an illegal expression for augmented assignment",
                          expr_name (e)), NULL;
      advance (P);
      s->augassign.target = e;
      s->augassign.op = op;
      s->augassign.value = at_kw (P, SC_KW_YIELD) ? parse_yield_expr (P) : parse_star_expressions (P);
      if (!s->augassign.value)
        return NULL;
      return stmt_end (P, s);
    }
  if (at_op (P, SC_OP_EQUAL))
    {
      g_autoptr (GPtrArray) targets = g_ptr_array_new ();
      ScStmt *s = mk_stmt (P, SC_S_ASSIGN, start);
      ScExpr *value = e;
      while (accept_op (P, SC_OP_EQUAL))
        {
          g_ptr_array_add (targets, value);
          value = at_kw (P, SC_KW_YIELD) ? parse_yield_expr (P) : parse_star_expressions (P);
          if (!value)
            return NULL;
        }
      for (guint i = 0; i < targets->len; i++)
        {
          ScExpr *t = targets->pdata[i];
          ScExpr *bad;
          if (t->kind == SC_E_YIELD || t->kind == SC_E_YIELD_FROM)
            return error_pos (P, &t->pos, "assignment to yield expression not possible"), NULL;
          bad = invalid_target (t, FALSE);
          if (bad)
            {
              if (targets->len == 1 && bad == t && bitor_level (t))
                {
                  ScPos p = t->pos;
                  return error_pos (P, &p, "cannot assign to %s here. Maybe you meant '==' "
                                           "instead of '='?", expr_name (t)), NULL;
                }
              return error_pos (P, &bad->pos, "cannot assign to %s", expr_name (bad)), NULL;
            }
          /* checks CPython's compiler makes */
          if (t->kind == SC_E_STARRED)
            return error_pos (P, &t->pos, "starred assignment target must be in a list or "
                                          "tuple"), NULL;
          if (t->kind == SC_E_TUPLE || t->kind == SC_E_LIST)
            {
              int n_star = 0;
              for (int k = 0; k < t->seq.n; k++)
                n_star += t->seq.items[k]->kind == SC_E_STARRED;
              if (n_star > 1)
                return error_pos (P, &t->pos, "multiple starred expressions in assignment"), NULL;
            }
        }
      s->assign.targets = arena_array (P, targets, &s->assign.n_targets);
      s->assign.value = value;
      return stmt_end (P, s);
    }
  /* Python 2's print statement gets CPython's hint */
  if (e->kind == SC_E_NAME && !e->parenthesized && strcmp (e->name.id->data, "print") == 0
      && starts_expression (P) && !at_op (P, SC_OP_LPAR))
    {
      ScExpr *arg = parse_star_expressions (P);
      if (!arg)
        return NULL;
      return error_range (P, "SyntaxError", e->pos.line, e->pos.col, arg->pos.end_line,
                          arg->pos.end_col,
                          "Missing parentheses in call to 'print'. Did you mean print(...)?"), NULL;
    }
  if (e->kind == SC_E_STARRED)
    return error_pos (P, &e->pos, "can't use starred expression here"), NULL;
  {
    ScStmt *s = mk_stmt (P, SC_S_EXPR, start);
    s->expr.value = e;
    return stmt_end (P, s);
  }
}

static ScStmt *
parse_small_stmt (Parser *P)
{
  ScToken *t = tok (P);
  ScStmt *s;

  if (t->kind == SC_TOK_NAME)
    switch (t->kw)
      {
      case SC_KW_PASS:
        advance (P);
        return stmt_end (P, mk_stmt (P, SC_S_PASS, t));
      case SC_KW_BREAK:
      case SC_KW_CONTINUE:
        advance (P);
        if (P->loop_depth == 0)
          return error_tok (P, t, t->kw == SC_KW_BREAK ? "'break' outside loop"
                                                       : "'continue' not properly in loop"), NULL;
        return stmt_end (P, mk_stmt (P, t->kw == SC_KW_BREAK ? SC_S_BREAK : SC_S_CONTINUE, t));
      case SC_KW_RETURN:
        advance (P);
        s = mk_stmt (P, SC_S_RETURN, t);
        if (starts_expression (P) && !(s->ret.value = parse_star_expressions (P)))
          return NULL;
        stmt_end (P, s);
        if (!P->in_function)
          return error_pos (P, &s->pos, "'return' outside function"), NULL;
        return s;
      case SC_KW_RAISE:
        advance (P);
        s = mk_stmt (P, SC_S_RAISE, t);
        if (starts_expression (P))
          {
            if (!(s->raise.exc = parse_expression (P)))
              return NULL;
            if (accept_kw (P, SC_KW_FROM) && !(s->raise.cause = parse_expression (P)))
              return NULL;
          }
        return stmt_end (P, s);
      case SC_KW_ASSERT:
        advance (P);
        s = mk_stmt (P, SC_S_ASSERT, t);
        if (!(s->assert_.test = parse_expression (P)))
          return NULL;
        if (accept_op (P, SC_OP_COMMA) && !(s->assert_.msg = parse_expression (P)))
          return NULL;
        return stmt_end (P, s);
      case SC_KW_DEL:
        {
          g_autoptr (GPtrArray) targets = g_ptr_array_new ();
          advance (P);
          s = mk_stmt (P, SC_S_DEL, t);
          for (;;)
            {
              ScExpr *e = parse_bitor (P);
              if (!e || !check_target (P, e, TRUE))
                return NULL;
              g_ptr_array_add (targets, e);
              if (!accept_op (P, SC_OP_COMMA) || tok (P)->kind == SC_TOK_NEWLINE
                  || at_op (P, SC_OP_SEMI))
                break;
            }
          s->del.targets = arena_array (P, targets, &s->del.n_targets);
          return stmt_end (P, s);
        }
      case SC_KW_GLOBAL:
      case SC_KW_NONLOCAL:
        {
          g_autoptr (GPtrArray) names = g_ptr_array_new ();
          advance (P);
          s = mk_stmt (P, t->kw == SC_KW_GLOBAL ? SC_S_GLOBAL : SC_S_NONLOCAL, t);
          for (;;)
            {
              ScToken *nt = tok (P);
              if (nt->kind != SC_TOK_NAME || nt->kw != SC_KW_NONE)
                return error_invalid (P), NULL;
              advance (P);
              g_ptr_array_add (names, tok_name (P, nt));
              if (!accept_op (P, SC_OP_COMMA))
                break;
            }
          s->global.names = arena_array (P, names, &s->global.n);
          stmt_end (P, s);
          if (t->kw == SC_KW_NONLOCAL && !P->in_function && P->qual->len == 0)
            return error_pos (P, &s->pos, "nonlocal declaration not allowed at module level"), NULL;
          return s;
        }
      default:
        break;
      }
  return parse_expr_stmt (P);
}

static gboolean
parse_simple_stmts (Parser *P, GPtrArray *out)
{
  for (;;)
    {
      ScStmt *s;
      if (at_kw (P, SC_KW_IMPORT))
        {
          if (!parse_import (P, out))
            return FALSE;
        }
      else if (at_kw (P, SC_KW_FROM))
        {
          if (!parse_from_import (P, out))
            return FALSE;
        }
      else
        {
          if (!(s = parse_small_stmt (P)))
            return FALSE;
          g_ptr_array_add (out, s);
        }
      if (!accept_op (P, SC_OP_SEMI))
        break;
      if (tok (P)->kind == SC_TOK_NEWLINE)
        break;
    }
  if (tok (P)->kind != SC_TOK_NEWLINE)
    {
      return error_invalid (P);
    }
  advance (P);
  return TRUE;
}

/* `match x:` at the start of a statement: the soft keyword of the match statement. */
static gboolean
looks_like_match (Parser *P)
{
  ScToken *t = tok (P);
  int depth = 0;
  if (t->kind != SC_TOK_NAME || t->kw != SC_KW_NONE || t->end - t->start != 5
      || memcmp (P->src + t->start, "match", 5) != 0)
    return FALSE;
  {
    ScToken *n = peek (P, 1);
    if (n->kind == SC_TOK_NEWLINE || (n->kind == SC_TOK_OP && n->op != SC_OP_LPAR
                                      && n->op != SC_OP_LSQB && n->op != SC_OP_LBRACE
                                      && n->op != SC_OP_MINUS && n->op != SC_OP_STAR))
      return FALSE;
  }
  for (int i = P->pos + 1; i < P->n; i++)
    {
      ScToken *x = &P->tk[i];
      if (x->kind == SC_TOK_OP && (x->op == SC_OP_LPAR || x->op == SC_OP_LSQB || x->op == SC_OP_LBRACE))
        depth++;
      else if (x->kind == SC_TOK_OP && (x->op == SC_OP_RPAR || x->op == SC_OP_RSQB || x->op == SC_OP_RBRACE))
        depth--;
      else if (x->kind == SC_TOK_NEWLINE || x->kind == SC_TOK_ENDMARKER)
        return FALSE;
      else if (depth == 0 && x->kind == SC_TOK_OP && x->op == SC_OP_COLON)
        return i + 1 < P->n && P->tk[i + 1].kind == SC_TOK_NEWLINE;
      else if (depth == 0 && x->kind == SC_TOK_OP && x->op == SC_OP_EQUAL)
        return FALSE;
    }
  return FALSE;
}

static gboolean
parse_statement (Parser *P, GPtrArray *out)
{
  ScToken *t = tok (P);

  if (t->kind == SC_TOK_INDENT)
    return error_invalid (P);
  if (t->kind == SC_TOK_NAME)
    switch (t->kw)
      {
      case SC_KW_IF: return parse_if (P, out, FALSE);
      case SC_KW_WHILE: return parse_while (P, out);
      case SC_KW_FOR: return parse_for (P, out);
      case SC_KW_TRY: return parse_try (P, out);
      case SC_KW_WITH: return parse_with (P, out);
      case SC_KW_DEF: return parse_funcdef (P, out, NULL);
      case SC_KW_CLASS: return parse_classdef (P, out, NULL);
      case SC_KW_ASYNC:
        return error_tok (P, t, "async functions, loops and with statements are not "
                                "supported by fx");
      case SC_KW_ELSE: case SC_KW_ELIF: case SC_KW_EXCEPT: case SC_KW_FINALLY:
        return error_invalid (P);
      default:
        break;
      }
  if (at_op (P, SC_OP_AT))
    return parse_decorated (P, out);
  if (looks_like_match (P))
    return error_tok (P, t, "the 'match' statement is not supported by fx");
  return parse_simple_stmts (P, out);
}

/* ------------------------------------------------------------------ entry point */

ScUnit *
sc_compile (const char *filename, const char *src, gsize len, ScSyntaxError *err)
{
  Parser P = { 0 };
  ScUnit *unit;
  g_autoptr (GPtrArray) stmts = g_ptr_array_new ();
  ScCode *module;
  ScToken start_tok = { 0 };

  memset (err, 0, sizeof *err);
  unit = sc_unit_new (filename, src, len);
  if (!sc_tokenize (&P.toks, filename, unit->source, len))
    {
      err->cls = P.toks.error_class;
      err->msg = g_strdup (P.toks.error_msg);
      err->line = P.toks.error_line;
      err->col = P.toks.error_col;
      err->end_line = P.toks.error_end_line;
      err->end_col = P.toks.error_end_col;
      sc_tokens_clear (&P.toks);
      sc_unit_unref (unit);
      return NULL;
    }
  P.unit = unit;
  P.filename = filename;
  P.src = unit->source;
  P.tk = (ScToken *) P.toks.tokens->data;
  P.n = P.toks.tokens->len;
  P.err = err;
  P.qual = g_string_new (NULL);

  start_tok.line = 1;
  module = new_code (&P, SC_CODE_MODULE, sc_intern_cstr ("<module>"), &start_tok);
  while (!P.failed && tok (&P)->kind != SC_TOK_ENDMARKER)
    {
      if (tok (&P)->kind == SC_TOK_NEWLINE)
        {
          advance (&P);
          continue;
        }
      if (!parse_statement (&P, stmts))
        break;
    }
  g_string_free (P.qual, TRUE);
  if (P.toks.unclosed != '\0'
      && (!P.failed || P.pos >= P.n - 1 || err->line > P.toks.unclosed_line))
    {
      /* the parser ran into the end of the file inside brackets, or failed on a later line
       * than the unclosed bracket's (CPython then blames the bracket) */
      g_free (err->msg);
      err->cls = "SyntaxError";
      err->msg = g_strdup_printf ("'%c' was never closed", P.toks.unclosed);
      err->line = err->end_line = P.toks.unclosed_line;
      err->col = P.toks.unclosed_col;
      err->end_col = -1;
      P.failed = TRUE;
    }
  sc_tokens_clear (&P.toks);
  if (P.failed)
    {
      sc_unit_unref (unit);
      return NULL;
    }
  module->body.items = arena_array (&P, stmts, &module->body.n);
  module->docstring = block_docstring (&module->body);
  unit->module = module;
  if (!sc_scope_analyze (unit, err))
    {
      sc_unit_unref (unit);
      return NULL;
    }
  return unit;
}
