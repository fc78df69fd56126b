// `k6/data` SharedArray and `k6/encoding`: SharedArray builds its data once per thread and hands every VU the same frozen
// array (k6 shares it across VUs too); encoding is base64 over Node's Buffer.
import type { ModuleVU } from './module-vu.ts';

const shared = new Map<string, readonly unknown[]>();

export function createDataModule(vu: ModuleVU): Record<string, unknown> {
  class SharedArray {
    constructor(name: string, fn: () => unknown[]) {
      if (!vu.initPhase) throw new Error('new SharedArray must be called in the init context');
      let data = shared.get(name);
      if (data === undefined) {
        const built = fn();
        if (!Array.isArray(built)) throw new Error('only arrays can be made into SharedArray');
        data = Object.freeze(JSON.parse(JSON.stringify(built)) as unknown[]);
        shared.set(name, data);
      }
      return data as unknown as SharedArray;
    }
  }
  return { SharedArray };
}

function alphabet(encoding?: string): BufferEncoding {
  return encoding === 'url' || encoding === 'rawurl' ? 'base64url' : 'base64';
}

export function createEncodingModule(): Record<string, unknown> {
  return {
    b64encode(input: string | ArrayBuffer, encoding?: string): string {
      const buf = typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.from(input);
      let out = buf.toString(alphabet(encoding));
      if (encoding === 'url') out += '='.repeat((4 - (out.length % 4)) % 4);
      if (encoding === 'rawstd') out = out.replace(/=+$/, '');
      return out;
    },
    b64decode(input: string, encoding?: string, format?: string): string | ArrayBuffer {
      const buf = Buffer.from(input, alphabet(encoding));
      if (format === 's') return buf.toString('utf8');
      return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
    },
  };
}
