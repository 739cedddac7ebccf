#!/usr/bin/env bash
# html2rss's generic article extractor and page dates against trafilatura and htmldate, on the
# same pages, in the same run, scored by the same code, for the tune and check halves of the
# corpus (SPLIT.tsv) side by side:
#
# - main text on every article set (corpus README §4, §4b): token precision/recall/F1 of
#   README §6 per page, mean per set; upstream's 4-token-shingle F1 on zyte (scrapinghub's
#   evaluate.py, which the published figures use); on the site pairs' and themes' article pages
#   whose feed carries the full text, against that text;
# - page dates, exact day: `dates/htmldate` with and without the URL, and the site pairs' and
#   themes' article pages against their feed item's day.
#
# html2rss runs once over the whole corpus (`html2rss eval CORPUS --json` prints every page's
# output); trafilatura (`include_comments=False`: no set's truth holds comments) and htmldate
# (`original_date=True`: the publication date) run in this script on the same files.
#
# Not a test and not a dependency of the project: trafilatura and htmldate come from PyPI
# into a virtualenv under target/.
#
#   scripts/compare_trafilatura.sh [CORPUS_DIR]   (default: $HTML2RSS_CORPUS, else ../shared/corpus)
#   JOBS=N  processes for trafilatura and htmldate (default 2)
#   PER_PAGE=FILE  also write one TSV row per article page (set, half, id, html2rss F1,
#                  trafilatura F1), to study where either loses
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${1:-${HTML2RSS_CORPUS:-../shared/corpus}}"
venv="${TRAFILATURA_VENV:-target/trafilatura-venv}"

if [ ! -f "$corpus/SPLIT.tsv" ]; then
    echo "no SPLIT.tsv under $corpus" >&2
    exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
# lxml >= 5.2 moved the HTML cleaner that trafilatura's justext fallback imports.
"$venv/bin/pip" install --quiet --disable-pip-version-check trafilatura htmldate lxml_html_clean
cargo build --release --quiet

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
start=$(date +%s%N)
target/release/html2rss eval "$corpus" --json > "$out/html2rss.json"
end=$(date +%s%N)
seconds=$(( (end - start) / 1000000 ))e-3

exec "$venv/bin/python" - "$corpus" "$out/html2rss.json" "$seconds" "${JOBS:-2}" "${PER_PAGE:-}" <<'PY'
import gzip, json, os, re, sys, time
from collections import Counter, defaultdict
from multiprocessing import Pool

import htmldate
import trafilatura

corpus, html2rss_json, html2rss_seconds, jobs = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
per_page = open(sys.argv[5], "w", encoding="utf-8") if sys.argv[5] else None
SETS = ["zyte", "cleaneval", "cleanportaleval", "dragnet", "l3s-gn1", "msv-chaos", "evan-extract", "zh-webcontent"]
HALVES = ["tune", "check"]

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

def page_html(path):
    """The page as html2rss reads it: gunzipped, without the `<text id=…>` line the CleanEval
    organisers wrapped some pages in; decoded as UTF-8 when it is (README: the zh pages that
    are not are GBK, read as gb18030), else left to the tool's own detection."""
    raw = gzip.open(path).read() if path.endswith(".gz") else open(path, "rb").read()
    stripped = raw.lstrip()
    if stripped.startswith(b"<text "):
        raw = stripped[stripped.index(b">") + 1:].rstrip()
        if raw.endswith(b"</text>"):
            raw = raw[:-len(b"</text>")]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("gb18030", errors="replace") if "/zh-webcontent/" in path else raw

def url_arg(url):
    return None if url.startswith("https://articles.invalid/") else url

def with_trafilatura(job):
    path, url = job
    start = time.perf_counter()
    text = trafilatura.extract(page_html(path), url=url_arg(url), include_comments=False) or ""
    return text, time.perf_counter() - start

def with_htmldate(job):
    path, url = job
    html = page_html(path)
    def find(u):
        try:
            return htmldate.find_date(html, url=u, original_date=True)
        except Exception:
            return None
    start = time.perf_counter()
    found = find(url), find(None)
    return found, time.perf_counter() - start

report = json.load(open(html2rss_json, encoding="utf-8"))
articles, dates, site_articles = report["articles"], report["dates"], report["site_articles"]

def truth_of(page):
    if page["set"] == "zyte":
        return zyte_truth[page["id"]]["articleBody"]
    text = open(f"{corpus}/articles/{page['set']}/truth/{page['id']}.txt", encoding="utf-8").read()
    # As html2rss eval reads it: six dragnet truth files still hold the page's comments after
    # the set's separator line (`!@#$%^&*() COMMENTS`), which its SOURCE.md says were cut.
    lines = text.splitlines(keepends=True)
    cut = next((i for i, line in enumerate(lines) if line.startswith("!@") and "$%^&" in line), len(lines))
    return "".join(lines[:cut])

zyte_truth = json.load(open(f"{corpus}/articles/zyte/ground-truth.json", encoding="utf-8"))
with_text = [p for p in site_articles if p["truth_text"]]

