//! `inarow.Board`: one game, driven move by move from Python.

use numpy::ndarray::{Array2, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3};
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use super::args::{
    int_arg, int_value, rules_from_args, shown, str_arg, Arg, IntValue, PlaneDtype, DEFAULTS,
};
use super::errors::{IllegalMoveError, InvalidPositionError, InvalidRulesError};
use super::intake::{int_array, Axis, Spec};
use super::interrupt::run_count;
use super::rules::{
    rules_kwargs, rules_or_default, rules_properties, rules_value, CarriesRules, Rules as PyRules,
};
use crate::{Game, MoveError, Rules, WinRule};

/// `obj` borrowed as an `inarow.Board` (`what` names the argument in the error).
pub(crate) fn board_arg<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<PyRef<'py, Board>> {
    let board = obj.cast::<Board>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} must be an inarow.Board, got {}",
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    Ok(board.try_borrow()?)
}

/// A copy of the game of `obj`, for work that outlives the borrow (see [`board_arg`]).
pub(crate) fn game_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Game> {
    Ok(board_arg(obj, what)?.game.clone())
}

/// Symbols of players 1..=16 in `str(board)`.
const SYMBOLS: &[u8; 16] = b"XOABCDEFGHIJKLMN";

/// A k-in-a-row game: Connect Four by default.
#[pyclass(module = "inarow._native", name = "Board", subclass)]
#[derive(Clone)]
pub struct Board {
    pub(crate) game: Game,
}

impl CarriesRules for Board {
    fn core_rules(&self) -> &Rules {
        self.game.rules()
    }
}
rules_properties!(Board, with_value);

impl Board {
    fn action_arg(&self, obj: &Bound<'_, PyAny>) -> PyResult<usize> {
        let n = self.core_rules().num_actions();
        match int_value(obj, "action")? {
            IntValue::Fits(v) if v >= 0 && (v as u64) < n as u64 => Ok(v as usize),
            IntValue::Fits(v) => Err(MoveError::OutOfRange {
                action: v as i128,
                num_actions: n,
            }
            .into()),
            IntValue::Huge(text) => Err(IllegalMoveError::new_err(format!(
                "action {text} is out of range: allowed 0..={}",
                n - 1
            ))),
        }
    }

    fn from_game(game: Game) -> Board {
        Board { game }
    }

    /// `Rules(...)` for this board's rules, as `__repr__` spells them.
    fn rules_expr(&self) -> String {
        format!("Rules({})", rules_kwargs(self.core_rules()))
    }

    /// A 0-based player from the Python argument `player` (1..players; None or
    /// omitted: the side to move).
    fn player_arg(&self, player: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
        let p = self.core_rules().players();
        match player.filter(|o| !o.is_none()) {
            None => Ok(self.game.to_move()),
            Some(obj) => match int_arg(obj, "player")? {
                Some(v) if (1..=p as i64).contains(&v) => Ok(v as usize - 1),
                _ => Err(PyValueError::new_err(format!(
                    "player={} is out of range: allowed 1..={p} or None (the side to move)",
                    shown(obj)
                ))),
            },
        }
    }
}

