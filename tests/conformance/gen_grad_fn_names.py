"""The backward node names that core/ops/grad.c cannot derive from an op's name: calls every
overload of libfx's op registry in PyTorch 1.13 with sample arguments that require grad and
prints, for each whose result's grad_fn is not CamelCase(name) + "Backward0", a line of
grad.c's backward_exceptions. Ops whose node depends on their arguments (grad.c's
special_name) are left out; the overloads that PyTorch refuses with these generic arguments
follow, called by hand_probes() with arguments chosen for each.
Usage: build/tests/conformance/dump-ops > ops.tsv; /usr/bin/python3 gen_grad_fn_names.py ops.tsv"""
import sys, re, operator, torch, torch.nn.functional as F
torch.manual_seed(0)

def parse(schema):
    name, rest = schema.split('(', 1)
    params = rest.rsplit(') ->', 1)[0]
    out = []
    kwonly = False
    for p in [p.strip() for p in re.split(r',(?![^\[]*\])', params) if p.strip()]:
        if p == '*':
            kwonly = True
            continue
        typ, nm = p.split('=')[0].rsplit(' ', 1)
        out.append((typ.strip(), nm.strip(), '=' in p, kwonly))
    return name.strip(), out

def resolve(path):
    if path.startswith('Tensor.'):
        return None
    parts = path.split('.')
    obj = {'torch': torch, 'operator': operator}.get(parts[0])
    if obj is None:
        return None
    for p in parts[1:]:
        obj = getattr(obj, p)
    return obj

def tensor(shape=(2, 3)):
    return (torch.randn(*shape) * 1.0).requires_grad_().clone()

SPECIAL_SHAPES = {
    'conv1d': [(1, 2, 5), (3, 2, 3)], 'conv2d': [(1, 2, 5, 5), (3, 2, 3, 3)],
    'conv3d': [(1, 2, 4, 4, 4), (3, 2, 3, 3, 3)],
    'conv_transpose1d': [(1, 2, 5), (2, 3, 3)], 'conv_transpose2d': [(1, 2, 5, 5), (2, 3, 3, 3)],
    'conv_transpose3d': [(1, 2, 4, 4, 4), (2, 3, 3, 3, 3)],
    'mm': [(2, 3), (3, 4)], 'matmul': [(2, 3), (3, 4)], 'bmm': [(2, 2, 3), (2, 3, 4)],
    'mv': [(2, 3), (3,)], 'dot': [(3,), (3,)], 'vdot': [(3,), (3,)], 'inner': [(2, 3), (2, 3)],
    'outer': [(2,), (3,)], 'ger': [(2,), (3,)], 'linear': [(2, 3), (4, 3), (4,)],
    'bilinear': [(2, 3), (2, 3), (4, 3, 3), (4,)],
    'addmm': [(2, 4), (2, 3), (3, 4)], 'baddbmm': [(2, 2, 4), (2, 2, 3), (2, 3, 4)],
    'addbmm': [(2, 4), (2, 2, 3), (2, 3, 4)], 'addmv': [(2,), (2, 3), (3,)],
    'addr': [(2, 3), (2,), (3,)], 'einsum': None,
    'batch_norm': [(2, 3, 4), (3,), (3,), (3,), (3,)],
    'instance_norm': [(2, 3, 4)], 'layer_norm': [(2, 3)], 'group_norm': [(2, 4, 3)],
    'max_pool1d': [(1, 2, 6)], 'max_pool2d': [(1, 2, 6, 6)], 'max_pool3d': [(1, 2, 4, 4, 4)],
    'avg_pool1d': [(1, 2, 6)], 'avg_pool2d': [(1, 2, 6, 6)], 'avg_pool3d': [(1, 2, 4, 4, 4)],
    'adaptive_avg_pool1d': [(1, 2, 6)], 'adaptive_avg_pool2d': [(1, 2, 6, 6)],
    'adaptive_avg_pool3d': [(1, 2, 4, 4, 4)], 'adaptive_max_pool1d': [(1, 2, 6)],
    'adaptive_max_pool2d': [(1, 2, 6, 6)], 'adaptive_max_pool3d': [(1, 2, 4, 4, 4)],
    'pixel_shuffle': [(1, 4, 2, 2)], 'pixel_unshuffle': [(1, 1, 4, 4)],
    'interpolate': [(1, 2, 3, 3)], 'upsample': [(1, 2, 3, 3)],
    'pad': [(1, 2, 3, 3)], 'unfold': [(1, 2, 4, 4)], 'fold': [(1, 8, 4)],
    'cross': [(2, 3), (2, 3)], 'cosine_similarity': [(2, 3), (2, 3)],
    'pairwise_distance': [(2, 3), (2, 3)], 'cdist': [(2, 3), (4, 3)],
    'prelu': [(2, 3), (1,)], 'glu': [(2, 4)], 'embedding': None, 'one_hot': None,
    'cross_entropy': None, 'nll_loss': None, 'multi_head_attention_forward': None,
    'scaled_dot_product_attention': [(1, 2, 3), (1, 2, 3), (1, 2, 3)],
    'diag_embed': [(2, 3)], 'trace': [(3, 3)], 'det': [(3, 3)], 'inverse': [(3, 3)],
    'logdet': [(3, 3)], 'slogdet': [(3, 3)], 'cholesky': None, 'tril': [(3, 3)], 'triu': [(3, 3)],
    'diagonal': [(3, 3)], 'diag': [(3, 3)],
}

