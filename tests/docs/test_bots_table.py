"""docs/bots.md's strength table is what benchmarks/bots.py prints from the results kept in
benchmarks/results/bots.jsonl: a rerun that adds or replaces games must update the doc."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_strength_table_in_the_doc_is_the_benchmarks() -> None:
    spec = importlib.util.spec_from_file_location("bench_bots", ROOT / "benchmarks" / "bots.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    table = bench.table(bench.load(bench.RESULTS))
    doc = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8").splitlines()
    start = doc.index(table[0])
    assert doc[start : start + len(table)] == table
    assert not doc[start + len(table)].startswith("|"), "the doc's table has rows the results lack"
