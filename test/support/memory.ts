// The heap as a test sees it once garbage is collected: `gc` without starting mocha with
// --expose-gc (the flag applies to contexts made after it).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
export const gc = runInNewContext('gc') as () => void;

/** Bytes the process's JavaScript holds (heap and array buffers) after two collections. */
export function heldBytes(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}
