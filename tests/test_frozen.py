"""`@frozen` (validator/source/frozen.py) makes what `@dataclass(frozen=True, slots=True)` makes: every behaviour a
caller can see is compared here between the two, class by class, on the same definitions."""
from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from dataclasses import dataclass, field
from typing import Optional

import pytest

from validator.source import model
from validator.source.frozen import frozen
from validator.source.model import Loc


def _both(body: dict, doc: Optional[str] = "A value."):
    """The same class definition made by dataclass (class `Made`) and by @frozen (class `Frozen`), both
    module globals so that pickle finds them; their reprs differ only by that name."""
    def make(decorate, name):
        ns = {"__module__": __name__, "__qualname__": name, **body}
        if doc is not None:
            ns["__doc__"] = doc
        globals()[name] = cls = decorate(type(name, (), ns))
        return cls
    return make(dataclass(frozen=True, slots=True), "Made"), make(frozen, "Frozen")


def _same_repr(a, b) -> bool:
    return repr(a).replace("Made(", "Frozen(") == repr(b)


PLAIN = {"__annotations__": {"id": "str", "count": "int", "where": "Loc", "tags": "tuple[str, ...]"},
         "count": 1, "where": Loc("x.yaml", 3, 4), "tags": ()}
FACTORY = {"__annotations__": {"id": "str", "extra": "dict", "hidden": "dict", "value": "int"},
           "extra": field(default_factory=dict), "hidden": field(default_factory=dict, compare=False, repr=False),
           "value": 0}


@pytest.mark.parametrize("body,args", [(PLAIN, ("a",)), (PLAIN, ("a", 2, Loc("y.yaml"), ("t",))),
                                       (FACTORY, ("a",)), (FACTORY, ("a", {"k": 1}, {"h": 2}, 5))])
def test_same_values_behave_the_same(body, args):
    dc, fz = _both(body)
    a, b = dc(*args), fz(*args)
    assert _same_repr(a, b)
    assert [f.name for f in dataclasses.fields(a)] == [f.name for f in dataclasses.fields(b)]
    assert dataclasses.asdict(a) == dataclasses.asdict(b)
    assert dataclasses.astuple(a) == dataclasses.astuple(b)
    assert fz.__match_args__ == dc.__match_args__
    assert fz.__slots__ == dc.__slots__ and not hasattr(b, "__dict__")
    assert fz.__dataclass_params__.frozen and fz.__dataclass_params__.eq
    assert str(inspect.signature(fz)) == str(inspect.signature(dc))
    assert b == fz(*args) and b != dc(*args) and a != b   # equality is within one class only
    changed = dataclasses.replace(b, id="other")
    assert changed.id == "other" and changed != b and _same_repr(dataclasses.replace(a, id="other"), changed)
    for c in (pickle.loads(pickle.dumps(b)), copy.deepcopy(b), copy.copy(b)):
        assert c == b and repr(c) == repr(b)
    if body is PLAIN:
        assert hash(a) == hash(b) == hash(fz(*args))
    else:
        with pytest.raises(TypeError):
            hash(b)   # a dict field: unhashable, as dataclass's
        assert fz("a", {}, {"h": 1}) == fz("a", {}, {"h": 2})  # compare=False is left out of equality
        assert fz("a").extra is not fz("a").extra            # a fresh default each time


def test_assigning_or_deleting_a_field_fails_as_dataclass_does():
    dc, fz = _both(PLAIN)
    for obj in (dc("a"), fz("a")):
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'id'"):
            obj.id = "b"
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'count'"):
            del obj.count
    # an attribute that is no field: FrozenInstanceError, as documented; dataclass's slotted classes raise
    # TypeError from super() here instead (Python 3.11 and 3.12: their __setattr__ names the class before
    # slots were added)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'other'"):
        fz("a").other = 1
    with pytest.raises(TypeError):
        dc("a").other = 1


def test_wrong_calls_fail_as_dataclass_does():
    dc, fz = _both(PLAIN)
    for cls in (dc, fz):
        with pytest.raises(TypeError):
            cls()
        with pytest.raises(TypeError):
            cls("a", nope=1)
        assert cls(id="a", tags=("x",)).tags == ("x",)


def test_post_init_runs_last_and_own_methods_are_kept():
    def check(self):
        if self.count < 0:
            raise ValueError("negative")
    body = {**PLAIN, "__post_init__": check, "__repr__": lambda self: f"<{self.id}>"}
    dc, fz = _both(body)
    for cls in (dc, fz):
        assert repr(cls("a")) == "<a>"
        with pytest.raises(ValueError):
            cls("a", -1)


def test_a_class_without_docstring_gets_dataclass_docstring():
    dc, fz = _both(PLAIN, doc=None)
    assert fz.__doc__.replace("Frozen(", "Made(") == dc.__doc__
    assert fz.__doc__.startswith("Frozen(id: 'str', count: 'int' = 1, where: 'Loc' = Loc(file='x.yaml'")


def test_field_names_that_the_generated_init_uses_itself_are_plain_fields():
    body = {"__annotations__": {"value": "int", "zip": "int", "put": "int"}}
    dc, fz = _both(body)
    assert _same_repr(dc(1, 2, 3), fz(1, 2, 3)) and repr(fz(1, 2, 3)) == "Frozen(value=1, zip=2, put=3)"


def test_a_field_without_default_after_one_with_default_is_refused():
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        _both({"__annotations__": {"a": "int", "b": "int"}, "a": 0})


def test_recursive_repr_is_cut_as_dataclass_cuts_it():
    dc, fz = _both({"__annotations__": {"items": "list"}})
    for cls in (dc, fz):
        items: list = []
        obj = cls(items)
        items.append(obj)
        assert repr(obj) == f"{cls.__name__}(items=[...])"


def test_every_model_class_is_frozen_slotted_and_documented():
    classes = [c for c in vars(model).values() if isinstance(c, type) and dataclasses.is_dataclass(c)
               and c.__module__ == model.__name__]
    assert len(classes) > 50
    for cls in classes:
        assert cls.__dataclass_params__.frozen and "__slots__" in cls.__dict__, cls
        assert cls.__doc__ and not cls.__doc__.startswith(cls.__name__ + "("), f"{cls.__name__} has no docstring"
