"""Record text is text: HTML, script and template syntax from any field show literally on every
page and output file, and odd but valid text renders as written.

tests/fixtures/hostile/ puts the same hostile string (marker: `pfxevil`, `<pfx-evil>`) into every
field and registry label; property tests feed arbitrary text through the renderer and the build.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import shared_site
from helpers.page_load import goto
from pitfalls.commands.build import build_site
from pitfalls.pages.render import SiteRenderer, plain_text
from pitfalls.records.model import KnowledgeBase, Label, Record, Reference, Step, Symptom, Text, Vocabulary

HOSTILE = Path(__file__).parent / "fixtures" / "hostile"
ODD = yaml.safe_load((HOSTILE / "entries" / "odd-but-valid.yml").read_text(encoding="utf-8-sig"))
LONG_MESSAGE = ODD["symptoms"][0]

PAYLOADS = ['<script>pfxevil(1)</script>', '<img src=x onerror=pfxevil(2)>', '"><pfx-evil>', "'><pfx-evil x='",
            "[x](javascript:pfxevil(3))", '<a href="javascript:pfxevil(4)">a</a>', '{: onclick="pfxevil(5)" }',
            "&lt;pfx-evil&gt;", "]]></pfx-evil>", "<!--", "{{ 7*191 }}", "{% if true %}PFXEVAL{% endif %}", "{# c #}",
            "`<pfx-evil>`", "```\n<pfx-evil>\n```", "**<pfx-evil>**", "*[a](https://x.y/<pfx-evil>)*", "\\", "\n\n", "#"]


class Scan(HTMLParser):
    """Every element and attribute of a page that came from the hostile input."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.injected: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag, attrs):
        self.in_script = tag == "script"
        if "pfx" in tag:
            self.injected.append(f"<{tag}>")
        for name, value in attrs:
            value = value or ""
            if "pfx" in name or name.startswith("on") and "pfxevil" in value:
                self.injected.append(f"<{tag} {name}={value[:40]!r}>")
            if name in ("href", "src", "action") and re.match(r"\s*javascript:", value, re.I):
                self.injected.append(f"<{tag} {name}={value[:40]!r}>")

    def handle_endtag(self, tag):
        self.in_script = False
        if "pfx" in tag:
            self.injected.append(f"</{tag}>")

    def handle_data(self, data):
        if self.in_script and "pfxevil" in data:
            self.injected.append(f"<script>{data[:40]}")


def injected(markup: str) -> list[str]:
    scan = Scan()
    scan.feed(markup)
    return scan.injected


