// The lesson is one tap from the lab: the header's Lesson button opens it in the language on
// screen, and the served site's lesson links back to the lab.
import test from 'node:test';
import assert from 'node:assert/strict';
import { centre, findItem, labSession, openLab } from './harness.mjs';

const session = labSession();

for (const [lang, page] of [['en', 'lesson.html'], ['es', 'leccion.html']]) {
  test(`the header's ${lang === 'es' ? 'Lección' : 'Lesson'} opens ${page}`, async () => {
    const { page: lab, errors } = await openLab(session.browser.context, session.server.url, `lang=${lang}`);
    const button = await findItem(lab, { kind: 'button', label: lang === 'es' ? 'Lección' : 'Lesson' });
    await lab.mouse.click(...centre(button));
    await lab.waitForURL(url => url.pathname.endsWith('/' + page));
    assert.equal(await lab.evaluate(() => document.documentElement.lang), lang);
    assert.ok(await lab.evaluate(() => document.querySelectorAll('main section h2').length >= 12));
    assert.deepEqual(errors, []);
    await lab.close();
  });
}
