"""One language of `pitfalls serve`, kept running between rebuilds (python -m pitfalls.commands.serve_worker SITE_DIR).

`serve` starts one per language with the build's environment (PITFALLS_LANG, PITFALLS_SITE_URL,
PITFALLS_HANDOVER) and writes a line to its stdin whenever the content changed and was validated
into the handover file; the worker answers one line, `ok` or `failed`. The first request builds the
language whole with MkDocs; later ones update what changed in that build: the pages whose inputs
changed (an entry, the entries that show it as related or similar, the listings), entries.json,
the feed and the search index files. A change to the categories, tags or search vocabulary rebuilds
the language whole, as does any update that fails.

The update calls two functions MkDocs keeps private (`_populate_page`, `_build_page`: the page
steps of `mkdocs.commands.build.build`), through the adapter that `serve` checks when it starts
(pitfalls/commands/dependencies.py).
"""

from __future__ import annotations

import pickle
import shutil
import sys
import traceback
from pathlib import Path

from mkdocs.commands import build as mkdocs_build
from mkdocs.config import load_config
from mkdocs.structure.files import File
from mkdocs.structure.pages import Page

from ..pages.dates import entry_dates
from ..pages.export import site_files
from ..pages.render import SiteRenderer
from ..pages.search_index import EntryAnalysis, SearchIndex, build_index, write_index
from ..settings import MKDOCS_YML, HookSettings
from .dependencies import build_page, populate_page

HOOK = "hooks/pitfalls_hook.py"
"""The hook's name in mkdocs.yml: MkDocs keeps the loaded module under it."""


class LanguageBuild:
    """A language site built once by MkDocs, then updated page by page."""

    def __init__(self, site_dir: Path):
        self.config = load_config(str(MKDOCS_YML), site_dir=str(site_dir))
        mkdocs_build.build(self.config)
        self.hook = self.config.hooks[HOOK]
        self.analyses: dict[str, EntryAnalysis] = {}
        """The search index's analysis of each record, by id: only changed records are cut again."""
        self.search: SearchIndex | None = None
        """The search index the site's files hold, once `warm_up` has run."""

    def warm_up(self) -> None:
        """The search index of the build, kept for the next update to compare with (the same files MkDocs' build wrote)."""
        build = self.hook.current_build()
        self.search = build_index(build.base, build.lang, self.analyses)

    def update(self) -> None:
        """Bring the built site up to the content in the handover file."""
        build, config = self.hook.current_build(), self.config
        base = pickle.loads(HookSettings.from_environment().handover.read_bytes())
        if (base.categories, base.tags, base.vocabulary) != (build.base.categories, build.base.tags, build.base.vocabulary):
            raise ContentShapeChanged
        old = build.renderer
        dates = entry_dates(base)
        renderer = SiteRenderer(base, build.lang, dates=dates, edit_url=old.common["edit_url"], repo_url=old.repo_url,
                                site_url=old.site_url, env=old.env, previous=old.index)
        plan, rendered = renderer.plan(), {}
        for key, item in plan.items():
            earlier = build.plan.get(key)
            unchanged = item.inputs is not None and earlier is not None and earlier.inputs == item.inputs
            rendered[key] = build.rendered[key] if unchanged else item.render()
        pages = {page.src_uri: page for pages in rendered.values() for page in pages}
        changed = [page for uri, page in pages.items() if build.pages.get(uri) != page]
        removed = build.pages.keys() - pages.keys()
        # what the hook's events read
        build.base, build.dates, build.renderer, build.plan, build.rendered, build.pages = base, dates, renderer, plan, rendered, pages

        files = build.files
        for uri in removed:
            file = files.get_file_from_path(uri)
            files.remove(file)
            shutil.rmtree(Path(file.abs_dest_path).parent, ignore_errors=True)
        written = []
        for page in changed:
            file = files.get_file_from_path(page.src_uri)
            if file is None:
                file = File.generated(config, page.src_uri, content=page.content)
                files.append(file)
            else:
                file.content_string = page.content
            if file.is_documentation_page():
                if file.page is None:
                    Page(None, file, config)
                populate_page(file.page, config, files)
                written.append(file)
            else:
                file.copy_file()
        documentation = files.documentation_pages()
        for file in written:
            build_page(file.page, config, documentation, build.nav, build.env)
        search = build_index(base, build.lang, self.analyses)
        write_index(search, Path(config.site_dir) / "search", self.search)
        self.search = search

    def update_exports(self) -> None:
        """entries.json and feed.xml, after `update`: serve reloads the browsers without waiting for them."""
        build = self.hook.current_build()
        for path, text in site_files(build.base, build.lang, self.config.site_url, build.dates).items():
            file = build.files.get_file_from_path(path)
            file.content_string = text
            file.copy_file()


class ContentShapeChanged(Exception):
    """The categories, tags or vocabulary changed: every page may differ, so the language is built whole."""


def main() -> int:
    site_dir = Path(sys.argv[1])
    current: LanguageBuild | None = None
    for _request in sys.stdin:
        updated = False
        try:
            if current is not None:
                try:
                    current.update()
                    updated = True
                except ContentShapeChanged:
                    current = None
                except Exception:  # a bug of the update: say so, and do not keep a half-updated build
                    traceback.print_exc()
                    print("update failed; building the language whole", file=sys.stderr)
                    current = None
            if current is None:
                current = LanguageBuild(site_dir)
        except Exception as err:  # MkDocs said why on the terminal already
            print(f"{type(err).__name__}: {err}", file=sys.stderr)
            print("failed", flush=True)
            current = None
            continue
        print("ok", flush=True)
        try:  # after the answer: the browsers reload meanwhile
            current.update_exports() if updated else current.warm_up()
        except Exception:
            traceback.print_exc()
            current = None
    return 0


if __name__ == "__main__":
    sys.exit(main())
