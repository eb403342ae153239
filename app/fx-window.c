/* fx-window.c: FxWindow — the editor window: opening models (trace dialog, .fxg, drops,
 * recent files) with all file and tracing work in GTask workers, the graph with its panes
 * kept on one selection, search over the graph, window actions and state. */
#include "fx-window.h"
#include "fx-ui.h"

#include <string.h>

struct _FxWindow {
  AdwApplicationWindow parent_instance;

  AdwWindowTitle *window_title;
  GtkStack *main_stack;
  AdwToastOverlay *toast_overlay;
  GtkBox *recent_box;
  GtkListBox *recent_list;
  GtkSpinner *loading_spinner;
  GtkLabel *loading_label;
  FxGraphView *graph_view;
  GtkSpinner *layout_spinner;
  GtkSearchBar *search_bar;
  GtkSearchEntry *search_entry;
  GtkLabel *search_label;
  AdwViewStack *sidebar_stack;
  FxNodeInspector *inspector;
  FxCodeView *code_view;
  FxNodeTable *node_table;
  GtkLabel *error_title;
  GtkLabel *error_text;
  FxSourcePane *source_pane;

  GFile *file;                 /* the document shown */
  GFile *pending_file;         /* the .py whose open dialog is up */
  char *pending_source;        /* its text, shown if tracing fails */
  FxGraphModule *gm;
  GCancellable *load_cancellable;
  GSettings *settings;
  GtkFileChooserNative *chooser;
  FxOpenDialog *open_dialog;
  GPtrArray *search_hits;      /* FxNode*, graph order */
  char *search_query;          /* casefolded text the hits are for */
  int search_index;
  gboolean syncing;            /* a selection being passed between the panes */
};

G_DEFINE_FINAL_TYPE (FxWindow, fx_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  SIGNAL_DOCUMENT_LOADED,
  SIGNAL_LOAD_FAILED,
  SIGNAL_OPEN_DIALOG_READY,
  SIGNAL_CODE_EXPORTED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

/* Editing comes later: these stay insensitive. */
static const char *const editing_actions[] = { "save", "undo", "redo" };
/* These need a graph on screen. */
static const char *const document_actions[] = {
  "find", "zoom-in", "zoom-out", "zoom-fit", "export-code",
};

static void
set_actions_enabled (FxWindow *self, const char *const *names, guint n, gboolean enabled)
{
  for (guint i = 0; i < n; i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), names[i]);
      g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
    }
}

