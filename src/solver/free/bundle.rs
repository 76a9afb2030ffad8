//! Writing a proof too large for one run or one check as a bundle (see
//! `crate::proof`): each position of at least `cut` stones that a `no-loss`
//! claim reaches (with the side to move its stones say) is proven in a part of
//! its own, a whole proof with that position as its root; the last part is the
//! proof from the real root, whose lines stop at the parts' roots. Parts are
//! zstd frames appended to one file, so the file is read as one stream, and
//! each part is checked on its own: a check holds one part in memory.
//!
//! Resumable: a manifest beside the file (`PATH.parts`) gets a line for each
//! part once its frame is on disk: the claim, the root's canonical position
//! and zone, and where the frame ends. A run reads it, cuts the file back to
//! the last part it lists, and meets those roots proven. The writer's search
//! starts from given outcomes ([`PinnedOutcome`], a journal's), which choose
//! the claimant's moves near the root without a search.
//!
//! Threads ([`FreeSolver::set_threads`]) write parts side by side over one
//! table: each traverses the claims and writes the parts no other thread is
//! writing, passing over a busy one with the zone the search knows for it
//! (so it may write parts the proof turns out not to need); then one traversal
//! writes what is left and the root's part. A part is appended whole, under a
//! lock.

use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use super::super::error::SolveError;
use super::geometry::{fits_one_word, Geometry};
use super::journal::{lock_alone, whole_lines};
use super::position::{exact, FreePosition};
use super::proof::cells_text;
use super::search::{canonical, image};
use super::solver::FreeSolver;
use super::word::Word;
use super::zone::{preimage, ZoneSearch};
use super::zone_proof::{PartSink, ZoneProofWriter};
use super::zone_table::{PinnedOutcome, ZoneTable};

/// How far a bundle's writing has got, for progress reports.
#[derive(Debug, Default)]
pub struct BundleProgress {
    /// Parts the manifest listed when the run began.
    pub earlier: AtomicU64,
    /// Parts written by this run.
    pub parts: AtomicU64,
    /// Records in those parts.
    pub records: AtomicU64,
    /// Bytes of the file (compressed).
    pub bytes: AtomicU64,
}

/// What [`FreeSolver::write_proof_bundle`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BundleSummary {
    /// The first player's outcome: 1 win, 0 draw, -1 loss.
    pub outcome: i32,
    /// Parts from earlier runs, kept.
    pub earlier: u64,
    /// Parts written by this run, the last one (from the root) included.
    pub parts: u64,
    /// Records written by this run.
    pub records: u64,
    /// The file's size.
    pub bytes: u64,
}

/// The manifest's first line for a bundle of `pos`'s board cut at `cut` stones.
fn manifest_header(pos: &FreePosition, cut: u32) -> String {
    format!(
        "inarow-bundle 1 {} {} {} {} {cut}",
        pos.width(),
        pos.height(),
        pos.k(),
        pos.rule().name()
    )
}

/// A part's key: claimant is x, canonical x's and o's stones, x to move.
type Key = (bool, u128, u128, bool);

/// The parts the manifest lists, and their zones (canonical cells).
type Done = HashMap<Key, u128>;

/// The manifest at `path`: the parts it lists and the end of the last one's
/// frame (0 if none). A last line cut short is ignored.
fn read_manifest(path: &Path, header: &str) -> Result<(Done, u64), SolveError> {
    let Some(text) = whole_lines(path, "a bundle's manifest")? else {
        return Ok((Done::new(), 0));
    };
    let mut lines = text.lines();
    match lines.next() {
        None => return Ok((Done::new(), 0)),
        Some(first) if first == header => {}
        Some(first) => {
            return Err(SolveError::InvalidPosition(format!(
                "{} is the manifest of another bundle: {first:?}, this one's {header:?}",
                path.display()
            )))
        }
    }
    let mut done = Done::new();
    let mut end = 0;
    for (i, line) in lines.enumerate() {
        let bad = || {
            SolveError::InvalidPosition(format!(
                "{} line {}: not a part: {line:?}",
                path.display(),
                i + 2
            ))
        };
        let f: Vec<&str> = line.split(' ').collect();
        if f.len() != 7 {
            return Err(bad());
        }
        let hex = |s: &str| u128::from_str_radix(s, 16).map_err(|_| bad());
        let side = |s: &str| match s {
            "x" => Ok(true),
            "o" => Ok(false),
            _ => Err(bad()),
        };
        done.insert(
            (side(f[0])?, hex(f[1])?, hex(f[2])?, side(f[3])?),
            hex(f[4])?,
        );
        end = f[5].parse().map_err(|_| bad())?;
    }
    Ok((done, end))
}

