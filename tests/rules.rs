//! Mapping rules on real pages: each shipped rule gives exactly its page's ground-truth items;
//! broken rule files give errors that say where and what; hostile files are refused; a rule
//! merged from two marked items finds all of a page's items.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::process::Command;

use chrono::Utc;
use html2rss::dom::{self, Document};
use html2rss::engines::rules::{self, Mark, MarkField, Rule, RuleErrorKind, RuleSet};
use html2rss::eval::corpus::{ListPage, ListTruth, list_pages};
use html2rss::eval::links::NormalizedLink;
use html2rss::eval::text::normalize_title;
use html2rss::path::Path;
use url::Url;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn corpus_page(name: &str) -> ListPage {
    let pages = list_pages(&common::corpus_dir()).unwrap();
    pages.into_iter().find(|p| p.name == name).unwrap_or_else(|| panic!("no list page {name} in the corpus"))
}

fn parse(page: &ListPage) -> Document {
    dom::parse(&page.bytes().unwrap(), &page.url, &Default::default()).unwrap()
}

/// The shipped rule `file` gives exactly the ground-truth items of the corpus page `name`:
/// every truth link and no other (normalized, README §6), no duplicates, the truth's titles
/// (normalized) and the truth's calendar days where it has them. `not_items` are truth links
/// that are not items of the page's list (each call says why).
fn assert_rule_extracts(file: &str, name: &str, not_items: &[&str]) {
    let rule = Rule::load(repo().join("rules").join(file)).unwrap_or_else(|e| panic!("{e}"));
    let page = corpus_page(name);
    assert!(rule.matches_url(&page.url), "{file} does not serve {}", page.url);
    let shipped = RuleSet::shipped().unwrap();
    assert_eq!(shipped.find(&page.url), Some(&rule), "the shipped rule for {} is not {file}", page.url);

    let extraction = rules::apply(&rule, &parse(&page), Utc::now());
    let ListTruth::Items { items: truth, complete } = &page.truth else { panic!("{name}: no item truth") };
    assert!(complete, "{name}: the truth is not complete, so accuracy cannot be checked");
    let excluded: BTreeSet<NormalizedLink> =
        not_items.iter().map(|l| page.normalize(&Url::parse(l).unwrap())).collect();
    let truth: HashMap<NormalizedLink, _> =
        truth.iter().map(|t| (page.normalize(&t.link), t)).filter(|(link, _)| !excluded.contains(link)).collect();
    assert_eq!(excluded.len(), not_items.len(), "{name}: a not_items link is not in the truth");

    let mut output = HashMap::new();
    for item in extraction.page.items() {
        let link = item.link.as_ref().unwrap_or_else(|| panic!("{name}: item without link: {item:?}"));
        assert!(!item.title.trim().is_empty(), "{name}: item without title: {item:?}");
        assert!(output.insert(page.normalize(link), item).is_none(), "{name}: duplicate item {link}");
    }
    let missing: Vec<_> = truth.keys().filter(|l| !output.contains_key(*l)).collect();
    let extra: Vec<_> = output.keys().filter(|l| !truth.contains_key(*l)).collect();
    assert!(missing.is_empty(), "{name}: occupancy below 100%, missing {missing:#?}");
    assert!(extra.is_empty(), "{name}: accuracy below 100%, not items {extra:#?}");
    assert!(extraction.confidence > 0.8, "{name}: confidence {}", extraction.confidence);

    for (link, expected) in &truth {
        let item = output[link];
        if let Some(title) = &expected.title {
            assert_eq!(normalize_title(&item.title), normalize_title(title), "{name}: title of {}", expected.link);
        }
        if let Some(date) = expected.date {
            let found = item.date.unwrap_or_else(|| panic!("{name}: no date for {}", expected.link));
            // The day the page shows against the feed's day in the feed's own offset.
            assert_eq!(found.date_naive(), date.date_naive(), "{name}: date of {}: {found} vs {date}", expected.link);
        }
    }
    if rule.subjects.iter().any(|s| s.item.date.is_some()) {
        assert!(extraction.page.items().all(|i| i.date.is_some()), "{name}: an item without date");
    }
}

