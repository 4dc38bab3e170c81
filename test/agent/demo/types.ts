// The shapes of the demo: the files of its two workspace folders and the sessions about them.

/** A file of a demo folder, and the change a session made to it. */
export interface DemoFile {
  /** Relative to the folder, with forward slashes. */
  path: string;
  /** The file as it is now, after the change. */
  text: string;
  /** An excerpt of the file as it was before the change… */
  before: string;
  /** …and the same excerpt now: it must appear in `text`. */
  after: string;
  /** What the change does, as the agent explains it (one sentence, Markdown). */
  why: string;
}

/** A project: a workspace folder of the demo, its files and how its checks run. */
export interface DemoProject {
  /** The folder's name. */
  name: string;
  files: DemoFile[];
  /** The command that runs the checks for a file, and what it prints when they pass. */
  check(file: DemoFile): { command: string; output: string };
  /** Files no session changed, by path (a manifest, a changelog). */
  extra: Record<string, string>;
  /** The linter and type checker of the whole project, and what they print when clean. */
  lint: { command: string; output: string };
  /** Tests that follow-up turns write, by the path of the file they test. */
  tests: Record<string, string>;
  /** Where the test of a file goes. */
  testPath(path: string): string;
}

/** A session of the demo. */
export interface DemoSession {
  /** Null: an agent that names no session (shown as "Untitled session"). */
  title: string | null;
  /** The file the session works on (a path of the project's files). */
  file: string;
  /** The first prompt, when it says more than the title. */
  prompt?: string;
  /** Turns of a long session (its history streams in for a while). */
  long?: number;
}

/** A file whose text is `head`, the changed excerpt, then `tail`. */
export function demoFile(path: string, before: string, after: string, why: string, head = '', tail = ''): DemoFile {
  return { path, text: `${head}${after}${tail}`, before, after, why };
}
