/* codegen.h: Python source for a graph, byte-identical to torch.fx 1.13's
 * Graph.python_code(root_module).src — the text of GraphModule.code. */
#pragma once

#include "ir/graph.h"

G_BEGIN_DECLS

/* verbose adds torch.fx's stack-trace summary comments (from meta["stack_trace"]). */
char *fx_graph_python_code (FxGraph *graph, const char *root_module, gboolean verbose);
/* The same, also listing the globals the code calls besides torch's own and the operators
 * (what exec() needs to run it): global_names gets the names (g_free'd by the array's free
 * function, add one), global_values the call_function targets they stand for (FxValue*,
 * borrowed from the graph's nodes). */
char *fx_graph_python_code_full (FxGraph *graph, const char *root_module, gboolean verbose,
                                 GPtrArray *global_names, GPtrArray *global_values);
/* The same code as fx_graph_python_code, and where each node's statement is: line_nodes (an
 * empty array, no free function) gets one entry per line of the code, 0-based — the FxNode
 * whose statement (`name = ...`, the `return` of output) starts there, or NULL. */
char *fx_graph_python_code_with_lines (FxGraph *graph, const char *root_module, gboolean verbose,
                                       GPtrArray *line_nodes);

/* _format_target: "self.layer1.conv" or getattr(self.layer1, "0").conv1 for non-identifiers. */
void  fx_format_target     (GString *out, const char *base, const char *target);

G_END_DECLS
