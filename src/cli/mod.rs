//! The command line (a contract: DESIGN.md lists it, scripts and evaluations call it).

mod eval;
mod extract;
mod inspect;
mod rule;
mod serve;
mod source;

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
        /// SQLite database file.
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
        /// rss, atom or json (JSON Feed 1.1).
        #[arg(long, default_value = "rss")]
        format: Format,
    },
    /// Mapping rules: merge marked examples into a rule, check rule files.
    Rule {
        #[command(subcommand)]
        command: RuleCommand,
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
        Command::Extract { source, base_url, algorithm, rule, format } => {
            extract::run(&source, base_url.as_ref(), algorithm, rule.as_deref(), format)
        }
        Command::Rule { command } => rule::run(command),
        Command::Eval { corpus_dir, algorithm, json } => eval::run(&corpus_dir, algorithm, json),
    }
}
