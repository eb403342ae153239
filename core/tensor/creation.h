/* creation.h: (being written) */
#pragma once
#include "tensor/tensor.h"