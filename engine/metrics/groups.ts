// The group tree with check pass/fail counts, in the shape k6 gives handleSummary as `root_group` (ids are the MD5 of
// the path, like k6's lib/models.go), mergeable across workers in first-seen order.
import { createHash } from 'node:crypto';

/** k6 joins group and check names into paths with this separator; the root group's path is ''. */
export const GROUP_SEPARATOR = '::';

export interface K6Check {
  name: string;
  path: string;
  id: string;
  passes: number;
  fails: number;
}

export interface K6Group {
  name: string;
  path: string;
  id: string;
  groups: K6Group[];
  checks: K6Check[];
}

export interface GroupTreeState {
  groups: Array<{ path: string; name: string; parent: string }>;
  checks: Array<{ path: string; name: string; group: string; passes: number; fails: number }>;
}

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

export class GroupTree {
  private readonly groups = new Map<string, { name: string; parent: string }>();
  private readonly checks = new Map<string, { name: string; group: string; passes: number; fails: number }>();

  /** Registers a nested group and returns its path. */
  enter(parentPath: string, name: string): string {
    if (name.includes(GROUP_SEPARATOR)) throw new Error(`group and check names may not contain '${GROUP_SEPARATOR}'`);
    const path = `${parentPath}${GROUP_SEPARATOR}${name}`;
    if (!this.groups.has(path)) this.groups.set(path, { name, parent: parentPath });
    return path;
  }

  /** Counts one check result in a group. */
  /** `times`: that many results at once (merge-results reading per-second aggregates). */
  check(groupPath: string, name: string, passed: boolean, times = 1): void {
    const path = `${groupPath}${GROUP_SEPARATOR}${name}`;
    let c = this.checks.get(path);
    if (c === undefined) {
      if (name.includes(GROUP_SEPARATOR)) throw new Error(`group and check names may not contain '${GROUP_SEPARATOR}'`);
      c = { name, group: groupPath, passes: 0, fails: 0 };
      this.checks.set(path, c);
    }
    if (passed) c.passes += times;
    else c.fails += times;
  }

  toState(): GroupTreeState {
    return {
      groups: [...this.groups].map(([path, g]) => ({ path, name: g.name, parent: g.parent })),
      checks: [...this.checks].map(([path, c]) => ({ path, ...c })),
    };
  }

  mergeState(state: GroupTreeState): void {
    for (const g of state.groups) if (!this.groups.has(g.path)) this.groups.set(g.path, { name: g.name, parent: g.parent });
    for (const c of state.checks) {
      const mine = this.checks.get(c.path);
      if (mine === undefined) this.checks.set(c.path, { name: c.name, group: c.group, passes: c.passes, fails: c.fails });
      else {
        mine.passes += c.passes;
        mine.fails += c.fails;
      }
    }
  }

  /** The k6 `root_group` object. */
  toK6(): K6Group {
    const nodes = new Map<string, K6Group>();
    const root: K6Group = { name: '', path: '', id: md5(''), groups: [], checks: [] };
    nodes.set('', root);
    const node = (path: string): K6Group => {
      const existing = nodes.get(path);
      if (existing !== undefined) return existing;
      const g = this.groups.get(path) ?? {
        name: path.slice(path.lastIndexOf(GROUP_SEPARATOR) + 2),
        parent: path.slice(0, path.lastIndexOf(GROUP_SEPARATOR)),
      };
      const created: K6Group = { name: g.name, path, id: md5(path), groups: [], checks: [] };
      nodes.set(path, created);
      node(g.parent).groups.push(created);
      return created;
    };
    for (const path of this.groups.keys()) node(path);
    for (const [path, c] of this.checks) node(c.group).checks.push({ name: c.name, path, id: md5(path), passes: c.passes, fails: c.fails });
    return root;
  }
}
