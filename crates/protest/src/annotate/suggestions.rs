//! The tags the tag box offers: the standard tags that apply to a category, then every other tag
//! used in the master ([`UsedTags`] keeps those up to date one change at a time), filtered by
//! what the annotator types.

use crate::model::{Category, Master, tags};
use std::collections::{BTreeMap, BTreeSet};

/// Tags to offer for a candidate of `category`: the standard ones that apply to it, then every
/// other tag already used in the master, alphabetically. Looks at every record: an app asking
/// each frame keeps a [`UsedTags`] instead.
pub fn tag_suggestions(master: &Master, category: &Category) -> Vec<String> {
    UsedTags::new(master).suggestions(category)
}

/// The tags used in a master's records, each with the number of records carrying it, kept up to
/// date one record change at a time ([`UsedTags::change`]): what [`tag_suggestions`] offers
/// beyond the standard tags, without looking at all the records again.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UsedTags(BTreeMap<String, usize>);

impl UsedTags {
    pub fn new(master: &Master) -> Self {
        let mut used = UsedTags::default();
        for record in master.records.iter() {
            used.change(&BTreeSet::new(), &record.tags);
        }
        used
    }

    /// One record's tags went from `before` to `after` (an empty set for a record that did not
    /// exist, or no longer does).
    pub fn change(&mut self, before: &BTreeSet<String>, after: &BTreeSet<String>) {
        for gone in before.difference(after) {
            if let Some(n) = self.0.get_mut(gone) {
                *n -= 1;
                if *n == 0 {
                    self.0.remove(gone);
                }
            }
        }
        for new in after.difference(before) {
            *self.0.entry(new.clone()).or_default() += 1;
        }
    }

    /// [`tag_suggestions`] for a candidate of `category`.
    pub fn suggestions(&self, category: &Category) -> Vec<String> {
        let standard = tags::STANDARD
            .iter()
            .filter(|t| (!t.anaphoric_only || category.anaphoric) && (!t.politeness_only || category.politeness))
            .map(|t| t.name.to_owned());
        let used = self.0.keys().filter(|t| !tags::STANDARD.iter().any(|s| s.name == t.as_str())).cloned();
        standard.chain(used).collect()
    }
}

/// The suggestions that contain `typed` (ignoring case), without the tags the record already has;
/// those starting with it come first.
pub fn matching_tags<'a>(suggestions: &'a [String], typed: &str, present: &BTreeSet<String>) -> Vec<&'a str> {
    let typed = typed.trim().to_lowercase();
    let mut out: Vec<&str> = suggestions
        .iter()
        .map(String::as_str)
        .filter(|t| !present.contains(*t) && t.to_lowercase().contains(&typed))
        .collect();
    out.sort_by_key(|t| !t.to_lowercase().starts_with(&typed));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AnnotatorId, CandidateId, Record};
    use crate::testing::bare_tiny as tiny;
    use chrono::Utc;

    #[test]
    fn tag_suggestions_fit_the_category() {
        let mut m = tiny();
        let mut r = Record::new(CandidateId(3), AnnotatorId::RESEARCHER, Utc::now());
        r.tags.insert("my_tag".into());
        m.records.put(r);
        let pleonastic = m.category("pleonastic_it").unwrap().clone();
        let t = tag_suggestions(&m, &pleonastic);
        assert!(t.contains(&"desc_vs_presc".to_string()) && t.contains(&"my_tag".to_string()));
        assert!(!t.contains(&"ant_ensure".to_string()) && !t.contains(&"politeness_tu".to_string()));
        let you = m.category("addressee_deictic_singular_you").unwrap().clone();
        assert!(tag_suggestions(&m, &you).contains(&"politeness_unknown".to_string()));
    }

    #[test]
    fn used_tags_follow_changes_and_suggest_like_the_master() {
        let mut m = tiny();
        let tagged = |c: u32, a: u32, tags: &[&str]| {
            let mut r = Record::new(CandidateId(c), AnnotatorId(a), Utc::now());
            r.tags = tags.iter().map(|t| t.to_string()).collect();
            r
        };
        let mut used = UsedTags::new(&m);
        let pleonastic = m.category("pleonastic_it").unwrap().clone();
        let records = [
            tagged(3, 0, &["zebra", "desc_vs_presc"]),
            tagged(4, 0, &["zebra", "aardvark"]),
            tagged(3, 0, &["aardvark"]), // replaces the first: "zebra" is still on candidate 4
            tagged(4, 0, &[]),
        ];
        for record in records {
            let before = m.records.get(record.candidate, record.annotator).map(|r| r.tags.clone()).unwrap_or_default();
            used.change(&before, &record.tags);
            m.records.put(record);
            assert_eq!(used, UsedTags::new(&m));
            assert_eq!(used.suggestions(&pleonastic), tag_suggestions(&m, &pleonastic));
        }
        let suggested = used.suggestions(&pleonastic);
        assert!(suggested.contains(&"aardvark".to_string()) && !suggested.contains(&"zebra".to_string()));
        // Standard tags first, each once, then the others alphabetically.
        assert_eq!(suggested.iter().filter(|t| *t == "desc_vs_presc").count(), 1);
        assert_eq!(suggested.last().map(String::as_str), Some("aardvark"));
        let removed = m.records.remove(CandidateId(3), AnnotatorId(0)).unwrap();
        used.change(&removed.tags, &BTreeSet::new());
        assert_eq!(used, UsedTags::default());
    }

    #[test]
    fn matching_tags_filters_by_what_was_typed() {
        let all: Vec<String> =
            ["bad_translation", "desc_vs_presc", "politeness_tu", "translation_odd"].map(String::from).to_vec();
        let present = BTreeSet::from(["bad_translation".to_string()]);
        assert_eq!(matching_tags(&all, "TRANS", &present), vec!["translation_odd"]);
        assert_eq!(matching_tags(&all, "", &BTreeSet::new()).len(), 4);
        assert_eq!(matching_tags(&all, "s", &present), vec!["desc_vs_presc", "politeness_tu", "translation_odd"]);
        assert_eq!(matching_tags(&all, " po ", &present), vec!["politeness_tu"]);
    }
}
