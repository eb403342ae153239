/* bench-startup.c: FX Editor's start-up — from spawning fx-editor to its first painted frame
 * (the app prints the frame's monotonic time under FX_EDITOR_REPORT_FIRST_FRAME and quits),
 * against the 0.5 s target and against a bare libadwaita window (this program run with
 * --baseline-app) started the same way in the same run: what GTK itself costs on this
 * display. Both choose their renderer as fx-editor's main() does (fx_ui_choose_renderer: cairo
 * when there is no GPU). Needs a display; skipped (77) without one. */
#include <adwaita.h>
#include "fx-ui.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TARGET_SECONDS 0.5
#define RUNS 5

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* ---- the baseline: a header bar and a status page, nothing else ---- */

static void
on_baseline_frame (GdkFrameClock *clock, gpointer app)
{
  g_signal_handlers_disconnect_by_func (clock, on_baseline_frame, app);
  g_print ("first-frame %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
  g_application_quit (G_APPLICATION (app));
}

static void
on_baseline_activate (GApplication *app)
{
  GtkWidget *window = adw_application_window_new (GTK_APPLICATION (app));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *page = adw_status_page_new ();

  adw_status_page_set_title (ADW_STATUS_PAGE (page), "Baseline");
  gtk_widget_set_vexpand (page, TRUE);
  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  gtk_box_append (GTK_BOX (box), page);
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 760);
  gtk_window_present (GTK_WINDOW (window));
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (on_baseline_frame), app);
}

static int
run_baseline (void)
{
  fx_ui_choose_renderer ();
  g_autoptr (AdwApplication) app = adw_application_new ("org.fxeditor.StartupBaseline",
                                                        G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (on_baseline_activate), NULL);
  return g_application_run (G_APPLICATION (app), 0, NULL);
}

/* One start-up: seconds from spawn to first frame, or a negative number on failure. */
static double
measure_once (const char *const *argv, GError **error)
{
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr (GSubprocess) process = NULL;
  g_autofree char *out = NULL;
  gint64 start, frame;
  const char *line;

  g_subprocess_launcher_setenv (launcher, "FX_EDITOR_REPORT_FIRST_FRAME", "1", TRUE);
  g_subprocess_launcher_setenv (launcher, "GTK_A11Y", "none", TRUE);
  g_subprocess_launcher_setenv (launcher, "NO_AT_BRIDGE", "1", TRUE);
  start = g_get_monotonic_time ();
  /* --gapplication-service is not used: each run is a fresh, unique primary instance. */
  process = g_subprocess_launcher_spawnv (launcher, argv, error);
  if (process == NULL || !g_subprocess_communicate_utf8 (process, NULL, NULL, &out, NULL, error))
    return -1;
  line = out ? strstr (out, "first-frame ") : NULL;
  if (line == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "fx-editor printed no first frame: %s",
                   out ? out : "");
      return -1;
    }
  frame = g_ascii_strtoll (line + strlen ("first-frame "), NULL, 10);
  return (frame - start) / 1e6;
}

static void
report (const char *what, double *times)
{
  qsort (times, RUNS, sizeof times[0], compare_double);
  printf ("%-28s median %.3f s, best %.3f s, worst %.3f s (%d runs)\n", what,
          times[RUNS / 2], times[0], times[RUNS - 1], RUNS);
}

int
main (int argc, char **argv)
{
  double editor[RUNS], baseline[RUNS];
  g_autoptr (GError) error = NULL;
  const char *editor_argv[] = { argc > 1 ? argv[1] : NULL, NULL };
  const char *baseline_argv[] = { argv[0], "--baseline-app", NULL };
  double median;

  if (argc > 1 && strcmp (argv[1], "--baseline-app") == 0)
    return run_baseline ();
  if (argc < 2)
    {
      fprintf (stderr, "usage: %s PATH/TO/fx-editor\n", argv[0]);
      return 2;
    }
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      printf ("startup: no display, skipped\n");
      return 77;
    }
  switch (fx_ui_choose_renderer ())
    {
    case FX_UI_RENDERER_CAIRO: printf ("renderer: cairo (no GPU here: GL off)\n"); break;
    case FX_UI_RENDERER_USER: printf ("renderer: as set in the environment\n"); break;
    default: printf ("renderer: GTK's default\n"); break;
    }
  /* A first run of each warms the page cache (libraries, icon theme) as any earlier
   * session would; then the two alternate, so both see the same machine load. */
  if (measure_once (editor_argv, &error) < 0 || measure_once (baseline_argv, &error) < 0)
    {
      fprintf (stderr, "startup: %s\n", error->message);
      return 1;
    }
  for (int i = 0; i < RUNS; i++)
    if ((editor[i] = measure_once (editor_argv, &error)) < 0
        || (baseline[i] = measure_once (baseline_argv, &error)) < 0)
      {
        fprintf (stderr, "startup: %s\n", error->message);
        return 1;
      }
  report ("fx-editor to first frame:", editor);
  report ("bare libadwaita window:", baseline);
  median = editor[RUNS / 2];
  printf ("fx-editor / bare window: %.2fx\n", median / baseline[RUNS / 2]);
  printf ("target %.3f s: fx-editor's median is %.2fx the target — %s\n", TARGET_SECONDS,
          median / TARGET_SECONDS, median < TARGET_SECONDS ? "met" : "MISSED");
  return median < TARGET_SECONDS ? 0 : 1;
}
