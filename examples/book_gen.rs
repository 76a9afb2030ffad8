//! Generates (and checks) the Connect-Four opening book with the project's own solver.
//!
//! ```text
//! cargo run --release --example book_gen -- [--ply 12] [--kind weak|exact]
//!     [--workers 2] [--threads 1] [--tt-mib 1024] [--chunk 256] [--checkpoint-secs 60]
//!     [--limit N] [--state DIR] [--out FILE]
//! cargo run --release --example book_gen -- estimate [--ply 12] [--windows 8] [--window 200]
//! cargo run --release --example book_gen -- check [--book FILE] [--sample 200] [--seed 1]
//!     [--full --state DIR --kind exact ...]
//! ```
//!
//! Generation: every position reachable on 7x6 after `--ply` stones, folded by mirror
//! symmetry, in a fixed order (see `book::reachable`), minus those the player to move
//! wins at once, is solved (`--kind weak`: win/draw/loss; `exact`: the score).
//! Workers take chunks of consecutive positions, each with its own warm table:
//! neighbours in that order share most of their trees. The solved prefix is saved in
//! `DIR/connect4-7x6-ply<P>-<kind>.ckpt` every `--checkpoint-secs` and on Ctrl-C (or
//! SIGTERM); running the same command again resumes from it, and the result does not
//! depend on interruptions, workers or table sizes (a score is a score).
//!
//! Once a level is complete, the book is assembled from every complete checkpoint in
//! `DIR`: the deepest weak level and the deepest exact level, each backed up to ply 0
//! by minimax, exact levels where there are any, weak ones below them; shallower
//! complete checkpoints and the weak/exact overlap are cross-checked on the way. The
//! book goes to `--out` (default `python/inarow/data/connect4-7x6.book.zst`, in the
//! compressed container it ships in; a name without `.zst` gets the plain file).
//!
//! `estimate`: solves `--windows` runs of `--window` consecutive positions spread
//! evenly over the level (one worker, a fresh table per run) and projects the CPU
//! time of the whole level from them.
//!
//! `check`: loads the book, checks that every level holds exactly the reachable
//! positions and that each level is the minimax of the next, then re-solves `--sample`
//! random positions of the deepest level from scratch (cleared table, exact search).
//! With `--full` it re-solves the whole deepest level into its own checkpoint in
//! `DIR/check/` (resumable like generation; exact scores by default, `--kind weak`
//! for win/draw/loss) and compares every entry. The re-solve uses no book, neither
//! its values nor its parent bounds: an independent path through the search.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use inarow::solver::book::{self, Book, Kind, LevelCodes, SlotIndex};
use inarow::solver::{Position, Solver, SolverConfig};
use inarow::Rng;

const WIDTH: usize = 7;
const HEIGHT: usize = 6;
const K: usize = 4;
const CHECKPOINT_MAGIC: &[u8; 8] = b"INAROWCK";
const CHECKPOINT_VERSION: u32 = 2;
const CHECKPOINT_HEADER: usize = 64;

#[path = "support/interrupt.rs"]
mod interrupt;
#[path = "support/timing.rs"]
mod timing;
use interrupt::{install_interrupt_handler, INTERRUPTED};
use timing::{cpu_seconds, fmt_duration};

fn fail(message: String) -> ! {
    eprintln!("book_gen: {message}");
    std::process::exit(2);
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Generate,
    Estimate,
    Check,
}

struct Args {
    mode: Mode,
    windows: usize,
    window: usize,
    ply: usize,
    kind: Kind,
    workers: usize,
    threads: usize,
    tt_mib: usize,
    chunk: usize,
    checkpoint_secs: u64,
    limit: Option<usize>,
    state: PathBuf,
    out: PathBuf,
    sample: usize,
    seed: u64,
    full: bool,
}

