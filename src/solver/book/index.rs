//! Slot numbers: every gravity board of one shape with a given number of stones has
//! its own slot, so a level of the book is a plain array with no keys stored.
//!
//! A board is its column heights plus the colours of its stones. With `n` stones,
//! the first player has `ceil(n / 2)` of them; read column by column from the
//! bottom, the indices of the first player's stones form a `ceil(n / 2)`-subset of
//! `0..n`. The slot is
//!
//! ```text
//! slot = rank(heights) * C(n, ceil(n / 2)) + colex_rank(first player's stone indices)
//! ```
//!
//! where `rank(heights)` numbers the ways to split `n` stones over the columns (at
//! most `height` each) in lexicographic order. On 7x6 at 12 stones that is
//! 15,330 * 924 = 14.2M slots, of which about 12.2M are positions reachable in
//! play: a dense, keyless layout (2 bits a slot for win/draw/loss).

use super::super::geometry::Geometry;
use super::super::Position;

/// Slot numbering for one board shape (any width and height the solver takes).
#[derive(Clone, Debug)]
pub struct SlotIndex {
    geo: Geometry,
    /// `ways[c][s]`: the ways columns `c..width` can hold `s` stones in all.
    ways: Vec<Vec<u64>>,
    /// `binom[n][r]` = C(n, r), saturating (only small entries are ever used).
    binom: Vec<Vec<u64>>,
}

impl SlotIndex {
    /// The numbering for positions of `pos`'s shape and line length.
    pub fn for_position(pos: &Position) -> SlotIndex {
        SlotIndex::new(pos.geo)
    }

    pub(crate) fn new(geo: Geometry) -> SlotIndex {
        let (w, h, cells) = (
            geo.width() as usize,
            geo.height() as usize,
            geo.cells as usize,
        );
        let mut ways = vec![vec![0u64; cells + 1]; w + 1];
        ways[w][0] = 1;
        for c in (0..w).rev() {
            for s in 0..=cells {
                ways[c][s] =
                    (0..=h.min(s)).fold(0u64, |acc, v| acc.saturating_add(ways[c + 1][s - v]));
            }
        }
        let mut binom = vec![vec![0u64; cells + 1]; cells + 1];
        for n in 0..=cells {
            binom[n][0] = 1;
            for r in 1..=n {
                binom[n][r] = binom[n - 1][r - 1].saturating_add(binom[n - 1][r]);
            }
        }
        SlotIndex { geo, ways, binom }
    }

    /// Board width.
    pub fn width(&self) -> usize {
        self.geo.width() as usize
    }

    /// Board height.
    pub fn height(&self) -> usize {
        self.geo.height() as usize
    }

    /// Line length.
    pub fn k(&self) -> usize {
        self.geo.k as usize
    }

    pub(crate) fn geometry(&self) -> Geometry {
        self.geo
    }

    /// Whether `pos` has the shape and line length this numbering is for.
    pub fn matches(&self, pos: &Position) -> bool {
        pos.geo == self.geo
    }

    /// How many slots boards with `ply` stones take, or `None` if more than
    /// `u64::MAX` or more stones than cells.
    pub fn slots(&self, ply: usize) -> Option<u64> {
        if ply > self.geo.cells as usize {
            return None;
        }
        let heights = self.ways[0][ply];
        let colours = self.binom[ply][ply.div_ceil(2)];
        if heights == u64::MAX || colours == u64::MAX {
            return None;
        }
        heights.checked_mul(colours)
    }

    /// The slot of `pos` among boards with as many stones (`pos` must have this
    /// numbering's shape, see [`SlotIndex::matches`]; otherwise the result is
    /// meaningless but in range).
    pub fn slot(&self, pos: &Position) -> u64 {
        self.slot_of(pos.current, pos.mask, pos.moves as usize)
    }

    /// The slot of the position's mirror image.
    pub fn mirror_slot(&self, pos: &Position) -> u64 {
        let g = &self.geo;
        self.slot_of(
            g.mirror(pos.current),
            g.mirror(pos.mask),
            pos.moves as usize,
        )
    }

