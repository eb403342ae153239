/* scope.c: scope analysis (CPython's symtable) — decides for every name of every scope
 * whether it is a local slot, a cell shared with inner functions, a free variable of an
 * enclosing function, a class-namespace name or a global, and numbers slots and cells. */
#include "script/parser.h"

#include <string.h>

#define MAX_WALK_DEPTH 1200

enum {
  SYM_ASSIGNED = 1 << 0,
  SYM_PARAM = 1 << 1,
  SYM_USED = 1 << 2,
  SYM_GLOBAL = 1 << 3,     /* declared global */
  SYM_NONLOCAL = 1 << 4,   /* declared nonlocal */
};

typedef enum { RES_LOCAL, RES_CELL, RES_FREE, RES_GLOBAL_EXPLICIT, RES_GLOBAL_IMPLICIT } Res;

typedef enum { SCOPE_MODULE, SCOPE_FUNCTION, SCOPE_CLASS } ScopeKind;

typedef struct Scope Scope;
struct Scope {
  ScCode *code;
  Scope *parent;
  ScopeKind kind;
  GHashTable *flags;      /* FxStr* → flags */
  GPtrArray *order;       /* FxStr*, first-seen order */
  GPtrArray *refs;        /* ScName* to resolve */
  GPtrArray *children;
  GHashTable *res;        /* FxStr* → Res */
  GPtrArray *cells;       /* cellvar names */
  GPtrArray *frees;       /* free var names */
  gboolean needs_class_cell;
  GHashTable *decl_pos;   /* FxStr* → const ScPos* of its global/nonlocal statement */
};

typedef struct {
  ScSyntaxError *err;
  gboolean failed;
  int depth;
  GPtrArray *all;         /* every Scope, for freeing */
} Walker;

static gboolean
walk_error (Walker *W, const ScPos *pos, const char *cls, const char *fmt, ...) G_GNUC_PRINTF (4, 5);

static gboolean
walk_error (Walker *W, const ScPos *pos, const char *cls, const char *fmt, ...)
{
  va_list ap;
  if (W->failed)
    return FALSE;
  W->failed = TRUE;
  W->err->cls = cls;
  va_start (ap, fmt);
  W->err->msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  W->err->line = pos->line;
  W->err->col = pos->col;
  W->err->end_line = pos->end_line;
  W->err->end_col = pos->end_col;
  return FALSE;
}

static Scope *
scope_new (Walker *W, Scope *parent, ScCode *code, ScopeKind kind)
{
  Scope *S = g_new0 (Scope, 1);
  S->parent = parent;
  S->code = code;
  S->kind = kind;
  S->flags = g_hash_table_new (NULL, NULL);
  S->order = g_ptr_array_new ();
  S->refs = g_ptr_array_new ();
  S->children = g_ptr_array_new ();
  S->res = g_hash_table_new (NULL, NULL);
  S->decl_pos = g_hash_table_new (NULL, NULL);
  S->cells = g_ptr_array_new ();
  S->frees = g_ptr_array_new ();
  if (parent)
    g_ptr_array_add (parent->children, S);
  g_ptr_array_add (W->all, S);
  return S;
}

static void
scope_free (Scope *S)
{
  g_hash_table_destroy (S->flags);
  g_ptr_array_free (S->order, TRUE);
  g_ptr_array_free (S->refs, TRUE);
  g_ptr_array_free (S->children, TRUE);
  g_hash_table_destroy (S->res);
  g_hash_table_destroy (S->decl_pos);
  g_ptr_array_free (S->cells, TRUE);
  g_ptr_array_free (S->frees, TRUE);
  g_free (S);
}

static guint
get_flags (Scope *S, FxStr *name)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (S->flags, name));
}

static void
add_flag (Scope *S, FxStr *name, guint flag)
{
  gpointer old;
  if (!g_hash_table_lookup_extended (S->flags, name, NULL, &old))
    {
      g_ptr_array_add (S->order, name);
      old = NULL;
    }
  g_hash_table_insert (S->flags, name, GUINT_TO_POINTER (GPOINTER_TO_UINT (old) | flag));
}

static void
add_ref (Scope *S, ScName *ref, guint flag)
{
  add_flag (S, ref->id, flag);
  g_ptr_array_add (S->refs, ref);
}

