"""The errors a user can act on. The CLI prints each as one line on stderr and exits 2; any other
exception is an internal failure (exit 1, cli/app.py)."""


class UsageError(ValueError):
    """A mistake in what the user asked for or handed in: an option, a config, an input file, an
    output path, a model folder. The message names the option, key, file or line."""


def unknown_name(names, known) -> str | None:
    """The first of `names` that is not one of `known`, quoted, with the nearest that is ("'nbest';
    did you mean 'n_best'?"); None when each is known."""
    import difflib

    known = list(known)
    for name in names:
        if name not in known:
            nearest = difflib.get_close_matches(name, known, n=1)
            return f"{name!r}; did you mean {nearest[0]!r}?" if nearest else repr(name)
    return None


def first_line(error: BaseException) -> str:
    """A library's error message as one line, at most 300 characters."""
    text = str(error).strip()
    return text.splitlines()[0][:300] if text else type(error).__name__
