"""The tools an MCP host calls, as plain methods over one provider: the same query,
packing and verify as CGP, each answer rendered (render.py) so the whole result fits
the budget asked for. Arguments arrive checked against the transport's schemas;
what is still wrong with them (a name that names nothing) is a ToolError, said so
a model can act on it. Knows nothing of the wire."""

from __future__ import annotations

from indexer.digest import sha256

from . import lookup, render
from .protocol import messages as m
from .protocol.errors import ProtocolError
from .status import status

DEFAULT_MAX_TOKENS = 8_000
# Several hosts reject or spill tool results past about 25,000 tokens.
HARD_CAP = 20_000
# Room for the footer, a note and one small frame: each frame sent costs its content
# twice (text and structured copy) and about 250 tokens of citation (id, digest, uri).
MIN_TOKENS = 1_000
MIN_QUERY_TOKENS = 100  # the smallest CGP budget asked for when nothing fit once rendered
DEFAULT_MAX_FRAMES = 12
MAX_FRAMES = 64
SYMBOL_MATCHES = 5  # a name borne by more symbols shows this many and names the rest's count
RELATED_FRAMES = 24
PROVIDER_ID = "repo-graph"

CONTEXT_ADVICE = ("To narrow: `anchors` (files or symbols you work on), `kinds` [\"symbol\"] or [\"doc\"]; "
                  "or raise `max_tokens` (up to 20,000).")
SYMBOL_ADVICE = "To see more: raise `max_tokens`, or ask `related` for one relation at a time."
RELATED_ADVICE = "To see more: raise `max_tokens`, or anchor on one symbol (its frame_id) rather than a file."


class ToolError(Exception):
    """A reason the model can act on; sent as the tool's error result."""