static void
show_toast (FxWindow *self, const char *message)
{
  AdwToast *toast = adw_toast_new (message);

  adw_toast_set_timeout (toast, 8);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
fail_load (FxWindow *self, GFile *file, const char *reason)
{
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *message = g_strdup_printf ("Could not open “%s”: %s", name, reason);

  show_toast (self, message);
  g_signal_emit (self, signals[SIGNAL_LOAD_FAILED], 0, message);
}

static void
set_title_for (FxWindow *self, GFile *file)
{
  g_autofree char *basename = g_file_get_basename (file);
  g_autoptr (GFile) parent = g_file_get_parent (file);
  g_autofree char *dirname = parent ? g_file_get_parse_name (parent) : g_strdup ("");

  adw_window_title_set_title (self->window_title, basename);
  adw_window_title_set_subtitle (self->window_title, dirname);
  gtk_window_set_title (GTK_WINDOW (self), basename);
}

static void
show_loading (FxWindow *self, const char *message)
{
  gtk_label_set_text (self->loading_label, message);
  gtk_spinner_start (self->loading_spinner);
  gtk_stack_set_visible_child_name (self->main_stack, "loading");
}

/* ------------------------------------------------------------------ workers */

typedef enum { JOB_LIST, JOB_TRACE, JOB_FXG } JobKind;

typedef struct {
  JobKind kind;
  char *path;
  char *name;
  FxDict *concrete;
  char **leaves;
  GPtrArray *candidates;       /* JOB_LIST result */
  FxGraphModule *gm;           /* JOB_TRACE, JOB_FXG result */
  char *error_file;            /* where a failure points, with that file's text */
  int error_line;
  char *error_source;
} Job;

static void
job_free (Job *job)
{
  g_free (job->path);
  g_free (job->name);
  g_clear_pointer (&job->concrete, fx_dict_unref);
  g_strfreev (job->leaves);
  g_clear_pointer (&job->candidates, g_ptr_array_unref);
  g_clear_pointer (&job->gm, fx_graph_module_unref);
  g_free (job->error_file);
  g_free (job->error_source);
  g_free (job);
}

/* Runs in a worker: tracing executes the model file, which can take a while. */
static void
run_job (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;

  switch (job->kind)
    {
    case JOB_LIST:
      job->candidates = fx_trace_list_candidates (job->path, &error);
      break;
    case JOB_TRACE:
      job->gm = fx_trace_file (job->path, job->name, job->concrete,
                               (const char *const *) job->leaves, &error);
      break;
    case JOB_FXG:
      job->gm = fx_fxg_load (job->path, NULL, &error);
      break;
    }
  if (error != NULL)
    {
      /* The innermost frame in the model file itself; failing that, any file on disk. */
      if ((fx_trace_error_location (error, job->path, &job->error_file, &job->error_line)
           || fx_trace_error_location (error, NULL, &job->error_file, &job->error_line))
          && !g_file_get_contents (job->error_file, &job->error_source, NULL, NULL))
        g_clear_pointer (&job->error_file, g_free);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

static void
start_job (FxWindow *self, Job *job, GAsyncReadyCallback callback)
{
  g_autoptr (GTask) task = NULL;

  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->load_cancellable, callback, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, run_job);
}

/* The failure page: the error's text, and the source open at the offending line. */
static void
show_error_page (FxWindow *self, GFile *file, const GError *error, Job *job,
                 const char *fallback_source)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *title = NULL;
  const char *source = job->error_source ? job->error_source : fallback_source;

  title = job->kind == JOB_LIST ? g_strdup_printf ("Could not run “%s”", name)
          : job->kind == JOB_TRACE ? g_strdup_printf ("Could not trace %s of “%s”", job->name, name)
          : g_strdup_printf ("Could not load “%s”", name);
  gtk_label_set_text (self->error_title, title);
  gtk_label_set_text (self->error_text, error->message);
  fx_source_pane_set_text (self->source_pane, source ? source : "");
  gtk_widget_set_visible (GTK_WIDGET (self->source_pane), source != NULL);
  gtk_spinner_stop (self->loading_spinner);
  if (job->error_file != NULL)
    fx_source_pane_highlight_line (self->source_pane, job->error_line, TRUE);
  set_title_for (self, file);
  g_set_object (&self->file, NULL);
  g_clear_pointer (&self->gm, fx_graph_module_unref);
  fx_graph_view_set_graph_module (self->graph_view, NULL);
  set_actions_enabled (self, document_actions, G_N_ELEMENTS (document_actions), FALSE);
  gtk_stack_set_visible_child_name (self->main_stack, "error");
  g_signal_emit (self, signals[SIGNAL_LOAD_FAILED], 0, error->message);
}

static void
add_recent (GFile *file)
{
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *basename = g_file_get_basename (file);
  GtkRecentData data = {
    .mime_type = g_str_has_suffix (basename, ".fxg") ? (char *) "application/x-fxg"
                                                     : (char *) "text/x-python",
    .app_name = (char *) g_get_application_name (),
    .app_exec = (char *) "fx-editor %u",
  };

  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

static void
clear_search (FxWindow *self)
{
  g_ptr_array_set_size (self->search_hits, 0);
  self->search_index = -1;
  g_clear_pointer (&self->search_query, g_free);
  gtk_label_set_text (self->search_label, "");
  fx_graph_view_set_search_hits (self->graph_view, NULL);
}

static void
show_graph_module (FxWindow *self, GFile *file, FxGraphModule *gm)
{
  fx_graph_module_ref (gm);
  g_clear_pointer (&self->gm, fx_graph_module_unref);
  self->gm = gm;
  g_set_object (&self->file, file);

  self->syncing = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  clear_search (self);
  fx_graph_view_set_graph_module (self->graph_view, gm);
  fx_code_view_set_graph_module (self->code_view, gm);
  fx_node_table_set_graph_module (self->node_table, gm);
  fx_node_inspector_set_node (self->inspector, gm, NULL);
  self->syncing = FALSE;

  set_title_for (self, file);
  set_actions_enabled (self, document_actions, G_N_ELEMENTS (document_actions), TRUE);
  gtk_stack_set_visible_child_name (self->main_stack, "document");
  add_recent (file);
  g_signal_emit (self, signals[SIGNAL_DOCUMENT_LOADED], 0);
}

static void
on_graph_job_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  FxWindow *self = FX_WINDOW (source);
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      file = g_file_new_for_path (job->path);
      show_error_page (self, file, error, job, self->pending_source);
      return;
    }
  gtk_spinner_stop (self->loading_spinner);
  file = g_file_new_for_path (job->path);
  show_graph_module (self, file, job->gm);
}

