/* test-rewrite.c: the subgraph rewriter against torch.fx 1.13 — every case script
 * rewrite/NAME.py (replace_pattern's matches, the rewritten code and graph, its errors) runs
 * under `fx run` and prints exactly what PyTorch printed (goldens/rewrite/NAME.out, exit
 * status NAME.exit when not 0; recorded by gen_rewrite.py). The cases print no addresses
 * and catch their exceptions, so the outputs are compared as they are. */
#include "golden-script.h"

int
main (int argc, char **argv)
{
  return fx_golden_script_main (argc, argv, "rewrite", "/conformance/rewrite", 300, NULL,
                                "gen_rewrite.py");
}
