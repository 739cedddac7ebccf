//! Loading the corpus (layout and ground truth as its README describes them).

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate};
use serde::Deserialize;
use url::Url;

use super::links::{LinkNormalizer, NormalizedLink};
use super::split::{Half, Split};

#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
}

fn read(path: &Path) -> Result<Vec<u8>, CorpusError> {
    let raw = fs::read(path).map_err(|source| CorpusError::Read { path: path.to_path_buf(), source })?;
    if path.extension().is_some_and(|e| e == "gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(raw.as_slice())
            .read_to_end(&mut out)
            .map_err(|source| CorpusError::Read { path: path.to_path_buf(), source })?;
        return Ok(out);
    }
    Ok(raw)
}

fn json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, CorpusError> {
    serde_json::from_slice(&read(path)?)
        .map_err(|e| CorpusError::Invalid { path: path.to_path_buf(), message: e.to_string() })
}

fn url(path: &Path, text: &str) -> Result<Url, CorpusError> {
    Url::parse(text)
        .map_err(|e| CorpusError::Invalid { path: path.to_path_buf(), message: format!("bad URL {text}: {e}") })
}

/// A ground-truth date: RFC 3339 or RFC 2822; empty and `0001-01-01` mean none.
pub fn parse_truth_date(text: &str) -> Option<DateTime<FixedOffset>> {
    // README §6 skips `0001-01-01` (Go's zero time: a page with no date) in whatever format
    // the feed writes it, RSS's `Mon, 01 Jan 0001` as well.
    let text = text.trim();
    let date = DateTime::parse_from_rfc3339(text).or_else(|_| DateTime::parse_from_rfc2822(text)).ok()?;
    (date.year() > 1).then_some(date)
}

/// Which part of the corpus a list page comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ListSet {
    Sitepairs,
    Themes,
    Feedless,
    Gerapy,
}

impl ListSet {
    pub const ALL: [ListSet; 4] = [ListSet::Sitepairs, ListSet::Themes, ListSet::Feedless, ListSet::Gerapy];

    pub fn name(self) -> &'static str {
        match self {
            ListSet::Sitepairs => "sitepairs",
            ListSet::Themes => "themes",
            ListSet::Feedless => "feedless",
            ListSet::Gerapy => "gerapy",
        }
    }

    /// The set's directory under the corpus.
    fn dir(self) -> &'static str {
        match self {
            ListSet::Sitepairs => "lists/sitepairs",
            ListSet::Themes => "lists/themes",
            ListSet::Feedless => "lists/feedless",
            ListSet::Gerapy => "lists/gerapy",
        }
    }
}

/// One expected item of a list page.
#[derive(Debug, Clone)]
pub struct TruthItem {
    pub title: Option<String>,
    pub link: Url,
    pub date: Option<DateTime<FixedOffset>>,
}

#[derive(Debug, Clone)]
pub enum ListTruth {
    /// Expected items; `complete` says whether every item of the page's list is among them
    /// (only then does an extra output item count as an error).
    Items { items: Vec<TruthItem>, complete: bool },
    /// Only the number of items is known.
    Count(usize),
}

/// A list page with its ground truth.
#[derive(Debug, Clone)]
pub struct ListPage {
    pub set: ListSet,
    pub half: Half,
    /// `site/file` for site pairs and themes, the file name otherwise.
    pub name: String,
    pub file: PathBuf,
    /// The URL the page was served at.
    pub url: Url,
    pub truth: ListTruth,
    pub normalizer: LinkNormalizer,
}

impl ListPage {
    pub fn bytes(&self) -> Result<Vec<u8>, CorpusError> {
        read(&self.file)
    }

    pub fn normalize(&self, url: &Url) -> NormalizedLink {
        self.normalizer.normalize(url)
    }
}

/// A site of `lists/sitepairs` or `lists/themes`: its pages, feed and articles.
#[derive(Debug, Clone)]
pub struct Site {
    pub set: ListSet,
    pub half: Half,
    pub name: String,
    pub dir: PathBuf,
    pub base_url: Url,
    pub host_aliases: Vec<String>,
    /// File name → URL the file was served at.
    pub page_urls: BTreeMap<String, Url>,
    pub feed: PathBuf,
}

