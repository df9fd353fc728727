//! Candidates: one example as translated by one translation corpus.

use super::ids::{CandidateId, CorpusId, ExampleNo, TokenRef};
use super::record::Role;
use serde::{Deserialize, Serialize};

/// One example × one translation corpus, with the target tokens aligned to the source pronoun
/// and to each antecedent head. These positions are what the annotator is shown and may select
/// from; they are kept even when the corpus has no whole alignment (converted legacy files).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candidate {
    pub id: CandidateId,
    pub example: ExampleNo,
    pub corpus: CorpusId,
    /// Target tokens aligned to the pronoun, ascending; empty when it was left untranslated.
    #[serde(default)]
    pub pronoun: Vec<TokenRef>,
    /// Per antecedent of the example, in the same order: target tokens aligned to its head.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub antecedents: Vec<Vec<TokenRef>>,
}

impl Candidate {
    /// The aligned target tokens of one role (all antecedent heads together for the antecedent).
    pub fn aligned(&self, role: Role) -> impl Iterator<Item = TokenRef> + '_ {
        let (pronoun, antecedents): (&[TokenRef], &[Vec<TokenRef>]) = match role {
            Role::Pronoun => (&self.pronoun, &[]),
            Role::Antecedent => (&[], &self.antecedents),
        };
        pronoun.iter().chain(antecedents.iter().flatten()).copied()
    }

    pub fn is_aligned(&self, role: Role, token: TokenRef) -> bool {
        self.aligned(role).any(|t| t == token)
    }

    /// The roles in which a target token may be selected (none, one or both).
    pub fn roles_of(&self, token: TokenRef) -> Vec<Role> {
        Role::ALL.into_iter().filter(|&r| self.is_aligned(r, token)).collect()
    }
}
