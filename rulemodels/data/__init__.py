"""Data preparation: binarize raw features into literal columns."""

from rulemodels.data.binarizer import FeatureBinarizer

__all__ = ["FeatureBinarizer"]
