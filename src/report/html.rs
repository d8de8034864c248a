//! `report.html`: one self-contained page (SVGs inline, styles and a small
//! script inline, no outside references). It opens with the sentences and an
//! overview (a heat-coloured matrix of relative speed beside the throughput
//! chart), then one section per dataset; the long tables are collapsed in
//! `<details>`, so they are there with scripts off.

use super::{interval_line, metadata_lines, slug, Report, RunData};
use crate::export::cells::{
    relative_cells, summary_cells, times, RELATIVE_HEADER, RELATIVE_NOTE, SUMMARY_HEADER,
};
use crate::export::first_seen;
use crate::harness::SummaryRow;
use std::fmt::Write;

pub(crate) fn esc(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

pub(crate) const STYLE: &str = "\
:root{--ink:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;--accent:#0969da}\n\
*{box-sizing:border-box}\n\
body{font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:var(--ink);\
max-width:1520px;margin:0 auto;padding:1.2em 1.5em 3em}\n\
h1{font-size:1.5em;margin:.2em 0 .1em}h2{font-size:1.2em;margin:1.6em 0 .5em;\
padding-bottom:.2em;border-bottom:1px solid var(--line)}h3{font-size:1em;margin:1em 0 .3em}\n\
.meta{color:var(--muted);font-size:13px;margin:0 0 .6em}.meta summary{cursor:pointer}\n\
ul.findings{margin:.4em 0;padding-left:1.2em}ul.findings li{margin:.15em 0}\n\
.note{color:var(--muted);font-size:13px}\n\
.failures{border-left:4px solid #b00020;background:#fdf0f2;padding:.2em 1em;margin:1em 0}\n\
.heat td.failed{background:#f3d6db;color:#7a0014;font-size:.85em}\n\
.overview{display:grid;grid-template-columns:minmax(0,1fr);gap:1em;align-items:start}\n\
.panel{border:1px solid var(--line);border-radius:8px;padding:.8em 1em;background:#fff}\n\
.panel h3{margin-top:0}\n\
table{border-collapse:collapse;font-size:13px;margin:.5em 0}\n\
td,th{border:1px solid var(--line);padding:3px 7px}th{background:var(--soft);font-weight:600}\n\
td.n{text-align:right;font-variant-numeric:tabular-nums}\n\
table.sortable th{cursor:pointer}th[aria-sort=ascending]::after{content:' \\25B2'}\
th[aria-sort=descending]::after{content:' \\25BC'}\n\
table.heat{font-size:12px}table.heat td{text-align:center;min-width:3.2em;padding:3px 4px;\
font-variant-numeric:tabular-nums;white-space:nowrap}\n\
table.heat td.wrap{white-space:normal}table.heat td.wrap span{white-space:nowrap}\n\
table.heat th{white-space:nowrap;padding:3px 5px}table.heat thead th{white-space:normal;max-width:5.5em}table.heat th.row{text-align:left;background:#fff}\n\
table.heat td.ref{background:#dde7f3;font-style:italic}\n\
table.heat td.skip{color:#666;font-size:.85em}\n\
.legend{font-size:12px;color:var(--muted)}\n\
.legend span{display:inline-block;padding:0 .5em;margin-right:.2em;border-radius:3px}\n\
figure{margin:1em 0}figcaption{color:var(--muted);font-size:13px;margin-top:.3em}\n\
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,720px),1fr));gap:1em 1.5em}\n\
svg{max-width:100%;height:auto}\n\
details.tables{margin:.6em 0}details.tables>summary{cursor:pointer;color:var(--accent)}\n\
.scroll{overflow-x:auto}\n";

/// Background of a matrix cell: green where faster than the reference, through
/// yellow to red where 100× slower (log scale).
fn heat(speed: f64) -> String {
    let x = speed.log10().clamp(-2.0, 1.0);
    if x >= 0.0 {
        format!("hsl(130,55%,{:.0}%)", 80.0 - 22.0 * x)
    } else {
        format!("hsl({:.0},80%,80%)", 120.0 + 60.0 * x)
    }
}

/// A matrix cell's words, escaped: a cell of several words (`1/1,177×
/// 274/300`) may wrap between them, never inside one (`true`: its cell is
/// of class `wrap`, each word in a span), so that the matrix fits a narrow window.
fn wraps(text: &str) -> (bool, String) {
    match text.contains(' ') {
        false => (false, esc(text)),
        true => (
            true,
            text.split(' ')
                .map(|w| format!("<span>{}</span>", esc(w)))
                .collect::<Vec<_>>()
                .join(" "),
        ),
    }
}

/// The overview's matrix: one row per strategy, one column per dataset, the
/// speed against that dataset's reference in each cell.
fn heat_matrix(s: &mut String, rows: &[SummaryRow], skipped: &[crate::harness::Skipped]) {
    let variants = first_seen(rows.iter().map(|r| r.variant.as_str()));
    let datasets = first_seen(rows.iter().map(|r| r.dataset.as_str()));
    s.push_str("<div class=\"scroll\"><table class=\"heat\" id=\"speed-matrix\">\n<thead><tr><th>speed</th>");
    for d in &datasets {
        let _ = write!(s, "<th>{}</th>", esc(d));
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for v in &variants {
        let label = rows
            .iter()
            .find(|r| r.variant == *v)
            .map_or(v.to_string(), |r| r.label());
        let _ = write!(s, "<tr><th class=\"row\">{}</th>", esc(&label));
        for d in &datasets {
            match rows.iter().find(|r| r.variant == *v && r.dataset == *d) {
                Some(r) if !r.stands() && r.puzzles > 0 => {
                    let (wrap, body) = wraps(&r.failure_cell());
                    let _ = write!(
                        s,
                        "<td class=\"failed{}\" title=\"{} on {}: {} of {} puzzles; no speed under half verified\">{}</td>",
                        if wrap { " wrap" } else { "" },
                        esc(&label),
                        esc(d),
                        esc(&r.failed_kinds()),
                        r.puzzles,
                        body
                    );
                }
                Some(r) if r.variant == r.reference => {
                    let _ = write!(
                        s,
                        "<td class=\"ref\" title=\"the reference on {}\">ref</td>",
                        esc(d)
                    );
                }
                Some(r) => match r.speed {
                    Some(x) => {
                        let span = match (r.speed_lo, r.speed_hi) {
                            (Some(lo), Some(hi)) => {
                                format!(" (95% CI {}–{})", times(lo), times(hi))
                            }
                            _ => String::new(),
                        };
                        let over = r.over();
                        let (wrap, body) = wraps(&crate::export::cells::speed_cell(r));
                        let _ = write!(
                            s,
                            "<td{} style=\"background:{}\" title=\"{} against {} on {}{}{}\">{}</td>",
                            if wrap { " class=\"wrap\"" } else { "" },
                            heat(x),
                            esc(&label),
                            esc(&r.reference),
                            esc(d),
                            esc(&span),
                            esc(&if over.is_empty() { String::new() } else { format!(", {over} puzzles") }),
                            body
                        );
                    }
                    None => s.push_str("<td>-</td>"),
                },
                // No row: the run skipped the pair (a size the strategy
                // does not handle), said in the cell.
                None => match skipped.iter().find(|k| k.variant == *v && k.dataset == *d) {
                    Some(k) => {
                        let _ = write!(
                            s,
                            "<td class=\"skip\" title=\"{} skipped on {}: it handles {} only\">{} only</td>",
                            esc(&label),
                            esc(d),
                            esc(&k.handles),
                            esc(&k.handles)
                        );
                    }
                    None => s.push_str("<td title=\"not run\">-</td>"),
                },
            }
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody>\n</table></div>\n<p class=\"legend\">");
    for (x, label) in [
        (10.0, "10× faster"),
        (1.0, "level"),
        (0.1, "10× slower"),
        (0.01, "100× slower"),
    ] {
        let _ = write!(s, "<span style=\"background:{}\">{label}</span>", heat(x));
    }
    s.push_str(" against each dataset's reference (<i>ref</i>).</p>\n");
}

/// What failed, first: the same lines as `report.md`'s Failures section,
/// then (folded) the contenders without figures that failed nothing.
fn failures(s: &mut String, data: &RunData) {
    let given_up = data.info.as_ref().map_or(&[][..], |i| &i.given_up[..]);
    let lines = crate::export::failures::lines(&data.summary);
    let share = 100.0 * crate::harness::record::STANDING_SHARE;
    if !lines.is_empty() || !given_up.is_empty() {
        let _ = writeln!(
            s,
            "<section class=\"failures\" id=\"failures\"><h2>Failures</h2>\n<p><b>{}.</b> A contender's figures count only its verified puzzles; under {share:.0}% verified it has none.</p>\n<ul>",
            crate::export::failures::headline(&data.summary)
        );
        for why in given_up {
            let _ = writeln!(s, "<li><b>{}.</b></li>", esc(why));
        }
        for l in lines {
            let _ = writeln!(s, "<li>{}</li>", esc(&l.replace('`', "")));
        }
        s.push_str("</ul></section>\n");
    }
    let bare = crate::export::failures::without_figures(&data.summary);
    if !bare.is_empty() {
        let _ = writeln!(
            s,
            "<details class=\"meta\" id=\"without-figures\"><summary>{} without figures: verified on under {share:.0}% of their puzzles (the rest stopped by a budget)</summary>\n<ul>",
            bare.len()
        );
        for l in &bare {
            let _ = writeln!(s, "<li>{}</li>", esc(&l.replace('`', "")));
        }
        s.push_str("</ul></details>\n");
    }
}

/// A chart as a `<figure>`, its SVG inline.
pub(crate) fn figure(s: &mut String, c: &super::charts::Rendered) {
    let svg = c.svg.trim_start_matches(|ch| ch != '<');
    let svg = svg
        .strip_prefix("<?xml")
        .map_or(svg, |rest| rest.split_once("?>").map_or(rest, |x| x.1));
    let _ = write!(
        s,
        "<figure id=\"{}\">\n<h3>{}</h3>\n{}\n<figcaption>{}</figcaption>\n</figure>\n",
        esc(&c.name),
        esc(&c.title),
        svg.trim(),
        esc(&c.caption)
    );
}

/// The dataset a chart belongs to: the longest dataset slug its name ends with.
fn chart_dataset<'a>(name: &str, datasets: &[&'a str]) -> Option<&'a str> {
    datasets
        .iter()
        .filter(|d| name.ends_with(&format!("-{}", slug(d))))
        .max_by_key(|d| slug(d).len())
        .copied()
}

