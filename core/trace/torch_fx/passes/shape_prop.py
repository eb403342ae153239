# torch.fx.passes.shape_prop for FX Editor's front end: ShapeProp runs a GraphModule on sample
# inputs and records each node's result shape, dtype, strides, ... as node.meta['tensor_meta'].
# Behaviour and messages follow torch.fx 1.13; the implementation is FX Editor's own.
from collections import namedtuple
import torch
from torch.fx._ir import map_aggregate
from torch.fx.interpreter import Interpreter

__all__ = ['TensorMetadata', 'ShapeProp']

TensorMetadata = namedtuple('TensorMetadata', ['shape', 'dtype', 'requires_grad', 'stride',
                                               'memory_format', 'is_quantized', 'qparams'])

# Dimension orders, innermost first, of the channels-last layouts by number of dimensions.
_CHANNELS_LAST_ORDERS = {4: (1, 3, 2, 0), 5: (1, 4, 3, 2, 0)}


def _is_dense_in_order(shape, stride, order):
    # Size-1 dimensions may have any stride, as in PyTorch's contiguity checks.
    expected = 1
    for d in order:
        if shape[d] != 1:
            if stride[d] != expected:
                return False
            expected *= shape[d]
    return True


def _memory_format_of(result, shape, stride):
    if result.is_contiguous():
        return torch.contiguous_format
    order = _CHANNELS_LAST_ORDERS.get(len(shape))
    if order is not None and _is_dense_in_order(shape, stride, order):
        if len(shape) == 4:
            return torch.channels_last
        return getattr(torch, 'channels_last_3d', None)
    return None


def _extract_tensor_metadata(result):
    shape = result.shape
    stride = result.stride()
    is_quantized = result.is_quantized
    qparams = {}
    if is_quantized:
        # libfx has no quantized tensors; kept for the day it has.
        qscheme = result.qscheme()
        qparams['qscheme'] = qscheme
        if qscheme in {torch.per_tensor_affine, torch.per_tensor_symmetric}:
            qparams['scale'] = result.q_scale()
            qparams['zero_point'] = result.q_zero_point()
        else:
            qparams['scale'] = result.q_per_channel_scales().tolist()
            qparams['zero_point'] = result.q_per_channel_zero_points().tolist()
            qparams['axis'] = result.q_per_channel_axis()
    return TensorMetadata(shape, result.dtype, result.requires_grad, stride,
                          _memory_format_of(result, shape, stride), is_quantized, qparams)


def _print_current_exception():
    try:
        import traceback
    except ImportError:
        traceback = None
    if traceback is not None:
        traceback.print_exc()


class ShapeProp(Interpreter):
    """Runs the graph on sample inputs like an Interpreter and stores, in each node's meta,
    'tensor_meta' (a TensorMetadata, or the same structure of them when the result is a
    tuple, list or dict holding tensors) and 'type' (the result's type)."""

    def run_node(self, n):
        try:
            result = super().run_node(n)
        except Exception:
            _print_current_exception()
            raise RuntimeError(f"ShapeProp error for: node={n.format_node()} with "
                               f"meta={n.meta}")
        found_tensor = [False]

        def extract_tensor_meta(obj):
            if isinstance(obj, torch.Tensor):
                found_tensor[0] = True
                return _extract_tensor_metadata(obj)
            return obj
        meta = map_aggregate(result, extract_tensor_meta)
        if found_tensor[0]:
            n.meta['tensor_meta'] = meta
        n.meta['type'] = type(result)
        return result

    def propagate(self, *args):
        """Runs the module on `args`, recording every node's metadata; returns the result."""
        return super().run(*args)
