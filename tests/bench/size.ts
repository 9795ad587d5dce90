/**
 * `npm run bench:size`: the background of the Chrome and the Firefox build, module by module (source
 * file or package), raw and gzip (background-size.ts), and the popup's first load in Chrome the same
 * way, script by script. About half a minute; prints the tables and writes every figure to
 * .output/bench-size/modules.json. Measures only.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureBackground, readScripts, SIZE_OUT_DIR } from './background-size';
import { modulesTable, scriptTable } from './report-modules';
import { popupFirstLoad } from './sizes';

const size = measureBackground();
const chrome = join(SIZE_OUT_DIR, 'chrome-mv3');
const popup = readScripts(
  chrome,
  popupFirstLoad(chrome).filter((file) => file.endsWith('.js')),
);
writeFileSync(join(SIZE_OUT_DIR, 'modules.json'), `${JSON.stringify({ ...size, popup }, null, 2)}\n`);
console.log(`\n${modulesTable(size).join('\n')}\n`);
console.log(`Popup, first load (Chrome), script by script:\n\n${popup.flatMap(scriptTable).join('\n')}\n`);
console.log(`[bench:size] wrote ${join(SIZE_OUT_DIR, 'modules.json')}`);