/// `report.html`: the same content as `report.md`, self-contained.
pub fn html(data: &RunData, report: &Report) -> String {
    let mut s = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n\
         <title>sudoku-bench report</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <h1>sudoku-bench report</h1>\n"
    );
    let compared = said(&mut s, data);

    // The overview: the matrix beside the throughput chart.
    let datasets = first_seen(data.summary.iter().map(|r| r.dataset.as_str()));
    let throughput = report.charts.iter().find(|c| c.name == "throughput");
    s.push_str("<h2 id=\"overview\">Overview</h2>\n<div class=\"overview\">\n");
    if compared {
        s.push_str("<div class=\"panel\"><h3>Speed against each dataset's reference</h3>\n");
        let skipped = data.info.as_ref().map_or(&[][..], |i| &i.skipped[..]);
        heat_matrix(&mut s, &data.summary, skipped);
        s.push_str("</div>\n");
    }
    if let Some(c) = throughput {
        s.push_str("<div class=\"panel\">");
        figure(&mut s, c);
        s.push_str("</div>\n");
    }
    s.push_str("</div>\n");

    // One section per dataset: its charts, then its rows, collapsed.
    // A counted run's times are valgrind's: no speeds, no time cells.
    let counted = data
        .info
        .as_ref()
        .is_some_and(|i| i.options.measure.metric() == crate::harness::plan::Measure::Instructions);
    let relative: Vec<Vec<String>> = data
        .summary
        .iter()
        .filter(|_| !counted)
        .filter_map(relative_cells)
        .map(|c| c.to_vec())
        .collect();
    let summary: Vec<Vec<String>> = data
        .summary
        .iter()
        .map(|r| {
            let mut cells = summary_cells(r);
            if counted {
                for i in crate::export::cells::TIME_CELLS {
                    cells[i].clear();
                }
            }
            cells.to_vec()
        })
        .collect();
    for d in &datasets {
        let _ = writeln!(s, "<h2 id=\"dataset-{}\">{}</h2>", slug(d), esc(d));
        s.push_str("<div class=\"charts\">\n");
        for c in report
            .charts
            .iter()
            .filter(|c| chart_dataset(&c.name, &datasets) == Some(*d))
        {
            figure(&mut s, c);
        }
        s.push_str("</div>\n");
        let rows: Vec<Vec<String>> = summary.iter().filter(|r| r[0] == *d).cloned().collect();
        let _ = write!(
            s,
            "<details class=\"tables\"><summary>{d}: the summary's {} rows</summary>\n<div class=\"scroll\">\n",
            rows.len(),
            d = esc(d)
        );
        html_table(
            &mut s,
            &format!("summary-{}", slug(d)),
            &SUMMARY_HEADER,
            &rows,
            2,
        );
        s.push_str("</div>\n</details>\n");
    }
    let rest: Vec<_> = report
        .charts
        .iter()
        .filter(|c| c.name != "throughput" && chart_dataset(&c.name, &datasets).is_none())
        .collect();
    if !rest.is_empty() {
        s.push_str("<h2 id=\"across\">Across datasets</h2>\n<div class=\"charts\">\n");
        for c in rest {
            figure(&mut s, c);
        }
        s.push_str("</div>\n");
    }

    all_tables(&mut s, &datasets, &relative, &summary);
    if !report.skipped.is_empty() {
        s.push_str("<h2>Charts not drawn</h2>\n<ul>\n");
        for n in &report.skipped {
            let _ = writeln!(s, "<li>{}</li>", esc(n));
        }
        s.push_str("</ul>\n");
    }
    let _ = write!(s, "<script>\n{SORT_SCRIPT}</script>\n</body>\n</html>\n");
    s
}

