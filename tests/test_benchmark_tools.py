"""The tools for finding where the time goes (benchmarks/where_time_goes.py) and whether a
change is faster (benchmarks/compare_commits.py) run, count what they say they count, and
leave the engine and the repository as they found them."""
import importlib
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))


def test_where_time_goes_counts_each_node_of_a_step_and_puts_the_engine_back(capsys):
    import where_time_goes

    from ag_jupyter.autograd import engine
    from ag_jupyter.ops.binary import Binary

    tensor = importlib.import_module("ag_jupyter.tensor")  # the module: ag_jupyter.tensor is the function
    binary_backward, run_backward = Binary.__dict__["backward"], tensor.run_backward
    found = where_time_goes.main(["W1", "--steps", "20"])
    # W1's chain: 20 ops (add, mul, exp, log, tanh, div, sub, ...) and the sum
    assert sum(found["node_calls"].values()) == 21
    assert found["node_calls"]["MulBackward0"] == 3 and found["node_calls"]["SumBackward0"] == 1
    assert 0 < found["backward"] < found["step"]
    assert abs(found["engine"] + sum(found["nodes"].values()) - found["backward"]) < 1e-12
    assert "the engine around the nodes" in capsys.readouterr().out
    assert Binary.__dict__["backward"] is binary_backward and tensor.run_backward is run_backward is engine.run_backward


def test_compare_commits_times_both_versions_and_removes_its_worktree():
    import compare_commits

    def worktrees():
        return subprocess.run(["git", "worktree", "list"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout
    before = worktrees()
    results = compare_commits.compare("HEAD", rounds=1, quick=True)
    assert set(results) == {"W1", "W2", "W2-nn", "W3", "W5", "W2 traced", "W3 traced"}
    assert all(before_s > 0 and after_s > 0 for before_s, after_s in results.values())
    assert worktrees() == before


def test_compare_commits_times_a_commit_against_itself_taking_turns_at_going_first(monkeypatch):
    import compare_commits

    order = []

    def fake_time(tree, quick):
        order.append(tree)
        return {"W1": 1.0 + len(order)}  # later processes slower: each side keeps its fastest
    monkeypatch.setattr(compare_commits, "_time", fake_time)
    results = compare_commits.compare("HEAD", "HEAD", rounds=3)
    base, other = order[0], order[1]
    assert base != other and os.path.basename(base).startswith("base-")  # two worktrees of one commit
    assert order == [base, other, other, base, base, other]
    assert results == {"W1": (2.0, 3.0)}
    assert not os.path.exists(base) and not os.path.exists(other)


def test_compare_commits_refuses_to_time_a_copy_of_ag_jupyter_from_elsewhere(tmp_path):
    import compare_commits

    # a tree without the package: the import would find another copy (or none), never its own
    with pytest.raises((RuntimeError, subprocess.CalledProcessError)):
        compare_commits._time(str(tmp_path), quick=True)


def test_bench_tracing_times_the_document_of_a_traced_step(capsys):
    import bench_tracing

    import ag_jupyter as ag

    x = ag.ones(3, requires_grad=True)
    steps = []

    def step():
        (x * 2).sum().backward()
        x.grad = None
        steps.append(1)

    cost = bench_tracing.document_cost("tiny", step, 1e-3, rounds=3)
    assert cost > 0 and len(steps) == 3  # one traced step per round, each with its own trace
    assert "tiny: building the document (to_dict)" in capsys.readouterr().out


def test_the_interval_of_a_median_is_the_sign_tests_order_statistics():
    from timing import median_interval

    # 21 values: P(Binomial(21, 1/2) <= 5) = 0.013 and P(<= 6) = 0.039, so at 95% the
    # interval runs from the 6th smallest to the 6th largest (ranks 6 and 16)
    values = [float(v) for v in range(21, 0, -1)]
    assert median_interval(values) == (11.0, 6.0, 16.0)
    # 5 values cannot reach 95% (P(all 5 on one side) = 0.031 > 0.025): the whole range
    assert median_interval([5.0, 1.0, 3.0, 2.0, 4.0]) == (3.0, 1.0, 5.0)
    assert median_interval([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0], 0.5)[1:] == (4.0, 7.0)


def test_a_target_is_met_or_missed_only_when_the_whole_interval_says_so():
    from timing import paired_ratio, verdict

    samples = {"ours": [2.0, 4.2, 2.1, 4.0, 2.0, 4.1], "reference": [1.0, 2.0, 1.0, 2.0, 1.0, 2.0]}
    ratio, low, high = paired_ratio(samples, "ours", "reference")  # repeat by repeat: 2.0 .. 2.1
    assert (low, high) == (2.0, 2.1) and 2.0 <= ratio <= 2.1
    assert verdict(low, high, 2.1) == "met"
    assert verdict(low, high, 2.05) == "within noise"
    assert verdict(low, high, 1.99) == "NOT met"


def test_lab_profile_puts_each_sample_in_its_slice_under_the_phase_on_its_stack(capsys):
    """benchmarks/lab_profile.py's reading of a CDP profile: a sample's time goes to the 100 ms
    slice it falls in (from the key press), named by the known function on its stack."""
    import lab_profile

    def frame(node_id, name, children=()):
        return {"id": node_id, "callFrame": {"functionName": name}, "children": list(children)}

    nodes = [frame(1, "(root)", [2, 4]), frame(2, "indexTrace", [3]), frame(3, "push"), frame(4, "(idle)")]
    # samples at 40, 80, 140, 200 and 240 ms: idle, idle, push (under indexTrace) twice, idle
    profile = {"nodes": nodes, "samples": [4, 4, 3, 3, 4], "timeDeltas": [40_000, 40_000, 60_000, 60_000, 40_000]}
    lab_profile.page_report(profile, key_at_ms=50.0)  # the first sample is before the key: left out
    out = capsys.readouterr().out.splitlines()
    slices = [line.split(None, 1) for line in out[1:3]]
    assert slices == [["0", "indexTrace 60, (idle) 40"], ["100", "indexTrace 60, (idle) 40"]]
    assert out[3] == "longest (inclusive ms):" and out[4:6] == ["    120.0 push", "    120.0 indexTrace"]
