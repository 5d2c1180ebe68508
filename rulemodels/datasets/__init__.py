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

import pandas as pd

from rulemodels.datasets._synthetic import make_rule_data

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
