"""Reading a rule's JSON (:meth:`Rule.from_dict <rulemodels.rules.Rule.from_dict>`,
:meth:`Rule.from_json <rulemodels.rules.Rule.from_json>`): strict validation, each error naming its path.

The rule files (:mod:`rulemodels.rules._files`) and the rule lists read their
JSON with the same helpers (:func:`_object_from_pairs`, :func:`check_unique_keys`).
The literals are built by the constructor :meth:`Rule.from_dict` passes in, so
this module does not import :mod:`rulemodels.rules._rule`, which imports it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rulemodels.rules._ops import FLAG_OPS, FORMS, NAN_OPS, SET_OPS, VALID_OPS, VALID_OPS_TEXT

if TYPE_CHECKING:  # annotations only: rulemodels.rules._rule imports this module
    from rulemodels.rules._rule import Literal

__all__ = ["RuleFormatError", "check_unique_keys", "read_rule_data", "read_rule_json"]

FORMAT_NAME = "rulemodels.rule"
#: Version 2 added the set literals (ops ``in``/``not_in``); a rule without
#: them is still written as version 1, so older releases read it.
FORMAT_VERSION = 2
_READABLE_VERSIONS = (1, 2)


class RuleFormatError(ValueError):
    """A serialized rule (dict or JSON text) is malformed.

    The message starts with the path of the offending entry, e.g.
    ``clauses[1][0].op: unknown op 'eval'; expected one of ...``.
    """


def read_rule_data(d: Mapping[str, Any], literal: Callable[[str, str, Any], Literal]) -> tuple[str, list[list[Literal]]]:
    """``(form, clauses)`` of a rule's :meth:`~rulemodels.rules.Rule.to_dict` output, validated strictly.

    Parameters
    ----------
    d : Mapping
        The rule as data.
    literal : callable
        ``literal(feature, op, value)`` builds each literal (:class:`~rulemodels.rules.Literal`).

    Returns
    -------
    tuple
        The form, and each clause as a list of its literals.

    Raises
    ------
    RuleFormatError
        If anything is malformed; the message names the offending path.
    """
    _check_object(d, "rule", required=("format", "version", "form", "clauses"))
    if d["format"] != FORMAT_NAME:
        raise RuleFormatError(f"format: expected {FORMAT_NAME!r}, got {d['format']!r}")
    version = d["version"]
    if type(version) is not int or version not in _READABLE_VERSIONS:  # 1.0 and true are not versions
        raise RuleFormatError(
            f"version: unsupported version {version!r}; this release reads versions "
            f"{', '.join(map(str, _READABLE_VERSIONS))} (a whole number, as written by to_dict)"
        )
    if d["form"] not in FORMS:
        raise RuleFormatError(f"form: unknown form {d['form']!r}; expected 'cnf' or 'dnf'")
    clauses = d["clauses"]
    if not isinstance(clauses, list):
        raise RuleFormatError(
            f"clauses: expected a list of clauses, got {type(clauses).__name__}"
        )
    read = [_clause_from_data(c, f"clauses[{r}]", literal) for r, c in enumerate(clauses)]
    if version < FORMAT_VERSION:
        _check_no_set_ops(clauses, version)
    return d["form"], read


def read_rule_json(s: str | bytes) -> Any:
    """The data of a rule's JSON text (never pickle, never ``eval``), for :func:`read_rule_data`.

    An object that names a key twice is refused (JSON parsers keep the last
    one, while a reader of the file sees the first), and so are ``NaN`` and
    ``Infinity``, which standard JSON lacks.

    Parameters
    ----------
    s : str or bytes
        The JSON text.

    Returns
    -------
    object
        The parsed document.

    Raises
    ------
    TypeError
        If ``s`` is not text.
    RuleFormatError
        If ``s`` is not standard JSON, or an object names a key twice.
    """
    if not isinstance(s, str | bytes | bytearray):
        raise TypeError(f"from_json expects JSON text (str or bytes); got {type(s).__name__}")
    try:
        data = json.loads(s, parse_constant=_reject_constant, object_pairs_hook=_object_from_pairs)
    except json.JSONDecodeError as exc:
        raise RuleFormatError(
            f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from exc
    check_unique_keys(data, "the rule")
    return data


def _reject_constant(name: str) -> None:
    raise RuleFormatError(f"invalid JSON: {name} is not a standard JSON value")


class _ParsedObject(dict):
    """A JSON object as parsed by :func:`_object_from_pairs`: a dict that remembers a repeated key."""

    repeated: str | None = None


def _object_from_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``' ``object_pairs_hook``: the object as a dict, noting the first key named twice.

    The error is raised by :func:`check_unique_keys`, which knows where the object is.
    """
    parsed = dict(pairs)
    if len(parsed) == len(pairs):
        return parsed
    marked = _ParsedObject(pairs)  # only an object with a repeated key is marked
    seen: set[str] = set()
    marked.repeated = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
    return marked


