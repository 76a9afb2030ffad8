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
#[allow(clippy::too_many_arguments)]
pub(super) fn conv(
    fma: bool,
    work: &mut Work,
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
        // Every value is set from the bias: a resize, not a clear.
        work.sums.resize(cells * pout, 0.0);
        // SAFETY: `fma` is true only where the CPU has AVX2 and FMA (`has_fma`).
        unsafe {
            x86::nonzero(&mut work.nonzero, input, in_grid, pin);
            x86::sparse_conv(conv, input, &work.nonzero, in_grid, shift, &mut work.sums);
            for (cell, sums) in work.sums.chunks_exact(pout).enumerate() {
                let at = out_grid.at(cell) * pout;
                x86::finish(sums, &mut out[at..at + pout], finish);
            }
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

/// Buffers a convolution reuses from call to call: its sums before the finish, and
/// its input's nonzero channels.
#[derive(Default)]
pub(super) struct Work {
    sums: Vec<f32>,
    nonzero: Nonzero,
}

/// The nonzero channels of each cell of a bordered grid: after ReLU most of them
/// are zero, and a zero adds nothing to any sum.
#[derive(Default)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
struct Nonzero {
    channels: Vec<u16>,
    /// `channels[start[g]..start[g + 1]]` are grid cell `g`'s.
    start: Vec<u32>,
}

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
impl Nonzero {
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

    /// For each 8-bit mask, the positions of its set bits, lowest first.
    const SET_BITS: [[u16; 8]; 256] = {
        let mut table = [[0u16; 8]; 256];
        let mut mask = 0;
        while mask < 256 {
            let (mut bit, mut n) = (0, 0);
            while bit < 8 {
                if mask & (1 << bit) != 0 {
                    table[mask][n] = bit as u16;
                    n += 1;
                }
                bit += 1;
            }
            mask += 1;
        }
        table
    };

    /// Lists every grid cell's nonzero channels: eight channels compared at once,
    /// their positions stored from a table without a branch.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn nonzero(nonzero: &mut Nonzero, input: &[f32], grid: Grid, pin: usize) {
        let values = grid.cells() * pin;
        debug_assert!(input.len() >= values && pin.is_multiple_of(LANES));
        // A whole row of the table is stored each time: room for one past the end.
        nonzero.channels.clear();
        nonzero.channels.resize(values + LANES, 0);
        nonzero.start.clear();
        nonzero.start.push(0);
        let (from, to) = (input.as_ptr(), nonzero.channels.as_mut_ptr());
        let (zero, step) = (_mm_setzero_si128(), _mm_set1_epi16(LANES as i16));
        let mut len = 0;
        for g in 0..grid.cells() {
            let mut base = zero;
            for lane in (0..pin).step_by(LANES) {
                let v = _mm256_loadu_ps(from.add(g * pin + lane));
                let mask = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_NEQ_UQ>(v, _mm256_setzero_ps()));
                let bits = _mm_loadu_si128(SET_BITS[mask as usize].as_ptr().cast());
                _mm_storeu_si128(to.add(len).cast(), _mm_add_epi16(bits, base));
                len += mask.count_ones() as usize;
                base = _mm_add_epi16(base, step);
            }
            nonzero.start.push(len as u32);
        }
    }

    /// `target = max(sums, 0)` or, for a residual, `max(sums + target, 0)`.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn finish(sums: &[f32], target: &mut [f32], finish: Finish) {
        debug_assert!(sums.len() == target.len() && sums.len().is_multiple_of(LANES));
        let zero = _mm256_setzero_ps();
        for j in (0..sums.len()).step_by(LANES) {
            let at = target.as_mut_ptr().add(j);
            let mut s = _mm256_loadu_ps(sums.as_ptr().add(j));
            if finish == Finish::AddRelu {
                s = _mm256_add_ps(s, _mm256_loadu_ps(at));
            }
            _mm256_storeu_ps(at, _mm256_max_ps(s, zero));
        }
    }

    /// Every output cell's sums (`sums`, `(cells, pout)`, bias first) over the
    /// window's nonzero inputs, one kernel tap at a time: a tap's weights (9 KB at 48
    /// channels) stay in the first-level cache across the cells, where the whole
    /// kernel's (83 KB) would be fetched again for every cell.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn sparse_conv(
        conv: &Conv,
        input: &[f32],
        nonzero: &Nonzero,
        grid: Grid,
        shift: usize,
        sums: &mut [f32],
    ) {
        let (pin, pout) = (super::padded(conv.inputs), super::padded(conv.outputs));
        let cells = grid.height * grid.width;
        debug_assert_eq!(sums.len(), cells * pout);
        for cell in sums.chunks_exact_mut(pout) {
            cell.copy_from_slice(&conv.bias);
        }
        let registers = pout / LANES;
        for tap in 0..conv.size * conv.size {
            let (ky, kx) = (tap / conv.size, tap % conv.size);
            let rows = conv.weights.as_ptr().add(tap * pin * pout);
            for cell in 0..cells {
                let (row, col) = (cell / grid.width, cell % grid.width);
                let g = (row + shift + ky) * grid.row_length() + col + shift + kx;
                let channels = nonzero.of_cell(g);
                if channels.is_empty() {
                    continue; // the border, or a cell all of whose channels are zero
                }
                let values = input.as_ptr().add(g * pin);
                let target = sums.as_mut_ptr().add(cell * pout);
                let t = (rows, values, channels, pout, target);
                let mut first = 0;
                while first < registers {
                    match registers - first {
                        1 => tap_group::<1>(t, first),
                        2 => tap_group::<2>(t, first),
                        3 => tap_group::<3>(t, first),
                        4 => tap_group::<4>(t, first),
                        5 => tap_group::<5>(t, first),
                        6 => tap_group::<6>(t, first),
                        7 => tap_group::<7>(t, first),
                        _ => tap_group::<GROUP>(t, first),
                    }
                    first += GROUP;
                }
            }
        }
    }

    /// A tap's weights, one input cell's values, its nonzero channels, the padded
    /// outputs, the output cell's sums.
    type Tap<'a> = (*const f32, *const f32, &'a [u16], usize, *mut f32);

    /// `N` registers of one cell's sums, from `first`, over one tap's nonzero inputs.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    unsafe fn tap_group<const N: usize>(
        (rows, values, channels, pout, target): Tap<'_>,
        first: usize,
    ) {
        let at = target.add(first * LANES);
        let mut sums: [__m256; N] = [_mm256_setzero_ps(); N];
        for (j, s) in sums.iter_mut().enumerate() {
            *s = _mm256_loadu_ps(at.add(j * LANES));
        }
        let weights = rows.add(first * LANES);
        let mut rest = channels;
        if N <= 6 {
            // Two channels into two sets of sums: twice the independent chains for
            // the FMA's latency, within the 16 registers.
            let mut other: [__m256; N] = [_mm256_setzero_ps(); N];
            while let [c0, c1, tail @ ..] = rest {
                let (c0, c1) = (*c0 as usize, *c1 as usize);
                let (v0, v1) = (
                    _mm256_set1_ps(*values.add(c0)),
                    _mm256_set1_ps(*values.add(c1)),
                );
                let (w0, w1) = (weights.add(c0 * pout), weights.add(c1 * pout));
                for j in 0..N {
                    sums[j] = _mm256_fmadd_ps(v0, _mm256_loadu_ps(w0.add(j * LANES)), sums[j]);
                    other[j] = _mm256_fmadd_ps(v1, _mm256_loadu_ps(w1.add(j * LANES)), other[j]);
                }
                rest = tail;
            }
            for (s, o) in sums.iter_mut().zip(other) {
                *s = _mm256_add_ps(*s, o);
            }
        }
        for &c in rest {
            let c = c as usize;
            let v = _mm256_set1_ps(*values.add(c));
            let w = weights.add(c * pout);
            for (j, s) in sums.iter_mut().enumerate() {
                *s = _mm256_fmadd_ps(v, _mm256_loadu_ps(w.add(j * LANES)), *s);
            }
        }
        for (j, s) in sums.iter().enumerate() {
            _mm256_storeu_ps(at.add(j * LANES), *s);
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
