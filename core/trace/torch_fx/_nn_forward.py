# The builtin torch.nn layers' forward written in Python, for the calls whose input is not a
# real tensor (a torch.fx Proxy, while tracing through a layer): like PyTorch 1.13's forward,
# each reads its parameters and settings through self.<name> and calls torch.nn.functional,
# so that a tracer sees get_attr and call_function exactly as it would with PyTorch.
# nn-layers.c calls FORWARDS[type name](self, *args, **kwargs); real tensors never come here.
import torch
import torch.nn.functional as F

FORWARDS = {}


def _forward_of(owner, *type_names):
    """Registers the decorated function as the forward of type_names, named like PyTorch's
    (owner.forward) in error messages."""
    def register(function):
        function.__qualname__ = owner + '.forward'
        for name in type_names:
            FORWARDS[name] = function
        return function
    return register


def _class_method(self, name, default):
    """A method a subclass may define (looked up on the class, never through __getattr__)."""
    method = getattr(type(self), name, None)
    return default if method is None else method


@_forward_of('Identity', 'Identity')
def identity(self, input: torch.Tensor):
    return input


@_forward_of('Linear', 'Linear')
def linear(self, input: torch.Tensor):
    return F.linear(input, self.weight, self.bias)


@_forward_of('Bilinear', 'Bilinear')
def bilinear(self, input1: torch.Tensor, input2: torch.Tensor):
    return F.bilinear(input1, input2, self.weight, self.bias)


def _reversed_padding(self):
    """F.pad's padding for a convolution's padding_mode: the last dim's first, each twice."""
    known = getattr(self, '_reversed_padding_repeated_twice', None)
    if known is not None:
        return known
    kernel_size = self.kernel_size
    if isinstance(self.padding, str):
        pads = [0, 0] * len(kernel_size)
        if self.padding == 'same':
            for i in range(len(kernel_size)):
                total = self.dilation[i] * (kernel_size[i] - 1)
                slot = 2 * (len(kernel_size) - 1 - i)
                pads[slot] = total // 2
                pads[slot + 1] = total - total // 2
        return pads
    pads = []
    for amount in reversed(self.padding):
        pads.append(amount)
        pads.append(amount)
    return tuple(pads)


def _conv(function, zero_padding):
    def forward(self, input: torch.Tensor):
        weight = self.weight
        bias = self.bias
        if self.padding_mode != 'zeros':
            padded = F.pad(input, _reversed_padding(self), mode=self.padding_mode)
            return function(padded, weight, bias, self.stride, zero_padding, self.dilation,
                            self.groups)
        return function(input, weight, bias, self.stride, self.padding, self.dilation,
                        self.groups)
    return forward


def _transposed_output_padding(self, input, output_size, n_spatial):
    if output_size is None:
        return tuple(self.output_padding)
    stride = self.stride
    padding = self.padding
    kernel_size = self.kernel_size
    dilation = self.dilation
    n_leading = 2 if input.dim() == n_spatial + 2 else 1
    if len(output_size) == n_leading + n_spatial:
        output_size = output_size[n_leading:]
    if len(output_size) != n_spatial:
        raise ValueError(
            "ConvTranspose{}D: for {}D input, output_size must have {} or {} elements (got {})"
            .format(n_spatial, input.dim(), n_spatial, n_leading + n_spatial, len(output_size)))
    smallest = []
    largest = []
    for d in range(n_spatial):
        extent = ((input.size(d + n_leading) - 1) * stride[d] - 2 * padding[d]
                  + dilation[d] * (kernel_size[d] - 1) + 1)
        smallest.append(extent)
        largest.append(extent + stride[d] - 1)
    for i in range(len(output_size)):
        if output_size[i] < smallest[i] or output_size[i] > largest[i]:
            raise ValueError(
                "requested an output size of {}, but valid sizes range from {} to {} "
                "(for an input of {})".format(output_size, smallest, largest,
                                              input.size()[2:]))
    return [output_size[d] - smallest[d] for d in range(n_spatial)]


