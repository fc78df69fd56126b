// The one HdrHistogram layout of a k6 trend (hdr-histogram-js): the Node engine's trends (engine/metrics/trend-histogram.ts)
// and the per-second aggregates (reports/metric-aggregates.ts) both keep theirs in it, so either one's histograms merge exactly.
import * as hdr from 'hdr-histogram-js';
import type { JsHistogram } from 'hdr-histogram-js';

/** Values are recorded in thousandths (µs for a time trend in ms): 0.001 is the smallest step told apart from 0. */
export const TREND_SCALE = 1_000;

/** 64-bit counts that resize as values grow, 3 significant digits (percentiles within 0.1 %), no WebAssembly. */
export function newTrendHdr(): JsHistogram {
  return hdr.build({
    bitBucketSize: 64,
    autoResize: true,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 2,
    numberOfSignificantValueDigits: 3,
    useWebAssembly: false,
  }) as JsHistogram;
}

/** The compressed base64 text a report or a worker message carries a trend histogram in. */
export function encodeTrendHdr(hist: JsHistogram): string {
  return hdr.encodeIntoCompressedBase64(hist);
}

/** A histogram of this layout read back from its compressed base64 text. */
export function decodeTrendHdr(base64: string): JsHistogram {
  const hist = newTrendHdr();
  hist.add(hdr.decodeFromCompressedBase64(base64, 64, false) as JsHistogram);
  return hist;
}
