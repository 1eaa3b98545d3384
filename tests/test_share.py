"""What a reader passes on from an entry: "copy for chat" (the summary it copies, in Python and read back from
the browser's clipboard in both languages, keyboard and phone included) and the "didn't work / outdated" link
(a prefilled new-issue page of the repository's forge, whose fields exist in the issue form)."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml

from conftest import ROOT
from helpers.page_load import goto
from outside_requests import offline_page
from pitfalls.pages.render import SiteRenderer, ui_strings
from pitfalls.pages.share import FEEDBACK_FORM, chat_summary, feedback_url
from pitfalls.records.validate import load_knowledge_base

SITE_URL = "http://127.0.0.1:8000/"
"""The canonical root of the test site (conftest builds with the default --site-url)."""
EXPECTED = {
    "zh": ("显存不足 (CUDA out of memory)\n"
           "现象：RuntimeError: CUDA out of memory at torch/csrc/generic/StorageSharing.cpp\n"
           "解决：batch_size /= 2 → FP16 → gradient_checkpointing → 4-bit\n"
           f"{SITE_URL}zh/cuda-out-of-memory/"),
    "en": ("Out of GPU memory (CUDA out of memory)\n"
           "Symptom: RuntimeError: CUDA out of memory at torch/csrc/generic/StorageSharing.cpp\n"
           "Fix: batch_size /= 2 → FP16 → gradient_checkpointing → 4-bit\n"
           f"{SITE_URL}en/cuda-out-of-memory/"),
}
FORM = ROOT / ".github" / "ISSUE_TEMPLATE" / FEEDBACK_FORM


@pytest.fixture(scope="module")
def base():
    return load_knowledge_base(ROOT / "content")


def record(base, record_id: str):
    return next(r for r in base.records if r.id == record_id)


# --- the summary ---


def test_the_summary_is_title_symptom_fix_and_url_in_the_pages_language(base):
    for lang, expected in EXPECTED.items():
        summaries = SiteRenderer(base, lang).chat_summaries(record(base, "cuda-out-of-memory"))
        assert summaries[""].text == expected
        assert summaries["symptoms"].text == expected + "#symptoms"
        assert set(summaries) == {"", "symptoms", *(f"step-{n}" for n in range(1, 7))}
    step = SiteRenderer(base, "en").chat_summaries(record(base, "cuda-out-of-memory"))["step-2"]
    assert step.text.splitlines()[3:] == [
        "Step 2: Enable FP16 / BF16 mixed precision (AMP), which cuts GPU memory use in half outright:",
        "model = model.half()", f"{SITE_URL}en/cuda-out-of-memory/#step-2"]


def test_the_html_summary_is_a_bold_title_link_with_everything_escaped():
    ui = ui_strings()["en"]
    summary = chat_summary(ui, "https://wiki.corp/en/x/#step-1", "<script>alert(1)</script> & co", "Error: <b>",
                           True, "run `a && b`", step=(1, 'say "hi" <img src=x>', "rm -rf <dir>"))
    assert summary.html.startswith('<p><a href="https://wiki.corp/en/x/#step-1"><strong>&lt;script&gt;alert(1)'
                                   "&lt;/script&gt; &amp; co</strong></a><br>\n")
    assert "Symptom: <code>Error: &lt;b&gt;</code><br>" in summary.html
    assert "Step 1: say &#34;hi&#34; &lt;img src=x&gt;<br>\n<code>rm -rf &lt;dir&gt;</code>" in summary.html
    assert "<script>" not in summary.html and "<img" not in summary.html and "<b>" not in summary.html
    assert summary.text.splitlines()[0] == "<script>alert(1)</script> & co"  # plain text stays as written


def test_a_long_or_multi_line_command_stays_out_of_the_summary():
    ui = ui_strings()["zh"]
    for command in ("make\nmake install", "x" * 121):
        summary = chat_summary(ui, "u", "t", "s", False, "f", step=(2, "第二步", command))
        assert summary.text.splitlines()[-2] == "第 2 步：第二步" and "<code>" not in summary.html


def test_the_buttons_are_in_the_page_hidden_until_the_script_shows_them(site):
    page = (site / "zh" / "cuda-out-of-memory" / "index.html").read_text(encoding="utf-8")
    buttons = re.findall(r"<button [^>]*data-pf-share=[^>]*>", page)
    assert len(buttons) == 2 + 6  # the entry, its symptoms, each step
    assert all(" hidden" in b and 'type="button"' in b and 'aria-label="复制到聊天' in b for b in buttons)
    first = re.search(r'data-pf-text="([^"]*)"', buttons[0]).group(1)
    assert unescape(first) == EXPECTED["zh"]
    assert '<script src="../assets/share.js"></script>' in page
    assert 'id="pf-share-status" role="status"' in page


# --- in the browser ---


def entry_page(visit, site_url: str, lang: str):
    page = visit.page
    goto(page, f"{site_url}{lang}/cuda-out-of-memory/")
    return page


def clipboard(page) -> dict[str, str]:
    """Every type the clipboard holds → its text."""
    return page.evaluate("""async () => {
      const out = {};
      for (const item of await navigator.clipboard.read())
        for (const type of item.types) out[type] = await (await item.getType(type)).text();
      return out;
    }""")


def copy_with(page, button) -> None:
    """Click `button` and wait until the page says how the copy went (after the clipboard was written)."""
    page.evaluate("document.getElementById('pf-share-status').textContent = ''")
    button.click()
    page.wait_for_function("document.getElementById('pf-share-status').textContent !== ''")


def shared(browser, site_url: str, lang: str, width: int = 1280, before: str = "", press: str = ""):
    """Click (or, with `press`, focus and press that key on) the entry's first "copy for chat" button; return the
    clipboard's types, the status line's text and the visit."""
    with offline_page(browser, site_url, viewport={"width": width, "height": 800},
                      permissions=["clipboard-read", "clipboard-write"]) as visit:
        page = entry_page(visit, site_url, lang)
        if before:
            page.evaluate(before)
        button = page.locator("button[data-pf-share='']")
        assert button.is_visible()
        box = button.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        if press:
            button.focus()
            page.keyboard.press(press)
        else:
            button.click()
        status = page.locator("#pf-share-status")
        status.wait_for(state="visible")
        page.wait_for_function("document.getElementById('pf-share-status').textContent !== ''")
        copied = clipboard(page)
        assert visit.outside == [] and visit.errors == []
        return copied, status.inner_text()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_copy_for_chat_puts_plain_text_and_html_on_the_clipboard(browser, site_url, lang):
    copied, status = shared(browser, site_url, lang)
    assert copied["text/plain"] == EXPECTED[lang]
    title = EXPECTED[lang].split("\n")[0]
    assert f'<a href="{SITE_URL}{lang}/cuda-out-of-memory/"><strong>{title}</strong></a>' in copied["text/html"]
    assert status == ui_strings()[lang]["share_copied"]


def test_without_the_asynchronous_clipboard_the_copy_event_carries_both_types(browser, site_url):
    """On a plain-http intranet host there is no navigator.clipboard: the `copy` event route still sets both types."""
    copied, _ = shared(browser, site_url, "en", before="ClipboardItem = undefined")
    assert copied["text/plain"] == EXPECTED["en"] and "<strong>Out of GPU memory" in copied["text/html"]


def test_the_button_works_from_the_keyboard_on_a_phone(browser, site_url):
    copied, status = shared(browser, site_url, "zh", width=375, press="Enter")
    assert copied["text/plain"] == EXPECTED["zh"] and status == "已复制，可以粘贴到聊天里了"


def test_a_step_button_copies_the_step_and_its_anchor(browser, site_url):
    with offline_page(browser, site_url, permissions=["clipboard-read", "clipboard-write"]) as visit:
        page = entry_page(visit, site_url, "en")
        copy_with(page, page.locator("#step-2 button.pf-share"))
        text = clipboard(page)["text/plain"]
        assert text.endswith("model = model.half()\nhttp://127.0.0.1:8000/en/cuda-out-of-memory/#step-2")
        copy_with(page, page.locator("button[data-pf-share='symptoms']"))
        assert clipboard(page)["text/plain"] == EXPECTED["en"] + "#symptoms"


def test_without_javascript_no_button_shows(browser, site_url):
    with offline_page(browser, site_url, java_script_enabled=False) as visit:
        page = visit.page
        goto(page, f"{site_url}en/cuda-out-of-memory/", search=False)  # no script runs, so no search either
        assert page.locator("button[data-pf-share]").count() == 8
        assert [b.is_visible() for b in page.locator("button[data-pf-share]").all()] == [False] * 8


def test_when_the_clipboard_refuses_the_text_is_shown_to_copy_by_hand(browser, site_url):
    with offline_page(browser, site_url) as visit:  # no clipboard permission; the copy command fails too
        page = entry_page(visit, site_url, "zh")
        page.evaluate("ClipboardItem = undefined; document.execCommand = () => false")
        page.locator("button[data-pf-share='']").click()
        box = page.locator("textarea.pf-share-manual")
        box.wait_for(state="visible")
        assert box.input_value() == EXPECTED["zh"]
        assert page.locator("#pf-share-status").inner_text() == ui_strings()["zh"]["share_failed"]


# --- "didn't work / outdated" ---


def form_ids() -> set[str]:
    form = yaml.safe_load(FORM.read_text(encoding="utf-8"))
    return {item["id"] for item in form["body"] if "id" in item}


def test_the_feedback_link_opens_the_issue_form_with_the_entry_filled_in(base):
    entry = record(base, "loss-nan")
    for lang in ("zh", "en"):
        ui = ui_strings()[lang]
        url = feedback_url("https://github.com/team/wiki/", ui, entry.id, "Loss NaN", f"{SITE_URL}{lang}/loss-nan/",
                           "2024-05-01")
        parts = urlsplit(url)
        assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://github.com/team/wiki/issues/new"
        query = {key: values[0] for key, values in parse_qs(parts.query).items()}
        assert query.pop("template") == FEEDBACK_FORM and query.pop("title") == ui["feedback_title"].format(title="Loss NaN")
        assert set(query) <= form_ids()  # every prefilled field is one of the form's
        assert query == {"entry": "loss-nan", "url": f"{SITE_URL}{lang}/loss-nan/", "last_verified": "2024-05-01",
                         "environment": ui["feedback_environment"]}
    assert "操作系统" in ui_strings()["zh"]["feedback_environment"]


@pytest.mark.parametrize("repo, path, title_key, body_key", [
    ("https://gitlab.corp.example/ml/wiki", "/ml/wiki/-/issues/new", "issue[title]", "issue[description]"),
    ("https://git.corp.example/ml/wiki", "/ml/wiki/issues/new", "title", "body"),  # Gitea, Forgejo
])
def test_other_forges_get_the_same_answers_as_the_issues_text(repo, path, title_key, body_key):
    ui = ui_strings()["en"]
    url = feedback_url(repo, ui, "loss-nan", "Loss NaN", "https://wiki/en/loss-nan/", None)
    query = {key: values[0] for key, values in parse_qs(urlsplit(url).query).items()}
    assert urlsplit(url).path == path and query[title_key] == "[entry feedback] Loss NaN"
    body = query[body_key]
    assert "`loss-nan`" in body and "https://wiki/en/loss-nan/" in body and "not verified yet" in body
    assert body.endswith(ui["feedback_environment"])


def test_the_feedback_link_is_shown_only_with_a_repository(base, site):
    entry = record(base, "loss-nan")
    assert "pf-feedback" not in SiteRenderer(base, "en").entry(entry).content
    assert feedback_url("", ui_strings()["en"], "x", "t", "u", None) == ""
    page = (site / "zh" / "loss-nan" / "index.html").read_text(encoding="utf-8")
    link = unescape(re.search(r'<p class="pf-feedback"><a href="([^"]+)" rel="nofollow">([^<]+)</a>', page).group(1))
    assert link.startswith("https://github.com/example/pitfall-guide/issues/new?template=entry-feedback.yml&")
    query = parse_qs(urlsplit(link).query)
    assert query["entry"] == ["loss-nan"] and query["url"] == [f"{SITE_URL}zh/loss-nan/"]
    assert query["title"][0].startswith("[条目反馈] ")


def test_the_feedback_form_asks_for_what_the_link_fills_in():
    form = yaml.safe_load(FORM.read_text(encoding="utf-8"))
    assert {"entry", "url", "last_verified", "environment"} <= form_ids()
    assert form["labels"] == ["entry-feedback"]
    assert Path(ROOT / ".github/ISSUE_TEMPLATE/config.yml").is_file()
