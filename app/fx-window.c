/* fx-window.c: FxWindow — the editor window: header bar actions, file loading off the main
 * loop, drag-and-drop of files, window state in GSettings, errors as toasts. */
#include "fx-window.h"
#include "fx-ui.h"

#include <fx.h>

struct _FxWindow {
  AdwApplicationWindow parent_instance;

  AdwWindowTitle *window_title;
  GtkStack *main_stack;
  FxSourcePane *source_pane;
  AdwToastOverlay *toast_overlay;

  GFile *file;
  GCancellable *load_cancellable;
  GSettings *settings;
  GtkFileChooserNative *chooser;
};

G_DEFINE_FINAL_TYPE (FxWindow, fx_window, ADW_TYPE_APPLICATION_WINDOW)

enum { SIGNAL_DOCUMENT_LOADED, SIGNAL_LOAD_FAILED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* Actions that need an open, editable graph; they come alive with the document model. */
static const char *const document_actions[] = { "save", "undo", "redo", "export" };

static void
show_error (FxWindow *self, const char *message)
{
  AdwToast *toast = adw_toast_new (message);

  adw_toast_set_timeout (toast, 8);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

typedef struct {
  FxWindow *window;
  GFile *file;
} LoadRequest;

static void
load_request_free (LoadRequest *request)
{
  g_object_unref (request->window);
  g_object_unref (request->file);
  g_free (request);
}

static void
fail_load (FxWindow *self, GFile *file, const char *reason)
{
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *message = g_strdup_printf ("Could not open “%s”: %s", name, reason);

  show_error (self, message);
  g_signal_emit (self, signals[SIGNAL_LOAD_FAILED], 0, message);
}

static void
on_contents_loaded (GObject *source, GAsyncResult *result, gpointer user_data)
{
  LoadRequest *request = user_data;
  FxWindow *self = request->window;
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *basename = NULL;
  g_autofree char *dirname = NULL;
  GFile *parent;
  gsize length = 0;

  if (!g_file_load_contents_finish (G_FILE (source), result, &contents, &length, NULL, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        fail_load (self, request->file, error->message);
      load_request_free (request);
      return;
    }

  basename = g_file_get_basename (request->file);
  if (g_str_has_suffix (basename, ".fxg"))
    {
      fail_load (self, request->file, "FX graph files (.fxg) are not readable by this version yet");
      load_request_free (request);
      return;
    }
  if (!g_str_has_suffix (basename, ".py"))
    {
      fail_load (self, request->file, "not a model source file (.py) or an FX graph (.fxg)");
      load_request_free (request);
      return;
    }
  if (memchr (contents, '\0', length) != NULL || !g_utf8_validate_len (contents, length, NULL))
    {
      fail_load (self, request->file, "the file is not UTF-8 text");
      load_request_free (request);
      return;
    }

  g_set_object (&self->file, request->file);
  fx_source_pane_set_text (self->source_pane, contents);
  parent = g_file_get_parent (request->file);
  dirname = parent ? g_file_get_parse_name (parent) : g_strdup ("");
  g_clear_object (&parent);
  adw_window_title_set_title (self->window_title, basename);
  adw_window_title_set_subtitle (self->window_title, dirname);
  gtk_window_set_title (GTK_WINDOW (self), basename);
  gtk_stack_set_visible_child_name (self->main_stack, "document");
  g_signal_emit (self, signals[SIGNAL_DOCUMENT_LOADED], 0);
  load_request_free (request);
}

void
fx_window_open_file (FxWindow *self, GFile *file)
{
  LoadRequest *request;

  g_return_if_fail (FX_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();

  request = g_new0 (LoadRequest, 1);
  request->window = g_object_ref (self);
  request->file = g_object_ref (file);
  g_file_load_contents_async (file, self->load_cancellable, on_contents_loaded, request);
}

GFile *
fx_window_get_file (FxWindow *self)
{
  g_return_val_if_fail (FX_IS_WINDOW (self), NULL);
  return self->file;
}

const char *
fx_window_get_page (FxWindow *self)
{
  g_return_val_if_fail (FX_IS_WINDOW (self), NULL);
  return gtk_stack_get_visible_child_name (self->main_stack);
}

GtkWidget *
fx_window_get_source_pane (FxWindow *self)
{
  g_return_val_if_fail (FX_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->source_pane);
}

static void
on_chooser_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  FxWindow *self = FX_WINDOW (user_data);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      if (file != NULL)
        fx_window_open_file (self, file);
    }
  g_clear_object (&self->chooser);
}

static void
on_open (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  FxWindow *self = FX_WINDOW (user_data);
  g_autoptr (GtkFileFilter) models = gtk_file_filter_new ();
  g_autoptr (GtkFileFilter) python = gtk_file_filter_new ();
  g_autoptr (GtkFileFilter) graphs = gtk_file_filter_new ();

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new ("Open Model", GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", "_Cancel");
  gtk_file_filter_set_name (models, "Models and graphs");
  gtk_file_filter_add_suffix (models, "py");
  gtk_file_filter_add_suffix (models, "fxg");
  gtk_file_filter_set_name (python, "Python model source (*.py)");
  gtk_file_filter_add_suffix (python, "py");
  gtk_file_filter_set_name (graphs, "FX graph (*.fxg)");
  gtk_file_filter_add_suffix (graphs, "fxg");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), models);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), python);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), graphs);
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
on_document_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  /* Insensitive until documents are editable; nothing can activate them meanwhile. */
}

