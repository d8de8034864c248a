//! The `sudoku-bench` binary: parses the command line and hands over to the library.

mod cli;

use std::process::ExitCode;

/// The system's allocator, except for the thread that counts instructions
/// (see `callgrind::Heap`).
#[global_allocator]
static ALLOCATOR: sudoku_bench::callgrind::Heap = sudoku_bench::callgrind::Heap;

fn main() -> ExitCode {
    match cli::run() {
        // A run stopped by SIGTERM or SIGHUP says so in its code (143, 129), as
        // one stopped by Ctrl-C does (130).
        Ok(code) if code == ExitCode::from(130) => {
            ExitCode::from(sudoku_bench::hygiene::signals::exit_code())
        }
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {}", error_text(&err));
            ExitCode::from(2)
        }
    }
}

/// An error and its causes, outermost first, joined by `: `; a cause whose
/// text the message already holds (many messages name their cause) is not
/// said again.
fn error_text(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let said = cause.to_string();
        if text.contains(&said) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&said);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("cannot read x: {source}")]
    struct Named {
        source: std::io::Error,
    }

    #[test]
    fn a_cause_the_message_names_is_said_once() {
        let io = || std::io::Error::other("gone");
        let err = anyhow::Error::new(Named { source: io() }).context("loading the run");
        assert_eq!(error_text(&err), "loading the run: cannot read x: gone");
        let plain = anyhow::Error::new(io()).context("opening y");
        assert_eq!(error_text(&plain), "opening y: gone");
    }
}
