import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LANGUAGES } from '../../platform/i18n/index.ts';
import { PHASES, STATUS_CODES } from './codebook.ts';
import { labelTables, phaseLabel, statusLabel, type UiKey, uiText } from './labels.ts';

const tables = labelTables();
const UI_KEYS = Object.keys(tables.ui.en) as UiKey[];
const TRANSLATED = LANGUAGES.filter((lang) => lang !== 'en');

describe('tracking labels', () => {
  it('label every status code, phase and page word in every language, and nothing else', () => {
    for (const lang of LANGUAGES) {
      assert.deepEqual(Object.keys(tables.status[lang]).sort(), [...STATUS_CODES].sort(), lang);
      assert.deepEqual(Object.keys(tables.phase[lang]).sort(), [...PHASES].sort(), lang);
      assert.deepEqual(Object.keys(tables.ui[lang]).sort(), [...UI_KEYS].sort(), lang);
      const all = [
        ...STATUS_CODES.map((code) => statusLabel(code, lang)),
        ...PHASES.map((phase) => phaseLabel(phase, lang)),
        ...UI_KEYS.map((key) => uiText(key, lang)),
      ];
      for (const text of all) assert.ok(text.trim().length > 0 && text === text.trim(), `${lang}: "${text}"`);
    }
  });

  it('are translated, not English left in place (the two Chinese scripts may share words)', () => {
    for (const lang of TRANSLATED) {
      for (const code of STATUS_CODES)
        assert.notEqual(statusLabel(code, lang), statusLabel(code, 'en'), code);
      for (const phase of PHASES) assert.notEqual(phaseLabel(phase, lang), phaseLabel(phase, 'en'), phase);
      for (const key of UI_KEYS) assert.notEqual(uiText(key, lang), uiText(key, 'en'), key);
    }
  });

  it('give distinct labels to distinct codes within a language', () => {
    for (const lang of LANGUAGES) {
      const labels = STATUS_CODES.map((code) => statusLabel(code, lang));
      assert.equal(new Set(labels).size, labels.length, lang);
    }
  });

  it('speak the way carriers do', () => {
    assert.equal(statusLabel('out_for_delivery', 'en'), 'Out for delivery');
    assert.equal(statusLabel('out_for_delivery', 'fr'), 'En cours de livraison');
    assert.equal(statusLabel('out_for_delivery', 'de'), 'In Zustellung');
    assert.equal(statusLabel('out_for_delivery', 'es'), 'En reparto');
    assert.equal(statusLabel('out_for_delivery', 'zh-Hans'), '派送中');
    assert.equal(statusLabel('out_for_delivery', 'zh-Hant'), '派送中');
  });

  it('fall back to a readable code for experimental codes', () => {
    assert.equal(statusLabel('x-drone_drop', 'fr'), 'Drone drop');
    assert.equal(statusLabel('x-locker-ready', 'en'), 'Locker ready');
  });
});
