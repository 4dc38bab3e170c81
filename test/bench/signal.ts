// The files a benchmark's driver and its suite in the extension host signal each other with.
// Each side reads a file as soon as it exists, so it is written whole under another name first
// and then renamed: a file read half-written once made a run fail, or print the epoch as a time.
import { renameSync, writeFileSync } from 'node:fs';

export function writeSignal(path: string, body = ''): void {
  writeFileSync(`${path}.part`, body);
  renameSync(`${path}.part`, path);
}
