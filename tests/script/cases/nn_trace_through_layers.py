# Tracing through every builtin layer (a Tracer that keeps no module a leaf): the graph
# PyTorch's Python forward records — get_attr for parameters, the torch.nn.functional call
# with the layer's settings, and TraceError where forward branches on the input.
import torch

nn = torch.nn


class ThroughTracer(torch.fx.Tracer):
    def is_leaf_module(self, m, qualname):
        return False


def show(layer):
    try:
        graph = ThroughTracer().trace(layer)
    except Exception as e:
        print(type(layer).__name__, 'raised', type(e).__name__, e)
        return
    print(type(layer).__name__)
    print(graph)


for layer in [nn.Identity(), nn.Linear(2, 3), nn.Linear(2, 3, bias=False),
              nn.Conv1d(2, 3, 3), nn.Conv2d(2, 3, 3, stride=2, padding=1),
              nn.Conv2d(2, 3, 3, padding=1, padding_mode='reflect', bias=False),
              nn.ConvTranspose2d(2, 3, 3), nn.BatchNorm1d(3), nn.BatchNorm2d(3),
              nn.LayerNorm(3), nn.GroupNorm(1, 3), nn.InstanceNorm2d(3), nn.Dropout(),
              nn.Dropout2d(0.2, inplace=True), nn.ReLU(), nn.ReLU(inplace=True), nn.ReLU6(),
              nn.LeakyReLU(0.2), nn.ELU(), nn.GELU(), nn.GELU('tanh'), nn.SiLU(), nn.Sigmoid(),
              nn.Tanh(), nn.Hardtanh(-2.0, 2.0), nn.Hardswish(), nn.Hardsigmoid(),
              nn.Softplus(), nn.Softmax(1), nn.LogSoftmax(dim=-1), nn.MaxPool2d(2),
              nn.MaxPool2d(3, 2, 1), nn.AvgPool2d(2), nn.AdaptiveAvgPool2d(1),
              nn.AdaptiveMaxPool2d((2, 2)), nn.Embedding(3, 2), nn.Embedding(5, 2, padding_idx=0),
              nn.Upsample(scale_factor=2),
              nn.Upsample(size=(4, 4), mode='bilinear', align_corners=True),
              nn.PixelShuffle(2), nn.ChannelShuffle(2), nn.ZeroPad2d(1),
              nn.ConstantPad2d((1, 2, 0, 1), 0.5), nn.Flatten(), nn.Flatten(0, 2),
              nn.Unflatten(1, (2, 2))]:
    show(layer)
    show(nn.Sequential(layer))
