/* grad.h: what PyTorch's autograd records, without autograd: grad mode (per thread, as in
 * PyTorch), which results require grad, and the name of the backward node each would get
 * (the grad_fn=<...> that tensors print). Nothing is ever differentiated. */
#pragma once

#include <glib.h>
#include "ops/op.h"

G_BEGIN_DECLS

/* Grad mode of the calling thread (on by default): torch.no_grad() and inference_mode turn it
 * off. fx_grad_mode_set returns the mode it replaced. */
gboolean     fx_grad_mode_enabled  (void);
gboolean     fx_grad_mode_set      (gboolean enabled);

/* Before op's kernel runs on argv (bound, in schema order): FALSE with PyTorch's error when
 * it would change, in place, a leaf tensor that requires grad while grad mode is on. */
gboolean     fx_grad_check_inplace (const FxOp *op, const FxOverload *ov, const FxValue *argv,
                                    GError **error);

/* After it ran: marks the tensors of result as autograd would have (requires_grad, and the
 * backward node's name; views made with grad mode off keep requiring grad). */
void         fx_grad_record        (const FxOp *op, const FxOverload *ov, const FxValue *argv,
                                    FxValue *result);

/* The same for a result computed without the op table (a fused chain of layers, a tensor
 * property): `name` is the backward node of the last step, `inputs` the tensors it read. */
void         fx_grad_record_named  (const char *name, const FxTensor *const *inputs, int n_inputs,
                                    FxTensor *result);

/* A view made without the op table (a tensor property such as .T): named `name` with grad
 * mode on, and requiring grad like its base with it off; its _base noted (view_base). */
void         fx_grad_record_view   (const char *name, const FxTensor *base, FxTensor *view);

G_END_DECLS
