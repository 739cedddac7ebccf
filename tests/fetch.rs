//! The fetcher against loopback servers this test starts: the SSRF guard, limits, redirects,
//! compression, charset, conditional GET, and the per-host gate around real requests.

mod common;

use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use common::http::{Reply, TestServer};
use html2rss::fetch::{
    Backoff, DEFAULT_USER_AGENT, FetchConfig, FetchError, FetchErrorKind, FetchOutcome, Fetcher, HostGate, Validators,
};
use url::Url;

fn url(s: &str) -> Url {
    Url::parse(s).unwrap()
}

/// Loopback allowed, short timeouts.
fn private() -> FetchConfig {
    FetchConfig {
        allow_private: true,
        read_timeout: Duration::from_millis(500),
        total_timeout: Duration::from_secs(5),
        ..FetchConfig::default()
    }
}

fn fetcher(config: &FetchConfig) -> Fetcher {
    Fetcher::new(config).unwrap()
}

async fn get(fetcher: &Fetcher, target: &str) -> Result<html2rss::fetch::Response, FetchError> {
    fetcher.get(&url(target)).await
}

#[tokio::test]
async fn guard_refuses_loopback_private_link_local_and_their_disguises() {
    let server = TestServer::start(|_| Reply::html("<title>internal</title>"));
    let port = server.port();
    // Control: with the guard off this very server answers, so the refusals below are the guard's.
    let page = get(&fetcher(&private()), &server.url("/")).await.unwrap();
    assert_eq!(page.body, b"<title>internal</title>");
    let seen = server.requests().len();

    let guarded = fetcher(&FetchConfig::default());
    for target in [
        format!("http://127.0.0.1:{port}/"),
        format!("http://localhost:{port}/"),
        format!("http://[::1]:{port}/"),
        format!("http://[::ffff:127.0.0.1]:{port}/"),
        format!("http://0.0.0.0:{port}/"),
        format!("http://2130706433:{port}/"),
        format!("http://0x7f000001:{port}/"),
        "http://10.0.0.1/".to_string(),
        "http://192.168.1.1/".to_string(),
        "http://172.16.5.4/".to_string(),
        "http://100.64.0.1/".to_string(),
        "http://169.254.169.254/latest/meta-data/".to_string(),
        "http://[fd00::1]/".to_string(),
        "http://[fe80::1]/".to_string(),
    ] {
        let error = get(&guarded, &target).await.unwrap_err();
        assert_eq!(error.kind(), FetchErrorKind::Refused, "{target}: {error}");
    }
    for target in ["file:///etc/passwd".to_string(), format!("gopher://127.0.0.1:{port}/"), "ftp://example.org/".into()]
    {
        let error = get(&guarded, &target).await.unwrap_err();
        assert_eq!(error.kind(), FetchErrorKind::BadRequest, "{target}: {error}");
    }
    assert_eq!(server.requests().len(), seen, "a refused URL reached the server");
}

