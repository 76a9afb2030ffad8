//! `inarow.Board`: one game, driven move by move from Python.

use numpy::ndarray::{Array2, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use super::args::{int_arg, rules_error, rules_from_args, DEFAULTS};
use super::errors::{IllegalMoveError, InvalidPositionError};
use super::interrupt::run_count;
use crate::{Game, MoveError, Rules};

/// Symbols of players 1..=16 in `str(board)`.
const SYMBOLS: &[u8; 16] = b"XOABCDEFGHIJKLMN";

/// A k-in-a-row game: Connect Four by default.
#[pyclass(module = "inarow._native", name = "Board", subclass)]
#[derive(Clone)]
pub struct Board {
    pub(crate) game: Game,
}

pub(crate) fn move_error(e: MoveError) -> PyErr {
    IllegalMoveError::new_err(e.to_string())
}

/// Converts an array-like of integers to `(rows, cols, cells)`, refusing non-integer dtypes.
fn int_grid(arr: &Bound<'_, PyAny>, what: &str) -> PyResult<(usize, usize, Vec<i64>)> {
    let py = arr.py();
    let np = py.import("numpy")?;
    let a = np.call_method1("asarray", (arr,))?;
    let kind: String = a.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(PyTypeError::new_err(format!(
            "{what} must hold integers, got dtype {}",
            a.getattr("dtype")?.str()?
        )));
    }
    let ndim: usize = a.getattr("ndim")?.extract()?;
    if ndim != 2 {
        return Err(PyValueError::new_err(format!(
            "{what} must be 2-dimensional (height, width), got {ndim} dimensions"
        )));
    }
    let a = a.call_method1("astype", ("int64",))?;
    let a = a.cast::<PyArray2<i64>>()?.readonly();
    let (rows, cols) = (a.shape()[0], a.shape()[1]);
    Ok((rows, cols, a.as_array().iter().copied().collect()))
}

impl Board {
    fn rules(&self) -> &Rules {
        self.game.rules()
    }

    fn action_arg(&self, obj: &Bound<'_, PyAny>) -> PyResult<usize> {
        let n = self.rules().num_actions();
        match int_arg(obj, "action")? {
            Some(v) if v >= 0 && (v as u64) < n as u64 => Ok(v as usize),
            Some(v) => Err(move_error(MoveError::OutOfRange {
                action: v as i128,
                num_actions: n,
            })),
            None => Err(IllegalMoveError::new_err(format!(
                "action {} is out of range: allowed 0..={}",
                obj.repr()?,
                n - 1
            ))),
        }
    }

    fn from_game(game: Game) -> Board {
        Board { game }
    }

    fn rules_kwargs(&self) -> String {
        let r = self.rules();
        format!(
            "width={}, height={}, k={}, players={}, gravity={}",
            r.width(),
            r.height(),
            r.k(),
            r.players(),
            if r.gravity() { "True" } else { "False" }
        )
    }
}

