//! The command line (a contract: DESIGN.md lists it, scripts and evaluations call it).

mod eval;
mod inspect;
mod serve;
mod source;

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use url::Url;

pub use source::{Source, load};

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
    /// Score the engines on a corpus laid out like the development corpus.
    Eval {
        /// The corpus directory (with `articles/`, `dates/`, `lists/`).
        corpus_dir: PathBuf,
    },
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve { config, listen, db } => serve::run(config, listen, db),
        Command::Inspect { source, base_url, format } => inspect::run(&source, base_url.as_ref(), &format),
        Command::Eval { corpus_dir } => eval::run(&corpus_dir),
    }
}
