import type { UrlFilters } from '@/lib/hooks';

/** One choice of a select: a plain string is its own label. */
export type Choice = string | { value: string | number; label: string };

/** The <option>s of a list of choices. */
export function ChoiceOptions({ choices }: { choices: ReadonlyArray<Choice> }) {
  return choices.map((choice) =>
    typeof choice === 'string' ? (
      <option key={choice} value={choice}>
        {choice}
      </option>
    ) : (
      <option key={choice.value} value={choice.value}>
        {choice.label}
      </option>
    ),
  );
}

/** A filter bar's select bound to one URL filter: "all" (no filter) first, then the choices. */
export function FilterSelect({
  filters,
  name,
  label,
  allLabel,
  choices,
}: {
  filters: Pick<UrlFilters, 'get' | 'update'>;
  name: string;
  label: string;
  allLabel: string;
  choices: ReadonlyArray<Choice>;
}) {
  return (
    <select aria-label={label} className="input" value={filters.get(name)} onChange={(e) => filters.update({ [name]: e.target.value })}>
      <option value="">{allLabel}</option>
      <ChoiceOptions choices={choices} />
    </select>
  );
}
