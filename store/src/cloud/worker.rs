//! The cloud store's background thread: one current-thread tokio runtime per server that
//! runs the requests the tick thread sends (each as its own task, so a PostgreSQL server
//! answers many at once) and renews this server's session locks. Jobs come in over a tokio
//! channel (sending never blocks the tick) and results go back over a crossbeam channel the
//! tick thread polls in `deliver`; nothing here touches Lua.

use super::backend::{Backend, BackendError, Cas, LockMode, Read, Write};
use crossbeam_channel::{Receiver, Sender};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What a job does to its record.
#[derive(Clone, Debug)]
pub(crate) enum Op {
    /// A read; `lock` as [`LockMode`] with this server (`lease_ms` for `Acquire`).
    Read(LockOp),
    /// An unconditional write.
    Put(Arc<[u8]>),
    /// A compare-and-swap against `expected`.
    Cas(Arc<[u8]>, i64),
    /// Drops this server's lock.
    Release,
}

/// The lock part of a read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LockOp {
    None,
    Check,
    Acquire,
}

/// One operation on one record.
#[derive(Clone, Debug)]
pub(crate) struct Job {
    /// The request it belongs to.
    pub id: u64,
    pub store: Arc<str>,
    /// The canonical key (`StoreKey::to_db`).
    pub key: Arc<str>,
    pub op: Op,
}

/// A job's outcome.
#[derive(Clone, Debug)]
pub(crate) enum Done {
    Read(Result<Read, BackendError>),
    Put(Result<Write, BackendError>),
    Cas(Result<Cas, BackendError>),
    Released(Result<(), BackendError>),
}

/// A finished job.
#[derive(Clone, Debug)]
pub(crate) struct Finished {
    pub id: u64,
    pub store: Arc<str>,
    pub key: Arc<str>,
    pub done: Done,
}

/// The tick thread's end of the worker.
pub(crate) struct Worker {
    jobs: Option<tokio::sync::mpsc::UnboundedSender<Job>>,
    /// A sender of our own, to answer jobs the thread can no longer take.
    tx: Sender<Finished>,
    finished: Receiver<Finished>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the thread for `backend`; `server` is this server's identity for locks, held
    /// for `lease` and renewed every third of it.
    pub fn spawn<B: Backend>(backend: B, server: Arc<str>, lease: Duration) -> std::io::Result<Self> {
        Self::spawn_opening(move || Ok(backend), server, lease)
    }

    /// Starts the thread, which opens its backend with `open` first (a database file opened
    /// there keeps the tick from waiting on it). If `open` fails, every job finishes with its
    /// error.
    pub fn spawn_opening<B: Backend>(
        open: impl FnOnce() -> Result<B, BackendError> + Send + 'static,
        server: Arc<str>,
        lease: Duration,
    ) -> std::io::Result<Self> {
        let (jobs, rx) = tokio::sync::mpsc::unbounded_channel::<Job>();
        let (tx, finished) = crossbeam_channel::unbounded();
        let to_us = tx.clone();
        let thread = std::thread::Builder::new()
            .name("cloud-store".into())
            .spawn(move || run(open, server, lease, rx, to_us))?;
        Ok(Self { jobs: Some(jobs), tx, finished, thread: Some(thread) })
    }

    /// Sends `job` (never blocks). If the thread is gone the job finishes at once with an
    /// error.
    pub fn send(&self, job: Job) {
        let job = match &self.jobs {
            Some(jobs) => match jobs.send(job) {
                Ok(()) => return,
                Err(e) => e.0,
            },
            None => job,
        };
        let _ = self.tx.send(fail(job, &BackendError("the cloud store's worker stopped".into())));
    }

    /// The jobs finished so far (never blocks).
    pub fn poll(&self) -> Vec<Finished> {
        self.finished.try_iter().collect()
    }

    /// Waits up to `timeout` for one finished job.
    pub fn wait(&self, timeout: Duration) -> Option<Finished> {
        self.finished.recv_timeout(timeout).ok()
    }

    /// Stops the thread once its jobs are done, waiting at most until `deadline`.
    pub fn stop(&mut self, deadline: Instant) {
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            while !thread.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(2));
            }
            if thread.is_finished() {
                let _ = thread.join();
            }
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // Closing the channel ends the thread after the jobs it holds; it is not waited for
        // (a server that stops properly calls `stop` through `shutdown` first).
        self.jobs = None;
    }
}

/// The thread's body.
fn run<B: Backend>(
    open: impl FnOnce() -> Result<B, BackendError>,
    server: Arc<str>,
    lease: Duration,
    mut rx: tokio::sync::mpsc::UnboundedReceiver<Job>,
    tx: Sender<Finished>,
) {
    let ready = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| BackendError(format!("could not start the cloud store's runtime: {e}")))
        .and_then(|runtime| Ok((runtime, open()?)));
    let (runtime, backend) = match ready {
        Ok(ready) => ready,
        Err(e) => {
            // Answer every job with the error until the tick thread lets go.
            while let Some(job) = rx.blocking_recv() {
                let _ = tx.send(fail(job, &e));
            }
            return;
        }
    };
    let backend = Arc::new(backend);
    let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
    // Whether a lock was ever taken: renewals start then.
    let held = Arc::new(AtomicBool::new(false));
    runtime.block_on(async move {
        let mut tasks = tokio::task::JoinSet::new();
        let mut renew = tokio::time::interval(lease / 3);
        renew.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                job = rx.recv() => {
                    let Some(job) = job else { break };
                    let (backend, server, tx, held) = (backend.clone(), server.clone(), tx.clone(), held.clone());
                    tasks.spawn(async move {
                        let finished = execute(&*backend, &server, lease_ms, job, &held).await;
                        let _ = tx.send(finished);
                    });
                }
                _ = renew.tick() => {
                    if held.load(Ordering::Acquire) {
                        let (backend, server) = (backend.clone(), server.clone());
                        tasks.spawn(async move {
                            // A failed renewal is retried at the next period; the lease is
                            // three periods long.
                            let _ = backend.renew(&server, lease_ms).await;
                        });
                    }
                }
                Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
            }
        }
        while tasks.join_next().await.is_some() {}
    });
}

fn fail(job: Job, e: &BackendError) -> Finished {
    let done = match job.op {
        Op::Read(_) => Done::Read(Err(e.clone())),
        Op::Put(_) => Done::Put(Err(e.clone())),
        Op::Cas(..) => Done::Cas(Err(e.clone())),
        Op::Release => Done::Released(Err(e.clone())),
    };
    Finished { id: job.id, store: job.store, key: job.key, done }
}

async fn execute<B: Backend>(
    backend: &B,
    server: &str,
    lease_ms: i64,
    job: Job,
    held: &AtomicBool,
) -> Finished {
    let (store, key) = (&*job.store, &*job.key);
    let done = match &job.op {
        Op::Read(lock) => {
            let mode = match lock {
                LockOp::None => LockMode::None,
                LockOp::Check => LockMode::Check { server },
                LockOp::Acquire => LockMode::Acquire { server, lease_ms },
            };
            let read = backend.read(store, key, mode).await;
            if *lock == LockOp::Acquire && matches!(read, Ok(Read::Value(..))) {
                held.store(true, Ordering::Release);
            }
            Done::Read(read)
        }
        Op::Put(value) => Done::Put(backend.put(store, key, value, server).await),
        Op::Cas(value, expected) => Done::Cas(backend.cas(store, key, value, *expected, server).await),
        Op::Release => Done::Released(backend.release(store, key, server).await),
    };
    Finished { id: job.id, store: job.store, key: job.key, done }
}
