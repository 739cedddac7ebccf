//! Feed-trained templates: on the development corpus (read in place), on pages built for one
//! property each, through the command line, and over a loopback server this test starts.

mod common;

use std::process::Command;

use chrono::Utc;
use common::http::{Reply, TestServer};
use html2rss::dom::{self, Document, ParseOptions};
use html2rss::engines::rules::{Field, Place, Rule};
use html2rss::engines::template::{self, TemplateError};
use html2rss::eval::corpus::{Site, sites};
use html2rss::eval::split::Half;
use html2rss::eval::template::{evaluate, site_feed, training_pages};
use html2rss::eval::text::{normalize_title, tokens};
use html2rss::feed::reader::{self, FeedItem, TrainingFeed};
use url::Url;

fn site(prefix: &str) -> Site {
    sites(&common::corpus_dir()).unwrap().into_iter().find(|s| s.name.starts_with(prefix)).unwrap()
}

fn corpus_doc(site: &Site, file: &str) -> Document {
    let bytes = std::fs::read(site.dir.join(file)).unwrap();
    dom::parse(&bytes, &site.page_urls[file], &ParseOptions::default()).unwrap()
}

fn train_site(site: &Site) -> template::Trained {
    let docs: Vec<Document> = training_pages(site).unwrap().into_iter().map(|(_, d)| d).collect();
    template::train(&site_feed(site).unwrap(), &docs, Utc::now()).unwrap()
}

fn page(html: &str, url: &str) -> Document {
    dom::parse_str(html, &Url::parse(url).unwrap()).unwrap()
}

fn date(text: &str) -> Option<chrono::DateTime<chrono::FixedOffset>> {
    chrono::DateTime::parse_from_rfc3339(text).ok()
}

/// The issue's targets on the tune half, on the list pages the training never saw (page 2,
/// archives) and on the article pages whose feed item carries the full text.
#[test]
fn templates_meet_the_targets_on_unseen_corpus_pages() {
    let report = evaluate(&common::corpus_dir(), Some(Half::Tune)).unwrap();
    println!("{report}");
    let t = report.totals(Some(Half::Tune));
    assert_eq!(t.list_pages, 45, "page 2 and archive pages with usable ground truth");
    assert!(t.occupancy_macro >= 0.95 && t.occupancy_micro >= 0.95, "{t:?}");
    assert!(t.accuracy_pages >= 9 && t.accuracy_macro >= 0.97 && t.accuracy_micro >= 0.97, "{t:?}");
    assert!(t.title_equal >= 0.97, "{t:?}");
    assert!(t.date_same_day >= 0.95, "{t:?}");
    assert!(t.full_text_articles >= 25 && t.article_f1 >= 0.95, "{t:?}");
    // Trained without the page it is scored on, too.
    assert!(t.article_f1_held_out >= 0.95, "{t:?}");
    // Every site with a usable feed gets a template; the broken feed of 0cean-kr (all items
    // link to one page) is refused, not guessed at.
    let refused: Vec<&str> = report.sites.iter().filter(|s| s.confidence.is_none()).map(|s| s.site.as_str()).collect();
    assert_eq!(refused, ["0cean-kr__0cean-kr.github.io"]);
}

/// Feeds of summaries (Hugo's `.Summary`, a line, a few words) still give the whole article:
/// the summary matches a paragraph best, and the content is the element that holds all of them.
#[test]
fn truncated_descriptions_give_the_whole_article() {
    for prefix in ["myuon", "Brian-WBY", "KeenS", "jiro4989", "094459"] {
        let site = site(prefix);
        let feed = site_feed(&site).unwrap();
        let trained = train_site(&site);
        let content = trained.rule.article.as_ref().and_then(|a| a.content.as_ref());
        assert!(content.is_some(), "{prefix}: no content path\n{}", trained.rule.to_xml());
        let mut longer = 0;
        for (file, url) in site.articles() {
            let doc = corpus_doc(&site, file.file_name().unwrap().to_str().unwrap());
            let item = feed.items.iter().find(|i| i.link.as_ref().is_some_and(|l| l.path() == url.path())).unwrap();
            assert!(item.content().is_none(), "{prefix}: the feed has only summaries");
            let summary = item.summary().unwrap();
            let text = template::content_text(&trained.rule, &doc).unwrap();
            let (summary_tokens, text_tokens) = (tokens(summary), tokens(&text));
            // The summary is in the content (code the feed writes without spaces aside), and the
            // content is much more than the summary.
            let held = summary_tokens.iter().filter(|t| text_tokens.contains(t)).count();
            assert!(held as f64 >= 0.8 * summary_tokens.len() as f64, "{prefix} {url}: {summary:?} not in the content");
            longer += usize::from(text_tokens.len() as f64 >= 1.1 * summary_tokens.len() as f64 + 5.0);
        }
        // A short post may be all in its summary; most posts are longer.
        assert!(longer >= 2, "{prefix}: the content is no more than the summary");
    }
}

