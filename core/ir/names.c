/* names.c: FxNamespace. torch.fx probes `base_1`, `base_2`, ... from the start on every
 * clash, which is quadratic in the number of same-based names; names are never released,
 * so we remember per base how far the run of taken suffixes reaches and start there. */
#include "ir/names.h"
#include "ir/python-names.h"
#include "ir/value.h"

#include <string.h>

/* The set of used names: open addressing over (name, hash) pairs, so that growing it
 * never hashes a name again (every node of a trace and of every codegen adds one). */
typedef struct {
  char **names;              /* in the namespace's blocks; NULL: empty slot */
  guint *hashes;
  guint size;                /* power of two, or 0 */
  guint count;
} NameSet;

/* Names are never released one by one: they are stored in blocks that go with the
 * namespace (one allocation for dozens of names instead of one each). */
typedef struct NameBlock {
  struct NameBlock *next;
  gsize used, size;
  char data[];
} NameBlock;

struct _FxNamespace {
  NameBlock *blocks;         /* the newest first */
  NameSet used;
  FxPtrMap obj_to_name;      /* obj → name (borrowed from used) */
  GHashTable *watermark;     /* base (owned) → guint64 w (owned): base_1..base_w are taken */
};

/* FX's own reserved globals (graph.py's _custom_builtins). */
static const char *const custom_builtins[] = {
  "inf", "nan", "NoneType", "torch", "device", "fx_pytree", "pytree",
};

/* What a name is to Python and FX, as bits: one table for every check of a candidate. */
enum { RESERVED_KEYWORD = 1, RESERVED_BUILTIN = 2, RESERVED_CUSTOM = 4 };

static int
reserved_kind (const char *name)
{
  static GHashTable *kinds;
  /* which (first byte, length) pairs reserved names have: most names are none of them */
  static guint32 shapes[256];
  static gsize init;
  gsize len;

  if (g_once_init_enter (&init))
    {
      static const struct { const char *const *names; gsize n; int bit; } sets[] = {
        { python_keywords, G_N_ELEMENTS (python_keywords), RESERVED_KEYWORD },
        { python_builtins, G_N_ELEMENTS (python_builtins), RESERVED_BUILTIN },
        { custom_builtins, G_N_ELEMENTS (custom_builtins), RESERVED_CUSTOM },
      };
      kinds = g_hash_table_new (g_str_hash, g_str_equal);
      for (gsize s = 0; s < G_N_ELEMENTS (sets); s++)
        for (gsize i = 0; i < sets[s].n; i++)
          {
            int k = GPOINTER_TO_INT (g_hash_table_lookup (kinds, sets[s].names[i]));
            g_hash_table_insert (kinds, (gpointer) sets[s].names[i],
                                 GINT_TO_POINTER (k | sets[s].bit));
            shapes[(guchar) sets[s].names[i][0]] |= 1u << MIN (strlen (sets[s].names[i]), 31);
          }
      g_once_init_leave (&init, 1);
    }
  len = strlen (name);
  if ((shapes[(guchar) name[0]] & (1u << MIN (len, 31))) == 0)
    return 0;
  return GPOINTER_TO_INT (g_hash_table_lookup (kinds, name));
}

gboolean
fx_is_python_keyword (const char *name)
{
  return (reserved_kind (name) & RESERVED_KEYWORD) != 0;
}

