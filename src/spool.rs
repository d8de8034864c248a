//! Output held back until its input has passed its check (`solve`'s
//! answers, `rate`'s rows): in memory up to 32 MB, then in an unnamed
//! temporary file, so memory stays flat whatever the input's size.

use std::io::{self, Write};

/// Bytes held in memory up to this many, then in a temporary file.
const SPOOL_MEMORY: usize = 32 << 20;

/// Output held until the whole input has passed its check: in memory up to
/// `SPOOL_MEMORY` (32 MB), then in an unnamed temporary file, so memory stays flat.
#[derive(Default)]
pub struct Spool {
    memory: Vec<u8>,
    file: Option<std::io::BufWriter<std::fs::File>>,
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some(f) = &mut self.file {
            return f.write(buf);
        }
        self.memory.extend_from_slice(buf);
        if self.memory.len() > SPOOL_MEMORY {
            let mut f = std::io::BufWriter::new(tempfile::tempfile()?);
            f.write_all(&std::mem::take(&mut self.memory))?;
            self.file = Some(f);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Spool {
    /// Writes everything held to `out`, in the order it came.
    pub fn copy_to(self, out: &mut (impl Write + ?Sized)) -> io::Result<()> {
        use std::io::Seek;
        out.write_all(&self.memory)?;
        if let Some(f) = self.file {
            let mut f = f.into_inner().map_err(|e| e.into_error())?;
            f.rewind()?;
            std::io::copy(&mut f, out)?;
        }
        Ok(())
    }
}
