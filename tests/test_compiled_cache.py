"""The on-disk cache of compiled schema validators: a hit skips compilation, any change misses, and a
broken or unwritable cache costs only time, never a wrong verdict."""
from __future__ import annotations

import fastjsonschema
import pytest

from validator.source import compiled, schemas
SCHEMA = {"type": "object", "properties": {"steps": {"type": "integer"}}, "required": ["steps"]}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HEXFORGE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _refuses(validate, data) -> bool:
    try:
        validate(data)
    except fastjsonschema.JsonSchemaException:
        return True
    return False


def _count_compiles(monkeypatch) -> list:
    calls: list = []
    real = compiled._compile

    def counting(schema, name):
        calls.append(name)
        return real(schema, name)
    monkeypatch.setattr(compiled, "_compile", counting)
    return calls


def test_second_load_is_a_hit_and_validates_alike(cache, monkeypatch):
    calls = _count_compiles(monkeypatch)
    first = compiled.load_validator(SCHEMA, "t")
    second = compiled.load_validator(SCHEMA, "t")
    assert calls == ["t"]
    assert [p.name for p in cache.iterdir()] == [compiled.entry_path(SCHEMA, "t").name]
    for v in (first, second):
        assert not _refuses(v, {"steps": 2})
        assert _refuses(v, {"steps": "two"}) and _refuses(v, {})


def test_changed_schema_misses_and_enforces_the_new_rule(cache, monkeypatch):
    compiled.load_validator(SCHEMA, "t")
    calls = _count_compiles(monkeypatch)
    changed = {**SCHEMA, "properties": {"steps": {"type": "string"}}}
    v = compiled.load_validator(changed, "t")
    assert calls == ["t"]
    assert _refuses(v, {"steps": 2}) and not _refuses(v, {"steps": "two"})
    assert len(list(cache.iterdir())) == 2


@pytest.mark.parametrize("what", ["GENERATOR", "fastjsonschema"])
def test_generator_or_library_version_change_misses(cache, monkeypatch, what):
    compiled.load_validator(SCHEMA, "t")
    if what == "GENERATOR":
        monkeypatch.setattr(compiled, "GENERATOR", compiled.GENERATOR + "-next")
    else:
        monkeypatch.setattr(fastjsonschema, "VERSION", fastjsonschema.VERSION + ".post1")
    calls = _count_compiles(monkeypatch)
    compiled.load_validator(SCHEMA, "t")
    assert calls == ["t"]


@pytest.mark.parametrize("damage", [b"", b"\x00garbage", b"\xe9\x00\x00\x00\x00"])
def test_damaged_entry_is_recompiled_and_replaced(cache, monkeypatch, damage):
    compiled.load_validator(SCHEMA, "t")
    entry = compiled.entry_path(SCHEMA, "t")
    entry.write_bytes(damage)
    v = compiled.load_validator(SCHEMA, "t")
    assert _refuses(v, {"steps": "two"}) and not _refuses(v, {"steps": 2})
    assert entry.read_bytes() != damage


def test_unwritable_cache_dir_still_validates(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("HEXFORGE_CACHE_DIR", str(blocker / "cache"))
    v = compiled.load_validator(SCHEMA, "t")
    assert _refuses(v, {"steps": "two"}) and not _refuses(v, {"steps": 2})


def test_default_location_follows_xdg(tmp_path, monkeypatch):
    monkeypatch.delenv("HEXFORGE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert compiled.cache_dir() == tmp_path / "xdg" / "hexforge"


def test_every_kind_loads_from_a_fresh_cache_and_from_its_entries(cache, monkeypatch):
    """The real schemas, compiled into an empty cache, then read back without compiling."""
    for kind in schemas.KINDS:
        compiled.load_validator(schemas.fast_schema(kind), kind)
    calls = _count_compiles(monkeypatch)
    for kind in schemas.KINDS:
        v = compiled.load_validator(schemas.fast_schema(kind), kind)
        assert _refuses(v, {"bogus-field-no-schema-allows": 1}), kind
    assert calls == []


def test_locals_format_rewrite_touches_plain_fields_only():
    assert compiled.without_locals_format('p + ".units[{data__units_x}]".format(**locals())') == \
        'p + f".units[{data__units_x}]"'
    odd = '"{a.b}[{c}]".format(**locals())'
    assert compiled.without_locals_format(odd) == odd


def test_rewritten_validator_names_the_failing_item_as_before():
    schema = {"type": "object", "properties": {"units": {"type": "array", "items": {"type": "object"}}}}
    ns: dict = {}
    exec(compiled._compile(schema, "t"), ns)
    with pytest.raises(fastjsonschema.JsonSchemaException) as e:
        ns["validate"]({"units": [{}, 3]})
    assert "data.units[1]" in str(e.value)
