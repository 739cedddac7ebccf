//! Training a template from a site's feed and 4 of its pages (the homepage and 3 article
//! pages), against parsing those pages, in the same run: what training costs beyond fetching.
//! `cargo bench --bench template`.

mod common;

use std::time::Duration;

use chrono::Utc;
use html2rss::dom::{self, Document, ParseOptions};
use html2rss::engines::template;
use html2rss::eval::corpus::sites;
use html2rss::feed::reader;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let corpus = common::corpus_dir();
    println!(
        "{:<40} {:>7} {:>9} {:>9} {:>9} {:>9} {:>7}",
        "site (feed + 4 pages)", "KB", "parse ms", "feed ms", "train ms", "total ms", "train/parse"
    );
    let (mut worst, mut sum_total, mut sum_parse, mut sum_train, mut count) = (0.0f64, 0.0, 0.0, 0.0, 0);
    for site in sites(&corpus).expect("the corpus's site pairs") {
        let files = ["index.html", "article1.html", "article2.html", "article3.html"];
        if !files.iter().all(|f| site.page_urls.contains_key(*f)) {
            continue;
        }
        let pages: Vec<(Vec<u8>, url::Url)> =
            files.iter().map(|f| (std::fs::read(site.dir.join(f)).unwrap(), site.page_urls[*f].clone())).collect();
        let feed_bytes = std::fs::read(&site.feed).unwrap();
        let kb = (pages.iter().map(|(b, _)| b.len()).sum::<usize>() + feed_bytes.len()) as f64 / 1024.0;
        let parse_all = || -> Vec<Document> {
            pages.iter().map(|(bytes, url)| dom::parse(bytes, url, &ParseOptions::default()).unwrap()).collect()
        };
        let docs = parse_all();
        let feed = reader::read_feed(&feed_bytes, &site.base_url).unwrap();
        let now = Utc::now();
        let runs = 5;
        let parse = common::per_call(runs, || {
            std::hint::black_box(parse_all());
        });
        let read = common::per_call(runs, || {
            std::hint::black_box(reader::read_feed(&feed_bytes, &site.base_url).unwrap());
        });
        let train = common::per_call(runs, || {
            std::hint::black_box(template::train(&feed, &docs, now).ok());
        });
        let total = parse + read + train;
        println!(
            "{:<40} {:>7.0} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>7.2}×",
            site.name,
            kb,
            ms(parse),
            ms(read),
            ms(train),
            ms(total),
            train.as_secs_f64() / parse.as_secs_f64()
        );
        worst = worst.max(ms(total));
        sum_total += ms(total);
        sum_parse += ms(parse);
        sum_train += ms(train);
        count += 1;
    }
    println!(
        "{count} sites: mean total {:.2} ms (parse {:.2} ms, train {:.2} ms), slowest total {:.2} ms; train/parse {:.2}×",
        sum_total / count as f64,
        sum_parse / count as f64,
        sum_train / count as f64,
        worst,
        sum_train / sum_parse
    );
}
