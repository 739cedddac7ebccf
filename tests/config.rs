//! `serve` reads its configuration: a typo stops it with the key and line; flags win over the
//! file; the database is created and migrated at start.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
fn serve_refuses_a_config_with_a_typo_naming_file_key_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("html2rss.toml");
    std::fs::write(&path, "listen = \"127.0.0.1:0\"\n[fetch]\nallow_privat = true\n").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_html2rss")).arg("serve").arg("--config").arg(&path).output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    for needle in [path.to_str().unwrap(), "line 3", "allow_privat"] {
        assert!(stderr.contains(needle), "{needle} missing from: {stderr}");
    }
}

#[test]
fn serve_uses_the_file_then_the_flags_and_creates_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("html2rss.toml");
    let from_file = dir.path().join("from-file.db");
    let from_flag = dir.path().join("from-flag.db");
    std::fs::write(&config, format!("listen = \"127.0.0.1:1\"\ndb = {:?}\n", from_file.to_str().unwrap())).unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_html2rss"))
        .arg("serve")
        .arg("--config")
        .arg(&config)
        .args(["--listen", "127.0.0.1:0", "--db"])
        .arg(&from_flag)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stderr.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).and_then(|rest| rest.split_whitespace().next()).map(str::to_string);
    let health = addr.as_deref().map(healthz);
    server.kill().unwrap();
    server.wait().unwrap();
    assert_eq!(health, Some("ok\n".to_string()), "{line}");
    assert_ne!(addr.as_deref(), Some("127.0.0.1:1"), "--listen should win over the file");
    assert!(from_flag.is_file(), "the --db flag's file was not created");
    assert!(!from_file.exists(), "the file's db was used despite --db");
    let store = html2rss::store::Store::open(&from_flag).unwrap();
    assert_eq!(store.schema_version().unwrap(), html2rss::store::SCHEMA_VERSION);
}

/// GET /healthz over a plain socket: one request needs no HTTP client.
fn healthz(addr: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response.split("\r\n\r\n").nth(1).unwrap_or_default().to_string()
}

#[test]
fn the_readme_example_is_valid_and_shows_the_defaults() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = readme.split("## Configuration").nth(1).expect("README has a Configuration section");
    let example = section.split("```toml").nth(1).and_then(|rest| rest.split("```").next()).unwrap();
    let config = html2rss::config::Config::parse(example, std::path::Path::new("README.md")).unwrap();
    assert_eq!(config, html2rss::config::Config::default());
}