fn parse_args() -> Args {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut args = Args {
        mode: Mode::Generate,
        windows: 8,
        window: 200,
        ply: 12,
        kind: Kind::Weak,
        workers: 2,
        threads: 1,
        tt_mib: 1024,
        chunk: 256,
        checkpoint_secs: 60,
        limit: None,
        state: root.join("scripts/book-state"),
        out: root.join("python/inarow/data/connect4-7x6.book.zst"),
        sample: 200,
        seed: 1,
        full: false,
    };
    let mut kind_given = false;
    let mut i = 0;
    while i < argv.len() {
        let flag = argv[i].as_str();
        let value = || {
            argv.get(i + 1)
                .cloned()
                .unwrap_or_else(|| fail(format!("{flag} needs a value")))
        };
        let number = |v: String| -> usize {
            v.parse()
                .unwrap_or_else(|_| fail(format!("{flag}: {v:?} is not a number")))
        };
        let mut takes_value = true;
        match flag {
            "check" if i == 0 => {
                args.mode = Mode::Check;
                takes_value = false;
            }
            "estimate" if i == 0 => {
                args.mode = Mode::Estimate;
                takes_value = false;
            }
            "--windows" => args.windows = number(value()).max(1),
            "--window" => args.window = number(value()).max(1),
            "--full" => {
                args.full = true;
                takes_value = false;
            }
            "--ply" => args.ply = number(value()),
            "--kind" => {
                kind_given = true;
                args.kind = match value().as_str() {
                    "weak" => Kind::Weak,
                    "exact" => Kind::Exact,
                    other => fail(format!("--kind {other:?}: expected weak or exact")),
                }
            }
            "--workers" => args.workers = number(value()).max(1),
            "--threads" => args.threads = number(value()).max(1),
            "--tt-mib" => args.tt_mib = number(value()).max(1),
            "--chunk" => args.chunk = number(value()).max(1),
            "--checkpoint-secs" => args.checkpoint_secs = number(value()) as u64,
            "--limit" => args.limit = Some(number(value())),
            "--state" => args.state = PathBuf::from(value()),
            "--out" | "--book" => args.out = PathBuf::from(value()),
            "--sample" => args.sample = number(value()),
            "--seed" => args.seed = number(value()) as u64,
            "-h" | "--help" => {
                println!("see the doc comment of examples/book_gen.rs");
                std::process::exit(0);
            }
            other => fail(format!("unknown argument {other:?}")),
        }
        i += if takes_value { 2 } else { 1 };
    }
    if args.mode == Mode::Check && args.full && !kind_given {
        args.kind = Kind::Exact;
    }
    args
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Weak => "weak",
        Kind::Exact => "exact",
    }
}

/// The solved prefix of one level's positions, as saved between runs.
///
/// ```text
///  0  8 magic "INAROWCK"     8 4 version     12 1 width  13 1 height  14 1 k  15 1 ply
/// 16  1 kind (1 weak, 2 exact)  17 7 zero
/// 24  8 positions to solve   32 8 positions solved   40 8 CRC-64 of the position list
/// 48  8 seconds spent (f64)   56 8 nodes searched
/// 64    the solved positions' book codes: four a byte (weak, 2 bits each from the
///       lowest) or one a byte (exact)
/// ```
/// Written to a temporary file and renamed, so a crash leaves the previous one.
struct Checkpoint {
    ply: usize,
    kind: Kind,
    total: u64,
    list_crc: u64,
    codes: Vec<u8>,
    seconds: f64,
    nodes: u64,
}

fn checkpoint_path(state: &Path, ply: usize, kind: Kind) -> PathBuf {
    state.join(format!(
        "connect4-{WIDTH}x{HEIGHT}-ply{ply}-{}.ckpt",
        kind_name(kind)
    ))
}

fn tag(kind: Kind) -> u8 {
    match kind {
        Kind::Weak => 1,
        Kind::Exact => 2,
    }
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

impl Checkpoint {
    fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(CHECKPOINT_HEADER + self.codes.len());
        out.extend_from_slice(CHECKPOINT_MAGIC);
        out.extend_from_slice(&CHECKPOINT_VERSION.to_le_bytes());
        out.extend_from_slice(&[WIDTH as u8, HEIGHT as u8, K as u8, self.ply as u8]);
        out.extend_from_slice(&[tag(self.kind), 0, 0, 0, 0, 0, 0, 0]);
        out.extend_from_slice(&self.total.to_le_bytes());
        out.extend_from_slice(&(self.codes.len() as u64).to_le_bytes());
        out.extend_from_slice(&self.list_crc.to_le_bytes());
        out.extend_from_slice(&self.seconds.to_le_bytes());
        out.extend_from_slice(&self.nodes.to_le_bytes());
        match self.kind {
            Kind::Weak => out.extend(self.codes.chunks(4).map(|four| {
                four.iter()
                    .enumerate()
                    .fold(0u8, |byte, (i, &code)| byte | code << (2 * i))
            })),
            Kind::Exact => out.extend_from_slice(&self.codes),
        }
        out
    }

    /// The checkpoint at `path` for this level, `None` if there is none; an error
    /// if it belongs to another level or another position list, or is damaged.
    fn load(
        path: &Path,
        ply: usize,
        kind: Kind,
        total: u64,
        list_crc: u64,
    ) -> Result<Option<Checkpoint>, String> {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let bad = |m: &str| Err(format!("{}: {m}", path.display()));
        if bytes.len() < CHECKPOINT_HEADER || &bytes[..8] != CHECKPOINT_MAGIC {
            return bad("not a book checkpoint");
        }
        if u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) != CHECKPOINT_VERSION {
            return bad("another checkpoint version");
        }
        if bytes[12..16] != [WIDTH as u8, HEIGHT as u8, K as u8, ply as u8]
            || bytes[16] != tag(kind)
        {
            return bad("made for another board, ply or kind");
        }
        if u64_at(&bytes, 24) != total || u64_at(&bytes, 40) != list_crc {
            return bad("made for another position list (did the enumeration change?)");
        }
        let done = u64_at(&bytes, 32);
        let per_byte = if kind == Kind::Weak { 4 } else { 1 };
        if done > total || (bytes.len() - CHECKPOINT_HEADER) as u64 != done.div_ceil(per_byte) {
            return bad("truncated or inconsistent");
        }
        let payload = &bytes[CHECKPOINT_HEADER..];
        let codes: Vec<u8> = (0..done as usize)
            .map(|i| match kind {
                Kind::Weak => payload[i / 4] >> (2 * (i % 4)) & 3,
                Kind::Exact => payload[i],
            })
            .collect();
        if codes.iter().any(|&c| kind.score(c).is_none()) {
            return bad("holds an invalid code");
        }
        Ok(Some(Checkpoint {
            ply,
            kind,
            total,
            list_crc,
            codes,
            seconds: f64::from_le_bytes(bytes[48..56].try_into().expect("8 bytes")),
            nodes: u64_at(&bytes, 56),
        }))
    }

    fn save(&self, path: &Path) -> Result<(), String> {
        let tmp = path.with_extension("ckpt.tmp");
        let write = || -> std::io::Result<()> {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(&self.to_bytes())?;
            f.sync_all()?;
            std::fs::rename(&tmp, path)
        };
        write().map_err(|e| format!("{}: {e}", path.display()))
    }

    fn complete(&self) -> bool {
        self.codes.len() as u64 == self.total
    }
}

