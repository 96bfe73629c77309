"""The ``clinrag`` command line (:func:`clinrag.cli.main.main`; the installed script runs it through
:func:`clinrag.cli.entry.run`); one module per command group, shared argument handling in :mod:`clinrag.cli.common`."""
