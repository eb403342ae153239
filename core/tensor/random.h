/* random.h: PyTorch's CPU random number generator re-made — an mt19937 stream per generator
 * and the same mapping from its words to uniform, normal, integer and Bernoulli draws, so that
 * after fx_manual_seed (s) the tensors match what torch 1.13 gives after torch.manual_seed (s).
 * Also the torch.nn.init functions, which are draws on existing tensors. */
#pragma once

#include <glib.h>
#include <stdint.h>
#include "tensor/tensor.h"
#include "ir/value.h"

G_BEGIN_DECLS

/* The seed a fresh generator starts from (torch's CPU generator default). torch's Python
 * start-up then reseeds its default generator non-deterministically; libfx keeps this value
 * so that runs are reproducible — call fx_seed () for torch.seed ()'s behaviour. */
#define FX_DEFAULT_SEED G_GUINT64_CONSTANT (67280421310721)

/* A generator: its own mt19937 state plus the cached second value of a Box–Muller pair.
 * All draws lock the generator, so one generator may be shared between threads. */
typedef struct _FxGenerator FxGenerator;

FxGenerator *fx_generator_new          (uint64_t seed);
void         fx_generator_free         (FxGenerator *gen);
/* The process-wide generator that torch's default_generator stands for. Never free it. */
FxGenerator *fx_generator_default      (void);
void         fx_generator_manual_seed  (FxGenerator *gen, uint64_t seed);
/* torch.Generator.initial_seed(): the seed last set (its low 32 bits are what mt19937 uses). */
uint64_t     fx_generator_initial_seed (FxGenerator *gen);
/* Raw words: random () is one mt19937 output, random64 () two of them, the first one high. */
uint32_t     fx_generator_random       (FxGenerator *gen);
uint64_t     fx_generator_random64     (FxGenerator *gen);

/* torch.Generator as a value: an FX_VALUE_OBJECT that owns its generator. */
extern const FxObjectClass fx_generator_class;
FxValue      fx_value_take_generator (FxGenerator *gen);
/* The generator a value holds, or NULL when it is not a torch.Generator (None included). */
FxGenerator *fx_value_get_generator  (const FxValue *v);

/* The default generator: torch.manual_seed, torch.initial_seed, torch.seed. */
void         fx_manual_seed            (uint64_t seed);
uint64_t     fx_initial_seed           (void);
uint64_t     fx_seed                   (void);   /* reseeds from a non-deterministic source */

/* ---- in-place draws (gen NULL = the default generator); the tensor may be any view ----
 * Elements are filled in memory order, as torch's kernels do. */
/* Tensor.uniform_(from, to): floating dtypes. */
gboolean fx_tensor_uniform_   (FxTensor *t, double from, double to, FxGenerator *gen,
                               GError **error);
/* Tensor.normal_(mean, std): floating dtypes; std >= 0. */
gboolean fx_tensor_normal_    (FxTensor *t, double mean, double std, FxGenerator *gen,
                               GError **error);
/* Tensor.random_(from, to): integers in [from, to) for every dtype. */
gboolean fx_tensor_random_    (FxTensor *t, int64_t from, int64_t to, FxGenerator *gen,
                               GError **error);
/* Tensor.bernoulli_(p): 1 with probability p, else 0; 0 <= p <= 1. */
gboolean fx_tensor_bernoulli_ (FxTensor *t, double p, FxGenerator *gen, GError **error);

/* ---- factories ---- */
FxTensor *fx_rand      (FxDType dtype, int ndim, const int64_t *shape, FxGenerator *gen,
                        GError **error);
FxTensor *fx_randn     (FxDType dtype, int ndim, const int64_t *shape, FxGenerator *gen,
                        GError **error);
/* torch.randint(low, high, size, dtype=...) */
FxTensor *fx_randint   (int64_t low, int64_t high, FxDType dtype, int ndim,
                        const int64_t *shape, FxGenerator *gen, GError **error);
/* torch.normal(mean, std, size) with float mean and std. */
FxTensor *fx_normal    (double mean, double std, FxDType dtype, int ndim,
                        const int64_t *shape, FxGenerator *gen, GError **error);

/* torch.randperm(n): a Fisher–Yates shuffle of 0..n-1 drawing random() % (n - i). */
FxTensor *fx_randperm  (int64_t n, FxDType dtype, FxGenerator *gen, GError **error);

/* ---- torch.nn.init (in place; return FALSE with an error like torch's) ---- */
/* calculate_gain(nonlinearity, param); without a param leaky_relu's slope is 0.01. */
gboolean fx_init_calculate_gain  (const char *nonlinearity, double param, gboolean has_param,
                                  double *gain, GError **error);
/* _calculate_fan_in_and_fan_out */
gboolean fx_init_fan_in_and_out  (const FxTensor *t, int64_t *fan_in, int64_t *fan_out,
                                  GError **error);
gboolean fx_init_uniform_        (FxTensor *t, double a, double b, FxGenerator *gen,
                                  GError **error);
gboolean fx_init_normal_         (FxTensor *t, double mean, double std, FxGenerator *gen,
                                  GError **error);
gboolean fx_init_constant_       (FxTensor *t, double value, GError **error);
gboolean fx_init_zeros_          (FxTensor *t, GError **error);
gboolean fx_init_ones_           (FxTensor *t, GError **error);
gboolean fx_init_eye_            (FxTensor *t, GError **error);
gboolean fx_init_xavier_uniform_ (FxTensor *t, double gain, FxGenerator *gen, GError **error);
gboolean fx_init_xavier_normal_  (FxTensor *t, double gain, FxGenerator *gen, GError **error);
/* mode: "fan_in" | "fan_out"; nonlinearity: "leaky_relu", "relu", ... */
gboolean fx_init_kaiming_uniform_ (FxTensor *t, double a, const char *mode,
                                   const char *nonlinearity, FxGenerator *gen, GError **error);
gboolean fx_init_kaiming_normal_  (FxTensor *t, double a, const char *mode,
                                   const char *nonlinearity, FxGenerator *gen, GError **error);

G_END_DECLS
