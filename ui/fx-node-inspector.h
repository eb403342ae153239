/* fx-node-inspector.h: FxNodeInspector — everything about one node: op, name, target, args,
 * kwargs, users, type and meta, and for call_module the module's repr and parameter shapes. */
#pragma once

#include <gtk/gtk.h>
#include <fx.h>

G_BEGIN_DECLS

#define FX_TYPE_NODE_INSPECTOR (fx_node_inspector_get_type ())
G_DECLARE_FINAL_TYPE (FxNodeInspector, fx_node_inspector, FX, NODE_INSPECTOR, GtkWidget)

GtkWidget *fx_node_inspector_new      (void);
/* Shows node of gm (gm gives call_module targets their module); NULL node: the empty state. */
void       fx_node_inspector_set_node (FxNodeInspector *self, FxGraphModule *gm, FxNode *node);
FxNode    *fx_node_inspector_get_node (FxNodeInspector *self);
/* The text shown for a field: "op", "name", "target", "args", "kwargs", "users", "type",
 * "module", "parameters", "meta"; NULL when the field is not shown. */
const char *fx_node_inspector_get_field (FxNodeInspector *self, const char *field);

G_END_DECLS
