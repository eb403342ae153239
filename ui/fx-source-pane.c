/* fx-source-pane.c: FxSourcePane — GtkSourceView in a scroller, Python highlighting, read-only,
 * one highlighted line (an error's, a selected node's) and clicks reported by line. */
#include "fx-source-pane.h"

#include <gtksourceview/gtksource.h>

struct _FxSourcePane {
  GtkWidget parent_instance;
  GtkWidget *scroller;
  GtkSourceView *view;
  GtkSourceBuffer *buffer;
  GtkTextTag *highlight_tag;
  int highlighted_line;      /* 1-based; 0: none */
  guint scroll_idle;         /* a scroll to the cursor waiting for the text's layout */
  gboolean scroll_on_map;    /* ... and for the view to be shown */
  gboolean follow_cursor;    /* scrolled to the cursor, and the user has not touched the view
                              * since: a resize scrolls to it again */
};

G_DEFINE_FINAL_TYPE (FxSourcePane, fx_source_pane, GTK_TYPE_WIDGET)

static void on_view_map (GtkWidget *view, gpointer user_data);
static void on_page_size (GtkAdjustment *adjustment, GParamSpec *pspec, gpointer user_data);
static gboolean on_user_input (GtkEventControllerLegacy *controller, GdkEvent *event,
                               gpointer user_data);

enum { SIGNAL_LINE_ACTIVATED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* A click (not a drag that selects text) names the line under the pointer. */
static void
on_click_released (GtkGestureClick *gesture, int n_press, double x, double y, gpointer user_data)
{
  FxSourcePane *self = FX_SOURCE_PANE (user_data);
  GtkTextIter iter;
  int bx, by;

  if (gtk_text_buffer_get_has_selection (GTK_TEXT_BUFFER (self->buffer)))
    return;
  gtk_text_view_window_to_buffer_coords (GTK_TEXT_VIEW (self->view), GTK_TEXT_WINDOW_WIDGET,
                                         (int) x, (int) y, &bx, &by);
  if (!gtk_text_view_get_iter_at_location (GTK_TEXT_VIEW (self->view), &iter, bx, by))
    return;
  g_signal_emit (self, signals[SIGNAL_LINE_ACTIVATED], 0, gtk_text_iter_get_line (&iter) + 1);
}

static void
fx_source_pane_dispose (GObject *object)
{
  FxSourcePane *self = FX_SOURCE_PANE (object);

  g_clear_handle_id (&self->scroll_idle, g_source_remove);
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

  /* (int line): 1-based line the user clicked on. */
  signals[SIGNAL_LINE_ACTIVATED] =
    g_signal_new ("line-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
}

static void
fx_source_pane_init (FxSourcePane *self)
{
  GtkGesture *click;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->buffer = gtk_source_buffer_new (NULL);
  gtk_source_buffer_set_highlight_syntax (self->buffer, TRUE);
  gtk_text_view_set_buffer (GTK_TEXT_VIEW (self->view), GTK_TEXT_BUFFER (self->buffer));
  self->highlight_tag = gtk_text_buffer_create_tag (GTK_TEXT_BUFFER (self->buffer), "fx-highlight",
                                                    "paragraph-background", "rgba(53,132,228,0.25)",
                                                    NULL);
  fx_source_pane_set_dark (self, FALSE);

  click = gtk_gesture_click_new ();
  g_signal_connect (click, "released", G_CALLBACK (on_click_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self->view), GTK_EVENT_CONTROLLER (click));
  g_signal_connect (self->view, "map", G_CALLBACK (on_view_map), self);
  g_signal_connect_object (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->scroller)),
                           "notify::page-size", G_CALLBACK (on_page_size), self, 0);
  GtkEventController *input = gtk_event_controller_legacy_new ();
  gtk_event_controller_set_propagation_phase (input, GTK_PHASE_CAPTURE);
  g_signal_connect (input, "event", G_CALLBACK (on_user_input), self);
  gtk_widget_add_controller (self->scroller, input);
}

/* GtkTextView lays its lines out in an idle (priority 125) and places a mark by the heights
 * known so far, which are 0 for lines not laid out yet; and a view not allocated yet (a
 * sidebar page not shown) cannot scroll at all. So the scroll waits for an idle of lower
 * priority, after the layout, and for the view to be on screen. */
