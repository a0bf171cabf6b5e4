"""Run ``duel`` in a real subprocess, send it Ctrl-C (SIGINT) while it works, time the exit."""
from __future__ import annotations

import codecs
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

#: Seconds from SIGINT to exit that a test accepts. The target is under 1 s on an idle core
#: (measured by hand, docs/cli.md); the bound is loose because a shared, busy machine can
#: delay a child by seconds, and what the tests must catch is a run that ignores Ctrl-C.
EXIT_BOUND = 20.0


class Child:
    """A ``python -m duelpy.cli ARGS`` subprocess whose output is read as it comes."""

    def __init__(self, args, cwd, stdin=subprocess.DEVNULL, env=None):
        e = dict(os.environ, COLUMNS="100", PYTHONUNBUFFERED="1")
        e.update(env or {})
        # SIGINT at its default: a child of a background job would inherit it ignored
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "duelpy.cli", *args], cwd=cwd, stdin=stdin,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.out: list[str] = []
        self.err: list[str] = []
        self._readers = [threading.Thread(target=self._read, args=(f, buf), daemon=True)
                         for f, buf in ((self.proc.stdout, self.out),
                                        (self.proc.stderr, self.err))]
        for t in self._readers:
            t.start()

    @staticmethod
    def _read(f, buf):
        """Whatever arrives (a prompt has no newline), decoded."""
        fd = f.fileno()
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        while True:
            data = os.read(fd, 65536)
            buf.append(decoder.decode(data, final=not data))
            if not data:
                return

    def send(self, text: str) -> None:
        """Type ``text`` on the child's stdin (opened with stdin=subprocess.PIPE)."""
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    @property
    def stdout(self) -> str:
        return "".join(self.out)

    @property
    def stderr(self) -> str:
        return "".join(self.err)

    def wait_for(self, text: str, timeout: float = 120.0, stream: str = "stderr") -> None:
        """Wait until ``text`` appears on ``stream`` (the command says it has started)."""
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            if text in (self.stderr if stream == "stderr" else self.stdout):
                return
            if self.proc.poll() is not None:
                time.sleep(0.2)
                raise AssertionError(f"exited ({self.proc.returncode}) before {text!r}:\n"
                                     f"{self.stdout}\n{self.stderr}")
            time.sleep(0.02)
        self.proc.kill()
        raise AssertionError(f"{text!r} never came:\n{self.stdout}\n{self.stderr}")

    def busy(self, cpu: float, timeout: float = 120.0) -> None:
        """Wait until the process has used ``cpu`` more seconds of CPU."""
        target = cpu_seconds(self.proc.pid) + cpu
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout and cpu_seconds(self.proc.pid) < target:
            if self.proc.poll() is not None:
                return
            time.sleep(0.05)

    def wait_until(self, ready, timeout: float = 120.0) -> None:
        """Poll ``ready()`` until it is true, the process ends or ``timeout`` seconds pass
        (for a condition on disk, such as a finished chunk, that CPU time cannot promise)."""
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout and self.proc.poll() is None:
            try:
                if ready():
                    return
            except (OSError, ValueError):
                pass                        # a file being renamed into place
            time.sleep(0.05)

    def interrupt(self, timeout: float = 60.0):
        """Send SIGINT; return (seconds until exit, exit code, stdout, stderr)."""
        t0 = time.monotonic()
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout)
            seconds = time.monotonic() - t0
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            seconds = float("inf")
        for t in self._readers:
            t.join(10)
        return seconds, self.proc.returncode, self.stdout, self.stderr


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
