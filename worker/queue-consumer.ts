// Every queue's consumer has the same frame (index.ts hands each queue's batches to its own): one database for the
// batch; each message read as outside data, one the Worker cannot read logged and dropped rather than tried forever;
// each message's job says whether it is done or when to try it again; a job that throws (our database or a partner
// not answering) is tried again after its queue's delay.
import type { z } from 'zod';
import { type Db, openDatabase } from './db';
import type { Env } from './env';
import { log } from './lib/log';

/** What became of a message: done, or tried again after this many seconds. */
export type MessageVerdict = 'done' | { retryInSeconds: number };

export interface QueueJob<T> {
  /** What one message asks for, as the log names it: "order submission". */
  what: string;
  message: z.ZodType<T>;
  /** The batch's messages at once rather than one after another: for jobs that each claim their own row first. */
  inParallel?: boolean;
  run(db: Db, env: Env, message: T, attempts: number): Promise<MessageVerdict>;
  /** Seconds before a message whose job threw is tried again, by the tries so far. */
  retryAfterError(attempts: number): number;
}

export function queueConsumer<T>(job: QueueJob<T>): (batch: MessageBatch<unknown>, env: Env) => Promise<void> {
  return async (batch, env) => {
    // As a request's: one-shot statements over HTTP; a Pool opens only for a transaction.
    const { db, close } = openDatabase(env);
    const consume = async (message: Message<unknown>) => {
      const parsed = job.message.safeParse(message.body);
      if (!parsed.success) {
        log.error(`unreadable ${job.what} dropped`, { body: message.body });
        message.ack();
        return;
      }
      try {
        const verdict = await job.run(db, env, parsed.data, message.attempts);
        if (verdict === 'done') message.ack();
        else message.retry({ delaySeconds: verdict.retryInSeconds });
      } catch (error) {
        log.warn(`${job.what} failed; tried again later`, { body: message.body, error: error instanceof Error ? error.message : String(error) });
        message.retry({ delaySeconds: job.retryAfterError(message.attempts) });
      }
    };
    try {
      if (job.inParallel) await Promise.all(batch.messages.map(consume));
      else for (const message of batch.messages) await consume(message);
    } finally {
      await close();
    }
  };
}
