//! What the judgements and the translations add up to: the report tables ([`report`]) with the
//! verdict where several people judged ([`verdict`]) and the agreement statistics ([`stats`]);
//! the automatic reference match ([`auto_eval`]); the automatic metrics APT ([`apt`]) and
//! AutoPRF ([`autoprf`]) and their correlation with human scores ([`correlate`]).

pub mod apt;
pub mod auto_eval;
pub mod autoprf;
pub mod correlate;
pub mod lines;
pub mod links;
pub mod report;
pub mod scan;
pub mod stats;
pub mod verdict;
