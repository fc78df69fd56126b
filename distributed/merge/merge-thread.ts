// Runs the merge pass in a worker thread whose young generation is capped. V8 grows its nursery while a long merge makes
// garbage (Node 24's V8 up to 128 MB): without the cap, peak memory followed the input's size until that ceiling.
import { fileURLToPath } from 'node:url';
import { readerResult, startCappedThread, type ReaderMessage } from './capped-thread.ts';
import { STDIN } from './input.ts';
import { fromPassData, type MergePassData, type MergePassRequest, type MergePassResult } from './merge-pass.ts';

const MERGE_WORKER = fileURLToPath(new URL('./merge-worker.ts', import.meta.url));

export type MergeThreadMessage = ReaderMessage<MergePassData, { readonly type: 'bytes'; readonly bytes: number }>;

/** The merge pass on its own thread; `onBytes` gets the raw bytes read, in steps of about a MB. */
export function mergeInThread(request: MergePassRequest, onBytes: (bytes: number) => void = () => undefined): Promise<MergePassResult> {
  // A worker's process.stdin is its own stream: standard input ('-') is piped into it.
  const usesStdin = request.files.includes(STDIN);
  const worker = startCappedThread(MERGE_WORKER, { request }, { stdin: usesStdin });
  if (usesStdin && worker.stdin !== null) process.stdin.pipe(worker.stdin);
  return readerResult<MergePassData, MergePassResult, { readonly type: 'bytes'; readonly bytes: number }>(
    worker,
    'merge-results: the merge thread',
    (data) => fromPassData(data, request.submetrics),
    {
      onOther: (message) => onBytes(message.bytes),
      onSettled: () => {
        if (usesStdin && worker.stdin !== null) process.stdin.unpipe(worker.stdin);
      },
    },
  );
}
