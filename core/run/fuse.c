/* fuse.c: Conv2d → BatchNorm2d (→ add) (→ ReLU) chains of a plan run as one step through
 * fx_tensor_conv2d_fused(), which applies the eval-mode BatchNorm, a residual add (ResNet's
 * blocks) and the ReLU to each conv output tile while it is in cache — bit for bit what the
 * nodes give one by one. A chain without an add may end with a MaxPool2d (ResNet's stem),
 * run by fx_tensor_conv2d_fused_max_pool(). */
#include "run/run-private.h"
#include "ops/grad.h"
#include "ops/layers.h"
#include "tensor/conv.h"
#include "tensor/nn.h"
#include "fx-error.h"

#include <string.h>

/* ------------------------------------------------------------------------------------------
 * Finding chains (compile time)
 * ------------------------------------------------------------------------------------------ */

static gboolean
is_layer (FxModule *m, const char *type_name)
{
  /* A script subclass of the layer has its own class name (and maybe its own forward). */
  return m != NULL && m->layer != NULL && m->layer->forward != NULL
         && strcmp (m->layer->type_name, type_name) == 0
         && strcmp (m->type_name, type_name) == 0;
}

/* The module a call_module instruction names now, or NULL (cache: fx_run_resolve_module's). */
static FxModule *
module_now (ExecPlan *plan, const Instr *in, gboolean cache)
{
  return in->op == FX_OP_CALL_MODULE ? fx_run_resolve_module (plan, in, cache, NULL) : NULL;
}

/* in reads slot `from` as its only positional argument and nothing else. */
static gboolean
reads_only (const Instr *in, int from)
{
  return in->n_args == 1 && in->n_kwargs == 0 && in->args[0].kind == PLAN_ARG_SLOT
         && in->args[0].slot == from;
}

static gboolean
const_bool (const PlanArg *a)
{
  return a->kind == PLAN_ARG_CONST && a->value.kind == FX_VALUE_BOOL;
}

/* relu of slot `from` in any of the spellings a trace gives: an nn.ReLU module, torch.relu,
 * torch.relu_, F.relu (inplace given or not), x.relu(), x.relu_(). In place or not makes no
 * difference here: the value it reads has no other user. */
static gboolean
is_relu_of (ExecPlan *plan, const Instr *in, int from)
{
  if (in->op == FX_OP_CALL_MODULE)
    return reads_only (in, from) && is_layer (module_now (plan, in, FALSE), "ReLU");
  if ((in->op != FX_OP_CALL_FUNCTION && in->op != FX_OP_CALL_METHOD) || in->fop == NULL)
    return FALSE;
  const char *q = in->fop->qualified_name;
  if (strcmp (q, "torch.nn.functional.relu") == 0)
    {
      if (in->n_args < 1 || in->n_args > 2 || in->args[0].kind != PLAN_ARG_SLOT
          || in->args[0].slot != from || (in->n_args == 2 && !const_bool (&in->args[1])))
        return FALSE;
      for (int i = 0; i < in->n_kwargs; i++)
        if (in->kw_keys[i].kind != FX_VALUE_STR || strcmp (in->kw_keys[i].s->data, "inplace") != 0
            || in->n_args == 2 || !const_bool (&in->kw_values[i]))
          return FALSE;
      return TRUE;
    }
  return (strcmp (q, "torch.relu") == 0 || strcmp (q, "torch.relu_") == 0
          || strcmp (q, "Tensor.relu") == 0 || strcmp (q, "Tensor.relu_") == 0)
         && reads_only (in, from);
}

/* An add of slot `from` and another slot (the residual), without alpha, that does not write
 * into the residual: operator.add / iadd, torch.add, x.add(y), x.add_(y). Returns the
 * position (0 or 1) of the residual among its arguments, or -1. */
