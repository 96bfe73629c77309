"""The ``clinrag`` command line (entry point :func:`clinrag.cli.main.main`); one module per command group,
shared argument handling in :mod:`clinrag.cli.common`."""
