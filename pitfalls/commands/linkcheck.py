"""Find broken internal links and anchors in a built site (no network: other hosts are skipped)."""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from ..errors import PitfallsError, existing_folder
from ..settings import DEFAULT_SITE_URL, site_url_option

_LINK_ATTRIBUTES = {"a": "href", "link": "href", "script": "src", "img": "src", "iframe": "src"}


class _PageScan(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("id", "name"):
            if attrs.get(key):
                self.ids.add(attrs[key])
        wanted = _LINK_ATTRIBUTES.get(tag)
        if wanted and attrs.get(wanted) and not (tag == "link" and attrs.get("rel") in ("preconnect", "dns-prefetch")):
            self.links.append(attrs[wanted])


def broken_links(site_dir: Path, site_url: str = DEFAULT_SITE_URL) -> list[str]:
    """'page: link (why)' for every internal link whose file or anchor does not exist."""
    site_dir = site_dir.resolve()
    scans: dict[Path, _PageScan] = {}

    def scan(path: Path) -> _PageScan:
        if path not in scans:
            scans[path] = _PageScan()
            scans[path].feed(path.read_text(encoding="utf-8", errors="replace"))
        return scans[path]

    root = urlsplit(site_url)
    problems = []
    for page in sorted(site_dir.rglob("*.html")):
        page_url = urljoin(site_url, page.relative_to(site_dir).as_posix())
        for link in scan(page).links:
            target = urlsplit(urljoin(page_url, link))
            if target.scheme not in ("http", "https") or target.netloc != root.netloc:
                continue  # another host, mailto:, data: …: not ours to check offline
            if not target.path.startswith(root.path):
                problems.append(f"{page.relative_to(site_dir)}: {link} (outside the site)")
                continue
            file = site_dir / unquote(target.path[len(root.path):])
            if target.path.endswith("/") or file.is_dir():
                file = file / "index.html"
            if not file.is_file():
                problems.append(f"{page.relative_to(site_dir)}: {link} (no such file)")
            elif target.fragment and file.suffix == ".html" and unquote(target.fragment) not in scan(file).ids:
                problems.append(f"{page.relative_to(site_dir)}: {link} (no such anchor)")
    return problems


def register(commands) -> None:
    parser = commands.add_parser("linkcheck", help="检查站内链接 / check internal links and anchors of a built site")
    parser.add_argument("site_dir", type=Path, nargs="?", default=Path("site"), metavar="SITE_DIR",
                        help="the built site (default: %(default)s)")
    parser.add_argument("--site-url", type=site_url_option, default=DEFAULT_SITE_URL, help="the URL the site was built for")
    parser.set_defaults(run=_run)


def _run(args) -> int:
    todo = "build the site first (pitfalls build), or name the folder it was built into"
    existing_folder(args.site_dir, "SITE_DIR", todo)
    if not any(args.site_dir.rglob("*.html")):  # nothing checked is no proof that nothing is broken
        raise PitfallsError(f"SITE_DIR {args.site_dir}: holds no HTML page; {todo}")
    problems = broken_links(args.site_dir, args.site_url)
    for problem in problems:
        print(problem)
    print(f"{len(problems)} broken link(s)", file=sys.stderr)
    return 1 if problems else 0
