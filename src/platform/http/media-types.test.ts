import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { preferredRepresentation } from './media-types.ts';

describe('preferredRepresentation', () => {
  const offered = ['application/pdf', 'application/ld+json; profile="https://example.org/a"'];

  it('picks an offered type the caller names, by quality then order', () => {
    assert.equal(preferredRepresentation('application/pdf', offered), 'application/pdf');
    assert.equal(
      preferredRepresentation(
        'application/pdf;q=0.4, application/ld+json;profile="https://example.org/a"',
        offered,
      ),
      offered[1],
    );
  });

  it('leaves the JSON answer to wildcards, plain JSON, refusals and operations that offer nothing', () => {
    for (const accept of ['*/*', 'application/*', 'application/json', 'application/pdf;q=0', undefined]) {
      assert.equal(preferredRepresentation(accept, offered), undefined, accept);
    }
    assert.equal(preferredRepresentation('application/pdf', undefined), undefined);
  });

  it('matches a JSON-LD range only when it holds every profile of the offered type', () => {
    assert.equal(preferredRepresentation('application/ld+json', offered), undefined);
    assert.equal(
      preferredRepresentation(
        'application/ld+json; profile="https://example.org/b https://example.org/a"',
        offered,
      ),
      offered[1],
    );
  });
});
