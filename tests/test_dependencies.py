"""What we use of MkDocs and Material beyond their public API (pitfalls/commands/dependencies.py): it is
there in the installed versions, and when it is not, `serve` and `build` say which version is needed
before doing any work."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from mkdocs.commands import build as mkdocs_build
from mkdocs.livereload import LiveReloadServer

from pitfalls.commands import dependencies, serve
from pitfalls.commands.build import build_site
from pitfalls.commands.cli import main
from pitfalls.commands.dependencies import (
    MATERIAL_NEEDED,
    MKDOCS_NEEDED,
    DependencyMismatch,
    check_material,
    check_mkdocs,
    material_search_messages,
    worker_search_messages,
)

ROOT = Path(__file__).resolve().parent.parent
TINY = Path(__file__).parent / "fixtures" / "tiny"


def test_the_installed_mkdocs_has_every_private_function_serve_calls():
    check_mkdocs()


def test_protocol_js_uses_the_search_message_numbers_of_the_installed_materials_bundle():
    material = material_search_messages()
    assert material == {"SETUP": 0, "READY": 1, "QUERY": 2, "RESULT": 3}
    assert worker_search_messages() == material
    check_material()


def test_the_versions_named_are_the_ones_requirements_txt_pins():
    pins = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    assert MKDOCS_NEEDED in pins and MATERIAL_NEEDED in pins


@pytest.mark.parametrize("change, named", [
    (lambda mp: mp.delattr(mkdocs_build, "_build_page"), r"mkdocs\.commands\.build\._build_page\(page, config, doc_files, nav, env\) is missing"),
    (lambda mp: mp.setattr(mkdocs_build, "_populate_page", lambda page, config, files, site: None),
     r"mkdocs\.commands\.build\._populate_page\(page, config, files\) is _populate_page\(page, config, files, site\)"),
    (lambda mp: mp.setattr(mkdocs_build, "_build_page", lambda page, config, nav, env, doc_files: None),
     r"_build_page\(page, config, doc_files, nav, env\) is _build_page\(page, config, nav, env, doc_files\)"),
    (lambda mp: mp.delattr(LiveReloadServer, "_inject_js_into_html"), r"LiveReloadServer\._inject_js_into_html\(self, content, epoch\) is missing"),
])
def test_a_private_function_gone_or_changed_is_named_with_the_mkdocs_that_has_it(monkeypatch, change, named):
    change(monkeypatch)
    with pytest.raises(DependencyMismatch, match=named) as err:
        check_mkdocs()
    assert str(err.value).endswith(f"install {MKDOCS_NEEDED}: make .venv/.installed, or pip install -r requirements.txt")


def _bundle(folder: Path, enum_body: str) -> Path:
    """A Material-like javascripts folder whose source map declares SearchMessageType as `enum_body`."""
    folder.mkdir()
    (folder / "bundle.0123abcd.min.js").write_text("", encoding="utf-8")
    source = f"/* Search message type */\nexport const enum SearchMessageType {{\n{enum_body}\n}}\n"
    (folder / "bundle.0123abcd.min.js.map").write_text(json.dumps({"sources": ["message.ts"], "sourcesContent": ["x", source]}),
                                                       encoding="utf-8")
    return folder


def test_enum_numbers_count_on_from_the_member_before_as_typescript_does(tmp_path):
    body = "  SETUP = 4,  /* Search index setup */\n  READY, // ready\n  PROGRESS = 9,\n  QUERY,\n  RESULT"
    assert material_search_messages(_bundle(tmp_path / "js", body)) == {"SETUP": 4, "READY": 5, "QUERY": 10, "RESULT": 11}


def test_material_numbering_its_messages_otherwise_stops_build_and_serve_before_any_work(tmp_path, monkeypatch, capsys):
    other = _bundle(tmp_path / "js", "SETUP, PROGRESS, READY, QUERY, RESULT")
    monkeypatch.setattr(dependencies, "_installed_material_messages", lambda: material_search_messages(other))
    with pytest.raises(DependencyMismatch, match=re.escape("numbers its search worker messages SETUP 0, READY 2, QUERY 3, "
                                                           "RESULT 4, static/assets/search/protocol.js SETUP 0, READY 1, QUERY 2, RESULT 3")):
        check_material()
    monkeypatch.setattr("pitfalls.commands.build.load_knowledge_base", lambda *a: pytest.fail("built before checking"))
    with pytest.raises(DependencyMismatch):
        build_site(tmp_path / "site", content=TINY)
    monkeypatch.setattr(serve.Server, "listen", lambda self: pytest.fail("took the port before checking"))
    assert main(["serve", "--port", "0", "--content", str(TINY)]) == 2
    assert capsys.readouterr().err.startswith("serve: mkdocs-material 9.8.2 numbers its search worker messages SETUP 0, READY 2")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["js"]


def test_a_material_without_the_declaration_names_the_version_needed(tmp_path, monkeypatch):
    (tmp_path / "js").mkdir()
    monkeypatch.setattr(dependencies, "_installed_material_messages", lambda: material_search_messages(tmp_path / "js"))
    with pytest.raises(DependencyMismatch, match=f"found 0; our search worker needs {MATERIAL_NEEDED}"):
        check_material()


def test_serve_checks_mkdocs_before_taking_the_port_or_building(monkeypatch, capsys):
    monkeypatch.delattr(mkdocs_build, "_populate_page")
    monkeypatch.setattr(serve.Server, "listen", lambda self: pytest.fail("took the port before checking"))
    monkeypatch.setattr(serve, "LanguageWorkers", lambda *a: pytest.fail("built before checking"))
    assert main(["serve", "--port", "0", "--content", str(TINY)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("serve: MkDocs 1.6.1 does not have what `pitfalls serve` uses "
                                                   "(mkdocs.commands.build._populate_page(page, config, files) is missing)")


def test_the_pages_sitemap_is_the_installed_mkdocs_sitemap_template():
    """overrides/sitemap-pages.xml is MkDocs' sitemap.xml template under another name (overrides/sitemap.xml, an
    index, took the name): a new MkDocs with another template shows here."""
    import mkdocs

    ours = (ROOT / "overrides" / "sitemap-pages.xml").read_text(encoding="utf-8")
    ours = re.sub(r"\{#-.*?#\}\n", "", ours, flags=re.S)
    assert ours == (Path(mkdocs.__file__).parent / "templates" / "sitemap.xml").read_text(encoding="utf-8")
