/* fx-application.c: FxApplication — app-wide actions and accelerators, one window per file. */
#include "fx-application.h"
#include "fx-window.h"
#include "fx-ui.h"

#include <fx.h>

struct _FxApplication {
  AdwApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (FxApplication, fx_application, ADW_TYPE_APPLICATION)

static const struct {
  const char *action;
  const char *accels[4];
} fx_accels[] = {
  { "app.quit",              { "<Control>q", NULL } },
  { "win.open",              { "<Control>o", NULL } },
  { "win.save",              { "<Control>s", NULL } },
  { "win.undo",              { "<Control>z", NULL } },
  { "win.redo",              { "<Shift><Control>z", "<Control>y", NULL } },
  { "win.export-code",       { "<Shift><Control>e", NULL } },
  { "win.find",              { "<Control>f", NULL } },
  { "win.zoom-in",           { "<Control>plus", "<Control>equal", "<Control>KP_Add", NULL } },
  { "win.zoom-out",          { "<Control>minus", "<Control>KP_Subtract", NULL } },
  { "win.zoom-fit",          { "<Control>0", NULL } },
  { "win.show-help-overlay", { "<Control>question", NULL } },
};

static void
on_quit (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  g_application_quit (G_APPLICATION (user_data));
}

static void
on_about (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  const char *developers[] = { "The FX Editor developers", NULL };
  GtkWidget *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", gtk_application_get_active_window (app),
                        "application-name", "FX Editor",
                        "application-icon", FX_APPLICATION_ID,
                        "version", fx_version (),
                        "comments", "See and edit the graphs that torch.fx captures",
                        "developers", developers,
                        "license-type", GTK_LICENSE_MIT_X11,
                        NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static const GActionEntry app_actions[] = {
  { .name = "quit", .activate = on_quit },
  { .name = "about", .activate = on_about },
};

static void
fx_application_startup (GApplication *app)
{
  fx_ui_init ();
  G_APPLICATION_CLASS (fx_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions),
                                   app);
  for (guint i = 0; i < G_N_ELEMENTS (fx_accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), fx_accels[i].action,
                                           fx_accels[i].accels);
}

/* FX_EDITOR_REPORT_FIRST_FRAME (tests/bench/bench-startup.c): print the monotonic time of
 * the first painted frame, then quit — start-up measured the way a user sees it. */
static void
on_first_frame (GdkFrameClock *clock, gpointer user_data)
{
  GApplication *app = G_APPLICATION (user_data);

  g_signal_handlers_disconnect_by_func (clock, on_first_frame, user_data);
  g_print ("first-frame %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
  g_application_quit (app);
}

static void
report_first_frame (GApplication *app, GtkWindow *window)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));

  if (clock != NULL)
    g_signal_connect (clock, "after-paint", G_CALLBACK (on_first_frame), app);
}

static void
fx_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (fx_window_new (FX_APPLICATION (app)));
  gtk_window_present (window);
  if (g_getenv ("FX_EDITOR_REPORT_FIRST_FRAME") != NULL)
    report_first_frame (app, window);
}

/* Files named on the command line: the first reuses an empty window, the rest get their own. */
static void
fx_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  for (int i = 0; i < n_files; i++)
    {
      GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (app));
      FxWindow *window;

      if (active != NULL && FX_IS_WINDOW (active) && fx_window_get_file (FX_WINDOW (active)) == NULL)
        window = FX_WINDOW (active);
      else
        window = fx_window_new (FX_APPLICATION (app));
      fx_window_open_file (window, files[i]);
      gtk_window_present (GTK_WINDOW (window));
    }
}

static void
fx_application_class_init (FxApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->startup = fx_application_startup;
  app_class->activate = fx_application_activate;
  app_class->open = fx_application_open;
}

static void
fx_application_init (FxApplication *self)
{
}

FxApplication *
fx_application_new (GApplicationFlags extra_flags)
{
  return g_object_new (FX_TYPE_APPLICATION,
                       "application-id", FX_APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN | extra_flags,
                       "resource-base-path", "/org/fxeditor/FxEditor",
                       NULL);
}