impl FreeSolver {
    /// Solves `pos` and writes a proof of its outcome to `path` as a bundle
    /// (module docs of `bundle.rs`; checked by `inarow::proof::check_reader`
    /// over [`crate::proof::open`]): the `no-loss` claims of a draw under the freestyle
    /// rule with the zone search on are cut into parts at positions of `cut`
    /// stones or more; any other outcome is written as one proof. `pinned`
    /// (an earlier search's outcomes of this board, as a journal holds them)
    /// start the writer's search. Parts are written on the solver's threads.
    /// Resumes from `PATH.parts`; progress in `progress`;
    /// [`SolveError::Interrupted`] once `cancel` is raised (the parts written
    /// so far are kept).
    pub fn write_proof_bundle(
        &mut self,
        pos: &FreePosition,
        path: &Path,
        cut: u32,
        pinned: &[PinnedOutcome],
        progress: &BundleProgress,
        cancel: &AtomicBool,
    ) -> Result<BundleSummary, SolveError> {
        if fits_one_word(pos.cells()) {
            self.write_bundle_in::<u64>(pos, path, cut, pinned, progress, cancel)
        } else {
            self.write_bundle_in::<u128>(pos, path, cut, pinned, progress, cancel)
        }
    }

    fn write_bundle_in<W: Word>(
        &mut self,
        pos: &FreePosition,
        path: &Path,
        cut: u32,
        pinned: &[PinnedOutcome],
        progress: &BundleProgress,
        cancel: &AtomicBool,
    ) -> Result<BundleSummary, SolveError> {
        let io = |e: std::io::Error| SolveError::Io(format!("{}: {e}", path.display()));
        let most = pinned
            .iter()
            .map(|o| (o.attacker | o.defender).count_ones())
            .max()
            .unwrap_or(0);
        self.set_pinned_stones(most, None);
        let value = self
            .add_pinned(pos, pinned)
            .and_then(|()| self.solve(pos, true, cancel));
        self.set_pinned_stones(0, None);
        let value = value?;
        let outcome = if pos.moves().is_multiple_of(2) {
            value
        } else {
            -value
        };
        let zoned = self.zone_search_on() && !exact(pos.rule());
        let mut manifest_path = PathBuf::from(path);
        manifest_path.as_mut_os_string().push(".parts");
        let header = manifest_header(pos, cut);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        lock_alone(&file, path)?;
        let (done, end) = read_manifest(&manifest_path, &header)?;
        let len = file.metadata().map_err(io)?.len();
        if len < end {
            return Err(SolveError::Io(format!(
                "{} has {len} bytes, shorter than the {end} its manifest lists",
                path.display()
            )));
        }
        file.set_len(end).map_err(io)?;
        file.seek(std::io::SeekFrom::Start(end)).map_err(io)?;
        let earlier = done.len() as u64;
        progress.earlier.store(earlier, Ordering::Relaxed);
        if !(zoned && outcome == 0) || pos.is_over() {
            let mut frame = zstd::Encoder::new(BufWriter::new(&mut file), 3).map_err(io)?;
            let summary = self.write_proof(pos, &mut frame, cancel)?;
            frame.finish().map_err(io)?.flush().map_err(io)?;
            return Ok(BundleSummary {
                outcome,
                earlier,
                parts: 1,
                records: summary.records,
                bytes: file.metadata().map_err(io)?.len(),
            });
        }
        let mut manifest = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&manifest_path)
            .map_err(|e| SolveError::Io(format!("{}: {e}", manifest_path.display())))?;
        if end == 0 {
            manifest
                .set_len(0)
                .and_then(|()| writeln!(manifest, "{header}"))
                .map_err(|e| SolveError::Io(format!("{}: {e}", manifest_path.display())))?;
        }
        let geometry = Geometry::<W>::new(pos.width(), pos.height(), pos.k(), false)?;
        let mut table = ZoneTable::<W>::new(self.tt_bytes())?;
        table.pin(most, None);
        table.add_saved(pinned);
        let board_line = format!(
            "inarow-proof 2\nboard {} {} {} {}",
            pos.width(),
            pos.height(),
            pos.k(),
            pos.rule().name()
        );
        let shared = Shared {
            geo: &geometry,
            table: &table,
            cancel,
            cut,
            board_line: &board_line,
            out: Mutex::new(Out {
                file: BufWriter::new(&mut file),
                manifest: &mut manifest,
            }),
            manifest_path: &manifest_path,
            done: Mutex::new(done),
            busy: Mutex::new(HashSet::new()),
            halt: AtomicBool::new(false),
            progress,
        };
        let (current, mask) = pos.stones::<W>();
        let x_to_move = pos.moves().is_multiple_of(2);
        let (x, o) = if x_to_move {
            (current, current ^ mask)
        } else {
            (current ^ mask, current)
        };
        // The claims from the root, each part's zone as its proof found it;
        // `skip_busy`: a part another thread is writing is passed over with
        // the zone the search knows for it (the traversal goes on past it).
        let traverse = |out: &mut Vec<u8>, skip_busy: bool| -> Result<u64, SolveError> {
            let mut parts = Parts {
                shared: &shared,
                skip_busy,
            };
            let mut records = 0;
            for claimant_is_x in [true, false] {
                let claimant = if claimant_is_x { 'x' } else { 'o' };
                writeln!(out, "claim {claimant} no-loss").map_err(io)?;
                let (a, d) = if claimant_is_x { (o, x) } else { (x, o) };
                let search = ZoneSearch::new(&geometry, &table, cancel);
                let mut writer =
                    ZoneProofWriter::new(&geometry, search, &mut *out, claimant_is_x, cancel);
                writer.parts = Some(&mut parts);
                writer.node(a, d, x_to_move == claimant_is_x)?;
                records += writer.records;
            }
            Ok(records)
        };
        // More threads: each traverses the claims writing the parts no other
        // is writing; then one traversal writes what is left and the root's
        // part.
        let threads = self.threads();
        if threads > 1 {
            let failed: Mutex<Option<SolveError>> = Mutex::new(None);
            std::thread::scope(|scope| {
                for _ in 0..threads {
                    scope.spawn(|| {
                        if let Err(e) = traverse(&mut Vec::new(), true) {
                            failed.lock().expect("never poisoned").get_or_insert(e);
                            shared.halt.store(true, Ordering::Relaxed);
                        }
                    });
                }
            });
            if let Some(e) = failed.into_inner().expect("never poisoned") {
                return Err(e);
            }
        }
        let (x, o) = pos.x_and_o::<W>();
        let cells = cells_text(pos.cells(), x, o);
        let mut last = Vec::new();
        writeln!(last, "{board_line}\nroot {cells}").map_err(io)?;
        let records = traverse(&mut last, false)?;
        writeln!(last, "end").map_err(io)?;
        let written = progress.parts.load(Ordering::Relaxed);
        let mut out = shared.out.into_inner().expect("never poisoned");
        let mut frame = zstd::Encoder::new(&mut out.file, 3).map_err(io)?;
        frame.write_all(&last).map_err(io)?;
        frame.finish().map_err(io)?;
        out.file.flush().map_err(io)?;
        drop(out);
        Ok(BundleSummary {
            outcome,
            earlier,
            parts: written + 1,
            records: records + progress.records.load(Ordering::Relaxed),
            bytes: std::fs::metadata(path).map_err(io)?.len(),
        })
    }
}

