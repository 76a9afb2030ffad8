//! The forward pass against a plain implementation written from the layers'
//! definitions (torch's `(channels, height, width)` layout, zero padding).

use super::*;
use crate::rng::Rng;

fn random(rng: &mut Rng, n: usize, scale: f32) -> Vec<f32> {
    (0..n)
        .map(|_| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 2.0 * scale)
        .collect()
}

/// The layers with their weights kept in the definition's order, for the reference.
struct Plain {
    size: usize,
    inputs: usize,
    outputs: usize,
    w: Vec<f32>,
    b: Vec<f32>,
}

fn conv(rng: &mut Rng, size: usize, inputs: usize, outputs: usize) -> (Conv, Plain) {
    let scale = 1.0 / ((size * size * inputs) as f32).sqrt();
    let w = random(rng, size * size * inputs * outputs, scale);
    let b = random(rng, outputs, 0.1);
    let c = Conv::new(size, inputs, outputs, &w, &b).unwrap();
    (
        c,
        Plain {
            size,
            inputs,
            outputs,
            w,
            b,
        },
    )
}

fn linear(rng: &mut Rng, inputs: usize, outputs: usize) -> (Linear, Plain) {
    let w = random(rng, inputs * outputs, 1.0 / (inputs as f32).sqrt());
    let b = random(rng, outputs, 0.1);
    let l = Linear::new(inputs, outputs, &w, &b).unwrap();
    (
        l,
        Plain {
            size: 0,
            inputs,
            outputs,
            w,
            b,
        },
    )
}

/// `(channels, h, w)` -> `(outputs, h, w)`, zero padding, no activation.
fn plain_conv(p: &Plain, x: &[f32], h: usize, w: usize) -> Vec<f32> {
    let half = (p.size / 2) as isize;
    let mut out = vec![0.0f32; p.outputs * h * w];
    for o in 0..p.outputs {
        for y in 0..h {
            for x0 in 0..w {
                let mut s = p.b[o] as f64;
                for ky in 0..p.size {
                    for kx in 0..p.size {
                        let (yy, xx) = (
                            y as isize + ky as isize - half,
                            x0 as isize + kx as isize - half,
                        );
                        if yy < 0 || xx < 0 || yy >= h as isize || xx >= w as isize {
                            continue;
                        }
                        for c in 0..p.inputs {
                            let v = x[(c * h + yy as usize) * w + xx as usize] as f64;
                            let wt = p.w[((ky * p.size + kx) * p.inputs + c) * p.outputs + o];
                            s += v * wt as f64;
                        }
                    }
                }
                out[(o * h + y) * w + x0] = s as f32;
            }
        }
    }
    out
}

fn plain_linear(p: &Plain, x: &[f32]) -> Vec<f32> {
    (0..p.outputs)
        .map(|o| {
            let mut s = p.b[o] as f64;
            for (i, &v) in x.iter().enumerate() {
                s += v as f64 * p.w[i * p.outputs + o] as f64;
            }
            s as f32
        })
        .collect()
}

fn relu(v: &mut [f32]) {
    for x in v {
        *x = x.max(0.0);
    }
}

struct Case {
    net: ConvNet,
    plain: Vec<Plain>,
    blocks: usize,
}