/// The page's titles differ from the feed's: shortened, with a date before them, reworded,
/// or linked first from a thumbnail without text.
#[test]
fn titles_that_differ_between_feed_and_page() {
    let list = r#"<html><body><main class="posts">
        <div class="entry"><a class="thumb" href="/p/1/"><img src="1.png"></a><h2 class="title">Learning Notes Of Segment Anything…</h2><span>2024-03-01</span></div>
        <div class="entry"><a class="thumb" href="/p/2/"><img src="2.png"></a><h2 class="title">2024-02-01 Writing a parser in Rust</h2><span>2024-02-01</span></div>
        <div class="entry"><a class="thumb" href="/p/3/"><img src="3.png"></a><h2 class="title">The Embedded Working Group Newsletter #28</h2><span>2024-01-01</span></div>
        </main><aside><a href="/p/1/">Learning Notes Of Segment Anything Model (SAM)</a></aside></body></html>"#;
    let feed = TrainingFeed {
        title: "Blog".into(),
        site: None,
        items: vec![
            FeedItem::new(
                "Learning Notes Of Segment Anything Model (SAM)",
                Url::parse("https://b.org/p/1/").ok(),
                date("2024-03-01T10:00:00Z"),
            ),
            FeedItem::new(
                "Writing a parser in Rust",
                Url::parse("https://b.org/p/2/").ok(),
                date("2024-02-01T10:00:00Z"),
            ),
            FeedItem::new(
                "The Embedded Working Group Newsletter - 28",
                Url::parse("https://b.org/p/3/").ok(),
                date("2024-01-01T10:00:00Z"),
            ),
        ],
    };
    let trained = template::train(&feed, &[page(list, "https://b.org/")], Utc::now()).unwrap();
    let rule = &trained.rule;
    assert_eq!(rule.subjects[0].item.path.to_string(), "DIV[@class=entry]", "{}", rule.to_xml());
    assert_eq!(rule.subjects[0].item.title.as_ref().unwrap().to_string(), "H2[@class=title]");
    assert_eq!(rule.support[&Place::Item(0)].matched, 3);
    // Page 2 of the same site.
    let page_2 = r#"<html><body><main class="posts">
        <div class="entry"><a class="thumb" href="/p/0/"><img src="0.png"></a><h2 class="title">An older post</h2><span>2023-12-01</span></div>
        <div class="entry"><a class="thumb" href="/p/-1/"><img src="-1.png"></a><h2 class="title">The oldest post</h2><span>2023-11-01</span></div>
        </main></body></html>"#;
    let items: Vec<(String, String, String)> =
        template::extract(rule, &page(page_2, "https://b.org/page/2/"), Utc::now())
            .page
            .items()
            .map(|i| {
                (i.title.clone(), i.link.as_ref().unwrap().path().to_string(), i.date.unwrap().date_naive().to_string())
            })
            .collect();
    assert_eq!(
        items,
        [
            ("An older post".to_string(), "/p/0/".to_string(), "2023-12-01".to_string()),
            ("The oldest post".to_string(), "/p/-1/".to_string(), "2023-11-01".to_string())
        ]
    );

    // On the corpus: YuWeiKuo's homepage links each post first from its thumbnail; page 2,
    // which the training never saw, gets the feed's titles.
    let site = site("YuWeiKuo");
    let trained = train_site(&site);
    let page_2 = template::extract(&trained.rule, &corpus_doc(&site, "page_2_index.html"), Utc::now()).page;
    let feed = site_feed(&site).unwrap();
    let mut compared = 0;
    for item in page_2.items() {
        let link = item.link.as_ref().unwrap();
        if let Some(truth) = feed.items.iter().find(|f| f.link.as_ref().is_some_and(|l| l.path() == link.path())) {
            assert_eq!(normalize_title(&item.title), normalize_title(&truth.title));
            compared += 1;
        }
    }
    assert_eq!(compared, 9);
}