gboolean
fx_is_python_builtin (const char *name)
{
  return (reserved_kind (name) & RESERVED_BUILTIN) != 0;
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
fx_snake_case_buf (const char *s, gsize len, char *buf, gsize size)
{
  /* at most one '_' per character */
  char *out = 2 * len + 1 <= size ? buf : g_malloc (2 * len + 1), *o = out;
  gboolean prev_lower = FALSE;

  for (const char *end = s + len; s < end; s++)
    {
      if (prev_lower && g_ascii_isupper (*s))
        *o++ = '_';
      *o++ = g_ascii_tolower (*s);
      prev_lower = g_ascii_islower (*s);
    }
  *o = '\0';
  return out;
}

char *
fx_snake_case (const char *s)
{
  return fx_snake_case_buf (s, strlen (s), NULL, 0);
}

static guint
name_hash (const char *name)
{
  guint32 h = 2166136261u;   /* FNV-1a */
  for (; *name; name++)
    h = (h ^ (guchar) *name) * 16777619u;
  return h;
}

/* The stored name equal to name (hash: its name_hash), or NULL. */
static const char *
name_set_lookup (const NameSet *set, const char *name, guint hash)
{
  if (set->size == 0)
    return NULL;
  for (guint mask = set->size - 1, i = hash & mask;; i = (i + 1) & mask)
    {
      if (set->names[i] == NULL)
        return NULL;
      if (set->hashes[i] == hash && strcmp (set->names[i], name) == 0)
        return set->names[i];
    }
}

static void
name_set_place (NameSet *set, char *name, guint hash)
{
  guint mask = set->size - 1, i = hash & mask;
  while (set->names[i] != NULL)
    i = (i + 1) & mask;
  set->names[i] = name;
  set->hashes[i] = hash;
}

/* Rehashes set into size slots (a power of two, more than twice its names). */
static void
name_set_resize (NameSet *set, guint size)
{
  NameSet grown = { NULL, NULL, size, set->count };
  grown.names = g_new0 (char *, grown.size);
  grown.hashes = g_new (guint, grown.size);
  for (guint i = 0; i < set->size; i++)
    if (set->names[i] != NULL)
      name_set_place (&grown, set->names[i], set->hashes[i]);
  g_free (set->names);
  g_free (set->hashes);
  *set = grown;
}

/* Adds name (borrowed from the blocks; not in the set yet). */
static void
name_set_add (NameSet *set, char *name, guint hash)
{
  if (2 * (set->count + 1) > set->size)
    name_set_resize (set, set->size ? set->size * 2 : 64);
  name_set_place (set, name, hash);
  set->count++;
}

static void
name_set_clear (NameSet *set)
{
  g_free (set->names);
  g_free (set->hashes);
}

/* A copy of s's first len bytes (and a NUL) in ns's blocks. */
static char *
store_name (FxNamespace *ns, const char *s, gsize len)
{
  NameBlock *b = ns->blocks;
  char *out;

  if (b == NULL || b->size - b->used < len + 1)
    {
      gsize size = MAX (2048, len + 1);
      b = g_malloc (sizeof (NameBlock) + size);
      b->next = ns->blocks;
      b->used = 0;
      b->size = size;
      ns->blocks = b;
    }
  out = b->data + b->used;
  memcpy (out, s, len);
  out[len] = '\0';
  b->used += len + 1;
  return out;
}

/* Writes "_N" and a NUL at dst (room for 22 bytes). */
static void
format_suffix (char *dst, guint64 n)
{
  char digits[20];
  int k = 0;
  do
    {
      digits[k++] = (char) ('0' + n % 10);
      n /= 10;
    }
  while (n > 0);
  *dst++ = '_';
  while (k > 0)
    *dst++ = digits[--k];
  *dst = '\0';
}

static gboolean
name_used (FxNamespace *ns, const char *name)
{
  return name_set_lookup (&ns->used, name, name_hash (name)) != NULL;
}

FxNamespace *
fx_namespace_new (void)
{
  FxNamespace *ns = g_new0 (FxNamespace, 1);

  ns->watermark = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return ns;
}

void
fx_namespace_reserve (FxNamespace *ns, guint n)
{
  guint size = 64;
  while (size < 2 * (ns->used.count + n) + 2)
    size *= 2;
  if (size > ns->used.size)
    name_set_resize (&ns->used, size);
  fx_ptr_map_reserve (&ns->obj_to_name, ns->obj_to_name.count + n);
}

void
fx_namespace_free (FxNamespace *ns)
{
  if (ns == NULL)
    return;
  fx_ptr_map_clear (&ns->obj_to_name);
  name_set_clear (&ns->used);
  while (ns->blocks != NULL)
    {
      NameBlock *next = ns->blocks->next;
      g_free (ns->blocks);
      ns->blocks = next;
    }
  g_hash_table_unref (ns->watermark);
  g_free (ns);
}

static gboolean
is_illegal (const char *name, const char *builtin_name)
{
  int k = reserved_kind (name);
  if (k & RESERVED_KEYWORD)
    return TRUE;
  if (k & (RESERVED_BUILTIN | RESERVED_CUSTOM))
    return builtin_name == NULL || strcmp (builtin_name, name) != 0;
  return FALSE;
}

/* Replaces each run of characters outside [0-9a-zA-Z_] by one '_', and prefixes '_' to a
 * leading digit (torch.fx's _illegal_char_regex and digit rule). */
static char *
sanitize (const char *candidate)
{
  gsize len = strlen (candidate);
  char *out = g_malloc (len + 2), *o = out;
  gboolean in_bad_run = FALSE;

  if (g_ascii_isdigit (*candidate))
    *o++ = '_';
  for (const char *p = candidate; *p; p++)
    {
      if (g_ascii_isalnum (*p) || *p == '_')
        {
          *o++ = *p;
          in_bad_run = FALSE;
        }
      else if (!in_bad_run)
        {
          *o++ = '_';
          in_bad_run = TRUE;
        }
    }
  /* torch.fx indexes candidate[0]; an empty candidate would raise there. We name it '_'. */
  if (o == out)
    *o++ = '_';
  *o = '\0';
  return out;
}

/* sanitize() would give candidate back unchanged. */
static gboolean
is_clean (const char *candidate)
{
  if (*candidate == '\0' || g_ascii_isdigit (*candidate))
    return FALSE;
  for (const char *p = candidate; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      return FALSE;
  return TRUE;
}

/* Splits "name_12" into the base's length and 12 (the regex (.*)_(\d+)$); *same says that
 * "name_12" printed back is s itself (no leading zeros). */
static gboolean
split_suffix (const char *s, gsize *base_len, guint64 *num, gboolean *same)
{
  gsize len = strlen (s);
  gsize i = len;

  while (i > 0 && g_ascii_isdigit (s[i - 1]))
    i--;
  if (i == len || i == 0 || s[i - 1] != '_' || len - i > 18)
    return FALSE;
  *num = g_ascii_strtoull (s + i, NULL, 10);
  *base_len = i - 1;
  *same = s[i] != '0' || len - i == 1;
  return TRUE;
}

/* Adds a copy of name (hash: its name_hash) to the used names, as obj's when obj is given. */
static const char *
take_name_hashed (FxNamespace *ns, const char *name, guint hash, gconstpointer obj)
{
  char *stored = store_name (ns, name, strlen (name));
  name_set_add (&ns->used, stored, hash);
  if (obj != NULL)
    fx_ptr_map_insert (&ns->obj_to_name, obj, stored);
  return stored;
}

static const char *
take_name (FxNamespace *ns, const char *name, gconstpointer obj)
{
  return take_name_hashed (ns, name, name_hash (name), obj);
}

static const char *create_name (FxNamespace *ns, const char *candidate, gconstpointer obj,
                                const char *builtin_name);

const char *
fx_namespace_create_name (FxNamespace *ns, const char *candidate, gconstpointer obj,
                          const char *builtin_name)
{
  if (obj != NULL)
    {
      const char *existing = fx_ptr_map_lookup (&ns->obj_to_name, obj);
      if (existing != NULL)
        return existing;
    }
  return create_name (ns, candidate, obj, builtin_name);
}

const char *
fx_namespace_create_name_of_named (FxNamespace *ns, const char *name, gconstpointer obj)
{
  const char *existing = fx_ptr_map_lookup (&ns->obj_to_name, obj);
  guint hash;

  if (existing != NULL)
    return existing;
  /* what create_name would check first is known of a name a namespace gave: clean, with a
   * canonical suffix, and legal (no builtin name allowed) */
  hash = name_hash (name);
  if (name_set_lookup (&ns->used, name, hash) == NULL)
    return take_name_hashed (ns, name, hash, obj);
  return create_name (ns, name, obj, NULL);
}

const char *
fx_namespace_create_fresh_name (FxNamespace *ns, const char *candidate, gconstpointer obj)
{
  return create_name (ns, candidate, obj, NULL);
}

static const char *
create_name (FxNamespace *ns, const char *candidate, gconstpointer obj,
             const char *builtin_name)
{
  char *clean, *probe;
  char probe_buf[160];           /* the probe, when base and suffix fit */
  gsize base_len, probe_size;
  guint64 num = 0;
  gboolean has_num, same = TRUE;
  const char *result;
  guint64 *mark;
  guint64 w;

  /* the common case first: a candidate that needs no cleaning and is free as it is (its
   * hash computed once for the lookup and the insertion) */
  if (is_clean (candidate))
    {
      guint hash = name_hash (candidate);
      if (name_set_lookup (&ns->used, candidate, hash) == NULL
          && (!split_suffix (candidate, &base_len, &num, &same) || same)
          && !is_illegal (candidate, builtin_name))
        return take_name_hashed (ns, candidate, hash, obj);
    }
  num = 0;
  same = TRUE;

  clean = sanitize (candidate);
  has_num = split_suffix (clean, &base_len, &num, &same);
  if (!has_num)
    base_len = strlen (clean);
  /* the cleaned candidate as it is, the common case (names of call_module targets) */
  if (same)
    {
      guint hash = name_hash (clean);
      if (name_set_lookup (&ns->used, clean, hash) == NULL && !is_illegal (clean, builtin_name))
        {
          result = take_name_hashed (ns, clean, hash, obj);
          g_free (clean);
          return result;
        }
    }
  /* the base with a suffix of up to 20 digits; also holds the first probe */
  probe_size = base_len + 22;
  probe = probe_size <= sizeof probe_buf ? probe_buf : g_malloc (probe_size);
  memcpy (probe, clean, base_len);
  probe[base_len] = '\0';
  g_free (clean);

  if (!same)
    {
      format_suffix (probe + base_len, num);
      if (!name_used (ns, probe) && !is_illegal (probe, builtin_name))
        goto done;
      probe[base_len] = '\0';   /* probe is the base again */
    }

  /* Suffixes 1..w of this base are all taken; skip them, extending w while it grows. */
  mark = g_hash_table_lookup (ns->watermark, probe);
  if (mark == NULL)
    {
      mark = g_new0 (guint64, 1);
      g_hash_table_insert (ns->watermark, g_strdup (probe), mark);
    }
  w = *mark;
  for (;;)
    {
      format_suffix (probe + base_len, w + 1);
      if (!name_used (ns, probe))
        break;
      w++;
    }
  *mark = w;

  /* probe holds base_(w+1), known unused: only legality is left to check for it */
  if (num <= w)
    {
      if (!is_illegal (probe, builtin_name))
        goto done;
      num = w + 1;
    }
  for (;;)
    {
      num++;
      format_suffix (probe + base_len, num);
      if (!name_used (ns, probe) && !is_illegal (probe, builtin_name))
        break;
    }
done:
  result = take_name (ns, probe, obj);
  if (probe != probe_buf)
    g_free (probe);
  return result;
}

const char *
fx_namespace_lookup (FxNamespace *ns, gconstpointer obj)
{
  return fx_ptr_map_lookup (&ns->obj_to_name, obj);
}

void
fx_namespace_associate (FxNamespace *ns, const char *name, gconstpointer obj)
{
  const char *owned = name_set_lookup (&ns->used, name, name_hash (name));

  g_return_if_fail (owned != NULL);
  fx_ptr_map_insert (&ns->obj_to_name, obj, owned);
}

gboolean
fx_namespace_is_used (FxNamespace *ns, const char *name)
{
  return name_used (ns, name);
}
