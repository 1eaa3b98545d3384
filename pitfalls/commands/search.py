"""`pitfalls search QUERY`: the site's own search engine (engine.js, run by node) over the index
that the build writes (pages/search_index.py), with each entry's URL."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ..errors import PitfallsError, existing_folder
from ..pages.export import entry_url
from ..pages.search_index import FORMAT_VERSION, write_site_index
from ..records.model import LANGUAGES
from ..records.validate import load_knowledge_base
from ..settings import CONTENT_DIR, ENGINE_JS, site_root, site_url_option

NODE_RUNNER = Path(__file__).with_name("search_node.js")


def node_executable() -> str:
    """The path of node, which runs the site's search engine outside the browser."""
    node = shutil.which("node")
    if node is None:
        raise PitfallsError("the site's search engine runs here with node, which is not installed; "
                            "install nodejs (make test does)")
    return node


def run_queries(search_dir: Path, queries: list[str], off: tuple[str, ...] = (), options: dict | None = None) -> list[list[dict]]:
    """The ranked entries ({id, title, score, exact, explain}) for each query against the index in `search_dir`,
    computed by engine.js under node; the engine stages and rules named in `off` switched off, `options`
    overriding those of options.js."""
    return _answers(search_dir, queries, off, options)


def entry_standing(search_dir: Path, query: str, entry: str) -> tuple[list[dict], dict]:
    """The ranked entries for `query` (as run_queries), and where the entry `entry` stands among all the entries the
    query matches, past the ones listed too: {matched, rank, result}, rank and result null when it is not among them
    (engine.js `standing`)."""
    [answer] = _answers(search_dir, [query], (), None, entry)
    return answer["ranked"], answer["standing"]


def _answers(search_dir: Path, queries: list[str], off: tuple[str, ...], options: dict | None, entry: str = "") -> list:
    done = subprocess.run([node_executable(), str(NODE_RUNNER), str(ENGINE_JS), str(search_dir), ",".join(off), json.dumps(options or {}),
                           entry],
                          input=json.dumps(queries),
                          capture_output=True, text=True, encoding="utf-8")
    if done.returncode != 0:
        raise PitfallsError("the search engine failed (what node said follows)", details=done.stderr)
    return json.loads(done.stdout)


def explanation(explain: dict) -> str:
    """The lines `--explain` prints under a result: the rules' values (the words rule's with its factors: the
    share of the query matched, how far the title is the query, how many entries name it as related, and the entry's
    length over the average's, against which its body matches were measured; and, when some, the share of the query in
    phrases whose words the index has only apart that the entry states as typed) and the rule
    that placed the entry below the one before it; the error message the message rule found (reduced to its letters,
    digits and Chinese; a signature's runs a `…` apart); then each piece of the query the entry matched: its weight
    (its rarity), how much of it the entry matched (by where and how it was read, 0 … 1), the share being the sum of
    weight × match over the weight of all the query's pieces, and in how many entries the piece is (the count its
    rarity is of, before the floor: a generic word the wiki says rarely shows as such); with the terms, how each was
    read and where."""
    phrases = f", phrases {explain['phrases']:g}" if explain["phrases"] else ""
    factors = (f"share {explain['share']:g}, title {explain['title']:g}, linked from {explain['linkedFrom']}, "
               f"length {explain['length']:g}{phrases}")
    rules = "  ".join(f"{name} {value:g}" + (f" ({factors})" if name == "words" else "") for name, value in explain["rules"].items())
    decided = f"  (below the one before by: {explain['decidedBy']})" if explain["decidedBy"] else ""
    lines = [f"    {rules}{decided}"]
    if explain["message"]:
        lines.append(f"    · error message: {explain['message'].replace(' ', ' … ')}")
    matched = {unit["unit"] for unit in explain["units"]}
    for unit in explain["units"]:
        terms = ", ".join(f"{t['term']} ({t['reading']}; {' '.join(t['fields'])})" for t in unit["terms"])
        entries = f"{unit['entries']:g} {'entry' if unit['entries'] == 1 else 'entries'}"
        lines.append(f"    · {unit['unit']} (weight {unit['weight']:g}, match {unit['match']:g}, in {entries}): {terms}")
    if missing := [unit for unit in explain["queryUnits"] if unit not in matched]:
        lines.append(f"    · not matched: {', '.join(missing)}")
    return "\n".join(lines)


def unread(explain: dict) -> list[str]:
    """The lines `--explain` prints above the results for what of the query was too common to stand for anything (in
    more than a quarter of the entries), with their entries: words of synonym phrases it brought in (`train` of resume
    training), lone characters beside words that are weighed (卡 of 一张卡 where most entries say 卡)."""
    kinds = (("common", "a synonym phrase's word"), ("commonCharacters", "a lone character"))
    return [f"not read, {kind} in more than a quarter of the entries: "
            + ", ".join(f"{word['term']} ({word['entries']:g} entries)" for word in explain[key])
            for key, kind in kinds if explain[key]]