/* ------------------------------------------------------------------ pass 1: collect */

static void visit_expr (Walker *W, Scope *S, ScExpr *e);
static void visit_block (Walker *W, Scope *S, ScBlock *b);
static void visit_target (Walker *W, Scope *S, ScExpr *e, guint flag);

static Scope *
function_scope (Walker *W, Scope *S, ScCode *code)
{
  Scope *F = scope_new (W, S, code, SCOPE_FUNCTION);
  int n = code->n_pos + code->n_kwonly + ((code->flags & SC_CODE_VARARGS) ? 1 : 0)
          + ((code->flags & SC_CODE_VARKEYWORDS) ? 1 : 0);
  for (int i = 0; i < n; i++)
    add_ref (F, &code->params[i], SYM_PARAM | SYM_ASSIGNED);
  return F;
}

static void
visit_args (Walker *W, Scope *S, ScCode *code)
{
  int n = code->n_pos + code->n_kwonly + ((code->flags & SC_CODE_VARARGS) ? 1 : 0)
          + ((code->flags & SC_CODE_VARKEYWORDS) ? 1 : 0);
  for (int i = 0; i < code->n_defaults; i++)
    visit_expr (W, S, code->defaults[i]);
  for (int i = 0; i < code->n_kwonly; i++)
    if (code->kw_defaults && code->kw_defaults[i])
      visit_expr (W, S, code->kw_defaults[i]);
  if (code->annotations)
    for (int i = 0; i < n; i++)
      if (code->annotations[i])
        visit_expr (W, S, code->annotations[i]);
  if (code->returns)
    visit_expr (W, S, code->returns);
  for (int i = 0; i < code->n_decorators; i++)
    visit_expr (W, S, code->decorators[i]);
}

static void
visit_comprehension (Walker *W, Scope *S, ScExpr *e)
{
  Scope *C;
  visit_expr (W, S, e->comp.gens[0].iter);
  C = function_scope (W, S, e->comp.code);
  for (int g = 0; g < e->comp.n_gens; g++)
    {
      ScComprehension *c = &e->comp.gens[g];
      if (g > 0)
        visit_expr (W, C, c->iter);
      visit_target (W, C, c->target, SYM_ASSIGNED);
      for (int i = 0; i < c->n_ifs; i++)
        visit_expr (W, C, c->ifs[i]);
    }
  if (e->comp.value)
    {
      /* dict comprehension: key first, then value (3.8+) */
      visit_expr (W, C, e->comp.elt);
      visit_expr (W, C, e->comp.value);
    }
  else
    visit_expr (W, C, e->comp.elt);
}

static void
visit_exprs (Walker *W, Scope *S, ScExpr **v, int n)
{
  for (int i = 0; i < n; i++)
    if (v[i])
      visit_expr (W, S, v[i]);
}

