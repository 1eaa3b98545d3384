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
from ..pages.search_index import write_site_index
from ..records.model import LANGUAGES
from ..records.validate import load_knowledge_base
from ..settings import CONTENT_DIR, ENGINE_JS, site_root

NODE_RUNNER = Path(__file__).with_name("search_node.js")


class NoSearchIndex(PitfallsError):
    """--site-dir is a folder, but no built site with a search index."""

    exit_code = 1  # what tests/test_search.py (kept by the search engine's rewrite) expects; 2 like the rest once it moves


def run_queries(search_dir: Path, queries: list[str], off: tuple[str, ...] = ()) -> list[list[dict]]:
    """The ranked entries ({id, title, score, exact}) for each query against the index in
    `search_dir`, computed by engine.js under node; the engine stages named in `off` switched off."""
    node = shutil.which("node")
    if node is None:
        raise PitfallsError("`pitfalls search` runs the site's search engine with node, which is not installed; "
                            "install nodejs (make test does)")
    done = subprocess.run([node, str(NODE_RUNNER), str(ENGINE_JS), str(search_dir), ",".join(off)], input=json.dumps(queries),
                          capture_output=True, text=True, encoding="utf-8")
    if done.returncode != 0:
        raise PitfallsError("the search engine failed (what node said follows)", details=done.stderr)
    return json.loads(done.stdout)


def register(commands) -> None:
    search = commands.add_parser("search", help="像站点一样搜索条目 / search the entries with the site's engine")
    search.add_argument("query", help="what you would type into the site's search box")
    search.add_argument("--lang", choices=LANGUAGES, default=LANGUAGES[0], help="site language (default: %(default)s)")
    search.add_argument("--json", action="store_true", help="print the results as JSON")
    search.add_argument("--content", type=Path, default=CONTENT_DIR, help="content folder (default: %(default)s)")
    search.add_argument("--site-url", default=site_root(), help="public root URL of the printed links (default: %(default)s)")
    search.add_argument("--site-dir", type=Path, help="search this built site instead of indexing --content afresh")
    search.set_defaults(run=_search)


def _search(args) -> int:
    if args.site_dir:
        existing_folder(args.site_dir, "--site-dir", "build the site first (pitfalls build), or leave --site-dir out")
        search_dir = args.site_dir / args.lang / "search"
        if not (search_dir / "manifest.json").exists():
            raise NoSearchIndex(f"--site-dir {args.site_dir}: {search_dir} has no search index: build the site first")
        results = run_queries(search_dir, [args.query])[0]
    else:
        base = load_knowledge_base(args.content)
        with tempfile.TemporaryDirectory(prefix="pitfalls-search-") as tmp:
            write_site_index(base, args.lang, Path(tmp))
            results = run_queries(Path(tmp) / "search", [args.query])[0]
    root = site_root(args.site_url)
    results = [{**result, "url": entry_url(root, args.lang, result["id"])} for result in results]
    if args.json:
        print(json.dumps(results, ensure_ascii=False, indent=2))
    else:
        for rank, result in enumerate(results, 1):
            print(f"{rank:2}. {result['title']}  [{result['id']}]  ({result['score']:.2f})\n    {result['url']}")
        if not results:
            print("no results", file=sys.stderr)
    return 0
