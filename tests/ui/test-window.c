/* test-window.c: FX Editor's window on a real display — header bar actions and accelerators,
 * opening the example through the trace dialog without blocking, the dialog's inline errors,
 * tracing and syntax errors shown at their line of the source, .fxg files, files from the
 * command line, recent files, exporting the code, and refusing foreign files. Screenshots of
 * each state go to $FX_SCREENSHOT_DIR and must have real content. */
#include "ui-test.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

static void
on_load_failed (FxWindow *window, const char *message, char **out)
{
  g_free (*out);
  *out = g_strdup (message);
}

static char *
write_temp (const char *template, const char *contents)
{
  GError *error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp (template, &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_no_error (error);
  return path;
}

static void
test_window_maps_with_header_actions (void)
{
  FxWindow *window = ui_test_new_mapped_window ();
  const struct { const char *action; gboolean enabled; } expected[] = {
    { "win.open", TRUE },
    { "win.save", FALSE },          /* editing comes later */
    { "win.undo", FALSE },
    { "win.redo", FALSE },
    { "win.export-code", FALSE },   /* nothing to export without a graph */
    { "win.find", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      GtkWidget *button = ui_test_find_actionable (GTK_WIDGET (window), expected[i].action);
      g_assert_nonnull (button);
      g_assert_true (gtk_widget_get_mapped (button));
      g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), expected[i].action + 4));
      g_assert_cmpint (g_action_group_get_action_enabled (G_ACTION_GROUP (window), expected[i].action + 4),
                       ==, expected[i].enabled);
      g_assert_cmpint (gtk_widget_is_sensitive (button), ==, expected[i].enabled);
    }
  g_assert_cmpstr (fx_window_get_page (window), ==, "empty");

  ui_test_wait_frames (GTK_WIDGET (window), 3);
  g_assert_cmpuint (ui_test_screenshot (GTK_WIDGET (window), "window-empty"), >, 16);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The app icon is an SVG; without an SVG loader GTK shows the "missing image" icon. */
static void
test_app_icon_drawable (void)
{
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gdk_display_get_default ());
  GSList *formats = gdk_pixbuf_get_formats ();
  gboolean svg = FALSE;
  g_autoptr (GtkIconPaintable) icon = NULL;
  g_autofree char *path = NULL;
  g_autoptr (GFile) file = NULL;

  for (GSList *l = formats; l; l = l->next)
    svg |= g_strcmp0 (gdk_pixbuf_format_get_name (l->data), "svg") == 0;
  g_slist_free (formats);
  g_assert_true (svg);
  g_assert_true (gtk_icon_theme_has_icon (theme, "org.fxeditor.FxEditor"));
  icon = gtk_icon_theme_lookup_icon (theme, "org.fxeditor.FxEditor", NULL, 128, 1,
                                     GTK_TEXT_DIR_NONE, 0);
  file = gtk_icon_paintable_get_file (icon);
  g_assert_nonnull (file);
  path = g_file_get_uri (file);
  g_assert_true (g_str_has_suffix (path, "org.fxeditor.FxEditor.svg"));
}

static void
test_accelerators (void)
{
  GtkApplication *app = GTK_APPLICATION (ui_test_app);
  g_auto (GStrv) open = gtk_application_get_accels_for_action (app, "win.open");
  g_auto (GStrv) redo = gtk_application_get_accels_for_action (app, "win.redo");
  g_auto (GStrv) find = gtk_application_get_accels_for_action (app, "win.find");
  g_auto (GStrv) fit = gtk_application_get_accels_for_action (app, "win.zoom-fit");
  g_auto (GStrv) zoom_in = gtk_application_get_accels_for_action (app, "win.zoom-in");
  g_auto (GStrv) export = gtk_application_get_accels_for_action (app, "win.export-code");

  g_assert_cmpstrv (open, ((const char *[]) { "<Control>o", NULL }));
  g_assert_true (g_strv_contains ((const char *const *) redo, "<Shift><Control>z"));
  g_assert_cmpstrv (find, ((const char *[]) { "<Control>f", NULL }));
  g_assert_cmpstrv (fit, ((const char *[]) { "<Control>0", NULL }));
  g_assert_true (g_strv_contains ((const char *const *) zoom_in, "<Control>plus"));
  g_assert_cmpstrv (export, ((const char *[]) { "<Shift><Control>e", NULL }));
}

