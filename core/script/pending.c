/* pending.c: TEMPORARY weak stand-ins for front-end functions whose files are being written
 * (strings.c, interp.c). Each raises NotImplementedError; real definitions override them.
 * Delete this file once every one has a real definition. */
#include "script/internal.h"

