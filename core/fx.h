/* fx.h: the public umbrella header of libfx — torch.fx re-made in C.
 * Include this and nothing else from core/. */
#pragma once

#include "fx-version.h"
#include "fx-error.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"
#include "tensor/print.h"
#include "tensor/elementwise.h"
#include "tensor/reduce.h"
#include "tensor/blas.h"
#include "tensor/linalg.h"
#include "tensor/conv.h"
#include "tensor/nn.h"
#include "tensor/shape.h"
#include "tensor/index.h"
#include "tensor/creation.h"
#include "tensor/random.h"
#include "ir/value.h"
#include "ops/op.h"