void
fx_window_trace (FxWindow *self, const char *name, FxDict *concrete_args,
                 const char *const *leaf_modules)
{
  Job *job;
  g_autofree char *message = NULL;

  g_return_if_fail (FX_IS_WINDOW (self));
  g_return_if_fail (self->pending_file != NULL);

  job = g_new0 (Job, 1);
  job->kind = JOB_TRACE;
  job->path = g_file_get_path (self->pending_file);
  job->name = g_strdup (name);
  job->concrete = concrete_args ? fx_dict_ref (concrete_args) : NULL;
  job->leaves = g_strdupv ((char **) leaf_modules);
  if (self->open_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->open_dialog));
  message = g_strdup_printf ("Tracing %s…", name);
  show_loading (self, message);
  start_job (self, job, on_graph_job_done);
}

static void
on_trace_requested (FxOpenDialog *dialog, gpointer user_data)
{
  FxWindow *self = FX_WINDOW (user_data);
  g_autoptr (FxDict) concrete = NULL;
  g_auto (GStrv) leaves = NULL;
  g_autofree char *name = g_strdup (fx_open_dialog_get_selected (dialog));

  if (!fx_open_dialog_get_request (dialog, &concrete, &leaves, NULL))
    return;
  fx_window_trace (self, name, concrete, (const char *const *) leaves);
}

static void
on_open_dialog_destroyed (FxWindow *self)
{
  self->open_dialog = NULL;
}

static void
on_candidates_listed (GObject *source, GAsyncResult *result, gpointer user_data)
{
  FxWindow *self = FX_WINDOW (source);
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      if (self->open_dialog != NULL)
        gtk_window_destroy (GTK_WINDOW (self->open_dialog));
      show_error_page (self, self->pending_file, error, job, self->pending_source);
      return;
    }
  if (self->open_dialog == NULL)
    return;    /* cancelled by the user meanwhile */
  fx_open_dialog_set_candidates (self->open_dialog, job->candidates);
  g_signal_emit (self, signals[SIGNAL_OPEN_DIALOG_READY], 0);
}

