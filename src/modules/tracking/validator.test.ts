import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LANGUAGES } from '../../platform/i18n/index.ts';
import { CODE_ALIASES, canonicalCode, codeEntry, STATUS_CODES, shortCode } from './codebook.ts';
import { ERROR_CASES, type IssueCase, setAt, WARNING_CASES } from './fixtures/issue-cases.ts';
import {
  CONFORMANT_TIMELINES,
  deliveredJourney,
  emptyTimeline,
  experimentalTimeline,
  minimalTimeline,
  synthesizedCarrierTimeline,
} from './fixtures/timelines.ts';
import { type Issue, issueSeverity, validateTimeline } from './validator.ts';
import { ISSUE_CODES, issueMessageTables } from './validator-messages.ts';

const brief = (issues: Issue[]) => issues.map(({ path, code }) => `${code} at ${path}`);
const caseName = ({ code, path, label }: IssueCase) => `${code} at "${path}"${label ? ` (${label})` : ''}`;

function withChange(base: () => object, path: string, value: unknown): object {
  const timeline = base();
  setAt(timeline, path, value);
  return timeline;
}

describe('validateTimeline: errors', () => {
  for (const issueCase of ERROR_CASES) {
    it(caseName(issueCase), () => {
      const report = validateTimeline(issueCase.input(), 'en');
      assert.equal(issueSeverity(issueCase.code), 'error');
      assert.deepEqual(brief(report.errors), [`${issueCase.code} at ${issueCase.path}`]);
      assert.equal(report.conformant, false);
      assert.equal(report.level, 0);
    });
  }
});

describe('validateTimeline: warnings', () => {
  for (const issueCase of WARNING_CASES) {
    it(caseName(issueCase), () => {
      const report = validateTimeline(issueCase.input(), 'en');
      assert.equal(issueSeverity(issueCase.code), 'warning');
      assert.deepEqual(brief(report.warnings), [`${issueCase.code} at ${issueCase.path}`]);
      assert.deepEqual(report.errors, []);
      assert.equal(report.conformant, true);
    });
  }

  it('every issue code has at least one case', () => {
    const covered = new Set([...ERROR_CASES, ...WARNING_CASES].map((issueCase) => issueCase.code));
    assert.deepEqual(
      ISSUE_CODES.filter((code) => !covered.has(code)),
      [],
    );
  });
});

describe('validateTimeline: what it accepts', () => {
  for (const [name, timeline] of Object.entries(CONFORMANT_TIMELINES)) {
    it(`the ${name} fixture is conformant`, () => {
      const report = validateTimeline(timeline(), 'en');
      assert.deepEqual(report.errors, []);
      assert.equal(report.conformant, true);
    });
  }

  it('a realistic journey (mixed offsets, both code forms, a failed attempt, hubs) has no warnings', () => {
    assert.deepEqual(validateTimeline(deliveredJourney(), 'en').warnings, []);
  });

  it('accepts every codebook code in its short and addressed forms, and x- codes in both', () => {
    for (const code of [...STATUS_CODES, ...STATUS_CODES.map((short) => `otep:parcel:${short}`)]) {
      const report = validateTimeline(
        withChange(synthesizedCarrierTimeline, 'events[0].status_code', code),
        'en',
      );
      assert.deepEqual(report.errors, [], code);
    }
    for (const code of ['x-locker', 'otep:parcel:x-locker']) {
      const report = validateTimeline(
        withChange(synthesizedCarrierTimeline, 'events[0].status_code', code),
        'en',
      );
      assert.deepEqual(brief(report.warnings), ['experimental_status_code at events[0].status_code']);
    }
  });

  it("takes the interface's terminal names, delivered, returned, rejected and cancelled, as the codes", () => {
    for (const code of ['delivered', 'returned', 'rejected', 'cancelled']) {
      assert.ok(STATUS_CODES.includes(code), code);
      assert.equal(codeEntry(code)?.terminal, true, code);
      const timeline = withChange(minimalTimeline, 'events[2].status_code', `otep:parcel:${code}`);
      assert.deepEqual(validateTimeline(timeline, 'en').errors, [], code);
    }
    assert.deepEqual(
      STATUS_CODES.filter((code) => codeEntry(code)?.terminal),
      ['delivered', 'returned', 'rejected', 'cancelled'],
    );
  });

  it('still accepts the longer names as aliases of returned and rejected, and no warning', () => {
    assert.deepEqual(CODE_ALIASES, { return_to_sender: 'returned', rejected_by_recipient: 'rejected' });
    for (const [alias, code] of Object.entries(CODE_ALIASES)) {
      assert.equal(canonicalCode(alias), code);
      assert.equal(canonicalCode(`otep:parcel:${alias}`), code);
      assert.equal(codeEntry(alias), codeEntry(code));
      const timeline = withChange(minimalTimeline, 'events[2].status_code', alias);
      const report = validateTimeline(timeline, 'en');
      assert.deepEqual([report.errors, report.warnings], [[], []], alias);
    }
    assert.equal(canonicalCode('constructor'), 'constructor');
    assert.equal(codeEntry('constructor'), undefined);
  });

  it('requires of an event only its time and status; version, profile and source have defaults', () => {
    const report = validateTimeline(minimalTimeline(), 'en');
    assert.deepEqual([report.errors, report.warnings, report.conformant], [[], [], true]);
    for (const path of ['subject', 'events[0].occurred_at', 'events[0].status_code']) {
      assert.equal(
        validateTimeline(withChange(minimalTimeline, path, undefined), 'en').conformant,
        false,
        path,
      );
    }
  });

  it('an event without otep_version inherits the envelope; a minor version of the same major is read', () => {
    const timeline = withChange(deliveredJourney, 'otep_version', '0.3.1');
    setAt(timeline, 'events[0].otep_version', '0.2');
    assert.deepEqual(validateTimeline(timeline, 'en').errors, []);
  });

  it('accepts phase null, as the service answers it for experimental codes', () => {
    const timeline = withChange(synthesizedCarrierTimeline, 'events[0].phase', null);
    assert.deepEqual(validateTimeline(timeline, 'en').errors, []);
  });

  it('a phase going back through an exception is not a warning', () => {
    const timeline = synthesizedCarrierTimeline();
    setAt(timeline, 'events[2]', {
      occurred_at: '2026-11-06T10:30:00-05:00',
      status_code: 'delivery_failed',
      source: { type: 'synthesized' },
    });
    setAt(timeline, 'events[3]', {
      occurred_at: '2026-11-06T18:00:00-05:00',
      status_code: 'received',
      source: { type: 'synthesized' },
    });
    assert.deepEqual(validateTimeline(timeline, 'en').warnings, []);
  });

  it('judges "after a terminal event" by occurred_at, not by position; the same instant is not after', () => {
    const listedFirst = deliveredJourney();
    listedFirst.events.unshift({
      occurred_at: '2026-11-04T12:00:00+01:00',
      status_code: 'out_for_delivery',
      source: { type: 'carrier' },
    } as (typeof listedFirst.events)[number]);
    assert.ok(
      brief(validateTimeline(listedFirst, 'en').warnings).includes('event_after_terminal at events[0]'),
    );

    const sameInstant = withChange(deliveredJourney, 'events[10]', {
      occurred_at: '2026-11-04T09:21:09Z',
      status_code: 'in_transit',
      source: { type: 'carrier' },
    });
    assert.ok(!brief(validateTimeline(sameInstant, 'en').warnings).some((w) => w.startsWith('event_after')));
  });
});

