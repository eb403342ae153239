/* ast.h: the syntax tree of the Python subset — expressions, statements and function
 * "code" — with CPython's positions on every node and, after scope analysis (scope.c), every
 * name resolved to a local slot, a cell, the class namespace or the globals. */
#pragma once

#include <glib.h>
#include "ir/value.h"

G_BEGIN_DECLS

typedef struct _ScUnit ScUnit;
typedef struct _ScExpr ScExpr;
typedef struct _ScStmt ScStmt;
typedef struct _ScCode ScCode;

/* 1-based lines, 0-based UTF-8 byte columns; end_col is exclusive (as in CPython's ast). */
typedef struct {
  int line, col, end_line, end_col;
} ScPos;

typedef enum {
  SC_BIN_ADD, SC_BIN_SUB, SC_BIN_MUL, SC_BIN_DIV, SC_BIN_FLOORDIV, SC_BIN_MOD, SC_BIN_POW,
  SC_BIN_LSHIFT, SC_BIN_RSHIFT, SC_BIN_AND, SC_BIN_OR, SC_BIN_XOR, SC_BIN_MATMUL,
  SC_BIN_N
} ScBinOp;

typedef enum { SC_UNARY_NEG, SC_UNARY_POS, SC_UNARY_INVERT, SC_UNARY_NOT } ScUnaryOp;

typedef enum {
  SC_CMP_LT, SC_CMP_LE, SC_CMP_EQ, SC_CMP_NE, SC_CMP_GT, SC_CMP_GE,
  SC_CMP_IS, SC_CMP_IS_NOT, SC_CMP_IN, SC_CMP_NOT_IN
} ScCmpOp;

/* Where a name lives once resolved. */
typedef enum {
  SC_SCOPE_UNRESOLVED,
  SC_SCOPE_LOCAL,        /* frame slot `index` */
  SC_SCOPE_CELL,         /* frame cell `index` (own cellvars first, then free vars) */
  SC_SCOPE_GLOBAL,       /* module globals, then builtins */
  SC_SCOPE_NAME,         /* class body: namespace, then globals, then builtins */
  SC_SCOPE_CLASS_CELL,   /* class body: namespace, then cell `index` */
} ScScope;

typedef struct {
  FxStr *id;             /* interned */
  ScScope scope;
  int index;
} ScName;

typedef enum {
  SC_E_CONST, SC_E_NAME, SC_E_BINOP, SC_E_UNARY, SC_E_BOOLOP, SC_E_COMPARE, SC_E_CALL,
  SC_E_ATTR, SC_E_SUBSCRIPT, SC_E_SLICE, SC_E_TUPLE, SC_E_LIST, SC_E_SET, SC_E_DICT,
  SC_E_STARRED, SC_E_IFEXP, SC_E_LAMBDA, SC_E_LISTCOMP, SC_E_SETCOMP, SC_E_DICTCOMP,
  SC_E_GENEXP, SC_E_FSTRING, SC_E_FORMATTED, SC_E_YIELD, SC_E_YIELD_FROM, SC_E_NAMED,
  SC_E_UNSUPPORTED,
} ScExprKind;

typedef struct {
  FxStr *name;           /* NULL for **mapping */
  ScExpr *value;
  ScPos pos;
} ScKeyword;

typedef struct {
  ScExpr *target;
  ScExpr *iter;
  ScExpr **ifs;
  int n_ifs;
} ScComprehension;

