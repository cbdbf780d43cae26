"""The deploy guide's balancers, run as written: the HAProxy and nginx configurations of
docs/deploy.md ("A load balancer without sticky sessions"), taken from the guide itself,
in front of three ``fivehundred serve`` processes on one PostgreSQL database started with
the guide's environment file; then the time a player's page takes to see its table again
when the server it is connected to stops (SIGTERM, as ``systemctl restart`` in a deploy)
or dies (SIGKILL).

    createdb fh_deploy    # an empty database of its own: any other is refused
    .venv/bin/python bench/bench_deploy.py --db postgresql+psycopg://USER@HOST/fh_deploy

What changes from the guide, so that it runs on one machine without root: the ports (the
balancer listens on a free loopback port instead of 443, the servers on free ports instead
of 8501…8503), the certificate (a self-signed one for ``cards.example.org``) and, for
nginx, the few lines a whole ``nginx.conf`` wraps around the guide's ``server`` block (its
own pid, log and temporary files). Every other line is the guide's.

Measured: spectators of one table (six WebSockets, spread by the balancer over the three
servers) reconnect the way the page does (``static/js/net.js``: after 0.5 s, then 1, 2, 4,
8 s), through the balancer; for each socket of the stopped server, the seconds from the
signal to the table's view received again, and how many tries failed (a 502/503, a refused
connection). Each server is stopped in turn (``--rounds``) and started again before the
next. The database is emptied at the end (it was found empty).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "deploy.md"
HOST = "cards.example.org"
GUIDE_PORTS = (8501, 8502, 8503)
#: The page's back-off between reconnects (static/js/net.js): min(8 s, 0.5 s × 2^try).
BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0)


# ----------------------------------------------------------------------------- the guide
def guide_blocks(language: str, text: str | None = None) -> list[str]:
    """The guide's fenced code blocks of ``language`` (```` ```haproxy ````, ...), in order."""
    text = GUIDE.read_text() if text is None else text
    return re.findall(rf"^```{language}\n(.*?)^```$", text, flags=re.M | re.S)


def guide_environment(text: str | None = None) -> dict[str, str]:
    """The guide's ``/etc/fivehundred.env``: the ``sh`` block of ``FIVEHUNDRED_…`` lines."""
    for block in guide_blocks("sh", text):
        lines = [line for line in block.splitlines() if line.strip()]
        if lines and all(line.startswith("FIVEHUNDRED_") for line in lines):
            return dict(line.split("=", 1) for line in lines)
    raise LookupError("docs/deploy.md has no environment file")


def balancer_config(kind: str) -> str:
    """The guide's configuration of the balancer ``kind`` (``haproxy``, ``nginx``) in front
    of several servers: the block that names 127.0.0.1:8501 and 8502."""
    for block in guide_blocks(kind):
        if "127.0.0.1:8502" in block:
            return block
    raise LookupError(f"docs/deploy.md has no {kind} configuration for several servers")


def health_check_request(haproxy: str) -> bytes:
    """The request HAProxy's ``option httpchk METHOD URI`` sends each server (HTTP/1.0,
    no Host: HAProxy's default)."""
    match = re.search(r"option httpchk (\S+) (\S+)", haproxy)
    if match is None:
        raise LookupError("the HAProxy configuration has no option httpchk")
    if re.search(r"http-check send .*hdr", haproxy):
        raise LookupError("http-check send: replay it by hand")
    return f"{match.group(1)} {match.group(2)} HTTP/1.0\r\n\r\n".encode()


