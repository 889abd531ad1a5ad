"""The Module API: registration, traversal order and names, modes, hooks, repr, devices."""
import copy

import pytest

import ag_jupyter as ag
from ag_jupyter import nn
from ag_jupyter.autograd import state


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.scale = nn.Parameter(ag.ones(1))
        self.register_buffer("count", ag.zeros(1))
        self.register_buffer("scratch", ag.zeros(2), persistent=False)

    def forward(self, x):
        return self.fc(x) * self.scale


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.alpha = nn.Parameter(ag.zeros(2))
        self.fc_1 = nn.Linear(2, 3)
        self.block = Block()
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(3, 1))
        self.beta = nn.Parameter(ag.zeros(1))

    def forward(self, x):
        return self.head(self.block(self.fc_1(x + self.alpha))) + self.beta


def test_named_parameters_follow_pytorch_order_and_names():
    names = [name for name, _ in Net().named_parameters()]
    # own parameters first (in assignment order), then each child's, depth first
    assert names == ["alpha", "beta", "fc_1.weight", "fc_1.bias", "block.scale", "block.fc.weight",
                     "block.fc.bias", "head.1.weight", "head.1.bias"]
    net = Net()
    assert [p for p in net.parameters()] == [p for _, p in net.named_parameters()]
    assert [n for n, _ in net.named_parameters(prefix="model")][0] == "model.alpha"
    assert [n for n, _ in net.named_parameters(recurse=False)] == ["alpha", "beta"]


def test_named_parameters_match_torch():
    torch = pytest.importorskip("torch")

    class TorchNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.alpha = torch.nn.Parameter(torch.zeros(2))
            self.fc_1 = torch.nn.Linear(2, 3)
            self.block = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Tanh(), torch.nn.Linear(3, 3))
            self.beta = torch.nn.Parameter(torch.zeros(1))

    class AgNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.alpha = nn.Parameter(ag.zeros(2))
            self.fc_1 = nn.Linear(2, 3)
            self.block = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 3))
            self.beta = nn.Parameter(ag.zeros(1))

    ours, theirs = AgNet(), TorchNet()
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert [n for n, _ in ours.named_modules()] == [n for n, _ in theirs.named_modules()]
    assert [n for n, _ in ours.named_children()] == [n for n, _ in theirs.named_children()]


def test_shared_parameters_and_modules_appear_once():
    net = nn.Module()
    layer = nn.Linear(2, 2)
    net.first = layer
    net.second = layer
    assert [n for n, _ in net.named_parameters()] == ["first.weight", "first.bias"]
    assert len(list(net.modules())) == 2
    assert list(net.state_dict()) == ["first.weight", "first.bias", "second.weight", "second.bias"]


def test_children_modules_buffers_and_state_dict_keys():
    net = Net()
    assert [type(m).__name__ for m in net.children()] == ["Linear", "Block", "Sequential"]
    assert [n for n, _ in net.named_modules()] == ["", "fc_1", "block", "block.fc", "head", "head.0", "head.1"]
    assert [n for n, _ in net.named_buffers()] == ["block.count", "block.scratch"]
    assert list(net.state_dict()) == [
        "alpha", "beta", "fc_1.weight", "fc_1.bias", "block.scale", "block.count", "block.fc.weight",
        "block.fc.bias", "head.1.weight", "head.1.bias"]  # the non-persistent buffer is not saved
    value = net.state_dict()["fc_1.weight"]
    assert value.grad_fn is None and not value.requires_grad
    assert value._data is net.fc_1.weight._data  # shares memory, as in PyTorch
    assert net.state_dict(keep_vars=True)["fc_1.weight"] is net.fc_1.weight
    assert net.get_submodule("block.fc") is net.block.fc


