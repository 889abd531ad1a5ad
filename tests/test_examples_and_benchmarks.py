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
    import bench_engine

    ops = bench_engine.chain_ops(20)
    values = np.linspace(0.1, 0.9, 4).astype(np.float32)
    import ag_jupyter as ag

    x = ag.tensor(values, requires_grad=True)
    bench_engine.chain_framework(x, ops)
    np.testing.assert_allclose(x.grad.numpy(), bench_engine.chain_numpy(values, ops), rtol=1e-4)
    for contenders in (bench_engine.chain_contenders(4, 7), bench_engine.mlp_contenders(),
                       bench_engine.matmul_contenders(8)):
        for run in contenders.values():
            run()


def test_gpu_benchmark_contenders_do_the_same_work_on_numpy():
    # bench_gpu's workloads run on any array module: on NumPy and the CPU here, each
    # contender's result must equal the hand-written reference's.
    import bench_gpu

    chain = bench_gpu.chain_contenders(np, None, count=7, device="cpu")
    np.testing.assert_allclose(chain["ag_jupyter"]().numpy(), chain["raw CuPy"](), rtol=1e-5)
    mlp = bench_gpu.mlp_contenders(np, None, batch=16, device="cpu")
    expected = mlp.pop("raw CuPy")()
    for name, step in mlp.items():
        for got, want in zip(step(), expected):
            np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-4, atol=1e-6, err_msg=name)


def test_gpu_benchmark_says_so_without_a_gpu(capsys):
    import bench_gpu

    import ag_jupyter as ag

    if ag.cuda.is_available():
        return  # measured on a GPU machine instead
    bench_gpu.main(["--quick"])
    assert "no usable GPU" in capsys.readouterr().out
