/* lexer.c: Python tokenizer — indentation, brackets, numbers, strings, operators — with
 * CPython 3.11's error messages for malformed source. */
#include "script/lexer.h"

#include <string.h>
#include <stdlib.h>

#define MAX_PAREN_LEVEL 200   /* CPython's MAXLEVEL: "too many nested parentheses" */
#define MAX_INDENT_LEVEL 100  /* CPython's MAXINDENT */

typedef struct {
  ScTokens *toks;
  const char *src;
  gsize pos, end;
  int line;
  gsize line_start;          /* byte offset of the current line's first byte */
  int indents[MAX_INDENT_LEVEL + 1];
  int alt_indents[MAX_INDENT_LEVEL + 1];
  int n_indents;
  struct { char c; int line, col; } parens[MAX_PAREN_LEVEL];
  int n_parens;
  gboolean at_bol;
  gboolean expr_mode;        /* an f-string field: no NEWLINE/INDENT at all */
  int col_base;              /* expr mode: column of the first line's start offset */
  int base_line;             /* the line that col_base applies to */
} Lexer;

static const struct { const char *text; ScKw kw; } keywords[] = {
  { "False", SC_KW_FALSE }, { "None", SC_KW_NONE_ }, { "True", SC_KW_TRUE },
  { "and", SC_KW_AND }, { "as", SC_KW_AS }, { "assert", SC_KW_ASSERT },
  { "async", SC_KW_ASYNC }, { "await", SC_KW_AWAIT }, { "break", SC_KW_BREAK },
  { "class", SC_KW_CLASS }, { "continue", SC_KW_CONTINUE }, { "def", SC_KW_DEF },
  { "del", SC_KW_DEL }, { "elif", SC_KW_ELIF }, { "else", SC_KW_ELSE },
  { "except", SC_KW_EXCEPT }, { "finally", SC_KW_FINALLY }, { "for", SC_KW_FOR },
  { "from", SC_KW_FROM }, { "global", SC_KW_GLOBAL }, { "if", SC_KW_IF },
  { "import", SC_KW_IMPORT }, { "in", SC_KW_IN }, { "is", SC_KW_IS },
  { "lambda", SC_KW_LAMBDA }, { "nonlocal", SC_KW_NONLOCAL }, { "not", SC_KW_NOT },
  { "or", SC_KW_OR }, { "pass", SC_KW_PASS }, { "raise", SC_KW_RAISE },
  { "return", SC_KW_RETURN }, { "try", SC_KW_TRY }, { "while", SC_KW_WHILE },
  { "with", SC_KW_WITH }, { "yield", SC_KW_YIELD },
};

/* Longest operators first so that the first match is the longest. */
static const struct { const char *text; ScOp op; } operators[] = {
  { "**=", SC_OP_DSTAREQ }, { "//=", SC_OP_DSLASHEQ }, { ">>=", SC_OP_RSHIFTEQ },
  { "<<=", SC_OP_LSHIFTEQ }, { "...", SC_OP_ELLIPSIS },
  { "->", SC_OP_ARROW }, { ":=", SC_OP_WALRUS }, { "**", SC_OP_DSTAR }, { "//", SC_OP_DSLASH },
  { "<<", SC_OP_LSHIFT }, { ">>", SC_OP_RSHIFT }, { "<=", SC_OP_LE }, { ">=", SC_OP_GE },
  { "==", SC_OP_EQEQ }, { "!=", SC_OP_NE }, { "+=", SC_OP_PLUSEQ }, { "-=", SC_OP_MINUSEQ },
  { "*=", SC_OP_STAREQ }, { "/=", SC_OP_SLASHEQ }, { "%=", SC_OP_PERCENTEQ },
  { "&=", SC_OP_AMPEQ }, { "|=", SC_OP_VBAREQ }, { "^=", SC_OP_CIRCEQ }, { "@=", SC_OP_ATEQ },
  { "(", SC_OP_LPAR }, { ")", SC_OP_RPAR }, { "[", SC_OP_LSQB }, { "]", SC_OP_RSQB },
  { "{", SC_OP_LBRACE }, { "}", SC_OP_RBRACE }, { ":", SC_OP_COLON }, { ",", SC_OP_COMMA },
  { ";", SC_OP_SEMI }, { ".", SC_OP_DOT }, { "@", SC_OP_AT }, { "=", SC_OP_EQUAL },
  { "+", SC_OP_PLUS }, { "-", SC_OP_MINUS }, { "*", SC_OP_STAR }, { "/", SC_OP_SLASH },
  { "%", SC_OP_PERCENT }, { "&", SC_OP_AMP }, { "|", SC_OP_VBAR }, { "^", SC_OP_CIRC },
  { "~", SC_OP_TILDE }, { "<", SC_OP_LT }, { ">", SC_OP_GT }, { "!", SC_OP_BANG },
};

