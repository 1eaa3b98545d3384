"""MkDocs adapter: wires the `pitfalls` core into MkDocs events. Holds no logic of its own.

One MkDocs build makes one language site; `python -m pitfalls build` runs one per language.
The language comes from `theme.language` (set through PITFALLS_LANG in mkdocs.yml).
"""

from __future__ import annotations

import os
import pickle
import sys
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `mkdocs` run as a script does not put the project on the path
    sys.path.insert(0, str(ROOT))

from markupsafe import escape  # noqa: E402
from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.structure.files import File  # noqa: E402

from pitfalls.export import site_files  # noqa: E402
from pitfalls.model import LANGUAGES  # noqa: E402
from pitfalls.render import SiteRenderer, ui_strings  # noqa: E402
from pitfalls.search import write_site_index  # noqa: E402
from pitfalls.site import DEFAULT_SITE_URL  # noqa: E402
from pitfalls.validate import ContentError, load_knowledge_base  # noqa: E402


def knowledge_base():
    """The validated content: handed over by `python -m pitfalls build`, which validated it once
    for both languages (PITFALLS_VALIDATED, a pickle it wrote), else read and validated here."""
    handed_over = os.environ.get("PITFALLS_VALIDATED")
    if handed_over:
        return pickle.loads(Path(handed_over).read_bytes())
    return load_knowledge_base(content_dir())


def content_dir() -> Path:
    """The content folder: PITFALLS_CONTENT (tests build other content), else content/."""
    return Path(os.environ.get("PITFALLS_CONTENT") or ROOT / "content")


_pages: dict = {}
"""This build's rendered pages by source path; replaced in on_config for every build."""
_base = None
"""This build's knowledge base, for the search index written after the build."""
_stock_search = False
"""Material's own search instead of ours (PITFALLS_STOCK_SEARCH=1): only for bench/bench_search.py."""


def on_config(config):
    global _pages, _base, _stock_search
    _stock_search = os.environ.get("PITFALLS_STOCK_SEARCH") == "1"
    lang = config.theme["language"]
    if lang not in LANGUAGES:
        raise PluginError(f"theme.language is {lang!r}; this site is built in {', '.join(LANGUAGES)}")
    try:
        base = knowledge_base()
    except ContentError as err:
        raise PluginError(str(err)) from None
    _base = base

    ui = ui_strings()[lang]
    other = ui["other_language_code"]
    config.site_name = ui["site_name"]
    site_root = config.site_url or DEFAULT_SITE_URL
    config.site_url = f"{site_root}{lang}/"
    config.extra["alternate"] = [{"name": ui["other_language"], "lang": other}]
    config.extra["pitfalls"] = {"lang": lang, "other_lang": other, "other_root": f"{urlsplit(site_root).path}{other}/", "og_locale": ui["og_locale"],
                                "other_og_locale": ui_strings()[other]["og_locale"]}
    if not _stock_search:  # overrides/main.html points Material's search UI at our worker
        config.extra["pitfalls"]["search_worker"] = "assets/search/worker.js"
    edit_url = f"{config.repo_url.rstrip('/')}/{config.edit_uri.strip('/')}/" if config.repo_url else ""
    renderer = SiteRenderer(base, lang, edit_url=edit_url)
    _pages = {page.src_uri: page for page in renderer.pages()}
    config.nav = [
        {ui["home"]: "index.md"},
        {ui["categories"]: [f"categories/{group.label.key}.md" for group in renderer.index.categories]},
        {ui["all_tags"]: "tags/index.md"},
        {ui["translations"]: "translations.md"},
    ]
    return config


def on_files(files, config):
    for page in _pages.values():
        files.append(File.generated(config, page.src_uri, content=page.content))
    # entries.json and feed.xml: not .md, so MkDocs copies them as they are
    for path, text in site_files(_base, config.theme["language"], config.site_url, content_dir()).items():
        files.append(File.generated(config, path, content=text))
    return files


def on_page_markdown(markdown, page, config, files):
    rendered = _pages.get(page.file.src_uri)
    if rendered is not None:
        # escaped once here: Material prints meta.title and meta.description without escaping
        page.meta["title"] = escape(rendered.title)
        page.meta["description"] = escape(rendered.description)
        page.meta.update(rendered.meta)
    if not _stock_search:
        # Material's search plugin stays for its search box, but its index would be thrown away
        # in on_post_build: skip the work (a quarter of a build's time)
        page.meta["search"] = {"exclude": True}
    return markdown


def on_post_build(config):
    # after Material's search plugin (hooks run after plugins): our index replaces its search/
    if not _stock_search:
        write_site_index(_base, content_dir(), config.theme["language"], Path(config.site_dir))
