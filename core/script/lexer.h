/* lexer.h: turns Python source into tokens (NAME, NUMBER, STRING, OP, NEWLINE, INDENT,
 * DEDENT), with CPython's positions (1-based lines, 0-based UTF-8 byte columns). */
#pragma once

#include <glib.h>
#include "ir/value.h"

G_BEGIN_DECLS

typedef enum {
  SC_TOK_ENDMARKER,
  SC_TOK_NAME,
  SC_TOK_NUMBER,
  SC_TOK_STRING,
  SC_TOK_NEWLINE,
  SC_TOK_INDENT,
  SC_TOK_DEDENT,
  SC_TOK_OP,
} ScTokKind;

/* Operators and delimiters; SC_OP_NONE for tokens that are not one. */
typedef enum {
  SC_OP_NONE,
  SC_OP_LPAR, SC_OP_RPAR, SC_OP_LSQB, SC_OP_RSQB, SC_OP_LBRACE, SC_OP_RBRACE,
  SC_OP_COLON, SC_OP_COMMA, SC_OP_SEMI, SC_OP_DOT, SC_OP_ELLIPSIS, SC_OP_ARROW,
  SC_OP_AT, SC_OP_EQUAL, SC_OP_WALRUS, SC_OP_BANG,
  /* binary operators, in the order of ScBinOp (ast.h) */
  SC_OP_PLUS, SC_OP_MINUS, SC_OP_STAR, SC_OP_SLASH, SC_OP_DSLASH, SC_OP_PERCENT,
  SC_OP_DSTAR, SC_OP_LSHIFT, SC_OP_RSHIFT, SC_OP_AMP, SC_OP_VBAR, SC_OP_CIRC, SC_OP_MATMUL,
  /* augmented assignments, same order */
  SC_OP_PLUSEQ, SC_OP_MINUSEQ, SC_OP_STAREQ, SC_OP_SLASHEQ, SC_OP_DSLASHEQ, SC_OP_PERCENTEQ,
  SC_OP_DSTAREQ, SC_OP_LSHIFTEQ, SC_OP_RSHIFTEQ, SC_OP_AMPEQ, SC_OP_VBAREQ, SC_OP_CIRCEQ,
  SC_OP_ATEQ,
  SC_OP_TILDE,
  SC_OP_LT, SC_OP_GT, SC_OP_LE, SC_OP_GE, SC_OP_EQEQ, SC_OP_NE,
} ScOp;

typedef enum {
  SC_KW_NONE,
  SC_KW_FALSE, SC_KW_NONE_, SC_KW_TRUE, SC_KW_AND, SC_KW_AS, SC_KW_ASSERT, SC_KW_ASYNC,
  SC_KW_AWAIT, SC_KW_BREAK, SC_KW_CLASS, SC_KW_CONTINUE, SC_KW_DEF, SC_KW_DEL, SC_KW_ELIF,
  SC_KW_ELSE, SC_KW_EXCEPT, SC_KW_FINALLY, SC_KW_FOR, SC_KW_FROM, SC_KW_GLOBAL, SC_KW_IF,
  SC_KW_IMPORT, SC_KW_IN, SC_KW_IS, SC_KW_LAMBDA, SC_KW_NONLOCAL, SC_KW_NOT, SC_KW_OR,
  SC_KW_PASS, SC_KW_RAISE, SC_KW_RETURN, SC_KW_TRY, SC_KW_WHILE, SC_KW_WITH, SC_KW_YIELD,
} ScKw;

typedef enum {
  SC_STR_RAW = 1 << 0,
  SC_STR_BYTES = 1 << 1,
  SC_STR_FORMAT = 1 << 2,   /* f-string */
  SC_STR_TRIPLE = 1 << 3,
} ScStrFlags;

typedef struct {
  ScTokKind kind;
  ScOp op;
  ScKw kw;
  int line, col, end_line, end_col;
  gsize start, end;          /* byte range of the whole token in the source */
  /* NUMBER */
  FxValue number;            /* int or float; kind NONE for an imaginary literal */
  gboolean number_overflow;  /* an int literal beyond 64 bits */
  /* STRING */
  ScStrFlags str_flags;
  gsize body_start, body_end;  /* between the quotes */
  int body_line, body_col;     /* position of body_start */
} ScToken;

typedef struct {
  const char *filename;
  const char *src;
  gsize len;
  GArray *tokens;            /* ScToken */
  /* the first error, as a SyntaxError (or IndentationError / TabError) */
  gboolean failed;
  const char *error_class;   /* "SyntaxError", "IndentationError", "TabError" */
  char *error_msg;
  int error_line, error_col, error_end_line, error_end_col;   /* cols: byte offsets */
  /* a bracket still open at the end of the file ('\0': none): "'(' was never closed" if
   * the parser reaches the end */
  char unclosed;
  int unclosed_line, unclosed_col;
} ScTokens;

/* Tokenizes a whole file. Returns FALSE and fills the error fields on a lexical error. */
gboolean sc_tokenize (ScTokens *toks, const char *filename, const char *src, gsize len);

/* Tokenizes src[start, end) as one expression inside brackets (an f-string replacement
 * field), positions relative to the whole source; line/col is the position of start. */
gboolean sc_tokenize_expr (ScTokens *toks, const char *filename, const char *src, gsize start,
                           gsize end, int line, int col);

void sc_tokens_clear (ScTokens *toks);

const char *sc_op_text (ScOp op);
const char *sc_keyword_text (ScKw kw);

/* Decodes a (non-f) string literal body with its escapes; FALSE with *error_msg on a bad
 * escape (g_free it). The result may contain NUL bytes (len in *out_len). */
gboolean sc_decode_string_body (const char *body, gsize len, gboolean raw, GString *out,
                                char **error_msg, gsize *error_offset);

G_END_DECLS