#[test]
fn keens_blog_japanese_article_cards_home_and_page_2() {
    assert_rule_extracts("keens-blog.xml", "KeenS__KeenS.github.io/index.html", &[]);
    assert_rule_extracts("keens-blog.xml", "KeenS__KeenS.github.io/page_2_index.html", &[]);
}

#[test]
fn raahii_blog_japanese_archive_with_english_month_names() {
    // The feed's About page (dated 0001-01-01) is linked from the menu, not listed.
    assert_rule_extracts(
        "raahii-blog.xml",
        "raahii__raahii.github.io/index.html",
        &["https://raahii.github.io/about/"],
    );
}

#[test]
fn ouuan_blog_chinese_posts_home_and_page_2() {
    // The site-wide feed includes the Search, Links and About pages of the menu.
    let menu = ["https://ouuan.github.io/search/", "https://ouuan.github.io/links/", "https://ouuan.github.io/about/"];
    assert_rule_extracts("ouuan-blog.xml", "Brian-WBY__ouuan.github.io/index.html", &menu);
    assert_rule_extracts("ouuan-blog.xml", "Brian-WBY__ouuan.github.io/page_2_index.html", &menu);
}

#[test]
fn swiftgg_chinese_articles() {
    assert_rule_extracts("swiftgg-home.xml", "Yousanflics__SwiftGGTeam.github.io/index.html", &[]);
}

#[test]
fn craigslist_list_rows() {
    assert_rule_extracts("craigslist-search.xml", "07-craigslist.input.html", &[]);
}

#[test]
fn fool_author_cards_that_are_links() {
    assert_rule_extracts("fool-author.xml", "09-fool-com.input.html", &[]);
}

#[test]
fn paulgraham_essay_table() {
    // The expected list is feedless's own heuristic output (corpus README §2): besides the
    // essays it took the "RSS feed" link printed below the essay table, which is no essay.
    assert_rule_extracts(
        "paulgraham-articles.xml",
        "00-paulgraham-com-articles.input.html",
        &["https://paulgraham.com/rss.html"],
    );
}

#[test]
fn every_rule_file_is_shipped_in_the_binary_and_round_trips() {
    let mut files: Vec<String> = std::fs::read_dir(repo().join("rules"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".xml"))
        .map(|n| format!("rules/{n}"))
        .collect();
    files.sort();
    let shipped: Vec<String> = rules::SHIPPED.iter().map(|(name, _)| name.to_string()).collect();
    assert_eq!(files, shipped, "rules/ and rules::SHIPPED differ");
    assert!(files.len() >= 6);
    let from_dir = RuleSet::load_dir(&repo().join("rules")).unwrap();
    assert_eq!(from_dir.rules(), RuleSet::shipped().unwrap().rules());
    for (name, xml) in rules::SHIPPED {
        let rule = Rule::parse(xml, name).unwrap();
        assert!(!rule.urls.is_empty(), "{name} has no <url>");
        assert_eq!(Rule::parse(&rule.to_xml(), name).unwrap(), rule, "{name}");
    }
}

#[test]
fn the_readme_example_is_a_valid_rule_that_round_trips() {
    let readme = std::fs::read_to_string(repo().join("rules/README.md")).unwrap();
    let start = readme.find("```xml\n").expect("an xml example") + "```xml\n".len();
    let xml = &readme[start..start + readme[start..].find("```").unwrap()];
    let rule = Rule::parse(xml, "rules/README.md").unwrap_or_else(|e| panic!("{e}"));
    assert!(rule.name.is_some() && rule.timezone.is_some() && rule.date_format.is_some() && rule.page_date.is_some());
    let item = &rule.subjects[0].item;
    assert!(item.title.is_some() && item.link.is_some() && item.date.is_some() && item.description.is_some());
    assert!(item.author.is_some() && item.content.is_some() && rule.subjects[0].title.is_some());
    assert_eq!(Rule::parse(&rule.to_xml(), "again").unwrap(), rule);
}

