/* dump-ops.c: the op registry as gen_grad_fn_names.py reads it — a line per op: F or M
 * (function or Tensor method), its qualified name, its flags, then its overloads' schemas,
 * tab-separated. Not a test: `build/tests/conformance/dump-ops > ops.tsv`. */
#include <fx.h>
#include <stdio.h>

int
main (void)
{
  guint n;
  fx_ops_init ();
  const FxOp *const *ops = fx_ops_all (&n);
  for (guint i = 0; i < n; i++)
    {
      printf ("%s\t%s\t%d", ops[i]->kind == FX_OP_METHOD ? "M" : "F", ops[i]->qualified_name,
              (int) ops[i]->flags);
      for (int k = 0; k < ops[i]->n_overloads; k++)
        printf ("\t%s", ops[i]->overloads[k].text);
      printf ("\n");
    }
  return 0;
}
