// `npm run package [-- vsce options]`: `vsce package` (which builds through vscode:prepublish).
//
// The README's pictures are relative paths (media/screenshots/*.png), which GitHub and GitLab
// show, as are its links to docs/ and CONTRIBUTING.md (which the package leaves out). VS Code's
// details page of an extension shows only https images (its CSP and sanitizer drop relative and
// data: sources), so the packaged README needs absolute https addresses:
// vsce writes them from `repository` in package.json, or from ACP_BASE_URL here (the https
// address the repository's files are served from, e.g. https://github.com/OWNER/REPO/raw/HEAD/).
// With neither, the links stay relative and the details page shows the pictures' captions.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit' }).status ?? 1;

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const base = process.env.ACP_BASE_URL;
const links = base
  ? ['--baseContentUrl', base, '--baseImagesUrl', base]
  : manifest.repository
    ? []
    : ['--no-rewrite-relative-links'];
if (links[0] === '--no-rewrite-relative-links')
  console.log(
    'package: no repository in package.json and no ACP_BASE_URL: the README keeps relative image paths, which VS Code’s details page does not show.',
  );
const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
// vsce asks whether to go on without a repository (on a terminal), and packages anyway when
// its output is piped: say it once here and never ask.
const repository = manifest.repository ? [] : ['--allow-missing-repository'];
process.exit(
  run(process.execPath, [vsce, 'package', '--no-dependencies', ...repository, ...links, ...process.argv.slice(2)]),
);
