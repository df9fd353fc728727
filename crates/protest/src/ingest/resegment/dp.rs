//! The monotone alignment of a stretch of output tokens to a run of source sentences: dynamic
//! programming over the token boundaries where each sentence's translation may end, with, for
//! every boundary it chose, how much worse the best alternative would have been.
//!
//! State `(r, p)`: the first `r` sentences have their translations and they end at token
//! position `p`. A sentence's translation is the tokens `a..b` (cost: [`Scores`]), nothing
//! (omitted), or shared with the next sentence (a merge the scores could not split); between two
//! sentences, a passage may be left out (text that translates no sentence). Every cost but the
//! words' is a function of the boundaries and of the length alone, and the length cost is
//! convex, so for each row the best start of every end is found by divide and conquer over
//! monotone minima (a Monge matrix) in `O(w log w)` for a row `w` positions wide, not `O(w²)`.
//!
//! Each row holds only the positions the previous rows can reach with a translation of plausible
//! length, from states that are not hopeless: within a beam of the row's best cost, and at most a
//! fixed width around it. Memory is linear in the number of sentences and tokens — a
//! 2,000-sentence document never needs a table of all its sentences by all its tokens. Should the
//! beam lose every path to the end, the search is repeated with a wider one, bounded too.
//!
//! Costs are in nats (negative log-likelihood ratios); the best path is found by a forward pass,
//! and the min-marginals of each boundary (the best path forced through another position) by a
//! backward pass over the same rows.

use std::ops::Range;

/// What the alignment needs to know about a stretch of output and its sentences.
pub(super) trait Scores {
    /// Tokens in the stretch.
    fn tokens(&self) -> usize;
    /// Source sentences to give translations to.
    fn sentences(&self) -> usize;
    /// A translation or a left-out passage ending at position `p` (`0 < p ≤ tokens`).
    fn end(&self, p: usize) -> f64;
    /// The translation of `sentence` ending at position `p`: [`Scores::end`] and what the
    /// sentence itself tells about its end.
    fn end_of(&self, sentence: usize, p: usize) -> f64 {
        let _ = sentence;
        self.end(p)
    }
    /// The cost of the line breaks before position `p` if each were inside a translation; a
    /// translation `a..b` pays `inside(b) − inside(a + 1)` for the line breaks it spans.
    fn inside(&self, p: usize) -> f64;
    /// The translation of `sentence` being empty, at position `p`.
    fn omit(&self, sentence: usize, p: usize) -> f64;
    /// The length cost of a translation of `sentences` (one sentence, or two merged).
    fn length(&self, sentences: Range<usize>) -> Length;
    /// The cost of a merge on top of its length and words.
    fn merge(&self) -> f64;
    /// A passage left out: `left_out_base + left_out_per_token × len`.
    fn left_out_base(&self) -> f64;
    fn left_out_per_token(&self) -> f64;
    /// Whether an odd number of quotation marks comes before position `p`.
    fn odd_quotes_before(&self, p: usize) -> bool {
        let _ = p;
        false
    }
    /// A translation of `sentences` with an odd number of quotation marks (`odd`) or an even
    /// one: what the source's count leads to expect. (Not decomposable over tokens, this is
    /// searched for with the starts of each parity apart.)
    fn quote_parity(&self, sentences: Range<usize>, odd: bool) -> f64 {
        let _ = (sentences, odd);
        0.0
    }
    /// Prefix sums of the word scores (rewards) of tokens `from..to` as translations of
    /// `sentences`: `out[k]` is the sum over tokens `from..from + k`, `k ≤ to − from`.
    fn words(&self, sentences: Range<usize>, from: usize, to: usize, out: &mut Vec<f64>);
}

/// A length cost `scale · (len − mean)²`: convex, as the search needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Length {
    pub mean: f64,
    pub scale: f64,
}

impl Length {
    #[inline]
    fn cost(self, len: usize) -> f64 {
        let d = len as f64 - self.mean;
        self.scale * d * d
    }

