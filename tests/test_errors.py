"""Bad input gets PyTorch's clear error, and a failing op leaves everything as it was."""
import pytest

import ag_jupyter as ag


def test_matmul_shape_mismatch_names_both_shapes():
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x5\)"):
        ag.ones(2, 3) @ ag.ones(4, 5)
    with pytest.raises(RuntimeError, match=r"\[2, 2, 3\] and \[2, 4, 5\]"):
        ag.ones(2, 2, 3) @ ag.ones(2, 4, 5)


def test_broadcast_mismatch_names_sizes_dimension_and_shapes():
    with pytest.raises(RuntimeError) as info:
        ag.ones(2, 3) + ag.ones(4, 5)
    message = str(info.value)
    assert "The size of tensor a (3) must match the size of tensor b (5) at non-singleton dimension 1" in message
    assert "[2, 3]" in message and "[4, 5]" in message


def test_backward_of_a_non_scalar_needs_a_gradient():
    y = ag.ones(3, requires_grad=True) * 2
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        y.backward()


def test_gradient_of_the_wrong_shape():
    y = ag.ones(3, requires_grad=True) * 2
    with pytest.raises(RuntimeError, match=r"Mismatch in shape: grad_output\[0\] has a shape of"):
        y.backward(ag.ones(2))


def test_backward_of_something_that_does_not_require_grad():
    with pytest.raises(RuntimeError, match="does not require grad and does not have a grad_fn"):
        ag.ones(2).sum().backward()


def test_integer_tensors_cannot_require_grad():
    with pytest.raises(RuntimeError, match="Only Tensors of floating point"):
        ag.tensor([1, 2], requires_grad=True)
    with pytest.raises(RuntimeError, match="int64"):
        ag.arange(3).requires_grad_()


def test_cuda_without_a_gpu_is_a_clear_runtime_error():
    if ag.cuda.is_available():
        pytest.skip("this machine has a GPU")
    for make in (lambda: ag.ones(2, device="cuda"), lambda: ag.ones(2).cuda(), lambda: ag.ones(2).to("cuda:0")):
        with pytest.raises(RuntimeError) as info:
            make()
        assert "no usable GPU" in str(info.value) and 'pip install "ag_jupyter[gpu]"' in str(info.value)


def test_bad_device_strings():
    with pytest.raises(RuntimeError, match="Expected one of cpu, cuda"):
        ag.ones(2, device="tpu")
    with pytest.raises(RuntimeError, match="Invalid device string"):
        ag.device("cuda:x")


def test_reshape_and_expand_errors_name_shapes():
    with pytest.raises(RuntimeError, match=r"shape '\[4, 2\]' is invalid for input of size 6"):
        ag.ones(2, 3).reshape(4, 2)
    with pytest.raises(RuntimeError, match=r"expanded size of the tensor \(4\) must match the existing size \(3\)"):
        ag.ones(3).expand(2, 4)


def test_dimension_out_of_range():
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"):
        ag.ones(2, 3).sum(2)


def test_cat_and_stack_name_the_sizes():
    with pytest.raises(RuntimeError, match=r"Expected size \[2, 3\] but got size \[2, 4\]"):
        ag.cat([ag.ones(2, 3), ag.ones(2, 4)], 0)
    with pytest.raises(RuntimeError, match=r"stack expects each tensor to be equal size"):
        ag.stack([ag.ones(2), ag.ones(3)])


def test_in_place_shape_and_dtype_errors():
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast shape \[2, 3\]"):
        ag.zeros(3).add_(ag.ones(2, 3))
    with pytest.raises(RuntimeError, match="can't be cast"):
        ag.arange(3).add_(0.5)


def test_numpy_refuses_a_tensor_that_requires_grad():
    with pytest.raises(RuntimeError, match=r"detach\(\).numpy\(\)"):
        ag.ones(2, requires_grad=True).numpy()


def test_item_on_many_elements():
    with pytest.raises(RuntimeError, match="a Tensor with 3 elements cannot be converted to Scalar"):
        ag.ones(3).item()
    with pytest.raises(RuntimeError, match="ambiguous"):
        bool(ag.ones(3))


@pytest.mark.parametrize("bad_op", [
    lambda w, x: w @ ag.ones(5, 2),
    lambda w, x: w + ag.ones(4, 4),
    lambda w, x: w.reshape(7),
    lambda w, x: ag.cat([w, ag.ones(1, 5)]),
    lambda w, x: w.sum(5),
    lambda w, x: w[10],
    lambda w, x: x.add_(ag.ones(3, 3)),
])
def test_a_failing_op_leaves_inputs_and_graph_untouched_and_differentiable(bad_op):
    w = ag.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    x = w * 2  # an intermediate, with a graph behind it
    before = (w.tolist(), x.tolist(), x.grad_fn, x._version, w._version)
    with pytest.raises((RuntimeError, IndexError)):
        bad_op(w, x)
    assert (w.tolist(), x.tolist(), x.grad_fn, x._version, w._version) == before
    x.sum().backward()
    assert w.grad.tolist() == [[2.0, 2.0], [2.0, 2.0]]


@pytest.mark.parametrize("op", ["maximum", "minimum"])
@pytest.mark.parametrize("call", ["number first", "number second"])
def test_maximum_and_minimum_take_two_tensors_as_pytorchs_do(op, call):
    torch = pytest.importorskip("torch")
    refusals = []
    for lib in (ag, torch):
        x = lib.tensor([1.0, -2.0])
        args = (0, x) if call == "number first" else (x, 0)
        with pytest.raises(TypeError) as refused:
            getattr(lib, op)(*args)
        refusals.append(str(refused.value).split(" must be")[0].split(" (position")[0])
    assert refusals[0] == refusals[1]  # which argument: input or other