static void
visit_expr (Walker *W, Scope *S, ScExpr *e)
{
  if (W->failed)
    return;
  if (++W->depth > MAX_WALK_DEPTH)
    {
      walk_error (W, &e->pos, "RecursionError", "maximum recursion depth exceeded during compilation");
      W->depth--;
      return;
    }
  switch (e->kind)
    {
    case SC_E_CONST:
    case SC_E_UNSUPPORTED:
      break;
    case SC_E_NAME:
      add_ref (S, &e->name, SYM_USED);
      if (S->kind == SCOPE_FUNCTION && strcmp (e->name.id->data, "super") == 0)
        add_flag (S, sc_intern_cstr ("__class__"), SYM_USED);
      break;
    case SC_E_BINOP:
      visit_expr (W, S, e->binop.left);
      visit_expr (W, S, e->binop.right);
      break;
    case SC_E_UNARY:
      visit_expr (W, S, e->unary.operand);
      break;
    case SC_E_BOOLOP:
      visit_exprs (W, S, e->boolop.values, e->boolop.n);
      break;
    case SC_E_COMPARE:
      visit_expr (W, S, e->compare.left);
      visit_exprs (W, S, e->compare.comparators, e->compare.n);
      break;
    case SC_E_CALL:
      visit_expr (W, S, e->call.func);
      visit_exprs (W, S, e->call.args, e->call.n_args);
      for (int i = 0; i < e->call.n_kws; i++)
        visit_expr (W, S, e->call.kws[i].value);
      break;
    case SC_E_ATTR:
      visit_expr (W, S, e->attr.value);
      break;
    case SC_E_SUBSCRIPT:
      visit_expr (W, S, e->subscript.value);
      visit_expr (W, S, e->subscript.index);
      break;
    case SC_E_SLICE:
      if (e->slice.lower) visit_expr (W, S, e->slice.lower);
      if (e->slice.upper) visit_expr (W, S, e->slice.upper);
      if (e->slice.step) visit_expr (W, S, e->slice.step);
      break;
    case SC_E_TUPLE:
    case SC_E_LIST:
    case SC_E_SET:
      visit_exprs (W, S, e->seq.items, e->seq.n);
      break;
    case SC_E_DICT:
      visit_exprs (W, S, e->dict.keys, e->dict.n);
      visit_exprs (W, S, e->dict.values, e->dict.n);
      break;
    case SC_E_STARRED:
      visit_expr (W, S, e->starred.value);
      break;
    case SC_E_IFEXP:
      visit_expr (W, S, e->ifexp.test);
      visit_expr (W, S, e->ifexp.body);
      visit_expr (W, S, e->ifexp.orelse);
      break;
    case SC_E_LAMBDA:
      {
        Scope *F;
        visit_args (W, S, e->lambda.code);
        F = function_scope (W, S, e->lambda.code);
        visit_expr (W, F, e->lambda.code->lambda_body);
        break;
      }
    case SC_E_LISTCOMP:
    case SC_E_SETCOMP:
    case SC_E_DICTCOMP:
    case SC_E_GENEXP:
      visit_comprehension (W, S, e);
      break;
    case SC_E_FSTRING:
      visit_exprs (W, S, e->fstring.parts, e->fstring.n);
      break;
    case SC_E_FORMATTED:
      visit_expr (W, S, e->formatted.value);
      if (e->formatted.spec)
        visit_expr (W, S, e->formatted.spec);
      break;
    case SC_E_YIELD:
    case SC_E_YIELD_FROM:
      if (S->kind != SCOPE_FUNCTION)
        walk_error (W, &e->pos, "SyntaxError", "'yield' outside function");
      else if (S->code->flags & SC_CODE_COMPREHENSION)
        {
          const char *n = S->code->name->data;
          walk_error (W, &e->pos, "SyntaxError", "'yield' inside %s",
                      strcmp (n, "<listcomp>") == 0 ? "list comprehension"
                      : strcmp (n, "<setcomp>") == 0 ? "set comprehension"
                      : strcmp (n, "<dictcomp>") == 0 ? "dict comprehension"
                                                      : "generator expression");
        }
      else
        S->code->flags |= SC_CODE_GENERATOR;
      if (e->yield.value)
        visit_expr (W, S, e->yield.value);
      break;
    case SC_E_NAMED:
      {
        /* in a comprehension, := binds in the enclosing function (PEP 572) */
        Scope *T = S;
        visit_expr (W, S, e->named.value);
        while (T->kind == SCOPE_FUNCTION && (T->code->flags & SC_CODE_COMPREHENSION))
          T = T->parent;
        if (T == S)
          add_ref (S, &e->named.target->name, SYM_ASSIGNED);
        else
          {
            if (T->kind == SCOPE_CLASS)
              {
                walk_error (W, &e->pos, "SyntaxError", "assignment expression within a "
                            "comprehension cannot be used in a class body");
                break;
              }
            add_flag (T, e->named.target->name.id, SYM_ASSIGNED);
            for (Scope *C = S; C != T; C = C->parent)
              add_flag (C, e->named.target->name.id,
                        T->kind == SCOPE_MODULE ? SYM_GLOBAL : SYM_NONLOCAL);
            g_ptr_array_add (S->refs, &e->named.target->name);
          }
        break;
      }
    }
  W->depth--;
}