class Text_(HTMLParser):
    """The visible text of a page, tags removed and entities decoded."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data):
        self.parts.append(data)


def visible_text(markup: str) -> str:
    parser = Text_()
    parser.feed(markup)
    return "".join(parser.parts)


@pytest.fixture(scope="module")
def hostile_site() -> Path:
    return shared_site(HOSTILE)


def test_no_output_file_contains_markup_from_the_input(hostile_site):
    pages = [p for p in hostile_site.rglob("*") if p.suffix in (".html", ".xml", ".map")]
    assert len(pages) > 20
    found = {str(p.relative_to(hostile_site)): injected(p.read_text(encoding="utf-8")) for p in pages}
    assert {path: tags for path, tags in found.items() if tags} == {}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_hostile_text_shows_literally_in_body_title_and_meta(hostile_site, lang):
    page = (hostile_site / lang / "hostile-everywhere" / "index.html").read_text(encoding="utf-8")
    text = visible_text(page)
    for shown in ["<script>pfxevil(1)</script>", "{{ 7*191 }}", "{% if true %}PFXEVAL{% endif %}", "{# c #}",
                  "&lt;pfx-evil&gt;", "[x](javascript:pfxevil(3))", '{: onclick="pfxevil(5)" }', "]]></pfx-evil> <!--"]:
        assert shown in text
    assert "1337" not in text  # 7*191: template syntax was never evaluated
    title = html.unescape(re.search(r"<title>(.*?)</title>", page, re.S).group(1))
    assert title.startswith("<script>pfxevil(1)</script><img src=x onerror=pfxevil(2)>\"><pfx-evil> {{ 7*191 }}")
    for prop in ('name="description"', 'property="og:title"', 'property="og:description"'):
        content = html.unescape(re.search(rf'<meta {prop} content="([^"]*)"', page).group(1))
        assert content.startswith("<script>pfxevil(1)</script>")
    assert 'href="https://example.com/?q=&lt;pfx-evil&gt;&amp;x=&#34;y&#34;"' in page


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_registry_labels_show_literally_on_tag_category_and_home_pages(hostile_site, lang):
    for path in ["tags/evil/index.html", "tags/index.html", "categories/hostile/index.html", "index.html"]:
        text = visible_text((hostile_site / lang / path).read_text(encoding="utf-8"))
        assert '<pfx-evil>"{{7*191}}{%raw%}&amp;' in text or "<script>pfxevil(6)</script>" in text, path


def test_odd_but_valid_text_renders_as_written(hostile_site):
    zh = visible_text((hostile_site / "zh" / "odd-but-valid" / "index.html").read_text(encoding="utf-8"))
    en = visible_text((hostile_site / "en" / "odd-but-valid" / "index.html").read_text(encoding="utf-8"))
    assert "全形標點：「繁體中文」！？ 🚀🔥" in zh and "錯誤：無法連線（逾時）" in zh  # BOM and CRLF in the file
    assert "RTL مرحبا بالعالم שלום & emoji 🚀" in en and "خطأ: انتهت المهلة" in en
    assert LONG_MESSAGE in zh and "| < > & ` * # { } \\" in en
    assert "Use a | b < c > d & e, # not a heading, {not: template}" in en


def test_search_results_show_hostile_text_literally(browser, hostile_site, http_server):
    """Search results are built in the browser from the index: nothing in them may run."""
    url = http_server(hostile_site)
    page = browser.new_page()
    page.add_init_script("window.pfxevil = () => { window.pwned = true }")
    goto(page, f"{url}en/")
    page.locator("input.md-search__input").click()
    page.locator("input.md-search__input").fill("pfxevil script")
    page.locator("input.md-search__input").press("End")
    page.locator(".md-search-result__item").first.wait_for(state="visible", timeout=10_000)
    assert "<script>pfxevil(1)</script>" in page.locator(".md-search-result").inner_text()
    assert page.evaluate("document.querySelectorAll('pfx-evil, .md-search-result img').length") == 0
    assert page.evaluate("window.pwned === true") is False
    page.close()


@pytest.mark.parametrize("width", [375, 1280])
def test_long_single_line_message_scrolls_inside_its_block(browser, hostile_site, http_server, width):
    url = http_server(hostile_site)
    page = browser.new_page(viewport={"width": width, "height": 800})
    goto(page, f"{url}en/odd-but-valid/")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    block = page.locator("pre.pf-symptom--error code").first
    assert block.evaluate("e => e.scrollWidth > e.clientWidth")  # it scrolls rather than wraps or overflows
    page.close()


# --- property tests: arbitrary text in every field ---

# what validation accepts in a field (no control or bidi-override characters, not blank)
FIELD_TEXT = st.lists(
    st.one_of(st.sampled_from(PAYLOADS),
              st.text(st.characters(blacklist_categories=("Cs", "Cc"),
                                    blacklist_characters="\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"),
                      max_size=20)),
    min_size=1, max_size=6).map("".join).filter(lambda s: bool(s.strip()))
LINE = FIELD_TEXT.filter(lambda s: len(s) <= 200)


def _text(value: str) -> Text:
    return Text(zh=value, en=value)


@st.composite
def knowledge_bases(draw) -> KnowledgeBase:
    label = Label("cat", draw(LINE), draw(LINE))
    tag = Label("tag", draw(LINE), draw(LINE))
    record = Record(
        id="entry", source="content/entries/entry.yml", category=label, title=_text(draw(LINE)),
        quick_fix=_text(draw(FIELD_TEXT)),
        symptoms=(Symptom(_text(draw(FIELD_TEXT)), verbatim=True), Symptom(_text(draw(FIELD_TEXT)), verbatim=False)),
        steps=(Step(_text(draw(FIELD_TEXT)), draw(FIELD_TEXT)),), tags=(tag,), cause=_text(draw(FIELD_TEXT)),
        environment={"os": draw(FIELD_TEXT)}, verification=Step(_text(draw(FIELD_TEXT)), draw(FIELD_TEXT)),
        references=(Reference(draw(FIELD_TEXT), "https://example.com/" + draw(st.from_regex(r"[^\s]{0,20}", fullmatch=True))),),
        aliases=("entry-old",),
    )
    return KnowledgeBase(records=(record,), categories=(label,), tags=(tag,), vocabulary=Vocabulary(), content_dir=Path("content"))


ALLOWED_TAGS = {"a", "br", "code", "dd", "div", "dl", "dt", "em", "h1", "h2", "li", "ol", "p", "pre", "span",
                "strong", "ul", "time", "html", "head", "meta", "title", "link", "body", "table", "thead",
                "tbody", "tr", "th", "td", "button"}  # button: "copy for chat", whose texts are attributes


class Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(knowledge_bases(), st.sampled_from(["zh", "en"]))
def test_renderer_never_lets_input_markup_through(base, lang):
    for page in SiteRenderer(base, lang).pages():
        out = page.content  # the page as MkDocs puts it in the theme: HTML, no Markdown stage
        assert injected(out) == [], page.src_uri
        parser = Tags()
        parser.feed(out)
        assert parser.tags <= ALLOWED_TAGS, page.src_uri
        assert "<script" not in out.lower()
        for heading in page.toc:  # the table of contents, which the theme prints as HTML
            toc = Tags()
            toc.feed(heading.title)
            assert toc.tags == set(), (page.src_uri, heading)


def _record_file(record_id: str, title: str, body: str, code: str) -> dict:
    return {"id": record_id, "category": "hostile", "title": {"zh": title, "en": title},
            "quick_fix": {"zh": body}, "symptoms": [body, {"en": body}], "steps": [{"zh": body, "code": code}],
            "tags": ["odd", "evil"], "cause": {"en": body}, "environment": {"gpu": body}}


@pytest.mark.site
# three records a build, two builds: Hypothesis's first example is its simplest, the second three drawn at random
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(LINE, FIELD_TEXT.filter(lambda s: len(s) <= 2000), FIELD_TEXT), min_size=3, max_size=3))
def test_full_build_never_crashes_or_lets_input_markup_through(tmp_path_factory, records):
    content = tmp_path_factory.mktemp("fuzz") / "content"
    shutil.copytree(HOSTILE, content)
    for number, (title, body, code) in enumerate(records):
        (content / "entries" / f"fuzzed-{number}.yml").write_text(yaml.safe_dump(
            _record_file(f"fuzzed-{number}", title, body, code), allow_unicode=True, sort_keys=False), encoding="utf-8")
    site_dir = content.parent / "site"
    build_site(site_dir, content=content)
    for path in site_dir.rglob("*.html"):
        assert injected(path.read_text(encoding="utf-8")) == [], path
    # the search index stays valid JSON whatever the text, and holds each title as plain text
    docs = [json.loads(path.read_text(encoding="utf-8")) for path in (site_dir / "en" / "search").glob("*/d/*.json")]
    titles = {doc["location"]: doc["title"] for doc in docs if doc["location"].startswith("fuzzed-")}
    assert titles == {f"fuzzed-{number}/": plain_text(title) for number, (title, _, _) in enumerate(records)}