    /// The longest translation worth considering.
    fn longest(self) -> usize {
        (3.0 * self.mean + 30.0) as usize
    }
}

/// How a sentence got its translation on the best path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
    /// Its own tokens (possibly none at all: then omitted).
    Own,
    /// Together with the next sentence: this one holds both.
    Merged,
    /// Inside the previous sentence's merged translation.
    WithPrevious,
}

/// The best segmentation.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Path {
    /// Per sentence: its tokens and how it got them.
    pub sentences: Vec<(Range<usize>, Step)>,
    /// Passages given to no sentence.
    pub left_out: Vec<Range<usize>>,
    /// Per boundary between two sentences (`n − 1` of them): how much more the best segmentation
    /// ending the earlier sentence elsewhere costs; infinite when there is no other choice.
    pub margins: Vec<f64>,
}

/// How widely to search: states costing more than `beam` over their row's best are dropped, and
/// a row keeps at most `width` positions around its best.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Search {
    beam: f64,
    width: usize,
}

/// The searches tried in turn, each bounded: a row holds at most `width` positions around its
/// best state plus the longest translation worth considering from them, so memory grows with
/// the sentences and the output's tokens, never with their product.
const SEARCHES: [Search; 2] = [Search { beam: 30.0, width: 1024 }, Search { beam: 120.0, width: 4096 }];

/// The best segmentation of the stretch; `None` only if every search lost every path to the end
/// (which the search's shape rules out: omitting a sentence and leaving a passage out are always
/// possible, and the last row reaches the end).
pub(super) fn align(scores: &impl Scores) -> Option<Path> {
    SEARCHES.into_iter().find_map(|search| forward(scores, search)).map(|(rows, best)| backward(scores, &rows, best))
}

/// A backpointer: how the state was reached. Positions fit in 30 bits (the caller refuses
/// longer outputs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct From(u32);

const KIND_SHIFT: u32 = 30;
const POSITION: u32 = (1 << KIND_SHIFT) - 1;
const NOWHERE: u32 = u32::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Own,
    Omit,
    Merge,
}

impl From {
    const NONE: From = From(NOWHERE);
    fn new(kind: Kind, position: usize) -> From {
        From(((kind as u32) << KIND_SHIFT) | position as u32)
    }
    fn get(self) -> Option<(Kind, usize)> {
        let kind = match self.0 >> KIND_SHIFT {
            0 => Kind::Own,
            1 => Kind::Omit,
            2 => Kind::Merge,
            _ => return None,
        };
        Some((kind, (self.0 & POSITION) as usize))
    }
}

/// One row of the forward table.
struct Row {
    /// First position of the band.
    lo: usize,
    /// Best cost of each state before any left-out passage (`pre`), relative to `base`.
    pre: Vec<f32>,
    base: f64,
    from: Vec<From>,
    /// For states reached by leaving a passage out after the sentence: where the passage starts.
    left_out_from: Vec<u32>,
}

impl Row {
    fn positions(&self) -> Range<usize> {
        self.lo..self.lo + self.pre.len()
    }
    fn pre(&self, p: usize) -> f64 {
        match p.checked_sub(self.lo).and_then(|i| self.pre.get(i)) {
            Some(&v) => self.base + f64::from(v),
            None => f64::INFINITY,
        }
    }
}

/// Values over a band of positions.
struct Band {
    lo: usize,
    values: Vec<f64>,
}

