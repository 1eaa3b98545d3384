"""The one error path (pitfalls/errors.py, commands/cli.py): every command, given each bad argument,
prints one line on stderr that names the path or value and says what to do, exits 2, writes nothing,
and refuses before doing work that the argument would throw away (building, serving)."""

from __future__ import annotations

import errno
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from pitfalls.commands import build as build_command
from pitfalls.commands import dist as dist_command
from pitfalls.commands import search as search_command
from pitfalls.commands import serve as serve_command
from pitfalls.commands.cli import main

ROOT = Path(__file__).resolve().parent.parent
TINY = Path(__file__).parent / "fixtures" / "tiny"
BAD = Path(__file__).parent / "fixtures" / "bad"
PROPOSAL = Path(__file__).parent / "fixtures" / "issues" / "complete.md"
CONTENT_TODO = "give the folder that holds entries/, categories.yml and tags.yml (default: content/)"


@pytest.fixture
def place(tmp_path):
    """The paths the bad arguments name, under tmp_path (plus an unwritable folder and a busy port)."""
    content = tmp_path / "content"
    shutil.copytree(TINY, content)
    not_utf8 = tmp_path / "not-utf8"
    shutil.copytree(TINY, not_utf8)
    shutil.copyfile(BAD / "not-utf8.yml", not_utf8 / "entries" / "not-utf8.yml")
    folder_record = tmp_path / "folder-record"
    shutil.copytree(TINY, folder_record)
    (folder_record / "entries" / "training").mkdir()
    (tmp_path / "file.txt").write_text("not a folder\n", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    (tmp_path / "not-a-site").mkdir()
    (tmp_path / "not-a-site" / "notes.txt").write_text("someone's files\n", encoding="utf-8")
    (tmp_path / "loop").symlink_to(tmp_path / "loop-back")  # two links that lead to each other
    (tmp_path / "loop-back").symlink_to(tmp_path / "loop")
    (tmp_path / "dangling").symlink_to(tmp_path / "gone")  # a link whose target was removed
    for site, manifest in (("old-site", '{"formatVersion": 14, "version": "x"}'), ("broken-site", "[1, 2"),
                           ("unnamed-site", '{"formatVersion": 16}')):
        (tmp_path / site / "zh" / "search").mkdir(parents=True)  # a site built by another version; a manifest cut short
        (tmp_path / site / "zh" / "search" / "manifest.json").write_text(manifest, encoding="utf-8")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        yield {"tmp": tmp_path, "content": content, "not_utf8": not_utf8, "folder_record": folder_record,
               "missing": tmp_path / "missing", "file": tmp_path / "file.txt", "empty": tmp_path / "empty",
               "not_a_site": tmp_path / "not-a-site", "loop": tmp_path / "loop", "dangling": tmp_path / "dangling",
               "old_site": tmp_path / "old-site", "broken_site": tmp_path / "broken-site", "unnamed_site": tmp_path / "unnamed-site",
               "unwritable": _unwritable_folder(tmp_path),
               "busy_port": busy.getsockname()[1]}


def _unwritable_folder(tmp_path: Path) -> Path:
    """A folder nothing can be created in: mode 0555, or, for root (who ignores modes), /sys."""
    if os.geteuid() != 0:
        folder = tmp_path / "read-only"
        folder.mkdir()
        folder.chmod(0o555)
        return folder
    try:
        os.rmdir(tempfile.mkdtemp(dir="/sys"))
    except OSError:
        return Path("/sys")
    pytest.skip("no unwritable folder here: running as root, and /sys is writable")


NOT_SITE_URL = ("argument --site-url: {!r} is not the address readers open the site at, such as https://wiki.example.com/ "
                "(http or https, a host, no ?query or #fragment; from --site-url, else PITFALLS_SITE_URL)")
NOT_UTF8 = "content/entries/not-utf8.yml:4:1: (file): not UTF-8 text (byte 0xc8 at offset 47); save the file as UTF-8"
FOLDER_RECORD = ("content/entries/training:1:1: (file): folders inside entries/ are not read; put record files directly "
                 "in entries/")
CANNOT_WRITE = r"cannot write in {unwritable} \((Permission denied|Operation not permitted|Read-only file system)\); choose a folder you can write to"

# (command line, the one line expected on stderr: a template of `place`'s paths, or re: a regular
# expression; what must not run because the argument is checked first)
CASES = {
    # build
    "build: unwritable --site-dir": (
        "build --content {content} --site-dir {unwritable}/site",
        "re:build: --site-dir {unwritable}/site: " + CANNOT_WRITE, "build._start_language_builds"),
    "build: --site-dir under a file": (
        "build --content {content} --site-dir {file}/site",
        "build: --site-dir {file}/site: {file} is a file, so no folder can be made under it; choose another path",
        "build._start_language_builds"),
    "build: --site-dir is a file": (
        "build --content {content} --site-dir {file}",
        "build: --site-dir {file}: is a file; give the folder to write", "build._start_language_builds"),
    "build: --site-dir holds the content": (
        "build --content {content} --site-dir {tmp}",
        "build: --site-dir {tmp}: holds {content}, and the build replaces the site folder whole; give a folder of its "
        "own, such as site/", "build._start_language_builds"),
    "build: --site-dir is someone's folder": (
        "build --content {content} --site-dir {not_a_site}",
        "build: --site-dir {not_a_site}: is not empty and holds no built site (no index.html), and the build replaces "
        "it whole; give a new or empty folder, or delete it first", "build._start_language_builds"),
    "build: --site-url without a scheme": (
        "build --content {content} --site-dir {tmp}/site --site-url wiki.example.com",
        "build: " + NOT_SITE_URL.format("wiki.example.com") + "; see `pitfalls build --help`", "build._start_language_builds"),
    "build: --site-url not http": (
        "build --content {content} --site-dir {tmp}/site --site-url ftp://wiki.example.com/",
        "build: " + NOT_SITE_URL.format("ftp://wiki.example.com/") + "; see `pitfalls build --help`", "build._start_language_builds"),
    "dist: --site-url with a query": (
        "dist --content {content} --output {tmp}/out.tar.gz --site-url https://wiki.example.com/?lang=zh",
        "dist: " + NOT_SITE_URL.format("https://wiki.example.com/?lang=zh") + "; see `pitfalls dist --help`",
        "dist.build_site"),
    "search: --site-url without a host": (
        "search x --site-url https:///kb/", "search: " + NOT_SITE_URL.format("https:///kb/") + "; see `pitfalls search --help`",
        None),
    "match: --site-url without a scheme": (
        "match --content {content} --site-url wiki.corp -",
        "match: " + NOT_SITE_URL.format("wiki.corp") + "; see `pitfalls match --help`", None),
    "linkcheck: --site-url not http": (
        "linkcheck {empty} --site-url file:///srv/site/",
        "linkcheck: " + NOT_SITE_URL.format("file:///srv/site/") + "; see `pitfalls linkcheck --help`", None),
    "build: no content folder": (
        "build --content {missing} --site-dir {tmp}/site", f"build: --content {{missing}}: no such folder; {CONTENT_TODO}",
        "build._start_language_builds"),
    "build: content is a file": (
        "build --content {file} --site-dir {tmp}/site", f"build: --content {{file}}: is a file, not a folder; {CONTENT_TODO}",
        "build._start_language_builds"),
    "build: non-UTF-8 record": (
        "build --content {not_utf8} --site-dir {tmp}/site", f"build: {NOT_UTF8}".replace("content/", "not-utf8/", 1),
        "build._build_languages"),
    "build: record that is a folder": (
        "build --content {folder_record} --site-dir {tmp}/site", f"build: {FOLDER_RECORD}".replace("content/", "folder-record/", 1),
        "build._build_languages"),
    # dist
    "dist: unwritable --output": (
        "dist --content {content} --output {unwritable}/site.tar.gz",
        "re:dist: --output {unwritable}/site.tar.gz: " + CANNOT_WRITE, "dist.build_site"),
    "dist: --output is a folder": (
        "dist --content {content} --output {empty}", "dist: --output {empty}: is a folder; give the file to write",
        "dist.build_site"),
    "dist: --output under a file": (
        "dist --content {content} --output {file}/site.tar.gz",
        "dist: --output {file}/site.tar.gz: {file} is a file, so no file can be made under it; choose another path",
        "dist.build_site"),
    "dist: no content folder": (
        "dist --content {missing} --output {tmp}/site.tar.gz", f"dist: --content {{missing}}: no such folder; {CONTENT_TODO}",
        "build._start_language_builds"),
    "dist: non-UTF-8 record": (
        "dist --content {not_utf8} --output {tmp}/site.tar.gz", f"dist: {NOT_UTF8}".replace("content/", "not-utf8/", 1),
        "build._build_languages"),
    # serve
    "serve: busy port": (
        "serve --content {content} --port {busy_port}",
        "serve: --port {busy_port}: 127.0.0.1:{busy_port} is already in use (another `pitfalls serve`?); stop that "
        "server, or give --port another number", "serve.LanguageWorkers"),
    "serve: port out of range": (
        "serve --content {content} --port 70000",
        "serve: argument --port: invalid port_number value: '70000'; see `pitfalls serve --help`", "serve.LanguageWorkers"),
    "serve: no content folder": (
        "serve --content {missing} --port 0", f"serve: --content {{missing}}: no such folder; {CONTENT_TODO}",
        "serve.Server.listen"),
    # linkcheck
    "linkcheck: missing folder": (
        "linkcheck {missing}",
        "linkcheck: SITE_DIR {missing}: no such folder; build the site first (pitfalls build), or name the folder it "
        "was built into", None),
    "linkcheck: empty folder": (
        "linkcheck {empty}",
        "linkcheck: SITE_DIR {empty}: holds no HTML page; build the site first (pitfalls build), or name the folder "
        "it was built into", None),
    "linkcheck: a file": (
        "linkcheck {file}",
        "linkcheck: SITE_DIR {file}: is a file, not a folder; build the site first (pitfalls build), or name the "
        "folder it was built into", None),
    # check (a record's errors are its report, exit 1: tests/test_cli.py)
    "check: no content folder": (
        "check --content {missing}", f"check: --content {{missing}}: no such folder; {CONTENT_TODO}", None),
    "check: missing FILES": (
        "check --content {content} {content}/entries/nope.yml",
        "check: FILES {content}/entries/nope.yml: no such file; name record or registry files", None),
    "check: FILES is a folder": (
        "check --content {content} {content}/entries",
        "check: FILES {content}/entries: is a folder; name record or registry files", None),
    "check: FILES is a device": (
        "check --content {content} /dev/null",
        "check: FILES /dev/null: is not a regular file; name record or registry files", None),
    "check: FILES outside the content": (
        "check --content {content} {file}",
        "check: FILES {file}: is not in the content folder {content}; check reads the records of --content: give it "
        "the folder this file is in", None),
    # new
    "new: no content folder": (
        "new --content {missing} --id x --category training --tags cuda",
        f"new: --content {{missing}}: no such folder; {CONTENT_TODO}", None),
    # from-issue (an issue that cannot become a record: tests/test_from_issue.py)
    "from-issue: --message in an unwritable folder": (
        f"from-issue {PROPOSAL} --content {{content}} --message {{unwritable}}/message.md",
        "re:from-issue: --message {unwritable}/message.md: " + CANNOT_WRITE, None),
    "from-issue: --message is a link loop": (
        f"from-issue {PROPOSAL} --content {{content}} --message {{loop}}",
        "from-issue: --message {loop}: Too many levels of symbolic links; a link on the path leads round in a loop; "
        "choose another path", None),
    "from-issue: --message is a folder": (
        f"from-issue {PROPOSAL} --content {{content}} --message {{empty}}",
        "from-issue: --message {empty}: is a folder; give the file to write", None),
    "from-issue: --issue 0": (
        f"from-issue {PROPOSAL} --content {{content}} --issue 0",
        "from-issue: argument --issue: invalid issue_number value: '0'; see `pitfalls from-issue --help`", None),
    # similar
    "similar: missing FILE": (
        "similar --content {content} {missing}.yml",
        "similar: FILE {missing}.yml: no such file; name a record file, such as a draft made with `new`", None),
    "similar: FILE is a folder": (
        "similar --content {content} {empty}",
        "similar: FILE {empty}: is a folder; name a record file, such as a draft made with `new`", None),
    "similar: FILE is a device": (
        "similar --content {content} /dev/null",
        "similar: FILE /dev/null: is not a regular file; name a record file, such as a draft made with `new`", None),
    "similar: FILE is no record": (
        "similar --content {content} {file}",
        "similar: {file}:1:1: (file): must be a mapping, not text", None),
    "similar: non-UTF-8 FILE": (
        "similar --content {content} {not_utf8}/entries/not-utf8.yml",
        f"similar: {{not_utf8}}/entries/not-utf8.yml{NOT_UTF8.split('.yml', 1)[1]}", None),
    "similar: no content folder": (
        "similar --content {missing} {content}/entries/gpu-oom.yml",
        f"similar: --content {{missing}}: no such folder; {CONTENT_TODO}", None),
    # search
    "search: missing --site-dir": (
        "search x --site-dir {missing}",
        "search: --site-dir {missing}: no such folder; build the site first (pitfalls build), or leave --site-dir out", None),
    "search: --site-dir built by another version": (
        "search x --site-dir {old_site}", "search: --site-dir {old_site}: its search index is format 14, and this pitfalls "
        "reads format 16: build the site again (pitfalls build)", None),
    "search: --site-dir whose manifest is cut short": (
        "search x --site-dir {broken_site} --entry a", "search: --site-dir {broken_site}: its search index has an unreadable "
        "manifest, and this pitfalls reads format 16: build the site again (pitfalls build)", None),
    "search: --site-dir whose manifest names no files' folder": (
        "search x --site-dir {unnamed_site} --entry a", "search: --site-dir {unnamed_site}: its search index has an "
        "unreadable manifest, and this pitfalls reads format 16: build the site again (pitfalls build)", None),
    "search: no content folder": (
        "search x --content {missing}", f"search: --content {{missing}}: no such folder; {CONTENT_TODO}", None),
    "search: non-UTF-8 record": (
        "search x --content {not_utf8}", f"search: {NOT_UTF8}".replace("content/", "not-utf8/", 1), None),
    "search: record that is a folder": (
        "search x --content {folder_record}", f"search: {FOLDER_RECORD}".replace("content/", "folder-record/", 1), None),
    "search: unknown language": (
        "search x --lang fr",
        "search: argument --lang: invalid choice: 'fr' (choose from 'zh', 'en'); see `pitfalls search --help`", None),
    "search: a query that starts with -": (
        "search --shm-size", "search: --shm-size is no option of search: a value that starts with - goes after --, as in "
        "`pitfalls search -- --shm-size`; see `pitfalls search --help`", None),
    # match
    "match: missing FILE": (
        "match --content {content} {missing}.log", "match: FILE {missing}.log: No such file or directory; check the path", None),
    "match: FILE is a folder": (
        "match --content {content} {empty}", "match: FILE {empty}: Is a directory; give a file", None),
    "match: no content folder": (
        "match --content {missing} -", f"match: --content {{missing}}: no such folder; {CONTENT_TODO}", None),
    "match: non-UTF-8 record": (
        "match --content {not_utf8} -", f"match: {NOT_UTF8}".replace("content/", "not-utf8/", 1), None),
    "match: record that is a folder": (
        "match --content {folder_record} -", f"match: {FOLDER_RECORD}".replace("content/", "folder-record/", 1), None),
    # links that lead nowhere: a loop (Python 3.11 and 3.12 report it from Path.resolve as a RuntimeError), a removed target
    "match: FILE is a link loop": (
        "match --content {content} {loop}", "match: FILE {loop}: Too many levels of symbolic links; a link on the path leads round in a loop; check the path", None),
    "build: --content is a link loop": (
        "build --content {loop} --site-dir {tmp}/site",
        f"build: --content {{loop}}: is a link that leads nowhere (its target is gone, or links lead round in a loop); {CONTENT_TODO}",
        "build._start_language_builds"),
    "build: --site-dir under a dangling link": (
        "build --content {content} --site-dir {dangling}/site",
        "build: --site-dir {dangling}/site: {dangling} is a link that leads nowhere (its target is gone, or links lead round in a loop); choose another path",
        "build._start_language_builds"),
    "check: FILES is a dangling link": (
        "check --content {content} {dangling}", "check: FILES {dangling}: is a link that leads nowhere (its target is gone, or links lead round in a loop); name record or registry files", None),
    "search: --content is a link loop": (
        "search x --content {loop}", f"search: --content {{loop}}: is a link that leads nowhere (its target is gone, or links lead round in a loop); {CONTENT_TODO}", None),
    # no command at all
    "no command": ("", "pitfalls: the following arguments are required: COMMAND; see `pitfalls --help`", None),
    "an option before the command": ("-x", "pitfalls: the following arguments are required: COMMAND; see `pitfalls --help`", None),
}


def _tree(folder: Path) -> dict[str, int]:
    return {str(path.relative_to(folder)): path.lstat().st_mtime_ns for path in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_command_refuses_each_bad_argument_in_one_line(case, place, capsys, monkeypatch):
    command, expected, first = CASES[case]
    if first:  # checked before this runs: it must not
        module, _, name = first.partition(".")
        target = {"build": build_command, "dist": dist_command, "serve": serve_command}[module]
        if "." in name:
            owner, _, name = name.partition(".")
            target = getattr(target, owner)
        monkeypatch.setattr(target, name, lambda *a, **k: pytest.fail(f"{first} ran before the bad argument was refused"))
    paths = {key: str(value) for key, value in place.items()}
    before = _tree(place["tmp"])
    monkeypatch.chdir(place["tmp"])
    monkeypatch.setattr("sys.stdin", open(os.devnull))
    try:
        status = main(command.format(**paths).split())
    except SystemExit as exit:  # argparse
        status = exit.code
    out, err = capsys.readouterr()
    assert status == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    if expected.startswith("re:"):
        assert re.fullmatch(expected[3:].format(**{k: re.escape(v) for k, v in paths.items()}), err.rstrip("\n")), err
    else:
        assert err.rstrip("\n") == expected.format(**paths)
    assert _tree(place["tmp"]) == before  # nothing half-written


@pytest.mark.parametrize("query", ["", "  \t"])
def test_an_empty_query_is_refused_in_one_line_before_any_index_is_made(query, capsys, monkeypatch):
    monkeypatch.setattr(search_command, "write_site_index", lambda *a, **k: pytest.fail("indexed for an empty query"))
    assert main(["search", query]) == 2
    assert capsys.readouterr().err == ("search: the query is empty: give what you would type into the site's search box, "
                                       "as in `pitfalls search 显存不足`\n")


def test_a_site_url_from_the_environment_is_checked_like_the_option(monkeypatch, capsys):
    monkeypatch.setenv("PITFALLS_SITE_URL", "wiki.example.com")  # the default of --site-url
    monkeypatch.setattr(build_command, "build_site", lambda *a, **k: pytest.fail("built with an address readers cannot open"))
    with pytest.raises(SystemExit) as exit:
        main(["build"])
    assert exit.value.code == 2
    assert capsys.readouterr().err == "build: " + NOT_SITE_URL.format("wiki.example.com/") + "; see `pitfalls build --help`\n"
    monkeypatch.setenv("PITFALLS_SITE_URL", "https://wiki.example.com/kb")
    built = {}
    monkeypatch.setattr(build_command, "build_site", lambda site_dir, **options: built.update(options))
    assert main(["build"]) == 0
    assert built["site_url"] == "https://wiki.example.com/kb/"


def test_an_os_error_on_a_path_the_user_gave_is_one_line_and_any_other_keeps_its_traceback(tmp_path, capsys, monkeypatch):
    site_dir = tmp_path / "site"

    def fails_on(path):
        def build_site(*args, **kwargs):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return build_site

    monkeypatch.setattr(build_command, "build_site", fails_on(tmp_path / ".site-x1y2"))  # the staging folder beside it
    assert main(["build", "--site-dir", str(site_dir)]) == 2
    assert capsys.readouterr().err == (f"build: --site-dir {tmp_path}/.site-x1y2: Permission denied; check its permissions, "
                                       "or give --site-dir another path\n")
    monkeypatch.setattr(build_command, "build_site", fails_on(ROOT / "templates" / "home.html.j2"))
    with pytest.raises(PermissionError):  # not about anything the user named: a bug, shown with its traceback
        main(["build", "--site-dir", str(site_dir)])

    def raises_runtime_error(*args, **kwargs):
        raise RuntimeError(f"not a symlink loop, though it names {site_dir}")

    monkeypatch.setattr(build_command, "build_site", raises_runtime_error)
    with pytest.raises(RuntimeError):  # only a RuntimeError raised over an ELOOP OSError (Path.resolve's) is the user's
        main(["build", "--site-dir", str(site_dir)])


def test_the_command_line_prints_one_line_and_no_traceback():
    """As a user runs it: a separate process, whose output nothing else catches."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "pitfalls", "serve", "--port", str(port), "--content", str(TINY)],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [f"serve: --port {port}: 127.0.0.1:{port} is already in use (another `pitfalls serve`?); "
                                        "stop that server, or give --port another number"]


def test_output_cut_short_by_its_reader_ends_quietly():
    """`pitfalls search … | head -1`: the reader has gone before the results are written. No traceback, the status of a
    tool ended by SIGPIPE (128 + 13), as `git log | head -1` leaves it."""
    process = subprocess.Popen([sys.executable, "-m", "pitfalls", "search", "--content", str(TINY), "--json", "显存"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process.stdout.close()  # before anything is written: the first write fails with EPIPE
    stderr = process.stderr.read()
    assert (process.wait(timeout=120), stderr) == (141, "")
