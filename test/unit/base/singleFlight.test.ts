import * as assert from 'node:assert/strict';
import { SingleFlight } from '../../../src/base/singleFlight';

describe('SingleFlight', () => {
  it('is the current run until it settles, then starts afresh', async () => {
    const flight = new SingleFlight();
    let release!: () => void;
    const run = flight.start(() => new Promise<void>((r) => (release = r)));
    assert.equal(flight.current, run);
    release();
    await run;
    assert.equal(flight.current, undefined, 'a settled run is forgotten');
  });

  it('aborts the signal on cancel and forgets the run, so a late end does not clear the next one', async () => {
    const flight = new SingleFlight();
    let firstSignal!: AbortSignal;
    let releaseFirst!: () => void;
    const first = flight.start((signal) => {
      firstSignal = signal;
      return new Promise<void>((r) => (releaseFirst = r));
    });
    flight.cancel();
    assert.equal(firstSignal.aborted, true);
    assert.equal(flight.current, undefined);
    let releaseSecond!: () => void;
    const second = flight.start(() => new Promise<void>((r) => (releaseSecond = r)));
    releaseFirst();
    await first;
    assert.equal(flight.current, second, 'the cancelled run ending later leaves the new one current');
    releaseSecond();
    await second;
    assert.equal(flight.current, undefined);
  });

  it('forgets a run that failed, and passes its failure on', async () => {
    const flight = new SingleFlight();
    await assert.rejects(
      flight.start(async () => {
        throw new Error('no');
      }),
      /no/,
    );
    assert.equal(flight.current, undefined);
  });
});
