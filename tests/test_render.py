"""The renderer without MkDocs: pages of one language from the tiny fixture, and the markup subset."""

from __future__ import annotations

from dataclasses import replace

import jinja2
import pytest
from markupsafe import Markup

from conftest import FIXTURES
from helpers.bases import TINY, dates, knowledge_base
from pitfalls.pages import listings
from pitfalls.pages.render import (
    Heading,
    RenderedPage,
    SiteRenderer,
    attribute_value,
    block_markup,
    environment,
    inline_markup,
    plain_text,
    preview_description,
    shorten,
)
from pitfalls.records.model import Label, Text
from pitfalls.records.validate import load_knowledge_base


def test_renderer_makes_every_page_of_a_language():
    pages = SiteRenderer(load_knowledge_base(FIXTURES / "tiny"), "zh").pages()
    assert [p.src_uri for p in pages] == [
        "index.md", "tags/index.md", "translations.md", "categories/training.md", "categories/deployment.md",
        "tags/cuda.md", "tags/gpu-memory.md", "tags/docker.md", "recent.md",
        "docker-no-gpu.md", "gpu-oom.md", "cuda-oom-old/index.html"]
    entry = next(p for p in pages if p.src_uri == "gpu-oom.md")
    assert entry.title == "显存不足"
    assert entry.description == "显存不足：RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB —— 解决：减小 batch_size"
    assert '<h2 id="symptoms">现象表现<a class="headerlink" href="#symptoms" title="本节的链接">&para;</a></h2>' in entry.content
    # the table of contents MkDocs shows: the headings the page has, in order
    assert [(h.anchor, str(h.title)) for h in entry.toc] == [
        ("symptoms", "现象表现"), ("steps", "排查步骤"), ("cause", "原因"), ("environment", "适用环境"),
        ("verification", "验证修复"), ("references", "参考资料"), ("related", "相关条目")]
    assert '<pre class="pf-symptom pf-symptom--error" id="symptom-1"><code>RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB</code></pre>' in entry.content


def test_inline_markup_is_the_documented_subset_and_nothing_else():
    assert inline_markup("run `rm -rf <dir>` *now*, **really**") == \
        "run <code>rm -rf &lt;dir&gt;</code> <em>now</em>, <strong>really</strong>"
    assert inline_markup("[docs](https://example.com/a?b=1&c=2)") == \
        '<a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener">docs</a>'
    assert inline_markup("[x](javascript:alert(1))") == "[x](javascript:alert(1))"
    assert inline_markup("<script>alert(1)</script> {{ 7*7 }}") == "&lt;script&gt;alert(1)&lt;/script&gt; {{ 7*7 }}"
    assert inline_markup("a * b * c and 2*3") == "a * b * c and 2*3"


def test_block_markup_keeps_code_blocks_verbatim():
    text = "Run:\n\n```bash\necho '<b>' && ls *\n```\nthen check."
    assert block_markup(text) == "<p>Run:</p>\n<pre><code>echo &#39;&lt;b&gt;&#39; &amp;&amp; ls *</code></pre>\n<p>then check.</p>"


def test_plain_text():
    assert plain_text("Lower `batch_size` [see](https://x.org)") == "Lower batch_size see"


def test_a_heading_from_content_is_text_in_the_page_and_in_its_table_of_contents():
    base = knowledge_base(3)
    base = replace(base, categories=(Label("training", "训练 <b>&</b> *调参*", "Training"),))
    home = SiteRenderer(base, "zh", dates=dates(base)).home()
    assert ('<h2 id="training">训练 &lt;b&gt;&amp;&lt;/b&gt; *调参*<a class="headerlink" href="#training" '
            'title="本节的链接">&para;</a></h2>') in home.content
    assert home.toc == (Heading("training", "训练 &lt;b&gt;&amp;&lt;/b&gt; *调参*"),)


# --- what `serve` relies on: equal inputs, equal pages ---


