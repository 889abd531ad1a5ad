"""``ag.autograd``: custom Functions, grad, gradcheck, and the backward engine."""
from .function import Function, FunctionCtx
from .grad import grad
from .grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .gradcheck import GradcheckError, gradcheck
from .stepper import BackwardStepper, backward_stepper


def Variable(data, requires_grad: bool = False, volatile: bool = False):  # noqa: N802 - old API
    """The pre-0.4 wrapper, kept so old tutorials run: it returns the tensor itself."""
    data.requires_grad_(requires_grad)
    return data


__all__ = ["Function", "FunctionCtx", "grad", "gradcheck", "GradcheckError", "Variable",
           "backward_stepper", "BackwardStepper",
           "no_grad", "enable_grad", "inference_mode", "set_grad_enabled", "is_grad_enabled"]
