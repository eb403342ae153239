/* json-depth.h: a guard run before json-glib parses untrusted text (.fxg files, safetensors
 * headers): json-glib recurses once per nesting level, so deep documents are refused first. */
#pragma once

#include <glib.h>

/* FALSE when brackets/braces outside strings nest deeper than max_depth. */
gboolean fx_json_depth_ok (const char *data, gsize len, guint max_depth);
