// One Spanish term per concept (src/i18n/glossary.json): the Spanish lesson's text and the
// interface's Spanish strings use none of the variants the glossary bans ("núcleo" beside
// "kernel", "desviación estándar" beside "típica", "teselas" beside "bloques", "el jacobiano"
// beside "la jacobiana", "rellenar" for filling masked scores when it means padding, "se apaga"
// for a gradient that fades where "apagar" means switching a head off, "Numérica" as a title). Reads the
// sources: no build needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const glossary = JSON.parse(readFileSync(join(root, 'src/i18n/glossary.json'), 'utf8'));

// The words a Spanish reader sees: the page's text and attributes (tags' names and the code
// blocks' NumPy are not Spanish) and strings (web/lesson/, the sources of leccion.html), and
// every translation's value.
function spanishTexts() {
  const page = readFileSync(join(root, 'web/lesson/es.html'), 'utf8')
    .replace(/<pre><code>[\s\S]*?<\/code><\/pre>/g, ' ')
    .replace(/<(\/?[a-z-]+)([^>]*)>/gi, (_, tag, attributes) => ' ' + [...attributes.matchAll(/(?:title|aria-label)="([^"]*)"/g)].map(m => m[1]).join(' ') + ' ');
  const texts = [{ where: 'web/lesson/es.html', text: page }];
  for (const [name, value] of Object.entries(JSON.parse(readFileSync(join(root, 'web/lesson/es.json'), 'utf8'))))
    texts.push({ where: `web/lesson/es.json: ${name}`, text: value });
  const dir = join(root, 'src/i18n/es');
  for (const name of readdirSync(dir).filter(n => n.endsWith('.json')))
    for (const [english, spanish] of Object.entries(JSON.parse(readFileSync(join(dir, name), 'utf8'))))
      texts.push({ where: `src/i18n/es/${name}: "${english.slice(0, 50)}…"`, text: spanish });
  return texts;
}

test('the glossary is well formed: one term per concept, its banned variants valid patterns', () => {
  const concepts = glossary.terms.map(t => t.concept);
  assert.equal(new Set(concepts).size, concepts.length, 'each concept once');
  for (const term of glossary.terms) {
    assert.ok(term.use.length > 0, term.concept);
    for (const banned of term.banned) {
      const pattern = new RegExp(banned, 'iu');
      // A banned variant is not the term itself.
      for (const used of term.use.split(/,\s*/)) assert.ok(!pattern.test(used), `${term.concept}: "${banned}" bans "${used}"`);
    }
  }
});

test('the Spanish lesson and interface use no banned variant', () => {
  const texts = spanishTexts();
  assert.ok(texts.length > 100, `${texts.length} texts read`);
  const found = [];
  for (const term of glossary.terms)
    for (const banned of term.banned) {
      const pattern = new RegExp(banned, 'iu');
      for (const { where, text } of texts) {
        const m = pattern.exec(text);
        if (m) found.push(`${where}: "${m[0]}" (${term.concept}: use "${term.use}")`);
      }
    }
  assert.deepEqual(found, []);
});

test('the check finds a banned variant where one is written', () => {
  // The test above would pass on an empty list of texts or patterns: these must be caught.
  const samples = { 'un núcleo cuidadoso': 'kernel', 'la desviación estándar': 'desviación típica',
                    'las teselas': 'bloque', 'el jacobiano': 'la jacobiana',
                    'rellenar las puntuaciones enmascaradas': 'enmascarar con',
                    'dS se apaga hacia cero': 'desvanecerse', 'desactivar la cabeza 0.0': 'apagar',
                    'el capítulo de numérica': 'cálculo numérico' };
  for (const [sample, use] of Object.entries(samples)) {
    const term = glossary.terms.find(t => t.use.startsWith(use));
    assert.ok(term && term.banned.some(b => new RegExp(b, 'iu').test(sample)), `"${sample}" is caught`);
  }
});