class Tools:
    """get_context, get_symbol, related, verify and index_status over one provider."""

    def __init__(self, provider):
        self.provider = provider

    def count(self, text: str) -> int:
        """Real tokens of `text` (cl100k_base); without a tokenizer, its UTF-8 bytes
        (a token is never shorter than a byte), so a budget still holds."""
        data = text.encode("utf-8", "surrogatepass")
        return self.provider.tokenizer.count(text, sha256(data)) or len(data)

    # -- answers made of frames ------------------------------------------------------
    def get_context(self, goal: str, anchors=(), max_tokens: int = DEFAULT_MAX_TOKENS,
                    max_frames: int = DEFAULT_MAX_FRAMES, kinds=(), as_of: str | None = None) -> render.Rendered:
        def answer(budget: int) -> m.QueryResult:
            return self._cgp(lambda: self.provider.query(m.ContextQuery(
                goal=goal, query_text=goal, max_frames=max_frames, max_tokens=budget, kinds=tuple(kinds),
                anchors=tuple(anchors), as_of=as_of)))

        return self._framed(answer, max_tokens, CONTEXT_ADVICE, empty="Nothing in the index matches this goal.")

    def get_symbol(self, symbol: str, with_neighbors: bool = False,
                   max_tokens: int = DEFAULT_MAX_TOKENS) -> render.Rendered:
        found = self._cgp(lambda: self._resolved(symbol))
        shown = found[:SYMBOL_MATCHES]
        ids = frozenset(n.id for n in shown)

        def answer(budget: int) -> m.QueryResult:
            def pick(index):
                scored = [(n, 1.0) for n in shown]
                if with_neighbors:
                    scored += lookup.ranked(index, shown, lookup.neighbour_ids(index, shown) - ids)
                return self.provider.pack_nodes(index, scored, ids, budget, MAX_FRAMES)

            return self._cgp(lambda: self._with_index(pick))

        return self._framed(answer, max_tokens, SYMBOL_ADVICE, _naming(symbol, found, len(shown)), relations_of=ids)

    def related(self, anchor: str, relation: str, max_tokens: int = DEFAULT_MAX_TOKENS) -> render.Rendered:
        seeds = self._cgp(lambda: self._resolved(anchor))
        scored = self._cgp(lambda: self._with_index(
            lambda index: lookup.ranked(index, seeds, lookup.related_ids(index, seeds, relation))))
        note = " ".join(filter(None, (_naming(anchor, seeds, len(seeds)),
                                      f"{len(scored)} node(s) are {relation} of {anchor!r}.")))

        def answer(budget: int) -> m.QueryResult:
            return self._cgp(lambda: self._with_index(
                lambda index: self.provider.pack_nodes(index, scored, frozenset(s.id for s in seeds), budget,
                                                       RELATED_FRAMES)))

        return self._framed(answer, max_tokens, RELATED_ADVICE, note)

    def _framed(self, answer, max_tokens: int, advice: str, note: str = "", *, empty: str = "",
                relations_of: frozenset[str] = frozenset()) -> render.Rendered:
        """The CGP answer for the budget, rendered, cut from the tail until the whole
        fits. When not even its first frame fits once rendered (its structured copy
        doubles it), the answer for half the budget is rendered instead, whose packing
        sends big bodies as their headers, down to MIN_QUERY_TOKENS."""
        budget = max_tokens
        while True:
            result = answer(budget)
            st = status(self.provider, languages=False)
            said = (st.progress_line(), note, "" if result.frames else empty)
            framing = render.Framing(
                note=" ".join(filter(None, said)), advice=advice,
                not_packed=result.dropped_estimate or 0, query_max_tokens=budget, relations_of=relations_of,
                extra={} if st.ready else {"index": {k: st.to_json()[k] for k in ("state", "files", "parsed",
                                                                                  "to_parse")}})
            rendered = render.fit(result.frames, self.count, max_tokens, framing)
            if rendered.sent or not result.frames or budget // 2 < MIN_QUERY_TOKENS:
                break
            budget //= 2
        if rendered.tokens > max_tokens:
            raise ToolError(f"max_tokens {max_tokens} leaves no room for the answer's own footer; "
                            f"ask for at least {MIN_TOKENS}")
        return rendered

    # -- answers about citations and the index ----------------------------------------
    def verify(self, citations) -> render.Rendered:
        """valid / stale (with the digest now) / gone, per citation, from disk now."""
        asked = [m.FrameId(PROVIDER_ID, c["frame_id"], c["content_digest"]) for c in citations]
        verdicts = self._cgp(lambda: self.provider.verify(asked))
        rows = [{"frame_id": v.frame.frame_id, "content_digest": v.frame.content_digest, "status": v.status,
                 **({"current_digest": v.replacement_digest} if v.replacement_digest else {})} for v in verdicts]
        lines = [f"{r['status']}: {r['frame_id']}" + (f" (now {r['current_digest']})" if "current_digest" in r else "")
                 for r in rows]
        tally = ", ".join(f"{sum(r['status'] == s for r in rows)} {s}" for s in (m.VALID, m.STALE, m.GONE))
        text = "\n".join(lines + [f"---\n{tally}. Stale or gone frames: ask get_context or get_symbol again."])
        return self._bounded(text, {"verdicts": rows}, "too many citations at once: verify them in smaller batches")

    def index_status(self) -> render.Rendered:
        st = status(self.provider)
        langs = ", ".join(f"{k} {v}" for k, v in st.languages.items()) or "none yet"
        watcher = {"events": "live (file-system events)",
                   "rescan": "rescanning periodically (the OS refused more watches)",
                   "starting": "starting"}.get(st.watcher, "off (--no-watch)")
        lines = [
            f"repository: {st.root or '(opening)'}",
            f"state: {st.state}" + (f" ({st.how_far()})" if st.state == "building" else ""),
            f"files indexed: {st.files:,} ({langs})",
            f"last full refresh: {st.last_refresh or 'not yet'}",
            f"watcher: {watcher}; {st.watcher_batches} batch(es) of changes applied",
            f"pending: {st.pending} changed path(s) queued",
        ]
        if st.error:
            lines.append(f"error: {st.error}")
        if not st.ready and st.progress_line():
            lines.append(st.progress_line())
        return self._bounded("\n".join(lines), st.to_json(), "the index status is too long to send")

    def _bounded(self, text: str, structured: dict, why: str) -> render.Rendered:
        tokens = self.count(text) + self.count(render.compact_json(structured))
        if tokens > HARD_CAP:
            raise ToolError(why)
        return render.Rendered(text, structured, tokens, 0)

    # -- the provider, its waits and its refusals ----------------------------------------
    def _resolved(self, text: str):
        found = self._with_index(lambda index: lookup.resolve(index, text))
        if not found:
            raise ToolError(f"nothing in the index is named {text!r}. Give a symbol name (RetryPolicy, "
                            "config.load_config), a frame_id (src/config.py#RetryPolicy), a repository path or "
                            "a file:// uri; get_context finds code by description.")
        return found

    def _with_index(self, fn):
        with self.provider.answering() as index:
            return fn(index)

    def _cgp(self, fn):
        """Run fn; the provider's refusals (the first index not ready in time, a bad
        argument) become tool errors saying why and how far the index is."""
        try:
            return fn()
        except ProtocolError as exc:
            progress = status(self.provider, languages=False).progress_line()
            raise ToolError(" ".join(filter(None, (f"{exc.message}.", progress)))) from exc


def _naming(text: str, found, shown: int) -> str:
    """A note when a name names several symbols."""
    if len(found) < 2:
        return ""
    names = ", ".join(n.id for n in found[:shown])
    more = f" and {len(found) - shown} more" if len(found) > shown else ""
    return (f"{text!r} names {len(found)} symbols ({names}{more}); this answer covers "
            f"{'all of them' if shown == len(found) else f'the first {shown}'}: pass a frame_id to pick one.")
