//! Items' article pages: a list page and its article pages served on loopback (two sites, each
//! its own host name pinned to its own server), the list's items found by an engine, and their
//! pages fetched by [`ArticlePages`] — every item gets content and author, or its page's date;
//! no two requests to one host overlap, and each page is fetched once. `extract --full-text`
//! on local files, content and dates.

mod common;

use std::process::Command;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use chrono::Utc;
use common::http::{Reply, Span, TestServer};
use html2rss::article_pages::{ArticlePageError, ArticlePages, DateOutcome, Outcome};
use html2rss::dom::{self, ParseOptions};
use html2rss::engines::timepattern::{self, DateContext, TimePatternDb};
use html2rss::fetch::{Backoff, FetchConfig, FetchError, Fetcher};
use html2rss::model::Item;
use html2rss::updater::Hosts;
use url::Url;

const SUBJECTS: [&str; 8] = ["harbour", "orchard", "railway", "glacier", "library", "market", "bridge", "canyon"];

/// An article page: byline in a meta tag, a few paragraphs that name the subject, navigation
/// and a footer that are not the content.
fn article(n: usize, subject: &str) -> String {
    let paragraphs: String = (1..=4)
        .map(|p| {
            format!(
                "<p>Paragraph {p} about the {subject}: the {subject} was visited by reporters number {n} who \
                 wrote down what they saw there, how the people near the {subject} live and work, and what \
                 changed since the last report was published on these pages.</p>"
            )
        })
        .collect();
    format!(
        r#"<!doctype html><html><head><title>The {subject} story - Loopback News</title>
        <meta name="author" content="Writer {n}"></head>
        <body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
        <article><h1>The {subject} story</h1><p class="byline">By Writer {n}</p>{paragraphs}</article>
        <footer>Loopback News, all rights reserved</footer></body></html>"#
    )
}

