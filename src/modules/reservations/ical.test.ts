import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeText, fold, icalendar } from './ical.ts';

test('text values escape backslash, semicolon, comma and newlines', () => {
  assert.equal(escapeText('a\\b;c,d\ne'), 'a\\\\b\\;c\\,d\\ne');
});

test('long lines fold at 75 octets without splitting a character', () => {
  const line = `SUMMARY:${'é'.repeat(80)}`;
  const folded = fold(line);
  const physical = folded.split('\r\n');
  assert.ok(physical.length > 1, 'a 168-octet line is folded');
  for (const part of physical)
    assert.ok(Buffer.byteLength(part) <= 75, `line of ${Buffer.byteLength(part)} octets`);
  assert.ok(
    physical.slice(1).every((part) => part.startsWith(' ')),
    'continuations start with a space',
  );
  assert.equal(physical.map((part, i) => (i === 0 ? part : part.slice(1))).join(''), line);
});

test('a booking becomes one VEVENT in UTC with CRLF line ends', () => {
  const text = icalendar({
    uid: 'r1@tms',
    start: new Date('2026-11-03T08:00:00Z'),
    end: new Date('2026-11-03T08:30:00Z'),
    stamp: new Date('2026-11-02T09:30:00Z'),
    summary: 'Pickup counter, Main St; door 2',
  });
  assert.ok(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n'), 'calendar header');
  assert.ok(text.includes('DTSTART:20261103T080000Z\r\n'), 'start in UTC');
  assert.ok(text.includes('DTEND:20261103T083000Z\r\n'), 'end in UTC');
  assert.ok(text.includes('SUMMARY:Pickup counter\\, Main St\\; door 2\r\n'), 'escaped summary');
  assert.ok(text.endsWith('END:VEVENT\r\nEND:VCALENDAR\r\n'), 'calendar footer');
});
