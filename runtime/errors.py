"""The errors a user can act on. The CLI prints each as one line on stderr and exits 2; any other
exception is an internal failure (exit 1, cli/app.py)."""


class UsageError(ValueError):
    """A mistake in what the user asked for or handed in: an option, a config, an input file, an
    output path, a model folder. The message names the option, key, file or line."""