/* A .py: the dialog comes up at once, with a spinner while the file runs in a worker. */
static void
open_python (FxWindow *self, GFile *file, char *contents)
{
  g_autofree char *basename = g_file_get_basename (file);
  Job *job = g_new0 (Job, 1);

  g_set_object (&self->pending_file, file);
  g_free (self->pending_source);
  self->pending_source = contents;
  if (self->open_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->open_dialog));
  self->open_dialog = fx_open_dialog_new (GTK_WINDOW (self), basename);
  g_signal_connect_object (self->open_dialog, "trace-requested", G_CALLBACK (on_trace_requested), self, 0);
  g_signal_connect_object (self->open_dialog, "destroy", G_CALLBACK (on_open_dialog_destroyed), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (self->open_dialog));

  job->kind = JOB_LIST;
  job->path = g_file_get_path (file);
  start_job (self, job, on_candidates_listed);
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
on_contents_loaded (GObject *source, GAsyncResult *result, gpointer user_data)
{
  LoadRequest *request = user_data;
  FxWindow *self = request->window;
  g_autoptr (GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  if (!g_file_load_contents_finish (G_FILE (source), result, &contents, &length, NULL, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        fail_load (self, request->file, error->message);
    }
  else if (memchr (contents, '\0', length) != NULL || !g_utf8_validate_len (contents, length, NULL))
    {
      fail_load (self, request->file, "the file is not UTF-8 text");
      g_free (contents);
    }
  else
    open_python (self, request->file, contents);
  load_request_free (request);
}

void
fx_window_open_file (FxWindow *self, GFile *file)
{
  g_autofree char *basename = NULL;
  g_autofree char *path = NULL;

  g_return_if_fail (FX_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  basename = g_file_get_basename (file);
  path = g_file_get_path (file);
  if (!g_str_has_suffix (basename, ".py") && !g_str_has_suffix (basename, ".fxg"))
    {
      fail_load (self, file, "not a model source file (.py) or an FX graph (.fxg)");
      return;
    }
  if (path == NULL)
    {
      fail_load (self, file, "only files on this computer can be opened");
      return;
    }

  if (g_str_has_suffix (basename, ".fxg"))
    {
      Job *job = g_new0 (Job, 1);
      g_autofree char *message = g_strdup_printf ("Loading %s…", basename);

      job->kind = JOB_FXG;
      job->path = g_steal_pointer (&path);
      g_clear_pointer (&self->pending_source, g_free);
      show_loading (self, message);
      start_job (self, job, on_graph_job_done);
    }
  else
    {
      LoadRequest *request = g_new0 (LoadRequest, 1);

      g_cancellable_cancel (self->load_cancellable);
      g_clear_object (&self->load_cancellable);
      self->load_cancellable = g_cancellable_new ();
      request->window = g_object_ref (self);
      request->file = g_object_ref (file);
      g_file_load_contents_async (file, self->load_cancellable, on_contents_loaded, request);
    }
}

/* ------------------------------------------------------------------ selection */

/* One selection for graph, code, table and inspector; from is the pane it came from. */
static void
sync_selection (FxWindow *self, FxNode *node, gpointer from)
{
  if (self->syncing)
    return;
  self->syncing = TRUE;
  fx_node_inspector_set_node (self->inspector, self->gm, node);
  if (from != self->code_view)
    fx_code_view_show_node (self->code_view, node);
  if (from != self->node_table)
    fx_node_table_select_node (self->node_table, node);
  if (from != self->graph_view)
    fx_graph_view_select_nodes (self->graph_view, node ? &node : NULL, node ? 1 : 0, TRUE);
  self->syncing = FALSE;
}

static void
on_graph_selection_changed (FxGraphView *view, gpointer user_data)
{
  FxWindow *self = FX_WINDOW (user_data);
  g_autoptr (GPtrArray) selection = fx_graph_view_get_selection (view);

  sync_selection (self, selection->len > 0 ? selection->pdata[0] : NULL, view);
}

static void
on_code_node_activated (FxWindow *self, FxNode *node)
{
  sync_selection (self, node, self->code_view);
}

static void
on_table_node_activated (FxWindow *self, FxNode *node)
{
  sync_selection (self, node, self->node_table);
}

static void
on_layout_running (FxGraphView *view, GParamSpec *pspec, gpointer user_data)
{
  FxWindow *self = FX_WINDOW (user_data);
  gboolean running = fx_graph_view_get_layout_running (view);

  gtk_widget_set_visible (GTK_WIDGET (self->layout_spinner), running);
  gtk_spinner_set_spinning (self->layout_spinner, running);
}

static void
on_layout_finished (FxGraphView *view, const GError *error, gpointer user_data)
{
  if (error != NULL)
    show_toast (FX_WINDOW (user_data), error->message);
}

/* ------------------------------------------------------------------ search */

static gboolean
contains_folded (const char *text, const char *folded_query)
{
  g_autofree char *folded = g_utf8_casefold (text, -1);
  return strstr (folded, folded_query) != NULL;
}

static void
update_search_label (FxWindow *self)
{
  g_autofree char *text = NULL;

  if (gtk_editable_get_text (GTK_EDITABLE (self->search_entry))[0] == '\0')
    text = g_strdup ("");
  else if (self->search_hits->len == 0)
    text = g_strdup ("No matches");
  else if (self->search_index < 0)
    text = g_strdup_printf ("%u matches", self->search_hits->len);
  else
    text = g_strdup_printf ("%d of %u", self->search_index + 1, self->search_hits->len);
  gtk_label_set_text (self->search_label, text);
}

static void
on_search_changed (FxWindow *self)
{
  const char *query = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *folded = g_utf8_casefold (query, -1);

  /* The entry's delayed search-changed after a search already applied: keep the position. */
  if (g_strcmp0 (folded, self->search_query) == 0)
    return;
  g_free (self->search_query);
  self->search_query = g_strdup (folded);
  g_ptr_array_set_size (self->search_hits, 0);
  self->search_index = -1;
  if (self->gm != NULL && *folded != '\0')
    for (FxNode *node = fx_graph_first (self->gm->graph); node != NULL; node = fx_node_next (node))
      {
        g_autofree char *target = fx_node_pretty_target (node);
        if (contains_folded (node->name, folded) || contains_folded (fx_node_op_name (node->op), folded)
            || contains_folded (target, folded))
          g_ptr_array_add (self->search_hits, node);
      }
  fx_graph_view_set_search_hits (self->graph_view, self->search_hits->len ? self->search_hits : NULL);
  gtk_widget_remove_css_class (GTK_WIDGET (self->search_entry), "error");
  if (*folded != '\0' && self->search_hits->len == 0)
    gtk_widget_add_css_class (GTK_WIDGET (self->search_entry), "error");
  update_search_label (self);
}

static void
search_step (FxWindow *self, int step)
{
  int n = self->search_hits->len;
  FxNode *node;

  if (n == 0)
    return;
  if (self->search_index < 0)
    self->search_index = step > 0 ? 0 : n - 1;
  else
    self->search_index = ((self->search_index + step) % n + n) % n;
  node = self->search_hits->pdata[self->search_index];
  sync_selection (self, node, NULL);
  fx_graph_view_center_on_node (self->graph_view, node);
  update_search_label (self);
}

static void
on_search_next (FxWindow *self)
{
  search_step (self, 1);
}

static void
on_search_previous (FxWindow *self)
{
  search_step (self, -1);
}

/* Shift+Enter goes back, as in GNOME's text editors. */
static gboolean
on_search_key (GtkEventControllerKey *controller, guint keyval, guint keycode,
               GdkModifierType state, gpointer user_data)
{
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter) && (state & GDK_SHIFT_MASK))
    {
      search_step (FX_WINDOW (user_data), -1);
      return TRUE;
    }
  return FALSE;
}

void
fx_window_search (FxWindow *self, const char *text)
{
  g_return_if_fail (FX_IS_WINDOW (self));
  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
  /* search-changed is delayed for typing; a programmatic search applies now. */
  on_search_changed (self);
}

int
fx_window_get_search_position (FxWindow *self, guint *n_hits)
{
  g_return_val_if_fail (FX_IS_WINDOW (self), -1);
  if (n_hits != NULL)
    *n_hits = self->search_hits->len;
  return self->search_index;
}

static void
on_search_mode (GtkSearchBar *bar, GParamSpec *pspec, gpointer user_data)
{
  FxWindow *self = FX_WINDOW (user_data);
  gboolean on = gtk_search_bar_get_search_mode (bar);

  g_action_group_change_action_state (G_ACTION_GROUP (self), "find", g_variant_new_boolean (on));
  if (!on)
    clear_search (self);
}

/* ------------------------------------------------------------------ actions */

static void
on_chooser_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  FxWindow *self = FX_WINDOW (user_data);
  gboolean saving = gtk_file_chooser_get_action (GTK_FILE_CHOOSER (dialog)) == GTK_FILE_CHOOSER_ACTION_SAVE;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      if (file != NULL && saving)
        fx_window_export_code (self, file);
      else if (file != NULL)
        fx_window_open_file (self, file);
    }
  g_clear_object (&self->chooser);
}

