/* fx-source-pane.c: FxSourcePane — GtkSourceView in a scroller, Python highlighting, read-only. */
#include "fx-source-pane.h"

#include <gtksourceview/gtksource.h>

struct _FxSourcePane {
  GtkWidget parent_instance;
  GtkWidget *scroller;
  GtkSourceView *view;
  GtkSourceBuffer *buffer;
};

G_DEFINE_FINAL_TYPE (FxSourcePane, fx_source_pane, GTK_TYPE_WIDGET)

static void
fx_source_pane_dispose (GObject *object)
{
  FxSourcePane *self = FX_SOURCE_PANE (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), FX_TYPE_SOURCE_PANE);
  g_clear_object (&self->buffer);
  G_OBJECT_CLASS (fx_source_pane_parent_class)->dispose (object);
}

static void
fx_source_pane_class_init (FxSourcePaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fx_source_pane_dispose;

  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/fxeditor/FxEditor/ui/fx-source-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, FxSourcePane, scroller);
  gtk_widget_class_bind_template_child (widget_class, FxSourcePane, view);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "fxsourcepane");
}

static void
fx_source_pane_init (FxSourcePane *self)
{
  GtkSourceLanguageManager *languages;
  GtkSourceLanguage *python;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->buffer = gtk_source_buffer_new (NULL);
  languages = gtk_source_language_manager_get_default ();
  python = gtk_source_language_manager_get_language (languages, "python3");
  if (python != NULL)
    gtk_source_buffer_set_language (self->buffer, python);
  gtk_source_buffer_set_highlight_syntax (self->buffer, TRUE);
  gtk_text_view_set_buffer (GTK_TEXT_VIEW (self->view), GTK_TEXT_BUFFER (self->buffer));
  fx_source_pane_set_dark (self, FALSE);
}

GtkWidget *
fx_source_pane_new (void)
{
  return g_object_new (FX_TYPE_SOURCE_PANE, NULL);
}

void
fx_source_pane_set_text (FxSourcePane *self, const char *text)
{
  GtkTextIter start;

  g_return_if_fail (FX_IS_SOURCE_PANE (self));
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer), text ? text : "", -1);
  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (self->buffer), &start);
  gtk_text_buffer_place_cursor (GTK_TEXT_BUFFER (self->buffer), &start);
}

char *
fx_source_pane_dup_text (FxSourcePane *self)
{
  GtkTextIter start, end;

  g_return_val_if_fail (FX_IS_SOURCE_PANE (self), NULL);
  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (self->buffer), &start, &end);
  return gtk_text_buffer_get_text (GTK_TEXT_BUFFER (self->buffer), &start, &end, FALSE);
}

void
fx_source_pane_show_line (FxSourcePane *self, int line)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_if_fail (FX_IS_SOURCE_PANE (self));
  buffer = GTK_TEXT_BUFFER (self->buffer);
  line = CLAMP (line, 1, gtk_text_buffer_get_line_count (buffer));
  gtk_text_buffer_get_iter_at_line (buffer, &start, line - 1);
  end = start;
  if (!gtk_text_iter_ends_line (&end))
    gtk_text_iter_forward_to_line_end (&end);
  gtk_text_buffer_select_range (buffer, &start, &end);
  gtk_text_view_scroll_to_iter (GTK_TEXT_VIEW (self->view), &start, 0.1, TRUE, 0.0, 0.3);
}

int
fx_source_pane_get_cursor_line (FxSourcePane *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter iter;

  g_return_val_if_fail (FX_IS_SOURCE_PANE (self), 0);
  buffer = GTK_TEXT_BUFFER (self->buffer);
  gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  return gtk_text_iter_get_line (&iter) + 1;
}

void
fx_source_pane_set_dark (FxSourcePane *self, gboolean dark)
{
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  GtkSourceStyleScheme *scheme;

  scheme = gtk_source_style_scheme_manager_get_scheme (schemes, dark ? "Adwaita-dark" : "Adwaita");
  if (scheme != NULL)
    gtk_source_buffer_set_style_scheme (self->buffer, scheme);
}