const char *
sc_op_text (ScOp op)
{
  for (guint i = 0; i < G_N_ELEMENTS (operators); i++)
    if (operators[i].op == op)
      return operators[i].text;
  return "?";
}

const char *
sc_keyword_text (ScKw kw)
{
  for (guint i = 0; i < G_N_ELEMENTS (keywords); i++)
    if (keywords[i].kw == kw)
      return keywords[i].text;
  return "?";
}

/* ------------------------------------------------------------------ errors */

static gboolean
lex_error_full (Lexer *L, const char *cls, int line, int col, int end_line, int end_col,
                const char *fmt, ...) G_GNUC_PRINTF (7, 8);

static gboolean
lex_error_full (Lexer *L, const char *cls, int line, int col, int end_line, int end_col,
                const char *fmt, ...)
{
  va_list ap;
  ScTokens *t = L->toks;
  if (t->failed)
    return FALSE;
  t->failed = TRUE;
  t->error_class = cls;
  va_start (ap, fmt);
  t->error_msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  t->error_line = line;
  t->error_col = col;
  t->error_end_line = end_line;
  t->error_end_col = end_col;
  return FALSE;
}

static int
col_of (Lexer *L, gsize pos)
{
  return (int) (pos - L->line_start) + (L->line == L->base_line ? L->col_base : 0);
}

#define lex_error(L, pos, ...) \
  lex_error_full (L, "SyntaxError", (L)->line, col_of (L, pos), (L)->line, col_of (L, pos) + 1, __VA_ARGS__)
/* Errors CPython's tokenizer reports at one point (start == end). */
#define lex_error_at(L, pos, ...) \
  lex_error_full (L, "SyntaxError", (L)->line, col_of (L, pos), (L)->line, col_of (L, pos), __VA_ARGS__)

/* ------------------------------------------------------------------ helpers */

static gboolean
is_id_start (const char *p, const char *end, gsize *adv)
{
  guchar c = (guchar) *p;
  if (c < 0x80)
    {
      *adv = 1;
      return g_ascii_isalpha (c) || c == '_';
    }
  gunichar u = g_utf8_get_char_validated (p, end - p);
  if (u == (gunichar) -1 || u == (gunichar) -2)
    return FALSE;
  *adv = g_utf8_next_char (p) - p;
  return g_unichar_isalpha (u) || g_unichar_type (u) == G_UNICODE_LETTER_NUMBER;
}

static gboolean
is_id_continue (const char *p, const char *end, gsize *adv)
{
  guchar c = (guchar) *p;
  if (c < 0x80)
    {
      *adv = 1;
      return g_ascii_isalnum (c) || c == '_';
    }
  gunichar u = g_utf8_get_char_validated (p, end - p);
  if (u == (gunichar) -1 || u == (gunichar) -2)
    return FALSE;
  *adv = g_utf8_next_char (p) - p;
  switch (g_unichar_type (u))
    {
    case G_UNICODE_NON_SPACING_MARK:
    case G_UNICODE_SPACING_MARK:
    case G_UNICODE_DECIMAL_NUMBER:
    case G_UNICODE_CONNECT_PUNCTUATION:
      return TRUE;
    default:
      return g_unichar_isalpha (u) || g_unichar_type (u) == G_UNICODE_LETTER_NUMBER;
    }
}

static ScToken *
push_token (Lexer *L, ScTokKind kind, gsize start, gsize end)
{
  ScToken tok = { 0 };
  tok.kind = kind;
  tok.start = start;
  tok.end = end;
  tok.line = L->line;
  tok.col = col_of (L, start);
  tok.end_line = L->line;
  tok.end_col = col_of (L, end);
  g_array_append_val (L->toks->tokens, tok);
  return &g_array_index (L->toks->tokens, ScToken, L->toks->tokens->len - 1);
}

static void
newline_at (Lexer *L, gsize pos_after_newline)
{
  L->line++;
  L->line_start = pos_after_newline;
}

/* ------------------------------------------------------------------ numbers */

