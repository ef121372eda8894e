"""``python -m gamecert``: the same as the ``gamecert`` command."""

import sys

from gamecert.commands.cli import main

if __name__ == "__main__":
    sys.exit(main())
