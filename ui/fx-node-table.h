/* fx-node-table.h: FxNodeTable — print_tabular() as a sortable table: one row per node with
 * its opcode, name, target, args and kwargs. */
#pragma once

#include <gtk/gtk.h>
#include <fx.h>

G_BEGIN_DECLS

#define FX_TYPE_NODE_TABLE (fx_node_table_get_type ())
G_DECLARE_FINAL_TYPE (FxNodeTable, fx_node_table, FX, NODE_TABLE, GtkWidget)

/* Table columns, in print_tabular's order. */
typedef enum {
  FX_NODE_TABLE_OPCODE,
  FX_NODE_TABLE_NAME,
  FX_NODE_TABLE_TARGET,
  FX_NODE_TABLE_ARGS,
  FX_NODE_TABLE_KWARGS,
  FX_NODE_TABLE_N_COLUMNS
} FxNodeTableColumn;

GtkWidget  *fx_node_table_new              (void);
void        fx_node_table_set_graph_module (FxNodeTable *self, FxGraphModule *gm);
/* Selects node's row without emitting "node-activated" (NULL: no selection). */
void        fx_node_table_select_node      (FxNodeTable *self, FxNode *node);
FxNode     *fx_node_table_get_selected     (FxNodeTable *self);
/* Rows as shown (sorted): how many, and the text of one cell. */
guint       fx_node_table_get_n_rows       (FxNodeTable *self);
const char *fx_node_table_get_cell         (FxNodeTable *self, guint row, FxNodeTableColumn column);
FxNode     *fx_node_table_get_row_node     (FxNodeTable *self, guint row);
/* Selects row (as shown) as a click does: "node-activated" follows. */
void        fx_node_table_activate_row     (FxNodeTable *self, guint row);
/* Sorts by column as a click on its header does (NULL-safe in graph order: column < 0). */
void        fx_node_table_sort_by          (FxNodeTable *self, int column, GtkSortType order);
/* "node-activated" (FxNode *node): the user selected node's row. */

G_END_DECLS
