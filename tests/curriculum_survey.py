"""The torch names the beginner curriculum calls, each with the tutorials that call it.

Surveyed (issue 30) from the material every PyTorch course points to, read as published:
PyTorch's "Learn the Basics", "Deep Learning with PyTorch: a 60 minute blitz", "Learning
PyTorch with Examples" and "What is torch.nn really?" (pytorch/tutorials), Karpathy's micrograd
and makemore lectures (karpathy/nn-zero-to-hero, karpathy/makemore, karpathy/micrograd) and
d2l's preliminaries, linear-networks, MLP and CNN chapters (d2l-ai/d2l-en, the PyTorch tab;
the linear networks are its linear-regression and linear-classification chapters).
The calls were collected from the code (torch.X, nn.X, F.x, optim.X and the Tensor methods
and attributes called on tensors), calls of other libraries that share a method name
(``plt.scatter``, ``str.split``, NumPy's ``cos``) taken out by reading each one. Keys:
``basics/X`` is pytorch/tutorials beginner_source/basics/X_tutorial.py, ``blitz/X``
blitz/X_tutorial.py, ``examples/X`` examples_{tensor,autograd,nn}/X.py, ``makemore/partN`` the
nn-zero-to-hero notebook lectures/makemore/makemore_partN_*.ipynb.

``Tensor.NAME`` is a method or attribute; ``torch.NAME`` a function or class (where PyTorch
has both, tests/test_curriculum_survey.py checks both here). ``pending="<area>"``: a
colleague's area of issue 30 not in main yet (the test asserts the name is still absent, so
the mark goes when it lands); ``absent="why"``: outside issue 30, also asserted absent.
"""
from __future__ import annotations

from typing import NamedTuple


class Used(NamedTuple):
    name: str  # torch.X, torch.nn.X, torch.nn.functional.x, torch.optim.X, torch.utils.data.X, Tensor.x
    tutorials: str  # keys of TUTORIALS, separated by spaces
    pending: str | None = None
    absent: str | None = None


TUTORIALS = {
    "basics/quickstart": "Learn the Basics: Quickstart",
    "basics/tensorqs": "Learn the Basics: Tensors",
    "basics/data": "Learn the Basics: Datasets & DataLoaders",
    "basics/transforms": "Learn the Basics: Transforms",
    "basics/buildmodel": "Learn the Basics: Build the Neural Network",
    "basics/autogradqs": "Learn the Basics: Automatic Differentiation with torch.autograd",
    "basics/optimization": "Learn the Basics: Optimizing Model Parameters",
    "basics/saveloadrun": "Learn the Basics: Save and Load the Model",
    "blitz/tensor": "60 minute blitz: Tensors",
    "blitz/autograd": "60 minute blitz: A Gentle Introduction to torch.autograd",
    "blitz/neural_networks": "60 minute blitz: Neural Networks",
    "blitz/cifar10": "60 minute blitz: Training a Classifier",
    "examples/polynomial_tensor": "Learning PyTorch with Examples: Tensors",
    "examples/polynomial_autograd": "Learning PyTorch with Examples: Autograd",
    "examples/polynomial_custom_function": "Learning PyTorch with Examples: Defining new autograd Functions",
    "examples/polynomial_nn": "Learning PyTorch with Examples: nn",
    "examples/polynomial_optim": "Learning PyTorch with Examples: optim",
    "examples/polynomial_module": "Learning PyTorch with Examples: custom nn Modules",
    "examples/dynamic_net": "Learning PyTorch with Examples: control flow and weight sharing",
    "nn_tutorial": "What is torch.nn really?",
    "micrograd": "Karpathy, micrograd (the lecture notebooks, and micrograd/engine.py, nn.py)",
    "makemore/part1": "Karpathy, makemore part 1: bigrams",
    "makemore/part2": "Karpathy, makemore part 2: MLP",
    "makemore/part3": "Karpathy, makemore part 3: activations, gradients, BatchNorm",
    "makemore/part4": "Karpathy, makemore part 4: becoming a backprop ninja",
    "makemore/part5": "Karpathy, makemore part 5: building a WaveNet",
    "makemore/makemore.py": "Karpathy, makemore.py",
}
# d2l's sections (chapter/section), each its own tutorial, keyed d2l/<section>
D2L_SECTIONS = [
    "convolutional-neural-networks/channels", "convolutional-neural-networks/conv-layer",
    "convolutional-neural-networks/lenet", "convolutional-neural-networks/padding-and-strides",
    "convolutional-neural-networks/pooling", "linear-classification/classification",
    "linear-classification/image-classification-dataset", "linear-classification/softmax-regression-concise",
    "linear-classification/softmax-regression-scratch", "linear-regression/linear-regression",
    "linear-regression/linear-regression-concise", "linear-regression/oo-design",
    "linear-regression/synthetic-regression-data", "linear-regression/weight-decay", "multilayer-perceptrons/dropout",
    "multilayer-perceptrons/kaggle-house-price", "multilayer-perceptrons/mlp",
    "multilayer-perceptrons/mlp-implementation", "multilayer-perceptrons/numerical-stability-and-init",
    "preliminaries/autograd", "preliminaries/calculus", "preliminaries/linear-algebra", "preliminaries/lookup-api",
    "preliminaries/ndarray", "preliminaries/pandas", "preliminaries/probability",
]
TUTORIALS.update({f"d2l/{path.split('/')[1]}": f"d2l: chapter_{path}.md" for path in D2L_SECTIONS})

