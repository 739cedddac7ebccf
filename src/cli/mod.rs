//! The command line (a contract: DESIGN.md lists it, scripts and evaluations call it).

mod eval;
mod extract;
mod inspect;
mod migrate;
mod rule;
mod serve;
mod source;
mod train;

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use url::Url;

use crate::feed::Format;

pub use extract::Algorithm;
pub use rule::RuleCommand;
pub use source::{Source, load, load_with};

#[derive(Debug, Parser)]
#[command(name = "html2rss", version, about = "Feeds for web pages that have none")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the feed server.
    Serve {
        /// TOML configuration file.
        #[arg(long)]
        config: Option<PathBuf>,
        /// Address to listen on, e.g. 127.0.0.1:8080.
        #[arg(long)]
        listen: Option<String>,
        /// The database: a SQLite file, or a postgres:// address. or a postgres:// address.
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Print the page model of a page as JSON.
    Inspect {
        /// A URL or a local file (`.gz` files are decompressed).
        source: String,
        /// Where a local file lives, for resolving its links.
        #[arg(long)]
        base_url: Option<Url>,
        /// Output format; only `json`.
        #[arg(long, default_value = "json")]
        format: String,
    },
    /// Print the feed of a page.
    Extract {
        /// A URL or a local file (`.gz` files are decompressed).
        source: String,
        /// Where a local file lives, for resolving its links.
        #[arg(long)]
        base_url: Option<Url>,
        /// Which engine extracts the items.
        #[arg(long, value_enum, default_value_t = Algorithm::Auto)]
        algorithm: Algorithm,
        /// The mapping rule for `--algorithm rule` (default: the shipped rule for the page's URL).
        #[arg(long)]
        rule: Option<PathBuf>,
        /// A template written by `train`, for `--algorithm template` (and read first by `--full-text`).
        #[arg(long)]
        template: Option<PathBuf>,
        /// Fetch each item's page (politely: one request at a time per host) and take its
        /// content, author and missing date, with any algorithm.
        #[arg(long)]
        full_text: bool,
        /// rss, atom or json (JSON Feed 1.1).
        #[arg(long, default_value = "rss")]
        format: Format,
    },
    /// Learn a site's template from its feed and some of its pages; write it as a mapping rule.
    Train {
        /// The site's feed (a URL or a local file); without it, the first page's feeds are tried.
        #[arg(long)]
        feed: Option<String>,
        /// A page of the site: a URL, a local file, or FILE=URL (a local file and its URL). List
        /// pages and the pages of some feed items (article pages, recognized by their URL).
        #[arg(long = "page", required = true)]
        pages: Vec<String>,
        /// Where local files given without =URL live (and the local feed).
        #[arg(long)]
        base_url: Option<Url>,
        /// Where to write the template.
        #[arg(long)]
        out: PathBuf,
    },
    /// Mapping rules: merge marked examples into a rule, check rule files.
    Rule {
        #[command(subcommand)]
        command: RuleCommand,
    },
    /// Create the database or bring its schema up to date, and say what was done.
    Migrate {
        /// TOML configuration file (its `db`).
        #[arg(long)]
        config: Option<PathBuf>,
        /// The database: a SQLite file, or a postgres:// address.
        #[arg(long)]
        db: Option<String>,
    },
    /// Score the engines on a corpus laid out like ../shared/corpus/.
    Eval {
        /// The corpus directory (with `articles/`, `dates/`, `lists/`).
        corpus_dir: PathBuf,
        /// Which engine extracts the items of list pages.
        #[arg(long, value_enum, default_value_t = Algorithm::Auto)]
        algorithm: Algorithm,
        /// Print the list scores as JSON instead of tables.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve { config, listen, db } => serve::run(config, listen, db),
        Command::Inspect { source, base_url, format } => inspect::run(&source, base_url.as_ref(), &format),
        Command::Extract { source, base_url, algorithm, rule, template, full_text, format } => {
            let options = extract::Options { rule: rule.as_deref(), template: template.as_deref(), full_text };
            extract::run(&source, base_url.as_ref(), algorithm, &options, format)
        }
        Command::Train { feed, pages, base_url, out } => train::run(feed.as_deref(), &pages, base_url.as_ref(), &out),
        Command::Rule { command } => rule::run(command),
        Command::Migrate { config, db } => migrate::run(config.as_deref(), db.as_deref()),
        Command::Eval { corpus_dir, algorithm, json } => eval::run(&corpus_dir, algorithm, json),
    }
}
