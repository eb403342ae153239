/* exc.c: exceptions — the builtin exception classes, raising (with __context__ chaining),
 * traceback entries, and printing exactly as CPython 3.11 does: carets under the failing
 * expression, "[Previous line repeated N more times]", chained exceptions, SyntaxError
 * source lines and "Did you mean" suggestions. */
#include "script/internal.h"
#include "fx-error.h"
#include <gio/gio.h>

#include <string.h>

static const struct { int id; const char *name; int base; } exc_table[] = {
  { SC_T_BASE_EXCEPTION, "BaseException", SC_T_OBJECT },
  { SC_T_SYSTEM_EXIT, "SystemExit", SC_T_BASE_EXCEPTION },
  { SC_T_KEYBOARD_INTERRUPT, "KeyboardInterrupt", SC_T_BASE_EXCEPTION },
  { SC_T_GENERATOR_EXIT, "GeneratorExit", SC_T_BASE_EXCEPTION },
  { SC_T_EXCEPTION, "Exception", SC_T_BASE_EXCEPTION },
  { SC_T_STOP_ITERATION, "StopIteration", SC_T_EXCEPTION },
  { SC_T_ARITHMETIC_ERROR, "ArithmeticError", SC_T_EXCEPTION },
  { SC_T_FLOATING_POINT_ERROR, "FloatingPointError", SC_T_ARITHMETIC_ERROR },
  { SC_T_OVERFLOW_ERROR, "OverflowError", SC_T_ARITHMETIC_ERROR },
  { SC_T_ZERO_DIVISION_ERROR, "ZeroDivisionError", SC_T_ARITHMETIC_ERROR },
  { SC_T_ASSERTION_ERROR, "AssertionError", SC_T_EXCEPTION },
  { SC_T_ATTRIBUTE_ERROR, "AttributeError", SC_T_EXCEPTION },
  { SC_T_EOF_ERROR, "EOFError", SC_T_EXCEPTION },
  { SC_T_IMPORT_ERROR, "ImportError", SC_T_EXCEPTION },
  { SC_T_MODULE_NOT_FOUND_ERROR, "ModuleNotFoundError", SC_T_IMPORT_ERROR },
  { SC_T_LOOKUP_ERROR, "LookupError", SC_T_EXCEPTION },
  { SC_T_INDEX_ERROR, "IndexError", SC_T_LOOKUP_ERROR },
  { SC_T_KEY_ERROR, "KeyError", SC_T_LOOKUP_ERROR },
  { SC_T_MEMORY_ERROR, "MemoryError", SC_T_EXCEPTION },
  { SC_T_NAME_ERROR, "NameError", SC_T_EXCEPTION },
  { SC_T_UNBOUND_LOCAL_ERROR, "UnboundLocalError", SC_T_NAME_ERROR },
  { SC_T_OS_ERROR, "OSError", SC_T_EXCEPTION },
  { SC_T_FILE_NOT_FOUND_ERROR, "FileNotFoundError", SC_T_OS_ERROR },
  { SC_T_FILE_EXISTS_ERROR, "FileExistsError", SC_T_OS_ERROR },
  { SC_T_PERMISSION_ERROR, "PermissionError", SC_T_OS_ERROR },
  { SC_T_IS_A_DIRECTORY_ERROR, "IsADirectoryError", SC_T_OS_ERROR },
  { SC_T_NOT_A_DIRECTORY_ERROR, "NotADirectoryError", SC_T_OS_ERROR },
  { SC_T_RUNTIME_ERROR, "RuntimeError", SC_T_EXCEPTION },
  { SC_T_NOT_IMPLEMENTED_ERROR, "NotImplementedError", SC_T_RUNTIME_ERROR },
  { SC_T_RECURSION_ERROR, "RecursionError", SC_T_RUNTIME_ERROR },
  { SC_T_SYNTAX_ERROR, "SyntaxError", SC_T_EXCEPTION },
  { SC_T_INDENTATION_ERROR, "IndentationError", SC_T_SYNTAX_ERROR },
  { SC_T_TAB_ERROR, "TabError", SC_T_INDENTATION_ERROR },
  { SC_T_SYSTEM_ERROR, "SystemError", SC_T_EXCEPTION },
  { SC_T_TYPE_ERROR, "TypeError", SC_T_EXCEPTION },
  { SC_T_VALUE_ERROR, "ValueError", SC_T_EXCEPTION },
  { SC_T_UNICODE_ERROR, "UnicodeError", SC_T_VALUE_ERROR },
  { SC_T_WARNING, "Warning", SC_T_EXCEPTION },
  { SC_T_USER_WARNING, "UserWarning", SC_T_WARNING },
  { SC_T_DEPRECATION_WARNING, "DeprecationWarning", SC_T_WARNING },
  { SC_T_PENDING_DEPRECATION_WARNING, "PendingDeprecationWarning", SC_T_WARNING },
  { SC_T_SYNTAX_WARNING, "SyntaxWarning", SC_T_WARNING },
  { SC_T_RUNTIME_WARNING, "RuntimeWarning", SC_T_WARNING },
  { SC_T_FUTURE_WARNING, "FutureWarning", SC_T_WARNING },
  { SC_T_IMPORT_WARNING, "ImportWarning", SC_T_WARNING },
  { SC_T_UNICODE_WARNING, "UnicodeWarning", SC_T_WARNING },
  { SC_T_RESOURCE_WARNING, "ResourceWarning", SC_T_WARNING },
};

/* ------------------------------------------------------------------ payload */

