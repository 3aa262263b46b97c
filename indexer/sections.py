"""Doc files (Markdown, reStructuredText) split into sections: a section is its
heading plus the body up to the next heading of the same or higher level, so it
contains its subsections.

Text before the first heading is a section of its own, titled by the file name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

# How docs are cut into sections: a change bumps upgrades.RULES["sections"] [rules-sections].
DOC_EXTENSIONS = {".md": "markdown", ".markdown": "markdown", ".mdx": "markdown", ".rst": "restructuredtext"}

_ATX = re.compile(rb"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*\r?$")
_SETEXT = re.compile(rb"^ {0,3}(=+|-+)[ \t]*\r?$")
_FENCE = re.compile(rb"^ {0,3}(`{3,}|~{3,})")
# reStructuredText: a title is a line of text underlined, and maybe overlined, by one
# punctuation character repeated; its level is the order in which the document first
# uses that style. (Simple tables' `=====  =====` rules have gaps, so they are no title.)
_ADORNMENT = re.compile(rb"^([!-/:-@\[-`{-~])\1{2,}[ \t]*\r?$")


@dataclass(slots=True)
class Section:
    title: str
    slug: str
    level: int  # 0 for the preamble
    start_line: int
    end_line: int
    parent: int | None
    own_end_line: int  # last line before the first subsection


def doc_format(rel_path: str) -> str | None:
    return DOC_EXTENSIONS.get(PurePosixPath(rel_path).suffix.lower())


# README.de.md, README_zh-CN.md, guide.pt-BR.md, docs/zh/index.md beside docs/en/index.md:
# an ISO 639-1 language code, maybe a region (the list keeps build-go.md and guide-py.md out).
_TRANSLATED = re.compile(r"^(?P<base>.+?)[._-](?P<tag>[a-z]{2})(?:[-_][A-Za-z]{2,4})?(?P<ext>\.[^.]+)$")
_LANGUAGE_DIRECTORY = re.compile(r"^(?P<tag>[a-z]{2})(?:[-_][A-Za-z]{2,4})?$")
_LANGUAGE_CODES = frozenset(
    """
    aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee
    el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is
    it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms
    mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk
    sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi
    yo za zh zu""".split()
)


def translated_from(rel_path: str) -> str | None:
    """The doc a file's path says it translates (README.md for README.de.md, the
    docs/en/ page for its docs/zh/ namesake), by the path alone: the caller checks
    that doc exists."""
    if not doc_format(rel_path):
        return None
    directory, _, name = rel_path.rpartition("/")
    found = _TRANSLATED.match(name)
    if found is not None and found["tag"] in _LANGUAGE_CODES:
        base = found["base"] + found["ext"]
        return f"{directory}/{base}" if directory else base
    parts = rel_path.split("/")
    for i, part in enumerate(parts[:-1]):
        found = _LANGUAGE_DIRECTORY.match(part)
        if found is not None and found["tag"] in _LANGUAGE_CODES and found["tag"] != "en":
            return "/".join(parts[:i] + ["en"] + parts[i + 1 :])
    return None


def slugify(title: str) -> str:
    slug = re.sub(r"[^\w\- ]", "", title.lower()).strip().replace(" ", "-")
    return re.sub(r"-{2,}", "-", slug) or "section"


def _headings(lines: list[bytes]):
    fence = None
    for i, line in enumerate(lines):
        m = _FENCE.match(line)
        if m:
            marker = m.group(1)[:3]
            if fence is None:
                fence = marker
            elif marker == fence:
                fence = None
            continue
        if fence is not None:
            continue
        m = _ATX.match(line)
        if m:
            yield i, len(m.group(1)), (m.group(2) or b"").strip()
            continue
        if i > 0 and _SETEXT.match(line) and lines[i - 1].strip() and not _ATX.match(lines[i - 1]):
            prev = lines[i - 1]
            if not prev.startswith((b" " * 4, b"\t")) and not _FENCE.match(prev):
                yield i - 1, 1 if line.strip().startswith(b"=") else 2, prev.strip()


def _rst_headings(lines: list[bytes]):
    styles: dict[tuple[bytes, bool], int] = {}
    i, total = 0, len(lines)
    while i + 1 < total:
        line, after = lines[i], lines[i + 1]
        over, under = _ADORNMENT.match(line), _ADORNMENT.match(after)
        follows = i == 0 or not lines[i - 1].strip() or _ADORNMENT.match(lines[i - 1])  # a blank line or a title
        if (
            follows
            and over
            and not under
            and after.strip()
            and i + 2 < total
            and lines[i + 2].rstrip() == line.rstrip()
        ):
            style, title, rows = (over.group(1), True), after.strip(), 3
        elif follows and under and not over and line.strip() and line[:1] not in b" \t":
            style, title, rows = (under.group(1), False), line.strip(), 2
        else:
            i += 1
            continue
        yield i, styles.setdefault(style, len(styles) + 1), title
        i += rows


def split_sections(data: bytes, rel_path: str) -> list[Section]:
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    total = len(lines)
    if total == 0:
        return []
    heads = []
    headings = _rst_headings if doc_format(rel_path) == "restructuredtext" else _headings
    for row, level, title in headings(lines):
        if heads and heads[-1][0] == row:  # setext over an ATX line: keep the first
            continue
        heads.append((row, level, title.decode("utf-8", "replace")))
    sections: list[Section] = []
    first = heads[0][0] if heads else total
    if first > 0 and any(line.strip() for line in lines[:first]):
        name = PurePosixPath(rel_path).name
        sections.append(Section(name, slugify(PurePosixPath(rel_path).stem), 0, 1, first, None, first))
    stack: list[int] = []
    used: dict[str, int] = {s.slug: 0 for s in sections}  # the preamble's slug is taken too
    ends = [total] * len(heads)  # a section ends where the next of its level or higher begins
    waiting: list[int] = []  # headings whose end is not known yet, levels rising
    for n, (row, level, _) in enumerate(heads):
        while waiting and heads[waiting[-1]][1] >= level:
            ends[waiting.pop()] = row
        waiting.append(n)
    for n, (row, level, title) in enumerate(heads):
        end = ends[n]
        own_end = heads[n + 1][0] if n + 1 < len(heads) else total
        while stack and sections[stack[-1]].level >= level:
            stack.pop()
        base = slugify(title)
        slug, n = base, used.get(base, 0)
        while slug in used:  # GitHub's rule for repeated headings, and never a clash with
            n += 1  # a heading whose own slug looks numbered ("x-1")
            slug = f"{base}-{n}"
        used[base] = n
        used.setdefault(slug, 0)
        sections.append(
            Section(title or "(untitled)", slug, level, row + 1, end, stack[-1] if stack else None, own_end)
        )
        stack.append(len(sections) - 1)
    # Trailing blank lines belong to no section's meaning, but stay in its range so
    # ranges tile the file exactly.
    return sections
