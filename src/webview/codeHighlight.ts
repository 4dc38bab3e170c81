/**
 * The syntax highlighter, bundled on its own (dist/highlight.js) and loaded by the chat page the
 * first time a finished message shows a fenced code block with a language (see highlighter.ts).
 * highlight.js: its output is spans with `hljs-*` classes, which the page's stylesheet colours
 * from the theme (no inline styles, so the strict CSP holds), it needs no WASM or eval, and its
 * languages can be picked one by one: highlight.js's common set plus a few that agents write
 * often. They are registered a few at a time ({@link registerSome}): all at once was one task
 * of 50-100 ms on the main thread every chat of the window shares.
 */
import hljs from 'highlight.js/lib/core';
import type { LanguageFn } from 'highlight.js';
import xml from 'highlight.js/lib/languages/xml';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import markdown from 'highlight.js/lib/languages/markdown';
import diff from 'highlight.js/lib/languages/diff';
import ruby from 'highlight.js/lib/languages/ruby';
import go from 'highlight.js/lib/languages/go';
import graphql from 'highlight.js/lib/languages/graphql';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import less from 'highlight.js/lib/languages/less';
import lua from 'highlight.js/lib/languages/lua';
import makefile from 'highlight.js/lib/languages/makefile';
import perl from 'highlight.js/lib/languages/perl';
import objectivec from 'highlight.js/lib/languages/objectivec';
import php from 'highlight.js/lib/languages/php';
import phpTemplate from 'highlight.js/lib/languages/php-template';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import pythonRepl from 'highlight.js/lib/languages/python-repl';
import r from 'highlight.js/lib/languages/r';
import rust from 'highlight.js/lib/languages/rust';
import scss from 'highlight.js/lib/languages/scss';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import yaml from 'highlight.js/lib/languages/yaml';
import typescript from 'highlight.js/lib/languages/typescript';
import vbnet from 'highlight.js/lib/languages/vbnet';
import wasm from 'highlight.js/lib/languages/wasm';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import powershell from 'highlight.js/lib/languages/powershell';

const unregistered: [string, LanguageFn][] = [
  ['xml', xml],
  ['bash', bash],
  ['c', c],
  ['cpp', cpp],
  ['csharp', csharp],
  ['css', css],
  ['markdown', markdown],
  ['diff', diff],
  ['ruby', ruby],
  ['go', go],
  ['graphql', graphql],
  ['ini', ini],
  ['java', java],
  ['javascript', javascript],
  ['json', json],
  ['kotlin', kotlin],
  ['less', less],
  ['lua', lua],
  ['makefile', makefile],
  ['perl', perl],
  ['objectivec', objectivec],
  ['php', php],
  ['php-template', phpTemplate],
  ['plaintext', plaintext],
  ['python', python],
  ['python-repl', pythonRepl],
  ['r', r],
  ['rust', rust],
  ['scss', scss],
  ['shell', shell],
  ['sql', sql],
  ['swift', swift],
  ['yaml', yaml],
  ['typescript', typescript],
  ['vbnet', vbnet],
  ['wasm', wasm],
  ['dockerfile', dockerfile],
  ['powershell', powershell],
];

hljs.configure({ ignoreUnescapedHTML: true, throwUnescapedHTML: false });

/** Registers languages until `budgetMs` has passed (at least one); true once all are. */
export function registerSome(budgetMs: number): boolean {
  const started = performance.now();
  do {
    const next = unregistered.shift();
    if (!next) break;
    hljs.registerLanguage(next[0], next[1]);
  } while (performance.now() - started < budgetMs);
  return unregistered.length === 0;
}

/** Highlights `code` as `language`: HTML with `hljs-*` spans around escaped text, or undefined for an unknown language. */
export function highlight(code: string, language: string): string | undefined {
  if (!hljs.getLanguage(language)) return undefined;
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}