impl Site {
    /// `article1.html` … with their URLs.
    pub fn articles(&self) -> Vec<(PathBuf, Url)> {
        self.page_urls
            .iter()
            .filter(|(file, _)| file.starts_with("article"))
            .map(|(file, url)| (self.dir.join(file), url.clone()))
            .collect()
    }
}

#[derive(Deserialize)]
struct SiteMeta {
    base_url: String,
    #[serde(default)]
    host_aliases: Vec<String>,
    page_urls: BTreeMap<String, String>,
}

#[derive(Deserialize)]
struct SiteTruth {
    page: String,
    n_feed_items: usize,
    items_on_page: Vec<SiteTruthItem>,
}

#[derive(Deserialize)]
struct SiteTruthItem {
    title: String,
    link: String,
    date: String,
}

#[derive(Deserialize)]
struct Audit {
    #[serde(rename = "use")]
    usable: bool,
    complete: bool,
    #[serde(default)]
    not_list_items: Vec<String>,
}

/// The sites of `lists/sitepairs` and `lists/themes`, each set sorted by name.
pub fn sites(corpus: &Path) -> Result<Vec<Site>, CorpusError> {
    let split = Split::load(corpus)?;
    let mut sites = Vec::new();
    for set in [ListSet::Sitepairs, ListSet::Themes] {
        let root = corpus.join(set.dir());
        let entries = fs::read_dir(&root).map_err(|source| CorpusError::Read { path: root.clone(), source })?;
        let mut found = Vec::new();
        for entry in entries {
            let dir = entry.map_err(|source| CorpusError::Read { path: root.clone(), source })?.path();
            let meta_path = dir.join("meta.json");
            if !meta_path.is_file() {
                continue;
            }
            let meta: SiteMeta = json(&meta_path)?;
            let page_urls = meta
                .page_urls
                .iter()
                .map(|(file, u)| Ok((file.clone(), url(&meta_path, u)?)))
                .collect::<Result<_, CorpusError>>()?;
            let name = dir.file_name().unwrap_or_default().to_string_lossy().into_owned();
            found.push(Site {
                set,
                half: split.half(&format!("{}/{name}", set.dir()))?,
                name,
                base_url: url(&meta_path, &meta.base_url)?,
                host_aliases: meta.host_aliases,
                page_urls,
                feed: dir.join("feed.xml"),
                dir,
            });
        }
        found.sort_by(|a, b| a.name.cmp(&b.name));
        sites.extend(found);
    }
    Ok(sites)
}

/// Every usable list page of the corpus with its ground truth.
pub fn list_pages(corpus: &Path) -> Result<Vec<ListPage>, CorpusError> {
    let mut pages = site_list_pages(corpus)?;
    pages.extend(feedless_pages(corpus)?);
    pages.extend(gerapy_pages(corpus)?);
    Ok(pages)
}

/// Usable list pages of the site pairs and themes (`use: true` in their `AUDIT.json`), with
/// `not_list_items` removed.
pub fn site_list_pages(corpus: &Path) -> Result<Vec<ListPage>, CorpusError> {
    let mut audits = BTreeMap::new();
    for set in [ListSet::Sitepairs, ListSet::Themes] {
        let path = corpus.join(set.dir()).join("AUDIT.json");
        let audit: BTreeMap<String, BTreeMap<String, Audit>> = json(&path)?;
        audits.insert(set, (path, audit));
    }
    let mut pages = Vec::new();
    for site in sites(corpus)? {
        let (audit_path, audit) = &audits[&site.set];
        let normalizer = LinkNormalizer::for_site(&site.base_url, &site.host_aliases);
        let mut truth_files: Vec<PathBuf> = fs::read_dir(&site.dir)
            .map_err(|source| CorpusError::Read { path: site.dir.clone(), source })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("gt_")))
            .collect();
        truth_files.sort();
        let truths: Vec<(PathBuf, SiteTruth)> =
            truth_files.into_iter().map(|p| json(&p).map(|t| (p, t))).collect::<Result<_, _>>()?;
        let feed_ends_on_first_page = feed_ends_on_first_page(&truths, audit.get(&site.name));
        for (truth_path, truth) in truths {
            if truth.page == "page_2_index.html" && feed_ends_on_first_page {
                continue;
            }
            let Some(page_audit) = audit.get(&site.name).and_then(|a| a.get(&truth.page)) else {
                return Err(CorpusError::Invalid {
                    path: audit_path.clone(),
                    message: format!("no entry for {}/{}", site.name, truth.page),
                });
            };
            if !page_audit.usable {
                continue;
            }
            let page_url = site.page_urls.get(&truth.page).cloned().ok_or_else(|| CorpusError::Invalid {
                path: site.dir.join("meta.json"),
                message: format!("no page URL for {}", truth.page),
            })?;
            let excluded: HashSet<NormalizedLink> = page_audit
                .not_list_items
                .iter()
                .filter_map(|l| site.base_url.join(l).ok())
                .map(|u| normalizer.normalize(&u))
                .collect();
            let mut items = Vec::new();
            for item in truth.items_on_page {
                let link = site.base_url.join(&item.link).map_err(|e| CorpusError::Invalid {
                    path: truth_path.clone(),
                    message: format!("bad link {}: {e}", item.link),
                })?;
                if excluded.contains(&normalizer.normalize(&link)) {
                    continue;
                }
                items.push(TruthItem { title: Some(item.title), link, date: parse_truth_date(&item.date) });
            }
            pages.push(ListPage {
                set: site.set,
                half: site.half,
                name: format!("{}/{}", site.name, truth.page),
                file: site.dir.join(&truth.page),
                url: page_url,
                truth: ListTruth::Items { items, complete: page_audit.complete },
                normalizer: normalizer.clone(),
            });
        }
    }
    Ok(pages)
}

