// A small RFC 4180 reader: comma-separated, fields optionally in double quotes (with "" for a
// quote, and line breaks allowed inside quotes), CRLF or LF line ends, a UTF-8 BOM ignored.

export interface CsvRow {
  /** 1-based line number where the row starts, for per-row messages. */
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {}

export function parseCsv(text: string): CsvRow[] {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: CsvRow[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let rowLine = 1;
  let quoted = false;
  let i = 0;
  const endRow = () => {
    fields.push(field);
    if (fields.length > 1 || fields[0].trim() !== '') rows.push({ line: rowLine, fields });
    fields = [];
    field = '';
  };
  while (i < input.length) {
    const char = input[i];
    if (quoted) {
      if (char === '"' && input[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else {
        if (char === '\n') line += 1;
        field += char;
      }
      i += 1;
      continue;
    }
    if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      endRow();
      if (char === '\r' && input[i + 1] === '\n') i += 1;
      line += 1;
      rowLine = line;
    } else field += char;
    i += 1;
  }
  if (quoted) throw new CsvSyntaxError(`Unclosed quote in the row starting on line ${rowLine}`);
  if (field !== '' || fields.length > 0) endRow();
  return rows;
}
