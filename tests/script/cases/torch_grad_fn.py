# What autograd records, without autograd: which results require grad, the grad_fn each
# gets (its class name and repr), leaves, grad modes, in-place changes of leaves, and what
# ShapeProp and printing show of it. The names are PyTorch 1.13's, op by op.
import torch, torch.nn.functional as F
torch.manual_seed(0)
def t(*s): return torch.randn(*s).requires_grad_().clone()
def g(r):
    if isinstance(r, (tuple, list)): r = r[0]
    return type(r.grad_fn).__name__ if r.grad_fn is not None else ('leaf' if r.requires_grad else '-')
x = t(2, 3); xt = x.t(); x3 = t(2, 3, 4)
def show(name, f):
    print(name, g(f()))

show('contig', lambda: x.contiguous())
show('contig_nc', lambda: xt.contiguous())
show('to_same', lambda: x.to(torch.float32))
show('to_f64', lambda: x.to(torch.float64))
show('float', lambda: x.float())
show('double', lambda: x.double())
show('reshape', lambda: x.reshape(6))
show('reshape_nc', lambda: xt.reshape(6))
show('reshape_same', lambda: x.reshape(2,3))
show('flatten', lambda: x.flatten())
show('flatten_nc', lambda: xt.flatten())
show('flatten1', lambda: x.flatten(1))
show('flatten_1d', lambda: t(3).flatten())
show('view', lambda: x.view(6))
show('view_same', lambda: x.view(2,3))
show('lin2d', lambda: F.linear(x, t(4,3), t(4)))
show('lin2d_nobias', lambda: F.linear(x, t(4,3)))
show('lin3d', lambda: F.linear(t(2,2,3), t(4,3), t(4)))
show('lin3d_nobias', lambda: F.linear(t(2,2,3), t(4,3)))
show('lin1d', lambda: F.linear(t(3), t(4,3), t(4)))
show('lin1d_nobias', lambda: F.linear(t(3), t(4,3)))
show('lin4d', lambda: F.linear(t(2,2,2,3), t(4,3), t(4)))
show('mm22', lambda: x @ t(3,4))
show('mm11', lambda: t(3) @ t(3))
show('mm21', lambda: x @ t(3))
show('mm12', lambda: t(2) @ x)
show('mm32', lambda: t(2,2,3) @ t(3,4))
show('mm33', lambda: t(2,2,3) @ t(2,3,4))
show('mm23', lambda: x @ t(2,3,4))
show('mm31', lambda: t(2,2,3)@t(3))
show('mm13', lambda: t(2)@t(2,2,3))
show('mm43', lambda: t(2,2,2,3)@t(2,3,4))
show('get_int', lambda: x[0])
show('get_slice', lambda: x[0:1])
show('get_full', lambda: x[:])
show('get_none', lambda: x[None])
show('get_tensor', lambda: x[torch.tensor([0,1])])
show('get_bool', lambda: x[x>0])
show('get_int_slice', lambda: x[0, 1:])
show('get_slice_int', lambda: x[:, 1])
show('get_ell', lambda: x[..., 1])
show('get_tuple_slices', lambda: x[0:1, 1:2])
show('get_list', lambda: x[[0,1]])
show('get_mix', lambda: x[None, 0])
show('get_neg', lambda: x[-1])
show('get_step', lambda: x[::2])
show('get_ell_none', lambda: x[..., None])
show('drop_eval', lambda: F.dropout(x, training=False))
show('drop_train', lambda: F.dropout(x, 0.5, True))
show('drop2d_eval', lambda: F.dropout2d(t(1,2,3,3), training=False))
show('relu_inpl', lambda: F.relu(x.clone(), inplace=True))
show('relu', lambda: F.relu(x))
show('split', lambda: x.split(1))
show('chunk', lambda: x.chunk(2, 1))
show('unbind', lambda: x.unbind())
show('tsplit', lambda: x.tensor_split(2))
show('sum0', lambda: x.sum())
show('sum1', lambda: x.sum(1))
show('mean0', lambda: x.mean())
show('mean1', lambda: x.mean(1))
show('max0', lambda: x.max())
show('max1', lambda: x.max(1))
show('add_s', lambda: x + 1)
show('radd_s', lambda: 1 + x)
show('sub_s', lambda: x - 1)
show('rsub_s', lambda: 1 - x)
show('mul_s', lambda: x * 2)
show('div_s', lambda: x / 2)
show('rdiv', lambda: 2 / x)
show('pow_s', lambda: x ** 2)
show('rpow', lambda: 2 ** x)
show('neg', lambda: -x)
show('add_t', lambda: x + x)
show('aap1', lambda: F.adaptive_avg_pool2d(t(1,2,4,4), 1))
show('aap2', lambda: F.adaptive_avg_pool2d(t(1,2,4,4), 2))
show('aap11', lambda: F.adaptive_avg_pool2d(t(1,2,4,4), (1,1)))
show('mp', lambda: F.max_pool2d(t(1,2,4,4), 2))
show('mp_ind', lambda: F.max_pool2d(t(1,2,4,4), 2, return_indices=True))
show('bn_eval', lambda: F.batch_norm(t(2,3,4), torch.zeros(3), torch.ones(3), t(3), t(3), False))
show('bn_train', lambda: F.batch_norm(t(2,3,4), torch.zeros(3), torch.ones(3), t(3), t(3), True))
show('bn_eval_noaffine', lambda: F.batch_norm(t(2,3,4), torch.zeros(3), torch.ones(3)))
show('ln', lambda: F.layer_norm(x, (3,)))
show('softmax', lambda: F.softmax(x, 1))
show('lsm', lambda: F.log_softmax(x, 1))
show('gelu', lambda: F.gelu(x))
show('silu', lambda: F.silu(x))
show('hardswish', lambda: F.hardswish(x))
show('sigmoid', lambda: torch.sigmoid(x))
show('tanh', lambda: x.tanh())
show('interp', lambda: F.interpolate(t(1,2,3,3), scale_factor=2))
show('interp_bil', lambda: F.interpolate(t(1,2,3,3), scale_factor=2, mode='bilinear'))
show('cat', lambda: torch.cat([x, x]))
show('stack', lambda: torch.stack([x, x]))
show('expand', lambda: t(1,3).expand(2,3))
show('perm', lambda: x.permute(1,0))
show('T', lambda: x.T)
show('t', lambda: x.t())
show('transpose', lambda: x.transpose(0,1))
show('unsqueeze', lambda: x.unsqueeze(0))
show('squeeze', lambda: t(1,3).squeeze())
show('squeeze0', lambda: t(1,3).squeeze(0))
show('squeeze_noop', lambda: x.squeeze())
show('clone', lambda: x.clone())
show('detach', lambda: x.detach())
show('emb', lambda: F.embedding(torch.tensor([0,1]), t(3,4)))
show('conv', lambda: F.conv2d(t(1,2,4,4), t(3,2,3,3)))
show('conv_b', lambda: F.conv2d(t(1,2,4,4), t(3,2,3,3), t(3)))
show('addmm', lambda: torch.addmm(t(2,4), x, t(3,4)))
show('where', lambda: torch.where(x > 0, x, torch.zeros(2,3)))
show('masked_fill', lambda: x.masked_fill(x > 0, 0.))
show('clamp', lambda: x.clamp(min=0))
show('clamp2', lambda: x.clamp(0, 1))
show('abs', lambda: x.abs())
show('sqrt', lambda: x.abs().sqrt())
show('exp', lambda: x.exp())
show('type_as_same', lambda: x.type_as(x))
show('new_zeros', lambda: x.new_zeros(2))
show('zeros_like', lambda: torch.zeros_like(x))
show('argmax', lambda: x.argmax())
show('eq', lambda: x == x)
show('floordiv', lambda: x // 2)
show('mod', lambda: x % 2)
show('matmul_vec', lambda: x.matmul(t(3)))
show('einsum', lambda: torch.einsum('ij,jk->ik', x, t(3,4)))
show('bmm', lambda: torch.bmm(t(2,2,3), t(2,3,4)))
show('baddbmm', lambda: torch.baddbmm(t(2,2,4), t(2,2,3), t(2,3,4)))
show('repeat', lambda: x.repeat(2,1))
show('flip', lambda: x.flip(0))
show('roll', lambda: x.roll(1, 0))
show('gather', lambda: x.gather(1, torch.tensor([[0],[1]])))
show('index_select', lambda: x.index_select(1, torch.tensor([0, 2])))
show('narrow', lambda: x.narrow(1, 0, 2))
show('select', lambda: x.select(1, 0))
show('pad', lambda: F.pad(x, (1, 1)))
show('pad_refl', lambda: F.pad(t(1,2,3), (1,1), mode='reflect'))
show('var', lambda: x.var())
show('std', lambda: x.std())
show('std1', lambda: x.std(1))
show('norm', lambda: x.norm())
show('prod', lambda: x.prod())
show('cumsum', lambda: x.cumsum(1))
show('sort', lambda: x.sort())
show('topk', lambda: x.topk(2))
show('min1', lambda: x.min(1))
show('amax', lambda: x.amax(1))
show('logsumexp', lambda: x.logsumexp(1))
show('all_reduce_none', lambda: x.sum(dtype=torch.float64))
show('mse', lambda: F.mse_loss(x, t(2,3)))
show('ce', lambda: F.cross_entropy(x, torch.tensor([0, 1])))
show('nll', lambda: F.nll_loss(F.log_softmax(x, 1), torch.tensor([0, 1])))
show('bce', lambda: F.binary_cross_entropy(torch.sigmoid(x), torch.rand(2,3)))
show('bcel', lambda: F.binary_cross_entropy_with_logits(x, torch.rand(2,3)))
show('ell', lambda: x[...])
show('full0', lambda: x[0, :])
show('fullfull', lambda: x[:, :])
show('sl_full', lambda: x[0:1, :])
show('int_ell', lambda: x[0, ...])
show('none_sl', lambda: x[None, :])
show('tens_sl', lambda: x[torch.tensor([0]), 1:])
show('sl_tens', lambda: x[:, [0,1]])
show('int_int', lambda: x[0, 1])
show('bool_t', lambda: x[torch.tensor(True)])
show('lin4d_nb', lambda: F.linear(t(2,2,2,3), t(4,3)))
show('mm23', lambda: x @ t(2,3,4))
show('mm24', lambda: t(2,3) @ t(2,2,3,4))
show('mm34', lambda: t(2,2,3) @ t(2,2,3,4))
show('mod_tt', lambda: x % t(2,3))
show('mod_ts', lambda: x % 2)
show('pow_tt', lambda: x ** t(2,3))
show('fdiv', lambda: x // t(2,3))
show('sub_tt', lambda: x - x)
show('rsub_int', lambda: 1 - x)
show('truediv_tt', lambda: x / x)
show('rtruediv', lambda: 1 / x)
show('rmul', lambda: 2 * x)
show('interp_size', lambda: F.interpolate(t(1,2,3,3), size=(5,5)))
show('interp_lin', lambda: F.interpolate(t(1,2,3), scale_factor=2, mode='linear'))
show('interp_1d', lambda: F.interpolate(t(1,2,3), scale_factor=2))
show('pad_repl', lambda: F.pad(t(1,2,3,3), (1,1,1,1), mode='replicate'))
show('pad_circ', lambda: F.pad(t(1,2,3,3), (1,1,1,1), mode='circular'))
show('pad_refl2', lambda: F.pad(t(1,2,3,3), (1,1,1,1), mode='reflect'))
show('drop1d_tr', lambda: F.dropout1d(t(1,2,3), 0.5, True))
show('drop2d_tr', lambda: F.dropout2d(t(1,2,3,3), 0.5, True))
show('drop3d_tr', lambda: F.dropout3d(t(1,2,2,2,2), 0.5, True))
show('drop_p0', lambda: F.dropout(x, 0.0, True))
show('aap1d', lambda: F.adaptive_avg_pool1d(t(1,2,4), 1))
show('aap1d2', lambda: F.adaptive_avg_pool1d(t(1,2,4), 2))
show('amp2', lambda: F.adaptive_max_pool2d(t(1,2,4,4), 1))
show('flatten_same0', lambda: t(6).flatten(0))
show('reshape_nc2', lambda: x.t().reshape(3, 2))
show('view_as', lambda: x.view_as(x))
show('relu6', lambda: F.relu6(x))
show('hardtanh', lambda: F.hardtanh(x))
show('leaky', lambda: F.leaky_relu(x))
show('elu', lambda: F.elu(x))
show('softplus', lambda: F.softplus(x))
show('mish', lambda: F.mish(x))
show('hsig', lambda: F.hardsigmoid(x))
show('T3', lambda: x3.mT)
show('exp_', lambda: x.clone().exp_())
show('add_t_', lambda: x.clone().add_(x))
show('mul_s_', lambda: x.clone().mul_(2))
show('clamp_', lambda: x.clone().clamp_(0))
show('sigmoid_', lambda: x.clone().sigmoid_())
show('relu_', lambda: x.clone().relu_())
show('hardtanh_', lambda: F.hardtanh(x.clone(), inplace=True))
show('fill_', lambda: x.clone().fill_(1))
show('zero_', lambda: x.clone().zero_())
show('copy_', lambda: x.clone().copy_(x))
show('masked_fill_', lambda: x.clone().masked_fill_(x>0, 0.))
show('softmax_', lambda: torch.softmax(x, 1))
show('sum_dt', lambda: x.sum(1, dtype=torch.float64))
show('mean_dt', lambda: x.mean(dtype=torch.float64))
show('norm_p', lambda: x.norm(p=1))
show('norm_dim', lambda: x.norm(dim=1))
show('cat_one', lambda: torch.cat([x]))
show('expand_same', lambda: x.expand(2, 3))
show('expand_as', lambda: x.expand_as(x))
show('new_tensor', lambda: x.new_tensor([1.]))
show('clone', lambda: x.clone())
show('abs_', lambda: x.clone().abs_())
show('split_sizes', lambda: x.split([1, 1])[1])
show('chunk_last', lambda: x.chunk(2)[1])
show('unbind1', lambda: x.unbind(1)[2])

def setitem():
    y = x.clone(); y[0] = 1; return y
show('setitem', setitem)
def setitem_t():
    z = x.clone(); z[0, 1:] = t(2); return z
show('setitem_t', setitem_t)
def iadd2():
    w = x.clone(); w += 1; return w
show('iadd2', iadd2)

show('pow_method', lambda: x.pow(x))
show('pow_scalar_base', lambda: torch.pow(2.0, x))
show('pow_method_scalar', lambda: x.pow(2))
show('log1p', lambda: x.abs().log1p())
show('square', lambda: x.square())
show('avg_pool2d', lambda: F.avg_pool2d(t(1, 2, 4, 4), 2))
show('clamp_tensor', lambda: x.clamp(min=torch.zeros(2, 3)))
show('remainder_method', lambda: x.remainder(x))
show('max_other', lambda: x.max(x))
show('round_decimals', lambda: x.round(decimals=1))
show('F_linear', lambda: F.linear(x, t(4, 3)))
show('relu6_', lambda: F.relu6(x.clone(), inplace=True))
show('leaky_relu_', lambda: F.leaky_relu(x.clone(), inplace=True))
show('elu_', lambda: F.elu(x.clone(), inplace=True))
show('celu_', lambda: F.celu(x.clone(), inplace=True))
show('selu_', lambda: F.selu(x.clone(), inplace=True))
show('threshold_', lambda: F.threshold(x.clone(), 0.1, 0.0, inplace=True))
show('silu_', lambda: F.silu(x.clone(), inplace=True))
show('dropout_', lambda: F.dropout(x.clone(), inplace=True))
show('sum_dims_kw', lambda: torch.sum(x, dim=(0, 1)))
show('mean_method_dim', lambda: x.mean(dim=0, keepdim=True))

# no_grad: views of a tensor that requires grad still do; copies do not
y = t(2, 3)
with torch.no_grad():
    print('no_grad', y.view(6).requires_grad, y.view(6).grad_fn, y.t().requires_grad,
          y[0].requires_grad, y.reshape(6).requires_grad, y.flatten().requires_grad,
          y.contiguous().requires_grad, y.clone().requires_grad, y.t().contiguous().requires_grad,
          y.detach().requires_grad, y.split(1)[0].requires_grad, y.expand(2, 2, 3).requires_grad,
          (y * 2).requires_grad, torch.is_grad_enabled())
    print(y.view(6))
with torch.inference_mode():
    print('inference_mode', torch.is_grad_enabled(), (y * 2).requires_grad)
torch.set_grad_enabled(False)
print('set_grad_enabled(False)', torch.is_grad_enabled(), (y + 1).requires_grad)
torch.set_grad_enabled(True)
print('set_grad_enabled(True)', torch.is_grad_enabled(), (y + 1).grad_fn.name())

# leaves, nodes and their repr
p = torch.ones(2, requires_grad=True)
q = p * 2
print(q.grad_fn.name(), type(q.grad_fn).__name__, repr(q.grad_fn).startswith('<MulBackward0 object at 0x'))
print(q.is_leaf, p.is_leaf, torch.ones(2).is_leaf, q.detach().is_leaf, q.data.requires_grad, p.grad_fn)
print(q, q.detach(), p)
print(torch.ones(2, 2, requires_grad=True).t())
print(torch.ones((), requires_grad=True) * 2)
print(torch.ones(2, requires_grad=True).double())
print(torch.ones(3, 4, requires_grad=True).sum(1, keepdim=True).expand(3, 4))
print(torch.nn.Parameter(torch.ones(2)) * 1)
print((torch.ones(2, dtype=torch.int64) + p).grad_fn.name(), (p > 0).requires_grad,
      p.long().requires_grad, p.argmax().requires_grad, p.sum().item())
z = torch.zeros(2)
z += p
print(z)
z2 = torch.zeros(3)
z2[1:] = p
print(z2)

# changing leaves and results
for what, f in [('add_', lambda: p.add_(1)), ('setitem', lambda: p.__setitem__(0, 1.0)),
                ('requires_grad = False', lambda: setattr(q, 'requires_grad', False)),
                ('requires_grad = True', lambda: setattr(q, 'requires_grad', True)),
                ('requires_grad_(False)', lambda: q.requires_grad_(False))]:
    try:
        f()
        print(what, 'ok')
    except RuntimeError as e:
        print(what, 'RuntimeError:', e)
print(q.requires_grad_(), q.requires_grad_(True).grad_fn.name(), q.retain_grad(), p.retain_grad())
try:
    torch.ones(2).retain_grad()
except RuntimeError as e:
    print('retain_grad: RuntimeError:', e)
with torch.no_grad():
    p.add_(1)
print(p)
for what, f in [('view add_', lambda: p[0].add_(1)), ('view mul_', lambda: p.view(2).mul_(2)),
                ('view of view', lambda: p[1:][0].zero_()), ('t relu_', lambda: p.reshape(1, 2).t().relu_())]:
    try:
        f()
        print(what, 'ok')
    except RuntimeError as e:
        print(what, 'RuntimeError:', e)
print(q[0].add_(1).requires_grad, p)
s4 = torch.ones(4, 2, requires_grad=True) * 1
for what, f in [('split', lambda: s4.split(2)[1].add_(1)), ('chunk', lambda: s4.chunk(2)[1].mul_(2)),
                ('unbind', lambda: s4.unbind()[2].relu_()), ('split sizes', lambda: s4.split([1, 3])[1].zero_()),
                ('leaf split', lambda: torch.ones(4, requires_grad=True).split(2)[0].add_(1)),
                ('tensor_split', lambda: s4.tensor_split(2)[1].add_(1))]:
    try:
        f()
        print(what, 'ok')
    except RuntimeError as e:
        print(what, 'RuntimeError:', e)
with torch.no_grad():
    print(s4.detach().split(2)[0].add_(1))
print(torch.ones(4).split(2)[0].add_(1))
import copy
print(copy.deepcopy(p))
for what, f in [('deepcopy', lambda: copy.deepcopy(q)), ('numpy', lambda: q.numpy())]:
    try:
        f()
    except RuntimeError as e:
        print(what, 'RuntimeError:', e)

# a module's output, its traced GraphModule's, and what ShapeProp records without no_grad
import torch.fx
from torch.fx.passes.shape_prop import ShapeProp


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(2, 3, 3)
        self.bn = torch.nn.BatchNorm2d(3)
        self.fc = torch.nn.Linear(3, 2)

    def forward(self, x, n):
        y = torch.relu(self.bn(self.conv(x)))
        y = torch.nn.functional.adaptive_avg_pool2d(y, 1).flatten(1)
        return self.fc(y), n.argmax(), n + 1


torch.manual_seed(0)
m = M().eval()
gm = torch.fx.symbolic_trace(m)
x, n = torch.randn(1, 2, 5, 5), torch.randn(2)
print(m(x, n)[0])
out = gm(x, n)
print(out[0], out[1], out[2])
ShapeProp(gm).propagate(x, n)
for node in gm.graph.nodes:
    meta = node.meta['tensor_meta']
    print(node.name, [t.requires_grad for t in meta] if node.op == 'output' else meta.requires_grad)
with torch.no_grad():
    print(gm(x, n)[0])


# chains the GraphModule runs fused (conv, BatchNorm, residual add, ReLU) end on the node of
# their last step
class Chains(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1, self.b1 = torch.nn.Conv2d(2, 2, 3, padding=1), torch.nn.BatchNorm2d(2)
        self.c2, self.b2 = torch.nn.Conv2d(2, 2, 3, padding=1), torch.nn.BatchNorm2d(2)
        self.c3, self.b3 = torch.nn.Conv2d(2, 2, 1), torch.nn.BatchNorm2d(2)
        self.relu = torch.nn.ReLU(inplace=True)

    def forward(self, x):
        a = self.relu(self.b1(self.c1(x)))
        b = self.b2(self.c2(a)) + x
        c = self.relu(self.b3(self.c3(b)) + a)
        return a, b, self.b3(self.c3(c))


chains = torch.fx.symbolic_trace(Chains().eval())
for r in chains(torch.randn(1, 2, 4, 4)):
    print(r.grad_fn.name(), r.requires_grad)
with torch.no_grad():
    print([r.requires_grad for r in chains(torch.randn(1, 2, 4, 4))])

# state dicts hold detached tensors; loading one leaves the parameters leaves
a = torch.nn.Linear(2, 2); b = torch.nn.Linear(2, 2)
sd = a.state_dict()
print(sd['weight'].requires_grad, sd['weight'].grad_fn, a.weight.requires_grad)
b.load_state_dict(sd)
print(b.weight.requires_grad, b.weight.grad_fn, b.weight.is_leaf)
b.load_state_dict({k: v * 1 for k, v in a.named_parameters()})
print(b.weight.requires_grad, b.weight.grad_fn, b.weight.is_leaf)
print(dict(a.named_parameters())['bias'].grad_fn, next(a.parameters()).requires_grad)
with torch.no_grad():
    a.weight.mul_(2)
print(a.weight.is_leaf, a.weight.grad_fn)
a.weight.data.mul_(2)
print(a.weight.is_leaf)
print(torch.nn.Linear(2, 2).weight.sum().grad_fn.name())
