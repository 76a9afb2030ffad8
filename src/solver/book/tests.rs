//! Book tests: complete books on small boards against the solver, the format's
//! round trip, and every kind of damaged data refused.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use super::*;
use crate::solver::{Solver, SolverConfig};

use crate::solver::tests::xorshift;

/// A complete book of `kind` for `w`x`h`, line `k`, down to `depth` plies, solved
/// at the deepest ply and backed up from there; with the position lists.
fn small_book(w: usize, h: usize, k: usize, depth: usize, kind: Kind) -> (Vec<u8>, Vec<Vec<u64>>) {
    let index = SlotIndex::for_position(&Position::new(w, h, k).unwrap());
    let positions = reachable(&index, depth).unwrap();
    let mut solver = Solver::new(SolverConfig::default()).unwrap();
    let cancel = AtomicBool::new(false);
    let deepest = fill_level(&index, kind, depth, &positions[depth], |pos| {
        solver.solve(pos, kind == Kind::Weak, &cancel).unwrap()
    })
    .unwrap();
    let levels = back_up_all(&index, &positions, deepest).unwrap();
    (encode(&index, &levels).unwrap(), positions)
}

/// Every reachable position of the board up to `depth`, mirror images included.
fn every_position(w: usize, h: usize, k: usize, depth: usize) -> Vec<Position> {
    let mut out = vec![];
    let mut frontier = vec![Position::new(w, h, k).unwrap()];
    for _ in 0..=depth {
        let mut next = vec![];
        let mut seen = HashSet::new();
        for pos in &frontier {
            out.push(*pos);
            for c in 0..w {
                let mut child = *pos;
                if child.play(c).is_ok() && !child.is_over() && seen.insert(child.cells()) {
                    next.push(child);
                }
            }
        }
        frontier = next;
    }
    out
}

#[test]
fn a_backed_up_book_agrees_with_the_solver_everywhere() {
    for (w, h, k, depth) in [(4, 4, 3, 6), (5, 4, 4, 7), (4, 5, 4, 8)] {
        let (bytes, _) = small_book(w, h, k, depth, Kind::Exact);
        let (weak_bytes, _) = small_book(w, h, k, depth, Kind::Weak);
        let book = Book::from_bytes(bytes).unwrap();
        let weak_book = Book::from_bytes(weak_bytes).unwrap();
        assert_eq!(book.depth(), depth);
        assert_eq!(book.rules(), (w, h, k));
        let mut solver = Solver::new(SolverConfig::default()).unwrap();
        let cancel = AtomicBool::new(false);
        let positions = every_position(w, h, k, depth);
        assert!(
            positions.len() > 50,
            "{w}x{h}: {} positions",
            positions.len()
        );
        for pos in positions {
            let want = solver.solve(&pos, false, &cancel).unwrap();
            assert_eq!(
                book.exact(&pos),
                Some(want),
                "{w}x{h} k{k} {:?}",
                pos.cells()
            );
            assert_eq!(book.weak(&pos), Some(want.signum()));
            assert_eq!(weak_book.weak(&pos), Some(want.signum()));
            assert_eq!(
                weak_book.exact(&pos),
                None,
                "a weak level has no exact scores"
            );
        }
    }
}

#[test]
fn known_values_and_positions_outside_the_book() {
    // 4x4 Connect Four is a draw; on 4x4 with k = 3 the first player wins, and
    // on a 1-column board with k = 2 nobody can win.
    let (bytes, _) = small_book(4, 4, 4, 3, Kind::Exact);
    let book = Book::from_bytes(bytes).unwrap();
    let empty = Position::new(4, 4, 4).unwrap();
    assert_eq!(book.exact(&empty), Some(0));
    let (bytes, _) = small_book(4, 4, 3, 3, Kind::Weak);
    let k3 = Book::from_bytes(bytes).unwrap();
    assert_eq!(k3.weak(&Position::new(4, 4, 3).unwrap()), Some(1));
    // Other rules or shapes, deeper plies and finished games are not in the book.
    assert_eq!(book.weak(&Position::new(4, 4, 3).unwrap()), None);
    assert_eq!(book.weak(&Position::new(5, 4, 4).unwrap()), None);
    assert_eq!(
        book.weak(&Position::from_moves(4, 4, 4, &[0, 1, 0, 1]).unwrap()),
        None
    );
    let won = Position::from_moves(4, 4, 3, &[0, 1, 0, 1, 0]).unwrap();
    assert!(won.is_won());
    let (bytes, _) = small_book(4, 4, 3, 5, Kind::Weak);
    assert_eq!(Book::from_bytes(bytes).unwrap().weak(&won), None);
    // A board no game reaches (the second player's stone under the first's in
    // the only occupied column) has a slot but no entry.
    #[rustfmt::skip]
    let cells = [
        0, 0, 0, 0,
        0, 0, 0, 0,
        1, 0, 0, 0,
        2, 0, 0, 0,
    ];
    let unreachable = Position::from_cells(4, 4, 4, &cells).unwrap();
    assert_eq!(book.weak(&unreachable), None);
    assert_eq!(book.exact(&unreachable), None);
}

