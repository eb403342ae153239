/* parser.h: compiles Python source into a resolved syntax tree (parse + scope analysis), or
 * reports a SyntaxError with CPython's message and position. */
#pragma once

#include "script/ast.h"

G_BEGIN_DECLS

typedef struct {
  const char *cls;     /* "SyntaxError", "IndentationError", "TabError", "RecursionError" */
  char *msg;
  int line, col;       /* 1-based line, 0-based byte column */
  int end_line, end_col;   /* end_col -1: unknown (CPython prints one caret) */
} ScSyntaxError;

/* Parses and resolves a whole file. NULL with *err filled on failure. */
ScUnit *sc_compile (const char *filename, const char *src, gsize len, ScSyntaxError *err);
void    sc_syntax_error_clear (ScSyntaxError *err);

/* Scope analysis of a parsed unit (scope.c): every name gets its slot, cell or dict. */
gboolean sc_scope_analyze (ScUnit *unit, ScSyntaxError *err);

/* Interned strings: one FxStr per distinct name for the life of the process, so that
 * names compare by pointer. The returned reference is borrowed. */
FxStr *sc_intern (const char *s, gsize len);
FxStr *sc_intern_cstr (const char *s);

G_END_DECLS
