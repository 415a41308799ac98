"""Fixtures for the browser tests: a real bazaar-server, a real `bazaar web` over it, and
Debian's Chromium driven by Playwright (nothing is downloaded)."""
import os
import pathlib
import re
import shutil
import socket
import subprocess
import tempfile
import time

import pytest
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("BAZAAR_BIN", ROOT / ".build" / "debug"))
SCREENSHOTS = pathlib.Path(os.environ.get("BAZAAR_SCREENSHOTS", ROOT / ".build" / "browser-screenshots"))
CHROMIUM = os.environ.get("BAZAAR_CHROMIUM", "/usr/bin/chromium")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_line(process, pattern, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        line = process.stdout.readline()
        if not line:
            if process.poll() is not None:
                raise RuntimeError(f"process exited with {process.returncode}")
            continue
        match = re.search(pattern, line)
        if match:
            return match
    raise TimeoutError(pattern)


class ApiServer:
    """bazaar-server on a fixed free port and a SQLite file, which can be stopped and started again."""

    def __init__(self, folder, extra=()):
        self.port = free_port()
        self.database = os.path.join(folder, "bazaar.sqlite")
        self.extra = list(extra)
        self.process = None
        self.start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        self.process = subprocess.Popen(
            [str(BIN / "bazaar-server"), "--port", str(self.port), "--sqlite", self.database, "--bcrypt-cost", "6",
             *self.extra],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        wait_for_line(self.process, r"listening on")

    def stop(self):
        # Killed, not asked: open live sockets would hold a graceful stop; SQLite keeps what it answered.
        self.process.kill()
        self.process.wait(timeout=20)


class WebApp:
    """`bazaar web` over the API server, on a port it picks, with its own config folder (kept
    across a restart, as an operator's would be)."""

    def __init__(self, api, folder, extra=()):
        self.api = api
        self.config = pathlib.Path(folder) / "web"
        self.extra = list(extra)
        self.start()

    def start(self):
        self.process = subprocess.Popen(
            [str(BIN / "bazaar"), "web", "--port", "0", "--server", self.api.url, "--config-dir", str(self.config),
             *self.extra],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.url = wait_for_line(self.process, r"(http://127\.0\.0\.1:\d+)/").group(1)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def crash(self):
        """Killed with no chance to sign anyone out, as a crash or an OOM kill would."""
        self.process.kill()
        self.process.wait(timeout=20)

    def browser_folders(self):
        folder = self.config / "browsers"
        return sorted(folder.iterdir()) if folder.exists() else []


@pytest.fixture
def stack():
    folder = tempfile.mkdtemp(prefix="bazaar-browser-")
    api = ApiServer(folder)
    web = WebApp(api, folder)
    yield api, web
    web.stop()
    if api.process.poll() is None:
        api.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def demo_stack():
    """The stack over a server seeded with the demo catalogue (its photos drawn by the project's code)."""
    folder = tempfile.mkdtemp(prefix="bazaar-browser-")
    api = ApiServer(folder, extra=["--seed-demo"])
    web = WebApp(api, folder)
    yield api, web
    web.stop()
    if api.process.poll() is None:
        api.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield browser
        browser.close()


@pytest.fixture
def shoot(request):
    """Saves a screenshot of `page` under the test's name (the last screen of each test)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name=None, full_page=True):
        page.screenshot(path=str(SCREENSHOTS / f"{name or request.node.name}.png"), full_page=full_page)

    return take
