//! `protest serve` over HTTP as a client sends it: links and tokens, what a wrong link gets,
//! bounds, and changes that arrive once across a crash and a restart (docs/serve.md). The browser
//! itself is driven in `serve_browser`.

use crate::common::ok;
use crate::serve::*;
use protest::model::Judgement;

const ID1: &str = "0123456789abcdef0123456789abcdef";
const ID2: &str = "fedcba9876543210fedcba9876543210";

fn files_beside(master: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let dir = master.parent().unwrap();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_string_lossy().ends_with(".lock"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    files.sort();
    files
}

#[test]
fn a_change_is_stored_as_the_annotators_record_and_taken_once_across_a_crash() {
    let (dir, master) = sample();
    let links = dir.path().join("links.txt");
    let server = Server::start(&master, "127.0.0.1:0", &["--links", links.to_str().unwrap()]);
    let anna = server.path("Anna");
    // The links file: the links just made, readable by its owner only.
    let written = std::fs::read_to_string(&links).unwrap();
    assert!(written.contains(&format!("Anna\t{}", server.link("Anna"))), "{written}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&links).unwrap().permissions().mode() & 0o777, 0o600);
    }
    let part = get(server.addr, &format!("{anna}api/part"));
    assert_eq!(part.status, 200);
    assert!(part.text().contains(r#""format":"protest-batch""#) && part.text().contains(r#""name":"Anna""#));
    assert!(!part.text().contains(r#""name":"mt""#), "no system names in the part");

    let answer = post(server.addr, &format!("{anna}api/changes"), &changes(&[change(ID1, 1, ANNA, "no")]));
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert_eq!(answer.text(), format!(r#"{{"taken":["{ID1}"]}}"#));
    // check and report see it at once.
    let mine = records_of(&master, ANNA);
    assert_eq!(mine.len(), 1);
    assert_eq!((mine[0].pronoun, mine[0].active_ms), (Judgement::No, Some(2500)));
    let check = ok(dir.path(), &["check", "sample.master.json"]);
    assert!(check.contains("Anna"), "{check}");

    // A crash: nothing folded, the journal holds the change; the restarted server takes the same
    // change once (the page did not get the answer and sends it again), at the same links.
    let addr = server.addr.to_string();
    server.kill();
    let journal = protest::store::journal::path_for(&master);
    let lines = std::fs::read_to_string(&journal).unwrap().lines().count();
    let server = Server::start(&master, &addr, &[]);
    assert!(server.links.is_empty(), "links made before are not shown again: {:?}", server.output);
    assert!(
        server.output.iter().any(|l| l.contains("Links made before still work for: Anna, Ben.")),
        "{:?}",
        server.output
    );
    let again = changes(&[change(ID1, 1, ANNA, "no"), change(ID2, 2, ANNA, "yes")]);
    let answer = post(server.addr, &format!("{anna}api/changes"), &again);
    assert_eq!(answer.text(), format!(r#"{{"taken":["{ID1}","{ID2}"]}}"#));
    assert_eq!(std::fs::read_to_string(&journal).unwrap().lines().count(), lines + 1, "the first is not applied again");
    assert_eq!(records_of(&master, ANNA).len(), 2);

    // While it serves, the master is held: a window opens it read-only and follows the
    // annotators' work as it comes; commands are refused.
    let (mut store, opened) = protest::store::Store::<protest::model::Master>::open(&master).unwrap();
    assert!(opened.read_only.is_some());
    let annas = |store: &protest::store::Store<protest::model::Master>| {
        store.master().records.iter().filter(|r| r.annotator == ANNA).count()
    };
    assert_eq!(annas(&store), 2);
    assert!(!store.refresh().unwrap(), "nothing new");
    let third = changes(&[change("00000000000000000000000000000003", 3, ANNA, "no")]);
    assert_eq!(post(server.addr, &format!("{anna}api/changes"), &third).status, 200);
    assert!(store.refresh().unwrap());
    assert_eq!(annas(&store), 3);
    drop(store);
    let e = crate::common::refused(dir.path(), &["annotator", "add", "sample.master.json", "Cleo"]);
    assert!(e.contains(&format!("is being served by `protest serve` at http://{}/ (process ", server.addr)), "{e}");

    // Stopping folds the journal into the master, as closing a window does.
    assert!(server.stop());
    assert!(!journal.exists());
    assert!(!protest::store::lock_path(&master).exists());
    let folded = protest::store::master_file::load(&master).unwrap();
    assert_eq!(folded.records.iter().filter(|r| r.annotator == ANNA).count(), 3);
}

#[test]
fn without_a_valid_link_nothing_is_read_or_written() {
    let (_dir, master) = sample();
    let server = Server::start(&master, "127.0.0.1:0", &[]);
    let (anna, ben) = (server.path("Anna"), server.path("Ben"));
    let token = &anna[3..anna.len() - 1];
    let before = files_beside(&master);
    let wrong = format!("/a/{}/", "0".repeat(64));
    let body = changes(&[change(ID1, 1, ANNA, "yes")]);
    for (method, target) in [
        ("GET", "/".to_owned()),
        ("GET", "/a/".to_owned()),
        ("GET", wrong.clone()),
        ("GET", format!("{wrong}api/part")),
        ("POST", format!("{wrong}api/changes")),
        ("GET", format!("/a/{}/", token.to_uppercase())),
        ("GET", format!("/a/{}/", &token[..63])),
        ("GET", format!("/a/{token}x/api/part")),
        // Path tricks: nothing is ever read from disk, and only the page's own files exist.
        ("GET", format!("{anna}../../../../etc/passwd")),
        ("GET", format!("{anna}..%2f..%2f..%2fetc%2fpasswd")),
        ("GET", format!("{anna}%2e%2e/sample.master.json")),
        ("GET", format!("{anna}api/../../{}", "sample.master.json")),
        ("GET", format!("{anna}sample.master.json")),
        ("GET", format!("{anna}sample.master.json.serve")),
        ("GET", "/a/../../sample.master.json".to_owned()),
        ("GET", "/etc/passwd".to_owned()),
    ] {
        let answer = request(server.addr, method, &target, &body);
        assert!(answer.status == 404 || answer.status == 429, "{method} {target}: {}", answer.status);
        assert!(!answer.text().contains("sample-news"), "{target} gives nothing of the master");
        assert!(!answer.text().contains("root:"), "{target}");
    }
    // Anna's link cannot read or write Ben's part.
    let answer = post(server.addr, &format!("{anna}api/changes"), &changes(&[change(ID1, 1, BEN, "yes")]));
    assert!(answer.text().contains("annotator 2's record, not yours"), "{}", answer.text());
    let bens = get(server.addr, &format!("{ben}api/part"));
    assert!(bens.text().contains(r#""name":"Ben""#) && !bens.text().contains(r#""name":"Anna""#));
    // Malformed, oversized or too many changes are refused whole.
    let too_many: Vec<String> = (0..51).map(|i| change(&format!("{i:032x}"), 1, ANNA, "yes")).collect();
    let huge = vec![b' '; protest::web::protocol::MAX_BODY + 1];
    for (body, status, says) in [
        (b"not json".to_vec(), 400, "not a list of changes"),
        (br#"{"changes":[{"id":"../x","put":{}}]}"#.to_vec(), 400, "not a list of changes"),
        (
            br#"{"changes":[{"id":"0123456789abcdef0123456789abcdef","roster":{"annotators":[],"task_sets":[]}}]}"#
                .to_vec(),
            200,
            "a page changes records only",
        ),
        (changes(&too_many), 400, "at most 50 changes"),
        (huge, 413, ""),
    ] {
        let answer = post(server.addr, &format!("{anna}api/changes"), &body);
        assert_eq!(answer.status, status, "{}", answer.text());
        assert!(answer.text().contains(says), "{}", answer.text());
    }
    // A candidate outside the part, a record breaking a rule of batch import.
    let answer = post(server.addr, &format!("{anna}api/changes"), &changes(&[change(ID2, 999, ANNA, "yes")]));
    assert!(answer.text().contains("candidate 999 is not in your part"), "{}", answer.text());
    assert_eq!(files_beside(&master), before, "nothing was written");
    // Every answer keeps the page to itself: no referrer (the link holds the token), no frames.
    let page = get(server.addr, &anna);
    assert_eq!(page.status, 200);
    assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
    assert!(page.header("content-security-policy").unwrap().contains("frame-ancestors 'none'"));
    // An address that keeps trying wrong links is slowed down.
    let refused = (0..40).any(|_| get(server.addr, &wrong).status == 429);
    assert!(refused, "no request of 40 with a wrong link was refused");
}

#[test]
fn a_revoked_link_stops_working_and_a_new_one_replaces_it() {
    let (_dir, master) = sample();
    let server = Server::start(&master, "127.0.0.1:0", &[]);
    let (old_anna, ben) = (server.path("Anna"), server.path("Ben"));
    assert!(server.stop());
    let server = Server::start(&master, "127.0.0.1:0", &["--revoke", "anna"]);
    assert!(server.output.iter().any(|l| l.contains("Anna's link is revoked")), "{:?}", server.output);
    assert_eq!(server.links.len(), 0);
    assert_eq!(get(server.addr, &format!("{old_anna}api/part")).status, 404);
    assert_eq!(get(server.addr, &format!("{ben}api/part")).status, 200);
    assert!(server.stop());
    // A restart does not give the revoked annotator a link by itself.
    let server = Server::start(&master, "127.0.0.1:0", &[]);
    assert!(server.links.is_empty());
    assert!(server.stop());
    let server = Server::start(&master, "127.0.0.1:0", &["--new-link", "Anna"]);
    let new_anna = server.path("Anna");
    assert_ne!(new_anna, old_anna);
    assert_eq!(get(server.addr, &format!("{new_anna}api/part")).status, 200);
    assert_eq!(get(server.addr, &format!("{old_anna}api/part")).status, 404);
    // Nobody unknown can be revoked.
    assert!(server.stop());
    let out = crate::common::protest(master.parent().unwrap(), &["serve", "sample.master.json", "--revoke", "Zoe"]);
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && e.contains("'Zoe' has no part of task set 1 (those who have: Anna, Ben)"), "{e}");
}

#[test]
fn a_master_open_in_a_window_is_not_served() {
    let (dir, master) = sample();
    let window = protest::store::Holder::Window;
    let (store, _) = protest::store::Store::<protest::model::Master>::open_as(&master, &window).unwrap();
    let out = crate::common::protest(dir.path(), &["serve", "sample.master.json", "--listen", "127.0.0.1:0"]);
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success()
            && e.contains("cannot be served: sample.master.json is open in a PROTEST window (process "),
        "{e}"
    );
    assert!(e.contains("close it there first"), "{e}");
    drop(store);
}

#[test]
fn a_half_sent_body_does_not_keep_sigterm_from_stopping_and_folding() {
    use std::io::Write;
    let (_dir, master) = sample();
    let server = Server::start(&master, "127.0.0.1:0", &[]);
    let anna = server.path("Anna");
    let answer = post(server.addr, &format!("{anna}api/changes"), &changes(&[change(ID1, 1, ANNA, "no")]));
    assert_eq!(answer.status, 200, "{}", answer.text());
    // Two clients that announce a body and send part of it, one with Anna's link, one with none.
    let half = |target: &str| {
        let mut stream = std::net::TcpStream::connect(server.addr).unwrap();
        let head = format!("POST {target} HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{{\"changes\":[");
        stream.write_all(head.as_bytes()).unwrap();
        stream
    };
    let _held = (half(&format!("{anna}api/changes")), half("/a/anything/api/changes"));
    std::thread::sleep(std::time::Duration::from_millis(300));
    // The deadline is 10 s; the clients never finish.
    let (success, took) = server.stop_within(std::time::Duration::from_secs(30));
    assert!(success, "exit code after a stop with a request dropped");
    assert!(took < std::time::Duration::from_secs(15), "stopped after {took:?}");
    assert!(!protest::store::lock_path(&master).exists(), "the lock is released");
    assert!(!protest::store::journal::path_for(&master).exists(), "the journal is folded");
    let folded = protest::store::master_file::load(&master).unwrap();
    assert_eq!(folded.records.iter().filter(|r| r.annotator == ANNA).count(), 1);
}

#[test]
fn the_links_file_is_only_ever_added_to() {
    let (dir, master) = sample();
    let links = dir.path().join("links.txt");
    let args = ["--links", links.to_str().unwrap()];
    let server = Server::start(&master, "127.0.0.1:0", &args);
    let first = std::fs::read_to_string(&links).unwrap();
    assert_eq!(first.lines().count(), 2, "{first}");
    assert!(server.stop());
    // A restart that makes no link leaves the file as it was (it used to empty it).
    let server = Server::start(&master, "127.0.0.1:0", &args);
    assert!(server.links.is_empty());
    assert_eq!(std::fs::read_to_string(&links).unwrap(), first);
    assert!(server.stop());
    // A new link is added after the others.
    let server = Server::start(&master, "127.0.0.1:0", &["--links", links.to_str().unwrap(), "--new-link", "Anna"]);
    let now = std::fs::read_to_string(&links).unwrap();
    assert_eq!(now, format!("{first}Anna\t{}\n", server.link("Anna")));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&links).unwrap().permissions().mode() & 0o777, 0o600);
    }
    assert!(server.stop());
}

#[test]
fn a_start_that_fails_leaves_nothing_behind_and_no_link_unseen() {
    let (dir, master) = sample();
    let links = dir.path().join("links.txt");
    let receipts = protest::web::receipts::path_for(&master);
    // Something the server cannot use where its receipts go: found only once the master is open.
    std::fs::create_dir(&receipts).unwrap();
    let names = || {
        let mut names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        names
    };
    let (before, master_before) = (names(), std::fs::read(&master).unwrap());
    let out = crate::common::protest(
        dir.path(),
        &["serve", "sample.master.json", "--listen", "127.0.0.1:0", "--links", "links.txt"],
    );
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && e.contains("receipts"), "{e}");
    assert!(String::from_utf8_lossy(&out.stdout).is_empty(), "no link shown by a start that failed");
    assert!(!links.exists(), "no links file");
    assert_eq!(names(), before, "no links kept beside the master, no lock, no journal");
    assert_eq!(std::fs::read(&master).unwrap(), master_before);
    assert!(!protest::store::lock_path(&master).exists(), "no lock left");
    assert!(!protest::store::journal::path_for(&master).exists(), "no journal left");
    // The same after a refusal of what was asked.
    std::fs::remove_dir(&receipts).unwrap();
    let e = crate::common::refused(dir.path(), &["serve", "sample.master.json", "--revoke", "Zoe"]);
    assert!(e.contains("'Zoe' has no part"), "{e}");
    assert!(!protest::store::lock_path(&master).exists() && !protest::store::journal::path_for(&master).exists());
    // Once the cause is gone, the start makes the links, shows them and adds them to the file.
    let server = Server::start(&master, "127.0.0.1:0", &["--links", links.to_str().unwrap()]);
    assert_eq!(server.links.len(), 2);
    assert_eq!(std::fs::read_to_string(&links).unwrap().lines().count(), 2);
    assert!(server.stop());
}

#[cfg(unix)]
#[test]
fn the_servers_own_files_are_private_whatever_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let (dir, master) = sample();
    let links = dir.path().join("links.txt");
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_protest"));
    command.args(["serve", master.to_str().unwrap(), "--listen", "127.0.0.1:0", "--links", links.to_str().unwrap()]);
    // SAFETY: umask is async-signal-safe; it changes only the child's mask before exec.
    unsafe {
        command.pre_exec(|| {
            libc::umask(0);
            Ok(())
        });
    }
    let server = Server::spawn(command);
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&links), 0o600);
    assert_eq!(mode(&protest_serve::links::path_for(&master)), 0o600);
    assert!(server.stop());
}

#[cfg(unix)]
#[test]
fn a_read_only_master_is_refused_for_what_it_is() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, master) = sample();
    std::fs::set_permissions(&master, std::fs::Permissions::from_mode(0o444)).unwrap();
    let e = crate::common::refused(dir.path(), &["serve", "sample.master.json", "--listen", "127.0.0.1:0"]);
    assert!(e.contains("cannot be served") && e.contains("no write permission") && e.contains("chmod u+w"), "{e}");
    assert!(!e.contains("close it there"), "nothing holds it: {e}");
    assert!(!protest::store::lock_path(&master).exists());
}

/// The file a page offers when its link no longer works, applied by the researcher with
/// `protest batch apply`: each change once, none over a record changed since unless asked.
#[test]
fn a_pages_file_of_unsent_changes_is_applied_once_and_never_over_newer_work() {
    use protest::store::based::Base;
    use protest::web::protocol::{Change, ChangeId};
    let (dir, master) = sample();
    let server = Server::start(&master, "127.0.0.1:0", &[]);
    let anna = server.path("Anna");
    let part = get(server.addr, &format!("{anna}api/part"));
    let part = protest::store::batch_file::from_bytes(std::path::Path::new("part"), &part.body).unwrap();
    // Taken by the server: a change on candidate 1.
    assert_eq!(post(server.addr, &format!("{anna}api/changes"), &changes(&[change(ID1, 1, ANNA, "no")])).status, 200);
    let taken: Change = serde_json::from_str(&change(ID1, 1, ANNA, "no")).unwrap();
    // The page's file: that change again (its answer was lost), one on candidate 1 made before it,
    // and a new one on candidate 2.
    let put = |n: u32, remarks: &str| {
        let mut r = protest::model::Record::new(protest::model::CandidateId(n), ANNA, chrono::Utc::now());
        r.pronoun = Judgement::Yes;
        r.remarks = remarks.into();
        protest::store::journal::Entry::Put(r)
    };
    let mut rng = rand::rng();
    let older = Change { id: ChangeId::random(&mut rng), entry: put(1, "made before"), base: Some(Base(None)) };
    let fresh = Change { id: ChangeId::random(&mut rng), entry: put(2, "new"), base: Some(Base(None)) };
    let unsent = protest::web::unsent::Unsent::new(
        &part,
        vec![taken, older, fresh],
        "the server does not know this link",
        chrono::Utc::now(),
    );
    let file = dir.path().join(unsent.file_name());
    std::fs::write(&file, unsent.to_bytes()).unwrap();
    let name = file.file_name().unwrap().to_str().unwrap();

    // Refused while the server holds the master: nothing changes.
    let e = crate::common::refused(dir.path(), &["batch", "apply", "sample.master.json", name]);
    assert!(e.contains("open"), "{e}");
    assert!(server.stop());
    let out = ok(dir.path(), &["batch", "apply", "sample.master.json", name]);
    assert!(
        out.contains("(Anna, task set 1): 1 stored, 1 stored before, 1 made on records changed since, 0 refused"),
        "{out}"
    );
    assert!(
        out.contains("the master had candidate") && out.contains("kept the master's (--over-newer stores the file's)"),
        "{out}"
    );
    let of = |n: u32| {
        let m = protest::store::master_file::load(&master).unwrap();
        let layout = protest::batches::export::layout(&m, m.task_set(1).unwrap(), ANNA);
        m.records.get(layout.order[n as usize - 1], ANNA).cloned().unwrap()
    };
    assert_eq!((of(1).pronoun, of(2).remarks.as_str()), (Judgement::No, "new"), "the newer record stays");
    // Again, choosing the file's over the newer record: the rest is not applied twice.
    let out = ok(dir.path(), &["batch", "apply", "sample.master.json", name, "--over-newer"]);
    assert!(
        out.contains("1 stored, 2 stored before, 1 made on records changed since") && out.contains("stored the file's"),
        "{out}"
    );
    assert_eq!(of(1).remarks, "made before");
    // Not such a file: refused, naming it.
    let e = crate::common::refused(dir.path(), &["batch", "apply", "sample.master.json", "sample.master.json"]);
    assert!(e.contains("sample.master.json") && e.contains("unsent"), "{e}");
}

/// The page's program goes over the wire compressed, and a browser that has it already gets an
/// answer without a body; a client that takes no gzip gets the same program, uncompressed.
#[test]
fn the_page_is_sent_compressed_and_a_second_open_transfers_nothing() {
    use std::io::Read;
    let (_dir, master) = sample();
    let server = Server::start(&master, "127.0.0.1:0", &[]);
    let wasm = format!("{}app.wasm", server.path("Anna"));
    let chromium = "Accept-Encoding: gzip, deflate, br, zstd";
    let first = request_with(server.addr, "GET", &wasm, &[chromium], b"");
    assert_eq!(first.status, 200);
    assert_eq!(first.header("content-type"), Some("application/wasm"));
    assert_eq!(first.header("content-encoding"), Some("gzip"));
    assert_eq!(first.header("vary"), Some("accept-encoding"));
    assert_eq!(first.header("cache-control"), Some("no-cache"));
    assert!(first.body.len() <= 4_000_000, "{} bytes on the wire", first.body.len());
    let mut program = Vec::new();
    flate2::read::GzDecoder::new(first.body.as_slice()).read_to_end(&mut program).unwrap();
    assert!(program.starts_with(b"\0asm") && program.len() > first.body.len() * 2, "{} bytes", program.len());
    let etag = first.header("etag").expect("a tag").to_owned();
    assert!(etag.starts_with('"') && etag.ends_with('"'), "a strong tag: {etag}");

    // A second open (by another annotator too: the program is the same for all).
    for path in [server.path("Anna"), server.path("Ben")] {
        let asked = format!("If-None-Match: {etag}");
        let again = request_with(server.addr, "GET", &format!("{path}app.wasm"), &[chromium, &asked], b"");
        assert_eq!(again.status, 304);
        assert!(again.body.is_empty(), "{} bytes", again.body.len());
        assert_eq!(again.header("etag"), Some(etag.as_str()));
        assert_eq!(again.header("cache-control"), Some("no-cache"));
    }
    // Another tag: the whole file.
    let other = request_with(server.addr, "GET", &wasm, &[chromium, "If-None-Match: \"0123\""], b"");
    assert_eq!((other.status, other.body.len()), (200, first.body.len()));

    // Without gzip (no header, or refused by weight): the program itself, under a tag of its own.
    for refused in [None, Some("Accept-Encoding: gzip;q=0, identity")] {
        let plain = request_with(server.addr, "GET", &wasm, refused.as_slice(), b"");
        assert_eq!(plain.status, 200);
        assert_eq!(plain.header("content-encoding"), None);
        assert!(plain.body == program, "the same program, uncompressed");
        let tag = plain.header("etag").unwrap();
        assert_ne!(tag, etag);
        let asked = format!("If-None-Match: {etag}");
        let with_the_compressed_tag = request_with(server.addr, "GET", &wasm, &[&asked], b"");
        assert_eq!(with_the_compressed_tag.status, 200, "the client does not have this representation");
    }

    // The glue and the page itself are tagged as well; the glue is compressed.
    let js = request_with(server.addr, "GET", &format!("{}app.js", server.path("Anna")), &[chromium], b"");
    assert_eq!((js.status, js.header("content-encoding")), (200, Some("gzip")));
    let index = get(server.addr, &server.path("Anna"));
    assert_eq!((index.status, index.header("content-encoding")), (200, None));
    assert!(index.header("etag").is_some() && index.text().contains("start.js"), "{}", index.text());
    // Without a valid link: the plain page, whatever the tag.
    let asked = format!("If-None-Match: {etag}");
    let wrong = request_with(server.addr, "GET", &format!("/a/{}/app.wasm", "0".repeat(64)), &[&asked], b"");
    assert_eq!(wrong.status, 404);
}
