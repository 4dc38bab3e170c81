/**
 * How tall an entry is before the webview measures it, in a form the host can compute too: a
 * stub sent instead of an entry (see `EntryStub`) reserves the height the entry would have.
 */
import type { HeightShape, PanelEntry, ThreadEntry } from './entries';

/** The height of a wrapped line of text, in pixels. */
const LINE = 20;

export function heightShape(entry: ThreadEntry): HeightShape {
  switch (entry.type) {
    case 'user':
    case 'agent':
      return { base: entry.type === 'user' ? 48 : 28, chars: entry.text.length };
    case 'thought':
      return fixed(32);
    case 'tool':
      return fixed(
        48 +
          Math.min(300, entry.content.length * 80) +
          (entry.locations.length ? 24 : 0) +
          (entry.rawInput !== undefined ? 28 : 0) +
          (entry.rawOutput !== undefined ? 28 : 0),
      );
    case 'plan':
      return fixed(44 + 24 * entry.entries.length);
    case 'notice':
      return fixed(52);
    case 'divider':
      return fixed(36);
    case 'permission':
      return fixed(96);
    case 'changes':
      return fixed(36);
    case 'elicitation':
      return fixed(entry.mode === 'url' ? 150 : 110 + 62 * Object.keys(entry.schema?.properties ?? {}).length);
    default:
      return fixed(40);
  }
}

/** A rough height in pixels for a panel `charsPerLine` characters wide. */
export function estimateHeight(entry: PanelEntry, charsPerLine: number): number {
  const shape = entry.type === 'stub' ? entry.height : heightShape(entry);
  return shape.base + (shape.chars ? LINE * Math.ceil(shape.chars / charsPerLine) : 0);
}

function fixed(base: number): HeightShape {
  return { base, chars: 0 };
}