#[test]
fn reachable_counts_match_a_plain_enumeration() {
    // Up to mirror images, against a search that keeps every distinct board.
    for (w, h, k, depth) in [(4, 4, 3, 8), (5, 4, 4, 7), (7, 6, 4, 4)] {
        let index = SlotIndex::for_position(&Position::new(w, h, k).unwrap());
        let lists = reachable(&index, depth).unwrap();
        let all = every_position(w, h, k, depth);
        for (ply, list) in lists.iter().enumerate() {
            let mut want: Vec<u64> = all
                .iter()
                .filter(|p| p.moves() == ply)
                .map(|p| index.canonical_slot(p))
                .collect();
            want.sort_unstable();
            want.dedup();
            let mut got = list.clone();
            got.sort_unstable();
            assert_eq!(got, want, "{w}x{h} ply {ply}");
            assert_eq!(got.len(), list.len(), "no duplicates");
        }
    }
    // Unfolded, Connect Four's known position counts (OEIS A212693; no game ends
    // before ply 7).
    let index = SlotIndex::for_position(&Position::new(7, 6, 4).unwrap());
    let lists = reachable(&index, 6).unwrap();
    let counts: Vec<usize> = lists
        .iter()
        .enumerate()
        .map(|(ply, list)| {
            list.iter()
                .map(|&slot| {
                    let pos = index.position(ply, slot).unwrap();
                    if index.mirror_slot(&pos) == slot {
                        1
                    } else {
                        2
                    }
                })
                .sum()
        })
        .collect();
    assert_eq!(counts, vec![1, 7, 49, 238, 1120, 4263, 16422]);
}

#[test]
fn round_trip_of_random_levels() {
    let mut next = xorshift(99);
    let index = SlotIndex::for_position(&Position::new(5, 4, 4).unwrap());
    let levels: Vec<LevelCodes> = [
        (0, Kind::Exact),
        (3, Kind::Weak),
        (5, Kind::Exact),
        (6, Kind::Weak),
    ]
    .into_iter()
    .map(|(ply, kind)| {
        let slots = index.slots(ply).unwrap() as usize;
        let max = (20 + 1 - ply as i32) / 2;
        let mut codes: Vec<u8> = (0..slots)
            .map(|_| match next() % 4 {
                0 => 0,
                _ => kind.code((next() % (2 * max as u64 + 1)) as i32 - max),
            })
            .collect();
        // A board and its mirror image hold the same code.
        for slot in 0..slots {
            let pos = index.position(ply, slot as u64).unwrap();
            let mirror = index.mirror_slot(&pos) as usize;
            codes[slot] = codes[slot.min(mirror)];
        }
        LevelCodes { ply, kind, codes }
    })
    .collect();
    let bytes = encode(&index, &levels).unwrap();
    let book = Book::from_bytes(bytes.clone()).unwrap();
    assert_eq!(book.bytes(), bytes.len());
    assert_eq!(book.depth(), 6);
    for level in &levels {
        assert_eq!(book.level_codes(level.ply).as_ref(), Some(level));
        for (slot, &code) in level.codes.iter().enumerate() {
            let pos = index.position(level.ply, slot as u64).unwrap();
            if pos.is_over() {
                continue;
            }
            let score = level.kind.score(code);
            assert_eq!(book.weak(&pos), score.map(i32::signum));
            let exact = if level.kind == Kind::Exact {
                score
            } else {
                None
            };
            assert_eq!(book.exact(&pos), exact);
        }
    }
    assert_eq!(book.level_codes(1), None);
    // The same data borrowed for 'static reads the same.
    let leaked: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    assert_eq!(
        Book::from_bytes(leaked).unwrap().level_codes(5).as_ref(),
        Some(&levels[2])
    );
}

