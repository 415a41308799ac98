#!/usr/bin/env python3
"""What photos cost one running bazaar-server: uploads (time to 201 and server CPU per photo), the
memory sixteen simultaneous 5 MiB uploads take, and how fast a thumbnail is served beside a
product-list GET.

The photos are camera-sized JPEGs (4000 × 3000, just under the 5 MiB upload limit) that Chromium
draws (gradients with noise, which compress as a phone photo does), so nothing is downloaded.

1. Sequential uploads: one at a time over one keep-alive connection; p50 and p99 of the time from
   the request to the 201, and the server's CPU (user + system, /proc) per photo.
2. Sixteen at once, in rounds: sixteen threads post at the same instant, while another thread reads
   the product list; the server's RSS is sampled every 10 ms. Reported: RSS before, peak, after;
   how many uploads were taken (201) or turned away at once (503 with Retry-After); the list GET's
   p99 during the bursts.
3. Throughput: wrk on a photo's `thumb` and on `GET /v1/products?limit=20`, the same settings.
"""
import argparse
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys
import threading
import time
import uuid

import requests

# The browser tests' pictures: the same camera-sized JPEG drawn by Chromium.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "Browser"))
import pictures  # noqa: E402

CHROMIUM = os.environ.get("BAZAAR_CHROMIUM", "/usr/bin/chromium")
LIMIT = 5 * 1024 * 1024


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def camera_photos(count, width=4000, height=3000):
    """`count` different JPEGs of `width` × `height`, each as large as fits under the upload limit."""
    from playwright.sync_api import sync_playwright
    photos = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        quality = 0.92
        for index in range(count):
            while True:
                data = pictures.camera_jpeg(page, width, height, seed=17 + index, quality=quality)
                if len(data) <= LIMIT:
                    break
                quality -= 0.03
            photos.append(data)
        browser.close()
    return photos


def wrk(url, duration, connections):
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--latency", url],
                         capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+\w+)", out).group(1)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"requests_per_second": rate, "p99": p99, "non_2xx": int(errors.group(1)) if errors else 0}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True)
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--uploads", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    base = args.server.rstrip("/") + "/v1"
    run = uuid.uuid4().hex[:6]
    pid = args.server_pid
    print("drawing camera-sized photos in Chromium…", flush=True)
    photos = camera_photos(4)
    print(f"photos: {[len(p) for p in photos]} bytes", flush=True)

    def seller(name):
        session = requests.Session()
        answer = session.post(base + "/auth/register", json={
            "username": f"{name}{run}", "password": "password-123", "displayName": name})
        answer.raise_for_status()
        session.headers["Authorization"] = "Bearer " + answer.json()["tokens"]["accessToken"]
        return session

    def product(session, title):
        answer = session.post(base + "/products", json={
            "title": title, "description": "", "priceCents": 1000, "currency": "EUR"})
        answer.raise_for_status()
        return answer.json()["id"]

    # 1. Sequential uploads, eight to a product (the most one takes).
    uploader = seller("seq")
    times, products, last = [], [], None
    cpu_before = cpu_seconds(pid)
    for index in range(args.uploads):
        if index % 8 == 0:
            products.append(product(uploader, f"Sequential {index // 8}"))
        started = time.perf_counter()
        answer = uploader.post(f"{base}/products/{products[-1]}/photos", data=photos[index % len(photos)],
                               headers={"Content-Type": "image/jpeg"})
        times.append(time.perf_counter() - started)
        if answer.status_code != 201:
            raise SystemExit(f"photos: upload answered {answer.status_code}: {answer.text[:200]}")
        last = answer.json()
    cpu_per_photo = (cpu_seconds(pid) - cpu_before) / args.uploads
    sequential = {
        "uploads": args.uploads, "upload_bytes": statistics.mean(len(p) for p in photos),
        "p50_ms": percentile(times, 0.5) * 1000, "p99_ms": percentile(times, 0.99) * 1000,
        "server_cpu_ms_per_photo": cpu_per_photo * 1000}
    print("sequential:", json.dumps(sequential), flush=True)

    # 2. Sixteen at once, a few rounds, with the list read beside them and RSS sampled.
    rss, statuses, list_times = [], {}, []
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            rss.append(rss_mib(pid))
            time.sleep(0.01)

    def read_list():
        reader = requests.Session()
        while not stop.is_set():
            started = time.perf_counter()
            reader.get(base + "/products?limit=20").raise_for_status()
            list_times.append(time.perf_counter() - started)

    rss_before = rss_mib(pid)
    watchers = [threading.Thread(target=sample), threading.Thread(target=read_list)]
    for watcher in watchers:
        watcher.start()
    for round_number in range(args.rounds):
        sellers = [seller(f"burst{round_number}x{i}") for i in range(16)]
        targets = [product(s, f"Burst {round_number}") for s in sellers]
        gate = threading.Barrier(16)

        def upload(session, target, photo):
            gate.wait()
            answer = session.post(f"{base}/products/{target}/photos", data=photo, headers={"Content-Type": "image/jpeg"})
            key = str(answer.status_code) + ("" if answer.status_code != 503 else
                                             f" (Retry-After {answer.headers.get('Retry-After')})")
            statuses[key] = statuses.get(key, 0) + 1

        threads = [threading.Thread(target=upload, args=(s, t, photos[i % len(photos)]))
                   for i, (s, t) in enumerate(zip(sellers, targets))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        time.sleep(0.5)
    time.sleep(1)
    stop.set()
    for watcher in watchers:
        watcher.join()
    burst = {
        "rounds": args.rounds, "statuses": statuses, "rss_before_mib": round(rss_before, 1),
        "rss_peak_mib": round(max(rss), 1), "rss_after_mib": round(rss_mib(pid), 1),
        "list_get_p50_ms_during": percentile(list_times, 0.5) * 1000,
        "list_get_p99_ms_during": percentile(list_times, 0.99) * 1000, "list_gets": len(list_times)}
    print("sixteen at once:", json.dumps(burst), flush=True)

    # 3. Throughput: a thumbnail beside the product list, same wrk settings.
    thumb = args.server.rstrip("/") + last["photos"][-1]["thumbURL"]
    listing = base + "/products?limit=20"
    throughput = {
        "thumb": wrk(thumb, args.duration, 16), "product_list": wrk(listing, args.duration, 16),
        "thumb_bytes": len(requests.get(thumb).content), "list_bytes": len(requests.get(listing).content)}
    throughput["thumb_over_list"] = (throughput["thumb"]["requests_per_second"]
                                     / throughput["product_list"]["requests_per_second"])
    print("throughput:", json.dumps(throughput), flush=True)
    with open(args.out, "a") as out:
        out.write(json.dumps({"date": time.strftime("%Y-%m-%d %H:%M"), "sequential": sequential,
                              "sixteen_at_once": burst, "throughput": throughput}) + "\n")


if __name__ == "__main__":
    main()