@_forward_of('ConvTranspose2d', 'ConvTranspose2d')
def conv_transpose2d(self, input: torch.Tensor, output_size=None):
    if self.padding_mode != 'zeros':
        raise ValueError('Only `zeros` padding mode is supported for ConvTranspose2d')
    assert isinstance(self.padding, tuple)
    output_padding = _transposed_output_padding(self, input, output_size, 2)
    return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                              output_padding, self.groups, self.dilation)


def _check_batch_norm1d(self, input: torch.Tensor):
    if input.dim() != 2 and input.dim() != 3:
        raise ValueError("expected 2D or 3D input (got {}D input)".format(input.dim()))


def _check_4d(self, input: torch.Tensor):
    if input.dim() != 4:
        raise ValueError("expected 4D input (got {}D input)".format(input.dim()))


def _check_instance_norm2d(self, input: torch.Tensor):
    if input.dim() not in (3, 4):
        raise ValueError("expected 3D or 4D input (got {}D input)".format(input.dim()))


def _batch_norm(default_check):
    def forward(self, input: torch.Tensor):
        _class_method(self, '_check_input_dim', default_check)(self, input)
        momentum = self.momentum
        factor = 0.0 if momentum is None else momentum
        if self.training and self.track_running_stats:
            if self.num_batches_tracked is not None:
                self.num_batches_tracked.add_(1)
                if self.momentum is None:
                    factor = 1.0 / float(self.num_batches_tracked)
                else:
                    factor = self.momentum
        if self.training:
            use_batch_stats = True
        else:
            use_batch_stats = self.running_mean is None and self.running_var is None
        # the buffers are handed over when they are read (eval) or updated (tracked training)
        hand_over = not self.training or self.track_running_stats
        running_mean = self.running_mean if hand_over else None
        running_var = self.running_var if hand_over else None
        return F.batch_norm(input, running_mean, running_var, self.weight, self.bias,
                            use_batch_stats, factor, self.eps)
    return forward


def _instance_norm_apply(self, input: torch.Tensor):
    return F.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                           self.training or not self.track_running_stats, self.momentum,
                           self.eps)


@_forward_of('_InstanceNorm', 'InstanceNorm2d')
def instance_norm2d(self, input: torch.Tensor):
    _class_method(self, '_check_input_dim', _check_instance_norm2d)(self, input)
    no_batch_dim = _class_method(self, '_get_no_batch_dim', lambda self: 3)(self)
    if input.dim() == no_batch_dim:
        return _instance_norm_apply(self, input.unsqueeze(0)).squeeze(0)
    return _instance_norm_apply(self, input)


@_forward_of('LayerNorm', 'LayerNorm')
def layer_norm(self, input: torch.Tensor):
    return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)


@_forward_of('GroupNorm', 'GroupNorm')
def group_norm(self, input: torch.Tensor):
    return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)


@_forward_of('Dropout', 'Dropout')
def dropout(self, input: torch.Tensor):
    return F.dropout(input, self.p, self.training, self.inplace)


@_forward_of('Dropout2d', 'Dropout2d')
def dropout2d(self, input: torch.Tensor):
    return F.dropout2d(input, self.p, self.training, self.inplace)


@_forward_of('ReLU', 'ReLU')
def relu(self, input: torch.Tensor):
    return F.relu(input, inplace=self.inplace)


@_forward_of('Hardtanh', 'Hardtanh', 'ReLU6')
def hardtanh(self, input: torch.Tensor):
    return F.hardtanh(input, self.min_val, self.max_val, self.inplace)


@_forward_of('LeakyReLU', 'LeakyReLU')
def leaky_relu(self, input: torch.Tensor):
    return F.leaky_relu(input, self.negative_slope, self.inplace)


@_forward_of('ELU', 'ELU')
def elu(self, input: torch.Tensor):
    return F.elu(input, self.alpha, self.inplace)


@_forward_of('GELU', 'GELU')
def gelu(self, input: torch.Tensor):
    return F.gelu(input, approximate=self.approximate)


