//! Proof bundles: written, checked part by part, resumed from their manifest.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use super::*;
use crate::proof::{check_bundle, CheckProgress, ProofError, Verdict};
use crate::solver::SolveError;

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("inarow-bundle-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(pos: &FreePosition, path: &Path, cut: u32) -> BundleSummary {
    let mut solver = FreeSolver::new(1 << 22).unwrap();
    solver
        .write_proof_bundle(
            pos,
            path,
            cut,
            &[],
            &BundleProgress::default(),
            &AtomicBool::new(false),
        )
        .unwrap()
}

/// The bundle's text: its zstd frames decoded one after another.
fn text(path: &Path) -> String {
    String::from_utf8(zstd::decode_all(std::fs::File::open(path).unwrap()).unwrap()).unwrap()
}

/// The check of `text` one part at a time, which two and three at a time
/// match: the same verdict and progress, or the same refusal.
fn check(text: &str) -> Result<Verdict, ProofError> {
    let run = |threads| {
        let progress = CheckProgress::default();
        let checked = check_bundle(text.as_bytes(), threads, &progress, &AtomicBool::new(false));
        if let Ok(verdict) = &checked {
            assert_eq!(progress.parts.into_inner(), verdict.lemmas as u64 + 1);
            assert_eq!(progress.positions.into_inner(), verdict.positions as u64);
        }
        checked
    };
    let one = run(1);
    for threads in [2, 3] {
        assert_eq!(run(threads), one, "{threads} threads");
    }
    one
}

fn manifest(path: &Path) -> PathBuf {
    let mut m = path.as_os_str().to_owned();
    m.push(".parts");
    PathBuf::from(m)
}

