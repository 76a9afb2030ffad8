//! The arithmetic: convolutions over a bordered channel-last grid and linear layers,
//! with an AVX2+FMA path chosen at run time and a plain one everywhere else.

use super::{padded, Conv, Grid, Linear, LANES, MAX_SIZE};

/// What a convolution does with its sums before storing them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Finish {
    /// `max(sum, 0)`.
    Relu,
    /// `max(sum + stored, 0)`: a residual block's second convolution, in place.
    AddRelu,
}

/// Whether this CPU runs the AVX2+FMA path.
pub(super) fn has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// One convolution from `input` (on `in_grid`, whose border is at least the kernel's
/// half-width) into the interior of `out` (on `out_grid`), both channel-last with
/// padded channels.
pub(super) fn conv(
    fma: bool,
    conv: &Conv,
    input: &[f32],
    in_grid: Grid,
    out: &mut [f32],
    out_grid: Grid,
    finish: Finish,
) {
    debug_assert!(in_grid.pad >= conv.size / 2);
    debug_assert_eq!(
        (in_grid.height, in_grid.width),
        (out_grid.height, out_grid.width)
    );
    let (pin, pout) = (padded(conv.inputs), padded(conv.outputs));
    let shift = in_grid.pad - conv.size / 2;
    let cells = in_grid.height * in_grid.width;
    #[cfg(target_arch = "x86_64")]
    if fma {
        let nonzero = Nonzero::of(input, in_grid, pin);
        for cell in 0..cells {
            let (row, col) = (cell / in_grid.width, cell % in_grid.width);
            let at = out_grid.at(cell) * pout;
            let corner = (row + shift, col + shift);
            // SAFETY: `fma` is true only where the CPU has AVX2 and FMA (`has_fma`).
            unsafe {
                x86::sparse_cell(
                    conv,
                    input,
                    &nonzero,
                    in_grid,
                    corner,
                    &mut out[at..at + pout],
                    finish,
                )
            };
        }
        return;
    }
    let _ = fma;
    let span = conv.size * pin; // one window row: `size` cells of `pin` channels
    let row_stride = in_grid.row_length() * pin;
    for cell in 0..cells {
        let (row, col) = (cell / in_grid.width, cell % in_grid.width);
        let first = ((row + shift) * in_grid.row_length() + col + shift) * pin;
        let rows: [usize; MAX_SIZE] = std::array::from_fn(|ky| first + ky * row_stride);
        let at = out_grid.at(cell) * pout;
        plain_cell(
            conv,
            input,
            &rows[..conv.size],
            span,
            &mut out[at..at + pout],
            finish,
        );
    }
}

/// The nonzero channels of each cell of a bordered grid: after ReLU most of them
/// are zero, and a zero adds nothing to any sum.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
struct Nonzero {
    channels: Vec<u16>,
    /// `channels[start[g]..start[g + 1]]` are grid cell `g`'s.
    start: Vec<u32>,
}

impl Nonzero {
    fn of(input: &[f32], grid: Grid, pin: usize) -> Nonzero {
        let mut channels = vec![0u16; grid.cells() * pin];
        let mut start = Vec::with_capacity(grid.cells() + 1);
        start.push(0);
        let mut len = 0;
        for values in input[..grid.cells() * pin].chunks_exact(pin) {
            // Without a branch: about half the values are zero, in no order a
            // predictor could learn.
            for (c, &v) in values.iter().enumerate() {
                channels[len] = c as u16;
                len += usize::from(v != 0.0);
            }
            start.push(len as u32);
        }
        Nonzero { channels, start }
    }

    fn of_cell(&self, g: usize) -> &[u16] {
        &self.channels[self.start[g] as usize..self.start[g + 1] as usize]
    }
}

/// One output cell, every output channel, in plain arithmetic.
fn plain_cell(
    conv: &Conv,
    input: &[f32],
    rows: &[usize],
    span: usize,
    target: &mut [f32],
    finish: Finish,
) {
    let pout = target.len();
    let mut sums = conv.bias.clone();
    for (ky, &start) in rows.iter().enumerate() {
        let window = &input[start..start + span];
        let weights = &conv.weights[ky * span * pout..(ky + 1) * span * pout];
        for (&v, row) in window.iter().zip(weights.chunks_exact(pout)) {
            for (s, &w) in sums.iter_mut().zip(row) {
                *s += v * w;
            }
        }
    }
    for (t, s) in target.iter_mut().zip(sums) {
        *t = match finish {
            Finish::Relu => s.max(0.0),
            Finish::AddRelu => (s + *t).max(0.0),
        };
    }
}

