/* graph-module.h: FxGraphModule — an nn.Module (FxModule tree) generated from a graph: it
 * copies from its root exactly the attributes the graph uses (torch.fx 1.13's rules) and
 * keeps the generated code in sync through recompile(). */
#pragma once

#include "ir/graph.h"
#include "ir/module.h"

G_BEGIN_DECLS

struct _FxGraphModule {
  gatomicrefcount ref;
  FxModule *module;     /* its own tree; type_name is the class name ("GraphModule") */
  FxGraph *graph;
  char *code;           /* GraphModule.code as of the last recompile */
  /* A cache of a higher layer (core/run's execution plan): freed with gm and by
   * recompile(), since it stands for the code of the last recompile. */
  gpointer exec_cache;
  GDestroyNotify exec_cache_free;
};

/* GraphModule(root, graph, class_name): for every get_attr/call_module target, the object
 * at that path in root is installed at the same path (parents made as plain Modules; plain
 * tensors become buffers). */
FxGraphModule *fx_graph_module_new       (FxModule *root, FxGraph *graph, const char *class_name,
                                          GError **error);
/* The dict form of root: target path → value (module, tensor or other). */
FxGraphModule *fx_graph_module_new_from_dict (FxDict *root, FxGraph *graph,
                                              const char *class_name, GError **error);
FxGraphModule *fx_graph_module_ref       (FxGraphModule *gm);
void           fx_graph_module_unref     (FxGraphModule *gm);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxGraphModule, fx_graph_module_unref)

/* gm.graph = graph: takes a reference, marks gm as its owner, recompiles. */
void           fx_graph_module_set_graph (FxGraphModule *gm, FxGraph *graph);
/* Regenerates gm->code from gm->graph; returns it (owned by gm). */
const char    *fx_graph_module_recompile (FxGraphModule *gm);
/* print_readable(): "class GraphModule(torch.nn.Module):\n    def forward(...)" with stack
 * trace comments. g_free. */
char          *fx_graph_module_print_readable (FxGraphModule *gm);
/* str(gm): the module repr, the code and 1.13's reminder line. g_free. */
char          *fx_graph_module_to_string (FxGraphModule *gm);

/* add_submodule / delete_submodule / delete_all_unused_submodules of 1.13. */
gboolean       fx_graph_module_add_submodule    (FxGraphModule *gm, const char *target,
                                                 FxModule *module);
gboolean       fx_graph_module_delete_submodule (FxGraphModule *gm, const char *target);
void           fx_graph_module_delete_all_unused_submodules (FxGraphModule *gm);

/* GraphModule.to_folder(folder, module_name): writes folder/module.py (class module_name,
 * NULL for "FxModule"), folder/__init__.py and folder/state_dict.pt so that real PyTorch
 * imports and runs it; builtin layers are rebuilt from their reprs and plain Modules as
 * torch.nn.Module() with their contents (1.13 pickles those, which libfx cannot).
 * Implemented in to-folder.c. */
gboolean       fx_graph_module_to_folder (FxGraphModule *gm, const char *folder,
                                          const char *module_name, GError **error);

/* lint's check of one node's target against the module (called by fx_graph_lint). */
gboolean       fx_graph_module_lint_node (FxGraphModule *gm, FxNode *node, GError **error);

G_END_DECLS