def test_attribute_registration_rules():
    net = Net()
    with pytest.raises(TypeError, match=r"cannot assign 'ag.FloatTensor' as parameter 'alpha'"):
        net.alpha = ag.zeros(2)
    net.alpha = None
    assert "alpha" not in dict(net.named_parameters())
    net.plain = 3  # an ordinary attribute
    assert net.plain == 3 and "plain" not in dict(net.named_parameters())
    net.block.count = ag.ones(1)
    assert net.state_dict()["block.count"].tolist() == [1.0]
    del net.fc_1
    assert "fc_1.weight" not in net.state_dict()
    with pytest.raises(AttributeError, match="'Net' object has no attribute 'missing'"):
        net.missing  # noqa: B018 - the lookup itself must raise

    class Forgetful(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(ag.zeros(1))

    with pytest.raises(AttributeError, match=r"before Module.__init__\(\) call"):
        Forgetful()
    with pytest.raises(KeyError, match="contain"):
        nn.Module().register_buffer("a.b", ag.zeros(1))


def test_parameter_basics():
    p = nn.Parameter(ag.ones(2))
    assert p.requires_grad and p.is_leaf and isinstance(p, ag.Tensor)
    assert repr(p) == "Parameter containing:\ntensor([1., 1.], requires_grad=True)"
    assert not nn.Parameter(ag.ones(2), requires_grad=False).requires_grad
    data = ag.ones(3)
    assert nn.Parameter(data)._data is data._data  # no copy
    with pytest.raises(RuntimeError, match="floating point"):
        nn.Parameter(ag.tensor([1, 2]))
    y = p * 2
    assert type(y) is ag.Tensor and y.grad_fn.name() == "MulBackward0"
    clone = copy.deepcopy(p)
    assert type(clone) is nn.Parameter and clone._data is not p._data and clone.tolist() == [1.0, 1.0]


def test_deepcopy_of_a_model_is_independent():
    net = Net()
    twin = copy.deepcopy(net)
    with ag.no_grad():
        twin.fc_1.weight.fill_(0.0)
    assert net.fc_1.weight.abs().sum().item() > 0
    assert isinstance(twin.fc_1.weight, nn.Parameter)


def test_repr_matches_pytorch_format():
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Dropout(0.2), nn.Linear(3, 1, bias=False),
                          nn.Sequential(nn.Tanh(), nn.Sigmoid()), nn.MSELoss())
    expected = (
        "Sequential(\n"
        "  (0): Linear(in_features=4, out_features=3, bias=True)\n"
        "  (1): ReLU()\n"
        "  (2): Dropout(p=0.2, inplace=False)\n"
        "  (3): Linear(in_features=3, out_features=1, bias=False)\n"
        "  (4): Sequential(\n"
        "    (0): Tanh()\n"
        "    (1): Sigmoid()\n"
        "  )\n"
        "  (5): MSELoss()\n"
        ")")
    assert repr(model) == expected
    torch = pytest.importorskip("torch")
    theirs = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Dropout(0.2),
                                 torch.nn.Linear(3, 1, bias=False),
                                 torch.nn.Sequential(torch.nn.Tanh(), torch.nn.Sigmoid()), torch.nn.MSELoss())
    assert repr(theirs) == expected
    assert repr(nn.ReLU(inplace=True)) == repr(torch.nn.ReLU(inplace=True))
    assert repr(nn.CrossEntropyLoss()) == "CrossEntropyLoss()"


def test_sequential_indexing_len_iteration_slicing():
    a, b, c = nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)
    model = nn.Sequential(a, b, c)
    assert len(model) == 3 and model[0] is a and model[-1] is c and list(model) == [a, b, c]
    tail = model[1:]
    assert isinstance(tail, nn.Sequential) and list(tail) == [b, c]
    assert [n for n, _ in tail.named_children()] == ["1", "2"]  # keys kept, as PyTorch does
    with pytest.raises(IndexError, match="index 3 is out of range"):
        model[3]
    x = ag.randn(4, 2)
    assert model(x).allclose(c(b(a(x))))
    model.append(nn.Tanh())
    assert len(model) == 4 and [n for n, _ in model.named_children()][-1] == "3"
    del model[0]
    assert [n for n, _ in model.named_children()] == ["0", "1", "2"] and model[0] is b
    from collections import OrderedDict

    named = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.ReLU())]))
    assert [n for n, _ in named.named_parameters()] == ["fc.weight", "fc.bias"]


def test_module_list_registers_its_modules():
    layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    holder = nn.Module()
    holder.layers = layers
    assert len(list(holder.parameters())) == 6
    assert [n for n, _ in holder.named_parameters()][:2] == ["layers.0.weight", "layers.0.bias"]
    assert len(layers[1:]) == 2 and layers[-1] is list(layers)[2]


def test_train_eval_propagate():
    net = Net()
    net.head.append(nn.Dropout(0.5))
    assert all(m.training for m in net.modules())
    assert net.eval() is net
    assert not any(m.training for m in net.modules())
    net.train()
    assert all(m.training for m in net.modules())
    net.block.train(False)
    assert net.training and not net.block.fc.training


def test_zero_grad_set_to_none_and_zeros():
    net = Net()
    net(ag.randn(4, 2)).sum().backward()
    assert all(p.grad is not None for p in net.parameters())
    grad = net.fc_1.weight.grad
    net.zero_grad(set_to_none=False)
    assert grad is net.fc_1.weight.grad and grad.abs().sum().item() == 0  # zeroed in place
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())


