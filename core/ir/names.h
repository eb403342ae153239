/* names.h: FxNamespace — unique Python identifiers for nodes and globals, assigned exactly as
 * torch.fx 1.13 assigns them (sanitising, `_N` suffixes, no keywords or builtins), in time
 * linear in the number of names. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _FxNamespace FxNamespace;

FxNamespace *fx_namespace_new  (void);
/* Makes room for n more names at once (codegen knows how many it makes). */
void         fx_namespace_reserve (FxNamespace *ns, guint n);
void         fx_namespace_free (FxNamespace *ns);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxNamespace, fx_namespace_free)

/* A unique legal identifier derived from candidate, associated with obj (when not NULL; the
 * same obj always gets the same name). builtin_name says which Python builtin (or FX custom
 * builtin: torch, inf, nan, ...) obj itself is, so that it may keep that name; NULL for
 * anything else. The string belongs to the namespace. */
const char  *fx_namespace_create_name (FxNamespace *ns, const char *candidate, gconstpointer obj,
                                       const char *builtin_name);
/* fx_namespace_create_name (ns, name, obj, NULL) (obj not NULL) for a name that a namespace
 * gave (a node's): its cleaning and legality are not checked again. */
const char  *fx_namespace_create_name_of_named (FxNamespace *ns, const char *name,
                                                gconstpointer obj);
/* create_name for an obj that is new (a stale entry for a freed object at the same address
 * is replaced, not returned): one pass instead of create_name (NULL) + associate. */
const char  *fx_namespace_create_fresh_name (FxNamespace *ns, const char *candidate,
                                             gconstpointer obj);
/* The name already given to obj, or NULL. */
const char  *fx_namespace_lookup      (FxNamespace *ns, gconstpointer obj);
/* Associates a name created with obj == NULL to obj afterwards. */
void         fx_namespace_associate   (FxNamespace *ns, const char *name, gconstpointer obj);
gboolean     fx_namespace_is_used     (FxNamespace *ns, const char *name);

/* torch.fx's _snake_case: "pascalCase" → "pascal_case", "ALL_CAPS" → "all_caps". g_free. */
char        *fx_snake_case            (const char *s);
/* The same of s's first len bytes into buf (size bytes) when it fits — the result is buf —
 * else into a new string (g_free). */
char        *fx_snake_case_buf        (const char *s, gsize len, char *buf, gsize size);
/* Python keyword or name of the builtins module. */
gboolean     fx_is_python_keyword     (const char *name);
gboolean     fx_is_python_builtin     (const char *name);
/* str.isidentifier() for ASCII identifiers. */
gboolean     fx_is_identifier         (const char *s);

G_END_DECLS
