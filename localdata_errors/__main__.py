"""``python -m localdata_errors``: the command line."""

import sys

from localdata_errors._cli import main

sys.exit(main())
