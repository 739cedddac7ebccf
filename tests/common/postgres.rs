//! A real PostgreSQL server for the tests: one cluster per test binary, started at first use in
//! a temporary directory, reached over a Unix socket (no TCP port), and a new database for each
//! test that asks, so tests stay independent.
//!
//! PostgreSQL refuses to run as root, and CI runs tests as root: then `initdb` and `postgres`
//! run as the `postgres` user (`runuser`), in a directory that user owns. The server runs
//! under a shell that stops it (fast shutdown) when its stdin closes, which happens when the
//! test binary exits however it exits: no server outlives `cargo test`.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

struct Cluster {
    /// The directory of the socket (`-k`), also the cluster's home.
    dir: PathBuf,
    /// Kept so that the server's stdin stays open while the binary runs; the statics are
    /// never dropped, and the exit of the process closes it.
    _guard: Mutex<(Child, ChildStdin)>,
}

static CLUSTER: OnceLock<Cluster> = OnceLock::new();
static DATABASES: AtomicUsize = AtomicUsize::new(0);

/// The directory of the newest installed PostgreSQL's programs (Debian keeps them by version).
fn bin_dir() -> PathBuf {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL is not installed (no /usr/lib/postgresql): apt-get install postgresql")
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .collect();
    found.sort();
    found.pop().expect("no /usr/lib/postgresql/VERSION/bin/initdb: apt-get install postgresql").1
}

fn as_root() -> bool {
    std::fs::metadata("/proc/self").map(|m| m.uid() == 0).unwrap_or(false)
}

/// `program` from the PostgreSQL directory, as the `postgres` user when we are root.
fn command(program: &Path) -> Command {
    if as_root() {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program);
        command
    } else {
        Command::new(program)
    }
}

fn start() -> Cluster {
    let bin = bin_dir();
    let dir = tempfile::Builder::new().prefix("html2rss-pg-").tempdir().unwrap().keep();
    if as_root() {
        let status = Command::new("chown").args(["postgres:", dir.to_str().unwrap()]).status().unwrap();
        assert!(status.success(), "cannot give {} to the postgres user", dir.display());
    }
    let data = dir.join("data");
    let output = command(&bin.join("initdb"))
        .args(["-D", data.to_str().unwrap(), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])
        .output()
        .unwrap();
    assert!(output.status.success(), "initdb failed: {}", String::from_utf8_lossy(&output.stderr));
    // The server must not hold our stdin itself; the shell waits on it, then stops the server
    // (SIGINT: fast shutdown) and removes the cluster. Durability is not tested here.
    let script = format!(
        "'{postgres}' -D '{data}' -k '{dir}' -c listen_addresses='' -c fsync=off -c synchronous_commit=off \
         -c full_page_writes=off -c max_connections=300 </dev/null >'{dir}/log' 2>&1 & pid=$!; \
         cat >/dev/null; kill -INT $pid; wait $pid; rm -rf '{dir}'",
        postgres = bin.join("postgres").display(),
        data = data.display(),
        dir = dir.display(),
    );
    let mut child = command(Path::new("/bin/sh")).args(["-c", &script]).stdin(Stdio::piped()).spawn().unwrap();
    let stdin = child.stdin.take().unwrap();
    let cluster = Cluster { dir, _guard: Mutex::new((child, stdin)) };
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match postgres::Client::connect(&cluster.address("postgres"), postgres::NoTls) {
            Ok(_) => return cluster,
            Err(error) if Instant::now() > deadline => {
                let log = std::fs::read_to_string(cluster.dir.join("log")).unwrap_or_default();
                panic!("PostgreSQL did not start in 30 s: {error}\n{log}");
            }
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

impl Cluster {
    fn address(&self, db: &str) -> String {
        let socket: String = url::form_urlencoded::byte_serialize(self.dir.to_str().unwrap().as_bytes()).collect();
        format!("postgres://postgres@{socket}/{db}")
    }
}

/// A new, empty database on the test binary's PostgreSQL server: its `postgres://` address.
pub fn database() -> String {
    // On a thread of its own: the `postgres` client may not block on an async test's runtime.
    std::thread::spawn(|| {
        let cluster = CLUSTER.get_or_init(start);
        let name = format!("test_{}", DATABASES.fetch_add(1, Ordering::Relaxed));
        let mut admin = postgres::Client::connect(&cluster.address("postgres"), postgres::NoTls).unwrap();
        admin.batch_execute(&format!("CREATE DATABASE {name}")).unwrap();
        cluster.address(&name)
    })
    .join()
    .unwrap()
}

/// A plain client of a test database, for what the store does not show (its raw tables). Not
/// for async tests (see [`database`]).
pub fn client(address: &str) -> postgres::Client {
    postgres::Client::connect(address, postgres::NoTls).unwrap()
}

/// Drop a test database, cutting its open connections (`WITH (FORCE)`).
pub fn drop_database(address: &str) {
    let name = address.rsplit('/').next().unwrap().to_string();
    std::thread::spawn(move || {
        let cluster = CLUSTER.get().expect("the database was made by database()");
        let mut admin = postgres::Client::connect(&cluster.address("postgres"), postgres::NoTls).unwrap();
        admin.batch_execute(&format!("DROP DATABASE {name} WITH (FORCE)")).unwrap();
    })
    .join()
    .unwrap()
}
