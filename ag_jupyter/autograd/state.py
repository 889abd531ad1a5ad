"""Process-wide autograd state: grad mode and the observer seam.

``listener`` is the engine's one observer seam (Chainer's function hooks are the
model). It is ``None`` unless a tracer is active, so the cost on every op is one
``is None`` check. The engine never imports whoever listens; a listener is any
``autograd.listener.Listener`` (whose callbacks do nothing by default and pass
everything on to the listener it replaced). The callbacks:

- ``on_leaf(tensor)``: a creation function made a tensor (``ag.tensor``, ``randn``...)
  or ``requires_grad_()`` turned one into a differentiable leaf;
- ``on_op(node, inputs, output)``: an op ran and recorded ``node`` (its ``grad_fn``);
  ``inputs`` are the op's arguments as given (tensors or Python scalars);
- ``on_op_error(op_name, inputs, error)``: an op raised; nothing was recorded;
- ``on_backward_begin(roots)``, ``on_backward_step(step)``,
  ``on_accumulate(tensor, grad)``, ``on_backward_end(completed)``: the backward pass;
- ``on_module_enter(path, module)`` / ``on_module_exit(path, module)``: an
  ``nn.Module`` forward starts and ends (``path`` is its dotted name);
- ``on_read(tensor)``: Python read a tensor's value (``item()``, ``bool()``, ``tolist()``), so
  code after it may have branched on it (a replay of the graph cannot take the other branch);
- ``on_update(param, update)``: an optimizer's ``step()`` changed ``param``; ``update`` is a
  dict of the optimizer's own numbers (``optim/optimizer.py``'s ``report_update``);
- ``on_grads_cleared(params, set_to_none)``: ``zero_grad()`` forgot these parameters' gradients.
"""
grad_enabled = True
listener = None
