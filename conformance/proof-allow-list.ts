// Case ids that no planted-bug profile can make fail in the embedded sandbox, each with the reason. The meta-test
// (planted-bugs.test.ts) requires every other case id of the plan to fail under at least one profile.

/** id → why it cannot be made to fail in the sandbox. Empty today: every case of the plan is proven. */
export const PROOF_ALLOW_LIST: Readonly<Record<string, string>> = Object.freeze({});
