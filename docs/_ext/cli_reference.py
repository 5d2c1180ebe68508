"""The command-line reference, generated from the argument parser itself.

``.. cli-reference:: package.module:function`` (in an ``.rst`` page) calls the
function, which returns an :class:`argparse.ArgumentParser` with sub-commands,
and writes for the program and for each sub-command a section with its usage
line, its description and every argument: flags and value names, help text,
choices, default (unless the help text gives it), whether it is required. Arguments hidden from ``--help``
(``help=argparse.SUPPRESS``: old spellings of a flag) are listed as such.
The arguments become ``.. option::`` entries of ``.. program:: NAME SUBCOMMAND``,
so a page can link to one with ``:option:`rulemodels fit --theta```. The pages
that use the directive are read again at every build, so they follow the code.

argparse has no public API to walk a parser, so this reads its documented
attributes (``parser._actions``, the sub-parsers action's ``choices``) the way
argparse's own help formatter does.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import re
import string
from collections.abc import Iterator
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

#: usage lines wrap here, whatever the terminal of the build
USAGE_WIDTH = 88

_PUNCTUATION = frozenset(string.punctuation)

#: a help text that gives the default itself: "(default: 9)", "(... ; default: 0, off)"
SAYS_DEFAULT = re.compile(r"\(default\b|\bdefault:", re.IGNORECASE)


def escape(text: str) -> str:
    """``text`` as reStructuredText that reads literally: every ASCII punctuation character backslash-escaped."""
    return "".join("\\" + char if char in _PUNCTUATION else char for char in " ".join(str(text).split()))


def literal(value: Any) -> str:
    """``value`` as an inline literal (lists and tuples as their items separated by spaces, as typed)."""
    if isinstance(value, (list, tuple)):
        value = " ".join(map(str, value))
    text = str(value)
    return f"``{text}``" if text.strip() else '``""``'


def load_parser(spec: str) -> argparse.ArgumentParser:
    """Call ``module:function`` and return the parser it builds."""
    module_name, _, function_name = spec.partition(":")
    if not function_name:
        raise ValueError(f"expected 'module:function', got {spec!r}")
    parser = getattr(importlib.import_module(module_name), function_name)()
    if not isinstance(parser, argparse.ArgumentParser):
        raise TypeError(f"{spec}() returned {type(parser).__name__}, not an argparse.ArgumentParser")
    return parser


def subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(name, one-line help, parser) of each sub-command, in the order they were added."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            summaries = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, subparser in action.choices.items():
                if subparser.prog.split()[-1] == name:  # skip aliases: each parser once
                    found.append((name, summaries.get(name, ""), subparser))
    return found


def value_names(action: argparse.Action) -> str:
    """The value part of an argument as ``--help`` writes it: ``N``, ``[SECONDS]``, ``{a,b} [{a,b} ...]``."""
    if action.nargs == 0:
        return ""
    if action.metavar is not None:
        name = action.metavar if isinstance(action.metavar, str) else " ".join(action.metavar)
    elif action.choices is not None:
        name = "{" + ",".join(map(str, action.choices)) + "}"
    elif action.option_strings:
        name = action.dest.upper()
    else:
        name = action.dest
    nargs = action.nargs
    if nargs is None:
        return name
    if nargs == argparse.OPTIONAL:
        return f"[{name}]"
    if nargs == argparse.ZERO_OR_MORE:
        return f"[{name} ...]"
    if nargs == argparse.ONE_OR_MORE:
        return f"{name} [{name} ...]"
    if isinstance(nargs, int):
        return " ".join([name] * nargs)
    return name  # REMAINDER, PARSER: rare, shown plainly


def signature(action: argparse.Action) -> str:
    """The ``.. option::`` signature: ``-v, --verbose``, ``--n-clauses N_CLAUSES``, or a positional's name."""
    values = value_names(action)
    if not action.option_strings:
        return values
    return ", ".join(f"{flag} {values}".strip() for flag in action.option_strings)


def default_of(parser: argparse.ArgumentParser, action: argparse.Action) -> Any:
    """The value the argument has when it is not given, or None when there is nothing to tell.

    Flags that only switch something on or off (``store_true``, ``store_const``, ...) have their
    meaning in their help; ``set_defaults`` values count (argparse applies them too).
    """
    if isinstance(action, (argparse._StoreConstAction, argparse._HelpAction, argparse._VersionAction,
                           argparse._CountAction)):
        return None
    default = action.default
    if default is None:
        default = parser.get_default(action.dest)
    if default is None or default is argparse.SUPPRESS or default is False or default in ([], ""):
        return None
    return default


