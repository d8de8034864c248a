//! The decision order: variables in a binary max-heap by VSIDS activity.

/// Variables by activity: a binary max-heap with each variable's position.
pub(super) struct Heap {
    items: Vec<u32>,
    /// Position in `items`, or `u32::MAX` when absent.
    pub(super) pos: Vec<u32>,
}

impl Heap {
    pub(super) fn new(n: usize) -> Heap {
        Heap {
            items: (0..n as u32).collect(),
            pos: (0..n as u32).collect(),
        }
    }

    /// Puts variable `v` at position `i`.
    #[inline(always)]
    fn put(&mut self, i: usize, v: u32) {
        self.items[i] = v;
        self.pos[v as usize] = i as u32;
    }

    pub(super) fn contains(&self, v: usize) -> bool {
        self.pos[v] != u32::MAX
    }

    pub(super) fn up(&mut self, mut i: usize, act: &[f64]) {
        let v = self.items[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.items[parent];
            if act[p as usize] >= act[v as usize] {
                break;
            }
            self.put(i, p);
            i = parent;
        }
        self.put(i, v);
    }

    fn down(&mut self, mut i: usize, act: &[f64]) {
        let v = self.items[i];
        let len = self.items.len();
        loop {
            let mut child = 2 * i + 1;
            if child >= len {
                break;
            }
            if child + 1 < len
                && act[self.items[child + 1] as usize] > act[self.items[child] as usize]
            {
                child += 1;
            }
            let c = self.items[child];
            if act[c as usize] <= act[v as usize] {
                break;
            }
            self.put(i, c);
            i = child;
        }
        self.put(i, v);
    }

    pub(super) fn insert(&mut self, v: usize, act: &[f64]) {
        if !self.contains(v) {
            self.items.push(v as u32);
            self.up(self.items.len() - 1, act);
        }
    }

    pub(super) fn pop(&mut self, act: &[f64]) -> Option<usize> {
        let top = *self.items.first()?;
        let last = self.items.pop().expect("not empty");
        self.pos[top as usize] = u32::MAX;
        if !self.items.is_empty() {
            self.put(0, last);
            self.down(0, act);
        }
        Some(top as usize)
    }
}
