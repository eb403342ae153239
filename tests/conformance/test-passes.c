/* test-passes.c: the graph passes in scripts — every passes/NAME.py (fuse of
 * torch.fx.experimental.optimization on ResNet-18 and on the pattern's edge cases,
 * Graph.eliminate_dead_code, const_fold) runs under `fx run` and prints what PyTorch 1.13
 * printed (goldens/passes/NAME.out, recorded by gen_passes.py). Output is normalised as
 * gen_passes.py normalised torch's: the passes directory's path removed, object addresses
 * made 0xADDR. */
#include "golden-script.h"

static char *
normalise (const char *output)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "conformance", "passes", NULL);
  g_autofree char *prefix = g_strconcat (dir, "/", NULL);
  g_auto (GStrv) parts = g_strsplit (output, prefix, -1);
  g_autofree char *relative = g_strjoinv ("", parts);

  return fx_golden_normalise_addresses (relative);
}

int
main (int argc, char **argv)
{
  return fx_golden_script_main (argc, argv, "passes", "/conformance/passes", 600, normalise,
                                "gen_passes.py");
}
