//! The Python exceptions and the one mapping of every core error onto them
//! (`From<...> for PyErr`, so `?` converts).

use pyo3::create_exception;
use pyo3::exceptions::{PyMemoryError, PyOSError, PyRuntimeError, PyValueError};
use pyo3::PyErr;

use crate::agents::AgentError;
use crate::batch::{ActionError, BatchError, StepError};
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
    ForbiddenMoveError,
    IllegalMoveError,
    "Renju: a cell forbidden to black (an overline, a double four or a double three); \
     the message names which. Nothing changed."
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

/// Core errors whose message is the whole Python exception.
macro_rules! raise_with_message {
    ($($core:ty => $exception:ty),* $(,)?) => {$(
        impl From<$core> for PyErr {
            fn from(e: $core) -> PyErr {
                <$exception>::new_err(e.to_string())
            }
        }
    )*};
}

raise_with_message!(
    RulesError => InvalidRulesError,
    PonsError => IllegalMoveError,
    PositionError => InvalidPositionError,
);

/// A refused move: `ForbiddenMoveError` (an `IllegalMoveError`) for renju's
/// forbidden cells, `IllegalMoveError` otherwise; `message` is the whole text.
fn move_error(error: &MoveError, message: String) -> PyErr {
    match error {
        MoveError::Forbidden { .. } => ForbiddenMoveError::new_err(message),
        _ => IllegalMoveError::new_err(message),
    }
}

impl From<MoveError> for PyErr {
    fn from(e: MoveError) -> PyErr {
        move_error(&e, e.to_string())
    }
}

impl From<ActionError> for PyErr {
    fn from(e: ActionError) -> PyErr {
        move_error(&e.error, e.to_string())
    }
}

impl From<crate::batch::StateError> for PyErr {
    fn from(e: crate::batch::StateError) -> PyErr {
        PyValueError::new_err(e.to_string())
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
            SolveError::Io(m) => PyOSError::new_err(m),
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

impl From<StepError> for PyErr {
    fn from(e: StepError) -> PyErr {
        match e {
            StepError::Action(e) => e.into(),
            StepError::Opponent(e) => e.into(),
        }
    }
}
