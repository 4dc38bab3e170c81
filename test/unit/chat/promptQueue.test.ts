import * as assert from 'node:assert/strict';
import { PromptQueue } from '../../../src/chat/promptQueue';
import type { QueueState } from '../../../src/protocol/messages';

describe('PromptQueue', () => {
  let queue: PromptQueue;
  let seen: QueueState[];
  beforeEach(() => {
    queue = new PromptQueue();
    seen = [];
    queue.onDidChange((state) => seen.push(state));
  });
  afterEach(() => queue.dispose());

  const texts = () => queue.state.items.map((i) => i.text);

  it('gives the follow-ups back one at a time, in the order they were queued', () => {
    queue.add('one');
    queue.add('two');
    queue.add('three');
    assert.equal(queue.takeNext()?.text, 'one');
    assert.equal(queue.takeNext()?.text, 'two');
    assert.deepEqual(texts(), ['three']);
    assert.equal(seen.length, 5, 'every change is told');
  });

  it('holds the queue while its first follow-up is edited, so an edit keeps its turn', () => {
    queue.add('one');
    queue.add('two');
    const [first] = queue.state.items;
    queue.update(first.id, { editing: true });
    assert.equal(queue.takeNext(), undefined);
    queue.update(first.id, { text: 'one, edited', editing: false });
    assert.equal(queue.takeNext()?.text, 'one, edited');
  });

  it('removes a follow-up edited to nothing, and ids that are not queued change nothing', () => {
    queue.add('one');
    queue.update(queue.state.items[0].id, { text: '  ' });
    assert.deepEqual(texts(), []);
    assert.equal(queue.update('nope', { text: 'x' }), false);
    assert.equal(queue.remove('nope'), false);
    assert.equal(queue.take('nope'), undefined);
  });

  it('pauses after a stopped turn until the user sends one, which resumes it', () => {
    queue.add('one');
    queue.add('two');
    queue.pause();
    assert.equal(queue.state.paused, true);
    assert.equal(queue.takeNext(), undefined);
    assert.equal(queue.take(queue.state.items[1].id)?.text, 'two');
    assert.equal(queue.state.paused, false);
    assert.equal(queue.takeNext()?.text, 'one');
  });

  it('does not pause an empty queue, and an emptied queue is not paused', () => {
    queue.pause();
    assert.equal(queue.state.paused, false);
    queue.add('one');
    queue.pause();
    queue.remove(queue.state.items[0].id);
    assert.equal(queue.state.paused, false);
  });

  it('bounds how many follow-ups wait and how long each is', () => {
    for (let i = 0; i < 50; i++) assert.equal(queue.add(`m${i}`), true);
    assert.equal(queue.add('one too many'), false);
    assert.equal(queue.size, 50);
    const fresh = new PromptQueue();
    fresh.add('x'.repeat(200_000));
    assert.equal(fresh.state.items[0].text.length, 100_000);
    fresh.dispose();
  });

  it('hands out copies: what a listener holds does not change with the queue', () => {
    queue.add('one');
    const before = queue.state;
    queue.update(before.items[0].id, { text: 'two' });
    assert.equal(before.items[0].text, 'one');
  });
});
