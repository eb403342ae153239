/* test-window.c: FX Editor's window on a real display — it maps, its header bar carries the
 * Open/Save/Undo/Redo/Export buttons wired to actions, it opens the example model without
 * blocking, refuses a file that is not ours without losing the open document, and renders
 * real content (screenshots saved to $FX_SCREENSHOT_DIR). */
#include "fx-application.h"
#include "fx-window.h"
#include "fx-ui.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

static FxApplication *app;

/* Runs the main loop until *flag is set or the timeout passes. */
static gboolean
wait_for (gboolean *flag, guint timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  while (!*flag && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE) || (g_usleep (1000), TRUE);
  return *flag;
}

static void
set_flag (gboolean *flag)
{
  *flag = TRUE;
}

static void
on_load_failed (FxWindow *window, const char *message, char **out)
{
  g_free (*out);
  *out = g_strdup (message);
}

static gboolean
count_frames (GtkWidget *widget, GdkFrameClock *clock, gpointer user_data)
{
  int *frames = user_data;
  (*frames)++;
  return G_SOURCE_CONTINUE;
}

/* Waits until the widget has been drawn a few times, so a snapshot shows settled content. */
static void
wait_frames (GtkWidget *widget, int n)
{
  int frames = 0;
  guint id = gtk_widget_add_tick_callback (widget, count_frames, &frames, NULL);
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (frames < n && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  gtk_widget_remove_tick_callback (widget, id);
}

static FxWindow *
new_mapped_window (void)
{
  FxWindow *window = fx_window_new (app);
  gboolean mapped = FALSE;

  g_signal_connect_swapped (window, "map", G_CALLBACK (set_flag), &mapped);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (wait_for (&mapped, 10000));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (window)));
  return window;
}

static GtkWidget *
find_actionable (GtkWidget *root, const char *action_name)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;
      if (GTK_IS_BUTTON (child) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (child)), action_name) == 0)
        return child;
      found = find_actionable (child, action_name);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Saves a PNG of the window and returns how many distinct colours it has. */
static guint
screenshot (GtkWidget *widget, const char *name)
{
  const char *dir = g_getenv ("FX_SCREENSHOT_DIR");
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autoptr (GHashTable) colours = g_hash_table_new (NULL, NULL);
  g_autofree guchar *pixels = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (widget));

  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
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

  pixels = g_malloc ((gsize) width * height * 4);
  gdk_texture_download (texture, pixels, (gsize) width * 4);
  for (gsize i = 0; i < (gsize) width * height; i++)
    {
      guint32 px;
      memcpy (&px, pixels + 4 * i, 4);
      g_hash_table_add (colours, GUINT_TO_POINTER (px));
    }
  return g_hash_table_size (colours);
}

static void
test_window_maps_with_header_actions (void)
{
  FxWindow *window = new_mapped_window ();
  const struct { const char *action; gboolean enabled; } expected[] = {
    { "win.open", TRUE },
    { "win.save", FALSE },   /* nothing to save without a document */
    { "win.undo", FALSE },
    { "win.redo", FALSE },
    { "win.export", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      GtkWidget *button = find_actionable (GTK_WIDGET (window), expected[i].action);
      g_assert_nonnull (button);
      g_assert_true (gtk_widget_get_mapped (button));
      g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), expected[i].action + 4));
      g_assert_cmpint (g_action_group_get_action_enabled (G_ACTION_GROUP (window), expected[i].action + 4),
                       ==, expected[i].enabled);
      g_assert_cmpint (gtk_widget_is_sensitive (button), ==, expected[i].enabled);
    }
  g_assert_cmpstr (fx_window_get_page (window), ==, "empty");

  wait_frames (GTK_WIDGET (window), 3);
  g_assert_cmpuint (screenshot (GTK_WIDGET (window), "window-empty"), >, 16);
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
  g_autoptr (GdkPixbuf) pixbuf = NULL;
  g_autoptr (GError) error = NULL;
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
  g_auto (GStrv) open = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.open");
  g_auto (GStrv) redo = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.redo");

  g_assert_cmpstrv (open, ((const char *[]) { "<Control>o", NULL }));
  g_assert_true (g_strv_contains ((const char *const *) redo, "<Shift><Control>z"));
}

static void
test_open_example_then_reject_foreign_file (void)
{
  FxWindow *window = new_mapped_window ();
  g_autofree char *path = g_build_filename (g_getenv ("FX_EXAMPLES_DIR"), "resnet_block.py", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *expected_text = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *foreign_path = NULL;
  g_autoptr (GFile) foreign = NULL;
  g_autofree char *failure = NULL;
  gboolean loaded = FALSE, failed = FALSE;
  GtkWidget *pane;
  int fd;

  g_assert_true (g_file_get_contents (path, &expected_text, NULL, NULL));
  g_signal_connect_swapped (window, "document-loaded", G_CALLBACK (set_flag), &loaded);
  fx_window_open_file (window, file);
  /* Loading is asynchronous: the call returns before the document is there. */
  g_assert_false (loaded);
  g_assert_true (wait_for (&loaded, 10000));

  g_assert_cmpstr (fx_window_get_page (window), ==, "document");
  g_assert_true (g_file_equal (fx_window_get_file (window), file));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "resnet_block.py");
  pane = fx_window_get_source_pane (window);
  shown = fx_source_pane_dup_text (FX_SOURCE_PANE (pane));
  g_assert_cmpstr (shown, ==, expected_text);
  fx_source_pane_show_line (FX_SOURCE_PANE (pane), 20);
  g_assert_cmpint (fx_source_pane_get_cursor_line (FX_SOURCE_PANE (pane)), ==, 20);

  wait_frames (GTK_WIDGET (window), 3);
  g_assert_cmpuint (screenshot (GTK_WIDGET (window), "window-example"), >, 32);

  /* A file that is not ours: an error, and the open document stays as it was. */
  fd = g_file_open_tmp ("fx-test-XXXXXX.png", &foreign_path, NULL);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, "\x89PNG\r\n\x1a\n", 8), ==, 8);
  close (fd);
  foreign = g_file_new_for_path (foreign_path);
  g_signal_connect (window, "load-failed", G_CALLBACK (on_load_failed), &failure);
  g_signal_connect_swapped (window, "load-failed", G_CALLBACK (set_flag), &failed);
  fx_window_open_file (window, foreign);
  g_assert_true (wait_for (&failed, 10000));
  g_assert_nonnull (strstr (failure, "not a model source file (.py) or an FX graph (.fxg)"));
  g_assert_cmpstr (fx_window_get_page (window), ==, "document");
  g_assert_true (g_file_equal (fx_window_get_file (window), file));
  g_clear_pointer (&shown, g_free);
  shown = fx_source_pane_dup_text (FX_SOURCE_PANE (pane));
  g_assert_cmpstr (shown, ==, expected_text);
  wait_frames (GTK_WIDGET (window), 3);
  screenshot (GTK_WIDGET (window), "window-foreign-file-refused");

  g_unlink (foreign_path);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  int status;

  gtk_test_init (&argc, &argv, NULL);
  /* Screenshots must show settled states, not the middle of a crossfade. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  fx_ui_init ();
  app = fx_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

  g_test_add_func ("/window/maps-with-header-actions", test_window_maps_with_header_actions);
  g_test_add_func ("/window/accelerators", test_accelerators);
  g_test_add_func ("/window/app-icon-drawable", test_app_icon_drawable);
  g_test_add_func ("/window/open-example-then-reject-foreign-file",
                   test_open_example_then_reject_foreign_file);
  status = g_test_run ();
  g_object_unref (app);
  return status;
}
