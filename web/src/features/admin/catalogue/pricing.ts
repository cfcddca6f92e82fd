// Price arithmetic for the catalogue screens, in kobo and basis points as the server does it
// (worker/services/catalogue/margin.ts): price = ceil(cost × (1 + markup)), never below 1 kobo.
import { percentField } from '@schemas/catalogue';

/** A percentage typed by an administrator ("12.5") in basis points, or null when unreadable. */
export function percentToBps(text: string): number | null {
  const parsed = percentField('Markup').safeParse(text.trim());
  return parsed.success ? parsed.data : null;
}

export function priceWithMarkup(costKobo: bigint, markupBps: number): bigint {
  const scaled = costKobo * BigInt(10_000 + markupBps);
  const price = scaled / 10_000n + (scaled % 10_000n === 0n ? 0n : 1n);
  return price > 0n ? price : 1n;
}

/** The first problem of a percentage field, or null when it is fine ('' means "inherit" where allowed). */
export function markupProblem(text: string, { allowBlank, name = 'Markup' }: { allowBlank: boolean; name?: string }): string | null {
  if (text.trim() === '') return allowBlank ? null : `${name} is required`;
  const parsed = percentField(name).safeParse(text.trim());
  return parsed.success ? null : parsed.error.issues[0].message;
}