    /// The smaller of the slots of `pos` and of its mirror image: one number per
    /// position up to symmetry.
    pub fn canonical_slot(&self, pos: &Position) -> u64 {
        self.slot(pos).min(self.mirror_slot(pos))
    }

    pub(crate) fn slot_of(&self, current: u64, mask: u64, ply: usize) -> u64 {
        let g = &self.geo;
        let first = if ply.is_multiple_of(2) {
            current
        } else {
            current ^ mask
        };
        let column = (1u64 << g.height()) - 1;
        let (mut heights_rank, mut left) = (0u64, ply);
        let (mut colours_rank, mut stone, mut firsts) = (0u64, 0usize, 0usize);
        for c in 0..g.width() as usize {
            let shift = c as u32 * g.stride();
            let height = (((mask >> shift) & column).count_ones() as usize).min(left);
            for v in 0..height {
                heights_rank = heights_rank.wrapping_add(self.ways[c + 1][left - v]);
            }
            left -= height;
            let col_first = (first >> shift) & column;
            for row in 0..height {
                if col_first >> row & 1 != 0 {
                    firsts += 1;
                    colours_rank = colours_rank.wrapping_add(self.binom[stone][firsts]);
                }
                stone += 1;
            }
        }
        let colours = self.binom[ply][ply.div_ceil(2)];
        heights_rank
            .wrapping_mul(colours)
            .wrapping_add(colours_rank)
    }

    /// The mirror-folded numbering of `ply` stones (see [`Fold`]); `None` when the
    /// board has more than [`Fold::MAX_HEIGHTS`] ways to split the stones over the
    /// columns, or more slots than `u64` counts.
    pub fn fold(&self, ply: usize) -> Option<Fold> {
        self.slots(ply)?;
        let splits = self.ways[0][ply];
        if splits > Fold::MAX_HEIGHTS {
            return None;
        }
        let mut to_folded = Vec::with_capacity(splits as usize);
        let mut canonical = Vec::new();
        for rank in 0..splits {
            let heights = self.heights_of_rank(ply, rank);
            let mirrored: Vec<usize> = heights.iter().rev().copied().collect();
            if heights <= mirrored {
                to_folded.push(canonical.len() as u32);
                canonical.push(rank as u32);
            } else {
                to_folded.push(u32::MAX);
            }
        }
        Some(Fold {
            ply,
            colours: self.binom[ply][ply.div_ceil(2)],
            to_folded,
            canonical,
        })
    }

    /// The column heights whose rank among splits of `ply` stones is `rank`.
    fn heights_of_rank(&self, ply: usize, mut rank: u64) -> Vec<usize> {
        let mut heights = vec![0usize; self.geo.width() as usize];
        let mut left = ply;
        for (c, height) in heights.iter_mut().enumerate() {
            let mut v = 0;
            while rank >= self.ways[c + 1][left - v] {
                rank -= self.ways[c + 1][left - v];
                v += 1;
            }
            *height = v;
            left -= v;
        }
        heights
    }

    /// The folded slot of `pos` (of `fold`'s ply): its own slot's if its column
    /// heights read left to right are at most their mirror image's, else its mirror
    /// image's.
    pub fn folded_slot(&self, fold: &Fold, pos: &Position) -> u64 {
        fold.fold_slot(self.slot(pos))
            .or_else(|| fold.fold_slot(self.mirror_slot(pos)))
            .expect("the heights or their mirror image are canonical")
    }

    /// The folded slot of the board in (unfolded) `slot`.
    pub fn folded_slot_of(&self, fold: &Fold, slot: u64) -> Option<u64> {
        if let Some(f) = fold.fold_slot(slot) {
            return Some(f);
        }
        let pos = self.position(fold.ply, slot)?;
        fold.fold_slot(self.mirror_slot(&pos))
    }

