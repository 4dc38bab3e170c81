/**
 * File names an agent may not write, because Windows reads them as another file or as a
 * device: a trailing dot or space is dropped (`tasks.json.` writes `tasks.json`), `name:stream`
 * is an NTFS stream of `name` (`tasks.json::$DATA` is the file itself), `CON`, `NUL`, `COM1`…
 * open a device whatever their extension (`nul.txt`), and `\` separates folders. Each of these
 * would let a write reach a file that needs confirmation under a name that does not.
 *
 * Refused on every platform, not only on Windows: a folder on Linux or macOS may live on an NTFS
 * or SMB volume (WSL's `/mnt/c`, a mounted share), where the same rules apply, and a repository
 * is checked out on Windows too, where Git refuses such names (`core.protectNTFS`) or they turn
 * into the file they alias. No ordinary project needs them.
 */

// Windows' device names, matched as it does: the part before the first dot, trailing spaces
// dropped (`nul .txt`, `COM1.tar.gz`); the superscript digits count as digits there.
const DEVICE = /^(?:con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³]) *(?:\..*)?$/i;
// Characters no Windows file name holds (`:` is the stream separator); controls below U+0020.
const FORBIDDEN = /[<>:"|?*\\\u0001-\u001f]/;

/** Whether Windows opens a device for `name` (one name: `nul`, `COM1.txt`, `aux .tar.gz`). */
export function isDeviceName(name: string): boolean {
  return DEVICE.test(name);
}

/** Why Windows would read `name` (one name, no separator) as something else, or undefined. */
export function unportableName(name: string): string | undefined {
  if (name.endsWith('.') || name.endsWith(' '))
    return `ends with ${name.endsWith('.') ? 'a dot' : 'a space'}, which Windows drops ("${name.replace(/[. ]+$/, '')}" would be written)`;
  const bad = FORBIDDEN.exec(name)?.[0];
  if (bad === ':') return 'holds ":", which Windows reads as an NTFS stream of the name before it';
  if (bad === '\\') return 'holds "\\", which Windows reads as a folder separator';
  if (bad !== undefined) return `holds ${JSON.stringify(bad)}, which no Windows file name can hold`;
  if (isDeviceName(name)) return 'is a device name on Windows (CON, NUL, COM1…), whatever its extension';
  return undefined;
}
