#!/usr/bin/env python3
"""List pages of the corpus changed the way other sites differ, scored against the same truth.

    scripts/perturb_lists.py undated [tune|check]   # every date removed from the page
    scripts/perturb_lists.py hashed [tune|check]    # class names hashed, ids dropped (CSS modules)
    scripts/perturb_lists.py both [tune|check]

For each list page of `lists/sitepairs` and `lists/themes` in the half (SPLIT.tsv), runs
`html2rss inspect` on the page as it is and as changed, and prints the share of the truth's
item links found (occupancy) for both, worst change first. The undated path and the path that
does without class names meet few pages of the corpus, and many sites: a fifth of list pages
show no dates, and build tools hash class names. Develop on `tune`; `check` only to measure.
Needs a release build (`cargo build --release`).
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.path.join(HERE, "..", "target", "release", "html2rss")
CORPUS = os.environ.get("HTML2RSS_CORPUS", os.path.join(HERE, "..", "..", "shared", "corpus"))

MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
# Visible dates as static-site themes write them (numeric, English, CJK); a date left over
# only makes the change milder.
DATE_TEXTS = [
    r"\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?",
    r"\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}",
    MONTH + r"\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}",
    r"\d{1,2}(?:st|nd|rd|th)?\s+" + MONTH + r",?\s+\d{4}",
    r"\d{1,2}月\d{1,2}日",
    r"\b\d{4}[-/]\d{2}\b",
    MONTH + r"\s+\d{1,2}\b",
    r"\b\d{1,2}\s+" + MONTH,
]


def undated(html):
    html = re.sub(r"<time\b[^>]*>.*?</time>", "", html, flags=re.S | re.I)
    html = re.sub(r'\s(datetime|data-date|title|content)="[^"]*\d{4}[^"]*"', "", html)
    html = re.sub(r'<script type="application/ld\+json".*?</script>', "", html, flags=re.S)
    parts = re.split(r"(<[^>]+>)", html)
    for i, part in enumerate(parts):
        if not part.startswith("<"):
            for pattern in DATE_TEXTS:
                part = re.sub(pattern, "", part, flags=re.I)
            parts[i] = part
    return "".join(parts)


def hashed(html):
    def classes(m):
        return ' class="%s"' % " ".join("c" + hashlib.md5(t.encode()).hexdigest()[:6] for t in m.group(2).split())

    html = re.sub(r"\sclass=([\"'])(.*?)\1", classes, html, flags=re.S)
    return re.sub(r"\sid=([\"'])(.*?)\1", "", html, flags=re.S)


def path_of(url):
    url = (url or "").lower().split("#")[0]
    url = re.sub(r"^https?://(www\.)?[^/]*", "", url)
    return re.sub(r"index\.html?$", "", url).rstrip("/")


def occupancy(page, base, truth):
    out = subprocess.run([BINARY, "inspect", page, "--base-url", base, "--format", "json"], capture_output=True, text=True)
    found = {path_of(i["link"]) for s in json.loads(out.stdout)["page"]["subjects"] for i in s["items"]}
    return sum(1 for t in truth if t in found) / len(truth)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "undated"
    half = sys.argv[2] if len(sys.argv) > 2 else "tune"
    change = {"undated": undated, "hashed": hashed, "both": lambda h: hashed(undated(h))}[mode]
    split = dict(line.rstrip("\n").split("\t")[:2] for line in open(os.path.join(CORPUS, "SPLIT.tsv")) if "\t" in line)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("sitepairs", "themes"):
            root = os.path.join(CORPUS, "lists", kind)
            for site in sorted(os.listdir(root)):
                if split.get("lists/%s/%s" % (kind, site)) != half:
                    continue
                meta_file = os.path.join(root, site, "meta.json")
                meta = json.load(open(meta_file)) if os.path.exists(meta_file) else {}
                for name in sorted(os.listdir(os.path.join(root, site))):
                    if not (name.startswith("gt_") and name.endswith(".json")):
                        continue
                    gt = json.load(open(os.path.join(root, site, name)))
                    page = os.path.join(root, site, gt["page"])
                    truth = [path_of(i["link"]) for i in gt["items_on_page"]]
                    if not truth or not os.path.exists(page):
                        continue
                    changed = os.path.join(tmp, "%s_%s_%s" % (kind, site, gt["page"]))
                    with open(page, errors="replace") as f, open(changed, "w") as out:
                        out.write(change(f.read()))
                    base = meta.get("url") or "https://example.org/"
                    before, after = occupancy(page, base, truth), occupancy(changed, base, truth)
                    rows.append((after - before, before, after, "%s/%s/%s" % (kind, site, gt["page"])))
    rows.sort()
    print("%s, %s half: %d pages, occupancy %.3f as they are, %.3f changed (%+.3f)" % (
        mode, half, len(rows), sum(r[1] for r in rows) / len(rows), sum(r[2] for r in rows) / len(rows),
        sum(r[0] for r in rows) / len(rows)))
    for change_, before, after, page in rows[:15]:
        if change_ < 0:
            print("%+.2f  %.2f -> %.2f  %s" % (change_, before, after, page))


if __name__ == "__main__":
    main()