/// The run's metadata (collapsed), its failures, what the run says in
/// sentences and what its intervals cover; true when some row was compared
/// with a reference.
fn said(s: &mut String, data: &RunData) -> bool {
    let meta = metadata_lines(data);
    let _ = write!(
        s,
        "<details class=\"meta\"><summary>{}</summary>\n<ul>\n",
        esc(meta.first().map_or("", String::as_str))
    );
    for l in meta.iter().skip(1) {
        let _ = writeln!(s, "<li>{}</li>", esc(l));
    }
    s.push_str("</ul></details>\n");

    failures(s, data);
    let measure = data.info.as_ref().map(|i| i.options.measure);
    let mut findings = crate::export::words::findings(&data.summary, measure);
    findings.extend(crate::export::words::run_notes(
        &data.summary,
        data.info.as_ref().and_then(|i| i.pipe_floor_ns),
    ));
    if !findings.is_empty() {
        s.push_str("<ul class=\"said\">\n");
        for l in findings {
            let _ = writeln!(s, "<li>{}</li>", esc(&l.replace('`', "")));
        }
        s.push_str("</ul>\n");
    }
    let compared = data.summary.iter().any(|r| r.speed.is_some());
    if compared {
        let _ = writeln!(s, "<p class=\"note\">{}</p>", esc(&interval_line(data)));
    }
    compared
}

