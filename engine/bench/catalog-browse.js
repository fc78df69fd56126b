// Bench script (engine and real k6 alike): catalog browsing with schema checks — each iteration GETs v2 catalog/skus,
// countries and operators with await http.asyncRequest, JSON.parses each body and runs the generated ajv standalone
// validators (envelope + payload array), as the load suites do. Target and auth come from __ENV.
/* global __ENV */ // k6 defines __ENV for scripts
import http from 'k6/http';
import { check } from 'k6';
import { validateEnvelope, validatePayloadArray } from '../../schemas/generated/validators.js';

export const options = { vus: 1, duration: '10s' };

const AUTH = { headers: { Authorization: `Basic ${__ENV.AUTH_B64 || 'dXNlcjpwYXNz'}` } };
const PATHS = ['/api/v2/catalog/skus', '/api/v2/catalog/countries', '/api/v2/catalog/operators'];

export default async function () {
  for (const path of PATHS) {
    const res = await http.asyncRequest('GET', `${__ENV.BASE}${path}`, null, AUTH);
    const body = typeof res.body === 'string' ? JSON.parse(res.body) : null;
    check(res, {
      'status 200': (r) => r.status === 200,
      'envelope valid': () => validateEnvelope(body),
      'payload is an array': () => body !== null && validatePayloadArray(body.payLoad),
    });
  }
}
