/* passes-dce.c: dead code elimination over a GraphModule — Graph.eliminate_dead_code() of
 * 1.13 (its purity check of called modules, `_is_impure`, is fx_node_is_impure's), then
 * recompile. */
#include "rewrite/passes-private.h"
#include "fx-error.h"

gboolean
fx_pass_eliminate_dead_code (FxGraphModule *gm, gboolean *changed, GError **error)
{
  GError *local_error = NULL;
  gboolean any;

  g_return_val_if_fail (gm != NULL, FALSE);
  if (changed != NULL)
    *changed = FALSE;
  any = fx_graph_eliminate_dead_code (gm->graph, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  if (any)
    fx_graph_module_recompile (gm);
  if (changed != NULL)
    *changed = any;
  return TRUE;
}