/// The first `<a>` of the page whose link is `link` (normalized), as the paper's GUI would
/// give its absolute path when a user clicks it.
fn anchor_of(page: &ListPage, doc: &Document, link: &Url) -> html2rss::dom::NodeId {
    let wanted = page.normalize(link);
    doc.ids()
        .find(|&n| {
            doc.is_tag(n, "a")
                && !doc.text(n).is_empty()
                && doc.attr(n, "href").and_then(|h| doc.resolve(h)).is_some_and(|u| page.normalize(&u) == wanted)
        })
        .unwrap_or_else(|| panic!("no link to {link}"))
}

#[test]
fn a_rule_merged_from_two_marked_titles_finds_every_item() {
    for name in ["KeenS__KeenS.github.io/index.html", "Yousanflics__SwiftGGTeam.github.io/index.html"] {
        let page = corpus_page(name);
        let doc = parse(&page);
        let ListTruth::Items { items: truth, .. } = &page.truth else { unreachable!() };
        let marks: Vec<Mark> = truth[..2]
            .iter()
            .map(|t| Mark {
                field: MarkField::Item(rules::Field::Title),
                path: Path::of(&doc, anchor_of(&page, &doc, &t.link)),
            })
            .collect();
        let rule = rules::derive_rule(&doc, &marks).unwrap();
        let found: BTreeSet<_> = rules::apply(&rule, &doc, Utc::now())
            .page
            .items()
            .filter_map(|i| i.link.as_ref())
            .map(|l| page.normalize(l))
            .collect();
        let expected: BTreeSet<_> = truth.iter().map(|t| page.normalize(&t.link)).collect();
        assert_eq!(found, expected, "{name}: rule\n{}", rule.to_xml());
    }
}

