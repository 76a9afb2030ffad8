//! The trained network's forward pass: a residual tower of 3x3 convolutions with a
//! policy and a value head, as `inarow.train` exports it (batch norm folded into the
//! convolutions). The search calls it one position at a time, where a framework's
//! fixed cost per operation outweighs the arithmetic; here one call is the
//! arithmetic alone, on AVX2 and FMA where the CPU has them.
//!
//! Layouts: observations `(batch, planes, height, width)`; activations channel-last
//! with the channels padded to a multiple of [`LANES`]; a convolution's weights
//! `(kernel, kernel, in, out)` row-major (the order of one window's values), a
//! linear layer's `(in, out)`.

mod cache;
mod kernel;

pub use cache::OutputCache;

use kernel::{Finish, Work};

use std::fmt;

/// Channels are computed in groups of this many (one AVX register of `f32`).
pub const LANES: usize = 8;

/// The widest convolution kernel.
pub const MAX_SIZE: usize = 7;

/// Why a network cannot be built or run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetError(pub String);

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetError {}

fn padded(channels: usize) -> usize {
    channels.div_ceil(LANES) * LANES
}

/// A convolution, its weights laid out for the kernels: rows `(ky, kx, c)` over
/// the padded input channels, columns the padded output channels (zero beyond the
/// real ones, so the padding channels stay zero through the tower).
#[derive(Debug, Clone)]
pub struct Conv {
    size: usize,
    inputs: usize,
    outputs: usize,
    weights: Vec<f32>,
    bias: Vec<f32>,
}

impl Conv {
    /// `weights` is `(size, size, inputs, outputs)` row-major, `bias` `(outputs,)`.
    pub fn new(
        size: usize,
        inputs: usize,
        outputs: usize,
        weights: &[f32],
        bias: &[f32],
    ) -> Result<Conv, NetError> {
        if size == 0 || size.is_multiple_of(2) || size > MAX_SIZE || inputs == 0 || outputs == 0 {
            return Err(NetError(format!(
                "a convolution of size {size}, {inputs} -> {outputs} channels: allowed an odd \
                 size up to {MAX_SIZE} and at least one channel each side"
            )));
        }
        if weights.len() != size * size * inputs * outputs || bias.len() != outputs {
            return Err(NetError(format!(
                "a {size}x{size} convolution of {inputs} -> {outputs} channels needs {} weights \
                 and {outputs} biases, got {} and {}",
                size * size * inputs * outputs,
                weights.len(),
                bias.len()
            )));
        }
        let (pin, pout) = (padded(inputs), padded(outputs));
        let mut laid = vec![0.0; size * size * pin * pout];
        for window in 0..size * size {
            for c in 0..inputs {
                let from = (window * inputs + c) * outputs;
                let to = (window * pin + c) * pout;
                laid[to..to + outputs].copy_from_slice(&weights[from..from + outputs]);
            }
        }
        let mut b = vec![0.0; pout];
        b[..outputs].copy_from_slice(bias);
        Ok(Conv {
            size,
            inputs,
            outputs,
            weights: laid,
            bias: b,
        })
    }
}

/// A fully connected layer: `weights` `(inputs, outputs)` row-major.
#[derive(Debug, Clone)]
pub struct Linear {
    inputs: usize,
    outputs: usize,
    weights: Vec<f32>,
    bias: Vec<f32>,
}

impl Linear {
    pub fn new(
        inputs: usize,
        outputs: usize,
        weights: &[f32],
        bias: &[f32],
    ) -> Result<Linear, NetError> {
        if inputs == 0 || outputs == 0 {
            return Err(NetError(format!(
                "a linear layer of {inputs} -> {outputs}: allowed at least one each side"
            )));
        }
        if weights.len() != inputs * outputs || bias.len() != outputs {
            return Err(NetError(format!(
                "a linear layer of {inputs} -> {outputs} needs {} weights and {outputs} biases, \
                 got {} and {}",
                inputs * outputs,
                weights.len(),
                bias.len()
            )));
        }
        Ok(Linear {
            inputs,
            outputs,
            weights: weights.to_vec(),
            bias: bias.to_vec(),
        })
    }
}

/// The layers of an exported network, in the order the forward pass runs them.
#[derive(Debug, Clone)]
pub struct Layers {
    pub stem: Conv,
    pub blocks: Vec<(Conv, Conv)>,
    pub policy_conv: Conv,
    pub policy_fc: Linear,
    pub value_conv: Conv,
    pub value_fc1: Linear,
    pub value_fc2: Linear,
}

/// The network for one board size: `planes` input planes of `height x width`.
#[derive(Debug, Clone)]
pub struct ConvNet {
    planes: usize,
    height: usize,
    width: usize,
    layers: Layers,
}

