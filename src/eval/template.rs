//! Feed-trained templates on `lists/sitepairs` and `lists/themes` (corpus README §1, §1b, §6):
//! for each site, a
//! template is trained on `feed.xml`, `index.html` and the `article*.html` pages, then applied
//! to the list pages the training never saw (`page_2_index.html`, `archives_index.html`) and
//! to the article pages.
//!
//! List pages are scored as README §6 says (occupancy, accuracy where the ground truth is
//! complete, title and date match). Article pages are scored by token F1 of the template's
//! content against the feed's full text, where the feed has it: the item carries a content
//! element (`content:encoded`, Atom `<content>`), or a description of at least
//! [`FULL_TEXT_TOKENS`] words. Each article page is scored twice: by the template trained on
//! all pages, and by one trained without that page (leave one out).

use std::collections::HashSet;
use std::fmt::{self, Write as _};
use std::fs;
use std::path::Path;
use std::time::Instant;

use chrono::Utc;
use serde::Serialize;
use url::Url;

use super::corpus::{CorpusError, ListTruth, Site, site_list_pages, sites};
use super::links::LinkNormalizer;
use super::split::Half;
use super::text::{normalize_title, token_f1, tokens};
use super::{HalfTable, percent};
use crate::dom::{self, Document, ParseOptions};
use crate::engines::template::{self, Trained};
use crate::engines::{Engine, Extraction, article};
use crate::feed::reader::{self, FeedItem, TrainingFeed};

/// A feed description with at least this many words is taken for the full text.
pub const FULL_TEXT_TOKENS: usize = 100;
/// The list pages the training never sees.
const UNSEEN: [&str; 2] = ["page_2_index.html", "archives_index.html"];

/// One site's training.
#[derive(Debug, Clone, Serialize)]
pub struct SiteTraining {
    pub site: String,
    pub half: Half,
    /// `None` with the error when no template was learned.
    pub confidence: Option<f32>,
    pub error: Option<String>,
    /// Training time (parsed pages and feed in memory), in milliseconds.
    pub millis: f64,
    pub template: Option<String>,
}

/// An unseen list page's scores.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ListScore {
    pub name: String,
    pub half: Option<Half>,
    /// Whose items: the template's, or `auto`'s where the template gave way.
    pub engine: Option<Engine>,
    pub expected: usize,
    pub output: usize,
    pub matched: usize,
    pub complete: bool,
    pub titled: usize,
    pub title_equal: usize,
    pub title_lenient: usize,
    pub truth_dated: usize,
    pub date_same_day: usize,
    pub date_within_day: usize,
    pub date_any: usize,
}

impl ListScore {
    pub fn occupancy(&self) -> f64 {
        ratio(self.matched, self.expected)
    }

    pub fn accuracy(&self) -> Option<f64> {
        self.complete.then(|| ratio(self.matched, self.output))
    }
}