#[test]
fn the_encoder_refuses_bad_levels() {
    let index = SlotIndex::for_position(&Position::new(4, 4, 4).unwrap());
    let level = |ply: usize, kind: Kind| LevelCodes {
        ply,
        kind,
        codes: vec![kind.code(1); index.slots(ply).unwrap() as usize],
    };
    let invalid = |r: Result<Vec<u8>, BookError>| matches!(r, Err(BookError::Invalid(_)));
    assert!(invalid(encode(&index, &[])));
    assert!(invalid(encode(
        &index,
        &[level(2, Kind::Weak), level(1, Kind::Weak)]
    )));
    assert!(invalid(encode(
        &index,
        &[level(2, Kind::Weak), level(2, Kind::Weak)]
    )));
    let mut short = level(2, Kind::Weak);
    short.codes.pop();
    assert!(invalid(encode(&index, &[short])));
    let mut wide = level(2, Kind::Weak);
    wide.codes[3] = 4;
    assert!(invalid(encode(&index, &[wide])));
    // A board and its mirror image with different codes.
    let mut lopsided = level(1, Kind::Weak);
    lopsided.codes[0] = Kind::Weak.code(-1);
    assert!(invalid(encode(&index, &[lopsided])));
    assert!(!invalid(encode(
        &index,
        &[level(1, Kind::Weak), level(2, Kind::Exact)]
    )));
}

fn refused(data: Vec<u8>) -> BookError {
    match Book::from_bytes(data) {
        Ok(book) => panic!("accepted damaged data: {book:?}"),
        Err(e) => e,
    }
}

#[test]
fn damaged_data_is_refused_never_a_panic() {
    let (bytes, _) = small_book(4, 4, 4, 5, Kind::Exact);
    assert!(Book::from_bytes(bytes.clone()).is_ok());
    // Every truncation.
    for len in 0..bytes.len() {
        let e = refused(bytes[..len].to_vec());
        assert!(matches!(e, BookError::Corrupt(_)), "{len}: {e}");
    }
    // A byte more.
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(refused(longer).to_string().contains("promises"));
    // Every single flipped bit (the checksum or a header check catches each).
    for at in 0..bytes.len() {
        for bit in 0..8 {
            let mut bad = bytes.clone();
            bad[at] ^= 1 << bit;
            refused(bad);
        }
    }
    let mut bad = bytes.clone();
    bad[0] = b'X';
    assert!(refused(bad).to_string().contains("magic"));
    for version in [2, 4] {
        let mut other = bytes.clone();
        other[8] = version;
        let want = format!("version {version}");
        assert!(matches!(refused(other), BookError::Unsupported(m) if m.contains(&want)));
    }
}

#[test]
fn a_compressed_book_reads_as_the_book_and_damage_to_it_is_refused() {
    let (bytes, _) = small_book(4, 4, 4, 5, Kind::Exact);
    let packed = compress(&bytes).unwrap();
    assert!(
        packed.len() < bytes.len(),
        "{} >= {}",
        packed.len(),
        bytes.len()
    );
    let book = Book::from_bytes(packed.clone()).unwrap();
    assert_eq!(book.data.as_ref(), &bytes[..]);
    assert_eq!(book.bytes(), bytes.len());
    for len in 0..packed.len() {
        let e = refused(packed[..len].to_vec());
        assert!(matches!(e, BookError::Corrupt(_)), "{len}: {e}");
    }
    // A flipped bit fails to decode, decodes to bytes the checksum refuses, or
    // (in a field that does not change the output) decodes to the same book.
    for at in 0..packed.len() {
        for bit in 0..8 {
            let mut bad = packed.clone();
            bad[at] ^= 1 << bit;
            if let Ok(b) = Book::from_bytes(bad) {
                assert_eq!(b.data.as_ref(), &bytes[..], "byte {at} bit {bit}");
            }
        }
    }
    // Two frames, or bytes after the frame: not one book.
    let mut twice = packed.clone();
    twice.extend_from_slice(&packed);
    assert!(matches!(refused(twice), BookError::Corrupt(_)));
}

/// Rewrites the checksum so that only the structural checks stand between the
/// data and the reader.
fn resealed(mut data: Vec<u8>) -> Vec<u8> {
    let crc = format::checksum(&data);
    data[24..32].copy_from_slice(&crc.to_le_bytes());
    data
}

