//! The orders in which APT's reference implementation (Python 2.7 with numpy) happens to list
//! things, reproduced so that our `.score` files match its files line for line.
//!
//! Three places of the reference depend on an implementation detail rather than on a rule:
//!
//! - without a target pronoun list, the categories are `list(set_of_words)`: the slot order of a
//!   CPython 2.7 hash table, which follows from the string hash and the insertion history;
//! - with `counting_multiword_in_matrix: false`, a translation with several words enters the
//!   confusion matrix under the *first* member of a set of category indices, again in slot order;
//! - the matrix rows are ordered by `numpy.argsort(diagonal)` reversed, and numpy's quicksort is
//!   not stable, so categories with equal counts come out in an order only its algorithm knows.
//!
//! [`PySet`] replays CPython 2.7's set table (`Objects/setobject.c`: open addressing with perturbed
//! probing, resizing at two thirds full) and [`numpy_argsort`] replays numpy's introsort for
//! integer keys. Neither needs to be fast: they run on a few hundred categories at most.

/// Hash of a Python 2 `unicode` string on a 64-bit wide-unicode build (the usual Linux build):
/// FNV-like over code points, without hash randomisation (off by default in Python 2.7).
pub fn py2_hash_str(s: &str) -> i64 {
    let mut chars = s.chars().peekable();
    let Some(&first) = chars.peek() else { return 0 };
    let mut x: i64 = (first as i64) << 7;
    let mut len: i64 = 0;
    for c in chars {
        x = x.wrapping_mul(1_000_003) ^ c as i64;
        len += 1;
    }
    x ^= len;
    if x == -1 { -2 } else { x }
}

/// Hash of a Python 2 `int`: the value itself, except that −1 is reserved for errors.
pub fn py2_hash_int(i: i64) -> i64 {
    if i == -1 { -2 } else { i }
}

const MIN_SIZE: usize = 8;
const PERTURB_SHIFT: u32 = 5;

/// A CPython 2.7 `set`, kept only for its iteration order. No element is ever removed, so there
/// are no dummy slots.
#[derive(Debug, Clone)]
pub struct PySet<K> {
    table: Vec<Option<(K, i64)>>,
    fill: usize,
}

impl<K: Clone + PartialEq> Default for PySet<K> {
    fn default() -> Self {
        PySet { table: vec![None; MIN_SIZE], fill: 0 }
    }
}

impl<K: Clone + PartialEq> PySet<K> {
    /// `set(items)`: each item added in turn.
    pub fn from_items(items: impl IntoIterator<Item = (K, i64)>) -> Self {
        let mut set = PySet::default();
        for (key, hash) in items {
            set.add(key, hash);
        }
        set
    }

    pub fn len(&self) -> usize {
        self.fill
    }

    pub fn is_empty(&self) -> bool {
        self.fill == 0
    }

    /// The elements in iteration order, with their hashes.
    pub fn entries(&self) -> impl Iterator<Item = &(K, i64)> {
        self.table.iter().flatten()
    }

    /// The elements in iteration order.
    pub fn iter(&self) -> impl Iterator<Item = &K> {
        self.entries().map(|(k, _)| k)
    }

    pub fn contains(&self, key: &K, hash: i64) -> bool {
        self.table[self.slot(key, hash)].is_some()
    }

    /// `set.add`: insert, then grow the table once it is two thirds full (`set_add_key`).
    pub fn add(&mut self, key: K, hash: i64) {
        if self.insert(key, hash) && self.fill * 3 >= self.table.len() * 2 {
            let used = self.fill;
            self.resize(if used > 50_000 { used * 2 } else { used * 4 });
        }
    }

    /// `set.update(other_set)` (`set_merge`): one resize up front, then the other's elements in
    /// its slot order.
    pub fn merge(&mut self, other: &PySet<K>) {
        if other.is_empty() {
            return;
        }
        if (self.fill + other.fill) * 3 >= self.table.len() * 2 {
            self.resize((self.fill + other.fill) * 2);
        }
        for (key, hash) in other.entries() {
            self.insert(key.clone(), *hash);
        }
    }