/* CPython accepts `1if x else 2` (with a warning): a number may run into these keywords. */
static gboolean
keyword_follows (Lexer *L, gsize p)
{
  static const char *const words[] = { "and", "else", "for", "if", "in", "is", "not", "or" };
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      gsize n = strlen (words[i]);
      if (p + n <= L->end && memcmp (L->src + p, words[i], n) == 0)
        return TRUE;
    }
  return FALSE;
}

static gboolean
lex_digits (Lexer *L, gsize *p, int base, GString *digits, gboolean allow_leading_underscore)
{
  const char *s = L->src;
  gboolean any = FALSE;
  for (;;)
    {
      char c = *p < L->end ? s[*p] : 0;
      if (c == '_')
        {
          if (!any && !allow_leading_underscore)
            return lex_error_at (L, *p - 1, "invalid decimal literal");
          if (*p + 1 >= L->end || !g_ascii_isxdigit (s[*p + 1])
              || g_ascii_xdigit_value (s[*p + 1]) >= base)
            {
              const char *kind = base == 16 ? "hexadecimal" : base == 8 ? "octal"
                                 : base == 2 ? "binary" : "decimal";
              return lex_error_at (L, *p, "invalid %s literal", kind);
            }
          (*p)++;
          continue;
        }
      if (base == 16 ? g_ascii_isxdigit (c) : (c >= '0' && c < '0' + MIN (base, 10)))
        {
          g_string_append_c (digits, c);
          any = TRUE;
          (*p)++;
          continue;
        }
      break;
    }
  return TRUE;
}

static gboolean
lex_number (Lexer *L, gsize start)
{
  const char *s = L->src;
  gsize p = start;
  g_autoptr (GString) digits = g_string_new (NULL);
  gboolean is_float = FALSE;
  int base = 10;
  ScToken *tok;
  gsize adv;

  if (s[p] == '0' && p + 1 < L->end && strchr ("xXoObB", s[p + 1]))
    {
      char k = g_ascii_tolower (s[p + 1]);
      base = k == 'x' ? 16 : k == 'o' ? 8 : 2;
      p += 2;
      if (!lex_digits (L, &p, base, digits, TRUE))
        return FALSE;
      if (digits->len == 0 || (p < L->end && g_ascii_isdigit (s[p])))
        {
          const char *kind = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
          if (p < L->end && g_ascii_isdigit (s[p]))
            return lex_error_at (L, p, "invalid digit '%c' in %s literal", s[p], kind);
          return lex_error_at (L, p - 1, "invalid %s literal", kind);
        }
    }
  else
    {
      if (s[p] != '.')
        {
          if (!lex_digits (L, &p, 10, digits, FALSE))
            return FALSE;
        }
      if (p < L->end && s[p] == '.')
        {
          is_float = TRUE;
          g_string_append_c (digits, '.');
          p++;
          if (p < L->end && g_ascii_isdigit (s[p]) && !lex_digits (L, &p, 10, digits, FALSE))
            return FALSE;
        }
      if (p < L->end && (s[p] == 'e' || s[p] == 'E'))
        {
          gsize q = p + 1;
          if (q < L->end && (s[q] == '+' || s[q] == '-'))
            q++;
          if (q < L->end && g_ascii_isdigit (s[q]))
            {
              is_float = TRUE;
              g_string_append_c (digits, 'e');
              if (s[p + 1] == '-')
                g_string_append_c (digits, '-');
              p = q;
              if (!lex_digits (L, &p, 10, digits, FALSE))
                return FALSE;
            }
          else
            return lex_error_at (L, q > p + 1 ? q - 1 : p - 1, "invalid decimal literal");
        }
      if (!is_float && digits->len > 1 && digits->str[0] == '0')
        {
          for (gsize i = 0; i < digits->len; i++)
            if (digits->str[i] != '0')
              return lex_error_full (L, "SyntaxError", L->line, col_of (L, start), L->line,
                                     col_of (L, start) + (int) i,
                                     "leading zeros in decimal integer literals are not "
                                     "permitted; use an 0o prefix for octal integers");
        }
    }
  tok = push_token (L, SC_TOK_NUMBER, start, p);
  if (p < L->end && (s[p] == 'j' || s[p] == 'J'))
    {
      p++;
      tok = &g_array_index (L->toks->tokens, ScToken, L->toks->tokens->len - 1);
      tok->end = p;
      tok->end_col = col_of (L, p);
      tok->number = fx_value_none ();   /* imaginary */
    }
  else if (is_float)
    tok->number = fx_value_float (g_ascii_strtod (digits->str, NULL));
  else
    {
      guint64 v = 0;
      gboolean overflow = FALSE;
      for (gsize i = 0; i < digits->len; i++)
        {
          int d = g_ascii_xdigit_value (digits->str[i]);
          if (v > (G_MAXUINT64 - d) / base)
            overflow = TRUE;
          v = v * base + d;
        }
      if (v > (guint64) G_MAXINT64)
        overflow = TRUE;
      tok->number = fx_value_int (overflow ? 0 : (int64_t) v);
      tok->number_overflow = overflow;
    }
  L->pos = p;
  if (p < L->end && is_id_start (s + p, s + L->end, &adv) && !keyword_follows (L, p))
    return lex_error_at (L, p - 1, "invalid %s literal",
                         tok->number.kind == FX_VALUE_NONE ? "imaginary"
                         : base == 16 ? "hexadecimal" : base == 8 ? "octal"
                         : base == 2 ? "binary" : "decimal");
  return TRUE;
}