def sample_value(typ, nm, op, tensors_made, shapes):
    base = typ.rstrip('?')
    if base == 'Tensor':
        i = len(tensors_made)
        shape = shapes[i] if shapes and i < len(shapes) else (2, 3)
        t = tensor(shape)
        tensors_made.append(t)
        return t
    if base == 'Tensor[]':
        return [tensor(), tensor()]
    if base == 'Scalar':
        return 2.0
    if base == 'int':
        return {'dim': 1, 'dim0': 0, 'dim1': 1, 'start_dim': 0, 'end_dim': -1, 'diagonal': 0,
                'chunks': 2, 'k': 1, 'groups': 1, 'repeats': 2, 'sections': 1,
                'split_size': 1, 'split_size_or_sections': 1, 'n': 1, 'num_classes': 3,
                'source': 0, 'destination': 1, 'offset': 0, 'dim2': 1}.get(nm, 1)
    if base.startswith('int[') or base.startswith('SymInt') or base == 'int...':
        return {'dims': (0, 1), 'dim': (1,), 'size': (3, 2), 'shape': (3, 2),
                'sizes': (2, 3), 'kernel_size': 2, 'output_size': 2, 'repeats': (1, 2),
                'perm': (1, 0), 'pad': (1, 1), 'split_size_or_sections': 1}.get(nm, (3, 2))
    if base == 'float':
        return 0.5
    if base == 'bool':
        return False
    if base == 'float[]':
        return (1.0,)
    if base == 'str':
        return None
    if base == 'ScalarType':
        return torch.float64
    return None

def grad_name(r):
    if isinstance(r, (tuple, list)):
        for x in r:
            n = grad_name(x)
            if n is not None:
                return n
        return '-' if r else None
    if isinstance(r, torch.Tensor):
        if r.grad_fn is None:
            return 'leaf' if r.requires_grad else '-'
        return type(r.grad_fn).__name__
    return None

def probe(lines):
  for line in lines:
      kind, path, flags, *schemas = line.rstrip('\n').split('\t')
      for i, schema in enumerate(schemas):
          name, params = parse(schema)
          short = path.rsplit('.', 1)[-1].rstrip('_')
          shapes = SPECIAL_SHAPES.get(short, ())
          if shapes is None:
              yield path, i, 'SKIP'; continue
          made = []
          pos, kw = [], {}
          ok = True
          for typ, nm, has_default, kwonly in params:
              if has_default or typ.endswith('?'):
                  if typ.rstrip('?') == 'Tensor' and not kwonly and nm in ('bias', 'weight', 'other') and shapes and len(shapes) > len(made):
                      pos.append(sample_value(typ, nm, name, made, shapes)); continue
                  break
              v = sample_value(typ, nm, name, made, shapes)
              if kwonly:
                  kw[nm] = v
              else:
                  pos.append(v)
          try:
              if kind == 'M':
                  self_, *rest = pos
                  r = getattr(self_, path.split('.', 1)[1])(*rest, **kw)
              else:
                  fn = resolve(path)
                  if fn is None:
                      yield path, i, 'SKIP'; continue
                  r = fn(*pos, **kw)
              yield path, i, grad_name(r)
          except Exception as e:
              yield path, i, 'ERR'


def camel(name):
    out, up = [], True
    for ch in name:
        if ch == '_':
            up = True
            continue
        out.append(ch.upper() if up else ch)
        up = ch.isdigit()
    return ''.join(out) + 'Backward0'