#[test]
fn bundles_of_drawn_boards_check_part_by_part() {
    let dir = scratch("drawn");
    for (w, h, k, cut) in [(5, 5, 4, 3), (6, 5, 4, 4), (7, 6, 5, 4), (7, 7, 5, 6)] {
        let pos = FreePosition::new(w, h, k).unwrap();
        let path = dir.join(format!("{w}{h}{k}.zst"));
        let summary = write(&pos, &path, cut);
        assert_eq!(summary.outcome, if (w, h) == (6, 5) { 1 } else { 0 });
        let verdict = check(&text(&path)).unwrap_or_else(|e| panic!("{w},{h},{k}: {e}"));
        assert_eq!(verdict.outcome(), Some(summary.outcome), "{w},{h},{k}");
        assert_eq!(verdict.lemmas as u64 + 1, summary.parts, "{w},{h},{k}");
        if summary.outcome == 0 {
            assert!(summary.parts > 10, "{w},{h},{k}: {summary:?}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bundle_resumes_where_its_manifest_ends_and_writes_the_same_file() {
    let dir = scratch("resume");
    let pos = FreePosition::new(7, 6, 5).unwrap();
    let whole = dir.join("whole.zst");
    let first = write(&pos, &whole, 4);
    let cut = dir.join("cut.zst");
    std::fs::copy(&whole, &cut).unwrap();
    let lines: Vec<String> = std::fs::read_to_string(manifest(&whole))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let kept = (lines.len() - 1) / 2;
    // A manifest a kill cut short, over a file with a part half written.
    let mut listed = lines[..=kept].join("\n");
    listed.push_str("\nx 10 2");
    std::fs::write(manifest(&cut), listed).unwrap();
    let resumed = write(&pos, &cut, 4);
    assert_eq!(resumed.earlier, kept as u64);
    assert_eq!(resumed.parts + kept as u64, first.parts);
    assert_eq!(std::fs::read(&cut).unwrap(), std::fs::read(&whole).unwrap());
    assert_eq!(
        std::fs::read_to_string(manifest(&cut)).unwrap(),
        lines.join("\n") + "\n"
    );
    // A finished bundle run again rewrites only its last part.
    let again = write(&pos, &whole, 4);
    assert_eq!((again.earlier, again.parts), (first.parts - 1, 1));
    assert!(check(&text(&whole)).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bundle_needs_its_parts_and_one_board() {
    let dir = scratch("parts");
    let pos = FreePosition::new(7, 6, 5).unwrap();
    let path = dir.join("b.zst");
    write(&pos, &path, 4);
    let text = text(&path);
    let last = text.rfind("inarow-proof 2").unwrap();
    assert!(matches!(
        check(&text[last..]),
        Err(ProofError::Refuted { why, .. }) if why.contains("no move")
    ));
    // A part proven for the other claim does not serve.
    let swapped = text[..last]
        .replace("claim x no-loss", "claim t")
        .replace("claim o no-loss", "claim x no-loss")
        .replace("claim t", "claim o no-loss");
    assert!(check(&format!("{swapped}{}", &text[last..])).is_err());
    let mut solver = FreeSolver::new(1 << 20).unwrap();
    let mut other = Vec::new();
    let small = FreePosition::new(3, 3, 3).unwrap();
    solver
        .write_proof(&small, &mut other, &AtomicBool::new(false))
        .unwrap();
    // A part meets only the roots of the parts before it: the root's part
    // first, the parts it meets after it, is refused.
    let reordered = format!("{}{}", &text[last..], &text[..last]);
    assert!(matches!(
        check(&reordered),
        Err(ProofError::Refuted { why, .. }) if why.contains("no move")
    ));
    let mixed = format!("{}{text}", String::from_utf8(other).unwrap());
    assert!(matches!(
        check(&mixed),
        Err(ProofError::Format { why, .. }) if why.contains("one board")
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_manifest_of_another_bundle_is_refused() {
    let dir = scratch("other");
    let path = dir.join("b.zst");
    write(&FreePosition::new(5, 5, 4).unwrap(), &path, 3);
    let mut solver = FreeSolver::new(1 << 20).unwrap();
    let refused = solver.write_proof_bundle(
        &FreePosition::new(5, 5, 4).unwrap(),
        &path,
        4,
        &[],
        &BundleProgress::default(),
        &AtomicBool::new(false),
    );
    assert!(matches!(refused, Err(SolveError::InvalidPosition(m)) if m.contains("another bundle")));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn threads_write_a_bundle_that_checks() {
    let dir = scratch("threads");
    for (w, h, k) in [(7, 6, 5), (7, 7, 5)] {
        let pos = FreePosition::new(w, h, k).unwrap();
        let path = dir.join(format!("{w}{h}{k}.zst"));
        let mut solver = FreeSolver::new(1 << 22).unwrap();
        solver.set_threads(2);
        let summary = solver
            .write_proof_bundle(
                &pos,
                &path,
                4,
                &[],
                &BundleProgress::default(),
                &AtomicBool::new(false),
            )
            .unwrap();
        assert_eq!(summary.outcome, 0);
        let verdict = check(&text(&path)).unwrap_or_else(|e| panic!("{w},{h},{k}: {e}"));
        assert_eq!(verdict.outcome(), Some(0));
        assert_eq!(verdict.lemmas as u64 + 1, summary.parts);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn one_run_at_a_time_writes_a_bundle_or_a_journal() {
    let dir = scratch("lock");
    let pos = FreePosition::new(5, 5, 4).unwrap();
    let path = dir.join("b.zst");
    std::fs::write(&path, b"").unwrap();
    let held = std::fs::File::open(&path).unwrap();
    held.lock().unwrap();
    let mut solver = FreeSolver::new(1 << 20).unwrap();
    let cancel = AtomicBool::new(false);
    let refused =
        solver.write_proof_bundle(&pos, &path, 3, &[], &BundleProgress::default(), &cancel);
    assert!(matches!(refused, Err(SolveError::Io(m)) if m.contains("in use")));
    let journal = dir.join("j");
    std::fs::write(&journal, b"").unwrap();
    let held_journal = std::fs::File::open(&journal).unwrap();
    held_journal.lock().unwrap();
    let refused =
        solver.solve_with_journal(&pos, &journal, 6, &JournalProgress::default(), &cancel);
    assert!(matches!(refused, Err(SolveError::Io(m)) if m.contains("in use")));
    drop((held, held_journal));
    write(&pos, &path, 3);
    assert!(check(&text(&path)).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_cancelled_check_says_so() {
    let dir = scratch("cancel");
    let path = dir.join("b.zst");
    write(&FreePosition::new(5, 5, 4).unwrap(), &path, 3);
    for threads in [1, 2] {
        let checked = check_bundle(
            text(&path).as_bytes(),
            threads,
            &CheckProgress::default(),
            &AtomicBool::new(true),
        );
        assert_eq!(checked, Err(ProofError::Interrupted));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