/// Whether the first page links posts missing from the feed (its audit says incomplete) while
/// its truth already holds every item of the feed: the feed ends within the first page's list.
/// Page 2 then lists only posts older than anything in the feed, and the feed items it links
/// can only be side lists ("recent posts"), so its derived truth is not its list and the page
/// is not scored, as the audit itself does where it reviewed such a page.
fn feed_ends_on_first_page(truths: &[(PathBuf, SiteTruth)], audit: Option<&BTreeMap<String, Audit>>) -> bool {
    let Some((_, first)) = truths.iter().find(|(_, t)| t.page == "index.html") else { return false };
    let Some(first_audit) = audit.and_then(|a| a.get("index.html")) else { return false };
    let listed = first.items_on_page.iter().filter(|i| !first_audit.not_list_items.contains(&i.link)).count();
    first_audit.usable && !first_audit.complete && first.n_feed_items > 0 && listed >= first.n_feed_items
}

/// `lists/feedless`: expected links (deduplicated); `08-arxiv-org` is scored by count only.
pub fn feedless_pages(corpus: &Path) -> Result<Vec<ListPage>, CorpusError> {
    let split = Split::load(corpus)?;
    let dir = corpus.join(ListSet::Feedless.dir());
    let base_path = dir.join("base_urls.json");
    let bases: BTreeMap<String, String> = json(&base_path)?;
    let mut pages = Vec::new();
    for (file, base) in bases {
        let page_url = url(&base_path, &base)?;
        let truth_path = dir.join(file.replace(".input.html", ".output.json"));
        let links: Vec<String> = json(&truth_path)?;
        let truth = if file.starts_with("08-arxiv") {
            ListTruth::Count(links.len())
        } else {
            let mut seen = HashSet::new();
            let mut items = Vec::new();
            for link in links {
                let link = url(&truth_path, &link)?;
                if seen.insert(link.clone()) {
                    items.push(TruthItem { title: None, link, date: None });
                }
            }
            ListTruth::Items { items, complete: true }
        };
        pages.push(ListPage {
            set: ListSet::Feedless,
            half: split.half(&format!("{}/{file}", ListSet::Feedless.dir()))?,
            name: file.clone(),
            file: dir.join(&file),
            normalizer: LinkNormalizer::for_site(&page_url, &[]),
            url: page_url,
            truth,
        });
    }
    Ok(pages)
}