def test_forward_hooks_and_removal():
    layer = nn.Linear(2, 2)
    calls = []
    pre = layer.register_forward_pre_hook(lambda m, args: (args[0] * 0,))
    post = layer.register_forward_hook(lambda m, args, out: calls.append((m, args[0].tolist())) or out + 1)
    out = layer(ag.ones(1, 2))
    assert calls[0][0] is layer and calls[0][1] == [[0.0, 0.0]]
    assert out.allclose(layer.bias + 1)
    pre.remove()
    post.remove()
    plain = layer(ag.ones(1, 2))
    assert len(calls) == 1 and plain.allclose(ag.ones(1, 2) @ layer.weight.T + layer.bias)
    with layer.register_forward_hook(lambda m, a, o: o * 0):
        assert layer(ag.ones(1, 2)).abs().sum().item() == 0
    assert layer(ag.ones(1, 2)).allclose(plain)


def test_module_to_dtype_keeps_parameter_objects():
    net = Net()
    weight = net.fc_1.weight
    optimizer = ag.optim.SGD(net.parameters(), lr=0.1)
    net.double()
    assert net.fc_1.weight is weight and weight.dtype == ag.float64
    assert net.block.count.dtype == ag.float64
    net(ag.randn(2, 2, dtype=ag.float64)).sum().backward()
    optimizer.step()  # the optimizer still holds the same (converted) parameters
    assert net.to("cpu") is net
    with pytest.raises(TypeError, match="floating point"):
        net.to(ag.int64)


def test_apply_and_requires_grad():
    net = Net()
    seen = []
    net.apply(lambda m: seen.append(type(m).__name__))
    assert seen[-1] == "Net" and seen.count("Linear") == 3
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())


class Recorder:
    """A listener that records module scopes (the rest of the seam does nothing)."""

    def __init__(self):
        self.events = []

    def on_module_enter(self, path, module):
        self.events.append(("enter", path))

    def on_module_exit(self, path, module):
        self.events.append(("exit", path))

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


@pytest.fixture
def recorder():
    listener = Recorder()
    state.listener = listener
    try:
        yield listener
    finally:
        state.listener = None


def test_scope_paths_reach_the_listener(recorder):
    net = Net()
    net(ag.randn(2, 2))
    entered = [path for kind, path in recorder.events if kind == "enter"]
    assert entered == ["Net", "Net.fc_1", "Net.block", "Net.block.fc", "Net.head", "Net.head.0", "Net.head.1"]
    assert recorder.events[-1] == ("exit", "Net")
    assert recorder.events.count(("exit", "Net.block.fc")) == 1


def test_scope_paths_for_reused_and_foreign_modules(recorder):
    outsider = nn.Tanh()

    class Reuse(nn.Module):
        def __init__(self):
            super().__init__()
            self.middle = nn.Linear(2, 2)

        def forward(self, x):
            for _ in range(2):
                x = self.middle(x)
            return outsider(x)

    Reuse()(ag.randn(1, 2))
    entered = [path for kind, path in recorder.events if kind == "enter"]
    assert entered == ["Reuse", "Reuse.middle", "Reuse.middle", "Reuse.Tanh"]


def test_scope_paths_of_grandchildren_and_of_a_module_the_forward_adds(recorder):
    """A forward that calls its ModuleList's blocks names each by its dotted path (the names
    are gathered once per call, not walked per block), and a block the forward adds to its
    tree is named too; after the call nothing of those names stays behind."""

    class Deep(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])

        def forward(self, x):
            for block in self.blocks:
                x = block(x)
            self.blocks.append(nn.Tanh())
            return self.blocks[-1](x)

    model = Deep()
    model(ag.randn(1, 2))
    model(ag.randn(1, 2))
    entered = [path for kind, path in recorder.events if kind == "enter"]
    assert entered == ["Deep", "Deep.blocks.0", "Deep.blocks.1", "Deep.blocks.2", "Deep.blocks.3",
                       "Deep", "Deep.blocks.0", "Deep.blocks.1", "Deep.blocks.2", "Deep.blocks.3", "Deep.blocks.4"]
    from ag_jupyter.nn import hooks

    assert hooks._descendants == {}


def test_scope_exit_is_reported_when_forward_raises(recorder):
    model = nn.Sequential(nn.Linear(2, 2), nn.Linear(3, 1))
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        model(ag.randn(1, 2))
    assert recorder.events[-2:] == [("exit", "Sequential.1"), ("exit", "Sequential")]
    from ag_jupyter.nn import hooks

    assert hooks._running == []
