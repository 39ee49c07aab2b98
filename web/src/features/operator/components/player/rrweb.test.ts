import { describe, expect, it } from 'vitest';
import { loadPlayer } from './loadPlayer';

/** A minimal recording in rrweb 2.0.0-alpha's format, as highlight.run 9.20.0 sends it. */
const EVENTS = [
  { type: 4, timestamp: 1_000, data: { href: 'http://localhost/', width: 390, height: 844 } },
  {
    type: 2,
    timestamp: 1_010,
    data: {
      node: {
        type: 0,
        id: 1,
        childNodes: [
          {
            type: 2,
            id: 2,
            tagName: 'html',
            attributes: {},
            childNodes: [
              { type: 2, id: 3, tagName: 'head', attributes: {}, childNodes: [] },
              {
                type: 2,
                id: 4,
                tagName: 'body',
                attributes: {},
                childNodes: [{ type: 2, id: 5, tagName: 'h1', attributes: {}, childNodes: [{ type: 3, id: 6, textContent: 'Moat' }] }],
              },
            ],
          },
        ],
      },
      initialOffset: { top: 0, left: 0 },
    },
  },
  // A click (incremental snapshot, mouse interaction) 2 s in.
  { type: 3, timestamp: 3_010, data: { source: 2, type: 2, id: 5, x: 10, y: 10 } },
];

describe('the rrweb player', () => {
  it('loads as its own module and replays a recording of the recorder’s format', async () => {
    const Player = await loadPlayer();
    const target = document.createElement('div');
    document.body.append(target);
    const player = new Player({ target, props: { events: EVENTS, width: 390, height: 400, autoPlay: false } });
    expect(target.querySelector('.rr-player')).toBeTruthy();
    expect(target.querySelector('iframe')).toBeTruthy();
    player.goto(2_000, false);
    // The recorded page is rebuilt in the player's frame.
    expect(target.querySelector('iframe')!.contentDocument?.querySelector('h1')?.textContent).toBe('Moat');
    player.$destroy();
    target.remove();
  });
});
