//! Parse throughput over the corpus pages: html5ever into its reference tree (RcDom) as the
//! baseline, and our whole `dom::parse` (charset, depth pre-scan, head scan, html5ever, arena)
//! in the same run. `cargo bench --bench parse`.

mod common;

use std::io::Read;
use std::time::Duration;

use html5ever::tendril::TendrilSink;
use url::Url;

fn corpus_pages() -> Vec<Vec<u8>> {
    let root = common::corpus_dir();
    let mut pages = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("corpus directory") {
            let path = entry.unwrap().path();
            let name = path.to_string_lossy().to_string();
            if path.is_dir() {
                dirs.push(path);
            } else if name.ends_with(".html") {
                pages.push(std::fs::read(&path).unwrap());
            } else if name.ends_with(".html.gz") {
                let mut out = Vec::new();
                flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap()).read_to_end(&mut out).unwrap();
                pages.push(out);
            }
        }
    }
    pages
}

fn main() {
    let pages = corpus_pages();
    let texts: Vec<String> = pages.iter().map(|p| String::from_utf8_lossy(p).into_owned()).collect();
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let mb = bytes as f64 / 1e6;
    let url = Url::parse("https://example.org/").unwrap();
    println!("{} pages, {:.1} MB", pages.len(), mb);

    // Baseline and ours alternate, so a busy machine slows both alike.
    let (mut baseline, mut ours) = (Duration::MAX, Duration::MAX);
    for _ in 0..3 {
        baseline = baseline.min(common::best_of_3(|| {
            for text in &texts {
                let dom = html5ever::parse_document(markup5ever_rcdom::RcDom::default(), Default::default())
                    .one(text.as_str());
                std::hint::black_box(dom);
            }
        }));
        ours = ours.min(common::best_of_3(|| {
            for page in &pages {
                let doc = html2rss::dom::parse(page, &url, &Default::default()).unwrap();
                std::hint::black_box(doc);
            }
        }));
    }
    let depth = common::best_of_3(|| {
        for page in &pages {
            std::hint::black_box(html2rss::dom::estimate_nesting(page, usize::MAX));
        }
    });
    let head = common::best_of_3(|| {
        for page in &pages {
            std::hint::black_box(html2rss::dom::scan_head(page));
        }
    });
    let decode = common::best_of_3(|| {
        for page in &pages {
            std::hint::black_box(html2rss::dom::decode(page, None, Some("utf-8")));
        }
    });
    let rate = |d: Duration| mb / d.as_secs_f64();
    println!(
        "html5ever → RcDom (baseline): {:7.1} MB/s  {:6.0} pages/s",
        rate(baseline),
        pages.len() as f64 / baseline.as_secs_f64()
    );
    println!(
        "dom::parse (ours):            {:7.1} MB/s  {:6.0} pages/s",
        rate(ours),
        pages.len() as f64 / ours.as_secs_f64()
    );
    for (stage, d) in [("depth pre-scan", depth), ("head scan", head), ("decode", decode)] {
        println!("  of which {stage:15} {:7.1} MB/s", rate(d));
    }
    println!("cost ratio ours/baseline:     {:7.2}×", ours.as_secs_f64() / baseline.as_secs_f64());
}