static void
visit_target (Walker *W, Scope *S, ScExpr *e, guint flag)
{
  if (W->failed)
    return;
  if (++W->depth > MAX_WALK_DEPTH)
    {
      walk_error (W, &e->pos, "RecursionError", "maximum recursion depth exceeded during compilation");
      W->depth--;
      return;
    }
  switch (e->kind)
    {
    case SC_E_NAME:
      add_ref (S, &e->name, flag);
      break;
    case SC_E_TUPLE:
    case SC_E_LIST:
      for (int i = 0; i < e->seq.n; i++)
        visit_target (W, S, e->seq.items[i], flag);
      break;
    case SC_E_STARRED:
      visit_target (W, S, e->starred.value, flag);
      break;
    default:
      visit_expr (W, S, e);
      break;
    }
  W->depth--;
}

static void
visit_stmt (Walker *W, Scope *S, ScStmt *s)
{
  if (W->failed)
    return;
  if (++W->depth > MAX_WALK_DEPTH)
    {
      walk_error (W, &s->pos, "RecursionError", "maximum recursion depth exceeded during compilation");
      W->depth--;
      return;
    }
  switch (s->kind)
    {
    case SC_S_EXPR:
      visit_expr (W, S, s->expr.value);
      break;
    case SC_S_ASSIGN:
      visit_expr (W, S, s->assign.value);
      for (int i = 0; i < s->assign.n_targets; i++)
        visit_target (W, S, s->assign.targets[i], SYM_ASSIGNED);
      break;
    case SC_S_AUGASSIGN:
      visit_expr (W, S, s->augassign.value);
      if (s->augassign.target->kind == SC_E_NAME)
        add_ref (S, &s->augassign.target->name, SYM_ASSIGNED | SYM_USED);
      else
        visit_expr (W, S, s->augassign.target);
      break;
    case SC_S_ANNASSIGN:
      if (s->annassign.value)
        visit_expr (W, S, s->annassign.value);
      if (S->kind != SCOPE_FUNCTION || !s->annassign.simple)
        visit_expr (W, S, s->annassign.annotation);
      visit_target (W, S, s->annassign.target, SYM_ASSIGNED);
      break;
    case SC_S_RETURN:
      if (s->ret.value)
        visit_expr (W, S, s->ret.value);
      break;
    case SC_S_PASS:
    case SC_S_BREAK:
    case SC_S_CONTINUE:
      break;
    case SC_S_IF:
      visit_expr (W, S, s->if_.test);
      visit_block (W, S, &s->if_.body);
      visit_block (W, S, &s->if_.orelse);
      break;
    case SC_S_WHILE:
      visit_expr (W, S, s->while_.test);
      visit_block (W, S, &s->while_.body);
      visit_block (W, S, &s->while_.orelse);
      break;
    case SC_S_FOR:
      visit_expr (W, S, s->for_.iter);
      visit_target (W, S, s->for_.target, SYM_ASSIGNED);
      visit_block (W, S, &s->for_.body);
      visit_block (W, S, &s->for_.orelse);
      break;
    case SC_S_DEF:
      {
        Scope *F;
        visit_args (W, S, s->def.code);
        add_ref (S, &s->def.name, SYM_ASSIGNED);
        F = function_scope (W, S, s->def.code);
        visit_block (W, F, &s->def.code->body);
        break;
      }
    case SC_S_CLASS:
      {
        Scope *C;
        visit_exprs (W, S, s->class_.bases, s->class_.n_bases);
        for (int i = 0; i < s->class_.n_kws; i++)
          visit_expr (W, S, s->class_.kws[i].value);
        for (int i = 0; i < s->class_.code->n_decorators; i++)
          visit_expr (W, S, s->class_.code->decorators[i]);
        add_ref (S, &s->class_.name, SYM_ASSIGNED);
        C = scope_new (W, S, s->class_.code, SCOPE_CLASS);
        visit_block (W, C, &s->class_.code->body);
        break;
      }
    case SC_S_RAISE:
      if (s->raise.exc)
        visit_expr (W, S, s->raise.exc);
      if (s->raise.cause)
        visit_expr (W, S, s->raise.cause);
      break;
    case SC_S_TRY:
      visit_block (W, S, &s->try_.body);
      for (int i = 0; i < s->try_.n_handlers; i++)
        {
          ScHandler *h = &s->try_.handlers[i];
          if (h->type)
            visit_expr (W, S, h->type);
          if (h->name.id)
            add_ref (S, &h->name, SYM_ASSIGNED);
          visit_block (W, S, &h->body);
        }
      visit_block (W, S, &s->try_.orelse);
      visit_block (W, S, &s->try_.finalbody);
      break;
    case SC_S_WITH:
      for (int i = 0; i < s->with.n_items; i++)
        {
          visit_expr (W, S, s->with.items[i].context);
          if (s->with.items[i].target)
            visit_target (W, S, s->with.items[i].target, SYM_ASSIGNED);
        }
      visit_block (W, S, &s->with.body);
      break;
    case SC_S_ASSERT:
      visit_expr (W, S, s->assert_.test);
      if (s->assert_.msg)
        visit_expr (W, S, s->assert_.msg);
      break;
    case SC_S_DEL:
      for (int i = 0; i < s->del.n_targets; i++)
        visit_target (W, S, s->del.targets[i], SYM_ASSIGNED);
      break;
    case SC_S_GLOBAL:
    case SC_S_NONLOCAL:
      for (int i = 0; i < s->global.n; i++)
        {
          FxStr *name = s->global.names[i];
          guint f = get_flags (S, name);
          if (s->kind == SC_S_GLOBAL && (f & SYM_PARAM))
            {
              walk_error (W, &s->pos, "SyntaxError", "name '%s' is parameter and global", name->data);
              break;
            }
          if (s->kind == SC_S_NONLOCAL && (f & SYM_PARAM))
            {
              walk_error (W, &s->pos, "SyntaxError", "name '%s' is parameter and nonlocal", name->data);
              break;
            }
          if (f & (SYM_ASSIGNED | SYM_USED))
            {
              walk_error (W, &s->pos, "SyntaxError", "name '%s' is %s %s declaration",
                          name->data, (f & SYM_ASSIGNED) ? "assigned to before" : "used prior to",
                          s->kind == SC_S_GLOBAL ? "global" : "nonlocal");
              break;
            }
          add_flag (S, name, s->kind == SC_S_GLOBAL ? SYM_GLOBAL : SYM_NONLOCAL);
          if (!g_hash_table_contains (S->decl_pos, name))
            g_hash_table_insert (S->decl_pos, name, &s->pos);
        }
      break;
    case SC_S_IMPORT:
    case SC_S_IMPORT_FROM:
      for (int i = 0; i < s->import.n; i++)
        if (s->import.names[i].asname.id)
          add_ref (S, &s->import.names[i].asname, SYM_ASSIGNED);
      break;
    }
  W->depth--;
}

