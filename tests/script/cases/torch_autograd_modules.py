import torch
from torch.autograd import Variable
from torch.autograd.grad_mode import no_grad
print(Variable(torch.ones(2)), no_grad is torch.no_grad, torch.autograd.no_grad is torch.no_grad)
print(torch.no_grad, torch.enable_grad, torch.set_grad_enabled, torch.inference_mode)
print(type(torch.jit), torch.jit.is_scripting())
