"""``python -m recordroom`` is the ``recordroom`` command."""

from recordroom.cli import main

raise SystemExit(main())
