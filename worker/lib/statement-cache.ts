// A large statement built with Drizzle once per isolate and shape, each call only filling in its values. Walking
// Drizzle's tree of a statement as large as the order placing one costs a millisecond of the Worker's CPU under
// load, the largest part of its own work on the shop's busiest call (README, `npm run bench`), and the text never
// changes between calls of the same shape.
import { fillPlaceholders, Param, SQL, StringChunk } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

const dialect = new PgDialect();

interface CompiledStatement {
  /** The text around the parameters: one more piece than there are parameters. */
  pieces: string[];
  /** The parameters in order: constants, and sql.placeholder(name) for what each call fills in. */
  params: unknown[];
}

function compile(statement: SQL): CompiledStatement {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  const [first, ...rest] = text.split(/\$(\d+)/);
  const pieces = [first];
  for (let i = 0; i < rest.length; i += 2) {
    // Drizzle numbers the parameters in the order they appear; a `$n` of another kind in the text would be misread.
    if (Number(rest[i]) !== i / 2 + 1) throw new Error(`statement-cache: parameter $${rest[i]} out of order`);
    pieces.push(rest[i + 1]);
  }
  if (pieces.length !== params.length + 1) throw new Error('statement-cache: the text does not match its parameters');
  return { pieces, params };
}

/**
 * `build(shape)` writes the statement with sql.placeholder(name) for each value that changes from call to call
 * (`new Param(sql.placeholder(name), column)` to have the column encode it); `keyOf(shape)` names what changes its
 * text, and must take few values. The answer is a function of a call's shape and values to the statement to execute.
 */
export function statementCache<TShape>(keyOf: (shape: TShape) => string, build: (shape: TShape) => SQL) {
  const compiled = new Map<string, CompiledStatement>();
  return (shape: TShape, values: Record<string, unknown>): SQL => {
    const key = keyOf(shape);
    let statement = compiled.get(key);
    if (!statement) {
      statement = compile(build(shape));
      compiled.set(key, statement);
    }
    const { pieces, params } = statement;
    const filled = fillPlaceholders(params, values);
    return new SQL([new StringChunk(pieces[0]), ...filled.flatMap((value, i) => [new Param(value), new StringChunk(pieces[i + 1])])]);
  };
}
