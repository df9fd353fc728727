//! A backoff n-gram model in memory, and the log10 probabilities it gives — those KenLM gives for
//! the same ARPA file.
//!
//! The probability of word `w` after context `h` is that of the longest n-gram `h' w` the model
//! lists (`h'` a suffix of `h`, perhaps empty), plus the backoff weights of the contexts longer
//! than `h'` that the model lists (a context it does not list weighs 0). An unknown word is
//! `<unk>`. A sentence is scored from `<s>` (its own probability is not counted) to `</s>`.
//!
//! Each n-gram is found by its last word and then one word further left at a time, like KenLM's
//! lookups: an n-gram is keyed by the (n−1)-gram it ends with and its first word. So that every
//! n-gram can be reached that way, an (n−1)-gram an ARPA file leaves out is kept as a *blank*
//! with no probability (as KenLM keeps it); and, as KenLM requires, every n-gram's context is
//! itself listed, so a word whose context is not in the model cannot extend it either.

use rustc_hash::FxHashMap as HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};

/// A word of a model's vocabulary.
pub type WordId = u32;

/// The highest order of model read: KenLM's own tools stop at 6 unless rebuilt.
pub const MAX_ORDER: usize = 8;

/// What a model lists for an n-gram.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Entry {
    /// log10 probability; `None` for a blank.
    pub prob: Option<f32>,
    /// log10 backoff weight when this n-gram is the context (0 when the file gives none).
    pub backoff: f32,
}

/// The n-grams of one order above the first.
#[derive(Debug, Default)]
struct Order {
    /// (the node of the n-gram's last n−1 words, its first word) → its index in `entries`.
    index: HashMap<u64, u32>,
    entries: Vec<Entry>,
}

fn key(suffix: u32, first: WordId) -> u64 {
    (u64::from(suffix) << 32) | u64::from(first)
}

impl Order {
    fn find(&self, suffix: u32, first: WordId) -> Option<u32> {
        self.index.get(&key(suffix, first)).copied()
    }
}

pub struct Model {
    order: usize,
    ids: HashMap<Box<str>, WordId>,
    /// By word id.
    unigrams: Vec<Entry>,
    /// `higher[k]` holds the (k+2)-grams.
    higher: Vec<Order>,
    unknown: WordId,
    begin: WordId,
    end: WordId,
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Model").field("order", &self.order).field("counts", &self.counts()).finish()
    }
}

/// The words a probability depends on after some text, most recent first, with their backoff
/// weights: `words[..len]`, where `words[..=j]` (read backwards) is an n-gram of the model whose
/// backoff weight is `backoffs[j]`. Two states with the same words give every continuation the
/// same probability, whatever came before them.
#[derive(Debug, Clone, Copy)]
pub struct State {
    words: [WordId; MAX_ORDER - 1],
    backoffs: [f32; MAX_ORDER - 1],
    len: u8,
}

impl State {
    const EMPTY: State = State { words: [0; MAX_ORDER - 1], backoffs: [0.0; MAX_ORDER - 1], len: 0 };

    /// The context words, most recent first.
    pub fn words(&self) -> &[WordId] {
        &self.words[..usize::from(self.len)]
    }
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.words() == other.words()
    }
}

impl Eq for State {}

impl Hash for State {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.words().hash(state);
    }
}

impl Model {
    /// The order of the model (the length of its longest n-grams).
    pub fn order(&self) -> usize {
        self.order
    }

    /// How many n-grams of each order the model lists (blanks not counted).
    pub fn counts(&self) -> Vec<usize> {
        std::iter::once(self.unigrams.len())
            .chain(self.higher.iter().map(|o| o.entries.iter().filter(|e| e.prob.is_some()).count()))
            .collect()
    }

    /// The word's id; `<unk>`'s for a word the model does not know.
    pub fn index(&self, word: &str) -> WordId {
        self.ids.get(word).copied().unwrap_or(self.unknown)
    }

    pub fn knows(&self, word: &str) -> bool {
        self.ids.contains_key(word)
    }

    pub fn end_id(&self) -> WordId {
        self.end
    }

    /// The state at the start of a sentence: after `<s>`.
    pub fn begin(&self) -> State {
        let mut state = State::EMPTY;
        if self.order > 1 {
            state.words[0] = self.begin;
            state.backoffs[0] = self.unigrams[self.begin as usize].backoff;
            state.len = 1;
        }
        state
    }

    /// The log10 probability of `word` in `state`, and the state after it. Backoff weights are
    /// added in KenLM's order, one at a time in single precision, so that the sums are KenLM's
    /// to the last bit where the model has no blanks.
    pub fn score(&self, state: &State, word: WordId) -> (f32, State) {
        let unigram = self.unigrams[word as usize];
        let mut prob = unigram.prob.unwrap_or(0.0);
        // How many context words the longest n-gram found uses.
        let mut matched = 0;
        let mut next = State::EMPTY;
        if self.order > 1 {
            next.words[0] = word;
            next.backoffs[0] = unigram.backoff;
            next.len = 1;
        }
        let mut node = word;
        for (j, &context) in state.words().iter().enumerate() {
            let Some(found) = self.higher[j].find(node, context) else { break };
            node = found;
            let entry = self.higher[j].entries[found as usize];
            if let Some(p) = entry.prob {
                prob = p;
                matched = j + 1;
            }
            if j + 2 < self.order {
                next.words[j + 1] = context;
                next.backoffs[j + 1] = entry.backoff;
                next.len = (j + 2) as u8;
            }
        }
        for &backoff in &state.backoffs[matched..usize::from(state.len)] {
            prob += backoff;
        }
        (prob, next)
    }