gpointer
sc_exc_payload_new (FxScript *S, FxScriptClass *cls, gpointer data)
{
  ScExcData *d = g_new0 (ScExcData, 1);
  d->args = fx_value_take_tuple (fx_seq_new (0));
  d->cause = fx_value_none ();
  d->context = fx_value_none ();
  d->attr_obj = fx_value_none ();
  (void) S;
  (void) cls;
  (void) data;
  return d;
}

static void
tb_entry_clear (gpointer p)
{
  ScTbEntry *e = p;
  sc_unit_unref (e->unit);
  fx_str_unref (e->func);
}

void
sc_exc_payload_free (gpointer p)
{
  ScExcData *d = p;
  fx_value_clear (&d->args);
  fx_value_clear (&d->cause);
  fx_value_clear (&d->context);
  fx_value_clear (&d->attr_obj);
  if (d->attr_name)
    fx_str_unref (d->attr_name);
  if (d->tb)
    g_array_free (d->tb, TRUE);
  if (d->name_unit)
    sc_unit_unref (d->name_unit);
  if (d->name_globals)
    fx_dict_unref (d->name_globals);
  g_free (d);
}

ScExcData *
sc_exc_data (const FxValue *exc)
{
  ScInstance *inst = sc_value_instance (exc);
  if (inst == NULL || !(inst->cls->flags & SC_CLASS_EXCEPTION) || inst->payload_free != sc_exc_payload_free)
    return NULL;
  return inst->payload;
}

FxValue
sc_exc_new (FxScript *S, FxScriptClass *cls, FxValue args)
{
  FxValue v = sc_instance_new (S, cls);
  ScExcData *d = sc_exc_data (&v);
  if (d)
    {
      fx_value_clear (&d->args);
      d->args = args;
    }
  else
    fx_value_clear (&args);
  return v;
}

/* ------------------------------------------------------------------ raising */

void
sc_clear_exc (FxScript *S)
{
  fx_value_clear (&S->exc);
}

FxValue
sc_take_exc (FxScript *S)
{
  FxValue v = S->exc;
  S->exc = fx_value_none ();
  return v;
}

gboolean
sc_raise_instance (FxScript *S, FxValue exc, gboolean set_context)
{
  ScExcData *d = sc_exc_data (&exc);
  if (set_context && d && S->handling.kind != FX_VALUE_NONE
      && !(S->handling.kind == FX_VALUE_OBJECT && S->handling.obj == exc.obj))
    {
      /* avoid cycles in the context chain, as CPython does */
      FxValue *o = &S->handling;
      ScExcData *od;
      while ((od = sc_exc_data (o)) && od->context.kind != FX_VALUE_NONE)
        {
          if (od->context.kind == FX_VALUE_OBJECT && od->context.obj == exc.obj)
            {
              fx_value_clear (&od->context);
              break;
            }
          o = &od->context;
        }
      fx_value_clear (&d->context);
      d->context = fx_value_copy (&S->handling);
    }
  fx_value_clear (&S->exc);
  S->exc = exc;
  return FALSE;
}

gboolean
sc_raise_args (FxScript *S, int type_id, FxValue args)
{
  return sc_raise_instance (S, sc_exc_new (S, S->types[type_id], args), TRUE);
}

gboolean
sc_raise_str (FxScript *S, int type_id, const char *msg)
{
  FxSeq *args = fx_seq_new (1);
  args->items[0] = fx_value_str (msg);
  return sc_raise_args (S, type_id, fx_value_take_tuple (args));
}

gboolean
sc_raise (FxScript *S, int type_id, const char *fmt, ...)
{
  va_list ap;
  char *msg;
  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  sc_raise_str (S, type_id, msg);
  g_free (msg);
  return FALSE;
}

gboolean
sc_raise_key_error (FxScript *S, const FxValue *key)
{
  FxSeq *args = fx_seq_new (1);
  args->items[0] = fx_value_copy (key);
  return sc_raise_args (S, SC_T_KEY_ERROR, fx_value_take_tuple (args));
}

gboolean
sc_raise_attribute_error (FxScript *S, const FxValue *obj, FxStr *name)
{
  ScExcData *d;
  FxScriptClass *cls = sc_value_class (obj);
  if (cls)
    sc_raise (S, SC_T_ATTRIBUTE_ERROR, "type object '%s' has no attribute '%s'", cls->name->data,
              name->data);
  else if (sc_is_klass (obj, &sc_module_klass))
    sc_raise (S, SC_T_ATTRIBUTE_ERROR, "module '%s' has no attribute '%s'",
              ((FxScriptModule *) obj->obj)->name->data, name->data);
  else if (sc_is_klass (obj, &sc_super_klass))
    sc_raise (S, SC_T_ATTRIBUTE_ERROR, "'super' object has no attribute '%s'", name->data);
  else
    sc_raise (S, SC_T_ATTRIBUTE_ERROR, "'%s' object has no attribute '%s'", sc_type_name (S, obj),
              name->data);
  d = sc_exc_data (&S->exc);
  if (d)
    {
      d->attr_name = fx_str_ref (name);
      d->attr_obj = fx_value_copy (obj);
    }
  return FALSE;
}

gboolean
sc_raise_name_error (FxScript *S, ScFrame *F, FxStr *name, gboolean unbound_local, gboolean free_var)
{
  ScExcData *d;
  if (unbound_local)
    return sc_raise (S, SC_T_UNBOUND_LOCAL_ERROR,
                     "cannot access local variable '%s' where it is not associated with a value",
                     name->data);
  if (free_var)
    return sc_raise (S, SC_T_NAME_ERROR,
                     "cannot access free variable '%s' where it is not associated with a value "
                     "in enclosing scope", name->data);
  sc_raise (S, SC_T_NAME_ERROR, "name '%s' is not defined", name->data);
  d = sc_exc_data (&S->exc);
  if (d && F)
    {
      d->attr_name = fx_str_ref (name);
      d->name_unit = sc_unit_ref (F->code->unit);
      d->name_code = F->code;
      d->name_globals = fx_dict_ref (F->globals);
    }
  return FALSE;
}