static int
residual_add_of (const Instr *in, int from)
{
  if ((in->op != FX_OP_CALL_FUNCTION && in->op != FX_OP_CALL_METHOD) || in->fop == NULL
      || in->n_args != 2 || in->n_kwargs != 0 || in->args[0].kind != PLAN_ARG_SLOT
      || in->args[1].kind != PLAN_ARG_SLOT)
    return -1;
  const char *q = in->fop->qualified_name;
  gboolean in_place = strcmp (q, "operator.iadd") == 0 || strcmp (q, "Tensor.add_") == 0;
  if (!in_place && strcmp (q, "operator.add") != 0 && strcmp (q, "torch.add") != 0
      && strcmp (q, "Tensor.add") != 0)
    return -1;
  /* in place into the chain's own value is fine (nothing else reads it); into the residual,
   * the residual's other readers would see the change */
  if (in->args[0].slot == from && in->args[1].slot != from)
    return 1;
  if (!in_place && in->args[1].slot == from && in->args[0].slot != from)
    return 0;
  return -1;
}

/* A MaxPool2d module reading slot `from` only. */
static gboolean
is_max_pool_of (ExecPlan *plan, const Instr *in, int from)
{
  return in->op == FX_OP_CALL_MODULE && reads_only (in, from)
         && is_layer (module_now (plan, in, FALSE), "MaxPool2d");
}

static void mark_padded_planes (ExecPlan *plan, const int *n_uses);
static FuseSpots *fuse_spots_new (void);
static int chain_residual_slot (const Instr *head);

void
fx_run_fuse_detect (ExecPlan *plan, const int *n_uses)
{
  for (int i = 0; i < plan->n_instrs; i++)
    {
      plan->instrs[i].fused_head = -1;
      plan->instrs[i].fuse_residual_arg = -1;
      plan->instrs[i].fuse_pool = FALSE;
      plan->instrs[i].fuse_pair = FALSE;
    }
  /* Only consecutive instructions: the chain then runs where its first node stood, and
   * nothing between its nodes can observe (or free) the values it skips. */
  for (int i = 0; i + 1 < plan->n_instrs; i++)
    {
      Instr *conv = &plan->instrs[i], *bn = &plan->instrs[i + 1];
      if (conv->op != FX_OP_CALL_MODULE || conv->n_args != 1 || conv->n_kwargs != 0
          || conv->args[0].kind == PLAN_ARG_TREE || n_uses[i] != 1 || !reads_only (bn, i)
          || !is_layer (module_now (plan, conv, FALSE), "Conv2d")
          || !is_layer (module_now (plan, bn, FALSE), "BatchNorm2d"))
        continue;
      int len = 2, last = i + 1;
      if (i + 2 < plan->n_instrs && n_uses[i + 1] == 1)
        conv->fuse_residual_arg = residual_add_of (&plan->instrs[i + 2], i + 1);
      if (conv->fuse_residual_arg >= 0)
        {
          last = i + 2;
          len = 3;
        }
      if (last + 1 < plan->n_instrs && n_uses[last] == 1
          && is_relu_of (plan, &plan->instrs[last + 1], last))
        len++;
      last = i + len - 1;
      if (conv->fuse_residual_arg < 0 && last + 1 < plan->n_instrs && n_uses[last] == 1
          && is_max_pool_of (plan, &plan->instrs[last + 1], last))
        {
          conv->fuse_pool = TRUE;
          len++;
        }
      conv->fuse_len = len;
      fx_run_fuse_spots_free (conv->fuse_spots);
      conv->fuse_spots = fuse_spots_new ();
      for (int k = i + 1; k < i + len; k++)
        plan->instrs[k].fused_head = i;
      plan->n_fused++;
      i += len - 1;
    }
  /* Pairs: a chain of a conv and its BatchNorm whose value only the next chain's add reads
   * (ResNet's conv3 → bn3, then downsample → bn → add → relu) runs with it as one step,
   * fx_tensor_conv2d_fused_pair. The second chain stays a head of its own, for when the
   * pair falls back to running its first chain node by node. */
  for (int i = 0; i < plan->n_instrs; i++)
    {
      Instr *first = &plan->instrs[i];
      if (first->fuse_len != 2 || first->fuse_residual_arg >= 0 || first->fuse_pool
          || i + 2 >= plan->n_instrs || n_uses[i + 1] != 1)
        continue;
      Instr *second = &plan->instrs[i + 2];
      if (second->fuse_len == 0 || second->fuse_pool || chain_residual_slot (second) != i + 1)
        continue;
      first->fuse_pair = TRUE;
      first->fuse_len = 2 + second->fuse_len;
      second->fused_head = i;   /* in profiles: the pair's calls are on the first conv */
      i += first->fuse_len - 1;
    }
  mark_padded_planes (plan, n_uses);
}

