//! The foundation on real pages: every corpus page parses and inspects; the server answers.

mod common;

use std::process::Command;

use html2rss::cli::load;
use html2rss::dom::EncodingSource;
use html2rss::path::Path;

#[test]
fn every_corpus_page_parses_and_every_element_path_selects_it() {
    let pages = common::corpus_pages();
    assert!(pages.len() > 400, "corpus has only {} pages", pages.len());
    for page in &pages {
        let source = load(page.to_str().unwrap(), None).unwrap();
        let doc = source.parse().unwrap_or_else(|e| panic!("{}: {e:#}", page.display()));
        assert!(doc.first_tag("body").is_some(), "{}: no body", page.display());
        // Spot-check the path language on real trees: every 50th element's absolute path
        // selects exactly that element (TBODY/THEAD/TFOOT are transparent to paths).
        let addressable = |n| doc.is_element(n) && !matches!(doc.tag(n), Some("tbody" | "thead" | "tfoot"));
        for node in doc.ids().filter(|&n| addressable(n)).step_by(50) {
            let path = Path::of(&doc, node);
            assert_eq!(path.select_nodes(&doc, doc.root()), [node], "{}: {path}", page.display());
        }
    }
}

#[test]
fn page_declaring_gbk_but_written_in_utf8_comes_out_readable() {
    let page = common::corpus_dir().join("lists/gerapy/netease_international_news.html");
    let doc = load(page.to_str().unwrap(), None).unwrap().parse().unwrap();
    assert_eq!(doc.head.meta_charset.as_deref().map(str::to_ascii_lowercase).as_deref(), Some("gbk"));
    assert_eq!((doc.encoding, doc.encoding_source), (encoding_rs::UTF_8, EncodingSource::ValidUtf8));
    assert!(doc.title().contains("网易"), "{}", doc.title());
}

