"""Each op's line carries the calling instruction's bytecode offset (frame.f_lasti), so the
front end tells one line's several ops from the same instruction running again (a loop)."""
import ag_jupyter as ag
from ag_jupyter.tracing import schema


def ops_of(cell: str) -> list:
    with ag.trace() as tr:
        exec(compile(cell, "<cell>", "exec"), {"ag": ag})  # noqa: S102 - a learner's cell
    doc = tr.to_dict()
    schema.validate(doc)
    return [(n["op"], n["line"]["lineno"], n["line"]["offset"]) for n in doc["nodes"] if n["kind"] == "op"]


def test_two_products_of_one_line_have_their_own_offsets():
    (mul1, line1, at1), (mul2, line2, at2), (add, _, at3) = ops_of(
        "x = ag.tensor(2.0, requires_grad=True)\ny = x * x + 3 * x\n")
    assert (mul1, mul2, add) == ("MulBackward0", "MulBackward0", "AddBackward0")
    assert line1 == line2 and len({at1, at2, at3}) == 3


def test_a_loop_runs_the_same_instruction_again():
    found = ops_of("x = ag.tensor(2.0, requires_grad=True)\ny = x\nfor _ in range(3):\n    y = y * 2\n")
    assert len(found) == 3 and len(set(found)) == 1, found


def test_a_line_table_makes_each_lines_dict_once_and_keeps_its_code_alive():
    """Records share one dict per line; the table is keyed by the code object's identity, so
    it keeps the code object: a new one made after the old is dropped cannot take its id
    and be read as the old line."""
    import gc

    from ag_jupyter.tracing.source_lines import LineTable
    table = LineTable()
    code = compile("x = 1\ny = 2\n", "<cell-7>", "exec")
    second_line = next(start for start, _, lineno in code.co_lines() if lineno == 2)
    first = table.json((code, second_line))
    assert table.json((code, second_line)) is first
    assert (first["file"], first["lineno"], first["function"]) == ("<cell-7>", 2, "<module>")
    del code
    gc.collect()
    for n in range(50):  # made where the first one's memory would be, were it freed
        other = compile("z = 3\n", f"<cell-{n + 8}>", "exec")
        assert table.json((other, 0))["file"] == f"<cell-{n + 8}>"
    assert table.json(None) is None
