//! Fill a database with stored feeds for `scripts/bench_rss.sh`: N sources of 20 items each,
//! fetched "just now" and not due for a week (so a server started on it serves them from the
//! store and its updater stays idle), with their feeds rendered and kept as the refresh that
//! stored them would have, and print their `/rss` paths, one a line.
//!
//! `cargo run --release --example seed_feeds -- DB SOURCES > paths.txt`

use std::time::Duration;

use chrono::{TimeDelta, Utc};
use html2rss::config::Config;
use html2rss::engines::{Engine, Extraction};
use html2rss::fetch::Validators;
use html2rss::model::{Item, Page, Subject};
use html2rss::store::{FetchRecord, Health, SourceSettings, Store};
use html2rss::updater::render_stored;
use url::Url;

const ITEMS: usize = 20;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(db), Some(count)) = (args.next(), args.next()) else {
        eprintln!("usage: seed_feeds DB SOURCES");
        std::process::exit(2);
    };
    let count: usize = count.parse().expect("SOURCES is a number");
    let store = Store::open(&db).expect("cannot open the database");
    let now = Utc::now();
    let settings = SourceSettings { rule: None, full_text: false, update_interval: Duration::from_secs(3600) };
    for source in 0..count {
        let url = Url::parse(&format!("https://site{}.example/news/{source}", source % 997)).unwrap();
        let (stored, _) = store.add_source(&url, &settings, now).expect("add");
        let mut page = Page::new(url.clone(), format!("Example news {source}"), "UTF-8");
        let items = (0..ITEMS)
            .map(|i| {
                let mut item = Item::new(format!("Story {i} of source {source}: a headline of the usual length"));
                item.link = Some(url.join(&format!("story/{i}")).unwrap());
                item.date = Some((now - TimeDelta::hours(i as i64)).fixed_offset());
                item.description = Some(format!(
                    "<p>The first lines of story {i}, as the page shows them, with a <a href=\"{url}\">link</a>.</p>"
                ));
                item
            })
            .collect();
        page.subjects.push(Subject { title: None, items });
        store.merge(stored.id, &Extraction { page, engine: Engine::TimePattern, confidence: 0.8 }, now).expect("merge");
        let record = FetchRecord {
            at: now,
            duration: Duration::from_millis(100),
            http_status: Some(200),
            error: None,
            validators: Some(Validators::default()),
            body_hash: None,
            page_feed: None,
            next_due: now + TimeDelta::days(7),
            update_interval: None,
            health: Health::Ok,
        };
        store.record_fetch(stored.id, &record).expect("record");
        render_stored(&store, stored.id, Config::default().items_per_feed).expect("render");
        let encoded: String = url::form_urlencoded::byte_serialize(url.as_str().as_bytes()).collect();
        println!("/rss?url={encoded}");
    }
}