/// The full tables, collapsed; sortable and filterable where scripts run.
fn all_tables(
    s: &mut String,
    datasets: &[&str],
    relative: &[Vec<String>],
    summary: &[Vec<String>],
) {
    s.push_str("<h2 id=\"tables\">All datasets</h2>\n");
    if datasets.len() > 1 {
        // Shown by the script only: with scripts off every row is there anyway.
        s.push_str("<p id=\"dataset-filter\" hidden><label>Show dataset <select>\n<option value=\"\">all</option>\n");
        for d in datasets {
            let _ = writeln!(s, "<option>{}</option>", esc(d));
        }
        s.push_str("</select></label> (click a column head to sort)</p>\n");
    }
    if !relative.is_empty() {
        let _ = write!(
            s,
            "<details class=\"tables\"><summary>Relative speed: {} rows</summary>\n<div class=\"scroll\">\n",
            relative.len()
        );
        html_table(s, "relative", &RELATIVE_HEADER, relative, 3);
        let _ = writeln!(
            s,
            "</div>\n<p class=\"note\">{}</p>\n</details>",
            esc(RELATIVE_NOTE)
        );
    }
    let _ = write!(
        s,
        "<details class=\"tables\"><summary>Summary: {} rows</summary>\n<div class=\"scroll\">\n",
        summary.len()
    );
    html_table(s, "summary", &SUMMARY_HEADER, summary, 2);
    s.push_str("</div>\n</details>\n");
}