def check_unique_keys(document: Any, root: str) -> None:
    """Raise :class:`RuleFormatError` naming the first key an object of ``document`` repeats, and where.

    ``document`` is parsed with ``object_pairs_hook=_object_from_pairs``; ``root``
    names the whole document in the message (``"the rule"``). One pass over the
    document, without recursion.
    """
    stack: list[tuple[Any, str]] = [(document, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            repeated = getattr(value, "repeated", None)
            if repeated is not None:
                where = f"in {path}" if path else f"at the top of {root}"
                raise RuleFormatError(
                    f"duplicate key {repeated!r} {where}: a JSON object must name each key once (a parser keeps "
                    "the last value while a reader sees the first); remove one of them"
                )
            stack.extend((item, f"{path}.{key}" if path else str(key)) for key, item in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{k}]") for k, item in reversed(list(enumerate(value))))


def _check_no_set_ops(clauses: list[Any], version: int) -> None:
    """Refuse a set literal in a rule of a version before set literals existed (a file edited by hand)."""
    for r, clause in enumerate(clauses):
        for j, item in enumerate(clause):
            if item["op"] in SET_OPS:
                raise RuleFormatError(
                    f"clauses[{r}][{j}].op: op {item['op']!r} is a version-{FORMAT_VERSION} operator, but the rule "
                    f"says version {version}: the file is inconsistent (set 'version' to {FORMAT_VERSION}, "
                    "or write the rule again with to_json)"
                )


def _check_object(data: object, path: str, required: Sequence[str],
                  optional: Sequence[str] = ()) -> None:
    """Check that ``data`` is a dict with exactly the expected keys."""
    if not isinstance(data, Mapping):
        raise RuleFormatError(
            f"{path}: expected an object with keys {', '.join(required)}; "
            f"got {type(data).__name__}"
        )
    for key in required:
        if key not in data:
            raise RuleFormatError(f"{path}: missing key {key!r}")
    unknown = [k for k in data if k not in required and k not in optional]
    if unknown:
        raise RuleFormatError(f"{path}: unexpected key(s) {', '.join(map(repr, unknown))}")


def _clause_from_data(data: object, path: str, literal: Callable[[str, str, Any], Literal]) -> list[Literal]:
    if not isinstance(data, list):
        raise RuleFormatError(f"{path}: expected a list of literals, got {type(data).__name__}")
    return [_literal_from_data(item, f"{path}[{j}]", literal) for j, item in enumerate(data)]


def _literal_from_data(data: object, path: str, literal: Callable[[str, str, Any], Literal]) -> Literal:
    _check_object(data, path, required=("feature", "op"), optional=("value",))
    assert isinstance(data, Mapping)
    feature, op, value = data["feature"], data["op"], data.get("value")
    if not isinstance(feature, str):
        raise RuleFormatError(f"{path}.feature: expected a string, got {type(feature).__name__}")
    if not isinstance(op, str) or op not in VALID_OPS:
        raise RuleFormatError(f"{path}.op: unknown op {op!r}; expected one of {VALID_OPS_TEXT}")
    if op in SET_OPS:
        if not isinstance(value, list) or not all(isinstance(v, str | int | float | bool) for v in value):
            raise RuleFormatError(f"{path}.value: op {op!r} needs a list of categories (JSON scalars)")
    elif value is not None and not isinstance(value, str | int | float | bool):
        raise RuleFormatError(
            f"{path}.value: expected a JSON scalar (string, number, boolean or null), "
            f"got {type(value).__name__}"
        )
    if value is None and op not in FLAG_OPS + NAN_OPS:
        raise RuleFormatError(f"{path}.value: op {op!r} needs a value; got null or nothing")
    try:
        return literal(feature, op, value)
    except (TypeError, ValueError) as exc:
        raise RuleFormatError(f"{path}.value: {exc}") from exc
