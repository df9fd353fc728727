//! A plain loopback client of the server, shared by the hostile benchmark and the crate's tests
//! (`src/tests.rs` includes this file): what they send and how they see a connection end.

use std::io::Read;
use std::net::TcpStream;
use std::time::Duration;

/// Whether the server closed `stream` within `limit` (anything it sent first is skipped).
pub fn closed_within(stream: &mut TcpStream, limit: Duration) -> bool {
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut buffer = [0u8; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

/// A page's request body: annotator 1 judges the pronoun of batch candidate `candidate`, as
/// change `id`.
pub fn change(id: u128, candidate: u32) -> Vec<u8> {
    format!(
        r#"{{"changes":[{{"id":"{id:032x}","put":{{"candidate":{candidate},"annotator":1,"pronoun":"yes","active_ms":900,"created":"2026-11-26T10:00:00Z","modified":"2026-11-26T10:00:00Z"}}}}]}}"#
    )
    .into_bytes()
}