/// A random network: `board` is `(planes, height, width)`, `heads` `(values, actions)`.
fn case(
    seed: u64,
    board: (usize, usize, usize),
    channels: usize,
    blocks: usize,
    heads: (usize, usize),
) -> Case {
    let ((planes, h, w), (values, actions)) = (board, heads);
    let mut rng = Rng::new(seed, 0);
    let (stem, p_stem) = conv(&mut rng, 3, planes, channels);
    let mut tower = Vec::new();
    let mut plain = vec![p_stem];
    for _ in 0..blocks {
        let (a, pa) = conv(&mut rng, 3, channels, channels);
        let (b, pb) = conv(&mut rng, 3, channels, channels);
        tower.push((a, b));
        plain.push(pa);
        plain.push(pb);
    }
    let (policy_conv, pp) = conv(&mut rng, 1, channels, 2);
    let (policy_fc, ppf) = linear(&mut rng, 2 * h * w, actions);
    let (value_conv, pv) = conv(&mut rng, 1, channels, 1);
    let (value_fc1, pv1) = linear(&mut rng, h * w, 32);
    let (value_fc2, pv2) = linear(&mut rng, 32, values);
    plain.extend([pp, ppf, pv, pv1, pv2]);
    let layers = Layers {
        stem,
        blocks: tower,
        policy_conv,
        policy_fc,
        value_conv,
        value_fc1,
        value_fc2,
    };
    Case {
        net: ConvNet::new(planes, h, w, layers).unwrap(),
        plain,
        blocks,
    }
}

fn plain_forward(c: &Case, obs: &[f32]) -> (Vec<f32>, Vec<f32>) {
    let (h, w) = (c.net.height, c.net.width);
    let mut x = plain_conv(&c.plain[0], obs, h, w);
    relu(&mut x);
    for i in 0..c.blocks {
        let mut y = plain_conv(&c.plain[1 + 2 * i], &x, h, w);
        relu(&mut y);
        let mut z = plain_conv(&c.plain[2 + 2 * i], &y, h, w);
        for (z, x) in z.iter_mut().zip(&x) {
            *z += x;
        }
        relu(&mut z);
        x = z;
    }
    let heads = &c.plain[1 + 2 * c.blocks..];
    let mut p = plain_conv(&heads[0], &x, h, w);
    relu(&mut p);
    let logits = plain_linear(&heads[1], &p);
    let mut v = plain_conv(&heads[2], &x, h, w);
    relu(&mut v);
    let mut hidden = plain_linear(&heads[3], &v);
    relu(&mut hidden);
    let values = plain_linear(&heads[4], &hidden)
        .iter()
        .map(|v| v.tanh())
        .collect();
    (logits, values)
}

fn observations(seed: u64, n: usize, planes: usize, cells: usize) -> Vec<f32> {
    let mut rng = Rng::new(seed, 0);
    // Stones as one-hot planes (at most one plane set per cell), as the search feeds.
    let mut obs = vec![0.0; n * planes * cells];
    for b in 0..n {
        for cell in 0..cells {
            let owner = (rng.next_u64() % (planes as u64 + 1)) as usize;
            if owner < planes {
                obs[(b * planes + owner) * cells + cell] = 1.0;
            }
        }
    }
    obs
}

fn assert_close(got: &[f32], want: &[f32], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-4 * (1.0 + w.abs()),
            "{what}[{i}]: got {g}, want {w}"
        );
    }
}

fn check(c: &Case, n: usize, seed: u64) {
    let cells = c.net.height * c.net.width;
    let obs = observations(seed, n, c.net.planes, cells);
    let per = c.net.planes * cells;
    for fma in [false, kernel::has_fma()] {
        let (logits, values) = c.net.forward_with(&obs, fma).unwrap();
        assert_eq!(logits.len(), n * c.net.actions());
        assert_eq!(values.len(), n * c.net.values());
        for b in 0..n {
            let (want_l, want_v) = plain_forward(c, &obs[b * per..(b + 1) * per]);
            let a = c.net.actions();
            let v = c.net.values();
            assert_close(
                &logits[b * a..(b + 1) * a],
                &want_l,
                &format!("fma={fma} logits of {b}"),
            );
            assert_close(
                &values[b * v..(b + 1) * v],
                &want_v,
                &format!("fma={fma} values of {b}"),
            );
        }
    }
}

#[test]
fn connect_four_shape_matches_the_plain_definition() {
    check(&case(1, (2, 6, 7), 48, 4, (1, 7)), 5, 11);
}