#[pymethods]
impl Board {
    /// `Board(width=7, height=6, k=4, players=2, gravity=True)`: the empty board.
    /// Raises `InvalidRulesError` (a `ValueError`) for rules beyond the limits
    /// (1 <= width, height <= 64; 1 <= k <= max(width, height); 2 <= players <= 16)
    /// and `TypeError` for non-integers (bools included) or a non-bool `gravity`.
    #[new]
    #[pyo3(signature = (width=None, height=None, k=None, players=None, gravity=None),
           text_signature = "(width=7, height=6, k=4, players=2, gravity=True)")]
    fn new(
        width: Option<&Bound<'_, PyAny>>,
        height: Option<&Bound<'_, PyAny>>,
        k: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        gravity: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Board> {
        let rules = rules_from_args(width, height, k, players, gravity, DEFAULTS)?;
        Ok(Board::from_game(Game::new(rules)))
    }

    /// Connect Four: 7x6, 4 in a row, gravity.
    #[staticmethod]
    fn connect_four() -> Board {
        Board::from_game(Game::new(Rules::connect_four()))
    }

    /// Tic-tac-toe: 3x3, 3 in a row, free placement.
    #[staticmethod]
    fn tic_tac_toe() -> Board {
        Board::from_game(Game::new(Rules::tic_tac_toe()))
    }

    /// Gomoku: `size`x`size` (15 by default), 5 in a row, free placement.
    #[staticmethod]
    #[pyo3(signature = (size=None), text_signature = "(size=15)")]
    fn gomoku(size: Option<&Bound<'_, PyAny>>) -> PyResult<Board> {
        let s = match size {
            Some(size) => match int_arg(size, "size")? {
                Some(v) => v,
                None => {
                    return Err(super::errors::InvalidRulesError::new_err(format!(
                        "size={} is out of range: allowed 5..={}",
                        size.repr()?,
                        crate::MAX_SIDE
                    )))
                }
            },
            None => 15,
        };
        Ok(Board::from_game(Game::new(
            Rules::gomoku(s).map_err(rules_error)?,
        )))
    }

    /// A board after playing `moves` (actions) from the empty board.
    /// Raises `IllegalMoveError` naming the first illegal move.
    #[staticmethod]
    #[pyo3(signature = (moves, width=None, height=None, k=None, players=None, gravity=None),
           text_signature = "(moves, width=7, height=6, k=4, players=2, gravity=True)")]
    fn from_moves(
        py: Python<'_>,
        moves: &Bound<'_, PyAny>,
        width: Option<&Bound<'_, PyAny>>,
        height: Option<&Bound<'_, PyAny>>,
        k: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        gravity: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Board> {
        let rules = rules_from_args(width, height, k, players, gravity, DEFAULTS)?;
        let mut board = Board::from_game(Game::new(rules));
        for (i, item) in moves.try_iter()?.enumerate() {
            let item = item?;
            let action = board.action_arg(&item).map_err(|e| prefix(py, e, i))?;
            board
                .game
                .play(action)
                .map_err(|e| prefix(py, move_error(e), i))?;
        }
        Ok(board)
    }

    /// A Connect-Four-style board from Pascal Pons' 1-based column digits
    /// (`"4453"` = columns 4, 4, 5, 3), as in his solver's test sets.
    #[staticmethod]
    #[pyo3(signature = (digits, width=None, height=None, k=None),
           text_signature = "(digits, width=7, height=6, k=4)")]
    fn from_pons(
        digits: &str,
        width: Option<&Bound<'_, PyAny>>,
        height: Option<&Bound<'_, PyAny>>,
        k: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Board> {
        let rules = rules_from_args(width, height, k, None, None, DEFAULTS)?;
        let mut game = Game::new(rules);
        for (i, ch) in digits.trim().chars().enumerate() {
            let col = ch
                .to_digit(10)
                .filter(|&d| d >= 1 && (d as usize) <= rules.width())
                .ok_or_else(|| {
                    IllegalMoveError::new_err(format!(
                        "move {i}: {ch:?} is not a column digit: allowed 1..={}",
                        rules.width().min(9)
                    ))
                })?;
            game.play(col as usize - 1)
                .map_err(|e| IllegalMoveError::new_err(format!("move {i} ({ch:?}): {e}")))?;
        }
        Ok(Board::from_game(game))
    }

    /// A board from an integer array `(height, width)` (row 0 the top row; 0 empty,
    /// 1..players the owner). Impossible positions raise `InvalidPositionError`:
    /// owners out of range, floating stones with gravity, stone counts that players
    /// moving in turn cannot reach, lines of several players or that no single last
    /// move made. The history starts here: `undo()` cannot go behind it.
    #[staticmethod]
    #[pyo3(signature = (arr, k=None, players=None, gravity=None),
           text_signature = "(arr, k=4, players=2, gravity=True)")]
    fn from_numpy(
        arr: &Bound<'_, PyAny>,
        k: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        gravity: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Board> {
        let (rows, cols, values) = int_grid(arr, "arr")?;
        let defaults = (cols as i64, rows as i64, DEFAULTS.2, DEFAULTS.3, DEFAULTS.4);
        let rules = rules_from_args(None, None, k, players, gravity, defaults)?;
        let mut cells = Vec::with_capacity(values.len());
        for (i, &v) in values.iter().enumerate() {
            if v < 0 || v > rules.players() as i64 {
                return Err(InvalidPositionError::new_err(format!(
                    "cell (row {}, col {}) holds {v}: allowed 0 (empty) or 1..={}",
                    i / cols,
                    i % cols,
                    rules.players()
                )));
            }
            cells.push(v as u8);
        }
        let game = Game::from_cells(rules, &cells)
            .map_err(|e| InvalidPositionError::new_err(e.to_string()))?;
        Ok(Board::from_game(game))
    }

    /// Decodes `to_bytes()` output. Any defect raises `InvalidPositionError` (a
    /// `ValueError`); this is the safe way to load boards from untrusted data.
    #[staticmethod]
    fn from_bytes(data: &Bound<'_, PyAny>) -> PyResult<Board> {
        let bytes_type = data.py().get_type::<PyBytes>();
        let data: Vec<u8> = if let Ok(b) = data.cast::<PyBytes>() {
            b.as_bytes().to_vec()
        } else if data.is_instance_of::<pyo3::types::PyByteArray>()
            || data.is_instance_of::<pyo3::types::PyMemoryView>()
        {
            bytes_type
                .call1((data,))?
                .cast_into::<PyBytes>()?
                .as_bytes()
                .to_vec()
        } else {
            return Err(PyTypeError::new_err(format!(
                "data must be bytes, bytearray or memoryview, got {}",
                data.get_type().name()?
            )));
        };
        crate::from_bytes(&data)
            .map(Board::from_game)
            .map_err(|e| InvalidPositionError::new_err(e.to_string()))
    }

    /// The board as versioned bytes: rules, set-up position, moves.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &crate::to_bytes(&self.game))
    }

    #[getter]
    fn width(&self) -> usize {
        self.rules().width()
    }
    #[getter]
    fn height(&self) -> usize {
        self.rules().height()
    }
    #[getter]
    fn k(&self) -> usize {
        self.rules().k()
    }
    #[getter]
    fn players(&self) -> usize {
        self.rules().players()
    }
    #[getter]
    fn gravity(&self) -> bool {
        self.rules().gravity()
    }
    /// `width` with gravity, `width * height` without.
    #[getter]
    fn num_actions(&self) -> usize {
        self.rules().num_actions()
    }
    /// The winner 1..players, or None.
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.game.winner().map(|p| p + 1)
    }
    #[getter]
    fn is_draw(&self) -> bool {
        self.game.is_draw()
    }
    #[getter]
    fn is_over(&self) -> bool {
        self.game.is_over()
    }
    /// Whose turn it is, 1..players (once the game is over: who would be next).
    #[getter]
    fn current_player(&self) -> usize {
        self.game.to_move() + 1
    }
    /// The actions played since the board was built, in order.
    #[getter]
    fn moves(&self) -> Vec<u16> {
        self.game.history().to_vec()
    }
    /// Stones on the board.
    #[getter]
    fn num_stones(&self) -> usize {
        self.game.stones_on_board()
    }
    /// The last action played, or None.
    #[getter]
    fn last_move(&self) -> Option<u16> {
        self.game.history().last().copied()
    }
    /// The cell (row, col) of the last stone played, or None.
    #[getter]
    fn last_cell(&self) -> Option<(usize, usize)> {
        self.game.last_cell()
    }
    /// A 64-bit Zobrist hash of the stones (equal positions, equal keys).
    #[getter]
    fn zobrist(&self) -> u64 {
        self.game.hash()
    }

    /// Plays `action` (a column with gravity, `row * width + col` without) for the
    /// current player; returns True when it wins. Raises `IllegalMoveError` (a
    /// `ValueError`) for an action out of range, a full column, an occupied cell or
    /// a finished game, and `TypeError` for a non-integer; the board is unchanged.
    #[pyo3(name = "move")]
    fn play(&mut self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        let a = self.action_arg(action)?;
        self.game.play(a).map_err(move_error)
    }

    /// Takes back the last move and returns its action; `IllegalMoveError` when
    /// there is none since the board was built.
    fn undo(&mut self) -> PyResult<u16> {
        self.game.undo().map(|a| a as u16).map_err(move_error)
    }

    /// Whether `action` is legal now (False for any integer out of range).
    fn is_legal(&self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(match int_arg(action, "action")? {
            Some(v) if v >= 0 && (v as u64) < self.rules().num_actions() as u64 => {
                self.game.is_legal(v as usize)
            }
            _ => false,
        })
    }

    /// The legal actions, ascending (empty once the game is over).
    fn legal_moves(&self) -> Vec<usize> {
        self.game.legal_actions()
    }

    /// numpy bool array `(num_actions,)`, True where the action is legal.
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; self.rules().num_actions()];
        self.game.write_legal_mask(&mut mask);
        mask.into_pyarray(py)
    }

    /// numpy int8 array `(height, width)`: 0 empty, 1..players owner; row 0 is the top.
    fn to_numpy<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        let r = self.rules();
        let mut cells = vec![0i8; r.num_cells()];
        self.game.write_cells(&mut cells);
        Array2::from_shape_vec((r.height(), r.width()), cells)
            .expect("cells fit the shape")
            .into_pyarray(py)
    }

    /// Egocentric planes `(players, height, width)` for learning: plane 0 holds the
    /// stones of the side to move, plane i those of the player i turns later.
    /// `dtype`: "uint8" (default), "bool" or "float32".
    #[pyo3(signature = (dtype="uint8"))]
    fn observation<'py>(&self, py: Python<'py>, dtype: &str) -> PyResult<Bound<'py, PyAny>> {
        let r = self.rules();
        let shape = (r.players(), r.height(), r.width());
        let n = shape.0 * shape.1 * shape.2;
        Ok(match dtype {
            "uint8" => {
                let mut v = vec![0u8; n];
                self.game.write_planes(&mut v, 0, 1);
                Array3::from_shape_vec(shape, v)
                    .expect("shape")
                    .into_pyarray(py)
                    .into_any()
            }
            "bool" => {
                let mut v = vec![false; n];
                self.game.write_planes(&mut v, false, true);
                Array3::from_shape_vec(shape, v)
                    .expect("shape")
                    .into_pyarray(py)
                    .into_any()
            }
            "float32" => {
                let mut v = vec![0f32; n];
                self.game.write_planes(&mut v, 0.0, 1.0);
                let a: Bound<'py, PyArray3<f32>> = Array3::from_shape_vec(shape, v)
                    .expect("shape")
                    .into_pyarray(py);
                a.into_any()
            }
            other => {
                return Err(PyValueError::new_err(format!(
                    "dtype {other:?} is not supported: allowed \"uint8\", \"bool\", \"float32\""
                )))
            }
        })
    }

    /// The cells `(row, col)` of the winning line along the line (the whole run
    /// through the deciding stone, which may exceed k), or None.
    fn winning_line(&self) -> Option<Vec<(usize, usize)>> {
        self.game.winning_line()
    }

    /// The owner of cell (row, col): 0 empty, else 1..players.
    fn owner(&self, row: &Bound<'_, PyAny>, col: &Bound<'_, PyAny>) -> PyResult<u8> {
        let r = self.rules();
        let (h, w) = (r.height() as i64, r.width() as i64);
        match (int_arg(row, "row")?, int_arg(col, "col")?) {
            (Some(rr), Some(cc)) if (0..h).contains(&rr) && (0..w).contains(&cc) => {
                Ok(self.game.owner(rr as usize, cc as usize))
            }
            _ => Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "cell (row {}, col {}) is off the board: allowed rows 0..={}, cols 0..={}",
                row.repr()?,
                col.repr()?,
                h - 1,
                w - 1
            ))),
        }
    }

    /// Move sequences of exactly `depth` plies from here (games that end earlier
    /// are not extended). Releases the interpreter; Ctrl-C interrupts it.
    fn perft(slf: &Bound<'_, Self>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        // Count on a snapshot, so the board stays usable from other threads meanwhile.
        let (py, mut game) = (slf.py(), slf.borrow().game.clone());
        let max = game.rules().num_cells() as i64;
        let depth = match int_arg(depth, "depth")? {
            Some(d) if (0..=max).contains(&d) => d as u32,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "depth={} is out of range: allowed 0..={max} (the number of cells)",
                    depth.repr()?
                )))
            }
        };
        run_count(py, "perft", |keep_going| {
            crate::perft_interruptible(&mut game, depth, keep_going)
        })
    }

    /// Complete games from here (tic-tac-toe: 255168). Interruptible.
    fn count_games(slf: &Bound<'_, Self>) -> PyResult<u64> {
        let (py, mut game) = (slf.py(), slf.borrow().game.clone());
        run_count(py, "count", |keep_going| {
            crate::count_games_interruptible(&mut game, keep_going)
        })
    }

    fn copy(&self) -> Board {
        self.clone()
    }
    fn __copy__(&self) -> Board {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// Pickles through `to_bytes` (never unpickle untrusted data: use `from_bytes`).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let ctor = slf.get_type().getattr("from_bytes")?;
        let data = slf.borrow().to_bytes(py);
        PyTuple::new(py, [ctor, PyTuple::new(py, [data])?.into_any()])
    }

    /// Equal when rules, stones and side to move agree (history is ignored).
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.cast::<Board>() else {
            return Ok(py.NotImplemented());
        };
        let same = self.game == other.borrow().game;
        Ok(match op {
            CompareOp::Eq => same.into_pyobject(py)?.to_owned().into_any().unbind(),
            CompareOp::Ne => (!same).into_pyobject(py)?.to_owned().into_any().unbind(),
            _ => py.NotImplemented(),
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.rules().hash(&mut h);
        self.game.hash().hash(&mut h);
        h.finish()
    }

    fn __len__(&self) -> usize {
        self.game.history().len()
    }

    /// An expression that rebuilds this board.
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        if self.game.setup_cells().is_some() {
            let data = PyBytes::new(py, &crate::to_bytes(&self.game));
            return Ok(format!("Board.from_bytes({})", data.repr()?));
        }
        let moves = self.game.history();
        if moves.is_empty() {
            return Ok(format!("Board({})", self.rules_kwargs()));
        }
        let list: Vec<String> = moves.iter().map(|a| a.to_string()).collect();
        Ok(format!(
            "Board.from_moves([{}], {})",
            list.join(", "),
            self.rules_kwargs()
        ))
    }

    /// The board in ASCII: `X` player 1, `O` player 2, then `A`, `B`...; `.` empty.
    fn __str__(&self) -> String {
        let r = self.rules();
        let mut s = String::new();
        for row in 0..r.height() {
            let line: Vec<String> = (0..r.width())
                .map(|col| match self.game.owner(row, col) {
                    0 => ".".to_string(),
                    p => (SYMBOLS[p as usize - 1] as char).to_string(),
                })
                .collect();
            s.push_str(&line.join(" "));
            s.push('\n');
        }
        if r.gravity() {
            let footer: Vec<String> = (0..r.width()).map(|c| (c % 10).to_string()).collect();
            s.push_str(&footer.join(" "));
            s.push('\n');
        }
        s
    }

    /// SVG drawing for Jupyter (see `inarow.svg`).
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let svg = slf.py().import("inarow._svg")?;
        Ok(svg.call_method1("board_svg", (slf,))?.unbind())
    }
}

