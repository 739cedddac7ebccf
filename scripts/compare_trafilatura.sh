#!/usr/bin/env bash
# Main text of the zyte article pages (corpus README §4): html2rss's generic extractor against
# trafilatura, on the same pages, in the same run, scored with the same code: the token
# precision/recall/F1 of README §6 and upstream's 4-token-shingle F1 (scrapinghub's
# evaluate.py), which the published figures use.
#
# Not a test and not a dependency of the project: trafilatura comes from PyPI into a
# virtualenv under target/.
#
#   scripts/compare_trafilatura.sh [CORPUS_DIR]   (default: $HTML2RSS_CORPUS, else ../shared/corpus)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${1:-${HTML2RSS_CORPUS:-../shared/corpus}}"
venv="${TRAFILATURA_VENV:-target/trafilatura-venv}"

if [ ! -f "$corpus/articles/zyte/ground-truth.json" ]; then
    echo "no articles/zyte/ground-truth.json under $corpus" >&2
    exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
# lxml >= 5.2 moved the HTML cleaner that trafilatura's justext fallback imports.
"$venv/bin/pip" install --quiet --disable-pip-version-check trafilatura lxml_html_clean
cargo build --release --quiet

exec "$venv/bin/python" - "$corpus" target/release/html2rss <<'PY'
import gzip, json, re, subprocess, sys, time
from collections import Counter

import trafilatura

corpus, binary = sys.argv[1], sys.argv[2]
truth = json.load(open(f"{corpus}/articles/zyte/ground-truth.json", encoding="utf-8"))
ids = sorted(truth)

# Python's \w is Unicode-aware like the Rust regex crate's; the two differ only on combining
# marks, which both extractors' outputs meet alike.
WORD = re.compile(r"\w+")

def token_scores(output, gold):
    out, ref = WORD.findall(output or ""), WORD.findall(gold)
    if not out or not ref:
        return 0.0, 0.0, 0.0
    counts, tp = Counter(ref), 0
    for t in out:
        if counts[t] > 0:
            counts[t] -= 1
            tp += 1
    p, r = tp / len(out), tp / len(ref)
    return p, r, (2 * p * r / (p + r) if tp else 0.0)

def shingles(text, n=4):
    tokens = WORD.findall(text or "")
    return Counter(tuple(tokens[i:i + n]) for i in range(max(1, len(tokens) - n + 1)) if tokens[i:i + n])

def shingle_match(output, gold):
    out, ref = shingles(output), shingles(gold)
    tp = fp = fn = 0
    for key in set(out) | set(ref):
        tp += min(out[key], ref[key]); fp += max(0, out[key] - ref[key]); fn += max(0, ref[key] - out[key])
    s = tp + fp + fn
    return (tp / s, fp / s, fn / s) if s else (0.0, 0.0, 0.0)

def shingle_f1(matches):
    def precision(tp, fp, fn): return 1.0 if fp == fn == 0 else 0.0 if tp == fp == 0 else tp / (tp + fp)
    def recall(tp, fp, fn): return 1.0 if fp == fn == 0 else 0.0 if tp == fn == 0 else tp / (tp + fn)
    ps = [precision(*m) for m in matches if m[0] + m[1] > 0]
    rs = [recall(*m) for m in matches if m[0] + m[2] > 0]
    p, r = (sum(ps) / len(ps) if ps else 0.0), (sum(rs) / len(rs) if rs else 0.0)
    return 2 * p * r / (p + r) if p + r else 0.0

def html2rss(path, url):
    run = subprocess.run([binary, "inspect", path, "--base-url", url, "--format", "json"],
                         capture_output=True, check=True)
    return json.loads(run.stdout)["page"].get("content_text") or ""

def with_trafilatura(path, url):
    html = gzip.open(path).read().decode("utf-8")
    return trafilatura.extract(html, url=url) or ""

rows = []
for name, extract in [("html2rss (generic)", html2rss), (f"trafilatura {trafilatura.__version__}", with_trafilatura)]:
    scores, matches, seconds = [], [], 0.0
    for key in ids:
        path = f"{corpus}/articles/zyte/html/{key}.html.gz"
        start = time.perf_counter()
        text = extract(path, truth[key]["url"])
        seconds += time.perf_counter() - start
        scores.append(token_scores(text, truth[key]["articleBody"]))
        matches.append(shingle_match(text, truth[key]["articleBody"]))
    n = len(scores)
    rows.append((name, sum(s[0] for s in scores) / n, sum(s[1] for s in scores) / n, sum(s[2] for s in scores) / n,
                 sum(s[2] >= 0.9 for s in scores) / n, shingle_f1(matches), n / seconds))

print(f"articles/zyte: {len(ids)} pages, same pages and metric for both")
print(f"{'extractor':24} {'token P':>8} {'token R':>8} {'token F1':>9} {'F1>=0.9':>8} {'shingle F1':>11} {'pages/s':>8}")
for name, p, r, f1, share, shingle, rate in rows:
    print(f"{name:24} {p:8.3f} {r:8.3f} {f1:9.3f} {share:8.1%} {shingle:11.3f} {rate:8.1f}")
print("html2rss pages/s include starting one `html2rss inspect` process per page.")
PY
