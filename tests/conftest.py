import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=int(os.environ.get("AG_HYPOTHESIS_EXAMPLES", "20")), deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    derandomize=bool(os.environ.get("CI")),
)
settings.load_profile("default")


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


# Every test, in every module: each trace document it builds is validated against the
# schema when it ends, and it may not leave a listener in the engine's seam.
from trace_checks import checked_documents  # noqa: E402,F401
