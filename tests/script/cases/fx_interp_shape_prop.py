# torch.fx.passes.shape_prop: TensorMetadata recorded by ShapeProp for tensors, tuples and
# lists of them, strided and channels-last results, integer dtypes and non-tensor values.
import torch
import torch.fx
from torch.fx.passes.shape_prop import ShapeProp, TensorMetadata
import torch.fx.passes.shape_prop as shape_prop_module


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.register_buffer('idx', torch.tensor([2, 0, 1]))

    def forward(self, x, n: int = 2):
        y = self.conv(x)
        cl = y.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)
        t = y.transpose(2, 3)
        flat = y.flatten(1)
        parts = torch.split(flat, 40, dim=1)
        count = flat.size(1)
        picked = n * self.idx
        return (cl, [t, parts], {'count': count, 'picked': picked.to(torch.int32)})


torch.manual_seed(0)
gm = torch.fx.symbolic_trace(M())
print(gm.code)
with torch.no_grad():
    result = ShapeProp(gm).propagate(torch.randn(2, 3, 5, 4))
print(type(result).__name__, len(result))
for node in gm.graph.nodes:
    print(node.name, node.meta.get('type'))
    print('   ', node.meta.get('tensor_meta', 'no tensor_meta'))

meta = list(gm.graph.nodes)[-1].meta['tensor_meta']
print(type(meta).__name__, isinstance(meta[1], list), type(meta[1][1]).__name__)
first = meta[0]
print(isinstance(first, TensorMetadata), isinstance(first, tuple), TensorMetadata._fields)
print(first.shape, first.dtype, first.requires_grad, first.stride, first.memory_format,
      first.is_quantized, first.qparams)
print(torch.contiguous_format, torch.channels_last, torch.channels_last_3d,
      type(torch.contiguous_format).__name__)
print(shape_prop_module.__all__)

# A 5-D channels-last result; requires_grad of a leaf input and of a detached value.
def g(v):
    return v.permute(0, 2, 3, 4, 1).contiguous().permute(0, 4, 1, 2, 3)
gg = torch.fx.symbolic_trace(g)
ShapeProp(gg).propagate(torch.randn(2, 3, 2, 2, 2))
for node in gg.graph.nodes:
    print(node.name, node.meta['tensor_meta'].memory_format, node.meta['tensor_meta'].stride)

def h(w):
    return w, w.detach()
hg = torch.fx.symbolic_trace(h)
ShapeProp(hg).propagate(torch.ones(2, requires_grad=True))
for node in hg.graph.nodes:
    m = node.meta['tensor_meta']
    print(node.name, m.requires_grad if node.op != 'output' else [x.requires_grad for x in m])
