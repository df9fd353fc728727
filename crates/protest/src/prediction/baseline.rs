//! The shared tasks' language-model baseline (docs/pronoun-prediction.md, "The baseline and its
//! language model"): each line's placeholders are filled with every combination of candidate
//! words — the pair's pronouns, a few frequent other words, and nothing at all (`NONE`, whose
//! log probability gets the NONE penalty added) — and the sentence the model finds most
//! probable, from `<s>` to `</s>`, gives the predicted classes.
//!
//! The combinations grow exponentially with the placeholders of a line, but a model of order N
//! sees only N−1 words back: two partial sentences whose model states ([`State`]) agree give
//! every continuation the same score, so only the better one is kept (dynamic programming over
//! the placeholders). The result is exactly the best combination; ties go to the combination the
//! reference implementation lists first. (The reference, unlike this, keeps an arbitrary 200
//! combinations of a line with more than 5,000: three placeholders or more.)

use crate::error::Result;
use crate::prediction::classes::{Pair, Task};
use crate::prediction::data::{DataLine, DataSet, placeholder_index};
use crate::prediction::lm::{self, Model, State, WordId};
use crate::prediction::score::{Macro, Scores};
use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;

/// The NONE penalties `--tune` tries: 0 to −4 in steps of 0.5, as the task's organisers did.
pub const TUNING_GRID: [f32; 9] = [0.0, -0.5, -1.0, -1.5, -2.0, -2.5, -3.0, -3.5, -4.0];

/// The reference baseline's French pronouns, in its order, with the class each stands for.
const FRENCH_PRONOUNS: [(&str, &str); 9] = [
    ("il", "il"),
    ("elle", "elle"),
    ("ils", "ils"),
    ("elles", "elles"),
    ("c'", "ce"),
    ("ce", "ce"),
    ("ça", "ça"),
    ("cela", "cela"),
    ("on", "on"),
];

/// The reference baseline's French non-pronouns: words often aligned with an English pronoun.
const FRENCH_OTHERS: [&str; 22] = [
    "le",
    "l'",
    "se",
    "s'",
    "y",
    "en",
    "qui",
    "que",
    "qu'",
    "tout",
    "faire",
    "ont",
    "fait",
    "est",
    "parler",
    "comprendre",
    "chose",
    "choses",
    "ne",
    "pas",
    "dessus",
    "dedans",
];

/// For a target language without a built-in list: at most this many of the other words most
/// often removed at placeholders, as the task's organisers chose theirs.
const OTHERS_FROM_DATA: usize = 20;

/// The word written for an empty filler, and the class it stands for.
const NONE: &str = "NONE";
const OTHER: &str = "OTHER";

/// A candidate for a placeholder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filler {
    /// The word put in the sentence; `None` for nothing.
    pub word: Option<String>,
    /// The class it predicts: a class of the task's official evaluation.
    pub class: &'static str,
}

impl Filler {
    /// What the prediction file's second column says: the word, or `NONE`.
    pub fn shown(&self) -> &str {
        self.word.as_deref().unwrap_or(NONE)
    }
}

/// The candidates of a task, in the reference's order: pronouns, other words, nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fillers(pub Vec<Filler>);

impl Fillers {
    /// The reference baseline's candidates for a French target. For another target language:
    /// the pair's pronouns (its classes and the words they count) and `others`.
    pub fn for_task(task: Task, others: Option<&[String]>) -> Fillers {
        let classes = task.classes();
        let class = |word: &str| {
            let position = classes.class_of(word).expect("the task counts its own words");
            classes.classes[position]
        };
        let pronouns: Vec<(String, &'static str)> = if task.pair == Pair::EnFr {
            FRENCH_PRONOUNS.iter().map(|&(word, stands_for)| (word.to_owned(), class(stands_for))).collect()
        } else {
            classes.words().filter(|&w| w != NONE && class(w) != OTHER).map(|w| (w.to_owned(), class(w))).collect()
        };
        let others: Vec<String> = match others {
            Some(words) => words.to_vec(),
            None if task.pair == Pair::EnFr => FRENCH_OTHERS.iter().map(|w| w.to_string()).collect(),
            None => Vec::new(),
        };
        let other = class(OTHER);
        let fillers = pronouns
            .into_iter()
            .map(|(word, class)| Filler { word: Some(word), class })
            .chain(others.into_iter().map(|word| Filler { word: Some(word), class: other }))
            .chain([Filler { word: None, class: other }])
            .collect();
        Fillers(fillers)
    }