/// The level's positions that need a search (the player to move cannot win at once).
fn to_solve(index: &SlotIndex, ply: usize, level: &[u64]) -> Vec<u64> {
    level
        .iter()
        .copied()
        .filter(|&slot| {
            let pos = index
                .position(ply, slot)
                .expect("listed slots are in range");
            book::immediate_score(&pos).is_none()
        })
        .collect()
}

/// The checkpoint of a level's `records` under `state`: the saved one if any
/// (refused when it belongs to another list), else an empty one.
fn open_checkpoint(state: &Path, ply: usize, kind: Kind, records: &[u64]) -> (PathBuf, Checkpoint) {
    let path = checkpoint_path(state, ply, kind);
    let crc = list_crc(records);
    let ckpt = Checkpoint::load(&path, ply, kind, records.len() as u64, crc)
        .unwrap_or_else(|e| fail(e))
        .unwrap_or(Checkpoint {
            ply,
            kind,
            total: records.len() as u64,
            list_crc: crc,
            codes: Vec::new(),
            seconds: 0.0,
            nodes: 0,
        });
    (path, ckpt)
}

fn list_crc(records: &[u64]) -> u64 {
    let bytes: Vec<u8> = records.iter().flat_map(|r| r.to_le_bytes()).collect();
    book::crc64(&bytes)
}

/// The progress line: bar, counts, rate and time left.
fn progress_line(
    done: u64,
    total: u64,
    started_with: u64,
    elapsed: f64,
    recent_rate: f64,
) -> String {
    let frac = if total == 0 {
        1.0
    } else {
        done as f64 / total as f64
    };
    let filled = (frac * 30.0) as usize;
    let bar: String = (0..30)
        .map(|i| if i < filled { '#' } else { '.' })
        .collect();
    let rate = if recent_rate > 0.0 {
        recent_rate
    } else {
        (done - started_with) as f64 / elapsed.max(1e-9)
    };
    let eta = if rate > 0.0 {
        fmt_duration((total - done) as f64 / rate)
    } else {
        "?".into()
    };
    format!(
        "[{bar}] {:5.1}% {done}/{total} positions  {rate:.1}/s  elapsed {}  ETA {eta}",
        frac * 100.0,
        fmt_duration(elapsed)
    )
}

/// The book at `--out`, when it holds the level one ply before `ply` and `kind` is
/// win/draw/loss: then a position whose parent there loses is a win, one whose
/// parent draws is a win or a draw (one probe instead of up to two), and one whose
/// parents all win is first probed for a loss.
fn parents_book(args: &Args, ply: usize, kind: Kind) -> Option<Book> {
    if kind != Kind::Weak || ply == 0 {
        return None;
    }
    let book = Book::open(&args.out).ok()?;
    let held = book.levels().iter().any(|l| l.ply + 1 == ply);
    held.then_some(book)
}