def test_pages_with_equal_inputs_are_equal_pages():
    """`serve` renders again only the pages whose inputs changed: after each kind of edit, every page whose
    inputs stayed equal must render as before (101 entries: the listings have a second page)."""
    base = knowledge_base(101)
    # entry-007 names entry-050 as related: entry-050's page lists it among the entries that link there
    base = replace(base, records=tuple(replace(r, related=("entry-050",)) if r.id == "entry-007" else r for r in base.records))
    before = dates(base)
    old = SiteRenderer(base, "en", dates=before)
    old_plan = old.plan()
    old_pages = {key: plan.render() for key, plan in old_plan.items()}
    more = knowledge_base(102)  # one entry more, on page 2 of its listings: page 1 keeps its entries, not its count
    retitled = replace(base, records=tuple(replace(r, title=replace(r.title, en="Renamed")) if r.id == "entry-007" else r
                                         for r in base.records))
    redated = dict(before)  # a later time the same day: the same place in "recent", another date shown
    redated["entry-003"] = replace(before["entry-003"], updated=before["entry-003"].updated.replace("T00", "T01"))
    for new_base, new_dates in [(more, {**before, "entry-101": before["entry-000"]}), (retitled, before), (base, redated)]:
        new = SiteRenderer(new_base, "en", dates=new_dates, previous=old.index).plan()
        same = [key for key in old_plan.keys() & new.keys() if new[key].inputs is not None and old_plan[key].inputs == new[key].inputs]
        assert len(same) > 50 and len(same) < len(new)
        for key in same:
            assert new[key].render() == old_pages[key], key
        if new_base is retitled:  # … and only the pages that show the entry are rendered again
            index = old.index
            showing = {f"entry:{r.id}" for r in base.records if r.id == "entry-007" or "entry-007" in [s.id for s in index.similar(r)]}
            assert [r.id for r in index.linking(base.record("entry-050"))] == ["entry-007"]
            showing.add("entry:entry-050")
            showing |= {page.src_uri for group in (*index.categories, *index.tags) for page in group.pages
                        if "entry-007" in [r.id for r in page.records]}
            showing |= {page.src_uri for page in index.recent if "entry-007" in [r.id for r in page.records]}
            assert set(new) - set(same) == showing | {"home", "tags", "translations"}  # the small pages are always rendered


def test_more_of_the_markup_subset():
    assert inline_markup("``a`b`` and `c`") == "<code>a`b</code> and <code>c</code>"  # a longer fence holds a backtick
    assert inline_markup("[*em* text](http://x.org/p?q=1*2)") == \
        '<a href="http://x.org/p?q=1*2" rel="nofollow noopener"><em>em</em> text</a>'  # emphasis in the text, not the URL
    assert inline_markup("`[not](https://x.org)`") == "<code>[not](https://x.org)</code>"
    assert inline_markup("*a* and *b*, **c** **d**") == "<em>a</em> and <em>b</em>, <strong>c</strong> <strong>d</strong>"
    assert inline_markup("2*3*4 and snake_case *x*y") == "2*3*4 and snake_case *x*y"  # inside words: not emphasis
    assert block_markup("a\nb\n\n\n  \nc") == "<p>a<br>\nb</p>\n<p>c</p>"  # one newline breaks the line, blank lines the paragraph
    assert block_markup("```py\nx = 1 < 2\n```") == "<pre><code>x = 1 &lt; 2</code></pre>"
    assert block_markup("one\n```\nA\n```\ntwo\n```\nB\n```") == \
        "<p>one</p>\n<pre><code>A</code></pre>\n<p>two</p>\n<pre><code>B</code></pre>"
    assert block_markup("  \n\n  ") == ""
    assert plain_text("```sh\nls  -la\n```\n see [the docs](https://x.org)  `a`") == "ls -la see the docs a"


@pytest.mark.parametrize("text, limit, expected", [
    ("abc", 3, "abc"),                         # at the limit: whole
    ("abcd", 3, "ab…"),                        # one over: cut, with the ellipsis inside the limit
    ("aaaa bbbb cccc", 12, "aaaa bbbb…"),      # a space in the last 40%: cut there, the word stays whole
    ("aaaaaaa bbbbbbbbbbb", 10, "aaaaaaa…"),
    ("a bbbbbbbbbbbbbbbbb", 12, "a bbbbbbbbb…"),  # the only space too early: cut inside the word
    ("aaaa    bbbbbbbb", 10, "aaaa…"),          # no blanks before the ellipsis
    ("aaaaaa bbbbbbbbb", 11, "aaaaaa bbb…"),    # a space at 60% of the room exactly is too early …
    ("aaaaaaa bbbbbbbbb", 11, "aaaaaaa…"),      # … one further is not
])
def test_shorten(text, limit, expected):
    assert shorten(text, limit) == expected


