/* codegen.h: Python source for a graph, byte-identical to torch.fx 1.13's
 * Graph.python_code(root_module).src — the text of GraphModule.code. */
#pragma once

#include "ir/graph.h"

G_BEGIN_DECLS

/* verbose adds torch.fx's stack-trace summary comments (from meta["stack_trace"]). */
char *fx_graph_python_code (FxGraph *graph, const char *root_module, gboolean verbose);

/* _format_target: "self.layer1.conv" or getattr(self.layer1, "0").conv1 for non-identifiers. */
void  fx_format_target     (GString *out, const char *base, const char *target);

G_END_DECLS