static FxScriptClass *
class_by_name (FxScript *S, const char *name)
{
  FxValue *v = sc_dict_get_str (S->builtins, sc_intern_cstr (name));
  FxScriptClass *cls = v ? sc_value_class (v) : NULL;
  if (cls && (cls->flags & SC_CLASS_EXCEPTION))
    return cls;
  if (S->exceptions)
    return g_hash_table_lookup (S->exceptions, name);
  return NULL;
}

gboolean
sc_raise_gerror (FxScript *S, const GError *error)
{
  const char *name = "RuntimeError";
  FxScriptClass *cls;
  FxSeq *args;
  if (error == NULL)
    return sc_raise (S, SC_T_SYSTEM_ERROR, "error return without exception set");
  if (error->domain == FX_ERROR)
    name = fx_error_code_python_name ((FxErrorCode) error->code);
  else if (error->domain == G_FILE_ERROR || error->domain == g_io_error_quark ())
    name = "OSError";
  cls = class_by_name (S, name);
  if (cls == NULL)
    cls = S->types[SC_T_RUNTIME_ERROR];
  args = fx_seq_new (1);
  args->items[0] = fx_value_str (error->message);
  return sc_raise_instance (S, sc_exc_new (S, cls, fx_value_take_tuple (args)), TRUE);
}

gboolean
sc_matches (FxScript *S, int type_id)
{
  return S->exc.kind != FX_VALUE_NONE && sc_isinstance_id (S, &S->exc, type_id);
}

/* except clause matching: a class or a tuple of classes. */
gboolean
sc_exc_matches (FxScript *S, const FxValue *exc, const FxValue *spec, gboolean *ok)
{
  FxScriptClass *cls;
  *ok = TRUE;
  if (spec->kind == FX_VALUE_TUPLE)
    {
      for (guint i = 0; i < spec->seq->len; i++)
        {
          if (sc_exc_matches (S, exc, &spec->seq->items[i], ok))
            return TRUE;
          if (!*ok)
            return FALSE;
        }
      return FALSE;
    }
  cls = sc_value_class (spec);
  if (cls == NULL || !(cls->flags & SC_CLASS_EXCEPTION))
    {
      *ok = FALSE;
      sc_raise (S, SC_T_TYPE_ERROR, "catching classes that do not inherit from BaseException is "
                                    "not allowed");
      return FALSE;
    }
  return sc_isinstance (S, exc, cls);
}

/* ------------------------------------------------------------------ traceback entries */

gboolean
sc_fail_at (FxScript *S, ScFrame *F, const ScPos *pos, const ScExpr *e)
{
  ScExcData *d;
  ScTbEntry entry = { 0 };
  if (F == NULL || S->exc.kind == FX_VALUE_NONE || !(d = sc_exc_data (&S->exc)))
    return FALSE;
  if (d->tb == NULL)
    {
      d->tb = g_array_new (FALSE, TRUE, sizeof (ScTbEntry));
      g_array_set_clear_func (d->tb, tb_entry_clear);
    }
  entry.unit = sc_unit_ref (F->code->unit);
  entry.func = fx_str_ref (F->code->name);
  entry.pos = *pos;
  if (e && e->pos.line == e->pos.end_line)
    {
      if (e->kind == SC_E_BINOP)
        {
          entry.anchor_kind = 1;
          entry.anchor_a = e->binop.left->pos.end_col;
          entry.anchor_b = e->binop.right->pos.col;
          if (e->binop.left->pos.end_line != e->pos.line || e->binop.right->pos.line != e->pos.line)
            entry.anchor_kind = 0;
        }
      else if (e->kind == SC_E_SUBSCRIPT)
        {
          entry.anchor_kind = 2;
          entry.anchor_a = e->subscript.value->pos.end_col;
          entry.anchor_b = e->subscript.index->pos.end_col;
          if (e->subscript.value->pos.end_line != e->pos.line
              || e->subscript.index->pos.end_line != e->pos.line)
            entry.anchor_kind = 0;
        }
    }
  g_array_append_val (d->tb, entry);
  return FALSE;
}

/* ------------------------------------------------------------------ printing */

static gboolean
is_ws (char c)
{
  return c == ' ' || c == '\t' || c == '\f';
}

static long
char_offset (const char *line, long byte_off)
{
  long len = (long) strlen (line);
  if (byte_off > len)
    byte_off = len;
  if (byte_off < 0)
    return 0;
  return g_utf8_pointer_to_offset (line, line + byte_off);
}

