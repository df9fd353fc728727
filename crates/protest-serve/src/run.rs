//! `protest serve` from start to stop: listen, open the master, say which links there are, serve
//! until told to stop, fold the journal in.

use crate::options::Options;
use crate::routes::{self, serve};
use crate::served::{Opened, Served};
use crate::voice::Voice;
use protest::Error;
use std::sync::Arc;

/// Runs `protest serve`: listens, opens the master, says which links there are (the new ones in
/// full, once) through `voice`, serves until Ctrl+C or SIGTERM (a second one stops at once), then
/// folds the journal into the master.
pub fn run(options: &Options, voice: Arc<dyn Voice>) -> Result<(), Error> {
    let io = |e: std::io::Error| Error::io(&options.master, e);
    let now = std::time::SystemTime::now();
    if protest::model::clock::at(now).is_err() {
        return Err(Error::refused(
            &options.master,
            format!("cannot be served: {}; set the clock right first", routes::clock_problem(now)),
        ));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(io)?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(options.listen))
        .map_err(|e| Error::refused(&options.master, format!("cannot listen on {}: {e}", options.listen)))?;
    // Port 0 asks the system for a free one: the links carry the one it gave.
    let listen = listener.local_addr().map_err(io)?;
    let options = &Options { listen, ..options.clone() };
    // Listened for before the master is opened: nothing can fail once links are made, and a
    // signal right after the server says it serves stops it properly.
    let stop = {
        let _in_runtime = runtime.enter();
        stop_signals().map_err(io)?
    };
    let (served, opened) = Served::open(options, Arc::clone(&voice))?;
    say_opened(&*voice, &served, &opened, options);
    let stopped = runtime.block_on(serve(Arc::clone(&served), listener, stop));
    // Every connection is gone: the last handle of the master is ours again.
    drop(runtime);
    if stopped.dropped > 0 {
        let dropped = match stopped.dropped {
            1 => "1 connection whose request was".to_owned(),
            n => format!("{n} connections whose requests were"),
        };
        voice.say(&format!("Dropped {dropped} not finished (a page sends its changes again)."));
    }
    let name = options.master.display();
    match served.close() {
        Ok(()) => {
            voice.say(&format!("Stopped. Every change the annotators saved is in {name} (its journal was folded in)."))
        }
        Err(e) => voice.warn(&format!(
            "{e}; every acknowledged change is in the journal beside {name} and comes back when it is next opened"
        )),
    }
    Ok(())
}

fn say_opened(voice: &dyn Voice, served: &Served, opened: &Opened, options: &Options) {
    let name = served.path().display();
    if opened.recovered > 0 {
        voice.say(&format!("Recovered {} changes from the journal of {name}.", opened.recovered));
    }
    for note in &opened.notes {
        voice.say(&format!("note: {note}"));
    }
    for link in &opened.made {
        voice.out(&format!("{}\t{}", link.annotator, link.url));
    }
    if !opened.made.is_empty() {
        let written = options.links.as_ref().map(|f| format!(" (also added to {})", f.display())).unwrap_or_default();
        voice.say(&format!(
            "Each link above is shown only this once{written}: send it to its annotator only; whoever has it can annotate as them."
        ));
    }
    for who in &opened.revoked {
        voice.say(&format!("{who}'s link is revoked (--new-link {who} makes a new one)."));
    }
    if !opened.kept.is_empty() {
        voice.say(&format!("Links made before still work for: {}.", opened.kept.join(", ")));
    }
    if !options.listen.ip().is_loopback() {
        voice.warn(&format!(
            "{} can be reached from other machines, over plain HTTP: the links' tokens and the annotations travel unencrypted. \
             Put a reverse proxy with TLS in front of it and give its address with --url (docs/serve.md).",
            options.listen
        ));
    }
    voice.say(&format!(
        "Serving task set {} of {name} to {} annotators on http://{}/ — Ctrl+C stops and folds the journal into the master.",
        served.task_set(),
        served.annotators(),
        options.listen
    ));
}

/// A message for each Ctrl+C or SIGTERM; the signals are caught from now on (in a runtime).
fn stop_signals() -> std::io::Result<tokio::sync::mpsc::UnboundedReceiver<()>> {
    let (tell, told) = tokio::sync::mpsc::unbounded_channel();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let (mut interrupt, mut terminate) = (signal(SignalKind::interrupt())?, signal(SignalKind::terminate())?);
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = interrupt.recv() => {}
                    _ = terminate.recv() => {}
                }
                if tell.send(()).is_err() {
                    return;
                }
            }
        });
    }
    #[cfg(not(unix))]
    tokio::spawn(async move {
        while tokio::signal::ctrl_c().await.is_ok() {
            if tell.send(()).is_err() {
                return;
            }
        }
    });
    Ok(told)
}
