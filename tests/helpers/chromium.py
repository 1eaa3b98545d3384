"""The command-line switches every Playwright-driven Chromium of the tests and benchmarks is launched with:
shared by tests/conftest.py (Debian's headless shell, else the full browser) and bench/bench_search.py and
bench/bench_deep_links.py (the full browser, which is what readers run)."""

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
"""`--no-sandbox`: CI runs as root, where Chromium's sandbox refuses to start. `--disable-gpu`: there is none. The
rest keep the browser from traffic of its own (QUIC, background fetches, component updates, sync) and from
first-run screens, so what a page requests is all it requests."""
