// The full suite's file order: the slowest files (scripts/test-tiers.ts START_FIRST) start first, so on a 2-core box
// their waiting overlaps the many short files instead of trailing after them; the rest keep vitest's own order.
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { START_FIRST } from './test-tiers.ts';

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const index = START_FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return index < 0 ? START_FIRST.length : index;
    };
    // Array.prototype.sort is stable: files outside the list keep vitest's order among themselves.
    return [...sorted].sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b));
  }
}
