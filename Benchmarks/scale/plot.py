#!/usr/bin/env python3
"""Draws Benchmarks/scale/results.jsonl (from run.sh) as PNG plots beside it, and prints the tables
BENCHMARKS.md shows: p99 latency against catalogue size per route, one plot per backend, with the
old LIKE search's SQL beside the full-text search.

    pip install matplotlib && python3 Benchmarks/scale/plot.py
"""
import collections
import json
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent


def load(name):
    path = HERE / name
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def main():
    results = load("results.jsonl")
    generation = load("generation.jsonl")
    by_backend = collections.defaultdict(lambda: collections.defaultdict(dict))
    for record in results:
        by_backend[record["backend"]][record["case"]][record["products"]] = record
    for backend, cases in sorted(by_backend.items()):
        figure, axes = plt.subplots(figsize=(9, 5.5))
        colours = plt.get_cmap("tab20").colors
        for index, (case, points) in enumerate(cases.items()):
            sizes = sorted(points)
            like = case.startswith("LIKE")
            axes.plot(sizes, [points[s]["p99_ms"] for s in sizes], "--" if like else "-", marker="s" if like else "o",
                      color=colours[(2 * index) % 20 + (index * 2 >= 20)], label=case)
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlabel("products in the catalogue")
        axes.set_ylabel("p99 latency (ms, log scale)")
        axes.set_title(f"bazaar-server on {backend}: p99 per route as the catalogue grows")
        axes.grid(True, which="both", alpha=0.3)
        axes.legend(fontsize=8, loc="upper left")
        figure.tight_layout()
        figure.savefig(HERE / f"scale-{backend}.png", dpi=110)
        plt.close(figure)

        sizes = sorted({size for points in cases.values() for size in points})
        print(f"\n{backend}: p50 / p99 in ms\n")
        print("| route | " + " | ".join(f"{size:,}" for size in sizes) + " |")
        print("| --- |" + " ---: |" * len(sizes))
        for case, points in cases.items():
            cells = [f"{points[s]['p50_ms']:.2f} / {points[s]['p99_ms']:.2f}" if s in points else "—" for s in sizes]
            print(f"| {case} | " + " | ".join(cells) + " |")
    if generation:
        print("\n| backend | products | photos | generation | of which products and photos | database |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for record in generation:
            print(f"| {record['backend']} | {record['products']:,} | {record.get('photos', 0):,} | {record['seconds']:.1f} s | "
                  f"{record['product_seconds']:.1f} s | {record['database_mib']:.0f} MiB |")


if __name__ == "__main__":
    main()
