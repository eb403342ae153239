/* shape.c: (being written) */
#include "tensor/tensor.h"