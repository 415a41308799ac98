#!/usr/bin/env python3
"""Latency of the catalogue's routes on one running bazaar-server, and of the old LIKE search's SQL
on the same database, as JSON lines appended to --out.

Every HTTP request differs from the ones before it (another word, page size or product), so the
server's encoded-response cache never answers: what is timed is the route's own work. Requests go
one at a time over one keep-alive connection; each figure is the time from sending to the last
byte of the answer, measured here.

The LIKE figures are the old search's statement alone (SQLite through Python's sqlite3, the same
library the server links; PostgreSQL through one psql session, EXPLAIN ANALYZE's execution time),
without HTTP or JSON, so the comparison favours LIKE.
"""
import argparse
import json
import random
import re
import sqlite3
import statistics
import subprocess
import time

import requests

COMMON = ["bike", "table", "chair", "lamp", "guitar", "jacket", "camera", "sofa", "desk", "boots", "tent",
          "kettle", "phone", "mirror", "speaker", "piano", "backpack", "blender", "barbecue", "novel"]
RARE = ["theodolite", "harpsichord", "sextant", "astrolabe", "zither", "orrery", "pianola"]
LIKE_SQL = ("SELECT * FROM products WHERE (LOWER(title) LIKE {p} ESCAPE '\\' OR LOWER(description) LIKE {p} "
            "ESCAPE '\\') ORDER BY seq DESC LIMIT 21")
# The same, ranked as the search ranks (title matches first, newest first within each): what LIKE
# costs when it must give the full-text search's answer, not only the newest matches.
LIKE_RANKED_SQL = ("SELECT * FROM products WHERE (LOWER(title) LIKE {p} ESCAPE '\\' OR LOWER(description) LIKE {p} "
                   "ESCAPE '\\') ORDER BY (LOWER(title) LIKE {p} ESCAPE '\\') DESC, seq DESC LIMIT 21")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


class Database:
    """Reads ids for the requests, and runs the LIKE statement, on SQLite or PostgreSQL."""

    def __init__(self, sqlite_path=None, postgres_url=None):
        self.sqlite = sqlite3.connect(sqlite_path) if sqlite_path else None
        self.postgres_url = postgres_url

    def rows(self, sql):
        if self.sqlite:
            return self.sqlite.execute(sql).fetchall()
        out = subprocess.run(["psql", self.postgres_url, "-AtF", "\t", "-c", sql], check=True, capture_output=True, text=True)
        return [tuple(line.split("\t")) for line in out.stdout.splitlines() if line]

    def like_times(self, words, sql=LIKE_SQL):
        """Milliseconds of the LIKE statement `sql` for each word."""
        if self.sqlite:
            times = []
            for word in words:
                pattern = f"%{word.lower()}%"
                started = time.perf_counter()
                self.sqlite.execute(sql.format(p=":p"), {"p": pattern}).fetchall()
                times.append((time.perf_counter() - started) * 1000)
            return times
        script = "\n".join("EXPLAIN (ANALYZE, TIMING OFF) " + sql.format(p="'%" + word.lower() + "%'") + ";"
                           for word in words)
        out = subprocess.run(["psql", self.postgres_url, "-At"], input=script, check=True, capture_output=True, text=True)
        return [float(m) for m in re.findall(r"Execution Time: ([0-9.]+) ms", out.stdout)]


def timed(session, url, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    started = time.perf_counter()
    response = session.get(url, headers=headers)
    elapsed = (time.perf_counter() - started) * 1000
    if response.status_code != 200:
        raise SystemExit(f"measure: {url} answered {response.status_code}: {response.text[:200]}")
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--server", required=True)
    parser.add_argument("--backend", required=True)
    parser.add_argument("--products", type=int, required=True)
    parser.add_argument("--sold-share", type=float, default=0.0)
    parser.add_argument("--sqlite")
    parser.add_argument("--postgres")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--like-requests", type=int, default=20)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    database = Database(args.sqlite, args.postgres)
    rng = random.Random(17)
    session = requests.Session()
    base = args.server.rstrip("/") + "/v1"
    n = args.requests

    ids = [row[0] for row in database.rows(f"SELECT id FROM products ORDER BY random() LIMIT {n}")]
    photos = database.rows(f"SELECT product_id, id FROM product_photos ORDER BY random() LIMIT {n}")
    conversations = database.rows(
        "SELECT c.id, u.username FROM conversations c JOIN users u ON u.id = c.user_low ORDER BY random() LIMIT 20")
    tokens = {}
    for _, username in conversations:
        if username not in tokens:
            answer = session.post(base + "/auth/login", json={"username": username, "password": "bazaar-demo"})
            answer.raise_for_status()
            tokens[username] = answer.json()["tokens"]["accessToken"]

    def limit(i):
        return 20 + i % 80

    cases = {
        # Pages from anywhere in the list (a cursor names a position), so no two are the same.
        "list": [f"{base}/products?limit=20&cursor=p.{rng.randrange(22, args.products + 2)}" for i in range(n)],
        "search, common word": [f"{base}/products?query={COMMON[i % len(COMMON)]}&limit={limit(i // len(COMMON))}" for i in range(n)],
        "search, rare word": [f"{base}/products?query={RARE[i % len(RARE)]}&limit={limit(i // len(RARE))}" for i in range(n)],
        "search, no hits": [f"{base}/products?query=zq{i}x{rng.randrange(10**6)}&limit=20" for i in range(n)],
        "search with a filter": [
            f"{base}/products?query={COMMON[i % len(COMMON)]}&maxPriceCents={2000 + 10 * i}&limit=20" for i in range(n)],
        "detail": [f"{base}/products/{ids[i % len(ids)]}" for i in range(n)],
    }
    if photos:
        cases["photo"] = [f"{base}/products/{photos[i % len(photos)][0]}/photos/{photos[i % len(photos)][1]}" for i in range(n)]
    for k in range(20):  # warm-up: the connection, the server's code paths, the database's caches
        timed(session, f"{base}/products?query=warm{k}&limit=20")
        timed(session, f"{base}/products?query={COMMON[k % len(COMMON)]}&sort=newest&limit={20 + k}")
    results = []
    for name, urls in cases.items():
        results.append((name, [timed(session, url) for url in urls]))
    history = []
    for i in range(n):
        conversation, username = conversations[i % len(conversations)]
        history.append(timed(session, f"{base}/conversations/{conversation}/messages?limit={20 + i % 30}", tokens[username]))
    results.append(("message history", history))
    m = args.like_requests
    results.append(("LIKE (SQL only), common word", database.like_times([COMMON[i % len(COMMON)] for i in range(m)])))
    results.append(("LIKE ranked (SQL only), common word",
                    database.like_times([COMMON[i % len(COMMON)] for i in range(m)], LIKE_RANKED_SQL)))
    results.append(("LIKE (SQL only), rare word", database.like_times([RARE[i % len(RARE)] for i in range(m)])))
    results.append(("LIKE (SQL only), no hits", database.like_times([f"zq{i}x" for i in range(m)])))

    with open(args.out, "a") as out:
        for name, times in results:
            record = {
                "backend": args.backend, "products": args.products, "sold_share": args.sold_share, "case": name,
                "requests": len(times),
                "p50_ms": round(statistics.median(times), 3), "p99_ms": round(percentile(times, 0.99), 3),
                "max_ms": round(max(times), 3),
            }
            out.write(json.dumps(record) + "\n")
            print(f"  {args.backend:8} {args.products:>8} {args.sold_share:4.2f} {name:48} p50 {record['p50_ms']:8.2f} ms  p99 {record['p99_ms']:8.2f} ms")


if __name__ == "__main__":
    main()
