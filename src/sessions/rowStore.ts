import type { SessionRow } from './rows';

/**
 * Rows in display order, unique by `sessionId`, with lookups by id that cost the same however
 * many rows there are. Appending never copies the array; positions are rebuilt lazily only
 * after an insert at the top or a removal shifted them.
 */
export class RowStore {
  private list: SessionRow[] = [];
  private readonly byId = new Map<string, SessionRow>();
  private positions: Map<string, number> | undefined;

  /** The rows; the same array until `reset`, so `appended` changes can be read from `from` on. */
  get rows(): readonly SessionRow[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  get(sessionId: string): SessionRow | undefined {
    return this.byId.get(sessionId);
  }

  has(sessionId: string): boolean {
    return this.byId.has(sessionId);
  }

  /** Replaces every row (a new array). Later duplicates of an id are skipped. */
  reset(rows: readonly SessionRow[]): void {
    this.list = [];
    this.byId.clear();
    this.positions = undefined;
    for (const row of rows) if (!this.byId.has(row.sessionId)) this.append(row);
  }

  append(row: SessionRow): void {
    this.positions?.set(row.sessionId, this.list.length);
    this.list.push(row);
    this.byId.set(row.sessionId, row);
  }

  prepend(row: SessionRow): void {
    this.list.unshift(row);
    this.byId.set(row.sessionId, row);
    this.positions = undefined;
  }

  /** Swaps in a new version of a known row; returns its index (-1 when unknown). */
  replace(row: SessionRow): number {
    const index = this.indexOf(row.sessionId);
    if (index < 0) return index;
    this.list[index] = row;
    this.byId.set(row.sessionId, row);
    return index;
  }

  remove(sessionId: string): boolean {
    const index = this.indexOf(sessionId);
    if (index < 0) return false;
    this.list.splice(index, 1);
    this.byId.delete(sessionId);
    this.positions = undefined;
    return true;
  }

  indexOf(sessionId: string): number {
    if (!this.byId.has(sessionId)) return -1;
    if (!this.positions) {
      const positions = new Map<string, number>();
      this.list.forEach((r, i) => positions.set(r.sessionId, i));
      this.positions = positions;
    }
    return this.positions.get(sessionId) ?? -1;
  }
}
