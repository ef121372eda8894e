import sys

from gamecert.cli import main

sys.exit(main())