    /// The board in `slot` (`slot < slots(ply)`): whether a line was made on it is in
    /// `won`, reachability in play is not checked. `None` for a slot out of range.
    pub fn position(&self, ply: usize, slot: u64) -> Option<Position> {
        let slots = self.slots(ply)?;
        if slot >= slots {
            return None;
        }
        let g = self.geo;
        let colours = self.binom[ply][ply.div_ceil(2)];
        let (heights_rank, mut colours_rank) = (slot / colours, slot % colours);
        let heights = self.heights_of_rank(ply, heights_rank);
        // Colex unranking: the largest index whose binomial fits, from the last
        // first-player stone down.
        let mut is_first = vec![false; ply];
        let mut bound = ply;
        for firsts in (1..=ply.div_ceil(2)).rev() {
            let mut i = bound - 1;
            while self.binom[i][firsts] > colours_rank {
                i -= 1;
            }
            colours_rank -= self.binom[i][firsts];
            is_first[i] = true;
            bound = i;
        }
        let (mut first, mut mask, mut stone) = (0u64, 0u64, 0usize);
        for (c, &height) in heights.iter().enumerate() {
            for row in 0..height {
                let bit = 1u64 << (c as u32 * g.stride() + row as u32);
                mask |= bit;
                if is_first[stone] {
                    first |= bit;
                }
                stone += 1;
            }
        }
        let (current, last) = if ply.is_multiple_of(2) {
            (first, first ^ mask)
        } else {
            (first ^ mask, first)
        };
        Some(Position {
            geo: g,
            current,
            mask,
            moves: ply as u32,
            won: g.has_line(last),
        })
    }
}

/// One level's slots folded by mirror symmetry: only the boards whose column
/// heights, read left to right, are at most their mirror image's keep a slot
/// (numbered densely, heights rank then colours as in [`SlotIndex`]); the others
/// are read through their mirror image. That halves a level but for the
/// symmetric heights, which keep both colourings (on 7x6 at 13 stones: 35.5M
/// slots -> 17.8M).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fold {
    ply: usize,
    colours: u64,
    /// For each heights rank, its folded rank (`u32::MAX`: not canonical).
    to_folded: Vec<u32>,
    /// The canonical heights ranks, increasing.
    canonical: Vec<u32>,
}

impl Fold {
    /// Most ways to split a level's stones over the columns a fold takes (its
    /// tables then stay below 128 MiB).
    pub const MAX_HEIGHTS: u64 = 1 << 24;

    /// How many folded slots the level has.
    pub fn slots(&self) -> u64 {
        self.canonical.len() as u64 * self.colours
    }

    /// The folded slot of an unfolded `slot` with canonical heights, else `None`.
    #[inline]
    pub fn fold_slot(&self, slot: u64) -> Option<u64> {
        let folded = *self.to_folded.get((slot / self.colours) as usize)?;
        (folded != u32::MAX).then(|| folded as u64 * self.colours + slot % self.colours)
    }