#[test]
fn structurally_wrong_data_with_a_valid_checksum_is_refused() {
    let index = SlotIndex::for_position(&Position::new(4, 4, 4).unwrap());
    let level = |ply: usize, kind: Kind, score: i32| LevelCodes {
        ply,
        kind,
        codes: vec![kind.code(score); index.slots(ply).unwrap() as usize],
    };
    let bytes = encode(&index, &[level(1, Kind::Weak, 1), level(3, Kind::Exact, 2)]).unwrap();
    let entry = |i: usize| 32 + 16 * i;
    let corrupt = |data: Vec<u8>, needle: &str| {
        let e = refused(resealed(data));
        assert!(
            matches!(&e, BookError::Corrupt(m) if m.contains(needle)),
            "{e}"
        );
    };
    let mut d = bytes.clone();
    d[15] = 0;
    corrupt(d, "level count");
    let mut d = bytes.clone();
    d[entry(0) + 1] = 7;
    corrupt(d, "unknown kind");
    let mut d = bytes.clone();
    d[entry(0) + 5] = 1;
    corrupt(d, "reserved");
    let mut d = bytes.clone();
    d[entry(1)] = 1;
    corrupt(d, "does not increase");
    let mut d = bytes.clone();
    d[entry(0) + 8] += 1;
    corrupt(d, "slots");
    // A level far larger than the data (8x7 at 28 stones: 10^14 slots) is refused
    // before anything is built for it.
    let big = SlotIndex::for_position(&Position::new(8, 7, 4).unwrap());
    let one = LevelCodes {
        ply: 1,
        kind: Kind::Weak,
        codes: vec![Kind::Weak.code(1); 8],
    };
    let mut d = encode(&big, &[one]).unwrap();
    d[entry(0)] = 28;
    corrupt(d, "runs past the end");
    // Levels swapped in kind: the sizes no longer add up.
    let mut d = bytes.clone();
    d[entry(1) + 1] = 1;
    corrupt(d, "payload");
    // An exact score no position at that ply can have.
    let mut d = bytes.clone();
    let last = d.len() - 1;
    d[last] = 0xff;
    corrupt(d, "beyond");
    // Rules the solver does not take.
    let mut d = bytes.clone();
    d[12] = 9;
    d[13] = 9;
    assert!(matches!(refused(resealed(d)), BookError::Unsupported(_)));
}

#[test]
fn open_reports_a_missing_file() {
    let e = Book::open("/nonexistent/inarow.book").unwrap_err();
    assert!(
        matches!(&e, BookError::Io(m) if m.contains("/nonexistent/inarow.book")),
        "{e}"
    );
}

#[test]
fn parents_undo_the_last_move_and_their_floor_bounds_the_value() {
    let (w, h, k, depth) = (5, 4, 4, 7);
    let (bytes, _) = small_book(w, h, k, depth, Kind::Weak);
    let book = Book::from_bytes(bytes).unwrap();
    let mut solver = Solver::new(SolverConfig::default()).unwrap();
    let cancel = AtomicBool::new(false);
    let (mut wins_from_floor, mut draw_floors, mut checked) = (0, 0, 0);
    let all = every_position(w, h, k, depth + 1);
    for pos in &all {
        // Every position that plays into `pos` with one move is a parent.
        let parents: HashSet<Vec<u8>> = pos.parents().map(|p| p.cells()).collect();
        let mut expected = HashSet::new();
        if (1..=4).contains(&pos.moves()) {
            for p in all.iter().filter(|p| p.moves() + 1 == pos.moves()) {
                for c in 0..w {
                    let mut child = *p;
                    if child.play(c).is_ok() && child.cells() == pos.cells() {
                        expected.insert(p.cells());
                    }
                }
            }
        }
        if pos.moves() <= 4 {
            // Some boards one stone earlier no game reaches (a first player's stone
            // on top of the second's only one): the book holds none of those.
            assert!(parents.is_superset(&expected), "{:?}", pos.cells());
            for p in pos.parents().filter(|p| !expected.contains(&p.cells())) {
                assert_eq!(book.weak(&p), None, "{:?}", p.cells());
            }
        }
        if pos.moves() != depth + 1 {
            continue;
        }
        let Some(floor) = book.floor_from_parents(pos) else {
            continue;
        };
        let value = solver.solve(pos, true, &cancel).unwrap();
        assert!(floor <= value, "floor {floor} above the value {value}");
        let within = solver.solve_within(pos, true, floor, 1, &cancel).unwrap();
        assert_eq!(within, value);
        wins_from_floor += usize::from(floor == 1);
        draw_floors += usize::from(floor == 0);
        checked += 1;
    }
    assert!(checked > 100 && wins_from_floor > 10 && draw_floors > 0);
}