struct _ScExpr {
  ScExprKind kind;
  ScPos pos;
  gboolean parenthesized;
  ScPos group;           /* parenthesized: the span with its brackets (parents start there) */
  union {
    FxValue constant;
    ScName name;
    struct { ScExpr *left, *right; ScBinOp op; } binop;
    struct { ScExpr *operand; ScUnaryOp op; } unary;
    struct { ScExpr **values; int n; gboolean is_and; } boolop;
    struct { ScExpr *left; ScCmpOp *ops; ScExpr **comparators; int n; } compare;
    struct {
      ScExpr *func;
      ScExpr **args; int n_args;          /* may contain SC_E_STARRED */
      ScKeyword *kws; int n_kws;          /* name NULL: **mapping */
      gboolean simple;                    /* no *args / **kwargs */
      FxStr **kwnames;                    /* simple calls: the keyword names, in order */
    } call;
    struct { ScExpr *value; FxStr *attr; } attr;
    struct { ScExpr *value, *index; } subscript;
    struct { ScExpr *lower, *upper, *step; } slice;
    struct { ScExpr **items; int n; gboolean has_star; } seq;     /* tuple, list, set */
    struct { ScExpr **keys, **values; int n; } dict;               /* key NULL: **value */
    struct { ScExpr *value; } starred;
    struct { ScExpr *test, *body, *orelse; } ifexp;
    struct { ScCode *code; } lambda;
    struct {
      ScCode *code;                       /* the comprehension's own scope */
      ScExpr *elt, *value;                /* value: dict comprehensions */
      ScComprehension *gens;
      int n_gens;
    } comp;
    struct { ScExpr **parts; int n; } fstring;
    struct { ScExpr *value; int conversion; ScExpr *spec; } formatted;  /* conversion: 0 r s a */
    struct { ScExpr *value; } yield;
    struct { ScExpr *target, *value; } named;
    struct { const char *what; } unsupported;
  };
};

typedef enum {
  SC_S_EXPR, SC_S_ASSIGN, SC_S_AUGASSIGN, SC_S_ANNASSIGN, SC_S_RETURN, SC_S_PASS, SC_S_BREAK,
  SC_S_CONTINUE, SC_S_IF, SC_S_WHILE, SC_S_FOR, SC_S_DEF, SC_S_CLASS, SC_S_RAISE, SC_S_TRY,
  SC_S_WITH, SC_S_ASSERT, SC_S_DEL, SC_S_GLOBAL, SC_S_NONLOCAL, SC_S_IMPORT, SC_S_IMPORT_FROM,
} ScStmtKind;

typedef struct {
  ScStmt **items;
  int n;
} ScBlock;

typedef struct {
  ScExpr *type;          /* NULL: bare except */
  ScName name;           /* id NULL when there is no `as` */
  ScBlock body;
  ScPos pos;
} ScHandler;

typedef struct {
  ScExpr *context;
  ScExpr *target;        /* may be NULL */
} ScWithItem;

typedef struct {
  FxStr *module;         /* dotted name (import) or NULL (from . import x) */
  FxStr *name;           /* import-from: the imported name ("*" for star) */
  ScName asname;         /* the bound name */
  ScPos pos;
} ScAlias;

struct _ScStmt {
  ScStmtKind kind;
  ScPos pos;
  union {
    struct { ScExpr *value; } expr;
    struct { ScExpr **targets; int n_targets; ScExpr *value; } assign;
    struct { ScExpr *target; ScBinOp op; ScExpr *value; } augassign;
    struct { ScExpr *target, *annotation, *value; gboolean simple; } annassign;
    struct { ScExpr *value; } ret;
    struct { ScExpr *test; ScBlock body, orelse; } if_;
    struct { ScExpr *test; ScBlock body, orelse; } while_;
    struct { ScExpr *target, *iter; ScBlock body, orelse; } for_;
    struct { ScCode *code; ScName name; } def;
    struct {
      ScCode *code;       /* the class body */
      ScName name;
      ScExpr **bases; int n_bases;
      ScKeyword *kws; int n_kws;
    } class_;
    struct { ScExpr *exc, *cause; } raise;
    struct { ScBlock body; ScHandler *handlers; int n_handlers; ScBlock orelse, finalbody; } try_;
    struct { ScWithItem *items; int n_items; ScBlock body; } with;
    struct { ScExpr *test, *msg; } assert_;
    struct { ScExpr **targets; int n_targets; } del;
    struct { FxStr **names; int n; } global;
    struct { ScAlias *names; int n; int level; FxStr *module; } import;  /* module: from X */
  };
};