    /// `a | b` as `a.union(b)`: a copy of `a` (itself a merge into an empty set), merged with `b`.
    pub fn union(&self, other: &PySet<K>) -> PySet<K> {
        let mut result = PySet::default();
        result.merge(self);
        result.merge(other);
        result
    }

    /// `a & b` (`set_intersection`): walks the smaller set, adding what the larger contains.
    pub fn intersection(&self, other: &PySet<K>) -> PySet<K> {
        let (large, small) = if other.len() > self.len() { (other, self) } else { (self, other) };
        let mut result = PySet::default();
        for (key, hash) in small.entries() {
            if large.contains(key, *hash) {
                result.add(key.clone(), *hash);
            }
        }
        result
    }

    /// `a - b` (`set_difference`): walks `a`, adding what `b` does not contain.
    pub fn difference(&self, other: &PySet<K>) -> PySet<K> {
        let mut result = PySet::default();
        for (key, hash) in self.entries() {
            if !other.contains(key, *hash) {
                result.add(key.clone(), *hash);
            }
        }
        result
    }

    /// Places a key unless it is there already; true if it was placed.
    fn insert(&mut self, key: K, hash: i64) -> bool {
        let slot = self.slot(&key, hash);
        if self.table[slot].is_some() {
            return false;
        }
        self.table[slot] = Some((key, hash));
        self.fill += 1;
        true
    }

    /// The slot holding `key`, or the empty slot where it would go (`set_lookkey`).
    fn slot(&self, key: &K, hash: i64) -> usize {
        let mask = self.table.len() - 1;
        let mut i = hash as u64 as usize;
        let mut perturb = hash as u64;
        loop {
            match &self.table[i & mask] {
                None => return i & mask,
                Some((k, h)) if *h == hash && k == key => return i & mask,
                Some(_) => {}
            }
            i = (i << 2).wrapping_add(i).wrapping_add(perturb as usize).wrapping_add(1);
            perturb >>= PERTURB_SHIFT;
        }
    }

    /// `set_table_resize`: the smallest power of two above `min_used`, refilled in old slot order.
    fn resize(&mut self, min_used: usize) {
        let mut size = MIN_SIZE;
        while size <= min_used {
            size <<= 1;
        }
        let old = std::mem::replace(&mut self.table, vec![None; size]);
        self.fill = 0;
        for (key, hash) in old.into_iter().flatten() {
            self.insert(key, hash);
        }
    }
}

