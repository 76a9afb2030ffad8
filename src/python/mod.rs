//! The Python surface: thin wrappers that convert, validate, release the
//! interpreter around real work and map core errors to Python exceptions.

mod agents;
mod args;
mod board;
mod book;
pub(crate) mod errors;
mod intake;
mod interrupt;
mod mcts;
mod net;
mod progress;
mod rules;
mod solver;
mod threats;
mod vec_env;
mod vec_opponent;
mod vec_outputs;

use pyo3::prelude::*;

#[pymodule]
mod _native {
    use super::*;

    #[pymodule_export]
    use super::agents::{match_openings, play_match, Agent};
    #[pymodule_export]
    use super::board::{winners, Board};
    #[pymodule_export]
    use super::mcts::{Mcts, SearchResult};
    #[pymodule_export]
    use super::net::ConvNet;
    #[pymodule_export]
    use super::rules::Rules;
    #[pymodule_export]
    use super::solver::Solver;
    #[pymodule_export]
    use super::threats::{find_win, winning_moves};
    #[pymodule_export]
    use super::vec_env::{simulate, SimulateResult, VecEnv};

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        let py = m.py();
        for exception in [
            py.get_type::<errors::SolverConfigError>(),
            py.get_type::<errors::CancelledError>(),
            py.get_type::<errors::IllegalMoveError>(),
            py.get_type::<errors::ForbiddenMoveError>(),
            py.get_type::<errors::InvalidRulesError>(),
            py.get_type::<errors::InvalidPositionError>(),
            py.get_type::<errors::UnsupportedRulesError>(),
        ] {
            m.add(exception.name()?, exception)?;
        }
        m.add("MAX_SIDE", crate::MAX_SIDE)?;
        m.add("MAX_PLAYERS", crate::MAX_PLAYERS)?;
        m.add("MAX_ENVS", crate::batch::MAX_ENVS)?;
        m.add("FORMAT_VERSION", crate::FORMAT_VERSION)?;
        // Private (kept out of `__all__`): the evaluator-output reader, for its tests.
        m.setattr(
            "_intake_floats",
            wrap_pyfunction!(super::intake::_intake_floats, m)?,
        )?;
        Ok(())
    }
}