#[tokio::test]
async fn a_host_name_resolving_to_loopback_is_refused_at_connect_time() {
    let server = TestServer::start(|_| Reply::html("secret"));
    let error = get(&fetcher(&FetchConfig::default()), &format!("http://localhost:{}/", server.port())).await;
    match error {
        Err(FetchError::Refused { host, ip, .. }) => {
            assert_eq!(host, "localhost");
            assert!(ip.is_loopback(), "{ip}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert!(server.requests().is_empty());
}

/// The guard on, with `public.test` pinned to the first server: it plays a public site whose
/// redirects point inside.
#[tokio::test]
async fn redirects_from_a_public_site_into_loopback_are_refused_on_every_hop() {
    let internal = TestServer::start(|_| Reply::html("metadata"));
    let internal_port = internal.port();
    let public = TestServer::start(move |request| match request.path.as_str() {
        "/to-ip" => Reply::redirect(302, &format!("http://127.0.0.1:{internal_port}/secret")),
        "/to-name" => Reply::redirect(301, &format!("http://localhost:{internal_port}/secret")),
        "/to-mapped" => Reply::redirect(307, &format!("http://[::ffff:7f00:1]:{internal_port}/secret")),
        "/to-decimal" => Reply::redirect(302, &format!("http://2130706433:{internal_port}/secret")),
        "/to-file" => Reply::redirect(302, "file:///etc/passwd"),
        "/to-self" => Reply::redirect(302, "/page"),
        _ => Reply::html("public page"),
    });
    let pinned = format!("public.test:{}", public.port());
    let config = FetchConfig {
        pinned: vec![("public.test".into(), SocketAddr::new([127, 0, 0, 1].into(), 0))],
        ..FetchConfig::default()
    };
    let guarded = fetcher(&config);
    // The pinned "public" site works, redirects within it too.
    let page = get(&guarded, &format!("http://{pinned}/to-self")).await.unwrap();
    assert_eq!((page.body.as_slice(), page.url.path()), (b"public page".as_slice(), "/page"));
    for path in ["/to-ip", "/to-name", "/to-mapped", "/to-decimal"] {
        let error = get(&guarded, &format!("http://{pinned}{path}")).await.unwrap_err();
        assert_eq!(error.kind(), FetchErrorKind::Refused, "{path}: {error}");
    }
    let error = get(&guarded, &format!("http://{pinned}/to-file")).await.unwrap_err();
    assert!(matches!(error, FetchError::Scheme { ref scheme, .. } if scheme == "file"), "{error}");
    assert!(internal.requests().is_empty(), "a redirect reached the internal server");
}

// Two worker threads: the test blocks one while it waits for the server, and the client's
// connection task needs the other to close the socket.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_50_mb_body_is_cut_off_early() {
    let server = TestServer::start(|request| match request.path.as_str() {
        "/declared" => Reply::status(200).header("Content-Length", "52428800").body(vec![b'x'; 1024]),
        _ => Reply::Stream {
            headers: vec![("Content-Type".into(), "text/html".into())],
            total: 50 * 1024 * 1024,
            chunk: 64 * 1024,
            pause: Duration::ZERO,
        },
    });
    let config = FetchConfig { max_body_bytes: 1024 * 1024, ..private() };
    let error = get(&fetcher(&config), &server.url("/stream")).await.unwrap_err();
    assert!(matches!(error, FetchError::TooLarge { limit: 1048576, .. }), "{error}");
    assert!(server.wait_for_streams(1, Duration::from_secs(20)), "the server kept streaming");
    let sent = server.streamed_bytes();
    // What the kernel's socket buffers took before the client hung up, far from 50 MB.
    assert!(sent < 16 * 1024 * 1024, "{sent} bytes were streamed before the cut-off");
    // A declared length over the cap is refused before the body is read.
    let error = get(&fetcher(&config), &server.url("/declared")).await.unwrap_err();
    assert_eq!(error.kind(), FetchErrorKind::TooLarge, "{error}");
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = brotli::CompressorWriter::new(&mut out, 4096, 9, 22);
    encoder.write_all(bytes).unwrap();
    drop(encoder);
    out
}

#[tokio::test]
async fn gzip_and_brotli_bombs_are_counted_decompressed() {
    for (encoding, bomb) in
        [("gzip", gzip(&vec![0u8; 20 * 1024 * 1024])), ("br", brotli(&vec![0u8; 200 * 1024 * 1024]))]
    {
        assert!(bomb.len() < 100 * 1024, "{encoding}: {} bytes", bomb.len());
        let server = TestServer::start(move |_| {
            Reply::status(200)
                .header("Content-Type", "text/html")
                .header("Content-Encoding", encoding)
                .body(bomb.clone())
        });
        let config = FetchConfig { max_body_bytes: 1024 * 1024, ..private() };
        let error = get(&fetcher(&config), &server.url("/")).await.unwrap_err();
        assert_eq!(error.kind(), FetchErrorKind::TooLarge, "{encoding}: {error}");
    }
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let server = TestServer::start(|request| match request.path.as_str() {
        // One byte every 100 ms: no single read waits long, the whole takes too long.
        "/trickle" => Reply::Stream { headers: Vec::new(), total: 1000, chunk: 1, pause: Duration::from_millis(100) },
        _ => Reply::Hang,
    });
    let config =
        FetchConfig { read_timeout: Duration::from_millis(300), total_timeout: Duration::from_secs(1), ..private() };
    let fetcher = fetcher(&config);
    for path in ["/hang", "/trickle"] {
        let error = get(&fetcher, &server.url(path)).await.unwrap_err();
        assert!(matches!(error, FetchError::Timeout { .. }), "{path}: {error}");
        assert_eq!(error.kind(), FetchErrorKind::Timeout);
        assert!(error.is_transient());
    }
}

#[tokio::test]
async fn redirects_are_capped_and_the_final_url_reported() {
    let server = TestServer::start(|request| {
        let (kind, n) = request.path.trim_start_matches('/').split_once('/').unwrap();
        let n: u32 = n.parse().unwrap();
        match kind {
            "chain" if n == 3 => Reply::html("end of chain"),
            _ => Reply::redirect(302, &format!("/{kind}/{}", n + 1)),
        }
    });
    let config = FetchConfig { max_redirects: 3, ..private() };
    let fetcher = fetcher(&config);
    let page = get(&fetcher, &server.url("/chain/0")).await.unwrap();
    assert_eq!((page.url.path(), page.body.as_slice()), ("/chain/3", b"end of chain".as_slice()));

    let error = get(&fetcher, &server.url("/loop/0")).await.unwrap_err();
    assert!(matches!(error, FetchError::TooManyRedirects { max: 3, .. }), "{error}");
    assert_eq!(error.kind(), FetchErrorKind::Upstream);
    let loop_requests = server.requests().iter().filter(|r| r.path.starts_with("/loop/")).count();
    assert_eq!(loop_requests, 4, "the original request and 3 redirects");
}

#[tokio::test]
async fn gzip_and_the_header_charset_reach_the_parser() {
    let (latin1, _, _) = encoding_rs::WINDOWS_1252.encode("<html><head><title>Café déjà vu</title></head></html>");
    let compressed = gzip(&latin1);
    let server = TestServer::start(move |_| {
        Reply::status(200)
            .header("Content-Type", "text/html; charset=ISO-8859-1")
            .header("Content-Encoding", "gzip")
            .body(compressed.clone())
    });
    let page = get(&fetcher(&private()), &server.url("/")).await.unwrap();
    assert_eq!(page.body, latin1.as_ref());
    assert_eq!((page.media_type.as_deref(), page.charset.as_deref()), (Some("text/html"), Some("ISO-8859-1")));
    let request = &server.requests()[0];
    assert!(request.header("accept-encoding").unwrap().contains("gzip"), "{request:?}");
    assert!(request.header("accept-encoding").unwrap().contains("br"), "{request:?}");
    assert_eq!(request.header("user-agent"), Some(DEFAULT_USER_AGENT));

    // The command line's loader hands the charset to the parser.
    let target = server.url("/");
    let source = tokio::task::spawn_blocking(move || html2rss::cli::load_with(&target, None, &private()).unwrap())
        .await
        .unwrap();
    assert_eq!(source.header_charset.as_deref(), Some("ISO-8859-1"));
    let doc = source.parse().unwrap();
    assert_eq!(doc.title(), "Café déjà vu");
    assert_eq!(doc.encoding_source, html2rss::dom::EncodingSource::Header);
}

#[tokio::test]
async fn conditional_get_gives_not_modified() {
    const ETAG: &str = "\"v1\"";
    const DATE: &str = "Tue, 07 May 2024 10:00:00 GMT";
    let server = TestServer::start(|request| {
        if request.header("if-none-match") == Some(ETAG) {
            Reply::status(304)
        } else if request.path == "/new-etag" && request.header("if-modified-since") == Some(DATE) {
            Reply::status(304).header("ETag", "\"v2\"")
        } else {
            Reply::html("page").header("ETag", ETAG).header("Last-Modified", DATE)
        }
    });
    let fetcher = fetcher(&private());
    let FetchOutcome::Fetched(first) = fetcher.fetch(&url(&server.url("/")), &Validators::default()).await.unwrap()
    else {
        panic!("first fetch should return the page")
    };
    let stored = first.validators.clone();
    assert_eq!(stored, Validators { etag: Some(ETAG.into()), last_modified: Some(DATE.into()) });

    match fetcher.fetch(&url(&server.url("/")), &stored).await.unwrap() {
        FetchOutcome::NotModified { validators, .. } => assert_eq!(validators, stored),
        FetchOutcome::Fetched(_) => panic!("expected 304"),
    }
    let second = &server.requests()[1];
    assert_eq!((second.header("if-none-match"), second.header("if-modified-since")), (Some(ETAG), Some(DATE)));

    // A 304 carrying a new validator updates it.
    let by_date = Validators { etag: None, last_modified: Some(DATE.into()) };
    match fetcher.fetch(&url(&server.url("/new-etag")), &by_date).await.unwrap() {
        FetchOutcome::NotModified { validators, .. } => assert_eq!(validators.etag.as_deref(), Some("\"v2\"")),
        FetchOutcome::Fetched(_) => panic!("expected 304"),
    }
    // Without validators the page comes in full.
    assert!(matches!(
        fetcher.fetch(&url(&server.url("/")), &Validators::default()).await.unwrap(),
        FetchOutcome::Fetched(_)
    ));
}

#[tokio::test]
async fn error_statuses_carry_retry_after() {
    let server = TestServer::start(|request| match request.path.as_str() {
        "/busy" => Reply::status(503).header("Retry-After", "120"),
        "/slow-down" => Reply::status(429).header("Retry-After", "Thu, 01 Jan 1970 00:00:00 GMT"),
        _ => Reply::status(404),
    });
    let fetcher = fetcher(&private());
    let busy = get(&fetcher, &server.url("/busy")).await.unwrap_err();
    assert_eq!(busy.retry_after(), Some(Duration::from_secs(120)));
    assert!(matches!(busy, FetchError::Status { status: 503, .. }));
    assert_eq!(busy.kind(), FetchErrorKind::Upstream);
    assert!(busy.is_transient());
    // A date in the past means "now".
    assert_eq!(get(&fetcher, &server.url("/slow-down")).await.unwrap_err().retry_after(), Some(Duration::ZERO));
    let missing = get(&fetcher, &server.url("/gone")).await.unwrap_err();
    assert!(matches!(missing, FetchError::Status { status: 404, retry_after: None, .. }));
    assert!(!missing.is_transient());
}

#[tokio::test]
async fn connection_refused_is_a_network_error() {
    // Bind and drop: nothing listens on the port any more.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let error = get(&fetcher(&private()), &format!("http://127.0.0.1:{port}/")).await.unwrap_err();
    assert!(matches!(error, FetchError::Network { .. }), "{error}");
    assert_eq!(error.kind(), FetchErrorKind::Upstream);
}

#[tokio::test]
async fn the_host_gate_serialises_requests_to_one_host_and_spaces_them() {
    let server = TestServer::start(|_| {
        std::thread::sleep(Duration::from_millis(100));
        Reply::html("slow page")
    });
    let min_delay = Duration::from_millis(200);
    let gate =
        Arc::new(HostGate::new(min_delay, Backoff { base: Duration::from_secs(1), max: Duration::from_secs(60) }));
    let fetcher = fetcher(&private());
    let tasks: Vec<_> = (0..4)
        .map(|i| {
            let (gate, fetcher, target) = (gate.clone(), fetcher.clone(), url(&server.url(&format!("/{i}"))));
            tokio::spawn(async move {
                let _permit = gate.acquire(&target).await;
                fetcher.get(&target).await.unwrap();
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    assert_eq!(server.max_in_flight(), 1, "two requests reached the host at once");
    let mut arrivals: Vec<_> = server.requests().iter().map(|r| r.at).collect();
    arrivals.sort();
    for pair in arrivals.windows(2) {
        // 100 ms answering, then the gate's delay.
        assert!(pair[1] - pair[0] >= Duration::from_millis(300), "requests {:?} apart", pair[1] - pair[0]);
    }
}

#[test]
fn inspect_refuses_a_loopback_url_with_a_clear_message() {
    let server = TestServer::start(|_| Reply::html("<title>x</title>"));
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_html2rss"))
        .args(["inspect", &server.url("/"), "--format", "json"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("a loopback address") && stderr.contains("does not fetch"), "{stderr}");
    assert!(server.requests().is_empty());
}

/// A megabyte of response headers is an error with a reason, not a read without end.
#[tokio::test]
async fn a_megabyte_of_headers_is_refused() {
    let server = TestServer::start(|_| Reply::html("<p>hi</p>").header("X-Padding", &"a".repeat(1024 * 1024)));
    let error = get(&fetcher(&private()), &server.url("/")).await.unwrap_err();
    assert_eq!(error.kind(), FetchErrorKind::Upstream, "{error}");
    assert!(error.to_string().contains("message head is too large"), "{error}");
}
