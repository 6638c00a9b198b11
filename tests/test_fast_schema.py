"""The schema fastjsonschema compiles (`schemas.fast_schema`) accepts exactly what the published schema
(`schemas.schema`, which jsonschema checks) accepts: its "exactly one location" is written without
`oneOf` (validator/source/schemas.py `_one_location_fast`), and is compared here on every set of location keys."""
from __future__ import annotations

import itertools

import fastjsonschema
import jsonschema
import pytest

from validator.source import schemas
VALUES = {"hex": "0101", "any_of": ["0101"], "range": ["0101", "0102"], "area": "A", "any_area": ["A", "B"],
          "within": {"distance": 1, "of": "0101"}}
KEY_SETS = [c for n in range(len(schemas.LOCATION_KEYS) + 1) for c in itertools.combinations(schemas.LOCATION_KEYS, n)]


def _validators(name: str):
    """(published, fast): the def `name` checked by jsonschema as published, and by fastjsonschema as compiled."""
    published = schemas.schema("scenario")
    fast = schemas.fast_schema("scenario")
    ref = {"$ref": f"#/$defs/{name}"}
    slow = jsonschema.Draft202012Validator({"$schema": published["$schema"], "$defs": published["$defs"], **ref})
    quick = fastjsonschema.compile({"$schema": fast["$schema"], "$defs": fast["$defs"], **ref})

    def fast_ok(value) -> bool:
        try:
            quick(value)
            return True
        except fastjsonschema.JsonSchemaException:
            return False
    return slow.is_valid, fast_ok


@pytest.mark.parametrize("name", ["location", "location_fields"])
def test_exactly_one_location_means_the_same_in_both(name):
    slow_ok, fast_ok = _validators(name)
    outcomes = set()
    for keys in KEY_SETS:
        for printed in (False, True):
            value = {k: VALUES[k] for k in keys} | ({"printed_location": "as printed"} if printed else {})
            assert slow_ok(value) == fast_ok(value), (name, value)
            outcomes.add((len(keys), slow_ok(value)))
    assert outcomes == {(0, False), (1, True)} | {(n, False) for n in range(2, len(schemas.LOCATION_KEYS) + 1)}
    for not_an_object in ("0101", 3, None, ["0101"]):
        assert slow_ok(not_an_object) is fast_ok(not_an_object) is False


def test_a_bad_value_beside_one_location_key_still_fails_fast():
    _, fast_ok = _validators("location")
    assert fast_ok({"hex": "0101"})
    assert not fast_ok({"hex": ""})                       # minLength of a hex id
    assert not fast_ok({"hex": "0101", "elsewhere": 1})   # no other fields in a location


def test_only_the_exactly_one_location_rule_is_rewritten():
    published, fast = schemas.schema("scenario"), schemas.fast_schema("scenario")
    changed = {name for name in published["$defs"] if published["$defs"][name] != fast["$defs"][name]}
    assert changed == {"location", "location_fields"}
    assert "oneOf" not in fast["$defs"]["location"] and fast["$defs"]["location"]["anyOf"]