/// An article page's scores.
#[derive(Debug, Clone, Serialize)]
pub struct ArticleScore {
    pub name: String,
    pub half: Half,
    /// The feed carries the item's full text.
    pub full_text: bool,
    /// Token F1 against the feed's text of the content `extract --algorithm template` gives
    /// (the template's content path, or the generic extractor where the path gives way), with
    /// the template trained on every page / without this page; and of the generic extractor's.
    pub f1: f64,
    pub f1_held_out: f64,
    pub f1_generic: f64,
    pub title_equal: bool,
    /// Same day as the feed's date (in the feed's offset), when the feed has one.
    pub date_same_day: Option<bool>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct TemplateReport {
    pub sites: Vec<SiteTraining>,
    pub lists: Vec<ListScore>,
    pub articles: Vec<ArticleScore>,
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

fn read(path: &Path) -> Result<Vec<u8>, CorpusError> {
    fs::read(path).map_err(|source| CorpusError::Read { path: path.to_path_buf(), source })
}

fn parse(site: &Site, file: &str) -> Result<Option<Document>, CorpusError> {
    let path = site.dir.join(file);
    let Some(url) = site.page_urls.get(file) else { return Ok(None) };
    if !path.is_file() {
        return Ok(None);
    }
    let bytes = read(&path)?;
    dom::parse(&bytes, url, &ParseOptions::default())
        .map(Some)
        .map_err(|e| CorpusError::Invalid { path, message: e.to_string() })
}

/// The site's feed, read as training reads it.
pub fn site_feed(site: &Site) -> Result<TrainingFeed, CorpusError> {
    let bytes = read(&site.feed)?;
    reader::read_feed(&bytes, &site.base_url)
        .map_err(|e| CorpusError::Invalid { path: site.feed.clone(), message: e.to_string() })
}

/// The training pages of a site: its homepage and its article pages, with their files.
pub fn training_pages(site: &Site) -> Result<Vec<(String, Document)>, CorpusError> {
    let mut pages = Vec::new();
    for file in site.page_urls.keys().filter(|f| *f == "index.html" || f.starts_with("article")) {
        if let Some(doc) = parse(site, file)? {
            pages.push((file.clone(), doc));
        }
    }
    Ok(pages)
}

/// Train and score on every site of `CORPUS/lists/sitepairs` and `CORPUS/lists/themes` in the
/// given half of the corpus (both: `None`).
pub fn evaluate(corpus: &Path, half: Option<Half>) -> Result<TemplateReport, CorpusError> {
    let truths = site_list_pages(corpus)?;
    let mut report = TemplateReport::default();
    for site in sites(corpus)?.into_iter().filter(|s| half.is_none_or(|h| h == s.half)) {
        let feed = site_feed(&site)?;
        let pages = training_pages(&site)?;
        let docs: Vec<Document> = pages.iter().map(|(_, d)| d.clone()).collect();
        let started = Instant::now();
        let trained = template::train(&feed, &docs, Utc::now());
        let millis = started.elapsed().as_secs_f64() * 1000.0;
        let (confidence, error, xml) = match &trained {
            Ok(t) => (Some(t.confidence), None, Some(t.rule.to_xml())),
            Err(e) => (None, Some(e.to_string()), None),
        };
        report.sites.push(SiteTraining {
            site: site.name.clone(),
            half: site.half,
            confidence,
            error,
            millis,
            template: xml,
        });
        let Ok(trained) = trained else { continue };
        let normalizer = LinkNormalizer::for_site(&site.base_url, &site.host_aliases);
        for file in UNSEEN {
            let name = format!("{}/{file}", site.name);
            let Some(truth) = truths.iter().find(|p| p.name == name) else { continue };
            let Some(doc) = parse(&site, file)? else { continue };
            let extraction = template::extract(&trained.rule, &doc, Utc::now());
            let mut score = score_list(&name, &extraction.page, truth, &normalizer);
            score.half = Some(site.half);
            score.engine = Some(extraction.engine);
            report.lists.push(score);
        }
        for (i, (file, doc)) in pages.iter().enumerate() {
            if !file.starts_with("article") {
                continue;
            }
            let Some(item) = feed_item_of(&feed, &doc.url, &normalizer) else { continue };
            let held_out: Vec<Document> =
                pages.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, (_, d))| d.clone()).collect();
            let other = template::train(&feed, &held_out, Utc::now()).ok();
            let name = format!("{}/{file}", site.name);
            report.articles.push(score_article(&name, site.half, doc, item, &trained, other.as_ref()));
        }
    }
    Ok(report)
}

fn feed_item_of<'f>(feed: &'f TrainingFeed, url: &Url, normalizer: &LinkNormalizer) -> Option<&'f FeedItem> {
    let key = normalizer.normalize(url);
    feed.items.iter().find(|i| i.link.as_ref().is_some_and(|l| normalizer.normalize(l) == key))
}

fn score_list(
    name: &str,
    page: &crate::model::Page,
    truth: &super::corpus::ListPage,
    normalizer: &LinkNormalizer,
) -> ListScore {
    let ListTruth::Items { items, complete } = &truth.truth else { return ListScore::default() };
    let mut seen = HashSet::new();
    let output: Vec<_> = page
        .items()
        .filter_map(|i| i.link.as_ref().map(|l| (normalizer.normalize(l), i)))
        .filter(|(key, _)| seen.insert(key.clone()))
        .collect();
    let mut score =
        ListScore { name: name.to_string(), output: output.len(), complete: *complete, ..Default::default() };
    let mut expected = HashSet::new();
    for truth_item in items {
        let key = normalizer.normalize(&truth_item.link);
        if !expected.insert(key.clone()) {
            continue;
        }
        let Some((_, got)) = output.iter().find(|(k, _)| *k == key) else { continue };
        score.matched += 1;
        if let Some(title) = &truth_item.title {
            score.titled += 1;
            let (want, have) = (normalize_title(title), normalize_title(&got.title));
            score.title_equal += usize::from(want == have);
            score.title_lenient += usize::from(!have.is_empty() && (want.contains(&have) || have.contains(&want)));
        }
        if let Some(date) = truth_item.date {
            score.truth_dated += 1;
            if let Some(found) = got.date {
                score.date_any += 1;
                let days = (found.date_naive() - date.date_naive()).num_days().abs();
                score.date_same_day += usize::from(days == 0);
                score.date_within_day += usize::from(days <= 1);
            }
        }
    }
    score.expected = expected.len();
    score
}

