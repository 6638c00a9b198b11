"""VASSAL text encodings: SequenceEncoder, nesting, AddPiece, command streams, obfuscation."""
from pathlib import Path

from hypothesis import given, strategies as st

import pytest

from compiler.vassal import traits as T
from compiler.vassal.encoding import (
    ESC, Command, add_piece, decode, decode_command, deobfuscate, encode, encode_command, obfuscate,
    parse_add_piece,
)


def test_escaping_as_vassal_writes_it():
    # a delimiter inside a value gets a backslash; a value starting with \ or quoted in ' gets wrapped in '
    assert encode(["a;b", "c"], ";") == "a\\;b;c"
    assert encode(["'q'", "x"], ";") == "''q'';x"
    assert encode(["\\x", ""], ";") == "'\\x';"
    assert encode(["", "", "img.png", "Name"], ";") == ";;img.png;Name"
    assert decode("a\\;b;c", ";") == ["a;b", "c"]
    assert decode("''q'';x", ";") == ["'q'", "x"]
    assert decode("", ";") == [""]
    assert decode("a;", ";") == ["a", ""]


def test_value_ending_in_backslash_is_refused():
    with pytest.raises(ValueError):
        encode(["ends\\"], ";")


tok = st.text(alphabet=st.sampled_from(list("ab;,\t/'\\ x\x1b")), max_size=8).filter(lambda s: not s.endswith("\\"))


@given(st.lists(tok, min_size=1, max_size=6), st.sampled_from([";", ",", "\t", "/", ESC]))
def test_round_trip(tokens, delim):
    assert decode(encode(tokens, delim), delim) == tokens


@given(st.lists(st.tuples(tok, tok), min_size=1, max_size=5))
def test_nested_traits_round_trip(pairs):
    trs = [T.Trait("mark;" + encode([k or "k"], ","), encode([v], ",")) for k, v in pairs]
    trs.append(T.basic_piece("i.png", "N"))
    typ, state = T.piece_type(trs), T.piece_state(trs)
    pid, typ2, state2 = parse_add_piece(add_piece("7", typ, state))
    assert (pid, typ2, state2) == ("7", typ, state)
    dec = T.decode_piece(typ2, state2)
    assert [list(d["values"].items())[0] for d in dec[:-1]] == [(k or "k", v) for k, v in pairs]


def test_command_stream_nesting():
    group = Command(None, [Command(add_piece("1", "piece;;;a.png;A", "null;0;0;;0")),
                           Command(add_piece("2", "piece;;;b.png;B", "null;0;0;;0"))])
    top = Command("begin_save", [group, Command("Main MapBoardPicker\tA\t0\t0"), Command("end_save")])
    s = encode_command(top)
    # the inner group's separators carry one more backslash, as GameModule.encode nests them
    assert s.startswith("begin_save" + ESC + "\\" + ESC + "+/1/")
    assert decode_command(s) == ["begin_save", "+/1/piece;;;a.png;A/null;0;0;;0",
                                 "+/2/piece;;;b.png;B/null;0;0;;0", "Main MapBoardPicker\tA\t0\t0", "end_save"]


def test_obfuscation_matches_vassal_test_vector():
    # the vector of VASSAL's own ObfuscatingOutputStreamTest (key 0x58)
    plain = b"All jackdaws love my great sphinx of quartz."
    obf = b"!VCSK581934347832393b333c392f2b7834372e3d783521783f2a3d392c782b283031362078373e78292d392a2c2276"
    assert obfuscate(plain, 0x58) == obf
    assert deobfuscate(obf) == plain
    assert deobfuscate(b"plain text") == b"plain text"


def test_embellishment_layer_state():
    t = T.layers(["f.png", "b.png"], ["", ""], "Step", "Flip", T.KEY_F, "Reduced", level=1)
    d = T.decode_piece(T.piece_type([t, T.basic_piece("f.png", "U")]), T.piece_state([t, T.basic_piece("f.png", "U")]))
    assert d[0]["images"] == ["f.png", "b.png"] and d[0]["level"] == 1 and d[0]["active"]
    # 33 fields after emb2; as Embellishment.myGetType writes them
    assert len(decode(t.type[len("emb2;"):], ";")) == 33


# -- against strings VASSAL itself wrote -----------------------------------------------------------

_LOGS = sorted((Path(__file__).resolve().parents[1] / ".." / "shared" / "vassal-logs").glob("*.vlog"))


def _vassal_written_pieces():
    """Every AddPiece command VASSAL 3.7.9 wrote into the real logs (prototypes expanded by VASSAL)."""
    import zipfile
    out = []
    for f in _LOGS:
        if f.name.startswith("damaged_"):
            continue
        text = deobfuscate(zipfile.ZipFile(f).read("savedGame")).decode("utf-8")
        out += [c for c in decode_command(text) if c.startswith("+/") and "/stack/" not in c[:20]]
    return out


@pytest.mark.skipif(not _LOGS, reason="../shared/vassal-logs is not here")
def test_vassal_written_pieces_are_reencoded_byte_for_byte():
    from compiler.vassal.encoding import parse_add_piece
    cmds = _vassal_written_pieces()
    assert len(cmds) > 1000 and any("(O'Hara)" in c for c in cmds)    # a quote inside a token
    for c in cmds:
        pid, typ, state = parse_add_piece(c)
        traits = [T.Trait(t, s) for t, s in zip(T.split_nested(typ), T.split_nested(state))]
        assert add_piece(pid, T.piece_type(traits), T.piece_state(traits)) == c


@pytest.mark.parametrize("token, written", [
    ("'44 Ardennes", "'44 Ardennes"),        # starts with a quote only: written as it is
    ("O'Hara", "O'Hara"),                    # as in the real log: "2-2-14 Arm Inf TF (O'Hara)"
    ("'Hara'", "''Hara''"),                  # starts and ends with one: one more pair (SequenceEncoder.append)
    ("'", "'''"),                            # a lone quote starts and ends with one: wrapped too
    ("''", "''''"),
])
def test_a_value_starting_with_a_quote_is_encoded_as_vassal_encodes_it(token, written):
    assert encode(["a", token, "b"], ";") == f"a;{written};b"
    assert decode(f"a;{written};b", ";") == ["a", token, "b"]


@pytest.mark.skipif(not _LOGS, reason="../shared/vassal-logs is not here")
def test_a_quoted_name_in_a_vassal_written_piece_keeps_its_encoding():
    """The real O'Hara piece with its name changed to start with a quote: only the name's token changes."""
    from compiler.vassal.encoding import parse_add_piece
    c = next(c for c in _vassal_written_pieces() if "(O'Hara)" in c)
    pid, typ, state = parse_add_piece(c)
    traits = [T.Trait(t, s) for t, s in zip(T.split_nested(typ), T.split_nested(state))]
    basic = traits[-1]
    f = decode(basic.type, ";")
    renamed = traits[:-1] + [T.Trait(encode(f[:4] + ["'44 (O'Hara)'"], ";"), basic.state)]
    out = add_piece(pid, T.piece_type(renamed), T.piece_state(renamed))
    assert out == c.replace("2-2-14 Arm Inf TF (O'Hara)", "''44 (O'Hara)''")
    assert T.decode_piece(*parse_add_piece(out)[1:], strict=False)[-1]["name"] == "'44 (O'Hara)'"