static void
print_tb_entry (FxScript *S, const ScTbEntry *e, GString *out)
{
  g_autofree char *line = NULL;
  const char *fn = e->unit->filename;
  long truncation, start_off, end_off, left = -1, right = -1, src_len, i;
  const char *primary = "^", *secondary = "^";
  gboolean has_secondary;

  g_string_append_printf (out, "  File \"%s\", line %d, in %s\n", fn, e->pos.line, e->func->data);
  if (fn[0] == '<' && fn[strlen (fn) - 1] == '>')
    return;
  line = sc_unit_line (e->unit, e->pos.line);
  if (line == NULL)
    return;
  for (i = 0; line[i] && is_ws (line[i]); i++)
    ;
  g_string_append (out, "    ");
  g_string_append (out, line + i);
  g_string_append_c (out, '\n');
  truncation = g_utf8_pointer_to_offset (line, line + i) - 4;
  src_len = g_utf8_strlen (line, -1);
  start_off = char_offset (line, e->pos.col);
  end_off = char_offset (line, e->pos.end_col);

  if (e->pos.line == e->pos.end_line)
    {
      /* CPython re-parses the segment; the node's own offsets say the same thing */
      const char *seg = line + e->pos.col;
      long seg_len = e->pos.end_col - e->pos.col;
      if (seg_len > 0 && e->pos.end_col <= (long) strlen (line))
        {
          if (e->anchor_kind == 1)
            {
              long lend = e->anchor_a - e->pos.col, rcol = e->anchor_b - e->pos.col;
              for (long k = lend; k < rcol; k++)
                {
                  if (is_ws (seg[k]))
                    continue;
                  left = k;
                  right = k + 1;
                  if (k + 1 < rcol && !is_ws (seg[k + 1]))
                    right++;
                  if (k + 1 < rcol && seg[k] == ')')
                    continue;
                  primary = "~";
                  secondary = "^";
                  break;
                }
            }
          else if (e->anchor_kind == 2)
            {
              long l = e->anchor_a - e->pos.col, r = e->anchor_b - e->pos.col + 1;
              while (l < seg_len && (is_ws (seg[l]) || seg[l] != '['))
                l++;
              while (r < seg_len && (is_ws (seg[r]) || seg[r] != ']'))
                r++;
              if (r < seg_len)
                r++;
              left = l;
              right = r;
              primary = "~";
              secondary = "^";
            }
          if (left >= 0)
            {
              left = char_offset (seg, left) + start_off;
              right = char_offset (seg, right) + start_off;
            }
        }
    }
  else
    {
      long k = (long) strlen (line);
      while (--k >= 0 && is_ws (line[k]))
        ;
      end_off = k + 1;
    }
  has_secondary = left != -1 || right != -1;
  if (end_off - start_off == src_len - truncation - 4 && !has_secondary)
    return;
  for (long off = truncation + 1; off <= end_off; off++)
    {
      if (off <= start_off)
        g_string_append_c (out, ' ');
      else if (has_secondary && left < off && off <= right)
        g_string_append (out, secondary);
      else
        g_string_append (out, primary);
    }
  g_string_append_c (out, '\n');
  (void) S;
}

static void
print_traceback (FxScript *S, GArray *tb, GString *out)
{
  const char *last_file = NULL, *last_name = NULL;
  int last_line = -1;
  long count = 0;

  g_string_append (out, "Traceback (most recent call last):\n");
  for (int i = (int) tb->len - 1; i >= 0; i--)
    {
      ScTbEntry *e = &g_array_index (tb, ScTbEntry, i);
      if (last_file == NULL || strcmp (last_file, e->unit->filename) != 0 || last_line != e->pos.line
          || last_name == NULL || strcmp (last_name, e->func->data) != 0)
        {
          if (count > 3)
            g_string_append_printf (out, "  [Previous line repeated %ld more time%s]\n", count - 3,
                                    count - 3 > 1 ? "s" : "");
          last_file = e->unit->filename;
          last_line = e->pos.line;
          last_name = e->func->data;
          count = 0;
        }
      count++;
      if (count <= 3)
        print_tb_entry (S, e, out);
    }
  if (count > 3)
    g_string_append_printf (out, "  [Previous line repeated %ld more time%s]\n", count - 3,
                            count - 3 > 1 ? "s" : "");
}

/* CPython's suggestion distance (Python/suggestions.c). */
#define MOVE_COST 2
#define CASE_COST 1
#define MAX_STRING_SIZE 40

static int
substitution_cost (char a, char b)
{
  if ((a & 31) != (b & 31))
    return MOVE_COST;
  if (a == b)
    return 0;
  if (a >= 'A' && a <= 'Z')
    a += 'a' - 'A';
  if (b >= 'A' && b <= 'Z')
    b += 'a' - 'A';
  return a == b ? CASE_COST : MOVE_COST;
}

static gssize
levenshtein (const char *a, gsize a_size, const char *b, gsize b_size, gsize max_cost)
{
  gsize buffer[MAX_STRING_SIZE];
  gsize result = 0, tmp;

  if (a == b)
    return 0;
  while (a_size && b_size && a[0] == b[0])
    a++, b++, a_size--, b_size--;
  while (a_size && b_size && a[a_size - 1] == b[b_size - 1])
    a_size--, b_size--;
  if (a_size == 0 || b_size == 0)
    return (a_size + b_size) * MOVE_COST;
  if (a_size > MAX_STRING_SIZE || b_size > MAX_STRING_SIZE)
    return max_cost + 1;
  if (b_size < a_size)
    {
      const char *t = a; a = b; b = t;
      gsize ts = a_size; a_size = b_size; b_size = ts;
    }
  if ((b_size - a_size) * MOVE_COST > max_cost)
    return max_cost + 1;
  tmp = MOVE_COST;
  for (gsize i = 0; i < a_size; i++)
    {
      buffer[i] = tmp;
      tmp += MOVE_COST;
    }
  for (gsize bi = 0; bi < b_size; bi++)
    {
      char code = b[bi];
      gsize distance = result = bi * MOVE_COST;
      gsize minimum = G_MAXSIZE;
      for (gsize index = 0; index < a_size; index++)
        {
          gsize substitute = distance + substitution_cost (code, a[index]);
          gsize insert_delete;
          distance = buffer[index];
          insert_delete = MIN (result, distance) + MOVE_COST;
          result = MIN (insert_delete, substitute);
          buffer[index] = result;
          if (result < minimum)
            minimum = result;
        }
      if (minimum > max_cost)
        return max_cost + 1;
    }
  return result;
}

