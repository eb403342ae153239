/* golden-script.h: the conformance test over a directory of scripts — each
 * conformance/DIR/NAME.py runs under `fx run` (in that directory) and must print
 * conformance/goldens/DIR/NAME.out and exit with NAME.exit's status (0 when absent), as the
 * gen_*.py script that recorded them with PyTorch 1.13 saw. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What fx printed, made comparable with the golden (new string); NULL: as it is. */
typedef char *(*FxGoldenNormaliseFunc) (const char *output);

/* The test program's main: one subtest PREFIX/NAME per script of conformance/DIR
 * (under G_TEST_SRCDIR), each given timeout_seconds; generator names the gen_*.py script in
 * messages about missing goldens. */
int   fx_golden_script_main        (int argc, char **argv, const char *dir, const char *prefix,
                                    guint timeout_seconds, FxGoldenNormaliseFunc normalise,
                                    const char *generator);

/* Object addresses (0x + hex digits) made 0xADDR, as the generators write them. */
char *fx_golden_normalise_addresses (const char *output);

G_END_DECLS
