"""The phase ends a stack stayed wrong through (`ledger.PhaseRun`) grow by one name a phase end without
copying the names before; a run an undo put back reads only its own names, and grows from them."""
from validator.referee.ledger import OpenStack, PhaseRun


def test_a_run_grows_without_copying_and_each_reads_its_own_names():
    first = PhaseRun.of("Movement Phase of turn 1")
    second = first.plus("Combat Phase of turn 1")
    third = second.plus("Movement Phase of turn 2")
    assert third._names is first._names                      # one list, never copied while it only grows
    assert first.names() == ("Movement Phase of turn 1",) and len(second) == 2
    assert third.names() == ("Movement Phase of turn 1", "Combat Phase of turn 1", "Movement Phase of turn 2")


def test_a_run_put_back_by_an_undo_grows_from_its_own_names():
    first = PhaseRun.of("a")
    undone = first.plus("b")                                  # a phase end an undo took back
    again = first.plus("c")
    assert again.names() == ("a", "c") and undone.names() == ("a", "b") and first.names() == ("a",)
    assert again._names is not undone._names


def test_runs_compare_by_their_names():
    assert PhaseRun.of("a").plus("b") == PhaseRun(["a", "b", "c"], 2)
    assert PhaseRun.of("a") != PhaseRun.of("b")
    assert OpenStack("f", 3, PhaseRun.of("a")) == OpenStack("f", 3, PhaseRun(["a"], 1))
    assert hash(PhaseRun.of("a").plus("b")) == hash(PhaseRun(["a", "b"], 2))