static const char *
suggest (const char *name, const char *const *cands, int n)
{
  gssize best_dist = G_MAXSSIZE;
  const char *best = NULL;
  gsize name_len = strlen (name);
  if (n >= 750)
    return NULL;
  for (int i = 0; i < n; i++)
    {
      gsize item_len = strlen (cands[i]);
      gssize max_dist, d;
      if (strcmp (name, cands[i]) == 0)
        continue;
      max_dist = (gssize) (name_len + item_len + 3) * MOVE_COST / 6;
      max_dist = MIN (max_dist, best_dist - 1);
      d = levenshtein (name, name_len, cands[i], item_len, max_dist);
      if (d > max_dist)
        continue;
      if (!best || d < best_dist)
        {
          best = cands[i];
          best_dist = d;
        }
    }
  return best;
}

static const char *
suggest_from_dict (const char *name, FxDict *d, GPtrArray *tmp)
{
  const FxValue *k;
  g_ptr_array_set_size (tmp, 0);
  for (guint i = 0; fx_dict_entry (d, i, &k, NULL); i++)
    if (k->kind == FX_VALUE_STR)
      g_ptr_array_add (tmp, k->s->data);
  return suggest (name, (const char *const *) tmp->pdata, tmp->len);
}

static const char *
compute_suggestion (FxScript *S, const FxValue *exc, ScExcData *d, FxSeq **keep)
{
  g_autoptr (GPtrArray) tmp = g_ptr_array_new ();
  const char *s;
  if (!d->attr_name)
    return NULL;
  if (sc_isinstance_id (S, exc, SC_T_ATTRIBUTE_ERROR))
    {
      FxSeq *names;
      if (!sc_dir (S, &d->attr_obj, &names))
        {
          sc_clear_exc (S);
          return NULL;
        }
      *keep = names;
      for (guint i = 0; i < names->len; i++)
        g_ptr_array_add (tmp, names->items[i].s->data);
      return suggest (d->attr_name->data, (const char *const *) tmp->pdata, tmp->len);
    }
  if (sc_isinstance_id (S, exc, SC_T_NAME_ERROR) && d->name_code)
    {
      for (int i = 0; i < d->name_code->n_locals; i++)
        g_ptr_array_add (tmp, d->name_code->local_names[i]->data);
      s = suggest (d->attr_name->data, (const char *const *) tmp->pdata, tmp->len);
      if (!s)
        s = suggest_from_dict (d->attr_name->data, d->name_globals, tmp);
      if (!s)
        s = suggest_from_dict (d->attr_name->data, S->builtins, tmp);
      return s;
    }
  return NULL;
}

const char *
sc_exc_message (FxScript *S, const FxValue *exc, GString *tmp)
{
  g_string_truncate (tmp, 0);
  if (!sc_str (S, exc, tmp))
    {
      sc_clear_exc (S);
      return NULL;
    }
  return tmp->str;
}

static void
print_syntax_error_text (GString *out, long offset, long end_offset, const char *text)
{
  long caret_repetitions = (end_offset > 0 && end_offset > offset) ? end_offset - offset : 1;
  long len;
  offset--;
  while (*text == ' ' || *text == '\t' || *text == '\f')
    {
      text++;
      offset--;
    }
  len = (long) strlen (text);
  if (len > 0 && text[len - 1] == '\n')
    len--;
  if (offset > len)
    offset = len;
  for (;;)
    {
      const char *nl = strchr (text, '\n');
      long inl;
      if (nl == NULL)
        break;
      inl = nl - text;
      if (inl >= offset)
        break;
      inl++;
      text += inl;
      len -= inl;
      offset -= inl;
    }
  g_string_append (out, "    ");
  g_string_append (out, text);
  if (text[len] != '\n')
    g_string_append_c (out, '\n');
  if (offset < 0)
    return;
  g_string_append (out, "    ");
  while (--offset >= 0)
    g_string_append_c (out, ' ');
  for (long i = 0; i < caret_repetitions; i++)
    g_string_append_c (out, '^');
  g_string_append_c (out, '\n');
}

static gboolean
dict_long (FxDict *dict, FxStr *key, long *out)
{
  FxValue *v = dict ? sc_dict_get_str (dict, key) : NULL;
  if (v && (v->kind == FX_VALUE_INT || v->kind == FX_VALUE_BOOL))
    {
      *out = v->kind == FX_VALUE_INT ? (long) v->i : v->b;
      return TRUE;
    }
  return FALSE;
}

