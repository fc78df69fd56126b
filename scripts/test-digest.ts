// What a failed test run comes down to, in a few lines: vitest's "Failed Tests" section (or, when the run stopped before
// vitest, at typecheck or lint, the output's last lines), so a CI log that keeps only its tail still names the failure.

/** ANSI colour and cursor sequences, which vitest writes even into a pipe when FORCE_COLOR is set. */
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
/** Where vitest's list of failures starts: "⎯⎯⎯ Failed Tests 2 ⎯⎯⎯", "Failed Suites" (a file that did not load), or errors. */
const FAILED_SECTION = /Failed (Tests|Suites) \d+|Unhandled Errors?/;
/** vitest's closing lines, which end the failure section. */
const SUMMARY_LINE = /^\s*(Test Files|Tests|Errors)\s/;
/** A failure's heading in that section (" FAIL  |unit| path > suite > test") and the error line that follows it. */
const HEADING = /^\s*FAIL\s/;
const ERROR_LINE = /(Error|expected|Timed out|timed out|Unhandled|Caused by)/;
/** A digest line is kept whole up to this: enough for a test's name and an assertion's first words. */
const LINE_CHARS = 300;

export class FailureDigest {
  private readonly section: string[] = [];
  private readonly tail: string[] = [];
  private inSection = false;
  private wantError = false;
  private partial = '';

  constructor(
    private readonly sectionLines = 60,
    private readonly tailLines = 40,
  ) {}

  /** A chunk of the child's output, as it arrives (lines may be cut between chunks). */
  feed(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.line(line);
  }

  /** The digest: vitest's failure section when there was one, else the last lines of the output. */
  lines(): readonly string[] {
    if (this.partial !== '') this.line(this.partial);
    this.partial = '';
    return this.section.length > 0 ? this.section : this.tail;
  }

  private line(raw: string): void {
    const line = raw.replace(ANSI, '').trimEnd();
    if (FAILED_SECTION.test(line)) this.inSection = true;
    else if (this.inSection && SUMMARY_LINE.test(line)) this.inSection = false;
    if (this.inSection) this.keep(line);
    this.tail.push(line);
    if (this.tail.length > this.tailLines) this.tail.shift();
  }

  /** In the failure section: each failure's heading, and the first error line after it (not the code frames). */
  private keep(line: string): void {
    if (this.section.length >= this.sectionLines) return;
    if (HEADING.test(line) || /Unhandled Error/.test(line)) {
      this.section.push(line.slice(0, LINE_CHARS));
      this.wantError = true;
    } else if (this.wantError && ERROR_LINE.test(line)) {
      this.section.push(`    ${line.trim().slice(0, LINE_CHARS)}`);
      this.wantError = false;
    }
  }
}
