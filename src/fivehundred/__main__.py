import sys

from fivehundred.cli import main

sys.exit(main())