static void
print_one (FxScript *S, const FxValue *exc, GString *out)
{
  ScExcData *d = sc_exc_data (exc);
  FxScriptClass *cls = sc_type_of (S, exc);
  const char *mod = cls->module->data;
  FxValue *modv = sc_dict_get_str (cls->dict, sc_n.module);
  g_autoptr (GString) msg = g_string_new (NULL);
  gboolean is_syntax = sc_isinstance_id (S, exc, SC_T_SYNTAX_ERROR);
  ScInstance *inst = sc_value_instance (exc);
  FxSeq *keep = NULL;

  if (d && d->tb && d->tb->len)
    print_traceback (S, d->tb, out);
  if (is_syntax && inst && inst->dict)
    {
      FxValue *fn = sc_dict_get_str (inst->dict, sc_n.s_filename);
      FxValue *text = sc_dict_get_str (inst->dict, sc_n.s_text);
      FxValue *m = sc_dict_get_str (inst->dict, sc_n.s_msg);
      long lineno = 0, offset = -1, end_lineno, end_offset = -1;
      dict_long (inst->dict, sc_n.s_lineno, &lineno);
      if (!dict_long (inst->dict, sc_n.s_offset, &offset))
        offset = -1;
      end_lineno = lineno;
      if (cls == S->types[SC_T_SYNTAX_ERROR])
        {
          dict_long (inst->dict, sc_n.s_end_lineno, &end_lineno);
          if (!dict_long (inst->dict, sc_n.s_end_offset, &end_offset))
            end_offset = -1;
        }
      g_string_append_printf (out, "  File \"%s\", line %ld\n",
                              fn && fn->kind == FX_VALUE_STR ? fn->s->data : "<string>", lineno);
      if (text && text->kind == FX_VALUE_STR)
        {
          long line_size = (long) text->s->len;
          if (end_lineno > lineno)
            end_offset = line_size;
          if (end_offset > line_size + 1)
            end_offset = line_size + 1;
          print_syntax_error_text (out, offset, end_offset, text->s->data);
        }
      if (modv && modv->kind == FX_VALUE_STR)
        mod = modv->s->data;
      if (strcmp (mod, "builtins") != 0 && strcmp (mod, "__main__") != 0)
        g_string_append_printf (out, "%s.", mod);
      g_string_append (out, cls->qualname->data);
      if (m && m->kind == FX_VALUE_STR && m->s->len)
        {
          g_string_append (out, ": ");
          g_string_append (out, m->s->data);
        }
      else if (m && m->kind != FX_VALUE_NONE)
        {
          if (sc_str (S, m, msg) && msg->len)
            g_string_append_printf (out, ": %s", msg->str);
          sc_clear_exc (S);
        }
      g_string_append_c (out, '\n');
      return;
    }
  if (modv && modv->kind == FX_VALUE_STR)
    mod = modv->s->data;
  if (strcmp (mod, "builtins") != 0 && strcmp (mod, "__main__") != 0)
    g_string_append_printf (out, "%s.", mod);
  g_string_append (out, cls->qualname->data);
  if (!sc_str (S, exc, msg))
    {
      sc_clear_exc (S);
      g_string_append (out, ": <exception str() failed>");
    }
  else if (msg->len)
    {
      g_string_append (out, ": ");
      g_string_append (out, msg->str);
    }
  if (d)
    {
      const char *s = compute_suggestion (S, exc, d, &keep);
      if (s)
        g_string_append_printf (out, ". Did you mean: '%s'?", s);
      if (keep)
        fx_seq_unref (keep);
    }
  g_string_append_c (out, '\n');
}

static void
print_recursive (FxScript *S, const FxValue *exc, GHashTable *seen, GString *out, int depth)
{
  ScExcData *d = sc_exc_data (exc);
  g_hash_table_add (seen, exc->kind == FX_VALUE_OBJECT ? exc->obj : NULL);
  if (d && depth < 100)
    {
      if (d->cause.kind != FX_VALUE_NONE)
        {
          if (!g_hash_table_contains (seen, d->cause.obj))
            {
              print_recursive (S, &d->cause, seen, out, depth + 1);
              g_string_append (out, "\nThe above exception was the direct cause of the following "
                                    "exception:\n\n");
            }
        }
      else if (d->context.kind != FX_VALUE_NONE && !d->suppress_context)
        {
          if (!g_hash_table_contains (seen, d->context.obj))
            {
              print_recursive (S, &d->context, seen, out, depth + 1);
              g_string_append (out, "\nDuring handling of the above exception, another exception "
                                    "occurred:\n\n");
            }
        }
    }
  print_one (S, exc, out);
}

void
sc_format_exception (FxScript *S, const FxValue *exc, GString *out)
{
  GHashTable *seen = g_hash_table_new (NULL, NULL);
  FxValue saved = sc_take_exc (S);
  print_recursive (S, exc, seen, out, 0);
  g_hash_table_destroy (seen);
  sc_clear_exc (S);
  S->exc = saved;
}

/* A SyntaxError instance from a compile error: msg, filename, lineno, offset (1-based
 * characters), text (the line with its newline), end_lineno, end_offset. */
FxValue
sc_syntax_error_value (FxScript *S, const ScSyntaxError *err, const char *filename,
                       const char *source, gsize source_len)
{
  const char *clsname = err->cls ? err->cls : "SyntaxError";
  int id = strcmp (clsname, "IndentationError") == 0 ? SC_T_INDENTATION_ERROR
           : strcmp (clsname, "TabError") == 0 ? SC_T_TAB_ERROR
           : strcmp (clsname, "RecursionError") == 0 ? SC_T_RECURSION_ERROR : SC_T_SYNTAX_ERROR;
  FxSeq *args = fx_seq_new (1);
  FxValue exc;
  ScInstance *inst;
  FxDict *dict;

  args->items[0] = fx_value_str (err->msg ? err->msg : "invalid syntax");
  exc = sc_exc_new (S, S->types[id], fx_value_take_tuple (args));
  if (id == SC_T_RECURSION_ERROR)
    return exc;
  inst = sc_value_instance (&exc);
  dict = sc_instance_dict (inst);
  sc_dict_set_str (dict, "msg", fx_value_str (err->msg ? err->msg : "invalid syntax"));
  sc_dict_set_str (dict, "filename", fx_value_str (filename));
  sc_dict_set_str (dict, "lineno", fx_value_int (err->line));
  sc_dict_set_str (dict, "print_file_and_line", fx_value_none ());
  {
    /* the offending line, as CPython's tokenizer keeps it (with its newline) */
    FxValue text = fx_value_none ();
    long off = err->col + 1, end_off = err->end_col >= 0 ? err->end_col + 1 : -1;
    if (source && err->line >= 1)
      {
        gsize start = 0, end;
        int line = 1;
        while (line < err->line && start < source_len)
          {
            if (source[start] == '\n')
              line++;
            start++;
          }
        if (line == err->line && (start < source_len || err->line == 1))
          {
            end = start;
            while (end < source_len && source[end] != '\n')
              end++;
            if (end < source_len)
              end++;   /* keep the newline, as CPython's text does */
            {
              g_autofree char *t = g_strndup (source + start, end - start);
              const char *lp = t;
              /* byte columns to 1-based character offsets */
              if (g_utf8_validate (t, -1, NULL))
                {
                  long blen = (long) strlen (t);
                  off = g_utf8_pointer_to_offset (lp, lp + MIN (MAX (err->col, 0), blen)) + 1;
                  if (end_off > 0 && err->end_line == err->line)
                    end_off = g_utf8_pointer_to_offset (lp, lp + MIN (err->end_col, blen)) + 1
                              + MAX (0, err->end_col - blen);
                }
              text = fx_value_str (t);
            }
          }
      }
    sc_dict_set_str (dict, "offset", fx_value_int (off));
    sc_dict_set_str (dict, "text", text);
    sc_dict_set_str (dict, "end_lineno", fx_value_int (err->end_line ? err->end_line : err->line));
    sc_dict_set_str (dict, "end_offset", fx_value_int (end_off));
  }
  return exc;
}

