// `k6/execution`: the VU, scenario, instance and test views k6 gives scripts (exec.vu.idInTest, exec.scenario.name,
// exec.test.abort(), ...). Values are live getters over the VU and its thread's runtime.
import type { ModuleVU } from './module-vu.ts';

export function createExecutionModule(vu: ModuleVU): Record<string, unknown> {
  const rt = vu.runtime;
  const notInInit = (what: string): void => {
    if (vu.initPhase) throw new Error(`getting ${what} in the init context is not supported`);
  };
  const scenario = {
    get name(): string {
      notInInit('scenario information');
      return vu.scenario?.config.name ?? '';
    },
    get executor(): string {
      notInInit('scenario information');
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
  const vuView = {
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
  const instance = {
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
  const test = {
    abort(reason?: string): never {
      rt.abortTest(reason === undefined ? 'test aborted' : String(reason));
      vu.interrupt();
      throw new Error(`test aborted: ${reason ?? ''}`);
    },
    get options(): unknown {
      return rt.options.raw;
    },
  };
  const exec = { scenario, vu: vuView, instance, test };
  return { ...exec, default: exec };
}