/// The main text an extraction gives an article page: its one item's content, as plain text
/// (empty when the page was taken for a list).
fn delivered_text(extraction: &Extraction) -> String {
    let mut items = extraction.page.items();
    match (items.next(), items.next()) {
        (Some(item), None) => item.content.as_deref().map(reader::html_to_text).unwrap_or_default(),
        _ => String::new(),
    }
}

fn score_article(
    name: &str,
    half: Half,
    doc: &Document,
    item: &FeedItem,
    trained: &Trained,
    held_out: Option<&Trained>,
) -> ArticleScore {
    let body = item.content().or(item.summary()).unwrap_or_default().to_string();
    let full_text = item.content().is_some() || tokens(&body).len() >= FULL_TEXT_TOKENS;
    let now = Utc::now();
    let extraction = template::extract(&trained.rule, doc, now);
    let held_out_text = held_out.map(|t| delivered_text(&template::extract(&t.rule, doc, now))).unwrap_or_default();
    let generic = article::extract(doc, &article::Hints::default());
    let generic_text = generic.content_html.as_deref().map(reader::html_to_text).unwrap_or_default();
    let extracted = extraction.page.items().next().filter(|_| extraction.page.item_count() == 1);
    let title_equal = extracted.is_some_and(|i| normalize_title(&i.title) == normalize_title(&item.title));
    let date_same_day =
        item.date.map(|want| extracted.and_then(|i| i.date).is_some_and(|got| got.date_naive() == want.date_naive()));
    ArticleScore {
        name: name.to_string(),
        half,
        full_text,
        f1: token_f1(&delivered_text(&extraction), &body).f1,
        f1_held_out: token_f1(&held_out_text, &body).f1,
        f1_generic: token_f1(&generic_text, &body).f1,
        title_equal,
        date_same_day,
    }
}

/// Pooled and mean figures of a report.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Totals {
    pub list_pages: usize,
    pub occupancy_macro: f64,
    pub occupancy_micro: f64,
    pub accuracy_pages: usize,
    pub accuracy_macro: f64,
    pub accuracy_micro: f64,
    pub title_equal: f64,
    pub title_lenient: f64,
    pub date_same_day: f64,
    pub date_within_day: f64,
    pub date_any: f64,
    pub full_text_articles: usize,
    pub article_f1: f64,
    pub article_f1_held_out: f64,
    pub article_f1_generic: f64,
    pub article_titles: f64,
    pub article_dates: f64,
    pub sites: usize,
    pub trained_sites: usize,
    pub max_training_millis: f64,
}

impl TemplateReport {
    /// The figures of one half of the corpus, or of both (`None`).
    pub fn totals(&self, half: Option<Half>) -> Totals {
        let in_half = |h: Half| half.is_none_or(|want| want == h);
        let lists: Vec<&ListScore> = self.lists.iter().filter(|l| l.half.is_some_and(in_half)).collect();
        let articles: Vec<&ArticleScore> = self.articles.iter().filter(|a| in_half(a.half)).collect();
        let sites: Vec<&SiteTraining> = self.sites.iter().filter(|s| in_half(s.half)).collect();
        let sum = |f: &dyn Fn(&ListScore) -> usize| lists.iter().map(|l| f(l)).sum::<usize>();
        let complete: Vec<&&ListScore> = lists.iter().filter(|l| l.complete).collect();
        let full: Vec<&&ArticleScore> = articles.iter().filter(|a| a.full_text).collect();
        let mean =
            |values: Vec<f64>| if values.is_empty() { 0.0 } else { values.iter().sum::<f64>() / values.len() as f64 };
        let dated: Vec<bool> = articles.iter().filter_map(|a| a.date_same_day).collect();
        Totals {
            list_pages: lists.len(),
            occupancy_macro: mean(lists.iter().map(|l| l.occupancy()).collect()),
            occupancy_micro: ratio(sum(&|l| l.matched), sum(&|l| l.expected)),
            accuracy_pages: complete.len(),
            accuracy_macro: mean(complete.iter().filter_map(|l| l.accuracy()).collect()),
            accuracy_micro: ratio(complete.iter().map(|l| l.matched).sum(), complete.iter().map(|l| l.output).sum()),
            title_equal: ratio(sum(&|l| l.title_equal), sum(&|l| l.titled)),
            title_lenient: ratio(sum(&|l| l.title_lenient), sum(&|l| l.titled)),
            date_same_day: ratio(sum(&|l| l.date_same_day), sum(&|l| l.truth_dated)),
            date_within_day: ratio(sum(&|l| l.date_within_day), sum(&|l| l.truth_dated)),
            date_any: ratio(sum(&|l| l.date_any), sum(&|l| l.truth_dated)),
            full_text_articles: full.len(),
            article_f1: mean(full.iter().map(|a| a.f1).collect()),
            article_f1_held_out: mean(full.iter().map(|a| a.f1_held_out).collect()),
            article_f1_generic: mean(full.iter().map(|a| a.f1_generic).collect()),
            article_titles: ratio(articles.iter().filter(|a| a.title_equal).count(), articles.len()),
            article_dates: ratio(dated.iter().filter(|&&d| d).count(), dated.len()),
            sites: sites.len(),
            trained_sites: sites.iter().filter(|s| s.confidence.is_some()).count(),
            max_training_millis: sites.iter().map(|s| s.millis).fold(0.0, f64::max),
        }
    }

