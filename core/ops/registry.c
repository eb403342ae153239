/* registry.c: (being written) */
#include "ops/op-table.h"