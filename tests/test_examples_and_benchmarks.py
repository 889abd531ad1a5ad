"""The demo script and the benchmark workloads run (tiny sizes: this checks they work, not speed)."""
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))


def test_tutorial_gradients_demo_prints_the_tutorial_numbers():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "tutorial_gradients.py")],
                         capture_output=True, text=True, check=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert "de/da = b     = -3.0000" in out.stdout
    assert "de/dd = c/d   = +2.5000" in out.stdout
    assert "b.grad = [4.0]" in out.stdout and "x.grad = [8.0, 8.0, 8.0]" in out.stdout
    assert "LogBackward0" in out.stdout and "MmBackward0" in out.stdout


def test_benchmark_workloads_compute_the_same_gradients_as_their_references():
    import floor
    import workloads

    import ag_jupyter as ag

    ops = workloads.chain_ops(20)
    values = np.linspace(0.1, 0.9, 4).astype(np.float32)
    x = ag.tensor(values, requires_grad=True)
    workloads.chain_framework(x, ops)
    np.testing.assert_allclose(x.grad.numpy(), workloads.chain_numpy(values, ops), rtol=1e-4)
    np.testing.assert_allclose(floor.run_chain(values, ops), workloads.chain_numpy(values, ops), rtol=1e-5)
    x, y = workloads.moons(20)
    floor_params, numpy_params = workloads.micrograd_params(), workloads.micrograd_params()
    for _ in range(3):  # each step starts from the parameters the last one updated
        assert floor.mlp_step(x, y, floor_params, 0.05) == workloads.numpy_micrograd_step(numpy_params, x, y, 0.05)
    for got, expected in zip(floor_params, numpy_params):
        np.testing.assert_array_equal(got, expected)
    for contenders in (workloads.chain_contenders(4, 7), workloads.mlp_contenders(batch=8),
                       workloads.mlp_contenders(batch=8, nn=True), workloads.matmul_contenders(8),
                       workloads.micrograd_contenders(points=10)):
        assert {"ag_jupyter", "raw NumPy"} <= set(contenders)
        for run in contenders.values():
            run()


def test_gpu_benchmark_runs_the_engine_workloads_wherever_they_are_placed():
    # bench_gpu places workloads.py's contenders on the GPU; placed on the CPU they run
    # here, named for where they run (their arithmetic is checked against NumPy above).
    import bench_gpu
    import workloads

    contenders = bench_gpu.mlp_both(None, workloads.Place(), batch=8)
    assert set(contenders) == {"raw NumPy", "ag_jupyter", "ag_jupyter nn"}
    for run in contenders.values():
        run()
    assert set(workloads.matmul_contenders(8, place=workloads.Place())) == {"raw NumPy", "ag_jupyter"}


def test_gpu_benchmark_says_so_without_a_gpu(capsys):
    import bench_gpu

    import ag_jupyter as ag

    if ag.cuda.is_available():
        return  # measured on a GPU machine instead
    bench_gpu.main(["--quick"])
    assert "no usable GPU" in capsys.readouterr().out


def test_the_mlp_steps_do_the_same_arithmetic_as_the_numpy_reference():
    """W2, W2-nn and W5: one step of each engine's code leaves the parameters where the
    hand-written NumPy step does (so the benchmark compares equal work)."""
    import workloads

    import ag_jupyter as ag

    x, labels, params = workloads.mlp_data(batch=16, sizes=(12, 8, 6, 4))
    expected = [p.copy() for p in params]
    loss = workloads.numpy_mlp_step(expected, x, labels, 0.5)
    tensors = [ag.tensor(p, requires_grad=True) for p in params]
    ours = workloads.framework_mlp_step(ag, ag.tensor(x), ag.tensor(labels), tensors, ag.arange(16), 0.5)
    step, model = workloads.nn_mlp_step_fn(ag, x, labels, params, 0.5)
    ours_nn = step()
    assert abs(ours.item() - loss) < 1e-5 and abs(ours_nn.item() - loss) < 1e-5
    layers = [m for m in model if isinstance(m, ag.nn.Linear)]
    # W2-nn's reference: the same step with the weights in nn.Linear's (out, in) layout
    expected_nn = [np.ascontiguousarray(p.T) if p.ndim == 2 else p.copy() for p in params]
    assert abs(workloads.numpy_mlp_step(expected_nn, x, labels, 0.5, linear_layout=True) - loss) < 1e-5
    for got, got_nn, want, want_nn in zip(tensors, [p for m in layers for p in (m.weight, m.bias)], expected,
                                          expected_nn):
        np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(got_nn.detach().numpy(), want_nn, rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(want_nn.T if want_nn.ndim == 2 else want_nn, want, rtol=1e-4, atol=1e-6)

    x, y = workloads.moons(10)
    params = workloads.micrograd_params()
    expected = [p.copy() for p in params]
    loss = workloads.numpy_micrograd_step(expected, x, y, 0.5)
    tensors = [ag.tensor(p, requires_grad=True) for p in params]
    ours = workloads.framework_micrograd_step(ag, ag.tensor(x), ag.tensor(y), tensors, 0.5)
    assert abs(ours.item() - loss) < 1e-5
    for got, want in zip(tensors, expected):
        np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-4, atol=1e-6)


