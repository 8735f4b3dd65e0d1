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
//   is picked in the preview too.
// What embed.js does by itself in a deck: keys the figure does not use reach reveal, hidden
// slides' figures do not run, a scaled slide's figure draws at its scale, and a printed deck
// (?print-pdf) shows each figure as a picture.
(function () {
  'use strict';
  window.RevealAttentionLab = () => ({
    id: 'attention-lab',
    init(deck) {
      const style = document.createElement('style');
      style.textContent = '.reveal.overview attention-lab{pointer-events:none}';
      document.head.append(style);

      if (!window.BroadcastChannel) return;
      const figures = () => [...deck.getRevealElement().querySelectorAll('attention-lab')];
      // The speaker view's previews load the deck with ?receiver (reveal's notes plugin).
      const channel = new BroadcastChannel('attention-lab-deck:' + location.pathname);
      if (/[?&]receiver\b/.test(location.search)) {
        channel.onmessage = ({ data }) => {
          const el = figures()[data && data.index];
          if (el && data.state && typeof data.state === 'object') el.setState(data.state);
        };
        return;
      }
      figures().forEach((el, index) =>
        el.addEventListener('change', (event) => channel.postMessage({ index, state: event.detail })));
    },
  });
})();