static void
visit_block (Walker *W, Scope *S, ScBlock *b)
{
  for (int i = 0; i < b->n && !W->failed; i++)
    visit_stmt (W, S, b->items[i]);
}

/* ------------------------------------------------------------------ pass 2: analyze */

static Res
get_res (Scope *S, FxStr *name)
{
  return (Res) GPOINTER_TO_INT (g_hash_table_lookup (S->res, name)) - 1;
}

static gboolean
has_res (Scope *S, FxStr *name)
{
  return g_hash_table_contains (S->res, name);
}

static void
set_res (Scope *S, FxStr *name, Res r)
{
  g_hash_table_insert (S->res, name, GINT_TO_POINTER ((int) r + 1));
}

static void
add_free (Scope *S, FxStr *name)
{
  for (guint i = 0; i < S->frees->len; i++)
    if (S->frees->pdata[i] == name)
      return;
  g_ptr_array_add (S->frees, name);
}

/* bound: names of enclosing function scopes that a free variable can refer to. */
static gboolean
analyze (Walker *W, Scope *S, GHashTable *bound)
{
  GHashTable *newbound;
  FxStr *class_name = sc_intern_cstr ("__class__");

  for (guint i = 0; i < S->order->len; i++)
    {
      FxStr *name = S->order->pdata[i];
      guint f = get_flags (S, name);
      if (f & SYM_GLOBAL)
        set_res (S, name, RES_GLOBAL_EXPLICIT);
      else if (f & SYM_NONLOCAL)
        {
          if (!bound || !g_hash_table_contains (bound, name))
            {
              const ScPos *decl = g_hash_table_lookup (S->decl_pos, name);
              ScPos p = decl != NULL ? *decl : S->code->pos;
              return walk_error (W, &p, "SyntaxError", "no binding for nonlocal '%s' found",
                                 name->data);
            }
          set_res (S, name, RES_FREE);
          add_free (S, name);
        }
      else if (f & (SYM_ASSIGNED | SYM_PARAM))
        set_res (S, name, S->kind == SCOPE_MODULE ? RES_GLOBAL_IMPLICIT : RES_LOCAL);
      else if (bound && g_hash_table_contains (bound, name) && S->kind != SCOPE_MODULE)
        {
          set_res (S, name, RES_FREE);
          add_free (S, name);
        }
      else
        set_res (S, name, RES_GLOBAL_IMPLICIT);
    }

  newbound = g_hash_table_new (NULL, NULL);
  if (bound && S->kind != SCOPE_MODULE)
    {
      GHashTableIter it;
      gpointer k;
      g_hash_table_iter_init (&it, bound);
      while (g_hash_table_iter_next (&it, &k, NULL))
        g_hash_table_add (newbound, k);
    }
  if (S->kind == SCOPE_FUNCTION)
    for (guint i = 0; i < S->order->len; i++)
      {
        FxStr *name = S->order->pdata[i];
        if (get_res (S, name) == RES_LOCAL)
          g_hash_table_add (newbound, name);
        else if (get_res (S, name) == RES_GLOBAL_EXPLICIT)
          g_hash_table_remove (newbound, name);
      }
  if (S->kind == SCOPE_CLASS)
    g_hash_table_add (newbound, class_name);

  for (guint c = 0; c < S->children->len; c++)
    {
      Scope *C = S->children->pdata[c];
      if (!analyze (W, C, newbound))
        {
          g_hash_table_destroy (newbound);
          return FALSE;
        }
      for (guint i = 0; i < C->frees->len; i++)
        {
          FxStr *name = C->frees->pdata[i];
          if (S->kind == SCOPE_CLASS && name == class_name)
            S->needs_class_cell = TRUE;
          else if (S->kind == SCOPE_FUNCTION && has_res (S, name) && get_res (S, name) == RES_LOCAL)
            set_res (S, name, RES_CELL);
          else if (S->kind == SCOPE_FUNCTION && has_res (S, name) && get_res (S, name) == RES_CELL)
            ;
          else
            {
              if (!has_res (S, name))
                set_res (S, name, RES_FREE);
              add_free (S, name);
            }
        }
    }
  g_hash_table_destroy (newbound);
  return TRUE;
}

