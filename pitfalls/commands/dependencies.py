"""What pitfalls uses of MkDocs and Material beyond their public API: one adapter, checked at start-up.

- `pitfalls serve` updates a built language site page by page with two functions MkDocs keeps
  private, the page steps of `mkdocs.commands.build.build` (`_populate_page`, `_build_page`), and
  answers with its error page through two private members of MkDocs' live-reload server
  (`_inject_js_into_html`, `_visible_epoch`). serve_worker.py and serve.py call them only through
  the functions below.
- Our search worker (static/assets/search/protocol.js, inside each site's search/worker.js) speaks Material's worker protocol, whose
  message numbers are an internal enum of Material's JavaScript (`SearchMessageType`, inlined
  into its bundle as bare numbers).

A version pin says which versions were tested, not what an installed one has. So `check_mkdocs`
(when `serve` starts) and `check_material` (when `build` and `serve` start) look: every private
function with the parameters we pass, and Material's message numbers, read from the declaration
in its bundle's source map, equal to the ones protocol.js uses. A mismatch is a PitfallsError that
names what is missing and the version that has it, before any work is done.
"""

from __future__ import annotations

import inspect
import json
import re
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from ..errors import PitfallsError
from ..settings import ROOT

MKDOCS_NEEDED = "mkdocs==1.6.1"
"""The MkDocs that has the private functions below (requirements.txt pins it; a test keeps the two equal)."""
MATERIAL_NEEDED = "mkdocs-material==9.8.2"
"""The Material whose search worker protocol protocol.js speaks (requirements.txt pins it)."""
WORKER_JS = ROOT / "static" / "assets" / "search" / "protocol.js"
SEARCH_MESSAGES = ("SETUP", "READY", "QUERY", "RESULT")
"""Material's SearchMessageType members that protocol.js uses, by the names both give them."""

_PRIVATE_FUNCTIONS = (
    # (module or class, name, the parameters we pass, in order)
    ("mkdocs.commands.build", "_populate_page", ("page", "config", "files")),
    ("mkdocs.commands.build", "_build_page", ("page", "config", "doc_files", "nav", "env")),
    ("mkdocs.livereload:LiveReloadServer", "_inject_js_into_html", ("self", "content", "epoch")),
)
_PRIVATE_ATTRIBUTES = (
    # (class, attribute its __init__ sets)
    ("mkdocs.livereload:LiveReloadServer", "_visible_epoch"),
)


class DependencyMismatch(PitfallsError):
    """An installed MkDocs or Material lacks what pitfalls calls; the message names the version that has it."""


# --- the calls ---


def populate_page(page, config, files) -> None:
    """Read a page's Markdown and render it to HTML (MkDocs' `_populate_page`)."""
    from mkdocs.commands import build

    build._populate_page(page, config, files)


def build_page(page, config, doc_files, nav, env) -> None:
    """Render a populated page with the theme and write it to the site (MkDocs' `_build_page`)."""
    from mkdocs.commands import build

    build._build_page(page, config, doc_files, nav, env)


def with_live_reload(server, html: bytes) -> bytes:
    """`html` with the live-reload script of `server` (a LiveReloadServer) for the site version it shows."""
    return server._inject_js_into_html(html, server._visible_epoch)


# --- the checks ---


def check_mkdocs() -> None:
    """DependencyMismatch unless the installed MkDocs has every private function and attribute above."""
    problems = []
    for owner, name, parameters in _PRIVATE_FUNCTIONS:
        function = getattr(_resolve(owner), name, None)
        shown = f"{owner.replace(':', '.')}.{name}({', '.join(parameters)})"
        if not callable(function):
            problems.append(f"{shown} is missing")
            continue
        signature = inspect.signature(function)
        names = list(signature.parameters)
        rest = list(signature.parameters.values())[len(parameters):]
        if names[:len(parameters)] != list(parameters) or any(p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                                                              for p in rest):
            problems.append(f"{shown} is {name}{signature}")
    for owner, name in _PRIVATE_ATTRIBUTES:
        source = inspect.getsource(_resolve(owner).__init__)
        if f"self.{name} =" not in source:
            problems.append(f"{owner.replace(':', '.')} no longer sets {name}")
    if problems:
        raise DependencyMismatch(f"MkDocs {_installed('mkdocs')} does not have what `pitfalls serve` uses "
                                 f"({'; '.join(problems)}); install {MKDOCS_NEEDED}: make .venv/.installed, "
                                 "or pip install -r requirements.txt")


