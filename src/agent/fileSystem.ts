import type { FileHandle } from 'node:fs/promises';
import { relative } from 'node:path';
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
import { confirmationRule, type WriteConfirmation } from './confirmWrites';
import { locate, type Located, type PinnedRoot } from './roots';
import { openToRead, openToWrite } from './safeFiles';

/** The largest text `fs/read_text_file` returns: past it an agent should read in pieces. */
export const MAX_READ_BYTES = 10 * 1024 * 1024;
/**
 * File bytes held by reads at once (two of the largest). A flood of requests for a large file
 * waits here instead of reading every copy into memory together.
 */
const READ_BUDGET_BYTES = 2 * MAX_READ_BYTES;
/** Reads of `line`/`limit` go through the file in pieces of this size, and stop at the last line. */
const CHUNK_BYTES = 64 * 1024;
const LF = 0x0a;

/** What {@link ClientFileSystem} needs from its owner. The UI supplies the VS Code parts. */
export interface ClientFileSystemHost {
  /** The roots of a live session, pinned when it attached; `undefined` if unknown. */
  rootsFor(sessionId: string): readonly PinnedRoot[] | undefined;
  /** The text of an editor open on this file, unsaved changes included; it wins over the disk. */
  openText?(absPath: string): string | undefined;
  /** Whether the agent may write files in this session; writes are allowed when absent. */
  allowWrite?(sessionId: string): boolean;
  /** More patterns of files whose writes need confirmation (`acp.confirmWritesTo`). */
  confirmWritesTo?(): readonly string[];
  /**
   * Asks the user to allow a write to a file that makes tools run code, showing the path and the
   * change. Absent, or false: the write is refused. Never done silently.
   */
  confirmWrite?(request: WriteConfirmation, signal?: AbortSignal): Promise<boolean>;
  logger: Logger;
}

/**
 * The `fs/*` methods an agent calls on the client, confined to the session's pinned roots. Every
 * refusal is a `RequestError` the connection sends back as is; nothing is read or written before
 * all checks have passed, and what is opened is checked to be what was checked (see
 * `safeFiles.ts`). Writes go to the file itself: an editor open on it shows the change as it
 * shows any change on disk.
 */
export class ClientFileSystem {
  private readonly reads = new ByteBudget(READ_BUDGET_BYTES);

  constructor(private readonly host: ClientFileSystemHost) {}

  /** `fs/read_text_file`: the whole file, or `limit` lines from the 1-based `line`. */
  async readTextFile(params: ReadTextFileRequest, signal?: AbortSignal): Promise<ReadTextFileResponse> {
    const roots = this.rootsOf(params.sessionId);
    const line = optionalCount(params.line, 'line', 1);
    const limit = optionalCount(params.limit, 'limit', 0);
    const loc = locate(params.path, roots);
    this.host.logger.debug(
      `fs/read_text_file ${loc.real}${line !== undefined ? ` line=${line}` : ''}${limit !== undefined ? ` limit=${limit}` : ''}`,
    );

    let text = this.host.openText?.(loc.real);
    if (text === undefined && loc.real !== params.path) text = this.host.openText?.(params.path);
    if (text !== undefined) {
      const content = sliceLines(text, line, limit);
      const bytes = Buffer.byteLength(content, 'utf8');
      if (bytes > MAX_READ_BYTES) throw tooLarge(params.path, bytes);
      return { content };
    }
    const file = await openToRead(loc, params.path);
    try {
      const size = (await file.stat()).size;
      if (line === undefined && limit === undefined && size > MAX_READ_BYTES) throw tooLarge(params.path, size);
      const release = await this.reads.take(Math.min(size, MAX_READ_BYTES), signal);
      try {
        if (line === undefined && limit === undefined) return { content: await readWhole(file, size, params.path) };
        return { content: await readLines(file, line ?? 1, limit, params.path) };
      } finally {
        release();
      }
    } finally {
      await file.close();
    }
  }

