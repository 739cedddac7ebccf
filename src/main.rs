use clap::Parser;

fn main() -> anyhow::Result<()> {
    html2rss::cli::run(html2rss::cli::Cli::parse())
}