/* The slot a chain's conv reads, or its add as the residual, or -1 (a constant). */
static int
chain_input_slot (const Instr *head)
{
  return head->args[0].kind == PLAN_ARG_SLOT ? head->args[0].slot : -1;
}

static int
chain_residual_slot (const Instr *head)
{
  const PlanArg *r = fx_run_fuse_residual_arg (head);
  return r != NULL && r->kind == PLAN_ARG_SLOT ? r->slot : -1;
}

/* The head of the chain whose value slot s is (s its last instruction), or NULL. */
static Instr *
chain_of_value (ExecPlan *plan, int s)
{
  if (s < 0)
    return NULL;
  Instr *in = &plan->instrs[s];
  Instr *head = in->fuse_len > 0 ? in : in->fused_head >= 0 ? &plan->instrs[in->fused_head] : NULL;
  return head != NULL && head - plan->instrs + head->fuse_len - 1 == s ? head : NULL;
}

/* ------------------------------------------------------------------------------------------
 * Running a chain
 * ------------------------------------------------------------------------------------------ */

static const FxValue none_value = { .kind = FX_VALUE_NONE };

/* The attributes a chain reads at each run, as dict keys made once (hashes cached): making
 * a key string per lookup was a good part of a chain's set-up. */
typedef enum {
  KEY_WEIGHT, KEY_BIAS, KEY_RUNNING_MEAN, KEY_RUNNING_VAR, KEY_EPS, KEY_PADDING_MODE,
  KEY_PADDING, KEY_GROUPS, KEY_STRIDE, KEY_DILATION, KEY_KERNEL_SIZE, KEY_CEIL_MODE,
  KEY_RETURN_INDICES, N_KEYS
} AttrKey;

static const FxValue *
attr_key (AttrKey k)
{
  static const char *const names[N_KEYS] = {
    "weight", "bias", "running_mean", "running_var", "eps", "padding_mode", "padding",
    "groups", "stride", "dilation", "kernel_size", "ceil_mode", "return_indices",
  };
  static FxValue keys[N_KEYS];
  static gsize made;
  if (g_once_init_enter (&made))
    {
      for (int i = 0; i < N_KEYS; i++)
        {
          keys[i] = fx_value_str (names[i]);
          fx_str_hash (keys[i].s);
        }
      g_once_init_leave (&made, 1);
    }
  return &keys[k];
}

/* Where a chain's conv and BatchNorm keep what it reads: for each table attr() looks in, a
 * spot per key. The chain's set-up at each run then reads entries it knows, instead of
 * hashing and probing a dozen times in dicts that a forward's weights pushed out of the
 * cache (~3 µs of the ~5 that a ResNet-50 chain's set-up took, while the other core
 * waited). */
enum { N_TABLES = 3 };
struct _FuseSpots {
  DictSpot conv[N_TABLES][N_KEYS], bn[N_TABLES][N_KEYS];
};

static FuseSpots *
fuse_spots_new (void)
{
  return g_new0 (FuseSpots, 1);   /* dict NULL: no spot yet */
}

void
fx_run_fuse_spots_free (FuseSpots *spots)
{
  g_free (spots);
}

/* self.name as Conv2d's / _BatchNorm's forward reads it: attribute, parameter or buffer
 * (spots: the module's, or NULL). */
static const FxValue *
attr (const FxModule *m, AttrKey name, DictSpot (*spots)[N_KEYS])
{
  const FxValue *key = attr_key (name);
  FxDict *tables[N_TABLES] = { m->attributes, m->parameters, m->buffers };
  const FxValue *v = NULL;
  for (guint t = 0; v == NULL && t < N_TABLES; t++)
    v = fx_run_dict_lookup (tables[t], key, spots ? &spots[t][name] : NULL);
  return v ? v : &none_value;
}

/* v's tensor if it is float32 with n elements (n < 0: any), or NULL. */
static FxTensor *
f32_attr_value (const FxValue *v, int64_t n)
{
  if (v->kind != FX_VALUE_TENSOR || v->tensor->dtype != FX_DTYPE_FLOAT32)
    return NULL;
  return n < 0 || fx_tensor_numel (v->tensor) == n ? v->tensor : NULL;
}