static void
add_filter (GtkFileChooser *chooser, const char *name, const char *const *suffixes)
{
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  for (guint i = 0; suffixes[i] != NULL; i++)
    gtk_file_filter_add_suffix (filter, suffixes[i]);
  gtk_file_chooser_add_filter (chooser, filter);
}

static void
on_open (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  FxWindow *self = FX_WINDOW (user_data);

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new ("Open Model", GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", "_Cancel");
  add_filter (GTK_FILE_CHOOSER (self->chooser), "Models and graphs", (const char *[]) { "py", "fxg", NULL });
  add_filter (GTK_FILE_CHOOSER (self->chooser), "Python model source (*.py)", (const char *[]) { "py", NULL });
  add_filter (GTK_FILE_CHOOSER (self->chooser), "FX graph (*.fxg)", (const char *[]) { "fxg", NULL });
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
on_code_written (GObject *source, GAsyncResult *result, gpointer user_data)
{
  FxWindow *self = FX_WINDOW (user_data);
  g_autoptr (GError) error = NULL;
  g_autofree char *name = g_file_get_basename (G_FILE (source));
  g_autofree char *message = NULL;

  if (!g_file_replace_contents_finish (G_FILE (source), result, NULL, &error))
    message = g_strdup_printf ("Could not save “%s”: %s", name, error->message);
  else
    message = g_strdup_printf ("Code saved to “%s”", name);
  show_toast (self, message);
  g_signal_emit (self, signals[SIGNAL_CODE_EXPORTED], 0, error ? error->message : NULL);
  g_object_unref (self);
}

void
fx_window_export_code (FxWindow *self, GFile *file)
{
  const char *code;
  GBytes *bytes;

  g_return_if_fail (FX_IS_WINDOW (self));
  code = fx_code_view_get_code (self->code_view);
  if (code == NULL)
    return;
  bytes = g_bytes_new (code, strlen (code));
  g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                       NULL, on_code_written, g_object_ref (self));
  g_bytes_unref (bytes);
}

static void
on_export_code (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  FxWindow *self = FX_WINDOW (user_data);
  g_autofree char *basename = NULL;
  g_autofree char *suggested = NULL;
  g_autoptr (GFile) folder = NULL;

  if (self->chooser != NULL || self->file == NULL)
    return;
  self->chooser = gtk_file_chooser_native_new ("Export Generated Code", GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE, "_Save", "_Cancel");
  basename = g_file_get_basename (self->file);
  *strrchr (basename, '.') = '\0';
  suggested = g_strdup_printf ("%s_traced.py", basename);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), suggested);
  folder = g_file_get_parent (self->file);
  if (folder != NULL)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
  add_filter (GTK_FILE_CHOOSER (self->chooser), "Python source (*.py)", (const char *[]) { "py", NULL });
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
on_find (GSimpleAction *action, GVariant *state, gpointer user_data)
{
  FxWindow *self = FX_WINDOW (user_data);
  gboolean on = g_variant_get_boolean (state);

  g_simple_action_set_state (action, state);
  if (gtk_search_bar_get_search_mode (self->search_bar) != on)
    gtk_search_bar_set_search_mode (self->search_bar, on);
  if (on)
    gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
on_zoom (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  FxWindow *self = FX_WINDOW (user_data);
  const char *name = g_action_get_name (G_ACTION (action));

  if (strcmp (name, "zoom-in") == 0)
    fx_graph_view_zoom_in (self->graph_view);
  else if (strcmp (name, "zoom-out") == 0)
    fx_graph_view_zoom_out (self->graph_view);
  else
    fx_graph_view_zoom_to_fit (self->graph_view);
}

static void
on_open_recent (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  g_autoptr (GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));
  fx_window_open_file (FX_WINDOW (user_data), file);
}

