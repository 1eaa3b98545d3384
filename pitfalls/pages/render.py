"""Render records into the pages of one site language.

Record text is text: everything from content goes through the Jinja environment with
autoescaping on, and only the markup subset of docs/CONTENT.md is turned into HTML, by the
two filters below. The templates write each page's finished HTML, section headings with their
permanent anchors included, and list those headings as the page's table of contents: MkDocs
gets the page as it is, with no Markdown to convert (converting raw HTML back and forth was a
third of a build's time).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import jinja2
import yaml
from markupsafe import Markup, escape

from ..records.model import KnowledgeBase, Record
from ..settings import DEFAULT_SITE_URL, TEMPLATES_DIR
from .dates import EntryDates
from .listings import Group, ListingPage, SiteIndex
from .share import ChatSummary, chat_summary, feedback_url
from .translations import coverage


@dataclass(frozen=True)
class Heading:
    """A section heading of a page (an <h2>), as its table of contents lists it."""

    anchor: str
    """Its id: the URL fragment that links to it."""
    title: Markup
    """Its text, as HTML."""


class Headings:
    """The headings of one page, listed as its template writes them (`toc.add` in the `heading` macro of
    templates/_macros.html.j2), so the table of contents is the page's own headings, never a second list."""

    def __init__(self):
        self.found: list[Heading] = []

    def add(self, anchor: str, text: str) -> str:
        self.found.append(Heading(anchor, escape(text)))
        return ""


@dataclass(frozen=True)
class RenderedPage:
    """One generated page of one language site."""

    src_uri: str
    """Path of the page's source inside the language site, e.g. `cuda-out-of-memory.md`."""
    content: str
    """The page's HTML: what the theme shows as its content (for `.md` pages) or the whole file (`.html` pages)."""
    title: str
    """Plain-text title, for <title>, navigation and link previews."""
    description: str = ""
    """Plain-text summary for <meta name="description"> and og:description."""
    meta: dict = field(default_factory=dict)
    """Extra per-page values for the theme, e.g. og:type."""
    toc: tuple[Heading, ...] = ()
    """The page's section headings, in order: its table of contents."""


@dataclass(frozen=True)
class PagePlan:
    """Pages of a language site, ready to render."""

    inputs: tuple | None
    """All of the content that the pages show: equal inputs, equal pages. None: pages that are
    rendered every time (the home, tag index and translation pages: few, and small)."""
    render: Callable[[], list[RenderedPage]] = field(compare=False)
    """Renders them."""


@cache
def ui_strings() -> dict[str, dict[str, str]]:
    """Interface strings per language, from templates/ui.yml."""
    return yaml.safe_load((TEMPLATES_DIR / "ui.yml").read_text(encoding="utf-8"))


def environment() -> jinja2.Environment:
    """The one Jinja environment for all generated pages."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # Markdown headings carry anchors as `{#id}`, which would open a Jinja comment
        comment_start_string="{##",
        comment_end_string="##}",
    )
    env.filters["inline"] = inline_markup
    env.filters["blocks"] = block_markup
    env.filters["plain"] = plain_text
    env.filters["attr"] = attribute_value
    return env


def attribute_value(text: str) -> Markup:
    """`text` for a double-quoted HTML attribute: escaped even when it is markup already (an attribute that
    holds HTML, for a script to use), with line breaks as character references, so a multi-line value stays
    on one line of the page's raw HTML (which Markdown passes through)."""
    return Markup(str(escape(str(text))).replace("\r", "").replace("\n", "&#10;"))


# --- the markup subset: `code`, ```fenced code```, *em*, **strong**, [text](http(s)://…) ---

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
_LINK = re.compile(r"\[([^\[\]\n]+)\]\((https?://[^\s()<>]+)\)")
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EM = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])")
_FENCE = re.compile(r"^```[^\n`]*\n(.*?)\n?^```[ \t]*$", re.S | re.M)


def inline_markup(text: str) -> Markup:
    """Escape `text`, then turn inline code, emphasis and http(s) links into HTML."""
    parts = []
    last = 0
    for match in _CODE_SPAN.finditer(text):
        parts.append(_inline_prose(text[last:match.start()]))
        parts.append(Markup("<code>%s</code>") % match.group(2))
        last = match.end()
    parts.append(_inline_prose(text[last:]))
    return Markup("").join(parts)


def _inline_prose(text: str) -> Markup:
    html = str(escape(text))
    # escaping leaves [ ] ( ) * and URLs' characters as they were, except & → &amp; inside URLs,
    # which is what an href wants
    out, last = [], 0
    for link in _LINK.finditer(html):  # emphasis stays outside links, where `*` may be part of a URL
        out.append(_emphasis(html[last:link.start()]))
        out.append(f'<a href="{link.group(2)}" rel="nofollow noopener">{_emphasis(link.group(1))}</a>')
        last = link.end()
    out.append(_emphasis(html[last:]))
    return Markup("".join(out))


def _emphasis(html: str) -> str:
    return _EM.sub(r"<em>\1</em>", _STRONG.sub(r"<strong>\1</strong>", html))


