#!/usr/bin/env bash
# Benchmark (not a test): how fast `html2rss serve` answers /rss for stored feeds, and how much
# memory it holds with SOURCES stored sources.
#
#   scripts/bench_rss.sh            # 10,000 sources, 64 connections, 20 s per scenario
#   SOURCES=2000 DURATION=10s scripts/bench_rss.sh
#   DB=postgres://postgres@%2Frun%2Fpostgresql/bench scripts/bench_rss.sh   # an empty PostgreSQL database
#
# Two scenarios, each with wrk (Debian's `wrk`) at 64 connections over 2 threads:
#   hot: requests spread over HOT feeds (readers polling popular feeds: rendered text cached);
#   all: requests spread over every stored feed (mostly a stored render read from the store);
#   and, as the baseline of the same run, /healthz (the HTTP stack alone): the feed scenarios
#   are reported as a ratio of its requests/s.
# Reports requests/s, p50/p99 latency, the server's resident memory (now and peak; its own and
# the mapped file pages), and the machine's load average before and after, since other work on
# the machine skews the figures.
set -euo pipefail
cd "$(dirname "$0")/.."

SOURCES=${SOURCES:-10000}
HOT=${HOT:-100}
DURATION=${DURATION:-20s}
CONNECTIONS=${CONNECTIONS:-64}
# The store: a new SQLite file in the work directory, or DB (an empty PostgreSQL database).
DB=${DB:-}

if ! command -v wrk >/dev/null 2>&1; then
    echo "wrk is missing: apt-get install -y wrk" >&2
    exit 1
fi
cargo build --release --quiet --bin html2rss --example seed_feeds

work=$(mktemp -d)
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

echo "seeding $SOURCES sources of 20 items..."
db=${DB:-$work/feeds.db}
target/release/examples/seed_feeds "$db" "$SOURCES" > "$work/all.txt"
head -n "$HOT" "$work/all.txt" > "$work/hot.txt"
cat > "$work/html2rss.toml" <<TOML
listen = "127.0.0.1:0"
db = "$db"
admin_token = "bench"
TOML
cat > "$work/paths.lua" <<'LUA'
local paths = {}
for line in io.lines(os.getenv("PATHS_FILE")) do paths[#paths + 1] = line end
math.randomseed(os.time())
request = function() return wrk.format("GET", paths[math.random(#paths)]) end
local shown = 0
response = function(status, headers, body)
    if status ~= 200 and shown < 3 then shown = shown + 1; print("unexpected answer: " .. status .. " " .. body) end
end
LUA

target/release/html2rss serve --config "$work/html2rss.toml" 2> "$work/server.log" &
server=$!
for _ in $(seq 100); do
    address=$(sed -n 's|^html2rss listening on http://\([^ ]*\).*|\1|p' "$work/server.log")
    [ -n "$address" ] && break
    sleep 0.1
done
[ -n "$address" ] || { cat "$work/server.log"; exit 1; }

# RssAnon is the server's own memory; RssFile the pages of files it maps, the SQLite file's
# among them (SQLite reads it memory-mapped): the OS's page cache, counted once for each
# connection that touched a page, which holds them whether or not they are mapped.
memory() { awk '/^VmRSS|^VmHWM|^RssAnon|^RssFile/ {printf "%s %d MiB  ", $1, $2 / 1024}' "/proc/$server/status"; }
echo "server pid $server on $address; idle: $(memory)"

run() {
    local name=$1 file=$2
    # One pass over the paths first, so that the run measures serving, not first renders.
    while read -r path; do curl -s -o /dev/null "http://$address$path"; done < "$file"
    echo "== $name: $(wc -l < "$file") feeds, $CONNECTIONS connections, $DURATION; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    PATHS_FILE="$file" wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$work/paths.lua" "http://$address" > "$work/$name.wrk"
    local rps p50 p99
    rps=$(awk '/^Requests\/sec/ {print $2}' "$work/$name.wrk")
    p50=$(awk '$1 == "50%" {print $2}' "$work/$name.wrk")
    p99=$(awk '$1 == "99%" {print $2}' "$work/$name.wrk")
    local ratio=""
    [ -n "${baseline_rps:-}" ] && ratio=$(awk -v a="$rps" -v b="$baseline_rps" 'BEGIN {printf "(%.2f of /healthz)", a / b}')
    echo "   requests/s $rps $ratio  p50 $p50   p99 $p99   errors: $(grep -E 'Non-2xx|Socket errors|unexpected' "$work/$name.wrk" | head -4 || true)"
    last_rps=$rps
    echo "   server memory: $(memory)  load after: $(cut -d' ' -f1-3 /proc/loadavg)"
}

echo /healthz > "$work/healthz.txt"
run healthz "$work/healthz.txt"
baseline_rps=$last_rps
run hot "$work/hot.txt"
if [ "$HOT" -lt "$SOURCES" ]; then
    run all "$work/all.txt"
fi
curl -s "http://$address/metrics" | grep -E '^html2rss_feed_cache|^html2rss_sources ' || true
