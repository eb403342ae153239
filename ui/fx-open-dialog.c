/* fx-open-dialog.c: FxOpenDialog — a modal AdwWindow: candidates as radio rows, concrete
 * arguments as entry rows checked with fx_trace_parse_literal as they are typed, leaf
 * module classes in one entry row. */
#include "fx-open-dialog.h"

#include <string.h>

struct _FxOpenDialog {
  AdwWindow parent_instance;
  AdwWindowTitle *title;
  GtkStack *stack;
  GtkButton *trace_button;
  AdwPreferencesGroup *candidates_group;
  AdwPreferencesGroup *args_group;
  AdwEntryRow *leaf_row;
  GtkLabel *error_label;

  GPtrArray *candidate_rows;   /* AdwActionRow, with "fx-name" data and a check button */
  GPtrArray *arg_rows;         /* AdwEntryRow */
  GtkCheckButton *group_head;  /* the radio group */
  char *error;
};

G_DEFINE_FINAL_TYPE (FxOpenDialog, fx_open_dialog, ADW_TYPE_WINDOW)

enum { SIGNAL_TRACE_REQUESTED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
set_error (FxOpenDialog *self, const char *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_text (self->error_label, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

/* Parses "NAME=VALUE"; an empty row is skipped (*name stays NULL). */
static gboolean
parse_arg (const char *text, char **name, FxValue *value, GError **error)
{
  const char *eq = strchr (text, '=');
  g_autofree char *key = NULL;
  g_autoptr (GError) local = NULL;

  *name = NULL;
  while (g_ascii_isspace (*text))
    text++;
  if (*text == '\0')
    return TRUE;
  if (eq == NULL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "“%s”: write NAME=VALUE, e.g. x=None", text);
      return FALSE;
    }
  key = g_strstrip (g_strndup (text, eq - text));
  if (!fx_is_identifier (key))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "“%s” is not an argument name", key);
      return FALSE;
    }
  if (!fx_trace_parse_literal (eq + 1, value, &local))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "%s: %s", key, local->message);
      return FALSE;
    }
  *name = g_steal_pointer (&key);
  return TRUE;
}

gboolean
fx_open_dialog_get_request (FxOpenDialog *self, FxDict **concrete_args, char ***leaf_modules,
                            GError **error)
{
  g_autoptr (FxDict) args = NULL;
  g_autoptr (GStrvBuilder) leaves = g_strv_builder_new ();
  g_auto (GStrv) words = NULL;

  g_return_val_if_fail (FX_IS_OPEN_DIALOG (self), FALSE);
  for (guint i = 0; i < self->arg_rows->len; i++)
    {
      const char *text = gtk_editable_get_text (GTK_EDITABLE (self->arg_rows->pdata[i]));
      g_autofree char *name = NULL;
      FxValue value = fx_value_none ();
      g_autoptr (GError) local = NULL;

      if (!parse_arg (text, &name, &value, &local))
        {
          set_error (self, local->message);
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      if (name == NULL)
        continue;
      if (args == NULL)
        args = fx_dict_new ();
      fx_dict_set (args, fx_value_str (name), value);
    }
  words = g_regex_split_simple ("[\\s,]+", gtk_editable_get_text (GTK_EDITABLE (self->leaf_row)), 0, 0);
  for (guint i = 0; words[i] != NULL; i++)
    if (*words[i] != '\0')
      {
        if (!fx_is_identifier (words[i]))
          {
            g_autofree char *message = g_strdup_printf ("“%s” is not a class name", words[i]);
            set_error (self, message);
            g_set_error_literal (error, FX_ERROR, FX_ERROR_PARSE, message);
            return FALSE;
          }
        g_strv_builder_add (leaves, words[i]);
      }
  set_error (self, NULL);
  if (concrete_args != NULL)
    *concrete_args = g_steal_pointer (&args);
  if (leaf_modules != NULL)
    *leaf_modules = g_strv_builder_end (leaves);
  return TRUE;
}

const char *
fx_open_dialog_get_error (FxOpenDialog *self)
{
  g_return_val_if_fail (FX_IS_OPEN_DIALOG (self), NULL);
  return self->error;
}

static void
update_trace_button (FxOpenDialog *self)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->trace_button),
                            fx_open_dialog_get_selected (self) != NULL && self->error == NULL);
}

/* Checks the input as it is typed, so a bad literal shows before Trace is pressed. */
static void
on_input_changed (FxOpenDialog *self)
{
  fx_open_dialog_get_request (self, NULL, NULL, NULL);
  update_trace_button (self);
}

