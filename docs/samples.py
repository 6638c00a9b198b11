"""Checked command samples: every fenced block of README.md and docs/*.md whose first line is
`$ hexforge ...` is run, and what it prints must be what the block shows.

    ```
    $ hexforge check source/meuse
    0 error(s), 0 warning(s), 0 note(s) in 12 file(s); 36 unit(s), 640 hex(es)
    ```

A block may hold several commands, each a `$ hexforge ...` line followed by its output; a command may
end in `> FILE` to write its output to a file a later command reads. The blocks of one document run in
order in one scratch folder (a fresh copy of nothing: `source/` and `tests/` are links to the
checkout's, so the paths read as in a checkout; what the commands write, `build/` and the like, lands
in the scratch folder), with the caches of hexforge in it too, so the commands see a fresh machine.

The output is what a terminal shows: standard output and standard error as written, in order. Only
what cannot repeat is normalised: the scratch folder's path reads `<tmp>`, and a duration (`1.23s`)
reads `…s`. In a sample, a line holding only `…` stands for any number of lines, and `…` inside a
line for any text: write them where a sample shows part of a long output. Nothing else is loose:
`python -m pytest` (tests/test_docs.py) fails on any other difference, and `python
docs/update_samples.py` rewrites the outputs, keeping each block's elisions where it can.
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

GAP = "…"
PROMPT = "$ "
COMMAND_TIMEOUT_S = 600
_FENCE = re.compile(r"^```[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
_DURATION = re.compile(r"\b\d+\.\d+s\b")


@dataclass
class Command:
    line: str                      # the command as the sample shows it, without the prompt
    expected: list[str]            # the output lines the sample shows
    actual: list[str] | None = None

    @property
    def ok(self) -> bool:
        return self.actual is not None and matches(self.expected, self.actual)


@dataclass
class Block:
    start: int                     # offsets of the block's content in the document
    end: int
    line: int                      # the document line of the block's first command
    commands: list[Command]


def documents(root: Path) -> list[Path]:
    """The documents whose samples are checked: the README and every page in docs/."""
    return [root / "README.md"] + sorted((root / "docs").glob("*.md"))


def blocks(text: str) -> list[Block]:
    """The sample blocks of a document: fenced blocks whose first line is `$ hexforge ...`."""
    out = []
    for m in _FENCE.finditer(text):
        content = m.group(1)
        if not content.startswith(PROMPT + "hexforge"):
            continue
        commands: list[Command] = []
        for line in content.splitlines():
            if line.startswith(PROMPT):
                commands.append(Command(line[len(PROMPT):].strip(), []))
            else:
                commands[-1].expected.append(line.rstrip())
        out.append(Block(m.start(1), m.end(1), text.count("\n", 0, m.start(1)) + 1, commands))
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the output fits the sample: each line equal, but for the sample's elisions."""
    return _pattern(expected).fullmatch("".join(a + "\n" for a in actual)) is not None


def _pattern(expected: list[str]) -> re.Pattern:
    parts = []
    for line in expected:
        if line.strip() == GAP:
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(re.escape(piece) for piece in line.split(GAP)) + r"\n")
    return re.compile("".join(parts))


def refreshed(expected: list[str], actual: list[str]) -> list[str]:
    """The sample rewritten for this output: unchanged if it still fits; else the output, keeping the
    sample's elisions: as many first and last lines as it showed, each middle part it showed where the
    output still has it, and each kept line's own elisions where the line still fits."""
    if matches(expected, actual):
        return expected
    parts: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == GAP:
            parts.append([])
        else:
            parts[-1].append(line)
    if len(parts) == 1:
        return actual
    head, middles, tail = parts[0], [p for p in parts[1:-1] if p], parts[-1]
    if len(head) + len(tail) >= len(actual):
        return actual

    def keep(old: list[str], new: list[str]) -> list[str]:
        return [o if matches([o], [n]) else n for o, n in zip(old, new)]
    body = actual[len(head):len(actual) - len(tail)]
    out, pos = keep(head, actual), 0
    for part in middles:
        at = next((i for i in range(pos, len(body) - len(part) + 1)
                   if all(matches([o], [n]) for o, n in zip(part, body[i:i + len(part)]))), None)
        if at is not None:
            out += [GAP] + part
            pos = at + len(part)
    return out + [GAP] + keep(tail, actual[len(actual) - len(tail):])


class Sandbox:
    """A scratch folder the commands of one document run in, like a fresh checkout of this one."""

    def __init__(self, root: Path):
        self.root = root
        self._tmp = tempfile.TemporaryDirectory(prefix="hexforge-samples-")
        self.path = Path(self._tmp.name)
        for name in ("source", "tests"):
            (self.path / name).symlink_to(root / name, target_is_directory=True)
        bin_dir = self.path / ".bin"
        bin_dir.mkdir()
        wrapper = bin_dir / "hexforge"
        launch = "import sys; from compiler.cli import main; main(prog_name='hexforge')"
        wrapper.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -c {shlex.quote(launch)} \"$@\"\n")
        wrapper.chmod(0o755)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("HEXFORGE_", "PYTEST_"))}
        self.env.update(PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", PYTHONPATH=str(root),
                        HEXFORGE_CACHE_DIR=str(self.path / ".cache"), NO_COLOR="1", COLUMNS="80",
                        PYTHONUNBUFFERED="1", PYTHONIOENCODING="utf-8", LC_ALL="C.UTF-8")

    def run(self, command: str) -> list[str]:
        """What the command prints (stdout and stderr as a terminal shows them), normalised."""
        if not command.startswith("hexforge "):
            raise ValueError(f"a sample runs hexforge only, not {command!r}")
        p = subprocess.run(["/bin/sh", "-c", command], cwd=self.path, env=self.env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=COMMAND_TIMEOUT_S)
        text = p.stdout.decode("utf-8", errors="replace")
        for prefix in {str(self.path.resolve()), str(self.path)}:
            text = text.replace(prefix, "<tmp>")
        text = _DURATION.sub(GAP + "s", text)
        return [line.rstrip() for line in text.splitlines()]

    def close(self) -> None:
        self._tmp.cleanup()


def run_document(doc: Path, root: Path) -> tuple[str, list[Block]]:
    """The document's text and its blocks, every command run (in order, in one sandbox)."""
    text = doc.read_text(encoding="utf-8")
    found = blocks(text)
    if not found:
        return text, found
    box = Sandbox(root)
    try:
        for block in found:
            for cmd in block.commands:
                cmd.actual = box.run(cmd.line)
    finally:
        box.close()
    return text, found


def refresh(doc: Path, root: Path) -> str:
    """The document with every sample's output as the commands print it now."""
    text, found = run_document(doc, root)
    for block in reversed(found):
        lines = []
        for cmd in block.commands:
            lines += [PROMPT + cmd.line] + refreshed(cmd.expected, cmd.actual or [])
        text = text[:block.start] + "".join(x + "\n" for x in lines) + text[block.end:]
    return text


def drift(doc: Path, root: Path) -> Iterator[str]:
    """Each command of the document whose output no longer fits its sample, with both."""
    _, found = run_document(doc, root)
    for block in found:
        for cmd in block.commands:
            if not cmd.ok:
                yield (f"{doc.name}:{block.line}: $ {cmd.line}\n--- the sample shows\n" + "\n".join(cmd.expected)
                       + "\n--- the command prints\n" + "\n".join(cmd.actual or []))