impl Band {
    fn infinite(positions: Range<usize>) -> Band {
        Band { lo: positions.start, values: vec![f64::INFINITY; positions.len()] }
    }
    fn get(&self, p: usize) -> f64 {
        p.checked_sub(self.lo).and_then(|i| self.values.get(i)).copied().unwrap_or(f64::INFINITY)
    }
    fn positions(&self) -> Range<usize> {
        self.lo..self.lo + self.values.len()
    }
    /// The finite positions' span.
    fn finite(&self) -> Option<Range<usize>> {
        let first = self.values.iter().position(|v| v.is_finite())?;
        let last = self.values.iter().rposition(|v| v.is_finite())?;
        Some(self.lo + first..self.lo + last + 1)
    }
    fn argmin(&self) -> Option<usize> {
        let (i, v) = self.values.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1))?;
        v.is_finite().then_some(self.lo + i)
    }

    /// Drops the states that are hopeless: beyond the beam, or too far from the best.
    fn prune(&mut self, search: Search) {
        let Some(best) = self.argmin() else { return };
        let limit = self.get(best) + search.beam;
        let half = search.width / 2;
        for (i, v) in self.values.iter_mut().enumerate() {
            let p = self.lo + i;
            if *v > limit || p + half < best || p > best.saturating_add(half) {
                *v = f64::INFINITY;
            }
        }
    }
}

/// The forward table (rows `0..=n`) and the best cost; `None` if the search lost every path to
/// the end.
fn forward(scores: &impl Scores, search: Search) -> Option<(Vec<Row>, f64)> {
    let (n, t) = (scores.sentences(), scores.tokens());
    let mut rows: Vec<Row> = Vec::with_capacity(n + 1);
    // The best costs after any left-out passage, for the last two rows.
    let mut post: Vec<Band> = Vec::with_capacity(n + 1);
    let mut words = Vec::new();
    for r in 0..=n {
        let positions = if r == 0 {
            0..t.min(search.width) + 1
        } else {
            let reach = |before: &Band, sentences: Range<usize>| {
                let span = before.finite()?;
                Some((span.start, span.end - 1 + scores.length(sentences).longest()))
            };
            let own = reach(&post[r - 1], r - 1..r);
            let merged = if r >= 2 { reach(&post[r - 2], r - 2..r) } else { None };
            let (lo, hi) = match (own, merged) {
                (Some(a), Some(b)) => (a.0.min(b.0), a.1.max(b.1)),
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => return None,
            };
            let hi = if r == n { t } else { hi.min(t) };
            lo.min(hi)..hi + 1
        };
        let mut pre = Band::infinite(positions.clone());
        let mut from = vec![From::NONE; positions.len()];
        if r == 0 {
            pre.values[0] = 0.0;
        } else {
            let sentence = r - 1;
            let before = &post[r - 1];
            own(scores, sentence..r, before, &mut pre, &mut from, Kind::Own, &mut words);
            for p in positions.clone() {
                let cost = before.get(p) + scores.omit(sentence, p);
                if cost < pre.get(p) {
                    pre.values[p - pre.lo] = cost;
                    from[p - pre.lo] = From::new(Kind::Omit, p);
                }
            }
            if r >= 2 {
                own(scores, r - 2..r, &post[r - 2], &mut pre, &mut from, Kind::Merge, &mut words);
            }
        }
        let (mut after, left_out_from) = leave_out(scores, &pre);
        after.prune(search);
        let base = pre.values.iter().copied().filter(|v| v.is_finite()).fold(f64::INFINITY, f64::min);
        let base = if base.is_finite() { base } else { 0.0 };
        rows.push(Row {
            lo: positions.start,
            pre: pre.values.iter().map(|&v| (v - base) as f32).collect(),
            base,
            from,
            left_out_from,
        });
        post.push(after);
        if r >= 2 {
            post[r - 2] = Band { lo: 0, values: Vec::new() }; // no longer needed
        }
    }
    let best = post[n].get(t);
    best.is_finite().then_some((rows, best))
}

/// The word scores of `sentences` as prefix sums (kept in `words`) over every position of
/// `starts` and `ends`, as a function of the position; `None` when no translation can go from one
/// of `starts` to one of `ends`.
fn word_sums<'w>(
    scores: &impl Scores,
    sentences: &Range<usize>,
    starts: &Range<usize>,
    ends: &Range<usize>,
    words: &'w mut Vec<f64>,
) -> Option<impl Fn(usize) -> f64 + 'w> {
    if ends.end <= starts.start + 1 {
        return None;
    }
    let from = starts.start.min(ends.start);
    let to = starts.end.max(ends.end) - 1;
    scores.words(sentences.clone(), from, to, words);
    let words = &*words;
    Some(move |p: usize| words[p - from])
}

