// ledger.jsonl on disk: appends are complete lines, secrets never reach the file, and a line torn by a crash mid-write
// does not stop the rest from being read.
import { appendFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LedgerRequestLine } from './entry.ts';
import { openLedgerWriter, readLedger } from './ledger-file.ts';
import { topupRequestLine } from './fixtures/ledger-lines.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-ledger-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const request = (entry: string, target = 'http://127.0.0.1:1'): LedgerRequestLine =>
  topupRequestLine(entry, `c-${entry}`, 0, { target, body: { skuId: 1, amount: 5 } });

describe('ledger file', () => {
  it('appends whole lines (one batch, one fsync) and reads them back', () => {
    const path = join(dir, 'a', 'ledger.jsonl');
    const w = openLedgerWriter(path);
    w.append(request('1'));
    w.append([request('2'), request('3')]);
    w.close();
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(4);
    expect(readLedger(path).lines.map((l) => l.entry)).toEqual(['1', '2', '3']);
  });

  it('scrubs the password and its Basic token from every line', () => {
    const path = join(dir, 'secret.jsonl');
    const w = openLedgerWriter(path, { secrets: ['hunter2-pw', 'dXNlcjpodW50ZXIyLXB3'] });
    w.append(request('1', 'http://user:hunter2-pw@127.0.0.1:1 dXNlcjpodW50ZXIyLXB3'));
    w.appendRaw([JSON.stringify(request('2', 'hunter2-pw'))]);
    w.close();
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('hunter2-pw');
    expect(text).not.toContain('dXNlcjpodW50ZXIyLXB3');
    expect(text).toContain('[REDACTED]');
  });

  it('reads past a line torn by a crash mid-write, and counts it', () => {
    const path = join(dir, 'torn.jsonl');
    const w = openLedgerWriter(path);
    w.append(request('1'));
    w.close();
    appendFileSync(path, JSON.stringify(request('2')).slice(0, 40));
    const read = readLedger(path);
    expect(read.lines.map((l) => l.entry)).toEqual(['1']);
    expect(read.badLines).toBe(1);
  });

  it('says so when the ledger does not exist', () => {
    expect(() => readLedger(join(dir, 'none.jsonl'))).toThrow(/does not exist/);
  });
});

describe('a ledger replaced or cut under its writer (#32 finding 3)', () => {
  it('refuses the next append when another file took its name', () => {
    const path = join(dir, 'replaced.jsonl');
    const w = openLedgerWriter(path);
    w.append(request('1'));
    writeFileSync(`${path}.new`, '{"metric":"http_reqs"}\n');
    renameSync(`${path}.new`, path);
    expect(() => w.append(request('2'))).toThrow(
      expect.objectContaining({ code: 'GH_ERR_LEDGER', message: expect.stringMatching(/replaced or removed/) }),
    );
    w.close();
  });

  it('refuses the next append when the file was cut (opened for writing with truncation)', () => {
    const path = join(dir, 'cut.jsonl');
    const w = openLedgerWriter(path);
    w.append([request('1'), request('2')]);
    writeFileSync(path, '{"metric":"http_reqs"}\n');
    expect(() => w.append(request('3'))).toThrow(
      expect.objectContaining({ code: 'GH_ERR_LEDGER', message: expect.stringMatching(/was cut/) }),
    );
    w.close();
  });
});