def register(commands) -> None:
    search = commands.add_parser("search", help="像站点一样搜索条目 / search the entries with the site's engine")
    search.add_argument("query", help="what you would type into the site's search box (one that starts with -, as a "
                                      "pasted flag: after --, pitfalls search -- --shm-size)")
    search.add_argument("--lang", choices=LANGUAGES, default=LANGUAGES[0], help="site language (default: %(default)s)")
    search.add_argument("--json", action="store_true", help="print the results as JSON")
    search.add_argument("--explain", action="store_true",
                        help="排名原因 / for each result, the ranking rules and the matches that placed it")
    search.add_argument("--content", type=Path, default=CONTENT_DIR, help="content folder (default: %(default)s)")
    search.add_argument("--site-url", type=site_url_option, default=site_root(), help="public root URL of the printed links (default: %(default)s)")
    search.add_argument("--site-dir", type=Path, help="search this built site instead of indexing --content afresh")
    search.add_argument("--entry", metavar="ID",
                        help="也看这个条目排第几、为什么 / also where this entry ranks for the query and why, below the results listed too")
    search.set_defaults(run=_search)


def _search(args) -> int:
    if not args.query.strip():  # the engine answers nothing to it, and nothing printed says why
        raise PitfallsError("the query is empty: give what you would type into the site's search box, "
                            "as in `pitfalls search 显存不足`")
    if args.site_dir:
        search_dir, version = _built_index(args.site_dir, args.lang)
        if args.entry and args.entry not in _indexed_entries(search_dir / version):
            raise PitfallsError(f"--entry {args.entry}: the site in {args.site_dir} has no entry with this id")
        results, standing = _ask(search_dir, args.query, args.entry)
    else:
        base = load_knowledge_base(args.content)
        if args.entry and args.entry not in {record.id for record in base.records}:
            renamed = next((record.id for record in base.records if args.entry in record.aliases), None)
            raise PitfallsError(f"--entry {args.entry}: " + (f"a former id of {renamed}: ask for {renamed}" if renamed else
                                                               f"no entry in {args.content} has this id"))
        with tempfile.TemporaryDirectory(prefix="pitfalls-search-") as tmp:
            write_site_index(base, args.lang, Path(tmp))
            results, standing = _ask(Path(tmp) / "search", args.query, args.entry)
    results = [_with_url(result, args) for result in results]
    if not args.explain:
        for result in results:
            del result["explain"]
    if standing and standing["result"]:
        standing["result"] = _with_url(standing["result"], args)
    if args.json:
        print(json.dumps({"results": results, "entry": standing} if standing else results, ensure_ascii=False, indent=2))
        return 0
    for line in unread(results[0]["explain"]) if args.explain and results else ():
        print(line)
    for rank, result in enumerate(results, 1):
        _print_result(rank, result, args.explain)
    if not results:
        print("no results", file=sys.stderr)
    if standing:
        _print_standing(args.entry, standing, len(results), args.explain)
    return 0


def _built_index(site_dir: Path, lang: str) -> tuple[Path, str]:
    """The search folder of a built site's language and the name of its index files' folder (the manifest's `version`),
    checked before node reads them: there, and of the index format this engine reads (a site built by another version of
    pitfalls is read by none: its engine would answer "out of date")."""
    existing_folder(site_dir, "--site-dir", "build the site first (pitfalls build), or leave --site-dir out")
    search_dir = site_dir / lang / "search"
    if not (search_dir / "manifest.json").exists():
        raise PitfallsError(f"--site-dir {site_dir}: {search_dir} has no search index: build the site first")
    try:
        manifest = json.loads((search_dir / "manifest.json").read_text(encoding="utf-8"))
        found, version = manifest.get("formatVersion"), manifest.get("version")
    except (ValueError, AttributeError):  # not JSON, not UTF-8, not an object
        found = version = None
    if found != FORMAT_VERSION or not isinstance(version, str):
        said = f"is format {found}" if isinstance(found, int) and found != FORMAT_VERSION else "has an unreadable manifest"
        raise PitfallsError(f"--site-dir {site_dir}: its search index {said}, and this pitfalls reads format "
                            f"{FORMAT_VERSION}: build the site again (pitfalls build)")
    return search_dir, version


def _indexed_entries(files: Path) -> set[str]:
    """The ids of the entries an index holds, from its files' folder: its d/ files' pages (a former id's redirect page,
    or a tag page, is not one)."""
    return {json.loads(page.read_text(encoding="utf-8"))["location"].rstrip("/") for page in (files / "d").glob("*.json")}


def _ask(search_dir: Path, query: str, entry: str | None) -> tuple[list[dict], dict | None]:
    return entry_standing(search_dir, query, entry) if entry else (run_queries(search_dir, [query])[0], None)


def _with_url(result: dict, args) -> dict:
    return {**result, "url": entry_url(args.site_url, args.lang, result["id"])}


def _print_result(rank: int, result: dict, explain: bool) -> None:
    print(f"{rank:2}. {result['title']}  [{result['id']}]  ({result['score']:.2f})\n    {result['url']}")
    if explain:
        print(explanation(result["explain"]))


def _print_standing(entry: str, standing: dict, listed: int, explained: bool) -> None:
    """--entry: where the entry ranks among the entries the query matches and, unless --explain printed it above
    already, why."""
    rank, matched = standing["rank"], standing["matched"]
    entries = f"{matched} {'entry' if matched == 1 else 'entries'} the query matches"
    if rank is None:
        print(f"[{entry}] is not among the {entries}: no word of the query, nor a reading of one, is in it")
    elif rank <= listed:
        print(f"[{entry}] is result {rank} of the {entries}")
        if not explained:
            print(explanation(standing["result"]["explain"]))
    else:
        print(f"[{entry}] ranks {rank} of the {entries}, below the {listed} listed:")
        _print_result(rank, standing["result"], True)
