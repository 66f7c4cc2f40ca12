#!/usr/bin/env python3
"""ssh_bench.py - what an SSH player costs the server beside a telnet one
(docs/performance.md, "SSH like for like"). A benchmark, not a test:
nothing is asserted.

    ssh_bench.py [ROGUED_BIN] [N] [KEYS]

Three kinds of run, each against a fresh server (ROGUED_BIN, default
build/rel/rogued, on 127.0.0.1 with a temporary data directory, no
per-address limits and every game from seed 42) with N players (default
50) from loopback:

- "telnet, a process each": every player a process of its own (RELAY,
  a small relay between its pipes and a socket), as every SSH player is:
  the like-for-like row, the one SSH's target is judged on;
- "ssh": Debian's OpenSSH client (`ssh -tt play@`), TERM=vt100 so both
  transports get the plain display;
- "telnet, one process": every player a socket of this script's one
  process (what the bench measured first; kept beside, labelled).

The runs alternate, telnet (a process each), SSH, telnet (one process),
BENCH_ROUNDS times (default 3); then each round's SSH / telnet ratios and
their medians. With two or more CPUs the server is pinned to the first
half of them and this script and its players to the rest (the output
says which), so the clients' CPU does not preempt the server's.

Printed per run:
- memory: the server's VmRSS once the N players idle in the lobby, less
  its VmRSS before the first connected, per player;
- threads: the server's threads (/proc/PID/task) before and with them;
- CPU per key: every player leaves the lobby as a guest, then sends KEYS
  (default 40) waits ('.', a turn each) at 10 a second; the server's
  CPU time (the sum of /proc/PID/task/*/schedstat) from the first key
  until every player's output has been quiet for a second, divided by
  every key offered (N x KEYS); the same quiet second's CPU measured
  before the keys is taken off; beside it the user and kernel shares
  (utime and stime, coarser: clock ticks);
- turns: the server's own count, the turns= of its disconnect lines once
  the players have gone: every key offered was played when it equals
  the keys (a row short of it says so).

BENCH_KINDS="ssh" (or "telnet-procs ssh telnet-one", the default) chooses
the kinds; BENCH_PIN=0 leaves the CPUs unpinned; BENCH_PERF=FILE profiles
the keys with perf (FILE.KIND.ROUND); BENCH_STRACE=FILE counts the
server's system calls during the keys alone (strace -f -c attached then;
its CPU figures are then not the server's alone); BENCH_SSH_ARGS adds
options to every ssh client ("-c aes128-gcm@openssh.com": a cipher).
BENCH_WRAP="valgrind --tool=callgrind ..." runs the server under that
command and, with callgrind, counts only the keys (callgrind_control -z
before them, a dump named keys-KIND.ROUND after).

The clients' own CPU is theirs, not the server's: only the server
process is measured."""
import os
import selectors
import signal
import socket
import statistics
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


ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
KINDS = os.environ.get("BENCH_KINDS", "telnet-procs ssh telnet-one").split()
NAMES = {"telnet-procs": "telnet, a process each", "ssh": "ssh",
         "telnet-one": "telnet, one process"}