typedef enum {
  SC_CODE_MODULE = 1 << 0,
  SC_CODE_CLASS = 1 << 1,
  SC_CODE_FUNCTION = 1 << 2,
  SC_CODE_LAMBDA = 1 << 3,
  SC_CODE_COMPREHENSION = 1 << 4,
  SC_CODE_GENERATOR = 1 << 5,      /* contains yield */
  SC_CODE_VARARGS = 1 << 6,
  SC_CODE_VARKEYWORDS = 1 << 7,
  SC_CODE_NEEDS_CLASS_CELL = 1 << 8, /* class body whose methods use super()/__class__ */
  SC_CODE_GENEXP = 1 << 9,
} ScCodeFlags;

/* A function body (def, lambda, comprehension), a class body or a module: CPython's code
 * object. Slots: arguments first (positional, keyword-only, *args, **kwargs), then other
 * locals. Cells: own cellvars first, then free variables of enclosing scopes. */
struct _ScCode {
  ScUnit *unit;          /* not owned (the unit owns its codes) */
  ScCodeFlags flags;
  FxStr *name, *qualname;
  ScPos pos;
  /* parameters */
  int n_posonly, n_pos, n_kwonly;          /* n_pos includes n_posonly */
  ScName *params;                          /* n_pos + n_kwonly (+1 *args) (+1 **kwargs) */
  ScExpr **defaults; int n_defaults;       /* for the last n_defaults positionals */
  ScExpr **kw_defaults;                    /* n_kwonly, NULL when required */
  ScExpr **annotations;                    /* per param, may be NULL */
  ScExpr *returns;
  ScExpr **decorators; int n_decorators;
  /* body */
  ScBlock body;
  ScExpr *lambda_body;                     /* lambdas and comprehension element */
  FxStr *docstring;
  /* scope analysis */
  int n_locals;
  FxStr **local_names;
  int n_cellvars, n_freevars;
  FxStr **cell_names;                      /* cellvars then freevars */
  int *param_cells;                        /* per param: cell index or -1 */
  int class_cell;                          /* class bodies: cell index of __class__, or -1 */
  int *free_from;                          /* per free var: where the enclosing frame has it */
  gboolean *free_from_cell;                /* enclosing: TRUE cell index, FALSE own... */
  int self_slot;                           /* first parameter slot for super(), or -1 */
  int self_cell;                           /* cell of the first parameter, or -1 */
  int class_free;                          /* index of __class__ free var, or -1 */
};

/* A parsed file: the arena owning its nodes, the source (for tracebacks) and its codes. */
struct _ScUnit {
  gatomicrefcount ref;
  char *filename;
  char *source;
  gsize source_len;
  GPtrArray *line_starts;                 /* byte offsets, as GSIZE_TO_POINTER */
  ScCode *module;
  GPtrArray *values;                      /* owned constant strings (FxStr *) */
  GSList *chunks;                         /* arena */
  gsize chunk_used, chunk_size;
  gboolean future_annotations;            /* from __future__ import annotations */
};

ScUnit *sc_unit_new (const char *filename, const char *source, gsize len);
ScUnit *sc_unit_ref (ScUnit *unit);
void    sc_unit_unref (ScUnit *unit);
gpointer sc_unit_alloc (ScUnit *unit, gsize size);   /* zeroed, lives as long as the unit */
/* The text of a line (1-based) without its newline; NULL if out of range. g_free. */
char   *sc_unit_line (ScUnit *unit, int line);

#define sc_new(unit, T) ((T *) sc_unit_alloc ((unit), sizeof (T)))
#define sc_new_n(unit, T, n) ((T *) sc_unit_alloc ((unit), sizeof (T) * (gsize) (n)))

G_END_DECLS
