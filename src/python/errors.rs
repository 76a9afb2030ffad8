//! The Python exceptions and the one mapping of every core error onto them
//! (`From<...> for PyErr`, so `?` converts).

use pyo3::create_exception;
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::PyErr;

use crate::agents::AgentError;
use crate::batch::{ActionError, BatchError};
use crate::solver::SolveError;
use crate::{MoveError, PonsError, PositionError, RulesError};

create_exception!(
    inarow,
    SolverConfigError,
    PyValueError,
    "A solver setting (tt_bytes, threads) outside its limits."
);
create_exception!(
    inarow,
    CancelledError,
    PyRuntimeError,
    "Work stopped by its cancel flag: Solver.cancel() or a set simulate(cancel=...) event."
);
create_exception!(
    inarow,
    IllegalMoveError,
    PyValueError,
    "An action that is not legal here; nothing changed."
);
create_exception!(
    inarow,
    InvalidRulesError,
    PyValueError,
    "Rules (sizes, k, players) outside the supported limits."
);
create_exception!(
    inarow,
    InvalidPositionError,
    PyValueError,
    "A position impossible under the rules, or undecodable bytes."
);
create_exception!(
    inarow,
    UnsupportedRulesError,
    PyValueError,
    "Rules that this feature (e.g. the solver) does not cover."
);

impl From<RulesError> for PyErr {
    fn from(e: RulesError) -> PyErr {
        InvalidRulesError::new_err(e.to_string())
    }
}

impl From<MoveError> for PyErr {
    fn from(e: MoveError) -> PyErr {
        IllegalMoveError::new_err(e.to_string())
    }
}

impl From<PonsError> for PyErr {
    fn from(e: PonsError) -> PyErr {
        IllegalMoveError::new_err(e.to_string())
    }
}

impl From<PositionError> for PyErr {
    fn from(e: PositionError) -> PyErr {
        InvalidPositionError::new_err(e.to_string())
    }
}

impl From<ActionError> for PyErr {
    fn from(e: ActionError) -> PyErr {
        IllegalMoveError::new_err(e.to_string())
    }
}

impl From<BatchError> for PyErr {
    fn from(e: BatchError) -> PyErr {
        match e {
            BatchError::InvalidSize(m) => PyValueError::new_err(m),
            BatchError::OutOfMemory(m) => PyMemoryError::new_err(m),
        }
    }
}

impl From<SolveError> for PyErr {
    fn from(e: SolveError) -> PyErr {
        match e {
            SolveError::Unsupported(m) => UnsupportedRulesError::new_err(m),
            SolveError::OutOfMemory(m) => PyMemoryError::new_err(m),
            SolveError::InvalidConfig(m) => SolverConfigError::new_err(m),
            SolveError::IllegalMove(m) | SolveError::GameOver(m) => IllegalMoveError::new_err(m),
            SolveError::InvalidPosition(m) => InvalidPositionError::new_err(m),
            SolveError::Interrupted => CancelledError::new_err("search cancelled"),
            SolveError::NodeLimit => {
                PyRuntimeError::new_err("internal error: a node limit was left set")
            }
        }
    }
}

impl From<AgentError> for PyErr {
    fn from(e: AgentError) -> PyErr {
        match e {
            AgentError::GameOver => IllegalMoveError::new_err(e.to_string()),
            AgentError::Unsupported(m) => UnsupportedRulesError::new_err(m),
            AgentError::InvalidConfig(m) => PyValueError::new_err(m),
            AgentError::OutOfMemory(m) => PyMemoryError::new_err(m),
            AgentError::Cancelled => CancelledError::new_err("cancelled"),
        }
    }
}