/// Fills `pre` with the best way of giving `sentences` (one, or two merged) the tokens from a
/// state of `before` to each position, if better than what it holds.
fn own(
    scores: &impl Scores,
    sentences: Range<usize>,
    before: &Band,
    pre: &mut Band,
    from: &mut [From],
    kind: Kind,
    words: &mut Vec<f64>,
) {
    let Some(starts) = before.finite() else { return };
    let ends = pre.positions();
    let last = sentences.end - 1;
    let Some(w) = word_sums(scores, &sentences, &starts, &ends, words) else { return };
    let extra = if kind == Kind::Merge { scores.merge() } else { 0.0 };
    // Start values: G(a) = F(a) − inside(a + 1) + W(a).
    let g: Vec<f64> = starts.clone().map(|a| before.get(a) - scores.inside(a + 1) + w(a)).collect();
    let rows = (starts.start + 1).max(ends.start)..ends.end;
    if rows.is_empty() {
        return;
    }
    let lo = starts.start;
    let length = scores.length(sentences.clone());
    let longest = length.longest();
    let best = by_quote_parity(
        scores,
        &sentences,
        (rows.clone(), starts.clone()),
        |b| lo.max(b.saturating_sub(longest))..b.min(starts.end),
        |b, a| g[a - lo] + length.cost(b - a),
    );
    for (b, (value, a)) in rows.zip(best) {
        if a == NOWHERE {
            continue;
        }
        let cost = value + extra + scores.end_of(last, b) + scores.inside(b) - w(b);
        if cost < pre.get(b) {
            pre.values[b - pre.lo] = cost;
            from[b - pre.lo] = From::new(kind, a as usize);
        }
    }
}

/// [`row_minima`] of `value` for each row of `rows` (ends, or starts in the backward pass) over the
/// positions of `columns` with its allowed ones, plus what the number of quotation marks between
/// the row and the column costs ([`Scores::quote_parity`]). That is not a function of the
/// distance, so the columns of each parity are searched apart (each set on its own is still a
/// Monge array) and the better taken.
fn by_quote_parity(
    scores: &impl Scores,
    sentences: &Range<usize>,
    (rows, columns): (Range<usize>, Range<usize>),
    allowed: impl Fn(usize) -> Range<usize>,
    value: impl Fn(usize, usize) -> f64,
) -> Vec<(f64, u32)> {
    let odd = |p: usize| scores.odd_quotes_before(p);
    let mut best = vec![(f64::INFINITY, NOWHERE); rows.len()];
    let mut found = vec![(f64::INFINITY, NOWHERE); rows.len()];
    for &parity in parities(columns.clone().map(odd)) {
        let of_parity: Vec<bool> = columns.clone().map(|x| odd(x) == parity).collect();
        let lo = columns.start;
        row_minima(
            rows.clone(),
            &allowed,
            |y, x| if of_parity[x - lo] { value(y, x) } else { f64::INFINITY },
            &mut found,
        );
        for ((y, f), best) in rows.clone().zip(&found).zip(&mut best) {
            let cost = f.0 + scores.quote_parity(sentences.clone(), odd(y) != parity);
            if f.1 != NOWHERE && cost < best.0 {
                *best = (cost, f.1);
            }
        }
    }
    best
}

/// The quotation-mark parities among some positions.
fn parities(mut odd: impl Iterator<Item = bool>) -> &'static [bool] {
    match odd.next() {
        None => &[],
        Some(first) if odd.all(|o| o == first) => {
            if first {
                &[true]
            } else {
                &[false]
            }
        }
        Some(_) => &[false, true],
    }
}

