/* fuzz-parser.c: libFuzzer target for the Python-subset front end's lexer, parser and scope
 * analysis — every input must compile or give a SyntaxError, without crashes or leaks. */
#include <stdint.h>
#include <stddef.h>

#include "script/parser.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  ScSyntaxError err;
  ScUnit *unit = sc_compile ("<fuzz>", (const char *) data, size, &err);

  if (unit)
    sc_unit_unref (unit);
  sc_syntax_error_clear (&err);
  return 0;
}
