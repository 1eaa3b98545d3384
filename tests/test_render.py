"""The renderer without MkDocs: pages of one language from the tiny fixture, and the markup subset."""

from __future__ import annotations

from dataclasses import replace

from conftest import FIXTURES
from helpers.bases import dates, knowledge_base
from pitfalls.pages.render import SiteRenderer, block_markup, inline_markup, markdown_text, plain_text
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
    assert "## 现象表现 {#symptoms}" in entry.content
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


def test_plain_and_heading_text():
    assert plain_text("Lower `batch_size` [see](https://x.org)") == "Lower batch_size see"
    assert markdown_text("C++ *bold* <i>") == "C\\+\\+ \\*bold\\* &lt;i&gt;"


# --- what `serve` relies on: equal inputs, equal pages ---


def test_pages_with_equal_inputs_are_equal_pages():
    """`serve` renders again only the pages whose inputs changed: after each kind of edit, every page whose
    inputs stayed equal must render as before (150 entries: the listings have a second page)."""
    base = knowledge_base(150)
    before = dates(base)
    old = SiteRenderer(base, "en", dates=before)
    old_plan = old.plan()
    old_pages = {key: plan.render() for key, plan in old_plan.items()}
    more = knowledge_base(151)  # one entry more, on page 2 of its listings: page 1 keeps its entries, not its count
    retitled = replace(base, records=tuple(replace(r, title=replace(r.title, en="Renamed")) if r.id == "entry-007" else r
                                         for r in base.records))
    redated = dict(before)  # a later time the same day: the same place in "recent", another date shown
    redated["entry-003"] = replace(before["entry-003"], updated=before["entry-003"].updated.replace("T00", "T01"))
    for new_base, new_dates in [(more, {**before, "entry-150": before["entry-000"]}), (retitled, before), (base, redated)]:
        new = SiteRenderer(new_base, "en", dates=new_dates, previous=old.index).plan()
        same = [key for key in old_plan.keys() & new.keys() if new[key].inputs is not None and old_plan[key].inputs == new[key].inputs]
        assert len(same) > 100 and len(same) < len(new)
        for key in same:
            assert new[key].render() == old_pages[key], key