/// Every layer's output, one position's worth, reused across the positions of a call.
struct Scratch {
    input: Vec<f32>,
    padded: Vec<f32>,
    other: Vec<f32>,
    head: Vec<f32>,
    flat: Vec<f32>,
    hidden: Vec<f32>,
    work: Work,
}

impl ConvNet {
    /// Checks that the layers chain: the stem takes `planes`, every block keeps the
    /// stem's channels, the heads' linear layers take the flattened head convolutions.
    pub fn new(
        planes: usize,
        height: usize,
        width: usize,
        layers: Layers,
    ) -> Result<ConvNet, NetError> {
        if planes == 0 || height == 0 || width == 0 || height > 64 || width > 64 {
            return Err(NetError(format!(
                "{planes} planes of {height}x{width}: allowed at least one plane of 1..=64 \
                 rows and columns"
            )));
        }
        let cells = height * width;
        let channels = layers.stem.outputs;
        let mut problems = Vec::new();
        if layers.stem.inputs != planes {
            problems.push(format!(
                "the stem takes {} planes, the observations have {planes}",
                layers.stem.inputs
            ));
        }
        for (i, (a, b)) in layers.blocks.iter().enumerate() {
            for (name, conv) in [("a", a), ("b", b)] {
                if conv.inputs != channels || conv.outputs != channels {
                    problems.push(format!(
                        "block {i}.{name} maps {} -> {} channels, the tower has {channels}",
                        conv.inputs, conv.outputs
                    ));
                }
            }
        }
        for (name, conv, fc) in [
            ("policy", &layers.policy_conv, &layers.policy_fc),
            ("value", &layers.value_conv, &layers.value_fc1),
        ] {
            if conv.inputs != channels {
                problems.push(format!(
                    "the {name} head takes {} channels, the tower has {channels}",
                    conv.inputs
                ));
            }
            if fc.inputs != conv.outputs * cells {
                problems.push(format!(
                    "the {name} head's linear layer takes {}, its convolution gives {} x {cells}",
                    fc.inputs, conv.outputs
                ));
            }
        }
        if layers.value_fc2.inputs != layers.value_fc1.outputs {
            problems.push(format!(
                "value.fc2 takes {}, value.fc1 gives {}",
                layers.value_fc2.inputs, layers.value_fc1.outputs
            ));
        }
        if !problems.is_empty() {
            return Err(NetError(problems.join("; ")));
        }
        Ok(ConvNet {
            planes,
            height,
            width,
            layers,
        })
    }

