/* value.c: (being written) */
#include "ir/value.h"