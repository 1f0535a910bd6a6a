//! Who talks to whom: the pairing of processes, the order in which pairs become active
//! (block or cyclic allocation) and the default process counts (PRESTA 1.2 README,
//! "Participating Processes and Allocation").

/// How the processes of a run are paired and allocated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Processes that take part: the world, less its last process when the world is odd.
    pub used: usize,
    /// Processes per SMP (`-t`).
    pub ppn: Option<usize>,
    /// Partner with the nearby rank on the next SMP (`-r`, needs `ppn`).
    pub nearby: bool,
    /// Cyclic allocation over the SMPs (`-p c`, needs `ppn`).
    pub cyclic: bool,
}

impl Layout {
    /// The layout of a world of `size` processes.
    pub fn new(size: usize, ppn: Option<usize>, nearby: bool, cyclic: bool) -> Layout {
        Layout { used: size - size % 2, ppn, nearby, cyclic }
    }

    /// The pairs `(first, partner)` in the order they become active. By default the
    /// partner of rank r is (r + used/2) mod used; with `-r`, r + ppn when r mod 2 ppn <
    /// ppn. Block allocation takes the pairs by rank; cyclic allocation takes one pair per
    /// SMP in turn (first processes ordered by their index on the SMP, then by SMP).
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let mut firsts: Vec<(usize, usize)> = match (self.nearby, self.ppn) {
            (true, Some(t)) => {
                (0..self.used).filter(|r| r % (2 * t) < t).map(|r| (r, r + t)).collect()
            }
            _ => (0..self.used / 2).map(|r| (r, r + self.used / 2)).collect(),
        };
        if let (true, Some(t)) = (self.cyclic, self.ppn) {
            firsts.sort_by_key(|&(r, _)| (r % t, r / t));
        }
        firsts
    }

    /// The pairs active at `count` processes: the first `count / 2`.
    pub fn active(&self, count: usize) -> Vec<(usize, usize)> {
        self.pairs().into_iter().take(count / 2).collect()
    }

    /// The partner of `rank` among the pairs active at `count` processes, if it is active.
    pub fn partner(&self, rank: usize, count: usize) -> Option<(usize, bool)> {
        self.active(count).into_iter().find_map(|(a, b)| match rank {
            r if r == a => Some((b, true)),
            r if r == b => Some((a, false)),
            _ => None,
        })
    }

    /// The process counts run when no `-f` file gives them: 2, 4, 8 ... up to the
    /// processes used, and that number itself; with `-t`, the multiples of 2 ppn (block)
    /// or of the number of SMPs (cyclic; twice that when it is odd, counts being even).
    pub fn default_counts(&self) -> Vec<usize> {
        let step = match (self.ppn, self.cyclic) {
            (Some(t), false) => Some(2 * t),
            (Some(t), true) => {
                let smps = (self.used / t).max(1);
                Some(if smps.is_multiple_of(2) { smps } else { 2 * smps })
            }
            (None, _) => None,
        };
        match step {
            Some(s) => (1..).map(|k| k * s).take_while(|&c| c <= self.used).collect(),
            None => {
                let mut counts: Vec<usize> =
                    (1..).map(|k| 1 << k).take_while(|&c| c <= self.used).collect();
                if !self.used.is_power_of_two() && self.used >= 2 {
                    counts.push(self.used);
                }
                counts
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_pairing_takes_one_process_from_each_half() {
        let l = Layout::new(16, Some(8), false, false);
        assert_eq!(l.active(4), [(0, 8), (1, 9)]);
        assert_eq!(l.default_counts(), [16]);
        let l = Layout::new(6, None, false, false);
        assert_eq!(l.pairs(), [(0, 3), (1, 4), (2, 5)]);
        assert_eq!(l.default_counts(), [2, 4, 6]);
        assert_eq!(l.partner(4, 4), Some((1, false)));
        assert_eq!(l.partner(2, 4), None);
        assert_eq!(Layout::new(8, None, false, false).default_counts(), [2, 4, 8]);
    }

    #[test]
    fn an_odd_world_leaves_its_last_process_out() {
        let l = Layout::new(5, None, false, false);
        assert_eq!(l.used, 4);
        assert_eq!(l.pairs(), [(0, 2), (1, 3)]);
        assert_eq!(l.default_counts(), [2, 4]);
        assert_eq!(l.partner(4, 4), None);
        assert_eq!(Layout::new(3, None, false, false).pairs(), [(0, 1)]);
    }

    #[test]
    fn nearby_partners_are_on_the_next_smp() {
        let l = Layout::new(16, Some(4), true, false);
        assert_eq!(
            l.pairs(),
            [(0, 4), (1, 5), (2, 6), (3, 7), (8, 12), (9, 13), (10, 14), (11, 15)]
        );
        assert_eq!(l.default_counts(), [8, 16]);
    }

    #[test]
    fn cyclic_allocation_spreads_over_the_smps() {
        let l = Layout::new(32, Some(8), false, true);
        assert_eq!(l.active(8), [(0, 16), (8, 24), (1, 17), (9, 25)]);
        assert_eq!(l.default_counts(), [4, 8, 12, 16, 20, 24, 28, 32]);
        let l = Layout::new(6, Some(2), false, true);
        assert_eq!(l.default_counts(), [6], "3 SMPs: steps of 6");
    }
}