/* ------------------------------------------------------------------ strings */

static gboolean
lex_string (Lexer *L, gsize start, gsize quote_pos, ScStrFlags flags)
{
  const char *s = L->src;
  char q = s[quote_pos];
  gboolean triple = quote_pos + 2 < L->end && s[quote_pos + 1] == q && s[quote_pos + 2] == q;
  gsize p = quote_pos + (triple ? 3 : 1);
  int start_line = L->line, start_col = col_of (L, start);
  gsize saved_line_start = L->line_start;
  int body_line = L->line, body_col = col_of (L, p);
  gsize body_start = p;
  ScToken *tok;

  for (;;)
    {
      if (p >= L->end)
        {
          /* CPython names the line of the last character, not the one after it */
          int last_line = L->line - (L->line > start_line && L->end > 0
                                     && s[L->end - 1] == '\n');
          L->line = start_line;
          L->line_start = saved_line_start;
          if (triple)
            return lex_error_full (L, "SyntaxError", start_line, start_col, start_line,
                                   start_col,
                                   "unterminated triple-quoted string literal (detected at "
                                   "line %d)", last_line);
          return lex_error_full (L, "SyntaxError", start_line, start_col, start_line,
                                 start_col,
                                 "unterminated string literal (detected at line %d)", last_line);
        }
      char c = s[p];
      if (c == '\\')
        {
          if (p + 1 < L->end && s[p + 1] == '\n')
            {
              newline_at (L, p + 2);
              p += 2;
              continue;
            }
          if (p + 2 < L->end && s[p + 1] == '\r' && s[p + 2] == '\n')
            {
              newline_at (L, p + 3);
              p += 3;
              continue;
            }
          p += 2;
          continue;
        }
      if (c == '\n')
        {
          if (!triple)
            return lex_error_full (L, "SyntaxError", start_line, start_col, start_line,
                                   start_col,
                                   "unterminated string literal (detected at line %d)",
                                   L->line);
          p++;
          newline_at (L, p);
          continue;
        }
      if (c == q)
        {
          if (!triple)
            break;
          if (p + 2 < L->end && s[p + 1] == q && s[p + 2] == q)
            break;
        }
      p++;
    }
  {
    ScToken t = { 0 };
    t.kind = SC_TOK_STRING;
    t.start = start;
    t.end = p + (triple ? 3 : 1);
    t.line = start_line;
    t.col = start_col;
    t.end_line = L->line;
    t.end_col = col_of (L, t.end);
    t.str_flags = flags | (triple ? SC_STR_TRIPLE : 0);
    t.body_start = body_start;
    t.body_end = p;
    t.body_line = body_line;
    t.body_col = body_col;
    g_array_append_val (L->toks->tokens, t);
    tok = &g_array_index (L->toks->tokens, ScToken, L->toks->tokens->len - 1);
    (void) tok;
  }
  L->pos = p + (triple ? 3 : 1);
  return TRUE;
}

