"""The ``cloudsim-py`` subcommands beyond run / validate / policies, one module each, each with
an ``add_*_commands(subparsers)`` function. Imported only when the command line is built."""
