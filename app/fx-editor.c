/* fx-editor.c: main() of FX Editor, the GTK 4 desktop app. */
#include "fx-application.h"
#include "fx-ui.h"

int
main (int argc, char **argv)
{
  g_autoptr (FxApplication) app = NULL;

  fx_ui_choose_renderer ();
  g_set_application_name ("FX Editor");
  app = fx_application_new (G_APPLICATION_DEFAULT_FLAGS);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