/* A string prefix (r, b, f, u, rb, br, fr, rf in any case) directly followed by a quote. */
static gboolean
string_prefix (const char *s, gsize p, gsize end, ScStrFlags *flags, gsize *quote_pos)
{
  ScStrFlags f = 0;
  gsize i;
  for (i = p; i < end && i < p + 3; i++)
    {
      char c = g_ascii_tolower (s[i]);
      if (c == '\'' || c == '"')
        break;
      if (c == 'r' && !(f & SC_STR_RAW))
        f |= SC_STR_RAW;
      else if (c == 'b' && !(f & (SC_STR_BYTES | SC_STR_FORMAT)))
        f |= SC_STR_BYTES;
      else if (c == 'f' && !(f & (SC_STR_BYTES | SC_STR_FORMAT)))
        f |= SC_STR_FORMAT;
      else if (c == 'u' && i == p && i + 1 < end && (s[i + 1] == '\'' || s[i + 1] == '"'))
        ;
      else
        return FALSE;
    }
  if (i >= end || (s[i] != '\'' && s[i] != '"'))
    return FALSE;
  *flags = f;
  *quote_pos = i;
  return TRUE;
}

/* ------------------------------------------------------------------ escapes */

gboolean
sc_decode_string_body (const char *body, gsize len, gboolean raw, GString *out, char **error_msg,
                       gsize *error_offset)
{
  gsize i = 0;
  while (i < len)
    {
      char c = body[i];
      if (c == '\r')
        {
          /* universal newlines: the file's \r\n reads as \n */
          g_string_append_c (out, '\n');
          i += (i + 1 < len && body[i + 1] == '\n') ? 2 : 1;
          continue;
        }
      if (c != '\\' || raw)
        {
          if (raw && c == '\\' && i + 1 < len)
            {
              /* a raw string keeps the backslash and the escaped quote both */
              g_string_append_c (out, c);
              g_string_append_c (out, body[i + 1]);
              i += 2;
              continue;
            }
          g_string_append_c (out, c);
          i++;
          continue;
        }
      if (i + 1 >= len)
        {
          g_string_append_c (out, '\\');
          i++;
          continue;
        }
      char e = body[i + 1];
      i += 2;
      switch (e)
        {
        case '\n': break;
        case '\r':
          if (i < len && body[i] == '\n')
            i++;
          break;
        case '\\': g_string_append_c (out, '\\'); break;
        case '\'': g_string_append_c (out, '\''); break;
        case '"': g_string_append_c (out, '"'); break;
        case 'a': g_string_append_c (out, '\a'); break;
        case 'b': g_string_append_c (out, '\b'); break;
        case 'f': g_string_append_c (out, '\f'); break;
        case 'n': g_string_append_c (out, '\n'); break;
        case 'r': g_string_append_c (out, '\r'); break;
        case 't': g_string_append_c (out, '\t'); break;
        case 'v': g_string_append_c (out, '\v'); break;
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
          {
            int v = e - '0';
            for (int k = 0; k < 2 && i < len && body[i] >= '0' && body[i] <= '7'; k++)
              v = v * 8 + (body[i++] - '0');
            g_string_append_unichar (out, v);
            break;
          }
        case 'x': case 'u': case 'U':
          {
            int n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
            guint32 v = 0;
            for (int k = 0; k < n; k++)
              {
                if (i + k >= len || !g_ascii_isxdigit (body[i + k]))
                  {
                    *error_msg = g_strdup_printf (
                      "(unicode error) 'unicodeescape' codec can't decode bytes in position "
                      "%" G_GSIZE_FORMAT "-%" G_GSIZE_FORMAT ": truncated %s%s escape",
                      i - 2, i + k - 1, e == 'x' ? "\\x" : e == 'u' ? "\\u" : "\\U",
                      e == 'x' ? "XX" : e == 'u' ? "XXXX" : "XXXXXXXX");
                    *error_offset = i - 2;
                    return FALSE;
                  }
                v = v * 16 + g_ascii_xdigit_value (body[i + k]);
              }
            i += n;
            if (v > 0x10FFFF)
              {
                *error_msg = g_strdup ("(unicode error) 'unicodeescape' codec can't decode "
                                       "bytes: illegal Unicode character");
                *error_offset = i - n - 2;
                return FALSE;
              }
            g_string_append_unichar (out, v);
            break;
          }
        case 'N':
          *error_msg = g_strdup ("\\N{...} escapes are not supported by fx");
          *error_offset = i - 2;
          return FALSE;
        default:
          /* unknown escapes stay as written (CPython only warns) */
          g_string_append_c (out, '\\');
          g_string_append_c (out, e);
          break;
        }
    }
  return TRUE;
}

/* ------------------------------------------------------------------ main loop */

/* Reads the indentation of a new line. Returns FALSE on error; *skip when the line is blank
 * or a comment only (it produces no tokens). */
