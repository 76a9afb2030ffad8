//! The network's outputs for positions already evaluated, so that a search meeting a
//! position again (a transposition, or a position an earlier search of the same game
//! evaluated) costs no forward pass.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasher, Hasher};

use super::{ConvNet, NetError};

/// Up to `capacity` positions' outputs, the oldest forgotten first. A position is
/// known by two independently keyed 64-bit hashes of its observation's bits.
pub struct OutputCache {
    capacity: usize,
    keys: (RandomState, RandomState),
    outputs: HashMap<u128, Box<[f32]>>,
    order: VecDeque<u128>,
}

impl OutputCache {
    pub fn new(capacity: usize) -> OutputCache {
        OutputCache {
            capacity,
            keys: (RandomState::new(), RandomState::new()),
            outputs: HashMap::new(),
            order: VecDeque::new(),
        }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// A smaller capacity forgets the oldest outputs at once.
    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity;
        self.evict();
    }

    pub fn len(&self) -> usize {
        self.outputs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.outputs.is_empty()
    }

    pub fn clear(&mut self) {
        self.outputs.clear();
        self.order.clear();
    }

    fn key(&self, observation: &[f32]) -> u128 {
        let hash = |state: &RandomState| {
            let mut h = state.build_hasher();
            for v in observation {
                h.write_u32(v.to_bits());
            }
            h.finish()
        };
        (u128::from(hash(&self.keys.0)) << 64) | u128::from(hash(&self.keys.1))
    }

    fn evict(&mut self) {
        while self.outputs.len() > self.capacity {
            match self.order.pop_front() {
                Some(oldest) => {
                    self.outputs.remove(&oldest);
                }
                None => break,
            }
        }
    }

    /// `net`'s logits and values for `obs` (as [`ConvNet::forward`]), the positions
    /// met before taken from the cache and the others evaluated in one call.
    pub fn forward(
        &mut self,
        net: &ConvNet,
        obs: &[f32],
    ) -> Result<(Vec<f32>, Vec<f32>), NetError> {
        let per = net.planes() * net.height() * net.width();
        if self.capacity == 0 || per == 0 || !obs.len().is_multiple_of(per) {
            return net.forward(obs);
        }
        let (actions, values) = (net.actions(), net.values());
        let keys: Vec<u128> = obs.chunks_exact(per).map(|o| self.key(o)).collect();
        // The positions to evaluate, each once however often it appears.
        let mut fresh: HashMap<u128, usize> = HashMap::new();
        let mut missing = Vec::new();
        for (key, o) in keys.iter().zip(obs.chunks_exact(per)) {
            if !self.outputs.contains_key(key) && !fresh.contains_key(key) {
                fresh.insert(*key, fresh.len());
                missing.extend_from_slice(o);
            }
        }
        let (new_logits, new_values) = net.forward(&missing)?;
        let mut logits = Vec::with_capacity(keys.len() * actions);
        let mut out_values = Vec::with_capacity(keys.len() * values);
        for key in &keys {
            if let Some(&j) = fresh.get(key) {
                logits.extend_from_slice(&new_logits[j * actions..(j + 1) * actions]);
                out_values.extend_from_slice(&new_values[j * values..(j + 1) * values]);
            } else {
                let known = &self.outputs[key];
                logits.extend_from_slice(&known[..actions]);
                out_values.extend_from_slice(&known[actions..]);
            }
        }
        let mut order: Vec<(u128, usize)> = fresh.into_iter().collect();
        order.sort_unstable_by_key(|&(_, j)| j);
        for (key, j) in order {
            let entry: Box<[f32]> = new_logits[j * actions..(j + 1) * actions]
                .iter()
                .chain(&new_values[j * values..(j + 1) * values])
                .copied()
                .collect();
            self.outputs.insert(key, entry);
            self.order.push_back(key);
        }
        self.evict();
        Ok((logits, out_values))
    }
}
