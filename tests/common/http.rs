//! A tiny HTTP/1.1 server on loopback for tests: one thread per connection, one request per
//! connection, answers chosen by a handler. It records every request it sees, how many were in
//! flight at once, and how many body bytes a streamed answer got out before the client left.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// A request as the server saw it.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    /// Header names lowercased.
    pub headers: Vec<(String, String)>,
    pub at: Instant,
}

/// When a request was being answered: from its arrival to the end of its answer.
#[derive(Debug, Clone)]
pub struct Span {
    pub path: String,
    /// Who asked (its `User-Agent`).
    pub agent: String,
    pub start: Instant,
    pub end: Instant,
}

impl Span {
    pub fn overlaps(&self, other: &Span) -> bool {
        self.start < other.end && other.start < self.end
    }
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// What the server answers.
pub enum Reply {
    /// A complete response with `Content-Length`.
    Full { status: u16, headers: Vec<(String, String)>, body: Vec<u8> },
    /// `200` with `headers`, then `total` body bytes in `chunk`-sized writes with `pause`
    /// between them, the end marked by closing the connection.
    Stream { headers: Vec<(String, String)>, total: usize, chunk: usize, pause: Duration },
    /// Read the request and never answer.
    Hang,
}

impl Reply {
    pub fn status(status: u16) -> Reply {
        Reply::Full { status, headers: Vec::new(), body: Vec::new() }
    }

    pub fn html(body: impl Into<Vec<u8>>) -> Reply {
        Reply::status(200).header("Content-Type", "text/html; charset=utf-8").body(body)
    }

    pub fn redirect(status: u16, location: &str) -> Reply {
        Reply::status(status).header("Location", location)
    }

    pub fn header(mut self, name: &str, value: &str) -> Reply {
        match &mut self {
            Reply::Full { headers, .. } | Reply::Stream { headers, .. } => headers.push((name.into(), value.into())),
            Reply::Hang => {}
        }
        self
    }

    pub fn body(mut self, bytes: impl Into<Vec<u8>>) -> Reply {
        if let Reply::Full { body, .. } = &mut self {
            *body = bytes.into();
        }
        self
    }
}

type Handler = dyn Fn(&Request) -> Reply + Send + Sync;

struct Shared {
    handler: Box<Handler>,
    requests: Mutex<Vec<Request>>,
    spans: Mutex<Vec<Span>>,
    stop: AtomicBool,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
    streamed: AtomicUsize,
    streams_done: AtomicUsize,
}

pub struct TestServer {
    pub addr: SocketAddr,
    shared: Arc<Shared>,
}

impl TestServer {
    pub fn start(handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> TestServer {
        TestServer::start_on([127, 0, 0, 1], handler)
    }

    /// [`TestServer::start`] on another loopback address (`127.0.0.N`: another host for the
    /// fetcher's politeness).
    pub fn start_on(ip: [u8; 4], handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> TestServer {
        let listener = TcpListener::bind((std::net::Ipv4Addr::from(ip), 0)).unwrap();
        let addr = listener.local_addr().unwrap();
        let shared = Arc::new(Shared {
            handler: Box::new(handler),
            requests: Mutex::new(Vec::new()),
            spans: Mutex::new(Vec::new()),
            stop: AtomicBool::new(false),
            in_flight: AtomicUsize::new(0),
            max_in_flight: AtomicUsize::new(0),
            streamed: AtomicUsize::new(0),
            streams_done: AtomicUsize::new(0),
        });
        let accept = shared.clone();
        thread::spawn(move || {
            for stream in listener.incoming() {
                if accept.stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let connection = accept.clone();
                thread::spawn(move || serve(&connection, stream));
            }
        });
        TestServer { addr, shared }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    pub fn requests(&self) -> Vec<Request> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// Every request seen so far, with when it started and ended. A client may have its whole
    /// answer before the server's thread notes the end, so this waits (briefly) for the
    /// requests seen to be noted as ended.
    pub fn spans(&self) -> Vec<Span> {
        let start = Instant::now();
        loop {
            let spans = self.shared.spans.lock().unwrap().clone();
            if spans.len() >= self.shared.requests.lock().unwrap().len() || start.elapsed() > Duration::from_secs(2) {
                return spans;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// The most requests that were being answered at the same moment.
    pub fn max_in_flight(&self) -> usize {
        self.shared.max_in_flight.load(Ordering::SeqCst)
    }

    /// Body bytes of [`Reply::Stream`] answers written so far.
    pub fn streamed_bytes(&self) -> usize {
        self.shared.streamed.load(Ordering::SeqCst)
    }

    /// Wait until `n` streamed answers have ended (finished or cut off by the client).
    pub fn wait_for_streams(&self, n: usize, limit: Duration) -> bool {
        let start = Instant::now();
        while self.shared.streams_done.load(Ordering::SeqCst) < n {
            if start.elapsed() > limit {
                return false;
            }
            thread::sleep(Duration::from_millis(10));
        }
        true
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so that it sees the flag.
        let _ = TcpStream::connect(self.addr);
    }
}

fn serve(shared: &Shared, stream: TcpStream) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_string();
    let path = parts.next().unwrap_or_default().to_string();
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).unwrap_or(0) == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    let request = Request { method, path, headers, at: Instant::now() };
    shared.requests.lock().unwrap().push(request.clone());
    let now = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    shared.max_in_flight.fetch_max(now, Ordering::SeqCst);
    let reply = (shared.handler)(&request);
    answer(shared, stream, reply);
    shared.in_flight.fetch_sub(1, Ordering::SeqCst);
    let agent = request.header("user-agent").unwrap_or_default().to_string();
    shared.spans.lock().unwrap().push(Span { path: request.path, agent, start: request.at, end: Instant::now() });
}

fn head(status: u16, headers: &[(String, String)]) -> String {
    let mut head = format!("HTTP/1.1 {status} {}\r\nConnection: close\r\n", reason(status));
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head
}

fn answer(shared: &Shared, mut stream: TcpStream, reply: Reply) {
    match reply {
        Reply::Full { status, headers, body } => {
            let mut out = head(status, &headers);
            if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("content-length")) {
                out.push_str(&format!("Content-Length: {}\r\n", body.len()));
            }
            out.push_str("\r\n");
            let _ = stream.write_all(out.as_bytes()).and_then(|_| stream.write_all(&body));
        }
        Reply::Stream { headers, total, chunk, pause } => {
            let mut out = head(200, &headers);
            out.push_str("\r\n");
            if stream.write_all(out.as_bytes()).is_ok() {
                let block = vec![b'x'; chunk];
                let mut sent = 0;
                while sent < total && !shared.stop.load(Ordering::SeqCst) {
                    let n = chunk.min(total - sent);
                    if stream.write_all(&block[..n]).is_err() {
                        break;
                    }
                    sent += n;
                    shared.streamed.fetch_add(n, Ordering::SeqCst);
                    if !pause.is_zero() {
                        thread::sleep(pause);
                    }
                }
            }
            shared.streams_done.fetch_add(1, Ordering::SeqCst);
        }
        Reply::Hang => {
            while !shared.stop.load(Ordering::SeqCst) {
                thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        304 => "Not Modified",
        307 => "Temporary Redirect",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}
