#!/usr/bin/env python3
"""Fault-injection soak (a benchmark, not a CI test).

SOURCES list pages on HOSTS loopback addresses (scripts/soak_pages.py), FAIL of the requests
failing at random (500s, hangs past the fetch timeout, resets, garbage, truncated bodies);
the real server (release build) with the updater's intervals divided by 6, so that the run's
DURATION seconds are six times as much updater work; `kill -9` every KILL_EVERY seconds and a
restart. Reports refreshes, failures, items stored, items lost across kills (committed before
a kill, missing after the restart: must be 0), duplicate items (by GUID and by link: 0),
stuck sources (0), `PRAGMA integrity_check` after every kill, and resident memory.

    scripts/soak.py [--duration 600] [--kill-every 120] [--sources 500] [--hosts 50] [--fail 0.05]
"""

import argparse
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The updater's defaults divided by 6 (README "Configuration"): one hour of work in 10 minutes.
CONFIG = """
listen = "127.0.0.1:{port}"
db = "{db}"
admin_token = "soak"
first_fetch_deadline = "30s"
first_fetches_per_minute = 0
[fetch]
allow_private = true
connect_timeout = "2s"
read_timeout = "5s"
timeout = "8s"
[updater]
fresh_workers = 2
workers = 8
default_interval = "10m"
min_interval = "100s"
max_interval = "28h"
per_host_delay = "333ms"
backoff_base = "50s"
backoff_max = "4h"
idle_poll = "5s"
shutdown_grace = "2s"
max_article_fetches = 0
article_dates = 0
train_templates = false
"""
# How long a source stays leased by a killed server (updater::lease_for with this config).
LEASE = 2 * 8 + 60


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url, timeout=60):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
    except OSError as error:
        return None, str(error).encode()


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))
    except (OSError, AttributeError):
        return None


def metric_sum(text, name):
    return sum(float(m) for m in re.findall(rf"^{name}(?:{{[^}}]*}})? (\S+)$", text, re.M))


def stored_items(db):
    with sqlite3.connect(db, timeout=30) as conn:
        return set(conn.execute("SELECT source_id, guid FROM items"))