/* A float32 tensor attribute with n elements (n < 0: any), or NULL. */
static FxTensor *
f32_attr (const FxModule *m, AttrKey name, DictSpot (*spots)[N_KEYS], int64_t n)
{
  return f32_attr_value (attr (m, name, spots), n);
}

/* An attribute that is None or a float32 tensor of n elements. */
static gboolean
optional_f32 (const FxModule *m, AttrKey name, DictSpot (*spots)[N_KEYS], int64_t n,
              FxTensor **out)
{
  const FxValue *v = attr (m, name, spots);
  *out = v->kind == FX_VALUE_NONE ? NULL : f32_attr_value (v, n);
  return v->kind == FX_VALUE_NONE || *out != NULL;
}

/* A tuple of exactly n ints (what Conv2d's __init__ stores). */
static gboolean
int_pair (const FxValue *v, int64_t *out, int *n_out, int n)
{
  if ((v->kind != FX_VALUE_TUPLE && v->kind != FX_VALUE_LIST) || (int) v->seq->len != n)
    return FALSE;
  for (int i = 0; i < n; i++)
    {
      if (v->seq->items[i].kind != FX_VALUE_INT)
        return FALSE;
      out[i] = v->seq->items[i].i;
    }
  *n_out = n;
  return TRUE;
}

/* The convolution parameters of a Conv2d with padding_mode 'zeros', or FALSE for anything
 * its forward would handle differently. */
static gboolean
conv_params_of (const FxModule *m, DictSpot (*spots)[N_KEYS], FxConvParams *p)
{
  const FxValue *pm = attr (m, KEY_PADDING_MODE, spots);
  const FxValue *padding = attr (m, KEY_PADDING, spots), *groups = attr (m, KEY_GROUPS, spots);
  fx_conv_params_init (p);
  if (pm->kind != FX_VALUE_STR || strcmp (pm->s->data, "zeros") != 0
      || groups->kind != FX_VALUE_INT || groups->i < 1)
    return FALSE;
  p->groups = groups->i;
  if (padding->kind == FX_VALUE_STR)
    p->padding_mode = padding->s->data;   /* 'same' / 'valid': conv2d checks them */
  else if (!int_pair (padding, p->padding, &p->n_padding, 2))
    return FALSE;
  return int_pair (attr (m, KEY_STRIDE, spots), p->stride, &p->n_stride, 2)
         && int_pair (attr (m, KEY_DILATION, spots), p->dilation, &p->n_dilation, 2);
}

/* An int, or a tuple / list of one or two ints (MaxPool2d's kernel_size and the like). */
static gboolean
pool_ints (const FxValue *v, int64_t *out, int *n_out)
{
  if (v->kind == FX_VALUE_INT)
    {
      out[0] = v->i;
      *n_out = 1;
      return TRUE;
    }
  return (v->kind == FX_VALUE_TUPLE || v->kind == FX_VALUE_LIST)
         && (v->seq->len == 1 || v->seq->len == 2) && int_pair (v, out, n_out, (int) v->seq->len);
}

/* The parameters of a MaxPool2d without indices, or FALSE (anything else runs unfused). */
static gboolean
max_pool_params_of (const FxModule *m, FxPoolParams *p)
{
  const FxValue *ceil = attr (m, KEY_CEIL_MODE, NULL);
  const FxValue *indices = attr (m, KEY_RETURN_INDICES, NULL);
  memset (p, 0, sizeof *p);
  if (ceil->kind != FX_VALUE_BOOL || indices->kind != FX_VALUE_BOOL || indices->b)
    return FALSE;
  p->ceil_mode = ceil->b;
  return pool_ints (attr (m, KEY_KERNEL_SIZE, NULL), p->kernel, &p->n_kernel)
         && pool_ints (attr (m, KEY_STRIDE, NULL), p->stride, &p->n_stride)
         && pool_ints (attr (m, KEY_PADDING, NULL), p->padding, &p->n_padding)
         && pool_ints (attr (m, KEY_DILATION, NULL), p->dilation, &p->n_dilation);
}

const PlanArg *
fx_run_fuse_residual_arg (const Instr *head)
{
  return head->fuse_residual_arg >= 0 ? &head[2].args[head->fuse_residual_arg] : NULL;
}

