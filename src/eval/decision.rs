//! The article-or-list decision (`auto::Analysis::is_article_page`, which the server's engine
//! choice uses) on the corpus, for the tune and check halves: the list pages of `lists/` (every
//! usable page with ground-truth items) must be taken for lists, the pages of `articles/` and
//! the sites' `article*.html` for articles. Also the share of article pages for which the
//! generic extractor (what `inspect` prints as `content_text`) gives a main text at all.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use chrono::Utc;
use url::Url;

use super::corpus::{self, CorpusError};
use super::split::Half;
use super::{HalfTable, percent};
use crate::dom::{self, ParseOptions};
use crate::engines::article::{self, Hints};
use crate::engines::auto;
use crate::engines::timepattern::{DateContext, TimePatternDb};

/// What a corpus page is by its ground truth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    List,
    Article,
}

/// The decision on one page.
#[derive(Debug, Clone)]
pub struct Decision {
    pub kind: Kind,
    pub half: Half,
    /// `lists/SET/…` or `articles/SET/ID`, for reading the failures of the tune half.
    pub name: String,
    /// Taken for an article.
    pub article: bool,
    /// The generic extractor gave a main text.
    pub has_text: bool,
}

impl Decision {
    pub fn right(&self) -> bool {
        self.article == (self.kind == Kind::Article)
    }
}

#[derive(Debug, Clone, Default)]
pub struct DecisionReport {
    pub pages: Vec<Decision>,
    pub seconds: f64,
}

impl DecisionReport {
    fn select(&self, kind: Option<Kind>, half: Half) -> Vec<&Decision> {
        self.pages.iter().filter(|d| d.half == half && kind.is_none_or(|k| d.kind == k)).collect()
    }

    /// Share of the pages (of one kind, or all) of one half where the decision is right.
    pub fn right(&self, kind: Option<Kind>, half: Half) -> Option<f64> {
        share(&self.select(kind, half), Decision::right)
    }

    /// Share of the article pages of one half with a main text.
    pub fn with_text(&self, half: Half) -> Option<f64> {
        share(&self.select(Some(Kind::Article), half), |d| d.has_text)
    }
}

fn share(pages: &[&Decision], f: impl Fn(&Decision) -> bool) -> Option<f64> {
    (!pages.is_empty()).then(|| pages.iter().filter(|d| f(d)).count() as f64 / pages.len() as f64)
}

/// A page to decide on.
struct Subject {
    kind: Kind,
    half: Half,
    name: String,
    bytes: Vec<u8>,
    url: Url,
}

fn read(path: &Path) -> Result<Vec<u8>, CorpusError> {
    std::fs::read(path).map_err(|source| CorpusError::Read { path: PathBuf::from(path), source })
}

/// Decide on every list page and article page of the corpus.
pub fn evaluate(corpus_dir: &Path) -> Result<DecisionReport, CorpusError> {
    let mut subjects = Vec::new();
    for page in corpus::list_pages(corpus_dir)? {
        let expected = match &page.truth {
            corpus::ListTruth::Items { items, .. } => items.len(),
            corpus::ListTruth::Count(count) => *count,
        };
        if expected > 0 {
            let name = format!("lists/{}/{}", page.set.name(), page.name);
            subjects.push(Subject { kind: Kind::List, half: page.half, name, bytes: page.bytes()?, url: page.url });
        }
    }
    for page in corpus::article_pages(corpus_dir)? {
        let name = format!("articles/{}/{}", page.set, page.id);
        subjects.push(Subject { kind: Kind::Article, half: page.half, name, bytes: page.bytes()?, url: page.url });
    }
    for site in corpus::sites(corpus_dir)? {
        for (file, url) in site.articles() {
            let name = format!("lists/{}/{}", site.name, file.file_name().unwrap_or_default().to_string_lossy());
            subjects.push(Subject { kind: Kind::Article, half: site.half, name, bytes: read(&file)?, url });
        }
    }
    let context = DateContext::new(Utc::now().fixed_offset());
    let db = TimePatternDb::builtin();
    let mut report = DecisionReport::default();
    let start = Instant::now();
    for subject in subjects {
        let Ok(doc) = dom::parse(&subject.bytes, &subject.url, &ParseOptions::default()) else {
            // A page that does not parse gets no decision: wrong for either kind.
            let article = subject.kind == Kind::List;
            report.pages.push(Decision {
                kind: subject.kind,
                half: subject.half,
                name: subject.name,
                article,
                has_text: false,
            });
            continue;
        };
        let analysis = auto::analyze(&doc, db, &context);
        let extracted = article::extract(&doc, &Hints::default());
        report.pages.push(Decision {
            kind: subject.kind,
            half: subject.half,
            name: subject.name,
            article: analysis.is_article_page(&doc, &extracted),
            has_text: extracted.content_text.is_some_and(|t| !t.is_empty()),
        });
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

impl fmt::Display for DecisionReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut table = HalfTable::new("article-or-list decision (is_article_page)");
        let count = |kind: Option<Kind>, half: Half| self.select(kind, half).len().to_string();
        table.row(
            "list pages / article pages",
            Half::BOTH.map(|h| format!("{} / {}", count(Some(Kind::List), h), count(Some(Kind::Article), h))),
        );
        table.row("list pages taken for lists", Half::BOTH.map(|h| percent(self.right(Some(Kind::List), h))));
        table.row("article pages taken for articles", Half::BOTH.map(|h| percent(self.right(Some(Kind::Article), h))));
        table.row("all pages decided right", Half::BOTH.map(|h| percent(self.right(None, h))));
        table.row("article pages with a main text", Half::BOTH.map(|h| percent(self.with_text(h))));
        write!(f, "{table}")?;
        // The failures of the tune half only: the check half is measured, never read.
        let wrong: Vec<&str> =
            self.pages.iter().filter(|d| d.half == Half::Tune && !d.right()).map(|d| d.name.as_str()).collect();
        if !wrong.is_empty() {
            writeln!(f, "  wrong on tune pages: {}", wrong.join(" "))?;
        }
        write!(f, "  speed   {:.1} pages/s  (parse + auto + article)", self.pages.len() as f64 / self.seconds.max(1e-9))
    }
}
