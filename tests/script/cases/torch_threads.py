# torch.set_num_threads / get_num_threads: the compute threads, and bad arguments
import torch

torch.set_num_threads(1)
print(torch.get_num_threads())
x = torch.arange(12.0).reshape(3, 4)
print(x @ x.t())
torch.set_num_threads(2)
print(torch.get_num_threads())
print(x @ x.t())
for bad in (0, -3, 2.5, True, None, [1], "2"):
    try:
        torch.set_num_threads(bad)
    except Exception as e:
        print(type(e).__name__, e)
try:
    torch.set_num_threads()
except TypeError as e:
    print("TypeError", e)
try:
    torch.set_num_threads(1, 2)
except TypeError as e:
    print("TypeError", e)
print(torch.get_num_threads())
