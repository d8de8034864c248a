//! `run.json`: the run's metadata.

use super::{Exporter, RunReport};
use crate::harness::files;
use std::io;

/// Pretty-printed [`crate::harness::RunInfo`].
pub struct RunJson;

impl Exporter for RunJson {
    fn file_name(&self) -> &'static str {
        files::RUN_JSON
    }

    fn render(&self, run: &RunReport) -> io::Result<Vec<u8>> {
        let mut v = serde_json::to_vec_pretty(&run.info).map_err(io::Error::other)?;
        v.push(b'\n');
        Ok(v)
    }
}