#[test]
fn channels_off_the_register_width_and_three_players() {
    // 12 and 20 channels leave partial registers; 3 players give 3 values.
    check(&case(2, (3, 8, 8), 12, 2, (3, 64)), 3, 12);
    check(&case(3, (2, 5, 9), 20, 1, (1, 45)), 3, 13);
    check(&case(4, (2, 3, 3), 36, 0, (1, 9)), 4, 14);
}

#[test]
fn one_cell_and_one_row_boards() {
    check(&case(5, (2, 1, 1), 8, 1, (1, 1)), 2, 15);
    check(&case(6, (2, 1, 7), 16, 1, (1, 7)), 2, 16);
}

#[test]
fn each_position_is_computed_alone() {
    // A batch gives each position what it gives alone: nothing leaks between them.
    let c = case(7, (2, 6, 7), 32, 2, (1, 7));
    let obs = observations(17, 6, 2, 42);
    let (all_l, all_v) = c.net.forward(&obs).unwrap();
    for b in 0..6 {
        let (l, v) = c.net.forward(&obs[b * 84..(b + 1) * 84]).unwrap();
        assert_eq!(l, all_l[b * 7..(b + 1) * 7]);
        assert_eq!(v, all_v[b..b + 1]);
    }
    assert_eq!(c.net.forward(&[]).unwrap(), (vec![], vec![]));
}

#[test]
fn mismatched_layers_and_inputs_are_errors() {
    let mut rng = Rng::new(9, 0);
    assert!(Conv::new(2, 1, 1, &[0.0; 4], &[0.0]).is_err());
    assert!(Conv::new(3, 2, 4, &[0.0; 10], &[0.0; 4]).is_err());
    assert!(Linear::new(3, 2, &[0.0; 5], &[0.0; 2]).is_err());
    let c = case(8, (2, 6, 7), 16, 1, (1, 7));
    let e = c.net.forward(&[0.0; 85]).unwrap_err();
    assert!(e.0.contains("85 observation values"), "{e}");
    let mut layers = c.net.layers.clone();
    layers.stem = conv(&mut rng, 3, 3, 16).0;
    let e = ConvNet::new(2, 6, 7, layers).unwrap_err();
    assert!(e.0.contains("the stem takes 3 planes"), "{e}");
    let mut layers = c.net.layers.clone();
    layers.policy_fc = linear(&mut rng, 80, 7).0;
    let e = ConvNet::new(2, 6, 7, layers).unwrap_err();
    assert!(e.0.contains("policy head's linear layer takes 80"), "{e}");
}

#[test]
fn the_cache_returns_the_forward_pass_and_keeps_its_bound() {
    let c = case(5, (2, 6, 7), 16, 1, (1, 7));
    let per = 2 * 42;
    let obs = observations(21, 6, 2, 42);
    // Positions 0, 1, 0, 2, 1, 3 in one call: repeats within a call and across calls.
    let order = [0, 1, 0, 2, 1, 3];
    let asked: Vec<f32> = order
        .iter()
        .flat_map(|&i| obs[i * per..(i + 1) * per].iter().copied())
        .collect();
    let want = c.net.forward(&asked).unwrap();
    for capacity in [0, 1, 2, 3, 100] {
        let mut cache = OutputCache::new(capacity);
        for round in 0..2 {
            let got = cache.forward(&c.net, &asked).unwrap();
            assert_eq!(got, want, "capacity {capacity}, round {round}");
            assert_eq!(cache.len(), capacity.min(4), "capacity {capacity}");
        }
        cache.set_capacity(1);
        assert!(cache.len() <= 1);
        cache.clear();
        assert!(cache.is_empty());
    }
    // Across calls: the second call of a known position evaluates nothing new.
    let mut cache = OutputCache::new(10);
    cache.forward(&c.net, &obs[..per]).unwrap();
    let again = cache.forward(&c.net, &obs[..per]).unwrap();
    assert_eq!(again, c.net.forward(&obs[..per]).unwrap());
    assert_eq!(cache.len(), 1);
    // Wrong sizes are the network's errors, cached or not.
    assert!(cache.forward(&c.net, &obs[..per - 1]).is_err());
}
