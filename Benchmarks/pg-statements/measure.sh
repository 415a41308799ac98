#!/usr/bin/env bash
# What one message send (POST /v1/conversations/{id}/messages) costs PostgreSQL, counted by
# PostgreSQL itself: the SQL statements it runs, the round trips of the request's own path, and
# the commits. For comparing two builds of the server (run it once with each).
#
#   Benchmarks/pg-statements/measure.sh BAZAAR_SERVER_BINARY [MESSAGES]     # MESSAGES: default 200
#
#   e.g. swift build --product bazaar-server && Benchmarks/pg-statements/measure.sh .build/debug/bazaar-server
#
# It starts a throwaway PostgreSQL 15 cluster (scripts/postgres-cluster.sh; autovacuum off, so its
# transactions are not counted as the sends') with pg_stat_statements (track = all, track_utility =
# on) and a statement log (log_statement = all, JSON lines), starts the given bazaar-server on it
# (--postgres, port 0, bcrypt cost 4, quotas off), registers two users, opens a conversation between
# them, sends WARMUP messages (default 20), waits SETTLE_SECONDS (default 11: an idle backend may
# hold its counters up to 10 s before PostgreSQL publishes them), resets the statistics, sends
# MESSAGES messages one after another with curl, waits a second, stops the server (its backends
# publish their counters as they exit) and prints, per send:
#   1. every statement of pg_stat_statements (calls / MESSAGES, and rows / call): top-level or
#      nested (run inside a function or trigger, such as bazaar_publish's INSERT), and whose it is,
#      by its text: the send's path; the replica's event listener (LISTEN, the catch-up read of live_events, its
#      `SELECT 1` pings, its pruning); or PostgreSQL's own foreign-key checks (top-level when a
#      deferred constraint is checked at COMMIT; never a round trip);
#   2. each connection's statements and transactions, by application_name, from the log
#      (bazaar-server: the request pool; bazaar-listener: the event listener). This is the check on
#      1 (a `SELECT 1` may also be the pool's keep-alive) and it also counts the transactions that
#      run no statement: the listener's backend reads the notification queue in one of its own
#      each time notifications arrive;
#   3. the commits: the database's xact_commit delta (pg_stat_database) / MESSAGES, reconciled with
#      2, and the transaction ids assigned (the writing transactions) / MESSAGES.
# "Round trips of the send's path" are the top-level statements the request pool runs per send,
# BEGIN and COMMIT included. The listener pings once a second, so its pings per send depend on how
# long the sends took (printed). PostgreSQL 15 publishes a backend's xact_commit only after a
# transaction that touched a table, or when it exits, so the listener's pings from just before the
# window are counted in it: the reconciliation line shows how many.
#
# Nothing is kept: the cluster and the server's files are removed on exit. Needs PostgreSQL 15
# (/usr/lib/postgresql/15/bin, or PGBIN), curl and python3. Any bazaar-server of this repository
# that has --postgres will do (quotas are lifted with --no-quotas, else --message-quota 0).
# Environment: WARMUP, SETTLE_SECONDS, KEEP_LOG=FILE (keeps a copy of the JSON statement log).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PGBIN="${PGBIN:-/usr/lib/postgresql/15/bin}"
WARMUP="${WARMUP:-20}"
SETTLE_SECONDS="${SETTLE_SECONDS:-11}"

usage() { echo "usage: Benchmarks/pg-statements/measure.sh BAZAAR_SERVER_BINARY [MESSAGES]" >&2; exit 64; }
[ "$#" -ge 1 ] && [ "$#" -le 2 ] || usage
SERVER_BIN="$(realpath "$1")"
MESSAGES="${2:-200}"
[ -x "$SERVER_BIN" ] || { echo "measure: $1 is not an executable" >&2; exit 64; }
[[ "$MESSAGES" =~ ^[1-9][0-9]*$ ]] || { echo "measure: MESSAGES must be a positive number, not $MESSAGES" >&2; exit 64; }
[[ "$WARMUP" =~ ^[0-9]+$ ]] || { echo "measure: WARMUP must be a number" >&2; exit 64; }
for tool in curl python3; do
    command -v "$tool" >/dev/null || { echo "measure: needs $tool" >&2; exit 69; }
done
[ -x "$PGBIN/psql" ] || { echo "measure: $PGBIN/psql not found (apt-get install -y postgresql-15)" >&2; exit 69; }
# Read once into a variable: `grep -q` on a pipe may close it early, and pipefail then fails the line.
SERVER_HELP="$("$SERVER_BIN" serve --help 2>&1 || true)"
grep -q -- '--postgres' <<<"$SERVER_HELP" || { echo "measure: $SERVER_BIN has no --postgres" >&2; exit 64; }

