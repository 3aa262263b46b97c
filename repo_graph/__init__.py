"""repo-graph: a local Context Graph Protocol provider for code repositories."""

__version__ = "0.1.0"
