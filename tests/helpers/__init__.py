"""Helpers shared by the tests and the benchmarks: driving the search box, running nginx."""
