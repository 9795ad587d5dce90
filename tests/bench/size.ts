/**
 * `npm run bench:size`: the background of the Chrome and the Firefox build, module by module (source
 * file or package), raw and gzip (background-size.ts). About half a minute; prints the table and
 * writes every figure to .output/bench-size/modules.json. Measures only.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureBackground, SIZE_OUT_DIR } from './background-size';
import { modulesTable } from './report-modules';

const size = measureBackground();
writeFileSync(join(SIZE_OUT_DIR, 'modules.json'), `${JSON.stringify(size, null, 2)}\n`);
console.log(`\n${modulesTable(size).join('\n')}\n`);
console.log(`[bench:size] wrote ${join(SIZE_OUT_DIR, 'modules.json')}`);