static void
on_editing_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  /* Insensitive until documents are editable; nothing can activate them meanwhile. */
}

static const GActionEntry win_actions[] = {
  { .name = "open", .activate = on_open },
  { .name = "open-recent", .activate = on_open_recent, .parameter_type = "s" },
  { .name = "export-code", .activate = on_export_code },
  { .name = "find", .state = "false", .change_state = on_find },
  { .name = "zoom-in", .activate = on_zoom },
  { .name = "zoom-out", .activate = on_zoom },
  { .name = "zoom-fit", .activate = on_zoom },
  { .name = "save", .activate = on_editing_action },
  { .name = "undo", .activate = on_editing_action },
  { .name = "redo", .activate = on_editing_action },
};

/* ------------------------------------------------------------------ recent files */

static void
on_recent_activated (GtkListBox *list, GtkListBoxRow *row, gpointer user_data)
{
  const char *uri = g_object_get_data (G_OBJECT (row), "fx-uri");

  gtk_widget_activate_action (GTK_WIDGET (list), "win.open-recent", "s", uri);
}

static int
compare_recent (gconstpointer a, gconstpointer b)
{
  GDateTime *ma = gtk_recent_info_get_modified (*(GtkRecentInfo **) a);
  GDateTime *mb = gtk_recent_info_get_modified (*(GtkRecentInfo **) b);
  return g_date_time_compare (mb, ma);
}

