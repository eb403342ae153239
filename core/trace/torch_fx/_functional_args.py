# torch.fx._functional_args for FX Editor's front end: how PyTorch 1.13's torch.nn.functional
# functions that are written in Python hand their arguments to __torch_function__ — and so
# what a traced call records: the first N parameters positionally, every other parameter by
# keyword with its default filled in (F.dropout(x, 0.1) records dropout(x, p = 0.1,
# training = True, inplace = False)). The table is read off PyTorch 1.13 by
# tests/conformance/gen_functional_args.py; functions PyTorch implements in C (F.conv2d,
# F.linear, F.gelu, ...) pass their arguments on as given and are not listed.
import torch.nn.functional as F

# name: (N, parameters...), a parameter being its name when required, else (name, default).
SIGNATURES = {
    'adaptive_avg_pool2d': (2, 'input', 'output_size'),
    'adaptive_avg_pool3d': (2, 'input', 'output_size'),
    'adaptive_max_pool1d': (2, 'input', 'output_size', ('return_indices', False)),
    'adaptive_max_pool1d_with_indices': (2, 'input', 'output_size', ('return_indices', False)),
    'adaptive_max_pool2d': (2, 'input', 'output_size', ('return_indices', False)),
    'adaptive_max_pool2d_with_indices': (2, 'input', 'output_size', ('return_indices', False)),
    'adaptive_max_pool3d': (2, 'input', 'output_size', ('return_indices', False)),
    'adaptive_max_pool3d_with_indices': (2, 'input', 'output_size', ('return_indices', False)),
    'affine_grid': (2, 'theta', 'size', ('align_corners', None)),
    'alpha_dropout': (1, 'input', ('p', 0.5), ('training', False), ('inplace', False)),
    'batch_norm': (3, 'input', 'running_mean', 'running_var', ('weight', None), ('bias', None),
        ('training', False), ('momentum', 0.1), ('eps', 1e-05)),
    'binary_cross_entropy': (2, 'input', 'target', ('weight', None), ('size_average', None),
        ('reduce', None), ('reduction', 'mean')),
    'binary_cross_entropy_with_logits': (2, 'input', 'target', ('weight', None),
        ('size_average', None), ('reduce', None), ('reduction', 'mean'), ('pos_weight', None)),
    'celu': (1, 'input', ('alpha', 1.0), ('inplace', False)),
    'cosine_embedding_loss': (3, 'input1', 'input2', 'target', ('margin', 0),
        ('size_average', None), ('reduce', None), ('reduction', 'mean')),
    'cross_entropy': (2, 'input', 'target', ('weight', None), ('size_average', None),
        ('ignore_index', -100), ('reduce', None), ('reduction', 'mean'), ('label_smoothing', 0.0)),
    'ctc_loss': (4, 'log_probs', 'targets', 'input_lengths', 'target_lengths', ('blank', 0),
        ('reduction', 'mean'), ('zero_infinity', False)),
    'dropout': (1, 'input', ('p', 0.5), ('training', True), ('inplace', False)),
    'dropout1d': (1, 'input', ('p', 0.5), ('training', True), ('inplace', False)),
    'dropout2d': (1, 'input', ('p', 0.5), ('training', True), ('inplace', False)),
    'dropout3d': (1, 'input', ('p', 0.5), ('training', True), ('inplace', False)),
    'elu': (1, 'input', ('alpha', 1.0), ('inplace', False)),
    'embedding': (2, 'input', 'weight', ('padding_idx', None), ('max_norm', None),
        ('norm_type', 2.0), ('scale_grad_by_freq', False), ('sparse', False)),
    'embedding_bag': (2, 'input', 'weight', ('offsets', None), ('max_norm', None),
        ('norm_type', 2), ('scale_grad_by_freq', False), ('mode', 'mean'), ('sparse', False),
        ('per_sample_weights', None), ('include_last_offset', False), ('padding_idx', None)),
    'feature_alpha_dropout': (1, 'input', ('p', 0.5), ('training', False), ('inplace', False)),
    'fold': (3, 'input', 'output_size', 'kernel_size', ('dilation', 1), ('padding', 0),
        ('stride', 1)),
    'fractional_max_pool2d': (2, 'input', 'kernel_size', ('output_size', None),
        ('output_ratio', None), ('return_indices', False), ('_random_samples', None)),
    'fractional_max_pool2d_with_indices': (2, 'input', 'kernel_size', ('output_size', None),
        ('output_ratio', None), ('return_indices', False), ('_random_samples', None)),
    'fractional_max_pool3d': (2, 'input', 'kernel_size', ('output_size', None),
        ('output_ratio', None), ('return_indices', False), ('_random_samples', None)),
    'fractional_max_pool3d_with_indices': (2, 'input', 'kernel_size', ('output_size', None),
        ('output_ratio', None), ('return_indices', False), ('_random_samples', None)),
    'gaussian_nll_loss': (3, 'input', 'target', 'var', ('full', False), ('eps', 1e-06),
        ('reduction', 'mean')),
    'glu': (1, 'input', ('dim', -1)),
    'grid_sample': (2, 'input', 'grid', ('mode', 'bilinear'), ('padding_mode', 'zeros'),
        ('align_corners', None)),
    'group_norm': (2, 'input', 'num_groups', ('weight', None), ('bias', None), ('eps', 1e-05)),
    'gumbel_softmax': (1, 'logits', ('tau', 1), ('hard', False), ('eps', 1e-10), ('dim', -1)),
    'hardsigmoid': (1, 'input', ('inplace', False)),
    'hardswish': (1, 'input', ('inplace', False)),
    'hardtanh': (1, 'input', ('min_val', -1.0), ('max_val', 1.0), ('inplace', False)),
    'hinge_embedding_loss': (2, 'input', 'target', ('margin', 1.0), ('size_average', None),
        ('reduce', None), ('reduction', 'mean')),
    'huber_loss': (2, 'input', 'target', ('reduction', 'mean'), ('delta', 1.0)),
    'instance_norm': (1, 'input', ('running_mean', None), ('running_var', None), ('weight', None),
        ('bias', None), ('use_input_stats', True), ('momentum', 0.1), ('eps', 1e-05)),
    'interpolate': (1, 'input', ('size', None), ('scale_factor', None), ('mode', 'nearest'),
        ('align_corners', None), ('recompute_scale_factor', None), ('antialias', False)),
    'kl_div': (2, 'input', 'target', ('size_average', None), ('reduce', None),
        ('reduction', 'mean'), ('log_target', False)),
    'l1_loss': (2, 'input', 'target', ('size_average', None), ('reduce', None),
        ('reduction', 'mean')),
    'layer_norm': (2, 'input', 'normalized_shape', ('weight', None), ('bias', None),
        ('eps', 1e-05)),
    'leaky_relu': (1, 'input', ('negative_slope', 0.01), ('inplace', False)),
    'local_response_norm': (2, 'input', 'size', ('alpha', 0.0001), ('beta', 0.75), ('k', 1.0)),
    'log_softmax': (1, 'input', ('dim', None), ('_stacklevel', 3), ('dtype', None)),
    'lp_pool1d': (3, 'input', 'norm_type', 'kernel_size', ('stride', None), ('ceil_mode', False)),
    'lp_pool2d': (3, 'input', 'norm_type', 'kernel_size', ('stride', None), ('ceil_mode', False)),
    'margin_ranking_loss': (3, 'input1', 'input2', 'target', ('margin', 0), ('size_average', None),
        ('reduce', None), ('reduction', 'mean')),
    'max_pool1d': (2, 'input', 'kernel_size', ('stride', None), ('padding', 0), ('dilation', 1),
        ('ceil_mode', False), ('return_indices', False)),
    'max_pool1d_with_indices': (2, 'input', 'kernel_size', ('stride', None), ('padding', 0),
        ('dilation', 1), ('ceil_mode', False), ('return_indices', False)),
    'max_pool2d': (2, 'input', 'kernel_size', ('stride', None), ('padding', 0), ('dilation', 1),
        ('ceil_mode', False), ('return_indices', False)),
    'max_pool2d_with_indices': (2, 'input', 'kernel_size', ('stride', None), ('padding', 0),
        ('dilation', 1), ('ceil_mode', False), ('return_indices', False)),
    'max_pool3d': (2, 'input', 'kernel_size', ('stride', None), ('padding', 0), ('dilation', 1),
        ('ceil_mode', False), ('return_indices', False)),
    'max_pool3d_with_indices': (2, 'input', 'kernel_size', ('stride', None), ('padding', 0),
        ('dilation', 1), ('ceil_mode', False), ('return_indices', False)),
    'max_unpool1d': (3, 'input', 'indices', 'kernel_size', ('stride', None), ('padding', 0),
        ('output_size', None)),
    'max_unpool2d': (3, 'input', 'indices', 'kernel_size', ('stride', None), ('padding', 0),
        ('output_size', None)),
    'max_unpool3d': (3, 'input', 'indices', 'kernel_size', ('stride', None), ('padding', 0),
        ('output_size', None)),
    'mish': (1, 'input', ('inplace', False)),
    'mse_loss': (2, 'input', 'target', ('size_average', None), ('reduce', None),
        ('reduction', 'mean')),
    'multi_head_attention_forward': (13, 'query', 'key', 'value', 'embed_dim_to_check',
        'num_heads', 'in_proj_weight', 'in_proj_bias', 'bias_k', 'bias_v', 'add_zero_attn',
        'dropout_p', 'out_proj_weight', 'out_proj_bias', ('training', True),
        ('key_padding_mask', None), ('need_weights', True), ('attn_mask', None),
        ('use_separate_proj_weight', False), ('q_proj_weight', None), ('k_proj_weight', None),
        ('v_proj_weight', None), ('static_k', None), ('static_v', None),
        ('average_attn_weights', True)),
    'multi_margin_loss': (2, 'input', 'target', ('p', 1), ('margin', 1.0), ('weight', None),
        ('size_average', None), ('reduce', None), ('reduction', 'mean')),
    'multilabel_margin_loss': (2, 'input', 'target', ('size_average', None), ('reduce', None),
        ('reduction', 'mean')),
    'multilabel_soft_margin_loss': (2, 'input', 'target', ('weight', None), ('size_average', None),
        ('reduce', None), ('reduction', 'mean')),
    'nll_loss': (2, 'input', 'target', ('weight', None), ('size_average', None),
        ('ignore_index', -100), ('reduce', None), ('reduction', 'mean')),
    'normalize': (1, 'input', ('p', 2.0), ('dim', 1), ('eps', 1e-12), ('out', None)),
    'poisson_nll_loss': (2, 'input', 'target', ('log_input', True), ('full', False),
        ('size_average', None), ('eps', 1e-08), ('reduce', None), ('reduction', 'mean')),
    'relu': (1, 'input', ('inplace', False)),
    'relu6': (1, 'input', ('inplace', False)),
    'rrelu': (1, 'input', ('lower', 0.125), ('upper', 0.3333333333333333), ('training', False),
        ('inplace', False)),
    'selu': (1, 'input', ('inplace', False)),
    'silu': (1, 'input', ('inplace', False)),
    'smooth_l1_loss': (2, 'input', 'target', ('size_average', None), ('reduce', None),
        ('reduction', 'mean'), ('beta', 1.0)),
    'soft_margin_loss': (2, 'input', 'target', ('size_average', None), ('reduce', None),
        ('reduction', 'mean')),
    'softmax': (1, 'input', ('dim', None), ('_stacklevel', 3), ('dtype', None)),
    'softmin': (1, 'input', ('dim', None), ('_stacklevel', 3), ('dtype', None)),
    'softsign': (1, 'input'),
    'tanhshrink': (1, 'input'),
    'threshold': (3, 'input', 'threshold', 'value', ('inplace', False)),
    'triplet_margin_loss': (3, 'anchor', 'positive', 'negative', ('margin', 1.0), ('p', 2),
        ('eps', 1e-06), ('swap', False), ('size_average', None), ('reduce', None),
        ('reduction', 'mean')),
    'triplet_margin_with_distance_loss': (3, 'anchor', 'positive', 'negative',
        ('distance_function', None), ('margin', 1.0), ('swap', False), ('reduction', 'mean')),
    'unfold': (2, 'input', 'kernel_size', ('dilation', 1), ('padding', 0), ('stride', 1)),
}

