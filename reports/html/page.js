// Browser script inlined into report.html (and the live dashboard): draws the load charts with the inlined uPlot from the
// embedded chart data, or from data handed to GatewayHarnessCharts.render (the live page, on each update). Plain ES2019,
// no imports, no network: each chart marks itself data-rendered="<points drawn>" so tests can tell.
(function () {
  'use strict';

  var PALETTE = ['#1f6feb', '#d9480f', '#2b8a3e', '#ae3ec9', '#f59f00', '#0c8599', '#c2255c', '#5c940d', '#364fc7', '#a61e4d'];
  var OUTCOME_COLORS = { Successful: '#2b8a3e', Failed: '#e03131', InProgress: '#f08c00', Unknown: '#495057' };

  function readData() {
    var node = document.getElementById('report-data');
    if (!node) return null;
    try {
      return JSON.parse(node.textContent || 'null');
    } catch {
      return null;
    }
  }

  function perSecond(values, intervalMs) {
    var factor = 1000 / intervalMs;
    return values.map(function (v) {
      return v === null ? null : Math.round(v * factor * 100) / 100;
    });
  }

  function countPoints(columns) {
    var n = 0;
    for (var i = 1; i < columns.length; i++) {
      for (var j = 0; j < columns[i].length; j++) if (columns[i][j] !== null && columns[i][j] !== undefined) n++;
    }
    return n;
  }

  function note(container, text) {
    var p = document.createElement('p');
    p.className = 'chart-note';
    p.textContent = text;
    container.appendChild(p);
    container.setAttribute('data-rendered', '0');
  }

  function draw(container, spec, xs, sparse) {
    var columns = [xs].concat(
      spec.series.map(function (s) {
        return s.values;
      }),
    );
    var points = countPoints(columns);
    if (points === 0) {
      note(container, 'No samples for this chart.');
      return;
    }
    var width = Math.max(320, container.clientWidth - 8);
    var series = [{ label: 'elapsed' }].concat(
      spec.series.map(function (s, i) {
        return {
          label: s.label,
          stroke: s.color || PALETTE[i % PALETTE.length],
          width: 2,
          scale: s.scale || 'y',
          spanGaps: true,
          points: { show: sparse, size: 5 },
          value: function (u, v) {
            return v === null || v === undefined ? '–' : String(v) + (spec.unit ? ' ' + spec.unit : '');
          },
        };
      }),
    );
    var axes = [
      {
        label: 'seconds since start',
        values: function (u, splits) {
          return splits.map(function (v) {
            return v + ' s';
          });
        },
      },
      { label: spec.yLabel, size: 60 },
    ];
    var scales = { x: { time: false }, y: { range: function (u, min, max) { return [0, max > 0 ? max * 1.1 : 1]; } } };
    if (spec.y2Label) {
      axes.push({ label: spec.y2Label, scale: 'y2', side: 1, grid: { show: false }, size: 50 });
      scales.y2 = { range: function (u, min, max) { return [0, max > 0 ? max * 1.2 : 1]; } };
    }
    // uPlot is the inlined charting library (the global of its IIFE build); kept on the element so a redraw frees it.
    container.gatewayHarnessPlot = new uPlot({ width: width, height: 260, series: series, axes: axes, scales: scales, legend: { live: true } }, columns, container);
    container.setAttribute('data-rendered', String(points));
  }

  function chartSpecs(load) {
    var s = load.series;
    var specs = {};
    var overall = s.latency.overall;
    specs['latency-overall'] = {
      yLabel: 'latency (ms)',
      unit: 'ms',
      series: [
        { label: 'p50', values: overall.p50 },
        { label: 'p90', values: overall.p90 },
        { label: 'p95', values: overall.p95 },
        { label: 'p99', values: overall.p99 },
      ],
    };
    specs['latency-operations'] = {
      yLabel: 'p95 latency (ms)',
      unit: 'ms',
      series: s.latency.operations.slice(0, 10).map(function (op) {
        return { label: op.operation, values: op.p95 };
      }),
    };
    specs.throughput = {
      yLabel: 'requests / s',
      y2Label: 'VUs',
      unit: '',
      series: [
        { label: 'requests/s', values: perSecond(s.requests, s.intervalMs) },
        { label: 'HTTP failures/s', values: perSecond(s.failedRequests, s.intervalMs), color: '#e03131' },
        { label: 'VUs', values: s.vus, scale: 'y2', color: '#868e96' },
      ],
    };
    specs.outcomes = {
      yLabel: 'outcomes / s',
      unit: '',
      series: s.outcomes.map(function (o, i) {
        return { label: o.outcome + (s.outcomes.length > 4 ? ' (' + o.metric + ')' : ''), values: perSecond(o.counts, s.intervalMs), color: OUTCOME_COLORS[o.outcome] || PALETTE[i % PALETTE.length] };
      }),
    };
    return specs;
  }

  function clear(container) {
    if (container.gatewayHarnessPlot) container.gatewayHarnessPlot.destroy();
    container.gatewayHarnessPlot = undefined;
    container.textContent = '';
    container.removeAttribute('data-rendered');
  }

  /** Draws every chart from `data` ({ load: { series } }), replacing what was drawn before. */
  function render(data) {
    var containers = document.querySelectorAll('[data-chart]');
    for (var c = 0; c < containers.length; c++) clear(containers[c]);
    if (!data || !data.load || !data.load.series) {
      for (var k = 0; k < containers.length; k++) note(containers[k], 'No time series in this report.');
      return;
    }
    var s = data.load.series;
    var xs = [];
    for (var i = 0; i < s.buckets; i++) xs.push(Math.round(((i + 0.5) * s.intervalMs) / 100) / 10);
    var specs = chartSpecs(data.load);
    var sparse = s.buckets < 40;
    for (var j = 0; j < containers.length; j++) {
      var container = containers[j];
      var spec = specs[container.getAttribute('data-chart')];
      if (!spec || spec.series.length === 0) {
        note(container, 'No data for this chart in the metric stream.');
        continue;
      }
      if (typeof uPlot !== 'function') {
        note(container, 'The charting library did not load.');
        continue;
      }
      draw(container, spec, xs, sparse);
    }
  }

  window.GatewayHarnessCharts = { render: render };

  function main() {
    // The live dashboard has no embedded data: its script calls render() as updates arrive.
    if (document.getElementById('report-data')) render(readData());
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', main);
  else main();
})();
