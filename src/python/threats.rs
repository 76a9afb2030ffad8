//! `inarow.threats`: the forced-win finders of the threat engine.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::args::{choice_arg, ranged_int};
use super::board::game_arg;
use super::interrupt::run_interruptible;
use crate::game::Game;
use crate::threats::{self, ThreatKind, MAX_THREAT_DEPTH};
use crate::watch::CancelToken;

/// Default depths (attacker moves) and node budget of the finders.
const DEFAULT_VCF_DEPTH: u32 = 30;
const DEFAULT_VCT_DEPTH: u32 = 10;
const DEFAULT_MAX_NODES: u64 = 1_000_000;
const MAX_NODES: i64 = 1 << 40;

/// The finders' arguments, checked.
struct Query {
    game: Game,
    kind: ThreatKind,
    max_depth: u32,
    max_nodes: u64,
}

fn query(
    board: &Bound<'_, PyAny>,
    kind: Option<&Bound<'_, PyAny>>,
    max_depth: Option<&Bound<'_, PyAny>>,
    max_nodes: Option<&Bound<'_, PyAny>>,
) -> PyResult<Query> {
    let game = game_arg(board, "board")?;
    let kind = match kind {
        None => ThreatKind::Vcf,
        Some(k) => match choice_arg(k, "kind", &["vcf", "vct"])? {
            "vcf" => ThreatKind::Vcf,
            _ => ThreatKind::Vct,
        },
    };
    let default_depth = if kind == ThreatKind::Vcf {
        DEFAULT_VCF_DEPTH
    } else {
        DEFAULT_VCT_DEPTH
    };
    let max_depth = ranged_int::<PyValueError>(
        max_depth,
        "max_depth",
        1,
        MAX_THREAT_DEPTH as i64,
        default_depth as i64,
    )? as u32;
    let max_nodes = ranged_int::<PyValueError>(
        max_nodes,
        "max_nodes",
        1,
        MAX_NODES,
        DEFAULT_MAX_NODES as i64,
    )? as u64;
    threats::check_finder(game.rules(), kind).map_err(PyErr::from)?;
    if game.is_over() {
        return Err(crate::agents::AgentError::GameOver.into());
    }
    Ok(Query {
        game,
        kind,
        max_depth,
        max_nodes,
    })
}

/// A forced win for the side to move: the line of actions (attacker and defender
/// alternating, ending with the completing move) or None.
#[pyfunction]
#[pyo3(signature = (board, kind=None, max_depth=None, max_nodes=None))]
pub fn find_win(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: Option<&Bound<'_, PyAny>>,
    max_depth: Option<&Bound<'_, PyAny>>,
    max_nodes: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Vec<usize>>> {
    let q = query(board, kind, max_depth, max_nodes)?;
    let token = CancelToken::new();
    let found = run_interruptible(
        py,
        &token,
        || threats::find_win(&q.game, q.kind, q.max_depth, q.max_nodes, token.flag()),
        |_| Ok(()),
    )?;
    found.map_err(PyErr::from)
}

/// Every first move of a forced win for the side to move, ascending.
#[pyfunction]
#[pyo3(signature = (board, kind=None, max_depth=None, max_nodes=None))]
pub fn winning_moves(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: Option<&Bound<'_, PyAny>>,
    max_depth: Option<&Bound<'_, PyAny>>,
    max_nodes: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<usize>> {
    let q = query(board, kind, max_depth, max_nodes)?;
    let token = CancelToken::new();
    let found = run_interruptible(
        py,
        &token,
        || threats::winning_moves(&q.game, q.kind, q.max_depth, q.max_nodes, token.flag()),
        |_| Ok(()),
    )?;
    found.map_err(PyErr::from)
}
