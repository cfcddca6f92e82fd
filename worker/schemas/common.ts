import { z } from './zod';

/** What the shop takes as an email address (sign-up, sign-in, an administrator's filter). */
export const EMAIL_PATTERN = /^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}$/i;

/** Lists are always paginated and capped, so no call can ask for the whole table. */
export const MAX_PAGE_SIZE = 100;

export const paginationSchema = z.object({
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int({ error: 'page must be a whole number' })
    .min(1, { error: 'page must be at least 1' })
    .max(100_000)
    .default(1),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(MAX_PAGE_SIZE, { error: `limit must be at most ${MAX_PAGE_SIZE}` })
    .default(20),
});
export type Pagination = z.infer<typeof paginationSchema>;

/** A list's answer: one page of it, where that page is, and how many there are in all. */
/** A list's answer; `totalCapped` when the list counted no further than its cap (worker/lib/paging.ts) and there are more. */
export const listPage = <T>(
  message: string,
  { page, limit }: Pagination,
  { data, total, totalCapped = false }: { data: T[]; total: number; totalCapped?: boolean },
) => ({
  message,
  data,
  page,
  limit,
  total,
  totalCapped,
});

/** How long a typed text may be, and the message a person reads for each way it is not. */
interface TextLimits {
  /** When the text is missing, not text or empty (or shorter than `min`, without a `tooShort` of its own). */
  required: string;
  min?: number;
  tooShort?: string;
  max: number;
  tooLong: string;
}

/** Text a person types, trimmed, within its limits. */
export const trimmedText = ({ required, min = 1, tooShort = required, max, tooLong }: TextLimits) =>
  z.string({ error: required }).trim().min(min, { error: tooShort }).max(max, { error: tooLong });

export const idParam = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int({ error: `${name} must be a whole number` })
    .positive({ error: `${name} must be positive` })
    .max(2_147_483_647, { error: `${name} is out of range` });

/** A calendar date that exists (no 2024-02-30) and that Postgres can hold (it has no year 0), as YYYY-MM-DD text. */
export const dateQueryParam = (name: string) =>
  z
    .string()
    .trim()
    .pipe(
      z.iso.date({ error: `${name} must be a date (YYYY-MM-DD)` }).refine((value) => value >= '0001-01-01', { error: `${name} must be a date (YYYY-MM-DD)` }),
    )
    .optional();
