//! The shipped Connect-Four opening book, loaded once per process on first use.
//!
//! It is read through `importlib.resources`, so it is found in a wheel, a zipped
//! install and an editable install alike. A book that is missing or corrupt costs
//! a `RuntimeWarning` once; the solver then searches every position.

use std::ffi::CString;
use std::sync::{Arc, OnceLock};

use pyo3::exceptions::PyRuntimeWarning;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::solver::book::Book;

/// The book file inside the `inarow` package.
const BOOK_DIR: &str = "data";
const BOOK_FILE: &str = "connect4-7x6.book.zst";

/// `None` once loading has failed: no retry, one warning.
static SHIPPED: OnceLock<Option<Arc<Book>>> = OnceLock::new();

/// The shipped book, or `None` (with a warning on the first call) if it cannot
/// be loaded.
pub(crate) fn shipped_book(py: Python<'_>) -> Option<Arc<Book>> {
    if let Some(book) = SHIPPED.get() {
        return book.clone();
    }
    // Two threads racing here both load; the first to finish is kept.
    let loaded = match load(py) {
        Ok(book) => Some(Arc::new(book)),
        Err(reason) => {
            let message = format!(
                "inarow: the opening book {BOOK_DIR}/{BOOK_FILE} could not be loaded ({reason}); \
                 the solver searches every position"
            );
            let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
            // A warnings filter that turns this into an error must not fail the call.
            let _ = PyErr::warn(py, &py.get_type::<PyRuntimeWarning>(), &message, 1);
            None
        }
    };
    SHIPPED.get_or_init(|| loaded).clone()
}

fn load(py: Python<'_>) -> Result<Book, String> {
    let read = || -> PyResult<Vec<u8>> {
        let data = py
            .import("importlib.resources")?
            .call_method1("files", ("inarow",))?
            .call_method1("joinpath", (BOOK_DIR,))?
            .call_method1("joinpath", (BOOK_FILE,))?
            .call_method0("read_bytes")?;
        Ok(data.cast::<PyBytes>()?.as_bytes().to_vec())
    };
    let data = read().map_err(|e| e.to_string())?;
    py.detach(|| Book::from_bytes(data))
        .map_err(|e| e.to_string())
}