/// The book at `--out`, when `kind` is exact and the book holds win/draw/loss
/// levels deeper than `ply` and no exact level at or past it: the searches of an
/// exact level are then bounded by those outcomes (a position's own, and every
/// node's down to the book's depth; ply 9: 773k -> 468k nodes a position), never
/// answered from a level they are making.
fn bounding_book(args: &Args, ply: usize, kind: Kind) -> Option<Arc<Book>> {
    if kind != Kind::Exact {
        return None;
    }
    let book = Book::open(&args.out).ok()?;
    let levels = book.levels();
    let deeper_weak = levels.iter().any(|l| l.kind == Kind::Weak && l.ply > ply);
    let exact_here = levels.iter().any(|l| l.kind == Kind::Exact && l.ply >= ply);
    (deeper_weak && !exact_here).then(|| Arc::new(book))
}

/// The value of `pos` (its sign if `weak`), within the floor its parents in
/// `parents` give, and the nodes searched for it.
fn solve_position(
    solver: &mut Solver,
    parents: Option<&Book>,
    pos: &Position,
    weak: bool,
) -> Result<(i32, u64), inarow::solver::SolveError> {
    let value = match parents.and_then(|b| b.floor_from_parents(pos)) {
        Some(floor) if weak && floor >= 1 => return Ok((1, 0)),
        Some(0) if weak => solver.solve_within(pos, true, 0, 1, &INTERRUPTED)?,
        Some(_) if weak => {
            // Every parent wins: many such positions lose, which the probe "at
            // least a draw?" settles alone (ply 13: -9% nodes against the draw
            // probe first).
            let at_least_draw = solver.solve_within(pos, true, -1, 0, &INTERRUPTED)?;
            let nodes = solver.nodes();
            if at_least_draw < 0 {
                return Ok((-1, nodes));
            }
            let v = solver.solve_within(pos, true, 0, 1, &INTERRUPTED)?;
            return Ok((v, nodes + solver.nodes()));
        }
        _ => solver.solve(pos, weak, &INTERRUPTED)?,
    };
    Ok((value, solver.nodes()))
}

