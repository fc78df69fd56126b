// package.json's `files` ships every room of ARCHITECTURE.md: a new room left out installs a CLI that cannot find its
// own modules (target/ and stats/ were missing once, and only the pack-install-run test saw it).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { parseRoomTable } from './import-graph.ts';

describe('package files', () => {
  it('lists every room', () => {
    const rooms = [...parseRoomTable(readFileSync(new URL('../ARCHITECTURE.md', import.meta.url), 'utf8')).rooms.keys()];
    expect(rooms.length).toBeGreaterThan(10);
    expect(rooms.filter((room) => !packageJson.files.includes(`${room}/`))).toEqual([]);
  });
});