/// The bundle's file and manifest, appended a whole part at a time.
struct Out<'a> {
    file: BufWriter<&'a mut File>,
    manifest: &'a mut File,
}

/// What the threads writing one bundle share.
struct Shared<'a, W: Word> {
    geo: &'a Geometry<W>,
    table: &'a ZoneTable<W>,
    cancel: &'a AtomicBool,
    cut: u32,
    /// The first two lines of every part.
    board_line: &'a str,
    out: Mutex<Out<'a>>,
    manifest_path: &'a Path,
    /// The parts on disk, and those a thread is writing.
    done: Mutex<Done>,
    busy: Mutex<HashSet<Key>>,
    /// Set when a thread fails: the others start no more parts.
    halt: AtomicBool,
    progress: &'a BundleProgress,
}

/// One traversal's view of the parts.
struct Parts<'s, 'a, W: Word> {
    shared: &'s Shared<'a, W>,
    /// Pass over the parts another thread is writing.
    skip_busy: bool,
}

impl<W: Word> PartSink<W> for Parts<'_, '_, W> {
    fn part(
        &mut self,
        a: W,
        d: W,
        defender_to_move: bool,
        claimant_is_x: bool,
    ) -> Result<Option<W>, SolveError> {
        let sh = self.shared;
        let g = sh.geo;
        let (x, o) = if claimant_is_x { (d, a) } else { (a, d) };
        let x_to_move = defender_to_move == claimant_is_x;
        // A part's root is a position of the game: its stones give the side
        // to move (none after a pass).
        let (xs, os) = (x.count(), o.count());
        let of_the_game = if x_to_move { xs == os } else { xs == os + 1 };
        if xs + os < sh.cut || !of_the_game {
            return Ok(None);
        }
        let ((kx, ko), s) = canonical(g, x, o);
        let key = (claimant_is_x, kx.widen(), ko.widen(), x_to_move);
        if let Some(&zone) = sh.done.lock().expect("never poisoned").get(&key) {
            return Ok(Some(preimage(g, s, W::narrow(zone))));
        }
        if sh.halt.load(Ordering::Relaxed) {
            // Another thread's error is the one reported.
            return Err(SolveError::Interrupted);
        }
        // (A traversal that skips nothing runs alone: nothing is busy then.)
        let claimed = sh.busy.lock().expect("never poisoned").insert(key);
        if !claimed && self.skip_busy {
            let search = ZoneSearch::new(g, sh.table, sh.cancel);
            let known = search.known(a, d, !defender_to_move).flatten();
            return Ok(Some(known.unwrap_or(g.board & !(a | d))));
        }
        let written = self.write(a, d, defender_to_move, claimant_is_x, x, o);
        sh.busy.lock().expect("never poisoned").remove(&key);
        let (zone, frame, records) = written?;
        let canonical = image(g, s, zone);
        let io = |e: std::io::Error| SolveError::Io(format!("writing a part: {e}"));
        let mut out = sh.out.lock().expect("never poisoned");
        out.file.write_all(&frame).map_err(io)?;
        out.file.flush().map_err(io)?;
        let end = out.file.get_mut().stream_position().map_err(io)?;
        let claimant = if claimant_is_x { 'x' } else { 'o' };
        let mover = if x_to_move { 'x' } else { 'o' };
        writeln!(
            out.manifest,
            "{claimant} {:x} {:x} {mover} {:x} {end} {records}",
            kx.widen(),
            ko.widen(),
            canonical.widen()
        )
        .and_then(|()| out.manifest.flush())
        .map_err(|e| SolveError::Io(format!("{}: {e}", sh.manifest_path.display())))?;
        drop(out);
        sh.done
            .lock()
            .expect("never poisoned")
            .insert(key, canonical.widen());
        sh.progress.parts.fetch_add(1, Ordering::Relaxed);
        sh.progress.records.fetch_add(records, Ordering::Relaxed);
        sh.progress.bytes.store(end, Ordering::Relaxed);
        Ok(Some(zone))
    }
}

