/* mod.h: what the native standard-library modules (modules.c, mod-*.c) share: argument
 * helpers and the registration functions of each file. Private to those files. */
#pragma once

#include "script/internal.h"

G_BEGIN_DECLS

#define SC_NATIVE_ARGS FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, \
  FxValue *result, gpointer data

/* "f() takes no keyword arguments" / positional count checks with CPython's wording. */
gboolean sc_mod_no_kwargs   (FxScript *S, const char *fname, FxDict *kwargs);
gboolean sc_mod_nargs       (FxScript *S, const char *fname, int n_args, FxDict *kwargs,
                             int min, int max);
/* float(v) for math functions: "must be real number, not str" */
gboolean sc_mod_to_double   (FxScript *S, const FxValue *v, double *out);
/* an integer through __index__: "'float' object cannot be interpreted as an integer" */
gboolean sc_mod_to_index    (FxScript *S, const FxValue *v, int64_t *out);
void     sc_mod_set_fn      (FxScriptModule *m, const char *module, const char *name,
                             FxScriptFunc func, gpointer user_data);
/* A new tuple from n values (copied). */
FxValue  sc_mod_tuple       (const FxValue *items, int n);

void sc_mod_math_register        (FxScript *S);
void sc_mod_operator_register    (FxScript *S);
void sc_mod_typing_register      (FxScript *S);
void sc_mod_misc_register        (FxScript *S);   /* time, os, string, numbers, abc, sys-free */
void sc_mod_copy_register        (FxScript *S);
void sc_mod_warnings_register    (FxScript *S);
void sc_mod_random_register      (FxScript *S);
void sc_mod_collections_register (FxScript *S);
void sc_mod_functools_register   (FxScript *S);
void sc_mod_itertools_register   (FxScript *S);
void sc_mod_dataclasses_register (FxScript *S);

G_END_DECLS
