//! Article extraction cost: metadata, dates and main content of one article page, beyond
//! parsing, on the `articles/zyte` pages of typical size (80–130 KB), with `dom::parse` of the
//! same pages as the baseline measured in the same run. `cargo bench --bench article`.

mod common;

use std::io::Read;
use std::time::{Duration, Instant};

use html2rss::dom::{self, Document};
use html2rss::engines::article::{self, Hints};
use url::Url;

/// Article pages of the corpus with their URLs.
fn zyte_pages() -> Vec<(Vec<u8>, Url)> {
    let root = common::corpus_dir();
    let pages = html2rss::eval::corpus::article_pages(&root).expect("the zyte corpus");
    pages
        .iter()
        .map(|p| {
            let mut out = Vec::new();
            flate2::read::GzDecoder::new(std::fs::File::open(&p.file).unwrap()).read_to_end(&mut out).unwrap();
            (out, p.url.clone())
        })
        .collect()
}

fn main() {
    let all = zyte_pages();
    let typical: Vec<&(Vec<u8>, Url)> = all.iter().filter(|(b, _)| (80_000..130_000).contains(&b.len())).collect();
    let kb = typical.iter().map(|(b, _)| b.len()).sum::<usize>() as f64 / typical.len() as f64 / 1e3;
    println!("{} typical pages of {} (80–130 KB, mean {kb:.0} KB)", typical.len(), all.len());
    let docs: Vec<Document> =
        typical.iter().map(|(b, u)| dom::parse(b, u, &Default::default()).expect("parses")).collect();

    let hints = Hints::default();
    // Baseline and extraction alternate, so a busy machine slows both alike.
    let (mut parse, mut extract, mut meta) = (Duration::MAX, Duration::MAX, Duration::MAX);
    for _ in 0..3 {
        parse = parse.min(common::best_of_3(|| {
            for (bytes, url) in &typical {
                std::hint::black_box(dom::parse(bytes, url, &Default::default()).unwrap());
            }
        }));
        extract = extract.min(common::best_of_3(|| {
            for doc in &docs {
                std::hint::black_box(article::extract(doc, &hints));
            }
        }));
        meta = meta.min(common::best_of_3(|| {
            for doc in &docs {
                std::hint::black_box(article::dates(doc, &hints));
            }
        }));
    }
    let per_page = |d: Duration| d.as_secs_f64() * 1e3 / typical.len() as f64;
    println!("dom::parse (baseline):         {:6.2} ms/page", per_page(parse));
    println!("article::extract (beyond parse): {:4.2} ms/page", per_page(extract));
    println!("  of which metadata and dates:  {:5.2} ms/page", per_page(meta));
    println!("cost ratio extract/parse:       {:5.2}×", extract.as_secs_f64() / parse.as_secs_f64());

    // The whole corpus, for throughput.
    let start = Instant::now();
    let mut bytes = 0;
    for (b, u) in &all {
        bytes += b.len();
        let doc = dom::parse(b, u, &Default::default()).unwrap();
        std::hint::black_box(article::extract(&doc, &hints));
    }
    let elapsed = start.elapsed().as_secs_f64();
    println!(
        "all {} pages, parse + extract: {:.1} pages/s, {:.1} MB/s",
        all.len(),
        all.len() as f64 / elapsed,
        bytes as f64 / 1e6 / elapsed
    );
}
