"""Envelope in, envelopes out, no I/O: the protocol's rules for one connection,
shared by every transport. A query or verify needs no handshake before it, on every
transport (docs/protocol.md): over HTTP each POST stands alone, and the handshake
settles the version family, nothing a query needs."""

from __future__ import annotations

import sys
import traceback
from dataclasses import dataclass

from . import __version__
from .protocol import encode
from .protocol import messages as m
from .protocol.decode import decode
from .protocol.errors import BAD_REQUEST, INCOMPATIBLE_VERSION, INTERNAL, ProtocolError
from .protocol.versions import PROVIDER_VERSION, negotiate

PROVIDER_INFO = m.ProviderInfo(name="repo-graph", version=__version__)


@dataclass(frozen=True)
class Reply:
    envelope: dict | None  # None: nothing to send (shutdown)
    stop: bool = False


class Session:
    def __init__(self, provider):
        self.provider = provider

    def handle(self, line: bytes) -> Reply:
        request_id = None
        try:
            message = decode(line)
            request_id = getattr(message, "id", None)
            return self._dispatch(message)
        except ProtocolError as exc:
            return Reply(encode.error(exc.code, exc.message, exc.request_id or request_id))
        except Exception as exc:  # a bug of ours must not end the session (R1)
            traceback.print_exc(limit=-8, file=sys.stderr)  # the frames nearest the fault, not megabytes
            return Reply(encode.error(INTERNAL, f"internal error: {type(exc).__name__}: {str(exc)[:200]}", request_id))

    def _dispatch(self, message) -> Reply:
        if isinstance(message, m.Handshake):
            version = negotiate(message.protocol_version)
            if version is None:  # H3: another family is refused at once
                return Reply(
                    encode.error(
                        INCOMPATIBLE_VERSION,
                        f"protocol {message.protocol_version!r} is not in the family of {PROVIDER_VERSION!r}",
                        None,
                    )
                )
            caps = m.Capabilities(kinds=tuple(self.provider.kinds))
            return Reply(encode.handshake_ack(version, PROVIDER_INFO, caps))
        if isinstance(message, m.Query):
            result = self.provider.query(message.query)
            return Reply(encode.frames(result, message.id))
        if isinstance(message, m.Verify):
            return Reply(encode.verified(self.provider.verify(message.frames), message.id))
        if isinstance(message, m.Shutdown):
            return Reply(None, stop=True)
        raise ProtocolError(BAD_REQUEST, f"unhandled message {type(message).__name__}")
