"""`@frozen`: a frozen, slotted dataclass, made for a fraction of what `@dataclass(frozen=True, slots=True)` costs.

`dataclass` writes Python source for six methods of every class (__init__, __repr__, __eq__, __hash__,
__setattr__, __delattr__) and compiles each one: for the model's classes that is most of the time
`hexforge check` spends importing it. Compiling them in one batch would not help (compiling costs by the
length of the source, not by the call). Here `dataclass` still reads the fields and makes the slots, so
`dataclasses.fields`, `replace`, `asdict`, `is_dataclass` and `__match_args__` work as they did; only
`__init__` is compiled (its signature is the fields'), as a loop rather than a line per field, once for
all classes of as many fields (its parameters renamed after each class's), and the other methods are
closures over the field names. Each does what dataclasses' own does: the same repr text, equality and
hash over the same tuple of field values, FrozenInstanceError on assignment, pickling by the same
state, `__post_init__` called last.
"""
from __future__ import annotations

import dataclasses
from dataclasses import MISSING, FrozenInstanceError
from functools import lru_cache
from operator import attrgetter
from reprlib import recursive_repr
from types import CodeType, FunctionType


@dataclasses.dataclass(frozen=True, slots=True)
class _Reference:
    """What `dataclasses` records of a frozen, slotted dataclass (its __dataclass_params__)."""


_PARAMS = _Reference.__dataclass_params__


class _Factory:
    """The default of a parameter left to its field's default_factory."""
    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"  # as dataclass shows it in a signature


_FACTORY = _Factory()
_UNSUPPORTED = "@frozen takes plain fields only (no InitVar, init=False, kw_only, or dataclass base)"


def frozen(cls):
    """The class as a frozen, slotted dataclass (what `@dataclass(frozen=True, slots=True)` makes)."""
    if any(dataclasses.is_dataclass(b) for b in cls.__mro__[1:]) or "__slots__" in cls.__dict__:
        raise TypeError(f"{cls.__name__}: {_UNSUPPORTED}")
    documented = bool(cls.__dict__.get("__doc__"))
    if not documented:
        cls.__doc__ = cls.__name__  # stands in until __init__ exists (dataclass would inspect it now)
    own = set(cls.__dict__)
    if "__setattr__" in own or "__delattr__" in own:
        raise TypeError(f"{cls.__name__}: a frozen class cannot define __setattr__ or __delattr__")
    if cls.__dict__.get("__hash__", MISSING) is None and "__eq__" in own:
        own.discard("__hash__")  # Python's implicit None beside an own __eq__: dataclass adds the hash
    cls = dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=True)
    fields = dataclasses.fields(cls)
    if len(fields) != len(cls.__dataclass_fields__) or any(not f.init or f.kw_only for f in fields):
        raise TypeError(f"{cls.__name__}: {_UNSUPPORTED}")
    cls.__dataclass_params__ = _PARAMS
    methods = {
        "__init__": _init(cls, fields),
        "__repr__": _repr([f.name for f in fields if f.repr]),
        "__eq__": _eq([f.name for f in fields if f.compare]),
        "__hash__": _hash([f.name for f in fields if (f.compare if f.hash is None else f.hash)]),
        "__setattr__": _setattr(cls, tuple(f.name for f in fields)),
        "__delattr__": _delattr(cls, tuple(f.name for f in fields)),
        "__getstate__": _getstate,
        "__setstate__": _setstate,
    }
    for name, method in methods.items():
        if name not in own:  # as dataclass: a method the class writes itself is kept
            if name not in ("__getstate__", "__setstate__"):
                method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)
    if not documented:
        cls.__doc__ = _signature_doc(cls)
    return cls


def _values(names):
    """A function giving the tuple of these attributes of an object (always a tuple, as dataclass compares)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _init(cls, fields):
    """__init__ with the fields as parameters (their defaults its defaults), setting each slot in turn."""
    defaults, factories = [], {}
    for i, f in enumerate(fields):
        if f.default_factory is not MISSING:
            factories[i] = f.default_factory
            defaults.append(_FACTORY)
        elif f.default is not MISSING:
            defaults.append(f.default)
        elif defaults:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")
    code = _init_code(len(fields), tuple(factories), hasattr(cls, "__post_init__"))
    code = code.replace(co_varnames=("__self", *(f.name for f in fields), *code.co_varnames[1 + len(fields):]),
                        co_qualname=f"{cls.__qualname__}.__init__", co_filename=f"<frozen {cls.__qualname__}.__init__>")
    namespace = {"__FACTORY": _FACTORY, "__factories": factories, "__zip": zip,
                 "__puts": tuple(cls.__dict__[f.name].__set__ for f in fields)}
    init = FunctionType(code, namespace, "__init__", tuple(defaults) or None)
    init.__annotations__ = {**{f.name: f.type for f in fields}, "return": None}
    return init


@lru_cache(maxsize=None)
def _init_code(arity: int, factories: tuple[int, ...], post_init: bool) -> CodeType:
    """The code of an __init__ of `arity` fields, its parameters named _0, _1 ... until `_init` names them
    after the fields: one compilation per shape of class, not per class (compiling is most of the cost).
    Its own names start with __ so that no field name (`value`, `zip`, `self`) can shadow them."""
    params = [f"_{i}" for i in range(arity)]
    lines = [f" if _{i} is __FACTORY: _{i} = __factories[{i}]()" for i in factories]
    lines.append(f" for __put, __value in __zip(__puts, ({''.join(p + ', ' for p in params)})): __put(__self, __value)")
    if post_init:
        lines.append(" __self.__post_init__()")
    namespace: dict = {}
    exec(compile(f"def __init__(__self{''.join(', ' + p for p in params)}):\n" + "\n".join(lines) + "\n",
                 "<frozen __init__>", "exec"), namespace)
    return namespace["__init__"].__code__


def _repr(names):
    shown = _values(names)
    template = "(" + ", ".join(f"{name}=%r" for name in names) + ")"   # %r is repr(), as dataclass's !r

    @recursive_repr()
    def __repr__(self):
        return self.__class__.__qualname__ + template % shown(self)
    return __repr__


def _eq(names):
    compared = _values(names)

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return compared(self) == compared(other)
        return NotImplemented
    return __eq__


def _hash(names):
    hashed = _values(names)

    def __hash__(self):
        return hash(hashed(self))
    return __hash__


def _setattr(cls, names):
    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)
    return __setattr__


def _delattr(cls, names):
    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)
    return __delattr__


def _getstate(self):
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def _setstate(self, state):
    for f, value in zip(dataclasses.fields(self), state):
        object.__setattr__(self, f.name, value)  # the class is frozen


def _signature_doc(cls) -> str:
    """The docstring dataclass gives a class that has none: its name and signature."""
    import inspect
    try:
        return cls.__name__ + str(inspect.signature(cls)).replace(" -> None", "")
    except (TypeError, ValueError):
        return cls.__name__
