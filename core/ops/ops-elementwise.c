/* ops-elementwise.c: (being written) */
#include "ops/op-table.h"

const FxOpDef fx_op_defs_elementwise[] = {
  { .path = NULL },
};