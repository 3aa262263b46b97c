"""NDJSON over stdin/stdout. The wire goes to a private copy of fd 1, and fd 1 is
pointed at stderr, so a stray print (ours, a library's, a child's) can never
break a message. Lines are read as bytes with a size limit (R1)."""

from __future__ import annotations

import os
import sys

MAX_LINE_BYTES = 8 * 1024 * 1024
_CHUNK = 1 << 16


def _claim_stdout():
    """A private writer for the wire; fd 1 now leads to stderr."""
    sys.stdout.flush()
    wire_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(wire_fd, "wb", buffering=0)


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


def serve(session, *, stdin=None, max_line_bytes: int = MAX_LINE_BYTES) -> int:
    from ..protocol import encode
    from ..protocol.errors import BAD_REQUEST

    wire = _claim_stdout()
    stream = stdin or sys.stdin.buffer

    def send(envelope: dict) -> bool:
        try:
            wire.write(encode.line(envelope))  # unbuffered: one line, flushed
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
            wire.close()
        except OSError:
            pass