static void
test_open_example_then_reject_foreign_file (void)
{
  FxWindow *window = ui_test_new_mapped_window ();
  g_autofree char *path = g_build_filename (g_getenv ("FX_EXAMPLES_DIR"), "resnet_block.py", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *foreign_path = NULL;
  g_autoptr (GFile) foreign = NULL;
  g_autofree char *failure = NULL;
  gboolean ready = FALSE, failed = FALSE;
  FxOpenDialog *dialog;
  FxGraphModule *gm;
  int fd;

  /* Opening returns at once; the dialog lists what the file defines once it has run. */
  g_signal_connect_swapped (window, "open-dialog-ready", G_CALLBACK (ui_test_set_flag), &ready);
  fx_window_open_file (window, file);
  g_assert_false (ready);
  g_assert_true (ui_test_wait_for (&ready, 20000));
  dialog = FX_OPEN_DIALOG (fx_window_get_open_dialog (window));
  g_assert_nonnull (dialog);
  /* the module-level instance is preselected; a class needing arguments cannot be picked */
  g_assert_cmpstr (fx_open_dialog_get_selected (dialog), ==, "model");
  g_assert_false (fx_open_dialog_select (dialog, "BasicBlock"));
  g_assert_true (fx_open_dialog_select (dialog, "TinyResNet"));
  ui_test_wait_frames (GTK_WIDGET (dialog), 3);
  g_assert_cmpuint (ui_test_screenshot (GTK_WIDGET (dialog), "open-dialog"), >, 32);
  gtk_window_destroy (GTK_WINDOW (dialog));

  ui_test_open_example (window, "resnet_block.py", "TinyResNet");
  g_assert_cmpstr (fx_window_get_page (window), ==, "document");
  g_assert_true (g_file_equal (fx_window_get_file (window), file));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "resnet_block.py");
  gm = fx_window_get_graph_module (window);
  g_assert_nonnull (gm);
  g_assert_nonnull (fx_graph_find_node_by_name (gm->graph, "layer2_0_downsample_0"));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-code"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "save"));

  ui_test_wait_frames (GTK_WIDGET (window), 3);
  g_assert_cmpuint (ui_test_screenshot (GTK_WIDGET (window), "window-example"), >, 64);

  /* A file that is not ours: an error, and the open document stays as it was. */
  fd = g_file_open_tmp ("fx-test-XXXXXX.png", &foreign_path, NULL);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, "\x89PNG\r\n\x1a\n", 8), ==, 8);
  close (fd);
  foreign = g_file_new_for_path (foreign_path);
  g_signal_connect (window, "load-failed", G_CALLBACK (on_load_failed), &failure);
  g_signal_connect_swapped (window, "load-failed", G_CALLBACK (ui_test_set_flag), &failed);
  fx_window_open_file (window, foreign);
  g_assert_true (ui_test_wait_for (&failed, 10000));
  g_assert_nonnull (strstr (failure, "not a model source file (.py) or an FX graph (.fxg)"));
  g_assert_cmpstr (fx_window_get_page (window), ==, "document");
  g_assert_true (g_file_equal (fx_window_get_file (window), file));
  g_assert_true (fx_window_get_graph_module (window) == gm);

  g_unlink (foreign_path);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A bad literal in a concrete argument is caught in the dialog, before tracing. */
