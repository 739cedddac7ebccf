//! The real `html2rss serve` binary in a child process, and a reader of its feeds.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A running server; killed when dropped.
pub struct Served {
    pub child: Child,
    /// `HOST:PORT` it listens on.
    pub address: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every item a reader was served (`served`) is still in the feeds read later (`after`).
pub fn assert_none_lost(served: &BTreeSet<String>, after: &BTreeSet<String>) {
    let lost: Vec<&String> = served.difference(after).collect();
    assert!(
        lost.is_empty(),
        "{} of {} served items lost, e.g. {:?}",
        lost.len(),
        served.len(),
        &lost[..lost.len().min(5)]
    );
}

/// Start the binary with a configuration; the address is read from its stderr.
pub fn serve(config: &Path) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_html2rss"))
        .args(["serve", "--config"])
        .arg(config)
        .env("RUST_LOG", "html2rss=warn")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let address = loop {
        let line = lines.next().expect("the server ended before listening").unwrap();
        if let Some(rest) = line.strip_prefix("html2rss listening on http://") {
            break rest.split_whitespace().next().unwrap().to_string();
        }
    };
    // Keep draining stderr so the server never blocks on a full pipe; show what it warns of.
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            eprintln!("{line}");
        }
    });
    Served { child, address }
}

/// The item links of a source's feed, as a reader gets them (`None`: not served).
pub async fn read_feed(http: &reqwest::Client, address: &str, page: &str) -> Option<BTreeSet<String>> {
    let encoded: String = url::form_urlencoded::byte_serialize(page.as_bytes()).collect();
    let response = http.get(format!("http://{address}/rss?url={encoded}")).send().await.ok()?;
    if !response.status().is_success() {
        return None;
    }
    let feed = feed_rs::parser::parse(response.bytes().await.ok()?.as_ref()).ok()?;
    Some(feed.entries.iter().filter_map(|e| e.links.first().map(|l| l.href.clone())).collect())
}

/// `kill -9` the server the moment `requests` (its requests to the pages, as the page server
/// counts them) moves on: a refresh is in flight.
pub fn kill_mid_request(server: &mut Served, requests: &AtomicUsize) {
    let before = requests.load(Ordering::SeqCst);
    let waiting = Instant::now();
    while requests.load(Ordering::SeqCst) == before {
        assert!(waiting.elapsed() < Duration::from_secs(10), "the server stopped refreshing");
        std::thread::sleep(Duration::from_millis(1));
    }
    server.child.kill().unwrap(); // SIGKILL
    server.child.wait().unwrap();
}
