"""How a dotted name, as prose or a question writes it, meets a definition: by its
qualified name, or by the tail of one, or with the namespaces in front of it spelled
out as the directories and file it lives in (`Slim.Http.Headers` in
Slim/Http/Headers.php, `com.google.gson.Gson`, `flask.app.Flask`, `packing.pack`)."""

from __future__ import annotations

import posixpath


def dotted(name: str) -> str:
    """`a::b` (Rust, C++, Ruby) and `\\a\\b` (PHP) as `a.b`, the form qualified names take here."""
    return name.replace("::", ".").replace("\\", ".")


def named_in_part(parts: list[str], path: str, qualified: list[str]) -> bool:
    """Whether `parts` (a dotted name, split) names the definition `qualified` in `path`."""
    if qualified[-len(parts) :] == parts:
        return True  # the outer namespaces left out: Protection.EncryptedCookie
    if len(parts) <= len(qualified) or parts[-len(qualified) :] != qualified:
        return False
    folded = {_fold(p) for p in posixpath.splitext(path)[0].split("/")}
    return all(_fold(p) in folded for p in parts[: -len(qualified)])


def _fold(name: str) -> str:
    """`EncryptedCookie`, `encrypted_cookie` and `encrypted-cookie` alike."""
    return name.replace("_", "").replace("-", "").lower()
