#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL 15 beside it, then removes the cluster.
#
#   scripts/with-postgres.sh swift test
#   scripts/with-postgres.sh swift test --filter Storage
#
# The cluster listens on 127.0.0.1 on a free port, in a folder in /dev/shm (else /tmp), with fsync
# off (fast; PG_DURABLE=1 turns it on, for benchmarks). The command sees BAZAAR_TEST_POSTGRES_URL
# (the server's own database, which tests use to create a database each), and BAZAAR_TEST_POSTGRES_CLUSTER (this repository's
# scripts/postgres-cluster.sh, so a fault test can run a cluster of its own that it may stop).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"

[ "$#" -gt 0 ] || { echo "usage: scripts/with-postgres.sh COMMAND [ARGS...]" >&2; exit 64; }
if [ ! -x /usr/lib/postgresql/15/bin/initdb ]; then
    echo "with-postgres: installing postgresql-15" >&2
    apt-get update && apt-get install -y postgresql-15
fi

# The folder for the throwaway cluster: memory (scripts/memory-folder.sh) unless PG_DURABLE=1 asks
# for fsyncs that mean something. Tests create a database each, hundreds of files apiece, and on
# ext4 creating files right after many were deleted held both cores for seconds at a run's start.
if [ "${PG_DURABLE:-0}" = 1 ]; then parent=/tmp; else parent="$("$ROOT/scripts/memory-folder.sh")"; fi
dir="$(mktemp -d "$parent/bazaar-pg-XXXXXX")"
chmod 755 "$dir"
trap '"$ROOT/scripts/postgres-cluster.sh" destroy "$dir/cluster"; rm -rf "$dir"' EXIT
"$ROOT/scripts/postgres-cluster.sh" init "$dir/cluster" auto
port="$(cat "$dir/cluster/port")"
echo "with-postgres: PostgreSQL 15 on 127.0.0.1:$port ($dir)" >&2

export BAZAAR_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres"
export BAZAAR_TEST_POSTGRES_CLUSTER="$ROOT/scripts/postgres-cluster.sh"
# Where a test's own cluster goes (PostgresCluster), beside this one.
export BAZAAR_TEST_POSTGRES_PARENT="$parent"
"$@"