static gboolean
lex_indentation (Lexer *L, gboolean *skip)
{
  const char *s = L->src;
  gsize p = L->pos;
  int col = 0, alt = 0;

  for (; p < L->end; p++)
    {
      if (s[p] == ' ')
        col++, alt++;
      else if (s[p] == '\t')
        col = (col / 8 + 1) * 8, alt++;
      else if (s[p] == '\f')
        col = alt = 0;
      else
        break;
    }
  L->pos = p;
  /* a backslash continuation is not a blank line: its indentation counts (CPython) */
  if (p >= L->end || s[p] == '#' || s[p] == '\n' || s[p] == '\r')
    {
      *skip = TRUE;
      return TRUE;
    }
  *skip = FALSE;
  if (col == L->indents[L->n_indents])
    {
      if (alt != L->alt_indents[L->n_indents])
        return lex_error_full (L, "TabError", L->line, 0, L->line, -1,
                               "inconsistent use of tabs and spaces in indentation");
    }
  else if (col > L->indents[L->n_indents])
    {
      if (L->n_indents + 1 >= MAX_INDENT_LEVEL)
        return lex_error_full (L, "IndentationError", L->line, col_of (L, p), L->line,
                               col_of (L, p) + 1, "too many levels of indentation");
      if (alt <= L->alt_indents[L->n_indents])
        return lex_error_full (L, "TabError", L->line, 0, L->line, -1,
                               "inconsistent use of tabs and spaces in indentation");
      L->n_indents++;
      L->indents[L->n_indents] = col;
      L->alt_indents[L->n_indents] = alt;
      push_token (L, SC_TOK_INDENT, L->line_start, p);
    }
  else
    {
      while (L->n_indents > 0 && col < L->indents[L->n_indents])
        {
          L->n_indents--;
          push_token (L, SC_TOK_DEDENT, p, p);
        }
      if (col != L->indents[L->n_indents])
        {
          gsize eol = p;
          while (eol < L->end && s[eol] != '\n' && s[eol] != '\r')
            eol++;
          return lex_error_full (L, "IndentationError", L->line, col_of (L, eol),
                                 L->line, col_of (L, eol) + 1,
                                 "unindent does not match any outer indentation level");
        }
      if (alt != L->alt_indents[L->n_indents])
        return lex_error_full (L, "TabError", L->line, 0, L->line, -1,
                               "inconsistent use of tabs and spaces in indentation");
    }
  return TRUE;
}

