// The load generator's process measured from /proc once a second while it runs: its CPU share of the cores it may use
// (its affinity) and the time its threads waited for a CPU (a hog beside it). k6's process, or this one for the Node engine.
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { GeneratorPoint } from '../../reports/generator.ts';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ: 100 on every Linux the harness runs on). */
const USER_HZ = 100;

export interface ProcTimes {
  /** utime + stime of every thread, ms. */
  readonly cpuMs: number;
  /** Time the threads spent runnable but waiting for a CPU, ms (sum of /proc/<pid>/task/<tid>/schedstat's second field). */
  readonly waitMs: number | undefined;
  /** Times the threads were given a CPU (schedstat's third field): the wake-ups the waiting is spread over. */
  readonly slices: number | undefined;
  /** Context switches of the threads: voluntary (blocked, done for now) and involuntary (preempted with work left). */
  readonly switches?: { readonly voluntary: number; readonly involuntary: number };
}

/** utime and stime (fields 14 and 15) of a /proc/<pid>/stat line, ms; the command name may hold spaces and parens. */
export function cpuMsOfStat(text: string): number | undefined {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After "pid (comm) ", field 3 (state) is index 0: utime (14) is index 11, stime (15) index 12.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? ((utime + stime) * 1000) / USER_HZ : undefined;
}

/** One thread's schedstat line, "<ns on cpu> <ns waiting on a run queue> <timeslices>"; undefined once it is gone. */
function threadQueue(pid: number, tid: string): { waitMs: number; slices: number } | undefined {
  try {
    const [, wait, runs] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
    return Number.isFinite(wait) && Number.isFinite(runs) ? { waitMs: (wait as number) / 1e6, slices: runs as number } : undefined;
  } catch {
    return undefined;
  }
}

/** One thread's voluntary and involuntary context switches (/proc/<pid>/task/<tid>/status); undefined once it is gone. */
function threadSwitches(pid: number, tid: string): { voluntary: number; involuntary: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
    const voluntary = Number(/^voluntary_ctxt_switches:\s*(\d+)/m.exec(status)?.[1]);
    const involuntary = Number(/^nonvoluntary_ctxt_switches:\s*(\d+)/m.exec(status)?.[1]);
    return Number.isFinite(voluntary) && Number.isFinite(involuntary) ? { voluntary, involuntary } : undefined;
  } catch {
    return undefined;
  }
}

/** The run-queue wait and wake-ups of every thread of `pid`; undefined without schedstat or once the process is gone. */
function runQueue(pid: number): Omit<ProcTimes, 'cpuMs'> | undefined {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  const queues = tids.map((tid) => threadQueue(pid, tid)).filter((q) => q !== undefined);
  if (queues.length === 0) return undefined;
  const switches = tids.map((tid) => threadSwitches(pid, tid)).filter((s) => s !== undefined);
  return {
    waitMs: queues.reduce((sum, q) => sum + q.waitMs, 0),
    slices: queues.reduce((sum, q) => sum + q.slices, 0),
    ...(switches.length === 0
      ? {}
      : {
          switches: {
            voluntary: switches.reduce((sum, s) => sum + s.voluntary, 0),
            involuntary: switches.reduce((sum, s) => sum + s.involuntary, 0),
          },
        }),
  };
}

/** The process's CPU and run-queue times now; undefined when it is gone or /proc cannot be read (not Linux). */
export function procTimes(pid: number): ProcTimes | undefined {
  try {
    const cpuMs = cpuMsOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    const queue = runQueue(pid);
    return cpuMs === undefined
      ? undefined
      : { cpuMs, waitMs: queue?.waitMs, slices: queue?.slices, ...(queue?.switches === undefined ? {} : { switches: queue.switches }) };
  } catch {
    return undefined;
  }
}

/** How many CPUs a Cpus_allowed_list ("0-3,6") names; undefined when it names none. */
export function cpusInList(list: string): number | undefined {
  let count = 0;
  for (const part of list.trim().split(',')) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (range === null) return undefined;
    const [from, to] = [Number(range[1]), Number(range[2] ?? range[1])];
    if (to < from) return undefined;
    count += to - from + 1;
  }
  return count;
}

/** The CPUs `pid` may run on (its affinity: taskset, a cgroup's cpuset), from /proc; undefined without /proc. */
function allowedCores(pid: number): number | undefined {
  try {
    const line = /^Cpus_allowed_list:\s*(.+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line?.[1] === undefined ? undefined : cpusInList(line[1]);
  } catch {
    return undefined;
  }
}

/** One second's point from two readings `wallMs` apart, as shares of `cores`. */
export function pointBetween(before: ProcTimes, after: ProcTimes, wallMs: number, cores: number, t: number): GeneratorPoint {
  const capacity = Math.max(1, wallMs) * Math.max(1, cores);
  const cpuShare = Math.max(0, after.cpuMs - before.cpuMs) / capacity;
  if (before.waitMs === undefined || after.waitMs === undefined || before.slices === undefined || after.slices === undefined)
    return { t, cpuShare };
  const waited = Math.max(0, after.waitMs - before.waitMs);
  const slices = after.slices - before.slices;
  return {
    t,
    cpuShare,
    runQueueShare: waited / capacity,
    ...(slices > 0 ? { waitPerSliceMs: waited / slices } : {}),
    ...preempted(before.switches, after.switches),
  };
}

/** The share of the switches between two readings that were involuntary; none without switches (threads gone, no /proc). */
function preempted(before: ProcTimes['switches'], after: ProcTimes['switches']): { preemptedShare?: number } {
  if (before === undefined || after === undefined) return {};
  const involuntary = Math.max(0, after.involuntary - before.involuntary);
  const total = involuntary + Math.max(0, after.voluntary - before.voluntary);
  return total > 0 ? { preemptedShare: involuntary / total } : {};
}

export interface ProcMonitor {
  /** Watch another process from now on (k6's pid, once spawned). */
  watch(pid: number): void;
  /** Stops sampling; the seconds sampled. */
  stop(): GeneratorPoint[];
  /** The cores the shares are of: the watched process's affinity at its last reading (k6 pinned by taskset: its CPUs). */
  cores(): number;
}

/**
 * Samples `pid`'s /proc times every `intervalMs` (an unref'd timer: costs one read of a few small files a second), as
 * shares of `cores`, else of the CPUs the process may use, read each time (a wrapper may pin k6 after its spawn).
 */
export function startProcMonitor(
  options: {
    readonly pid?: number;
    readonly intervalMs?: number;
    readonly cores?: number;
    readonly onPoint?: (point: GeneratorPoint) => void;
  } = {},
): ProcMonitor {
  let cores = options.cores ?? availableParallelism();
  const points: GeneratorPoint[] = [];
  let pid = options.pid;
  let last: { times: ProcTimes; at: number } | undefined;
  const read = (): void => {
    if (pid === undefined) return;
    const times = procTimes(pid);
    const at = Date.now();
    if (options.cores === undefined) cores = allowedCores(pid) ?? cores;
    if (times !== undefined && last !== undefined) {
      const point = pointBetween(last.times, times, at - last.at, cores, at);
      points.push(point);
      options.onPoint?.(point);
    }
    last = times === undefined ? undefined : { times, at };
  };
  read();
  const timer = setInterval(read, options.intervalMs ?? 1000);
  timer.unref();
  return {
    watch(next) {
      pid = next;
      last = undefined;
      read();
    },
    stop() {
      clearInterval(timer);
      return points;
    },
    cores: () => cores,
  };
}