/* What one chain runs with, from its modules as they are now. */
typedef struct {
  FxTensor *weight, *bias, *gamma, *beta;
  FxConvParams p;
  float *coeffs;               /* the BatchNorm's, owned */
  gboolean relu, pool;
  FxPoolParams pool_params;
} ChainParts;

/* The parts of the chain headed by head (its own nodes: a pair's first chain is its conv and
 * BatchNorm), or FX_FUSE_FALLBACK. Modules are looked up at each run like unfused
 * call_module nodes; a replaced module, a training-mode BatchNorm or anything unusual falls
 * back to running the nodes one by one, which also gives their own errors. */
static FxFuseResult
chain_parts (ExecPlan *plan, const Instr *head, const FxValue *input, gboolean cache,
             ChainParts *c)
{
  int len = head->fuse_pair ? 2 : head->fuse_len;
  int n_before_relu = head->fuse_residual_arg >= 0 ? 3 : 2;
  const Instr *bn_in = head + 1;
  const Instr *relu_in = len - (head->fuse_pool ? 1 : 0) > n_before_relu ? head + n_before_relu
                                                                          : NULL;
  const Instr *pool_in = head->fuse_pool ? head + len - 1 : NULL;
  FxModule *conv = module_now (plan, head, cache), *bn = module_now (plan, bn_in, cache);
  FuseSpots *spots = cache ? head->fuse_spots : NULL;
  DictSpot (*conv_spots)[N_KEYS] = spots ? spots->conv : NULL;
  DictSpot (*bn_spots)[N_KEYS] = spots ? spots->bn : NULL;

  *c = (ChainParts) { .relu = relu_in != NULL, .pool = pool_in != NULL };
  if (!is_layer (conv, "Conv2d") || !is_layer (bn, "BatchNorm2d") || bn->training
      || input->kind != FX_VALUE_TENSOR || input->tensor->ndim != 4
      || input->tensor->dtype != FX_DTYPE_FLOAT32)
    return FX_FUSE_FALLBACK;
  if (relu_in != NULL && relu_in->op == FX_OP_CALL_MODULE
      && !is_layer (module_now (plan, relu_in, cache), "ReLU"))
    return FX_FUSE_FALLBACK;
  FxModule *pool_module = pool_in ? module_now (plan, pool_in, cache) : NULL;
  if (pool_in != NULL
      && (!is_layer (pool_module, "MaxPool2d")
          || !max_pool_params_of (pool_module, &c->pool_params)))
    return FX_FUSE_FALLBACK;
  c->weight = f32_attr (conv, KEY_WEIGHT, conv_spots, -1);
  if (c->weight == NULL || c->weight->ndim != 4
      || !optional_f32 (conv, KEY_BIAS, conv_spots, c->weight->shape[0], &c->bias)
      || !conv_params_of (conv, conv_spots, &c->p))
    return FX_FUSE_FALLBACK;
  int64_t C = c->weight->shape[0];
  /* eval mode uses the running statistics only when both are there */
  FxTensor *mean = f32_attr (bn, KEY_RUNNING_MEAN, bn_spots, C);
  FxTensor *var = f32_attr (bn, KEY_RUNNING_VAR, bn_spots, C);
  const FxValue *eps = attr (bn, KEY_EPS, bn_spots);
  if (mean == NULL || var == NULL || !optional_f32 (bn, KEY_WEIGHT, bn_spots, C, &c->gamma)
      || !optional_f32 (bn, KEY_BIAS, bn_spots, C, &c->beta)
      || (eps->kind != FX_VALUE_FLOAT && eps->kind != FX_VALUE_INT))
    return FX_FUSE_FALLBACK;
  /* Per run, from the tensors the modules hold now (C channels: cheap), so a script that
   * replaced or edited running_mean between runs is seen. */
  double e = eps->kind == FX_VALUE_FLOAT ? eps->f : (double) eps->i;
  c->coeffs = fx_batch_norm_eval_coeffs (mean, var, c->gamma, c->beta, e, C);
  return FX_FUSE_DONE;
}

/* What autograd would have recorded last in chain c: the pool, the ReLU, the residual add or
 * the BatchNorm. */