static const GActionEntry win_actions[] = {
  { .name = "open", .activate = on_open },
  { .name = "save", .activate = on_document_action },
  { .name = "undo", .activate = on_document_action },
  { .name = "redo", .activate = on_document_action },
  { .name = "export", .activate = on_document_action },
};

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, gpointer user_data)
{
  FxWindow *self = FX_WINDOW (user_data);
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = gdk_file_list_get_files (g_value_get_boxed (value));
  if (files == NULL)
    return FALSE;
  fx_window_open_file (self, G_FILE (files->data));
  g_slist_free (files);
  return TRUE;
}

static void
on_dark_changed (AdwStyleManager *manager, GParamSpec *pspec, gpointer user_data)
{
  FxWindow *self = FX_WINDOW (user_data);
  fx_source_pane_set_dark (self->source_pane, adw_style_manager_get_dark (manager));
}

/* GSettings aborts on a missing schema; an uninstalled run without one just skips state. */
static GSettings *
settings_if_installed (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, FX_APPLICATION_ID, TRUE);
  return schema != NULL ? g_settings_new (FX_APPLICATION_ID) : NULL;
}

static gboolean
fx_window_close_request (GtkWindow *window)
{
  FxWindow *self = FX_WINDOW (window);

  if (self->settings != NULL)
    {
      int width, height;
      gtk_window_get_default_size (window, &width, &height);
      g_settings_set (self->settings, "window-size", "(ii)", width, height);
      g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
    }
  return GTK_WINDOW_CLASS (fx_window_parent_class)->close_request (window);
}

static void
fx_window_dispose (GObject *object)
{
  FxWindow *self = FX_WINDOW (object);

  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_object (&self->file);
  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), FX_TYPE_WINDOW);
  G_OBJECT_CLASS (fx_window_parent_class)->dispose (object);
}

static void
fx_window_class_init (FxWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = fx_window_dispose;
  window_class->close_request = fx_window_close_request;

  signals[SIGNAL_DOCUMENT_LOADED] =
    g_signal_new ("document-loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_LOAD_FAILED] =
    g_signal_new ("load-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  fx_ui_init ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/fxeditor/FxEditor/ui/fx-window.ui");
  gtk_widget_class_bind_template_child (widget_class, FxWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, source_pane);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, toast_overlay);
}

static void
fx_window_init (FxWindow *self)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  GtkDropTarget *drop;

  gtk_widget_init_template (GTK_WIDGET (self));

  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions, G_N_ELEMENTS (win_actions),
                                   self);
  for (guint i = 0; i < G_N_ELEMENTS (document_actions); i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), document_actions[i]);
      g_simple_action_set_enabled (G_SIMPLE_ACTION (action), FALSE);
    }

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  g_signal_connect_object (style, "notify::dark", G_CALLBACK (on_dark_changed), self, 0);
  fx_source_pane_set_dark (self->source_pane, adw_style_manager_get_dark (style));

  self->settings = settings_if_installed ();
  if (self->settings != NULL)
    {
      int width, height;
      g_settings_get (self->settings, "window-size", "(ii)", &width, &height);
      gtk_window_set_default_size (GTK_WINDOW (self), width, height);
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
    }
}

FxWindow *
fx_window_new (FxApplication *application)
{
  return g_object_new (FX_TYPE_WINDOW, "application", application, NULL);
}
