"""``ag.backends.cudnn``: flags tutorials set before training. The engine's GPU path is
CuPy's, not cuDNN's, so the flags are kept (a tutorial may read them back) and change
nothing: a seed already gives the same numbers every run."""

enabled = True
benchmark = False
deterministic = False
allow_tf32 = True


def is_available() -> bool:
    """False: the engine calls no cuDNN kernel (its convolutions are matmuls)."""
    return False


def version():
    return None
