// A reveal.js plugin for decks with <attention-lab> figures (docs/HOSTING.md, "reveal.js"):
//
//   <script src="attention-lab/embed.js"></script>
//   <script src="attention-lab/reveal-attention-lab.js"></script>
//   <script>Reveal.initialize({ plugins: [RevealNotes, RevealAttentionLab] });</script>
//
// - The overview: a click on a figure's thumbnail goes to its slide, as on any other thumbnail
//   (the figures take no pointer while the overview shows).
// - The speaker view: its previews are copies of the deck; each figure there follows the same
//   figure in the audience's window (by its place in the deck), so a row picked on the screen
//   is picked in the preview too, and a preview opened later starts from what the screen shows.
// - Print (?print-pdf): a figure prints as the picture it takes once it has drawn on screen, and
//   a figure draws only in view; the plugin brings each figure into view in turn until every
//   one has its picture, then goes back to the top (the deck is ready to print; its .reveal
//   element then has data-attention-lab-pictures="ready").
// What embed.js does by itself in a deck: keys the figure does not use reach reveal, hidden
// slides' figures do not run, and a scaled slide's figure draws at its scale.
(function () {
  'use strict';
  window.RevealAttentionLab = () => ({
    id: 'attention-lab',
    init(deck) {
      const style = document.createElement('style');
      style.textContent = '.reveal.overview attention-lab{pointer-events:none}';
      document.head.append(style);
      const figures = () => [...deck.getRevealElement().querySelectorAll('attention-lab')];

      // reveal.js 6 says isPrintView(); 4 and 5 isPrintingPDF().
      if ((deck.isPrintView || deck.isPrintingPDF).call(deck)) {
        deck.on('pdf-ready', async () => {
          for (const el of figures()) {
            if (el.pictured) continue;
            const taken = new Promise((resolve) => el.addEventListener('picture', resolve, { once: true }));
            el.scrollIntoView({ block: 'center', behavior: 'instant' });
            await taken;
          }
          window.scrollTo({ top: 0, behavior: 'instant' });
          deck.getRevealElement().dataset.attentionLabPictures = 'ready';
        });
        return;
      }

      if (!window.BroadcastChannel) return;
      // The speaker view's previews load the deck with ?receiver (reveal's notes plugin).
      const channel = new BroadcastChannel('attention-lab-deck:' + location.pathname);
      const follow = (index, state) => {
        const el = figures()[index];
        if (el && state && typeof state === 'object') el.setState(state);
      };
      const tell = (index, state) => channel.postMessage({ index, state });
      if (/[?&]receiver\b/.test(location.search)) {
        channel.onmessage = ({ data }) => data && follow(data.index, data.state);
        channel.postMessage({ ask: true });
        return;
      }
      // A preview that opens asks for what the audience's figures show now.
      channel.onmessage = ({ data }) => {
        if (!data || !data.ask) return;
        figures().forEach((el, index) => { if (Object.keys(el.state).length) tell(index, el.state); });
      };
      figures().forEach((el, index) => el.addEventListener('change', (event) => tell(index, event.detail)));
    },
  });
})();