/* ------------------------------------------------------------------ BaseException methods */

static gboolean
exc_init (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  ScExcData *d = sc_exc_data (&args[0]);
  FxSeq *seq;
  if (kwargs && fx_dict_len (kwargs))
    {
      const FxValue *k;
      fx_dict_entry (kwargs, 0, &k, NULL);
      return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes no keyword arguments", sc_type_name (S, &args[0]));
    }
  if (d)
    {
      seq = fx_seq_new (n - 1);
      for (int i = 1; i < n; i++)
        seq->items[i - 1] = fx_value_copy (&args[i]);
      fx_value_clear (&d->args);
      d->args = fx_value_take_tuple (seq);
    }
  *result = fx_value_none ();
  (void) data;
  return TRUE;
}

static gboolean
exc_str (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  ScExcData *d = sc_exc_data (&args[0]);
  g_autoptr (GString) s = g_string_new (NULL);
  FxSeq *a;
  if (!d)
    {
      *result = fx_value_str ("");
      return TRUE;
    }
  a = d->args.seq;
  if (sc_isinstance_id (S, &args[0], SC_T_KEY_ERROR) && a->len == 1)
    {
      if (!sc_repr (S, &a->items[0], s))
        return FALSE;
    }
  else if (sc_isinstance_id (S, &args[0], SC_T_SYNTAX_ERROR))
    {
      ScInstance *inst = sc_value_instance (&args[0]);
      FxValue *msg = inst->dict ? sc_dict_get_str (inst->dict, sc_n.s_msg) : NULL;
      FxValue *fn = inst->dict ? sc_dict_get_str (inst->dict, sc_n.s_filename) : NULL;
      FxValue *ln = inst->dict ? sc_dict_get_str (inst->dict, sc_n.s_lineno) : NULL;
      if (msg && msg->kind != FX_VALUE_NONE)
        {
          if (!sc_str (S, msg, s))
            return FALSE;
        }
      else if (a->len == 1 && !sc_str (S, &a->items[0], s))
        return FALSE;
      if (fn && fn->kind == FX_VALUE_STR && ln && ln->kind == FX_VALUE_INT)
        {
          g_autofree char *base = g_path_get_basename (fn->s->data);
          g_string_append_printf (s, " (%s, line %" G_GINT64_FORMAT ")", base, ln->i);
        }
      else if (ln && ln->kind == FX_VALUE_INT)
        g_string_append_printf (s, " (line %" G_GINT64_FORMAT ")", ln->i);
    }
  else if (sc_isinstance_id (S, &args[0], SC_T_OS_ERROR) && a->len == 2 && a->items[0].kind == FX_VALUE_INT)
    {
      g_string_append_printf (s, "[Errno %" G_GINT64_FORMAT "] ", a->items[0].i);
      if (!sc_str (S, &a->items[1], s))
        return FALSE;
    }
  else if (a->len == 1)
    {
      if (!sc_str (S, &a->items[0], s))
        return FALSE;
    }
  else if (a->len > 1)
    {
      FxValue t = fx_value_take_tuple (fx_seq_ref (a));
      gboolean ok = sc_repr (S, &t, s);
      fx_value_clear (&t);
      if (!ok)
        return FALSE;
    }
  *result = fx_value_str (s->str);
  (void) n; (void) kwargs; (void) data;
  return TRUE;
}

static gboolean
exc_repr (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  ScExcData *d = sc_exc_data (&args[0]);
  g_autoptr (GString) s = g_string_new (sc_type_name (S, &args[0]));
  FxSeq *a = d ? d->args.seq : NULL;
  if (a && a->len == 1)
    {
      g_string_append_c (s, '(');
      if (!sc_repr (S, &a->items[0], s))
        return FALSE;
      g_string_append_c (s, ')');
    }
  else if (a && a->len > 1)
    {
      FxValue t = fx_value_take_tuple (fx_seq_ref (a));
      gboolean ok = sc_repr (S, &t, s);
      fx_value_clear (&t);
      if (!ok)
        return FALSE;
    }
  else
    g_string_append (s, "()");
  *result = fx_value_str (s->str);
  (void) n; (void) kwargs; (void) data;
  return TRUE;
}

