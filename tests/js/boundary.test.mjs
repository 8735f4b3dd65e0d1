// The page boundary is one table (src/app/boundary.json): every call into the app, every hook
// the app calls in the page, every message between an instance, a lesson and a notebook, and
// the enumerations both sides name. The page's scripts read the table itself (the build's
// boundary.js); the C++, embed.js and the Python package spell their side's names, and this
// test holds each of them to the table: a name on one side without its counterpart fails.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';
import { webDir } from './cases.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');
const table = JSON.parse(read('src/app/boundary.json'));
const sorted = (names) => [...new Set(names)].sort();
// A file without its comments (whole-line and trailing `//` or `#` ones), so that a name
// mentioned in prose is not taken for one the code uses.
const code = (file) => read(file).split('\n')
  .filter((line) => !/^\s*(\/\/|#)/.test(line))
  .map((line) => line.replace(/\s\/\/\s.*$/, ''))
  .join('\n');
// A folder's sources, without what the build copies into it (the Python package's site/).
const sources = (dir, ext) => fs.readdirSync(path.join(root, dir), { recursive: true })
  .filter((f) => ext.test(f) && !f.startsWith('site' + path.sep)).map((f) => path.join(dir, f));

test('the calls: page_api.cpp exports exactly the table\'s, with its types', () => {
  const api = code('src/app/page_api.cpp');
  const exported = [...api.matchAll(/^PAGE_API ([\w ]+?\*?) ?(lab_\w+)\(([^)]*)\)/gm)];
  assert.deepEqual(sorted(exported.map((m) => m[2])), sorted(Object.keys(table.calls)),
    'page_api.cpp\'s PAGE_API functions and boundary.json\'s "calls"');
  for (const [, ret, name, params] of exported) {
    const want = table.calls[name];
    const returns = ret === 'void' ? null : /char\s*\*$/.test(ret) ? 'string' : 'number';
    assert.equal(want.returns, returns, `${name} returns ${ret}`);
    const types = params.trim() ? params.split(',').map((p) => p.trim()) : [];
    assert.equal(types.length, want.args.length, `${name}(${params}): the table has ${want.args.length} arguments`);
    // ccall passes a 'string' as a char pointer; a 'number' may be an int or a pointer (load.js's
    // malloc'ed texts).
    types.forEach((p, i) => {
      if (want.args[i] === 'string') assert.match(p, /^const char\s*\*/, `${name}'s argument ${i}`);
    });
  }
});

test('the calls: each is made where the table says, and nothing else is called', () => {
  const callers = ['web/page.js', 'web/page-tools.js', 'web/load.js', 'web/embed.js', 'web/lesson.js',
                   'python/attention_lab/boot.js', 'src/app/web_input.cpp'];
  for (const file of callers) {
    for (const [, name] of code(file).matchAll(/['"](lab_\w+)['"]/g))
      assert.ok(table.calls[name], `${file} calls ${name}, which boundary.json does not name`);
  }
  for (const [name, { from }] of Object.entries(table.calls))
    assert.match(code(from), new RegExp(`['"]${name}['"]`), `boundary.json: ${from} calls ${name}`);
  // Outside page.js's call(), which takes the types from the table, a ccall spells them: as
  // the table does.
  for (const file of callers) {
    for (const [, name, ret, args] of code(file).matchAll(/ccall\('(lab_\w+)', (null|'\w+'), \[([^\]]*)\]/g)) {
      const want = table.calls[name];
      assert.equal(ret === 'null' ? null : ret.slice(1, -1), want.returns, `${file}: ${name}'s return type`);
      assert.deepEqual(args ? args.split(',').map((a) => a.trim().slice(1, -1)) : [], want.args, `${file}: ${name}'s types`);
    }
  }
  assert.doesNotMatch(code('web/page-tools.js') + code('web/load.js'), /ccall/, 'the page\'s scripts call through page.js\'s call()');
});

test('the hooks: the C++ calls exactly the table\'s, and the page defines each', () => {
  const cpp = sources('src/app', /\.cpp$/).map(code).join('\n');
  // Module.labX that the C++ sets itself (its own JavaScript's state) is no hook.
  const own = new Set([...cpp.matchAll(/Module\.(lab\w+)\s*=(?!=)/g)].map((m) => m[1]));
  const named = [...cpp.matchAll(/Module\.(lab\w+)/g)].map((m) => m[1]).filter((n) => !own.has(n));
  assert.deepEqual(sorted(named), sorted(Object.keys(table.hooks)), 'the Module.lab… the C++ reads and boundary.json\'s "hooks"');
  for (const [name, hook] of Object.entries(table.hooks)) {
    const defined = new RegExp(`Module\\.${name}\\s*=(?!=)|^\\s*${name}\\(([^)]*)\\)\\s*\\{`, 'm').exec(code(hook.in));
    assert.ok(defined, `boundary.json: ${hook.in} defines Module.${name}`);
    if (defined[1] !== undefined) {
      const params = defined[1].trim() ? defined[1].split(',').map((p) => p.trim()) : [];
      assert.deepEqual(params, hook.args, `${hook.in}: ${name}'s parameters`);
    }
  }
});

test('the messages: each side spells exactly the types it sends or reads', () => {
  const spelled = (text) => sorted([...text.matchAll(/(?<=['"])attention-lab:[a-z]+(?=\\?['"])/g)].map((m) => m[0]));
  const of = (side) => Object.values(table.messages).filter((m) => m.from === side || m.to.includes(side));
  for (const [side, file] of Object.entries(table.sides)) {
    if (side === 'page') continue;  // below: page.js reads the types from the table
    assert.deepEqual(spelled(code(file)), sorted(of(side).map((m) => m.type)), `${file} (${side})`);
  }
  const page = code(table.sides.page);
  assert.deepEqual(spelled(page), [], 'page.js takes the messages\' types from the table');
  assert.deepEqual(sorted([...page.matchAll(/MESSAGE\.(\w+)/g)].map((m) => m[1])),
    sorted(Object.entries(table.messages).filter(([, m]) => m.from === 'page' || m.to.includes('page')).map(([n]) => n)),
    'the messages page.js sends');
  // No other file spells a message type.
  const sides = new Set(Object.values(table.sides));
  for (const file of [...sources('web', /\.(js|html)$/), ...sources('src', /\.(cpp|h|js)$/),
                      ...sources('python/attention_lab', /\.(py|js)$/)]) {
    if (!sides.has(file)) assert.deepEqual(spelled(code(file)), [], `${file} spells a message type`);
  }
  for (const [name, m] of Object.entries(table.messages)) assert.equal(m.type, `attention-lab:${name}`, name);
});

test('the enumerations: export kinds, preferences and the frame\'s height', () => {
  const kinds = /enum class ExportKind \{([^}]*)\}/.exec(read('src/ui/export.h'))[1].split(',').map((k) => k.trim());
  assert.deepEqual(kinds, table.exportKinds, 'ui::ExportKind (src/ui/export.h), in order');

  const names = table.preferences.map((p) => p.name);
  const setter = /lab_set_preferences\(([^)]*)\)/.exec(read('src/app/page_api.cpp'))[1];
  assert.deepEqual(setter.split(',').map((p) => p.trim().replace(/^int /, '')), names, 'lab_set_preferences\'s parameters');
  const fields = /struct Preferences \{\s*bool ([^;]*);/.exec(read('src/app/page_bridge.h'))[1];
  assert.deepEqual(fields.split(',').map((f) => f.trim().replace(/ = false$/, '')), names, 'page::Preferences');
  for (const { query } of table.preferences) {
    for (const file of sources('src', /\.(cpp|h)$/))
      assert.ok(!read(file).includes(query), `${file} spells ${query}: page.js's labPreferences reads it from the table`);
  }

  const { min, max } = table.frameHeight;
  const embed = /const frameHeight = [^\n]*Math\.min\(Math\.max\(Math\.ceil\(x\), (\d+)\), (\d+)\)/.exec(read('web/embed.js'));
  assert.deepEqual([Number(embed[1]), Number(embed[2])], [min, max], 'embed.js\'s frameHeight');
  const python = read('python/attention_lab/_page.py');
  assert.deepEqual(/^FRAME_HEIGHT = \((\d+), (\d+)\)$/m.exec(python).slice(1).map(Number), [min, max], '_page.py\'s FRAME_HEIGHT');
  assert.equal(/^SIZE_MESSAGE = "([^"]*)"$/m.exec(python)[1], table.messages.size.type, '_page.py\'s SIZE_MESSAGE');
});

// The page shows its own background and text before the app's first frame (and around a
// canvas that does not fill it): they must be the theme's, or the page flashes another colour.
test('the page\'s colours are the app\'s theme\'s (src/ui/theme.cpp)', () => {
  const theme = read('src/ui/theme.cpp');
  // ThemeColors' colour fields in order (an array field takes as many values), and kDark's and
  // kLight's values in that order.
  const fields = /struct ThemeColors \{\s*int ([^;]*);\s*int ([^;]*);/.exec(theme);
  assert.ok(fields, 'theme.cpp\'s struct ThemeColors');
  const names = fields.slice(1).join(',').split(',').flatMap((f) => {
    const [, name, count] = /(\w+)(?:\[(\d+)\])?/.exec(f.trim());
    return Array.from({ length: Number(count || 1) }, (_, i) => (count ? `${name}[${i}]` : name));
  });
  const values = (table) => {
    const init = new RegExp(`constexpr ThemeColors ${table}\\{([^;]*)\\};`).exec(theme);
    assert.ok(init, `theme.cpp's ${table}`);
    return init[1].match(/0x[0-9a-f]{6}/g);
  };
  const [dark, light] = [values('kDark'), values('kLight')];
  assert.equal(dark.length, names.length, 'kDark has a colour for each field');
  assert.equal(light.length, names.length, 'kLight has a colour for each field');
  const colour = (table, name) => '#' + table[names.indexOf(name)].slice(2);
  const page = read('web/index.html');
  const body = /\n  html, body \{[^}]*background: (#[0-9a-f]{6}); color: (#[0-9a-f]{6});/.exec(page);
  assert.deepEqual(body.slice(1), [colour(light, 'window'), colour(light, 'text')],
    'index.html\'s light background and text');
  const night = /prefers-color-scheme: dark\) \{ html, body \{ background: (#[0-9a-f]{6}); color: (#[0-9a-f]{6}); \} \}/.exec(page);
  assert.deepEqual(night.slice(1), [colour(dark, 'window'), colour(dark, 'text')],
    'index.html\'s dark background and text');
  // The loading spinner and the load bar's button are the light theme's accent.
  const accents = [/border-top-color: (#[0-9a-f]{6})/, /animation: none; border-color: (#[0-9a-f]{6})/,
    /#load-bar label \{[^}]*background: (#[0-9a-f]{6})/].map((re) => re.exec(page)[1]);
  assert.deepEqual(accents, accents.map(() => colour(light, 'accent')), 'index.html\'s spinner and load button');
});

test('the site\'s boundary.js is the table', () => {
  const file = path.join(webDir, 'boundary.js');
  assert.ok(fs.existsSync(file), `${file} is missing: build the page first (scripts/build.sh web)`);
  const window = {};
  vm.runInNewContext(fs.readFileSync(file, 'utf8'), { window });
  assert.deepEqual(JSON.parse(JSON.stringify(window.attentionLabBoundary)), table);
});