    /// Whether the task's target language has a built-in list of other words.
    pub fn has_built_in_others(task: Task) -> bool {
        task.pair == Pair::EnFr
    }
}

/// The other words most often removed at placeholders of class OTHER in `lines` (column 2),
/// most frequent first (ties in order of first appearance): how the task's organisers chose the
/// baseline's non-pronouns, "the most frequent items aligned with a pronoun".
pub fn frequent_other_words(task: Task, lines: &[DataLine]) -> Vec<String> {
    let classes = task.classes();
    let mut counts: Vec<(String, usize)> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::default();
    for line in lines {
        for (label, word) in line.labels.iter().zip(&line.words) {
            let is_other = classes.class_of(label).is_some_and(|c| classes.classes[c] == OTHER);
            if !is_other || word == NONE || classes.class_of(word).is_some() {
                continue;
            }
            match index.get(word.as_str()) {
                Some(&i) => counts[i].1 += 1,
                None => {
                    index.insert(word, counts.len());
                    counts.push((word.clone(), 1));
                }
            }
        }
    }
    // Stable: ties keep the order of first appearance.
    counts.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    counts.into_iter().filter(|(_, n)| *n >= 2).take(OTHERS_FROM_DATA).map(|(w, _)| w).collect()
}

/// The baseline with a model, candidates and a NONE penalty.
pub struct Baseline<'m> {
    model: &'m Model,
    fillers: &'m Fillers,
    /// Each filler's word in the model (`None`: nothing).
    ids: Vec<Option<WordId>>,
    none_penalty: f32,
    /// Read `lemma|TAG` tokens as `lemma` (the WMT 2016/17 data is lemmatised and tagged; the
    /// reference's `--removepos`).
    strip_tags: bool,
}

/// A partial sentence: its model state, log probability, NONE count and choices.
#[derive(Debug, Clone)]
struct Hypothesis {
    state: State,
    /// Summed in single precision word by word, as KenLM sums a sentence.
    log_prob: f32,
    nones: u32,
    /// Filler indices, one per placeholder so far.
    choices: Vec<u8>,
}

impl Hypothesis {
    fn score(&self, penalty: f32) -> f64 {
        f64::from(self.log_prob) + f64::from(self.nones) * f64::from(penalty)
    }

    /// Whether this is better than `other`, which has the same future: a higher score, or the
    /// same score and listed first by the reference (it lists the last placeholder's choice
    /// slowest).
    fn beats(&self, other: &Hypothesis, penalty: f32) -> bool {
        let (mine, theirs) = (self.score(penalty), other.score(penalty));
        mine > theirs || (mine == theirs && self.choices.iter().rev().lt(other.choices.iter().rev()))
    }
}

