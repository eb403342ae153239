/* creation.c: (being written) */
#include "tensor/tensor.h"