def help_text(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    """The help string with argparse's ``%(name)s`` placeholders filled in, as ``--help`` prints it."""
    text = action.help or ""
    if "%" in text:
        values = {key: value for key, value in vars(action).items() if value is not argparse.SUPPRESS}
        values["prog"] = parser.prog
        if values.get("choices") is not None:
            values["choices"] = ", ".join(map(str, values["choices"]))
        text = text % values
    return text


def argument_lines(parser: argparse.ArgumentParser, action: argparse.Action) -> Iterator[str]:
    """The ``.. option::`` block of one argument."""
    yield f".. option:: {signature(action)}"
    yield ""
    body = help_text(parser, action)
    if body:
        yield "   " + escape(body[:1].upper() + body[1:])
        yield ""
    facts = []
    if action.choices is not None and action.metavar is not None:
        facts.append("Choices: " + ", ".join(literal(choice) for choice in action.choices) + ".")
    default = default_of(parser, action)
    if default is not None and not SAYS_DEFAULT.search(body):  # most help texts say their default already
        facts.append(f"Default: {literal(default)}.")
    if action.required and action.option_strings:
        facts.append("Required.")
    if facts:
        yield "   " + " ".join(facts)
        yield ""


def parser_lines(parser: argparse.ArgumentParser, *, anchor: str, title: str, summary: str, underline: str,
                 commands: list[tuple[str, str, argparse.ArgumentParser]] | None = None) -> Iterator[str]:
    """The section of one (sub-)parser: label, title, description, usage, and its arguments by group."""
    yield f".. _{anchor}:"
    yield ""
    yield escape(title)
    yield underline * (len(escape(title)) + 2)
    yield ""
    description = parser.description or summary
    if description:
        yield escape(description)
        yield ""
    parser.formatter_class = functools.partial(argparse.HelpFormatter, width=USAGE_WIDTH)
    yield ".. code-block:: text"
    yield ""
    for line in parser.format_usage().rstrip().splitlines():
        yield "   " + line
    yield ""
    yield f".. program:: {parser.prog}"
    yield ""
    hidden = []
    for group in parser._action_groups:
        shown = []
        for action in group._group_actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            (hidden if action.help is argparse.SUPPRESS else shown).append(action)
        if not shown:
            continue
        yield f".. rubric:: {escape(group.title[:1].upper() + group.title[1:])}"
        yield ""
        for action in shown:
            yield from argument_lines(parser, action)
    if hidden:
        by_dest = {action.dest: action for action in parser._actions if action.help is not argparse.SUPPRESS}
        spelled = []
        for action in hidden:
            current = by_dest.get(action.dest)
            now = f" (now {literal(current.option_strings[0])})" if current is not None and current.option_strings else ""
            spelled.extend(f"{literal(flag)}{now}" for flag in action.option_strings)
        yield ("Old spellings, still accepted and hidden from ``--help``: " + ", ".join(spelled) + ".")
        yield ""
    if commands:
        yield "Every command also takes ``-h``/``--help``, which prints its usage and arguments."
        yield ""
        yield ".. rubric:: Commands"
        yield ""
        yield ".. list-table::"
        yield "   :widths: 20 80"
        yield ""
        for name, help_line, _ in commands:
            yield f"   * - :ref:`{name} <{anchor}-{name}>`"
            yield f"     - {escape(help_line)}"
        yield ""


class CLIReference(SphinxDirective):
    """``.. cli-reference:: module:function``: the program, then one section per sub-command."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        spec = self.arguments[0]
        try:
            parser = load_parser(spec)
        except Exception as exc:  # any failure is the page's error
            raise self.error(f"cli-reference: cannot build the parser {spec}: {exc}") from exc
        anchor = "cli-" + nodes.make_id(parser.prog)
        commands = subcommands(parser)
        lines = list(parser_lines(parser, anchor=anchor, title=f"{parser.prog} (global options)",
                                  summary="", underline="-", commands=commands))
        for name, summary, subparser in commands:
            lines.extend(parser_lines(subparser, anchor=f"{anchor}-{name}", title=subparser.prog,
                                      summary=summary, underline="-"))
        self.env.cli_reference_docs = getattr(self.env, "cli_reference_docs", set()) | {self.env.docname}
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source=f"<cli-reference {spec}>"), container)
        return container.children


def always_outdated(app: Sphinx, env: Any, added: set[str], changed: set[str], removed: set[str]) -> list[str]:
    """The pages with a reference are read at every build: the parser is code, which Sphinx does not watch."""
    return sorted(getattr(env, "cli_reference_docs", set()) - removed)


def forget(app: Sphinx, env: Any, docname: str) -> None:
    getattr(env, "cli_reference_docs", set()).discard(docname)


def merge(app: Sphinx, env: Any, docnames: set[str], other: Any) -> None:
    env.cli_reference_docs = getattr(env, "cli_reference_docs", set()) | getattr(other, "cli_reference_docs", set())


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("cli-reference", CLIReference)
    app.connect("env-get-outdated", always_outdated)
    app.connect("env-purge-doc", forget)
    app.connect("env-merge-info", merge)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
