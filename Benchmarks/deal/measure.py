#!/usr/bin/env python3
"""What an offer accept costs on one running bazaar-server, beside a message send in the same run.

An accept is the deal's heaviest write: it checks the product's version under its row lock,
reserves the product, declines the other open offers, writes a timeline line, a notification and
two live events, in one transaction. The yardstick is the write every server already does most: a
message send (a message, a notification, two live events), into the same conversations.

Setup (not timed): a seller with N products; N buyers' conversations, each with one open offer and
one rival offer on the same product (so every accept also declines one). Then, one request at a
time over one keep-alive connection: N message sends, then N accepts, then N sends again (the
yardstick on both sides of the accepts). For each: p50 and p99 of the wall time, and the CPU the
server (and, on PostgreSQL, every postgres process) spent per request.
"""
import argparse
import json
import os
import statistics
import time
import uuid

import requests


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def cpu_seconds(pids):
    """User + system CPU seconds of the processes `pids` (those gone are skipped)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def postgres_pids():
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if open(f"/proc/{entry}/comm").read().strip() == "postgres":
                    pids.append(int(entry))
            except (FileNotFoundError, ProcessLookupError):
                pass
    return pids


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--server", required=True)
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--backend", required=True)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    base = args.server.rstrip("/") + "/v1"
    session = requests.Session()
    run = uuid.uuid4().hex[:6]

    def register(name):
        answer = session.post(base + "/auth/register", json={
            "username": f"{name}{run}", "password": "password-123", "displayName": name})
        answer.raise_for_status()
        body = answer.json()
        return body["user"]["id"], {"Authorization": "Bearer " + body["tokens"]["accessToken"]}

    def post(path, auth, body=None, key=None, expect=(200, 201)):
        headers = dict(auth)
        if key:
            headers["Idempotency-Key"] = key
        answer = session.post(base + path, json=body, headers=headers)
        if answer.status_code not in expect:
            raise SystemExit(f"deal: POST {path} answered {answer.status_code}: {answer.text[:200]}")
        return answer.json() if answer.content else None

    n = args.count
    seller_id, seller = register("seller")
    buyers = [register(f"buyer{i}") for i in range(20)]
    rivals = [register(f"rival{i}") for i in range(20)]
    deals = []
    for i in range(n):
        product = post("/products", seller, {"title": f"Chair {i}", "description": "Oak", "priceCents": 10_000,
                                             "currency": "EUR"})
        rival_id, rival = rivals[i % len(rivals)]
        rival_conversation = post("/conversations", rival, {"userId": seller_id, "productId": product["id"]})
        post(f"/conversations/{rival_conversation['id']}/offers", rival, {"amountCents": 8_000}, key=uuid.uuid4().hex)
        buyer_id, buyer = buyers[i % len(buyers)]
        conversation = post("/conversations", buyer, {"userId": seller_id, "productId": product["id"]})
        offer = post(f"/conversations/{conversation['id']}/offers", buyer, {"amountCents": 9_000}, key=uuid.uuid4().hex)
        deals.append((conversation["id"], offer["id"]))

    pg = postgres_pids() if args.backend == "postgres" else []

    def measure(name, requests_to_send):
        times = []
        server_before, pg_before = cpu_seconds([args.server_pid]), cpu_seconds(pg)
        for path, key in requests_to_send:
            started = time.perf_counter()
            post(path, seller, {"body": "Still there?"} if key else None, key=key)
            times.append((time.perf_counter() - started) * 1000)
        server_cpu = (cpu_seconds([args.server_pid]) - server_before) * 1000 / len(times)
        pg_cpu = (cpu_seconds(pg) - pg_before) * 1000 / len(times) if pg else None
        return {"backend": args.backend, "case": name, "requests": len(times),
                "p50_ms": round(statistics.median(times), 3), "p99_ms": round(percentile(times, 0.99), 3),
                "server_cpu_ms": round(server_cpu, 3), "postgres_cpu_ms": None if pg_cpu is None else round(pg_cpu, 3)}

    sends = [(f"/conversations/{c}/messages", uuid.uuid4().hex) for c, _ in deals]
    for k in range(20):  # warm-up: the connection and the server's code paths
        post(f"/conversations/{deals[k % n][0]}/messages", seller, {"body": "warm"}, key=uuid.uuid4().hex)
    results = [measure("message send (before)", sends)]
    results.append(measure("offer accept", [(f"/offers/{o}/accept", None) for _, o in deals]))
    results.append(measure("message send (after)", [(f"/conversations/{c}/messages", uuid.uuid4().hex)
                                                    for c, _ in deals]))
    yardstick = statistics.mean([results[0]["p50_ms"], results[2]["p50_ms"]])
    with open(args.out, "a") as out:
        for record in results:
            record["p50_vs_send"] = round(record["p50_ms"] / yardstick, 2)
            out.write(json.dumps(record) + "\n")
            pg_text = "" if record["postgres_cpu_ms"] is None else f"  postgres CPU {record['postgres_cpu_ms']:6.3f} ms"
            print(f"  {args.backend:8} {record['case']:24} p50 {record['p50_ms']:7.2f} ms  p99 {record['p99_ms']:7.2f} ms"
                  f"  server CPU {record['server_cpu_ms']:6.3f} ms{pg_text}  p50 {record['p50_vs_send']:.2f}× a send")


if __name__ == "__main__":
    main()
