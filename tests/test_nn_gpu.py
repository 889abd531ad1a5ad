"""nn, optim and save/load on an NVIDIA GPU (CuPy): the same numbers as on the CPU.
Skipped cleanly where no GPU answers."""
import numpy
import pytest

import ag_jupyter as ag
import ag_jupyter.nn.functional as F
from ag_jupyter import nn

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not ag.cuda.is_available(), reason="needs an NVIDIA GPU with CuPy")]


def mlp():
    ag.manual_seed(0)
    return nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 4)).double()


def data(seed=1):
    rng = numpy.random.default_rng(seed)
    return rng.normal(size=(32, 6)), rng.integers(0, 4, 32)


def close(a, b, rtol=1e-9):
    numpy.testing.assert_allclose(a.detach().cpu().numpy(), b.detach().cpu().numpy(), rtol=rtol, atol=1e-12)


def test_to_cuda_moves_every_parameter_and_buffer_in_place():
    model = mlp()
    loss_module = nn.CrossEntropyLoss(weight=ag.ones(4, dtype=ag.float64))
    weight = model[0].weight
    assert model.to("cuda") is model and loss_module.to("cuda") is loss_module
    assert model[0].weight is weight  # the same Parameter object, now on the GPU
    assert all(p.device.type == "cuda" for p in model.parameters())
    assert loss_module.weight.device.type == "cuda"
    assert model.cpu()[0].weight.device.type == "cpu"


@pytest.mark.parametrize("loss", ["cross_entropy", "nll_loss", "mse_loss"])
def test_forward_and_backward_match_the_cpu(loss):
    cpu, gpu = mlp(), mlp().to("cuda")
    x, y = data()
    results = []
    for model, device in ((cpu, "cpu"), (gpu, "cuda")):
        inputs = ag.tensor(x, dtype=ag.float64, device=device, requires_grad=True)
        out = model(inputs)
        if loss == "mse_loss":
            value = F.mse_loss(out, ag.zeros(32, 4, dtype=ag.float64, device=device))
        elif loss == "nll_loss":
            value = F.nll_loss(F.log_softmax(out, 1), ag.tensor(y, device=device))
        else:
            value = F.cross_entropy(out, ag.tensor(y, device=device), label_smoothing=0.1)
        value.backward()
        results.append((value, inputs.grad, [p.grad for p in model.parameters()]))
    (v_cpu, g_cpu, p_cpu), (v_gpu, g_gpu, p_gpu) = results
    close(v_cpu, v_gpu)
    close(g_cpu, g_gpu)
    for a, b in zip(p_cpu, p_gpu):
        assert b.device.type == "cuda"
        close(a, b)


@pytest.mark.parametrize("make", [lambda p: ag.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01),
                                  lambda p: ag.optim.Adam(p, lr=0.01, amsgrad=True, weight_decay=0.01)])
def test_optimizers_keep_state_on_the_gpu_and_match_the_cpu(make):
    x, y = data()
    finals = []
    for device in ("cpu", "cuda"):
        model = mlp().to(device)
        opt = make(model.parameters())
        inputs, targets = ag.tensor(x, dtype=ag.float64, device=device), ag.tensor(y, device=device)
        for _ in range(25):
            opt.zero_grad()
            F.cross_entropy(model(inputs), targets).backward()
            opt.step()
        for state in opt.state.values():
            for key, value in state.items():
                if key != "step":
                    assert value.device.type == device, key
        finals.append(list(model.parameters()))
    for a, b in zip(*finals):
        close(a, b, rtol=1e-7)  # cuBLAS and OpenBLAS round differently; 25 steps compound it


def test_dropout_and_init_on_the_gpu():
    ag.manual_seed(0)
    out = F.dropout(ag.ones(200, 500, device="cuda"), 0.3)
    assert out.device.type == "cuda"
    assert abs((out.cpu().numpy() == 0).mean() - 0.3) < 0.01
    layer = nn.Linear(50, 40, device="cuda")
    assert layer.weight.device.type == "cuda" and layer.weight.abs().max().item() <= 50 ** -0.5 + 1e-6
    nn.init.xavier_uniform_(layer.weight)
    layer.zero_grad(set_to_none=False)


def test_save_and_load_across_devices(tmp_path):
    model = mlp().to("cuda")
    path = tmp_path / "gpu.npz"
    ag.save(model.state_dict(), path)
    back = ag.load(path)
    assert back["0.weight"].device.type == "cuda"
    on_cpu = ag.load(path, map_location="cpu")
    assert on_cpu["0.weight"].device.type == "cpu"
    cpu_model = mlp()
    with ag.no_grad():
        for p in cpu_model.parameters():
            p.zero_()
    cpu_model.load_state_dict(back)  # GPU tensors copied into CPU parameters
    gpu_model = mlp().to("cuda")
    gpu_model.load_state_dict(on_cpu)  # and CPU tensors into GPU ones
    for a, b, c in zip(model.parameters(), cpu_model.parameters(), gpu_model.parameters()):
        close(a, b)
        close(a, c)


def test_train_digits_runs_on_the_gpu(tmp_path):
    pytest.importorskip("sklearn")
    import importlib.util
    import pathlib

    script = pathlib.Path(__file__).resolve().parent.parent / "examples" / "train_digits.py"
    spec = importlib.util.spec_from_file_location("train_digits_gpu", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    history = module.main(["--epochs", "3", "--device", "cuda", "--plot", str(tmp_path / "p.png"),
                           "--no-progress"])
    assert history["test_accuracy"][-1] > 0.8
    assert all(p.device.type == "cuda" for p in history["model"].parameters())


def test_issue_30_layers_match_the_cpu():
    """Embedding, BatchNorm1d (running statistics too), GELU, LayerNorm, SiLU and the BCE
    losses on the GPU give the CPU's numbers."""
    def build():
        ag.manual_seed(0)
        return nn.Sequential(nn.Embedding(11, 4, padding_idx=0), nn.Flatten(), nn.Linear(12, 8),
                             nn.BatchNorm1d(8), nn.GELU(), nn.Linear(8, 6), nn.LayerNorm(6), nn.SiLU(),
                             nn.Linear(6, 3)).double()

    cpu, gpu = build(), build().to("cuda")
    rng = numpy.random.default_rng(3)
    x, y = rng.integers(0, 11, (16, 3)), (rng.uniform(size=(16, 3)) > 0.5).astype(numpy.float64)
    results = []
    for model, device in ((cpu, "cpu"), (gpu, "cuda")):
        out = model(ag.tensor(x, device=device))
        loss = F.binary_cross_entropy_with_logits(out, ag.tensor(y, device=device)) + \
            F.binary_cross_entropy(out.sigmoid(), ag.tensor(y, device=device)) + \
            F.smooth_l1_loss(out, ag.tensor(y, device=device)) + F.huber_loss(out, ag.tensor(y, device=device))
        loss.backward()
        results.append((loss, [p.grad for p in model.parameters()], model[3].running_var))
    (l_cpu, g_cpu, v_cpu), (l_gpu, g_gpu, v_gpu) = results
    close(l_cpu, l_gpu)
    close(v_cpu, v_gpu)
    for a, b in zip(g_cpu, g_gpu):
        close(a, b, rtol=1e-7)
    assert F.one_hot(ag.tensor([0, 2], device="cuda")).device.type == "cuda"
