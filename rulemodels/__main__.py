"""``python -m rulemodels``: the same as the ``rulemodels`` command."""

import sys

from rulemodels.cli import main

if __name__ == "__main__":
    sys.exit(main())
