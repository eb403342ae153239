/* test-trace-cases.c: tracer behaviours beyond the seeds and the model zoo (trace_cases/NAME.py:
 * *args / **kwargs roots, script overrides of every Tracer hook, the errors tracing raises)
 * print under `fx run` what PyTorch 1.13 printed (goldens/trace_cases/NAME.out, recorded by
 * gen_trace_cases.py), object addresses made 0xADDR on both sides. */
#include "golden-script.h"

int
main (int argc, char **argv)
{
  return fx_golden_script_main (argc, argv, "trace_cases", "/conformance/trace-cases", 300,
                                fx_golden_normalise_addresses, "gen_trace_cases.py");
}
