// The live dashboard's page (`load --dashboard`): the charts of report.html, drawn by the same page.js from updates the
// run sends over Server-Sent Events; self-contained like the report (nothing from the network, only its own origin).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHARTS, chartScripts, escapeHtml as h, pageHead, scriptSafe, type HtmlAssets } from './report-html.ts';

export interface LivePageMeta {
  /** e.g. "load topup-flow/smoke (node)". */
  readonly title: string;
  readonly runId: string;
}

const LIVE_JS = fileURLToPath(new URL('./live.js', import.meta.url));

export function renderLivePage(meta: LivePageMeta, assets: HtmlAssets): string {
  const live = readFileSync(LIVE_JS, 'utf8');
  return `${pageHead(`LIVE · ${meta.title} · ${meta.runId}`, assets, { connectSelf: true })}
<body>
<header class="banner v-incomplete" role="banner"><div class="inner"><div class="word">LIVE</div><div><div class="meaning">${h(meta.title)} is running; the charts update as samples arrive.</div><div class="meta" id="live-status">Waiting for the first samples…</div></div></div></header>
<main>
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