def test_a_preview_keeps_a_few_words_of_the_problem_however_long_the_fix():
    fix = "step " * 60
    text = preview_description("{title}: {problem} — Fix: {fix}", "Title", "an error message that is long enough", fix)
    # the problem in 30 characters at most (not less), the rest cut at the end
    assert text.startswith("Title: an error message that is… — Fix: step step") and text.endswith("step…") and len(text) == 195  # cut between words


def test_the_pages_that_are_not_entries():
    base = load_knowledge_base(FIXTURES / "tiny")
    renderer = SiteRenderer(base, "en", edit_url="https://example.org/edit/")
    home = renderer.home()
    assert (home.src_uri, home.title, home.description) == ("index.md", "Pitfall Guide",
                                                            "Environment → Error → Diagnosis → Fix · 2 field-tested lessons")
    entry = renderer.entry(base.record("gpu-oom"))
    assert (entry.src_uri, entry.title, entry.meta) == ("gpu-oom.md", "Out of GPU memory", {"og_type": "article"})
    assert entry.description == "Out of GPU memory: RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB — Fix: Lower batch_size"
    assert renderer.alias(base.record("gpu-oom"), "cuda-oom-old") == RenderedPage("cuda-oom-old/index.html", """\
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Out of GPU memory</title>
<link rel="canonical" href="../gpu-oom/">
<meta name="robots" content="noindex">
<meta http-equiv="refresh" content="0; url=../gpu-oom/">
</head>
<body>
<p>This entry has moved to <a href="../gpu-oom/">Out of GPU memory</a></p>
</body>
</html>
""", "Out of GPU memory")
    assert renderer.all_tags() == RenderedPage("tags/index.md", """\
<h1 id="top">All tags</h1>

<ul class="pf-tag-index">
<li><a class="pf-tag" href="cuda/">#CUDA</a> <span class="pf-count">2</span></li>
<li><a class="pf-tag" href="docker/">#Docker</a> <span class="pf-count">1</span></li>
<li><a class="pf-tag" href="gpu-memory/">#GPU memory</a> <span class="pf-count">1</span></li>
</ul>
""", "All tags", "Browse every entry by 3 tags: #CUDA, #GPU memory, #Docker")  # the unused tag has no page
    assert 'class="pf-edit"' not in SiteRenderer(base, "en").translations().content  # no edit links without an edit URL
    translations = renderer.translations()
    assert (translations.src_uri, translations.title) == ("translations.md", "Translation status")
    assert '<tr id="coverage-en"><td>English</td><td>1/2 entries (50%)</td></tr>' in translations.content
    assert ('<li><a href="../docker-no-gpu/">容器内看不到 GPU</a> · <a class="pf-edit" '
            'href="https://example.org/edit/tests/fixtures/tiny/entries/docker-no-gpu.yml">Edit this record</a></li>') in translations.content


def test_listing_pages_describe_their_heading_count_and_first_eight_titles():
    """A listing's link preview: its heading, how many entries it has in all, and the titles of its first 8."""
    base = knowledge_base(10)
    base = replace(base, records=tuple(replace(r, title=Text(f"标题{i}", f"Title {i}")) for i, r in enumerate(base.records)))
    described = {p.src_uri: p.description for p in SiteRenderer(base, "en", dates=dates(base)).pages()}
    assert described["categories/training.md"] == \
        "Category: Training · 10 entries: Title 0, Title 1, Title 2, Title 3, Title 4, Title 5, Title 6, Title 7"
    # tag-05 is on the entries whose tags reach it: 8 of the 10, not entry-000 (1 tag) nor entry-009 (4; knowledge_base)
    assert described["tags/tag-05.md"] == \
        "Tag: #Tag 5 · 8 entries: Title 1, Title 2, Title 3, Title 4, Title 5, Title 6, Title 7, Title 8"
    assert described["recent.md"] == \
        "Recently updated · 10 entries: Title 8, Title 7, Title 6, Title 5, Title 4, Title 3, Title 2, Title 1"
    # the 12 most used of the 29 tags in use, most used first
    assert described["tags/index.md"] == ("Browse every entry by 29 tags: #Tag 0, #Tag 1, #Tag 2, #Tag 3, #Tag 4, #Tag 5, "
                                          "#Tag 6, #Tag 7, #Tag 8, #Tag 9, #Tag 10, #Tag 11")


