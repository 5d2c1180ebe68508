"""``python -m rulemodels.cli``: the same as the ``rulemodels`` command."""

import sys

from rulemodels.cli._main import main

if __name__ == "__main__":
    sys.exit(main())
