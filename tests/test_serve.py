"""`pitfalls serve` as an author uses it: save a record, and the site served shows it; break a record,
and every page names the error until it is fixed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from conftest import FIXTURES, ROOT
from pitfalls.commands.serve import Server
from pitfalls.errors import PitfallsError

pytestmark = pytest.mark.site

TIMEOUT = 180
"""Seconds a change may take to be served: generous, for a busy test machine."""


def fetch(url: str) -> tuple[int, str]:
    """(status, body); status 0 when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode("utf-8")
    except OSError:
        return 0, ""


def wait_for(url: str, check) -> tuple[int, str]:
    """Fetch `url` until check(status, body) holds; fail after TIMEOUT."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        status, body = fetch(url)
        if check(status, body):
            return status, body
        assert time.monotonic() < deadline, f"{url}: still {status} {body[:300]!r}"
        time.sleep(0.3)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(content folder, base URL, output so far) of `pitfalls serve` over a copy of the tiny fixture, on a port the
    system picks (`--port 0`: no other test can take it first), read from the address it says it serves on.

    One server for the module's tests, as an author keeps one running while editing (the module runs on one
    worker: ONE_WORKER_MODULES in conftest.py); a test that breaks a record mends it before it ends."""
    work = tmp_path_factory.mktemp("serve")
    content = work / "content"
    shutil.copytree(FIXTURES / "tiny", content)
    log = work / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen([sys.executable, "-m", "pitfalls", "serve", "--port", "0", "--content", str(content)],
                                  cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + TIMEOUT
        while not (serving := re.search(r"Serving on (\S+)", log.read_text(encoding="utf-8"))):
            assert server.poll() is None and time.monotonic() < deadline, log.read_text(encoding="utf-8")
            time.sleep(0.2)
        url = serving[1]
        assert re.fullmatch(r"http://127\.0\.0\.1:[1-9][0-9]*/", url), url  # the port taken, not the 0 asked for
        _, page = wait_for(f"{url}zh/gpu-oom/", lambda status, _: status == 200)
        assert f'<link rel="canonical" href="{url}zh/gpu-oom/">' in page  # the site is built for the port taken
        yield content, url, log
    finally:
        server.terminate()
        server.wait(timeout=60)


def test_a_saved_record_updates_its_page_listings_and_search(served):
    content, url, _ = served
    record = content / "entries" / "gpu-oom.yml"
    record.write_text(record.read_text(encoding="utf-8").replace("en: Out of GPU memory", "en: Out of GPU memory again"),
                      encoding="utf-8")
    wait_for(f"{url}en/gpu-oom/", lambda _, body: "Out of GPU memory again" in body)
    assert "Out of GPU memory again" in fetch(f"{url}en/categories/training/")[1]
    assert "Out of GPU memory again" in fetch(f"{url}en/tags/cuda/")[1]
    assert "Out of GPU memory again" in fetch(f"{url}en/recent/")[1]
    assert "Out of GPU memory again" in fetch(f"{url}en/docker-no-gpu/")[1]  # it names docker-no-gpu: listed there
    folder = json.loads(fetch(f"{url}en/search/manifest.json")[1])["version"]  # the index's files are in its folder
    docs = [json.loads(fetch(f"{url}en/search/{folder}/d/{n}.json")[1])["title"] for n in range(2)]
    assert "Out of GPU memory again" in docs
    other = content / "entries" / "docker-no-gpu.yml"  # gpu-oom names it as related: its link shows the new title
    other.write_text(other.read_text(encoding="utf-8").replace("zh: 容器内看不到 GPU", "zh: 容器里没有 GPU"), encoding="utf-8")
    wait_for(f"{url}zh/gpu-oom/", lambda _, body: "容器里没有 GPU" in body)

    # a new record, renamed to another file, then deleted
    new = content / "entries" / "gpu-oom-again.yml"
    new.write_text(record.read_text(encoding="utf-8").replace("id: gpu-oom", "id: gpu-oom-again")
                   .replace("aliases: [cuda-oom-old]\n", "").replace("Out of GPU memory again", "Fresh entry"), encoding="utf-8")
    wait_for(f"{url}en/gpu-oom-again/", lambda status, body: status == 200 and "Fresh entry" in body)
    assert "Fresh entry" in fetch(f"{url}en/categories/training/")[1]
    renamed = content / "entries" / "gpu-oom-renamed.yml"
    renamed.write_text(new.read_text(encoding="utf-8").replace("id: gpu-oom-again", "id: gpu-oom-renamed"), encoding="utf-8")
    new.unlink()
    wait_for(f"{url}en/gpu-oom-renamed/", lambda status, _: status == 200)
    _, body = wait_for(f"{url}en/gpu-oom-again/", lambda status, _: status == 404)
    # the 404 page in the address's language, as deploy/nginx.conf answers
    assert "<title>Page not found - " in body and "页面不存在" not in body
    status, body = fetch(f"{url}zh/gpu-oom-again/")
    assert status == 404 and "<title>页面不存在 - " in body and "Page not found" not in body
    renamed.unlink()
    wait_for(f"{url}en/gpu-oom-renamed/", lambda status, _: status == 404)
    assert "Fresh entry" not in fetch(f"{url}en/categories/training/")[1]
    manifest = json.loads(fetch(f"{url}en/search/manifest.json")[1])
    assert manifest["docs"] == 2


def test_a_broken_record_shows_its_error_on_every_page_until_fixed(served):
    content, url, log = served
    record = content / "entries" / "gpu-oom.yml"
    good = record.read_text(encoding="utf-8")
    record.write_text(good.replace("category: training", "category: trainign"), encoding="utf-8")
    status, body = wait_for(f"{url}en/docker-no-gpu/", lambda status, _: status == 500)
    assert "entries/gpu-oom.yml:3:11: category: unknown category &#39;trainign&#39;" in body
    assert "livereload(" in body  # reloads by itself once fixed
    assert fetch(f"{url}zh/")[0] == 500
    record.write_text(good, encoding="utf-8")
    wait_for(f"{url}en/docker-no-gpu/", lambda status, _: status == 200)
    output = log.read_text(encoding="utf-8")
    assert "unknown category 'trainign'" in output
    assert "Traceback" not in output


def test_the_address_served_is_the_port_taken_with_an_ipv6_host_in_brackets(tmp_path):
    for host, url in (("127.0.0.1", "http://127.0.0.1:{}/"), ("::1", "http://[::1]:{}/")):
        server = Server(builder=lambda: None, host=host, port=0, root=str(tmp_path))
        try:
            server.listen()
        except PitfallsError as err:  # a machine without IPv6 on its loopback
            pytest.skip(str(err))
        try:
            assert server.url == url.format(server.server_address[1]) and server.server_address[1] != 0
        finally:
            server.server_close()
