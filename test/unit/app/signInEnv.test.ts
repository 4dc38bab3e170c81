import assert from 'node:assert/strict';
import { SignInEnvStore } from '../../../src/app/signInEnv';

/** Secret storage and global state as plain maps, with every secret read counted. */
function stores(secretsAtStart: Record<string, string> = {}, stateAtStart: Record<string, unknown> = {}) {
  const secrets = new Map(Object.entries(secretsAtStart));
  const state = new Map(Object.entries(stateAtStart));
  const reads: string[] = [];
  const store = new SignInEnvStore(
    {
      get: async (key: string) => {
        reads.push(key);
        return secrets.get(key);
      },
      store: async (key: string, value: string) => void secrets.set(key, value),
      delete: async (key: string) => void secrets.delete(key),
    },
    {
      get: <T>(key: string) => state.get(key) as T,
      update: async (key: string, value: unknown) => void state.set(key, value),
    },
  );
  return { store, secrets, reads };
}

describe('Sign-in values kept per agent', () => {
  it('an agent known to have none starts without reading secret storage', async () => {
    const { store, reads } = stores();
    assert.equal(await store.get('codex'), undefined, 'first start: read once, nothing there');
    assert.equal(await store.get('codex'), undefined);
    assert.equal(await store.get('codex'), undefined);
    assert.deepEqual(reads, ['acp.signInEnv.codex'], 'later starts read nothing');
  });

  it('stored values are read back at every start; forgetting them ends the reads', async () => {
    const { store, secrets, reads } = stores();
    await store.store('codex', { OPENAI_API_KEY: 'sk-1' });
    assert.deepEqual(await store.get('codex'), { OPENAI_API_KEY: 'sk-1' });
    assert.deepEqual(await store.get('codex'), { OPENAI_API_KEY: 'sk-1' });
    assert.equal(reads.length, 2);
    assert.equal(await store.forget('codex'), true);
    assert.equal(secrets.size, 0, 'the secret is deleted');
    assert.equal(await store.forget('codex'), false, 'nothing left to forget');
    reads.length = 0;
    assert.equal(await store.get('codex'), undefined);
    assert.deepEqual(reads, []);
  });

  it('values stored before the index existed are found, and the index learns of them', async () => {
    const { store, reads } = stores({ 'acp.signInEnv.gemini': '{"GEMINI_API_KEY":"g-1"}' });
    assert.deepEqual(await store.get('gemini'), { GEMINI_API_KEY: 'g-1' });
    assert.deepEqual(await store.get('gemini'), { GEMINI_API_KEY: 'g-1' });
    assert.equal(reads.length, 2, 'an agent with values is read each time (another window may have changed them)');
  });

  it('one agent signed in does not make the others read', async () => {
    const { store, reads } = stores();
    await store.get('claude');
    await store.store('codex', { OPENAI_API_KEY: 'sk-1' });
    reads.length = 0;
    assert.equal(await store.get('claude'), undefined);
    assert.deepEqual(reads, []);
  });

  it('a value that is not an object of strings counts as nothing stored; a broken index as no index', async () => {
    const { store } = stores(
      { 'acp.signInEnv.a': 'not json', 'acp.signInEnv.b': '["x"]', 'acp.signInEnv.c': '{"K":"v","N":1}' },
      { 'acp.signInEnvAgents': ['a'] },
    );
    assert.equal(await store.get('a'), undefined);
    assert.equal(await store.get('b'), undefined);
    assert.deepEqual(await store.get('c'), { K: 'v' }, 'the strings of an object are kept');
  });
});