/// The best costs once a passage may be left out after the sentence, and where each such
/// passage starts (`NOWHERE`: none).
fn leave_out(scores: &impl Scores, pre: &Band) -> (Band, Vec<u32>) {
    let (base, per) = (scores.left_out_base(), scores.left_out_per_token());
    let mut after = Band { lo: pre.lo, values: pre.values.clone() };
    let mut starts = vec![NOWHERE; pre.values.len()];
    // min over a < b of pre(a) − inside(a + 1) − per·a, carried along.
    let mut best = (f64::INFINITY, NOWHERE);
    for b in pre.positions() {
        if best.0.is_finite() && b > 0 {
            let cost = best.0 + base + per * b as f64 + scores.end(b) + scores.inside(b);
            if cost < after.get(b) {
                after.values[b - pre.lo] = cost;
                starts[b - pre.lo] = best.1;
            }
        }
        let here = pre.get(b) - scores.inside(b + 1) - per * b as f64;
        if here < best.0 {
            best = (here, b as u32);
        }
    }
    (after, starts)
}

/// The path from the table, and the margins of its boundaries from a backward pass.
fn backward(scores: &impl Scores, rows: &[Row], best: f64) -> Path {
    let (n, t) = (scores.sentences(), scores.tokens());
    // Positions where each sentence's translation ends (pre) and the next one starts (post).
    let mut pre_at = vec![None; n + 1];
    let mut post_at = vec![0; n + 1];
    let mut steps = vec![Step::Own; n];
    let mut left_out = Vec::new();
    let (mut r, mut p) = (n, t);
    loop {
        let row = &rows[r];
        post_at[r] = p;
        let start = row.left_out_from[p - row.lo];
        if start != NOWHERE {
            left_out.push(start as usize..p);
            p = start as usize;
        }
        pre_at[r] = Some(p);
        match row.from[p - row.lo].get() {
            None => break,
            Some((Kind::Own | Kind::Omit, a)) => (r, p) = (r - 1, a),
            Some((Kind::Merge, a)) => {
                steps[r - 2] = Step::Merged;
                steps[r - 1] = Step::WithPrevious;
                post_at[r - 1] = p;
                (r, p) = (r - 2, a);
            }
        }
    }
    left_out.reverse();
    let sentences: Vec<(Range<usize>, Step)> = (0..n)
        .map(|s| match steps[s] {
            Step::Own => (post_at[s]..pre_at[s + 1].unwrap_or(post_at[s]), Step::Own),
            Step::Merged => (post_at[s]..pre_at[s + 2].unwrap_or(post_at[s]), Step::Merged),
            Step::WithPrevious => (post_at[s]..post_at[s], Step::WithPrevious),
        })
        .collect();
    let margins = margins(scores, rows, &pre_at, best);
    Path { sentences, left_out, margins }
}

/// The backward pass: for each boundary between two sentences on the path, the best cost of a
/// path ending the earlier sentence at another position, less the best.
fn margins(scores: &impl Scores, rows: &[Row], pre_at: &[Option<usize>], best: f64) -> Vec<f64> {
    let (n, t) = (scores.sentences(), scores.tokens());
    let mut margins = vec![f64::INFINITY; n.saturating_sub(1)];
    // Backward costs from the states before a left-out passage, for the next two rows.
    let mut later: Vec<Band> = Vec::new();
    let mut words = Vec::new();
    let mut optimum = f64::INFINITY;
    for r in (0..=n).rev() {
        let row = &rows[r];
        let positions = row.positions();
        // After the passage: at the last row only the end; otherwise the next sentence follows.
        let mut after = Band::infinite(positions.clone());
        if r == n {
            after.values[t - row.lo] = 0.0;
        } else {
            let next = &later[0];
            for p in positions.clone() {
                let cost = scores.omit(r, p) + next.get(p);
                if cost < after.get(p) {
                    after.values[p - row.lo] = cost;
                }
            }
            own_backward(scores, r..r + 1, next, &mut after, 0.0, &mut words);
            if let Some(two_on) = later.get(1) {
                own_backward(scores, r..r + 2, two_on, &mut after, scores.merge(), &mut words);
            }
        }
        let before = leave_out_backward(scores, &after);
        if r == 0 {
            optimum = before.get(0);
        }
        // The min-marginals of the boundary after sentence r − 1.
        if (1..n).contains(&r)
            && let Some(chosen) = pre_at[r]
        {
            let other = positions
                .clone()
                .filter(|&p| p != chosen)
                .map(|p| row.pre(p) + before.get(p))
                .fold(f64::INFINITY, f64::min);
            margins[r - 1] = other - best;
        }
        later.insert(0, before);
        later.truncate(2);
    }
    debug_assert!((optimum - best).abs() <= 1e-6 * best.abs().max(1.0) || !best.is_finite(), "{optimum} ≠ {best}");
    margins
}

