"""deploy/nginx.conf, exactly as shipped, run as a child process on a loopback port: shared by
tests/test_nginx.py and bench/bench_search.py (the web server a team would host the site with)."""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "deploy" / "nginx.conf"
SITE_ROOT = "/srv/pitfall-guide/site"
"""Where deploy/nginx.conf expects the site; the runner points it at its own build."""

MAIN_CONFIG = """\
daemon off;
worker_processes 1;
{user}
pid {prefix}/nginx.pid;
error_log {prefix}/error.log;
events {{ worker_connections 64; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {prefix}/pitfall-guide.conf;
}}
"""
"""A minimal nginx.conf around the repo's file, all state kept in the runner's folder."""


class NginxError(Exception):
    """nginx is missing, or did not start; the message says why."""


def find_nginx() -> str:
    """Debian's nginx, installed the way `make system-packages` does when it is missing and we may."""
    found = shutil.which("nginx") or shutil.which("/usr/sbin/nginx")
    if not found and os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run("apt-get update -qq && apt-get install -y -qq nginx", shell=True, check=False,
                       stdout=subprocess.DEVNULL)
        found = shutil.which("/usr/sbin/nginx")
    if not found:
        raise NginxError("nginx is missing: run `make system-packages` (as root it installs Debian's nginx) or apt-get install nginx")
    return found


def site_config(site_dir: Path, port: int) -> str:
    """The repo's config with its three deployment-specific lines pointed at `site_dir` and `port`."""
    text = CONFIG.read_text(encoding="utf-8")
    deployment_lines = {  # directive → its one line in the shipped file, and what the runner puts there
        "listen": (re.compile(r"^(\s*)listen 80;$", re.M), rf"\1listen 127.0.0.1:{port};"),
        # quoted: a folder with a space in its name is one parameter
        "root": (re.compile(rf"^(\s*)root {SITE_ROOT};$", re.M), rf'\1root "{site_dir}";'),
        "include": (re.compile(rf"^(\s*)include {SITE_ROOT}/nginx-redirects.map;$", re.M),
                    rf'\1include "{site_dir}/nginx-redirects.map";'),
    }
    for directive, (line, replacement) in deployment_lines.items():
        text, found = line.subn(replacement, text)
        if found != 1:
            raise NginxError(f"{CONFIG}: expected one `{line.pattern}` line ({directive}), found {found}")
    return text


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def serve_with_nginx(site_dir: Path) -> Iterator[int]:
    """Serve `site_dir` through deploy/nginx.conf; yields the port, stops nginx afterwards."""
    nginx = find_nginx()
    with tempfile.TemporaryDirectory(prefix="pitfalls-nginx-") as tmp:
        prefix, port = Path(tmp), free_port()
        (prefix / "pitfall-guide.conf").write_text(site_config(site_dir.resolve(), port), encoding="utf-8")
        # as root, nginx's workers would switch to `nobody`, who cannot read private temporary folders
        user = f"user {pwd.getpwuid(os.getuid()).pw_name} {grp.getgrgid(os.getgid()).gr_name};" if os.geteuid() == 0 else ""
        (prefix / "nginx.conf").write_text(MAIN_CONFIG.format(prefix=prefix, user=user), encoding="utf-8")
        command = [nginx, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", str(prefix / "error.log")]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            _wait_for(port, process, prefix / "error.log")
            yield port
        finally:
            process.send_signal(signal.SIGQUIT)  # graceful shutdown of master and worker
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_for(port: int, process: subprocess.Popen, error_log: Path) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log = error_log.read_text() if error_log.exists() else ""
            raise NginxError(f"nginx exited with {process.returncode}:\n{process.stdout.read()}\n{log}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise NginxError(f"nginx did not listen on 127.0.0.1:{port} within 15 s")