# --- a throwaway cluster, the server, and their removal ------------------------------------------
WORK="$(mktemp -d "$("$ROOT/scripts/memory-folder.sh")/bazaar-pg-statements-XXXXXX")"
chmod 755 "$WORK"  # the cluster runs as `postgres` when this runs as root
CLUSTER="$WORK/cluster"
SERVER_PID=""
stop_server() {
    if [ -n "$SERVER_PID" ]; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
        SERVER_PID=""
    fi
}
cleanup() {
    stop_server
    if [ -n "${KEEP_LOG:-}" ] && [ -f "$CLUSTER/data/log/statements.json" ]; then
        cp "$CLUSTER/data/log/statements.json" "$KEEP_LOG" || true
    fi
    "$ROOT/scripts/postgres-cluster.sh" destroy "$CLUSTER" || true
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$ROOT/scripts/postgres-cluster.sh" init "$CLUSTER" auto
PORT="$(cat "$CLUSTER/port")"
ADMIN_URL="postgres://postgres@127.0.0.1:$PORT/postgres"  # this script's own queries: not the measured database
DATABASE=bazaar
SERVER_DB_URL="postgres://postgres@127.0.0.1:$PORT/$DATABASE"
sql() { "$PGBIN/psql" "$ADMIN_URL" -X -q -At -v ON_ERROR_STOP=1 "$@"; }

# pg_stat_statements must be preloaded, so these take a restart. The log is JSON lines (one object
# per statement, with its connection's application_name and transaction), in data/log/statements.json.
cat >>"$CLUSTER/data/postgresql.conf" <<'CONF'

# Benchmarks/pg-statements/measure.sh
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = all
pg_stat_statements.track_utility = on
pg_stat_statements.track_planning = on
pg_stat_statements.max = 10000
logging_collector = on
log_destination = 'jsonlog'
log_directory = 'log'
log_filename = 'statements.log'
log_rotation_age = 0
log_rotation_size = 0
log_statement = 'all'
autovacuum = off
CONF
"$ROOT/scripts/postgres-cluster.sh" stop "$CLUSTER"
"$ROOT/scripts/postgres-cluster.sh" start "$CLUSTER"
sql -c "CREATE EXTENSION pg_stat_statements" -c "CREATE DATABASE $DATABASE"
LOG="$CLUSTER/data/log/statements.json"

QUOTA_FLAGS=()
if grep -q -- '--no-quotas' <<<"$SERVER_HELP"; then QUOTA_FLAGS=(--no-quotas)
elif grep -q -- '--message-quota' <<<"$SERVER_HELP"; then QUOTA_FLAGS=(--message-quota 0)
else echo "measure: warning: no flag lifts the message quota; sends past it will fail" >&2; fi

source "$ROOT/scripts/start-server.sh"
start_server "$WORK/server.out" "$WORK/server.err" \
    env BAZAAR_SIGNING_KEY="$(head -c 32 /dev/urandom | base64)" "$SERVER_BIN" --host 127.0.0.1 --port 0 \
    --postgres "$SERVER_DB_URL" --bcrypt-cost 4 "${QUOTA_FLAGS[@]}" --log-level error
SERVER_PID="$SERVER_STARTED_PID"
URL="$SERVER_STARTED_URL"
echo "measure: $SERVER_BIN at $URL on PostgreSQL 127.0.0.1:$PORT/$DATABASE" >&2

# --- the API -------------------------------------------------------------------------------------
# post PATH JSON [TOKEN] [IDEMPOTENCY_KEY]: the status; the body is left in $WORK/response.
post() {
    local headers=(-H 'Content-Type: application/json')
    [ -n "${3:-}" ] && headers+=(-H "Authorization: Bearer $3")
    [ -n "${4:-}" ] && headers+=(-H "Idempotency-Key: $4")
    curl -sS --max-time 10 -o "$WORK/response" -w '%{http_code}' -X POST "${headers[@]}" --data "$2" "$URL$1"
}
# field EXPRESSION: a field of $WORK/response (a Python expression over `r`).
field() { python3 -c "import json, sys; r = json.load(open(sys.argv[1])); print($1)" "$WORK/response"; }
expect() {  # expect WHAT STATUS ACCEPTED...: fails unless STATUS is one of ACCEPTED
    local what="$1" status="$2"
    shift 2
    for accepted in "$@"; do [ "$status" = "$accepted" ] && return 0; done
    echo "measure: $what answered $status: $(cat "$WORK/response")" >&2
    exit 1
}

register() {  # register USERNAME: sets USER_ID and TOKEN
    local status
    status="$(post /v1/auth/register "{\"username\":\"$1\",\"password\":\"measure-password\",\"displayName\":\"$1\"}")"
    expect "registering $1" "$status" 201
    USER_ID="$(field "r['user']['id']")"
    TOKEN="$(field "r['tokens']['accessToken']")"
}
register measure_sender; SENDER_TOKEN="$TOKEN"
register measure_recipient; RECIPIENT_ID="$USER_ID"
status="$(post /v1/conversations "{\"userId\":\"$RECIPIENT_ID\"}" "$SENDER_TOKEN")"
expect "starting the conversation" "$status" 200 201
CONVERSATION="$(field "r['id']")"

send() {  # send KEY: one message, which must be created
    local status
    status="$(post "/v1/conversations/$CONVERSATION/messages" "{\"body\":\"message $1\"}" "$SENDER_TOKEN" "$1")"
    expect "send $1" "$status" 201
}

# --- the measurement -----------------------------------------------------------------------------
for i in $(seq 1 "$WARMUP"); do send "warmup-$i"; done
# Backends publish their counters to pg_stat_database when idle, at most once a second and, when
# they are due sooner, within 10 s: the warm-up's must be in before the first snapshot.
sleep "$SETTLE_SECONDS"

SNAPSHOT="SELECT xact_commit, xact_rollback, pg_snapshot_xmax(pg_current_snapshot()) FROM pg_stat_database WHERE datname = '$DATABASE'"
sql -c "SELECT pg_stat_statements_reset()" >/dev/null
sql -c "SELECT 'bazaar-measure: window start'" >/dev/null  # in the log: where the window starts
before="$(sql -F ' ' -c "$SNAPSHOT")"

started="$(date +%s.%N)"
for i in $(seq 1 "$MESSAGES"); do send "measure-$i"; done
finished="$(date +%s.%N)"

# The listener reads the last events; then the server stops, and its backends publish their
# counters as they exit, so the second snapshot has every one of them.
sleep 1
stop_server
for _ in $(seq 1 100); do
    [ "$(sql -c "SELECT count(*) FROM pg_stat_activity WHERE datname = '$DATABASE'")" = 0 ] && break
    sleep 0.1
done
sleep 0.5
sql -c "SELECT 'bazaar-measure: window end'" >/dev/null
after="$(sql -F ' ' -c "$SNAPSHOT")"
# Whitespace folded to one space, so each statement is one line of tab-separated fields.
sql -F $'\t' -c "
    SELECT calls, rows, toplevel, total_plan_time, total_exec_time, regexp_replace(query, '\s+', ' ', 'g')
    FROM pg_stat_statements JOIN pg_database d ON d.oid = dbid
    WHERE d.datname = '$DATABASE' ORDER BY toplevel DESC, calls DESC, query" >"$WORK/statements.tsv"

# --- the report ----------------------------------------------------------------------------------
python3 - "$MESSAGES" "$before" "$after" "$started" "$finished" "$WORK/statements.tsv" "$LOG" "$DATABASE" "$SERVER_BIN" <<'PY'
import json, re, sys
from collections import defaultdict

n = int(sys.argv[1])
commit0, rollback0, xid0 = map(int, sys.argv[2].split())
commit1, rollback1, xid1 = map(int, sys.argv[3].split())
elapsed = float(sys.argv[5]) - float(sys.argv[4])
statements_file, log_file, database, binary = sys.argv[6:10]
POOL, LISTENER = "bazaar-server", "bazaar-listener"  # the application_name of each connection

# The replica's event listener (PostgresEventListener), known by the text of its statements.
LISTENER_TEXTS = [
    re.compile(r"^(UN)?LISTEN\b", re.I),
    re.compile(r"\bFROM live_events WHERE seq >", re.I),  # the catch-up read
    re.compile(r"^SELECT \$?1;?$", re.I),  # its ping (the pool's keep-alive reads the same; see the log)
    re.compile(r"^DELETE FROM (live_events|login_failures)\b", re.I),  # pruning, once a minute
]
# PostgreSQL's own check of a foreign key (ri_triggers.c).
FK_CHECK = re.compile(r'^SELECT 1 FROM ONLY "[^"]+"\."[^"]+" x WHERE .* FOR KEY SHARE OF x$')

def whose(text):
    if FK_CHECK.match(text):
        return "fk-check"
    return "listener" if any(p.search(text) for p in LISTENER_TEXTS) else "send"

def short(text, width=96):
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."

def per(count):
    return f"{count / n:.3f}"

# 1. pg_stat_statements.
print(f"== {binary}")
print(f"   {n} sends in {elapsed:.1f} s ({n / elapsed:.0f}/s), one after another")
print()
print(f"Statements per send (pg_stat_statements, database {database}):")
print(f"  {'per send':>8}  {'rows/call':>9}  {'plan ms':>7}  {'exec ms':>7}  {'level':<6}  {'whose':<8}  statement")
totals = defaultdict(int)
with open(statements_file) as f:
    for line in f:
        calls, rows, toplevel, plan_ms, exec_ms, text = line.rstrip("\n").split("\t", 5)
        level = "top" if toplevel == "t" else "nested"
        totals[(level, whose(text))] += int(calls)
        # Per call; a nested statement's time is also inside the statement that ran it.
        plan, execute = float(plan_ms) / int(calls), float(exec_ms) / int(calls)
        print(f"  {int(calls) / n:8.3f}  {int(rows) / int(calls):9.2f}  {plan:7.3f}  {execute:7.3f}  {level:<6}  "
              f"{whose(text):<8}  {short(text)}")
top_send, top_listener = totals[("top", "send")], totals[("top", "listener")]
nested = sum(count for (level, _), count in totals.items() if level == "nested")
print(f"  top-level, sent by the server: {per(top_send + top_listener)} = the send's path {per(top_send)}"
      f" + the listener {per(top_listener)}")
print(f"  run by PostgreSQL itself: {per(totals[('top', 'fk-check')])} deferred foreign-key checks at COMMIT,"
      f" {per(nested)} nested statements (in functions and triggers)")
print()

# 2. The statement log between this script's markers: each backend's statements, and its
# transactions counted by local transaction id (the number after the slash of vxid), which every
# transaction takes, one after another, whether or not it runs a statement that is logged.
app_of, last_before, logged_lxids, max_lxid = {}, {}, defaultdict(set), {}
statements, texts = defaultdict(int), defaultdict(lambda: defaultdict(int))
window = None
with open(log_file) as f:
    for line in f:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        message = entry.get("message", "")
        if "bazaar-measure: window start" in message:
            window = True
            continue
        if "bazaar-measure: window end" in message:
            window = False
            break
        match = re.match(r"^(statement|execute [^:]*): (.*)$", message, re.S)
        if entry.get("dbname") != database or not match or "/" not in str(entry.get("vxid", "")):
            continue
        pid, lxid = entry["pid"], int(entry["vxid"].split("/")[1])
        if not window:
            last_before[pid] = lxid
            continue
        application = entry.get("application_name") or "(none)"
        app_of[pid] = application
        statements[application] += 1
        texts[application][short(match.group(2), 72)] += 1
        logged_lxids[pid].add(lxid)
        max_lxid[pid] = max(lxid, max_lxid.get(pid, 0))
if window is not False:
    sys.exit("measure: the statement log lacks this script's window markers")
transactions, silent = defaultdict(int), defaultdict(int)
for pid, application in app_of.items():
    first = last_before.get(pid, min(logged_lxids[pid]) - 1)  # a backend that started in the window
    transactions[application] += max_lxid[pid] - first
    silent[application] += max_lxid[pid] - first - len(logged_lxids[pid])

print("Per connection (PostgreSQL's statement log, by application_name), per send:")
print(f"  {'application':<16}  {'statements':>10}  {'transactions':>12}  {'of which without a statement':>28}")
for application in sorted(statements):
    print(f"  {application:<16}  {per(statements[application]):>10}  {per(transactions[application]):>12}"
          f"  {per(silent[application]):>28}")
for application in sorted(texts):
    print(f"  {application}:")
    for text, count in sorted(texts[application].items(), key=lambda item: (-item[1], item[0])):
        print(f"    {count / n:8.3f}  {text}")
if statements[POOL] != top_send or statements[LISTENER] != top_listener:
    print(f"  NOTE: by connection, the send's path ran {per(statements[POOL])} and the listener"
          f" {per(statements[LISTENER])} per send: the split by text above is off (the pool's keep-alive?)")
print()

# 3. Commits.
commits, rollbacks, xids = commit1 - commit0, rollback1 - rollback0, xid1 - xid0
logged_transactions = sum(transactions.values())
print("Commits:")
print(f"  xact_commit delta (pg_stat_database): {commits} / {n} = {per(commits)} per send; rollbacks: {rollbacks}")
print(f"    = {logged_transactions} transactions of the window by the log ({POOL} {transactions[POOL]},"
      f" {LISTENER} {transactions[LISTENER]}) + {commits - logged_transactions} not in it: transactions"
      " from before it that PostgreSQL published late (the listener's pings; see this script's header)")
print(f"  transaction ids assigned (writing transactions): {xids} / {n} = {per(xids)} per send")
print()
print("Summary per send:")
print(f"  the send's path: {per(statements[POOL])} round trips, {per(transactions[POOL])} transactions"
      f" ({per(xids)} writing)")
print(f"  the listener:    {per(statements[LISTENER])} statements, {per(transactions[LISTENER])} transactions"
      f" ({per(silent[LISTENER])} without a statement: notification reads; it pings once a second, {elapsed:.1f} s here)")
print(f"  commits:         {per(commits)} (xact_commit delta / sends)")
PY
