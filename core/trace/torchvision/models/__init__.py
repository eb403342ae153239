# torchvision.models: the architectures FX Editor bundles (randomly initialised; no weights).
from torchvision.models.alexnet import AlexNet, alexnet
from torchvision.models.densenet import DenseNet, densenet121, densenet161
from torchvision.models.mnasnet import MNASNet, mnasnet0_5, mnasnet1_0
from torchvision.models.mobilenetv2 import MobileNetV2, mobilenet_v2
from torchvision.models.resnet import (ResNet, resnet18, resnet34, resnet50, resnext50_32x4d,
                                       wide_resnet50_2)
from torchvision.models.squeezenet import SqueezeNet, squeezenet1_0, squeezenet1_1
from torchvision.models.vgg import VGG, vgg11, vgg11_bn, vgg16, vgg16_bn
