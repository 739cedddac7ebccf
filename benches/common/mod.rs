//! What the benchmarks share: where the corpus is, and best-of-three timing. Each benchmark
//! uses part of it.
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The development corpus: `$HTML2RSS_CORPUS`, else `../shared/corpus` beside the crate.
pub fn corpus_dir() -> PathBuf {
    std::env::var_os("HTML2RSS_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
}

/// The corpus list pages as bytes with their URLs, and their size in MB.
pub fn list_page_inputs() -> (Vec<(Vec<u8>, url::Url)>, f64) {
    let pages = html2rss::eval::corpus::list_pages(&corpus_dir()).expect("corpus list pages");
    let inputs: Vec<(Vec<u8>, url::Url)> =
        pages.iter().map(|p| (p.bytes().expect("a corpus page"), p.url.clone())).collect();
    let mb = inputs.iter().map(|(b, _)| b.len()).sum::<usize>() as f64 / 1e6;
    (inputs, mb)
}

/// The best of three passes (the least disturbed by other work on the machine).
pub fn best_of_3(mut pass: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            pass();
            start.elapsed()
        })
        .min()
        .expect("three passes")
}

/// The best of three passes of `runs` calls, per call.
pub fn per_call(runs: u32, mut call: impl FnMut()) -> Duration {
    best_of_3(|| {
        for _ in 0..runs {
            call();
        }
    }) / runs
}