impl<'m> Baseline<'m> {
    pub fn new(model: &'m Model, fillers: &'m Fillers, none_penalty: f32, strip_tags: bool) -> Baseline<'m> {
        assert!(fillers.0.len() <= usize::from(u8::MAX), "a few dozen fillers at most");
        let ids = fillers.0.iter().map(|f| f.word.as_deref().map(|w| model.index(w))).collect();
        Baseline { model, fillers, ids, none_penalty, strip_tags }
    }

    /// The best filler for each placeholder of a target sentence (indices into the fillers).
    pub fn choose(&self, target: &str) -> Vec<usize> {
        let model = self.model;
        let mut hypotheses = vec![Hypothesis { state: model.begin(), log_prob: 0.0, nones: 0, choices: Vec::new() }];
        let mut merged: HashMap<State, usize> = HashMap::default();
        let mut next: Vec<Hypothesis> = Vec::new();
        for token in target.split(' ').filter(|t| !t.is_empty()) {
            next.clear();
            merged.clear();
            if placeholder_index(token).is_some() {
                for h in &hypotheses {
                    for (k, id) in self.ids.iter().enumerate() {
                        let mut choices = Vec::with_capacity(h.choices.len() + 1);
                        choices.extend_from_slice(&h.choices);
                        choices.push(k as u8);
                        let extended = match *id {
                            Some(word) => {
                                let (p, state) = model.score(&h.state, word);
                                Hypothesis { state, log_prob: h.log_prob + p, nones: h.nones, choices }
                            }
                            None => Hypothesis { state: h.state, log_prob: h.log_prob, nones: h.nones + 1, choices },
                        };
                        self.keep(&mut next, &mut merged, extended);
                    }
                }
            } else {
                let word = model.index(self.word_of(token));
                for h in hypotheses.drain(..) {
                    let (p, state) = model.score(&h.state, word);
                    self.keep(&mut next, &mut merged, Hypothesis { state, log_prob: h.log_prob + p, ..h });
                }
            }
            std::mem::swap(&mut hypotheses, &mut next);
        }
        let end = model.end_id();
        let mut best: Option<Hypothesis> = None;
        for h in hypotheses {
            let (p, state) = model.score(&h.state, end);
            let finished = Hypothesis { state, log_prob: h.log_prob + p, ..h };
            if best.as_ref().is_none_or(|b| finished.beats(b, self.none_penalty)) {
                best = Some(finished);
            }
        }
        best.expect("there is always a hypothesis").choices.into_iter().map(usize::from).collect()
    }

    /// Adds a hypothesis, or keeps the better of it and the one with the same state.
    fn keep(&self, kept: &mut Vec<Hypothesis>, merged: &mut HashMap<State, usize>, h: Hypothesis) {
        match merged.get(&h.state) {
            Some(&i) => {
                if h.beats(&kept[i], self.none_penalty) {
                    kept[i] = h;
                }
            }
            None => {
                merged.insert(h.state, kept.len());
                kept.push(h);
            }
        }
    }

    fn word_of<'t>(&self, token: &'t str) -> &'t str {
        if !self.strip_tags {
            return token;
        }
        match token.rsplit_once('|') {
            Some((lemma, tag))
                if !lemma.is_empty()
                    && !tag.is_empty()
                    && tag.chars().all(|c| c.is_ascii_alphabetic() || c == '.' || c == ':') =>
            {
                lemma
            }
            _ => token,
        }
    }

    /// The lines with the predicted classes in column 1 and the chosen words (or `NONE`) in
    /// column 2; lines without placeholders as they are.
    pub fn predict(&self, lines: &[DataLine]) -> Vec<DataLine> {
        lines
            .par_iter()
            .map(|line| {
                if line.placeholders().is_empty() {
                    return line.clone();
                }
                let chosen = self.choose(&line.target);
                let fillers = chosen.iter().map(|&k| &self.fillers.0[k]);
                DataLine {
                    labels: fillers.clone().map(|f| f.class.to_owned()).collect(),
                    words: fillers.map(|f| f.shown().to_owned()).collect(),
                    ..line.clone()
                }
            })
            .collect()
    }
}

/// How much of a data set's text the model has seen word for word: a model trained on the text
/// the set was made from fills its placeholders from memory, and scores far above what it would
/// on other text (docs/pronoun-prediction.md, "The baseline and its language model").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Seen {
    /// Lines with at least one n-gram of the model's order outside the placeholders.
    pub lines: usize,
    /// Of those, the lines every such n-gram of which the model lists.
    pub whole: usize,
}

