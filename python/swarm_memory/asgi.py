"""An ASGI application served by uvicorn in a thread of this process, for as long as a block
runs: how the tests and the benchmarks run `serve`'s and `mcp`'s applications beside the
code that calls them (the commands run uvicorn in the foreground instead)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["free_port", "in_thread"]


def free_port(host: str = "127.0.0.1") -> int:
    """A port nothing listens on now (the kernel's pick)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


@contextmanager
def in_thread(app: Any, *, host: str = "127.0.0.1", start_seconds: float = 60) -> Iterator[str]:
    """Serve `app` on a free port of `host` until the block ends; yields its base URL
    (http://host:port). RuntimeError when it has not started within start_seconds."""
    import uvicorn

    port = free_port(host)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_seconds
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError(f"the application did not start on {host}:{port}")
        time.sleep(0.05)
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
