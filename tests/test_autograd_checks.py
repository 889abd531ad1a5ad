"""The checks PyTorch makes on what users hand to autograd: a hook's or a custom
Function's gradient of the wrong kind, shape or dtype; ``backward(inputs=...)`` naming a
computed tensor; the decorator forms of the grad-mode switches."""
from __future__ import annotations

import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")


def _outcome(thunk):
    try:
        return thunk()
    except (RuntimeError, TypeError) as error:
        return type(error).__name__


def both(scenario):
    return [_outcome(lambda: scenario(lib)) for lib in (torch, ag)]


HOOKS = {
    "wrong_shape_on_computed": lambda lib, x: (x * 2).register_hook(lambda g: lib.ones(3)),
    "wrong_shape_on_leaf": lambda lib, x: x.register_hook(lambda g: lib.ones(3)),
    "wrong_dtype": lambda lib, x: x.register_hook(lambda g: g.double()),
    "not_a_tensor": lambda lib, x: x.register_hook(lambda g: 3.0),
    "same_shape_replaces": lambda lib, x: x.register_hook(lambda g: g * 10),
}


@pytest.mark.parametrize("name", list(HOOKS))
def test_a_hook_must_return_a_gradient_like_the_one_it_got(name):
    def scenario(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        if name == "wrong_shape_on_computed":
            y.register_hook(lambda g: lib.ones(3))
        else:
            HOOKS[name](lib, x)
        y.sum().backward()
        return x.grad.tolist()

    expected, got = both(scenario)
    assert expected == got
    if name != "same_shape_replaces":
        assert got in ("RuntimeError", "TypeError")  # refused, never stored as .grad


BACKWARDS = {
    "right": lambda lib, g, x: g * 2,
    "too_big_sums_down": lambda lib, g, x: g.expand(3, 2),
    "wrong_shape": lambda lib, g, x: lib.ones(3),
    "one_element_for_two": lambda lib, g, x: lib.ones(1),
    "zero_dim_for_vector": lambda lib, g, x: lib.tensor(1.0),
    "other_dtype_is_cast": lambda lib, g, x: g.double(),
}


@pytest.mark.parametrize("name", list(BACKWARDS))
def test_a_custom_function_gradient_is_checked_as_torch_checks_it(name):
    def scenario(lib):
        rule = BACKWARDS[name]

        class Double(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return rule(lib, grad, None)

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        Double.apply(x).sum().backward()
        return x.grad.tolist(), str(x.grad.dtype).split(".")[-1]

    expected, got = both(scenario)
    assert expected == got


def test_a_gradient_for_a_non_tensor_input_is_refused():
    def scenario(lib):
        class Scale(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x, k):
                return x * k

            @staticmethod
            def backward(ctx, grad):
                return grad * 3, grad

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        Scale.apply(x, 3).sum().backward()
        return x.grad.tolist()

    assert both(scenario) == ["RuntimeError", "RuntimeError"]


@pytest.mark.parametrize("which", [["y"], ["y", "x"], ["x"]])
@pytest.mark.filterwarnings("ignore:The .grad attribute of a Tensor that is not a leaf")
def test_backward_inputs_may_name_a_computed_tensor(which):
    def scenario(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        named = {"x": x, "y": y}
        (y * y).sum().backward(inputs=[named[k] for k in which])
        return [None if t.grad is None else t.grad.tolist() for t in (x, y)]

    expected, got = both(scenario)
    assert expected == got


@pytest.mark.parametrize("form", ["no_grad", "no_grad()", "enable_grad", "enable_grad()",
                                  "set_grad_enabled(False)", "inference_mode", "inference_mode()",
                                  "inference_mode(False)"])
def test_grad_mode_decorators_work_with_and_without_parentheses(form):
    def scenario(lib):
        decorator = eval(f"lib.{form}")  # noqa: S307 - the forms are the literals above

        @decorator
        def double(t):
            return t * 2

        with lib.set_grad_enabled(form.startswith("enable_grad") is False):
            return double(lib.tensor([1.0], requires_grad=True)).requires_grad

    expected, got = both(scenario)
    assert expected == got
    assert ag.is_grad_enabled()


@pytest.mark.parametrize("value", ["wrong_shape", "wrong_dtype", "not_a_tensor", "right", "none"])
def test_assigning_grad_is_checked_as_torch_checks_it(value):
    def scenario(lib):
        x = lib.ones(3, requires_grad=True)
        x.grad = {"wrong_shape": lib.ones(1), "wrong_dtype": lib.ones(3, dtype=lib.float64),
                  "not_a_tensor": 3.0, "right": lib.full((3,), 2.0), "none": None}[value]
        (x * 2).sum().backward()  # accumulates into what was assigned
        return x.grad.tolist()

    expected, got = both(scenario)
    assert expected == got


def test_save_for_backward_takes_tensors_only():
    def scenario(lib):
        class Scale(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x, 3)
                return x * 3

            @staticmethod
            def backward(ctx, grad):
                return grad * 3

        return Scale.apply(lib.ones(2, requires_grad=True)).tolist()

    assert both(scenario) == ["TypeError", "TypeError"]
