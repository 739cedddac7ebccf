//! `html2rss rule ...`: working with mapping rules.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, bail};
use chrono::Utc;
use clap::Subcommand;
use url::Url;

use crate::engines::auto::{self, suggest, suggest::Generality};
use crate::engines::rules::{self, Mark, MarkField, Rule, UrlPattern};
use crate::engines::timepattern::{DateContext, TimePatternDb};

#[derive(Debug, Subcommand)]
pub enum RuleCommand {
    /// Merge marked examples into a rule (paper §2.1.2) and print its XML.
    Merge {
        /// The page the marks were made on: a URL or a local file.
        #[arg(long)]
        page: String,
        /// Where a local file lives, for resolving its links.
        #[arg(long)]
        base_url: Option<Url>,
        /// FIELD=PATH, the absolute path of a marked element; FIELD is one of title, link,
        /// date, description, author, content, subject-title, page-date. Mark one field on two
        /// items (and two subject titles, if the page has subjects).
        #[arg(long = "mark", required = true, value_parser = parse_mark)]
        marks: Vec<Mark>,
        /// The rule's `<name>`.
        #[arg(long)]
        name: Option<String>,
        /// `<url>` patterns of the pages the rule serves (`*` wildcards).
        #[arg(long = "url", value_parser = parse_url_pattern)]
        urls: Vec<UrlPattern>,
    },
    /// Print the rule that reproduces the `auto` engine's items on a page, to freeze and edit.
    Suggest {
        /// The page: a URL or a local file.
        source: String,
        /// Where a local file lives, for resolving its links.
        #[arg(long)]
        base_url: Option<Url>,
    },
    /// Check rule files: print each one's errors with file, line and column.
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

fn parse_mark(text: &str) -> Result<Mark, String> {
    text.parse::<Mark>().map_err(|e| format!("{e} (fields: {})", MarkField::NAMES))
}

fn parse_url_pattern(text: &str) -> Result<UrlPattern, String> {
    UrlPattern::parse(text)
}

pub fn run(command: RuleCommand) -> anyhow::Result<()> {
    match command {
        RuleCommand::Merge { page, base_url, marks, name, urls } => {
            let doc = super::load(&page, base_url.as_ref())?.parse()?;
            let mut rule = rules::derive_rule(&doc, &marks)?;
            rule.name = name;
            rule.urls = urls;
            let items = rules::apply(&rule, &doc, Utc::now()).page.item_count();
            eprintln!("the rule finds {items} items on {}", doc.url);
            write!(std::io::stdout().lock(), "{}", rule.to_xml()).context("cannot write the rule")?;
            Ok(())
        }
        RuleCommand::Suggest { source, base_url } => {
            let doc = super::load(&source, base_url.as_ref())?.parse()?;
            let context = DateContext::new(Utc::now().fixed_offset());
            let analysis = auto::analyze(&doc, TimePatternDb::builtin(), &context);
            let suggestion = suggest::suggest(&doc, &analysis)?;
            let reach = match suggestion.generality {
                Generality::KeyPaths => "by class and id paths",
                Generality::Positions => "by positions on the page; pages laid out otherwise need edits",
                Generality::ThisPage => "item by item: it serves this page only; edit it to generalize",
            };
            eprintln!(
                "the rule gives {} of the {} items of the auto engine on {} ({reach})",
                suggestion.reproduced, suggestion.items, doc.url
            );
            write!(std::io::stdout().lock(), "{}", suggestion.rule.to_xml()).context("cannot write the rule")?;
            Ok(())
        }
        RuleCommand::Check { files } => {
            let mut bad = 0;
            for file in &files {
                match Rule::load(file) {
                    Ok(rule) => {
                        println!("{}: ok ({}, {} subject paths)", file.display(), rule.label(), rule.subjects.len())
                    }
                    Err(e) => {
                        println!("{e}");
                        bad += 1;
                    }
                }
            }
            if bad > 0 {
                bail!("{bad} of {} rule files have errors", files.len());
            }
            Ok(())
        }
    }
}
