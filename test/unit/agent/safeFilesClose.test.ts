import assert from 'node:assert/strict';
import { constants, mkdtempSync, rmSync, writeFileSync, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openByPath } from '../../../src/agent/safeFiles';

// The open by path is what macOS and Windows use; on Windows a handle left open locks the file.
// The file is swapped by a rename, which Windows allows while it is open (a delete would wait
// for the handle to close).
describe('Opening a file by path, then checking it', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'acp-open-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('closes the file when the check after the open rejects it', async () => {
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'x');
    const real = await fs.realpath(file);
    let opened: FileHandle | undefined;
    await assert.rejects(
      openByPath(real, constants.O_RDONLY, 'a.txt', async (f) => {
        opened = f;
        // Swapped between the open and the check.
        await fs.rename(real, `${real}.old`);
        writeFileSync(real, 'y');
      }),
      /changed while it was being opened/,
    );
    assert.ok(opened);
    assert.equal(opened.fd, -1, 'the handle was closed');
  });

  it('closes it too when the file is gone before the check', async () => {
    const real = join(await fs.realpath(dir), 'b.txt');
    writeFileSync(real, 'x');
    let opened: FileHandle | undefined;
    await assert.rejects(
      openByPath(real, constants.O_RDONLY, 'b.txt', async (f) => {
        opened = f;
        await fs.rename(real, `${real}.old`);
      }),
      /changed while it was being opened/,
    );
    assert.equal(opened?.fd, -1);
  });
});