impl<W: Word> Parts<'_, '_, W> {
    /// The part of the claim at the position (x's stones `x`, o's `o`): its
    /// zone, its zstd frame and its records.
    fn write(
        &self,
        a: W,
        d: W,
        defender_to_move: bool,
        claimant_is_x: bool,
        x: W,
        o: W,
    ) -> Result<(W, Vec<u8>, u64), SolveError> {
        let sh = self.shared;
        let g = sh.geo;
        let io = |e: std::io::Error| SolveError::Io(format!("writing a part: {e}"));
        let cells = cells_text(g.cells as usize, x, o);
        let claimant = if claimant_is_x { 'x' } else { 'o' };
        let mut frame = zstd::Encoder::new(Vec::new(), 3).map_err(io)?;
        writeln!(
            frame,
            "{}\nroot {cells}\nclaim {claimant} no-loss",
            sh.board_line
        )
        .map_err(io)?;
        let search = ZoneSearch::new(g, sh.table, sh.cancel);
        let mut writer = ZoneProofWriter::new(g, search, &mut frame, claimant_is_x, sh.cancel);
        let zone = writer.node(a, d, defender_to_move)?;
        let records = writer.records;
        drop(writer);
        writeln!(frame, "end").map_err(io)?;
        Ok((zone, frame.finish().map_err(io)?, records))
    }
}
