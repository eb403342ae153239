/* ast.c: the unit that owns a parsed file — its node arena, source text and constants. */
#include "script/ast.h"

#include <string.h>

#define CHUNK_MIN (32 * 1024)

ScUnit *
sc_unit_new (const char *filename, const char *source, gsize len)
{
  ScUnit *u = g_new0 (ScUnit, 1);
  g_atomic_ref_count_init (&u->ref);
  u->filename = g_strdup (filename);
  u->source = g_malloc (len + 1);
  if (len > 0)
    memcpy (u->source, source, len);
  u->source[len] = '\0';
  u->source_len = len;
  u->line_starts = g_ptr_array_new ();
  g_ptr_array_add (u->line_starts, GSIZE_TO_POINTER (0));
  for (gsize i = 0; i < len; i++)
    if (source[i] == '\n')
      g_ptr_array_add (u->line_starts, GSIZE_TO_POINTER (i + 1));
  u->values = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_str_unref);
  return u;
}

ScUnit *
sc_unit_ref (ScUnit *unit)
{
  g_atomic_ref_count_inc (&unit->ref);
  return unit;
}

void
sc_unit_unref (ScUnit *unit)
{
  if (unit == NULL || !g_atomic_ref_count_dec (&unit->ref))
    return;
  g_free (unit->filename);
  g_free (unit->source);
  g_ptr_array_free (unit->line_starts, TRUE);
  g_ptr_array_free (unit->values, TRUE);
  g_slist_free_full (unit->chunks, g_free);
  g_free (unit);
}

gpointer
sc_unit_alloc (ScUnit *unit, gsize size)
{
  gpointer p;
  size = (size + 15) & ~(gsize) 15;
  if (unit->chunks == NULL || unit->chunk_used + size > unit->chunk_size)
    {
      gsize n = MAX (CHUNK_MIN, size);
      unit->chunks = g_slist_prepend (unit->chunks, g_malloc0 (n));
      unit->chunk_size = n;
      unit->chunk_used = 0;
    }
  p = (char *) unit->chunks->data + unit->chunk_used;
  unit->chunk_used += size;
  return p;
}

char *
sc_unit_line (ScUnit *unit, int line)
{
  gsize start, end;
  if (line < 1 || (guint) line > unit->line_starts->len)
    return NULL;
  start = GPOINTER_TO_SIZE (g_ptr_array_index (unit->line_starts, line - 1));
  if (start >= unit->source_len && line > 1)
    return NULL;
  end = start;
  while (end < unit->source_len && unit->source[end] != '\n')
    end++;
  if (end > start && unit->source[end - 1] == '\r')
    end--;
  return g_strndup (unit->source + start, end - start);
}
