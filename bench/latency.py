"""A loopback TCP proxy that holds every chunk for half a round trip each way, so a benchmark can see what a page's
requests cost a reader whose server is not on the same machine (an office across town, a VPN): on loopback a request
that waits on another costs about nothing more than one that does not.

    with delayed(port, 20) as slow_port: ...    # the server at `port`, 20 ms a round trip, at `slow_port`
    python -m bench.latency LISTEN UPSTREAM ROUND_TRIP_MS
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import time
from collections.abc import Iterator

from tests.helpers.local_nginx import free_port


async def _pass_on(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float) -> None:
    """Each chunk `reader` gives, written to `writer` `delay` seconds after it came, in order."""
    queue: asyncio.Queue = asyncio.Queue()

    async def send() -> None:
        while (item := await queue.get())[1]:
            at, data = item
            await asyncio.sleep(max(0.0, at + delay - time.monotonic()))
            writer.write(data)
            await writer.drain()
        writer.close()

    sender = asyncio.create_task(send())
    with contextlib.suppress(ConnectionError):
        while data := await reader.read(65536):
            queue.put_nowait((time.monotonic(), data))
    queue.put_nowait((time.monotonic(), b""))
    with contextlib.suppress(ConnectionError):
        await sender


async def _serve(listen: int, upstream: int, delay: float) -> None:
    async def connection(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", upstream)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(_pass_on(client_reader, server_writer, delay), _pass_on(server_reader, client_writer, delay))

    server = await asyncio.start_server(connection, "127.0.0.1", listen)
    print("ready", flush=True)
    async with server:
        await server.serve_forever()


@contextlib.contextmanager
def delayed(port: int, round_trip_ms: float) -> Iterator[int]:
    """The loopback server at `port` behind the proxy, in a process of its own: yields the proxy's port."""
    listen = free_port()
    process = subprocess.Popen([sys.executable, "-m", "bench.latency", str(listen), str(port), str(round_trip_ms)],
                               stdout=subprocess.PIPE, text=True)
    try:
        if process.stdout.readline().strip() != "ready":
            raise RuntimeError("bench.latency: the proxy did not start")
        yield listen
    finally:
        process.terminate()
        process.wait()


if __name__ == "__main__":
    asyncio.run(_serve(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]) / 2000))
