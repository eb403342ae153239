"""Models that bench-run.c traces with fx_trace_file(): torchvision's ResNets (libfx bundles
torchvision.models), in eval mode, as module-level instances."""
import torchvision.models

resnet18 = torchvision.models.resnet18().eval()
resnet50 = torchvision.models.resnet50().eval()
