//! SHA-256 checksums of datasets: of bytes in hand, or of a file while it is
//! read (so that a run names exactly what it measured).

/// Hex SHA-256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A reader that hashes (SHA-256) and counts what passes through it, so a
/// dataset's checksum is computed while it is read.
pub struct Hashing<R> {
    inner: R,
    hasher: sha2::Sha256,
    bytes: u64,
}

impl<R: std::io::Read> Hashing<R> {
    /// Wraps `inner`.
    pub fn new(inner: R) -> Self {
        use sha2::Digest;
        Hashing {
            inner,
            hasher: sha2::Sha256::new(),
            bytes: 0,
        }
    }

    /// Reads what is left, then gives the size and hex SHA-256 of everything read.
    pub fn finish(mut self) -> std::io::Result<(u64, String)> {
        use sha2::Digest;
        std::io::copy(&mut self, &mut std::io::sink())?;
        let hex = self
            .hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        Ok((self.bytes, hex))
    }
}

impl<R: std::io::Read> std::io::Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use sha2::Digest;
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
}
