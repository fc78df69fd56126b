// Entry of every engine thread (VU workers, the sync HTTP helper): registers tsx so the thread can load the engine's
// TypeScript modules, then imports the module named in workerData.entry.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
