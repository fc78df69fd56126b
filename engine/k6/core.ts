// The `k6` module: check, group, sleep, fail, randomSeed with k6's semantics (checks feed the `checks` Rate and the
// group tree; group() refuses async functions like k6; sleep() inside an iteration is deferred, see vu.ts).
import { performance } from 'node:perf_hooks';
import type { ModuleVU } from './module-vu.ts';

type CheckSets = Record<string, unknown>;

export function createCoreModule(vu: ModuleVU): Record<string, unknown> {
  const check = (value: unknown, sets: CheckSets, tags?: Record<string, string>): boolean => {
    vu.assertRunning();
    if (sets === null || typeof sets !== 'object') throw new Error('check() needs an object of name → function');
    let all = true;
    const base = vu.baseTags();
    if (tags !== undefined) Object.assign(base, tags);
    for (const name of Object.keys(sets)) {
      const fn = sets[name];
      const passed = Boolean(typeof fn === 'function' ? (fn as (v: unknown) => unknown)(value) : fn);
      vu.runtime.groups.check(vu.groupPath, name, passed);
      vu.emit('checks', passed ? 1 : 0, { ...base, check: name });
      if (!passed) all = false;
    }
    return all;
  };

  const group = <T>(name: string, fn: () => T): T => {
    vu.assertRunning();
    if (typeof fn !== 'function') throw new Error('group() needs a function as its second argument');
    if (fn.constructor.name === 'AsyncFunction') {
      throw new Error(
        'group() does not support async functions as arguments, please see https://grafana.com/docs/k6/latest/javascript-api/k6/group/ for more info',
      );
    }
    const parent = vu.groupPath;
    const outerSleep = vu.groupSleepMs;
    vu.groupPath = vu.runtime.groups.enter(parent, name);
    vu.groupSleepMs = 0;
    const t0 = performance.now();
    try {
      return fn();
    } finally {
      const inner = vu.groupSleepMs;
      const tags = vu.baseTags();
      vu.emit('group_duration', performance.now() - t0 + inner, tags);
      vu.groupPath = parent;
      vu.groupSleepMs = outerSleep + inner;
    }
  };

  const sleep = (seconds: number): void => {
    vu.assertRunning();
    const ms = Number(seconds) * 1000;
    if (!(ms > 0)) return;
    if (vu.scenario === undefined || vu.runtime.phase !== 'vu') {
      // setup/teardown run alone on the controller thread: blocking is k6's behaviour and harms nobody.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
      return;
    }
    vu.pendingSleepMs += ms;
    if (vu.groupPath !== '') vu.groupSleepMs += ms;
  };

  const fail = (message?: string): never => {
    throw new Error(message === undefined ? 'fail' : String(message));
  };

  const randomSeed = (_seed: number): void => {
    throw new Error('k6.randomSeed is not implemented by the node engine; run this script with k6');
  };

  return { check, group, sleep, fail, randomSeed };
}
