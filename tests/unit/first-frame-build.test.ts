// @vitest-environment node
/**
 * The first-frame script as the release build makes it (entrypoints/first-frame.ts, Vite's library
 * build with the project's first-frame plugin), built from the sources as they are and from the
 * sources with one change applied on the way in:
 *  - an optional field added to a reward row (a model field that may be null, and the line the
 *    row's view shows for it): what every popup opening parses grows by that line's code, never by a
 *    copy of every shape the row can take (as one template per shape did: 70.8 → 119.7 KB);
 *  - a view the first frame paints that holds state (a hook), or an element its renderer has no
 *    rules for (a style object): the build fails, naming it, rather than the popup opening on a
 *    first frame that throws.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build, type Plugin, type Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { signInConfigured } from '../../utils/build-settings';
import { firstFrameModules } from '../../utils/build/first-frame-modules';
import { unpaintable } from '../../utils/build/first-frame-paintable';
import { buildSettings, runtimeSettings } from '../../utils/build/operator/panel-config';

const ROOT = resolve(__dirname, '../..');
const ROW_MODEL = resolve(ROOT, 'components/popup/model/row-model.ts');
const ROW_VIEW = resolve(ROOT, 'components/popup/RewardRow.tsx');

/** A change to one source file, applied as the build reads it; it must find what it changes. */
type Edit = [file: string, change: (code: string) => string];

function edits(list: Edit[]): Plugin {
  return {
    name: 'test:edit-sources',
    enforce: 'pre',
    transform(code, id) {
      const edit = list.find(([file]) => file === id.split('?')[0]);
      if (!edit) return null;
      const changed = edit[1](code);
      if (changed === code) throw new Error(`${id}: the test's edit found nothing to change`);
      return changed;
    },
  };
}

/** The first-frame script's bytes, minified as a release build writes it. */
async function firstFrame(list: Edit[] = []): Promise<string> {
  const runtime = runtimeSettings(buildSettings({ PANEL_CONFIG: 'none' }, 'production'));
  const out = await build({
    root: ROOT,
    configFile: false,
    logLevel: 'silent',
    mode: 'production',
    define: {
      __BUILD_SETTINGS__: JSON.stringify(runtime),
      __SIGN_IN_BUILT__: JSON.stringify(signInConfigured(runtime)),
    },
    plugins: [edits(list), firstFrameModules()],
    build: {
      write: false,
      minify: true,
      lib: { entry: resolve(ROOT, 'entrypoints/first-frame.ts'), formats: ['iife'], name: 'firstFrame' },
    },
  });
  const [result] = [out].flat() as Rolldown.RolldownOutput[];
  return result!.output.find((chunk) => chunk.type === 'chunk')!.code;
}

/** A reward's optional note, in the row's model (null when the panel gave none) and under its name. */
const ROW_NOTE: Edit[] = [
  [
    ROW_MODEL,
    (code) =>
      code.replace(
        /(\n  return \{\n    base,\n)/,
        '$1    note: typeof (choice as { note?: unknown }).note === "string" ? (choice as { note: string }).note : null,\n',
      ),
  ],
  [
    ROW_VIEW,
    (code) =>
      code.replace(
        /(\n\s*<p class="reward-meta">)/,
        '\n{(m as { note?: string | null }).note != null && <p class="reward-note small">{(m as { note: string }).note}</p>}$1',
      ),
  ],
];

/** A row that keeps state of its own: a view the first frame cannot paint. */
const ROW_WITH_STATE: Edit[] = [
  [
    ROW_VIEW,
    (code) =>
      `import { useState } from 'preact/hooks';\nfunction Seen() { const [n] = useState(0); return <span>{n}</span>; }\n${code.replace(
        /(\n\s*<p class="reward-meta">)/,
        '\n<Seen />$1',
      )}`,
  ],
];

/** A row with a style written as an object: an element the first frame's renderer cannot paint. */
const ROW_WITH_STYLE_OBJECT: Edit[] = [
  [
    ROW_VIEW,
    (code) => code.replace(/(\n\s*)<p class="reward-meta">/, '$1<p class="reward-meta" style={{ color: "red" }}>'),
  ],
];

describe('what the first frame’s renderer cannot paint, read from a view’s source', () => {
  it('names SVG, MathML, markup and a style object, where they are', () => {
    const view = [
      'export const A = () => <div>',
      '  <svg aria-hidden="true" />',
      '  <math />',
      '  <p dangerouslySetInnerHTML={{ __html: x }} />',
      '  <p style={{ color: "red" }} />',
      '</div>;',
    ].join('\n');
    expect(unpaintable(view, 'tsx')).toEqual([
      '2:3 <svg>: the first frame paints HTML only',
      '3:3 <math>: the first frame paints HTML only',
      '4:6 <p>: markup (dangerouslySetInnerHTML): the first frame writes text only',
      '5:6 <p>: a style that is not written as a string (an object needs Preact’s rules)',
    ]);
  });

  it('passes HTML with text, attributes and a style written as a string', () => {
    const view =
      'export const A = (m) => <p class="x" style="color: red" style2={`a`} aria-busy={m.busy}>{m.text}</p>;';
    expect(unpaintable(view, 'tsx')).toEqual([]);
    expect(unpaintable('export const a = 1 < 2;', 'ts')).toEqual([]);
  });
});

describe('the first-frame script', () => {
  it('grows by the code of an optional row field, not by a copy of each shape', async () => {
    const before = await firstFrame();
    const after = await firstFrame(ROW_NOTE);
    expect(after).toContain('reward-note');
    const added = after.length - before.length;
    expect(added).toBeGreaterThan(0);
    expect(added).toBeLessThanOrEqual(2048);
    // popup.html holds no markup for the first frame: nothing there grows with the row.
    const page = readFileSync(resolve(ROOT, 'entrypoints/popup/index.html'), 'utf8');
    expect(page).not.toMatch(/<template|reward/);
  }, 120_000);

  it('fails to build when a view it paints holds state', async () => {
    await expect(firstFrame(ROW_WITH_STATE)).rejects.toThrow(/preact\/hooks.*pure views alone/s);
  }, 120_000);

  it('fails to build when a view it paints has an element its renderer cannot paint, naming where', async () => {
    await expect(firstFrame(ROW_WITH_STYLE_OBJECT)).rejects.toThrow(
      /RewardRow\.tsx: the first-frame script cannot paint\n\d+:\d+ <p>: a style that is not written as a string/,
    );
  }, 120_000);
});
