// The live dashboard's page (`load --dashboard`): the charts of report.html, drawn by the same page.js from updates the
// run sends over Server-Sent Events; self-contained like the report (nothing from the network, only its own origin).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHARTS, chartScripts, escapeHtml as h, pageHead, scriptSafe, type HtmlAssets } from './report-html.ts';

/** The run's planned length (load/runner/live-plan.ts): what the progress bar measures against. */
export interface LivePlan {
  readonly totalMs: number;
  /** 'at most': iteration executors, which may end sooner. */
  readonly bound: 'planned' | 'at most';
  /** Ends of the stages of a ramping executor, with each stage's target (VUs or iterations per time unit). */
  readonly stages: ReadonlyArray<{ readonly endMs: number; readonly target: number }>;
}

export interface LivePageMeta {
  /** e.g. "load topup-flow/smoke (node)". */
  readonly title: string;
  readonly runId: string;
  readonly plan?: LivePlan;
}

/** The headline tiles, filled by live.js from each update: what a k6 user reads first on k6's web dashboard. */
const TILES: ReadonlyArray<readonly [string, string]> = [
  ['requests', 'Requests'],
  ['rate', 'Rate now'],
  ['failures', 'HTTP failures'],
  ['p95', 'p95 now'],
  ['vus', 'VUs now'],
];

function progressHtml(plan: LivePlan | undefined): string {
  if (plan === undefined) return '';
  const marks = plan.stages
    .slice(0, -1)
    .map((stage) => `<span class="stage-mark" data-at="${((100 * stage.endMs) / plan.totalMs).toFixed(2)}"></span>`)
    .join('');
  return `<div class="live-progress" id="live-progress" data-total-ms="${plan.totalMs}" data-bound="${plan.bound}"><div class="bar" role="progressbar" aria-label="run progress" aria-valuemin="0" aria-valuemax="100" aria-valuenow="0"><span class="fill"></span>${marks}</div><div class="line" id="live-progress-line">0 s of ${plan.bound === 'at most' ? 'at most ' : ''}${Math.round(plan.totalMs / 1000)} s${plan.stages.length > 1 ? ` · ${plan.stages.length} stages` : ''}</div></div>`;
}

const LIVE_JS = fileURLToPath(new URL('./live.js', import.meta.url));

export function renderLivePage(meta: LivePageMeta, assets: HtmlAssets): string {
  const live = readFileSync(LIVE_JS, 'utf8');
  return `${pageHead(`LIVE · ${meta.title} · ${meta.runId}`, assets, { connectSelf: true })}
<body>
<header class="banner v-incomplete" role="banner"><div class="inner"><div class="word">LIVE</div><div><div class="meaning">${h(meta.title)} is running; the charts update as samples arrive.</div><div class="meta" id="live-status">Waiting for the first samples…</div></div></div></header>
<main>
<section class="tiles live-tiles" aria-label="now">${TILES.map(([id, name]) => `<div class="tile" data-tile="${id}"><div class="name">${h(name)}</div><div class="big">–</div><div class="line"></div></div>`).join('')}</section>
${progressHtml(meta.plan)}
<section class="live-thresholds"><h3>Thresholds now</h3><p class="chart-note" id="live-thresholds-none">Each threshold of the run appears here with its first samples; crossed ones turn red and come first.</p><table id="live-thresholds"><tbody></tbody></table></section>
<section class="load"><h3>Over time</h3><div class="charts">${CHARTS.map(([id, title]) => `<div class="chart-box"><h4>${h(title)}</h4><div class="chart" data-chart="${id}"></div></div>`).join('')}</div>
<p class="chart-note">At the end of the run this page becomes the run's report. Run <code>${h(meta.runId)}</code>.</p></section>
</main>
${chartScripts(assets)}
<script>
${scriptSafe(live, 'live.js')}
</script>
</body>
</html>
`;
}
