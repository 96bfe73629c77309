"""README's "## Command line" section tells the truth about the parser.

The reference block lists one entry per command: a line starting ``clinrag <command words>``, continued by the
indented lines under it. Every command of ``clinrag.cli.main.build_parser()`` (walked through its subparsers) has
an entry, every option string of the command appears in its entry, and every ``clinrag ...`` the section (or
the rest of README) names is a command the parser has.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from clinrag.cli.main import build_parser

README = Path(__file__).resolve().parents[1] / "README.md"
SECTION = "## Command line"
CODE_BLOCK = re.compile(r"```\w*\n(.*?)```", re.S)
INLINE_COMMAND = re.compile(r"`(clinrag [^`]*)`")


def command_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n{SECTION}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return {name: sub for action in parser._actions if isinstance(action, argparse._SubParsersAction)
            for name, sub in action.choices.items()}


def walk(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """(command words, parser) for the root and every command below it."""
    yield path, parser
    for name, sub in subcommands(parser).items():
        yield from walk(sub, (*path, name))


def option_strings(parser: argparse.ArgumentParser) -> list[str]:
    return [s for a in parser._actions if not isinstance(a, argparse._HelpAction) for s in a.option_strings]


def command_words(line: str) -> list[str]:
    """The command words of ``clinrag a b --x ...``: the plain lower-case words before the first option,
    placeholder or argument."""
    words = []
    for token in line.split()[1:]:
        if not re.fullmatch(r"[a-z][a-z0-9-]*", token):
            break
        words.append(token)
    return words


def resolve(words: list[str]) -> tuple[tuple[str, ...], argparse.ArgumentParser]:
    """The command that ``words`` name; an AssertionError for a command the parser does not have."""
    parser, path = build_parser(), ()
    for word in words:
        subs = subcommands(parser)
        if not subs:
            break  # a leaf command: the rest are its arguments
        assert word in subs, f"`clinrag {' '.join(words)}`: no command {word!r} under `clinrag {' '.join(path)}`"
        parser, path = subs[word], (*path, word)
    return path, parser


def reference_entries() -> dict[tuple[str, ...], str]:
    """Command path -> its entry in the section's code blocks (the ``clinrag`` line and its indented lines)."""
    entries: dict[tuple[str, ...], str] = {}
    for block in CODE_BLOCK.findall(command_section()):
        current = None
        for line in block.splitlines():
            if line.startswith("clinrag"):
                current, _ = resolve(command_words(line))
                entries[current] = entries.get(current, "") + "\n" + line
            elif line.startswith((" ", "\t")) and current is not None:
                entries[current] += "\n" + line
            else:
                current = None
    return entries


def mentions(text: str, option: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


def test_section_exists_and_has_a_reference_block():
    assert CODE_BLOCK.search(command_section()), f"README has no code block under {SECTION!r}"


@pytest.mark.parametrize("path", [p for p, parser in walk(build_parser()) if not subcommands(parser)],
                         ids=lambda p: " ".join(p))
def test_every_command_and_option_is_documented(path):
    entries = reference_entries()
    assert path in entries, f"`clinrag {' '.join(path)}` has no entry in README's {SECTION!r} section"
    _, parser = resolve(list(path))
    missing = [o for o in option_strings(parser) if not mentions(entries[path], o)]
    assert not missing, f"`clinrag {' '.join(path)}`: options not in README's {SECTION!r} section: {missing}"


def test_global_options_are_documented():
    entries = reference_entries()
    missing = [o for o in option_strings(build_parser()) if not mentions(entries.get((), ""), o)]
    assert not missing, f"`clinrag` options not in README's {SECTION!r} section: {missing}"


def test_every_documented_command_exists():
    text = README.read_text(encoding="utf-8")
    named = [m for block in CODE_BLOCK.findall(text) for m in re.findall(r"^clinrag .*$", block, re.M)]
    named += INLINE_COMMAND.findall(text)
    assert named
    for line in named:
        resolve(command_words(line))  # raises for a command the parser does not have
    for line in re.findall(r"^clinrag .*$", "\n".join(CODE_BLOCK.findall(command_section())), re.M):
        path, parser = resolve(command_words(line))
        assert not path or not subcommands(parser), (
            f"`{line.strip()}` stops at `clinrag {' '.join(path)}`, which needs a command")