/* The start page lists the last models opened, newest first. */
static void
update_recent (FxWindow *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  g_autoptr (GPtrArray) models = g_ptr_array_new ();
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))) != NULL)
    gtk_list_box_remove (self->recent_list, child);
  for (GList *l = items; l != NULL; l = l->next)
    {
      const char *uri = gtk_recent_info_get_uri (l->data);
      if (g_str_has_prefix (uri, "file:") && (g_str_has_suffix (uri, ".py") || g_str_has_suffix (uri, ".fxg")))
        g_ptr_array_add (models, l->data);
    }
  g_ptr_array_sort (models, compare_recent);
  for (guint i = 0; i < models->len && i < 6; i++)
    {
      GtkRecentInfo *info = models->pdata[i];
      g_autoptr (GFile) file = g_file_new_for_uri (gtk_recent_info_get_uri (info));
      g_autoptr (GFile) parent = g_file_get_parent (file);
      g_autofree char *dir = parent ? g_file_get_parse_name (parent) : g_strdup ("");
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *arrow = gtk_image_new_from_icon_name ("go-next-symbolic");

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), gtk_recent_info_get_display_name (info));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), dir);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), arrow);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      g_object_set_data_full (G_OBJECT (row), "fx-uri", g_strdup (gtk_recent_info_get_uri (info)), g_free);
      gtk_list_box_append (self->recent_list, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->recent_box), models->len > 0);
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