void
fx_open_dialog_request_trace (FxOpenDialog *self)
{
  g_return_if_fail (FX_IS_OPEN_DIALOG (self));
  if (fx_open_dialog_get_selected (self) == NULL)
    return;
  if (!fx_open_dialog_get_request (self, NULL, NULL, NULL))
    {
      update_trace_button (self);
      return;
    }
  g_signal_emit (self, signals[SIGNAL_TRACE_REQUESTED], 0);
}

static void
on_trace_clicked (FxOpenDialog *self)
{
  fx_open_dialog_request_trace (self);
}

static void
on_cancel_clicked (FxOpenDialog *self)
{
  gtk_window_close (GTK_WINDOW (self));
}

static void
on_remove_arg (GtkButton *button, gpointer user_data)
{
  FxOpenDialog *self = FX_OPEN_DIALOG (user_data);
  GtkWidget *row = g_object_get_data (G_OBJECT (button), "fx-row");

  g_ptr_array_remove (self->arg_rows, row);
  adw_preferences_group_remove (self->args_group, row);
  on_input_changed (self);
}

void
fx_open_dialog_add_concrete_arg (FxOpenDialog *self, const char *text)
{
  GtkWidget *row = adw_entry_row_new ();
  GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");

  g_return_if_fail (FX_IS_OPEN_DIALOG (self));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), "NAME=VALUE");
  gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (remove, "Remove this argument");
  gtk_widget_add_css_class (remove, "flat");
  g_object_set_data (G_OBJECT (remove), "fx-row", row);
  g_signal_connect (remove, "clicked", G_CALLBACK (on_remove_arg), self);
  adw_entry_row_add_suffix (ADW_ENTRY_ROW (row), remove);
  if (text != NULL)
    gtk_editable_set_text (GTK_EDITABLE (row), text);
  g_signal_connect_swapped (row, "changed", G_CALLBACK (on_input_changed), self);
  g_signal_connect_swapped (row, "entry-activated", G_CALLBACK (fx_open_dialog_request_trace), self);
  g_ptr_array_add (self->arg_rows, row);
  adw_preferences_group_add (self->args_group, row);
  on_input_changed (self);
}

static void
on_add_arg_clicked (FxOpenDialog *self)
{
  fx_open_dialog_add_concrete_arg (self, NULL);
  gtk_widget_grab_focus (g_ptr_array_index (self->arg_rows, self->arg_rows->len - 1));
}

void
fx_open_dialog_set_leaf_modules (FxOpenDialog *self, const char *text)
{
  g_return_if_fail (FX_IS_OPEN_DIALOG (self));
  gtk_editable_set_text (GTK_EDITABLE (self->leaf_row), text ? text : "");
}

static const char *
candidate_description (const FxTraceCandidate *candidate)
{
  switch (candidate->kind)
    {
    case FX_TRACE_CANDIDATE_INSTANCE: return "nn.Module instance";
    case FX_TRACE_CANDIDATE_CLASS:
      return candidate->constructible ? "nn.Module class" : "nn.Module class — needs constructor arguments";
    case FX_TRACE_CANDIDATE_FUNCTION: return "function";
    }
  return "";
}

