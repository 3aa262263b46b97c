"""Where a repository's index lives (one file per repository, outside the tree), and
keeping that file and its folder the user's alone."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

CACHE_ENV = "REPO_GRAPH_CACHE_DIR"


def default_cache_dir() -> Path:
    """`$REPO_GRAPH_CACHE_DIR`, else the platform cache dir; works with only HOME set."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "repo-graph"
    home = Path(os.environ.get("HOME") or Path.home())
    if os.uname().sysname == "Darwin":
        return home / "Library" / "Caches" / "repo-graph"
    return home / ".cache" / "repo-graph"


def db_path_for(root: Path, cache_dir: Path | None = None) -> Path:
    """One database per repository, keyed by its real path."""
    real = str(Path(root).resolve())
    key = hashlib.sha256(real.encode()).hexdigest()[:16]
    name = "".join(c if c.isalnum() or c in "-_." else "_" for c in Path(real).name)[:40]
    return (cache_dir or default_cache_dir()) / f"{name}-{key}.sqlite3"


def _private(path: Path, mode: int) -> None:
    """Bring a file or folder of ours to `mode` (0700/0600): the index holds the
    repository's code and its digests, for the user alone."""
    try:
        st = path.stat()
        shared = st.st_mode & stat.S_ISVTX or path == Path.home()  # /tmp, a home named as --cache-dir: not ours
        if st.st_uid == os.geteuid() and st.st_mode & 0o777 != mode and not shared:
            path.chmod(mode)
    except (OSError, RuntimeError):
        pass