/* ------------------------------------------------------------------ window */

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
  gboolean dark = adw_style_manager_get_dark (manager);

  fx_source_pane_set_dark (self->source_pane, dark);
  fx_source_pane_set_dark (FX_SOURCE_PANE (fx_code_view_get_source_pane (self->code_view)), dark);
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
  if (self->open_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->open_dialog));
  g_clear_object (&self->file);
  g_clear_object (&self->pending_file);
  g_clear_pointer (&self->pending_source, g_free);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->search_hits, g_ptr_array_unref);
  g_clear_pointer (&self->search_query, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), FX_TYPE_WINDOW);
  /* After the views let go of the graph's nodes. */
  g_clear_pointer (&self->gm, fx_graph_module_unref);
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
  signals[SIGNAL_OPEN_DIALOG_READY] =
    g_signal_new ("open-dialog-ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* (const char *error_message_or_NULL) */
  signals[SIGNAL_CODE_EXPORTED] =
    g_signal_new ("code-exported", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  fx_ui_init ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/fxeditor/FxEditor/ui/fx-window.ui");
  gtk_widget_class_bind_template_child (widget_class, FxWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, recent_box);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, loading_spinner);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, loading_label);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, graph_view);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, layout_spinner);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, search_bar);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, search_label);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, sidebar_stack);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, inspector);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, code_view);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, node_table);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, error_title);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, error_text);
  gtk_widget_class_bind_template_child (widget_class, FxWindow, source_pane);
  gtk_widget_class_bind_template_callback (widget_class, on_recent_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_search_next);
  gtk_widget_class_bind_template_callback (widget_class, on_search_previous);
  gtk_widget_class_bind_template_callback (widget_class, on_code_node_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_table_node_activated);
}

static void
fx_window_init (FxWindow *self)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  GtkDropTarget *drop;
  GtkEventController *keys;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->search_hits = g_ptr_array_new ();
  self->search_index = -1;

  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions, G_N_ELEMENTS (win_actions),
                                   self);
  set_actions_enabled (self, editing_actions, G_N_ELEMENTS (editing_actions), FALSE);
  set_actions_enabled (self, document_actions, G_N_ELEMENTS (document_actions), FALSE);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_search_key), self);
  gtk_widget_add_controller (GTK_WIDGET (self->search_entry), keys);
  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));
  g_signal_connect_object (self->search_bar, "notify::search-mode-enabled", G_CALLBACK (on_search_mode), self, 0);

  g_signal_connect_object (self->graph_view, "selection-changed", G_CALLBACK (on_graph_selection_changed), self, 0);
  g_signal_connect_object (self->graph_view, "notify::layout-running", G_CALLBACK (on_layout_running), self, 0);
  g_signal_connect_object (self->graph_view, "layout-finished", G_CALLBACK (on_layout_finished), self, 0);
  gtk_widget_set_visible (GTK_WIDGET (self->layout_spinner), FALSE);

  g_signal_connect_object (style, "notify::dark", G_CALLBACK (on_dark_changed), self, 0);
  on_dark_changed (style, NULL, self);

  g_signal_connect_object (gtk_recent_manager_get_default (), "changed", G_CALLBACK (update_recent),
                           self, G_CONNECT_SWAPPED);
  update_recent (self);

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

FxGraphModule *
fx_window_get_graph_module (FxWindow *self)
{
  g_return_val_if_fail (FX_IS_WINDOW (self), NULL);
  return self->gm;
}

const char *
fx_window_get_error_text (FxWindow *self)
{
  g_return_val_if_fail (FX_IS_WINDOW (self), NULL);
  return gtk_label_get_text (self->error_text);
}

void
fx_window_show_sidebar_page (FxWindow *self, const char *name)
{
  g_return_if_fail (FX_IS_WINDOW (self));
  adw_view_stack_set_visible_child_name (self->sidebar_stack, name);
}

GtkWidget *fx_window_get_source_pane (FxWindow *self) { return GTK_WIDGET (self->source_pane); }
GtkWidget *fx_window_get_graph_view (FxWindow *self) { return GTK_WIDGET (self->graph_view); }
GtkWidget *fx_window_get_code_view (FxWindow *self) { return GTK_WIDGET (self->code_view); }
GtkWidget *fx_window_get_inspector (FxWindow *self) { return GTK_WIDGET (self->inspector); }
GtkWidget *fx_window_get_node_table (FxWindow *self) { return GTK_WIDGET (self->node_table); }
GtkWidget *fx_window_get_search_entry (FxWindow *self) { return GTK_WIDGET (self->search_entry); }
GtkWidget *fx_window_get_open_dialog (FxWindow *self) { return self->open_dialog ? GTK_WIDGET (self->open_dialog) : NULL; }
