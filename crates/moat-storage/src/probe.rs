//! Timing of storage calls for the server's traces. Every storage operation starts
//! with [`op`]: inside a [`scope`] (the server opens one for each traced request) the
//! operation's name, start and duration are told to the scope's [`Probe`] when it
//! ends; outside one it costs a task-local lookup and nothing else.
//!
//! The timing is taken around the whole operation on the request's own task — not
//! inside sqlx, whose SQLite driver runs statements on a worker thread where the
//! request's context is not visible.

use std::{
    future::Future,
    sync::Arc,
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

/// What hears of each storage call made inside a [`scope`].
pub trait Probe: Send + Sync {
    /// `op` (the storage method) began at `start_unix_ns` and took `elapsed`.
    fn storage_call(&self, op: &'static str, start_unix_ns: i64, elapsed: Duration);
}

tokio::task_local! {
    static PROBE: Arc<dyn Probe>;
}

/// Runs `fut` with `probe` hearing of its storage calls (on this task only: work it
/// spawns is not seen).
pub async fn scope<F: Future>(probe: Arc<dyn Probe>, fut: F) -> F::Output {
    PROBE.scope(probe, fut).await
}

/// A storage call in progress; reports itself when dropped (finished or cancelled).
#[must_use]
pub struct Op {
    op: &'static str,
    start: Option<(i64, Instant)>,
}

/// Starts timing the storage call `op`, when a [`scope`] is listening.
pub fn op(op: &'static str) -> Op {
    let start = PROBE.try_with(|_| ()).ok().map(|()| {
        let ns = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
            .unwrap_or(0);
        (ns, Instant::now())
    });
    Op { op, start }
}

impl Drop for Op {
    fn drop(&mut self) {
        if let Some((ns, started)) = self.start {
            let _ = PROBE.try_with(|p| p.storage_call(self.op, ns, started.elapsed()));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    #[derive(Default)]
    struct Calls(Mutex<Vec<&'static str>>);
    impl Probe for Calls {
        fn storage_call(&self, op: &'static str, start_unix_ns: i64, _elapsed: Duration) {
            assert!(start_unix_ns > 0);
            self.0.lock().unwrap().push(op);
        }
    }

    async fn a_storage_call(name: &'static str) {
        let _db = op(name);
        tokio::task::yield_now().await;
    }

    #[tokio::test]
    async fn calls_inside_a_scope_are_heard_and_others_are_not() {
        let calls = Arc::new(Calls::default());
        a_storage_call("before").await;
        scope(calls.clone(), async {
            a_storage_call("first").await;
            a_storage_call("second").await;
            // Spawned work is another task: not part of this scope.
            tokio::spawn(a_storage_call("spawned")).await.unwrap();
        })
        .await;
        a_storage_call("after").await;
        assert_eq!(*calls.0.lock().unwrap(), ["first", "second"]);
    }
}
