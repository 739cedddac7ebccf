//! Atom 1.0.

use atom_syndication::{Category, Content, Entry, Feed, Generator, Link, Person, Text};

use super::{FeedMeta, guid, title, xml_clean};
use crate::model::Page;

fn link(href: String, rel: &str, mime: Option<&str>) -> Link {
    let mut link = Link::default();
    link.set_href(href);
    link.set_rel(rel);
    link.set_mime_type(mime.map(str::to_string));
    link
}

pub fn write(page: &Page, meta: &FeedMeta) -> String {
    let mut feed = Feed::default();
    feed.set_title(title(page));
    feed.set_id(meta.self_url.as_ref().unwrap_or(&page.link).to_string());
    feed.set_updated(page.date.unwrap_or(meta.updated));
    let mut links = vec![link(page.link.to_string(), "alternate", Some("text/html"))];
    if let Some(self_url) = &meta.self_url {
        links.push(link(self_url.to_string(), "self", Some("application/atom+xml")));
    }
    feed.set_links(links);
    feed.set_generator(Some(Generator {
        value: "html2rss".into(),
        uri: None,
        version: Some(env!("CARGO_PKG_VERSION").into()),
    }));
    let entries = page.items_with_subject().map(|(subject, item)| {
        let mut entry = Entry::default();
        entry.set_title(Text::plain(xml_clean(&item.title)));
        entry.set_id(guid(item));
        // Atom requires `updated`; an undated item gets the feed's time, not a made-up date.
        entry.set_updated(item.date.unwrap_or(meta.updated));
        entry.set_published(item.date);
        if let Some(href) = &item.link {
            entry.set_links(vec![link(href.to_string(), "alternate", None)]);
        }
        if let Some(description) = &item.description {
            entry.set_summary(Some(Text::html(xml_clean(description))));
        }
        if let Some(content) = &item.content {
            let mut body = Content::default();
            body.set_content_type(Some("html".to_string()));
            body.set_value(Some(xml_clean(content)));
            entry.set_content(Some(body));
        }
        if let Some(author) = &item.author {
            entry.set_authors(vec![Person { name: xml_clean(author), ..Person::default() }]);
        }
        if let Some(subject) = subject.filter(|s| !s.trim().is_empty()) {
            entry.set_categories(vec![Category { term: xml_clean(subject.trim()), ..Category::default() }]);
        }
        entry
    });
    feed.set_entries(entries.collect::<Vec<_>>());
    feed.to_string()
}
