"""Every number the ranking uses, in one frozen `Weights`, passed in (`DEFAULT` unless
told otherwise). Each field says in one line why it is there; the bracket names its
entry in benchmarks/DECISIONS.md, where the measurement that chose it lives. A sweep
or a test weighs otherwise with `dataclasses.replace(DEFAULT, field=value)`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any


def _frozen(mapping: dict[Any, Any]) -> Mapping[Any, Any]:
    made: Mapping[Any, Any] = field(default_factory=lambda: MappingProxyType(dict(mapping)))
    return made


@dataclass(frozen=True)
class Weights:
    # -- lexical: BM25F over the postings, per node and per file --------------------
    k1: float = 1.2  # BM25's term-frequency saturation, the usual value [bm25]
    b: float = 0.75  # BM25's length normalisation: code bodies vary in length as prose does [bm25]
    w_node_match: float = 0.65  # a node's own match, beside its file's [file-match]
    w_file_match: float = 0.35  # its file's best few nodes: a change is to files more than to one function [file-match]
    file_match_top: int = 3  # a file's match sums its best few nodes, not all of them [file-match]
    common_postings: int = (
        20_000  # past this many nodes a term only re-weighs the files rarer terms found [common-postings]
    )
    common_files: int = 2_000  # when every term is common, the files with the most of them are read [common-files]
    max_candidates: int = 400  # matches looked at closely: a query budget [max-candidates]
    # -- the files' commit messages (indexer/history.py) --------------------------------
    w_said: float = 0.3  # the messages' share of the lexical match [said]
    w_said_question: float = 0.1  # a how-to question asks how code is used, which messages say less of [said-question]
    said_files: int = 3  # files whose messages match but whose code matches nothing join the candidates [said-files]
    # -- symbols the question names in code form ---------------------------------------
    mention_match: float = 1.0  # a symbol named in code form, with few definitions, matches best of all [mention]
    mention_lead: float = 0.9  # the words around a mention weigh at most this share of it [mention]
    max_mention_defs: int = 5  # a name with more definitions points nowhere [mention]
    mention_forms: tuple[str, ...] = (  # a change's, of: backticks, qualified, underscored, humped [mention-forms]
        "backticks",
        "qualified",
        "underscored",
        "humped",
    )
    question_mention_forms: tuple[str, ...] = ("qualified",)  # a question names what it uses too [mention-forms]
    # -- fusion (F1: a score in [0, 1]) ---------------------------------------------------
    w_lexical: float = 0.60  # the match [fusion]
    w_closeness_boost: float = 2.0  # G3: a match at closeness 1 counts three times [fusion]
    w_proximity: float = 0.05  # closeness alone, without a match: a nudge [fusion]
    # -- closeness to the anchors (G3) ----------------------------------------------------
    proximity_by_hop: Mapping[int, float] = _frozen({0: 1.0, 1: 0.8, 2: 0.35})  # by hops from an anchor [closeness]
    in_anchored_file: float = 0.95  # inside an open file: closer than the most related other file [closeness]
    related_file_share: float = 0.9  # a symbol in the most related file is nearly one hop away [closeness]
    ppr_share: float = 0.8  # the node the anchors' PageRank reaches most is as close as one hop [anchor-pagerank]
    ppr_lexical_seeds: int = 10  # the best matches also seed the walk ... [anchor-pagerank]
    ppr_lexical_weight: float = 0.3  # ... more weakly than the anchors [anchor-pagerank]
    ppr_max_nodes: int = 600  # the walk covers the nearest nodes only: a query budget [anchor-pagerank]
    hub_links: int = 200  # the walk does not spread to the users of a node with more links in [hub-links]
    # -- files related to the anchors -----------------------------------------------------
    file_link_weights: Mapping[str, float] = _frozen(
        {  # how strongly a kind of link joins two files [file-links]
            "code.imports": 3.0,
            "code.calls": 1.0,
            "code.references": 0.7,
            "doc.documents": 1.5,
        }
    )
    other_link_weight: float = 0.5  # a kind of link the table does not name [file-links]
    w_same_test: float = 4.0  # test_config.py for config.py and the other way round [same-test]
    min_test_subject: int = 3  # a test of `io` or `a`: too short a name to look for [same-test]
    w_co_change: float = 6.0  # per log(1 + commits that changed both files) [co-change]
    w_same_directory: float = 0.8  # siblings change together [same-directory]
    root_directory_share: float = 0.5  # the root's files are siblings of everything: half [same-directory]
    w_sibling_test: float = 1.0  # tests beside a test file tend to change with it [same-directory]
    w_namesake: float = 4.0  # yaml.go in another folder: the same concern on another side [namesake]
    max_namesakes: int = 3  # past this many (index.js, mod.rs) a name says nothing [namesake]
    max_related_files: int = 40  # the strongest relations only [related-files]
    # -- a change's scope (`printer: ...`, ranking/scope.py) ------------------------------
    scope_weight: float = 1.0  # the files a scope names are as close as an anchor's related file [scope]
    scope_max_files: int = 200  # a name on more files is too broad to say anything [scope]
    max_scopes: int = 3  # `net: ipv4: x`: nested scopes read, at most [scope]
    # -- candidates ------------------------------------------------------------------------
    symbols_per_related_file: int = 6  # an anchor's related file shows its most central nodes [related-files]
    anchor_file_frames: int = 2  # the host has the file open: a glimpse of it, then its neighbours [anchor-file-frames]
    # -- adjustments: factors on the match -------------------------------------------------
    release_notes_factor: float = 0.5  # a changelog repeats every change's words; it documents no code [release-notes]
    generated_factor: float = 0.5  # generated code is what the rest calls, not what one edits [generated]
    translation_factor: float = 0.3  # README.de.md says what README.md says, to another reader [translations]
    vendored_factor: float = 0.5  # copied-in code answers the project's questions too well [vendored]
    unlinked_doc_factor: float = 0.4  # a doc section naming no code is rarely a change's context [unlinked-doc]
    change_doc_factor: float = 0.5  # a change to make is made in code [change-doc]
    question_doc_factor: float = 0.3  # a question's doc sections, beside the guide lifted [question-doc]
    question_test_factor: float = 0.3  # tests name behaviour in English; a question asks for the code [question-tests]
    w_recent: float = 0.5  # unanchored: a file alive lately wins a tie [recent]
    recent_changes_full: float = 2.0  # recent changes that count in full [recent]
    # -- tiers ---------------------------------------------------------------------------
    tier_split: float = 0.5  # G4: the anchored tier in [split, 1], the rest below; not tuned [g4-tiers]
    neighbour_bar: float = (
        1.0  # G4: a change's anchored neighbour must score this share of the best outside [neighbour-bar]
    )
    anchored_neighbour_match: float = 0.3  # G4: a question's anchored neighbour must match this well [neighbour-bar]
    joined_header_match: float = 0.6  # G4: a header joined to an anchor must match this well to be sent [joined-header]
    hedge_k: int = 1  # below the tier, reciprocal-rank fusion: 1 / (k + place) [hedge]
    w_hedge_plain: float = 0.2  # the order the question gets without anchors [hedge]
    w_hedge_related: float = 0.3  # the anchors' related files by strength [hedge]
    question_doc_place: int = 2  # a how-to question's best guide section is placed no lower (0-based) [guide]
    question_doc_min: float = 0.5  # of the best match: the guide must match this well [guide]
    change_test_place: int = 4  # an unanchored change: its best file's test placed no lower (0: off) [change-test-twin]
    whole_file_place: int = 3  # a change, no history: its file at this place is file BM25's best (0: off) [whole-file]


DEFAULT = Weights()


def numeric_fields() -> dict[str, type]:
    """The fields a sweep can set from text (benchmarks/quality.py): name -> int or float."""
    return {f.name: int if f.type == "int" else float for f in fields(Weights) if f.type in ("int", "float")}
