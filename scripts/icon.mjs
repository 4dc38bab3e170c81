// Draws media/icon.png (the Marketplace icon, 128×128) from media/icon.svg, which puts the
// activity bar glyph (media/acp.svg) on a coloured square. Chromium renders it, through
// playwright-core as the tests drive it: `node scripts/icon.mjs` after changing the SVG.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const svg = readFileSync(join(root, 'media', 'icon.svg'), 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.ACP_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: join(root, 'media', 'icon.png'), omitBackground: true });
  console.log('wrote media/icon.png');
} finally {
  await browser.close();
}
