/* rewrite-script.h: the script face of the subgraph rewriter — the native module
 * torch.fx._rewrite that the embedded torch/fx/subgraph_rewriter.py calls. */
#pragma once

#include "script/script.h"

G_BEGIN_DECLS

/* Registers torch.fx._rewrite in script (called by sc_fx_ir_init). */
void fx_rewrite_script_init (FxScript *script);

G_END_DECLS