def integrity(db):
    with sqlite3.connect(db, timeout=30) as conn:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--duration", type=int, default=600)
    parser.add_argument("--kill-every", type=int, default=120)
    parser.add_argument("--sources", type=int, default=500)
    parser.add_argument("--hosts", type=int, default=50)
    parser.add_argument("--fail", type=float, default=0.05)
    args = parser.parse_args()

    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    binary = os.path.join(ROOT, "target/release/html2rss")
    work = tempfile.mkdtemp(prefix="html2rss-soak-")
    db = os.path.join(work, "soak.db")
    page_port, port = free_port(), free_port()
    config = os.path.join(work, "soak.toml")
    with open(config, "w") as out:
        out.write(CONFIG.format(port=port, db=db))
    pages_stats = os.path.join(work, "pages.json")
    pages = subprocess.Popen(
        [sys.executable, os.path.join(ROOT, "scripts/soak_pages.py"), str(page_port), str(args.sources),
         str(args.hosts), str(args.fail), "60", pages_stats],
        stdout=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    log = open(os.path.join(work, "server.log"), "ab")

    def start_server():
        server = subprocess.Popen([binary, "serve", "--config", config], stdout=log, stderr=log)
        for _ in range(300):
            if get(base + "/healthz", timeout=2)[0] == 200:
                return server
            time.sleep(0.1)
        raise SystemExit(f"the server did not start; see {work}/server.log")

    def subscribe(k):
        page = f"http://127.0.0.{k % args.hosts + 1}:{page_port}/s/{k}"
        for _ in range(10):  # a first fetch that hits a fault is asked again
            if get(f"{base}/rss?url={urllib.parse.quote(page, safe='')}")[0] == 200:
                return True
        return False

    server = start_server()
    started = time.time()
    with ThreadPoolExecutor(16) as pool:
        subscribed = sum(pool.map(subscribe, range(args.sources)))
    print(f"{subscribed} of {args.sources} sources subscribed in {time.time() - started:.0f} s", flush=True)

    totals = {"refreshes": 0.0, "fetch_errors": 0.0}
    lives, lost, integrity_results, samples = [], 0, [], []
    life_start = time.time()
    end = life_start + args.duration
    next_kill = life_start + args.kill_every

    def scrape():
        status, body = get(base + "/metrics", timeout=10)
        text = body.decode() if status == 200 else ""
        return metric_sum(text, "html2rss_refreshes_total"), metric_sum(text, "html2rss_fetch_errors_total")

    while time.time() < end:
        time.sleep(5)
        now = time.time()
        samples.append((len(lives), now - life_start, rss_kib(server.pid)))
        if now >= next_kill and now < end - 30:
            refreshes, errors = scrape()
            totals["refreshes"] += refreshes
            totals["fetch_errors"] += errors
            before = stored_items(db)
            server.send_signal(signal.SIGKILL)
            server.wait()
            integrity_results.append(integrity(db))
            server = start_server()
            missing = len(before - stored_items(db))
            lost += missing
            lives.append({"killed_at_s": round(now - life_start), "items_before": len(before), "lost": missing})
            print(f"kill -9 at {now - life_start:.0f} s: {len(before)} items, {missing} lost, "
                  f"integrity {integrity_results[-1]}", flush=True)
            next_kill = now + args.kill_every

    refreshes, errors = scrape()
    totals["refreshes"] += refreshes
    totals["fetch_errors"] += errors
    now_s = int(time.time())
    with sqlite3.connect(db, timeout=30) as conn:
        items = conn.execute("SELECT count(*) FROM items").fetchone()[0]
        duplicate_guids = conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM items GROUP BY source_id, guid HAVING count(*) > 1)").fetchone()[0]
        duplicate_links = conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM items WHERE link IS NOT NULL "
            "GROUP BY source_id, link HAVING count(*) > 1)").fetchone()[0]
        # Stuck: due for longer than a killed server's lease plus a minute and still not taken,
        # or never fetched at all.
        stuck = conn.execute(
            "SELECT count(*) FROM sources WHERE next_due < ? OR last_fetch IS NULL", (now_s - LEASE - 60,)
        ).fetchone()[0]
        sources = conn.execute("SELECT count(*) FROM sources").fetchone()[0]
    server.send_signal(signal.SIGTERM)
    server.wait()
    integrity_results.append(integrity(db))
    pages.terminate()
    with open(pages_stats) as f:
        served = json.load(f)

    # Memory per server life (each kill starts a new process): the peak of its first minute
    # and of its last minute; a leak shows as growth within a life.
    by_life = []
    for life in range(len(lives) + 1):
        kept = [(t, kib) for n, t, kib in samples if n == life and kib]
        if kept:
            first = max(kib for t, kib in kept if t <= kept[0][0] + 60)
            last = max(kib for t, kib in kept if t >= kept[-1][0] - 60)
            by_life.append({"first_minute_mib": round(first / 1024, 1), "last_minute_mib": round(last / 1024, 1)})
    growth = max(l["last_minute_mib"] / l["first_minute_mib"] for l in by_life)
    overall = by_life[-1]["last_minute_mib"] / by_life[0]["first_minute_mib"]
    report = {
        "duration_s": args.duration,
        "kills": len(lives),
        "sources": sources,
        "refreshes": int(totals["refreshes"]),
        "fetch_errors": int(totals["fetch_errors"]),
        "page_server": served,
        "items_stored": items,
        "items_lost": lost,
        "duplicate_guids": duplicate_guids,
        "duplicate_links": duplicate_links,
        "stuck_sources": stuck,
        "integrity": integrity_results,
        "memory_by_life": by_life,
        "memory_growth_within_a_life": round(growth, 2),
        "memory_last_over_first_minute": round(overall, 2),
        "lives": lives,
        "work_dir": work,
    }
    print(json.dumps(report, indent=2))
    ok = (lost == 0 and duplicate_guids == 0 and duplicate_links == 0 and stuck == 0
          and all(r == "ok" for r in integrity_results) and growth <= 1.2 and overall <= 1.2)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
