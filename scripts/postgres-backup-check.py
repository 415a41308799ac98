#!/usr/bin/env python3
"""The two halves of scripts/postgres-backup.sh check, against a running bazaar-server.

--backup CMD: two users and a conversation; four clients send messages as fast as they can; once
200 are answered 201 the backup command runs while they go on; what was answered before it began
is written to --out.
--verify FILE: on the server started on the restore, /health/ready is 200 and every message of
FILE is there (the tokens still work: the replicas share BAZAAR_SIGNING_KEY).
"""
import argparse
import json
import shlex
import subprocess
import sys
import threading
import uuid

import requests


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--backup")
    parser.add_argument("--out")
    parser.add_argument("--verify")
    args = parser.parse_args()
    base = args.server.rstrip("/") + "/v1"
    if args.backup:
        run = uuid.uuid4().hex[:6]

        def register(name):
            answer = requests.post(base + "/auth/register", json={
                "username": f"{name}{run}", "password": "password-123", "displayName": name}, timeout=10)
            answer.raise_for_status()
            return answer.json()

        ada, bob = register("ada"), register("bob")
        token = bob["tokens"]["accessToken"]
        headers = {"Authorization": "Bearer " + token}
        conversation = requests.post(base + "/conversations", json={"userId": ada["user"]["id"]}, headers=headers,
                                     timeout=10).json()["id"]
        acknowledged, lock, stop = set(), threading.Lock(), threading.Event()

        def send(sender):
            session, index = requests.Session(), 0
            while not stop.is_set():
                body = f"sender {sender} message {index}"
                index += 1
                answer = session.post(f"{base}/conversations/{conversation}/messages", json={"body": body},
                                      headers={**headers, "Idempotency-Key": uuid.uuid4().hex}, timeout=10)
                if answer.status_code == 201:
                    with lock:
                        acknowledged.add(body)

        threads = [threading.Thread(target=send, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        while True:
            with lock:
                if len(acknowledged) >= 200:
                    before = set(acknowledged)
                    break
        backup = subprocess.run(shlex.split(args.backup), capture_output=True, text=True)
        stop.set()
        for thread in threads:
            thread.join()
        print(backup.stdout.strip())
        if backup.returncode != 0:
            sys.exit(f"backup failed ({backup.returncode}): {backup.stderr}")
        print(f"{len(before)} messages answered 201 before the backup began, {len(acknowledged)} in all")
        with open(args.out, "w") as out:
            json.dump({"token": token, "conversation": conversation, "before": sorted(before)}, out)
    else:
        with open(args.verify) as source:
            expected = json.load(source)
        ready = requests.get(args.server.rstrip("/") + "/health/ready", timeout=10)
        if ready.status_code != 200:
            sys.exit(f"the restored server is not ready: {ready.status_code} {ready.text}")
        found, cursor = set(), None
        headers = {"Authorization": "Bearer " + expected["token"]}
        while True:
            query = "?limit=100" + (f"&before={cursor}" if cursor else "")
            page = requests.get(f"{base}/conversations/{expected['conversation']}/messages{query}", headers=headers,
                                timeout=10)
            page.raise_for_status()
            body = page.json()
            found.update(item["body"] for item in body["items"])
            cursor = body.get("nextCursor")
            if not cursor:
                break
        lost = set(expected["before"]) - found
        if lost:
            sys.exit(f"lost {len(lost)} messages answered before the backup, e.g. {sorted(lost)[:3]}")
        print(f"restored server ready; all {len(expected['before'])} messages answered before the backup are there")


if __name__ == "__main__":
    main()