/* ------------------------------------------------------------------ pass 3: number */

static int
index_of (GPtrArray *a, FxStr *name)
{
  for (guint i = 0; i < a->len; i++)
    if (a->pdata[i] == name)
      return (int) i;
  return -1;
}

static void
number (Walker *W, Scope *S)
{
  ScCode *code = S->code;
  GHashTable *slots = g_hash_table_new (NULL, NULL);
  GPtrArray *locals = g_ptr_array_new ();
  int n_params = code->n_pos + code->n_kwonly + ((code->flags & SC_CODE_VARARGS) ? 1 : 0)
                 + ((code->flags & SC_CODE_VARKEYWORDS) ? 1 : 0);
  FxStr *class_name = sc_intern_cstr ("__class__");

  if (S->kind == SCOPE_FUNCTION)
    {
      for (int i = 0; i < n_params; i++)
        {
          g_hash_table_insert (slots, code->params[i].id, GINT_TO_POINTER (locals->len + 1));
          g_ptr_array_add (locals, code->params[i].id);
        }
      for (guint i = 0; i < S->order->len; i++)
        {
          FxStr *name = S->order->pdata[i];
          Res r = get_res (S, name);
          if (r == RES_CELL)
            g_ptr_array_add (S->cells, name);
          else if (r == RES_LOCAL && !g_hash_table_contains (slots, name))
            {
              g_hash_table_insert (slots, name, GINT_TO_POINTER (locals->len + 1));
              g_ptr_array_add (locals, name);
            }
        }
    }
  else if (S->kind == SCOPE_CLASS && S->needs_class_cell)
    {
      g_ptr_array_add (S->cells, class_name);
      code->class_cell = 0;
      code->flags |= SC_CODE_NEEDS_CLASS_CELL;
    }

  code->n_locals = locals->len;
  code->local_names = sc_new_n (code->unit, FxStr *, MAX (locals->len, 1));
  if (locals->len > 0)   /* an empty GPtrArray has no data (NULL) */
    memcpy (code->local_names, locals->pdata, sizeof (gpointer) * locals->len);
  code->n_cellvars = S->cells->len;
  code->n_freevars = S->frees->len;
  code->cell_names = sc_new_n (code->unit, FxStr *, MAX (S->cells->len + S->frees->len, 1));
  for (guint i = 0; i < S->cells->len; i++)
    code->cell_names[i] = S->cells->pdata[i];
  for (guint i = 0; i < S->frees->len; i++)
    code->cell_names[S->cells->len + i] = S->frees->pdata[i];
  if (n_params > 0)
    {
      code->param_cells = sc_new_n (code->unit, int, n_params);
      for (int i = 0; i < n_params; i++)
        code->param_cells[i] = S->kind == SCOPE_FUNCTION ? index_of (S->cells, code->params[i].id) : -1;
    }
  if (S->kind == SCOPE_FUNCTION)
    {
      int cf = index_of (S->frees, class_name);
      code->class_free = cf >= 0 ? (int) S->cells->len + cf : -1;
      if (code->n_pos > 0 || (code->flags & SC_CODE_VARARGS))
        {
          code->self_slot = 0;
          code->self_cell = code->param_cells ? code->param_cells[0] : -1;
        }
    }

  for (guint i = 0; i < S->refs->len; i++)
    {
      ScName *ref = S->refs->pdata[i];
      Res r = get_res (S, ref->id);
      if (S->kind == SCOPE_MODULE)
        {
          ref->scope = SC_SCOPE_GLOBAL;
          continue;
        }
      switch (r)
        {
        case RES_GLOBAL_EXPLICIT:
          ref->scope = SC_SCOPE_GLOBAL;
          break;
        case RES_GLOBAL_IMPLICIT:
          ref->scope = S->kind == SCOPE_CLASS ? SC_SCOPE_NAME : SC_SCOPE_GLOBAL;
          break;
        case RES_LOCAL:
          if (S->kind == SCOPE_CLASS)
            ref->scope = SC_SCOPE_NAME;
          else
            {
              ref->scope = SC_SCOPE_LOCAL;
              ref->index = GPOINTER_TO_INT (g_hash_table_lookup (slots, ref->id)) - 1;
            }
          break;
        case RES_CELL:
          ref->scope = SC_SCOPE_CELL;
          ref->index = index_of (S->cells, ref->id);
          break;
        case RES_FREE:
          {
            guint f = get_flags (S, ref->id);
            ref->index = (int) S->cells->len + index_of (S->frees, ref->id);
            if (S->kind == SCOPE_CLASS)
              ref->scope = (f & SYM_ASSIGNED) && !(f & SYM_NONLOCAL) ? SC_SCOPE_NAME
                           : (f & SYM_NONLOCAL) ? SC_SCOPE_CELL : SC_SCOPE_CLASS_CELL;
            else
              ref->scope = SC_SCOPE_CELL;
            break;
          }
        }
    }

  /* where each child's free variables come from in this scope's cells */
  for (guint c = 0; c < S->children->len; c++)
    {
      Scope *C = S->children->pdata[c];
      ScCode *cc = C->code;
      number (W, C);
      if (C->frees->len == 0)
        continue;
      cc->free_from = sc_new_n (code->unit, int, C->frees->len);
      for (guint i = 0; i < C->frees->len; i++)
        {
          FxStr *name = C->frees->pdata[i];
          int k = index_of (S->cells, name);
          if (k < 0)
            {
              k = index_of (S->frees, name);
              k = k >= 0 ? (int) S->cells->len + k : -1;
            }
          cc->free_from[i] = k;
        }
    }
  g_hash_table_destroy (slots);
  g_ptr_array_free (locals, TRUE);
}

gboolean
sc_scope_analyze (ScUnit *unit, ScSyntaxError *err)
{
  Walker W = { 0 };
  Scope *M;
  gboolean ok;

  W.err = err;
  W.all = g_ptr_array_new_with_free_func ((GDestroyNotify) scope_free);
  M = scope_new (&W, NULL, unit->module, SCOPE_MODULE);
  visit_block (&W, M, &unit->module->body);
  ok = !W.failed && analyze (&W, M, NULL);
  if (ok)
    number (&W, M);
  g_ptr_array_free (W.all, TRUE);
  return ok;
}
