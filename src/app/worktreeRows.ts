import { Emitter } from '../base/event';
import type { Summary, WorktreeInfo, Worktrees } from '../worktrees/worktrees';

/** A worktree as its folder's row shows it: the worktree and, once read, its summary. */
export interface WorktreeRow {
  readonly info: WorktreeInfo;
  readonly summary?: Summary;
  /** Other worktrees of the folder that changed some of the same files: merging both may conflict. */
  readonly overlaps?: readonly { branch: string; files: readonly string[] }[];
}

/** For each row, the other rows that changed a file it changed too, and which files. */
export function withOverlaps(rows: readonly WorktreeRow[]): WorktreeRow[] {
  return rows.map((row) => {
    const mine = new Set(row.summary?.files ?? []);
    const overlaps = rows
      .filter((other) => other !== row && other.info.branch)
      .map((other) => ({ branch: other.info.branch!, files: (other.summary?.files ?? []).filter((f) => mine.has(f)) }))
      .filter((o) => o.files.length > 0);
    return overlaps.length > 0 ? { ...row, overlaps } : row;
  });
}

interface FolderWorktrees {
  rows: readonly WorktreeRow[];
  loading?: Promise<void>;
}

/**
 * Each folder's worktrees (the main one left out), read with git when the view first asks and
 * again on {@link refresh}. A folder that is not in a repository, or a machine without git,
 * simply has none: the view shows no error for what most folders are.
 */
export class WorktreeRows {
  private readonly folders = new Map<string, FolderWorktrees>();
  private readonly changed = new Emitter<string>();
  /** A folder's rows changed (its path). */
  readonly onDidChange = this.changed.event;

  constructor(
    readonly worktrees: Worktrees,
    private readonly failed: (folder: string, error: unknown) => void = () => undefined,
  ) {}

  /** The folder's worktree rows as last read; the first call starts reading them. */
  rows(folder: string): readonly WorktreeRow[] {
    let kept = this.folders.get(folder);
    if (!kept) {
      this.folders.set(folder, (kept = { rows: [] }));
      void this.load(folder, kept);
    }
    return kept.rows;
  }

  /** Reads the folder's worktrees again (every folder's, without one); resolves when read. */
  async refresh(folder?: string): Promise<void> {
    const folders = folder ? [folder] : [...this.folders.keys()];
    await Promise.all(
      folders.map((f) => {
        let kept = this.folders.get(f);
        if (!kept) this.folders.set(f, (kept = { rows: [] }));
        return this.load(f, kept);
      }),
    );
  }

  /** The row of a worktree by its path, in whichever folder lists it. */
  find(worktreePath: string): { folder: string; row: WorktreeRow } | undefined {
    for (const [folder, kept] of this.folders) {
      const row = kept.rows.find((r) => r.info.path === worktreePath);
      if (row) return { folder, row };
    }
    return undefined;
  }

  private load(folder: string, kept: FolderWorktrees): Promise<void> {
    const run = (async () => {
      await kept.loading?.catch(() => undefined);
      let rows: WorktreeRow[] = [];
      try {
        const list = (await this.worktrees.list(folder)).filter((w) => !w.main && !w.bare);
        rows = await Promise.all(
          list.map(async (info): Promise<WorktreeRow> => {
            if (info.missing || !info.base) return { info };
            const summary = await this.worktrees.summary(info.path, info.base).catch(() => undefined);
            return { info, summary };
          }),
        );
      } catch (e) {
        this.failed(folder, e);
      }
      kept.rows = withOverlaps(rows);
      this.changed.fire(folder);
    })();
    kept.loading = run;
    return run;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
