"""Benchmarks: scripts that print figures (`make bench-search`, `make bench-build`, `python -m bench.bench_match`)."""