SURVEY = [
    Used("torch.abs", "d2l/linear-algebra"),
    Used("torch.add", "blitz/tensor"),
    Used("torch.all", "makemore/part4"),
    Used("torch.allclose", "makemore/part4"),
    Used("torch.arange", "blitz/neural_networks d2l/dropout d2l/mlp d2l/numerical-stability-and-init "
                         "d2l/linear-algebra d2l/ndarray makemore/makemore.py makemore/part1 makemore/part2"),
    Used("torch.argmax", "nn_tutorial"),
    Used("torch.autograd.Function", "blitz/neural_networks examples/polynomial_custom_function"),
    Used("torch.cat", "basics/tensorqs d2l/ndarray makemore/makemore.py"),
    Used("torch.cuda.is_available", "basics/buildmodel basics/tensorqs blitz/cifar10 blitz/tensor nn_tutorial"),
    Used("torch.cuda.manual_seed_all", "makemore/makemore.py"),
    Used("torch.cuda.synchronize", "makemore/makemore.py"),
    Used("torch.device", "basics/tensorqs blitz/cifar10 blitz/tensor examples/polynomial_custom_function "
                         "examples/polynomial_tensor nn_tutorial"),
    Used("torch.distributions.multinomial.Multinomial", "d2l/probability"),
    Used("torch.dot", "d2l/linear-algebra"),
    Used("torch.double", "blitz/tensor"),
    Used("torch.empty", "blitz/tensor"),
    Used("torch.exp", "d2l/ndarray"),
    Used("torch.eye", "basics/autogradqs"),
    Used("torch.flatten", "blitz/cifar10 blitz/neural_networks"),
    Used("torch.float", "basics/optimization basics/quickstart basics/tensorqs basics/transforms blitz/autograd "
                        "blitz/tensor examples/polynomial_custom_function examples/polynomial_tensor"),
    Used("torch.float32", "d2l/dropout d2l/linear-algebra d2l/ndarray"),
    Used("torch.from_numpy", "basics/tensorqs blitz/tensor d2l/ndarray"),
    Used("torch.full", "examples/polynomial_custom_function"),
    Used("torch.Generator", "makemore/part1 makemore/part2 makemore/part3 makemore/part4"),
    Used("torch.histogram", "makemore/part3"),
    Used("torch.inference_mode", "makemore/makemore.py"),
    Used("torch.int32", "makemore/part1"),
    Used("torch.linspace", "examples/dynamic_net examples/polynomial_autograd examples/polynomial_custom_function "
                           "examples/polynomial_module examples/polynomial_nn examples/polynomial_optim "
                           "examples/polynomial_tensor makemore/part2"),
    Used("torch.load", "basics/quickstart basics/saveloadrun blitz/cifar10 makemore/makemore.py"),
    Used("torch.log", "makemore/part1"),
    Used("torch.long", "blitz/tensor makemore/makemore.py"),
    Used("torch.manual_seed", "makemore/makemore.py makemore/part5"),
    Used("torch.matmul", "basics/autogradqs basics/tensorqs"),
    Used("torch.max", "blitz/cifar10 d2l/mlp-implementation"),
    Used("torch.mm", "d2l/linear-algebra"),
    Used("torch.mul", "basics/tensorqs"),
    Used("torch.multinomial", "makemore/makemore.py makemore/part1 makemore/part2 makemore/part3 makemore/part4 "
                              "makemore/part5"),
    Used("torch.mv", "d2l/linear-algebra"),
    Used("torch.nn.AdaptiveAvgPool2d", "nn_tutorial"),
    Used("torch.nn.AvgPool2d", "d2l/lenet nn_tutorial"),
    Used("torch.nn.Conv2d", "blitz/cifar10 blitz/neural_networks d2l/lenet nn_tutorial"),
    Used("torch.nn.CrossEntropyLoss", "basics/optimization basics/quickstart blitz/cifar10"),
    Used("torch.nn.Dropout", "d2l/dropout"),
    Used("torch.nn.Embedding", "makemore/makemore.py"),
    Used("torch.nn.Flatten", "basics/buildmodel basics/optimization basics/quickstart d2l/lenet "
                             "d2l/softmax-regression-concise d2l/dropout d2l/mlp-implementation "
                             "examples/polynomial_nn examples/polynomial_optim"),
    Used("torch.nn.functional.avg_pool2d", "nn_tutorial"),
    Used("torch.nn.functional.binary_cross_entropy_with_logits", "basics/autogradqs"),
    Used("torch.nn.functional.cross_entropy", "d2l/softmax-regression-concise makemore/makemore.py makemore/part2 "
                                              "makemore/part3 makemore/part4 makemore/part5 nn_tutorial"),
    Used("torch.nn.functional.max_pool2d", "blitz/neural_networks"),
    Used("torch.nn.functional.one_hot", "makemore/part1 makemore/part4"),
    Used("torch.nn.functional.relu", "blitz/cifar10 blitz/neural_networks nn_tutorial"),
    Used("torch.nn.functional.sigmoid", "makemore/makemore.py"),
    Used("torch.nn.functional.softmax", "makemore/makemore.py makemore/part2 makemore/part3 makemore/part4 "
                                        "makemore/part5"),
    Used("torch.nn.functional.tanh", "makemore/makemore.py"),
    Used("torch.nn.init.xavier_uniform_", "d2l/lenet"),
    Used("torch.nn.LayerNorm", "makemore/makemore.py"),
    Used("torch.nn.LazyConv2d", "d2l/conv-layer d2l/lenet d2l/padding-and-strides"),
    Used("torch.nn.LazyLinear", "d2l/lenet d2l/softmax-regression-concise d2l/linear-regression-concise d2l/dropout "
                                "d2l/mlp-implementation"),
    Used("torch.nn.Linear", "basics/buildmodel basics/optimization basics/quickstart blitz/cifar10 "
                            "blitz/neural_networks d2l/lenet examples/polynomial_nn examples/polynomial_optim "
                            "makemore/makemore.py nn_tutorial"),
    Used("torch.nn.LogSoftmax", "basics/optimization"),
    Used("torch.nn.MaxPool2d", "blitz/cifar10 d2l/pooling"),
    Used("torch.nn.Module", "basics/buildmodel basics/optimization basics/quickstart blitz/cifar10 "
                            "blitz/neural_networks d2l/conv-layer examples/dynamic_net examples/polynomial_module "
                            "makemore/makemore.py nn_tutorial"),
    Used("torch.nn.Module.eval", "basics/optimization basics/quickstart basics/saveloadrun nn_tutorial"),
    Used("torch.nn.Module.load_state_dict", "basics/quickstart basics/saveloadrun blitz/cifar10"),
    Used("torch.nn.Module.named_parameters", "basics/buildmodel"),
    Used("torch.nn.Module.parameters", "basics/quickstart blitz/neural_networks examples/polynomial_nn nn_tutorial"),
    Used("torch.nn.Module.state_dict", "basics/quickstart basics/saveloadrun blitz/cifar10"),
    Used("torch.nn.Module.to", "basics/buildmodel basics/quickstart blitz/cifar10 nn_tutorial"),
    Used("torch.nn.Module.train", "basics/optimization nn_tutorial"),
    Used("torch.nn.Module.zero_grad", "blitz/neural_networks examples/polynomial_nn nn_tutorial"),
    Used("torch.nn.ModuleDict", "makemore/makemore.py"),
    Used("torch.nn.ModuleList", "makemore/makemore.py"),
    Used("torch.nn.MSELoss", "basics/optimization blitz/neural_networks d2l/linear-regression-concise "
                             "examples/dynamic_net examples/polynomial_module examples/polynomial_nn "
                             "examples/polynomial_optim"),
    Used("torch.nn.MultiheadAttention", "makemore/makemore.py"),
    Used("torch.nn.NLLLoss", "basics/optimization"),
    Used("torch.nn.Parameter", "blitz/neural_networks d2l/conv-layer d2l/mlp-implementation examples/dynamic_net "
                               "examples/polynomial_module makemore/makemore.py nn_tutorial"),
    Used("torch.nn.ReLU", "basics/buildmodel basics/optimization basics/quickstart d2l/dropout "
                          "d2l/mlp-implementation nn_tutorial"),
    Used("torch.nn.Sequential", "basics/buildmodel basics/optimization basics/quickstart d2l/lenet "
                                "d2l/softmax-regression-concise d2l/dropout d2l/mlp-implementation "
                                "examples/polynomial_nn examples/polynomial_optim makemore/makemore.py nn_tutorial"),
    Used("torch.nn.Sigmoid", "d2l/lenet"),
    Used("torch.nn.Softmax", "basics/buildmodel"),
    Used("torch.nn.Tanh", "makemore/makemore.py"),
    Used("torch.no_grad", "basics/autogradqs basics/optimization basics/quickstart blitz/autograd blitz/cifar10 "
                          "examples/polynomial_autograd examples/polynomial_custom_function examples/polynomial_nn "
                          "makemore/makemore.py makemore/part3 makemore/part4 makemore/part5 nn_tutorial"),
    Used("torch.norm", "d2l/linear-algebra"),
    Used("torch.normal", "d2l/softmax-regression-scratch d2l/numerical-stability-and-init"),
    Used("torch.ones", "basics/autogradqs basics/tensorqs blitz/autograd blitz/tensor d2l/autograd "
                       "d2l/linear-algebra d2l/lookup-api d2l/ndarray makemore/makemore.py makemore/part3 "
                       "makemore/part5"),
    Used("torch.ones_like", "basics/autogradqs basics/tensorqs blitz/tensor d2l/mlp d2l/numerical-stability-and-init "
                            "makemore/part3 makemore/part4"),
    Used("torch.optim.AdamW", "makemore/makemore.py"),
    Used("torch.optim.Optimizer.step", "basics/quickstart blitz/neural_networks examples/polynomial_optim nn_tutorial"),
    Used("torch.optim.Optimizer.zero_grad", "basics/quickstart blitz/neural_networks examples/polynomial_optim "
                                            "nn_tutorial"),
    Used("torch.optim.RMSprop", "examples/polynomial_optim"),
    Used("torch.optim.SGD", "basics/optimization basics/quickstart blitz/autograd blitz/cifar10 "
                            "blitz/neural_networks d2l/classification d2l/linear-regression-concise d2l/weight-decay "
                            "examples/dynamic_net examples/polynomial_module nn_tutorial"),
    Used("torch.pow", "makemore/makemore.py"),
    Used("torch.rand", "basics/buildmodel basics/tensorqs blitz/autograd blitz/tensor d2l/conv-layer "
                       "d2l/padding-and-strides d2l/dropout makemore/part1"),
    Used("torch.rand_like", "basics/tensorqs"),
    Used("torch.randint", "basics/data makemore/part2 makemore/part3 makemore/part4 makemore/part5"),
    Used("torch.randn", "basics/autogradqs blitz/autograd blitz/neural_networks blitz/tensor d2l/mlp-implementation "
                        "d2l/autograd d2l/ndarray examples/dynamic_net examples/polynomial_autograd "
                        "examples/polynomial_module examples/polynomial_tensor makemore/part1 makemore/part2 "
                        "makemore/part3 makemore/part4 makemore/part5 nn_tutorial"),
    Used("torch.randn_like", "blitz/tensor"),
    Used("torch.randperm", "makemore/makemore.py"),
    Used("torch.relu", "d2l/mlp"),
    Used("torch.roll", "makemore/makemore.py"),
    Used("torch.save", "basics/quickstart basics/saveloadrun blitz/cifar10 makemore/makemore.py"),
    Used("torch.sigmoid", "d2l/mlp d2l/numerical-stability-and-init"),
    Used("torch.sin", "examples/dynamic_net examples/polynomial_autograd examples/polynomial_custom_function "
                      "examples/polynomial_module examples/polynomial_nn examples/polynomial_optim "
                      "examples/polynomial_tensor"),
    Used("torch.sqrt", "makemore/part3 makemore/part4 makemore/part5"),
    Used("torch.stack", "basics/tensorqs makemore/makemore.py"),
    Used("torch.sum", "d2l/linear-algebra"),
    Used("torch.tanh", "d2l/mlp makemore/makemore.py makemore/part2 makemore/part3 makemore/part4 makemore/part5 "
                       "micrograd"),
    Used("torch.tensor", "basics/autogradqs basics/tensorqs basics/transforms blitz/autograd blitz/tensor "
                         "d2l/linear-algebra d2l/ndarray d2l/pandas d2l/probability examples/polynomial_nn "
                         "examples/polynomial_optim makemore/makemore.py makemore/part1 makemore/part2 "
                         "makemore/part3 makemore/part4 makemore/part5 nn_tutorial"),
    Used("torch.topk", "makemore/makemore.py"),
    Used("torch.tril", "makemore/makemore.py"),
    Used("torch.utils.data.DataLoader", "basics/data basics/optimization basics/quickstart blitz/cifar10 "
                                        "d2l/image-classification-dataset d2l/synthetic-regression-data nn_tutorial"),
    Used("torch.utils.data.Dataset", "basics/data"),
    Used("torch.utils.data.RandomSampler", "makemore/makemore.py"),
    Used("torch.utils.data.TensorDataset", "d2l/synthetic-regression-data nn_tutorial"),
    Used("torch.zeros", "basics/autogradqs basics/saveloadrun basics/tensorqs basics/transforms blitz/tensor "
                        "d2l/conv-layer d2l/softmax-regression-scratch d2l/mlp-implementation d2l/ndarray "
                        "makemore/makemore.py makemore/part1 makemore/part3 makemore/part5 nn_tutorial"),
    Used("torch.zeros_like", "d2l/dropout d2l/mlp-implementation d2l/ndarray makemore/part3 makemore/part4"),
    Used("Tensor.abs", "d2l/channels d2l/linear-algebra makemore/part3 makemore/part4"),
    Used("Tensor.add_", "basics/tensorqs blitz/tensor"),
    Used("Tensor.all", "blitz/autograd makemore/part4"),
    Used("Tensor.allclose", "makemore/part4"),
    Used("Tensor.argmax", "basics/buildmodel basics/optimization basics/quickstart d2l/softmax-regression-scratch"),
    Used("Tensor.backward", "basics/autogradqs basics/quickstart blitz/autograd blitz/neural_networks d2l/conv-layer "
                            "d2l/mlp d2l/numerical-stability-and-init d2l/autograd examples/polynomial_autograd "
                            "examples/polynomial_custom_function examples/polynomial_nn makemore/makemore.py "
                            "makemore/part1 makemore/part2 makemore/part3 makemore/part4 makemore/part5 micrograd "
                            "nn_tutorial"),
    Used("Tensor.clone", "d2l/linear-algebra makemore/part4"),
    Used("Tensor.contiguous", "makemore/makemore.py"),
    Used("Tensor.copy_", "basics/tensorqs blitz/tensor"),
    Used("Tensor.cuda", "makemore/makemore.py"),
    Used("Tensor.cumsum", "d2l/linear-algebra d2l/probability"),
    Used("Tensor.data", "blitz/autograd blitz/cifar10 blitz/neural_networks d2l/conv-layer "
                        "d2l/image-classification-dataset d2l/linear-regression-concise "
                        "d2l/synthetic-regression-data d2l/kaggle-house-price d2l/mlp makemore/makemore.py "
                        "makemore/part1 makemore/part2 makemore/part3 makemore/part4 makemore/part5 micrograd"),
    Used("Tensor.detach", "basics/autogradqs blitz/autograd d2l/mlp d2l/numerical-stability-and-init makemore/part3 "
                          "makemore/part4"),
    Used("Tensor.device", "basics/tensorqs makemore/makemore.py"),
    Used("Tensor.dot", "d2l/linear-algebra"),
    Used("Tensor.double", "micrograd"),
    Used("Tensor.dtype", "basics/tensorqs d2l/image-classification-dataset d2l/softmax-regression-scratch "
                         "makemore/part1 makemore/part2"),
    Used("Tensor.eq", "blitz/autograd"),
    Used("Tensor.exp", "d2l/softmax-regression-scratch d2l/linear-regression d2l/kaggle-house-price d2l/ndarray "
                       "makemore/part1 makemore/part2 makemore/part4 micrograd nn_tutorial"),
    Used("Tensor.expand", "makemore/makemore.py"),
    Used("Tensor.fill_", "d2l/linear-regression-concise"),
    Used("Tensor.float", "d2l/dropout makemore/part1 makemore/part3 nn_tutorial"),
    Used("Tensor.grad", "basics/autogradqs blitz/autograd blitz/neural_networks d2l/conv-layer d2l/mlp "
                        "d2l/numerical-stability-and-init d2l/autograd examples/polynomial_autograd "
                        "examples/polynomial_custom_function examples/polynomial_nn makemore/part1 makemore/part2 "
                        "makemore/part3 makemore/part4 makemore/part5 micrograd nn_tutorial"),
    Used("Tensor.grad_fn", "basics/autogradqs blitz/autograd blitz/neural_networks"),
    Used("Tensor.item", "basics/data basics/optimization basics/quickstart basics/tensorqs blitz/cifar10 "
                        "blitz/tensor d2l/ndarray examples/dynamic_net examples/polynomial_autograd "
                        "examples/polynomial_custom_function examples/polynomial_module examples/polynomial_nn "
                        "examples/polynomial_optim examples/polynomial_tensor makemore/makemore.py makemore/part1 "
                        "makemore/part2 makemore/part3 makemore/part4 makemore/part5 micrograd nn_tutorial"),
    Used("Tensor.log", "d2l/softmax-regression-scratch makemore/part1 makemore/part2 makemore/part4 nn_tutorial"),
    Used("Tensor.log10", "makemore/part2 makemore/part3 makemore/part4 makemore/part5"),
    Used("Tensor.long", "makemore/makemore.py"),
    Used("Tensor.masked_fill", "makemore/makemore.py"),
    Used("Tensor.matmul", "basics/tensorqs d2l/channels d2l/softmax-regression-scratch d2l/synthetic-regression-data "
                          "d2l/weight-decay d2l/mlp-implementation"),
    Used("Tensor.max", "d2l/pooling d2l/mlp-implementation makemore/part4 nn_tutorial"),
    Used("Tensor.mean", "blitz/autograd d2l/pooling d2l/softmax-regression-concise d2l/linear-regression-concise "
                        "d2l/linear-algebra d2l/pandas makemore/makemore.py makemore/part1 makemore/part2 "
                        "makemore/part3 makemore/part4 makemore/part5 nn_tutorial"),
    Used("Tensor.min", "nn_tutorial"),
    Used("Tensor.mm", "d2l/linear-algebra"),
    Used("Tensor.mul", "basics/tensorqs"),
    Used("Tensor.multinomial", "d2l/probability makemore/makemore.py makemore/part1 makemore/part2 makemore/part3 "
                               "makemore/part4 makemore/part5"),
    Used("Tensor.mv", "d2l/linear-algebra"),
    Used("Tensor.ndim", "d2l/calculus makemore/part3 makemore/part5"),
    Used("Tensor.nelement", "makemore/part1 makemore/part2 makemore/part3 makemore/part4 makemore/part5"),
    Used("Tensor.new_ones", "blitz/tensor"),
    Used("Tensor.norm", "blitz/autograd d2l/autograd d2l/linear-algebra"),
    Used("Tensor.normal_", "d2l/linear-regression-concise"),
    Used("Tensor.numel", "d2l/linear-algebra d2l/ndarray makemore/makemore.py"),
    Used("Tensor.numpy", "basics/tensorqs blitz/cifar10 blitz/tensor d2l/oo-design d2l/kaggle-house-price "
                         "d2l/numerical-stability-and-init d2l/ndarray d2l/probability"),
    Used("Tensor.pow", "basics/autogradqs examples/polynomial_autograd examples/polynomial_custom_function "
                       "examples/polynomial_nn examples/polynomial_optim examples/polynomial_tensor "
                       "makemore/makemore.py"),
    Used("Tensor.relu", "d2l/dropout d2l/mlp micrograd"),
    Used("Tensor.requires_grad", "blitz/autograd makemore/part2 makemore/part3 makemore/part4 makemore/part5 "
                                 "micrograd"),
    Used("Tensor.requires_grad_", "basics/autogradqs blitz/autograd nn_tutorial"),
    Used("Tensor.reshape", "d2l/channels d2l/conv-layer d2l/padding-and-strides d2l/pooling "
                           "d2l/softmax-regression-concise d2l/softmax-regression-scratch "
                           "d2l/linear-regression-concise d2l/synthetic-regression-data d2l/dropout "
                           "d2l/mlp-implementation d2l/linear-algebra d2l/ndarray"),
    Used("Tensor.retain_grad", "makemore/part3 makemore/part4"),
    Used("Tensor.roll", "makemore/makemore.py"),
    Used("Tensor.scatter_", "basics/transforms"),
    Used("Tensor.shape", "basics/tensorqs d2l/channels d2l/conv-layer d2l/lenet d2l/padding-and-strides d2l/pooling "
                         "d2l/image-classification-dataset d2l/softmax-regression-concise "
                         "d2l/softmax-regression-scratch d2l/linear-regression-concise d2l/synthetic-regression-data "
                         "d2l/dropout d2l/kaggle-house-price d2l/linear-algebra d2l/ndarray makemore/part1 "
                         "makemore/part2 makemore/part3 makemore/part4 makemore/part5 nn_tutorial"),
    Used("Tensor.sigmoid", "d2l/mlp d2l/numerical-stability-and-init makemore/makemore.py"),
    Used("Tensor.size", "basics/buildmodel basics/data blitz/cifar10 blitz/neural_networks blitz/tensor "
                        "makemore/makemore.py nn_tutorial"),
    Used("Tensor.softmax", "makemore/makemore.py makemore/part2 makemore/part3 makemore/part4 makemore/part5"),
    Used("Tensor.split", "makemore/makemore.py"),
    Used("Tensor.sqrt", "d2l/linear-regression makemore/makemore.py makemore/part3 makemore/part4 makemore/part5"),
    Used("Tensor.squeeze", "basics/data blitz/cifar10 d2l/image-classification-dataset makemore/part5"),
    Used("Tensor.std", "makemore/part3"),
    Used("Tensor.sub_", "blitz/neural_networks"),
    Used("Tensor.sum", "basics/optimization basics/quickstart basics/tensorqs blitz/autograd blitz/cifar10 "
                       "d2l/conv-layer d2l/autograd d2l/linear-algebra d2l/ndarray d2l/probability "
                       "examples/polynomial_autograd examples/polynomial_custom_function examples/polynomial_tensor "
                       "makemore/part1 makemore/part2 makemore/part4 nn_tutorial"),
    Used("Tensor.T", "basics/tensorqs d2l/linear-algebra makemore/part4"),
    Used("Tensor.t", "basics/autogradqs"),
    Used("Tensor.tanh", "d2l/mlp makemore/makemore.py makemore/part2 makemore/part3 makemore/part4 makemore/part5 "
                        "micrograd"),
    Used("Tensor.to", "basics/tensorqs blitz/cifar10 blitz/tensor d2l/oo-design makemore/makemore.py nn_tutorial"),
    Used("Tensor.tolist", "makemore/makemore.py"),
    Used("Tensor.topk", "makemore/makemore.py"),
    Used("Tensor.transpose", "d2l/conv-layer makemore/makemore.py"),
    Used("Tensor.tril", "makemore/makemore.py"),
    Used("Tensor.type", "basics/optimization basics/quickstart"),
    Used("Tensor.unsqueeze", "blitz/neural_networks examples/polynomial_nn examples/polynomial_optim "
                             "makemore/makemore.py nn_tutorial"),
    Used("Tensor.var", "makemore/part3 makemore/part4 makemore/part5"),
    Used("Tensor.view", "blitz/cifar10 blitz/neural_networks blitz/tensor makemore/makemore.py makemore/part2 "
                        "makemore/part3 makemore/part4 makemore/part5 nn_tutorial"),
    Used("Tensor.zero_", "basics/autogradqs d2l/mlp d2l/autograd nn_tutorial"),
]
