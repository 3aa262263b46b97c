"""Every error code the provider sends, and when."""

from __future__ import annotations

BAD_REQUEST = "bad_request"  # R1: any line we cannot turn into a message
UNSUPPORTED_KIND = "unsupported_kind"
UNSUPPORTED_REPRESENTATION = "unsupported_representation"
INCOMPATIBLE_VERSION = "incompatible_version"  # H3: another major family
BUDGET_UNSATISFIABLE = "budget_unsatisfiable"
UNAVAILABLE = "unavailable"  # transient: the first index is not ready in time
SHUTTING_DOWN = "shutting_down"
INTERNAL = "internal"  # a bug of ours; the loop keeps serving


class ProtocolError(Exception):
    """Becomes one `error` envelope; carries the request id when one was readable."""

    def __init__(self, code: str, message: str, request_id: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id
