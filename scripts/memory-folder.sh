#!/usr/bin/env bash
# Prints a folder for throwaway test files: /dev/shm (memory) when it is writable with 2 GiB free,
# else /tmp. Test runs create and delete thousands of files (SQLite databases, PostgreSQL's), which
# costs seconds of both cores on ext4; in memory it costs next to nothing. The files are as real
# (SQLite, WAL and all); only fsync becomes free, so benchmarks of durability must not use it.
set -euo pipefail
free_kib="$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')"
if [ -n "$free_kib" ] && [ "$free_kib" -ge 2097152 ] && [ -w /dev/shm ]; then echo /dev/shm; else echo /tmp; fi