def split_cpus():
    """The server's CPUs and the players' (the rest), or None when there
    are fewer than two or BENCH_PIN=0."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2 or os.environ.get("BENCH_PIN") == "0":
        return None
    half = len(cpus) // 2
    return set(cpus[:half]), set(cpus[half:])


PIN = split_cpus()


# "telnet-procs": each telnet player is a process of its own, as each SSH
# player is (an ssh client): this relay between its pipes and the socket.
# A frame sent over loopback wakes its reader in the server's system
# call, and waking a sleeping process costs more than waking one that,
# busy with the others, often is not (docs/performance.md).
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
        pin = (lambda: os.sched_setaffinity(0, PIN[0])) if PIN else None
        self.proc = subprocess.Popen(args, stdout=open(self.log, "w"),
                                     stderr=subprocess.STDOUT,
                                     preexec_fn=pin)
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

    def log_count(self, text):
        return open(self.log, errors="replace").read().count(text)

    def turns(self):
        """The turns= of the log's disconnect lines, summed: the server's
        own count of the keys it played (one line a session)."""
        total = 0
        for line in open(self.log, errors="replace"):
            if " disconnect " in line and " turns=" in line:
                total += int(line.split(" turns=")[1].split()[0])
        return total


class Client:
    """A player: its output gathered, keys written."""

    def __init__(self, kind, srv, sel):
        self.out = b""
        self.last = time.time()
        self.sock = self.proc = None
        if kind == "telnet-procs":
            cmd = [sys.executable, "-c", RELAY, str(srv.port)]
        elif kind == "telnet-one":
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


def measure_keys(tag, pid, sel, clients):
    """The keys, offered at 10 a second: the server's CPU over them (s,
    its idle rate taken off), and its user and kernel time over them (s)."""
    idle0 = cpu_s(pid)
    t0 = time.time()
    wait_quiet(sel, clients)
    idle_rate = (cpu_s(pid) - idle0) / (time.time() - t0)
    if WRAP:  # callgrind: count only the keys (docs/performance.md)
        subprocess.run(["callgrind_control", "-z", str(pid)], check=False,
                       stdout=subprocess.DEVNULL)
    tracer = None
    if os.environ.get("BENCH_PERF"):  # a profile of the keys alone
        tracer = attach(["perf", "record", "-g"], pid,
                        os.environ["BENCH_PERF"] + "." + tag)
    if os.environ.get("BENCH_STRACE"):  # system calls of the keys alone
        tracer = attach(["strace", "-f", "-c"], pid,
                        os.environ["BENCH_STRACE"] + "." + tag)
    cpu0, t0, us0 = cpu_s(pid), time.time(), user_sys_s(pid)
    for _ in range(KEYS):
        for c in clients:
            c.send(b".")
        pump(sel, 0.1)
    wait_quiet(sel, clients)
    cpu = cpu_s(pid) - cpu0 - idle_rate * (time.time() - t0)
    us1 = user_sys_s(pid)
    if tracer:
        tracer.send_signal(signal.SIGINT)
        tracer.wait()
    if WRAP:
        subprocess.run(["callgrind_control", "-d", f"keys-{tag}", str(pid)],
                       check=False, stdout=subprocess.DEVNULL)
    return cpu, us1[0] - us0[0], us1[1] - us0[1]


def run(kind, tag):
    """One run of kind: prints its row, returns its CPU per key (µs)."""
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
        cpu, user, system = measure_keys(tag, pid, sel, clients)
        for c in clients:
            c.close()
        # the players' disconnects logged (their turns), then the server off
        deadline = time.time() + WAIT
        while srv.log_count(" disconnect ") < N and time.time() < deadline:
            time.sleep(0.05)
        srv.stop()
        keys = N * KEYS
        turns = srv.turns()
        short = "" if turns == keys else " (**short**)"
        print(f"| {tag} | {NAMES[kind]} | {N} | {(rss1 - rss0) / N:.1f} KiB"
              f" | {thr0} -> {thr1} | {cpu * 1e6 / keys:.1f} µs"
              f" | {user * 1e6 / keys:.0f} / {system * 1e6 / keys:.0f} µs"
              f" | {keys} | {turns}{short} |", flush=True)
        return cpu * 1e6 / keys


def ratios(results):
    """Each round's SSH / telnet ratios, and their medians."""
    pairs = [k for k in ("telnet-procs", "telnet-one")
             if k in KINDS and "ssh" in KINDS]
    if not pairs:
        return
    print()
    print("| round | " + " | ".join(
        f"SSH / {NAMES[k]}" for k in pairs) + " |")
    print("|---|" + "---|" * len(pairs))
    per = {k: [] for k in pairs}
    for r, res in enumerate(results, 1):
        cells = []
        for k in pairs:
            x = res["ssh"] / res[k]
            per[k].append(x)
            cells.append(f"{res['ssh']:.1f} / {res[k]:.1f} = {x:.2f}")
        print(f"| {r} | " + " | ".join(cells) + " |")
    print("| **median** | " + " | ".join(
        f"**{statistics.median(per[k]):.2f}**" for k in pairs) + " |")


def main():
    print(f"server {BIN}, {N} players, {KEYS} keys each, {ROUNDS} rounds of "
          + ", ".join(NAMES[k] for k in KINDS))
    if PIN:
        os.sched_setaffinity(0, PIN[1])  # this script and its players
        print(f"pinned: the server on CPU {sorted(PIN[0])}, this script and "
              f"its players on CPU {sorted(PIN[1])}")
    else:
        print("not pinned (fewer than 2 CPUs, or BENCH_PIN=0)")
    print()
    print("| run | transport | players | memory per player | threads (before "
          "-> with them) | server CPU per key | of which user / kernel "
          "(ticks) | keys offered | turns played |")
    print("|---|---|---|---|---|---|---|---|---|")
    load0 = os.getloadavg()[0]
    results = []
    for r in range(1, ROUNDS + 1):
        results.append({k: run(k, f"{k}.{r}") for k in KINDS})
    ratios(results)
    print(f"\nload average (1 min) {load0:.1f} at the start, "
          f"{os.getloadavg()[0]:.1f} at the end, on {os.cpu_count()} CPUs")


main()