def block_markup(text: str) -> Markup:
    """Paragraphs and fenced code blocks, with inline markup inside paragraphs."""
    out = []
    last = 0
    for match in _FENCE.finditer(text):
        out += _paragraphs(text[last:match.start()])
        out.append(Markup("<pre><code>%s</code></pre>") % match.group(1))
        last = match.end()
    out += _paragraphs(text[last:])
    return Markup("\n").join(out)


def _paragraphs(text: str) -> list[Markup]:
    chunks = [c.strip() for c in re.split(r"\n\s*\n", text)]
    return [Markup("<p>%s</p>") % Markup("<br>\n").join(inline_markup(line) for line in c.splitlines()) for c in chunks if c]


def plain_text(text: str) -> str:
    """The text a reader sees, without markup characters: for titles and link previews."""
    text = _FENCE.sub(lambda m: m.group(1), text)
    text = _CODE_SPAN.sub(lambda m: m.group(2), text)
    text = _LINK.sub(lambda m: m.group(1), text)
    return " ".join(text.split())


PREVIEW_LIMIT = 200
"""Characters of an entry's link-preview description (og:description and <meta name="description">)."""


def shorten(text: str, limit: int) -> str:
    """`text` in at most `limit` characters, ending in "…" when cut; Latin words stay whole when a space is near."""
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    space = cut.rfind(" ")
    if space > (limit - 1) * 0.6:
        cut = cut[:space]
    return cut.rstrip() + "…"


def preview_description(template: str, title: str, problem: str, fix: str, limit: int = PREVIEW_LIMIT) -> str:
    """The link preview of an entry, e.g. "title: first symptom — Fix: quick fix", in at most `limit`
    characters: the problem is shortened first (to no less than a few words), then the end."""
    text = template.format(title=title, problem=problem, fix=fix)
    if len(text) > limit:
        room = limit - len(template.format(title=title, problem="", fix=fix))
        text = template.format(title=title, problem=shorten(problem, max(room, 30)), fix=fix)
    return shorten(text, limit)


# --- pages ---