/// The list page: each item a linked title and a date, for the time-pattern engine.
fn list(links: &[(String, &str)]) -> String {
    let items: String = links
        .iter()
        .enumerate()
        .map(|(i, (href, subject))| {
            format!(r#"<li><a href="{href}">The {subject} story</a> <span>2024-03-{:02} 10:00</span></li>"#, 20 - i)
        })
        .collect();
    format!("<html><head><title>Loopback News</title></head><body><h1>Latest</h1><ul>{items}</ul></body></html>")
}

/// A site whose `/post/N` pages are articles (each answered slowly, so overlapping requests
/// would be seen) and whose other paths are 404.
fn article_site(first: usize) -> TestServer {
    TestServer::start(move |request| {
        let n = request.path.strip_prefix("/post/").and_then(|n| n.parse::<usize>().ok());
        match n {
            Some(n) if (first..first + 4).contains(&n) => {
                thread::sleep(Duration::from_millis(40));
                Reply::html(article(n, SUBJECTS[n]))
            }
            _ => Reply::status(404),
        }
    })
}

fn no_overlap(spans: &[Span]) {
    for (i, a) in spans.iter().enumerate() {
        for b in &spans[i + 1..] {
            assert!(!a.overlaps(b), "two requests to one host overlapped: {a:?} and {b:?}");
        }
    }
}

fn fetcher(pinned: Vec<(String, std::net::SocketAddr)>) -> Fetcher {
    let config =
        FetchConfig { allow_private: true, total_timeout: Duration::from_secs(5), pinned, ..FetchConfig::default() };
    Fetcher::new(&config).unwrap()
}

const BACKOFF: Backoff = Backoff { base: Duration::from_millis(100), max: Duration::from_secs(1) };

#[tokio::test]
async fn every_item_of_a_list_gets_content_and_author_politely() {
    // Two sites: a.test has posts 0–3, b.test posts 4–7; the list interleaves them.
    let a = article_site(0);
    let b = article_site(4);
    let links: Vec<(String, &str)> = (0..8)
        .map(|i| {
            let n = if i % 2 == 0 { i / 2 } else { 4 + i / 2 };
            let host = if n < 4 { "a.test" } else { "b.test" };
            (format!("http://{host}/post/{n}"), SUBJECTS[n])
        })
        .collect();
    let list_html = list(&links);
    let front = TestServer::start(move |_| Reply::html(list_html.clone()));
    let fetcher = fetcher(vec![("a.test".into(), a.addr), ("b.test".into(), b.addr), ("news.test".into(), front.addr)]);

    let list_url = Url::parse("http://news.test/latest").unwrap();
    let response = fetcher.get(&list_url).await.unwrap();
    let doc = dom::parse(&response.body, &response.url, &ParseOptions::default()).unwrap();
    let extraction = timepattern::extract(&doc, TimePatternDb::builtin(), &DateContext::new(Utc::now().fixed_offset()));
    let mut items: Vec<Item> = extraction.page.items().cloned().collect();
    assert_eq!(items.len(), 8, "{items:#?}");
    assert!(items.iter().all(|i| i.content.is_none() && i.author.is_none()));

    let hosts = Hosts::local(Duration::from_millis(60), BACKOFF);
    let pages = ArticlePages {
        fetcher: &fetcher,
        hosts: &hosts,
        concurrency: 4,
        max_pages: 50,
        patience: Duration::from_secs(5),
    };
    let report = pages.enrich(None, &mut items, Utc::now()).await;
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert_eq!((report.requested, report.enriched()), (8, 8));

    for item in &items {
        let link = item.link.as_ref().unwrap();
        let n: usize = link.path().trim_start_matches("/post/").parse().unwrap();
        let content = item.content.as_deref().unwrap_or_else(|| panic!("no content for {link}"));
        assert!(content.contains(&format!("Paragraph 4 about the {}", SUBJECTS[n])), "{link}: {content}");
        assert!(!content.contains("all rights reserved") && !content.contains("About"), "{link}: {content}");
        assert_eq!(item.author.as_deref(), Some(format!("Writer {n}").as_str()), "{link}");
        // The list's own title and date stay.
        assert_eq!(item.title, format!("The {} story", SUBJECTS[n]));
        assert!(item.date.is_some());
    }
    for site in [&a, &b] {
        let spans = site.spans();
        assert_eq!(spans.len(), 4, "{spans:?}");
        no_overlap(&spans);
        // The gate's delay (60 ms) between the end of one request and the start of the next.
        // The server notes a request's end after its last write, which a loaded machine may
        // run well after the client had the answer: 20 ms of slack, far above the ~1 ms gap
        // that requests without a delay leave.
        let mut starts: Vec<&Span> = spans.iter().collect();
        starts.sort_by_key(|s| s.start);
        for pair in starts.windows(2) {
            assert!(pair[1].start >= pair[0].end + Duration::from_millis(40), "{pair:?}");
        }
    }
}

#[tokio::test]
async fn a_page_is_fetched_once_failures_leave_items_alone_and_the_budget_defers() {
    let site = article_site(0);
    let fetcher = fetcher(vec![("a.test".into(), site.addr)]);
    let item = |n: usize, fragment: &str| {
        let mut item = Item::new(format!("Item {n}"));
        item.link = Some(Url::parse(&format!("http://a.test/post/{n}{fragment}")).unwrap());
        item.description = Some(format!("Teaser {n}"));
        item
    };
    let mut with_content = item(3, "");
    with_content.content = Some("<p>Already here</p>".into());
    let mut items = vec![
        item(0, ""),
        item(0, "#comments"),
        item(9, ""),
        with_content,
        Item::new("No link"),
        item(1, ""),
        item(2, ""),
    ];
    let before = items.clone();
    let hosts = Hosts::local(Duration::ZERO, BACKOFF);
    let pages = ArticlePages {
        fetcher: &fetcher,
        hosts: &hosts,
        concurrency: 2,
        max_pages: 3,
        patience: Duration::from_secs(5),
    };
    let report = pages.enrich(Some(Arc::new(template_rule())), &mut items, Utc::now()).await;

    // post/0 (twice, one fetch), post/9 (404), post/1: three pages; post/2 is over the budget.
    assert_eq!(report.requested, 3);
    let failed = |i: usize| match report.outcomes[i] {
        Outcome::Failed(f) => Some(&report.failures[f].1),
        _ => None,
    };
    assert_eq!(report.outcomes[0], Outcome::Enriched);
    assert_eq!(report.outcomes[1], Outcome::Enriched);
    assert!(matches!(failed(2), Some(ArticlePageError::Fetch(FetchError::Status { status: 404, .. }))), "{report:?}");
    assert_eq!(report.outcomes[3..5], [Outcome::Skipped, Outcome::Skipped]);
    assert_eq!(report.outcomes[5], Outcome::Enriched);
    assert_eq!(report.outcomes[6], Outcome::Deferred);
    assert_eq!((report.enriched(), report.failed(), report.deferred()), (3, 1, 1));
    for i in [2, 3, 4, 6] {
        assert_eq!(items[i], before[i], "item {i} should be as it was");
    }
    // The template's article part found the byline.
    assert_eq!(items[0].author.as_deref(), Some("By Writer 0"));
    assert!(items[1].content.as_deref().unwrap().contains("about the harbour"));
    let mut paths: Vec<String> = site.requests().into_iter().map(|r| r.path).collect();
    paths.sort();
    assert_eq!(paths, ["/post/0", "/post/1", "/post/9"]);
}

/// A template with only an article part: the byline as author (the generic extractor would
/// take the meta tag's "Writer N").
fn template_rule() -> html2rss::engines::rules::Rule {
    let xml = r#"<page>
        <name>a.test articles</name>
        <article>
          <url>http://a.test/post/*</url>
          <title>//H1</title>
          <content>//ARTICLE</content>
          <author>//P[@class=byline]</author>
        </article>
      </page>"#;
    html2rss::engines::rules::Rule::parse(xml, "test template").unwrap()
}

/// `extract --full-text` with the time-pattern engine (no template) on a list page saved with
/// its articles: each item's local page gives its content and author.
#[test]
fn extract_full_text_reads_the_items_local_pages() {
    let dir = tempfile::tempdir().unwrap();
    let links: Vec<(String, &str)> = (0..4).map(|n| (format!("post{n}.html"), SUBJECTS[n])).collect();
    std::fs::write(dir.path().join("list.html"), list(&links)).unwrap();
    for (n, subject) in SUBJECTS.iter().enumerate().take(4) {
        std::fs::write(dir.path().join(format!("post{n}.html")), article(n, subject)).unwrap();
    }
    let list_path = dir.path().join("list.html");
    let output = Command::new(env!("CARGO_BIN_EXE_html2rss"))
        .args(["extract", list_path.to_str().unwrap(), "--full-text", "--format", "json"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let items = json["items"].as_array().unwrap();
    assert_eq!(items.len(), 4, "{json}");
    for item in items {
        let url = item["url"].as_str().unwrap();
        let n: usize = url.trim_end_matches(".html").rsplit("post").next().unwrap().parse().unwrap();
        let content = item["content_html"].as_str().unwrap();
        assert!(content.contains(&format!("Paragraph 3 about the {}", SUBJECTS[n])), "{url}: {content}");
        assert_eq!(item["authors"][0]["name"], format!("Writer {n}"), "{url}");
    }
    // Without --full-text the items have no content of their own.
    let output = Command::new(env!("CARGO_BIN_EXE_html2rss"))
        .args(["extract", list_path.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(
        json["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| !i["content_html"].as_str().unwrap_or_default().contains("Paragraph"))
    );
}

/// A host that answers `503` with `Retry-After: 120` is not asked again in the run: its other
/// pages are left for a later one, not waited for.
#[tokio::test]
async fn a_host_that_asks_for_a_pause_is_left_for_later() {
    let site = TestServer::start(|_| Reply::status(503).header("Retry-After", "120"));
    let fetcher = fetcher(vec![("a.test".into(), site.addr)]);
    let mut items: Vec<Item> = (0..3)
        .map(|n| {
            let mut item = Item::new(format!("Item {n}"));
            item.link = Some(Url::parse(&format!("http://a.test/post/{n}")).unwrap());
            item
        })
        .collect();
    let hosts = Hosts::local(Duration::ZERO, BACKOFF);
    let pages = ArticlePages {
        fetcher: &fetcher,
        hosts: &hosts,
        concurrency: 2,
        max_pages: 10,
        patience: Duration::from_secs(5),
    };
    let started = std::time::Instant::now();
    let report = pages.enrich(None, &mut items, Utc::now()).await;
    assert!(started.elapsed() < Duration::from_secs(5), "the pause was not waited out");
    assert!(matches!(report.outcomes[0], Outcome::Failed(_)), "{report:?}");
    assert_eq!(report.outcomes[1..], [Outcome::Deferred, Outcome::Deferred]);
    assert_eq!(site.requests().len(), 1);
}

/// A page dated the way `kind` says: a meta tag, JSON-LD, a `<time>` element, or not at all.
fn dated_page(title: &str, kind: &str, date: &str) -> String {
    let (head, body) = match kind {
        "meta" => (format!(r#"<meta property="article:published_time" content="{date}">"#), String::new()),
        "json-ld" => (
            format!(
                r#"<script type="application/ld+json">{{"@context": "https://schema.org", "@type": "BlogPosting",
                "headline": "{title}", "datePublished": "{date}"}}</script>"#
            ),
            String::new(),
        ),
        "time" => (String::new(), format!(r#"<p class="meta"><time datetime="{date}">{date}</time></p>"#)),
        _ => (String::new(), String::new()),
    };
    let paragraphs: String = (1..=3)
        .map(|p| {
            format!("<p>Part {p} of {title}: what was seen, who said what, and what comes next for all of them.</p>")
        })
        .collect();
    format!(
        r#"<!doctype html><html><head><title>{title} - Quiet Notes</title>{head}</head><body>
        <header><a href="/">Quiet Notes</a></header><article><h1>{title}</h1>{body}{paragraphs}</article></body></html>"#
    )
}

/// The pages of [`dated_page`], with the dates each gives (`None`: no date).
const DATED: [(&str, &str, Option<&str>); 4] = [
    ("meta", "2023-11-02T08:30:00+01:00", Some("2023-11-02T08:30:00+01:00")),
    ("json-ld", "2023-10-15T12:00:00Z", Some("2023-10-15T12:00:00+00:00")),
    ("time", "2023-09-30", Some("2023-09-30T00:00:00+00:00")),
    ("none", "", None),
];

#[tokio::test]
async fn dates_are_read_from_each_page_once_politely_within_the_budget() {
    let site = TestServer::start(|request| {
        let n = request.path.strip_prefix("/note/").and_then(|n| n.parse::<usize>().ok());
        match n.and_then(|n| DATED.get(n).map(|d| (n, d))) {
            Some((n, (kind, date, _))) => {
                thread::sleep(Duration::from_millis(20));
                Reply::html(dated_page(&format!("Note {n}"), kind, date))
            }
            None => Reply::status(404),
        }
    });
    let fetcher = fetcher(vec![("a.test".into(), site.addr)]);
    let item = |link: &str| {
        let mut item = Item::new("A note");
        item.link = Url::parse(link).ok();
        item
    };
    let mut items: Vec<Item> = (0..4).map(|n| item(&format!("http://a.test/note/{n}"))).collect();
    items.push(item("http://a.test/note/0#comments"));
    items.push(item("http://a.test/note/9"));
    items.push(Item::new("No link"));
    items.push(item("http://a.test/note/over-budget"));
    let hosts = Hosts::local(Duration::from_millis(10), BACKOFF);
    let pages = ArticlePages {
        fetcher: &fetcher,
        hosts: &hosts,
        concurrency: 4,
        max_pages: 5,
        patience: Duration::from_secs(5),
    };
    let report = pages.dates(&items).await;

    let date = |text: &str| chrono::DateTime::parse_from_rfc3339(text).unwrap();
    for (n, (_, _, expected)) in DATED.iter().enumerate() {
        let wanted = expected.map_or(DateOutcome::NotOnPage, |d| DateOutcome::Found(date(d)));
        assert_eq!(report.outcomes[n], wanted, "note {n}");
    }
    assert_eq!(report.outcomes[4], report.outcomes[0], "the same page without its fragment");
    assert!(matches!(report.outcomes[5], DateOutcome::Failed(f) if matches!(
        report.failures[f].1,
        ArticlePageError::Fetch(FetchError::Status { status: 404, .. })
    )));
    assert_eq!(report.outcomes[6..], [DateOutcome::Skipped, DateOutcome::Deferred]);
    assert_eq!(report.requested, 5);
    let mut paths: Vec<String> = site.requests().into_iter().map(|r| r.path).collect();
    paths.sort();
    assert_eq!(paths, ["/note/0", "/note/1", "/note/2", "/note/3", "/note/9"]);
    no_overlap(&site.spans());
}

/// `extract --full-text` fills the dates a list page does not show from the items' pages,
/// whichever engine found the items (the time-pattern engine finds items by their dates, so a
/// list without dates gives it none to fill).
#[test]
fn extract_full_text_gives_undated_items_their_pages_dates_with_every_algorithm() {
    let dir = tempfile::tempdir().unwrap();
    let posts: String = (0..DATED.len())
        .map(|n| {
            format!(
                r#"<article class="post"><h2><a href="note{n}.html">Note {n} from the pier</a></h2>
                <p>A few words about what the pier looked like this week, seen from the old customs
                house, number {n}.</p></article>"#
            )
        })
        .collect();
    let list = format!(
        r#"<!doctype html><html><head><title>Quiet Notes</title></head><body>
        <header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>
        <main><h1>Quiet Notes</h1>{posts}</main><footer>Quiet Notes, written by hand</footer></body></html>"#
    );
    std::fs::write(dir.path().join("list.html"), list).unwrap();
    for (n, (kind, date, _)) in DATED.iter().enumerate() {
        std::fs::write(dir.path().join(format!("note{n}.html")), dated_page(&format!("Note {n}"), kind, date)).unwrap();
    }
    let rule = dir.path().join("notes.xml");
    std::fs::write(
        &rule,
        r#"<page><name>quiet notes</name><subject path="//MAIN"><item path="ARTICLE">
           <title>H2/A</title><link>H2/A/@href</link><description>P</description></item></subject></page>"#,
    )
    .unwrap();
    let list_path = dir.path().join("list.html");
    let rule_path = rule.to_str().unwrap();
    for extra in [
        vec!["--algorithm", "auto"],
        vec!["--algorithm", "rule", "--rule", rule_path],
        vec!["--algorithm", "template", "--template", rule_path],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_html2rss"))
            .args(["extract", list_path.to_str().unwrap(), "--full-text", "--format", "json"])
            .args(&extra)
            .output()
            .unwrap();
        assert!(output.status.success(), "{extra:?}: {}", String::from_utf8_lossy(&output.stderr));
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let items = json["items"].as_array().unwrap();
        assert_eq!(items.len(), DATED.len(), "{extra:?}: {json}");
        for item in items {
            let url = item["url"].as_str().unwrap();
            let n: usize = url.trim_end_matches(".html").rsplit("note").next().unwrap().parse().unwrap();
            assert_eq!(item["date_published"].as_str(), DATED[n].2, "{extra:?}: {url}");
        }
    }
}
