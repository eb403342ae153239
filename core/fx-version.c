/* fx-version.c: the libfx version string at run time. */
#include "fx-version.h"

const char *
fx_version (void)
{
  return FX_VERSION;
}
