"""MkDocs adapter: wires the `pitfalls` core into MkDocs events. Holds no logic of its own.

One MkDocs build makes one language site; `pitfalls build` runs one per language. The language
comes from `theme.language` and the site root from `site_url` (both set in mkdocs.yml from
PITFALLS_LANG and PITFALLS_SITE_URL); every other setting is in pitfalls/settings.py.

Each build's state lives in one `Build`, made in `on_config`: MkDocs does not reload hooks under
`serve`, so nothing may outlive a build at module level. `pitfalls serve` keeps a language's
build running and updates the pages that changed from that state (pitfalls/commands/serve_worker.py).
"""

from __future__ import annotations

import pickle
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from jinja2 import Environment
from markupsafe import escape
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.toc import get_toc

from pitfalls.errors import PitfallsError
from pitfalls.pages.dates import EntryDates, entry_dates
from pitfalls.pages.export import site_files
from pitfalls.pages.render import PagePlan, RenderedPage, SiteRenderer, ui_strings
from pitfalls.pages.search_index import write_site_index
from pitfalls.records.model import LANGUAGES, KnowledgeBase
from pitfalls.records.validate import load_knowledge_base
from pitfalls.settings import DEFAULT_SITE_URL, HookSettings


@dataclass
class Build:
    """One language build: its content, its settings and its rendered pages."""

    base: KnowledgeBase
    """The validated content."""
    lang: str
    """The site language."""
    settings: HookSettings
    """What the environment said."""
    dates: dict[str, EntryDates] = field(default_factory=dict)
    """When each entry appeared and last changed (git), read once for the pages and the feed."""
    pages: dict[str, RenderedPage] = field(default_factory=dict)
    """Rendered pages by source path."""
    renderer: SiteRenderer | None = None
    """What rendered them, with the site index (similar entries, listings)."""
    plan: dict[str, PagePlan] = field(default_factory=dict)
    """The renderer's plan: the inputs of the pages."""
    rendered: dict[str, list[RenderedPage]] = field(default_factory=dict)
    """The rendered pages by plan key."""
    files: Files | None = None
    """MkDocs' files of the site, from on_files."""
    nav: Navigation | None = None
    """MkDocs' navigation, from on_nav."""
    env: Environment | None = None
    """The theme's Jinja environment, from on_env."""
    search_dir: Path | None = None
    """Our search index, written in on_config to a temporary folder that becomes the site's search/ in on_post_build."""


_build: Build | None = None
"""The current build: replaced in on_config, the first event of every build."""


def current_build() -> Build | None:
    """The last build's state, for `pitfalls serve` to update."""
    return _build


def _knowledge_base(settings: HookSettings) -> KnowledgeBase:
    """The content `pitfalls build` validated once for every language, else read and validated here."""
    if settings.handover:
        return pickle.loads(settings.handover.read_bytes())
    return load_knowledge_base(settings.content)


