"""The renderer without MkDocs: pages of one language from the tiny fixture, and the markup subset."""

from __future__ import annotations

from conftest import FIXTURES
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