#[pymethods]
impl Board {
    /// `Board(rules=None)`: the empty board of `rules` (an `inarow.Rules`;
    /// Connect Four when None), e.g. `Board(Rules(9, 9, 5, gravity=False))`.
    /// `TypeError` for anything but an `inarow.Rules` or None.
    #[new]
    #[pyo3(signature = (rules=None), text_signature = "(rules=None)")]
    fn new(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Board> {
        Ok(Board::from_game(Game::new(rules_or_default(rules)?)))
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

    /// Gomoku: `size`x`size` (15 by default), 5 in a row, free placement, under
    /// `rule` (`"freestyle"`, `"standard"` or `"renju"`; see `Rules`).
    #[staticmethod]
    #[pyo3(signature = (size=None, rule=None), text_signature = "(size=15, rule='freestyle')")]
    fn gomoku(size: Option<&Bound<'_, PyAny>>, rule: Option<&Bound<'_, PyAny>>) -> PyResult<Board> {
        Ok(Board::from_game(Game::new(
            PyRules::gomoku(size, rule)?.rules,
        )))
    }

    /// A board after playing `moves` (actions) from the empty board of `rules`
    /// (an `inarow.Rules`; Connect Four when None).
    /// Raises `IllegalMoveError` naming the first illegal move.
    #[staticmethod]
    #[pyo3(signature = (moves, rules=None), text_signature = "(moves, rules=None)")]
    fn from_moves(
        py: Python<'_>,
        moves: &Bound<'_, PyAny>,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Board> {
        let rules = rules_or_default(rules)?;
        let mut board = Board::from_game(Game::new(rules));
        for (i, item) in moves.try_iter()?.enumerate() {
            let item = item?;
            let action = board.action_arg(&item).map_err(|e| prefix(py, e, i))?;
            board
                .game
                .play(action)
                .map_err(|e| prefix(py, e.into(), i))?;
        }
        Ok(board)
    }

    /// A Connect-Four-style board from Pascal Pons' 1-based column digits
    /// (`"4453"` = columns 4, 4, 5, 3), as in his solver's test sets; on wider boards
    /// `a` to `z` name columns 10 to 35. `rules`: an `inarow.Rules` with gravity
    /// (Connect Four when None); rules without gravity raise `InvalidRulesError`.
    #[staticmethod]
    #[pyo3(signature = (digits, rules=None), text_signature = "(digits, rules=None)")]
    fn from_pons(digits: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Board> {
        let digits = str_arg(digits, "digits")?;
        let rules = rules_or_default(rules)?;
        if !rules.gravity() {
            return Err(InvalidRulesError::new_err(format!(
                "from_pons needs rules with gravity (its digits are columns), got Rules({})",
                rules_kwargs(&rules)
            )));
        }
        let game = Game::from_pons(rules, &digits)?;
        Ok(Board::from_game(game))
    }

    /// A board from an integer array `(height, width)` (row 0 the top row; 0 empty,
    /// 1..players the owner). Impossible positions raise `InvalidPositionError`:
    /// owners out of range, floating stones with gravity, stone counts that players
    /// moving in turn cannot reach, lines of several players or that no single last
    /// move made. The history starts here: `undo()` cannot go behind it.
    ///
    /// `rules`: an `inarow.Rules` whose size is the array's (`ValueError` naming
    /// both otherwise), or None for the array's size with k=4, 2 players and
    /// gravity.
    #[staticmethod]
    #[pyo3(signature = (arr, rules=None), text_signature = "(arr, rules=None)")]
    fn from_numpy(arr: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Board> {
        let grid = int_array(
            arr,
            &Spec {
                name: "arr",
                axes: &[Axis::any("height"), Axis::any("width")],
            },
        )?;
        let (rows, cols) = (grid.shape()[0], grid.shape()[1]);
        let rules = match rules.filter(|r| !r.is_none()) {
            Some(given) => rules_value(given, "rules")?,
            None => {
                let size = (cols as i64, rows as i64, DEFAULTS.2, DEFAULTS.3, DEFAULTS.4);
                rules_from_args(None, None, None, None, None, size, WinRule::Freestyle)?
            }
        };
        if (rules.height(), rules.width()) != (rows, cols) {
            return Err(PyValueError::new_err(format!(
                "arr has shape ({rows}, {cols}) but rules=Rules({}) are {}x{} (width x height)",
                rules_kwargs(&rules),
                rules.width(),
                rules.height()
            )));
        }
        let players = rules.players();
        let cells: Vec<u8> = grid
            .values(0..=players as i64, |value, at| {
                InvalidPositionError::new_err(format!(
                    "cell (row {}, col {}) holds {value}: allowed 0 (empty) or 1..={players}",
                    at[0], at[1]
                ))
            })?
            .into_iter()
            .map(|v| v as u8)
            .collect();
        let game = Game::from_cells(rules, &cells)?;
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
        Ok(Board::from_game(crate::from_bytes(&data)?))
    }

    /// The board as versioned bytes: rules, set-up position, moves.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &crate::to_bytes(&self.game))
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
        Ok(self.game.play(a)?)
    }

    /// Takes back the last move and returns its action; `IllegalMoveError` when
    /// there is none since the board was built.
    fn undo(&mut self) -> PyResult<u16> {
        Ok(self.game.undo()? as u16)
    }

    /// Whether `action` is legal now (False for any integer out of range).
    fn is_legal(&self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(match int_arg(action, "action")? {
            Some(v) if v >= 0 && (v as u64) < self.core_rules().num_actions() as u64 => {
                self.game.is_legal(v as usize)
            }
            _ => false,
        })
    }

    /// The legal actions, ascending (empty once the game is over). Under renju,
    /// black's forbidden cells are not legal (see `forbidden_moves`).
    fn legal_moves(&self) -> Vec<usize> {
        self.game.legal_actions()
    }

    /// Renju, black to move: each empty cell black may not play, with why
    /// (`"overline"`, `"double four"` or `"double three"`), ascending. Empty under
    /// the other rules, with white to move, or once the game is over.
    fn forbidden_moves(&self) -> Vec<(usize, &'static str)> {
        self.game
            .forbidden_actions()
            .into_iter()
            .map(|(a, kind)| (a, kind.name()))
            .collect()
    }

    /// numpy bool array `(num_actions,)`, True where the action is legal.
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; self.core_rules().num_actions()];
        self.game.write_legal_mask(&mut mask);
        mask.into_pyarray(py)
    }

    /// numpy int8 array `(height, width)`: 0 empty, 1..players owner; row 0 is the top.
    fn to_numpy<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        let r = self.core_rules();
        let mut cells = vec![0i8; r.num_cells()];
        self.game.write_cells(&mut cells);
        Array2::from_shape_vec((r.height(), r.width()), cells)
            .expect("cells fit the shape")
            .into_pyarray(py)
    }

