"""The four UCI benchmark datasets of Su et al., shipped with the package.

The CSV files live in ``rulemodels/datasets/data/`` and are read through
:mod:`importlib.resources`, so loading works from an installed package (wheel
or zip) as well as from a source tree. ``data/README.md`` gives attribution,
licence (CC BY 4.0) and checksums.

References
----------
.. [1] D. Dua and C. Graff, UCI Machine Learning Repository, University of
   California, Irvine, School of Information and Computer Sciences, 2019.
.. [2] G. Su, D. Wei, K. R. Varshney, D. M. Malioutov, "Interpretable Two-level
   Boolean Rule Learning for Classification", 2016, Section "Numerical
   Evaluation".

:func:`make_rule_data` draws synthetic tables of any size from a known noisy
rule (numeric, or credit-like with categories and missing values), for the
scaling benchmark and large-data tests.
"""

from __future__ import annotations

from importlib import resources
from numbers import Integral

import numpy as np
import pandas as pd

from rulemodels import defaults
from rulemodels.datasets._synthetic import mixed_rule_data, numeric_rule_data, resampled_rows
from rulemodels.utils import Interval, Options, check_parameter

__all__ = ["DATASET_INFO", "list_datasets", "load_dataset", "make_rule_data"]

_UCI = (
    "Dua, D. and Graff, C. (2019). UCI Machine Learning Repository. Irvine, CA: "
    "University of California, School of Information and Computer Science."
)

DATASET_INFO: dict[str, dict[str, object]] = {
    "sonar": {
        "file": "sonar.csv",
        "target": "label",
        "positive": "M",
        "drop": (),
        "description": (
            "Connectionist Bench (Sonar, Mines vs. Rocks): 60 sonar band energies "
            "in [0, 1]; label M (metal cylinder, 1) or R (rock, 0)."
        ),
        "citation": (
            "Gorman, R. P. and Sejnowski, T. J. (1988). Analysis of hidden units in a "
            "layered network trained to classify sonar targets. Neural Networks 1, "
            "75-89. Via " + _UCI
        ),
    },
    "liver": {
        "file": "liver.csv",
        "target": "selector",
        "positive": 2,
        "drop": (),
        "description": (
            "BUPA Liver Disorders: 5 blood tests and daily alcohol intake; target is "
            "the 'selector' column (1 or 2) as used in the rule-learning literature, "
            "positive class 2."
        ),
        "citation": (
            "BUPA Medical Research Ltd.; donated by R. S. Forsyth (1990). Via " + _UCI
        ),
    },
    "pima": {
        "file": "pima.csv",
        "target": "diabetes",
        "positive": 1,
        "drop": (),
        "description": (
            "Pima Indians Diabetes: 8 clinical measurements of women of Pima Indian "
            "heritage; diabetes 1 (positive) or 0. Zeros in glucose, blood_pressure, "
            "skin_thickness, insulin and bmi stand for missing values and are kept."
        ),
        "citation": (
            "National Institute of Diabetes and Digestive and Kidney Diseases; donated "
            "by V. Sigillito (1990). Smith, J. W. et al. (1988). Using the ADAP learning "
            "algorithm to forecast the onset of diabetes mellitus. Proc. Symposium on "
            "Computer Applications and Medical Care, 261-265. Via " + _UCI
        ),
    },
    "parkinsons": {
        "file": "parkinsons.csv",
        "target": "status",
        "positive": 1,
        "drop": ("name",),
        "description": (
            "Parkinsons: 22 voice measurements per recording; status 1 (Parkinson's "
            "disease, positive) or 0 (healthy). The recording identifier 'name' is "
            "dropped."
        ),
        "citation": (
            "Little, M. A., McSharry, P. E., Roberts, S. J., Costello, D. A. E. and "
            "Moroz, I. M. (2007). Exploiting nonlinear recurrence and fractal scaling "
            "properties for voice disorder detection. BioMedical Engineering OnLine "
            "6:23. Via " + _UCI
        ),
    },
}


def list_datasets() -> list[str]:
    """Return the names of the bundled datasets, sorted.

    Returns
    -------
    list of str
        The names of the bundled datasets, sorted.

    Examples
    --------
    >>> list_datasets()
    ['liver', 'parkinsons', 'pima', 'sonar']
    """
    return sorted(DATASET_INFO)


