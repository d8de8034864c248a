//! report.html as a browser draws it: headless Chromium at 1400 and 1000
//! px wide, where the page must not scroll sideways and no chart may be
//! shrunk below 11 px of on-screen text. Skipped, saying so, where Chromium
//! is not installed (`.ci/run` installs it).

use crate::common::bin;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use sudoku_bench::report::charts::{figure, SMALLEST_PX};

/// The smallest text a chart may show on screen, in CSS pixels.
const PAGE_TEXT_PX: f64 = 11.0;

/// What the page measures of itself once laid out, appended to a copy.
const PROBE: &str = r#"<script>
const s = [...document.querySelectorAll('figure svg')].map(v => v.getBoundingClientRect().width / v.viewBox.baseVal.width);
const m = document.getElementById('speed-matrix').parentElement;
document.body.setAttribute('data-probe', [document.documentElement.scrollWidth, document.documentElement.clientWidth, Math.min(...s), s.length, m.scrollWidth - m.clientWidth].join(' '));
</script>"#;

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

/// The page laid out `width` px wide: its scroll width, client width, the
/// smallest chart's scale and the number of charts.
fn probe(browser: &str, page: &Path, width: u32, profile: &Path) -> (f64, f64, f64, usize, f64) {
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--window-size={width},1000"))
        .arg(format!("file://{}", page.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = String::new();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let _ = stdout.read_to_string(&mut out);
        out
    });
    // Ended on every path: a browser that hangs is killed, and fails.
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish the page in 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let dom = reader.join().unwrap();
    let probe = dom
        .split("data-probe=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap_or_else(|| panic!("the page ran no probe at {width} px"));
    let v: Vec<f64> = probe.split(' ').map(|x| x.parse().unwrap()).collect();
    (v[0], v[1], v[2], v[3] as usize, v[4])
}

#[test]
fn report_html_holds_at_1400_and_1000_px() {
    let Some(browser) = chromium() else {
        eprintln!("chromium is not installed: the page test is skipped");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    // Every embedded dataset, so the speed matrix is as wide as the
    // default run's, and enough puzzles that the slow strategies' cells
    // read as the default run's do (`1/1,177× 27/30`).
    bin()
        .args(["bench", "--quiet", "--limit", "30", "--min-time", "0"])
        .args(["--out"])
        .arg(&out)
        .assert()
        .success();
    let mut html = std::fs::read_to_string(out.join("report.html")).unwrap();
    html.push_str(PROBE);
    let page = dir.path().join("page.html");
    std::fs::write(&page, html).unwrap();
    let least = PAGE_TEXT_PX / SMALLEST_PX;
    for width in [1400, 1000] {
        let (scroll, client, scale, charts, matrix) =
            probe(browser, &page, width, &dir.path().join("p"));
        assert!(
            matrix <= 0.0,
            "at {width} px the speed matrix scrolls inside its box by {matrix} px"
        );
        assert!(charts >= 20, "{charts} charts at {width} px");
        assert!(
            scroll <= client,
            "at {width} px the page scrolls sideways: {scroll} > {client}"
        );
        assert!(
            scale >= least,
            "at {width} px a chart is drawn at {scale:.2} of its {} px: its smallest text is {:.1} px on screen",
            figure::DOUBLE.px.0,
            scale * SMALLEST_PX
        );
    }
}
