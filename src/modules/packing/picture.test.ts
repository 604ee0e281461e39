import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadPictureSvg } from './picture.ts';

describe('a load plan picture', () => {
  it('gives each of many stops a colour of its own, a legend entry and its number on its boxes', () => {
    const boxes = Array.from({ length: 30 }, (_, n) => ({
      x: (n % 10) * 300,
      y: Math.floor(n / 10) * 500,
      z: 0,
      length: 300,
      width: 500,
      height: 200,
      group: `stop ${n + 1}`,
      label: String(n + 1),
    }));
    const svg = loadPictureSvg(
      { name: 'van', length: 3000, width: 1500, height: 1800 },
      boxes,
      'thirty stops',
    );
    const legend = [
      ...svg.matchAll(
        /<rect x="[\d.]+" y="[\d.]+" width="12" height="12" fill="(#[0-9a-f]{6})"\/><text[^>]*>([^<]+)</g,
      ),
    ];
    assert.equal(legend.length, 30, 'every stop in the legend');
    assert.equal(new Set(legend.map((entry) => entry[1])).size, 30, 'no colour twice');
    assert.equal(new Set(legend.map((entry) => entry[0].match(/y="([\d.]+)"/)![1])).size, 3, 'on three rows');
    const labels = [...svg.matchAll(/text-anchor="middle"[^>]*>(\d+)</g)].map((m) => Number(m[1]));
    assert.deepEqual(
      labels.sort((a, b) => a - b),
      boxes.map((_, n) => n + 1),
    );
    assert.match(svg, />door</);
  });

  it('draws only the boxes loaded so far, in the colours of the whole load', () => {
    const box = (n: number, later: boolean) => ({
      x: n * 400,
      y: 0,
      z: 0,
      length: 400,
      width: 400,
      height: 400,
      group: `stop ${3 - n}`,
      label: String(3 - n),
      later,
    });
    const space = { name: 'van', length: 1200, width: 400, height: 400 };
    const whole = loadPictureSvg(space, [box(0, false), box(1, false), box(2, false)], 'whole');
    const first = loadPictureSvg(space, [box(0, false), box(1, true), box(2, true)], 'step 1');
    const legendOf = (svg: string) =>
      [...svg.matchAll(/width="12" height="12" fill="(#[0-9a-f]{6})"\/><text[^>]*>([^<]+)</g)].map(
        (m) => `${m[2]} ${m[1]}`,
      );
    assert.equal(legendOf(whole).length, 3);
    assert.deepEqual(legendOf(first), legendOf(whole));
    assert.equal((first.match(/text-anchor="middle"/g) ?? []).length, 1);
    assert.equal((whole.match(/text-anchor="middle"/g) ?? []).length, 3);
  });
});
