//! The command line (a contract: DESIGN.md lists it, scripts and evaluations call it).

mod eval;
mod extract;
mod inspect;
mod serve;
mod source;

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use url::Url;

pub use extract::Algorithm;
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
        /// Feed format: rss, atom or json (JSON Feed 1.1).
        #[arg(long, default_value = "rss")]
        format: crate::feed::Format,
    },
    /// Score the engines on a corpus laid out like ../shared/corpus/.
    Eval {
        /// The corpus directory.
        corpus_dir: PathBuf,
        /// Which engine extracts the items.
        #[arg(long, value_enum, default_value_t = Algorithm::Auto)]
        algorithm: Algorithm,
        /// Print the scores as JSON instead of tables.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve { config, listen, db } => serve::run(config, listen, db),
        Command::Inspect { source, base_url, format } => inspect::run(&source, base_url.as_ref(), &format),
        Command::Extract { source, base_url, algorithm, format } => {
            extract::run(&source, base_url.as_ref(), algorithm, format)
        }
        Command::Eval { corpus_dir, algorithm, json } => eval::run(&corpus_dir, algorithm, json),
    }
}
