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

/* Which renderer FX Editor runs GTK with. */
typedef enum {
  FX_UI_RENDERER_GTK_DEFAULT,   /* GTK's own choice (GL where there is a GPU) */
  FX_UI_RENDERER_CAIRO,         /* no GPU: cairo, with GL switched off in GDK */
  FX_UI_RENDERER_USER,          /* the user set GSK_RENDERER / GDK_DEBUG / GDK_DISABLE */
} FxUiRenderer;

/* The choice for an environment (a g_get_environ() list) and whether a GPU device exists:
 * without a GPU — or with LIBGL_ALWAYS_SOFTWARE — GTK's GL renderer runs in Mesa's software
 * rasteriser, which costs start-up time (LLVM is loaded and JIT-compiles shaders) and is
 * slower per frame than cairo. FX_EDITOR_GL=1 keeps GTK's default anyway. */
FxUiRenderer fx_ui_renderer_for (const char *const *envp, gboolean gpu_device);
/* Applies fx_ui_renderer_for() to this process by setting GTK's environment switches; call
 * in main() before GTK starts. */
FxUiRenderer fx_ui_choose_renderer (void);

G_END_DECLS
