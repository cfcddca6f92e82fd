// The dashboard's figures per UTC day (drizzle/schema.ts dashboardDays). The triggers of migration 0019 add each
// writing statement's change to dashboard_day_changes; the cron folds those into dashboard_days, one statement
// that deletes what it folds, so a change is counted in exactly one of the two at any moment and two folds at
// once never count one twice. Readers take both (dashboardFigures).
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db';

const FIGURES = ['deposits_kobo', 'bank_transfers_kobo', 'reversed_kobo', 'admin_credits_kobo', 'spend_kobo', 'cost_kobo', 'orders', 'new_users'];
const columns = sql.raw(FIGURES.join(', '));
const sums = sql.raw(FIGURES.map((name) => `sum(${name})`).join(', '));
const added = sql.raw(FIGURES.map((name) => `${name} = dashboard_days.${name} + excluded.${name}`).join(', '));

/** Cron: folds the changes written since the last run into the days. */
export async function foldDashboardDays(db: DbOrTx): Promise<{ folded: number }> {
  const { rows } = await db.execute<{ folded: number }>(sql`
    with moved as (delete from dashboard_day_changes returning day, order_status, ${columns}),
    folded as (
      insert into dashboard_days (day, order_status, ${columns})
      select day, order_status, ${sums} from moved group by day, order_status
      on conflict (day, order_status) do update set ${added}
    )
    select count(*)::int as folded from moved`);
  return { folded: rows[0].folded };
}

/** The figures of every day from `firstDay` (an SQL date), folded or not, one row per day and order status. */
export const dashboardFigures = (firstDay: ReturnType<typeof sql>) => sql`(
  select day, order_status, ${columns} from dashboard_days where day >= ${firstDay}
  union all
  select day, order_status, ${columns} from dashboard_day_changes where day >= ${firstDay}
)`;