def test_the_translation_page_describes_the_coverage_of_each_language():
    assert SiteRenderer(TINY, "zh").translations().description == \
        "条目的翻译进度：中文 2/2 条（100%）、英文 1/2 条（50%）。缺少的语言显示另一种语言的原文。"
    assert SiteRenderer(TINY, "en").translations().description == ("Translation status of the entries: Chinese 2/2 entries "
                                                                   "(100%), English 1/2 entries (50%). A missing language "
                                                                   "shows the other language's original text.")


def test_an_entry_links_to_its_feedback_form_only_with_a_repository():
    record = TINY.record("gpu-oom")
    page = SiteRenderer(TINY, "en", repo_url="https://github.com/team/pitfalls", site_url="https://pf.example.org/en/").entry(record)
    assert ('<a href="https://github.com/team/pitfalls/issues/new?template=entry-feedback.yml&amp;title=%5Bentry%20feedback'
            '%5D%20Out%20of%20GPU%20memory&amp;entry=gpu-oom&amp;url=https%3A%2F%2Fpf.example.org%2Fen%2Fgpu-oom%2F&amp;'
            'last_verified=2026-11-01&amp;environment=OS%3A%0AGPU%20%2F%20driver%3A%0ACUDA%3A%0APython%3A%0AFrameworks%20and'
            '%20versions%3A%0A" rel="nofollow">') in page.content
    assert "issues/new" not in SiteRenderer(TINY, "en").entry(record).content


def test_copy_for_chat_buttons_carry_their_summary_on_one_line_of_the_page():
    page = SiteRenderer(TINY, "en", site_url="https://pf.example.org/en/").entry(TINY.record("gpu-oom"))
    assert ('data-pf-text="Out of GPU memory&#10;Symptom: RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB&#10;'
            'Fix: Lower batch_size&#10;https://pf.example.org/en/gpu-oom/"') in page.content
    assert ('data-pf-html="&lt;p&gt;&lt;a href=&#34;https://pf.example.org/en/gpu-oom/&#34;&gt;&lt;strong&gt;Out of GPU '
            'memory&lt;/strong&gt;&lt;/a&gt;&lt;br&gt;&#10;Symptom: ') in page.content
    # markup is escaped too (an attribute is no place for it); Windows line ends become one break
    assert attribute_value(Markup('<b a="1">x</b>\r\ny')) == "&lt;b a=&#34;1&#34;&gt;x&lt;/b&gt;&#10;y"


def test_copy_for_chat_cuts_a_long_quick_fix_at_300_characters():
    record = replace(TINY.record("gpu-oom"), quick_fix=Text("修" * 400, "x" * 400))
    text = SiteRenderer(TINY, "en").chat_summaries(record)[""].text
    assert f"\nFix: {'x' * 299}…\n" in text


def test_the_table_of_contents_adds_nothing_to_the_page():
    """The heading macro lists each heading in the table of contents as it writes it: the listing prints nothing."""
    content = SiteRenderer(TINY, "en").entry(TINY.record("gpu-oom")).content
    headings = [line for line in content.splitlines() if "<h2 " in line]
    assert len(headings) == 7 and all(line.startswith('<h2 id="') for line in headings)


def test_a_template_that_names_something_undefined_fails_instead_of_printing_nothing():
    with pytest.raises(jinja2.UndefinedError):
        environment().from_string("{{ ui.no_such_string }}").render(ui={})


def test_a_renderer_reuses_the_features_of_unchanged_entries(monkeypatch):
    base = knowledge_base(12)
    old = SiteRenderer(base, "en", dates=dates(base))
    old.plan()  # computes every entry's similar entries
    edited = replace(base, records=tuple(replace(r, title=replace(r.title, en="Renamed")) if r.id == "entry-003" else r
                                         for r in base.records))
    compared = []
    original = listings.comparable_words
    monkeypatch.setattr(listings, "comparable_words", lambda text, cutter: compared.append(text) or original(text, cutter))
    SiteRenderer(edited, "en", dates=dates(edited), previous=old.index).plan()
    assert "Renamed" in compared and len(compared) == 2 * 3  # the one changed entry: title and 2 symptoms, in zh and en
