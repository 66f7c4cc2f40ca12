#!/usr/bin/env python3
"""ssh_bench.py - what an SSH player costs the server beside a telnet one
(docs/performance.md, "SSH"). A benchmark, not a test: nothing is asserted.

    ssh_bench.py [ROGUED_BIN] [N] [KEYS]

For each transport (telnet, then SSH) a fresh server (ROGUED_BIN, default
build/rel/rogued, on 127.0.0.1 with a temporary data directory, no
per-address limits and every game from seed 42) gets N players (default
50) from loopback: telnet as a raw client (`nc`: no options answered, the
lobby after negotiation_ms), SSH as Debian's OpenSSH client (`ssh -tt
play@`, TERM=vt100 so both get the plain display). Printed per transport:

- memory: the server's VmRSS once the N players idle in the lobby, less
  its VmRSS before the first connected, per player;
- threads: the server's threads (/proc/PID/task) before and with them;
- CPU per key: every player leaves the lobby as a guest, then sends KEYS
  (default 40) waits ('.', a turn each) at 10 a second; the server's
  CPU time (the sum of /proc/PID/task/*/schedstat) from the first key until every player's
  output has been quiet for a second, divided by the keys; the same
  quiet second's CPU measured before the keys is taken off; beside it
  the user and kernel shares (utime and stime, coarser: clock ticks).

BENCH_KINDS="ssh" measures only SSH; BENCH_PERF=FILE profiles the keys
with perf (FILE.telnet, FILE.ssh); BENCH_STRACE=FILE counts the server's
system calls during the keys alone (strace -f -c attached then, FILE.telnet,
FILE.ssh; its CPU figures are then not the server's alone); BENCH_SSH_ARGS
adds options to every ssh client ("-c aes128-gcm@openssh.com": a cipher);
BENCH_TELNET_PROC=1 makes each telnet player a process of its own, as
each SSH player is (see RELAY).
BENCH_WRAP="valgrind --tool=callgrind ..." runs the server under that
command and, with callgrind, counts only the keys (callgrind_control -z
before them, a dump named keys-TRANSPORT after).

The SSH clients' own CPU is theirs, not the server's: only the server
process is measured."""
import os
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time

BIN = sys.argv[1] if len(sys.argv) > 1 else "build/rel/rogued"
N = int(sys.argv[2]) if len(sys.argv) > 2 else 50
KEYS = int(sys.argv[3]) if len(sys.argv) > 3 else 40
WAIT = 120.0  # a wait's ceiling (s): it only catches a hang
# a command the server runs under (BENCH_WRAP="valgrind --tool=callgrind")
WRAP = os.environ.get("BENCH_WRAP", "").split()


# BENCH_TELNET_PROC=1: each telnet player is a process of its own, as each
# SSH player is (an ssh client): this relay between its pipes and the
# socket. A frame sent over loopback wakes its reader in the server's
# system call, and waking a sleeping process costs more than one that
# the bench's single process, busy with the others, often is not.
TELNET_PROC = os.environ.get("BENCH_TELNET_PROC") == "1"
RELAY = """
import os, selectors, socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
sel = selectors.DefaultSelector()
sel.register(s, selectors.EVENT_READ)
sel.register(0, selectors.EVENT_READ)
while True:
    for key, _ in sel.select():
        if key.fileobj == 0:
            b = os.read(0, 65536)
            if not b:
                sys.exit(0)
            s.sendall(b)
        else:
            b = s.recv(65536)
            if not b:
                sys.exit(0)
            os.write(1, b)
"""


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def cpu_s(pid):
    """The CPU time of every thread of pid (s): schedstat's nanoseconds,
    finer than /proc/PID/stat's clock ticks."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass  # a thread that ended meanwhile
    return total / 1e9


def user_sys_s(pid):
    """utime and stime of the whole process (s), in clock ticks."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def threads(pid):
    return len(os.listdir(f"/proc/{pid}/task"))


class Server:
    def __init__(self, tmp):
        self.ssh_port = free_port()
        self.log = os.path.join(tmp, "server.log")
        args = WRAP + [BIN, "--seed", "42", "--config", "/dev/null", "--port",
                "0", "--bind",
                "127.0.0.1", "--data-dir", os.path.join(tmp, "data"),
                "--max-sessions", str(N * 2 + 10)]
        for kv in ("max_sessions_per_ip=0", "connects_per_ip_per_minute=0",
                   "http_port=0", f"ssh_port={self.ssh_port}",
                   "ssh_unauth_per_ip=0", "max_keys_per_second=1000",
                   "negotiation_ms=200"):
            args += ["--set", kv]
        self.proc = subprocess.Popen(args, stdout=open(self.log, "w"),
                                     stderr=subprocess.STDOUT)
        self.port = None
        deadline = time.time() + WAIT
        while time.time() < deadline and self.port is None:
            text = open(self.log).read()
            if "host key SHA256:" in text:
                for line in text.splitlines():
                    if "listening on 127.0.0.1:" in line:
                        self.port = int(line.split("127.0.0.1:")[1].split()[0])
            time.sleep(0.05)
        if self.port is None:
            sys.exit("the server did not start: " + open(self.log).read())
        time.sleep(1.0)  # start-up's work (a password hash) over

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=WAIT)