describe('conformance levels', () => {
  it('a valid realistic timeline is level 1', () => {
    assert.equal(validateTimeline(deliveredJourney(), 'en').level, 1);
  });

  it('is level 2 once it declares a standard projection', () => {
    const report = validateTimeline(withChange(deliveredJourney, 'projections', ['epcis']), 'en');
    assert.deepEqual([report.conformant, report.level, report.warnings], [true, 2, []]);
  });

  it('is level 2 when the caller requests a standard projection', () => {
    assert.equal(
      validateTimeline(deliveredJourney(), 'en', { requestedProjections: ['onerecord'] }).level,
      2,
    );
  });

  it('stays at level 1 with only a non-standard projection, with an experimental code, or with no events', () => {
    assert.equal(validateTimeline(withChange(deliveredJourney, 'projections', ['shopify']), 'en').level, 1);
    assert.equal(validateTimeline(experimentalTimeline(), 'en').level, 1);
    assert.equal(validateTimeline(withChange(emptyTimeline, 'projections', ['epcis']), 'en').level, 1);
  });

  it('is level 0 with any error, even when a projection is declared', () => {
    const timeline = withChange(deliveredJourney, 'projections', ['epcis']);
    setAt(timeline, 'events[0].occurred_at', '2026-11-02T08:05:00');
    assert.deepEqual(
      [validateTimeline(timeline, 'en').conformant, validateTimeline(timeline, 'en').level],
      [false, 0],
    );
  });
});

describe('shortCode', () => {
  it('turns the addressed form into the short one and leaves the rest alone', () => {
    assert.equal(shortCode('otep:parcel:delivered'), 'delivered');
    assert.equal(shortCode('otep:parcel:x-locker'), 'x-locker');
    assert.equal(shortCode('delivered'), 'delivered');
    assert.equal(shortCode('otep:freight:delivered'), 'otep:freight:delivered');
  });
});

describe('messages', () => {
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
  const tables = issueMessageTables();

  it('exist in every language, differ from English outside English, and keep their placeholders', () => {
    for (const lang of LANGUAGES) {
      for (const code of ISSUE_CODES) {
        const message = tables[lang][code];
        assert.ok(message?.trim(), `${lang} ${code} is missing`);
        assert.deepEqual(
          placeholders(message),
          placeholders(tables.en[code]),
          `${lang} ${code} placeholders`,
        );
        if (lang !== 'en') assert.notEqual(message, tables.en[code], `${lang} ${code} is not translated`);
      }
    }
  });

  it("follow the caller's language, with the placeholders filled", () => {
    const timeline = withChange(deliveredJourney, 'events[2].occurred_at', '2026-11-02T14:12:30');
    const message = (lang: (typeof LANGUAGES)[number]) => validateTimeline(timeline, lang).errors[0]?.message;
    assert.equal(
      message('fr'),
      'occurred_at 2026-11-02T14:12:30 n’a pas de décalage horaire ; terminez-la par Z ou ±hh:mm.',
    );
    assert.equal(
      message('de'),
      'occurred_at 2026-11-02T14:12:30 hat keinen Zeitzonenversatz; beenden Sie ihn mit Z oder ±hh:mm.',
    );
    assert.equal(message('zh-Hans'), 'occurred_at 2026-11-02T14:12:30 没有时区偏移；请以 Z 或 ±hh:mm 结尾。');
    assert.equal(message('zh-Hant'), 'occurred_at 2026-11-02T14:12:30 沒有時區偏移；請以 Z 或 ±hh:mm 結尾。');
  });

  it('name the path in generic type messages', () => {
    const timeline = withChange(deliveredJourney, 'events[9].pod.recipient', 7);
    assert.equal(
      validateTimeline(timeline, 'es').errors[0]?.message,
      'events[9].pod.recipient debe ser una cadena de texto.',
    );
  });
});
