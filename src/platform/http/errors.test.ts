import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../errors.ts';
import { errorBody, toAppError } from './errors.ts';

describe('toAppError', () => {
  it('keeps application errors as they are', () => {
    const error = new AppError('FORBIDDEN');
    assert.equal(toAppError(error, 100), error);
  });

  it('gives framework and driver failures their documented codes', () => {
    assert.equal(
      toAppError({ statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' }, 100).code,
      'PAYLOAD_TOO_LARGE',
    );
    assert.equal(
      toAppError({ statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }, 100).code,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    assert.equal(
      toAppError({ statusCode: 400, code: 'FST_ERR_CTP_EMPTY_JSON_BODY' }, 100).code,
      'INVALID_JSON',
    );
    assert.equal(toAppError({ statusCode: 400, code: 'FST_ERR_SOMETHING' }, 100).code, 'BAD_REQUEST');
    assert.equal(
      toAppError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), 100).code,
      'SERVICE_UNAVAILABLE',
    );
    assert.equal(
      toAppError(Object.assign(new Error('shutting down'), { code: '57P01' }), 100).code,
      'SERVICE_UNAVAILABLE',
    );
    // A connection the server ended (a restart, a transaction idle too long), used again.
    assert.equal(
      toAppError(new Error('Client has encountered a connection error and is not queryable'), 100).code,
      'SERVICE_UNAVAILABLE',
    );
  });

  it('hides an unexpected failure behind INTERNAL_ERROR quoting the request id', () => {
    const error = toAppError(new TypeError('cannot read properties of undefined'), 100);
    assert.equal(error.code, 'INTERNAL_ERROR');
    const body = errorBody(error, 'fr', 'req-77');
    assert.equal(body.error_code, 'INTERNAL_ERROR');
    assert.match(body.message, /req-77/);
    assert.doesNotMatch(body.message, /undefined/);
    assert.equal(body.details, undefined);
  });
});