/// Sorts `table.sortable` by a click (or Enter) on a column head, numbers by their
/// `data-v`, and shows the dataset filter, which hides rows of other datasets.
const SORT_SCRIPT: &str = r#"document.querySelectorAll('table.sortable').forEach(function (t) {
  var heads = t.querySelectorAll('th');
  heads.forEach(function (th, i) {
    th.tabIndex = 0;
    function sort() {
      var up = th.getAttribute('aria-sort') !== 'ascending';
      heads.forEach(function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', up ? 'ascending' : 'descending');
      var key = function (r) { var c = r.cells[i]; return c.hasAttribute('data-v') ? parseFloat(c.getAttribute('data-v')) : c.textContent; };
      var rows = Array.prototype.slice.call(t.tBodies[0].rows);
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        var d = typeof x === 'number' ? x - y : String(x).localeCompare(String(y));
        return up ? d : -d;
      });
      rows.forEach(function (r) { t.tBodies[0].appendChild(r); });
    }
    th.addEventListener('click', sort);
    th.addEventListener('keydown', function (e) { if (e.key === 'Enter') sort(); });
  });
});
var filter = document.getElementById('dataset-filter');
if (filter) {
  filter.hidden = false;
  filter.querySelector('select').addEventListener('change', function () {
    var d = this.value;
    document.querySelectorAll('tr[data-dataset]').forEach(function (r) {
      r.hidden = d !== '' && r.getAttribute('data-dataset') !== d;
    });
  });
}
"#;

/// The number a cell sorts by: its first number, thousands separators dropped
/// (`1,234` → 1234, `2.40×–2.60×` → 2.4); a cell without one (`-`) sorts first.
pub(super) fn sort_value(cell: &str) -> String {
    let digits: String = cell
        .chars()
        .skip_while(|c| !(c.is_ascii_digit() || *c == '-' || *c == '.'))
        .filter(|c| *c != ',')
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '-' || *c == 'e')
        .collect();
    match digits.parse::<f64>() {
        Ok(v) if v.is_finite() => v.to_string(),
        _ => "-Infinity".into(),
    }
}

/// A sortable table whose first column is the dataset; columns from `numeric_from` on are numbers.
fn html_table(
    s: &mut String,
    id: &str,
    header: &[&str],
    rows: &[Vec<String>],
    numeric_from: usize,
) {
    let _ = write!(s, "<table id=\"{id}\" class=\"sortable\">\n<thead><tr>");
    for h in header {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for cells in rows {
        let _ = write!(s, "<tr data-dataset=\"{}\">", esc(&cells[0]));
        for (i, c) in cells.iter().enumerate() {
            if i >= numeric_from {
                let _ = write!(
                    s,
                    "<td class=\"n\" data-v=\"{}\">{}</td>",
                    sort_value(c),
                    esc(c)
                );
            } else {
                let _ = write!(s, "<td>{}</td>", esc(c));
            }
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody>\n</table>\n");
}
