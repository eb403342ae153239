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

/* Is there a device GL could render on? Mesa needs a DRI node (/dev/dri), NVIDIA's driver its
 * own nodes; without either, GL means Mesa's software rasteriser. */
static gboolean
have_gpu_device (void)
{
  return g_file_test ("/dev/dri", G_FILE_TEST_IS_DIR) || g_file_test ("/dev/nvidiactl", G_FILE_TEST_EXISTS);
}

FxUiRenderer
fx_ui_renderer_for (const char *const *envp, gboolean gpu_device)
{
  const char *forced_gl = g_environ_getenv ((char **) envp, "FX_EDITOR_GL");
  const char *software = g_environ_getenv ((char **) envp, "LIBGL_ALWAYS_SOFTWARE");

  if (g_environ_getenv ((char **) envp, "GSK_RENDERER") != NULL
      || g_environ_getenv ((char **) envp, "GDK_DEBUG") != NULL
      || g_environ_getenv ((char **) envp, "GDK_DISABLE") != NULL)
    return FX_UI_RENDERER_USER;
  if (forced_gl != NULL && g_strcmp0 (forced_gl, "0") != 0)
    return FX_UI_RENDERER_GTK_DEFAULT;
  if (!gpu_device || (software != NULL && g_strcmp0 (software, "0") != 0))
    return FX_UI_RENDERER_CAIRO;
  return FX_UI_RENDERER_GTK_DEFAULT;
}

FxUiRenderer
fx_ui_choose_renderer (void)
{
  g_auto (GStrv) envp = g_get_environ ();
  FxUiRenderer choice = fx_ui_renderer_for ((const char *const *) envp, have_gpu_device ());

  if (choice == FX_UI_RENDERER_CAIRO)
    {
      /* GSK_RENDERER alone still makes GDK set up GL (and load LLVM) for its own checks;
       * disabling GL in GDK skips that too. GTK 4.16 renamed the switch. */
      g_setenv ("GSK_RENDERER", "cairo", TRUE);
      if (gtk_get_major_version () == 4 && gtk_get_minor_version () >= 16)
        g_setenv ("GDK_DISABLE", "gl", TRUE);
      else
        g_setenv ("GDK_DEBUG", "gl-disable", TRUE);
    }
  return choice;
}