#[test]
fn rule_merge_and_extract_commands_work_together() {
    let page = corpus_page("raahii__raahii.github.io/index.html");
    let doc = parse(&page);
    let ListTruth::Items { items: truth, .. } = &page.truth else { unreachable!() };
    // Two titles and one date, marked on the page.
    let first = anchor_of(&page, &doc, &truth[0].link);
    let second = anchor_of(&page, &doc, &truth[1].link);
    let date = doc.children(doc.parent(first).unwrap()).iter().copied().find(|&n| doc.is_tag(n, "span")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_html2rss"))
        .args(["rule", "merge", "--page", page.file.to_str().unwrap(), "--base-url", page.url.as_str()])
        .args(["--mark", &format!("title={}", Path::of(&doc, first))])
        .args(["--mark", &format!("title={}", Path::of(&doc, second))])
        .args(["--mark", &format!("date={}", Path::of(&doc, date))])
        .args(["--name", "raahii", "--url", "https://raahii.github.io/"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("finds 32 items"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = tempfile::tempdir().unwrap();
    let rule_file = dir.path().join("merged.xml");
    std::fs::write(&rule_file, &out.stdout).unwrap();

    let out = Command::new(env!("CARGO_BIN_EXE_html2rss"))
        .args(["extract", page.file.to_str().unwrap(), "--base-url", page.url.as_str(), "--algorithm", "rule"])
        .args(["--rule", rule_file.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let feed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let items = feed["items"].as_array().unwrap();
    assert_eq!(items.len(), 32);
    let urls: BTreeSet<_> =
        items.iter().map(|i| page.normalize(&Url::parse(i["url"].as_str().unwrap()).unwrap())).collect();
    let expected: BTreeSet<_> = truth.iter().map(|t| page.normalize(&t.link)).filter(|l| l.path != "/about").collect();
    assert_eq!(urls, expected);
    // The merged rule has no time zone, so the dates are midnight UTC of the page's days.
    assert_eq!(items[0]["date_published"], "2022-11-06T00:00:00+00:00");
    assert_eq!(items[0]["title"], truth[0].title.as_deref().unwrap());
}

#[test]
fn extract_finds_the_shipped_rule_by_url_and_writes_every_format() {
    let page = corpus_page("Yousanflics__SwiftGGTeam.github.io/index.html");
    for format in ["rss", "atom", "json"] {
        let out = Command::new(env!("CARGO_BIN_EXE_html2rss"))
            .args(["extract", page.file.to_str().unwrap(), "--base-url", page.url.as_str()])
            .args(["--algorithm", "rule", "--format", format])
            .output()
            .unwrap();
        assert!(out.status.success(), "{format}: {}", String::from_utf8_lossy(&out.stderr));
        let feed = feed_rs::parser::parse(out.stdout.as_slice()).unwrap_or_else(|e| panic!("{format}: {e}"));
        assert_eq!(feed.entries.len(), 20, "{format}");
        assert_eq!(feed.entries[0].title.as_ref().unwrap().content, "编译开源 Swift Foundation 库", "{format}");
    }
    // A page no shipped rule serves, without --rule: a clear error.
    let out = Command::new(env!("CARGO_BIN_EXE_html2rss"))
        .args([
            "extract",
            page.file.to_str().unwrap(),
            "--base-url",
            "https://elsewhere.example/",
            "--algorithm",
            "rule",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no shipped rule serves https://elsewhere.example/"));
}

#[test]
fn url_patterns_choose_the_most_specific_rule() {
    let rule = |urls: &[&str]| {
        let urls: String = urls.iter().map(|u| format!("<url>{u}</url>")).collect();
        Rule::parse(
            &format!(r#"<page>{urls}<subject path="/"><item path="//LI"><title>A</title></item></subject></page>"#),
            "t",
        )
        .unwrap()
    };
    let url = |u: &str| Url::parse(u).unwrap();
    let site = rule(&["*://Example.ORG/*"]);
    let news = rule(&["https://example.org/news/*"]);
    assert!(site.matches_url(&url("http://example.org/")));
    assert!(!site.matches_url(&url("https://example.com/")));
    assert!(news.matches_url(&url("https://EXAMPLE.org/news/2024/05/x.html#c")));
    assert!(!news.matches_url(&url("https://example.org/newsletter")));
    // A pattern that names only the host means its home page; non-ASCII paths match decoded.
    assert!(rule(&["https://example.org"]).matches_url(&url("https://example.org/")));
    assert!(rule(&["https://例え.jp/カテゴリ/*"]).matches_url(&url("https://例え.jp/カテゴリ/2")));
    let mut set = RuleSet::new();
    set.add(site.clone());
    set.add(news.clone());
    assert_eq!(set.find(&url("https://example.org/news/1")), Some(&news));
    assert_eq!(set.find(&url("https://example.org/about")), Some(&site));
    assert_eq!(set.find(&url("https://example.net/")), None);
    // A paper-style rule without <url> serves its <link>.
    let paper = Rule::parse(
        r#"<page><link>https://example.org/daily</link><subject path="/"><item path="//LI"><title>A</title></item></subject></page>"#,
        "t",
    )
    .unwrap();
    assert!(paper.matches_url(&url("https://example.org/daily#top")));
    assert!(!paper.matches_url(&url("https://example.org/daily/2")));
    for bad in ["example.org/*", "ftp://example.org/", "https:///x", "https://exa mple.org/"] {
        let err = Rule::parse(
            &format!(
                r#"<page><url>{bad}</url><subject path="/"><item path="A"><title>.</title></item></subject></page>"#
            ),
            "t",
        )
        .unwrap_err();
        assert!(matches!(err.kind, RuleErrorKind::Value(_)), "{bad}: {err}");
        assert_eq!((err.line, err.column), (1, 12), "{bad}: {err}");
    }
}

/// A broken rule file: the error names the file, the line and column, and what is wrong.
fn broken(file: &str) -> html2rss::engines::rules::RuleError {
    let path = repo().join("tests/rules/broken").join(file);
    let err = Rule::load(&path).expect_err(file);
    assert_eq!(err.origin, path.display().to_string());
    assert!(err.to_string().starts_with(&format!("{}:{}:{}: ", path.display(), err.line, err.column)), "{err}");
    err
}

#[test]
fn broken_rule_files_say_where_and_what() {
    type Kind = fn(&RuleErrorKind) -> bool;
    let cases: &[(&str, usize, usize, Kind)] = &[
        ("mismatched-end-tag.xml", 6, 5, |k| matches!(k, RuleErrorKind::Xml(m) if m.contains("</item>"))),
        ("doctype-billion-laughs.xml", 2, 1, |k| matches!(k, RuleErrorKind::Doctype)),
        ("external-entity.xml", 2, 1, |k| matches!(k, RuleErrorKind::Doctype)),
        ("undeclared-entity.xml", 4, 15, |k| matches!(k, RuleErrorKind::Entity(e) if e == "nbsp")),
        (
            "unknown-element.xml",
            4,
            5,
            |k| matches!(k, RuleErrorKind::UnknownElement { name, parent, .. } if name == "itme" && parent == "subject"),
        ),
        (
            "unknown-attribute.xml",
            2,
            12,
            |k| matches!(k, RuleErrorKind::UnknownAttribute { name, element } if name == "paht" && element == "subject"),
        ),
        (
            "missing-subject-path.xml",
            3,
            3,
            |k| matches!(k, RuleErrorKind::MissingAttribute { name, element } if name == "path" && element == "subject"),
        ),
        ("missing-item.xml", 2, 3, |k| matches!(k, RuleErrorKind::Missing { element, .. } if element == "subject")),
        (
            "item-without-title-or-link.xml",
            3,
            5,
            |k| matches!(k, RuleErrorKind::Missing { element, what } if element == "item" && what.contains("<title>")),
        ),
        // Inside a path, the column is that of the character where the path goes wrong.
        (
            "bad-path-in-attribute.xml",
            3,
            21,
            |k| matches!(k, RuleErrorKind::Path { path, message, .. } if path == "LI[0" && message.contains("']'")),
        ),
        (
            "bad-path-in-element.xml",
            4,
            21,
            |k| matches!(k, RuleErrorKind::Path { place, message, .. } if place == "<item> <title>" && message.contains("last step")),
        ),
        // ... counting each entity reference as the one character it stands for.
        (
            "bad-path-with-entities.xml",
            2,
            55,
            |k| matches!(k, RuleErrorKind::Path { path, .. } if path == r#"//DIV[@class="a&b"]/UL[x]"#),
        ),
        (
            "duplicate-field.xml",
            6,
            7,
            |k| matches!(k, RuleErrorKind::Duplicate { name, parent } if name == "date" && parent == "item"),
        ),
        ("unknown-time-zone.xml", 2, 15, |k| matches!(k, RuleErrorKind::Value(m) if m.contains("Mars/Olympus_Mons"))),
        ("bad-date-format.xml", 2, 17, |k| matches!(k, RuleErrorKind::Value(m) if m.contains("%Y-%m-%Q"))),
        ("unknown-encoding.xml", 2, 13, |k| matches!(k, RuleErrorKind::Value(m) if m.contains("klingon-8"))),
        ("wrong-root.xml", 3, 1, |k| matches!(k, RuleErrorKind::Root(r) if r == "rule")),
        (
            "figure-placeholder-left-in.xml",
            8,
            7,
            |k| matches!(k, RuleErrorKind::UnexpectedText { element, text } if element == "item" && text == "....."),
        ),
        (
            "element-in-field.xml",
            4,
            14,
            |k| matches!(k, RuleErrorKind::NestedElement { element, found } if element == "title" && found == "b"),
        ),
        ("no-subject.xml", 1, 1, |k| matches!(k, RuleErrorKind::Missing { element, .. } if element == "page")),
        ("item-path-selects-attribute.xml", 3, 17, |k| matches!(k, RuleErrorKind::Value(m) if m.contains("<item>"))),
        ("unclosed.xml", 5, 1, |k| matches!(k, RuleErrorKind::Unclosed { element } if element == "item")),
        ("second-root.xml", 4, 1, |k| matches!(k, RuleErrorKind::AfterRoot { found } if found == "page")),
    ];
    let files = std::fs::read_dir(repo().join("tests/rules/broken")).unwrap().count();
    assert_eq!(files, cases.len(), "every broken file has a case");
    for (file, line, column, kind) in cases {
        let err = broken(file);
        assert_eq!((err.line, err.column), (*line, *column), "{err}");
        assert!(kind(&err.kind), "{file}: unexpected error {err}");
    }
}

#[test]
fn hostile_and_odd_bytes_are_refused_with_a_position() {
    // Invalid UTF-8: the position of the first bad byte.
    let err = Rule::from_bytes(b"<page>\n  <name>caf\xE9</name>", "latin1.xml").unwrap_err();
    assert_eq!((err.line, err.column), (2, 12), "{err}");
    assert!(matches!(err.kind, RuleErrorKind::Encoding { .. }), "{err}");
    // Too large, before any parsing (the file is not even read to its end).
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.xml");
    std::fs::write(&big, format!("<page>{}</page>", " ".repeat(2 << 20))).unwrap();
    let err = Rule::load(&big).unwrap_err();
    assert!(matches!(err.kind, RuleErrorKind::TooLarge { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        format!("{}: the rule file is {} bytes, more than the limit of 1048576", big.display(), (2 << 20) + 13)
    );
    let err = Rule::load(dir.path().join("missing.xml")).unwrap_err();
    assert!(matches!(err.kind, RuleErrorKind::Read(_)), "{err}");
    for (text, line, column) in [("", 1, 1), ("  \n <!-- only a comment -->\n", 3, 1)] {
        let err = Rule::parse(text, "empty.xml").unwrap_err();
        assert_eq!((&err.kind, err.line, err.column), (&RuleErrorKind::NoRoot, line, column), "{text:?}");
    }
}

#[test]
fn rule_files_in_legacy_encodings_load() {
    let xml = r#"<?xml version="1.0" encoding="Shift_JIS"?>
<page><name>日本語のニュース</name><subject path="//UL"><item path="LI"><title>A</title></item></subject></page>"#;
    let (bytes, _, lossy) = encoding_rs::SHIFT_JIS.encode(xml);
    assert!(!lossy);
    assert_eq!(Rule::from_bytes(&bytes, "sjis.xml").unwrap().name.as_deref(), Some("日本語のニュース"));
    // UTF-16 with its BOM.
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(xml.replace("Shift_JIS", "UTF-16").encode_utf16().flat_map(u16::to_le_bytes));
    assert_eq!(Rule::from_bytes(&utf16, "utf16.xml").unwrap().name.as_deref(), Some("日本語のニュース"));
    // A declaration that lies: the bytes are not Shift_JIS.
    let err =
        Rule::from_bytes(b"<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><page>\x82</page>", "lie.xml").unwrap_err();
    assert!(matches!(err.kind, RuleErrorKind::Encoding { .. }), "{err}");
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    /// Characters that matter to XML and to paths, and some that do not.
    const ALPHABET: &str = "<>/&;=\"'[]@*!?#-.:% \nazAZ09日&amp;&#x41;<!DOCTYPE<![CDATA[]]>-->";

    fn mutate(text: &str, edits: &[(usize, u8, usize, usize)]) -> String {
        let mut chars: Vec<char> = text.chars().collect();
        let pieces: Vec<char> = ALPHABET.chars().collect();
        for &(at, kind, len, pick) in edits {
            let at = at % (chars.len() + 1);
            let end = (at + len).min(chars.len());
            match kind % 4 {
                0 => drop(chars.drain(at..end)),
                1 => chars.splice(at..at, (0..len).map(|i| pieces[(pick + i * 7) % pieces.len()])).for_each(drop),
                2 => {
                    let copy: Vec<char> = chars[at..end].to_vec();
                    chars.splice(end..end, copy).for_each(drop);
                }
                _ => chars.truncate(at),
            }
        }
        chars.into_iter().collect()
    }

    fn check(text: &str) {
        match Rule::parse(text, "fuzz.xml") {
            Ok(rule) => {
                assert_eq!(Rule::parse(&rule.to_xml(), "again").as_ref(), Ok(&rule), "{text}");
                let doc = dom::parse_str(
                    "<ul><li><a href=/x>x</a> 2024-05-06</li></ul>",
                    &Url::parse("https://e.org/").unwrap(),
                )
                .unwrap();
                rules::apply(&rule, &doc, Utc::now());
            }
            Err(err) => {
                let lines = text.split('\n').count();
                assert!(err.line >= 1 && err.line <= lines && err.column >= 1, "{err} for {text:?}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        #[test]
        fn mutated_rule_files_never_panic(
            which in 0..rules::SHIPPED.len(),
            edits in prop::collection::vec((any::<usize>(), any::<u8>(), 0usize..12, any::<usize>()), 1..6),
        ) {
            check(&mutate(rules::SHIPPED[which].1, &edits));
        }

        #[test]
        fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
            let mut text = b"<page><subject path=\"/\">".to_vec();
            text.extend(bytes);
            let _ = Rule::from_bytes(&text, "bytes.xml");
        }
    }
}

#[test]
fn a_rule_written_like_the_papers_figure_1_loads_and_applies() {
    // Figure 1's shape and spacing, with its placeholders filled in: no extension used.
    let xml = r#"<?xml version = "1.0" encoding = "UTF-8"?>
<page>
  <link>http://news.example.com/index.html</link>
  <date>/HTML[0]/BODY[0]/DIV[0]</date>
  <encoding>GB2312</encoding>
  <subject path="/HTML[0]/BODY[0]/TABLE[0]/TR">
    <title>TD[0]/B[0]/TEXT[0]</title>
    <item path="TD[1]/DIV">
      <title>A[0]/TEXT[0]</title>
      <date> SPAN[0]/TEXT[0]</date>
      <link> A[0]</link>
      <description> P[0]</description>
    </item>
  </subject>
  <subject path="/HTML[0]/BODY[0]/UL[0]">
    <item path="LI">
      <title>A[0]</title>
    </item>
  </subject>
</page>"#;
    let rule = Rule::parse(xml, "figure1.xml").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rule.encoding, Some(encoding_rs::GBK));
    assert!(rule.matches_url(&Url::parse("http://news.example.com/index.html").unwrap()));
    assert_eq!(Rule::parse(&rule.to_xml(), "again").unwrap(), rule);
    let page = r#"<html><body><div>2005-03-15 18:00</div><table>
        <tr><td><b>BUSINESS</b></td><td>
            <div><a href="b1.html">Deal one</a> <span>2005-03-15 16:13</span><p>First <i>deal</i>.</p></div>
            <div><a href="b2.html">Deal two</a> <span>2005-03-15 16:07</span></div></td></tr>
        <tr><td><b>SPORTS</b></td><td><div><a href="s1.html">Match</a> <span>2005-03-14 09:00</span></div></td></tr>
        </table><ul><li><a href="/more">More news</a></li></ul>"#;
    let doc = dom::parse_str(page, &Url::parse("http://news.example.com/index.html").unwrap()).unwrap();
    let extraction = rules::apply(&rule, &doc, Utc::now());
    let page = &extraction.page;
    assert_eq!(page.date.unwrap().to_rfc3339(), "2005-03-15T18:00:00+00:00");
    let subjects: Vec<_> = page.subjects.iter().map(|s| (s.title.as_deref(), s.items.len())).collect();
    assert_eq!(subjects, [(Some("BUSINESS"), 2), (Some("SPORTS"), 1), (None, 1)]);
    let first = &page.subjects[0].items[0];
    assert_eq!(first.link.as_ref().unwrap().as_str(), "http://news.example.com/b1.html");
    assert_eq!(first.date.unwrap().to_rfc3339(), "2005-03-15T16:13:00+00:00");
    assert_eq!(first.description.as_deref(), Some("First <i>deal</i>."));
}