static void
record_chain (const ChainParts *c, const FxTensor *input, const FxTensor *residual,
              FxTensor *out)
{
  const FxTensor *read[] = { input, c->weight, c->bias, c->gamma, c->beta, residual };
  fx_grad_record_named (c->pool ? "MaxPool2DWithIndicesBackward0"
                        : c->relu ? "ReluBackward0"
                        : residual != NULL ? "AddBackward0" : "NativeBatchNormBackward0",
                        read, G_N_ELEMENTS (read), out);
}

FxFuseResult
fx_run_fuse_exec (ExecPlan *plan, const Instr *head, const FxValue *input,
                  const FxValue *residual, const FxValue *second_input, gboolean cache,
                  FxValue *result, GError **error)
{
  ChainParts a = { 0 }, b = { 0 };
  FxFuseResult fr = chain_parts (plan, head, input, cache, &a);
  FxTensor *out = NULL;
  if (fr == FX_FUSE_DONE && head->fuse_pair)
    {
      /* the second chain adds the first's value (a tensor, the pair's own) */
      fr = chain_parts (plan, head + 2, second_input, cache, &b);
      if (fr == FX_FUSE_DONE)
        {
          FxConvEpilogue a_ep = { .scale_shift = a.coeffs };
          FxConvEpilogue b_ep = { .scale_shift = b.coeffs, .relu = b.relu,
                                  .pad_planes = head[2].fuse_pad_planes };
          out = fx_tensor_conv2d_fused_pair (input->tensor, a.weight, a.bias, &a.p, &a_ep,
                                             second_input->tensor, b.weight, b.bias, &b.p,
                                             &b_ep, error);
          fr = out ? FX_FUSE_DONE : FX_FUSE_ERROR;
          if (out)
            record_chain (&b, second_input->tensor, NULL, out);
        }
    }
  /* a residual that is not a tensor is the add node's business; conv2d_fused refuses one
   * that does not fit the output (broadcast, another dtype) before computing anything, and
   * the error makes the nodes run one by one */
  else if (fr == FX_FUSE_DONE && residual != NULL && residual->kind != FX_VALUE_TENSOR)
    fr = FX_FUSE_FALLBACK;
  else if (fr == FX_FUSE_DONE)
    {
      FxConvEpilogue ep = { .scale_shift = a.coeffs, .relu = a.relu,
                            .pad_planes = head->fuse_pad_planes,
                            .residual = residual ? residual->tensor : NULL };
      out = a.pool ? fx_tensor_conv2d_fused_max_pool (input->tensor, a.weight, a.bias, &a.p,
                                                      &ep, &a.pool_params, error)
                   : fx_tensor_conv2d_fused (input->tensor, a.weight, a.bias, &a.p, &ep, error);
      fr = out ? FX_FUSE_DONE : FX_FUSE_ERROR;
      if (out)
        record_chain (&a, input->tensor, ep.residual, out);
    }
  g_free (a.coeffs);
  g_free (b.coeffs);
  if (fr == FX_FUSE_DONE)
    *result = fx_value_take_tensor (out);
  return fr;
}

/* A chain's value may have padded planes when every reference to it (n_uses counts them all:
 * the output node's, containers', keyword arguments') is a chain's conv input or residual.
 * When such a chain runs node by node after all (a training-mode BatchNorm, a replaced
 * builtin layer), its nodes take the padded value like any strided tensor; a script that
 * replaces a module recompiles the plan. */
static void
mark_padded_planes (ExecPlan *plan, const int *n_uses)
{
  int n = plan->n_instrs;
  g_autofree int *chain_reads = g_new0 (int, n > 0 ? n : 1);
  for (int i = 0; i < n; i++)
    {
      const Instr *head = &plan->instrs[i];
      if (head->fuse_len == 0)
        continue;
      int in = chain_input_slot (head), res = chain_residual_slot (head);
      if (in >= 0)
        chain_reads[in]++;
      if (res >= 0)
        chain_reads[res]++;
    }
  for (int s = 0; s < n; s++)
    {
      Instr *head = chain_of_value (plan, s);
      if (head != NULL)
        head->fuse_pad_planes = n_uses[s] > 0 && chain_reads[s] == n_uses[s];
    }
}
