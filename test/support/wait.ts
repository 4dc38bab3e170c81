// How tests wait: for a state they can check (`waitFor`), never for time; and, to show that
// something does not happen, for a quiet period (`quietFor`), the one wait for time, named so.

/**
 * Polls every `every` ms until `check` gives a value (anything but undefined, null or false; a
 * promise is awaited) and returns it. Fails after `ms`, naming what it waited for and the last
 * error `check` threw: a check that throws is asked again, as what it reads may not be there yet.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  ms = 20_000,
  every = 20,
): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== null && v !== false) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/**
 * Lets `ms` pass, so that a test can show something did not happen in that time (no second
 * call, no late update, no answer). Whatever does happen is waited for with {@link waitFor}.
 */
export function quietFor(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