static gboolean
lex_run (Lexer *L)
{
  const char *s = L->src;

  while (!L->toks->failed)
    {
      gsize p, adv;
      char c;
      ScStrFlags sflags;
      gsize quote_pos;

      if (L->at_bol && L->n_parens == 0 && !L->expr_mode)
        {
          gboolean skip;
          L->at_bol = FALSE;
          if (!lex_indentation (L, &skip))
            return FALSE;
          if (skip)
            {
              /* blank or comment-only line: consume to the end of line */
              while (L->pos < L->end && s[L->pos] != '\n')
                {
                  if (s[L->pos] == '\\' && L->pos + 1 < L->end && s[L->pos + 1] == '\n'
                      && s[L->pos] != '#')
                    break;
                  if (s[L->pos] == '#')
                    {
                      while (L->pos < L->end && s[L->pos] != '\n')
                        L->pos++;
                      break;
                    }
                  L->pos++;
                }
              if (L->pos < L->end && s[L->pos] == '\\')
                {
                  /* a backslash continuation on an otherwise empty line */
                  L->pos += 2;
                  newline_at (L, L->pos);
                  L->at_bol = FALSE;
                  continue;
                }
              if (L->pos >= L->end)
                break;
              L->pos++;
              newline_at (L, L->pos);
              L->at_bol = TRUE;
              continue;
            }
        }

      p = L->pos;
      if (p >= L->end)
        break;
      c = s[p];

      if (c == ' ' || c == '\t' || c == '\f')
        {
          L->pos++;
          continue;
        }
      if (c == '#')
        {
          while (L->pos < L->end && s[L->pos] != '\n')
            L->pos++;
          continue;
        }
      if (c == '\r' && p + 1 < L->end && s[p + 1] == '\n')
        {
          L->pos++;
          continue;
        }
      if (c == '\n' || c == '\r')
        {
          if (L->n_parens == 0 && !L->expr_mode)
            {
              ScToken *last = L->toks->tokens->len
                                ? &g_array_index (L->toks->tokens, ScToken, L->toks->tokens->len - 1)
                                : NULL;
              if (last && last->kind != SC_TOK_NEWLINE && last->kind != SC_TOK_INDENT
                  && last->kind != SC_TOK_DEDENT)
                {
                  /* CPython's NEWLINE token is a point (errors at it show end == start) */
                  ScToken *nl = push_token (L, SC_TOK_NEWLINE, p, p + 1);
                  nl->end_col = nl->col;
                }
              L->at_bol = TRUE;
            }
          L->pos = p + 1;
          newline_at (L, L->pos);
          continue;
        }
      if (c == '\\')
        {
          if (p + 1 < L->end && s[p + 1] == '\n')
            {
              L->pos = p + 2;
              newline_at (L, L->pos);
              continue;
            }
          if (p + 2 < L->end && s[p + 1] == '\r' && s[p + 2] == '\n')
            {
              L->pos = p + 3;
              newline_at (L, L->pos);
              continue;
            }
          if (p + 1 >= L->end)
            return lex_error (L, p, "unexpected EOF while parsing");
          return lex_error (L, p + 1, "unexpected character after line continuation character");
        }
      if (string_prefix (s, p, L->end, &sflags, &quote_pos))
        {
          if (!lex_string (L, p, quote_pos, sflags))
            return FALSE;
          continue;
        }
      if (g_ascii_isdigit (c) || (c == '.' && p + 1 < L->end && g_ascii_isdigit (s[p + 1])))
        {
          if (!lex_number (L, p))
            return FALSE;
          continue;
        }
      if (is_id_start (s + p, s + L->end, &adv))
        {
          gsize q = p + adv;
          ScToken *tok;
          while (q < L->end && is_id_continue (s + q, s + L->end, &adv))
            q += adv;
          tok = push_token (L, SC_TOK_NAME, p, q);
          for (guint i = 0; i < G_N_ELEMENTS (keywords); i++)
            if (keywords[i].text[0] == s[p]   /* cheap test first: names are most tokens */
                && strlen (keywords[i].text) == q - p && memcmp (keywords[i].text, s + p, q - p) == 0)
              {
                tok->kw = keywords[i].kw;
                break;
              }
          L->pos = q;
          continue;
        }
      /* operators */
      {
        gboolean found = FALSE;
        for (guint i = 0; i < G_N_ELEMENTS (operators); i++)
          {
            gsize n;
            if (operators[i].text[0] != s[p])   /* cheap test first */
              continue;
            n = strlen (operators[i].text);
            if (p + n <= L->end && memcmp (s + p, operators[i].text, n) == 0)
              {
                ScOp op = operators[i].op;
                ScToken *tok;
                if (op == SC_OP_BANG && !L->expr_mode)
                  break;   /* '!' alone is only an f-string conversion */
                if (op == SC_OP_LPAR || op == SC_OP_LSQB || op == SC_OP_LBRACE)
                  {
                    if (L->n_parens >= MAX_PAREN_LEVEL)
                      return lex_error (L, p, "too many nested parentheses");
                    L->parens[L->n_parens].c = s[p];
                    L->parens[L->n_parens].line = L->line;
                    L->parens[L->n_parens].col = col_of (L, p);
                    L->n_parens++;
                  }
                else if (op == SC_OP_RPAR || op == SC_OP_RSQB || op == SC_OP_RBRACE)
                  {
                    char open = op == SC_OP_RPAR ? '(' : op == SC_OP_RSQB ? '[' : '{';
                    if (L->n_parens == 0)
                      return lex_error_at (L, p, "unmatched '%c'", s[p]);
                    if (L->parens[L->n_parens - 1].c != open)
                      {
                        if (L->parens[L->n_parens - 1].line != L->line)
                          return lex_error_at (L, p,
                                            "closing parenthesis '%c' does not match opening "
                                            "parenthesis '%c' on line %d", s[p],
                                            L->parens[L->n_parens - 1].c,
                                            L->parens[L->n_parens - 1].line);
                        return lex_error_at (L, p,
                                          "closing parenthesis '%c' does not match opening "
                                          "parenthesis '%c'", s[p], L->parens[L->n_parens - 1].c);
                      }
                    L->n_parens--;
                  }
                tok = push_token (L, SC_TOK_OP, p, p + n);
                tok->op = op;
                L->pos = p + n;
                found = TRUE;
                break;
              }
          }
        if (found)
          continue;
      }
      /* an invalid character */
      if ((guchar) c >= 0x80)
        {
          gunichar u = g_utf8_get_char_validated (s + p, L->end - p);
          if (u == (gunichar) -1 || u == (gunichar) -2)
            return lex_error (L, p, "(unicode error) 'utf-8' codec can't decode byte 0x%02x in "
                              "position %d: invalid start byte", (guchar) c, col_of (L, p));
          {
            char buf[8] = { 0 };
            g_unichar_to_utf8 (u, buf);
            return lex_error (L, p, "invalid character '%s' (U+%04X)", buf, u);
          }
        }
      if (c == '\0')
        return lex_error (L, p, "source code cannot contain null bytes");
      return lex_error (L, p, "invalid syntax");
    }
  if (L->toks->failed)
    return FALSE;
  if (L->n_parens > 0 && !L->expr_mode)
    {
      /* Reported only if the parser runs into the end of the file (CPython reports an
       * earlier syntax error instead, as in `def f(:`). */
      ScTokens *t = L->toks;
      t->unclosed = L->parens[L->n_parens - 1].c;
      t->unclosed_line = L->parens[L->n_parens - 1].line;
      t->unclosed_col = L->parens[L->n_parens - 1].col;
      push_token (L, SC_TOK_ENDMARKER, L->pos, L->pos);
      return TRUE;
    }
  if (!L->expr_mode)
    {
      ScToken *last = L->toks->tokens->len
                        ? &g_array_index (L->toks->tokens, ScToken, L->toks->tokens->len - 1)
                        : NULL;
      if (last && last->kind != SC_TOK_NEWLINE && last->kind != SC_TOK_DEDENT
          && last->kind != SC_TOK_INDENT)
        push_token (L, SC_TOK_NEWLINE, L->pos, L->pos);
      while (L->n_indents > 0)
        {
          L->n_indents--;
          push_token (L, SC_TOK_DEDENT, L->pos, L->pos);
        }
    }
  {
    ScToken *end = push_token (L, SC_TOK_ENDMARKER, L->pos, L->pos);
    if (!L->expr_mode && L->end > 0 && s[L->end - 1] == '\n' && L->line > 1)
      {
        /* CPython puts the end of the file at the end of its last line */
        gsize line_start = L->end - 1;
        while (line_start > 0 && s[line_start - 1] != '\n')
          line_start--;
        end->line = end->end_line = L->line - 1;
        end->col = end->end_col = (int) (L->end - 1 - line_start)
                                  - (L->end >= 2 && s[L->end - 2] == '\r');
      }
  }
  return TRUE;
}