    /// Egocentric planes `(players, height, width)` for learning, from the point of
    /// view of `player` (1..players; None: the side to move): plane 0 holds that
    /// player's stones, plane i those of the player i turns later. `dtype`:
    /// "uint8" (default), "bool" or "float32", as a name, a numpy type or a dtype.
    #[pyo3(signature = (dtype=Arg::Omitted, player=None),
           text_signature = "(self, dtype='uint8', player=None)")]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        dtype: Arg<'py>,
        player: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let dtype = PlaneDtype::from_arg(dtype, "dtype")?;
        let me = self.player_arg(player)?;
        let r = self.core_rules();
        let shape = (r.players(), r.height(), r.width());
        let n = shape.0 * shape.1 * shape.2;
        Ok(match dtype {
            PlaneDtype::Bool => {
                let mut v = vec![false; n];
                self.game.write_planes_as(me, &mut v, false, true);
                Array3::from_shape_vec(shape, v)
                    .expect("shape")
                    .into_pyarray(py)
                    .into_any()
            }
            PlaneDtype::F32 => {
                let mut v = vec![0f32; n];
                self.game.write_planes_as(me, &mut v, 0.0, 1.0);
                let a: Bound<'py, PyArray3<f32>> = Array3::from_shape_vec(shape, v)
                    .expect("shape")
                    .into_pyarray(py);
                a.into_any()
            }
            PlaneDtype::U8 => {
                let mut v = vec![0u8; n];
                self.game.write_planes_as(me, &mut v, 0, 1);
                Array3::from_shape_vec(shape, v)
                    .expect("shape")
                    .into_pyarray(py)
                    .into_any()
            }
        })
    }

    /// numpy float32 `(players,)`: each player's return (pgx's `returns`): +1 for
    /// the winner and -1 for every other player once someone has won; all 0 on a
    /// draw or while the game runs. `returns()[i]` is player i + 1's.
    fn returns<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let mut out = vec![0f32; self.core_rules().players()];
        self.game.write_returns(&mut out);
        out.into_pyarray(py)
    }

    /// The cells `(row, col)` of the winning line along the line (the whole run
    /// through the deciding stone, which may exceed k), or None.
    fn winning_line(&self) -> Option<Vec<(usize, usize)>> {
        self.game.winning_line()
    }

    /// The owner of cell (row, col): 0 empty, else 1..players.
    fn owner(&self, row: &Bound<'_, PyAny>, col: &Bound<'_, PyAny>) -> PyResult<u8> {
        let r = self.core_rules();
        let (h, w) = (r.height() as i64, r.width() as i64);
        match (int_arg(row, "row")?, int_arg(col, "col")?) {
            (Some(rr), Some(cc)) if (0..h).contains(&rr) && (0..w).contains(&cc) => {
                Ok(self.game.owner(rr as usize, cc as usize))
            }
            _ => Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "cell (row {}, col {}) is off the board: allowed rows 0..={}, cols 0..={}",
                shown(row),
                shown(col),
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
                    shown(depth)
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

    /// A copy of the same class, instance attributes (`__dict__`) included.
    fn copy<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Board::__copy__(slf)
    }
    fn __copy__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let copy = same_class(slf, slf.borrow().game.clone())?;
        if let Some(dict) = instance_dict(slf)? {
            copy.getattr("__dict__")?.call_method1("update", (dict,))?;
        }
        Ok(copy)
    }
    fn __deepcopy__<'py>(
        slf: &Bound<'py, Self>,
        memo: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let copy = same_class(slf, slf.borrow().game.clone())?;
        if let Some(dict) = instance_dict(slf)? {
            // Registered first, so attributes that refer back to the board find the copy.
            let id = py.import("builtins")?.call_method1("id", (slf,))?;
            memo.set_item(id, &copy)?;
            let deep = py.import("copy")?.call_method1("deepcopy", (dict, memo))?;
            copy.getattr("__dict__")?.call_method1("update", (deep,))?;
        }
        Ok(copy)
    }

    /// Pickles through `to_bytes`, with the class and its instance attributes
    /// (never unpickle untrusted data: use `from_bytes`).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let data = slf.borrow().to_bytes(py).into_any();
        if slf.get_type().is(py.get_type::<Board>()) && instance_dict(slf)?.is_none() {
            let ctor = py.get_type::<Board>().getattr("from_bytes")?;
            return PyTuple::new(py, [ctor, PyTuple::new(py, [data])?.into_any()]);
        }
        let newobj = py.import("copyreg")?.getattr("__newobj__")?;
        let dict = match instance_dict(slf)? {
            Some(d) => d,
            None => py.None().into_bound(py),
        };
        PyTuple::new(
            py,
            [
                newobj,
                PyTuple::new(py, [slf.get_type().into_any()])?.into_any(),
                PyTuple::new(py, [data, dict])?.into_any(),
            ],
        )
    }

    /// Restores a pickled board of a subclass: `(to_bytes() output, __dict__ or None)`.
    fn __setstate__(slf: &Bound<'_, Self>, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let (data, dict): (Bound<'_, PyAny>, Bound<'_, PyAny>) = state.extract()?;
        let game = Board::from_bytes(&data)?.game;
        if !dict.is_none() {
            slf.getattr("__dict__")?.call_method1("update", (dict,))?;
        }
        slf.borrow_mut().game = game;
        Ok(())
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
        self.core_rules().hash(&mut h);
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
            return Ok(format!("Board({})", self.rules_expr()));
        }
        let list: Vec<String> = moves.iter().map(|a| a.to_string()).collect();
        Ok(format!(
            "Board.from_moves([{}], {})",
            list.join(", "),
            self.rules_expr()
        ))
    }

    /// The board in ASCII: `X` player 1, `O` player 2, then `A`, `B`...; `.` empty.
    /// Gravity: column numbers (from 0, last digit) under the board. Free placement:
    /// column numbers above and row numbers on the left, both from 0 (row 0 the top
    /// row), so the cell in row `r`, column `c` is the action `r * width + c`.
    fn __str__(&self) -> String {
        let r = self.core_rules();
        let free = !r.gravity();
        // Free placement: every cell as wide as the largest label.
        let cell = if free {
            (r.width().max(r.height()) - 1).to_string().len()
        } else {
            1
        };
        let label = (r.height() - 1).to_string().len();
        let mut s = String::new();
        if free {
            let header: Vec<String> = (0..r.width()).map(|c| format!("{c:>cell$}")).collect();
            s.push_str(&format!("{:label$} {}\n", "", header.join(" ")));
        }
        for row in 0..r.height() {
            let line: Vec<String> = (0..r.width())
                .map(|col| {
                    let symbol = match self.game.owner(row, col) {
                        0 => '.',
                        p => SYMBOLS[p as usize - 1] as char,
                    };
                    format!("{symbol:>cell$}")
                })
                .collect();
            if free {
                s.push_str(&format!("{row:>label$} "));
            }
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

/// A new instance of `slf`'s class (a subclass stays itself) holding `game`;
/// the subclass's `__init__` is not run, as for any copy.
fn same_class<'py>(slf: &Bound<'py, Board>, game: Game) -> PyResult<Bound<'py, PyAny>> {
    let py = slf.py();
    let cls = slf.get_type();
    let board_type = py.get_type::<Board>();
    if cls.is(&board_type) {
        return Ok(Bound::new(py, Board { game })?.into_any());
    }
    let copy = board_type.call_method1("__new__", (cls,))?;
    copy.cast::<Board>()?.borrow_mut().game = game;
    Ok(copy)
}

