/* torch-bind.h: how C code outside the torch bindings (torch.nn, torch.fx, the tracer) sees
 * script tensors — plain FX_VALUE_TENSOR values and instances of Python/native subclasses of
 * torch.Tensor alike — and how it calls registry ops the way torch's own bindings do. */
#pragma once

#include "script/script.h"

G_BEGIN_DECLS

/* The FxTensor behind v (borrowed): v itself when it is a tensor, or the tensor held by an
 * instance of a torch.Tensor subclass (see sc_torch_tensor_new_instance). FALSE (nothing
 * raised) otherwise. */
gboolean  sc_torch_unwrap_tensor   (FxScript *script, const FxValue *v, FxTensor **out);

/* isinstance(v, torch.Tensor) */
gboolean  sc_torch_is_tensor       (FxScript *script, const FxValue *v);

/* torch.Tensor (borrowed), for subclassing by native classes (nn.Parameter): a subclass's
 * instances carry a payload in which sc_torch_set_instance_tensor stores their tensor. */
FxScriptClass *sc_torch_tensor_class (FxScript *script);
/* Stores (a reference to) t in an instance of a torch.Tensor subclass; FALSE if v is not one. */
gboolean  sc_torch_set_instance_tensor (FxScript *script, const FxValue *v, FxTensor *t);

/* Calls a registry op as torch.X(...) does: tensor-subclass instances among the positional
 * arguments are replaced by their tensors, then the interpreter's op-call hook
 * (fx_script_set_op_call) or fx_op_call runs it. FALSE with an exception pending. */
gboolean  sc_torch_call_op         (FxScript *script, const FxOp *op, const FxValue *args,
                                    int n_args, FxDict *kwargs, FxValue *result);

/* torch.is_grad_enabled() */
gboolean  sc_torch_grad_enabled    (FxScript *script);

G_END_DECLS
