"""``ag.backends.mps``: Apple's Metal GPU, which the engine does not run on."""


def is_available() -> bool:
    return False


def is_built() -> bool:
    """False: the engine has no MPS backend (``device("mps")`` is refused)."""
    return False