void
fx_open_dialog_set_candidates (FxOpenDialog *self, GPtrArray *candidates)
{
  GtkCheckButton *preselect = NULL;
  int preselect_rank = 3;

  g_return_if_fail (FX_IS_OPEN_DIALOG (self));
  for (guint i = 0; i < candidates->len; i++)
    {
      const FxTraceCandidate *candidate = candidates->pdata[i];
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *check = gtk_check_button_new ();
      g_autofree char *subtitle = NULL;
      int rank;

      if (candidate->kind == FX_TRACE_CANDIDATE_INSTANCE && g_strcmp0 (candidate->type_name, candidate->name) != 0)
        subtitle = g_strdup_printf ("%s of class %s", candidate_description (candidate), candidate->type_name);
      else
        subtitle = g_strdup (candidate_description (candidate));
      if (candidate->line > 0)
        {
          char *with_line = g_strdup_printf ("%s · line %d", subtitle, candidate->line);
          g_free (subtitle);
          subtitle = with_line;
        }
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), candidate->name);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
      if (self->group_head == NULL)
        self->group_head = GTK_CHECK_BUTTON (check);
      else
        gtk_check_button_set_group (GTK_CHECK_BUTTON (check), self->group_head);
      /* A class that needs constructor arguments cannot be built by the tracer. */
      gtk_widget_set_sensitive (row, candidate->constructible);
      g_object_set_data_full (G_OBJECT (row), "fx-name", g_strdup (candidate->name), g_free);
      g_object_set_data (G_OBJECT (row), "fx-check", check);
      g_signal_connect_swapped (check, "toggled", G_CALLBACK (update_trace_button), self);
      g_ptr_array_add (self->candidate_rows, row);
      adw_preferences_group_add (self->candidates_group, row);

      rank = !candidate->constructible ? 3
             : candidate->kind == FX_TRACE_CANDIDATE_INSTANCE ? 0
             : candidate->kind == FX_TRACE_CANDIDATE_CLASS ? 1 : 2;
      if (rank < preselect_rank)
        {
          preselect_rank = rank;
          preselect = GTK_CHECK_BUTTON (check);
        }
    }
  if (preselect != NULL)
    gtk_check_button_set_active (preselect, TRUE);
  if (candidates->len == 0)
    adw_preferences_group_set_description (self->candidates_group,
                                           "The file defines no nn.Module and no function to trace");
  gtk_stack_set_visible_child_name (self->stack, "content");
  update_trace_button (self);
}

gboolean
fx_open_dialog_select (FxOpenDialog *self, const char *name)
{
  g_return_val_if_fail (FX_IS_OPEN_DIALOG (self), FALSE);
  for (guint i = 0; i < self->candidate_rows->len; i++)
    {
      GtkWidget *row = self->candidate_rows->pdata[i];
      if (g_strcmp0 (g_object_get_data (G_OBJECT (row), "fx-name"), name) == 0
          && gtk_widget_get_sensitive (row))
        {
          gtk_check_button_set_active (g_object_get_data (G_OBJECT (row), "fx-check"), TRUE);
          return TRUE;
        }
    }
  return FALSE;
}

const char *
fx_open_dialog_get_selected (FxOpenDialog *self)
{
  g_return_val_if_fail (FX_IS_OPEN_DIALOG (self), NULL);
  for (guint i = 0; i < self->candidate_rows->len; i++)
    {
      GtkWidget *row = self->candidate_rows->pdata[i];
      if (gtk_check_button_get_active (g_object_get_data (G_OBJECT (row), "fx-check")))
        return g_object_get_data (G_OBJECT (row), "fx-name");
    }
  return NULL;
}

static void
fx_open_dialog_dispose (GObject *object)
{
  FxOpenDialog *self = FX_OPEN_DIALOG (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), FX_TYPE_OPEN_DIALOG);
  g_clear_pointer (&self->candidate_rows, g_ptr_array_unref);
  g_clear_pointer (&self->arg_rows, g_ptr_array_unref);
  g_clear_pointer (&self->error, g_free);
  G_OBJECT_CLASS (fx_open_dialog_parent_class)->dispose (object);
}

static void
fx_open_dialog_class_init (FxOpenDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fx_open_dialog_dispose;

  /* The selection and input are valid: the owner reads them and traces. */
  signals[SIGNAL_TRACE_REQUESTED] =
    g_signal_new ("trace-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/fxeditor/FxEditor/ui/fx-open-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, FxOpenDialog, title);
  gtk_widget_class_bind_template_child (widget_class, FxOpenDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, FxOpenDialog, trace_button);
  gtk_widget_class_bind_template_child (widget_class, FxOpenDialog, candidates_group);
  gtk_widget_class_bind_template_child (widget_class, FxOpenDialog, args_group);
  gtk_widget_class_bind_template_child (widget_class, FxOpenDialog, leaf_row);
  gtk_widget_class_bind_template_child (widget_class, FxOpenDialog, error_label);
  gtk_widget_class_bind_template_callback (widget_class, on_trace_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_cancel_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_add_arg_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_input_changed);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
fx_open_dialog_init (FxOpenDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->candidate_rows = g_ptr_array_new ();
  self->arg_rows = g_ptr_array_new ();
  update_trace_button (self);
}

FxOpenDialog *
fx_open_dialog_new (GtkWindow *parent, const char *file_name)
{
  FxOpenDialog *self = g_object_new (FX_TYPE_OPEN_DIALOG, "transient-for", parent,
                                     "modal", TRUE, NULL);

  adw_window_title_set_subtitle (self->title, file_name);
  return self;
}
