// The frame every queue's consumer shares: a message the Worker cannot read is dropped without stopping the others,
// each job's verdict decides its message, and a job that throws is tried again after its queue's delay.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { queueConsumer } from '../../../worker/queue-consumer';

type Decision = 'ack' | { retryAfter: number | undefined };

function batchOf(bodies: unknown[], attempts = 3) {
  const decided = new Map<unknown, Decision>();
  const messages = bodies.map((body, index) => ({
    id: `m-${index}`,
    timestamp: new Date(),
    attempts,
    body,
    ack: () => decided.set(body, 'ack'),
    retry: (options?: { delaySeconds?: number }) => decided.set(body, { retryAfter: options?.delaySeconds }),
  }));
  return { batch: { queue: 'test', messages, ackAll: () => {}, retryAll: () => {} } as unknown as MessageBatch<unknown>, decided };
}

describe('a queue consumer', () => {
  it('drops an unreadable message, acks a done one, retries as its job says, and after an error by the tries so far', async () => {
    const ran: number[] = [];
    const consume = queueConsumer({
      what: 'test job',
      message: z.object({ n: z.number().int() }),
      run: async (_db, _env, { n }, attempts) => {
        ran.push(n);
        if (n === 2) return { retryInSeconds: 30 };
        if (n === 3) throw new Error('the database is not answering');
        return attempts === 3 ? 'done' : { retryInSeconds: 1 };
      },
      retryAfterError: (attempts) => attempts * 100,
    });
    const unreadable = { n: 'one' };
    const [one, two, three, four] = [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }];
    const { batch, decided } = batchOf([one, unreadable, two, three, four]);
    await consume(batch, env);

    expect(ran).toEqual([1, 2, 3, 4]);
    expect([...decided.entries()]).toEqual([
      [one, 'ack'],
      [unreadable, 'ack'],
      [two, { retryAfter: 30 }],
      [three, { retryAfter: 300 }],
      [four, 'ack'],
    ]);
  });

  it('runs one message after another, or the whole batch at once when its job asks', async () => {
    const overlap = async (inParallel: boolean) => {
      let running = 0;
      let most = 0;
      const consume = queueConsumer({
        what: 'test job',
        message: z.number(),
        inParallel,
        run: async () => {
          running += 1;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 0));
          running -= 1;
          return 'done';
        },
        retryAfterError: () => 1,
      });
      const { batch, decided } = batchOf([1, 2, 3]);
      await consume(batch, env);
      expect([...decided.values()]).toEqual(['ack', 'ack', 'ack']);
      return most;
    };
    expect(await overlap(false)).toBe(1);
    expect(await overlap(true)).toBe(3);
  });
});
