// The documents read as a whole: the README for users, docs/ and CONTRIBUTING.md for the rest.
// Their links must lead somewhere, the settings table must name every setting, and the fault
// matrix must name tests that exist.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '../host/paths';

const root = repoRoot();
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const documents = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** What GitHub makes of a heading for its anchor: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchors(markdown: string): Set<string> {
  const outsideCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...outsideCode.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
}

/** The targets of the document's Markdown links and images that are not web addresses. */
function relativeLinks(markdown: string): string[] {
  const outsideCode = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...outsideCode.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
}

describe('Documents', () => {
  it('link only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const document of documents) {
      for (const target of relativeLinks(read(document))) {
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file = path ? join(dirname(document), path) : document;
        if (!existsSync(join(root, file))) broken.push(`${document}: ${target} (no file ${file})`);
        else if (anchor !== undefined && !anchors(read(file)).has(anchor))
          broken.push(`${document}: ${target} (no heading "${anchor}" in ${file})`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('show in the README every setting of package.json, in its settings table', () => {
    const manifest = JSON.parse(read('package.json')) as {
      contributes: { configuration: { properties: Record<string, unknown> } };
    };
    const readme = read('README.md');
    const table = readme.slice(readme.indexOf('## Settings'), readme.indexOf('\n## ', readme.indexOf('## Settings')));
    const rows = new Set([...table.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!));
    assert.deepEqual(Object.keys(manifest.contributes.configuration.properties).sort(), [...rows].sort());
  });

  it('name in the fault matrix and the safety promises only tests that exist', () => {
    const safety = read('docs/safety.md');
    // A test is named by its kind and path under test/: `unit/agent/roots`, `vscode/hostile`
    // (a folder of extension-host suites), `webview/webview.test`.
    const named = new Set(
      [...safety.matchAll(/(?<![\w./])(unit|integration|webview|vscode|e2e|windows)\/([\w/.]*\w)/g)].map((m) => m[0]),
    );
    assert.ok(named.size > 50, `the safety document names its tests (${named.size} found)`);
    const exists = (name: string) => {
      const [kind, ...rest] = name.split('/');
      const candidates = [`${name}.test.ts`, `${name}.ts`, name];
      if (kind === 'vscode') candidates.push(`vscode/suite/${rest.join('/')}`);
      return candidates.some((c) => existsSync(join(root, 'test', c)));
    };
    assert.deepEqual(
      [...named].filter((n) => !exists(n)),
      [],
    );
  });
});