def test_the_engine_benchmark_prints_every_target_row(capsys, monkeypatch):
    import bench_engine
    import workloads

    # tiny sizes: this checks the report, not the speed
    monkeypatch.setattr(bench_engine, "mlp_contenders",
                        lambda **kw: workloads.mlp_contenders(batch=8, sizes=(12, 8, 6, 4), **kw))
    monkeypatch.setattr(bench_engine, "matmul_contenders", lambda **kw: workloads.matmul_contenders(8, **kw))
    monkeypatch.setattr(bench_engine, "chain_contenders",
                        lambda size, count, torch: workloads.chain_contenders(min(size, 10), min(count, 20), torch))
    ratios = bench_engine.main(["--quick"])
    out = capsys.readouterr().out
    assert set(ratios) == set(bench_engine.TARGETS)
    assert "NumPy BLAS: " in out and "threads" in out
    for row in bench_engine.TARGETS:
        assert row in out
    assert out.count("Python floor") == 3 and out.count("floor tracer") == 2
    assert "95% interval" in out and out.count(" <= ") >= len(bench_engine.TARGETS)


def test_the_floor_tracer_keeps_each_value_as_it_was():
    import floor_tracer

    import ag_jupyter as ag
    from ag_jupyter.autograd import state

    x = ag.tensor([1.0, 2.0], requires_grad=True)
    listener = state.listener = floor_tracer.FloorTracer()
    try:
        y = x * 3.0
        z = (y + 1.0).sum()
        z.backward()
        with ag.no_grad():
            x.mul_(10.0)  # after the leaf's value was taken
        x * 2.0  # a second op reading the leaf: its value is not taken again
    finally:
        state.listener = None
    leaf, ops, steps, again = listener.log[0], listener.log[1:4], listener.log[4:7], listener.log[7:]
    assert leaf[0] == id(x) and leaf[1].tolist() == [1.0, 2.0]
    assert [entry[3].tolist() for entry in ops] == [[3.0, 6.0], [4.0, 7.0], 11.0]
    assert ops[1][2] == [y.grad_fn._seq, None]  # the input's node, then the number
    assert [[g.tolist() for g in entry[1] if g is not None] for entry in steps] == \
        [[[1.0, 1.0]], [[1.0, 1.0]], [[3.0, 3.0]]]
    assert len(again) == 1 and again[0][3].tolist() == [20.0, 40.0]


def test_the_cnn_benchmark_prints_both_budget_rows(capsys, monkeypatch):
    import bench_cnn

    # tiny batches: this checks the report, not the speed
    lenet, makemore = bench_cnn.lenet_contenders, bench_cnn.makemore_contenders
    monkeypatch.setattr(bench_cnn, "lenet_contenders", lambda torch: lenet(torch, batch=2))
    monkeypatch.setattr(bench_cnn, "makemore_contenders", lambda torch: makemore(torch, batch=4, hidden=8))
    ratios = bench_cnn.main(["--quick"])
    out = capsys.readouterr().out
    assert "LeNet-5 training step" in out and "makemore MLP step" in out
    if ratios:  # with PyTorch installed: a ratio and a verdict per budget
        assert set(ratios) == set(bench_cnn.TARGETS)
        for row in bench_cnn.TARGETS:
            assert row in out
        assert "95% interval" in out
