/* fx-ui.c: registers FX Editor's resources and widget types once. */
#include "fx-ui.h"
#include "fx-resources.h"

void
fx_ui_init (void)
{
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized))
    {
      fx_editor_register_resource ();
      g_type_ensure (FX_TYPE_SOURCE_PANE);
      g_type_ensure (FX_TYPE_GRAPH_VIEW);
      g_type_ensure (FX_TYPE_CODE_VIEW);
      g_type_ensure (FX_TYPE_NODE_INSPECTOR);
      g_type_ensure (FX_TYPE_NODE_TABLE);
      g_once_init_leave (&initialized, 1);
    }
}
