#!/usr/bin/env bash
# Fuzz every target in fuzz/ (cargo-fuzz, libFuzzer) for SECONDS each (default 600), seeded
# from the development corpus, the shipped rules and the README's configuration. A crash, a
# hang over 1 s on one input, or memory past 2 GiB stops the target and leaves the input in
# fuzz/artifacts/TARGET/; turn it into a regression test. Prints one summary line per target.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# The toolchain here is stable: cargo-fuzz needs nightly flags (-Zsanitizer=address), which
# RUSTC_BOOTSTRAP=1 lets the stable compiler take. Seeds are copied to fuzz/seeds/ (ignored
# by git, like the corpus itself).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(html_dom extract path rule_xml dates feed_read config feed_filter)
corpus=${HTML2RSS_CORPUS:-../shared/corpus}
export RUSTC_BOOTSTRAP=1
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked

seeds=fuzz/seeds
rm -rf "$seeds"
mkdir -p "$seeds"/{html,rule_xml,path,dates,feed_read,config,feed_filter}
# 300 pages of the corpus (a fixed sample), decompressed; libFuzzer cuts them to -max_len.
find "$corpus" \( -name '*.html' -o -name '*.html.gz' \) | sort | awk 'NR % 12 == 0' | head -300 |
    while read -r page; do
        name=$(echo "$page" | sha1sum | cut -c1-16)
        case "$page" in *.gz) gzip -dc "$page" >"$seeds/html/$name" ;; *) cp "$page" "$seeds/html/$name" ;; esac
    done
cp rules/*.xml "$seeds/rule_xml/"
grep -ho 'path="[^"]*"' rules/*.xml | sed 's/^path="//; s/"$//' | sort -u |
    while read -r path; do printf '%s' "$path" >"$seeds/path/$(printf '%s' "$path" | sha1sum | cut -c1-16)"; done
find "$corpus/lists" \( -name '*.xml' -o -name 'feed*.json' \) | sort | awk 'NR % 4 == 0' | head -200 |
    while read -r feed; do cp "$feed" "$seeds/feed_read/$(echo "$feed" | sha1sum | cut -c1-16)"; done
awk '/^```toml/{on=1; next} /^```/{on=0} on' README.md >"$seeds/config/readme.toml"
i=0
for date in "2024-05-20 10:00" "May 20, 2024" "20. Mai 2024" "2024年5月20日 10:00" "3 hours ago" \
    "Mon, 20 May 2024 10:00:00 +0200" "20/05/2024" "yesterday at 9pm" "le 20 mai 2024 à 10h00" "2024-05-20T10:00:00Z"; do
    printf '%s' "$date" >"$seeds/dates/$i"
    i=$((i + 1))
done
printf '(?i)rust|linux\nsponsored\n20' >"$seeds/feed_filter/a"
printf 'a{1000}{1000}\n\n5' >"$seeds/feed_filter/b"

for target in "${targets[@]}"; do
    case "$target" in
        html_dom | extract) seed="$seeds/html" max_len=65536 ;;
        feed_read) seed="$seeds/feed_read" max_len=65536 ;;
        *) seed="$seeds/$target" max_len=4096 ;;
    esac
    mkdir -p "fuzz/corpus/$target"
    log="fuzz/$target.log"
    status=0
    cargo fuzz run "$target" "fuzz/corpus/$target" "$seed" -- \
        -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 -max_len="$max_len" \
        -print_final_stats=1 >"$log" 2>&1 || status=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    peak=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    if [ "$status" -eq 0 ]; then
        echo "$target: ${seconds} s, $runs runs, peak ${peak} MB, no crash"
    else
        echo "$target: FAILED after $runs runs (see $log and fuzz/artifacts/$target/)"
    fi
done
