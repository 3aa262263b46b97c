"""NDJSON over stdin/stdout. The wire goes to a private copy of fd 1, and fd 1 is
pointed at stderr, so a stray print (ours, a library's, a child's) can never
break a message. Lines are read as bytes with a size limit (R1)."""

from __future__ import annotations

import os
import select
import signal
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


def _lines(fd: int, limit: int):
    """Yield (line, too_long) without ever holding much more than `limit` bytes of one line."""
    buf = bytearray()
    skipping = False  # the rest of an over-long line is being dropped
    with _Wakeful(fd) as read:
        while True:
            end = buf.find(b"\n")
            if end >= 0:
                too_long = skipping or end > limit
                line = b"" if too_long else bytes(buf[:end]).rstrip(b"\r")
                del buf[: end + 1]
                skipping = False
                yield line, too_long
                continue
            if skipping or len(buf) > limit:
                buf.clear()
                skipping = True
            chunk = read()
            if not chunk:  # EOF: a last line without its newline still counts
                if skipping or buf:
                    yield (b"", True) if skipping else (bytes(buf).rstrip(b"\r"), False)
                return
            buf += chunk


class _Wakeful:
    """Reads of `fd` that a signal wakes wherever it lands. A signal the kernel hands
    to another thread (the indexer's, a pool's) runs its Python handler only once the
    main thread runs again; blocked in read() on a quiet host it never would, and a
    Ctrl-C or SIGTERM went unanswered until stdin closed (R2). So reads wait in
    select() beside the signal module's wake-up pipe."""

    def __init__(self, fd: int):
        self.fd = fd
        self.wake_r = self.wake_w = -1
        self.before: int | None = None

    def __enter__(self):
        self.wake_r, self.wake_w = os.pipe()
        for end in (self.wake_r, self.wake_w):
            os.set_blocking(end, False)
        try:
            self.before = signal.set_wakeup_fd(self.wake_w, warn_on_full_buffer=False)
        except ValueError:  # not the main thread: its signals are not ours to wait on
            self.before = None
        return self.read

    def read(self) -> bytes:
        while True:
            ready, _, _ = select.select([self.fd, self.wake_r], [], [])
            if self.wake_r in ready:  # the handler runs as this thread goes on: drain the pipe
                try:
                    os.read(self.wake_r, 512)
                except BlockingIOError:
                    pass
            if self.fd in ready:
                try:
                    return os.read(self.fd, _CHUNK)
                except BlockingIOError:  # a descriptor a parent left non-blocking
                    continue

    def __exit__(self, *exc) -> None:
        if self.before is not None:
            signal.set_wakeup_fd(self.before)
        os.close(self.wake_r)
        os.close(self.wake_w)


def claim() -> int:
    """Take the wire before any thread or child starts: none of them can write to it."""
    return _claim_stdout()


def serve(session, *, wire: int | None = None, stdin_fd: int = 0, max_line_bytes: int = MAX_LINE_BYTES) -> int:
    from ..protocol import encode
    from ..protocol.errors import BAD_REQUEST

    wire = _claim_stdout() if wire is None else wire

    def send(envelope: dict) -> bool:
        try:
            write_all(wire, encode.line(envelope))
            return True
        except BrokenPipeError:
            return False

    try:
        for line, too_long in _lines(stdin_fd, max_line_bytes):
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