class Client:
    """A player: its output gathered, keys written."""

    def __init__(self, kind, srv, sel):
        self.out = b""
        self.last = time.time()
        self.sock = self.proc = None
        if kind == "telnet" and TELNET_PROC:
            cmd = [sys.executable, "-c", RELAY, str(srv.port)]
        elif kind == "telnet":
            self.sock = socket.create_connection(("127.0.0.1", srv.port))
            self.sock.setblocking(False)
            self.rfd = self.sock
        else:
            cmd = (["ssh", "-tt", "-F", "/dev/null", "-p", str(srv.ssh_port),
                    "-o", "StrictHostKeyChecking=no",
                    "-o", "UserKnownHostsFile=/dev/null",
                    "-o", "LogLevel=ERROR", "-o", "BatchMode=yes"]
                   + os.environ.get("BENCH_SSH_ARGS", "").split()
                   + ["play@127.0.0.1"])
        if not self.sock:
            self.proc = subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, env=dict(os.environ, TERM="vt100"))
            os.set_blocking(self.proc.stdout.fileno(), False)
            self.rfd = self.proc.stdout
        sel.register(self.rfd, selectors.EVENT_READ, self)

    def send(self, b):
        if self.sock:
            self.sock.sendall(b)
        else:
            self.proc.stdin.write(b)
            self.proc.stdin.flush()

    def read(self):
        try:
            b = self.sock.recv(65536) if self.sock else self.rfd.read(65536)
        except BlockingIOError:
            return
        if b:
            self.out += b
            self.last = time.time()

    def close(self):
        if self.sock:
            self.sock.close()
        else:
            self.proc.kill()
            self.proc.wait()


def pump(sel, seconds):
    end = time.time() + seconds
    while time.time() < end:
        for key, _ in sel.select(timeout=max(0.0, end - time.time())):
            key.data.read()


def wait_all(sel, clients, text):
    deadline = time.time() + WAIT
    while time.time() < deadline:
        if all(text in c.out for c in clients):
            return
        pump(sel, 0.05)
    sys.exit(f"not every player saw {text!r}")


def wait_quiet(sel, clients, quiet=1.0):
    deadline = time.time() + WAIT
    while time.time() < deadline:
        pump(sel, 0.1)
        if all(time.time() - c.last >= quiet for c in clients):
            return
    sys.exit("the players' output never went quiet")


def attach(cmd, pid, out):
    """cmd (perf record, strace -c) on the server from now on, into out;
    stopped by SIGINT once the keys are done."""
    proc = subprocess.Popen(cmd + ["-p", str(pid), "-o", out],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # (attached)
    return proc


def run(kind):
    with tempfile.TemporaryDirectory(prefix="rogued-sshbench-") as tmp:
        srv = Server(tmp)
        pid = srv.proc.pid
        sel = selectors.DefaultSelector()
        rss0, thr0 = rss_kib(pid), threads(pid)
        clients = []
        for _ in range(N):
            clients.append(Client(kind, srv, sel))
            pump(sel, 0.02)
        wait_all(sel, clients, b"Play (as a guest)")
        wait_quiet(sel, clients)
        rss1, thr1 = rss_kib(pid), threads(pid)
        for c in clients:
            c.send(b"p")
        wait_all(sel, clients, b"Play as a guest")
        for c in clients:
            c.send(b"\r")
        wait_all(sel, clients, b"HP:")
        wait_quiet(sel, clients)
        idle0 = cpu_s(pid)
        t0 = time.time()
        wait_quiet(sel, clients)
        idle_rate = (cpu_s(pid) - idle0) / (time.time() - t0)
        if WRAP:  # callgrind: count only the keys (docs/performance.md)
            subprocess.run(["callgrind_control", "-z", str(pid)], check=False,
                           stdout=subprocess.DEVNULL)
        perf = None
        if os.environ.get("BENCH_PERF"):  # a profile of the keys alone
            perf = attach(["perf", "record", "-g"], pid,
                          os.environ["BENCH_PERF"] + "." + kind)
        if os.environ.get("BENCH_STRACE"):  # system calls of the keys alone
            perf = attach(["strace", "-f", "-c"], pid,
                          os.environ["BENCH_STRACE"] + "." + kind)
        cpu0, t0, us0 = cpu_s(pid), time.time(), user_sys_s(pid)
        for _ in range(KEYS):
            for c in clients:
                c.send(b".")
            pump(sel, 0.1)
        wait_quiet(sel, clients)
        cpu = cpu_s(pid) - cpu0 - idle_rate * (time.time() - t0)
        us1 = user_sys_s(pid)
        if perf:
            perf.send_signal(signal.SIGINT)
            perf.wait()
        user, system = us1[0] - us0[0], us1[1] - us0[1]
        if WRAP:
            subprocess.run(["callgrind_control", "-d", f"keys-{kind}", str(pid)],
                           check=False, stdout=subprocess.DEVNULL)
        keys = N * KEYS
        name = kind + (", a process each" if kind == "telnet" and TELNET_PROC
                       else "")
        print(f"| {name} | {N} | {(rss1 - rss0) / N:.1f} KiB | {thr0} -> {thr1}"
              f" | {cpu * 1e6 / keys:.1f} µs | {user * 1e6 / keys:.0f} / "
              f"{system * 1e6 / keys:.0f} µs | {keys} |")
        for c in clients:
            c.close()
        srv.stop()


print(f"server {BIN}, {N} players, {KEYS} keys each")
print()
print("| transport | players | memory per player | threads (before -> with them) "
      "| server CPU per key | of which user / kernel (ticks) | keys |")
print("|---|---|---|---|---|---|---|")
for kind in os.environ.get("BENCH_KINDS", "telnet ssh").split():
    run(kind)