impl Seen {
    /// Whether most of the text is in the model word for word: then it was, in all likelihood,
    /// trained on it.
    pub fn memorised(&self) -> bool {
        self.lines > 0 && 2 * self.whole >= self.lines
    }
}

impl Baseline<'_> {
    /// [`Seen`] for the target sentences of `lines`, read as the baseline reads them (from `<s>`
    /// to `</s>`, lemmas where tags are stripped), the n-grams that span a placeholder left out.
    pub fn seen(&self, lines: &[DataLine]) -> Seen {
        let order = self.model.order();
        let mut seen = Seen::default();
        for line in lines {
            let tokens = line.target.split(' ').filter(|t| !t.is_empty()).map(|t| self.word_of(t));
            let words: Vec<&str> = std::iter::once(lm::BEGIN).chain(tokens).chain([lm::END]).collect();
            let runs = words.split(|w| placeholder_index(w).is_some());
            let mut grams = runs.flat_map(|run| run.windows(order)).peekable();
            if grams.peek().is_none() {
                continue;
            }
            seen.lines += 1;
            seen.whole += usize::from(grams.all(|gram| self.model.lists(gram)));
        }
        seen
    }
}

/// One step of the grid search: a NONE penalty and the scores it gets on the development set.
#[derive(Debug, Clone)]
pub struct Step {
    pub penalty: f32,
    pub scores: Scores,
}

/// Runs the baseline on a development set with each penalty of [`TUNING_GRID`] and scores it as
/// the task's official scorer does. The best step is the one with the highest official score
/// (the first of equals: the penalty nearest 0).
pub fn tune(model: &Model, fillers: &Fillers, task: Task, strip_tags: bool, dev: &DataSet) -> Result<Vec<Step>> {
    TUNING_GRID
        .iter()
        .map(|&penalty| {
            let predicted = Baseline::new(model, fillers, penalty, strip_tags).predict(&dev.lines);
            let pairs = dev.lines.iter().zip(&predicted).map(|(g, p)| (g.labels.join(" "), p.labels.join(" ")));
            let scores = Scores::of_lines(task, Macro::All, (&dev.path, &dev.path), pairs)?;
            Ok(Step { penalty, scores })
        })
        .collect()
}

