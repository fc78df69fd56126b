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

  source.addEventListener('series', function (event) {
    var data = JSON.parse(event.data);
    updates += 1;
    window.GatewayHarnessCharts.render({ load: { series: data.series } });
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
