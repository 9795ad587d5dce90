// @vitest-environment node
/**
 * The docs check of the settings table (issue 23): the README's "Build settings" table has one row
 * per setting of utils/build/operator/settings-table.ts, in its order, with its key, environment
 * variable, default and meaning, and nothing else. A setting added to the table fails here until
 * the README (and panel.config.example.json, panel-config.test.ts) has it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTING_ROWS, readmeRow } from '../../utils/build/operator/settings-table';

describe('README, "Build settings"', () => {
  it('lists every setting of the table, and only those, as the table describes it', () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('\n## Build settings'), readme.indexOf('\n## ', readme.indexOf('\n## Build settings') + 1));
    const rows = section.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows).toEqual(SETTING_ROWS.map(readmeRow));
  });
});
