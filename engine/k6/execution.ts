// `k6/execution`: the VU, scenario, instance and test views k6 gives scripts (exec.vu.idInTest, exec.scenario.name,
// exec.test.abort(), ...). Values are live getters over the VU and its thread's runtime.
import type { ModuleRuntime, ModuleVU } from './module-vu.ts';

/** k6 refuses scenario information while the init context runs (no scenario yet). */
function notInInit(vu: ModuleVU, what: string): void {
  if (vu.initPhase) throw new Error(`getting ${what} in the init context is not supported`);
}

/** exec.scenario: the scenario the VU runs now. */
function scenarioView(vu: ModuleVU): Record<string, unknown> {
  const rt = vu.runtime;
  return {
    get name(): string {
      notInInit(vu, 'scenario information');
      return vu.scenario?.config.name ?? '';
    },
    get executor(): string {
      notInInit(vu, 'scenario information');
      return vu.scenario?.config.executor ?? '';
    },
    get startTime(): number {
      return vu.scenario?.startedAt ?? 0;
    },
    get progress(): number {
      return vu.scenario === undefined ? 0 : rt.scenarioProgress(vu.scenario);
    },
    get iterationInInstance(): number {
      return vu.scenario?.iterationsInInstance === undefined ? 0 : vu.scenario.iterationsInInstance - 1;
    },
    get iterationInTest(): number {
      return vu.iterInTest;
    },
  };
}

/** exec.vu: the VU's ids, iterations, tags and metadata. */
function vuView(vu: ModuleVU): Record<string, unknown> {
  return {
    get idInInstance(): number {
      return vu.idInInstance;
    },
    get idInTest(): number {
      return vu.idInTest;
    },
    get iterationInInstance(): number {
      return vu.iterInInstance;
    },
    get iterationInScenario(): number {
      return vu.iter;
    },
    tags: vu.tags,
    metrics: { tags: vu.tags, metadata: vu.metadata },
  };
}

/** exec.instance: this instance's counters (the thread's runtime). */
function instanceView(rt: ModuleRuntime): Record<string, unknown> {
  return {
    get iterationsCompleted(): number {
      return rt.instance.iterationsCompleted;
    },
    get iterationsInterrupted(): number {
      return rt.instance.iterationsInterrupted;
    },
    get vusActive(): number {
      return rt.instance.vusActive;
    },
    get vusInitialized(): number {
      return rt.instance.vusInitialized;
    },
    get currentTestRunDuration(): number {
      return rt.elapsedMs();
    },
  };
}

/** exec.test: abort() and the options as k6 reports them. */
function testView(vu: ModuleVU): Record<string, unknown> {
  const rt = vu.runtime;
  return {
    abort(reason?: string): never {
      rt.abortTest(reason === undefined ? 'test aborted' : String(reason));
      vu.interrupt();
      throw new Error(`test aborted: ${reason ?? ''}`);
    },
    get options(): unknown {
      return rt.options.raw;
    },
  };
}

export function createExecutionModule(vu: ModuleVU): Record<string, unknown> {
  const exec = { scenario: scenarioView(vu), vu: vuView(vu), instance: instanceView(vu.runtime), test: testView(vu) };
  return { ...exec, default: exec };
}
