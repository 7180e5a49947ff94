"""Write a model folder all at once: build it in a hidden sibling folder, then rename it into
place; on any failure the staging folder goes away and an existing folder is left untouched."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def staged_folder(out: Path) -> Iterator[Path]:
    """Yield an empty folder next to `out`; when the block succeeds it replaces `out`."""
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    staging.chmod(0o755)
    try:
        yield staging
        _replace(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _replace(staging: Path, out: Path) -> None:
    if out.exists():
        retired = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
        os.replace(out, retired / out.name)
        os.replace(staging, out)
        shutil.rmtree(retired, ignore_errors=True)
    else:
        os.replace(staging, out)
