#!/usr/bin/env python3
"""Prints each benchmark figure beside its yardstick from one `swift package benchmark --format jmh` run.

Reads the JMH JSON on stdin (or a file given as the argument), pairs benchmarks named
"<group>: <variant>" with their group's yardstick, and prints a table of p50 times, allocations per
request, and the ratio with its target. Exits 1 when a named target is missed, so a regression is loud.
"""
import json
import sys

# (group, yardstick variant, measured variant, how the ratio reads, target or None, operations per
# measured unit): network benchmarks record one iteration (one request, or 32 for the concurrent
# group); builder and resolve benchmarks use scalingFactor .kilo, so their values are per 1000.
# "throughput" ratios are yardstick time / measured time (1.0 = as fast as the yardstick);
# "speedup" ratios are the same quotient read as "N× faster than the yardstick".
PAIRS = [
    ("Page GET sequential", "raw AsyncHTTPClient", "client stack", "throughput", 0.95, 1),
    ("Page GET x32 concurrent", "raw AsyncHTTPClient", "client stack", "throughput", 0.95, 32),
    # The same figures against AsyncHTTPClient's API whose deadline covers the body, as the kit's does.
    ("Page GET sequential", "raw AsyncHTTPClient, whole-answer deadline", "client stack", "throughput", None, 1),
    ("Page GET x32 concurrent", "raw AsyncHTTPClient, whole-answer deadline", "client stack", "throughput", None, 32),
    ("Page GET sequential", "raw AsyncHTTPClient", "raw AsyncHTTPClient, whole-answer deadline", "throughput", None, 1),
    ("Transport", "URLSession", "AsyncHTTPClient", "speedup", None, 1),
    ("Product GET", "network", "fresh cache hit", "speedup", 20.0, 1),
    ("Page GET", "network", "304 revalidation", "speedup", None, 1),
    ("Build JSON request", "by hand", "URLRequestBuilder", "throughput", None, 1000),
    ("Build multipart request", "by hand", "URLRequestBuilder", "throughput", None, 1000),
    ("Resolve shared", "Swinject", "DependencyManager", "speedup", 10.0, 1000),
    ("Resolve shared", "swift-dependencies", "DependencyManager", "speedup", None, 1000),
    ("Resolve new instance", "Swinject", "DependencyManager", "speedup", 10.0, 1000),
    ("Resolve new instance", "swift-dependencies", "DependencyManager", "speedup", None, 1000),
]


def load(stream):
    """Reads every JSON array in the stream (the tool may print other lines around it)."""
    results = {}
    for line in stream:
        line = line.strip()
        if not line.startswith("[{"):
            continue
        for element in json.loads(line):
            key = element["benchmark"].split(".", 3)[-1].replace("_", " ")
            metrics = {"Throughput (# / s)": element["primaryMetric"]}
            metrics.update(element.get("secondaryMetrics", {}))
            results[key] = metrics
    return results


def p50(metrics, name):
    metric = metrics.get(name)
    return None if metric is None else metric["scorePercentiles"]["50.0"]


def main():
    stream = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
    results = load(stream)
    if not results:
        print("no benchmark results found in the input", file=sys.stderr)
        return 2
    missed = []
    print(f"{'figure (p50 per request or operation)':<100} {'µs':>10} {'yardstick':>10} {'ratio':>8} {'target':>7} {'allocs':>14}")
    for group, yardstick, measured, kind, target, per_iteration in PAIRS:
        mine, theirs = results.get(f"{group}: {measured}"), results.get(f"{group}: {yardstick}")
        if mine is None or theirs is None:
            continue
        t_mine = p50(mine, "Time (wall clock)") / per_iteration
        t_theirs = p50(theirs, "Time (wall clock)") / per_iteration
        ratio = t_theirs / t_mine
        shown = f"{ratio:.2f}" if kind == "throughput" else f"{ratio:.1f}×"
        goal = "" if target is None else (f"≥ {target:.2f}" if kind == "throughput" else f"≥ {target:.0f}×")
        allocs = ""
        m_mine, m_theirs = p50(mine, "Malloc (total)"), p50(theirs, "Malloc (total)")
        if m_mine is not None and m_theirs is not None:
            allocs = f"{m_mine / per_iteration:.0f} vs {m_theirs / per_iteration:.0f}"
        label = f"{group}: {measured} vs {yardstick}"
        flag = ""
        if target is not None and ratio < target:
            flag = "  MISSED"
            missed.append(label)
        print(f"{label:<100} {t_mine:>10.3f} {t_theirs:>10.3f} {shown:>8} {goal:>7} {allocs:>14}{flag}")
    if missed:
        sys.stdout.flush()
        print("targets missed: " + "; ".join(missed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
