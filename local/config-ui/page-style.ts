/** The config UI's stylesheet, served as /assets/page.css (no external fonts or files). */
export const PAGE_CSS = `
:root { color-scheme: light; --fg: #1d2330; --muted: #667085; --line: #e4e7ec; --accent: #2f6fde; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: #f6f7f9; }
header { display: flex; align-items: baseline; gap: 2rem; padding: .8rem 1.5rem; background: #1d2330; color: #fff; }
header h1 { margin: 0; font-size: 1.3rem; }
header .version { font-weight: 400; opacity: .75; }
header nav a { color: #cdd7f0; margin-right: 1rem; text-decoration: none; }
main { max-width: 1200px; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; margin: 1rem 0; }
h2 { margin: 0 0 .75rem; font-size: 1.1rem; }
h3 { margin: 1rem 0 .4rem; font-size: .95rem; }
.muted { color: var(--muted); font-weight: 400; font-size: .85rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(160px, 1fr)); gap: .75rem; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .75rem; }
.card .label { color: var(--muted); font-size: .8rem; }
.card .value { font-size: 1.3rem; font-variant-numeric: tabular-nums; }
.chart { margin: .75rem 0; }
.chart svg { width: 100%; height: 120px; background: #fbfcfe; border: 1px solid var(--line); border-radius: 6px; }
.chart polyline { fill: none; stroke: var(--accent); stroke-width: 2; vector-effect: non-scaling-stroke; }
.chart text { font-size: 10px; fill: var(--muted); }
.chart figcaption { color: var(--muted); font-size: .8rem; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 500; font-size: .8rem; }
.state-running, .state-listening, .state-available { color: #067647; }
.state-failed, .state-stopped, .state-unavailable { color: #b42318; }
.error { color: #b42318; }
.warning { color: #b42318; background: #fef3f2; border: 1px solid #fecdca; border-radius: 6px; padding: .4rem .75rem; margin: .4rem 0; }
tr.warn td { background: #fef3f2; }
ul.alerts { margin: 0 0 .75rem; padding-left: 1.9rem; }
td.nowrap { white-space: nowrap; }
.queue-summary { margin: .2rem 0 .4rem; overflow-wrap: anywhere; }
.disk { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .75rem; margin-bottom: .4rem; }
.disk meter { flex: 1 1 200px; max-width: 420px; height: 1rem; }
.disk-used { font-variant-numeric: tabular-nums; }
a.button { display: inline-block; padding: .35rem .8rem; border-radius: 6px; background: var(--accent); color: #fff; text-decoration: none; }
ol.yaml { margin: 0; padding: .5rem 0 .5rem 3.5rem; background: #fbfcfe; border: 1px solid var(--line); border-radius: 6px;
  font: 13px/1.5 ui-monospace, monospace; overflow-x: auto; }
ol.yaml li { white-space: pre; padding-left: .5rem; border-left: 1px solid var(--line); }
ol.yaml li::marker { color: #98a2b3; }
ol.yaml code { font: inherit; }
.k { color: #1849a9; }
.s { color: #067647; }
.num { color: #b54708; }
.b { color: #6927da; }
.n { color: #98a2b3; }
.c { color: #98a2b3; font-style: italic; }
.p { color: #667085; }
#tree { font: 13px/1.5 ui-monospace, monospace; }
#tree details > summary { cursor: pointer; }
#tree .children { margin-left: 1.2rem; border-left: 1px dotted var(--line); padding-left: .5rem; }
#tree .leaf { margin-left: 1rem; }
#tree .size { color: #98a2b3; }
/* Narrow screens: status tables of four columns or more stack each row as label/value lines. */
@media (max-width: 640px) {
  header { flex-wrap: wrap; gap: .2rem 1rem; padding: .6rem 1rem; }
  main { padding: .5rem .6rem 2rem; }
  section { padding: .75rem; }
  table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; }
  table.stack tr:first-child { display: none; }
  table.stack tr { padding: .35rem .3rem; border-bottom: 1px solid var(--line); }
  table.stack td { position: relative; border: 0; padding: .05rem 0 .05rem 7.5rem; white-space: normal; overflow-wrap: anywhere; }
  table.stack td:empty { display: none; }
  table.stack td::before { content: attr(data-label); position: absolute; left: 0; width: 7rem; color: var(--muted); font-size: .8rem; }
  table.stack td:first-child { padding-left: 0; font-weight: 600; }
  table.stack td:first-child::before { content: none; }
}
`;