static gboolean
scroll_when_laid_out (gpointer user_data)
{
  FxSourcePane *self = FX_SOURCE_PANE (user_data);
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);

  self->scroll_idle = 0;
  if (!gtk_widget_get_mapped (GTK_WIDGET (self->view)) || gtk_widget_get_height (GTK_WIDGET (self->view)) <= 0)
    {
      self->scroll_on_map = TRUE;
      return G_SOURCE_REMOVE;
    }
  gtk_text_view_scroll_to_mark (GTK_TEXT_VIEW (self->view), gtk_text_buffer_get_insert (buffer),
                                0.1, TRUE, 0.0, 0.3);
  return G_SOURCE_REMOVE;
}

static void
scroll_to_cursor (FxSourcePane *self)
{
  self->follow_cursor = TRUE;
  self->scroll_on_map = FALSE;
  if (self->scroll_idle == 0)
    self->scroll_idle = g_idle_add_full (G_PRIORITY_LOW, scroll_when_laid_out, self, NULL);
}

static void
on_view_map (GtkWidget *view, gpointer user_data)
{
  FxSourcePane *self = FX_SOURCE_PANE (user_data);

  if (self->scroll_on_map)
    scroll_to_cursor (self);
}

/* The view's height changed (the window resized, or what is above the pane grew: an error's
 * text filled in after the scroll). A scroll near the end of the text was clamped for the
 * old height, and keeping its offset can leave the line out of view: scroll to it again,
 * unless the user has scrolled or clicked since. */
static void
on_page_size (GtkAdjustment *adjustment, GParamSpec *pspec, gpointer user_data)
{
  FxSourcePane *self = FX_SOURCE_PANE (user_data);

  if (self->follow_cursor)
    scroll_to_cursor (self);
}

/* Any pointer, touch or key input in the pane: the user is looking where they want. */
static gboolean
on_user_input (GtkEventControllerLegacy *controller, GdkEvent *event, gpointer user_data)
{
  FxSourcePane *self = FX_SOURCE_PANE (user_data);

  switch (gdk_event_get_event_type (event))
    {
    case GDK_BUTTON_PRESS:
    case GDK_SCROLL:
    case GDK_TOUCH_BEGIN:
    case GDK_KEY_PRESS:
    case GDK_TOUCHPAD_SWIPE:
      self->follow_cursor = FALSE;
      break;
    default:
      break;
    }
  return GDK_EVENT_PROPAGATE;
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
  /* Loading the language definitions costs start-up time; an empty pane needs none. */
  if (gtk_source_buffer_get_language (self->buffer) == NULL && text != NULL && *text != '\0')
    {
      GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
      GtkSourceLanguage *python = gtk_source_language_manager_get_language (languages, "python3");
      if (python != NULL)
        gtk_source_buffer_set_language (self->buffer, python);
    }
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer), text ? text : "", -1);
  self->highlighted_line = 0;
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
  scroll_to_cursor (self);
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

/* The tag paints the line's whole width, unlike a selection, and survives clicks elsewhere. */
void
fx_source_pane_highlight_line (FxSourcePane *self, int line, gboolean scroll)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_if_fail (FX_IS_SOURCE_PANE (self));
  buffer = GTK_TEXT_BUFFER (self->buffer);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag (buffer, self->highlight_tag, &start, &end);
  self->highlighted_line = 0;
  if (line < 1 || line > gtk_text_buffer_get_line_count (buffer))
    return;
  self->highlighted_line = line;
  gtk_text_buffer_get_iter_at_line (buffer, &start, line - 1);
  end = start;
  gtk_text_iter_forward_line (&end);
  gtk_text_buffer_apply_tag (buffer, self->highlight_tag, &start, &end);
  gtk_text_buffer_place_cursor (buffer, &start);
  if (scroll)
    scroll_to_cursor (self);
}

int
fx_source_pane_get_highlighted_line (FxSourcePane *self)
{
  g_return_val_if_fail (FX_IS_SOURCE_PANE (self), 0);
  return self->highlighted_line;
}

/* Whether line (1-based) lies within the visible part of the view. */
gboolean
fx_source_pane_line_visible (FxSourcePane *self, int line)
{
  GdkRectangle visible, location;
  GtkTextIter iter;

  g_return_val_if_fail (FX_IS_SOURCE_PANE (self), FALSE);
  gtk_text_view_get_visible_rect (GTK_TEXT_VIEW (self->view), &visible);
  gtk_text_buffer_get_iter_at_line (GTK_TEXT_BUFFER (self->buffer), &iter, line - 1);
  gtk_text_view_get_iter_location (GTK_TEXT_VIEW (self->view), &iter, &location);
  return location.y >= visible.y && location.y + location.height <= visible.y + visible.height;
}