static gboolean
exc_get_args (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  ScExcData *d = sc_exc_data (&args[0]);
  *result = d ? fx_value_copy (&d->args) : fx_value_take_tuple (fx_seq_new (0));
  return TRUE;
}

static gboolean
exc_set_args (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  ScExcData *d = sc_exc_data (&args[0]);
  FxSeq *seq;
  if (!sc_collect (S, &args[1], &seq))
    return FALSE;
  if (d)
    {
      fx_value_clear (&d->args);
      d->args = fx_value_take_tuple (seq);
    }
  else
    fx_seq_unref (seq);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
exc_get_cause (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  ScExcData *d = sc_exc_data (&args[0]);
  *result = d ? fx_value_copy (&d->cause) : fx_value_none ();
  return TRUE;
}

static gboolean
exc_set_cause (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  ScExcData *d = sc_exc_data (&args[0]);
  if (args[1].kind != FX_VALUE_NONE && !sc_exc_data (&args[1]))
    return sc_raise (S, SC_T_TYPE_ERROR, "exception cause must be None or derive from BaseException");
  if (d)
    {
      fx_value_clear (&d->cause);
      d->cause = fx_value_copy (&args[1]);
      d->suppress_context = TRUE;
    }
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
exc_get_context (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  ScExcData *d = sc_exc_data (&args[0]);
  *result = d ? fx_value_copy (&d->context) : fx_value_none ();
  return TRUE;
}

static gboolean
exc_set_context (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  ScExcData *d = sc_exc_data (&args[0]);
  if (d)
    {
      fx_value_clear (&d->context);
      d->context = fx_value_copy (&args[1]);
    }
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
exc_get_suppress (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  ScExcData *d = sc_exc_data (&args[0]);
  *result = fx_value_bool (d && d->suppress_context);
  return TRUE;
}

static gboolean
exc_set_suppress (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  ScExcData *d = sc_exc_data (&args[0]);
  gboolean b;
  if (!sc_truth (S, &args[1], &b))
    return FALSE;
  if (d)
    d->suppress_context = b;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
exc_get_traceback (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
exc_with_traceback (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
exc_first_arg (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  ScExcData *d = sc_exc_data (&args[0]);
  if (d && d->args.seq->len >= 1)
    *result = fx_value_copy (&d->args.seq->items[0]);
  else
    *result = fx_value_none ();
  return TRUE;
}

static gboolean
exit_code (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  ScExcData *d = sc_exc_data (&args[0]);
  if (d && d->args.seq->len == 1)
    *result = fx_value_copy (&d->args.seq->items[0]);
  else if (d && d->args.seq->len > 1)
    *result = fx_value_copy (&d->args);
  else
    *result = fx_value_none ();
  return TRUE;
}

static gboolean
exc_name_attr (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  ScExcData *d = sc_exc_data (&args[0]);
  ScInstance *inst = sc_value_instance (&args[0]);
  FxValue *v = inst && inst->dict ? sc_dict_get_str (inst->dict, sc_n.s_name) : NULL;
  if (v)
    *result = fx_value_copy (v);
  else
    *result = d && d->attr_name ? sc_str_value (d->attr_name) : fx_value_none ();
  return TRUE;
}

static gboolean
exc_obj_attr (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  ScExcData *d = sc_exc_data (&args[0]);
  *result = d ? fx_value_copy (&d->attr_obj) : fx_value_none ();
  return TRUE;
}

static gboolean
exc_set_dict_attr (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  (void) S;
  *result = fx_value_none ();
  return TRUE;
}

void
sc_exc_types_init (FxScript *S)
{
  for (guint i = 0; i < G_N_ELEMENTS (exc_table); i++)
    {
      FxScriptClass *cls = sc_builtin_class (S, exc_table[i].id, exc_table[i].name, exc_table[i].base,
                                             SC_CLASS_EXCEPTION);
      if (exc_table[i].id == SC_T_BASE_EXCEPTION)
        {
          cls->payload_new = sc_exc_payload_new;
          cls->payload_free = sc_exc_payload_free;
          cls->payload_class = cls;
          sc_add_native (cls->dict, "BaseException", "__init__", SC_NATIVE_METHOD, exc_init, NULL);
          sc_add_native (cls->dict, "BaseException", "__str__", SC_NATIVE_METHOD, exc_str, NULL);
          sc_add_native (cls->dict, "BaseException", "__repr__", SC_NATIVE_METHOD, exc_repr, NULL);
          sc_add_native (cls->dict, "BaseException", "with_traceback", SC_NATIVE_METHOD,
                         exc_with_traceback, NULL);
          sc_add_property (cls, "args", exc_get_args, exc_set_args);
          sc_add_property (cls, "__cause__", exc_get_cause, exc_set_cause);
          sc_add_property (cls, "__context__", exc_get_context, exc_set_context);
          sc_add_property (cls, "__suppress_context__", exc_get_suppress, exc_set_suppress);
          sc_add_property (cls, "__traceback__", exc_get_traceback, exc_set_dict_attr);
        }
      else if (exc_table[i].id == SC_T_STOP_ITERATION)
        sc_add_property (cls, "value", exc_first_arg, NULL);
      else if (exc_table[i].id == SC_T_SYSTEM_EXIT)
        sc_add_property (cls, "code", exit_code, NULL);
      else if (exc_table[i].id == SC_T_ATTRIBUTE_ERROR)
        {
          sc_add_property (cls, "name", exc_name_attr, NULL);
          sc_add_property (cls, "obj", exc_obj_attr, NULL);
        }
      else if (exc_table[i].id == SC_T_NAME_ERROR)
        sc_add_property (cls, "name", exc_name_attr, NULL);
    }
}
