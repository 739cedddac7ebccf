//! RSS 2.0 with `content:encoded` and `dc:creator`.

use rss::extension::dublincore::DublinCoreExtension;
use rss::{Category, Channel, Guid, Item as RssItem};

use super::{FeedMeta, guid, title, xml_clean};
use crate::model::Page;

pub fn write(page: &Page, meta: &FeedMeta) -> String {
    let mut channel = Channel::default();
    channel.set_title(title(page));
    channel.set_link(page.link.to_string());
    channel.set_description(format!("Items of {}", page.link));
    channel.set_generator(Some(concat!("html2rss ", env!("CARGO_PKG_VERSION")).to_string()));
    channel.set_last_build_date(Some(meta.updated.to_rfc2822()));
    channel.set_pub_date(page.date.map(|d| d.to_rfc2822()));
    channel.set_ttl(meta.ttl_minutes.map(|t| t.to_string()));
    if let Some(self_url) = &meta.self_url {
        let mut atom = rss::extension::atom::AtomExtension::default();
        let mut link = rss::extension::atom::Link::default();
        link.set_href(self_url.to_string());
        link.set_rel("self");
        link.set_mime_type(Some("application/rss+xml".to_string()));
        atom.set_links(vec![link]);
        channel.set_atom_ext(Some(atom));
    }
    let items = page.items_with_subject().map(|(subject, item)| {
        let mut out = RssItem::default();
        out.set_title(Some(xml_clean(&item.title)));
        out.set_link(item.link.as_ref().map(|l| l.to_string()));
        out.set_description(item.description.as_deref().map(xml_clean));
        out.set_content(item.content.as_deref().map(xml_clean));
        out.set_pub_date(item.date.map(|d| d.to_rfc2822()));
        out.set_guid(Some(Guid { value: guid(item), permalink: item.link.is_some() }));
        if let Some(subject) = subject.filter(|s| !s.trim().is_empty()) {
            out.set_categories(vec![Category { name: xml_clean(subject.trim()), domain: None }]);
        }
        if let Some(author) = &item.author {
            out.set_dublin_core_ext(Some(DublinCoreExtension {
                creators: vec![xml_clean(author)],
                ..DublinCoreExtension::default()
            }));
        }
        out
    });
    channel.set_items(items.collect::<Vec<_>>());
    channel.to_string()
}
