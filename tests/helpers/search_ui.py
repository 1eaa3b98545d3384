"""Driving Material's search box in a Playwright page, as a reader does: shared by
tests/test_search.py and bench/bench_search.py, so both measure the same thing."""

from __future__ import annotations

# Clears the result list, types the query (Material searches on keyup; Playwright's typing sends
# no key events for Chinese, so the value is set and a keyup dispatched), and resolves with the
# milliseconds until the result list (or the "no results" line) is there, and the entry links.
_SEARCH = """async (query) => {
  const input = document.querySelector("input.md-search__input");
  const list = document.querySelector(".md-search-result__list");
  const meta = document.querySelector(".md-search-result__meta");
  list.innerHTML = "";
  meta.textContent = "…";
  input.focus();
  return await new Promise(resolve => {
    const start = performance.now();
    const done = () => {
      if (!list.children.length && meta.textContent === "…") return false;
      observer.disconnect();
      resolve({ ms: performance.now() - start,
                hrefs: [...list.querySelectorAll(".md-search-result__item > a:first-child")].map(a => a.href) });
      return true;
    };
    const observer = new MutationObserver(done);
    observer.observe(list.parentElement, { childList: true, subtree: true, characterData: true });
    input.value = query;
    input.dispatchEvent(new KeyboardEvent("keyup", { key: "End", bubbles: true }));
  });
}"""

_READY = """() => document.querySelector(".md-search-result__meta").textContent.trim() !== ""
                && !document.querySelector(".md-search-result__meta").textContent.includes("初始化")
                && !document.querySelector(".md-search-result__meta").textContent.includes("Initializing")"""


def open_search(page, lang_url: str) -> None:
    """Load a language site's home page and wait until its search worker is ready."""
    page.goto(lang_url)
    page.locator("input.md-search__input").focus()
    page.wait_for_function(_READY)


NO_RESULTS = "tags"
"""Where the engine's "no results" item links (the tag index): not an entry."""


def search(page, lang: str, query: str) -> tuple[float, list[str]]:
    """(ms from the keystroke to the result list, entry ids in the order shown) for `query`; no ids
    when the list shows only the "no results" item."""
    return _shown(lang, page.evaluate(_SEARCH, query))


_SEARCH_EACH = f"async (queries) => {{ const one = {_SEARCH}; const shown = [];\n  for (const query of queries) shown.push(await one(query));\n  return shown; }}"
"""_SEARCH for each query in turn, in one call: a call into the page costs a round trip through Playwright's driver,
about a third of the time of a query set run one call per query."""


def search_each(page, lang: str, queries: list[str]) -> list[list[str]]:
    """The entry ids shown for each of `queries`, typed one after another as `search` types one."""
    return [_shown(lang, result)[1] for result in page.evaluate(_SEARCH_EACH, queries)]


def _shown(lang: str, result: dict) -> tuple[float, list[str]]:
    ids = [href.split(f"/{lang}/", 1)[1].split("/")[0].split("?")[0].split("#")[0] for href in result["hrefs"]]
    return result["ms"], [i for i in ids if i != NO_RESULTS]


HOSTILE_QUERIES = ["x" * 10_000, "显存" * 5_000, "a" * 300 + " " + "b" * 300, "!?.,;:()[]{}<>/\\|~`@#$%^&*-_=+" * 10,
                   "\x00\x01\x07\x1b[31m\u202e\ufeff", " ".join(["xian", "cun", "bu", "zu", "tidu"] * 10)]
"""A run of 10,000 letters, a 10,000-character Chinese paste, long runs of one letter, only punctuation,
control characters, 50 pinyin syllables: each gets an answer (tests/test_search.py); bench_search
times them at 5,000 entries."""
