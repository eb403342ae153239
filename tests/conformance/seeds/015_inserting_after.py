# Seed 002, "Direct Graph Manipulation": appending a torch.relu call. Completion: the
# definitions of `traced` and `node` before it, the prints after it. Note that
# replace_all_uses_with also rewires the new relu node itself (it is a user of `node`),
# which the printed graph shows.
import torch
import torch.fx

class M(torch.nn.Module):
    def forward(self, x, y):
        return torch.add(x, y)

traced = torch.fx.symbolic_trace(M())
node = [n for n in traced.graph.nodes if n.op == 'call_function'][0]

# Specifies the insertion point. Any nodes added to the
# Graph within this scope will be inserted after `node`
with traced.graph.inserting_after(node):
    # Insert a new `call_function` node calling `torch.relu`
    new_node = traced.graph.call_function(
        torch.relu, args=(node,))

    # We want all places that used the value of `node` to
    # now use that value after the `relu` call we've added.
    # We use the `replace_all_uses_with` API to do this.
    node.replace_all_uses_with(new_node)

print(traced.graph)
traced.recompile()
print(traced.code)