/// The key-path paper's feeds whose title holds the content: the page text the title starts
/// with is the title, the rest of it is the content.
#[test]
fn feeds_whose_title_holds_the_content() {
    let posts = [
        (
            "Rainy days",
            "The rain kept on falling all week long and the garden finally turned green again after the dry summer, which made the neighbours very happy indeed.",
        ),
        (
            "A new bicycle",
            "I bought a new bicycle with twenty-one gears and a comfortable saddle, and rode it to the lake and back on the first sunny morning of the month.",
        ),
        (
            "Learning the cello",
            "After ten lessons the cello still sounds like a complaining door, but my teacher says that the bow arm is getting steadier every single week.",
        ),
    ];
    let mut feed = TrainingFeed { title: "Microblog".into(), site: None, items: Vec::new() };
    let mut list = String::from("<html><body><ul class=posts>");
    let mut docs = Vec::new();
    for (i, (title, text)) in posts.iter().enumerate() {
        let link = format!("https://m.org/{}/", i + 1);
        // The feed's title is the post's title and its whole text; there is no description.
        feed.items.push(FeedItem::new(
            format!("{title} {text}"),
            Url::parse(&link).ok(),
            date(&format!("2024-05-0{}T08:00:00Z", i + 1)),
        ));
        list.push_str(&format!(r#"<li><a href="{link}">{title}</a> <small>2024-05-0{}</small></li>"#, i + 1));
        docs.push(page(
            &format!(
                r#"<html><body><nav><a href="/">Home</a></nav><div class="post"><h1 class="headline">{title}</h1>
                <div class="body"><p>{text}</p></div></div><footer>© m.org</footer></body></html>"#
            ),
            &link,
        ));
    }
    list.push_str("</ul></body></html>");
    docs.push(page(&list, "https://m.org/"));
    let trained = template::train(&feed, &docs, Utc::now()).unwrap();
    let rule = &trained.rule;
    assert_eq!(rule.subjects[0].item.title.as_ref().unwrap().to_string(), "A", "{}", rule.to_xml());
    let article = rule.article.as_ref().unwrap();
    assert_eq!(
        article.title.as_ref().unwrap().to_string(),
        "//H1[@class=headline]",
        "{}\n{:?}",
        rule.to_xml(),
        trained.notes
    );
    assert_eq!(article.content.as_ref().unwrap().to_string(), "//DIV[@class=body]");
    let item = template::template_article(rule, &docs[0], Utc::now()).unwrap();
    assert_eq!(item.title, "Rainy days");
    assert!(item.content.unwrap().contains("garden finally turned green"));
}

const POST: &str = r#"<html><head><title>Hello world</title></head><body><article class="post"><h1>Hello world</h1>
    <div class="entry"><p>Welcome to the new blog, where I will write about gardening, bicycles and music.</p>
    <p>Expect a post every week about the things I learn along the way.</p></div></article>
    <section id="comments"><ol class="comment-list">
    <li class="comment" id="comment-12"><p>Welcome to the new blog, where I will write about gardening, bicycles and music — quoting you, because I love it!</p></li>
    <li class="comment" id="comment-13"><p>Looking forward to the posts about music and the bicycles you ride.</p></li></ol></section></body></html>"#;

/// A comment feed gives comments, not posts: a template learned from it would take comments
/// for the content, so training refuses it; and comments are never the content of a post.
#[test]
fn a_comment_feed_is_not_learned_as_content() {
    let wordpress = r#"<?xml version="1.0"?><rss version="2.0"><channel><title>Comments on: Hello world</title>
        <link>https://g.org/hello-world/</link>
        <item><title>By: Alice</title><link>https://g.org/hello-world/#comment-12</link><pubDate>Mon, 06 May 2024 10:00:00 +0000</pubDate>
        <description>Welcome to the new blog, where I will write about gardening, bicycles and music — quoting you, because I love it!</description></item>
        <item><title>By: Bob</title><link>https://g.org/hello-world/#comment-13</link><pubDate>Mon, 06 May 2024 11:00:00 +0000</pubDate>
        <description>Looking forward to the posts about music and the bicycles you ride.</description></item>
        </channel></rss>"#;
    let post = page(POST, "https://g.org/hello-world/");
    let feed =
        reader::read_feed(wordpress.as_bytes(), &Url::parse("https://g.org/hello-world/feed/").unwrap()).unwrap();
    let err = template::train(&feed, std::slice::from_ref(&post), Utc::now()).unwrap_err();
    assert!(matches!(&err, TemplateError::CommentFeed(reason) if reason.contains("Comments on")), "{err}");
    // Without the telling title: the items link to comment anchors of one page.
    let untitled = wordpress.replace("Comments on: Hello world", "Hello world");
    let feed = reader::read_feed(untitled.as_bytes(), &Url::parse("https://g.org/feed/").unwrap()).unwrap();
    let err = template::train(&feed, std::slice::from_ref(&post), Utc::now()).unwrap_err();
    assert!(matches!(&err, TemplateError::CommentFeed(reason) if reason.contains("comment anchors")), "{err}");

    // The post feed, whose description a comment quotes word for word: the content is the
    // post's entry, not the comment.
    let posts = r#"<?xml version="1.0"?><rss version="2.0"><channel><title>G</title><link>https://g.org/</link>
        <item><title>Hello world</title><link>https://g.org/hello-world/</link><pubDate>Mon, 06 May 2024 09:00:00 +0000</pubDate>
        <description>Welcome to the new blog, where I will write about gardening, bicycles and music.</description></item>
        </channel></rss>"#;
    let feed = reader::read_feed(posts.as_bytes(), &Url::parse("https://g.org/feed/").unwrap()).unwrap();
    let trained = template::train(&feed, std::slice::from_ref(&post), Utc::now()).unwrap();
    let content = trained.rule.article.as_ref().unwrap().content.as_ref().unwrap();
    assert_eq!(content.to_string(), "//DIV[@class=entry]");
    let text = template::content_text(&trained.rule, &post).unwrap();
    assert!(text.contains("every week") && !text.contains("quoting you"), "{text}");
    // Learned from one page: it says so.
    assert_eq!(trained.rule.support[&Place::Article(Field::Content)].matched, 1);
    assert!(trained.confidence < 0.7, "{}", trained.confidence);
    assert!(trained.notes.iter().any(|n| n.contains("low support")), "{:?}", trained.notes);
}

/// A feed whose items are not on the pages makes no template: training says why.
#[test]
fn too_few_matches_are_an_error_with_the_reason() {
    let feed = TrainingFeed {
        title: "Elsewhere".into(),
        site: None,
        items: vec![
            FeedItem::new("Nothing here", Url::parse("https://x.org/a/").ok(), None),
            FeedItem::new("Nor here", Url::parse("https://x.org/b/").ok(), None),
        ],
    };
    let home = page(
        "<html><body><ul><li><a href=/c/>Other</a></li><li><a href=/d/>Posts</a></li></ul></body></html>",
        "https://x.org/",
    );
    let err = template::train(&feed, &[home], Utc::now()).unwrap_err();
    let TemplateError::TooFew(reason) = &err else { panic!("{err}") };
    assert!(reason.contains("fewer than 2 feed items") && reason.contains("no article page"), "{reason}");
}

/// The template is a mapping rule: it round-trips through its XML with its training support,
/// and the rules engine reads it.
#[test]
fn a_template_is_a_rule_that_round_trips() {
    let trained = train_site(&site("YoungsonZhao"));
    let xml = trained.rule.to_xml();
    assert!(xml.contains(r#"matched="10" of="10""#), "{xml}");
    let parsed = Rule::parse(&xml, "template.xml").unwrap();
    assert_eq!(parsed, trained.rule);
    assert_eq!(template::confidence(&parsed), trained.confidence);
    assert!(parsed.urls.iter().any(|u| u.as_str() == "http://blog.zhaoyongsheng.com/page/*"), "{xml}");
}

/// Feed discovery on the corpus homepages: the feed each site advertises is a candidate.
#[test]
fn discovery_finds_the_advertised_feeds_of_the_corpus_sites() {
    let mut found = 0;
    for site in sites(&common::corpus_dir()).unwrap() {
        let doc = corpus_doc(&site, "index.html");
        let candidates = reader::discover_feeds(&doc);
        assert!(!candidates.is_empty());
        let advertised: Vec<Url> = doc.head.feeds.iter().filter_map(|f| doc.base.join(&f.href).ok()).collect();
        found += usize::from(advertised.first().is_some_and(|a| candidates[0] == *a));
        // Every candidate is an http(s) URL of the site's host or an advertised one.
        for c in &candidates {
            assert!(matches!(c.scheme(), "http" | "https"));
        }
    }
    assert!(found >= 12, "{found} homepages advertise their feed first");
}

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_html2rss")).args(args).output().unwrap()
}

/// `train` with local files and their URLs, then `extract --algorithm template` on a list page
/// and on an article page.
#[test]
fn train_and_extract_commands_work_together() {
    let site = site("YoungsonZhao");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("template.xml");
    let arg = |file: &str| format!("{}={}", site.dir.join(file).display(), site.page_urls[file]);
    let feed = site.feed.display().to_string();
    let result = run(&[
        "train",
        "--feed",
        &feed,
        "--base-url",
        site.base_url.as_str(),
        "--page",
        &arg("index.html"),
        "--page",
        &arg("article1.html"),
        "--page",
        &arg("article2.html"),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.contains("10 in its main list"), "{stderr}");
    assert!(stderr.contains("confidence"), "{stderr}");
    let template = out.to_str().unwrap();

    let page_2 = site.dir.join("page_2_index.html");
    let result = run(&[
        "extract",
        page_2.to_str().unwrap(),
        "--base-url",
        site.page_urls["page_2_index.html"].as_str(),
        "--algorithm",
        "template",
        "--template",
        template,
        "--format",
        "json",
    ]);
    assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
    let json: serde_json::Value = serde_json::from_slice(&result.stdout).unwrap();
    let items = json["items"].as_array().unwrap();
    assert_eq!(items.len(), 10);
    assert_eq!(items[0]["title"], "Architecture Of Transformer And PyTorch Implementation");
    // The page shows 23:38:41+08:00; the feed, UTC: the same instant, as the feed writes it.
    assert_eq!(items[0]["date_published"], "2024-12-23T15:38:41+00:00");

    let article = site.dir.join("article3.html");
    let result = run(&[
        "extract",
        article.to_str().unwrap(),
        "--base-url",
        site.page_urls["article3.html"].as_str(),
        "--algorithm",
        "template",
        "--template",
        template,
        "--format",
        "json",
    ]);
    assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
    let json: serde_json::Value = serde_json::from_slice(&result.stdout).unwrap();
    let items = json["items"].as_array().unwrap();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["title"], "Parallel Training Scheme Of Large Model");
    assert!(items[0]["content_html"].as_str().unwrap().contains("HAI-LLM"), "{}", items[0]);

    // Without --template, the template algorithm says what it needs.
    let result = run(&["extract", article.to_str().unwrap(), "--algorithm", "template"]);
    assert!(!result.status.success());
    assert!(String::from_utf8_lossy(&result.stderr).contains("--template FILE"));
}

/// A site served by a loopback server: its feed discovered from its homepage, pages fetched,
/// a template trained, and items from another engine enriched with their full text.
#[tokio::test]
async fn discover_train_and_enrich_over_http() {
    let site = site("Yousanflics");
    let dir = site.dir.clone();
    let paths: Vec<(String, String)> =
        site.page_urls.iter().map(|(file, url)| (url.path().to_string(), file.clone())).collect();
    let server = TestServer::start(move |request| {
        let path = request.path.split('?').next().unwrap_or("/");
        if path == "/atom.xml" {
            return Reply::html(std::fs::read(dir.join("feed.xml")).unwrap())
                .header("Content-Type", "application/atom+xml");
        }
        match paths.iter().find(|(p, _)| p == path) {
            Some((_, file)) => Reply::html(std::fs::read(dir.join(file)).unwrap()),
            None => Reply::status(404),
        }
    });
    let config = html2rss::fetch::FetchConfig { allow_private: true, ..Default::default() };
    let fetcher = html2rss::fetch::Fetcher::new(&config).unwrap();
    let fetch = |url: Url| {
        let fetcher = &fetcher;
        async move {
            let response = fetcher.get(&url).await?;
            Ok::<Document, anyhow::Error>(dom::parse(&response.body, &response.url, &ParseOptions::default())?)
        }
    };
    let home = fetch(Url::parse(&server.url("/")).unwrap()).await.unwrap();
    let candidates = reader::discover_feeds(&home);
    assert_eq!(candidates[0].path(), "/atom.xml");
    let feed_response = fetcher.get(&candidates[0]).await.unwrap();
    let feed = reader::read_feed(&feed_response.body, &feed_response.url).unwrap();
    let mut docs = vec![home];
    for file in ["article1.html", "article2.html"] {
        docs.push(fetch(Url::parse(&server.url(site.page_urls[file].path())).unwrap()).await.unwrap());
    }
    let trained = template::train(&feed, &docs, Utc::now()).unwrap();
    assert!(trained.rule.article.as_ref().is_some_and(|a| a.content.is_some()), "{}", trained.rule.to_xml());

    // Items of the homepage from the time-pattern engine, without content; their pages (on the
    // loopback server) give it. The feed's own links point at swift.gg: the loader maps them.
    let context = html2rss::engines::timepattern::DateContext::new(Utc::now().fixed_offset());
    let mut items: Vec<html2rss::model::Item> = html2rss::engines::timepattern::extract(
        &docs[0],
        html2rss::engines::timepattern::TimePatternDb::builtin(),
        &context,
    )
    .page
    .items()
    .take(3)
    .cloned()
    .collect();
    assert_eq!(items.len(), 3);
    assert!(items.iter().all(|i| i.content.is_none()));
    let mut pages = Vec::new();
    for item in &items {
        let link = item.link.clone().unwrap();
        let local = Url::parse(&server.url(link.path())).unwrap();
        pages.push((link, fetch(local).await));
    }
    let failures = html2rss::engines::enrich::enrich_all(
        Some(&trained.rule),
        &mut items,
        |url| match pages.iter().position(|(l, _)| l == url) {
            Some(i) => match &pages[i].1 {
                Ok(doc) => Ok(doc.clone()),
                Err(e) => Err(format!("{e}")),
            },
            None => Err("not served".to_string()),
        },
        Utc::now(),
    );
    assert!(failures.is_empty(), "{failures:?}");
    for item in &items {
        let content = item.content.as_deref().unwrap();
        assert!(tokens(content).len() > 200, "{}: {content:.200}", item.title);
    }
}

/// A small blog for the tests below: a feed of three posts with their full text, and an
/// article page of each (`canonical`: whether it declares its URL).
fn small_blog_feed() -> TrainingFeed {
    small_blog_feed_at(dated_post_path)
}

/// Where the small blog keeps post `n`: `/n/coast-day-n/`.
fn dated_post_path(n: u32) -> String {
    format!("/{n}/coast-day-{n}/")
}

/// Where a blog with `/slug/` posts keeps post `n`.
fn slug_post_path(n: u32) -> String {
    format!("/coast-day-{n}/")
}

/// The small blog's feed with its posts at `post_path`.
fn small_blog_feed_at(post_path: fn(u32) -> String) -> TrainingFeed {
    let items = (1..=3)
        .map(|n| {
            FeedItem::new(
                format!("Walking the coast path, day {n}"),
                Url::parse(&format!("https://walks.example{}", post_path(n))).ok(),
                date(&format!("2024-05-0{n}T08:00:00Z")),
            )
            .with_content(article_text(n), true)
        })
        .collect();
    TrainingFeed { title: "Walks".into(), site: Url::parse("https://walks.example/").ok(), items }
}

fn article_text(n: u32) -> String {
    format!(
        "<p>On day {n} the path climbed above the cliffs and the wind turned west by noon.</p>\
         <p>We met {n} fishermen mending nets in the harbour, and the tide came in early.</p>"
    )
}

fn small_blog_article(n: u32, declared: &str) -> String {
    format!(
        r#"<html><head><title>Walking the coast path, day {n} | Walks</title>{declared}</head><body>
        <header><a href="/">Walks</a></header><main><article><h1>Walking the coast path, day {n}</h1>
        <time datetime="2024-05-0{n}T08:00:00Z">May {n}, 2024</time><div class="body">{}</div></article></main>
        <aside><h2>Recent</h2><ul><li><a href="/1/coast-day-1/">Walking the coast path, day 1</a></li>
        <li><a href="/2/coast-day-2/">Walking the coast path, day 2</a></li></ul></aside></body></html>"#,
        article_text(n)
    )
}

/// Saved pages given without their URL (`train --page FILE`): an article page is recognized by
/// the URL it declares (`og:url`), else by its title being one feed item's.
#[test]
fn saved_article_pages_without_urls_are_recognized() {
    let feed = small_blog_feed();
    let saved =
        |n: u32, declared: &str| page(&small_blog_article(n, declared), &format!("file:///tmp/saved/post{n}.html"));
    let docs = [
        saved(1, r#"<meta property="og:url" content="https://walks.example/1/coast-day-1/">"#),
        saved(2, ""),
        saved(3, ""),
    ];
    let trained = template::train(&feed, &docs, Utc::now()).unwrap();
    let recognized = trained.notes.iter().filter(|n| n.contains("article page of")).count();
    assert_eq!(recognized, 3, "{:?}", trained.notes);
    let article = trained.rule.article.as_ref().unwrap();
    assert!(article.title.is_some() && article.content.is_some(), "{}", trained.rule.to_xml());
}

/// The small blog's homepage: its three posts as cards.
fn small_blog_home() -> Document {
    small_blog_home_at(dated_post_path)
}

/// The small blog's homepage with its posts at `post_path`.
fn small_blog_home_at(post_path: fn(u32) -> String) -> Document {
    let cards: String = (1..=3)
        .rev()
        .map(|n| {
            format!(
                r#"<article class="card"><h2><a href="{}">Walking the coast path, day {n}</a></h2>
                <time datetime="2024-05-0{n}T08:00:00Z">May {n}</time><p>The path on day {n}.</p></article>"#,
                post_path(n)
            )
        })
        .collect();
    page(
        &format!(r#"<html><head><title>Walks</title></head><body><main class="posts">{cards}</main></body></html>"#),
        "https://walks.example/",
    )
}

fn trained_small_blog() -> template::Trained {
    let mut docs = vec![small_blog_home()];
    docs.extend(
        (1..=2).map(|n| page(&small_blog_article(n, ""), &format!("https://walks.example/{n}/coast-day-{n}/"))),
    );
    template::train(&small_blog_feed(), &docs, Utc::now()).unwrap()
}

/// An archive of another layout than the homepage the template was trained on: one card (a
/// link to the tags, not a post) and the posts as a `<dl>` of dates and titles. The template's
/// list part does not fit it; the links with the shape of the site's posts make the list, each
/// with the date before it. Without any post link shape, the template gives way to `auto`.
#[test]
fn a_template_checks_itself_on_a_page_of_another_layout() {
    let trained = trained_small_blog();
    let entries: String = (1..=3)
        .rev()
        .map(|n| {
            format!(
                r#"<dt>0{n} May 2024</dt><dd><a href="/{n}/coast-day-{n}/">Walking the coast path, day {n}</a></dd>"#
            )
        })
        .collect();
    let archive = page(
        &format!(
            r#"<html><body><main class="posts"><article class="card"><h2><a href="/tags/">All tags</a></h2></article>
            <dl>{entries}</dl></main></body></html>"#
        ),
        "https://walks.example/archive/",
    );
    let extraction = template::extract(&trained.rule, &archive, Utc::now());
    let got: Vec<(String, Option<String>)> = extraction
        .page
        .items()
        .map(|i| (i.link.as_ref().unwrap().path().to_string(), i.date.map(|d| d.date_naive().to_string())))
        .collect();
    let want: Vec<(String, Option<String>)> =
        (1..=3).rev().map(|n| (format!("/{n}/coast-day-{n}/"), Some(format!("2024-05-0{n}")))).collect();
    assert_eq!(got, want, "{}", trained.rule.to_xml());

    let mut shapeless = trained.rule.clone();
    shapeless.article.as_mut().unwrap().urls.clear();
    let auto = html2rss::engines::auto::analyze(
        &archive,
        html2rss::engines::timepattern::TimePatternDb::builtin(),
        &html2rss::engines::timepattern::DateContext::new(Utc::now().fixed_offset()),
    );
    let applied = template::apply(&shapeless, &archive, Utc::now(), || &auto);
    assert!(matches!(applied, template::Applied::GivesWay(_)), "{applied:?}");
}

/// On an article page of another layout (a box of the page's banner where the training pages
/// had the text, the text elsewhere), the template's content path finds much less text than
/// the generic article extractor, and not the same: the generic extractor gives the content.
#[test]
fn a_content_path_that_finds_much_less_gives_way_to_the_generic_extractor() {
    let trained = trained_small_blog();
    let long: String = (1..=12)
        .map(|i| {
            format!(
                "<p>Paragraph {i} tells how the coast path bent around the old lighthouse and down to the beach.</p>"
            )
        })
        .collect();
    let other_layout = page(
        &format!(
            r#"<html><head><title>Walking the coast path, day 3 | Walks</title></head><body>
            <div class="top"><div class="body">Subscribe for more.</div></div><main><article>
            <h1>Walking the coast path, day 3</h1><section class="story">{long}</section></article></main></body></html>"#
        ),
        "https://walks.example/3/coast-day-3/",
    );
    assert!(template::content_text(&trained.rule, &other_layout).is_some_and(|t| t.contains("Subscribe")));
    let extraction = template::extract(&trained.rule, &other_layout, Utc::now());
    let item = extraction.page.items().next().unwrap();
    let content = item.content.as_deref().unwrap_or_default();
    assert!(content.contains("old lighthouse") && !content.contains("Subscribe"), "{content}");
}

/// A content path learned from most training pages that misses half of the text on another
/// (the post continues in a second box) reproduces the feed's full text worse than the generic
/// article extractor: training drops it, and the generic extractor reads the content.
#[test]
fn a_content_path_worse_than_the_generic_extractor_is_not_kept() {
    let feed = small_blog_feed();
    let docs: Vec<Document> = (1..=3)
        .map(|n| {
            let paragraphs = article_text(n);
            let (first, second) = paragraphs.split_at(paragraphs.find("</p>").unwrap() + 4);
            let body = if n == 3 {
                format!(r#"<div class="body">{first}</div><div class="more">{second}</div>"#)
            } else {
                format!(r#"<div class="body">{paragraphs}</div>"#)
            };
            page(
                &format!(
                    r#"<html><body><main><article><h1>Walking the coast path, day {n}</h1>{body}</article></main>
                    </body></html>"#
                ),
                &format!("https://walks.example/{n}/coast-day-{n}/"),
            )
        })
        .collect();
    let trained = template::train(&feed, &docs, Utc::now()).unwrap();
    assert!(trained.notes.iter().any(|n| n.starts_with("content path dropped")), "{:?}", trained.notes);
    assert!(trained.rule.article.as_ref().unwrap().content.is_none(), "{}", trained.rule.to_xml());
}

/// An archive of the small blog: its posts as a `<dl>` of dates and titles.
fn small_blog_archive(posts: &[u32], url: &str) -> Document {
    let entries: String = posts
        .iter()
        .map(|n| {
            format!(
                r#"<dt>0{n} May 2024</dt><dd class="entry"><a href="/{n}/coast-day-{n}/">Walking the coast path, day {n}</a></dd>"#
            )
        })
        .collect();
    page(&format!(r#"<html><body><main class="archive"><dl class="posts">{entries}</dl></main></body></html>"#), url)
}

/// An archive given for training beside the homepage is a layout of its own: the template
/// learns a list part for each, and reads another archive page by the archive's part.
#[test]
fn list_pages_of_two_layouts_make_two_list_parts() {
    let mut docs = vec![small_blog_home(), small_blog_archive(&[3, 2, 1], "https://walks.example/archive/")];
    docs.extend(
        (1..=2).map(|n| page(&small_blog_article(n, ""), &format!("https://walks.example/{n}/coast-day-{n}/"))),
    );
    let trained = template::train(&small_blog_feed(), &docs, Utc::now()).unwrap();
    assert_eq!(trained.rule.subjects.len(), 2, "{}", trained.rule.to_xml());
    let older = small_blog_archive(&[7, 6, 5, 4], "https://walks.example/archive/2023/");
    let extraction = template::extract(&trained.rule, &older, Utc::now());
    let links: Vec<String> = extraction.page.items().map(|i| i.link.as_ref().unwrap().path().to_string()).collect();
    assert_eq!(links, ["/7/coast-day-7/", "/6/coast-day-6/", "/5/coast-day-5/", "/4/coast-day-4/"]);
    assert!(extraction.page.items().all(|i| i.date.is_some()), "{:?}", extraction.page);
}

/// A feed written in UTC for a site whose pages show local times (`+08:00`): the template gives
/// the feed's instants in the feed's zone, so a post shown just after midnight keeps the feed's
/// day. A feed of mixed offsets fixes no zone, and the pages' offsets stay.
#[test]
fn dates_are_given_in_the_zone_of_the_feed() {
    let trained = trained_small_blog();
    assert_eq!(trained.rule.timezone, Some(chrono_tz::Tz::UTC), "{}", trained.rule.to_xml());
    let local_times: String = [(5, "2024-05-05T00:30:00+08:00"), (4, "2024-05-04T12:00:00+08:00")]
        .iter()
        .map(|(n, at)| {
            format!(
                r#"<article class="card"><h2><a href="/{n}/coast-day-{n}/">Walking the coast path, day {n}</a></h2>
                <time datetime="{at}">May {n}</time><p>The path on day {n}.</p></article>"#
            )
        })
        .collect();
    let page_2 = page(
        &format!(
            r#"<html><head><title>Walks</title></head><body><main class="posts">{local_times}</main></body></html>"#
        ),
        "https://walks.example/page/2/",
    );
    let dates: Vec<String> = template::extract(&trained.rule, &page_2, Utc::now())
        .page
        .items()
        .map(|i| i.date.unwrap().to_rfc3339())
        .collect();
    assert_eq!(dates, ["2024-05-04T16:30:00+00:00", "2024-05-04T04:00:00+00:00"]);

    let mut mixed = small_blog_feed();
    mixed.items[0].date = date("2024-05-01T08:00:00+02:00");
    let docs = [small_blog_home(), page(&small_blog_article(2, ""), "https://walks.example/2/coast-day-2/")];
    assert_eq!(template::train(&mixed, &docs, Utc::now()).unwrap().rule.timezone, None);
}

/// Links that open elsewhere carry an icon with a screen-reader label ("open in new window",
/// `sr-only`): the feed's text has no such words, and neither has the content the template's
/// path gives.
#[test]
fn screen_reader_labels_are_not_content() {
    let map = |n: u32, label: &str| {
        format!(r#"<p>The map of day {n}: <a href="https://maps.example/{n}">the route{label}</a>.</p>"#)
    };
    let icon = r#"<span class="external-link-icon-sr-only">open in new window</span>"#;
    let mut feed = small_blog_feed();
    for (n, item) in (1..).zip(feed.items.iter_mut()) {
        *item = item.clone().with_content(format!("{}{}", article_text(n), map(n, "")), true);
    }
    let article = |n: u32| {
        let html = small_blog_article(n, "").replace(&article_text(n), &format!("{}{}", article_text(n), map(n, icon)));
        page(&html, &format!("https://walks.example/{n}/coast-day-{n}/"))
    };
    let trained = template::train(&feed, &[small_blog_home(), article(1), article(2)], Utc::now()).unwrap();
    assert!(trained.rule.article.as_ref().unwrap().content.is_some(), "{}\n{:?}", trained.rule.to_xml(), trained.notes);
    let extraction = template::extract(&trained.rule, &article(3), Utc::now());
    let content = extraction.page.items().next().unwrap().content.clone().unwrap();
    assert!(content.contains("the route") && !content.contains("open in new window"), "{content}");
}

/// Class "archive taken for an article": on a site whose posts live at `/slug/`, the archive
/// (`/archives/`) has the shape of a post's URL. Where it lists only a few posts in a layout
/// the template never saw, it is still a list page: its main text is links to the site's
/// posts, not an article's text, and the posts are its items.
#[test]
fn an_archive_with_a_post_shaped_url_is_a_list() {
    let feed = small_blog_feed_at(slug_post_path);
    let home = small_blog_home_at(slug_post_path);
    let article = |n: u32| {
        page(
            &small_blog_article(n, "").replace(&format!("/{n}/coast-day-{n}/"), &format!("/coast-day-{n}/")),
            &format!("https://walks.example/coast-day-{n}/"),
        )
    };
    let trained = template::train(&feed, &[home, article(1), article(2)], Utc::now()).unwrap();
    let archive = page(
        r#"<html><head><title>Archives | Walks</title></head><body><header><a href="/">Walks</a></header>
        <div class="wrapper"><h1 class="title">Archives</h1><div class="year"><h2>2023</h2><ul>
        <li><span class="date">Dec 24</span> <a href="/winter-walk/">A winter walk on the moor</a></li>
        <li><span class="date">Nov 02</span> <a href="/autumn-walk/">Autumn leaves by the river</a></li>
        </ul></div></div><footer>© 2024 Walks</footer></body></html>"#,
        "https://walks.example/archives/",
    );
    let extraction = template::extract(&trained.rule, &archive, Utc::now());
    let links: Vec<String> = extraction.page.items().map(|i| i.link.as_ref().unwrap().path().to_string()).collect();
    assert_eq!(links, ["/winter-walk/", "/autumn-walk/"], "{}", trained.rule.to_xml());

    // A photo post has no sentence either, but its date where the site's articles show theirs.
    let photo = page(
        r#"<html><head><title>Cliffs | Walks</title></head><body><header><a href="/">Walks</a></header>
        <main><article><h1>Cliffs</h1><time datetime="2024-05-04T08:00:00Z">May 4, 2024</time>
        <div class="body"><img src="/cliffs.jpg" alt=""></div><a href="/coast-day-3/">← Walking the coast path, day 3</a>
        <a href="/coast-day-5/">Walking the coast path, day 5 →</a></article></main></body></html>"#,
        "https://walks.example/cliffs/",
    );
    let extraction = template::extract(&trained.rule, &photo, Utc::now());
    let links: Vec<String> = extraction.page.items().map(|i| i.link.as_ref().unwrap().path().to_string()).collect();
    assert_eq!(links, ["/cliffs/"], "{}", trained.rule.to_xml());
}

/// A second page of teasers at a URL of the posts' shape (Pelican's `/index2.html` beside
/// `/slug.html` posts), in a layout the template never saw: each teaser is a headline linking
/// to a post and a summary whose prose outweighs the links. It is a list page: its headlines
/// are the site's posts, and no article's text is there.
#[test]
fn a_page_of_teasers_at_a_post_shaped_url_is_a_list() {
    let html_post = |n: u32| format!("/coast-day-{n}.html");
    let feed = small_blog_feed_at(html_post);
    let home = small_blog_home_at(html_post);
    let article = |n: u32| {
        page(
            &small_blog_article(n, "").replace(&format!("/{n}/coast-day-{n}/"), &html_post(n)),
            &format!("https://walks.example{}", html_post(n)),
        )
    };
    let trained = template::train(&feed, &[home, article(1), article(2)], Utc::now()).unwrap();
    let teasers: String = (4..=8)
        .rev()
        .map(|n| {
            format!(
                r#"<div class="entry"><h3><a href="/walk-{n}.html">Inland walk number {n}</a></h3>
                <div class="summary"><p>On walk {n} we left the coast behind and followed the river up
                through the beech woods to the old mill, where the path forks toward the moor.</p></div>
                <a href="/walk-{n}.html">Read more</a></div>"#
            )
        })
        .collect();
    let second = page(
        &format!(
            r#"<html><head><title>Walks</title></head><body><header><a href="/">Walks</a></header>
            <div class="content">{teasers}<a href="/index.html">Newer posts</a></div></body></html>"#
        ),
        "https://walks.example/index2.html",
    );
    let extraction = template::extract(&trained.rule, &second, Utc::now());
    let links: Vec<String> = extraction.page.items().map(|i| i.link.as_ref().unwrap().path().to_string()).collect();
    let want: Vec<String> = (4..=8).rev().map(|n| format!("/walk-{n}.html")).collect();
    assert_eq!(links, want, "{}", trained.rule.to_xml());
}