def on_config(config):
    global _build
    settings = HookSettings.from_environment()
    lang = config.theme["language"]
    if lang not in LANGUAGES:
        raise PluginError(f"theme.language is {lang!r}; this site is built in {', '.join(LANGUAGES)}")
    try:
        build = Build(_knowledge_base(settings), lang, settings)
    except PitfallsError as err:  # content errors, a content folder that is not there
        raise PluginError(str(err)) from None

    strings = ui_strings()
    ui = strings[lang]
    other = ui["other_language_code"]
    config.site_name = ui["site_name"]
    config.site_description = ui["site_description"]  # the meta description of pages without their own (404)
    site_root = config.site_url or DEFAULT_SITE_URL
    config.site_url = f"{site_root}{lang}/"
    config.extra["alternate"] = [{"name": ui["other_language"], "lang": other}]
    base_path = urlsplit(site_root).path
    # ui: the interface strings of overrides/404.html, which MkDocs renders with no page of ours to carry them
    config.extra["pitfalls"] = {"lang": lang, "root": f"{base_path}{lang}/", "other_lang": other,
                                "other_root": f"{base_path}{other}/", "og_locale": ui["og_locale"],
                                "other_og_locale": strings[other]["og_locale"], "ui": ui}
    if not settings.stock_search:  # overrides/main.html points Material's search UI at our worker
        config.extra["pitfalls"]["search_worker"] = "search/worker.js"
    edit_url = f"{config.repo_url.rstrip('/')}/{config.edit_uri.strip('/')}/" if config.repo_url else ""
    build.dates = entry_dates(build.base)
    renderer = SiteRenderer(build.base, lang, dates=build.dates, edit_url=edit_url, repo_url=config.repo_url or "",
                            site_url=config.site_url)
    if not settings.stock_search:
        # before MkDocs renders the pages, so the index's working memory is freed before every page is held
        build.search_dir = Path(tempfile.mkdtemp(prefix="pitfalls-search-"))
        write_site_index(build.base, lang, build.search_dir)
    build.renderer, build.plan = renderer, renderer.plan()
    build.rendered = {key: plan.render() for key, plan in build.plan.items()}
    build.pages = {page.src_uri: page for pages in build.rendered.values() for page in pages}
    config.nav = [
        {ui["home"]: "index.md"},
        {ui["categories"]: [f"categories/{group.label.key}.md" for group in renderer.index.categories]},
        {ui["all_tags"]: "tags/index.md"},
        {ui["recently_updated"]: "recent.md"},
        {ui["translations"]: "translations.md"},
    ]
    _build = build
    return config


def on_files(files, config):
    _build.files = files
    for page in _build.pages.values():
        files.append(File.generated(config, page.src_uri, content=page.content))
    if not _build.settings.keep_pages:
        _build.rendered = {}  # the pages stay in _build.pages until MkDocs has taken each (on_page_content)
    # entries.json and feed.xml: not .md, so MkDocs copies them as they are
    for path, text in site_files(_build.base, _build.lang, config.site_url, _build.dates).items():
        files.append(File.generated(config, path, content=text))
    return files


def on_nav(nav, config, files):
    _build.nav = nav
    return nav


def on_env(env, config, files):
    _build.env = env
    return env


def on_page_markdown(markdown, page, config, files):
    if not _build.settings.stock_search:
        # Material's search plugin stays for its search box, but its index would be thrown away
        # in on_post_build: skip the work (a quarter of a build's time)
        page.meta["search"] = {"exclude": True}
    rendered = _build.pages.get(page.file.src_uri)
    if rendered is None:
        return markdown
    if not _build.settings.keep_pages:
        page.file.content_string = ""  # MkDocs has read the file: its copy of the page is not needed again
    # escaped once here: Material prints meta.title and meta.description without escaping
    page.meta["title"] = escape(rendered.title)
    page.meta["description"] = escape(rendered.description)
    page.meta.update(rendered.meta)
    # the page is HTML already: MkDocs converts no Markdown, and on_page_content gives it the page
    return ""


def on_page_content(html, page, config, files):
    if _build.settings.keep_pages:
        rendered = _build.pages.get(page.file.src_uri)
    else:
        # the page's last use in this build: at 5,000 entries, 126 MB a language held until the build ends
        rendered = _build.pages.pop(page.file.src_uri, None)
    if rendered is None:
        return html
    page.toc = get_toc([{"level": 2, "id": h.anchor, "name": h.title, "children": []} for h in rendered.toc])
    return rendered.content


def on_post_build(config):
    # after Material's search plugin (hooks run after plugins): our index replaces its search/
    if _build.search_dir:
        search = Path(config.site_dir) / "search"
        shutil.rmtree(search, ignore_errors=True)
        shutil.move(_build.search_dir / "search", search)
        _remove_search_dir()


def on_build_error(error):
    _remove_search_dir()


def _remove_search_dir() -> None:
    if _build and _build.search_dir:
        shutil.rmtree(_build.search_dir, ignore_errors=True)
        _build.search_dir = None
