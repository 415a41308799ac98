#!/usr/bin/env python3
"""Runs the Dockerfile's build and run steps on this Debian machine, where no container engine
runs, so the image's recipe cannot rot; and checks compose.yaml with Debian's docker-compose 1.29.

Build stage: each RUN, in the repository (the build context; WORKDIR /build), with /staging made a
temporary folder. Run stage: its RUN steps (the runtime libraries, the unprivileged user), then the
ENTRYPOINT started as that USER with the stage's ENV (its paths moved to a temporary folder and its
port to a free one), and:
  - the binary links no Swift runtime library and nothing it needs is missing (ldd);
  - the HEALTHCHECK command passes, /health/ready answers 200, the process is not root's;
  - SIGTERM turns /health/ready to 503 at once (BAZAAR_DRAIN_DELAY) and the process exits 0.

    scripts/container-check.py            # needs root (apt-get, useradd, runuser), as in CI
"""
import os
import pathlib
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]


def instructions(dockerfile):
    """The stages of `dockerfile`: [(name, [(instruction, argument)])], continuations joined."""
    stages, logical, pending = [], [], ""
    for line in dockerfile.read_text().splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        logical.append(pending + stripped)
        pending = ""
    for line in logical:
        keyword, _, argument = line.partition(" ")
        keyword = keyword.upper()
        if keyword == "FROM":
            name = argument.split(" AS ")[-1].strip() if " AS " in argument else str(len(stages))
            stages.append((name, [("FROM", argument.strip())]))
        else:
            stages[-1][1].append((keyword, argument.strip()))
    return stages


def run(command, **options):
    print(f"+ {command}", flush=True)
    subprocess.run(["bash", "-euo", "pipefail", "-c", command], check=True, **options)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def status(url):
    try:
        with urllib.request.urlopen(url, timeout=3) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def check_compose():
    if shutil.which("docker-compose") is None:
        run("apt-get update && apt-get install -y --no-install-recommends docker-compose")
    environment = {**os.environ, "BAZAAR_SIGNING_KEY": "Y29tcG9zZS1jaGVjay1vbmx5LW5vdC1hLXJlYWwta2V5"}
    run("docker-compose -f compose.yaml config -q", cwd=ROOT, env=environment)
    missing = subprocess.run(["docker-compose", "-f", "compose.yaml", "config", "-q"], cwd=ROOT,
                             env={k: v for k, v in os.environ.items() if k != "BAZAAR_SIGNING_KEY"},
                             capture_output=True, text=True)
    if missing.returncode == 0:
        sys.exit("compose.yaml: without BAZAAR_SIGNING_KEY the file should be refused (replicas must share one key)")
    print("compose.yaml: valid; refused without BAZAAR_SIGNING_KEY", flush=True)


def main():
    check_compose()
    stages = instructions(ROOT / "Dockerfile")
    build, runtime = stages[0][1], stages[-1][1]
    work = pathlib.Path(tempfile.mkdtemp(prefix="bazaar-container-"))
    os.chmod(work, 0o755)
    try:
        staging = work / "staging"
        for keyword, argument in build:
            if keyword == "RUN":
                run(argument.replace("/staging", str(staging)), cwd=ROOT)
        binary = staging / "bazaar-server"
        links = subprocess.run(["ldd", str(binary)], capture_output=True, text=True).stdout
        if "not found" in links or "libswiftCore" in links or "libFoundation" in links:
            sys.exit(f"the binary needs libraries the run stage does not have:\n{links}")

        home, port, user, environment, healthcheck, entrypoint = work / "home", free_port(), None, {}, None, None
        for keyword, argument in runtime:
            if keyword == "RUN":
                user_name = re.search(r"useradd .* (\w+)$", argument)
                if user_name and subprocess.run(["id", user_name.group(1)], capture_output=True).returncode == 0:
                    continue  # made by an earlier run
                run(argument.replace("/var/lib/bazaar", str(home)))
            elif keyword == "USER":
                user = argument
            elif keyword == "ENV":
                for pair in shlex.split(argument):
                    name, _, value = pair.partition("=")
                    environment[name] = value.replace("/var/lib/bazaar", str(home))
            elif keyword == "HEALTHCHECK":
                healthcheck = argument.split(" CMD ", 1)[1]
            elif keyword == "ENTRYPOINT":
                entrypoint = [str(binary) if part == "bazaar-server" else part
                              for part in eval(argument)]  # a JSON array of strings
        environment["BAZAAR_PORT"] = str(port)
        healthcheck = healthcheck.replace("127.0.0.1:8080", f"127.0.0.1:{port}")
        home.mkdir(exist_ok=True)
        shutil.chown(home, user=user)
        os.chmod(work, 0o755)
        os.chmod(staging, 0o755)
        command = (["runuser", "-u", user, "--"] if os.geteuid() == 0 else []) + ["env"] + [
            f"{k}={v}" for k, v in environment.items()] + entrypoint
        print("+ " + " ".join(command), flush=True)
        server = subprocess.Popen(command, cwd=home, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.time() + 30
            while subprocess.run(["bash", "-c", healthcheck], capture_output=True).returncode != 0:
                if time.time() > deadline or server.poll() is not None:
                    sys.exit(f"the HEALTHCHECK never passed: {server.stderr.read() if server.poll() is not None else ''}")
                time.sleep(0.2)
            base = f"http://127.0.0.1:{port}"
            assert status(base + "/health/ready") == 200, "not ready"
            owner = subprocess.run(["ps", "-o", "user=", "-p", str(server.pid)], capture_output=True, text=True)
            if os.geteuid() == 0 and owner.stdout.strip() in ("root", "runuser"):
                # runuser stays as the parent; the server is its child.
                children = subprocess.run(["pgrep", "-P", str(server.pid)], capture_output=True, text=True).stdout.split()
                owner = subprocess.run(["ps", "-o", "user=", "-p", children[0]], capture_output=True, text=True)
            assert owner.stdout.strip() == user, f"the server runs as {owner.stdout.strip()}, not {user}"
            print(f"healthy on {base} as {user}; HEALTHCHECK passes; ready 200", flush=True)
            # The server itself (under runuser, its child), as an orchestrator's stop signals it.
            target = server.pid
            if os.geteuid() == 0:
                target = int(subprocess.run(["pgrep", "-P", str(server.pid)], capture_output=True, text=True)
                             .stdout.split()[0])
            os.kill(target, 15)
            time.sleep(0.5)
            draining = status(base + "/health/ready")
            assert draining == 503, f"ready answered {draining} during the drain"
            assert status(base + "/health/live") == 200, "live must answer during the drain"
            code = server.wait(timeout=60)
            assert code == 0, f"exit {code} after SIGTERM: {server.stderr.read()}"
            print("SIGTERM: ready 503 at once, live 200, then exit 0", flush=True)
        finally:
            if server.poll() is None:
                server.kill()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
