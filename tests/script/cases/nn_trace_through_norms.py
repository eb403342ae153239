# Tracing through batch norm and instance norm once their input check is overridden: the
# training / track_running_stats / momentum logic of PyTorch's forward decides the arguments,
# buffers that are not parameters become get_attr through the tensor lookup, and
# num_batches_tracked really counts.
import torch

nn = torch.nn


class ThroughTracer(torch.fx.Tracer):
    def is_leaf_module(self, m, qualname):
        return False


class LenientBatchNorm(nn.BatchNorm2d):
    def _check_input_dim(self, input):
        pass


class LenientInstanceNorm(nn.InstanceNorm2d):
    def _check_input_dim(self, input):
        pass

    def _get_no_batch_dim(self):
        return 7


def show(layer):
    try:
        graph = ThroughTracer().trace(layer)
    except Exception as e:
        print(type(layer).__name__, 'raised', type(e).__name__, e)
        return
    print(graph)


bn = LenientBatchNorm(3)
show(bn)
print(bn.num_batches_tracked)
bn.eval()
show(bn)
print(bn.num_batches_tracked)
show(LenientBatchNorm(3, track_running_stats=False))
bn = LenientBatchNorm(3, momentum=None)
show(bn)
show(bn)
bn = LenientBatchNorm(3, affine=False)
bn.eval()
show(bn)
show(LenientInstanceNorm(3, affine=True))
inst = LenientInstanceNorm(3, track_running_stats=True)
inst.eval()
show(inst)
d = nn.Dropout(0.3)
d.eval()
show(d)