/// numpy's `argsort` of integers with its default `quicksort` kind (an introsort: median-of-three
/// quicksort down to 16 elements, then insertion sort). Not stable; that is the point.
///
/// numpy falls back to heapsort after 2·log₂(n) unbalanced partitions; with median-of-three
/// pivots that cannot happen for the few hundred categories sorted here, so it is left out.
pub fn numpy_argsort(values: &[u64]) -> Vec<usize> {
    const SMALL: usize = 15;
    let v = |i: usize| values[i];
    let mut order: Vec<usize> = (0..values.len()).collect();
    if order.len() < 2 {
        return order;
    }
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let (mut pl, mut pr) = (0usize, order.len() - 1);
    loop {
        while pr - pl > SMALL {
            let pm = pl + ((pr - pl) >> 1);
            if v(order[pm]) < v(order[pl]) {
                order.swap(pm, pl);
            }
            if v(order[pr]) < v(order[pm]) {
                order.swap(pr, pm);
            }
            if v(order[pm]) < v(order[pl]) {
                order.swap(pm, pl);
            }
            let pivot = v(order[pm]);
            let (mut pi, mut pj) = (pl, pr - 1);
            order.swap(pm, pj);
            loop {
                pi += 1;
                while v(order[pi]) < pivot {
                    pi += 1;
                }
                pj -= 1;
                while pivot < v(order[pj]) {
                    pj -= 1;
                }
                if pi >= pj {
                    break;
                }
                order.swap(pi, pj);
            }
            order.swap(pi, pr - 1);
            // The larger part waits on the stack; the loop goes on with the smaller.
            if pi - pl < pr - pi {
                stack.push((pi + 1, pr));
                pr = pi - 1;
            } else {
                stack.push((pl, pi - 1));
                pl = pi + 1;
            }
        }
        for i in pl + 1..=pr {
            let item = order[i];
            let mut j = i;
            while j > pl && v(item) < v(order[j - 1]) {
                order[j] = order[j - 1];
                j -= 1;
            }
            order[j] = item;
        }
        match stack.pop() {
            Some((l, r)) => (pl, pr) = (l, r),
            None => return order,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(set: &PySet<String>) -> Vec<&str> {
        set.iter().map(String::as_str).collect()
    }

    fn str_set(items: &[&str]) -> PySet<String> {
        PySet::from_items(items.iter().map(|w| (w.to_string(), py2_hash_str(w))))
    }

    fn int_set(items: &[i64]) -> PySet<i64> {
        PySet::from_items(items.iter().map(|&i| (i, py2_hash_int(i))))
    }

    // Expected values below were printed by CPython 2.7.18 (64-bit, UCS-4).
    #[test]
    fn string_hashes_match_python_2() {
        assert_eq!(py2_hash_str(""), 0);
        assert_eq!(py2_hash_str("he"), 13312079976120159);
        assert_eq!(py2_hash_str("a"), 12416037344);
        assert_eq!(py2_hash_str("él"), 29824178921268245);
    }

    #[test]
    fn small_string_set_order_matches_python_2() {
        let set = str_set(&["he", "she", "it", "they", "we", "our"]);
        assert_eq!(words(&set), ["we", "it", "she", "they", "our", "he"]);
    }

    #[test]
    fn growing_string_set_and_union_order_match_python_2() {
        let a = str_set(&["the", "his", "their", "histories", "we", "needs", "our", "makes", "destroy", "ago"]);
        let b = str_set(&["its", "our", "we", "commission", "and", "were", ";", "by"]);
        assert_eq!(
            words(&a.union(&b)),
            [
                "ago",
                "and",
                "we",
                "his",
                "commission",
                "were",
                "histories",
                "needs",
                ";",
                "their",
                "its",
                "our",
                "destroy",
                "the",
                "makes",
                "by"
            ]
        );
    }

    #[test]
    fn int_set_operations_match_python_2() {
        assert_eq!(int_set(&[12, 3]).iter().copied().collect::<Vec<_>>(), [3, 12]);
        assert_eq!(int_set(&[9, 3]).iter().copied().collect::<Vec<_>>(), [9, 3]);
        assert_eq!(int_set(&[17, 9, 1, 25]).iter().copied().collect::<Vec<_>>(), [17, 1, 25, 9]);
        let a = int_set(&[40, 8, 3, 16]);
        let b = int_set(&[16, 8, 24]);
        assert_eq!(a.intersection(&b).iter().copied().collect::<Vec<_>>(), [16, 8]);
        assert_eq!(a.difference(&int_set(&[3])).iter().copied().collect::<Vec<_>>(), [40, 8, 16]);
        let many = int_set(&[5, 13, 21, 29, 37, 45, 53]);
        assert_eq!(many.iter().copied().collect::<Vec<_>>(), [37, 45, 13, 53, 21, 29, 5]);
    }

    #[test]
    fn argsort_is_numpys_unstable_quicksort() {
        // Up to 16 elements numpy only runs the insertion sort: stable.
        assert_eq!(numpy_argsort(&[1, 0, 1, 0]), [1, 3, 0, 2]);
        // 17 elements: one partition step first, which reorders equal keys. This is the diagonal
        // of the shipped config_2's matrix (numpy 1.16 printed the order).
        let diagonal = [1, 3, 2, 0, 3, 0, 0, 5, 2, 0, 0, 1, 0, 0, 3, 40, 3];
        assert_eq!(numpy_argsort(&diagonal), [13, 12, 3, 5, 6, 10, 9, 0, 11, 8, 2, 4, 1, 14, 16, 7, 15]);
        assert_eq!(numpy_argsort(&[]), Vec::<usize>::new());
    }
}
