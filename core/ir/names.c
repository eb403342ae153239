/* names.c: FxNamespace. torch.fx probes `base_1`, `base_2`, ... from the start on every
 * clash, which is quadratic in the number of same-based names; names are never released,
 * so we remember per base how far the run of taken suffixes reaches and start there. */
#include "ir/names.h"
#include "ir/python-names.h"

#include <string.h>

struct _FxNamespace {
  GHashTable *used;          /* name → name (owned) */
  GHashTable *obj_to_name;   /* obj → name (borrowed from used) */
  GHashTable *watermark;     /* base (owned) → GINT_TO_POINTER (w): base_1..base_w are taken */
};

/* FX's own reserved globals (graph.py's _custom_builtins). */
static const char *const custom_builtins[] = {
  "inf", "nan", "NoneType", "torch", "device", "fx_pytree", "pytree",
};

static gboolean
in_sorted_list (const char *const *list, gsize n, const char *name)
{
  for (gsize i = 0; i < n; i++)
    if (strcmp (list[i], name) == 0)
      return TRUE;
  return FALSE;
}

gboolean
fx_is_python_keyword (const char *name)
{
  return in_sorted_list (python_keywords, G_N_ELEMENTS (python_keywords), name);
}

gboolean
fx_is_python_builtin (const char *name)
{
  static GHashTable *set;
  static gsize init;

  if (g_once_init_enter (&init))
    {
      set = g_hash_table_new (g_str_hash, g_str_equal);
      for (gsize i = 0; i < G_N_ELEMENTS (python_builtins); i++)
        g_hash_table_add (set, (gpointer) python_builtins[i]);
      g_once_init_leave (&init, 1);
    }
  return g_hash_table_contains (set, name);
}

gboolean
fx_is_identifier (const char *s)
{
  if (s == NULL || *s == '\0' || g_ascii_isdigit (*s))
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isalnum (*s) && *s != '_' && !((guchar) *s & 0x80))
      return FALSE;
  return TRUE;
}

char *
fx_snake_case (const char *s)
{
  GString *out = g_string_new (NULL);
  gboolean prev_lower = FALSE;

  for (; *s; s++)
    {
      if (prev_lower && g_ascii_isupper (*s))
        g_string_append_c (out, '_');
      g_string_append_c (out, g_ascii_tolower (*s));
      prev_lower = g_ascii_islower (*s);
    }
  return g_string_free (out, FALSE);
}

FxNamespace *
fx_namespace_new (void)
{
  FxNamespace *ns = g_new0 (FxNamespace, 1);

  ns->used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  ns->obj_to_name = g_hash_table_new (g_direct_hash, g_direct_equal);
  ns->watermark = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return ns;
}

void
fx_namespace_free (FxNamespace *ns)
{
  if (ns == NULL)
    return;
  g_hash_table_unref (ns->obj_to_name);
  g_hash_table_unref (ns->used);
  g_hash_table_unref (ns->watermark);
  g_free (ns);
}

static gboolean
is_illegal (const char *name, const char *builtin_name)
{
  if (fx_is_python_keyword (name))
    return TRUE;
  if (fx_is_python_builtin (name)
      || in_sorted_list (custom_builtins, G_N_ELEMENTS (custom_builtins), name))
    return builtin_name == NULL || strcmp (builtin_name, name) != 0;
  return FALSE;
}

/* Replaces each run of characters outside [0-9a-zA-Z_] by one '_', and prefixes '_' to a
 * leading digit (torch.fx's _illegal_char_regex and digit rule). */
static char *
sanitize (const char *candidate)
{
  GString *out = g_string_new (NULL);
  gboolean in_bad_run = FALSE;

  for (const char *p = candidate; *p; p++)
    {
      if (g_ascii_isalnum (*p) || *p == '_')
        {
          g_string_append_c (out, *p);
          in_bad_run = FALSE;
        }
      else if (!in_bad_run)
        {
          g_string_append_c (out, '_');
          in_bad_run = TRUE;
        }
    }
  if (out->len > 0 && g_ascii_isdigit (out->str[0]))
    g_string_prepend_c (out, '_');
  /* torch.fx indexes candidate[0]; an empty candidate would raise there. We name it '_'. */
  if (out->len == 0)
    g_string_append_c (out, '_');
  return g_string_free (out, FALSE);
}

/* Splits "name_12" into base "name" and 12 (the regex (.*)_(\d+)$). */
static gboolean
split_suffix (const char *s, char **base, guint64 *num)
{
  gsize len = strlen (s);
  gsize i = len;

  while (i > 0 && g_ascii_isdigit (s[i - 1]))
    i--;
  if (i == len || i == 0 || s[i - 1] != '_' || len - i > 18)
    return FALSE;
  *num = g_ascii_strtoull (s + i, NULL, 10);
  *base = g_strndup (s, i - 1);
  return TRUE;
}

static const char *
take_name (FxNamespace *ns, char *name, gconstpointer obj)
{
  g_hash_table_insert (ns->used, name, name);
  if (obj != NULL)
    g_hash_table_insert (ns->obj_to_name, (gpointer) obj, name);
  return name;
}

const char *
fx_namespace_create_name (FxNamespace *ns, const char *candidate, gconstpointer obj,
                          const char *builtin_name)
{
  g_autofree char *clean = NULL;
  g_autofree char *base = NULL;
  char *name;
  guint64 num = 0;
  gboolean has_num;
  gpointer mark;
  guint64 w;

  if (obj != NULL)
    {
      const char *existing = g_hash_table_lookup (ns->obj_to_name, obj);
      if (existing != NULL)
        return existing;
    }

  clean = sanitize (candidate);
  has_num = split_suffix (clean, &base, &num);
  if (!has_num)
    base = g_strdup (clean);

  name = has_num ? g_strdup_printf ("%s_%" G_GUINT64_FORMAT, base, num) : g_strdup (base);
  if (!g_hash_table_contains (ns->used, name) && !is_illegal (name, builtin_name))
    return take_name (ns, name, obj);
  g_free (name);

  /* Suffixes 1..w of this base are all taken; skip them, extending w while it grows. */
  if (!g_hash_table_lookup_extended (ns->watermark, base, NULL, &mark))
    mark = GINT_TO_POINTER (0);
  w = (guint64) GPOINTER_TO_SIZE (mark);
  for (;;)
    {
      g_autofree char *probe = g_strdup_printf ("%s_%" G_GUINT64_FORMAT, base, w + 1);
      if (!g_hash_table_contains (ns->used, probe))
        break;
      w++;
    }
  g_hash_table_replace (ns->watermark, g_strdup (base), GSIZE_TO_POINTER ((gsize) w));

  if (num < w)
    num = w;
  for (;;)
    {
      num++;
      name = g_strdup_printf ("%s_%" G_GUINT64_FORMAT, base, num);
      if (!g_hash_table_contains (ns->used, name) && !is_illegal (name, builtin_name))
        break;
      g_free (name);
    }
  return take_name (ns, name, obj);
}

const char *
fx_namespace_lookup (FxNamespace *ns, gconstpointer obj)
{
  return g_hash_table_lookup (ns->obj_to_name, obj);
}

void
fx_namespace_associate (FxNamespace *ns, const char *name, gconstpointer obj)
{
  const char *owned = g_hash_table_lookup (ns->used, name);

  g_return_if_fail (owned != NULL);
  g_hash_table_insert (ns->obj_to_name, (gpointer) obj, (gpointer) owned);
}

gboolean
fx_namespace_is_used (FxNamespace *ns, const char *name)
{
  return g_hash_table_contains (ns->used, name);
}