/// The instance attributes of a subclass's board, when it has any.
fn instance_dict<'py>(slf: &Bound<'py, Board>) -> PyResult<Option<Bound<'py, PyAny>>> {
    match slf.getattr("__dict__") {
        Ok(d) if d.is_truthy()? => Ok(Some(d)),
        _ => Ok(None),
    }
}

/// `e` with "move {i}: " in front of its message, its cause kept; exceptions
/// other than `TypeError` and `IllegalMoveError` (KeyboardInterrupt) pass as they are.
fn prefix(py: Python<'_>, e: PyErr, i: usize) -> PyErr {
    let msg = e.value(py).str().map(|s| s.to_string()).unwrap_or_default();
    let prefixed = if e.is_instance_of::<PyTypeError>(py) {
        PyTypeError::new_err(format!("move {i}: {msg}"))
    } else if e.is_instance_of::<IllegalMoveError>(py) {
        IllegalMoveError::new_err(format!("move {i}: {msg}"))
    } else {
        return e;
    };
    prefixed.set_cause(py, e.cause(py));
    prefixed
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
    let grids = int_array(
        boards,
        &Spec {
            name: "boards",
            axes: &[Axis::any("N"), Axis::any("height"), Axis::any("width")],
        },
    )?;
    let (n, h, w) = (grids.shape()[0], grids.shape()[1], grids.shape()[2]);
    let k = match k {
        None => 4,
        Some(k) => match int_arg(k, "k")? {
            Some(v) if (1..=crate::MAX_SIDE as i64).contains(&v) => v as usize,
            _ => {
                return Err(super::errors::InvalidRulesError::new_err(format!(
                    "k={} is out of range: allowed 1..={}",
                    shown(k),
                    crate::MAX_SIDE
                )))
            }
        },
    };
    let cells = grids.values(0..=i64::MAX, |value, at| {
        InvalidPositionError::new_err(format!(
            "boards[{}, {}, {}] holds {value}: allowed 0 (empty) or a player 1..={}",
            at[0],
            at[1],
            at[2],
            i64::MAX
        ))
    })?;
    let cells = &cells;
    let out = py.detach(|| crate::detect::winners(cells, n, h, w, k));
    Ok(out.into_pyarray(py))
}
