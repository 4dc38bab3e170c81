/**
 * A registry agent's icon as files a picker can show in a light and a dark theme. The registry's
 * icons are 16×16 SVGs drawn in `currentColor`, which an image takes as black: each is written
 * twice with the theme's foreground in its place. The icon comes from the copy shipped in the
 * extension when it is the same agent's, else from the registry's address (HTTPS, at most
 * 64 KB, an SVG or nothing), kept in global storage under a name made from that address.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import type { RegistryAgent } from './format';
import { get, readText, type GetOptions } from './http';

export interface ThemedIcon {
  readonly light: string;
  readonly dark: string;
}

const MAX_ICON = 64 * 1024;
const COLORS = { light: '#424242', dark: '#C5C5C5' };

/** Whether a text is an SVG document (as an image it runs no script; it still has to be one). */
function isSvg(text: string): boolean {
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(text);
}

export async function themedIcon(
  agent: RegistryAgent,
  dirs: { shipped?: string; cache: string },
  http?: Partial<Pick<GetOptions, 'answerMs' | 'ca'>>,
): Promise<ThemedIcon | undefined> {
  const address = agent.icon;
  const key = createHash('sha256')
    .update(`${agent.id}\0${address ?? ''}`)
    .digest('hex')
    .slice(0, 16);
  const light = nodePath.join(dirs.cache, `${agent.id}-${key}-light.svg`);
  const dark = nodePath.join(dirs.cache, `${agent.id}-${key}-dark.svg`);
  try {
    await Promise.all([fs.access(light), fs.access(dark)]);
    return { light, dark };
  } catch {
    // Not made yet.
  }
  let text: string | undefined;
  // The shipped icons are the registry's own, named by id: used for the public registry's address of it.
  const shipped = dirs.shipped && nodePath.join(dirs.shipped, `${agent.id}.svg`);
  if (shipped && (!address || address.endsWith(`/${agent.id}.svg`)))
    text = await fs.readFile(shipped, 'utf8').catch(() => undefined);
  if (text === undefined && address) {
    try {
      const answer = await get(address, {
        answerMs: http?.answerMs ?? 10_000,
        stallMs: 10_000,
        maxBytes: MAX_ICON,
        ca: http?.ca,
      });
      text = await readText(answer.body);
    } catch {
      return undefined;
    }
  }
  if (text === undefined || !isSvg(text)) return undefined;
  await fs.mkdir(dirs.cache, { recursive: true });
  await fs.writeFile(light, text.replace(/currentColor/gi, COLORS.light));
  await fs.writeFile(dark, text.replace(/currentColor/gi, COLORS.dark));
  return { light, dark };
}