/// `lists/gerapy`: expected item counts. Pages without a base URL get their `file:` URL
/// (only counts are scored there).
pub fn gerapy_pages(corpus: &Path) -> Result<Vec<ListPage>, CorpusError> {
    let split = Split::load(corpus)?;
    let dir = corpus.join(ListSet::Gerapy.dir());
    let counts: BTreeMap<String, usize> = json(&dir.join("counts.json"))?;
    let base_path = dir.join("base_urls.json");
    let bases: BTreeMap<String, String> = json(&base_path)?;
    let mut pages = Vec::new();
    for (file, count) in counts {
        let path = dir.join(&file);
        let page_url = match bases.get(&file) {
            Some(base) => url(&base_path, base)?,
            None => Url::from_file_path(
                fs::canonicalize(&path).map_err(|source| CorpusError::Read { path: path.clone(), source })?,
            )
            .map_err(|_| CorpusError::Invalid { path: path.clone(), message: "not an absolute path".into() })?,
        };
        pages.push(ListPage {
            set: ListSet::Gerapy,
            half: split.half(&format!("{}/{file}", ListSet::Gerapy.dir()))?,
            name: file,
            file: path,
            normalizer: LinkNormalizer::for_site(&page_url, &[]),
            url: page_url,
            truth: ListTruth::Count(count),
        });
    }
    Ok(pages)
}

/// The article benchmarks under `articles/` (corpus README §4, §4b), zyte first.
pub const ARTICLE_SETS: [&str; 8] =
    ["zyte", "cleaneval", "cleanportaleval", "dragnet", "l3s-gn1", "msv-chaos", "evan-extract", "zh-webcontent"];

/// An article page of one of the [`ARTICLE_SETS`] with its expected main text.
#[derive(Debug, Clone)]
pub struct ArticlePage {
    pub set: &'static str,
    pub half: Half,
    pub id: String,
    pub file: PathBuf,
    /// The page's URL where its benchmark gives one, else `https://articles.invalid/SET/ID`.
    pub url: Url,
    pub body: String,
}

impl ArticlePage {
    /// The page as published, without the `<text id=URL …>` wrapper line (and closing
    /// `</text>`) that the CleanEval organisers added around some benchmarks' pages.
    pub fn bytes(&self) -> Result<Vec<u8>, CorpusError> {
        let mut bytes = read(&self.file)?;
        if let Some((start, end)) = text_wrapper(&bytes) {
            bytes.drain(start..end);
            let trimmed = bytes.trim_ascii_end().len();
            if bytes[..trimmed].ends_with(b"</text>") {
                bytes.truncate(trimmed - b"</text>".len());
            }
        }
        Ok(bytes)
    }
}

/// The byte range of a leading `<text …>` wrapper tag.
fn text_wrapper(bytes: &[u8]) -> Option<(usize, usize)> {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    if !bytes[start..].starts_with(b"<text ") {
        return None;
    }
    let end = start + bytes[start..].iter().position(|&b| b == b'>')? + 1;
    Some((start, end))
}

/// The `id` URL of a page's `<text id="URL" …>` wrapper.
fn wrapper_url(bytes: &[u8]) -> Option<Url> {
    let (start, end) = text_wrapper(bytes)?;
    let tag = String::from_utf8_lossy(&bytes[start..end]);
    let id = tag.split("id=\"").nth(1)?.split('"').next()?;
    Url::parse(id).ok().filter(|u| matches!(u.scheme(), "http" | "https"))
}

#[derive(Deserialize)]
struct ZyteTruth {
    #[serde(rename = "articleBody")]
    article_body: String,
    url: String,
}

/// Every page of every article set, with its half.
pub fn article_pages(corpus: &Path) -> Result<Vec<ArticlePage>, CorpusError> {
    let split = Split::load(corpus)?;
    let mut pages = zyte_pages(corpus, &split)?;
    for set in &ARTICLE_SETS[1..] {
        let dir = corpus.join("articles").join(set);
        let pages_dir = dir.join("pages");
        let mut files: Vec<PathBuf> = fs::read_dir(&pages_dir)
            .map_err(|source| CorpusError::Read { path: pages_dir.clone(), source })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".html.gz"))
            .collect();
        files.sort();
        for file in files {
            let name = file.file_name().unwrap_or_default().to_string_lossy().into_owned();
            let id = name.trim_end_matches(".html.gz").to_string();
            let truth_path = dir.join("truth").join(format!("{id}.txt"));
            let body = without_comments(String::from_utf8_lossy(&read(&truth_path)?).into_owned());
            if holds_no_text(&body) {
                continue;
            }
            let url = wrapper_url(&read(&file)?)
                .unwrap_or_else(|| Url::parse(&format!("https://articles.invalid/{set}/{id}")).expect("a valid URL"));
            pages.push(ArticlePage {
                set,
                half: split.half(&format!("articles/{set}/pages/{name}"))?,
                id,
                file,
                url,
                body,
            });
        }
    }
    Ok(pages)
}

