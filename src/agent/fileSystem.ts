import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import type {
  ReadTextFileRequest,
  ReadTextFileResponse,
  WriteTextFileRequest,
  WriteTextFileResponse,
} from '@agentclientprotocol/sdk';
import { ByteBudget } from './budget';
import { ErrorCodes } from './errors';
import type { Logger } from './log';
import { resolveInRoots } from './roots';

/** The largest file `fs/read_text_file` returns: past it an agent should read in pieces. */
export const MAX_READ_BYTES = 10 * 1024 * 1024;
/**
 * File bytes held by reads at once (two of the largest). A flood of requests for a large file
 * waits here instead of reading every copy into memory together.
 */
const READ_BUDGET_BYTES = 2 * MAX_READ_BYTES;

/** What {@link ClientFileSystem} needs from its owner. The UI supplies the VS Code parts. */
export interface ClientFileSystemHost {
  /** The roots of a live session (its cwd and additional directories); `undefined` if unknown. */
  rootsFor(sessionId: string): readonly string[] | undefined;
  /** The text of an editor open on this file, unsaved changes included; it wins over the disk. */
  openText?(absPath: string): string | undefined;
  /** Writes the file; the UI goes through a `WorkspaceEdit` so the user can undo. Default: `fs`. */
  writeText?(absPath: string, text: string): Promise<void>;
  /** Whether the agent may write files in this session; writes are allowed when absent. */
  allowWrite?(sessionId: string): boolean;
  logger: Logger;
}

/**
 * The `fs/*` methods an agent calls on the client, confined to the session's roots. Every
 * refusal is a `RequestError` the connection sends back as is; nothing is read or written
 * before all checks have passed.
 */
export class ClientFileSystem {
  private readonly reads = new ByteBudget(READ_BUDGET_BYTES);

  constructor(private readonly host: ClientFileSystemHost) {}

  /** `fs/read_text_file`: the whole file, or `limit` lines from the 1-based `line`. */
  async readTextFile(params: ReadTextFileRequest, signal?: AbortSignal): Promise<ReadTextFileResponse> {
    const roots = this.rootsOf(params.sessionId);
    const line = optionalCount(params.line, 'line', 1);
    const limit = optionalCount(params.limit, 'limit', 0);
    const abs = resolveInRoots(params.path, roots);
    this.host.logger.debug(
      `fs/read_text_file ${abs}${line !== undefined ? ` line=${line}` : ''}${limit !== undefined ? ` limit=${limit}` : ''}`,
    );

    let text = this.host.openText?.(abs);
    if (text === undefined && abs !== params.path) text = this.host.openText?.(params.path);
    if (text !== undefined) {
      const bytes = Buffer.byteLength(text, 'utf8');
      if (bytes > MAX_READ_BYTES) throw tooLarge(params.path, bytes);
    } else {
      text = await readFromDisk(abs, params.path, this.reads, signal);
    }
    return { content: sliceLines(text, line, limit) };
  }

  /** `fs/write_text_file`: creates or replaces the file, and any missing parent folders. */
  async writeTextFile(params: WriteTextFileRequest): Promise<WriteTextFileResponse> {
    const roots = this.rootsOf(params.sessionId);
    if (this.host.allowWrite && !this.host.allowWrite(params.sessionId)) {
      throw new RequestError(
        ErrorCodes.InvalidParams,
        `Writing files is turned off for this session; "${params.path}" was not written.`,
      );
    }
    if (typeof params.content !== 'string')
      throw new RequestError(ErrorCodes.InvalidParams, 'The content to write is not a string.');
    const abs = resolveInRoots(params.path, roots, { forWrite: true });
    const existing = await fs.stat(abs).catch(() => undefined);
    if (existing && !existing.isFile()) {
      throw new RequestError(ErrorCodes.InvalidParams, `"${params.path}" is not a regular file; it was not written.`);
    }
    this.host.logger.debug(`fs/write_text_file ${abs} (${Buffer.byteLength(params.content, 'utf8')} bytes)`);

    // The parent is below the deepest existing ancestor, which resolveInRoots placed inside a
    // root, so mkdir creates folders inside the roots only.
    await fs.mkdir(dirname(abs), { recursive: true });
    // Checked again now the folders exist: a symbolic link swapped in meanwhile is caught here.
    if (resolveInRoots(abs, roots, { forWrite: true }) !== abs) {
      throw new RequestError(ErrorCodes.InvalidParams, `"${params.path}" changed while it was being written; refused.`);
    }
    if (this.host.writeText) {
      await this.host.writeText(abs, params.content);
    } else {
      await fs.writeFile(abs, params.content, 'utf8');
    }
    return {};
  }

  private rootsOf(sessionId: string): readonly string[] {
    const roots = this.host.rootsFor(sessionId);
    if (!roots) throw RequestError.sessionNotFound(sessionId);
    return roots;
  }
}

async function readFromDisk(abs: string, shown: string, budget: ByteBudget, signal?: AbortSignal): Promise<string> {
  const stat = await fs.stat(abs).catch((e: NodeJS.ErrnoException) => {
    // Gone between the check and the read.
    if (e.code === 'ENOENT')
      throw new RequestError(ErrorCodes.ResourceNotFound, `The file "${shown}" does not exist.`, { uri: shown });
    throw e;
  });
  if (!stat.isFile()) throw new RequestError(ErrorCodes.InvalidParams, `"${shown}" is not a regular file.`);
  if (stat.size > MAX_READ_BYTES) throw tooLarge(shown, stat.size);
  // The text and its JSON follow the bytes read; the budget covers the read itself.
  const release = await budget.take(stat.size, signal);
  const handle = await fs.open(abs, 'r').catch((e: unknown) => {
    release();
    throw e;
  });
  try {
    // Read no more than the limit even if the file grew after the stat.
    const buffer = Buffer.alloc(Math.min(stat.size, MAX_READ_BYTES) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MAX_READ_BYTES) throw tooLarge(shown, bytesRead);
    return buffer.toString('utf8', 0, bytesRead);
  } finally {
    release();
    await handle.close();
  }
}

/** Lines `line` (1-based) to `line + limit - 1`, each with its own line ending. */
export function sliceLines(text: string, line: number | undefined, limit: number | undefined): string {
  if (line === undefined && limit === undefined) return text;
  const lines = text.split(/(?<=\n)/);
  const start = (line ?? 1) - 1;
  const end = limit === undefined ? lines.length : start + limit;
  return lines.slice(start, end).join('');
}

function optionalCount(value: number | null | undefined, name: string, min: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Number.isInteger(value) || value < min) {
    throw new RequestError(
      ErrorCodes.InvalidParams,
      `"${name}" must be a whole number of at least ${min}; got ${String(value)}.`,
    );
  }
  return value;
}

function tooLarge(path: string, bytes: number): RequestError {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  return new RequestError(
    ErrorCodes.InvalidParams,
    `"${path}" is ${mb(bytes)}; the client reads files up to ${mb(MAX_READ_BYTES)}.`,
  );
}