@_forward_of('SiLU', 'SiLU')
def silu(self, input: torch.Tensor):
    return F.silu(input, inplace=self.inplace)


@_forward_of('Sigmoid', 'Sigmoid')
def sigmoid(self, input: torch.Tensor):
    return torch.sigmoid(input)


@_forward_of('Tanh', 'Tanh')
def tanh(self, input: torch.Tensor):
    return torch.tanh(input)


@_forward_of('Hardswish', 'Hardswish')
def hardswish(self, input: torch.Tensor):
    return F.hardswish(input, self.inplace)


@_forward_of('Hardsigmoid', 'Hardsigmoid')
def hardsigmoid(self, input: torch.Tensor):
    return F.hardsigmoid(input, self.inplace)


@_forward_of('Softplus', 'Softplus')
def softplus(self, input: torch.Tensor):
    return F.softplus(input, self.beta, self.threshold)


@_forward_of('Softmax', 'Softmax')
def softmax(self, input: torch.Tensor):
    return F.softmax(input, self.dim, _stacklevel=5)


@_forward_of('LogSoftmax', 'LogSoftmax')
def log_softmax(self, input: torch.Tensor):
    return F.log_softmax(input, self.dim, _stacklevel=5)


@_forward_of('MaxPool2d', 'MaxPool2d')
def max_pool2d(self, input: torch.Tensor):
    return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                        ceil_mode=self.ceil_mode, return_indices=self.return_indices)


@_forward_of('AvgPool2d', 'AvgPool2d')
def avg_pool2d(self, input: torch.Tensor):
    return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                        self.count_include_pad, self.divisor_override)


@_forward_of('AdaptiveAvgPool2d', 'AdaptiveAvgPool2d')
def adaptive_avg_pool2d(self, input: torch.Tensor):
    return F.adaptive_avg_pool2d(input, self.output_size)


@_forward_of('AdaptiveMaxPool2d', 'AdaptiveMaxPool2d')
def adaptive_max_pool2d(self, input: torch.Tensor):
    return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


@_forward_of('Embedding', 'Embedding')
def embedding(self, input: torch.Tensor):
    return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                       self.scale_grad_by_freq, self.sparse)


@_forward_of('Upsample', 'Upsample')
def upsample(self, input: torch.Tensor):
    return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                         recompute_scale_factor=self.recompute_scale_factor)


@_forward_of('PixelShuffle', 'PixelShuffle')
def pixel_shuffle(self, input: torch.Tensor):
    return F.pixel_shuffle(input, self.upscale_factor)


@_forward_of('ChannelShuffle', 'ChannelShuffle')
def channel_shuffle(self, input: torch.Tensor):
    return F.channel_shuffle(input, self.groups)


@_forward_of('_ConstantPadNd', 'ZeroPad2d', 'ConstantPad2d')
def constant_pad(self, input: torch.Tensor):
    return F.pad(input, self.padding, 'constant', self.value)


@_forward_of('Flatten', 'Flatten')
def flatten(self, input: torch.Tensor):
    return input.flatten(self.start_dim, self.end_dim)


@_forward_of('Unflatten', 'Unflatten')
def unflatten(self, input: torch.Tensor):
    return input.unflatten(self.dim, self.unflattened_size)



for _owner, _name, _function, _padding in (('Conv1d', 'Conv1d', F.conv1d, (0,)),
                                           ('Conv2d', 'Conv2d', F.conv2d, (0, 0))):
    _forward_of(_owner, _name)(_conv(_function, _padding))
_forward_of('_BatchNorm', 'BatchNorm1d')(_batch_norm(_check_batch_norm1d))
_forward_of('_BatchNorm', 'BatchNorm2d')(_batch_norm(_check_4d))


def python_forward(cls):
    """The forward above of the builtin layer cls is or derives from (for tracing a builtin
    layer as the root, whose own forward is written in C); None for other classes."""
    for klass in cls.__mro__:
        if klass.__name__ in FORWARDS and klass.__module__.startswith('torch.nn.modules.'):
            return FORWARDS[klass.__name__]
    return None
