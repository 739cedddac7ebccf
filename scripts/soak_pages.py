#!/usr/bin/env python3
"""Loopback list pages for scripts/soak.sh: SOURCES pages over HOSTS addresses (127.0.0.1 ..
127.0.0.HOSTS, one port), each a dated list whose newest item changes every ITEM_EVERY seconds,
and a fault on FAIL of the requests (HTTP 500, a hang past the fetch timeout, a connection
reset, garbage bytes, a truncated body). Counts what it served in STATS_FILE every 10 s.

    soak_pages.py PORT SOURCES HOSTS FAIL ITEM_EVERY STATS_FILE
"""

import json
import os
import random
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT, SOURCES, HOSTS = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
FAIL, ITEM_EVERY, STATS_FILE = float(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
START = time.time()
SHOWN = 10  # items per page: older ones leave the page, as on real list pages
FAULTS = ["500", "hang", "reset", "garbage", "truncated"]
stats = {"pages": 0, **{fault: 0 for fault in FAULTS}, "other": 0}
lock = threading.Lock()


def count(kind):
    with lock:
        stats[kind] += 1


def page(source):
    """The list page of `source` now: the newest SHOWN items, one more every ITEM_EVERY s."""
    newest = int((time.time() - START) / ITEM_EVERY) + SHOWN
    rows = []
    for n in range(newest, newest - SHOWN, -1):
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(START + (n - SHOWN) * ITEM_EVERY))
        rows.append(
            f'<li><a href="/s/{source}/post/{n}">Source {source} story {n}: news of the day</a> '
            f"<span>{when}</span><p>What happened in story {n} of source {source}.</p></li>"
        )
    return (
        f"<html><head><title>Soak source {source}</title></head><body><h1>Source {source}</h1>"
        f'<ul class="news">{"".join(rows)}</ul></body></html>'
    ).encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        parts = self.path.split("/")
        if len(parts) != 3 or parts[1] != "s" or not parts[2].isdigit():
            count("other")
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = page(int(parts[2]))
        if random.random() < FAIL:
            fault = random.choice(FAULTS)
            count(fault)
            if fault == "500":
                self.send_response(500)
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif fault == "hang":
                time.sleep(40)
            elif fault == "reset":
                # SO_LINGER 0: close sends RST, not FIN.
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()
            elif fault == "garbage":
                junk = os.urandom(3000)
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(junk)))
                self.end_headers()
                self.wfile.write(junk)
            else:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[: len(body) // 3])
                self.close_connection = True
            return
        count("pages")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def write_stats():
    while True:
        time.sleep(10)
        with lock:
            text = json.dumps(stats)
        with open(STATS_FILE + ".tmp", "w") as out:
            out.write(text)
        os.replace(STATS_FILE + ".tmp", STATS_FILE)


servers = [ThreadingHTTPServer((f"127.0.0.{h}", PORT), Handler) for h in range(1, HOSTS + 1)]
for server in servers:
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
threading.Thread(target=write_stats, daemon=True).start()
print(f"serving {SOURCES} sources on {HOSTS} hosts, port {PORT}", flush=True)
while True:
    time.sleep(3600)
