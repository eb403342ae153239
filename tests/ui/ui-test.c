/* ui-test.c: helpers shared by the UI tests (see ui-test.h). */
#include "ui-test.h"

#include <glib/gstdio.h>
#include <string.h>

FxApplication *ui_test_app;

void
ui_test_init (int *argc, char ***argv)
{
  g_autofree char *home = g_dir_make_tmp ("fx-ui-test-XXXXXX", NULL);
  g_autofree char *data = g_build_filename (home, "data", NULL);

  /* Recent files and the like go to a scratch home, not the user's. */
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  /* The renderer FX Editor itself would choose on this machine (fx-editor.c's main()). */
  fx_ui_choose_renderer ();
  gtk_test_init (argc, argv, NULL);
  /* Screenshots must show settled states, not the middle of a crossfade. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  fx_ui_init ();
  ui_test_app = fx_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (ui_test_app), NULL, NULL));
}

gboolean
ui_test_wait_for (gboolean *flag, guint timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  while (!*flag && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE) || (g_usleep (1000), TRUE);
  return *flag;
}

void
ui_test_set_flag (gboolean *flag)
{
  *flag = TRUE;
}

static gboolean
count_frames (GtkWidget *widget, GdkFrameClock *clock, gpointer user_data)
{
  int *frames = user_data;
  (*frames)++;
  return G_SOURCE_CONTINUE;
}

void
ui_test_wait_frames (GtkWidget *widget, int n)
{
  int frames = 0;
  guint id = gtk_widget_add_tick_callback (widget, count_frames, &frames, NULL);
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (frames < n && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  gtk_widget_remove_tick_callback (widget, id);
  /* Idle work below the redraw priority (text views lay out their lines there) starves while
   * frames follow each other: let it run now that the frames stopped. */
  deadline = g_get_monotonic_time () + G_USEC_PER_SEC;
  while (g_main_context_pending (NULL) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
}

FxWindow *
ui_test_new_mapped_window (void)
{
  FxWindow *window = fx_window_new (ui_test_app);
  gboolean mapped = FALSE;

  g_signal_connect_swapped (window, "map", G_CALLBACK (ui_test_set_flag), &mapped);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_test_wait_for (&mapped, 10000));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (window)));
  return window;
}

GtkWidget *
ui_test_find_actionable (GtkWidget *root, const char *action_name)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;
      if (GTK_IS_BUTTON (child) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (child)), action_name) == 0)
        return child;
      found = ui_test_find_actionable (child, action_name);
      if (found != NULL)
        return found;
    }
  return NULL;
}

GdkTexture *
ui_test_render (GtkWidget *widget, const char *name)
{
  const char *dir = g_getenv ("FX_SCREENSHOT_DIR");
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  GdkTexture *texture;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));

  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);
  /* The paintable shows the last frame drawn: a window mapped a moment ago (slow under the
   * sanitizers) may not have painted yet — ask for frames until it has. */
  for (gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;;)
    {
      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (snapshot);
      if (node != NULL || g_get_monotonic_time () > deadline)
        break;
      snapshot = gtk_snapshot_new ();
      gtk_widget_queue_draw (widget);
      ui_test_wait_frames (widget, 1);
    }
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_nonnull (texture);

  if (dir != NULL)
    {
      g_autofree char *path = g_strdup_printf ("%s/%s.png", dir, name);
      g_mkdir_with_parents (dir, 0755);
      g_assert_true (gdk_texture_save_to_png (texture, path));
      g_test_message ("screenshot: %s", path);
    }
  return texture;
}

guint32 *
ui_test_texture_pixels (GdkTexture *texture, guint *n_colours)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  guint32 *pixels = g_new (guint32, (gsize) width * height);
  g_autoptr (GHashTable) colours = g_hash_table_new (NULL, NULL);

  gdk_texture_download (texture, (guchar *) pixels, (gsize) width * 4);
  for (gsize i = 0; i < (gsize) width * height; i++)
    g_hash_table_add (colours, GUINT_TO_POINTER (pixels[i]));
  if (n_colours != NULL)
    *n_colours = g_hash_table_size (colours);
  return pixels;
}

guint
ui_test_screenshot (GtkWidget *widget, const char *name)
{
  g_autoptr (GdkTexture) texture = ui_test_render (widget, name);
  guint n_colours;

  g_free (ui_test_texture_pixels (texture, &n_colours));
  return n_colours;
}

static void
on_layout_finished (GtkWidget *view, const GError *error, gboolean *flag)
{
  g_assert_no_error ((GError *) error);
  *flag = TRUE;
}

void
ui_test_open_example (FxWindow *window, const char *name, const char *module)
{
  g_autofree char *path = g_build_filename (g_getenv ("FX_EXAMPLES_DIR"), name, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  gboolean ready = FALSE, loaded = FALSE, laid_out = FALSE;
  gulong ready_id, loaded_id, layout_id;
  FxOpenDialog *dialog;

  ready_id = g_signal_connect_swapped (window, "open-dialog-ready", G_CALLBACK (ui_test_set_flag), &ready);
  loaded_id = g_signal_connect_swapped (window, "document-loaded", G_CALLBACK (ui_test_set_flag), &loaded);
  layout_id = g_signal_connect (fx_window_get_graph_view (window), "layout-finished",
                                G_CALLBACK (on_layout_finished), &laid_out);
  fx_window_open_file (window, file);
  g_assert_true (ui_test_wait_for (&ready, 20000));
  dialog = FX_OPEN_DIALOG (fx_window_get_open_dialog (window));
  g_assert_nonnull (dialog);
  g_assert_true (fx_open_dialog_select (dialog, module));
  fx_open_dialog_request_trace (dialog);
  g_assert_true (ui_test_wait_for (&loaded, 30000));
  g_assert_true (ui_test_wait_for (&laid_out, 30000));
  g_signal_handler_disconnect (window, ready_id);
  g_signal_handler_disconnect (window, loaded_id);
  g_signal_handler_disconnect (fx_window_get_graph_view (window), layout_id);
}
