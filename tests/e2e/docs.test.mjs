// docs/embed.md's table of the page's script interface names every member that the page's
// window.attentionLab has once it is ready, and nothing else: a member added without its
// documentation fails, as does a documented one the page lacks.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { labSession, openLab } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const session = labSession();

// The names in the first column of the tables of the section "## The page's script interface…":
// `getState()` and `on('change', fn)` name getState and on.
function documentedMembers() {
  const doc = fs.readFileSync(path.join(root, 'docs/embed.md'), 'utf8');
  const section = doc.split(/^## /m).find((s) => s.startsWith("The page's script interface"));
  assert.ok(section, "docs/embed.md has a section \"The page's script interface\"");
  return new Set([...section.matchAll(/^\| `([A-Za-z]+)/gm)].map((m) => m[1]));
}

test("every member of window.attentionLab is in docs/embed.md", async () => {
  const { page } = await openLab(session.browser.context, session.server.url);
  const members = await page.evaluate(() => Object.keys(window.attentionLab));
  const documented = documentedMembers();
  assert.ok(members.length >= 15, members.join(', '));
  for (const name of members) assert.ok(documented.has(name), `attentionLab.${name} is not in docs/embed.md`);
  for (const name of documented) assert.ok(members.includes(name), `docs/embed.md names attentionLab.${name}, which the page lacks`);
});