def load_dataset(name: str) -> tuple[pd.DataFrame, pd.Series]:
    """Load a bundled dataset as features and a 0/1 target.

    Parameters
    ----------
    name : str
        One of :func:`list_datasets`.

    Returns
    -------
    X : pandas.DataFrame of shape (n_samples, n_features)
        The features, without the target (and without identifier columns
        such as Parkinsons' ``name``).
    y : pandas.Series of int
        1 where the target column equals the dataset's positive class
        (``DATASET_INFO[name]['positive']``), else 0; named after the target
        column.

    Raises
    ------
    ValueError
        If ``name`` is not a bundled dataset.

    Examples
    --------
    >>> X, y = load_dataset("pima")
    >>> X.shape, int(y.sum())
    ((768, 8), 268)
    """
    if name not in DATASET_INFO:
        raise ValueError(
            f"unknown dataset {name!r}; available datasets are {list_datasets()}"
        )
    info = DATASET_INFO[name]
    resource = resources.files(__name__).joinpath("data").joinpath(str(info["file"]))
    with resource.open("rb") as handle:
        frame = pd.read_csv(handle)
    target = str(info["target"])
    y = (frame[target] == info["positive"]).astype(int).rename(target)
    X = frame.drop(columns=[target, *info["drop"]])  # type: ignore[misc]
    return X, y


def make_rule_data(
    n_samples: int, *, kind: str = "numeric", random_state: int = 0
) -> tuple[pd.DataFrame, pd.Series]:
    """Draw ``n_samples`` rows and a 0/1 label that follows a known noisy rule.

    Parameters
    ----------
    n_samples : int
        Number of rows (at least 1).
    kind : {"numeric", "mixed", "pima"}, default="numeric"
        - ``"numeric"``: 8 correlated Gaussian columns ``x0`` ... ``x7``
          (correlation 0.5 between neighbours, decaying with distance;
          ``x5`` is log-normal, ``x6`` a percentage in [0, 100]), and the
          label of the 3-clause DNF ``(x0 > 0.3 and x1 <= 0.5) or (x2 > 0.8
          and x3 > -0.2) or (x4 <= -0.6 and x7 > 0)`` with 5 % of the labels
          flipped. About 44 % of the labels are 1. Every value is
          continuous, so nearly every row is distinct even after
          binarization (9 thresholds give 144 binary features, about 10^8
          possible patterns).
        - ``"mixed"``: a credit-application-like table: 8 numeric columns,
          several of them integer-valued or skewed (``age``, ``income``,
          ``loan_amount``, ``n_accounts``, ``n_late_payments``,
          ``utilization``, ``tenure_months``, ``debt_to_income``), 4
          categorical ones (``region`` with 30 levels and ``product``,
          ``channel`` as pandas ``category``; ``employment`` as text), and a
          few % of missing values in ``income`` (and hence
          ``debt_to_income``), ``utilization`` and ``employment``. The label
          (``default``, about 26 % ones) is ``(n_late_payments >= 1 and
          utilization > 0.5) or (debt_to_income > 0.4 and employment in
          {unemployed, student}) or (age < 30 and region in R01-R05) or
          (income is missing and n_late_payments >= 1)``, with 5 % flipped.
        - ``"pima"``: the resampled Pima rows the earlier
          ``benchmarks/bench_scaling.py`` measured on (each class keeps
          Pima's share; each column of a row is drawn from that column's
          values in Pima's rows of the same class, plus ±1 % uniform
          jitter). With ``random_state=0`` it gives exactly the numbers of
          that script (``docs/benchmarks.md``, "Scaling with n"), so earlier
          measurements stay comparable. The label does not follow a rule.
    random_state : int, default=0
        Seed of :func:`numpy.random.default_rng`: the same seed and
        arguments give the same data.

    Returns
    -------
    X : pandas.DataFrame of shape (n_samples, n_columns)
        The features of ``kind``.
    y : pandas.Series of int
        The 0/1 labels the planted rule gives, named ``"label"`` (``"default"`` for ``mixed``).

    Raises
    ------
    rulemodels.utils.InvalidParameterError
        If ``n_samples`` is not a positive integer, ``kind`` is not one of
        the kinds above or ``random_state`` is not a non-negative integer.

    Examples
    --------
    >>> X, y = make_rule_data(1000)
    >>> X.shape, sorted(set(y))
    ((1000, 8), [0, 1])
    >>> X, y = make_rule_data(1000, kind="mixed")
    >>> int(X.isna().any(axis=0).sum()) > 0
    True
    """
    check_parameter("n_samples", n_samples, owner="make_rule_data", constraints=[Interval(Integral, 1, None, closed="left")])
    check_parameter("kind", kind, owner="make_rule_data", constraints=[Options(defaults.SYNTHETIC_KINDS)])
    check_parameter(
        "random_state", random_state, owner="make_rule_data", constraints=[Interval(Integral, 0, None, closed="left")],
    )
    n = int(n_samples)
    if kind == "pima":
        X, y = load_dataset("pima")
        return resampled_rows(X, y, n, int(random_state))
    rng = np.random.default_rng(int(random_state))
    if kind == "numeric":
        return numeric_rule_data(n, rng)
    return mixed_rule_data(n, rng)
