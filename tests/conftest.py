import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=int(os.environ.get("AG_HYPOTHESIS_EXAMPLES", "20")), deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    derandomize=bool(os.environ.get("CI")),
)
settings.load_profile("default")


@pytest.fixture(scope="module")
def ip():
    """IPython's test shell with the extension loaded (one shell per process, as IPython has)."""
    import builtins

    pytest.importorskip("anywidget")
    from IPython.testing import globalipapp

    import ag_jupyter as ag

    globalipapp.start_ipython()  # once per process; later calls return None
    shell = globalipapp.get_ipython()  # rebound to the shell by the first start
    # Python's own displayhook (doctests run earlier in the session) leaves a builtins._,
    # and IPython then never sets the user's `_`: a test artefact, not a notebook's situation.
    builtins.__dict__.pop("_", None)
    shell.run_cell("%load_ext ag_jupyter", store_history=True)
    shell.user_ns["ag"] = ag
    return shell


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


# Every test, in every module: each trace document it builds is validated against the
# schema when it ends, and it may not leave a listener in the engine's seam.
from trace_checks import checked_documents  # noqa: E402,F401