    /// The log10 probability of a sentence's words between `<s>` and `</s>`, summed in single
    /// precision as KenLM sums it.
    pub fn sentence<'w>(&self, words: impl IntoIterator<Item = &'w str>) -> f32 {
        let mut state = self.begin();
        let mut total = 0.0f32;
        for word in words.into_iter().map(|w| self.index(w)).chain([self.end]) {
            let (prob, next) = self.score(&state, word);
            total += prob;
            state = next;
        }
        total
    }

    /// Whether the model lists this n-gram (words in text order) with a probability of its own —
    /// as a model lists every n-gram of the text it was trained on, up to its order.
    pub fn lists(&self, words: &[&str]) -> bool {
        let Some(ids) = words.iter().map(|w| self.ids.get(*w).copied()).collect::<Option<Vec<WordId>>>() else {
            return false;
        };
        match ids.len() {
            0 => false,
            1 => true,
            n if n > self.order => false,
            n => self.node(&ids).is_some_and(|i| self.higher[n - 2].entries[i as usize].prob.is_some()),
        }
    }

    /// The node of an n-gram (words in text order), found by its last word and then leftwards.
    fn node(&self, words: &[WordId]) -> Option<u32> {
        let (&last, rest) = words.split_last()?;
        let mut node = last;
        for (j, &word) in rest.iter().rev().enumerate() {
            node = self.higher[j].find(node, word)?;
        }
        Some(node)
    }
}

/// A model filled in order by order, as an ARPA file lists it.
pub(super) struct Builder {
    model: Model,
}

/// Why an n-gram cannot be added.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Refusal {
    Duplicate,
    ContextMissing,
}

impl Builder {
    pub fn new(order: usize) -> Builder {
        assert!((1..=MAX_ORDER).contains(&order));
        Builder {
            model: Model {
                order,
                ids: HashMap::default(),
                unigrams: Vec::new(),
                higher: (1..order).map(|_| Order::default()).collect(),
                unknown: 0,
                begin: 0,
                end: 0,
            },
        }
    }

    /// The id of a word listed among the unigrams.
    pub fn id(&self, word: &str) -> Option<WordId> {
        self.model.ids.get(word).copied()
    }

    pub fn add_unigram(&mut self, word: &str, prob: f32, backoff: f32) -> Result<(), Refusal> {
        let id = self.model.unigrams.len() as WordId;
        match self.model.ids.entry(word.into()) {
            std::collections::hash_map::Entry::Occupied(_) => return Err(Refusal::Duplicate),
            std::collections::hash_map::Entry::Vacant(v) => v.insert(id),
        };
        self.model.unigrams.push(Entry { prob: Some(prob), backoff });
        Ok(())
    }

    /// Adds an n-gram of order two or more (word ids in text order), whose context must be in
    /// the model already; the (n−1)-grams it ends with that the model lacks become blanks.
    pub fn add(&mut self, words: &[WordId], prob: f32, backoff: f32) -> Result<(), Refusal> {
        let n = words.len();
        debug_assert!(n >= 2 && n <= self.model.order);
        if self.model.node(&words[..n - 1]).is_none() {
            return Err(Refusal::ContextMissing);
        }
        let suffix = self.node_or_blank(&words[1..]);
        let order = &mut self.model.higher[n - 2];
        let index = order.entries.len() as u32;
        match order.index.entry(key(suffix, words[0])) {
            std::collections::hash_map::Entry::Occupied(_) => return Err(Refusal::Duplicate),
            std::collections::hash_map::Entry::Vacant(v) => v.insert(index),
        };
        order.entries.push(Entry { prob: Some(prob), backoff });
        Ok(())
    }

    fn node_or_blank(&mut self, words: &[WordId]) -> u32 {
        let (&last, rest) = words.split_last().expect("an n-gram has words");
        let mut node = last;
        for (j, &word) in rest.iter().rev().enumerate() {
            let order = &mut self.model.higher[j];
            let next = order.entries.len() as u32;
            node = *order.index.entry(key(node, word)).or_insert_with(|| {
                order.entries.push(Entry { prob: None, backoff: 0.0 });
                next
            });
        }
        node
    }

    /// The model, with its markers; `<unk>` is added with `unknown_prob` if the file lacks it
    /// (KenLM gives it −100). Fails naming a missing `<s>` or `</s>`.
    pub fn finish(mut self, unknown_prob: f32) -> Result<(Model, bool), &'static str> {
        let m = &mut self.model;
        m.begin = m.ids.get(super::BEGIN).copied().ok_or(super::BEGIN)?;
        m.end = m.ids.get(super::END).copied().ok_or(super::END)?;
        let added_unknown = !m.ids.contains_key(super::UNKNOWN);
        if added_unknown {
            let id = m.unigrams.len() as WordId;
            m.ids.insert(super::UNKNOWN.into(), id);
            m.unigrams.push(Entry { prob: Some(unknown_prob), backoff: 0.0 });
        }
        m.unknown = m.ids[super::UNKNOWN];
        Ok((self.model, added_unknown))
    }
}
