// The reading thread's side of a failure (capped-thread.ts reads it back): any error as the plain `error` message a
// thread posts, its harness code kept. A file of its own, so a thread's bundle does not take in esbuild with capped-thread.ts.
import { HarnessError, type HarnessErrorCode } from '../../api/errors.ts';

/** `error` as the ReaderMessage a thread posts: a HarnessError keeps its code, anything else is GH_ERR_INTERNAL. */
export function readerError(error: unknown): { readonly type: 'error'; readonly code: HarnessErrorCode; readonly message: string } {
  return {
    type: 'error',
    code: error instanceof HarnessError ? error.code : 'GH_ERR_INTERNAL',
    message: error instanceof Error ? error.message : String(error),
  };
}
