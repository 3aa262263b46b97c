"""The repository is the boundary. A path that comes from outside (a host's anchor,
a verify id, a watcher event) names something only when it lies inside the root
with no symlink on the way; a file is read only when it is a regular file, opened
so that nothing (a FIFO, a device, /proc/kmsg) can block the reader."""

from __future__ import annotations

import errno
import os
import posixpath
import stat as stat_mod

_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def utf8(name: str) -> bool:
    """Whether a name read with surrogateescape was valid UTF-8 on disk."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def inside(root: str, rel: str) -> str | None:
    """The canonical repository-relative form of `rel` ('' for the root itself), or
    None when it leaves the root (`..`, an absolute path), passes through a symlink
    (a link to a directory elsewhere, or to an ignored one), or is no name a file
    system holds (a NUL, bytes that are not UTF-8)."""
    if "\0" in rel or rel.startswith("/") or not utf8(rel):
        return None
    norm = posixpath.normpath(rel) if rel else "."
    if norm == ".":
        return ""
    if norm == ".." or norm.startswith("../"):
        return None
    full = os.path.join(root, norm)
    # realpath resolves every symlink on the way; a path free of them comes back as
    # it went in. A name the file system refuses (too long) resolves to itself and
    # fails later, when it is opened.
    if os.path.realpath(full) != full:
        return None
    return norm


def resolve(root: str, path: str) -> str | None:
    """Where `path` (absolute, or relative to the root) leads once every symlink is
    followed, as a repository-relative path ('' for the root), or None when that is
    outside the root. A link inside the tree to a file inside it names that file."""
    if "\0" in path or not utf8(path):
        return None
    real = os.path.realpath(os.path.join(root, path))
    if real == root:
        return ""
    if not real.startswith(root + os.sep):
        return None
    return real[len(root) + 1 :].replace(os.sep, "/")


def read_regular(path: str, limit: int) -> bytes:
    """Up to `limit` bytes of the regular file at `path`. Anything else (a FIFO, a
    device, a socket, a symlink swapped in) raises OSError: it is opened without
    blocking and checked after opening, so a swap between a stat and the open
    cannot make the reader wait forever."""
    fd = os.open(path, _OPEN_FLAGS)
    try:
        if not stat_mod.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        chunks, left = [], limit
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)
