import torch, torch.nn as nn
torch.manual_seed(5)
for m in [nn.Linear(3, 2), nn.Conv2d(2, 2, 2), nn.Conv1d(1, 2, 3, bias=False), nn.ConvTranspose2d(2, 1, 2),
          nn.Bilinear(2, 2, 1), nn.Embedding(4, 2, padding_idx=1), nn.BatchNorm2d(2), nn.LayerNorm(3), nn.GroupNorm(1, 2)]:
    for p in m.parameters():
        p.data.fill_(7.0)
    m.reset_parameters()
    print(type(m).__name__, [p.detach().flatten()[:4] for p in m.parameters()])
bn = nn.BatchNorm1d(2)
bn.running_mean.fill_(3.0)
bn.reset_running_stats()
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
class MyLinear(nn.Linear):
    def reset_parameters(self):
        nn.init.zeros_(self.weight)
        if self.bias is not None:
            nn.init.ones_(self.bias)
print(MyLinear(2, 2).weight, MyLinear(2, 2).bias)
