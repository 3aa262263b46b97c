"""Every number of the ranking and every indexing rule names its entry in
benchmarks/DECISIONS.md, and the entry names it back with its value."""

from __future__ import annotations

import ast
import re
from dataclasses import fields
from pathlib import Path

from indexer import upgrades
from repo_graph.ranking import DEFAULT, Weights

ROOT = Path(__file__).resolve().parent.parent
DECISIONS = (ROOT / "benchmarks" / "DECISIONS.md").read_text(encoding="utf-8")
ENTRIES = set(re.findall(r"^### ([a-z0-9-]+)$", DECISIONS, re.MULTILINE))


def _entry_of_each_line(path: Path) -> dict[int, str]:
    return {
        n: m.group(1)
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if (m := re.search(r"\[([a-z0-9-]+)\]", line))
    }


def test_every_weight_names_an_entry_that_gives_its_value():
    source = ROOT / "repo_graph" / "ranking" / "weights.py"
    entry_at = _entry_of_each_line(source)
    tree = ast.parse(source.read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Weights")
    lines = {s.target.id: s for s in cls.body if isinstance(s, ast.AnnAssign)}
    assert set(lines) == {f.name for f in fields(Weights)}
    for name, stmt in lines.items():
        entry = next((entry_at[n] for n in range(stmt.lineno, stmt.end_lineno + 1) if n in entry_at), None)
        assert entry in ENTRIES, f"{name}: [{entry}] is no entry of benchmarks/DECISIONS.md"
        section = DECISIONS.split(f"### {entry}\n", 1)[1].split("\n### ", 1)[0]
        assert f"`{name}`" in section, f"{name}: its entry [{entry}] does not name it"
        value = getattr(DEFAULT, name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            assert re.search(rf"`{name}` = {value:,}|`{name}` = {value}\b", section.replace("_000", ",000")), (
                f"{name}: its entry [{entry}] does not give its value {value}"
            )


def test_every_indexing_rule_names_an_entry_with_its_current_version():
    for name, rule in upgrades.RULES.items():
        entry = f"rules-{name}"
        assert entry in ENTRIES
        section = DECISIONS.split(f"### {entry}\n", 1)[1].split("\n### ", 1)[0]
        assert re.search(rf"^- {re.escape(rule.version)} \(", section, re.MULTILINE), (
            f"{entry}: no line for version {rule.version}"
        )
