"""H1/H3: versions interoperate when they share a major family (up to the first dot)."""

from __future__ import annotations

import re

PROVIDER_VERSION = "contextgraph/1.0"
_GRAMMAR = re.compile(r"^contextgraph/[0-9]+\.[0-9]+(-draft)?$")


def family(version: str) -> str:
    return version.split(".", 1)[0]


def negotiate(host_version: str) -> str | None:
    """The version to answer with, or None when the host speaks another family."""
    if not isinstance(host_version, str) or not _GRAMMAR.match(host_version):
        return None
    if family(host_version) != family(PROVIDER_VERSION):
        return None
    return PROVIDER_VERSION
