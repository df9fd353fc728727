//! The one thread that reads and writes the master while it is served. Requests send it their
//! work and wait for the answer; whatever has come by the time it is free is done together —
//! the changes of every waiting request checked, then stored with one flush of the journal and
//! one of the receipts (`protest::web::desk::take_together`) — so that the time to acknowledge
//! stays short when many annotators send at once (docs/performance.md).

use crate::voice::Voice;
use protest::model::Master;
use protest::store::{Store, batch_file};
use protest::web::desk::{self, Desk};
use protest::web::protocol::{Answers, Change};
use protest::web::receipts::Receipts;
use std::sync::Arc;
use std::sync::mpsc;
use std::thread::JoinHandle;
use tokio::sync::oneshot;

/// What a change is written to: the master (its store: journal and lock) and the receipts.
pub(crate) struct Holding {
    pub store: Store<Master>,
    pub receipts: Receipts,
}

/// The most requests done together.
const TOGETHER: usize = 256;

pub(crate) enum Job {
    /// The annotator's part as a batch file.
    Part { annotator: Arc<Desk>, reply: oneshot::Sender<Result<Vec<u8>, String>> },
    /// A page's changes.
    Changes { annotator: Arc<Desk>, changes: Vec<Change>, reply: oneshot::Sender<Answers> },
}

pub(crate) struct Writer {
    jobs: mpsc::Sender<Job>,
    thread: JoinHandle<Option<Holding>>,
}

impl Writer {
    /// Starts the thread and hands it the master; if there can be no thread, the master is given
    /// back with the reason.
    pub fn start(holding: Holding, voice: Arc<dyn Voice>) -> Result<Writer, Box<(Holding, std::io::Error)>> {
        let (give, given) = mpsc::sync_channel::<Holding>(1);
        let (jobs, inbox) = mpsc::channel::<Job>();
        let thread = std::thread::Builder::new().name("protest-serve-writer".into()).spawn(move || {
            let mut holding = given.recv().ok()?;
            while let Ok(first) = inbox.recv() {
                let mut jobs = vec![first];
                jobs.extend(inbox.try_iter().take(TOGETHER - 1));
                work(&mut holding, jobs, &*voice);
            }
            Some(holding)
        });
        match thread {
            Ok(thread) => match give.send(holding) {
                Ok(()) => Ok(Writer { jobs, thread }),
                Err(mpsc::SendError(holding)) => {
                    Err(Box::new((holding, std::io::Error::other("the writer thread ended"))))
                }
            },
            Err(e) => Err(Box::new((holding, e))),
        }
    }

    /// Hands `job` to the writer; false if it has stopped.
    pub fn send(&self, job: Job) -> bool {
        self.jobs.send(job).is_ok()
    }

    /// Lets the writer finish what it was given and gives the master back (`None` if the thread
    /// died).
    pub fn stop(self) -> Option<Holding> {
        drop(self.jobs);
        self.thread.join().ok().flatten()
    }
}

fn work(holding: &mut Holding, jobs: Vec<Job>, voice: &dyn Voice) {
    let mut changes = Vec::new();
    for job in jobs {
        match job {
            Job::Part { annotator, reply } => {
                let _ = reply.send(part(holding, &annotator));
            }
            Job::Changes { annotator, changes: sent, reply } => changes.push((annotator, sent, reply)),
        }
    }
    if changes.is_empty() {
        return;
    }
    let requests: Vec<(&desk::Desk, &[Change])> = changes.iter().map(|(a, c, _)| (&**a, c.as_slice())).collect();
    let answers = desk::take_together(&mut holding.store, &mut holding.receipts, &requests);
    for ((_, _, reply), answers) in changes.into_iter().zip(answers) {
        if let Some(why) = &answers.trouble {
            voice.warn(why);
        }
        let _ = reply.send(answers);
    }
}

fn part(holding: &Holding, annotator: &Desk) -> Result<Vec<u8>, String> {
    let now = protest::model::clock::now().map_err(|e| e.to_string())?;
    let batch = annotator.part(holding.store.master(), now).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    batch_file::write(&batch, &mut bytes).map_err(|e| e.to_string())?;
    Ok(bytes)
}