/// Whether a truth text is empty but for HTML comments: a curator's "this page contains no
/// article" (cleanportaleval's `bbc.co.uk_news_04`, a section front) is no main text to score
/// a page on, nor an article page for the decision; the set's import already dropped the page
/// whose gold file was empty.
fn holds_no_text(body: &str) -> bool {
    let mut rest = body.trim();
    while let Some(comment) = rest.strip_prefix("<!--") {
        let Some(end) = comment.find("-->") else { return false };
        rest = comment[end + 3..].trim_start();
    }
    rest.is_empty()
}

/// The article part of a truth text. dragnet's truth files put the page's comments after a
/// separator line (`!@#$%^&*() COMMENTS`, typed a little differently in some files); its
/// SOURCE.md says they were cut, but six files still hold them, and the set scores article
/// text only.
fn without_comments(mut body: String) -> String {
    let mut at = 0;
    for line in body.split_inclusive('\n') {
        if line.starts_with("!@") && line.contains("$%^&") {
            body.truncate(at);
            break;
        }
        at += line.len();
    }
    body
}

fn zyte_pages(corpus: &Path, split: &Split) -> Result<Vec<ArticlePage>, CorpusError> {
    let dir = corpus.join("articles/zyte");
    let truth_path = dir.join("ground-truth.json");
    let truth: BTreeMap<String, ZyteTruth> = json(&truth_path)?;
    truth
        .into_iter()
        .map(|(id, t)| {
            let file = dir.join("html").join(format!("{id}.html.gz"));
            Ok(ArticlePage {
                set: ARTICLE_SETS[0],
                half: split.half(&format!("articles/zyte/html/{id}.html.gz"))?,
                file,
                url: url(&truth_path, &t.url)?,
                body: t.article_body,
                id,
            })
        })
        .collect()
}

/// A page of `dates/htmldate` with its publication day (`None`: the page has no date).
#[derive(Debug, Clone)]
pub struct DatePage {
    pub half: Half,
    pub file: PathBuf,
    pub url: Url,
    pub date: Option<NaiveDate>,
}

impl DatePage {
    pub fn bytes(&self) -> Result<Vec<u8>, CorpusError> {
        read(&self.file)
    }
}

#[derive(Deserialize)]
struct DateTruth {
    file: String,
    date: Option<String>,
}

pub fn date_pages(corpus: &Path) -> Result<Vec<DatePage>, CorpusError> {
    let split = Split::load(corpus)?;
    let dir = corpus.join("dates/htmldate");
    let truth_path = dir.join("eval_mediacloud_2020.json");
    let truth: BTreeMap<String, DateTruth> = json(&truth_path)?;
    truth
        .into_iter()
        .map(|(page_url, t)| {
            let date = match t.date {
                Some(d) => Some(NaiveDate::parse_from_str(&d, "%Y-%m-%d").map_err(|e| CorpusError::Invalid {
                    path: truth_path.clone(),
                    message: format!("bad date {d}: {e}"),
                })?),
                None => None,
            };
            Ok(DatePage {
                half: split.half(&format!("dates/htmldate/test_set/{}", t.file))?,
                file: dir.join("test_set").join(&t.file),
                url: url(&truth_path, &page_url)?,
                date,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{holds_no_text, without_comments};

    #[test]
    fn a_truth_text_ends_at_the_comment_separator() {
        let truth = "Title\nThe article.\n!@#$%^&*() COMMENTS\nReader 07.15.12\nA comment.\n";
        assert_eq!(without_comments(truth.to_string()), "Title\nThe article.\n");
        let typed_otherwise = "The article.\n!@ $%^&*() COMMENTS\nA comment.\n";
        assert_eq!(without_comments(typed_otherwise.to_string()), "The article.\n");
        assert_eq!(without_comments("No comments here.\n".to_string()), "No comments here.\n");
    }

    #[test]
    fn a_truth_of_comments_alone_holds_no_text() {
        assert!(holds_no_text("<!-- this page contains no article -->\n"));
        assert!(holds_no_text("  \n"));
        assert!(!holds_no_text("<!-- note -->\nThe article.\n"));
        assert!(!holds_no_text("<!-- unclosed\n"));
    }
}
