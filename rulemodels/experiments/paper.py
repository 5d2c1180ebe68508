"""The paper's grid and its Table 1, as published (constants only)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = [
    "PAPER_ALGORITHMS",
    "PAPER_BASELINES",
    "PAPER_CLAUSES",
    "PAPER_DATASETS",
    "PAPER_TABLE1",
    "PAPER_THETAS",
]


#: θ = A·10^B for A in {1, 2, 5} and B in {-4, ..., 1}, ascending (18 values,
#: 0.0001 ... 50). Built from decimal text so that each value is the float
#: nearest to its decimal (``5e-4`` is 0.0005, not ``5 * 10.0**-4``), which
#: keeps :attr:`Task.key` readable and stable.
PAPER_THETAS: tuple[float, ...] = tuple(sorted(float(f"{a}e{b}") for a in (1, 2, 5) for b in range(-4, 2)))

#: Datasets of Table 1, in the paper's row order ("Parkin" is ``parkinsons``).
PAPER_DATASETS: tuple[str, ...] = ("sonar", "liver", "pima", "parkinsons")

#: Algorithms of Table 1, in the paper's column order.
PAPER_ALGORITHMS: tuple[str, ...] = ("scs", "scn", "tlp", "bcd", "am")

#: Numbers of clauses R of Table 1.
PAPER_CLAUSES: tuple[int, ...] = (1, 2, 3, 4, 5)

# Table 1 of the paper (minimal average test error over θ, in %), transcribed
# from the LaTeX source: for each dataset the rows R = 1..5, each row in the
# column order SCS, SCN, TLP, BCD, AM. Bold face is dropped.
_PAPER_TABLE1_ROWS: dict[str, tuple[tuple[float, float, float, float, float], ...]] = {
    "sonar": (
        (30.3, 25.5, 25.5, 25.5, 25.5),
        (29.8, 23.6, 28.4, 25.5, 21.2),
        (26.0, 22.1, 30.8, 25.5, 24.0),
        (25.5, 23.6, 29.8, 20.2, 22.6),
        (28.4, 23.6, 29.8, 23.6, 18.3),
    ),
    "liver": (
        (42.0, 42.0, 39.7, 42.0, 42.0),
        (40.6, 40.9, 41.4, 35.7, 34.2),
        (40.3, 41.4, 40.9, 36.8, 33.6),
        (39.7, 40.6, 42.0, 37.1, 34.2),
        (39.4, 40.6, 41.7, 33.9, 33.0),
    ),
    "pima": (
        (26.6, 26.7, 25.4, 26.7, 26.7),
        (26.7, 26.2, 28.0, 24.9, 22.7),
        (27.5, 26.4, 26.7, 25.7, 23.7),
        (27.5, 27.1, 26.3, 25.7, 24.1),
        (27.5, 27.1, 25.1, 25.7, 24.9),
    ),
    "parkinsons": (
        (15.9, 15.9, 14.4, 15.9, 15.9),
        (13.8, 13.8, 14.9, 12.8, 14.4),
        (14.4, 14.4, 14.4, 12.3, 13.8),
        (14.4, 14.4, 14.9, 13.3, 14.9),
        (14.4, 14.4, 14.9, 13.3, 15.4),
    ),
}

#: The paper's Table 1, read-only: ``PAPER_TABLE1[(dataset, R, algorithm)]``
#: is the minimal mean test error over the 18 θ in **percent**, e.g.
#: ``PAPER_TABLE1[("pima", 2, "am")] == 22.7``.
PAPER_TABLE1: Mapping[tuple[str, int, str], float] = MappingProxyType({
    (dataset, r + 1, algorithm): value
    for dataset, rows in _PAPER_TABLE1_ROWS.items()
    for r, row in enumerate(rows)
    for algorithm, value in zip(PAPER_ALGORITHMS, row, strict=True)
})

#: The non-rule baselines Table 1 cites from Malioutov & Varshney (2013), in
#: percent, independent of R: decision list (``dl``), C5.0 rule set
#: (``c5.0``) and CART (``cart``).
PAPER_BASELINES: Mapping[str, Mapping[str, float]] = MappingProxyType({
    "sonar": MappingProxyType({"dl": 38.5, "c5.0": 25.0, "cart": 28.4}),
    "liver": MappingProxyType({"dl": 45.2, "c5.0": 36.5, "cart": 37.7}),
    "pima": MappingProxyType({"dl": 31.4, "c5.0": 24.9, "cart": 28.9}),
    "parkinsons": MappingProxyType({"dl": 25.1, "c5.0": 16.4, "cart": 12.8}),
})
