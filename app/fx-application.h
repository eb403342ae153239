/* fx-application.h: FxApplication — FX Editor's AdwApplication: app actions, accelerators,
 * opening files from the command line into windows. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define FX_APPLICATION_ID "org.fxeditor.FxEditor"

#define FX_TYPE_APPLICATION (fx_application_get_type ())
G_DECLARE_FINAL_TYPE (FxApplication, fx_application, FX, APPLICATION, AdwApplication)

FxApplication *fx_application_new (GApplicationFlags extra_flags);

G_END_DECLS
