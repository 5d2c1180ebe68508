"""The report's figures: inline SVG drawn from a :class:`~rulemodels.report.ReportData`, sized to hold every label.

No figure cuts a text: long labels wrap (:func:`_wrap`, with the whole text
as a tooltip) and each figure's width grows to hold its longest label
(:func:`_text_width`, a generous estimate).
"""

from __future__ import annotations

import html
import math
import unicodedata
from collections.abc import Sequence

import numpy as np
import pandas as pd

from rulemodels.report._data import ReportData

_ESC = html.escape


def _pct(value: float | None) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{100 * value:.1f} %"



def _svg(width: int, height: int, body: str, label: str) -> str:
    return (f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{_ESC(label)}"><rect width="{width}" height="{height}" fill="#ffffff"/>{body}</svg>')


def _text(x: float, y: float, text: str, *, size: int = 12, anchor: str = "start", fill: str = "#1b1b1b",
          weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}" '
            f'font-weight="{weight}" font-family="sans-serif">{_ESC(text)}</text>')


def _char_width(char: str) -> float:
    """An upper bound of a character's width in common sans-serif fonts, in em (to size figures, never to cut)."""
    if char in "mwMW@%\u2014":
        return 1.0
    if char in " .,:;'|!`iIjlft()[]-":
        return 0.42
    if char.isascii():
        return 0.8 if char.isupper() else 0.66
    return 1.05 if unicodedata.east_asian_width(char) in ("W", "F") else 0.8


def _text_width(text: str, size: int) -> float:
    """A generous estimate of the width of ``text`` in a sans-serif font of ``size`` pixels."""
    return size * sum(_char_width(char) for char in text)


