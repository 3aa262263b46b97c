"""The inverted index's on-disk form: one row per (term, file), its postings packed.

A row holds, for every node of one file that has the term, the node's offset from
the file's own node (a file's nodes get consecutive rowids), its weighted term
frequency and its length: everything BM25 needs, so a query reads a term's rows
and scores them as arrays, with no join and no Python object per posting. Rows
are keyed by the file node's rowid, so a file's postings go with it exactly.

Packing runs in the worker processes; the writer only inserts bytes. Only the
reading side needs numpy, so the workers start without importing it.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where rows are read: workers never load numpy
    import numpy as np

_PACK = struct.Struct("<Iff")  # offset, tf, length: the dtype in unpack()
RECORD_BYTES = _PACK.size  # one posting's bytes in a packed row


def pack(entries) -> dict[str, bytes]:
    """[(node offset in its file, {term: tf}, length)] -> {term: packed postings}."""
    by_term: dict[str, list[bytes]] = {}
    encode = _PACK.pack
    for offset, tf, length in entries:
        for term, n in tf.items():
            packed = encode(offset, n, length)
            found = by_term.get(term)
            if found is None:
                by_term[term] = [packed]
            else:
                found.append(packed)
    return {term: b"".join(parts) for term, parts in by_term.items()}


def records(size: int) -> int:
    """How many postings `size` bytes of packed rows hold."""
    return size // RECORD_BYTES


def unpack(rows) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """[(file rowid, packed)] -> (node rowids, file rowids, tf, length) arrays."""
    import numpy as np

    record = np.dtype([("offset", "<u4"), ("tf", "<f4"), ("length", "<f4")])
    if not rows:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0, np.float32), np.zeros(0, np.float32)
    bases, blobs = zip(*rows)  # in C: a common term has tens of thousands of rows
    sizes = np.fromiter(map(len, blobs), dtype=np.int64, count=len(blobs)) // record.itemsize
    records = np.frombuffer(b"".join(blobs), dtype=record)
    bases = np.array(bases, dtype=np.int64)
    files = np.repeat(bases, sizes)
    return files + records["offset"], files, records["tf"], records["length"]