    /// The report as a text table.
    pub fn table(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for TemplateReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        let _ = writeln!(out, "templates (trained on feed.xml + index.html + article*.html of each site)");
        let _ = writeln!(out, "  {:<42} {:>6} {:>8}  error", "site", "conf", "train ms");
        for s in &self.sites {
            let conf = s.confidence.map_or("-".to_string(), |c| format!("{c:.2}"));
            let _ =
                writeln!(out, "  {:<42} {:>6} {:>8.1}  {}", s.site, conf, s.millis, s.error.as_deref().unwrap_or(""));
        }
        let _ = writeln!(out, "  unseen list pages:");
        let _ = writeln!(
            out,
            "  {:<58} {:>4} {:>4} {:>4} {:>6} {:>6} {:>6} {:>6}  by",
            "page", "gt", "out", "hit", "occ", "acc", "title", "date"
        );
        for l in &self.lists {
            let acc = l.accuracy().map_or("-".to_string(), |a| format!("{a:.2}"));
            let _ = writeln!(
                out,
                "  {:<58} {:>4} {:>4} {:>4} {:>6.2} {:>6} {:>6.2} {:>6.2}  {}",
                l.name,
                l.expected,
                l.output,
                l.matched,
                l.occupancy(),
                acc,
                ratio(l.title_equal, l.titled),
                ratio(l.date_same_day, l.truth_dated),
                l.engine.map_or_else(|| "-".to_string(), |e| format!("{e:?}"))
            );
        }
        let _ = writeln!(out, "  article pages:");
        let _ = writeln!(
            out,
            "  {:<58} {:>5} {:>6} {:>6} {:>6} {:>6} {:>5}",
            "page", "full", "F1", "F1 loo", "F1 gen", "title", "date"
        );
        for a in &self.articles {
            let date = a.date_same_day.map_or("-", |d| if d { "yes" } else { "no" });
            let _ = writeln!(
                out,
                "  {:<58} {:>5} {:>6.3} {:>6.3} {:>6.3} {:>6} {:>5}",
                a.name,
                if a.full_text { "yes" } else { "no" },
                a.f1,
                a.f1_held_out,
                a.f1_generic,
                if a.title_equal { "yes" } else { "no" },
                date
            );
        }
        let [tune, check] = [Half::Tune, Half::Check].map(|h| self.totals(Some(h)));
        let mut table = HalfTable::new("templates");
        let mut row = |name: &str, cell: &dyn Fn(&Totals) -> String| table.row(name, [cell(&tune), cell(&check)]);
        let pct = |v: f64| percent(Some(v));
        row("unseen list pages", &|t| t.list_pages.to_string());
        row("occupancy macro / micro", &|t| format!("{} / {}", pct(t.occupancy_macro), pct(t.occupancy_micro)));
        row("accuracy macro / micro (pages)", &|t| {
            format!("{} / {} ({})", pct(t.accuracy_macro), pct(t.accuracy_micro), t.accuracy_pages)
        });
        row("titles equal / contained", &|t| format!("{} / {}", pct(t.title_equal), pct(t.title_lenient)));
        row("dates same day / ±1 / any", &|t| {
            format!("{} / {} / {}", pct(t.date_same_day), pct(t.date_within_day), pct(t.date_any))
        });
        row("articles with the feed's full text", &|t| t.full_text_articles.to_string());
        row("content F1 / leave one out", &|t| format!("{:.3} / {:.3}", t.article_f1, t.article_f1_held_out));
        row("generic extractor's F1, same pages", &|t| format!("{:.3}", t.article_f1_generic));
        row("article titles / dates", &|t| format!("{} / {}", pct(t.article_titles), pct(t.article_dates)));
        row("templates learned", &|t| format!("{} of {}", t.trained_sites, t.sites));
        row("slowest training", &|t| format!("{:.1} ms", t.max_training_millis));
        let _ = write!(out, "{table}");
        f.write_str(&out)
    }
}
