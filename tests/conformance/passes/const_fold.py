# split_const_subgraphs (torch.fx.experimental.const_fold): the folded module's code and
# graph, its outputs next to the model's, and the folding that runs on the first call.
import sys
import torch
import torch.nn as nn
from torch.fx.experimental.const_fold import split_const_subgraphs

sys.path.insert(0, 'models')
from pass_models import Folding as Several, FoldOne as One


class Nothing(nn.Module):
    def forward(self, x):
        return x + 1


torch.manual_seed(0)
for model, inputs in [(Several(), (torch.randn(3, 4), torch.randn(3, 4))),
                      (One(), (torch.randn(3, 4),)), (Nothing(), (torch.randn(2),))]:
    folded = split_const_subgraphs(model)
    print(type(folded).__name__, folded.fx_const_folded_attrs_name, folded.has_folding_been_run)
    print(folded.code)
    print(folded.graph)
    got, want = folded(*inputs), model(*inputs)
    if isinstance(want, tuple):
        print(all(torch.allclose(g, w) for g, w in zip(got, want)))
    else:
        print(torch.allclose(got, want))
    print(folded.has_folding_been_run)
    name = folded.fx_const_folded_attrs_name
    if name is not None:
        attrs = getattr(folded, name)
        print(type(attrs).__name__)
        print([n for n, _ in folded.named_parameters() if n.startswith(name)])

# skip_folding_node_fn keeps nodes out of the constant part
folded = split_const_subgraphs(Several(), skip_folding_node_fn=lambda n: n.target == 'lin')
print(folded.code)