# Booleanly dispatched: with a true return_indices, NAME_with_indices is what gets recorded.
_WITH_INDICES = ('max_pool1d', 'max_pool2d', 'max_pool3d', 'adaptive_max_pool1d',
                 'adaptive_max_pool2d', 'adaptive_max_pool3d', 'fractional_max_pool2d',
                 'fractional_max_pool3d')

_by_function = {}
for _name, _spec in SIGNATURES.items():
    _fn = getattr(F, _name, None)
    if _fn is not None:
        _by_function[_fn] = (_name, _spec[0], _spec[1:])


def _signature_error(name, params, args, kwargs, names):
    """CPython's TypeError for a call that does not fit the signature, else None."""
    n_required = sum(1 for p in params if isinstance(p, str))
    if len(args) > len(params):
        if n_required == len(params):
            takes = f"{len(params)} positional argument{'s' if len(params) != 1 else ''}"
        else:
            takes = f"from {n_required} to {len(params)} positional arguments"
        was = 'was' if len(args) == 1 else 'were'
        return TypeError(f"{name}() takes {takes} but {len(args)} {was} given")
    for key in kwargs:
        if key not in names:
            return TypeError(f"{name}() got an unexpected keyword argument '{key}'")
        if names.index(key) < len(args):
            return TypeError(f"{name}() got multiple values for argument '{key}'")
    missing = [repr(p) for p in params[len(args):] if isinstance(p, str) and p not in kwargs]
    if missing:
        listed = missing[0] if len(missing) == 1 else (
            f"{missing[0]} and {missing[1]}" if len(missing) == 2
            else ', '.join(missing[:-1]) + f", and {missing[-1]}")
        plural = 's' if len(missing) > 1 else ''
        return TypeError(f"{name}() missing {len(missing)} required positional argument{plural}: "
                         f"{listed}")
    return None


def normalize(fn, args, kwargs):
    """(fn, args, kwargs) as 1.13's fn passes them to __torch_function__, for fn in the
    table; raises the TypeError Python raises for a call that does not fit the signature."""
    try:
        entry = _by_function.get(fn)
    except TypeError:
        return fn, args, kwargs
    if entry is None:
        return fn, args, kwargs
    name, n_positional, params = entry
    names = [p if isinstance(p, str) else p[0] for p in params]
    error = _signature_error('_' + name if name in _WITH_INDICES else name, params, args,
                             kwargs, names)
    if error is not None:
        raise error
    values = dict(zip(names, args))
    values.update(kwargs)
    for param in params:
        if not isinstance(param, str) and param[0] not in values:
            values[param[0]] = param[1]
    if name in _WITH_INDICES and values['return_indices']:
        fn = getattr(F, name + '_with_indices', fn)
    return (fn, tuple(values[n] for n in names[:n_positional]),
            {n: values[n] for n in names[n_positional:]})