# decided in grad.c's special_name(), or not recorded at all
SPECIAL = {'linear', 'matmul', '__matmul__', 'reshape', 'reshape_as', 'flatten', 'view', 'view_as',
           '__getitem__', '__setitem__', 'dropout', 'dropout1d', 'dropout2d', 'dropout3d',
           'feature_dropout', 'alpha_dropout', 'feature_alpha_dropout', 'contiguous', 'cpu', 'to',
           'type', 'type_as', 'float', 'double', 'half', 'bfloat16', 'positive', 'einsum',
           'adaptive_avg_pool2d', 'adaptive_avg_pool3d', 'interpolate', 'upsample',
           'upsample_nearest', 'upsample_bilinear', 'pad', 'sum', 'mean', 'nansum', 'split',
           'copy'}

def hand_probes():
    """Overloads the sample arguments above cannot reach (a tensor bound, a value, a start,
    a normalized shape...): each called with arguments chosen for it."""
    def t(*shape):
        return torch.randn(*shape).requires_grad_().clone()
    x, zeros, idx = t(2, 3), torch.zeros(2, 3), torch.tensor([[0], [1]])
    calls = []
    for path in ('torch.clamp', 'torch.clamp_', 'torch.clip', 'torch.clip_', 'Tensor.clamp',
                 'Tensor.clamp_', 'Tensor.clip', 'Tensor.clip_'):
        fn = (lambda n: lambda a, **k: getattr(a, n)(**k))(path.split('.')[1]) \
            if path.startswith('Tensor.') else getattr(torch, path.split('.')[1])
        calls.append((path, 0, (lambda f: lambda: f(x.clone(), min=zeros))(fn)))
        calls.append((path, 1, (lambda f: lambda: f(x.clone(), min=0.0))(fn)))
    bn = (t(2, 3, 4), torch.zeros(3), torch.ones(3), t(3), t(3))
    calls += [
        ('torch.nn.functional.batch_norm', 0, lambda: F.batch_norm(*bn)),
        ('torch.batch_norm', 0, lambda: torch.batch_norm(bn[0], bn[3], bn[4], bn[1], bn[2],
                                                         False, 0.1, 1e-5, False)),
        ('torch.nn.functional.layer_norm', 0, lambda: F.layer_norm(x, (3,))),
        ('torch.layer_norm', 0, lambda: torch.layer_norm(x, (3,))),
        ('torch.instance_norm', 0, lambda: torch.instance_norm(t(2, 3, 4), None, None, None,
                                                               None, True, 0.1, 1e-5, False)),
        ('torch.nn.functional.cross_entropy', 0, lambda: F.cross_entropy(x, torch.tensor([0, 1]))),
        ('torch.nn.functional.nll_loss', 0, lambda: F.nll_loss(x, torch.tensor([0, 1]))),
        ('torch.masked_fill', 0, lambda: torch.masked_fill(x, x > 0, torch.tensor(1.0))),
        ('Tensor.masked_fill', 0, lambda: x.masked_fill(x > 0, torch.tensor(1.0))),
        ('Tensor.masked_fill_', 0, lambda: x.clone().masked_fill_(x > 0, torch.tensor(1.0))),
        ('torch.scatter', 1, lambda: torch.scatter(x, 1, idx, 2.0)),
        ('Tensor.scatter', 1, lambda: x.scatter(1, idx, 2.0)),
        ('Tensor.scatter_', 1, lambda: x.clone().scatter_(1, idx, 2.0)),
        ('torch.narrow', 0, lambda: torch.narrow(x, 1, torch.tensor(0), 2)),
        ('Tensor.narrow', 0, lambda: x.narrow(1, torch.tensor(0), 2)),
        ('torch.unflatten', 0, lambda: torch.unflatten(x, 1, (3, 1))),
        ('Tensor.unflatten', 0, lambda: x.unflatten(1, (3, 1))),
        ('Tensor.copy_', 0, lambda: x.clone().copy_(t(2, 3))),
        ('Tensor.copy_', 1, lambda: x.clone().copy_(t(2, 3))),   # a number arrives as a tensor
    ]
    for path, i, call in calls:
        yield path, i, grad_name(call())


if __name__ == '__main__':
    print('  /* printed by gen_grad_fn_names.py */')
    for path, i, name in probe(open(sys.argv[1])):
        short = path.rsplit('.', 1)[-1]
        base = short if short.startswith('__') else short.rstrip('_')
        if name in (None, 'ERR', 'SKIP', '-', 'leaf', 'CloneBackward0') or base in SPECIAL \
                or path.startswith(('torch.nn.init.', 'operator.')) or camel(base) == name:
            continue
        print('  { "%s", %d, "%s" },' % (path, i, name))
    print("  /* overloads the generic arguments do not reach: gen_grad_fn_names.py's hand_probes */")
    for path, i, name in hand_probes():
        print('  { "%s", %d, "%s" },' % (path, i, name))
