"""NDJSON over stdin/stdout. The wire goes to a private copy of fd 1, and fd 1 is
pointed at stderr, so a stray print (ours, a library's, a child's) can never
break a message. Lines are read as bytes with a size limit (R1)."""

from __future__ import annotations

import os
import select
import sys

MAX_LINE_BYTES = 8 * 1024 * 1024
_CHUNK = 1 << 16


def _claim_stdout() -> int:
    """A private descriptor for the wire; fd 1 now leads to stderr."""
    sys.stdout.flush()
    wire_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return wire_fd


def write_all(fd: int, data: bytes) -> None:
    """Write every byte: a pipe takes part of a large write when the reader is slow
    and a signal (a child process ending) interrupts it, and what is left must follow,
    or the host reads half an envelope glued to the next."""
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:  # a descriptor a parent left non-blocking: wait until it takes more
            select.select([], [fd], [])


def _lines(stream, limit: int):
    """Yield (line, too_long) without ever holding more than `limit` bytes of one line."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            while True:  # drain the rest of the over-long line
                rest = stream.readline(_CHUNK)
                if not rest or rest.endswith(b"\n"):
                    break
            yield b"", True
            continue
        yield line.rstrip(b"\r\n"), False


def claim() -> int:
    """Take the wire before any thread or child starts: none of them can write to it."""
    return _claim_stdout()


def serve(session, *, wire: int | None = None, stdin=None, max_line_bytes: int = MAX_LINE_BYTES) -> int:
    from ..protocol import encode
    from ..protocol.errors import BAD_REQUEST

    wire = _claim_stdout() if wire is None else wire
    stream = stdin or sys.stdin.buffer

    def send(envelope: dict) -> bool:
        try:
            write_all(wire, encode.line(envelope))
            return True
        except BrokenPipeError:
            return False

    try:
        for line, too_long in _lines(stream, max_line_bytes):
            if too_long:
                if not send(encode.error(BAD_REQUEST, f"line longer than {max_line_bytes} bytes", None)):
                    return 0
                continue
            if not line.strip():
                continue
            reply = session.handle(line)
            if reply.envelope is not None and not send(reply.envelope):
                return 0  # the host went away: leave quietly
            if reply.stop:
                return 0  # R2
        return 0  # EOF ends the session cleanly (R2)
    except KeyboardInterrupt:
        return 0
    finally:
        try:
            os.close(wire)
        except OSError:
            pass