    /// The unfolded slot of folded slot `f` (`f < slots()`).
    pub fn unfold_slot(&self, f: u64) -> u64 {
        self.canonical[(f / self.colours) as usize] as u64 * self.colours + f % self.colours
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_game(pos: &mut Position, next: &mut impl FnMut() -> u64, plies: usize) {
        for _ in 0..plies {
            let legal: Vec<usize> = (0..pos.width()).filter(|&c| pos.can_play(c)).collect();
            if legal.is_empty() || pos.is_over() {
                return;
            }
            pos.play(legal[(next() % legal.len() as u64) as usize])
                .unwrap();
        }
    }

    use crate::solver::tests::xorshift;

    #[test]
    fn slot_counts_on_7x6() {
        let index = SlotIndex::for_position(&Position::new(7, 6, 4).unwrap());
        assert_eq!(index.slots(0), Some(1));
        assert_eq!(index.slots(1), Some(7));
        // Two stones: 28 height splits (7 + 21), colours fixed (first stone below
        // or left of the second) in C(2, 1) = 2 ways.
        assert_eq!(index.slots(2), Some(28 * 2));
        assert_eq!(index.slots(12), Some(15_330 * 924));
        assert_eq!(index.slots(42), Some(538_257_874_440));
        assert_eq!(index.slots(43), None);
    }

    #[test]
    fn every_slot_of_a_small_level_round_trips() {
        for (w, h) in [(7, 6), (4, 4), (5, 3), (1, 5)] {
            let index = SlotIndex::for_position(&Position::new(w, h, 4).unwrap());
            for ply in 0..=(w * h).min(6) {
                for slot in 0..index.slots(ply).unwrap() {
                    let pos = index.position(ply, slot).unwrap();
                    assert_eq!(pos.moves(), ply);
                    assert_eq!(index.slot(&pos), slot, "{w}x{h} ply {ply}");
                }
                assert!(index.position(ply, index.slots(ply).unwrap()).is_none());
            }
        }
    }

    #[test]
    fn folding_keeps_one_image_of_each_board() {
        let index = SlotIndex::for_position(&Position::new(7, 6, 4).unwrap());
        // 13 stones: 20,664 height splits, 10,364 of them at most their mirror
        // image (the 64 symmetric ones among those), times C(13, 7) colourings.
        let fold = index.fold(13).unwrap();
        assert_eq!(fold.slots(), 10_364 * 1716);
        for (w, h) in [(7, 6), (4, 4), (5, 3), (1, 5)] {
            let index = SlotIndex::for_position(&Position::new(w, h, 4).unwrap());
            for ply in 0..=(w * h).min(6) {
                let fold = index.fold(ply).unwrap();
                let mut hits = vec![0u32; fold.slots() as usize];
                for slot in 0..index.slots(ply).unwrap() {
                    let pos = index.position(ply, slot).unwrap();
                    let f = index.folded_slot(&fold, &pos);
                    assert_eq!(index.folded_slot_of(&fold, slot), Some(f));
                    let mut mirror = pos;
                    mirror.current = index.geo.mirror(pos.current);
                    mirror.mask = index.geo.mirror(pos.mask);
                    // Either image, looked up, lands on a slot of one of the two.
                    let images = [slot, index.mirror_slot(&pos)];
                    assert!(images.contains(&fold.unfold_slot(f)));
                    let g = index.folded_slot(&fold, &mirror);
                    assert!(images.contains(&fold.unfold_slot(g)));
                    hits[f as usize] += 1;
                }
                // Each folded slot holds a board and its mirror image (the same
                // board twice when the board is its own mirror image).
                assert!(hits.iter().all(|&n| n == 1 || n == 2), "{w}x{h} ply {ply}");
            }
        }
    }

    #[test]
    fn played_positions_round_trip_and_mirror() {
        let mut next = xorshift(0x5eed);
        for (w, h, k) in [(7, 6, 4), (8, 7, 4), (6, 5, 4), (9, 5, 5)] {
            let index = SlotIndex::for_position(&Position::new(w, h, k).unwrap());
            for _ in 0..300 {
                let mut pos = Position::new(w, h, k).unwrap();
                let plies = (next() % (w * h + 1) as u64) as usize;
                random_game(&mut pos, &mut next, plies);
                let slot = index.slot(&pos);
                assert!(slot < index.slots(pos.moves()).unwrap());
                let back = index.position(pos.moves(), slot).unwrap();
                assert_eq!(back.cells(), pos.cells());
                assert_eq!(back.is_won(), pos.is_won());
                // The mirror image's slot is the slot of the mirrored cells.
                let mut cells = pos.cells();
                for row in cells.chunks_mut(w) {
                    row.reverse();
                }
                let mirror = index
                    .position(pos.moves(), index.mirror_slot(&pos))
                    .unwrap();
                assert_eq!(mirror.cells(), cells);
                assert_eq!(
                    index.canonical_slot(&pos),
                    slot.min(index.mirror_slot(&pos))
                );
            }
        }
    }
}