#[test]
fn gb18030_bytes_of_a_real_page_decode_back_to_the_same_text() {
    // The corpus is all UTF-8; encode a real Chinese page as GB18030 to get real legacy bytes.
    let page = common::corpus_dir().join("lists/gerapy/hrfund_announcement.html");
    // Without its `<meta charset="utf-8">`, so that the detector has to find the encoding.
    let utf8 = std::fs::read_to_string(&page).unwrap().replace(r#"<meta charset="utf-8">"#, "");
    let (gbk, _, lossy) = encoding_rs::GB18030.encode(&utf8);
    assert!(!lossy);
    let url = url::Url::parse("https://example.org/").unwrap();
    let original = html2rss::dom::parse_str(&utf8, &url).unwrap();
    for header in [Some("gb18030".to_string()), None] {
        let options = html2rss::dom::ParseOptions { header_charset: header.clone(), ..Default::default() };
        let doc = html2rss::dom::parse(&gbk, &url, &options).unwrap();
        // The detector says GBK, whose decoder in encoding_rs is GB18030's.
        assert!([encoding_rs::GBK, encoding_rs::GB18030].contains(&doc.encoding), "header {header:?}");
        assert_eq!(doc.text(doc.root()), original.text(original.root()), "header {header:?}");
    }
}

#[test]
fn inspect_command_prints_the_page_as_json() {
    let page = common::corpus_dir().join("lists/sitepairs/Windfisch__blog/index.html");
    let output = Command::new(env!("CARGO_BIN_EXE_html2rss"))
        .args(["inspect", page.to_str().unwrap(), "--base-url", "https://blog.rust-embedded.org/", "--format", "json"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["page"]["link"], "https://blog.rust-embedded.org/");
    assert_eq!(json["page"]["encoding"], "UTF-8");
    assert!(json["page"]["title"].as_str().unwrap().contains("Embedded"), "{json}");
    assert!(json["nodes"].as_u64().unwrap() > 100);
}

#[test]
fn inspect_dates_an_article_by_itself_and_a_list_by_its_newest_item() {
    // An article that shows no date of its own, then a rail of other stories with their dates:
    // the page has no date (the rail's are theirs). Without the article, the page is the list,
    // dated by its newest item.
    let story = |part: &str| {
        format!(
            "<p>{part}, the council capped the prices tankers may charge and ordered every tanker to \
             register with the city corporation by the seventh, after hundreds of borewells ran dry \
             and private operators charged five times the usual rate for a load of water.</p>"
        )
    };
    let rail: String =
        ["Metro fares rise in April", "Budget session opens with a walkout", "Rains return to the coast"]
            .iter()
            .enumerate()
            .map(|(i, title)| format!(r#"<li><a href="/city/{i}">{title}</a> <span>Mar {}, 2024</span></li>"#, 7 - i))
            .collect();
    let dir = tempfile::tempdir().unwrap();
    let inspect = |body: &str| {
        let file = dir.path().join("page.html");
        let html = format!(
            "<html><head><title>Water crisis: tanker prices capped | City News</title></head><body>{body}\
             <div><h2>Top Stories</h2><ul>{rail}</ul></div></body></html>"
        );
        std::fs::write(&file, html).unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_html2rss"))
            .args(["inspect", file.to_str().unwrap(), "--base-url", "https://news.example/city/water-crisis"])
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_slice::<serde_json::Value>(&output.stdout).unwrap()
    };
    let article = inspect(&format!(
        "<h1>Water crisis: tanker prices capped</h1>{}{}{}",
        story("On Monday"),
        story("By Tuesday"),
        story("On Wednesday")
    ));
    assert_eq!(article["article_page"], true, "{article}");
    assert_eq!(article["page"]["date"], serde_json::Value::Null);
    let list = inspect("");
    assert_eq!(list["article_page"], false, "{list}");
    assert!(list["page"]["date"].as_str().is_some_and(|d| d.starts_with("2024-03-07")), "{list}");
}

#[test]
fn inspect_refuses_a_missing_file_with_its_name() {
    let output = Command::new(env!("CARGO_BIN_EXE_html2rss")).args(["inspect", "no-such-page.html"]).output().unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("no-such-page.html"));
}

#[tokio::test]
async fn server_answers_healthz_on_port_0() {
    let dir = tempfile::tempdir().unwrap();
    let server = common::server::start(&common::server::config(&dir.path().join("feeds.db")), false);
    let body = reqwest::get(server.url("/healthz")).await.unwrap().text().await.unwrap();
    assert_eq!(body, "ok\n");
    server.stop().await;
}

#[test]
fn corpus_loaders_find_what_the_readme_counts() {
    use html2rss::eval::corpus::{self, ListSet, ListTruth};
    use html2rss::eval::split::Half;
    let dir = common::corpus_dir();
    let pages = corpus::list_pages(&dir).unwrap();
    // Usable pages, their items, complete pages and their items, per set: the sums of
    // `AUDIT.json`'s `use`, `complete` and `gt_list_items` (README §1, §1b), less the one page 2
    // whose feed ends within page 1 (0xCaretaker's: its 5 truth items are a sidebar's).
    for (set, counts) in [(ListSet::Sitepairs, (130, 1314, 113, 1135)), (ListSet::Themes, (47, 350, 43, 330))] {
        let set_pages: Vec<_> = pages.iter().filter(|p| p.set == set).collect();
        let (mut items, mut complete_pages, mut complete_items) = (0, 0, 0);
        for page in &set_pages {
            let ListTruth::Items { items: truth, complete } = &page.truth else { panic!("{}", page.name) };
            items += truth.len();
            if *complete {
                complete_pages += 1;
                complete_items += truth.len();
            }
        }
        assert_eq!((set_pages.len(), items, complete_pages, complete_items), counts, "{set:?}");
        // SPLIT.tsv gives both halves sites of every set that grew.
        for half in Half::BOTH {
            assert!(set_pages.iter().any(|p| p.half == half), "{set:?} has no {half} page");
        }
    }
    assert_eq!(corpus::sites(&dir).unwrap().len(), 79 + 19);
    assert_eq!(pages.iter().filter(|p| p.set == ListSet::Feedless).count(), 15);
    assert_eq!(pages.iter().filter(|p| p.set == ListSet::Gerapy).count(), 9);
    let articles = corpus::article_pages(&dir).unwrap();
    let per_set: Vec<usize> =
        corpus::ARTICLE_SETS.iter().map(|set| articles.iter().filter(|a| a.set == *set).count()).collect();
    // cleanportaleval: 70 pages, one of whose gold says it "contains no article" (no text to score).
    assert_eq!(per_set, [181, 250, 69, 300, 250, 200, 85, 69]);
    assert!(articles.iter().all(|a| !a.body.trim().is_empty()), "an article page without its main text");
    // The CleanEval wrapper line gives the page's URL and is not part of the page.
    let wrapped = articles.iter().find(|a| a.set == "cleaneval").unwrap();
    assert!(wrapped.url.host_str().is_some_and(|h| !h.ends_with(".invalid")), "{}", wrapped.url);
    assert!(!String::from_utf8_lossy(&wrapped.bytes().unwrap()).trim_start().starts_with("<text"));
    let dates = corpus::date_pages(&dir).unwrap();
    assert_eq!((dates.len(), dates.iter().filter(|d| d.date.is_none()).count()), (200, 5));
}