  /**
   * `fs/write_text_file`: creates or replaces the file, and any missing parent folders. A file
   * that makes tools run code (see `confirmWrites.ts`) is written only once the user allowed it.
   */
  async writeTextFile(params: WriteTextFileRequest, signal?: AbortSignal): Promise<WriteTextFileResponse> {
    const roots = this.rootsOf(params.sessionId);
    if (this.host.allowWrite && !this.host.allowWrite(params.sessionId)) {
      throw new RequestError(
        ErrorCodes.InvalidParams,
        `Writing files is turned off for this session; "${params.path}" was not written.`,
      );
    }
    if (typeof params.content !== 'string')
      throw new RequestError(ErrorCodes.InvalidParams, 'The content to write is not a string.');
    let loc = locate(params.path, roots, { forWrite: true });
    this.host.logger.debug(`fs/write_text_file ${loc.real} (${Buffer.byteLength(params.content, 'utf8')} bytes)`);
    const rule = confirmationRule(relative(loc.root.real, loc.real), this.host.confirmWritesTo?.() ?? []);
    const oldText = rule && !loc.rest.length ? await this.currentText(loc, params.path) : undefined;
    // A file where only some changes run code (`package.json`'s install scripts) is asked for
    // when this write makes such a change; the text compared is the one shown to the user.
    const reason = rule && (!rule.matters || rule.matters(oldText, params.content)) ? rule.reason : undefined;
    if (reason !== undefined) {
      const request: WriteConfirmation = {
        sessionId: params.sessionId,
        path: params.path,
        realPath: loc.real,
        newText: params.content,
        reason,
      };
      if (oldText !== undefined) request.oldText = oldText;
      const allowed = (await this.host.confirmWrite?.(request, signal)) ?? false;
      if (!allowed) {
        throw new RequestError(
          ErrorCodes.InvalidParams,
          `"${params.path}" was not written: the user did not allow it (${reason}).`,
        );
      }
      // The user took their time: the path must still name the file they allowed.
      loc = locate(params.path, roots, { forWrite: true });
      if (loc.real !== request.realPath)
        throw new RequestError(ErrorCodes.InvalidParams, `"${params.path}" changed while the user was asked; refused.`);
    }
    const file = await openToWrite(loc, params.path);
    try {
      // Emptied only now that the open file is known to be the one checked.
      await file.truncate(0);
      await file.writeFile(params.content, 'utf8');
    } finally {
      await file.close();
    }
    return {};
  }

  /** A file's text as it is, to show beside what would replace it; undefined when it cannot be shown. */
  private async currentText(loc: Located, shown: string): Promise<string | undefined> {
    const file = await openToRead(loc, shown);
    try {
      const size = (await file.stat()).size;
      return size > MAX_READ_BYTES ? undefined : await readWhole(file, size, shown);
    } finally {
      await file.close();
    }
  }

  private rootsOf(sessionId: string): readonly PinnedRoot[] {
    const roots = this.host.rootsFor(sessionId);
    if (!roots) throw RequestError.sessionNotFound(sessionId);
    return roots;
  }
}

/** The whole file, no more than the limit even if it grew after `size` was read. */
async function readWhole(file: FileHandle, size: number, shown: string): Promise<string> {
  const buffer = Buffer.alloc(Math.min(size, MAX_READ_BYTES) + 1);
  let length = 0;
  for (;;) {
    const { bytesRead } = await file.read(buffer, length, buffer.length - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
    if (length > MAX_READ_BYTES) throw tooLarge(shown, length);
    if (length === buffer.length) break;
  }
  return buffer.toString('utf8', 0, length);
}

/**
 * Lines `line` (1-based) to `line + limit - 1` of an open file, each with its own line ending
 * (all of them from `line` without `limit`). Read in pieces that stop after the last line asked
 * for: a line of a huge file costs what precedes it, not the whole file.
 */
async function readLines(file: FileHandle, line: number, limit: number | undefined, shown: string): Promise<string> {
  const parts: Buffer[] = [];
  let kept = 0;
  let position = 0;
  let seen = 1;
  let taken = 0;
  const chunk = Buffer.alloc(CHUNK_BYTES);
  for (;;) {
    if (limit !== undefined && taken >= limit) break;
    const { bytesRead } = await file.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let from = 0;
    let keepFrom = seen >= line ? 0 : -1;
    for (let nl = chunk.indexOf(LF, 0); nl !== -1 && nl < bytesRead; nl = chunk.indexOf(LF, from)) {
      from = nl + 1;
      if (seen >= line) {
        taken++;
        if (limit !== undefined && taken >= limit) break;
      }
      seen++;
      if (seen === line) keepFrom = from;
    }
    if (keepFrom >= 0) {
      const end = limit !== undefined && taken >= limit ? from : bytesRead;
      kept += end - keepFrom;
      if (kept > MAX_READ_BYTES) throw tooLarge(shown, kept);
      parts.push(Buffer.from(chunk.subarray(keepFrom, end)));
    }
  }
  return Buffer.concat(parts).toString('utf8');
}

/** Lines `line` (1-based) to `line + limit - 1`, each with its own line ending, found without splitting the text. */
export function sliceLines(text: string, line: number | undefined, limit: number | undefined): string {
  if (line === undefined && limit === undefined) return text;
  let start = 0;
  for (let n = 1; n < (line ?? 1); n++) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) return '';
    start = nl + 1;
  }
  if (limit === undefined) return text.slice(start);
  let end = start;
  for (let n = 0; n < limit; n++) {
    const nl = text.indexOf('\n', end);
    if (nl === -1) return text.slice(start);
    end = nl + 1;
  }
  return text.slice(start, end);
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
    `"${path}" is ${mb(bytes)}; the client reads up to ${mb(MAX_READ_BYTES)} at once (ask for fewer lines with "line" and "limit").`,
  );
}
