//! The compressed container a book ships in: one zstd frame holding the book file.
//!
//! The levels compress to under half (the whole 7x6 book, ply 14 deepest: 18.84 ->
//! 8.32 MB, against 4.36 MB deflated for the ply-13 book alone) and load inside the
//! budget (54-59 ms for the whole book, decoding and checking). The frame declares
//! its decoded size, which is checked against [`MAX_BOOK_BYTES`] before anything is
//! allocated.

use super::BookError;

/// The first bytes of a zstd frame.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// The largest decoded book taken (the 7x6 book to ply 14 is 18.8 MB).
pub const MAX_BOOK_BYTES: u64 = 1 << 30;

/// zstd's level: its strongest without the long-window modes, so any decoder's
/// default window limit takes the frame.
const LEVEL: i32 = 19;

/// Whether `data` starts like a compressed book.
pub(super) fn is_compressed(data: &[u8]) -> bool {
    data.starts_with(&ZSTD_MAGIC)
}

/// The book file `book` in its compressed container.
pub fn compress(book: &[u8]) -> Result<Vec<u8>, BookError> {
    zstd::bulk::compress(book, LEVEL).map_err(|e| BookError::Invalid(format!("zstd: {e}")))
}

/// The book file inside a compressed container (see [`is_compressed`]).
pub(super) fn decompress(data: &[u8]) -> Result<Vec<u8>, BookError> {
    let corrupt = |m: String| BookError::Corrupt(format!("compressed book: {m}"));
    let declared = match zstd::zstd_safe::get_frame_content_size(data) {
        Ok(Some(n)) => n,
        Ok(None) => return Err(corrupt("the frame does not declare its size".into())),
        Err(_) => return Err(corrupt("not a valid zstd frame header".into())),
    };
    if declared > MAX_BOOK_BYTES {
        return Err(corrupt(format!(
            "it declares {declared} bytes, more than the {MAX_BOOK_BYTES} taken"
        )));
    }
    let declared = declared as usize;
    let mut out = Vec::new();
    out.try_reserve_exact(declared)
        .map_err(|_| BookError::Io(format!("cannot allocate {declared} bytes")))?;
    let written = zstd::bulk::Decompressor::new()
        .and_then(|mut d| d.decompress_to_buffer(data, &mut out))
        .map_err(|e| corrupt(e.to_string()))?;
    if written != declared {
        return Err(corrupt(format!(
            "{written} bytes decoded, {declared} declared"
        )));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        (0..100_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 29) as u8)
            .collect()
    }

    #[test]
    fn round_trip() {
        let raw = sample();
        let packed = compress(&raw).unwrap();
        assert!(is_compressed(&packed));
        assert!(packed.len() < raw.len());
        assert_eq!(decompress(&packed).unwrap(), raw);
    }

    #[test]
    fn a_book_file_is_not_compressed() {
        assert!(!is_compressed(b"INAROWBK"));
        assert!(!is_compressed(&[0x28, 0xb5]));
    }

    #[test]
    fn truncated_or_damaged_frames_are_corrupt() {
        let packed = compress(&sample()).unwrap();
        for cut in [4, 8, packed.len() / 2, packed.len() - 1] {
            let e = decompress(&packed[..cut]).unwrap_err();
            assert!(matches!(e, BookError::Corrupt(_)), "cut at {cut}: {e:?}");
        }
        let mut damaged = packed.clone();
        let mid = damaged.len() / 2;
        damaged[mid] ^= 0x55;
        // Damage either fails to decode or decodes to other bytes, never a panic.
        if let Ok(out) = decompress(&damaged) {
            assert_ne!(out, sample());
        }
    }

    #[test]
    fn a_frame_declaring_too_much_is_refused_before_allocating() {
        // A frame header declaring 2^40 decoded bytes (single segment, 8-byte
        // size field), then nothing.
        let mut frame = ZSTD_MAGIC.to_vec();
        frame.push(0b1110_0000);
        frame.extend_from_slice(&(1u64 << 40).to_le_bytes());
        let e = decompress(&frame).unwrap_err();
        assert!(
            matches!(&e, BookError::Corrupt(m) if m.contains("more than")),
            "{e:?}"
        );
    }

    #[test]
    fn a_frame_without_a_size_is_refused() {
        let mut frame = ZSTD_MAGIC.to_vec();
        // Frame header: no content size, a window descriptor, then an empty last
        // raw block.
        frame.extend_from_slice(&[0b0000_0000, 0x50, 0x01, 0x00, 0x00]);
        let e = decompress(&frame).unwrap_err();
        assert!(
            matches!(&e, BookError::Corrupt(m) if m.contains("declare")),
            "{e:?}"
        );
    }
}
