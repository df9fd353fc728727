//! The page's [`Courier`]: the outbox kept in the browser's `localStorage` (it outlives the tab,
//! a reload, a crash of the browser), changes sent to the server with `fetch`, and what the
//! page's own script reads to warn before a tab with unsent changes closes.
//!
//! Each tab keeps its outbox under its own key (`protest-outbox:MASTER:TASK SET:ANNOTATOR:TAB`,
//! the tab's id in `sessionStorage`, so a reload keeps it) and touches it whenever it sends; a
//! page that opens takes over its own key and those of tabs gone quiet for a minute (closed with
//! changes unsent), and sends their changes.

use protest::session::Courier;
use protest::store::batch_file::Batch;
use protest::web::protocol::{Answers, Change, ChangeId, Changes};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

const PREFIX: &str = "protest-outbox";
/// A tab's outbox not touched for this long (ms) is a closed tab's: an opening page takes it.
const ORPHANED_MS: f64 = 60_000.0;

/// What a tab keeps in `localStorage`.
#[derive(Serialize, Deserialize)]
struct Kept {
    /// When it was last written (ms since the epoch).
    updated: f64,
    changes: Vec<Change>,
}

type Inbox = Arc<Mutex<VecDeque<(u64, Result<Answers, String>)>>>;

pub struct Browser {
    base: String,
    key: String,
    outbox: Vec<Change>,
    inbox: Inbox,
    ctx: egui::Context,
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// This tab's id: kept in `sessionStorage`, so a reload of the tab keeps it.
fn tab_id() -> String {
    let session = web_sys::window().and_then(|w| w.session_storage().ok().flatten());
    if let Some(id) = session.as_ref().and_then(|s| s.get_item("protest-tab").ok().flatten()) {
        return id;
    }
    let id = ChangeId::random(&mut rand::rng()).as_str()[..12].to_owned();
    if let Some(s) = session {
        let _ = s.set_item("protest-tab", &id);
    }
    id
}

impl Browser {
    /// The courier of `batch`'s page, and the changes kept in this browser to send again: this
    /// tab's from before a reload, and those of closed tabs.
    pub fn new(base: String, batch: &Batch, ctx: egui::Context) -> (Browser, Vec<Change>) {
        let part = format!("{PREFIX}:{}:{}:{}:", batch.master_id, batch.task_set, batch.annotator().id);
        let key = format!("{part}{}", tab_id());
        let mut kept = Vec::new();
        if let Some(storage) = local_storage() {
            let keys: Vec<String> = (0..storage.length().unwrap_or(0))
                .filter_map(|i| storage.key(i).ok().flatten())
                .filter(|k| k.starts_with(&part))
                .collect();
            let now = js_sys::Date::now();
            for k in keys {
                let Some(stored) = storage.get_item(&k).ok().flatten() else { continue };
                let Ok(other) = serde_json::from_str::<Kept>(&stored) else { continue };
                if k == key || now - other.updated > ORPHANED_MS {
                    kept.extend(other.changes);
                    if k != key {
                        let _ = storage.remove_item(&k);
                    }
                }
            }
        }
        let courier = Browser { base, key, outbox: Vec::new(), inbox: Inbox::default(), ctx };
        (courier, kept)
    }

    /// Writes the outbox under this tab's key (or removes the key when it is empty), and tells
    /// the page's script how many changes are unsent (the tab title: `super::WebApp`).
    fn write(&self) -> Result<(), String> {
        if let Some(window) = web_sys::window() {
            let _ = js_sys::Reflect::set(&window, &"protestUnsent".into(), &(self.outbox.len() as f64).into());
        }
        let storage = local_storage().ok_or("this browser keeps no local storage")?;
        let written = if self.outbox.is_empty() {
            storage.remove_item(&self.key)
        } else {
            let kept = Kept { updated: js_sys::Date::now(), changes: self.outbox.clone() };
            storage.set_item(&self.key, &serde_json::to_string(&kept).map_err(|e| e.to_string())?)
        };
        written.map_err(|e| format!("{e:?}"))
    }
}

impl Courier for Browser {
    fn keep(&mut self, outbox: &[Change]) -> Result<(), String> {
        self.outbox = outbox.to_vec();
        self.write()
    }

    fn send(&mut self, number: u64, changes: &[Change]) {
        let _ = self.write(); // touched: this tab is alive
        let body = match serde_json::to_vec(&Changes { changes: changes.to_vec() }) {
            Ok(body) => body,
            Err(e) => return self.inbox.lock().expect("not poisoned").push_back((number, Err(e.to_string()))),
        };
        let mut request = ehttp::Request::post(format!("{}api/changes", self.base), body);
        request.headers.insert("Content-Type", "application/json");
        let (inbox, ctx) = (Arc::clone(&self.inbox), self.ctx.clone());
        ehttp::fetch(request, move |response| {
            let answer = match response {
                Ok(r) if r.ok => serde_json::from_slice::<Answers>(&r.bytes)
                    .map_err(|e| format!("the server's answer could not be read ({e})")),
                Ok(r) => Err(format!("the server answered {} {}", r.status, r.status_text)),
                Err(_) => Err("the server cannot be reached".to_owned()),
            };
            inbox.lock().expect("not poisoned").push_back((number, answer));
            ctx.request_repaint();
        });
    }

    fn answer(&mut self) -> Option<(u64, Result<Answers, String>)> {
        self.inbox.lock().expect("not poisoned").pop_front()
    }
}
