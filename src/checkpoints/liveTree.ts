import type { ShadowGit } from './gitProcess';
import type { LooseObjects } from './looseObjects';

/** A file's entry: its mode as git writes it and its blob. */
export interface FileEntry {
  mode: '100644' | '100755' | '120000';
  blob: string;
}

/** A folder's entries by name; `id` is its tree's while nothing in it changed since it was written. */
interface Folder {
  entries: Map<string, FileEntry | Folder>;
  id: string | undefined;
}

/** Trees larger than this are not held in memory: their snapshots are left to git. */
export const MAX_ENTRIES = 500_000;

function isFolder(e: FileEntry | Folder | undefined): e is Folder {
  return e !== undefined && 'entries' in e;
}

/** Git's order of a tree's entries: by bytes, a folder's name as if it ended in `/`. */
function treeKey(name: string, entry: FileEntry | Folder): Buffer {
  return Buffer.from(isFolder(entry) ? `${name}/` : name, 'utf8');
}

/**
 * The tree of a folder's last snapshot, held in memory with the id of each of its trees, so
 * that the next snapshot writes the few files and trees that changed itself (see quickSnapshot)
 * and runs no git at all: every git run reads the whole index, which for 50,000 files is most of
 * the time a snapshot takes.
 */
export class LiveTree {
  private constructor(
    private readonly root: Folder,
    /** The snapshot this tree is. */
    public id: string,
  ) {}

  /** Reads tree `id` whole (`ls-tree -r -t`); undefined when it holds more than {@link MAX_ENTRIES}. */
  static async load(git: ShadowGit, id: string): Promise<LiveTree | undefined> {
    if (!/^[0-9a-f]{40}$/.test(id)) return undefined;
    const out = (await git.run({ args: ['ls-tree', '-r', '-t', '-z', '--full-tree', id] })).stdout;
    const root: Folder = { entries: new Map(), id };
    const folders = new Map<string, Folder>([['', root]]);
    let count = 0;
    let start = 0;
    for (let end = out.indexOf(0, start); end !== -1; end = out.indexOf(0, start)) {
      if (++count > MAX_ENTRIES) return undefined;
      const line = out.subarray(start, end).toString('utf8');
      start = end + 1;
      // `<mode> <type> <id>\t<path>`, the path raw (-z): parents always come before children.
      const tab = line.indexOf('\t');
      const [mode, type, oid] = line.slice(0, tab).split(' ');
      const rel = line.slice(tab + 1);
      const slash = rel.lastIndexOf('/');
      const parent = folders.get(slash < 0 ? '' : rel.slice(0, slash));
      if (!parent || !oid) return undefined;
      const name = rel.slice(slash + 1);
      if (type === 'tree') {
        const folder: Folder = { entries: new Map(), id: oid };
        parent.entries.set(name, folder);
        folders.set(rel, folder);
      } else if (type === 'blob' && (mode === '100644' || mode === '100755' || mode === '120000')) {
        parent.entries.set(name, { mode, blob: oid });
      } else {
        // A submodule link or a mode this code does not write: git keeps such trees.
        return undefined;
      }
    }
    return new LiveTree(root, id);
  }

  /** The entry at `rel`: a file's, 'folder', or undefined. */
  get(rel: string): FileEntry | 'folder' | undefined {
    const e = this.find(rel);
    return isFolder(e) ? 'folder' : e;
  }

  private find(rel: string): FileEntry | Folder | undefined {
    let at: FileEntry | Folder | undefined = this.root;
    for (const name of rel.split('/')) {
      if (!isFolder(at)) return undefined;
      at = at.entries.get(name);
    }
    return at;
  }

  /**
   * Puts a file's entry at `rel` (in place of a file or folder there), making its folders.
   * False when a file stands where one of its folders would be: left to git.
   */
  set(rel: string, entry: FileEntry): boolean {
    const names = rel.split('/');
    const last = names.pop()!;
    let at = this.root;
    const path: Folder[] = [at];
    for (const name of names) {
      let next = at.entries.get(name);
      if (next === undefined) {
        next = { entries: new Map(), id: undefined };
        at.entries.set(name, next);
      }
      if (!isFolder(next)) return false;
      at = next;
      path.push(at);
    }
    const old = at.entries.get(last);
    if (!isFolder(old) && old?.blob === entry.blob && old.mode === entry.mode) return true;
    at.entries.set(last, entry);
    for (const f of path) f.id = undefined;
    return true;
  }

  /** Removes the file or folder at `rel`, and the folders it leaves empty (git keeps no empty tree). */
  remove(rel: string): void {
    const names = rel.split('/');
    const last = names.pop()!;
    const path: [Folder, string][] = [];
    let at = this.root;
    for (const name of names) {
      const next = at.entries.get(name);
      if (!isFolder(next)) return;
      path.push([at, name]);
      at = next;
    }
    if (!at.entries.delete(last)) return;
    at.id = undefined;
    for (let i = path.length - 1; i >= 0; i--) {
      const [parent, name] = path[i]!;
      parent.id = undefined;
      if (at.entries.size === 0) parent.entries.delete(name);
      at = parent;
    }
  }

  /** Adds every tree that changed, innermost first, to `objects`; returns the root's id: the new snapshot's. */
  write(objects: LooseObjects): string {
    this.id = writeFolder(this.root, objects);
    return this.id;
  }
}

function writeFolder(folder: Folder, objects: LooseObjects): string {
  if (folder.id) return folder.id;
  const parts: { key: Buffer; bytes: Buffer }[] = [];
  for (const [name, e] of folder.entries) {
    const [mode, oid] = isFolder(e) ? ['40000', writeFolder(e, objects)] : [e.mode, e.blob];
    const bytes = Buffer.concat([Buffer.from(`${mode} ${name}\0`, 'utf8'), Buffer.from(oid, 'hex')]);
    parts.push({ key: treeKey(name, e), bytes });
  }
  parts.sort((a, b) => Buffer.compare(a.key, b.key));
  const content = Buffer.concat(parts.map((p) => p.bytes));
  folder.id = objects.add('tree', content);
  return folder.id;
}
