"""Every diagnostic code hexforge reports, declared once (as mypy's errorcodes.py and ruff's registry).

A code is declared by the function that produces it (`@check` for tree checks, `@rule` for the
referee's rules) or, for findings made while reading files, in this module's `READ_CODES`.
`hexforge checks` lists them all (`validator.catalog.all_codes`). Codes are stable: a retired code is never reused.

Each code carries its documentation (`Code.doc`): the docstring of the function that produces it, or
the `doc=` of `declare`, in the sections `validator.code_docs` reads; `hexforge explain CODE` and
docs/codes.md are made from it.
"""
from __future__ import annotations

from typing import Literal, Optional

from .source.frozen import frozen

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")
KINDS = ("read", "check", "audit")


@frozen
class Code:
    """A declared diagnostic code (`declare`): its name, severity, help line, kind and documentation."""
    code: str
    name: str
    severity: Severity
    help: str
    kind: str                       # read | check | audit
    doc: Optional[str] = None       # the producing function's docstring (validator.code_docs reads it)


CODES: dict[str, Code] = {}


def declare(code: str, name: str, severity: str, help: str, kind: str, doc: Optional[str] = None) -> Code:
    if code in CODES:
        raise RuntimeError(f"diagnostic code {code} declared twice")
    if severity not in SEVERITIES:
        raise ValueError(f"{code}: severity {severity!r} is not one of {SEVERITIES}")
    if kind not in KINDS:
        raise ValueError(f"{code}: kind {kind!r} is not one of {KINDS}")
    c = Code(code, name, severity, help, kind, doc)  # type: ignore[arg-type]
    CODES[code] = c
    return c


