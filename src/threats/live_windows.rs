//! The threat board's live windows of many stones, listed per player and stone
//! count, so the searches' questions (where are the fours, which moves make
//! one) read a few windows instead of scanning every window of the board.

use super::board::{Tally, BLOCKS};

/// Per player, the windows live for it (no blocks) holding `base..=k` of its
/// stones, one list per count; each window's place in its list, for removal
/// in constant time. `base` is `k - 3`: the fewest stones a search asks about.
#[derive(Clone, Debug)]
pub(super) struct LiveWindows {
    /// The least count listed; `u8::MAX` below `k = 4` (nothing listed: the
    /// searches' counts there start at 0, which is nearly every window).
    base: u8,
    /// `lists[player][count - base]`: window indices, in no order.
    lists: [Vec<Vec<u32>>; 2],
    /// `slot[window][player]`: the window's index in its list, or `NONE`.
    slot: Vec<[u32; 2]>,
}

const NONE: u32 = u32::MAX;

impl LiveWindows {
    pub fn new(k: usize, windows: usize) -> LiveWindows {
        let base = if k >= 4 { (k - 3) as u8 } else { u8::MAX };
        let lists = if k >= 4 { 4 } else { 0 };
        LiveWindows {
            base,
            lists: [vec![Vec::new(); lists], vec![Vec::new(); lists]],
            slot: vec![[NONE; 2]; windows],
        }
    }

    /// Empties every list (an empty board lists nothing: its windows hold no
    /// stones).
    pub fn clear(&mut self) {
        for lists in &mut self.lists {
            for list in lists {
                list.clear();
            }
        }
        self.slot.fill([NONE; 2]);
    }

    /// Whether windows of `min` stones and more are listed.
    #[inline]
    pub fn lists_from(&self, min: usize) -> bool {
        min >= self.base as usize
    }

    /// Window `wi`'s tally went from `old` to `new`.
    #[inline(always)]
    pub fn update(&mut self, wi: u32, old: Tally, new: Tally) {
        // Most windows hold too few stones to be listed, before and after.
        if old[0].max(old[1]).max(new[0]).max(new[1]) >= self.base {
            self.relist(wi, old, new);
        }
    }

    #[inline(never)]
    fn relist(&mut self, wi: u32, old: Tally, new: Tally) {
        for player in 0..2 {
            let was = (old[BLOCKS + player] == 0).then_some(old[player]);
            let is = (new[BLOCKS + player] == 0).then_some(new[player]);
            if was == is {
                continue;
            }
            if let Some(count) = was.filter(|&c| c >= self.base) {
                self.remove(player, count, wi);
            }
            if let Some(count) = is.filter(|&c| c >= self.base) {
                let list = &mut self.lists[player][(count - self.base) as usize];
                self.slot[wi as usize][player] = list.len() as u32;
                list.push(wi);
            }
        }
    }

    fn remove(&mut self, player: usize, count: u8, wi: u32) {
        let list = &mut self.lists[player][(count - self.base) as usize];
        let at = self.slot[wi as usize][player] as usize;
        let last = list.pop().expect("a listed window");
        if last != wi {
            list[at] = last;
            self.slot[last as usize][player] = at as u32;
        }
        self.slot[wi as usize][player] = NONE;
    }

    /// The windows live for `player` holding `min..=max` of its stones
    /// (`min` listed: [`LiveWindows::lists_from`]), in increasing index, into
    /// `out` (emptied first).
    pub fn windows_with(&self, player: usize, min: usize, max: usize, out: &mut Vec<u32>) {
        out.clear();
        for count in min..=max {
            if let Some(list) = self.lists[player].get(count - self.base as usize) {
                out.extend_from_slice(list);
            }
        }
        out.sort_unstable();
    }

    /// How many windows live for `player` hold `count` of its stones (`count`
    /// listed: [`LiveWindows::lists_from`]).
    #[inline]
    pub fn len(&self, player: usize, count: usize) -> usize {
        self.lists[player][count - self.base as usize].len()
    }

    /// Whether the lists match `tallies` (tests).
    #[cfg(test)]
    pub fn matches(&self, tallies: &[Tally]) -> bool {
        let mut listed = 0;
        for (wi, t) in tallies.iter().enumerate() {
            for player in 0..2 {
                let live = t[BLOCKS + player] == 0 && t[player] >= self.base;
                let slot = self.slot[wi][player];
                if live != (slot != NONE) {
                    return false;
                }
                if live {
                    let list = &self.lists[player][(t[player] - self.base) as usize];
                    if list.get(slot as usize) != Some(&(wi as u32)) {
                        return false;
                    }
                    listed += 1;
                }
            }
        }
        listed == self.lists.iter().flatten().map(Vec::len).sum::<usize>()
    }
}