with Pool(jobs) as pool:
    traf = pool.map(with_trafilatura, [(p["file"], p["url"]) for p in articles + with_text], chunksize=8)
    hd = pool.map(with_htmldate, [(p["file"], p["url"]) for p in dates + site_articles], chunksize=8)
traf_articles, traf_sites = traf[:len(articles)], traf[len(articles):]
hd_dates, hd_sites = hd[:len(dates)], hd[len(dates):]
traf_seconds = sum(s for _, s in traf)
hd_seconds = sum(s for _, s in hd)

def mean(values):
    return sum(values) / len(values) if values else None

def cell(value, fmt="{:.3f}"):
    return "-" if value is None else fmt.format(value)

# Main text, set by set.
name_t = f"trafilatura {trafilatura.__version__}"
print(f"main text: token F1 (P / R) per page, mean per set; html2rss against {name_t}, same pages")
print(f"{'set':18} {'half':5} {'pages':>5}  {'html2rss':>23}  {name_t:>23}  {'diff':>6}  {'empty h/t':>9}")
groups = defaultdict(list)
for page, (ttext, _) in zip(articles, traf_articles):
    truth = truth_of(page)
    if per_page:
        per_page.write(f"{page['set']}\t{page['half']}\t{page['id']}\t"
                       f"{token_scores(page['text'], truth)[2]:.3f}\t{token_scores(ttext, truth)[2]:.3f}\n")
    groups[(page["set"], page["half"])].append((token_scores(page["text"], truth), token_scores(ttext, truth),
                                                 shingle_match(page["text"], truth), shingle_match(ttext, truth),
                                                 not page["text"], not ttext))
for set_ in SETS:
    for half in HALVES:
        rows = groups.get((set_, half))
        if not rows:
            continue
        h = [mean([r[0][i] for r in rows]) for i in range(3)]
        t = [mean([r[1][i] for r in rows]) for i in range(3)]
        print(f"{set_:18} {half:5} {len(rows):5}  {h[2]:.3f} ({h[0]:.3f} / {h[1]:.3f})  "
              f"{t[2]:.3f} ({t[0]:.3f} / {t[1]:.3f})  {h[2] - t[2]:+.3f}  "
              f"{sum(r[4] for r in rows):4}/{sum(r[5] for r in rows):<4}")
        if set_ == "zyte":
            print(f"{'':18} {'':5} {'':5}  shingle F1 {shingle_f1([r[2] for r in rows]):.3f}        "
                  f"shingle F1 {shingle_f1([r[3] for r in rows]):.3f}")

rows = defaultdict(list)
for page, (ttext, _) in zip(with_text, traf_sites):
    rows[page["half"]].append((token_scores(page["text"], page["truth_text"])[2],
                               token_scores(ttext, page["truth_text"])[2]))
for half in HALVES:
    if rows[half]:
        h, t = mean([r[0] for r in rows[half]]), mean([r[1] for r in rows[half]])
        print(f"{'site articles':18} {half:5} {len(rows[half]):5}  {h:.3f} {'':17}  {t:.3f} {'':17}  {h - t:+.3f}"
              "  (feed full text)")

# Page dates.
print(f"\npage dates: exact day; html2rss against htmldate {htmldate.__version__} (original_date), same pages")
print(f"{'pages':32} {'half':5} {'n':>4}  {'html2rss':>16}  {'htmldate':>16}  {'diff':>6}")
def share(pairs):
    return sum(1 for found, truth in pairs if found == truth) / len(pairs) if pairs else None
for with_url in [True, False]:
    for half in HALVES:
        chosen = [(p, h) for p, h in zip(dates, hd_dates) if p["half"] == half and p["truth"]]
        if not chosen:
            continue
        mine = share([(p["with_url" if with_url else "without_url"], p["truth"]) for p, _ in chosen])
        theirs = share([(h[0][0 if with_url else 1], p["truth"]) for p, h in chosen])
        label = "dates/htmldate, " + ("with URL" if with_url else "without URL")
        print(f"{label:32} {half:5} {len(chosen):4}  {mine:16.1%}  {theirs:16.1%}  {100 * (mine - theirs):+6.1f}")
for half in HALVES:
    chosen = [(p, h) for p, h in zip(site_articles, hd_sites) if p["half"] == half and p["truth_day"]]
    mine = share([(p["day"], p["truth_day"]) for p, _ in chosen])
    theirs = share([(h[0][0], p["truth_day"]) for p, h in chosen])
    if chosen:
        print(f"{'site articles vs. feed (URL)':32} {half:5} {len(chosen):4}  {mine:16.1%}  {theirs:16.1%}  "
              f"{100 * (mine - theirs):+6.1f}")

print(f"\ntime: html2rss eval (all of the corpus: lists, templates, articles, dates) {html2rss_seconds:.1f} s; "
      f"trafilatura {traf_seconds:.1f} s for {len(traf)} pages; htmldate {hd_seconds:.1f} s for {len(hd)} pages "
      "(CPU seconds summed over the processes)")
PY
