// Helpers shared by the benchmarks: statistics, tables, and the results file the bench script
// reads for its summary. Benchmarks print figures and ratios, never pass or fail on a timing.
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** Milliseconds with a precision that suits their size. */
export function ms(v: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return 'n/a';
  if (v >= 10_000) return `${(v / 1000).toFixed(1)} s`;
  if (v >= 100) return `${v.toFixed(0)} ms`;
  if (v >= 10) return `${v.toFixed(1)} ms`;
  return `${v.toFixed(2)} ms`;
}

export function ratio(a: number | undefined, b: number | undefined, digits = 2): string {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) return 'n/a';
  return `${(a / b).toFixed(digits)}×`;
}

export function pct(part: number | undefined, whole: number | undefined): string {
  if (part === undefined || whole === undefined || !Number.isFinite(part) || !Number.isFinite(whole) || whole === 0)
    return 'n/a';
  return `${((100 * part) / whole).toFixed(1)} %`;
}

export function count(n: number | undefined): string {
  return n === undefined || !Number.isFinite(n) ? 'n/a' : Math.round(n).toLocaleString('en-US');
}

export function bytes(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return 'n/a';
  if (Math.abs(n) >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(2)} MiB`;
  if (Math.abs(n) >= 1024) return `${(n / 1024).toFixed(0)} KiB`;
  return `${n.toFixed(0)} B`;
}

/** Prints a table: a heading, then aligned columns. */
export function table(title: string, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

/** One line of the final summary; the bench script collects these from every benchmark. */
export interface SummaryLine {
  bench: string;
  what: string;
  value: string;
  note?: string;
}

export function summary(bench: string, what: string, value: string, note?: string): void {
  const file = process.env.ACP_BENCH_RESULTS;
  const line: SummaryLine = { bench, what, value, ...(note ? { note } : {}) };
  if (file) appendFileSync(file, `${JSON.stringify(line)}\n`);
}

/** Runs `fn` and returns how long it took. */
export async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

export function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) {
    g();
    g();
  }
}