/// [`own`] backwards: the best cost from each state of `after`'s band on, giving `sentences` the
/// tokens up to a state of `next`.
fn own_backward(
    scores: &impl Scores,
    sentences: Range<usize>,
    next: &Band,
    after: &mut Band,
    extra: f64,
    words: &mut Vec<f64>,
) {
    let Some(ends) = next.finite() else { return };
    let starts = after.positions();
    let last = sentences.end - 1;
    let Some(w) = word_sums(scores, &sentences, &starts, &ends, words) else { return };
    // H(b) = end(b) + inside(b) − W(b) + B(b).
    // (No translation of any length ends at 0.)
    let h: Vec<f64> = ends
        .clone()
        .map(|b| if b == 0 { f64::INFINITY } else { scores.end_of(last, b) + scores.inside(b) - w(b) + next.get(b) })
        .collect();
    let rows = starts.start..starts.end.min(ends.end - 1);
    if rows.is_empty() {
        return;
    }
    let lo = ends.start;
    let length = scores.length(sentences.clone());
    let longest = length.longest();
    let best = by_quote_parity(
        scores,
        &sentences,
        (rows.clone(), ends.clone()),
        |a| (a + 1).max(lo)..ends.end.min(a + longest + 1),
        |a, b| h[b - lo] + length.cost(b - a),
    );
    for (a, (value, b)) in rows.zip(best) {
        if b == NOWHERE {
            continue;
        }
        let cost = value + extra - scores.inside(a + 1) + w(a);
        if cost < after.get(a) {
            after.values[a - after.lo] = cost;
        }
    }
}

/// [`leave_out`] backwards: the best cost from each state before a passage that may be left out.
fn leave_out_backward(scores: &impl Scores, after: &Band) -> Band {
    let (base, per) = (scores.left_out_base(), scores.left_out_per_token());
    let mut before = Band { lo: after.lo, values: after.values.clone() };
    // min over b > a of after(b) + end(b) + inside(b) + per·b, carried from the right.
    let mut best = f64::INFINITY;
    for a in after.positions().rev() {
        if best.is_finite() {
            let cost = best + base - per * a as f64 - scores.inside(a + 1);
            if cost < before.get(a) {
                before.values[a - after.lo] = cost;
            }
        }
        if a > 0 {
            best = best.min(after.get(a) + scores.end(a) + scores.inside(a) + per * a as f64);
        }
    }
    before
}