    pub fn planes(&self) -> usize {
        self.planes
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn width(&self) -> usize {
        self.width
    }

    /// Policy logits per position.
    pub fn actions(&self) -> usize {
        self.layers.policy_fc.outputs
    }

    /// Values per position (1 for two players: the side to move's).
    pub fn values(&self) -> usize {
        self.layers.value_fc2.outputs
    }

    /// Logits `(batch, actions)` and values `(batch, values)` for observations
    /// `(batch, planes, height, width)`.
    pub fn forward(&self, obs: &[f32]) -> Result<(Vec<f32>, Vec<f32>), NetError> {
        self.forward_with(obs, kernel::has_fma())
    }

    /// [`ConvNet::forward`] on the AVX2+FMA path or not (`fma` only where the CPU has it).
    fn forward_with(&self, obs: &[f32], fma: bool) -> Result<(Vec<f32>, Vec<f32>), NetError> {
        let per = self.planes * self.height * self.width;
        if !obs.len().is_multiple_of(per) {
            return Err(NetError(format!(
                "{} observation values are not whole positions of {} planes x {} x {}",
                obs.len(),
                self.planes,
                self.height,
                self.width
            )));
        }
        let batch = obs.len() / per;
        let mut logits = Vec::new();
        let mut values = Vec::new();
        let too_big = |_| NetError(format!("{batch} positions: out of memory for the outputs"));
        logits
            .try_reserve_exact(batch * self.actions())
            .map_err(too_big)?;
        values
            .try_reserve_exact(batch * self.values())
            .map_err(too_big)?;
        let mut scratch = self.scratch();
        for position in obs.chunks_exact(per) {
            self.one(position, &mut scratch, fma, &mut logits, &mut values);
        }
        Ok((logits, values))
    }

    fn scratch(&self) -> Scratch {
        let widest = self
            .layers
            .stem
            .outputs
            .max(self.layers.stem.inputs)
            .max(self.layers.policy_conv.outputs)
            .max(self.layers.value_conv.outputs);
        let grid = Grid {
            height: self.height,
            width: self.width,
            pad: self.pad(),
        }
        .cells();
        Scratch {
            input: vec![0.0; grid * padded(self.planes)],
            padded: vec![0.0; grid * padded(widest)],
            other: vec![0.0; grid * padded(widest)],
            head: vec![0.0; self.height * self.width * padded(widest)],
            flat: vec![0.0; self.height * self.width * widest],
            hidden: vec![0.0; self.layers.value_fc1.outputs],
            work: Work::default(),
        }
    }

    /// The border every tower activation keeps, so that a 3x3 window needs no bounds.
    fn pad(&self) -> usize {
        let mut pad = self.layers.stem.size / 2;
        for (a, b) in &self.layers.blocks {
            pad = pad.max(a.size / 2).max(b.size / 2);
        }
        pad.max(self.layers.policy_conv.size / 2)
            .max(self.layers.value_conv.size / 2)
    }

    fn one(
        &self,
        position: &[f32],
        s: &mut Scratch,
        fma: bool,
        logits: &mut Vec<f32>,
        values: &mut Vec<f32>,
    ) {
        let (h, w, pad) = (self.height, self.width, self.pad());
        let grid = Grid {
            height: h,
            width: w,
            pad,
        };
        // The planes, channel-last into the bordered grid. Only a grid's interior is
        // ever written, every real channel of it each time: the borders and the
        // padding channels stay zero from the start.
        let cin = padded(self.planes);
        for (plane, values) in position.chunks_exact(h * w).enumerate() {
            for (cell, &v) in values.iter().enumerate() {
                s.input[grid.at(cell) * cin + plane] = v;
            }
        }
        let l = &self.layers;
        // The stem writes the tower's activation into `other`; each block reads it
        // and writes back into it through `padded` (the residual is added in place).
        kernel::conv(
            fma,
            &mut s.work,
            &l.stem,
            &s.input,
            grid,
            &mut s.other,
            grid,
            Finish::Relu,
        );
        for (a, b) in &l.blocks {
            kernel::conv(
                fma,
                &mut s.work,
                a,
                &s.other,
                grid,
                &mut s.padded,
                grid,
                Finish::Relu,
            );
            kernel::conv(
                fma,
                &mut s.work,
                b,
                &s.padded,
                grid,
                &mut s.other,
                grid,
                Finish::AddRelu,
            );
        }
        let tower = &s.other;
        self.head(
            fma,
            &mut s.work,
            &l.policy_conv,
            tower,
            grid,
            s.head.as_mut_slice(),
            &mut s.flat,
        );
        let cells = h * w;
        kernel::linear(
            fma,
            &l.policy_fc,
            &s.flat[..cells * l.policy_conv.outputs],
            logits,
        );
        self.head(
            fma,
            &mut s.work,
            &l.value_conv,
            tower,
            grid,
            s.head.as_mut_slice(),
            &mut s.flat,
        );
        s.hidden.clear();
        kernel::linear(
            fma,
            &l.value_fc1,
            &s.flat[..cells * l.value_conv.outputs],
            &mut s.hidden,
        );
        for v in s.hidden.iter_mut() {
            *v = v.max(0.0);
        }
        let start = values.len();
        kernel::linear(fma, &l.value_fc2, &s.hidden, values);
        for v in &mut values[start..] {
            *v = v.tanh();
        }
    }

    /// A head's convolution with ReLU, flattened channel-major (torch's flatten of
    /// `(channels, height, width)`).
    #[allow(clippy::too_many_arguments)]
    fn head(
        &self,
        fma: bool,
        work: &mut Work,
        conv: &Conv,
        tower: &[f32],
        grid: Grid,
        out: &mut [f32],
        flat: &mut [f32],
    ) {
        let unpadded = Grid { pad: 0, ..grid };
        kernel::conv(fma, work, conv, tower, grid, out, unpadded, Finish::Relu);
        let (cells, pout) = (grid.height * grid.width, padded(conv.outputs));
        for cell in 0..cells {
            for c in 0..conv.outputs {
                flat[c * cells + cell] = out[cell * pout + c];
            }
        }
    }
}

/// A board's cells inside a border of `pad` zero cells each side.
#[derive(Debug, Clone, Copy)]
struct Grid {
    height: usize,
    width: usize,
    pad: usize,
}

impl Grid {
    fn row_length(self) -> usize {
        self.width + 2 * self.pad
    }

    fn cells(self) -> usize {
        (self.height + 2 * self.pad) * self.row_length()
    }

    /// Where board cell `cell` (row-major) sits in the bordered grid.
    fn at(self, cell: usize) -> usize {
        let (row, col) = (cell / self.width, cell % self.width);
        (row + self.pad) * self.row_length() + col + self.pad
    }
}

#[cfg(test)]
mod tests;
