//! Host leases on PostgreSQL, on the database's clock (`clock_timestamp()`: the time of the
//! statement, not of its transaction).

use std::time::Duration;

use super::Postgres;
use super::client::Sql;
use crate::fetch::polite::HostWait;
use crate::store::hosts::{HostHealth, HostLease};
use crate::store::{Result, signed};

impl Postgres {
    pub fn take_host(
        &self,
        host: &str,
        holder: &str,
        hold: Duration,
    ) -> Result<std::result::Result<HostLease, HostWait>> {
        self.with(|client| {
            // One statement: the row's lock orders servers taking the host at once, and the one
            // that comes second sees the first one's lease.
            let taken = client.query_opt(
                "INSERT INTO host_leases AS h (host, holder, expires, not_before)
                 VALUES ($1, $2, clock_timestamp() + $3::bigint * interval '1 millisecond', clock_timestamp())
                 ON CONFLICT (host) DO UPDATE SET holder = excluded.holder, expires = excluded.expires
                 WHERE (h.holder IS NULL OR h.expires <= clock_timestamp()) AND h.not_before <= clock_timestamp()
                 RETURNING h.host",
                &[&host, &holder, &signed(hold.as_millis())],
            )?;
            if taken.is_some() {
                return Ok(Ok(HostLease { host: host.to_string(), holder: holder.to_string() }));
            }
            let why = client.query_opt(
                "SELECT holder IS NOT NULL AND expires > clock_timestamp(),
                        greatest(0, ceil(extract(epoch FROM not_before - clock_timestamp()) * 1000))::bigint
                 FROM host_leases WHERE host = $1",
                &[&host],
            )?;
            Ok(Err(match why {
                Some(row) if row.try_get::<_, bool>(0)? => HostWait::Busy,
                Some(row) => HostWait::Wait(Duration::from_millis(row.try_get::<_, i64>(1)?.max(0) as u64)),
                // Deleted since: nothing stands in the way, try again.
                None => HostWait::Wait(Duration::ZERO),
            }))
        })
    }

    pub fn release_host(
        &self,
        lease: &HostLease,
        health: HostHealth,
        quiet: impl FnOnce(u32) -> Duration,
    ) -> Result<()> {
        self.with(|client| {
            if health == HostHealth::Fine {
                // The common case in one round trip: the count of failures is known (none).
                client.execute(
                    "UPDATE host_leases SET failures = 0, holder = NULL,
                       not_before = greatest(not_before, clock_timestamp() + $3::bigint * interval '1 millisecond')
                     WHERE host = $1 AND holder = $2",
                    &[&lease.host, &lease.holder, &signed(quiet(0).as_millis())],
                )?;
                return Ok(());
            }
            let tx = client.transaction()?;
            let counted = tx.query_opt(
                "UPDATE host_leases SET failures = CASE $3::text WHEN 'fine' THEN 0 WHEN 'troubled' THEN failures + 1
                                                   ELSE failures END
                 WHERE host = $1 AND holder = $2 RETURNING failures",
                &[&lease.host, &lease.holder, &health_name(health)],
            )?;
            let Some(row) = counted else { return Ok(()) };
            let failures = u32::try_from(row.try_get::<_, i64>(0)?).unwrap_or(u32::MAX);
            tx.execute_and_commit(
                "UPDATE host_leases SET holder = NULL,
                   not_before = greatest(not_before, clock_timestamp() + $2::bigint * interval '1 millisecond')
                 WHERE host = $1",
                &[&lease.host, &signed(quiet(failures).as_millis())],
            )?;
            Ok(())
        })
    }
}

fn health_name(health: HostHealth) -> &'static str {
    match health {
        HostHealth::Fine => "fine",
        HostHealth::Troubled => "troubled",
        HostHealth::Unjudged => "unjudged",
    }
}
