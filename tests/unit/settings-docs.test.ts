// @vitest-environment node
/**
 * The docs check of the settings table: OPERATORS.md's "Build settings" table has one row
 * per setting of utils/build/operator/settings-table.ts, in its order, with its key, environment
 * variable, default and meaning, and nothing else. A setting added to the table fails here until
 * OPERATORS.md (and panel.config.example.json, panel-config.test.ts) has it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTING_ROWS, readmeRow } from '../../utils/build/operator/settings-table';

describe('OPERATORS.md, "Build settings"', () => {
  it('lists every setting of the table, and only those, as the table describes it', () => {
    const doc = readFileSync('OPERATORS.md', 'utf8');
    const start = doc.indexOf('\n## Build settings');
    const section = start < 0 ? '' : doc.slice(start, doc.indexOf('\n## ', start + 1));
    const rows = section.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows).toEqual(SETTING_ROWS.map(readmeRow));
  });
});
