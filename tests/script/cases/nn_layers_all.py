import torch
import torch.nn as nn
torch.manual_seed(0)
layers = [
    nn.Linear(4, 3), nn.Linear(2, 2, bias=False), nn.Bilinear(2, 3, 2),
    nn.Conv1d(2, 3, 3, stride=2, padding=1), nn.Conv2d(2, 4, (3, 1), groups=2, dilation=2, padding='same'),
    nn.Conv2d(1, 1, 2, padding_mode='reflect'), nn.ConvTranspose2d(2, 3, 3, stride=2, output_padding=1),
    nn.BatchNorm1d(3, momentum=None), nn.BatchNorm2d(4, affine=False), nn.LayerNorm(5, elementwise_affine=False),
    nn.GroupNorm(2, 4, eps=1e-3), nn.InstanceNorm2d(3, affine=True), nn.Dropout(), nn.Dropout2d(0.1, True),
    nn.ReLU(True), nn.ReLU6(), nn.LeakyReLU(0.2), nn.ELU(alpha=0.5), nn.GELU(approximate='tanh'), nn.SiLU(),
    nn.Sigmoid(), nn.Tanh(), nn.Hardtanh(-2, 2), nn.Hardswish(), nn.Hardsigmoid(), nn.Softplus(beta=2),
    nn.Softmax(dim=1), nn.LogSoftmax(1), nn.MaxPool2d(3, stride=2, padding=1), nn.MaxPool2d((2, 2), ceil_mode=True),
    nn.AvgPool2d(2), nn.AdaptiveAvgPool2d(1), nn.AdaptiveMaxPool2d((2, None)), nn.Embedding(5, 2, padding_idx=0),
    nn.Upsample(size=(4, 4), mode='bilinear', align_corners=False), nn.PixelShuffle(2), nn.ChannelShuffle(2),
    nn.ZeroPad2d(1), nn.ConstantPad2d((1, 0, 2, 0), 3.5), nn.Flatten(0), nn.Unflatten(1, torch.Size([2, 2])),
    nn.Identity(),
]
for l in layers:
    print(l)
    for n, p in l.named_parameters():
        print(' ', n, p.shape, p.flatten()[:3].detach())
    for n, b in l.named_buffers():
        print(' ', n, b)
seq = nn.Sequential(*layers[:3])
print(seq)
print(nn.Conv2d(3, 3, 3).padding_mode, nn.Conv2d(3, 3, 3).kernel_size, nn.Linear(1, 2).out_features)
print(nn.BatchNorm2d(3).num_batches_tracked, nn.BatchNorm2d(3).momentum, nn.LayerNorm((2, 3)).normalized_shape)
x = torch.randn(2, 4)
print(layers[0](x).detach())