fn prefix(py: Python<'_>, e: PyErr, i: usize) -> PyErr {
    let msg = e.value(py).str().map(|s| s.to_string()).unwrap_or_default();
    if e.is_instance_of::<PyTypeError>(py) {
        PyTypeError::new_err(format!("move {i}: {msg}"))
    } else {
        IllegalMoveError::new_err(format!("move {i}: {msg}"))
    }
}

/// The win detector alone, vectorised: `boards` is an integer array
/// `(N, height, width)` (0 empty, positive values are players). Returns an int64
/// array `(N,)`: the player with `k` in a row, 0 if none, -1 if several players
/// have lines. No legality check: any grid of non-negative integers is accepted.
#[pyfunction]
#[pyo3(signature = (boards, k=None), text_signature = "(boards, k=4)")]
pub fn winners<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    k: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let np = py.import("numpy")?;
    let a = np.call_method1("asarray", (boards,))?;
    let kind: String = a.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(PyTypeError::new_err(format!(
            "boards must hold integers, got dtype {}",
            a.getattr("dtype")?.str()?
        )));
    }
    let ndim: usize = a.getattr("ndim")?.extract()?;
    if ndim != 3 {
        return Err(PyValueError::new_err(format!(
            "boards must be 3-dimensional (N, height, width), got {ndim} dimensions"
        )));
    }
    let a = a.call_method1("astype", ("int64",))?;
    let a = a.cast::<numpy::PyArray3<i64>>()?.readonly();
    let (n, h, w) = (a.shape()[0], a.shape()[1], a.shape()[2]);
    let k = match k {
        None => 4,
        Some(k) => match int_arg(k, "k")? {
            Some(v) if (1..=crate::MAX_SIDE as i64).contains(&v) => v as usize,
            _ => {
                return Err(super::errors::InvalidRulesError::new_err(format!(
                    "k={} is out of range: allowed 1..={}",
                    k.repr()?,
                    crate::MAX_SIDE
                )))
            }
        },
    };
    // `astype` made a fresh C-contiguous array: read it in place.
    let cells = a.as_slice()?;
    if let Some(bad) = cells.iter().find(|&&v| v < 0) {
        return Err(InvalidPositionError::new_err(format!(
            "boards hold {bad}: allowed 0 (empty) or a positive player"
        )));
    }
    let out = py.detach(|| crate::detect::winners(cells, n, h, w, k));
    Ok(out.into_pyarray(py))
}
