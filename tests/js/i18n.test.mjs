// Every message the interface shows has a Spanish translation (src/i18n/es/*.json), with the
// same printf placeholders in the same order, and every text an ImGui call shows goes
// through tr() or N_() (i18n.h). Reads the sources: no build needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const src = join(root, 'src');

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(cpp|h)$/.test(name) ? [path] : [];
  });
}

// A C++ string literal's text (the escapes the sources use).
const unescape = (body) => body.replace(/\\(n|t|"|\\)/g, (_, c) => ({ n: '\n', t: '\t', '"': '"', '\\': '\\' })[c]);
const LITERALS = String.raw`((?:"(?:[^"\\]|\\.)*"\s*)+)`;
const joinLiterals = (text) => [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => unescape(m[1])).join('');

// Every tr("…") and N_("…") (adjacent literals joined), with where it is.
function messages() {
  const found = new Map();
  const call = new RegExp(String.raw`\b(?:tr|N_)\(\s*` + LITERALS + String.raw`\)`, 'g');
  for (const file of sources(src)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(call)) {
      const english = joinLiterals(m[1]).split('##')[0];
      if (!found.has(english)) found.set(english, `${relative(root, file)}:${text.slice(0, m.index).split('\n').length}`);
    }
  }
  // The page's own words: labText('…') in its scripts, and its elements marked data-i18n (the
  // text), data-i18n-title and data-i18n-label (the title and aria-label attributes).
  const web = join(root, 'web');
  for (const name of readdirSync(web).filter((n) => /\.(js|html)$/.test(n))) {
    const text = readFileSync(join(web, name), 'utf8');
    const where = (index) => `web/${name}:${text.slice(0, index).split('\n').length}`;
    for (const m of text.matchAll(/labText\('((?:[^'\\]|\\.)*)'\)/g)) found.set(m[1], where(m.index));
    for (const m of text.matchAll(/<[^>]*\sdata-i18n(?:\s[^>]*)?>([^<]+)</g)) found.set(m[1], where(m.index));
    for (const m of text.matchAll(/<[^>]*\stitle="([^"]+)"[^>]*\sdata-i18n-title[\s>]/g)) found.set(m[1], where(m.index));
    for (const m of text.matchAll(/<[^>]*\saria-label="([^"]+)"[^>]*\sdata-i18n-label[\s>]/g)) found.set(m[1], where(m.index));
  }
  return found;
}

function spanish() {
  const dir = join(src, 'i18n', 'es');
  const table = new Map();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const entries = Object.entries(JSON.parse(readFileSync(join(dir, name), 'utf8')));
    for (const [english, translated] of entries) {
      if (table.has(english)) assert.fail(`"${english}" is translated twice (es/${name} and es/${table.get(english).file})`);
      table.set(english, { translated, file: name });
    }
  }
  return table;
}

const placeholders = (text) => [...text.matchAll(/%[-+ #0]*(\d+|\*)?(\.(\d+|\*))?(z|l|ll|h)?[diufeEgGxXcsp%]/g)].map((m) => m[0]);

test('every message has a Spanish translation with the same placeholders', () => {
  const table = spanish();
  const found = messages();
  assert.ok(found.size > 50, `only ${found.size} messages found: is the scan broken?`);
  const missing = [...found].filter(([english]) => !table.has(english) || !table.get(english).translated.trim());
  assert.deepEqual(missing.map(([english, where]) => `${where}: "${english}"`), [], 'messages without a translation');
  for (const [english, { translated, file }] of table) {
    assert.deepEqual(placeholders(translated), placeholders(english), `es/${file}: "${english}" → "${translated}"`);
    assert.ok(!translated.includes('##'), `es/${file}: "${english}": a translation carries no ImGui id`);
  }
});

test('no translation is left without its message in the code', () => {
  const found = messages();
  const stale = [...spanish()].filter(([english]) => !found.has(english)).map(([english, { file }]) => `es/${file}: "${english}"`);
  assert.deepEqual(stale, [], 'translations of messages the code no longer has');
});

// Names and notation that are the same in every language.
const UNTRANSLATED = new Set(['Attention Lab', 'softmax(QKᵀ / √d_k) · V', 'English', 'Español']);

test('every text an ImGui call shows goes through tr()', () => {
  const shown = new RegExp(String.raw`ImGui::(Text|TextUnformatted|TextWrapped|TextDisabled|BulletText|Button|SmallButton|Checkbox|` +
    String.raw`RadioButton|Selectable|MenuItem|BeginMenu|SetTooltip|CollapsingHeader|BeginCombo|BeginTabItem|` +
    String.raw`SliderInt|SliderFloat|InputInt|InputFloat|InputText|LabelText|TextColored\([^,()]+(?:\([^()]*\))?,)\(?\s*` + LITERALS, 'g');
  const raw = [];
  for (const file of sources(join(src, 'ui'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(shown)) {
      const literal = joinLiterals(m[2]).split('##')[0];
      // Format strings without words ("%s", "%.3f"), hidden ids and symbols are not messages.
      if (!/[A-Za-z]{2,}/.test(literal.replace(/%[-+ #0]*\d*(\.\d+)?[a-z]/g, '')) || UNTRANSLATED.has(literal)) continue;
      raw.push(`${relative(root, file)}:${text.slice(0, m.index).split('\n').length}: "${literal}"`);
    }
  }
  assert.deepEqual(raw, [], 'texts shown without tr()');
});

// The fonts are cut down to a list of characters at build time (src/ui/CMakeLists.txt): every
// character of every message, in both languages (á é í ó ú ü ñ ¿ ¡ «»), must have survived.
test('the embedded fonts carry every character of every message', () => {
  const fonts = process.env.ATTN_FONTS_DIR || join(root, 'build', 'native', 'src', 'ui', 'fonts');
  const python = process.env.ATTN_FONT_PYTHON || '/usr/bin/python3';  // Debian's, with fontTools
  const characters = new Set();
  for (const [english, { translated }] of spanish()) for (const c of english + translated) characters.add(c);
  for (const name of ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSansMono.ttf']) {
    const cmap = JSON.parse(execFileSync(python, ['-c',
      'import json, sys; from fontTools.ttLib import TTFont; print(json.dumps(sorted(TTFont(sys.argv[1]).getBestCmap())))',
      join(fonts, name)], { encoding: 'utf8' }));
    const has = new Set(cmap);
    const missing = [...characters].filter((c) => !/\s/.test(c) && !has.has(c.codePointAt(0)));
    assert.deepEqual(missing, [], `${name} lacks characters the messages use`);
  }
});
