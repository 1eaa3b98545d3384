"""`pitfalls serve`: both languages with live reload on 127.0.0.1:8000.

One long-running worker per language (pitfalls/commands/serve_worker.py) builds its site once, then
on every save updates only what changed, in parallel with the other language. This process
watches the files, re-validates the content (re-parsing only the files whose bytes changed) and
hands it to the workers. A change to the code, templates, theme or assets restarts the workers,
which then build whole.

While the content has errors, or a build fails, every page answers with an error page that names
them (file:line:column: field: message) and reloads by itself once they are fixed; the terminal
shows the same message, without a traceback.
"""

from __future__ import annotations

import errno
import logging
import pickle
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from mkdocs.livereload import LiveReloadServer

from ..errors import PitfallsError, existing_folder
from ..pages.render import environment
from ..records.model import LANGUAGES
from ..records.validate import CONTENT_FOLDER_TODO, ReadCache, load_knowledge_base
from ..settings import CONTENT_DIR, ROOT
from .build import language_environment, write_root_files
from .dependencies import check_material, check_mkdocs, with_live_reload

CODE = ("templates", "hooks", "pitfalls", "overrides", "static", "mkdocs.yml")
"""What the site is built with, besides the content: a change restarts the language workers."""


class LanguageWorkers:
    """One serve_worker process per language, writing into `serve_dir`/<lang>."""

    def __init__(self, serve_dir: Path, site_url: str, handover: Path):
        self.runs = {}
        for lang in LANGUAGES:
            env = language_environment(lang, site_url, handover) | {"PITFALLS_KEEP_PAGES": "1"}  # updates compare pages
            self.runs[lang] = subprocess.Popen(
                [sys.executable, "-m", "pitfalls.commands.serve_worker", str(serve_dir / lang)],
                cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def build(self) -> list[str]:
        """Have every language brought up to the handed-over content, in parallel; the languages that failed."""
        for run in self.runs.values():
            run.stdin.write("build\n")
            run.stdin.flush()
        return [lang for lang, run in self.runs.items() if run.stdout.readline().strip() != "ok"]

    def stop(self) -> None:
        for run in self.runs.values():
            run.stdin.close()
        for run in self.runs.values():
            run.wait()


class Server(LiveReloadServer):
    """MkDocs' live-reload server, answering every page with the error page while the site cannot be built."""

    failure: str | None = None
    """What stops the build, as shown in the terminal; None while the site is built."""
    listening = False
    """Whether `listen` took the port."""
    request = threading.local()
    """The address being answered, per thread (one a request): MkDocs' error_handler is given only the status."""

    def listen(self) -> None:
        """Take the port now, before the first build (LiveReloadServer takes it when it starts serving,
        minutes later): PitfallsError when it cannot, saying why and what to do."""
        host, port = self.server_address[:2]
        try:
            super().server_bind()
            super().server_activate()
        except OSError as err:
            self.server_close()
            raise PitfallsError(_listen_problem(err, host, port)) from None
        self.listening = True
        # the address MkDocs prints and the site is built for: the port taken (--port 0 asks for any free one), an IPv6
        # address in brackets (MkDocs writes http://::1:8000/)
        self.url = f"http://{f'[{host}]' if ':' in host else host}:{self.server_address[1]}/"

    def server_bind(self):
        if not self.listening:
            super().server_bind()

    def server_activate(self):
        if not self.listening:
            super().server_activate()

    def serve_request(self, environ, start_response):
        path = environ["PATH_INFO"]
        self.request.path = path
        if self.failure is None or not path.endswith(("/", ".html")) or path.startswith("/livereload/"):
            return super().serve_request(environ, start_response)
        page = environment().get_template("serve_error.html.j2").render(message=self.failure).encode("utf-8")
        page = with_live_reload(self, page)  # reloads by itself once fixed
        start_response("500 Internal Server Error", [("Content-Type", "text/html; charset=utf-8"),
                                                      ("Content-Length", str(len(page)))])
        return [page]

    def not_found_page(self, code: int) -> bytes | None:
        """MkDocs' error_handler: for a 404, the site's 404 page in the language of the address, as deploy/nginx.conf
        answers (/en/… in English, anything else in the first language); None (MkDocs' plain text) otherwise."""
        path = getattr(self.request, "path", "/")
        lang = next((lang for lang in LANGUAGES if path.startswith(f"/{lang}/")), LANGUAGES[0])
        page = Path(self.root) / lang / "404.html"
        return page.read_bytes() if code == 404 and page.exists() else None


def _listen_problem(err: OSError, host: str, port: int) -> str:
    """One line for a port or host that cannot be listened on."""
    if err.errno == errno.EADDRINUSE:
        return (f"--port {port}: {host}:{port} is already in use (another `pitfalls serve`?); stop that server, "
                "or give --port another number")
    if err.errno == errno.EACCES:
        return f"--port {port}: {err.strerror}; ports below 1024 need root: give --port 1024 or above, such as 8000"
    if isinstance(err, socket.gaierror) or err.errno == errno.EADDRNOTAVAIL:
        return f"--host {host}: {err.strerror}; give an address of this machine, such as 127.0.0.1"
    return f"--host {host} --port {port}: cannot listen ({err.strerror}); give another --host or --port"


def serve(host: str = "127.0.0.1", port: int = 8000, content: Path = CONTENT_DIR) -> None:
    """Serve both languages with live reload until interrupted. What can be checked before building
    is checked first: the content folder, MkDocs' and Material's internals we use, the port."""
    existing_folder(content, "--content", CONTENT_FOLDER_TODO)
    check_mkdocs()
    check_material()
    work = Path(tempfile.mkdtemp(prefix="pitfalls-serve-"))
    serve_dir, handover = work / "site", work / "base.pickle"
    serve_dir.mkdir()
    server = workers = None
    try:
        server = Server(builder=lambda: None, host=host, port=port, root=str(serve_dir))
        server.listen()
        logging.basicConfig(format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
        logging.getLogger("mkdocs").setLevel(logging.INFO)  # "Detected file changes", "Reloading browsers"
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # clean up the temporary site on kill too
        site_url = server.url
        cache = ReadCache()
        code = None

        def builder() -> None:
            nonlocal workers, code
            now = _snapshot(ROOT / name for name in CODE)
            if workers is None or now != code:
                if workers is not None:
                    workers.stop()
                workers, code = LanguageWorkers(serve_dir, site_url, handover), now
            try:
                base = load_knowledge_base(content, cache)
            except PitfallsError as err:  # content errors, or the content folder gone
                server.failure = f"build failed: {err}"
            else:
                handover.write_bytes(pickle.dumps(base))
                failed = workers.build()
                server.failure = f"build failed: {', '.join(failed)}: see the terminal" if failed else None
                if not failed:
                    write_root_files(serve_dir, base)
            if server.failure:
                print(server.failure, file=sys.stderr)

        server.builder = builder
        server.error_handler = server.not_found_page
        builder()
        for name in (*CODE, "content"):
            server.watch(str(ROOT / name))
        if not content.resolve().is_relative_to(ROOT):
            server.watch(str(content))
        server.serve()
    except KeyboardInterrupt:
        pass
    finally:
        if server is not None and server.listening:
            server.shutdown()
        if workers is not None:
            workers.stop()
        shutil.rmtree(work, ignore_errors=True)


def _snapshot(paths) -> dict[Path, tuple[int, int]]:
    """(modification time, size) of every file under `paths`, compiled Python left out."""
    files = {}
    for path in paths:
        for file in (path.rglob("*") if path.is_dir() else [path]):
            if file.is_file() and "__pycache__" not in file.parts:
                stat = file.stat()
                files[file] = (stat.st_mtime_ns, stat.st_size)
    return files


def register(commands) -> None:
    serve_cmd = commands.add_parser("serve", help="本地预览，自动刷新 / serve with live reload on 127.0.0.1:8000")
    serve_cmd.add_argument("--host", default="127.0.0.1")
    serve_cmd.add_argument("--port", type=port_number, default=8000)
    serve_cmd.add_argument("--content", type=Path, default=CONTENT_DIR, help="content folder (default: %(default)s)")
    serve_cmd.set_defaults(run=_serve)


def port_number(text: str) -> int:
    """A TCP port, for argparse: 0 (any free port) to 65535."""
    if not text.isdigit() or int(text) > 65535:
        raise ValueError(text)
    return int(text)


def _serve(args) -> int:
    serve(args.host, args.port, content=args.content)
    return 0