# Findings made while reading the files, before any check runs (validator/source/yamlsrc.py, validator/source/loader.py).
READ_CODES: tuple[Code, ...] = (
    declare("HF001", "yaml-syntax", "error", "fix the YAML syntax at the position shown", "read", doc="""
        A source file that is not well-formed YAML.

        ## What it checks
        Each file of the tree parses as YAML: brackets and quotes closed, indentation consistent, only the
        node kinds a source file uses (no custom tags), nesting within bounds.

        ## Why
        A file that does not parse cannot be read at all; the finding points at the line and column where
        the parser stopped, so the slip can be fixed in place rather than guessed at.

        ## Reads
        The bytes of every `*.yaml` file of the tree.

        ## Violation
        tables.yaml written as `tables: [` then `{id: crt` with the closing `}` and `]` left out:

            tables.yaml:3:1: error[HF001] YAML syntax: while parsing a flow mapping did not find expected ',' or '}'

        ## Near miss
        The same table written whole in flow style on one line, `tables: [{"id": "crt", ...}]`: no finding.
        """),
    declare("HF002", "duplicate-key", "error",
            "a mapping names each key once; remove or rename the repeated key", "read", doc="""
        A mapping that names the same key twice.

        ## What it checks
        No mapping of any source file has two equal keys, and every key is a plain scalar.

        ## Why
        YAML readers silently keep the last of two equal keys, so a value the author wrote would vanish
        without a word; hexforge refuses the file and names both lines.

        ## Reads
        The keys of every mapping of every file.

        ## Violation
        map.yaml gains a second `scheme: letters` after its first `scheme: column-row`:

            map.yaml:6:1: error[HF002] duplicate key 'scheme' (first at line 1)

        ## Near miss
        The second key commented out (`# scheme: letters`): a comment, not a key: no finding.
        """),
    declare("HF003", "empty-file", "error", "give the file its content, or delete it", "read", doc="""
        A source file with nothing in it.

        ## What it checks
        Each file of the tree holds a document: not empty, not only comments, not only a null value.

        ## Why
        An empty tec.yaml or tables.yaml is a file left unwritten (or truncated); reading it as "no data"
        would check a game whose tables silently vanished.

        ## Reads
        Every `*.yaml` file of the tree.

        ## Violation
        tec.yaml truncated to zero bytes:

            tec.yaml:1:1: error[HF003] file is empty

        ## Near miss
        tec.yaml with a comment line `# terrain effects` before its content: no finding.
        """),
    declare("HF004", "schema-violation", "error",
            "make the value match the file's schema (docs/source-format.md, `hexforge schema`)", "read", doc="""
        A value that does not match its file's JSON Schema.

        ## What it checks
        Each file validates against the schema of its kind (game, map, terrain, places, tec, tables,
        counters, orders of arrival, scenario, errata): required keys present, no unknown keys, every value
        of its type and within its bounds. Files an erratum patches are checked again after patching.

        ## Why
        Everything the checks, the module writer and the referee read is typed; a value of the wrong type
        stops here, at its own line, rather than as a wrong result later. `hexforge schema DIR` writes the
        schemas for an editor's YAML language server.

        ## Reads
        Every file of the tree; the schemas in `validator/source/schemas.py` (docs/source-format.md describes
        them).

        ## Violation
        Unit b1-a in counters.yaml with `steps: two`:

            counters.yaml:25:10: error[HF004] units[0].steps: 'two' is not of type 'integer'

        ## Near miss
        `steps: 2`: no finding.
        """),
    declare("HF005", "required-file-missing", "error",
            "every game tree has game.yaml and map.yaml (see docs/source-format.md)", "read", doc="""
        A game tree without one of the files every tree has.

        ## What it checks
        The tree has `game.yaml` and `map.yaml`; the other files are optional.

        ## Why
        Without the game (sides, turns, rules) or the map (boards, hex IDs) nothing else can be read or
        checked; a path that holds neither is not a game tree at all and is refused before any check.

        ## Reads
        The names of the files of the tree.

        ## Violation
        map.yaml deleted from a tree that has game.yaml:

            map.yaml: error[HF005] required file map.yaml is missing

        ## Near miss
        tec.yaml deleted instead: the TEC is optional (moves are then not costed): no HF005.
        """),
    declare("HF006", "unreadable-file", "error",
            "a source file is a regular UTF-8 YAML text file inside the tree, of bounded size", "read", doc="""
        A source file that cannot be read as YAML text, or that is not a file of the tree.

        ## What it checks
        Each source file is a regular file inside the tree (a link is followed only if it stays inside; a
        directory, FIFO, device or dangling link is refused), at most 16 MiB, valid UTF-8 with no NUL byte,
        and its aliases expand to at most 2 000 000 values.

        ## Why
        hexforge reads only what the tree holds, and bounds what it reads: a link to a file elsewhere, a
        binary file saved under a .yaml name, or a small file of aliases that expands to billions of values
        is refused with its reason instead of being read or hanging the run.

        ## Reads
        Every `*.yaml` path of the tree, as the file system gives it.

        ## Violation
        tec.yaml replaced by a PNG's bytes:

            tec.yaml:1:1: error[HF006] file contains NUL bytes: not a YAML text file

        ## Near miss
        A terrain name in UTF-8 beyond ASCII, `name: Clear – Ünbebaut ½`: text, and read: no finding.
        """),
    declare("HF007", "control-character", "error",
            "remove the control or non-character code point; write the text as printed", "read", doc="""
        Text holding a control character, a surrogate or a non-character.

        ## What it checks
        No string of any file holds a control character other than tab and newline, a surrogate or a
        non-character (U+FFFE), whether written raw or as an escape such as `"\\x01"` or `"\\u001b"`.

        ## Why
        No printed text has such characters; they come from a bad copy or paste, and some of them would
        rewrite a terminal showing the message (an escape sequence) or break the module's XML.

        ## Reads
        Every string value of every file.

        ## Violation
        A unit's name written `"3-5-10 Inf\\x01Bn (B/1)"` in counters.yaml:

            counters.yaml:7:22: error[HF007] text holds U+0001, a control or non-character code point that no printed text has

        ## Near miss
        `name: Clear – Ünbebaut ½`: printable text beyond ASCII: no finding.
        """),
    declare("HF801", "erratum-does-not-apply", "error",
            "the data no longer holds what this erratum corrects: update the patch's path/from, "
            "or remove the erratum if the data already carries the correction", "read", doc="""
        An erratum patch whose printed value is not in the data any more.

        ## What it checks
        Each patch of each errata file finds its `path` in the file it names, and the value there is the
        patch's `from` (what the rulebook printed) before it writes `to`. A publisher's erratum naming data
        the tree declares not printed is a warning and stays unapplied.

        ## Why
        Errata are kept as patches of the printed data so `--as-printed` can show the print; a patch whose
        `from` no longer matches means the data was edited by hand or the patch is stale, and applying it
        blindly could overwrite a correct value.

        ## Reads
        `errata/*.yaml` `items[].patches[]` (`op`, `file`, `path`, `from`, `to`) and the files they patch.

        ## Violation
        The patch moving the red Pz Bn expects `from: "0707"`, but the set-up prints 0808:

            errata/mini-errata.yaml:9:5: error[HF801] erratum mini-2024 1 no longer applies: at setup > {side: red, hex: 0808} > hex it expects '0707' but the data has '0808'

        ## Near miss
        `from: "0808"`, what the data holds: the patch applies: no finding.
        """),
)
