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
from operator import itemgetter

_FIELD, _RECORD = "\x1f", "\x1e"  # ASCII unit and record separators: in no name
_SEPARATOR = re.compile("[\x1e\x1f]")


def pack(path: str, refs) -> tuple[bytes, list[str]]:
    """[(user id, name, kind, ...)] of one file -> (packed uses, names used).
    A user is the file or one of its nodes (`path#fragment`): only the fragment is
    kept. A use with a separator in it names nothing and is dropped."""
    cut = len(path) + 1
    triples = list(dict.fromkeys((src[cut:], name, kind or "") for src, name, kind, *_ in refs))
    text = _RECORD.join(map(_FIELD.join, triples))
    if text.count(_FIELD) != 2 * len(triples) or text.count(_RECORD) != max(0, len(triples) - 1):
        # Some use holds a separator (rare): those are dropped, the rest packed again.
        triples = [t for t in triples if not _SEPARATOR.search("".join(t))]
        text = _RECORD.join(map(_FIELD.join, triples))
    return text.encode(), list(dict.fromkeys(map(itemgetter(1), triples)))


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
