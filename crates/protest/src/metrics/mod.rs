//! The project's own measures over a master: the report tables ([`report`]) with the verdict
//! where several people judged ([`verdict`]) and the agreement statistics ([`stats`]); the
//! automatic reference match ([`auto_eval`]); the outside scorers' scores set against the human
//! judgements ([`apt_human`]) and correlated with them ([`correlate`]). The scorers themselves,
//! re-implemented, are `crate::scorers`.

pub mod apt_human;
pub mod auto_eval;
pub mod correlate;
pub mod report;
pub mod stats;
pub mod verdict;
