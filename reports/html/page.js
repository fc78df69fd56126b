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

  /** The last value of a column that is not a gap (null), or undefined for an empty one. */
  function lastValue(column) {
    for (var i = (column ? column.length : 0) - 1; i >= 0; i--) if (column[i] !== null && column[i] !== undefined) return column[i];
    return undefined;
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

  // A step CDF read at x: the fraction at the last point at or below x (0 before the first).
  function cdfAt(points, x) {
    var y = 0;
    for (var i = 0; i < points.length && points[i][0] <= x; i++) y = points[i][1];
    return y;
  }

  // One chart per compared operation: both CDFs on one x axis (the union of their points) and each side's p95
  // interval as a horizontal segment at 0.95 (missing bounds: too few samples to bound it).
  function comparisonSpecs(comparison) {
    var specs = {};
    comparison.forEach(function (o) {
      var seen = {};
      var xs = [];
      function addX(x) {
        if (x !== null && x !== undefined && !seen[x]) {
          seen[x] = true;
          xs.push(x);
        }
      }
      // A log axis (latency spans decades): only positive values.
      o.cdf.baseline.forEach(function (p) {
        if (p[0] > 0) addX(p[0]);
      });
      o.cdf.candidate.forEach(function (p) {
        if (p[0] > 0) addX(p[0]);
      });
      ['baseline', 'candidate'].forEach(function (side) {
        var e = o.p95[side];
        if (e) {
          addX(e.low);
          addX(e.high);
        }
      });
      xs.sort(function (a, b) {
        return a - b;
      });
      function interval(e) {
        return xs.map(function (x) {
          return e && e.low !== null && e.high !== null && x >= e.low && x <= e.high ? 0.95 : null;
        });
      }
      specs['compare:' + o.operation] = {
        xs: xs,
        xLog: true,
        xLabel: 'latency (ms, log scale)',
        xUnit: ' ms',
        yLabel: 'fraction of requests',
        unit: '',
        series: [
          {
            label: 'baseline',
            values: xs.map(function (x) {
              return o.cdf.baseline.length ? cdfAt(o.cdf.baseline, x) : null;
            }),
            color: '#1f6feb',
          },
          {
            label: 'candidate',
            values: xs.map(function (x) {
              return o.cdf.candidate.length ? cdfAt(o.cdf.candidate, x) : null;
            }),
            color: '#d9480f',
          },
          { label: 'baseline p95 CI', values: interval(o.p95.baseline), color: '#74c0fc', noGaps: true },
          { label: 'candidate p95 CI', values: interval(o.p95.candidate), color: '#ffa94d', noGaps: true },
        ],
      };
    });
    return specs;
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
    var width = chartWidth(container);
    // With no cursor on the chart the legend shows each series' last value (uPlot's default is '–' for every series).
    var x = {
      label: spec.xLog ? 'latency ms' : 'elapsed',
      value: function (u, v, sIdx, idx) {
        var shown = idx === null || idx === undefined ? lastValue(u.data[0]) : v;
        return shown === null || shown === undefined
          ? '–'
          : (idx === null || idx === undefined ? 'last ' : '') + String(shown) + (spec.xLog ? ' ms' : ' s');
      },
    };
    var series = [x].concat(
      spec.series.map(function (s, i) {
        return {
          label: s.label,
          stroke: s.color || PALETTE[i % PALETTE.length],
          width: s.noGaps ? 6 : 2,
          scale: s.scale || 'y',
          spanGaps: !s.noGaps,
          points: { show: sparse, size: 5 },
          value: function (u, v, sIdx, idx) {
            var shown = idx === null || idx === undefined ? lastValue(u.data[sIdx]) : v;
            return shown === null || shown === undefined ? '–' : String(shown) + (spec.unit ? ' ' + spec.unit : '');
          },
        };
      }),
    );
    var axes = [
      {
        label: spec.xLabel || 'seconds since start',
        values: function (u, splits) {
          return splits.map(function (v) {
            // A log axis leaves its minor ticks unlabelled (null).
            return v === null || v === undefined ? '' : v + (spec.xUnit || ' s');
          });
        },
      },
      { label: spec.yLabel, size: 60 },
    ];
    var scales = {
      x: spec.xLog ? { time: false, distr: 3 } : { time: false },
      y: {
        range: function (u, min, max) {
          return [0, max > 0 ? max * 1.1 : 1];
        },
      },
    };
    if (spec.y2Label) {
      axes.push({ label: spec.y2Label, scale: 'y2', side: 1, grid: { show: false }, size: 50 });
      scales.y2 = {
        range: function (u, min, max) {
          return [0, max > 0 ? max * 1.2 : 1];
        },
      };
    }
    // uPlot is the inlined charting library (the global of its IIFE build); kept on the element so a redraw frees it.
    container.gatewayHarnessPlot = new uPlot(
      { width: width, height: 260, series: series, axes: axes, scales: scales, legend: { live: true } },
      columns,
      container,
    );
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
        return {
          label: o.outcome + (s.outcomes.length > 4 ? ' (' + o.metric + ')' : ''),
          values: perSecond(o.counts, s.intervalMs),
          color: OUTCOME_COLORS[o.outcome] || PALETTE[i % PALETTE.length],
        };
      }),
    };
    if (load.generator) {
      specs.generator = generatorSpec(load.generator, s.startTime);
      specs['generator-preempted'] = preemptedSpec(load.generator, s);
    }
    return specs;
  }

  /** The part of [start, end) the generator's saturated windows cover, 0..1. */
  function windowCover(windows, start, end) {
    var covered = 0;
    for (var w = 0; w < windows.length; w++) covered += Math.max(0, Math.min(end, windows[w].endMs) - Math.max(start, windows[w].startMs));
    return Math.min(1, covered / (end - start));
  }

  /**
   * Per bucket of the load series: the share of its requests measured inside a saturated window (the generator starved
   * or preempted), the share of the run's requests so far (its last value is the report's requestShareInWindows), and
   * k6's preempted share (its threads' involuntary switches), the highest second in the bucket.
   */
  function preemptedSpec(g, s) {
    var inside = [];
    var sofar = [];
    var preempted = [];
    var insideSum = 0;
    var total = 0;
    var seconds = g.series.preemptedShare || [];
    for (var i = 0; i < s.buckets; i++) {
      var start = s.startTime + i * s.intervalMs;
      var requests = s.requests[i] || 0;
      var cover = windowCover(g.windows, start, start + s.intervalMs);
      insideSum += requests * cover;
      total += requests;
      inside.push(requests > 0 ? Math.round(cover * 1000) / 10 : null);
      sofar.push(total > 0 ? Math.round((insideSum / total) * 1000) / 10 : null);
      var most = null;
      for (var j = 0; j < seconds.length; j++) {
        var t = g.series.t[j] - 500;
        if (seconds[j] !== null && t >= start && t < start + s.intervalMs) most = Math.max(most === null ? 0 : most, seconds[j]);
      }
      preempted.push(most === null ? null : Math.round(most * 1000) / 10);
    }
    var series = [
      { label: 'requests in a saturated window %', values: inside, color: '#e03131' },
      { label: 'of the run so far %', values: sofar, color: '#1c7ed6' },
    ];
    if (g.series.preemptedShare) series.push({ label: 'preempted share of switches % (k6)', values: preempted, color: '#868e96' });
    return { yLabel: '%', unit: '%', series: series };
  }

  /** The generator's own seconds (summary.json load.generator) on the load series' clock, shares as percentages. */
  function generatorSpec(g, startTime) {
    var percent = function (values) {
      return values
        ? values.map(function (v) {
            return v === null ? null : Math.round(v * 1000) / 10;
          })
        : null;
    };
    var series = [];
    if (g.series.loopDelayP99Ms)
      series.push({
        label: 'event-loop delay p99 (busiest thread)',
        values: g.series.loopDelayP99Ms.map(function (v) {
          return v === null ? null : Math.round(v * 10) / 10;
        }),
      });
    if (g.series.waitPerSliceMs)
      series.push({
        label: 'CPU wait per wake-up',
        values: g.series.waitPerSliceMs.map(function (v) {
          return v === null ? null : Math.round(v * 100) / 100;
        }),
      });
    series.push({ label: 'CPU % of the cores', values: percent(g.series.cpuShare), scale: 'y2', color: '#868e96' });
    if (g.series.runQueueShare)
      series.push({ label: 'waiting for a CPU %', values: percent(g.series.runQueueShare), scale: 'y2', color: '#e03131' });
    return {
      yLabel: 'ms',
      y2Label: '%',
      unit: '',
      xs: g.series.t.map(function (t) {
        return Math.round((t - 500 - startTime) / 100) / 10;
      }),
      series: series,
    };
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
    // Every render replaces what the last one drew (the live dashboard renders again as updates arrive).
    for (var c = 0; c < containers.length; c++) clear(containers[c]);
    var series = data && data.load && data.load.series;
    var specs = {};
    var xs = [];
    if (series) {
      for (var i = 0; i < series.buckets; i++) xs.push(Math.round(((i + 0.5) * series.intervalMs) / 100) / 10);
      specs = chartSpecs(data.load);
    }
    var compared = data && data.comparison ? comparisonSpecs(data.comparison) : {};
    for (var j = 0; j < containers.length; j++) {
      var container = containers[j];
      var id = container.getAttribute('data-chart');
      var spec = compared[id] || specs[id];
      if (!spec && !series && !compared[id]) {
        note(container, 'No time series in this report.');
        continue;
      }
      if (!spec || spec.series.length === 0) {
        note(container, 'No data for this chart in the metric stream.');
        continue;
      }
      if (typeof uPlot !== 'function') {
        note(container, 'The charting library did not load.');
        continue;
      }
      draw(container, spec, spec.xs || xs, spec.xs ? false : series.buckets < 40);
    }
  }

  window.GatewayHarnessCharts = { render: render };

  /** A chart's width in its box: drawn at the box's width, and again when the window changes it (1 or 2 columns). */
  function chartWidth(container) {
    return Math.max(320, container.clientWidth - 8);
  }

  // Each chart follows its box when the window is resized (once per frame): a page opened narrow and widened, or the
  // other way round, never scrolls sideways nor keeps charts wider than their column.
  var resizeFrame = 0;
  window.addEventListener('resize', function () {
    if (resizeFrame) return;
    resizeFrame = requestAnimationFrame(function () {
      resizeFrame = 0;
      var containers = document.querySelectorAll('[data-chart]');
      for (var i = 0; i < containers.length; i++) {
        var plot = containers[i].gatewayHarnessPlot;
        // The canvas is taken out of the box's width first, so the box measures its column, not the old chart.
        if (plot) plot.setSize({ width: 320, height: 260 });
      }
      for (var j = 0; j < containers.length; j++) {
        var own = containers[j].gatewayHarnessPlot;
        if (own) own.setSize({ width: chartWidth(containers[j]), height: 260 });
      }
    });
  });

  function main() {
    // The live dashboard has no embedded data: its script calls render() as updates arrive.
    if (document.getElementById('report-data')) render(readData());
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', main);
  else main();
})();
