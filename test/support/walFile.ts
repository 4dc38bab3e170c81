// What a killed process left in a library's WAL (sqlite.org/fileformat.html, "The WAL File
// Format"): the frames of its last hold and whether one of them commits. The crash test reads it
// to say where each kill landed.
import { readFileSync } from 'node:fs';

export interface WalState {
  /** Frames of the current WAL (their salts match the header's). */
  frames: number;
  /** A frame commits a transaction (its "database size after commit" is set). */
  committed: boolean;
}

/** The WAL's frames, or undefined when there is no WAL (or an empty one). */
export function walState(path: string): WalState | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  if (bytes.length < 32) return undefined;
  const pageSize = bytes.readUInt32BE(8);
  const salt1 = bytes.readUInt32BE(16);
  const salt2 = bytes.readUInt32BE(20);
  let frames = 0;
  let committed = false;
  for (let at = 32; at + 24 + pageSize <= bytes.length; at += 24 + pageSize) {
    if (bytes.readUInt32BE(at + 8) !== salt1 || bytes.readUInt32BE(at + 12) !== salt2) break;
    frames++;
    if (bytes.readUInt32BE(at + 4) !== 0) committed = true;
  }
  return { frames, committed };
}
