# The model variants of the conformance suite and how each is run: built from this directory's
# model files after torch.manual_seed(0), traced with torch.fx.symbolic_trace, then gm.code,
# print_tabular and (for a few) the output on a fixed input are printed — or, where torch.fx
# fails to trace, the error's last line. trace_MODEL.py runs a variant under `fx run`;
# ../gen_models.py runs the same steps on PyTorch 1.13 to write goldens/models/.
import torch
import torch.fx

# name: (module, factory, keyword arguments, input shape for the output check or None)
VARIANTS = {
    "alexnet": ("alexnet", "alexnet", {}, None),
    "densenet121": ("densenet", "densenet121", {}, (1, 3, 64, 64)),
    # drop_rate > 0 adds F.dropout(..., training=self.training) calls
    "densenet121_dropout": ("densenet", "densenet121", {"drop_rate": 0.2}, None),
    # _DenseLayer asks `tensor.requires_grad` in an `if`: a Proxy cannot be a condition.
    "densenet121_memory_efficient": ("densenet", "densenet121", {"memory_efficient": True},
                                     None),
    "lenet": ("lenet", "lenet", {}, (1, 1, 32, 32)),
    "mnist_net": ("lenet", "mnist_net", {}, (2, 1, 28, 28)),
    "mnasnet0_5": ("mnasnet", "mnasnet0_5", {"num_classes": 10}, (1, 3, 64, 64)),
    "mnasnet1_0": ("mnasnet", "mnasnet1_0", {}, None),
    # no output check: its logits are ~1e-10, where summation order shows in the 5th digit
    "mobilenet_v2": ("mobilenetv2", "mobilenet_v2", {}, None),
    "mobilenet_v2_half": ("mobilenetv2", "mobilenet_v2", {"width_mult": 0.5}, None),
    "resnet18": ("resnet", "resnet18", {}, (1, 3, 64, 64)),
    "resnet50": ("resnet", "resnet50", {}, None),
    "resnext50_32x4d": ("resnet", "resnext50_32x4d", {}, None),
    "squeezenet1_0": ("squeezenet", "squeezenet1_0", {}, None),
    "squeezenet1_1": ("squeezenet", "squeezenet1_1", {"num_classes": 10}, (1, 3, 64, 64)),
    "vgg11": ("vgg", "vgg11", {}, None),
    "vgg11_bn": ("vgg", "vgg11_bn", {"num_classes": 10}, (1, 3, 32, 32)),
    "vgg16_bn": ("vgg", "vgg16_bn", {}, None),
}


def build(module, name):
    _, factory, kwargs, _ = VARIANTS[name]
    torch.manual_seed(0)
    return getattr(module, factory)(**kwargs)


def trace(model):
    """The traced GraphModule, or the error's last line when tracing fails."""
    try:
        return torch.fx.symbolic_trace(model), None
    except Exception as e:
        return None, f"{type(e).__name__}: {e}"


def print_code(gm):
    print(gm.code)


def print_tabular(gm):
    gm.graph.print_tabular()


def print_output(gm, name):
    shape = VARIANTS[name][3]
    x = torch.randn(*shape)
    gm.eval()
    with torch.no_grad():
        print(gm(x)[0, :5])


def run(module, name):
    """What trace_MODEL.py prints: code, tabular, output — the goldens concatenated."""
    gm, error = trace(build(module, name))
    if error is not None:
        print(error)
        return
    print_code(gm)
    print_tabular(gm)
    if VARIANTS[name][3] is not None:
        print_output(gm, name)
