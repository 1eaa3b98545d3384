"""What a reader passes on from an entry page, in the page's language.

- `chat_summary`: what a "copy for chat" button copies. A team wiki usually lives on an intranet, which the
  servers that draw chat link previews (Feishu/Lark, DingTalk, WeCom, Slack, Teams) cannot reach, so a bare
  link arrives without its summary. The button copies the summary itself: the title, the first symptom, the
  quick fix (and, for a step's button, the step) and the permanent URL with the section's anchor, as plain
  text that reads well in any chat and as HTML for the chats that paste rich text (the title a bold link).
- `feedback_url`: the forge's new-issue page, prefilled, for a reader whose fix did not work or who finds the
  entry out of date (the form is .github/ISSUE_TEMPLATE/entry-feedback.yml; GitLab and other forges get the
  same answers as the issue's text).

Both take text that is already plain (the renderer strips the record's markup); the HTML is escaped here.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urlencode, urlsplit

from markupsafe import Markup, escape

FEEDBACK_FORM = "entry-feedback.yml"
"""The issue form of .github/ISSUE_TEMPLATE/ that a GitHub feedback link opens; its field ids are the
query parameters `feedback_url` fills in (tests/test_share.py checks they exist)."""
COMMAND_LIMIT = 120
"""A step's command goes into its chat summary when it is one line of at most this many characters."""


@dataclass(frozen=True)
class ChatSummary:
    """What one "copy for chat" button copies."""

    text: str
    """text/plain: one item a line, the URL last (chats make it a link)."""
    html: Markup
    """text/html: the title as a bold link, then the same lines."""


def chat_summary(ui: dict[str, str], url: str, title: str, symptom: str, symptom_is_message: bool, fix: str,
                 step: tuple[int, str, str | None] | None = None) -> ChatSummary:
    """The summary of an entry (or, with `step` = (number, text, command), of one of its steps) at `url`."""
    lines = [(ui["share_symptom"], symptom, symptom_is_message), (ui["share_fix"], fix, False)]
    if step is not None:
        number, text, command = step
        lines.append((ui["share_step"].format(n=number, text="{text}"), text, False))
        if command and "\n" not in command.strip() and len(command.strip()) <= COMMAND_LIMIT:
            lines.append(("", command.strip(), True))
    text = "\n".join([title, *(label.format(text=value) if label else value for label, value, _ in lines), url])
    # plain strings and escape() rather than Markup.format: 34,000 summaries at 5,000 entries, and Markup's
    # formatter made them seconds of a build
    link = escape(url)
    rows = [f'<a href="{link}"><strong>{escape(title)}</strong></a>']
    for label, value, code in lines:
        shown = f"<code>{escape(value)}</code>" if code else str(escape(value))
        rows.append(str(escape(label)).replace("{text}", shown) if label else shown)
    rows.append(f'<a href="{link}">{link}</a>')
    return ChatSummary(text, Markup("<p>" + "<br>\n".join(rows) + "</p>"))


def feedback_url(repo_url: str, ui: dict[str, str], entry_id: str, title: str, url: str,
                 last_verified: str | None) -> str:
    """The new-issue page of the forge at `repo_url`, prefilled with the entry's id, URL and last-verified date
    and a short template for the reader's environment; "" when there is no repository."""
    if not repo_url:
        return ""
    repo = repo_url.rstrip("/")
    host = (urlsplit(repo).hostname or "").lower()
    verified = last_verified or ui["never_verified"]
    issue_title = ui["feedback_title"].format(title=title)
    if "github" in host:  # github.com and GitHub Enterprise: the issue form, its fields by id
        return f"{repo}/issues/new?" + urlencode({
            "template": FEEDBACK_FORM, "title": issue_title, "entry": entry_id, "url": url,
            "last_verified": verified, "environment": ui["feedback_environment"]}, quote_via=quote)
    body = ui["feedback_body"].format(id=entry_id, url=url, last_verified=verified,
                                      environment=ui["feedback_environment"])
    if "gitlab" in host:
        return f"{repo}/-/issues/new?" + urlencode({"issue[title]": issue_title, "issue[description]": body}, quote_via=quote)
    return f"{repo}/issues/new?" + urlencode({"title": issue_title, "body": body}, quote_via=quote)  # Gitea, Forgejo, Gogs
