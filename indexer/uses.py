"""A file's uses of names on disk: one packed row per file, not one row per use.

Resolution reads a file's uses all at once, and nothing else reads them one by
one, so a file's (user, name, kind) triples travel as one text blob, each once
(where a use is, line by line, changes no link). The kernel's 7.5 million uses
were that many rows and three B-trees; they are now ~49 thousand rows, plus one
row per distinct name a file uses (2.2 million), which answers "who uses this name".

Packing runs in the worker processes; the writer only inserts bytes.
"""

from __future__ import annotations

import re

_FIELD, _RECORD = "\x1f", "\x1e"  # ASCII unit and record separators: in no name
_SEPARATOR = re.compile("[\x1e\x1f]")


def pack(path: str, refs) -> tuple[bytes, list[str]]:
    """[(user id, name, kind, ...)] of one file -> (packed uses, names used).
    A user is the file or one of its nodes (`path#fragment`): only the fragment is
    kept. A use with a separator in it names nothing and is dropped."""
    cut = len(path) + 1
    triples = [
        t
        for t in dict.fromkeys((src[cut:], name, kind or "") for src, name, kind, *_ in refs)
        if not _SEPARATOR.search("".join(t))
    ]
    packed = _RECORD.join(_FIELD.join(t) for t in triples).encode()
    return packed, list(dict.fromkeys(name for _, name, _ in triples))


def unpack(path: str, data: bytes) -> list[tuple[str, str, str, str | None]]:
    """The packed uses of `path` -> [(path, user id, name, kind)]."""
    if not data:
        return []
    prefix = path + "#"
    out = []
    for record in data.decode().split(_RECORD):
        fragment, name, kind = record.split(_FIELD)
        out.append((path, prefix + fragment if fragment else path, name, kind or None))
    return out
