//! JSON Feed 1.1 (https://jsonfeed.org/version/1.1).

use serde::Serialize;

use super::{FeedMeta, guid, title, xml_clean};
use crate::model::Page;

#[derive(Serialize)]
struct JsonFeed<'a> {
    version: &'static str,
    title: String,
    home_page_url: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    feed_url: Option<&'a str>,
    items: Vec<JsonItem<'a>>,
}

#[derive(Serialize)]
struct JsonItem<'a> {
    id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<&'a str>,
    title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    content_html: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    content_text: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    date_published: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    authors: Vec<Author<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tags: Vec<&'a str>,
}

#[derive(Serialize)]
struct Author<'a> {
    name: &'a str,
}

pub fn write(page: &Page, meta: &FeedMeta) -> String {
    let items = page
        .items_with_subject()
        .map(|(subject, item)| {
            // Every item needs content_html or content_text: the full content, else the
            // description, else an empty text. Control characters go, as in the XML formats:
            // readers put these strings into XML and HTML.
            let html = item.content.as_deref().or(item.description.as_deref());
            JsonItem {
                id: guid(item),
                url: item.link.as_ref().map(|l| l.as_str()),
                title: xml_clean(&item.title),
                content_html: html.map(xml_clean),
                content_text: html.is_none().then_some(""),
                summary: item.content.as_ref().and(item.description.as_deref()).map(xml_clean),
                date_published: item.date.map(|d| d.to_rfc3339()),
                authors: item.author.as_deref().map(|name| Author { name }).into_iter().collect(),
                tags: subject.filter(|s| !s.trim().is_empty()).into_iter().collect(),
            }
        })
        .collect();
    let feed = JsonFeed {
        version: "https://jsonfeed.org/version/1.1",
        title: title(page),
        home_page_url: page.link.as_str(),
        feed_url: meta.self_url.as_ref().map(|u| u.as_str()),
        items,
    };
    serde_json::to_string_pretty(&feed).expect("plain structs always serialize")
}
