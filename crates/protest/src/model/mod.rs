//! The data model (docs/domain.md, "Concepts"). Plain data with lookups; no I/O and no UI.

pub mod alignment;
mod auto_eval;
mod candidate;
pub mod clock;
mod conflict;
mod corpus;
mod dispute;
pub mod from_page;
mod ids;
mod language;
pub mod lexicon;
pub mod link_origin;
mod master;
pub mod pronouns;
mod record;
pub mod segmentation;
mod sentences;
mod suite;
pub mod tags;
mod tasks;
pub mod text;
pub(crate) mod timestamp;
pub mod tokens;

pub use auto_eval::{AutoEval, MatchEntry, MatchRule, Outcome, Round};
pub use candidate::Candidate;
pub use conflict::Conflict;
pub use corpus::{Corpus, CorpusRole};
pub use dispute::{Answer, Dispute};
pub use ids::{AnnotatorId, CandidateId, CorpusId, ExampleNo, TokenRef};
pub use language::Language;
pub use link_origin::{AlignedToken, CandidateLinks, LinkOrigin, LinkOrigins};
pub use master::{
    Annotator, Languages, MASTER_FORMAT, MASTER_VERSION, MASTER_VERSIONS_READ, Master, Records, Settings, Version,
};
pub use record::{ConflictStatus, Judgement, LEGACY_PRONOUN, Record, Role, Selection};
pub use segmentation::{Origin, Segmentation};
pub use sentences::{Sentences, numbered_in_file};
pub use suite::{Antecedent, AntecedentPlace, Category, Example, function, standard_categories};
pub use tasks::{IAA_LABEL, Planner, Purpose, Task, TaskSet};
