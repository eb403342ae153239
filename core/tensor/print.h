/* print.h: tensors printed exactly as PyTorch 1.13's repr()/str() prints them (precision 4,
 * 80 columns, summarised past 1000 elements), for print(), the REPL and the run pane. */
#pragma once

#include <glib.h>
#include "tensor/tensor.h"

G_BEGIN_DECLS

/* Appends repr(t), e.g. "tensor([1.5000, 2.2500], dtype=torch.float64)". */
void  fx_tensor_repr      (const FxTensor *t, GString *out);
/* The same as a new string (g_free). */
char *fx_tensor_to_string (const FxTensor *t);

G_END_DECLS
