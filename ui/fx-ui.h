/* fx-ui.h: one-time set-up of FX Editor's widget library (resources, types, styling). */
#pragma once

#include <gtk/gtk.h>
#include "fx-source-pane.h"
#include "fx-graph-view.h"
#include "fx-code-view.h"
#include "fx-node-inspector.h"
#include "fx-node-table.h"
#include "fx-open-dialog.h"

G_BEGIN_DECLS

/* Registers the GResource bundle and the widget types; call after gtk_init() or from
 * GApplication::startup. Idempotent. */
void fx_ui_init (void);

G_END_DECLS
