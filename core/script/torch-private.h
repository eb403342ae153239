/* torch-private.h: what torch.c (the torch modules) and torch-tensor.c (the torch.Tensor
 * class) share. Private to those files. */
#pragma once

#include "script/internal.h"
#include "script/torch-bind.h"
#include "ops/op.h"

G_BEGIN_DECLS

#define TORCH_ARGS FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, \
  FxValue *result, gpointer data

/* Per-interpreter state of the torch bindings; natives reach it through user_data. */
typedef struct {
  FxScriptClass *tensor_cls;     /* torch.Tensor, the class of FX_VALUE_TENSOR */
  FxScriptClass *size_cls;       /* torch.Size */
  FxScriptClass *dtype_cls;
  FxScriptClass *device_cls;
  FxScriptClass *generator_cls;
  FxScriptClass *grad_mode_cls[4];  /* no_grad, enable_grad, set_grad_enabled, inference_mode */
  /* attributes scripts set on plain tensors (t.foo = 1): FxTensor* (a reference, so that the
   * address stays unique) → FxDict*; created on the first one */
  GHashTable *tensor_attrs;
  gboolean grad_enabled;
  gboolean inference_mode;
  gboolean outer_grad_mode;      /* the thread's grad mode before the script started */
  GHashTable *node_classes;      /* grad_fn classes by node name (interned): created on demand */
} TorchState;

/* The payload of instances of torch.Tensor subclasses. */
typedef struct {
  FxTensor *tensor;              /* NULL until set */
} TorchTensorPayload;

TorchState *torch_state      (FxScript *S);
/* The tensor of a tensor value or subclass instance; raises TypeError naming fname. */
FxTensor   *torch_self       (FxScript *S, const FxValue *v, const char *fname);
gboolean    torch_raise_gerror (FxScript *S, GError *error);   /* frees error */

/* torch-tensor.c */
void        torch_tensor_class_init (FxScript *S, TorchState *st);
/* torch.Tensor(...) / torch.FloatTensor(...) construction: data or sizes. */
gboolean    torch_tensor_construct (FxScript *S, FxDType dtype, const FxValue *args, int n_args,
                                    FxDict *kwargs, const char *fname, FxValue *result);

G_END_DECLS