/// `out.extend(x @ weights + bias)`.
pub(super) fn linear(fma: bool, layer: &Linear, x: &[f32], out: &mut Vec<f32>) {
    debug_assert_eq!(x.len(), layer.inputs);
    let start = out.len();
    out.extend_from_slice(&layer.bias);
    let sums = &mut out[start..];
    #[cfg(target_arch = "x86_64")]
    if fma {
        // SAFETY: as in `conv`.
        unsafe { x86::rows(x, &layer.weights, sums) };
        return;
    }
    let _ = fma;
    for (&v, row) in x.iter().zip(layer.weights.chunks_exact(layer.outputs)) {
        for (s, &w) in sums.iter_mut().zip(row) {
            *s += v * w;
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Conv, Finish, Grid, Nonzero, LANES};
    use std::arch::x86_64::*;

    /// Output channels computed together: at most eight registers of sums.
    const GROUP: usize = 8;

    /// One output cell, the sums of up to eight registers of output channels at a
    /// time kept in registers over the window's nonzero inputs.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn sparse_cell(
        conv: &Conv,
        input: &[f32],
        nonzero: &Nonzero,
        grid: Grid,
        corner: (usize, usize),
        target: &mut [f32],
        finish: Finish,
    ) {
        let registers = target.len() / LANES;
        let mut first = 0;
        while first < registers {
            let c = (conv, input, nonzero, grid, corner);
            match registers - first {
                1 => group::<1>(c, target, finish, first),
                2 => group::<2>(c, target, finish, first),
                3 => group::<3>(c, target, finish, first),
                4 => group::<4>(c, target, finish, first),
                5 => group::<5>(c, target, finish, first),
                6 => group::<6>(c, target, finish, first),
                7 => group::<7>(c, target, finish, first),
                _ => group::<GROUP>(c, target, finish, first),
            }
            first += GROUP;
        }
    }

    type Window<'a> = (&'a Conv, &'a [f32], &'a Nonzero, Grid, (usize, usize));

    #[target_feature(enable = "avx2,fma")]
    #[inline]
    unsafe fn group<const N: usize>(
        (conv, input, nonzero, grid, (top, left)): Window<'_>,
        target: &mut [f32],
        finish: Finish,
        first: usize,
    ) {
        let pout = target.len();
        let pin = super::padded(conv.inputs);
        let offset = first * LANES;
        let bias = conv.bias.as_ptr().add(offset);
        let mut sums: [__m256; N] = [_mm256_setzero_ps(); N];
        for (j, s) in sums.iter_mut().enumerate() {
            *s = _mm256_loadu_ps(bias.add(j * LANES));
        }
        let weights = conv.weights.as_ptr().add(offset);
        for ky in 0..conv.size {
            for kx in 0..conv.size {
                let g = (top + ky) * grid.row_length() + left + kx;
                let values = &input[g * pin..(g + 1) * pin];
                let rows = weights.add((ky * conv.size + kx) * pin * pout);
                for &c in nonzero.of_cell(g) {
                    let c = c as usize;
                    let v = _mm256_set1_ps(*values.get_unchecked(c));
                    let w = rows.add(c * pout);
                    for (j, s) in sums.iter_mut().enumerate() {
                        *s = _mm256_fmadd_ps(v, _mm256_loadu_ps(w.add(j * LANES)), *s);
                    }
                }
            }
        }
        let zero = _mm256_setzero_ps();
        let out = target.as_mut_ptr().add(offset);
        for (j, s) in sums.iter().enumerate() {
            let at = out.add(j * LANES);
            let value = match finish {
                Finish::Relu => *s,
                Finish::AddRelu => _mm256_add_ps(*s, _mm256_loadu_ps(at)),
            };
            _mm256_storeu_ps(at, _mm256_max_ps(value, zero));
        }
    }

    /// `sums += x @ weights` for `weights` `(x.len(), sums.len())` row-major.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn rows(x: &[f32], weights: &[f32], sums: &mut [f32]) {
        let outputs = sums.len();
        let whole = outputs / LANES * LANES;
        for (&v, row) in x.iter().zip(weights.chunks_exact(outputs)) {
            if v == 0.0 {
                continue; // after ReLU most inputs of the heads are zero
            }
            let b = _mm256_set1_ps(v);
            let mut j = 0;
            while j < whole {
                let s = sums.as_mut_ptr().add(j);
                let r =
                    _mm256_fmadd_ps(b, _mm256_loadu_ps(row.as_ptr().add(j)), _mm256_loadu_ps(s));
                _mm256_storeu_ps(s, r);
                j += LANES;
            }
            for k in whole..outputs {
                sums[k] = v.mul_add(row[k], sums[k]);
            }
        }
    }
}