/* span: the bytes to tokenize (an f-string field is a few bytes of a long file: reserving
 * for the whole file each time would make many f-strings quadratic). */
static void
tokens_init (ScTokens *toks, const char *filename, const char *src, gsize len, gsize span)
{
  memset (toks, 0, sizeof *toks);
  toks->filename = filename;
  toks->src = src;
  toks->len = len;
  toks->tokens = g_array_sized_new (FALSE, TRUE, sizeof (ScToken), 16 + span / 4);
}

gboolean
sc_tokenize (ScTokens *toks, const char *filename, const char *src, gsize len)
{
  Lexer L = { 0 };
  tokens_init (toks, filename, src, len, len);
  L.toks = toks;
  L.src = src;
  L.end = len;
  L.line = 1;
  L.at_bol = TRUE;
  /* a UTF-8 byte order mark is skipped like CPython does */
  if (len >= 3 && memcmp (src, "\xef\xbb\xbf", 3) == 0)
    L.pos = L.line_start = 3;
  return lex_run (&L);
}

gboolean
sc_tokenize_expr (ScTokens *toks, const char *filename, const char *src, gsize start, gsize end,
                  int line, int col)
{
  Lexer L = { 0 };
  tokens_init (toks, filename, src, end, end > start ? end - start : 0);
  L.toks = toks;
  L.src = src;
  L.pos = start;
  L.end = end;
  L.line = line;
  L.line_start = start;
  L.col_base = col;
  L.base_line = line;
  L.expr_mode = TRUE;
  return lex_run (&L);
}

void
sc_tokens_clear (ScTokens *toks)
{
  if (toks->tokens)
    g_array_free (toks->tokens, TRUE);
  toks->tokens = NULL;
  g_clear_pointer (&toks->error_msg, g_free);
}