/// Solves `records[ckpt.codes.len()..]` (up to `limit` of them) into `ckpt`,
/// checkpointing to `path`. Returns whether the level is complete.
fn solve_level(
    args: &Args,
    index: &SlotIndex,
    records: &[u64],
    ckpt: &mut Checkpoint,
    path: &Path,
) -> bool {
    let start = ckpt.codes.len();
    let end = args
        .limit
        .map_or(records.len(), |l| records.len().min(start + l));
    if start >= end {
        return ckpt.complete();
    }
    let config = SolverConfig {
        tt_bytes: args.tt_mib << 20,
        threads: args.threads,
    };
    let weak = ckpt.kind == Kind::Weak;
    let (ply, kind, chunk) = (ckpt.ply, ckpt.kind, args.chunk);
    // A full check re-solves with no book: neither its values nor its bounds.
    let (parents, bounds) = if args.mode == Mode::Check {
        (None, None)
    } else {
        (
            parents_book(args, ply, kind),
            bounding_book(args, ply, kind),
        )
    };
    let parents = parents.as_ref();
    let bounds = &bounds;
    let next_chunk = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Vec<u8>, u64)>();
    let t0 = Instant::now();
    let cpu0 = cpu_seconds();
    let seconds_before = ckpt.seconds;
    let tty = std::io::stderr().is_terminal();
    eprintln!(
        "solving positions {start}..{end} of {} ({} workers x {} threads, {} MiB table each, chunks of {chunk})",
        records.len(),
        args.workers,
        args.threads,
        args.tt_mib
    );
    std::thread::scope(|scope| {
        for _ in 0..args.workers {
            let tx = tx.clone();
            let next_chunk = &next_chunk;
            scope.spawn(move || {
                let mut solver =
                    Solver::new(config).unwrap_or_else(|e| fail(format!("solver: {e}")));
                solver.set_book(bounds.clone());
                loop {
                    let i = next_chunk.fetch_add(1, Ordering::Relaxed);
                    let lo = start + i * chunk;
                    if lo >= end || INTERRUPTED.load(Ordering::Relaxed) {
                        return;
                    }
                    let hi = (lo + chunk).min(end);
                    let mut codes = Vec::with_capacity(hi - lo);
                    let mut nodes = 0;
                    for &slot in &records[lo..hi] {
                        let pos = index
                            .position(ply, slot)
                            .expect("listed slots are in range");
                        match solve_position(&mut solver, parents, &pos, weak) {
                            Ok((score, searched)) => {
                                codes.push(kind.code(score));
                                nodes += searched;
                            }
                            Err(_) => return, // interrupted: the chunk is dropped
                        }
                    }
                    if tx.send((i, codes, nodes)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, (Vec<u8>, u64)> = BTreeMap::new();
        let mut next_index = 0usize;
        let mut last_save = Instant::now();
        let mut last_print = Instant::now();
        let mut window: Vec<(Instant, u64)> = vec![(t0, start as u64)];
        loop {
            let received = rx.recv_timeout(Duration::from_millis(500));
            let disconnected = matches!(received, Err(mpsc::RecvTimeoutError::Disconnected));
            if let Ok((i, codes, nodes)) = received {
                pending.insert(i, (codes, nodes));
            }
            while let Some((codes, nodes)) = pending.remove(&next_index) {
                ckpt.codes.extend_from_slice(&codes);
                ckpt.nodes += nodes;
                next_index += 1;
            }
            let now = Instant::now();
            let elapsed = now.duration_since(t0).as_secs_f64();
            ckpt.seconds = seconds_before + elapsed;
            let done = ckpt.codes.len() as u64;
            if disconnected || now.duration_since(last_save).as_secs() >= args.checkpoint_secs {
                if let Err(e) = ckpt.save(path) {
                    eprintln!("\nbook_gen: checkpoint not saved: {e}");
                }
                last_save = now;
            }
            let print_every = if tty { 1 } else { 60 };
            if disconnected || now.duration_since(last_print).as_secs() >= print_every {
                window.push((now, done));
                // The rate over the last ten minutes or so.
                while window.len() > 2 && now.duration_since(window[0].0).as_secs() > 600 {
                    window.remove(0);
                }
                let (t_old, d_old) = window[0];
                let span = now.duration_since(t_old).as_secs_f64();
                let recent = if span > 5.0 {
                    (done - d_old) as f64 / span
                } else {
                    0.0
                };
                let line = progress_line(done, records.len() as u64, start as u64, elapsed, recent);
                if tty {
                    eprint!("\r{line}  ");
                } else {
                    eprintln!("{line}");
                }
                last_print = now;
            }
            if disconnected {
                break;
            }
        }
        if tty {
            eprintln!();
        }
    });
    let solved = ckpt.codes.len() - start;
    let wall = t0.elapsed().as_secs_f64();
    eprintln!(
        "this run: {solved} positions in {:.3} h ({:.3} CPU h, {:.1} positions/s); level so far: {} of {} in {:.3} h, {:.3e} nodes",
        wall / 3600.0,
        (cpu_seconds() - cpu0) / 3600.0,
        solved as f64 / wall.max(1e-9),
        ckpt.codes.len(),
        ckpt.total,
        ckpt.seconds / 3600.0,
        ckpt.nodes as f64,
    );
    if INTERRUPTED.load(Ordering::Relaxed) {
        eprintln!(
            "interrupted: progress saved in {}; run the same command to resume",
            path.display()
        );
    }
    ckpt.complete()
}

/// The level `ply` of `kind` from a complete checkpoint and the positions list.
fn level_from_checkpoint(
    index: &SlotIndex,
    positions: &[Vec<u64>],
    ckpt: &Checkpoint,
) -> LevelCodes {
    let mut codes = ckpt.codes.iter();
    book::fill_level(index, ckpt.kind, ckpt.ply, &positions[ckpt.ply], |_| {
        let code = *codes.next().expect("one code per position to solve");
        ckpt.kind.score(code).expect("checked at load")
    })
    .unwrap_or_else(|e| fail(e.to_string()))
}

/// The complete checkpoints in `state`, as (ply, kind).
fn complete_checkpoints(
    state: &Path,
    index: &SlotIndex,
    positions_cache: &mut Vec<Vec<u64>>,
) -> Vec<Checkpoint> {
    let mut found = Vec::new();
    for ply in 0..=WIDTH * HEIGHT {
        for kind in [Kind::Weak, Kind::Exact] {
            let path = checkpoint_path(state, ply, kind);
            if !path.exists() {
                continue;
            }
            if positions_cache.len() <= ply {
                *positions_cache =
                    book::reachable(index, ply).unwrap_or_else(|e| fail(e.to_string()));
            }
            let records = to_solve(index, ply, &positions_cache[ply]);
            let ckpt = Checkpoint::load(&path, ply, kind, records.len() as u64, list_crc(&records))
                .unwrap_or_else(|e| fail(e));
            if let Some(c) = ckpt.filter(Checkpoint::complete) {
                found.push(c);
            }
        }
    }
    found
}

/// Assembles the book from the complete checkpoints and writes it to `out`.
fn assemble(args: &Args, index: &SlotIndex) {
    let mut positions = Vec::new();
    let complete = complete_checkpoints(&args.state, index, &mut positions);
    let deepest = |kind: Kind| {
        complete
            .iter()
            .filter(|c| c.kind == kind)
            .max_by_key(|c| c.ply)
    };
    let backed = |c: &Checkpoint| -> Vec<LevelCodes> {
        let level = level_from_checkpoint(index, &positions, c);
        book::back_up_all(index, &positions, level).unwrap_or_else(|e| fail(e.to_string()))
    };
    let weak = deepest(Kind::Weak).map(backed);
    let exact = deepest(Kind::Exact).map(backed);
    // Cross-checks: shallower complete levels against the backed-up ones.
    for c in &complete {
        let Some(chain) = (match c.kind {
            Kind::Weak => weak.as_ref(),
            Kind::Exact => exact.as_ref(),
        }) else {
            continue;
        };
        let mine = level_from_checkpoint(index, &positions, c);
        if chain[c.ply] != mine {
            fail(format!(
                "ply {} ({}) disagrees with the deeper level backed up",
                c.ply,
                kind_name(c.kind)
            ));
        }
    }
    let mut levels: Vec<LevelCodes> = Vec::new();
    match (&weak, &exact) {
        (None, None) => fail(format!("no complete level in {}", args.state.display())),
        (Some(w), Some(e)) => {
            for ply in 0..e.len().min(w.len()) {
                let signs: Vec<u8> = e[ply]
                    .codes
                    .iter()
                    .map(|&c| Kind::Exact.score(c).map_or(0, |s| Kind::Weak.code(s)))
                    .collect();
                if signs != w[ply].codes {
                    fail(format!("ply {ply}: the exact and weak levels disagree"));
                }
            }
            levels.extend(e.iter().cloned());
            levels.extend(w.iter().skip(e.len()).cloned());
        }
        (Some(only), None) | (None, Some(only)) => levels.extend(only.iter().cloned()),
    }
    let bytes = book::encode(index, &levels).unwrap_or_else(|e| fail(e.to_string()));
    Book::from_bytes(bytes.clone())
        .unwrap_or_else(|e| fail(format!("the new book does not load: {e}")));
    if let Some(dir) = args.out.parent() {
        std::fs::create_dir_all(dir).unwrap_or_else(|e| fail(format!("{}: {e}", dir.display())));
    }
    // A `.zst` name gets the compressed container the book ships in.
    let file = if args.out.extension().is_some_and(|e| e == "zst") {
        book::compress(&bytes).unwrap_or_else(|e| fail(e.to_string()))
    } else {
        bytes.clone()
    };
    let mut tmp = args.out.clone().into_os_string();
    tmp.push(".tmp");
    std::fs::write(&tmp, &file)
        .and_then(|()| std::fs::rename(&tmp, &args.out))
        .unwrap_or_else(|e| fail(format!("{}: {e}", args.out.display())));
    let kinds: Vec<String> = levels
        .iter()
        .map(|l| format!("{}{}", l.ply, if l.kind == Kind::Exact { "e" } else { "w" }))
        .collect();
    let solved: f64 = [deepest(Kind::Weak), deepest(Kind::Exact)]
        .into_iter()
        .flatten()
        .map(|c| c.seconds)
        .sum();
    println!(
        "wrote {} ({} bytes, {} in the file; levels {}; deepest level solved in {:.2} h in all)",
        args.out.display(),
        bytes.len(),
        file.len(),
        kinds.join(" "),
        solved / 3600.0
    );
}

fn generate(args: &Args) {
    let empty = Position::new(WIDTH, HEIGHT, K).expect("7x6");
    let index = SlotIndex::for_position(&empty);
    let t = Instant::now();
    let positions = book::reachable(&index, args.ply).unwrap_or_else(|e| fail(e.to_string()));
    let records = to_solve(&index, args.ply, &positions[args.ply]);
    eprintln!(
        "ply {}: {} positions up to symmetry, {} to solve (the rest win at once); listed in {:.1} s",
        args.ply,
        positions[args.ply].len(),
        records.len(),
        t.elapsed().as_secs_f64()
    );
    let (path, mut ckpt) = open_checkpoint(&args.state, args.ply, args.kind, &records);
    if !ckpt.codes.is_empty() {
        eprintln!(
            "resuming from {} ({} done)",
            path.display(),
            ckpt.codes.len()
        );
    }
    if solve_level(args, &index, &records, &mut ckpt, &path) {
        eprintln!(
            "level complete: {} positions solved in {:.2} h over all runs",
            ckpt.total,
            ckpt.seconds / 3600.0
        );
        assemble(args, &index);
    } else if INTERRUPTED.load(Ordering::Relaxed) {
        std::process::exit(130);
    }
}

/// Checks the book's structure, then a sample (or all) of the deepest level.
fn check(args: &Args) {
    let t = Instant::now();
    let book = Book::open(&args.out).unwrap_or_else(|e| fail(e.to_string()));
    println!(
        "loaded {} ({} bytes) in {:.1} ms; levels {:?}",
        args.out.display(),
        book.bytes(),
        t.elapsed().as_secs_f64() * 1e3,
        book.levels()
            .iter()
            .map(|l| (l.ply, kind_name(l.kind)))
            .collect::<Vec<_>>()
    );
    let (w, h, k) = book.rules();
    let index =
        SlotIndex::for_position(&Position::new(w, h, k).unwrap_or_else(|e| fail(e.to_string())));
    let depth = book.depth();
    let positions = book::reachable(&index, depth).unwrap_or_else(|e| fail(e.to_string()));
    let level = |ply: usize| {
        book.level_codes(ply)
            .unwrap_or_else(|| fail(format!("the book has no level for ply {ply}")))
    };
    // Every level holds exactly the reachable positions and their mirror images.
    for (ply, list) in positions.iter().enumerate() {
        let codes = level(ply).codes;
        let mut expected = vec![false; codes.len()];
        for &slot in list {
            let pos = index.position(ply, slot).expect("in range");
            expected[slot as usize] = true;
            expected[index.mirror_slot(&pos) as usize] = true;
        }
        if let Some(slot) = (0..codes.len()).find(|&s| (codes[s] != 0) != expected[s]) {
            fail(format!(
                "ply {ply}: slot {slot} has code {}, expected an entry: {}",
                codes[slot], expected[slot]
            ));
        }
    }
    // Each level is the minimax of the next (an exact level above a weak one: its
    // signs).
    for (ply, list) in positions.iter().enumerate().take(depth) {
        let (this, next) = (level(ply), level(ply + 1));
        let backed = book::back_up(&index, list, &next).unwrap_or_else(|e| fail(e.to_string()));
        let agree = match (this.kind, next.kind) {
            (a, b) if a == b => backed == this,
            (Kind::Weak, Kind::Exact) => {
                fail(format!("weak ply {ply} above exact ply {}", ply + 1))
            }
            _ => backed.codes.iter().zip(&this.codes).all(|(&weak, &exact)| {
                Kind::Weak.score(weak) == Kind::Exact.score(exact).map(i32::signum)
            }),
        };
        if !agree {
            fail(format!("ply {ply} is not the minimax of ply {}", ply + 1));
        }
    }
    println!(
        "structure: every level holds exactly the reachable positions, each the minimax of the next ({} positions up to symmetry)",
        positions.iter().map(Vec::len).sum::<usize>()
    );
    let records = to_solve(&index, depth, &positions[depth]);
    // Lookup speed over the deepest level (positions built beforehand).
    let sample: Vec<Position> = records
        .iter()
        .take(100_000)
        .map(|&slot| index.position(depth, slot).expect("in range"))
        .collect();
    let t = Instant::now();
    let found = sample.iter().filter(|p| book.weak(p).is_some()).count();
    let per = t.elapsed().as_secs_f64() / sample.len().max(1) as f64;
    if found != sample.len() {
        fail(format!(
            "{} of {} positions of ply {depth} have no entry",
            sample.len() - found,
            sample.len()
        ));
    }
    println!(
        "lookups: {:.0} ns each over {} positions of ply {depth}",
        per * 1e9,
        sample.len()
    );
    sample_from_scratch(&book, &index, depth, &records, args.sample, args.seed);
    // The deepest exact level above a weak one: a sample of its scores too (a
    // fourth as many: they take longer), with no book in the search.
    let deepest_exact = book
        .levels()
        .iter()
        .filter(|l| l.kind == Kind::Exact)
        .map(|l| l.ply)
        .max();
    if let Some(ply) = deepest_exact.filter(|&p| p < depth) {
        let exact_records = to_solve(&index, ply, &positions[ply]);
        let count = args.sample.div_ceil(4);
        sample_from_scratch(&book, &index, ply, &exact_records, count, args.seed);
    }
    if args.full {
        // Apart from the generation's checkpoints, which the assembly reads.
        let state = args.state.join("check");
        if let Err(e) = std::fs::create_dir_all(&state) {
            fail(format!("{}: {e}", state.display()));
        }
        let (path, mut ckpt) = open_checkpoint(&state, depth, args.kind, &records);
        let complete = solve_level(args, &index, &records, &mut ckpt, &path);
        // What is re-solved so far is compared, also after an interruption.
        let stored = level(depth);
        for (i, (&slot, &code)) in records.iter().zip(&ckpt.codes).enumerate() {
            let score = ckpt.kind.score(code).expect("checked at load");
            let book_score = stored.kind.score(stored.codes[slot as usize]);
            let want = if stored.kind == Kind::Weak {
                score.signum()
            } else {
                score
            };
            if book_score != Some(want) {
                fail(format!("position {i} (slot {slot}): the book says {book_score:?}, the re-solve {score}"));
            }
        }
        if !complete {
            println!(
                "full check: {} of {} re-solved so far ({:.2} h), all agree",
                ckpt.codes.len(),
                ckpt.total,
                ckpt.seconds / 3600.0
            );
            if INTERRUPTED.load(Ordering::Relaxed) {
                std::process::exit(130);
            }
        } else {
            println!(
                "full check: all {} positions of ply {depth} re-solved ({} scores) agree ({:.2} h)",
                ckpt.total,
                kind_name(ckpt.kind),
                ckpt.seconds / 3600.0
            );
        }
    }
}

/// Re-solves `count` random positions of `records` (ply `ply`) from scratch
/// (cleared table, exact search, no book) and fails on any that disagrees with
/// `book`.
fn sample_from_scratch(
    book: &Book,
    index: &SlotIndex,
    ply: usize,
    records: &[u64],
    count: usize,
    seed: u64,
) {
    let mut rng = Rng::new(seed, ply as u64);
    let mut solver = Solver::new(SolverConfig::default()).unwrap_or_else(|e| fail(e.to_string()));
    let t = Instant::now();
    let count = count.min(records.len());
    for _ in 0..count {
        let slot = records[rng.below(records.len() as u32) as usize];
        let pos = index.position(ply, slot).expect("in range");
        solver.clear();
        let score = solver
            .solve(&pos, false, &INTERRUPTED)
            .unwrap_or_else(|e| fail(e.to_string()));
        let stored = book
            .exact(&pos)
            .unwrap_or_else(|| book.weak(&pos).unwrap_or(99));
        let want = if book.exact(&pos).is_some() {
            score
        } else {
            score.signum()
        };
        if stored != want {
            fail(format!(
                "ply {ply} slot {slot}: the book says {stored}, a fresh solve {score}"
            ));
        }
    }
    println!(
        "sample: {count} positions of ply {ply} re-solved from scratch agree ({:.1} s)",
        t.elapsed().as_secs_f64()
    );
}

/// Projects the level's solving time from evenly spread samples of it.
fn estimate(args: &Args) {
    let index = SlotIndex::for_position(&Position::new(WIDTH, HEIGHT, K).expect("7x6"));
    let positions = book::reachable(&index, args.ply).unwrap_or_else(|e| fail(e.to_string()));
    let records = to_solve(&index, args.ply, &positions[args.ply]);
    let weak = args.kind == Kind::Weak;
    let parents = parents_book(args, args.ply, args.kind);
    let bounds = bounding_book(args, args.ply, args.kind);
    let config = SolverConfig {
        tt_bytes: args.tt_mib << 20,
        threads: 1,
    };
    let (mut cpu, mut nodes, mut count) = (0.0, 0u64, 0usize);
    for w in 0..args.windows {
        let start = records.len() * w / args.windows;
        let window = &records[start..records.len().min(start + args.window)];
        let mut solver = Solver::new(config).unwrap_or_else(|e| fail(e.to_string()));
        solver.set_book(bounds.clone());
        let (cpu0, t0, mut window_nodes) = (cpu_seconds(), Instant::now(), 0u64);
        for &slot in window {
            let pos = index.position(args.ply, slot).expect("in range");
            match solve_position(&mut solver, parents.as_ref(), &pos, weak) {
                Ok((_, searched)) => window_nodes += searched,
                Err(_) => std::process::exit(130),
            }
        }
        let window_cpu = cpu_seconds() - cpu0;
        println!(
            "window at {start:>8}: {} positions, {:.1} ms CPU ({:.1} ms wall) and {:.0} nodes per position",
            window.len(),
            window_cpu * 1e3 / window.len() as f64,
            t0.elapsed().as_secs_f64() * 1e3 / window.len() as f64,
            window_nodes as f64 / window.len() as f64
        );
        cpu += window_cpu;
        nodes += window_nodes;
        count += window.len();
    }
    let per = cpu / count as f64;
    println!(
        "ply {} ({}): {} positions to solve; {:.1} ms CPU and {:.0} nodes per position in the samples: {:.1} CPU hours in all ({:.1} h on 1.5 cores)",
        args.ply,
        kind_name(args.kind),
        records.len(),
        per * 1e3,
        nodes as f64 / count as f64,
        per * records.len() as f64 / 3600.0,
        per * records.len() as f64 / 3600.0 / 1.5
    );
}

fn main() {
    install_interrupt_handler();
    let args = parse_args();
    match args.mode {
        Mode::Generate => generate(&args),
        Mode::Estimate => estimate(&args),
        Mode::Check => check(&args),
    }
}