def check_material() -> None:
    """DependencyMismatch unless protocol.js uses the search message numbers of the installed Material."""
    try:
        material = _installed_material_messages()
    except ValueError as err:
        raise DependencyMismatch(f"mkdocs-material {_installed('mkdocs-material')}: {err}; our search worker needs "
                                 f"{MATERIAL_NEEDED}: make .venv/.installed, or pip install -r requirements.txt") from None
    ours = worker_search_messages()
    if ours != material:
        raise DependencyMismatch(f"mkdocs-material {_installed('mkdocs-material')} numbers its search worker messages "
                                 f"{_shown(material)}, {WORKER_JS.relative_to(ROOT)} {_shown(ours)}; install "
                                 f"{MATERIAL_NEEDED} (make .venv/.installed), or change protocol.js to match")


def material_search_messages(javascripts: Path | None = None) -> dict[str, int]:
    """SearchMessageType of the installed Material (or of the bundle in `javascripts`): member → number,
    from its declaration in the source map shipped beside the minified bundle. ValueError when it is not there."""
    if javascripts is None:
        import material

        javascripts = Path(material.__file__).parent / "templates" / "assets" / "javascripts"
    maps = sorted(javascripts.glob("bundle.*.min.js.map"))
    if len(maps) != 1:
        raise ValueError(f"expected one bundle.*.min.js.map in {javascripts}, found {len(maps)}")
    sources = json.loads(maps[0].read_text(encoding="utf-8")).get("sourcesContent") or []
    for source in sources:
        found = re.search(r"\benum\s+SearchMessageType\s*\{([^}]*)\}", source or "")
        if found:
            return _enum_values(found.group(1))
    raise ValueError(f"{maps[0].name} declares no SearchMessageType")


@cache
def _installed_material_messages() -> dict[str, int]:
    """material_search_messages() of the installed Material, read once per process (a megabyte of JSON)."""
    return material_search_messages()


def worker_search_messages(worker: Path = WORKER_JS) -> dict[str, int]:
    """The message numbers protocol.js declares (`const SETUP = 0, …`)."""
    return {name: int(number) for name, number in re.findall(rf"\b({'|'.join(SEARCH_MESSAGES)})\s*=\s*(\d+)",
                                                             worker.read_text(encoding="utf-8"))}


def _enum_values(body: str) -> dict[str, int]:
    """A TypeScript enum body → member → number (members without a value count on from the one before)."""
    body = re.sub(r"/\*.*?\*/|//[^\n]*", "", body, flags=re.DOTALL)
    values, following = {}, 0
    for member in filter(None, (part.strip() for part in body.split(","))):
        name, _, value = (part.strip() for part in member.partition("="))
        if value and not value.isdigit():
            raise ValueError(f"SearchMessageType.{name} = {value} is not a number")
        values[name] = following = int(value) if value else following
        following += 1
    return {name: number for name, number in values.items() if name in SEARCH_MESSAGES}


def _resolve(owner: str):
    import importlib

    module, _, attribute = owner.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attribute) if attribute else found


def _installed(distribution: str) -> str:
    try:
        return version(distribution)
    except PackageNotFoundError:
        return "(not installed)"


def _shown(messages: dict[str, int]) -> str:
    return ", ".join(f"{name} {number}" for name, number in sorted(messages.items(), key=lambda item: item[1])) or "nothing"
