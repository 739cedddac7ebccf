//! Templates trained by the server: a loopback blog that advertises its feed. The first refresh
//! (a new source) only extracts; the next one trains the site's template from the feed, the
//! page and three article pages and stores it; the refresh after that serves the page with the
//! template (and its article part gives full text). Training is not repeated within a day.

mod common;

use std::time::Duration;

use chrono::{TimeDelta, Utc};
use common::http::{Reply, TestServer};
use common::server::{config, start};
use html2rss::engines::Engine;
use html2rss::updater::refresh_source;
use html2rss::updater::train::Training;
use url::Url;

const POSTS: [(&str, &str); 6] = [
    ("Tuning the old organ", "organ"),
    ("A winter of bread baking", "bread"),
    ("Notes from the coastal path", "coast"),
    ("Repairing a bicycle wheel", "wheel"),
    ("Why the moths came back", "moths"),
    ("The allotment in March", "allotment"),
];

fn summary(i: usize) -> String {
    let (_, word) = POSTS[i];
    format!("This week the {word} took most of my time, and here is what I learned about the {word}.")
}

/// The blog's home page: each post a card with its title link, date and summary, between a
/// header and a sidebar the template must leave out.
fn home() -> String {
    let cards: String = POSTS
        .iter()
        .enumerate()
        .map(|(i, (title, _))| {
            format!(
                r#"<div class="post-card"><h2 class="post-title"><a href="/posts/{i}/">{title}</a></h2>
                <div class="post-meta"><span class="when">March {}, 2024</span></div>
                <p class="post-summary">{}</p></div>"#,
                20 - i,
                summary(i)
            )
        })
        .collect();
    format!(
        r#"<!doctype html><html><head><title>Field Notes</title>
        <link rel="alternate" type="application/rss+xml" title="Field Notes" href="/index.xml"></head>
        <body><header class="site"><a href="/">Field Notes</a> <a href="/about/">About</a></header>
        <main class="posts">{cards}</main>
        <aside class="sidebar"><h3>Elsewhere</h3><a href="https://example.org/">A friend's blog</a></aside>
        </body></html>"#
    )
}

fn post(i: usize) -> String {
    let (title, word) = POSTS[i];
    let body: String = (1..=5)
        .map(|p| {
            format!(
                "<p>{} Paragraph {p} goes on about the {word}: what went well with the {word}, what did \
                 not, and what I would do differently with the {word} next time.</p>",
                if p == 1 { summary(i) } else { String::new() }
            )
        })
        .collect();
    format!(
        r#"<!doctype html><html><head><title>{title} - Field Notes</title></head>
        <body><header class="site"><a href="/">Field Notes</a></header>
        <div class="single"><h1 class="entry-title">{title}</h1>
        <div class="byline">by <span class="writer">Robin Vale</span> on <span class="when">March {}, 2024</span></div>
        <div class="entry-body">{body}</div>
        <div class="comments"><h3>Comments</h3><p>Great post about something else entirely, thanks!</p></div></div>
        </body></html>"#,
        20 - i
    )
}

fn feed() -> String {
    let items: String = POSTS
        .iter()
        .enumerate()
        .map(|(i, (title, _))| {
            format!(
                "<item><title>{title}</title><link>/posts/{i}/</link><pubDate>{} Mar 2024 09:00:00 +0000</pubDate>\
                 <author>Robin Vale</author><description>{}</description></item>",
                20 - i,
                summary(i)
            )
        })
        .collect();
    format!(
        r#"<?xml version="1.0"?><rss version="2.0"><channel><title>Field Notes</title><link>/</link>
        <description>notes</description>{items}</channel></rss>"#
    )
}

fn blog() -> TestServer {
    TestServer::start(|request| {
        let path = request.path.as_str();
        if path == "/" {
            return Reply::html(home());
        }
        if path == "/index.xml" {
            return Reply::status(200).header("Content-Type", "application/rss+xml").body(feed());
        }
        match path.strip_prefix("/posts/").and_then(|p| p.trim_end_matches('/').parse::<usize>().ok()) {
            Some(i) if i < POSTS.len() => Reply::html(post(i)),
            _ => Reply::status(404),
        }
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_updater_trains_a_template_from_the_sites_feed_and_then_serves_the_page_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(&dir.path().join("feeds.db"));
    config.updater.train_templates = true;
    config.updater.per_host_delay = Duration::from_millis(5);
    let server = start(&config, false);
    let site = blog();
    let page = Url::parse(&site.url("/")).unwrap();
    let store = &server.ctx.store;
    let settings =
        html2rss::store::SourceSettings { rule: None, full_text: false, update_interval: Duration::from_secs(3600) };
    let (source, _) = store.add_source(&page, &settings, Utc::now()).unwrap();

    // A new source: extracted, nothing trained.
    let first = refresh_source(&server.ctx, source.id, Utc::now()).await.unwrap();
    assert_eq!(first.training, None);
    assert_ne!(first.source.engine, Some(Engine::Template));
    assert!(site.requests().iter().all(|r| r.path != "/index.xml"));

    // The next refresh trains from the feed, the page and three article pages.
    let second = refresh_source(&server.ctx, source.id, Utc::now()).await.unwrap();
    let Some(Training::Trained(template)) = &second.training else { panic!("{:?}", second.training) };
    assert_eq!(template.site, "127.0.0.1");
    let stored = store.template("127.0.0.1").unwrap().unwrap();
    assert_eq!(stored.xml, template.xml);
    assert!(stored.confidence >= 0.5, "{}", stored.confidence);
    let article_requests: Vec<String> =
        site.requests().into_iter().map(|r| r.path).filter(|p| p.starts_with("/posts/")).collect();
    assert_eq!(article_requests.len(), 3, "{article_requests:?}");
    assert!(store.source(source.id).unwrap().unwrap().next_due <= Utc::now(), "made due for the template");

    // The refresh after that serves the page with the template, and with full text on, the
    // template's article part gives the items their content (not the comments) and author.
    store.set_full_text(source.id, true, Utc::now()).unwrap();
    let third = refresh_source(&server.ctx, source.id, Utc::now()).await.unwrap();
    assert_eq!(third.source.engine, Some(Engine::Template), "{:?}", third.made_by);
    assert_eq!(third.made_by.as_deref(), Some("the site's trained template"));
    assert_eq!(third.training, Some(Training::NotDue), "trained less than a day ago");
    let items = store.items(source.id, 50).unwrap();
    let mut titles: Vec<&str> = items.iter().map(|s| s.item.title.as_str()).collect();
    titles.sort();
    let mut expected: Vec<&str> = POSTS.iter().map(|(t, _)| *t).collect();
    expected.sort();
    assert_eq!(titles, expected);
    assert!(items.iter().all(|s| !s.item.link.as_ref().unwrap().as_str().contains("example.org")));
    assert_eq!(third.articles.map(|a| (a.enriched, a.failed)), Some((6, 0)));
    for stored in &items {
        let content = stored.item.content.as_deref().unwrap();
        assert!(content.contains("Paragraph 5 goes on"), "{content}");
        assert!(!content.contains("Great post") && !content.contains("Comments"), "{content}");
        assert_eq!(stored.item.author.as_deref(), Some("Robin Vale"));
    }

    // A day later the site is trained again.
    let later = Utc::now() + TimeDelta::days(1) + TimeDelta::minutes(1);
    let fourth = refresh_source(&server.ctx, source.id, later).await.unwrap();
    assert!(matches!(fourth.training, Some(Training::Trained(_))), "{:?}", fourth.training);
    server.stop().await;
}