/// For each row `y` of `rows`, the least `value(y, x)` over `x` in `columns(y)` and where it is
/// (`NOWHERE` if all are infinite), into `out`. `value` must be a Monge array on the columns where
/// it is finite (a column is either finite where allowed or infinite throughout), and both ends
/// of `columns(y)` must not decrease with `y`: the leftmost minimum then does not move left as
/// `y` grows, and divide and conquer finds all of them in `O((rows + columns) log rows)`.
fn row_minima<C, V>(rows: Range<usize>, columns: C, value: V, out: &mut [(f64, u32)])
where
    C: Fn(usize) -> Range<usize>,
    V: Fn(usize, usize) -> f64,
{
    fn solve<C, V>(
        rows: Range<usize>,
        first: usize,
        within: Range<usize>,
        columns: &C,
        value: &V,
        out: &mut [(f64, u32)],
    ) where
        C: Fn(usize) -> Range<usize>,
        V: Fn(usize, usize) -> f64,
    {
        if rows.is_empty() {
            return;
        }
        let mid = rows.start + rows.len() / 2;
        let allowed = columns(mid);
        let mut best = (f64::INFINITY, NOWHERE);
        for x in allowed.start.max(within.start)..allowed.end.min(within.end) {
            let v = value(mid, x);
            if v < best.0 {
                best = (v, x as u32);
            }
        }
        out[mid - first] = best;
        if best.1 == NOWHERE {
            // Nothing finite here: no bound on the others' minima from this row.
            solve(rows.start..mid, first, within.clone(), columns, value, out);
            solve(mid + 1..rows.end, first, within, columns, value, out);
        } else {
            let x = best.1 as usize;
            solve(rows.start..mid, first, within.start..x + 1, columns, value, out);
            solve(mid + 1..rows.end, first, x..within.end, columns, value, out);
        }
    }
    let start = rows.clone().map(|y| columns(y).start).min().unwrap_or(0);
    let end = rows.clone().map(|y| columns(y).end).max().unwrap_or(0);
    solve(rows.clone(), rows.start, start..end, &columns, &value, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy model: each token is the number of the sentence it belongs to, boundaries are free at
    /// line breaks, lengths are expected as given.
    struct Toy {
        tokens: Vec<usize>,
        lengths: Vec<f64>,
        breaks: Vec<bool>,
        /// Line breaks before each position.
        before: Vec<usize>,
        merge: f64,
    }

    impl Scores for Toy {
        fn tokens(&self) -> usize {
            self.tokens.len()
        }
        fn sentences(&self) -> usize {
            self.lengths.len()
        }
        fn end(&self, p: usize) -> f64 {
            if p == self.tokens.len() || self.breaks[p] { 0.0 } else { 4.0 }
        }
        fn inside(&self, p: usize) -> f64 {
            self.before[p.min(self.tokens.len())] as f64 * 3.0
        }
        fn omit(&self, _: usize, _: usize) -> f64 {
            9.0
        }
        fn length(&self, sentences: Range<usize>) -> Length {
            let mean: f64 = self.lengths[sentences].iter().sum();
            Length { mean, scale: 1.0 / (2.0 * 0.5 * mean) }
        }
        fn merge(&self) -> f64 {
            self.merge
        }
        fn left_out_base(&self) -> f64 {
            6.0
        }
        fn left_out_per_token(&self) -> f64 {
            0.0
        }
        fn words(&self, sentences: Range<usize>, from: usize, to: usize, out: &mut Vec<f64>) {
            out.clear();
            out.push(0.0);
            let mut sum = 0.0;
            for &w in &self.tokens[from..to] {
                sum += if sentences.contains(&w) { 2.0 } else { -2.0 };
                out.push(sum);
            }
        }
    }

    fn toy(tokens: &[usize], lengths: &[f64], breaks_at: &[usize]) -> Toy {
        let mut breaks = vec![false; tokens.len() + 1];
        for &b in breaks_at {
            breaks[b] = true;
        }
        // Breaks strictly inside the stretch (0 < q < p).
        let before = (0..=tokens.len()).map(|p| (1..p).filter(|&q| breaks[q]).count()).collect();
        Toy { tokens: tokens.to_vec(), lengths: lengths.to_vec(), breaks, before, merge: 20.0 }
    }

    fn ranges(path: &Path) -> Vec<Range<usize>> {
        path.sentences.iter().map(|(r, _)| r.clone()).collect()
    }

    #[test]
    fn row_minima_agree_with_a_full_search() {
        let g = [3.0, f64::INFINITY, 1.0, 5.0, 0.5, 2.0, f64::INFINITY, 4.0];
        let f = |d: usize| (d as f64 - 3.0).powi(2);
        let rows = 1..12;
        let mut out = vec![(0.0, 0); rows.len()];
        row_minima(rows.clone(), |y| 0..y.min(g.len()), |y, x| g[x] + f(y - x), &mut out);
        for (y, got) in rows.zip(out) {
            let expected = (0..y.min(g.len())).map(|x| (g[x] + f(y - x), x)).filter(|v| v.0.is_finite());
            let expected = expected.min_by(|a, b| a.0.total_cmp(&b.0)).map_or(NOWHERE, |(_, x)| x as u32);
            assert_eq!(got.1, expected, "row {y}");
        }
    }

    #[test]
    fn follows_the_words_across_line_breaks() {
        // Three sentences; the output merged the first two on one line and split the third.
        let t = toy(&[0, 0, 0, 1, 1, 1, 2, 2, 2], &[3.0, 3.0, 3.0], &[6, 8]);
        let path = align(&t).unwrap();
        assert_eq!(ranges(&path), [0..3, 3..6, 6..9]);
        assert!(path.left_out.is_empty());
        assert!(path.margins.iter().all(|&m| m > 3.0), "{:?}", path.margins);
    }

    #[test]
    fn leaves_out_text_of_no_sentence_and_omits_sentences_with_none() {
        let t = toy(&[9, 9, 9, 9, 0, 0, 0, 2, 2, 2], &[3.0, 3.0, 3.0], &[4, 7]);
        let path = align(&t).unwrap();
        assert_eq!(ranges(&path), [4..7, 7..7, 7..10]);
        assert_eq!(path.left_out, vec![0..4]);
    }

    #[test]
    fn a_close_alternative_leaves_a_small_margin() {
        // A token that fits neither sentence between them, and no line break there: it may end the
        // first sentence or start the second at nearly the same cost.
        let t = toy(&[0, 0, 0, 7, 1, 1, 1], &[3.5, 3.5], &[]);
        let path = align(&t).unwrap();
        assert!(path.margins[0] < 1.0, "{:?}", path.margins);
        let clear = align(&toy(&[0, 0, 0, 1, 1, 1], &[3.0, 3.0], &[])).unwrap();
        assert!(clear.margins[0] > 3.0, "{:?}", clear.margins);
    }

    #[test]
    fn a_beam_finds_what_the_whole_table_finds() {
        // 400 sentences of 3 tokens, every fifth line break missing and an extra line in the middle.
        let n = 400;
        let mut tokens = Vec::new();
        let mut breaks = Vec::new();
        for s in 0..n {
            if s == 150 {
                tokens.extend([999; 3]);
                breaks.push(tokens.len());
            }
            tokens.extend([s, s, s]);
            if s % 5 != 0 {
                breaks.push(tokens.len());
            }
        }
        let t = toy(&tokens, &vec![3.0; n], &breaks);
        let (table, best) = forward(&t, Search { beam: 30.0, width: 32 }).unwrap();
        let banded = backward(&t, &table, best);
        assert!(table.iter().all(|row| row.pre.len() < 80), "narrow rows");
        let (table, best) = forward(&t, Search { beam: f64::INFINITY, width: usize::MAX }).unwrap();
        let full = backward(&t, &table, best);
        assert_eq!((&banded.sentences, &banded.left_out), (&full.sentences, &full.left_out));
        assert_eq!(full.left_out, vec![450..453]);
        assert_eq!(full.sentences[150].0, 453..456);
        for (b, f) in banded.margins.iter().zip(&full.margins) {
            assert!((b - f).abs() < 1e-3, "{b} {f}");
        }
    }

    #[test]
    fn a_merge_that_cannot_be_split_is_one_translation() {
        // The first two sentences' tokens interleave on one line: no boundary between them fits.
        let mut t = toy(&[0, 1, 0, 1, 0, 1, 2, 2, 2], &[3.0, 3.0, 3.0], &[6]);
        t.merge = 2.0;
        let path = align(&t).unwrap();
        assert_eq!(path.sentences, [(0..6, Step::Merged), (6..6, Step::WithPrevious), (6..9, Step::Own)]);
        t.merge = 40.0;
        assert_eq!(align(&t).unwrap().sentences[1].1, Step::Own);
    }
}
