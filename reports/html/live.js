// Browser script of the live dashboard (load --dashboard): follows the run over Server-Sent Events from the page's own
// origin, redraws the report's charts on each update, and at the end replaces the page with the run's report.html.
(function () {
  'use strict';

  var status = document.getElementById('live-status');
  var updates = 0;
  var source = new EventSource('events');

  function say(text) {
    if (status) status.textContent = text;
  }

  var progress = document.getElementById('live-progress');
  var progressLine = document.getElementById('live-progress-line');
  var marks = document.querySelectorAll('.live-progress .stage-mark');
  for (var m = 0; m < marks.length; m++) marks[m].style.left = marks[m].getAttribute('data-at') + '%';

  function tile(id, big, line, alert) {
    var el = document.querySelector('[data-tile="' + id + '"]');
    if (!el) return;
    el.querySelector('.big').textContent = big;
    el.querySelector('.line').textContent = line;
    el.classList.toggle('alert', alert === true);
  }

  function sum(values) {
    var total = 0;
    for (var i = 0; i < values.length; i++) total += values[i] || 0;
    return total;
  }

  /** The last value of a series that is not null (the newest bucket may have none yet). */
  function lastOf(values) {
    for (var i = values.length - 1; i >= 0; i--) if (values[i] !== null && values[i] !== undefined) return values[i];
    return null;
  }

  function fixed(n) {
    return n >= 100 ? String(Math.round(n)) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
  }

  // Headline tiles from the series (one bucket a second): the newest bucket is still filling, so "now" is the one before.
  function showTiles(s) {
    var n = s.buckets;
    var perSecond = 1000 / s.intervalMs;
    var requests = sum(s.requests);
    var failed = sum(s.failedRequests);
    var settled = n >= 2 ? n - 2 : n - 1;
    var rate = settled >= 0 ? (s.requests[settled] || 0) * perSecond : 0;
    var p95 = lastOf(s.latency.overall.p95.slice(0, settled + 1));
    var vus = lastOf(s.vus);
    tile('requests', String(requests), 'in ' + Math.round((n * s.intervalMs) / 1000) + ' s');
    tile('rate', fixed(rate) + '/s', 'requests per second');
    tile(
      'failures',
      String(failed),
      requests > 0 ? ((100 * failed) / requests).toFixed(2) + ' % of requests' : 'no requests yet',
      failed > 0,
    );
    tile('p95', p95 === null ? '–' : fixed(p95) + ' ms', 'latency, all requests');
    tile('vus', vus === null ? '–' : String(vus), 'running an iteration');
  }

  // Crossed first, then held, then those with no samples yet; text only (textContent), never markup from the stream.
  function showThresholds(list) {
    var body = document.querySelector('#live-thresholds tbody');
    if (!body) return;
    var rank = function (t) {
      return t.ok === false ? 0 : t.ok === true ? 1 : 2;
    };
    var sorted = list.slice().sort(function (a, b) {
      return rank(a) - rank(b);
    });
    while (body.firstChild) body.removeChild(body.firstChild);
    var crossed = 0;
    for (var i = 0; i < sorted.length; i++) {
      var t = sorted[i];
      var row = document.createElement('tr');
      row.className = t.ok === false ? 'crossed' : t.ok === true ? 'held' : 'waiting';
      var state = document.createElement('td');
      state.textContent = t.ok === false ? '✗ crossed' : t.ok === true ? '✓ held' : '… no samples';
      var metric = document.createElement('td');
      metric.textContent = t.metric;
      var expression = document.createElement('td');
      expression.textContent = t.expression;
      row.appendChild(state);
      row.appendChild(metric);
      row.appendChild(expression);
      body.appendChild(row);
      if (t.ok === false) crossed++;
    }
    document.body.setAttribute('data-live-crossed', String(crossed));
    var none = document.getElementById('live-thresholds-none');
    if (none)
      none.textContent =
        crossed > 0
          ? crossed + ' of ' + list.length + ' thresholds crossed so far.'
          : 'None of the ' + list.length + ' thresholds crossed so far.';
  }

  function showProgress(s) {
    if (!progress) return;
    var total = Number(progress.getAttribute('data-total-ms'));
    var elapsed = s.buckets * s.intervalMs;
    var share = Math.min(100, (100 * elapsed) / total);
    progress.querySelector('.fill').style.width = share.toFixed(1) + '%';
    progress.querySelector('.bar').setAttribute('aria-valuenow', share.toFixed(0));
    var bound = progress.getAttribute('data-bound') === 'at most' ? 'at most ' : '';
    if (progressLine)
      progressLine.textContent =
        Math.round(elapsed / 1000) + ' s of ' + bound + Math.round(total / 1000) + ' s (' + share.toFixed(0) + ' %)';
  }

  source.addEventListener('series', function (event) {
    var data = JSON.parse(event.data);
    updates += 1;
    window.GatewayHarnessCharts.render({ load: { series: data.series } });
    showTiles(data.series);
    showProgress(data.series);
    if (data.thresholds) showThresholds(data.thresholds);
    document.body.setAttribute('data-live-updates', String(updates));
    say('Running: ' + data.requests + ' requests, ' + data.seconds + ' s of samples (update ' + updates + ').');
  });

  // The run ended: the page becomes its report (self-contained, it needs nothing more from the server).
  source.addEventListener('report', function (event) {
    source.close();
    var html = JSON.parse(event.data).html;
    document.open();
    document.write(html);
    document.close();
  });

  source.onerror = function () {
    say('Connection to the run lost: it may have ended (its report is in the report directory).');
  };
})();
