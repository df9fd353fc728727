//! Agreement statistics and a proportion's confidence interval, independent of the PROTEST model
//! so they can be checked against textbook examples.

pub mod alpha;
pub mod kappa;
pub mod proportion;