static void
test_open_dialog_inline_errors (void)
{
  FxWindow *window = ui_test_new_mapped_window ();
  g_autofree char *path = g_build_filename (g_getenv ("FX_EXAMPLES_DIR"), "resnet_block.py", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  gboolean ready = FALSE, traced = FALSE;
  FxOpenDialog *dialog;
  FxDict *concrete = NULL;
  char **leaves = NULL;
  GError *error = NULL;

  g_signal_connect_swapped (window, "open-dialog-ready", G_CALLBACK (ui_test_set_flag), &ready);
  fx_window_open_file (window, file);
  g_assert_true (ui_test_wait_for (&ready, 20000));
  dialog = FX_OPEN_DIALOG (fx_window_get_open_dialog (window));
  g_signal_connect_swapped (dialog, "trace-requested", G_CALLBACK (ui_test_set_flag), &traced);

  fx_open_dialog_add_concrete_arg (dialog, "x=(1, 2");
  g_assert_nonnull (fx_open_dialog_get_error (dialog));
  g_assert_true (g_str_has_prefix (fx_open_dialog_get_error (dialog), "x: "));
  fx_open_dialog_request_trace (dialog);
  g_assert_false (traced);
  ui_test_wait_frames (GTK_WIDGET (dialog), 3);
  g_assert_cmpuint (ui_test_screenshot (GTK_WIDGET (dialog), "open-dialog-bad-literal"), >, 32);

  /* Parsed as Python literals once fixed; leaf classes split on commas. */
  gtk_window_destroy (GTK_WINDOW (dialog));
  ready = FALSE;
  fx_window_open_file (window, file);
  g_assert_true (ui_test_wait_for (&ready, 20000));
  dialog = FX_OPEN_DIALOG (fx_window_get_open_dialog (window));
  fx_open_dialog_add_concrete_arg (dialog, "scale = 2.5");
  fx_open_dialog_add_concrete_arg (dialog, "flags={'a': (1, None)}");
  fx_open_dialog_set_leaf_modules (dialog, "BasicBlock, Foo");
  g_assert_null (fx_open_dialog_get_error (dialog));
  g_assert_true (fx_open_dialog_get_request (dialog, &concrete, &leaves, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fx_dict_len (concrete), ==, 2);
  {
    FxValue key = fx_value_str ("flags");
    g_autofree char *repr = fx_value_to_repr (fx_dict_get (concrete, &key));
    g_assert_cmpstr (repr, ==, "{'a': (1, None)}");
    fx_value_clear (&key);
  }
  g_assert_cmpstrv (leaves, ((const char *[]) { "BasicBlock", "Foo", NULL }));
  fx_dict_unref (concrete);
  g_strfreev (leaves);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A failure is shown with its text and the source open at the offending line. */
static void
check_open_error (const char *source, int expected_line, const char *expected_text,
                  const char *module, const char *screenshot)
{
  FxWindow *window = ui_test_new_mapped_window ();
  g_autofree char *path = write_temp ("fx-test-XXXXXX.py", source);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *failure = NULL;
  gboolean ready = FALSE, failed = FALSE;
  GtkWidget *pane;
  g_autofree char *shown = NULL;

  g_signal_connect_swapped (window, "open-dialog-ready", G_CALLBACK (ui_test_set_flag), &ready);
  g_signal_connect (window, "load-failed", G_CALLBACK (on_load_failed), &failure);
  g_signal_connect_swapped (window, "load-failed", G_CALLBACK (ui_test_set_flag), &failed);
  fx_window_open_file (window, file);
  if (module != NULL)
    {
      g_assert_true (ui_test_wait_for (&ready, 20000));
      g_assert_true (fx_open_dialog_select (FX_OPEN_DIALOG (fx_window_get_open_dialog (window)), module));
      fx_open_dialog_request_trace (FX_OPEN_DIALOG (fx_window_get_open_dialog (window)));
    }
  g_assert_true (ui_test_wait_for (&failed, 30000));
  g_assert_null (fx_window_get_open_dialog (window));
  g_assert_cmpstr (fx_window_get_page (window), ==, "error");
  g_assert_nonnull (strstr (failure, expected_text));
  g_assert_nonnull (strstr (fx_window_get_error_text (window), expected_text));
  pane = fx_window_get_source_pane (window);
  shown = fx_source_pane_dup_text (FX_SOURCE_PANE (pane));
  g_assert_cmpstr (shown, ==, source);
  g_assert_cmpint (fx_source_pane_get_highlighted_line (FX_SOURCE_PANE (pane)), ==, expected_line);
  g_assert_cmpint (fx_source_pane_get_cursor_line (FX_SOURCE_PANE (pane)), ==, expected_line);
  ui_test_wait_frames (GTK_WIDGET (window), 3);
  ui_test_wait_frames (GTK_WIDGET (window), 2);
  g_assert_cmpuint (ui_test_screenshot (GTK_WIDGET (window), screenshot), >, 32);
  g_assert_true (fx_source_pane_line_visible (FX_SOURCE_PANE (pane), expected_line));
  g_unlink (path);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_trace_error_shows_source_line (void)
{
  GString *source = g_string_new ("import torch\nimport torch.nn as nn\n\n\n");

  /* enough lines that the offending one must be scrolled to */
  for (int i = 0; i < 40; i++)
    g_string_append_printf (source, "def helper_%d(x):\n    return x + %d\n\n", i, i);
  g_string_append (source,
                   "class Branchy(nn.Module):\n"
                   "    def forward(self, x):\n"
                   "        if x.sum() > 0:\n"          /* line 127 */
                   "            return x\n"
                   "        return -x\n");
  check_open_error (source->str, 127, "symbolically traced variables cannot be used as inputs to control flow",
                    "Branchy", "window-trace-error");
  g_string_free (source, TRUE);
}

static void
test_syntax_error_shows_source_line (void)
{
  check_open_error ("import torch\n\n\ndef f(x):\n    return torch.relu(x\n\ny = 1\n", 5,
                    "SyntaxError", NULL, "window-syntax-error");
}

/* An .fxg written from a traced model opens as the same graph. */
static void
test_open_fxg (void)
{
  FxWindow *first = ui_test_new_mapped_window ();
  FxWindow *second;
  g_autofree char *path = NULL;
  g_autoptr (GFile) file = NULL;
  GError *error = NULL;
  gboolean loaded = FALSE;
  FxGraphModule *traced, *opened;
  int fd;

  ui_test_open_example (first, "resnet_block.py", "TinyResNet");
  traced = fx_window_get_graph_module (first);
  fd = g_file_open_tmp ("fx-test-XXXXXX.fxg", &path, NULL);
  close (fd);
  g_assert_true (fx_fxg_save (traced, NULL, path, &error));
  g_assert_no_error (error);

  second = ui_test_new_mapped_window ();
  file = g_file_new_for_path (path);
  g_signal_connect_swapped (second, "document-loaded", G_CALLBACK (ui_test_set_flag), &loaded);
  fx_window_open_file (second, file);
  g_assert_cmpstr (fx_window_get_page (second), ==, "loading");
  g_assert_true (ui_test_wait_for (&loaded, 20000));
  opened = fx_window_get_graph_module (second);
  g_assert_cmpuint (fx_graph_n_nodes (opened->graph), ==, fx_graph_n_nodes (traced->graph));
  g_assert_cmpstr (fx_code_view_get_code (FX_CODE_VIEW (fx_window_get_code_view (second))), ==,
                   fx_code_view_get_code (FX_CODE_VIEW (fx_window_get_code_view (first))));
  ui_test_wait_frames (GTK_WIDGET (second), 3);
  g_assert_cmpuint (ui_test_screenshot (GTK_WIDGET (second), "window-fxg"), >, 64);

  g_unlink (path);
  gtk_window_destroy (GTK_WINDOW (first));
  gtk_window_destroy (GTK_WINDOW (second));
}

/* `fx-editor FILE`: GApplication::open puts the file in a window and asks what to trace;
 * the file then shows on the start page's recent list. */
static void
test_command_line_open_and_recent (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("FX_EXAMPLES_DIR"), "resnet_block.py", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *uri = g_file_get_uri (file);
  GtkWindow *window;
  GtkRecentManager *recent = gtk_recent_manager_get_default ();
  FxWindow *fresh;
  gboolean ready = FALSE;

  g_application_open (G_APPLICATION (ui_test_app), &file, 1, "");
  window = gtk_application_get_active_window (GTK_APPLICATION (ui_test_app));
  g_assert_true (FX_IS_WINDOW (window));
  g_signal_connect_swapped (window, "open-dialog-ready", G_CALLBACK (ui_test_set_flag), &ready);
  g_assert_true (ui_test_wait_for (&ready, 20000));
  gtk_window_destroy (GTK_WINDOW (fx_window_get_open_dialog (FX_WINDOW (window))));
  gtk_window_destroy (window);

  /* The trace of an earlier test recorded it. */
  g_assert_true (gtk_recent_manager_has_item (recent, uri));
  fresh = ui_test_new_mapped_window ();
  ui_test_wait_frames (GTK_WIDGET (fresh), 3);
  g_assert_cmpuint (ui_test_screenshot (GTK_WIDGET (fresh), "window-start-recent"), >, 32);
  gtk_window_destroy (GTK_WINDOW (fresh));
}

static void
on_code_exported (FxWindow *window, const char *message, gboolean *flag)
{
  g_assert_null (message);
  *flag = TRUE;
}

static void
test_export_code (void)
{
  FxWindow *window = ui_test_new_mapped_window ();
  g_autofree char *path = NULL;
  g_autofree char *written = NULL;
  g_autoptr (GFile) file = NULL;
  gboolean done = FALSE;
  FxGraphModule *gm;
  int fd;

  ui_test_open_example (window, "resnet_block.py", "TinyResNet");
  fd = g_file_open_tmp ("fx-test-XXXXXX.py", &path, NULL);
  close (fd);
  file = g_file_new_for_path (path);
  g_signal_connect (window, "code-exported", G_CALLBACK (on_code_exported), &done);
  fx_window_export_code (window, file);
  g_assert_true (ui_test_wait_for (&done, 10000));
  g_assert_true (g_file_get_contents (path, &written, NULL, NULL));
  gm = fx_window_get_graph_module (window);
  /* GraphModule.code as tracing left it */
  g_assert_cmpstr (written, ==, gm->code);
  g_unlink (path);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Without a GPU (or with LIBGL_ALWAYS_SOFTWARE) the editor asks GTK for cairo; whatever the
 * user set for GTK wins, and FX_EDITOR_GL=1 keeps GTK's default. */
static void
test_renderer_policy (void)
{
  const char *plain[] = { "HOME=/tmp", NULL };
  const char *user_renderer[] = { "GSK_RENDERER=gl", NULL };
  const char *user_debug[] = { "GDK_DEBUG=interactive", NULL };
  const char *forced_gl[] = { "FX_EDITOR_GL=1", NULL };
  const char *not_forced[] = { "FX_EDITOR_GL=0", NULL };
  const char *software[] = { "LIBGL_ALWAYS_SOFTWARE=1", NULL };

  g_assert_cmpint (fx_ui_renderer_for (plain, TRUE), ==, FX_UI_RENDERER_GTK_DEFAULT);
  g_assert_cmpint (fx_ui_renderer_for (plain, FALSE), ==, FX_UI_RENDERER_CAIRO);
  g_assert_cmpint (fx_ui_renderer_for (software, TRUE), ==, FX_UI_RENDERER_CAIRO);
  g_assert_cmpint (fx_ui_renderer_for (user_renderer, FALSE), ==, FX_UI_RENDERER_USER);
  g_assert_cmpint (fx_ui_renderer_for (user_debug, FALSE), ==, FX_UI_RENDERER_USER);
  g_assert_cmpint (fx_ui_renderer_for (forced_gl, FALSE), ==, FX_UI_RENDERER_GTK_DEFAULT);
  g_assert_cmpint (fx_ui_renderer_for (not_forced, FALSE), ==, FX_UI_RENDERER_CAIRO);
}

int
main (int argc, char **argv)
{
  int status;

  ui_test_init (&argc, &argv);
  g_test_add_func ("/window/renderer-policy", test_renderer_policy);
  g_test_add_func ("/window/maps-with-header-actions", test_window_maps_with_header_actions);
  g_test_add_func ("/window/accelerators", test_accelerators);
  g_test_add_func ("/window/app-icon-drawable", test_app_icon_drawable);
  g_test_add_func ("/window/open-example-then-reject-foreign-file",
                   test_open_example_then_reject_foreign_file);
  g_test_add_func ("/window/open-dialog-inline-errors", test_open_dialog_inline_errors);
  g_test_add_func ("/window/trace-error-shows-source-line", test_trace_error_shows_source_line);
  g_test_add_func ("/window/syntax-error-shows-source-line", test_syntax_error_shows_source_line);
  g_test_add_func ("/window/open-fxg", test_open_fxg);
  g_test_add_func ("/window/command-line-open-and-recent", test_command_line_open_and_recent);
  g_test_add_func ("/window/export-code", test_export_code);
  status = g_test_run ();
  g_object_unref (ui_test_app);
  return status;
}
