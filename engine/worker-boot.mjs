// Entry of every engine thread (VU workers, the sync HTTP helper): registers tsx when the entry is TypeScript (a clone)
// so the thread can load the engine's modules, then imports the module named in workerData.entry (compiled .js in the package).
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
