//! The messages between the web page and `protest serve` (docs/serve.md, "Protocol"), as JSON.
//!
//! - `GET api/part` answers with the annotator's part as a batch file
//!   ([`crate::store::batch_file`]): candidates numbered in the batch's order, as the page shows
//!   and sends them.
//! - `POST api/changes` sends [`Changes`] — records put or removed, each with its [`ChangeId`] and
//!   the version of the record it was made on, oldest first — and the server answers with
//!   [`Answers`]: which it took (or had taken before), which it refused and why, and which were
//!   made on another version of their record than the one stored now (with that record: the
//!   page shows both and the annotator chooses). A change with no answer was not stored: the
//!   page sends it again later.

use crate::model::Record;
use crate::store::based::{self, Base};
use crate::store::journal::Entry;
use serde::{Deserialize, Serialize};

/// How many changes one request carries at most: the page sends more in several.
pub const MAX_CHANGES: usize = 50;

/// The largest request body the server reads (bytes): [`MAX_CHANGES`] records with long remarks.
pub const MAX_BODY: usize = 1 << 20;

/// A change's id: 128 random bits as 32 lower-case hexadecimal digits, made by the page.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ChangeId(String);

impl ChangeId {
    /// A new id from 128 random bits.
    pub fn random(rng: &mut impl rand::Rng) -> ChangeId {
        ChangeId(format!("{:032x}", rng.random::<u128>()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A string that is not a [`ChangeId`] (serde reads an id through it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a change id is 32 lower-case hexadecimal digits")]
pub struct NotAChangeId;

impl TryFrom<String> for ChangeId {
    type Error = NotAChangeId;

    fn try_from(s: String) -> Result<ChangeId, NotAChangeId> {
        let hex = |c: char| c.is_ascii_digit() || ('a'..='f').contains(&c);
        if s.len() == 32 && s.chars().all(hex) { Ok(ChangeId(s)) } else { Err(NotAChangeId) }
    }
}

impl From<ChangeId> for String {
    fn from(id: ChangeId) -> String {
        id.0
    }
}

impl std::fmt::Display for ChangeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One change to the annotator's records: a record put (`{"id": …, "put": RECORD, "base": …}`)
/// or removed (`{"id": …, "remove": {"candidate": C, "annotator": A}, "base": …}`), in batch
/// candidate ids; `base` is the version of the record it was made on (`null`: there was none;
/// missing: not said, by a page of an earlier version), see [`crate::store::based`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    pub id: ChangeId,
    #[serde(flatten)]
    pub entry: Entry,
    #[serde(default, deserialize_with = "based::said", skip_serializing_if = "Option::is_none")]
    pub base: Option<Base>,
}

/// The body of `POST api/changes`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Changes {
    pub changes: Vec<Change>,
}

/// The server's answer to [`Changes`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answers {
    /// Changes stored in the master (now or before): the page may forget them.
    pub taken: Vec<ChangeId>,
    /// Changes the server will never take, and why (they break a rule of batch import).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<Refused>,
    /// Why the changes after the last answered one were not stored (the master cannot be written
    /// just now): the page sends them again later.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trouble: Option<String>,
    /// Changes made on another version of their record than the one stored now: not stored, and
    /// never will be (the page shows both versions and the annotator's choice is a new change).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<Conflicting>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refused {
    pub id: ChangeId,
    pub why: String,
}

/// A change not made on the record stored now, with that record (batch candidate ids; `null`:
/// there is none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conflicting {
    pub id: ChangeId,
    pub stored: Option<Record>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AnnotatorId, CandidateId};
    use rand::SeedableRng;

    #[test]
    fn changes_read_as_they_are_written() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let id = ChangeId::random(&mut rng);
        assert_eq!(id.as_str().len(), 32);
        let entry = Entry::Remove { candidate: CandidateId(3), annotator: AnnotatorId(1) };
        let change = Change { id: id.clone(), entry, base: Some(Base(None)) };
        let json = serde_json::to_string(&change).unwrap();
        assert_eq!(json, format!(r#"{{"id":"{id}","remove":{{"candidate":3,"annotator":1}},"base":null}}"#));
        assert_eq!(serde_json::from_str::<Change>(&json).unwrap(), change);
        // A page of an earlier version says nothing of what its change was made on.
        let unsaid = format!(r#"{{"id":"{id}","remove":{{"candidate":3,"annotator":1}}}}"#);
        assert_eq!(serde_json::from_str::<Change>(&unsaid).unwrap().base, None);
    }

    #[test]
    fn a_malformed_id_is_refused() {
        for bad in ["", "ABCDEF0123456789abcdef0123456789", "../../etc/passwd", &"a".repeat(33)] {
            let json = format!(r#"{{"id":"{bad}","remove":{{"candidate":3,"annotator":1}}}}"#);
            assert!(serde_json::from_str::<Change>(&json).is_err(), "{bad}");
        }
        let e = serde_json::from_str::<ChangeId>("\"12\"").unwrap_err().to_string();
        assert!(e.starts_with("a change id is 32 lower-case hexadecimal digits"), "{e}");
    }
}
