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
    let span = conv.size * pin; // one window row: `size` cells of `pin` channels
    let shift = in_grid.pad - conv.size / 2;
    let row_stride = in_grid.row_length() * pin;
    let windows = |cell: usize| -> [usize; MAX_SIZE] {
        let (row, col) = (cell / in_grid.width, cell % in_grid.width);
        let first = ((row + shift) * in_grid.row_length() + col + shift) * pin;
        std::array::from_fn(|ky| first + ky * row_stride)
    };
    let cells = in_grid.height * in_grid.width;
    let mut cell = 0;
    while cell < cells {
        let rows = windows(cell);
        let at = out_grid.at(cell) * pout;
        #[cfg(target_arch = "x86_64")]
        if fma {
            if cell + 1 < cells {
                // Two cells at once share each weight load.
                let next = windows(cell + 1);
                let at_next = out_grid.at(cell + 1) * pout;
                assert!(at + pout <= at_next && at_next + pout <= out.len());
                let targets = [
                    out.as_mut_ptr().wrapping_add(at),
                    out.as_mut_ptr().wrapping_add(at_next),
                ];
                // SAFETY: `fma` is true only where the CPU has AVX2 and FMA (`has_fma`);
                // the two targets are disjoint runs of `pout` values inside `out`.
                unsafe {
                    x86::cells(
                        conv,
                        input,
                        [&rows[..conv.size], &next[..conv.size]],
                        span,
                        targets,
                        pout,
                        finish,
                    )
                };
                cell += 2;
                continue;
            }
            let targets = [out[at..at + pout].as_mut_ptr()];
            // SAFETY: as above, one run of `pout` values inside `out`.
            unsafe {
                x86::cells(
                    conv,
                    input,
                    [&rows[..conv.size]],
                    span,
                    targets,
                    pout,
                    finish,
                )
            };
            cell += 1;
            continue;
        }
        let _ = fma;
        plain_cell(
            conv,
            input,
            &rows[..conv.size],
            span,
            &mut out[at..at + pout],
            finish,
        );
        cell += 1;
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
    use super::{Conv, Finish, LANES};
    use std::arch::x86_64::*;

    /// Output channels computed together: four registers of sums.
    const GROUP: usize = 4;

    /// `M` output cells: for each group of up to four registers of output channels,
    /// the sums stay in registers over the whole window, and each weight register
    /// serves every cell.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn cells<const M: usize>(
        conv: &Conv,
        input: &[f32],
        rows: [&[usize]; M],
        span: usize,
        targets: [*mut f32; M],
        pout: usize,
        finish: Finish,
    ) {
        let registers = pout / LANES;
        let mut first = 0;
        while first < registers {
            match registers - first {
                1 => group::<M, 1>(conv, input, rows, span, targets, pout, finish, first),
                2 => group::<M, 2>(conv, input, rows, span, targets, pout, finish, first),
                3 => group::<M, 3>(conv, input, rows, span, targets, pout, finish, first),
                _ => group::<M, GROUP>(conv, input, rows, span, targets, pout, finish, first),
            }
            first += GROUP;
        }
    }

    #[target_feature(enable = "avx2,fma")]
    #[inline]
    #[allow(clippy::too_many_arguments)]
    unsafe fn group<const M: usize, const N: usize>(
        conv: &Conv,
        input: &[f32],
        rows: [&[usize]; M],
        span: usize,
        targets: [*mut f32; M],
        pout: usize,
        finish: Finish,
        first: usize,
    ) {
        let offset = first * LANES;
        let bias = conv.bias.as_ptr().add(offset);
        let mut sums: [[__m256; N]; M] = [[_mm256_setzero_ps(); N]; M];
        for cell in sums.iter_mut() {
            for (j, s) in cell.iter_mut().enumerate() {
                *s = _mm256_loadu_ps(bias.add(j * LANES));
            }
        }
        for ky in 0..rows[0].len() {
            let windows: [&[f32]; M] =
                std::array::from_fn(|m| &input[rows[m][ky]..rows[m][ky] + span]);
            let weights = &conv.weights[ky * span * pout..(ky + 1) * span * pout];
            let mut w = weights.as_ptr().add(offset);
            for i in 0..span {
                let mut loaded = [_mm256_setzero_ps(); N];
                for (j, l) in loaded.iter_mut().enumerate() {
                    *l = _mm256_loadu_ps(w.add(j * LANES));
                }
                for m in 0..M {
                    let v = _mm256_set1_ps(*windows[m].get_unchecked(i));
                    for j in 0..N {
                        sums[m][j] = _mm256_fmadd_ps(v, loaded[j], sums[m][j]);
                    }
                }
                w = w.add(pout);
            }
        }
        let zero = _mm256_setzero_ps();
        for m in 0..M {
            let out = targets[m].add(offset);
            for (j, s) in sums[m].iter().enumerate() {
                let at = out.add(j * LANES);
                let value = match finish {
                    Finish::Relu => *s,
                    Finish::AddRelu => _mm256_add_ps(*s, _mm256_loadu_ps(at)),
                };
                _mm256_storeu_ps(at, _mm256_max_ps(value, zero));
            }
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