class SiteRenderer:
    """Renders every page of one language site from the knowledge base."""

    def __init__(self, base: KnowledgeBase, lang: str, *, dates: dict[str, EntryDates] | None = None,
                 edit_url: str = "", repo_url: str = "", site_url: str = "", env: jinja2.Environment | None = None,
                 previous: SiteIndex | None = None):
        """`dates`: entry_dates(base), read from git when not given; `edit_url`: where "edit this record" links
        point, the record's path appended; `repo_url`: the repository, whose forge's new-issue page the feedback
        link opens (none when empty); `site_url`: this language site's public root URL (`…/zh/`), for the
        permanent URLs that "copy for chat" copies (default: the default site URL's); `previous`: see SiteIndex."""
        self.base, self.lang = base, lang
        self.index = SiteIndex(base, dates, previous)
        self.env = env or environment()
        self.ui = ui_strings()[lang]
        self.repo_url = repo_url
        self.site_url = site_url or f"{DEFAULT_SITE_URL}{lang}/"
        self.common = {"lang": lang, "ui": self.ui, "index": self.index, "dates": self.index.dates, "edit_url": edit_url}

    def pages(self) -> list[RenderedPage]:
        """All pages of the language site, in a stable order."""
        return [page for plan in self.plan().values() for page in plan.render()]

    def plan(self) -> dict[str, PagePlan]:
        """Every page of the language site, not rendered yet, by a key that names the same pages in every
        version of the content: what `serve` compares to render only the pages whose inputs changed."""
        plan = {"home": PagePlan(None, lambda: [self.home()]),
                "tags": PagePlan(None, lambda: [self.all_tags()]),
                "translations": PagePlan(None, lambda: [self.translations()])}
        for kind, groups in (("category", self.index.categories), ("tag", self.index.tags)):
            render = getattr(self, kind)
            for group in groups:
                for listing in group.pages:
                    plan[listing.src_uri] = PagePlan((listing, len(group.records)),
                                                     lambda group=group, listing=listing, render=render: [render(group, listing)])
        for listing in self.index.recent:
            plan[listing.src_uri] = PagePlan((listing, tuple(self.index.dates[r.id] for r in listing.records)),
                                             lambda listing=listing: [self.recent(listing)])
        for record in self.base.records:
            # the entry's page and the redirects from its former ids
            plan[f"entry:{record.id}"] = PagePlan(
                (record, self.index.related(record), self.index.linking(record), self.index.similar(record)),
                lambda record=record: [self.entry(record), *(self.alias(record, alias) for alias in record.aliases)])
        return plan

    def _render(self, template: str, **context) -> tuple[str, tuple[Heading, ...]]:
        """The template's HTML and the headings it wrote."""
        toc = Headings()
        html = self.env.get_template(template).render(**self.common, **context, toc=toc)
        return html, tuple(toc.found)

    def _page(self, src_uri: str, template: str, title: str, description: str = "", meta: dict | None = None,
              **context) -> RenderedPage:
        html, toc = self._render(template, **context)
        return RenderedPage(src_uri, html, title, description, meta or {}, toc)

    def home(self) -> RenderedPage:
        n = len(self.base.records)
        return self._page("index.md", "home.html.j2", self.ui["site_name"],
                          f"{self.ui['tagline']} · {self.ui['entry_count'].format(n=n)}")

    def entry(self, record: Record) -> RenderedPage:
        title = plain_text(record.title.get(self.lang))
        description = preview_description(self.ui["preview"], title, plain_text(record.symptoms[0].text.get(self.lang)),
                                          plain_text(record.quick_fix.get(self.lang)))
        url = f"{self.site_url}{record.id}/"
        feedback = feedback_url(self.repo_url, self.ui, record.id, title, url, record.last_verified)
        return self._page(f"{record.id}.md", "entry.html.j2", title, description, {"og_type": "article"},
                          record=record, share=self.chat_summaries(record), feedback_url=feedback)

    def chat_summaries(self, record: Record) -> dict[str, ChatSummary]:
        """What the entry's "copy for chat" buttons copy, by the anchor they link to ("" for the entry itself):
        the title, the first symptom, the quick fix, the step of a step's button, the permanent URL."""
        url = f"{self.site_url}{record.id}/"
        first = record.symptoms[0]
        parts = {"title": plain_text(record.title.get(self.lang)),
                 "symptom": shorten(plain_text(first.text.get(self.lang)), PREVIEW_LIMIT),
                 "symptom_is_message": first.verbatim, "fix": shorten(plain_text(record.quick_fix.get(self.lang)), 300)}
        summaries = {"": chat_summary(self.ui, url, **parts),
                     "symptoms": chat_summary(self.ui, f"{url}#symptoms", **parts)}
        for number, step in enumerate(record.steps, 1):
            text = shorten(plain_text(step.text.get(self.lang)), PREVIEW_LIMIT)
            summaries[f"step-{number}"] = chat_summary(self.ui, f"{url}#step-{number}", **parts,
                                                       step=(number, text, step.code))
        return summaries

    def category(self, group: Group, listing: ListingPage) -> RenderedPage:
        title = self._page_title(self.ui["entries_in_category"].format(label=group.label.get(self.lang)), listing)
        return self._page(listing.src_uri, "category.html.j2", title,
                          self._listing_description(title, listing, len(group.records), self.ui["category_count"]),
                          group=group, listing=listing)

    def tag(self, group: Group, listing: ListingPage) -> RenderedPage:
        title = self._page_title(self.ui["entries_tagged"].format(label="#" + group.label.get(self.lang)), listing)
        return self._page(listing.src_uri, "tag.html.j2", title,
                          self._listing_description(title, listing, len(group.records), self.ui["tag_count"]),
                          group=group, listing=listing)

    def recent(self, listing: ListingPage) -> RenderedPage:
        """Every entry by its last change, newest first (dates from git, as in the feed)."""
        title = self._page_title(self.ui["recently_updated"], listing)
        return self._page(listing.src_uri, "recent.html.j2", title,
                          self._listing_description(title, listing, len(self.base.records), self.ui["category_count"]),
                          listing=listing)

    def _page_title(self, title: str, listing: ListingPage) -> str:
        """A listing's title; from its second page on, with the page number, so every page's title differs."""
        return title if listing.number == 1 else f"{title} · {self.ui['page_number'].format(number=listing.number)}"

    def _listing_description(self, title: str, listing: ListingPage, total: int, count_text: str) -> str:
        """A listing page's meta description: its title, how many entries, and the titles of the first ones on
        this page ("分类：训练 · 共 5 条：显存不足、…"), in at most PREVIEW_LIMIT characters."""
        titles = self.ui["list_separator"].join(plain_text(r.title.get(self.lang)) for r in listing.records[:8])
        return shorten(self.ui["listing_description"].format(heading=title, count=count_text.format(n=total),
                                                             titles=titles), PREVIEW_LIMIT)

    def all_tags(self) -> RenderedPage:
        groups = sorted(self.index.tags, key=lambda group: -len(group.records))  # stable: registry order among equals
        tags = self.ui["list_separator"].join(f"#{group.label.get(self.lang)}" for group in groups[:12])
        description = self.ui["tags_description"].format(n=len(self.index.tags), tags=tags)
        return self._page("tags/index.md", "tags.html.j2", self.ui["all_tags"], shorten(description, PREVIEW_LIMIT))

    def translations(self) -> RenderedPage:
        """Translation coverage: how many entries are fully written in each language, and which are not."""
        found = coverage(self.base.records)
        counts = self.ui["list_separator"].join(
            f"{self.ui['language_' + item.lang]} " + self.ui["translation_count"].format(
                translated=item.translated, total=item.total, percent=item.percent) for item in found)
        description = self.ui["translations_description"].format(counts=counts)
        return self._page("translations.md", "translations.html.j2", self.ui["translations"],
                          shorten(description, PREVIEW_LIMIT), coverage=found)

    def alias(self, record: Record, alias: str) -> RenderedPage:
        """A redirect from a former id: a plain HTML file, not a themed page."""
        html, _ = self._render("redirect.html.j2", record=record, target=f"../{record.id}/")
        return RenderedPage(f"{alias}/index.html", html, plain_text(record.title.get(self.lang)))