/// The best step of a grid search.
pub fn best(steps: &[Step]) -> Option<&Step> {
    steps.iter().fold(None, |best: Option<&Step>, step| match best {
        Some(b) if b.scores.official() >= step.scores.official() => Some(b),
        _ => Some(step),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prediction::classes::Scorer;
    use crate::prediction::lm::testing;

    fn en_fr() -> Task {
        Task::new(Scorer::Discomt2015, Pair::EnFr).unwrap()
    }

    fn chosen_words(baseline: &Baseline, fillers: &Fillers, target: &str) -> Vec<String> {
        baseline.choose(target).into_iter().map(|k| fillers.0[k].shown().to_owned()).collect()
    }

    #[test]
    fn the_french_candidates_are_the_reference_baselines() {
        let fillers = Fillers::for_task(en_fr(), None);
        assert_eq!(fillers.0.len(), 9 + 22 + 1);
        let shown: Vec<(&str, &str)> = fillers.0.iter().map(|f| (f.shown(), f.class)).collect();
        assert_eq!(
            &shown[..6],
            [("il", "il"), ("elle", "elle"), ("ils", "ils"), ("elles", "elles"), ("c'", "ce"), ("ce", "ce")]
        );
        assert_eq!(shown[6], ("ça", "ça"), "DiscoMT 2015 has a class ça");
        assert_eq!(shown[9], ("le", "OTHER"));
        assert_eq!(shown[31], ("NONE", "OTHER"));
        let wmt16 = Fillers::for_task(Task::new(Scorer::Wmt16, Pair::EnFr).unwrap(), None);
        assert_eq!((wmt16.0[6].shown(), wmt16.0[6].class), ("ça", "cela"), "WMT16 counts ça as cela");
        let en_de = Fillers::for_task(Task::new(Scorer::Wmt16, Pair::EnDe).unwrap(), Some(&["das".into()]));
        let shown: Vec<&str> = en_de.0.iter().map(|f| f.shown()).collect();
        assert_eq!(shown, ["er", "sie", "es", "man", "das", "NONE"]);
    }

    /// With the hand-made model: il est là −1.35, elle est là −1.5 (worked out in arpa.rs's
    /// tests and below), est là −2.5.
    #[test]
    fn the_most_probable_sentence_wins_and_the_penalty_weighs_on_none() {
        let model = testing::read(testing::HAND);
        let fillers = Fillers::for_task(en_fr(), None);
        let baseline = Baseline::new(&model, &fillers, 0.0, false);
        assert_eq!(chosen_words(&baseline, &fillers, "REPLACE_0 est là"), ["il"]);
        // est −0.9 + b(<s>) −0.5; est là −0.5; là </s> −0.45 + b(est là) −0.15: −2.5 against −1.35,
        // so NONE wins with a penalty above 1.15.
        let eager = Baseline::new(&model, &fillers, 1.14, false);
        assert_eq!(chosen_words(&eager, &fillers, "REPLACE_0 est là"), ["il"]);
        let eager = Baseline::new(&model, &fillers, 1.16, false);
        assert_eq!(chosen_words(&eager, &fillers, "REPLACE_0 est là"), ["NONE"]);
        // Two placeholders in a row: elle est, then nothing better than NONE before là.
        assert_eq!(chosen_words(&baseline, &fillers, "REPLACE_0 est REPLACE_3 là"), ["il", "NONE"]);
    }

    #[test]
    fn a_model_trained_on_the_sets_own_text_is_told_apart() {
        let model = testing::news(3);
        let fillers = Fillers::for_task(en_fr(), None);
        let baseline = Baseline::new(&model, &fillers, 0.0, false);
        // The model's own text, a word in each sentence replaced by a placeholder.
        let line = |target: String| DataLine { target, ..DataLine::default() };
        let placed = |sentence: &str| {
            let mut words: Vec<&str> = sentence.split(' ').collect();
            let at = words.len() / 2;
            let placeholder = format!("REPLACE_{at}");
            words[at] = &placeholder;
            line(words.join(" "))
        };
        let own: Vec<DataLine> = testing::NEWS.lines().take(40).map(placed).collect();
        let seen = baseline.seen(&own);
        assert!(seen.lines >= 30 && seen.whole == seen.lines, "{seen:?}");
        assert!(seen.memorised());
        // Other text: hardly a sentence of it.
        let other = [
            "Le chat dort sur le canapé depuis ce matin .",
            "Nous avons REPLACE_2 visité trois musées pendant les vacances d' été .",
            "La réunion du conseil municipal a été reportée à jeudi prochain .",
        ];
        let seen = baseline.seen(&other.map(|t| line(t.to_owned())));
        assert_eq!((seen.lines, seen.whole), (3, 0));
        assert!(!seen.memorised());
        // Too short for a trigram outside the placeholder: not counted either way.
        assert_eq!(baseline.seen(&[line("REPLACE_0 .".into())]), Seen::default());
    }

    /// Every combination scored as a whole sentence, in the reference's order, against the
    /// dynamic programme, on lines with two and three placeholders (adjacent ones too).
    #[test]
    fn the_best_combination_is_the_exhaustive_searchs() {
        let model = testing::news(3);
        let fillers = Fillers::for_task(en_fr(), None);
        let targets = [
            "REPLACE_0 est un trader perfide , mais REPLACE_7 a risqué des milliards .",
            "Selon la banque , REPLACE_4 REPLACE_5 ont dit que le trader a menti .",
            "REPLACE_0 dit que REPLACE_3 avait REPLACE_5 perdu .",
            "Mais REPLACE_1 .",
        ];
        for penalty in [0.0, -1.5] {
            let baseline = Baseline::new(&model, &fillers, penalty, false);
            for target in targets {
                assert_eq!(baseline.choose(target), exhaustive(&model, &fillers, penalty, target), "{target}");
            }
        }
    }

    fn exhaustive(model: &Model, fillers: &Fillers, penalty: f32, target: &str) -> Vec<usize> {
        let tokens: Vec<&str> = target.split(' ').collect();
        let slots = tokens.iter().filter(|t| placeholder_index(t).is_some()).count();
        let mut best: Option<(f64, Vec<usize>)> = None;
        // The reference lists the first placeholder's choice fastest.
        for n in 0..fillers.0.len().pow(slots as u32) {
            let choice: Vec<usize> = (0..slots).map(|i| n / fillers.0.len().pow(i as u32) % fillers.0.len()).collect();
            let mut next = choice.iter();
            let words: Vec<&str> = tokens
                .iter()
                .filter_map(|&t| match placeholder_index(t) {
                    Some(_) => fillers.0[*next.next().unwrap()].word.as_deref(),
                    None => Some(t),
                })
                .collect();
            let nones = choice.iter().filter(|&&k| fillers.0[k].word.is_none()).count();
            let score = f64::from(model.sentence(words)) + nones as f64 * f64::from(penalty);
            if best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, choice));
            }
        }
        best.unwrap().1
    }

    #[test]
    fn tags_are_stripped_from_lemmatised_tokens_only_when_asked() {
        let model = testing::read(testing::HAND);
        let fillers = Fillers::for_task(en_fr(), None);
        let tagged = Baseline::new(&model, &fillers, 0.0, true);
        assert_eq!(tagged.word_of("est|VER:pres"), "est");
        assert_eq!(tagged.word_of("|PUN"), "|PUN");
        assert_eq!(tagged.word_of("a|b|NOM"), "a|b");
        assert_eq!(tagged.word_of("x|1"), "x|1");
        assert_eq!(chosen_words(&tagged, &fillers, "REPLACE_0 est|VER:pres là|ADV"), ["il"]);
        assert_eq!(Baseline::new(&model, &fillers, 0.0, false).word_of("est|VER"), "est|VER");
    }

    #[test]
    fn other_words_are_the_most_frequent_removed_at_other_placeholders() {
        let line = |labels: &str, words: &str| DataLine {
            labels: labels.split(' ').map(String::from).collect(),
            words: words.split(' ').map(String::from).collect(),
            ..DataLine::default()
        };
        let task = Task::new(Scorer::Wmt16, Pair::EnDe).unwrap();
        let lines = [
            line("OTHER OTHER er", "das NONE er"),
            line("OTHER OTHER", "dies das"),
            line("OTHER sie OTHER", "dies sie es"),
            line("OTHER", "einmal"),
        ];
        // es is a class word; NONE is nothing; einmal is seen once.
        assert_eq!(frequent_other_words(task, &lines), ["das", "dies"]);
    }

    #[test]
    fn the_grid_search_keeps_the_first_of_equal_scores() {
        let model = testing::read(testing::HAND);
        let fillers = Fillers::for_task(en_fr(), None);
        let dev = DataSet {
            path: "dev.en-fr.data".into(),
            lines: vec![
                DataLine::parse("il\til\tIt is there .\tREPLACE_0 est là\t0-0 1-1 2-2", true).unwrap(),
                DataLine::parse("\t\tYes .\tOui .\t0-0 1-1", true).unwrap(),
            ],
            documents: None,
            documents_problem: None,
        };
        let steps = tune(&model, &fillers, en_fr(), false, &dev).unwrap();
        assert_eq!(steps.len(), 9);
        assert!(steps.iter().all(|s| s.scores.accuracy() == 100.0));
        assert_eq!(best(&steps).unwrap().penalty, 0.0);
    }
}
