"""Helpers of the ``duel serve`` tests: a real server in a subprocess on a free loopback port,
and the system's Chromium."""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys

import pytest


@contextlib.contextmanager
def running_server(*args, timeout=60):
    """Start ``duel serve --port 0 --quiet *args``; yield ``(process, base url)``; stop it with
    Ctrl-C (SIGINT) at the end."""
    proc = subprocess.Popen([sys.executable, "-m", "duelpy.cli", "serve", "--port", "0",
                             "--quiet", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"(http://\S+/)", line)
        if not m:
            proc.kill()
            raise RuntimeError(f"duel serve did not start: {line!r} {proc.stderr.read()}")
        yield proc, m.group(1)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def chromium_path() -> str:
    """The system Chromium (Debian's ``chromium``); skipped when missing, except in CI, where
    ``.ci/run`` installs it, so that a missing browser fails instead."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("CI"):
        pytest.fail("no chromium on PATH: .ci/run should have installed it (apt-get install "
                    "chromium)")
    pytest.skip("no chromium on PATH (apt-get install chromium)")
