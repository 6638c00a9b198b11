"""The archive reader never lets an exception through: every damage is a ReadError naming the entry."""
import io
import time
import tracemalloc
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.vassal import reader
from compiler.vassal.encoding import ReadError, deobfuscate, obfuscate
from compiler.vassal.reader import Archive, parse_xml, read_module, read_save

LOGS = Path(__file__).resolve().parents[1] / ".." / "shared" / "vassal-logs"
AACHEN_VMOD = LOGS / "aachen.vmod"
OK_LOG = LOGS / "aachen_reinforcements_ok.vlog"
needs_logs = pytest.mark.skipif(not AACHEN_VMOD.is_file(), reason="../shared/vassal-logs is not here")

BUILD = b'<?xml version="1.0" encoding="UTF-8"?><VASSAL.build.GameModule name="m" version="1"/>'
META = b'<?xml version="1.0" encoding="UTF-8"?><data version="1"><name>m</name></data>'


def zip_of(entries: dict, method=zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


def _data_offset(raw: bytes, name: str) -> tuple[int, int]:
    """Where an entry's (compressed) data starts in the archive, and its length."""
    info = zipfile.ZipFile(io.BytesIO(raw)).getinfo(name)
    h = info.header_offset
    n, extra = int.from_bytes(raw[h + 26:h + 28], "little"), int.from_bytes(raw[h + 28:h + 30], "little")
    return h + 30 + n + extra, info.compress_size


def _flip(raw: bytes, at: int) -> bytes:
    return raw[:at] + bytes([raw[at] ^ 0xFF]) + raw[at + 1:]


def test_a_bad_crc_names_the_entry():
    raw = zip_of({"buildFile.xml": BUILD, "moduledata": META}, zipfile.ZIP_STORED)
    start, _ = _data_offset(raw, "buildFile.xml")
    bad = raw[:start + 60] + b"X" + raw[start + 61:]      # same length, so only the CRC can tell
    with pytest.raises(ReadError, match=r"entry 'buildFile.xml' is damaged: Bad CRC-32"):
        read_module(bad)


def test_corrupt_deflate_data_names_the_entry():
    raw = zip_of({"buildFile.xml": BUILD * 50, "moduledata": META})
    start, size = _data_offset(raw, "buildFile.xml")
    bad = raw
    for at in range(start, start + size, 3):
        bad = _flip(bad, at)
    with pytest.raises(ReadError, match=r"entry 'buildFile.xml' is damaged"):
        read_module(bad)


def test_xml_that_is_not_xml_names_the_entry():
    with pytest.raises(ReadError, match=r"^buildFile.xml: not well-formed XML"):
        read_module(zip_of({"buildFile.xml": b"<VASSAL.build.GameModule name='m'>", "moduledata": META}))
    with pytest.raises(ReadError, match=r"^moduledata: not well-formed XML"):
        read_module(zip_of({"buildFile.xml": BUILD, "moduledata": b"\x89PNG not xml"}))


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-8"])
def test_a_doctype_is_refused_in_any_encoding(codec):
    xml = ('<?xml version="1.0" encoding="%s"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
           "<VASSAL.build.GameModule>&e;</VASSAL.build.GameModule>" % codec.upper()).encode(codec)
    assert b"<!DOCTYPE" not in xml or codec == "utf-8"   # the old byte search could not see it
    with pytest.raises(ReadError, match=r"^buildFile.xml: XML with a DOCTYPE"):
        read_module(zip_of({"buildFile.xml": xml, "moduledata": META}))


def test_utf16_xml_without_a_doctype_is_read():
    xml = '<?xml version="1.0" encoding="UTF-16"?><data version="1"><name>Ü</name></data>'.encode("utf-16")
    assert parse_xml(xml, "moduledata").findtext("name") == "Ü"


def test_a_huge_build_file_in_a_small_archive_is_refused_before_decompressing():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        with z.open("buildFile.xml", "w", force_zip64=True) as f:
            f.write(b"<x>")
            chunk = b" " * (1 << 20)
            for _ in range(240):
                f.write(chunk)
            f.write(b"</x>")
        z.writestr("moduledata", META)
    raw = buf.getvalue()
    assert len(raw) < 1_000_000
    tracemalloc.start()
    t0 = time.perf_counter()
    with pytest.raises(ReadError, match=r"entry 'buildFile.xml': 251658247 bytes decoded, more than"):
        read_module(raw)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert time.perf_counter() - t0 < 2 and peak < 20 * len(raw)


def test_an_entry_larger_than_declared_is_refused():
    raw = zip_of({"savedGame": b"begin_save" + b"x" * 5000, "moduledata": META})
    info = zipfile.ZipFile(io.BytesIO(raw)).getinfo("savedGame")
    # the central directory says 100 bytes; the data holds 5010
    cd = raw.find(b"PK\x01\x02")
    lied = raw[:cd + 24] + (100).to_bytes(4, "little") + raw[cd + 28:]
    assert info.file_size == 5010
    with pytest.raises(ReadError, match=r"entry 'savedGame'"):
        Archive(lied).read("savedGame")


@pytest.mark.parametrize("stream, words", [
    (b"!VCSK", "no key"),
    (b"!VCSK1f0a0", "odd number of hex digits"),
    (b"!VCSK1f0a 0b", "non-hex byte b' ' at offset 9"),
    (b"!VCSK1fzz", "non-hex byte b'z' at offset 7"),
])
def test_a_broken_vcsk_stream_names_the_entry(stream, words):
    a = Archive(zip_of({"savedGame": stream}))
    with pytest.raises(ReadError, match=r"^savedGame: .*" + words):
        a.read_text("savedGame")


def test_deobfuscate_keeps_its_contract():
    assert deobfuscate(obfuscate(b"begin_save\x1bend_save", 0x2a)) == b"begin_save\x1bend_save"
    assert deobfuscate(b"plain") == b"plain"
    with pytest.raises(ValueError):          # a ReadError is still a ValueError for older callers
        deobfuscate(b"!VCSK1")


def test_non_utf8_text_names_the_entry():
    a = Archive(zip_of({"savedGame": obfuscate(b"begin_save\x1b\xff\xfe\x1bend_save", 7)}))
    with pytest.raises(ReadError, match=r"^savedGame: not UTF-8 text \(byte 11"):
        a.read_text("savedGame")


def test_an_unknown_trait_in_a_save_names_the_entry_and_command():
    from compiler.vassal.encoding import ESC, add_piece, encode
    piece = add_piece("1", encode(["wibble;x", "piece;;;a.png;A"], "\t"), "")
    a = Archive(zip_of({"savedGame": obfuscate(f"begin_save{ESC}{piece}{ESC}end_save".encode(), 3)}))
    with pytest.raises(ReadError, match=r"^savedGame: command 1: unknown trait 'wibble;x'"):
        read_save(a)


def test_an_unknown_trait_in_a_module_names_the_build_file():
    slot = ('<VASSAL.build.widget.PieceSlot entryName="u" gpid="1">+/null/wibble;x\tpiece;;;a.png;A/'
            "</VASSAL.build.widget.PieceSlot>")
    xml = BUILD.replace(b"/>", b">" + slot.encode() + b"</VASSAL.build.GameModule>")
    with pytest.raises(ReadError, match=r"^buildFile.xml: unknown trait"):
        read_module(zip_of({"buildFile.xml": xml, "moduledata": META}))


def test_a_bad_number_in_a_module_names_the_build_file():
    xml = BUILD.replace(b"/>", b"><VASSAL.build.module.Map mapName='M'><VASSAL.build.module.map.BoardPicker>"
                        b"<VASSAL.build.module.map.boardPicker.Board name='b' width='wide'/>"
                        b"</VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map>"
                        b"</VASSAL.build.GameModule>")
    with pytest.raises(ReadError, match=r"^buildFile.xml: invalid literal"):
        read_module(zip_of({"buildFile.xml": xml, "moduledata": META}))


def test_not_a_zip_and_a_missing_file_are_read_errors(tmp_path):
    with pytest.raises(ReadError, match="not a zip archive"):
        Archive(b"PK\x03\x04 not really")
    with pytest.raises(ReadError, match="cannot read"):
        Archive(tmp_path / "nope.vmod")
    with pytest.raises(ReadError, match="no entry 'buildFile.xml'"):
        read_module(zip_of({"moduledata": META}))


# -- the real files ------------------------------------------------------------------------------

@needs_logs
def test_the_real_module_and_log_read():
    mod = read_module(AACHEN_VMOD)
    assert mod.slots and mod.boards
    a = Archive(OK_LOG)
    assert a.read_text("savedGame").startswith("begin_save")
    assert reader.read_xml(a, "savedata") is not None


@needs_logs
@pytest.mark.parametrize("name, entry, words", [
    ("damaged_truncated.vlog", None, "not a zip archive"),
    ("damaged_bad_vcsk.vlog", "savedGame", "non-hex byte"),
    ("damaged_xxe_savedata.vlog", "savedata", "DOCTYPE"),
])
def test_the_damaged_logs_are_read_errors(name, entry, words):
    with pytest.raises(ReadError, match=words) as e:
        a = Archive(LOGS / name)
        a.read_text("savedGame")
        reader.read_xml(a, "savedata")
    if entry:
        assert str(e.value).startswith(entry + ":")
    assert "root:" not in str(e.value)           # nothing of /etc/passwd is echoed


@needs_logs
def test_the_zip_slip_log_reads_and_its_odd_entry_is_only_a_name():
    a = Archive(LOGS / "damaged_zip_slip.vlog")
    assert "../../evil" in a.names()
    assert a.read_text("savedGame").startswith("begin_save")


@needs_logs
@settings(max_examples=60, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(flips=st.lists(st.tuples(st.integers(0, 10 ** 9), st.integers(1, 255)), min_size=1, max_size=6),
       cut=st.one_of(st.none(), st.integers(0, 10 ** 9)))
def test_damaged_bytes_give_a_read_error_or_a_reading(flips, cut):
    raw = bytearray(OK_LOG.read_bytes())
    for at, x in flips:
        raw[at % len(raw)] ^= x
    if cut is not None:
        raw = raw[:cut % len(raw)]
    try:
        a = Archive(bytes(raw))
        a.read_text("savedGame")
        if a.has("savedata"):
            reader.read_xml(a, "savedata")
    except ReadError:
        pass


def test_limits_are_set_for_the_kinds_of_entry():
    assert reader._limit_for("buildFile.xml") == reader.MAX_XML_BYTES < reader.MAX_ENTRY_BYTES
    assert reader._limit_for("savedGame") == reader.MAX_TEXT_BYTES
    assert reader._limit_for("images/board.png") == reader.MAX_IMAGE_ENTRY_BYTES > reader.MAX_ENTRY_BYTES
    assert reader._limit_for("images/board_A.jpg") == reader.MAX_IMAGE_ENTRY_BYTES     # an author's scan
    assert reader._limit_for("other.bin") == reader.MAX_ENTRY_BYTES


_DELIMITERS = b"\t\\;/,'\x1b0123456789-<>&\"x"
_edits = st.lists(st.tuples(st.integers(0, 10 ** 9), st.sampled_from(["set", "delete", "insert"]),
                            st.sampled_from(list(_DELIMITERS))), min_size=1, max_size=6)


def _edit(data: bytes, edits) -> bytes:
    out = bytearray(data)
    for at, how, ch in edits:
        i = at % len(out)
        if how == "set":
            out[i] = ch
        elif how == "delete":
            del out[i]
        else:
            out.insert(i, ch)
    return bytes(out)


@needs_logs
@settings(max_examples=80, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(edits=_edits, which=st.sampled_from(["buildFile.xml", "savedGame"]))
def test_damaged_decoded_content_gives_a_read_error_or_a_reading(edits, which):
    """Delimiters, escapes and digits edited into the decoded build file or saved game: never another error."""
    mod = zipfile.ZipFile(AACHEN_VMOD)
    if which == "buildFile.xml":
        raw = zip_of({"buildFile.xml": _edit(mod.read("buildFile.xml"), edits), "moduledata": mod.read("moduledata")})
        try:
            read_module(raw)
        except ReadError:
            pass
    else:
        save = zipfile.ZipFile(io.BytesIO(mod.read("scenario_aachen.vsav")))
        text = _edit(deobfuscate(save.read("savedGame")), edits)
        try:
            read_save(Archive(zip_of({"savedGame": obfuscate(text, 0x33)})))
        except ReadError:
            pass