def local_config(kind: str, text: str, listen: int, ports: list[int], workdir: Path) -> str:
    """The guide's configuration with this machine's ports and a self-signed certificate
    (made in ``workdir``); for nginx, inside the few lines of a whole ``nginx.conf``."""
    cert, key, pem = self_signed(workdir)
    for guide_port, port in zip(GUIDE_PORTS, ports, strict=False):
        text = text.replace(f"127.0.0.1:{guide_port}", f"127.0.0.1:{port}")
    if kind == "haproxy":
        text = text.replace("bind :443", f"bind 127.0.0.1:{listen}")
        return text.replace("/etc/haproxy/club.pem", str(pem))
    text = text.replace("listen 443 ", f"listen 127.0.0.1:{listen} ")
    text = re.sub(r"listen 80;", f"listen 127.0.0.1:{free_port()};", text)
    text = re.sub(r"ssl_certificate +\S+;", f"ssl_certificate {cert};", text)
    text = re.sub(r"ssl_certificate_key +\S+;", f"ssl_certificate_key {key};", text)
    temp = "\n".join(
        f"    {name}_temp_path {workdir / name};"
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (
        f"{user}pid {workdir / 'nginx.pid'};\nerror_log {workdir / 'error.log'} warn;\n"
        f"events {{ worker_connections 1024; }}\nhttp {{\n    access_log off;\n{temp}\n"
        f"{text}}}\n"
    )


def self_signed(workdir: Path) -> tuple[Path, Path, Path]:
    """A certificate for ``cards.example.org`` and its key (and both in one PEM, for
    HAProxy), made once in ``workdir``."""
    cert, key, pem = workdir / "cert.pem", workdir / "key.pem", workdir / "club.pem"
    if not pem.exists():
        subprocess.run(
            [
                *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"),
                *("-subj", f"/CN={HOST}", "-keyout", str(key), "-out", str(cert)),
            ],
            check=True,
            capture_output=True,
        )
        pem.write_text(cert.read_text() + key.read_text())
    return cert, key, pem


def check_config(kind: str, path: Path) -> subprocess.CompletedProcess[str]:
    """``haproxy -c`` or ``nginx -t`` of a configuration file."""
    if kind == "haproxy":
        command = ["haproxy", "-c", "-f", str(path)]
    else:
        command = ["nginx", "-t", "-p", str(path.parent), "-c", str(path)]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def start_balancer(kind: str, path: Path) -> subprocess.Popen[str]:
    """HAProxy or nginx on ``path``, in the foreground (its own process group)."""
    if kind == "haproxy":
        command = ["haproxy", "-db", "-f", str(path)]
    else:
        command = ["nginx", "-p", str(path.parent), "-c", str(path), "-g", "daemon off;"]
    return subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def stop(process: subprocess.Popen[Any], sig: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig) if sig == signal.SIGKILL else process.send_signal(sig)
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


# ----------------------------------------------------------------------------- servers
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(
    port: int, environment: dict[str, str], data_dir: Path, log: Path
) -> subprocess.Popen[str]:
    """``fivehundred serve --host 127.0.0.1 --port PORT`` (the guide's ``ExecStart``) with
    ``environment`` (the guide's environment file), its output (JSON lines) to ``log``."""
    env = {**os.environ, **environment, "FIVEHUNDRED_DATA_DIR": str(data_dir)}
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    command = [sys.executable, "-m", "fivehundred", "serve", "--host", "127.0.0.1"]
    with open(log, "a") as out:
        return subprocess.Popen(
            [*command, "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # its worker processes go with it on SIGKILL
        )


def raw_request(port: int, request: bytes, timeout: float = 5.0) -> tuple[int, bytes]:
    """Send ``request`` as it is to 127.0.0.1:``port``: the status and the body."""
    with socket.create_connection(("127.0.0.1", port), timeout) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    answer = b"".join(chunks)
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def get(port: int, path: str, host: str | None, tls: bool = False) -> tuple[int, bytes]:
    """GET ``path`` of 127.0.0.1:``port`` (over TLS, not verified: the certificate is
    self-signed) with the Host ``host``."""
    if tls:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        connection: http.client.HTTPConnection = http.client.HTTPSConnection(
            "127.0.0.1", port, timeout=10, context=context
        )
    else:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("GET", path, skip_host=True)
        if host is not None:
            connection.putheader("Host", host)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def wait_until(what: str, ready: Any, timeout: float, poll: float = 0.1) -> None:
    """Wait for ``ready()`` to be true (a state, not a time), or raise after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError, http.client.HTTPException):
            if ready():
                return
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {timeout:g} s")
        time.sleep(poll)


def ready(port: int) -> bool:
    return get(port, "/readyz", "127.0.0.1")[0] == 200


# ----------------------------------------------------------------------------- reconnects
@dataclass
class Reconnect:
    seconds: float
    failed_tries: int


@dataclass
class Cluster:
    """Three servers and a balancer, run as the guide says."""

    db: str
    balancer: str
    workdir: Path
    servers: int = 3
    workers: str | None = None
    ports: list[int] = field(default_factory=list)
    processes: list[subprocess.Popen[str]] = field(default_factory=list)
    proxy: subprocess.Popen[str] | None = None
    listen: int = 0
    #: a configuration to run instead of the guide's (an earlier one, to compare)
    config: str | None = None

    def environment(self) -> dict[str, str]:
        environment = guide_environment()
        environment["FIVEHUNDRED_DB"] = self.db
        if self.workers is not None:
            environment["FIVEHUNDRED_WORKERS"] = self.workers
        return environment

    def start(self) -> None:
        self.ports = [free_port() for _ in range(self.servers)]
        for index, port in enumerate(self.ports):
            self.processes.append(self.start_server(index, port))
            if index == 0:  # the first creates the schema before the others start
                wait_until(f"the server on port {port}", lambda port=port: ready(port), 120)
        for port in self.ports:
            wait_until(f"the server on port {port}", lambda port=port: ready(port), 120)
        self.listen = free_port()
        guide = self.config if self.config is not None else balancer_config(self.balancer)
        text = local_config(self.balancer, guide, self.listen, self.ports, self.workdir)
        path = self.workdir / f"{self.balancer}.conf"
        path.write_text(text)
        checked = check_config(self.balancer, path)
        if checked.returncode != 0:
            raise RuntimeError(
                f"{self.balancer} refuses the guide's configuration:\n{checked.stderr}"
            )
        self.proxy = start_balancer(self.balancer, path)
        proxy = self.proxy

        def up() -> bool:
            if proxy.poll() is not None:
                raise RuntimeError(f"{self.balancer} stopped: {proxy.stderr.read()[-2000:]}")
            return get(self.listen, "/readyz", HOST, tls=True)[0] == 200

        wait_until(f"{self.balancer} in front of the servers", up, 30)

    def start_server(self, index: int, port: int) -> subprocess.Popen[str]:
        return start_server(
            port,
            self.environment(),
            self.workdir / f"data{index}",
            self.workdir / f"server{index}.log",
        )

    def close(self) -> None:
        if self.proxy is not None:
            stop(self.proxy)
        for process in self.processes:
            stop(process)


async def _spectator(
    url: str, port: int, context: ssl.SSLContext, events: asyncio.Queue[Any]
) -> None:
    """A spectator's page: connects, reconnects after the page's back-off, and reports each
    view and each closed connection or failed try."""
    import websockets

    tries = 0
    while True:
        try:
            async with websockets.connect(
                url,
                ssl=context,
                host="127.0.0.1",
                port=port,
                open_timeout=10,
            ) as ws:
                tries = 0
                async for _message in ws:
                    await events.put(("view", time.monotonic()))
            await events.put(("closed", time.monotonic()))
        except asyncio.CancelledError:
            raise
        except websockets.ConnectionClosed:  # 1012 (a restart), 1006 (a server gone)
            await events.put(("closed", time.monotonic()))
        except Exception:  # the try failed: refused, a 502/503, a timeout
            await events.put(("failed", time.monotonic()))
        await asyncio.sleep(BACKOFF[min(tries, len(BACKOFF) - 1)])
        tries += 1


async def measure_reconnects(
    cluster: Cluster, code: str, sig: int, rounds: int, sockets: int = 6
) -> list[Reconnect]:
    """Stop each server in turn with ``sig`` while ``sockets`` spectators watch ``code``;
    the reconnects of those that were connected to it."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    url = f"wss://{HOST}/ws/tables/{code}"  # connected to 127.0.0.1:cluster.listen
    queues: list[asyncio.Queue[Any]] = [asyncio.Queue() for _ in range(sockets)]
    tasks = [
        asyncio.create_task(_spectator(url, cluster.listen, context, queue)) for queue in queues
    ]
    found: list[Reconnect] = []

    async def watch(queue: asyncio.Queue[Any], started: float) -> Reconnect | None:
        # a socket of the stopped server closes (or its try fails), then gets a view through
        # another server; a socket of another server sees no close
        failed = 0
        closed = False
        while True:
            try:
                kind, when = await asyncio.wait_for(queue.get(), 60 if closed else 3)
            except TimeoutError:
                return None
            if kind in ("closed", "failed"):
                closed = True
                failed += kind == "failed"
            elif kind == "view" and closed:
                return Reconnect(when - started, failed)

    try:
        deadline = time.monotonic() + 60
        for queue in queues:  # every page shows the table
            while True:
                left = deadline - time.monotonic()
                kind, _ = await asyncio.wait_for(queue.get(), max(left, 0.01))
                if kind == "view":
                    break
        for round_ in range(rounds):
            await asyncio.sleep(0.5)  # the views that follow the first (who is connected)
            for queue in queues:
                while not queue.empty():
                    queue.get_nowait()
            index = round_ % len(cluster.processes)
            victim = cluster.processes[index]
            started = time.monotonic()
            if sig == signal.SIGKILL:
                os.killpg(victim.pid, signal.SIGKILL)
            else:
                victim.send_signal(sig)
            results = await asyncio.gather(*(watch(queue, started) for queue in queues))
            found.extend(r for r in results if r is not None)
            await asyncio.to_thread(victim.wait, 30)
            cluster.processes[index] = cluster.start_server(index, cluster.ports[index])
            port = cluster.ports[index]
            await asyncio.to_thread(
                wait_until, f"the server on port {port}", lambda port=port: ready(port), 120
            )
            await asyncio.to_thread(
                wait_until,
                "the balancer sees it again",
                lambda: all(
                    get(cluster.listen, "/readyz", HOST, tls=True)[0] == 200 for _ in range(3)
                ),
                30,
            )
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return found


def create_table(cluster: Cluster) -> str:
    """A table (one open seat, three computers: it waits for a person) made through the
    balancer."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    connection = http.client.HTTPSConnection(
        "127.0.0.1", cluster.listen, context=context, timeout=30
    )
    body = json.dumps({"seats": ["open", "easy", "easy", "easy"]})
    connection.request(
        "POST",
        "/api/tables",
        body,
        {"Host": HOST, "Content-Type": "application/json"},
    )
    response = connection.getresponse()
    answer = json.loads(response.read())
    connection.close()
    if response.status != 201:
        raise RuntimeError(f"the table was not made: {response.status} {answer}")
    return str(answer["table"])


def summary(found: list[Reconnect]) -> str:
    if not found:
        return "no socket was on the stopped servers"
    seconds = sorted(r.seconds for r in found)
    failed = sum(r.failed_tries for r in found)
    return (
        f"{len(found)} reconnects: median {statistics.median(seconds):.2f} s, "
        f"max {seconds[-1]:.2f} s; {failed} failed tries (refused, 502/503)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description="the deploy guide's HAProxy and nginx in front of three servers: the "
        "time a page takes to see its table again when its server stops or dies"
    )
    parser.add_argument(
        "--db",
        required=True,
        help="an empty PostgreSQL database made for the benchmark (createdb fh_deploy): one "
        "with any table in it is refused, never touched; emptied again at the end",
    )
    parser.add_argument("--balancer", choices=["haproxy", "nginx", "both"], default="both")
    parser.add_argument("--rounds", type=int, default=6, help="servers stopped, each way")
    parser.add_argument("--workers", default="1", help="each server's FIVEHUNDRED_WORKERS")
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help="with --balancer haproxy or nginx: measure this configuration instead of the "
        "guide's (the same ports and certificate are put in)",
    )
    args = parser.parse_args()
    if args.config is not None and args.balancer == "both":
        parser.error("--config needs --balancer haproxy or nginx")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # the servers stop with it
    if not args.db.startswith("postgresql"):
        parser.error("--db must be a PostgreSQL database (three servers share it)")
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_web import _empty, not_empty

    refusal = not_empty(args.db)
    if refusal:
        print(f"bench_deploy.py: {refusal}", file=sys.stderr)
        return 2
    kinds = ["haproxy", "nginx"] if args.balancer == "both" else [args.balancer]
    try:
        for kind in kinds:
            if shutil.which(kind) is None:
                print(f"{kind}: not installed", flush=True)
                continue
            workdir = Path(tempfile.mkdtemp(prefix=f"bench-deploy-{kind}-"))
            cluster = Cluster(args.db, kind, workdir, workers=args.workers)
            if args.config is not None:
                cluster.config = args.config.read_text()
            try:
                cluster.start()
                code = create_table(cluster)
                for name, sig in (("SIGTERM", signal.SIGTERM), ("SIGKILL", signal.SIGKILL)):
                    found = asyncio.run(measure_reconnects(cluster, code, sig, args.rounds))
                    print(f"{kind}, {name} of a server: {summary(found)}", flush=True)
            finally:
                cluster.close()
                shutil.rmtree(workdir, ignore_errors=True)
            _empty(args.db)
    finally:
        _empty(args.db)
    return 0


if __name__ == "__main__":
    sys.exit(main())
