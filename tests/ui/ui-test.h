/* ui-test.h: helpers shared by the UI tests — running the main loop until something happened,
 * waiting for painted frames, finding widgets, and screenshots checked for real content. */
#pragma once

#include "fx-application.h"
#include "fx-window.h"
#include "fx-ui.h"

G_BEGIN_DECLS

extern FxApplication *ui_test_app;

/* gtk_test_init, animations off, resources, an application registered; XDG dirs isolated. */
void       ui_test_init        (int *argc, char ***argv);
/* Runs the main loop until *flag is set or the timeout passes; returns *flag. */
gboolean   ui_test_wait_for    (gboolean *flag, guint timeout_ms);
void       ui_test_set_flag    (gboolean *flag);
/* Waits until widget has been drawn n more times. */
void       ui_test_wait_frames (GtkWidget *widget, int n);
FxWindow  *ui_test_new_mapped_window (void);
/* A button (any depth below root) bound to action_name. */
GtkWidget *ui_test_find_actionable (GtkWidget *root, const char *action_name);
/* Renders widget (any widget, not only windows) as it was last drawn and saves
 * $FX_SCREENSHOT_DIR/name.png when that is set. */
GdkTexture *ui_test_render     (GtkWidget *widget, const char *name);
/* texture's pixels (g_free) as 32-bit words; n_colours (may be NULL): how many distinct. */
guint32   *ui_test_texture_pixels (GdkTexture *texture, guint *n_colours);
/* ui_test_render, then how many distinct colours the screenshot has. */
guint      ui_test_screenshot  (GtkWidget *widget, const char *name);
/* Opens data/examples/NAME in window, traces `module`, and waits for the graph's layout. */
void       ui_test_open_example (FxWindow *window, const char *name, const char *module);

G_END_DECLS
