//! Feed-trained templates on the development corpus and on pages built for one property each.

mod common;

use html2rss::eval::template;

#[test]
fn corpus_report() {
    let report = template::evaluate(&common::corpus_dir()).unwrap();
    println!("{report}");
    if std::env::var_os("TEMPLATE_DUMP").is_some() {
        for s in &report.sites {
            println!("==== {}\n{}", s.site, s.template.as_deref().unwrap_or("-"));
        }
    }
}

#[test]
#[ignore]
fn debug_site() {
    use html2rss::engines::template;
    let corpus = common::corpus_dir();
    let name = std::env::var("SITE").unwrap();
    let site = html2rss::eval::corpus::sites(&corpus).unwrap().into_iter().find(|s| s.name.starts_with(&name)).unwrap();
    let feed = html2rss::eval::template::site_feed(&site).unwrap();
    let pages = html2rss::eval::template::training_pages(&site).unwrap();
    let docs: Vec<_> = pages.iter().map(|(_, d)| d.clone()).collect();
    let trained = template::train(&feed, &docs, chrono::Utc::now()).unwrap();
    println!("{}\n{}", trained.notes.join("\n"), trained.rule.to_xml());
    for file in ["page_2_index.html", "archives_index.html", "article1.html", "article2.html", "article3.html"] {
        let Some(url) = site.page_urls.get(file) else { continue };
        let bytes = std::fs::read(site.dir.join(file)).unwrap();
        let doc = html2rss::dom::parse(&bytes, url, &Default::default()).unwrap();
        let extraction = template::extract(&trained.rule, &doc, chrono::Utc::now());
        println!("== {file}: confidence {:.2}", extraction.confidence);
        for item in extraction.page.items() {
            let content = item.content.as_deref().map(|c| c.chars().take(80).collect::<String>());
            println!(
                "  {:?} | {:?} | {:?} | {:?} | {:?}",
                item.title,
                item.link.as_ref().map(|l| l.path()),
                item.date,
                item.author,
                content
            );
        }
    }
    let dates = template::dates::DateReader::new(None, chrono::Utc::now());
    for (file, doc) in &pages {
        let Some(item) = feed.items.iter().find(|i| i.link.as_ref().map(|l| l.path()) == Some(doc.url.path())) else {
            continue;
        };
        let labels = template::article::label(doc, item, &dates);
        println!(
            "item {:?}: summary {:?} content {:?}",
            item.title,
            item.summary().map(|t| t.chars().take(120).collect::<String>()),
            item.content().map(|t| (t.chars().count(), t.chars().take(120).collect::<String>()))
        );
        let show = |n: Option<html2rss::dom::NodeId>| n.map(|n| html2rss::path::Path::key_path(doc, n).to_string());
        println!(
            "label {file}: content {:?} ({:.3}) title {:?} date {:?}",
            show(labels.content),
            labels.content_score,
            show(labels.title),
            labels.date.as_ref().map(|d| (show(Some(d.node)), d.attr.clone()))
        );
    }
    for item in feed.items.iter().take(25) {
        println!("feed: {:?} | {:?} | {:?}", item.title, item.link.as_ref().map(|l| l.path()), item.date);
    }
}