def _wrap(text: str, width: float, size: int) -> list[str]:
    """``text`` in lines no wider than ``width`` pixels (:func:`_text_width`), broken at spaces where it can, else
    inside a word: every character is kept."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        while _text_width(word, size) > width and len(word) > 1:
            if current:
                lines.append(current)
                current = ""
            cut = 1
            while cut < len(word) and _text_width(word[:cut + 1], size) <= width:
                cut += 1
            lines.append(word[:cut])
            word = word[cut:]
        joined = f"{current} {word}" if current else word
        if current and _text_width(joined, size) > width:
            lines.append(current)
            current = word
        else:
            current = joined
    lines.append(current)
    return lines


def _lines(x: float, y: float, lines: Sequence[str], whole: str, *, size: int, step: int, anchor: str) -> str:
    """A text of several lines (the first at ``y``), with ``whole`` as its tooltip."""
    spans = "".join(f'<tspan x="{x:.1f}" dy="{0 if k == 0 else step}">{_ESC(text)}</tspan>' for k, text in enumerate(lines))
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="#1b1b1b" '
            f'font-family="sans-serif"><title>{_ESC(whole)}</title>{spans}</text>')


def _parts_chart(data: ReportData) -> str:
    """Horizontal bars per clause (step): the rows it fires on (claims), the labelled ones of its class darker;
    below, the rows it alone decides, right (green) and wrong (red)."""
    parts = data.parts
    largest = max([p.fires for p in parts] + [p.decides or 0 for p in parts] + [1])
    left, width, row_height = 110, 430, 46
    height = 40 + row_height * len(parts)
    body = [_text(left, 16, "rows it fires on (of its class: dark)", size=11, fill="#333"),
            _text(left + 250, 16, "rows it alone decides: right / wrong", size=11, fill="#333")]
    for k, part in enumerate(parts):
        y = 28 + k * row_height
        body.append(_text(left - 8, y + 14, part.name, anchor="end", size=12, weight="bold"))
        bar = width * part.fires / largest
        share = 0.0 if math.isnan(part.precision) else part.precision
        body.append(f'<rect x="{left}" y="{y}" width="{bar:.1f}" height="16" fill="#a9c4e8"/>')
        body.append(f'<rect x="{left}" y="{y}" width="{bar * share:.1f}" height="16" fill="#2f6db5"/>')
        body.append(_text(left + bar + 6, y + 13, f"{part.fires} ({_pct(part.precision)})", size=11))
        if part.decides is not None:
            right = width * (part.decides_right or 0) / largest
            wrong = width * (part.decides_wrong or 0) / largest
            body.append(f'<rect x="{left}" y="{y + 19}" width="{right:.1f}" height="10" fill="#3c9a4b"/>')
            body.append(f'<rect x="{left + right:.1f}" y="{y + 19}" width="{wrong:.1f}" height="10" fill="#c8453a"/>')
            body.append(_text(left + right + wrong + 6, y + 28,
                              f"alone decides {part.decides}: {part.decides_right} right, {part.decides_wrong} wrong", size=10))
    texts = [f"{p.fires} ({_pct(p.precision)})" for p in parts] + [
        f"alone decides {p.decides}: {p.decides_right} right, {p.decides_wrong} wrong" for p in parts]
    margin = max([200.0] + [_text_width(text, 11) + 16 for text in texts])
    return _svg(int(left + width + margin), height, "".join(body), "rows each clause fires on and alone decides")


def _confusion_chart(data: ReportData) -> str:
    """The confusion matrix as shaded cells (share of each actual class's rows), counts written in.

    Class labels are never cut: a long one is wrapped over several lines (the
    margins and cells grow to hold them), with the whole label as its tooltip.
    """
    names = [str(c) for c in data.classes]
    k = len(names)
    cell = 70 if k <= 4 else 48
    size, line = 11, 13
    longest_word = max(_text_width(word, size) for name in names for word in name.split(" "))
    cell = int(max(cell, min(160.0, longest_word + 10)))
    columns = [_wrap(name, cell - 6, size) for name in names]
    rows = [_wrap(name, 220, size) for name in names]
    widest = max(_text_width(text, size) for lines in rows for text in lines)
    left = int(max(130.0, widest + 24))
    top = 40 + line * max(len(lines) for lines in columns)
    cell_height = max(cell, line * max(len(lines) for lines in rows) + 10)
    body = [_text(left + cell * k / 2, 16, "predicted", anchor="middle", size=12, weight="bold"),
            _text(14, top - 8, "actual", size=12, weight="bold")]
    totals = data.confusion.sum(axis=1)
    for j, lines in enumerate(columns):
        head = top - 8 - line * (len(lines) - 1)
        body.append(_lines(left + cell * j + cell / 2, head, lines, names[j], size=size, step=line, anchor="middle"))
    for i, lines in enumerate(rows):
        first = top + cell_height * i + cell_height / 2 + 4 - line * (len(lines) - 1) / 2
        body.append(_lines(left - 8, first, lines, names[i], size=size, step=line, anchor="end"))
        for j in range(k):
            count = int(data.confusion[i, j])
            share = count / totals[i] if totals[i] else 0.0
            base = (47, 109, 181) if i == j else (200, 69, 58)
            colour = tuple(int(255 - (255 - c) * share) for c in base)
            body.append(f'<rect x="{left + cell * j}" y="{top + cell_height * i}" width="{cell}" '
                        f'height="{cell_height}" fill="rgb{colour}" stroke="#888"/>')
            body.append(_text(left + cell * j + cell / 2, top + cell_height * i + cell_height / 2 + 5, str(count),
                              anchor="middle", size=13, fill="#ffffff" if share > 0.55 else "#1b1b1b", weight="bold"))
    width = int(max(left + cell * k + 20, left + cell * k / 2 + _text_width("predicted", 12) / 2 + 20))
    return _svg(width, top + cell_height * k + 12, "".join(body), "confusion matrix")


def _pareto_chart(data: ReportData) -> str:
    """Mean test error against mean literals: every cv cell (grey), the optimistic front (blue line), the honest
    nested points (orange diamonds), and this rule (red star: its literals, its error on the report's data)."""
    pareto = data.pareto
    assert pareto is not None
    points, honest = pareto["points"], pareto["honest"]
    mine = (float(data.rule.n_literals), data.error)
    xs = [*points["literals"], *honest["literals"].dropna(), mine[0]]
    ys = [*points["error"], *honest["error"], mine[1]]
    x_step = max(1, math.ceil(max(xs) * 1.08 / 8))
    x_high = float(x_step * max(1, math.ceil(max(xs) * 1.08 / x_step)))
    y_low, y_high = max(0.0, min(ys) - 0.03), max(ys) + 0.03
    left, top, width, height = 60, 20, 520, 300

    def sx(x: float) -> float:
        return left + width * x / x_high

    def sy(y: float) -> float:
        return top + height * (1 - (y - y_low) / (y_high - y_low))

    body = [f'<line x1="{left}" y1="{top + height}" x2="{left + width}" y2="{top + height}" stroke="#333"/>',
            f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + height}" stroke="#333"/>']
    for k in range(6):
        value = y_low + (y_high - y_low) * k / 5
        body.append(_text(left - 6, sy(value) + 4, f"{100 * value:.1f}%", anchor="end", size=10))
        body.append(f'<line x1="{left}" y1="{sy(value):.1f}" x2="{left + width}" y2="{sy(value):.1f}" stroke="#eee"/>')
    for tick in range(0, int(x_high) + 1, x_step):
        body.append(_text(sx(tick), top + height + 16, str(tick), anchor="middle", size=10))
    body.append(_text(left + width / 2, top + height + 34, "literals (mean over folds)", anchor="middle", size=12))
    body.append(_text(14, top - 6, "test error", size=12))
    for row in points.itertuples(index=False):
        body.append(f'<circle cx="{sx(row.literals):.1f}" cy="{sy(row.error):.1f}" r="3" fill="#b5b5b5"/>')
    front = points[points["on_front"]].sort_values("literals")
    if len(front):
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in zip(front["literals"], front["error"]))
        body.append(f'<polyline points="{path}" fill="none" stroke="#2f6db5" stroke-width="2"/>')
        for x, y in zip(front["literals"], front["error"]):
            body.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="4.5" fill="#2f6db5"/>')
    for row in points[points["this_setting"]].itertuples(index=False):
        body.append(f'<circle cx="{sx(row.literals):.1f}" cy="{sy(row.error):.1f}" r="8" fill="none" '
                    'stroke="#c8453a" stroke-width="2"/>')
    for row in honest.dropna(subset=["literals"]).itertuples(index=False):
        x, y = sx(row.literals), sy(row.error)
        body.append(f'<polygon points="{x:.1f},{y - 6:.1f} {x + 6:.1f},{y:.1f} {x:.1f},{y + 6:.1f} {x - 6:.1f},{y:.1f}" '
                    'fill="#e08a1e"/>')
    x, y = sx(mine[0]), sy(mine[1])
    star = " ".join(
        f"{x + (9 if k % 2 == 0 else 4) * math.sin(math.pi * k / 5):.1f},{y - (9 if k % 2 == 0 else 4) * math.cos(math.pi * k / 5):.1f}"
        for k in range(10))
    body.append(f'<polygon points="{star}" fill="#c8453a" stroke="#7a1f18"/>')
    legend = [("#b5b5b5", "every cv cell (form, algorithm, R, θ)"), ("#2f6db5", "front: test-fold selection (optimistic)"),
              ("#e08a1e", "honest (nested): θ chosen by inner CV"), ("#c8453a", f"this rule: error on {data.data_name}")]
    for k, (colour, label) in enumerate(legend):
        ly = top + 8 + 18 * k
        body.append(f'<rect x="{left + width + 14}" y="{ly}" width="12" height="12" fill="{colour}"/>')
        body.append(_text(left + width + 32, ly + 10, label, size=11))
    margin = max([300.0] + [_text_width(label, 11) + 50 for _, label in legend])
    return _svg(int(left + width + margin), top + height + 44, "".join(body), "Pareto front of test error against literals")


_PATH_COLOURS = ("#2f6db5", "#e08a1e", "#3c9a4b", "#8e44ad", "#17a2b8", "#5d6d7e")  # no red: the ring is red


def _path_values(data: ReportData) -> tuple[pd.DataFrame, str]:
    """The path's rows by R and θ with ``y``: the CV error (accuracy) or the CV score (another scorer), and its name."""
    assert data.path is not None
    path = data.path.sort_values(["n_clauses", "theta"], ascending=[True, False]).reset_index(drop=True)
    error = data.path_scoring == "accuracy"
    path = path.assign(y=1.0 - path["mean_test_score"] if error else path["mean_test_score"])
    return path, "CV error" if error else f"CV {data.path_scoring}"


def _path_chart(data: ReportData) -> str:
    """Two panels against θ (log scale, largest θ on the left): the CV error (or score) and the mean literals of
    the folds' rules, one line per R; a red ring marks the chosen candidate."""
    path, label = _path_values(data)
    thetas = np.log10(path["theta"].to_numpy(dtype=float))
    x_high, x_low = float(thetas.max()), float(thetas.min())
    span = max(x_high - x_low, 1e-9)
    left, width, height, gap, top = 60, 460, 150, 46, 20

    def sx(value: float) -> float:
        return left + width * (x_high - value) / span

    body: list[str] = []

    def panel(column: str, y_top: float, title: str, percent: bool) -> None:
        values = path[column].to_numpy(dtype=float)
        low, high = float(np.nanmin(values)), float(np.nanmax(values))
        pad = max((high - low) * 0.1, 0.01 if percent else 0.5)
        low, high = (max(0.0, low - pad), high + pad)

        def sy(value: float) -> float:
            return y_top + height * (1 - (value - low) / (high - low))

        body.append(f'<line x1="{left}" y1="{y_top + height}" x2="{left + width}" y2="{y_top + height}" stroke="#333"/>')
        body.append(f'<line x1="{left}" y1="{y_top}" x2="{left}" y2="{y_top + height}" stroke="#333"/>')
        for k in range(5):
            value = low + (high - low) * k / 4
            body.append(f'<line x1="{left}" y1="{sy(value):.1f}" x2="{left + width}" y2="{sy(value):.1f}" stroke="#eee"/>')
            body.append(_text(left - 6, sy(value) + 4, f"{100 * value:.1f}%" if percent else f"{value:.1f}",
                              anchor="end", size=10))
        body.append(_text(left, y_top - 6, title, size=12))
        for k, (_, rows) in enumerate(path.groupby("n_clauses", sort=True)):
            colour = _PATH_COLOURS[k % len(_PATH_COLOURS)]
            rows = rows[np.isfinite(rows[column].to_numpy(dtype=float))]  # a candidate every fold failed: no point
            xs, ys = np.log10(rows["theta"].to_numpy(dtype=float)), rows[column].to_numpy(dtype=float)
            points = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in zip(xs, ys))
            body.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
            body.extend(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3" fill="{colour}"/>' for x, y in zip(xs, ys))
        for row in path[path["chosen"]].itertuples(index=False):
            value = float(getattr(row, column))
            if not math.isfinite(value):
                continue
            body.append(f'<circle cx="{sx(math.log10(row.theta)):.1f}" cy="{sy(value):.1f}" r="8" fill="none" '
                        'stroke="#c8453a" stroke-width="2"/>')

    panel("y", top, f"{label} (mean over folds)", True)
    panel("mean_n_literals", top + height + gap, "literals (mean over folds)", False)
    bottom = top + 2 * height + gap
    ticks = sorted({float(t) for t in path["theta"]}, reverse=True)
    for theta in ticks[:: max(1, math.ceil(len(ticks) / 6))]:
        body.append(_text(sx(math.log10(theta)), bottom + 16, f"{theta:.2g}", anchor="middle", size=10))
    body.append(_text(left + width / 2, bottom + 34, "θ (log scale; larger θ, simpler rules, on the left)",
                      anchor="middle", size=12))
    legend = [(_PATH_COLOURS[k % len(_PATH_COLOURS)], f"R = {n}") for k, n in enumerate(sorted(path["n_clauses"].unique()))]
    legend.append(("#c8453a", "chosen (best mean CV score)"))
    for k, (colour, text) in enumerate(legend):
        ly = top + 8 + 18 * k
        body.append(f'<rect x="{left + width + 14}" y="{ly}" width="12" height="12" fill="{colour}"/>')
        body.append(_text(left + width + 32, ly + 10, text, size=11))
    return _svg(left + width + 230, bottom + 44, "".join(body), f"{label} and literals against θ")
