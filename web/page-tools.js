// The page's side of export and accessibility (src/app/page_tools.h): downloads, the
// clipboard, the screen-reader table and live region, the system's colour scheme and motion
// preference, the page's visibility (drawing on demand), and Tab on the canvas. index.html
// calls attentionLabTools(Module, api, call) once, before the app loads; it adds these hooks
// to Module and these calls to the page API:
//
//   attentionLab.exportText('csv' | 'json' | 'embed')   what an export gives, as text
//   attentionLab.embedCode()                            the <attention-lab …> line on screen
//   attentionLab.download('png' | 'csv' | 'json')       a download, as the Export menu makes
//   attentionLab.copyEmbedCode()                        "Copy embed code", as the menu does
'use strict';
window.attentionLabTools = function (Module, api, call) {
  const KINDS = { png: 0, csv: 1, json: 2, embed: 3 };
  const kind = (name, allowed) => {
    if (!allowed.includes(name)) throw new TypeError('expected one of ' + allowed.join(', '));
    return KINDS[name];
  };
  const ready = () => Module.calledRun;
  const message = text => { if (ready()) call('lab_export_message', null, ['string'], [text]); };

  api.exportText = name => call('lab_export_text', 'string', ['number'], [kind(name, ['csv', 'json', 'embed'])]);
  api.embedCode = () => api.exportText('embed');
  api.download = name => call('lab_export', null, ['number'], [kind(name, ['png', 'csv', 'json'])]);
  api.copyEmbedCode = () => call('lab_export', null, ['number'], [KINDS.embed]);

  // [downloads] bytes from C++: text as is, RGBA pixels encoded as PNG through a canvas.
  function save(blob, name) {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }
  Module.labDownload = (name, mime, bytes, width, height) => {
    if (mime !== 'image/png') return save(new Blob([bytes], { type: mime }), name);
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    canvas.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(bytes.buffer), width, height), 0, 0);
    canvas.toBlob(blob => blob ? save(blob, name) : message('The browser could not encode the PNG.'), 'image/png');
  };

  // [clipboard] navigator.clipboard where the page may write to it; otherwise the Export menu
  // keeps the line selectable and says so.
  Module.labCopy = text => {
    const refused = () => message('The browser refused the clipboard here: select the line above and copy it (Ctrl+C).');
    if (!navigator.clipboard || !window.isSecureContext) return refused();
    navigator.clipboard.writeText(text).then(() => message('Copied: paste it into your lesson page.'), refused);
  };

  // [screen readers] the current stage as a table, the focused cell as an announcement.
  const table = document.getElementById('stage-table');
  const live = document.getElementById('live');
  Module.labTable = t => {
    const cell = (tag, text, scope) => {
      const el = document.createElement(tag);
      el.textContent = text;
      if (scope) el.scope = scope;
      return el;
    };
    const caption = document.createElement('caption');
    caption.textContent = t.caption;
    const head = document.createElement('tr');
    head.append(cell('td', ''), ...t.columns.map(c => cell('th', c, 'col')));
    const rows = t.rows.map((label, r) => {
      const tr = document.createElement('tr');
      if (r === t.selected) tr.setAttribute('aria-current', 'true');
      tr.append(cell('th', label, 'row'), ...t.cells[r].map(v => cell('td', v)));
      return tr;
    });
    table.replaceChildren(caption, head, ...rows);
    live.textContent = t.caption;
  };
  Module.labAnnounce = text => { live.textContent = text; };

  // [preferences] the system's scheme (for theme=auto) and motion, followed live.
  const dark = matchMedia('(prefers-color-scheme: dark)');
  const still = matchMedia('(prefers-reduced-motion: reduce)');
  const tellPreferences = () => {
    if (ready()) call('lab_set_preferences', null, ['number', 'number'], [dark.matches ? 1 : 0, still.matches ? 1 : 0]);
  };
  dark.addEventListener('change', tellPreferences);
  still.addEventListener('change', tellPreferences);

  // [visibility] the app draws nothing while the page is hidden or its canvas is out of view
  // (a lesson page may hold several instances); it reads Module.labHidden every tick.
  let onScreen = true;
  const tellVisibility = () => { Module.labHidden = document.hidden || !onScreen; };
  document.addEventListener('visibilitychange', tellVisibility);
  if (window.IntersectionObserver) {
    new IntersectionObserver(entries => {
      onScreen = entries[entries.length - 1].isIntersecting;
      tellVisibility();
    }).observe(Module.canvas);
  }
  tellVisibility();

  // [Tab] moves between the canvas's focus zones, then leaves the canvas as on any page.
  // Registered before GLFW's own listener, which would keep every Tab inside.
  window.addEventListener('keydown', event => {
    if (event.key !== 'Tab' || document.activeElement !== Module.canvas || !ready()) return;
    event.stopImmediatePropagation();
    if (call('lab_tab', 'number', ['number'], [event.shiftKey ? 1 : 0])) event.preventDefault();
  }, true);
};
