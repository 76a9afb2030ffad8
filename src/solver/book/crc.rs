//! CRC-64/XZ (ECMA-182 polynomial, reflected): the book's checksum. Catches any
//! burst of up to 64 flipped bits and truncation, unlike a plain sum.

const POLY: u64 = 0xC96C_5795_D787_0F42;

const TABLE: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut i = 0;
    while i < 256 {
        let mut crc = i as u64;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ POLY
            } else {
                crc >> 1
            };
            bit += 1;
        }
        table[i] = crc;
        i += 1;
    }
    table
};

/// A running CRC-64/XZ.
#[derive(Clone, Copy, Debug)]
pub struct Crc64(u64);

impl Crc64 {
    pub fn new() -> Crc64 {
        Crc64(!0)
    }

    pub fn update(&mut self, bytes: &[u8]) {
        let mut crc = self.0;
        for &b in bytes {
            crc = TABLE[((crc ^ b as u64) & 0xff) as usize] ^ (crc >> 8);
        }
        self.0 = crc;
    }

    pub fn finish(self) -> u64 {
        !self.0
    }
}

/// The CRC-64/XZ of `bytes`.
pub fn crc64(bytes: &[u8]) -> u64 {
    let mut crc = Crc64::new();
    crc.update(bytes);
    crc.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_check_value() {
        // The catalogue's check value of CRC-64/XZ.
        assert_eq!(crc64(b"123456789"), 0x995D_C9BB_DF19_39FA);
        assert_eq!(crc64(b""), 0);
    }

    #[test]
    fn incremental_equals_one_shot() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 31 % 251) as u8).collect();
        let mut crc = Crc64::new();
        for part in data.chunks(77) {
            crc.update(part);
        }
        assert_eq!(crc.finish(), crc64(&data));
    }
}
