import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('defaults to embedded mode on 127.0.0.1:3000', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.dataDir, path.resolve('.data'));
    assert.equal(config.publicBaseUrl, 'http://127.0.0.1:3000');
    assert.equal(config.tokenTtlHours, 168);
    assert.equal(config.bodyLimitBytes, 1_048_576);
  });

  it('reads every documented variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u:p@db:5432/tms',
      TMS_DATA_DIR: '/var/lib/tms',
      TMS_DEMO_PASSWORD: 'secret-demo',
      LOG_LEVEL: 'debug',
      PUBLIC_BASE_URL: 'https://tms.example.com/',
      TOKEN_TTL_HOURS: '12',
      BODY_LIMIT_BYTES: '2048',
      TRUST_PROXY: 'true',
      METRICS_TOKEN: 'a-metrics-token-of-length',
    });
    assert.equal(config.port, 8080);
    assert.equal(config.databaseUrl, 'postgres://u:p@db:5432/tms');
    assert.equal(config.dataDir, '/var/lib/tms');
    assert.equal(config.publicBaseUrl, 'https://tms.example.com');
    assert.equal(config.tokenTtlHours, 12);
    assert.equal(config.trustProxy, true);
  });

  it('reads the public geocoder, and has none unless GEOCODER_URL is set', () => {
    assert.equal(loadConfig({}).geocoder, undefined);
    const config = loadConfig({
      GEOCODER_URL: 'https://nominatim.example.org/search',
      GEOCODER_ALLOW_PRIVATE: 'true',
      GEOCODER_TIMEOUT_MS: '2500',
      GEOCODER_MIN_INTERVAL_MS: '0',
    });
    assert.deepEqual(config.geocoder, {
      url: 'https://nominatim.example.org/search',
      allow: { loopback: false, privateNetworks: true },
      timeoutMs: 2500,
      minIntervalMs: 0,
    });
    assert.throws(() => loadConfig({ GEOCODER_URL: 'ftp://x' }), /GEOCODER_URL/);
  });

  it('reads the GraphQL budgets, without a token and with one (documented defaults otherwise)', () => {
    const config = loadConfig({ GRAPHQL_ANONYMOUS_MAX_ALIASES: '2', GRAPHQL_MAX_COST: '50000' });
    assert.deepEqual(config.graphqlBudgets, {
      anonymous: { tokens: 5_000, depth: 8, aliases: 2, cost: 5_000 },
      signedIn: { tokens: 50_000, depth: 12, aliases: 30, cost: 50_000 },
    });
    assert.throws(
      () => loadConfig({ GRAPHQL_MAX_DEPTH: '0' }),
      /GRAPHQL_MAX_DEPTH="0": must be a whole number/,
    );
  });

  it('keeps files under the data directory unless S3_ENDPOINT names a bucket', () => {
    assert.deepEqual(loadConfig({ TMS_DATA_DIR: '/var/lib/tms' }).storage, {
      kind: 'disk',
      directory: '/var/lib/tms/files',
    });
    const config = loadConfig({
      S3_ENDPOINT: 'https://s3.example.com',
      S3_BUCKET: 'tms-proofs',
      S3_ACCESS_KEY_ID: 'key-id',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    assert.deepEqual(config.storage, {
      kind: 's3',
      endpoint: 'https://s3.example.com',
      bucket: 'tms-proofs',
      accessKeyId: 'key-id',
      secretAccessKey: 'secret',
      region: 'us-east-1',
      forcePathStyle: true,
    });
    assert.equal(
      loadConfig({ S3_FORCE_PATH_STYLE: 'false', S3_REGION: 'eu-west-3' }).storage.kind,
      'disk',
      'the other S3 variables alone change nothing',
    );
  });

  it('names what S3 storage lacks or gets wrong, and a short proof link secret', () => {
    assert.throws(
      () => loadConfig({ S3_ENDPOINT: 'https://s3.example.com', S3_BUCKET: 'tms-proofs' }),
      (error: Error) => {
        assert.match(error.message, /S3_ACCESS_KEY_ID="": is required when S3_ENDPOINT is set/);
        assert.match(error.message, /S3_SECRET_ACCESS_KEY="": is required when S3_ENDPOINT is set/);
        assert.doesNotMatch(error.message, /S3_BUCKET/);
        return true;
      },
    );
    assert.throws(() => loadConfig({ S3_ENDPOINT: 'ftp://x' }), /S3_ENDPOINT="ftp:\/\/x"/);
    assert.throws(() => loadConfig({ S3_BUCKET: 'No_Such' }), /S3_BUCKET="No_Such": must be a bucket name/);
    assert.throws(() => loadConfig({ S3_FORCE_PATH_STYLE: 'yes' }), /S3_FORCE_PATH_STYLE/);
    assert.throws(
      () => loadConfig({ PROOF_LINK_SECRET: 'short' }),
      /PROOF_LINK_SECRET="short": must be at least 32/,
    );
    assert.equal(loadConfig({ PROOF_LINK_SECRET: 'x'.repeat(32) }).proofLinkSecret, 'x'.repeat(32));
  });

  it('reads the map tiles: OpenStreetMap by default, a plain background with none', () => {
    assert.deepEqual(loadConfig({}).mapTiles, {
      url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      attribution: '© OpenStreetMap contributors',
    });
    assert.equal(loadConfig({ MAP_TILES_URL: 'none' }).mapTiles, undefined);
    const url = 'https://tiles.example.net/osm/{z}/{x}/{y}.png';
    assert.deepEqual(loadConfig({ MAP_TILES_URL: url }).mapTiles, {
      url,
      attribution: '© OpenStreetMap contributors',
    });
    assert.equal(
      loadConfig({ MAP_TILES_URL: url, MAP_TILES_ATTRIBUTION: '© Example Maps' }).mapTiles?.attribution,
      '© Example Maps',
    );
    for (const bad of ['https://tiles.example.net/osm.png', 'ftp://tiles.example.net/{z}/{x}/{y}.png']) {
      assert.throws(() => loadConfig({ MAP_TILES_URL: bad }), /MAP_TILES_URL=.*\{z\}, \{x\} and \{y\}/);
    }
  });

  it('reads a read replica only beside DATABASE_URL, with its lag bound', () => {
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/tms' }).databaseRead, undefined);
    const config = loadConfig({
      DATABASE_URL: 'postgres://u:p@db:5432/tms',
      DATABASE_READ_URL: 'postgres://u:p@replica:5432/tms',
    });
    assert.deepEqual(config.databaseRead, { url: 'postgres://u:p@replica:5432/tms', maxLagMs: 5_000 });
    const bound = loadConfig({
      DATABASE_URL: 'postgres://u:p@db:5432/tms',
      DATABASE_READ_URL: 'postgres://u:p@replica:5432/tms',
      DATABASE_READ_MAX_LAG_MS: '1500',
    });
    assert.equal(bound.databaseRead?.maxLagMs, 1_500);
    assert.throws(
      () => loadConfig({ DATABASE_READ_URL: 'postgres://u:p@replica:5432/tms' }),
      (error: Error) => {
        assert.ok(error instanceof ConfigError);
        assert.match(
          error.message,
          /DATABASE_READ_URL="postgres:\/\/u:p@replica:5432\/tms": is only used with DATABASE_URL/,
        );
        return true;
      },
    );
    assert.throws(
      () => loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/tms', DATABASE_READ_URL: 'mysql://x' }),
      /DATABASE_READ_URL="mysql:\/\/x": must be a postgres:\/\/ URL/,
    );
    assert.throws(
      () => loadConfig({ DATABASE_READ_MAX_LAG_MS: '10' }),
      /DATABASE_READ_MAX_LAG_MS="10": must be a whole number from 100 to 3600000/,
    );
  });

  it('treats empty variables as unset', () => {
    assert.equal(loadConfig({ DATABASE_URL: '', PORT: '' }).port, 3000);
  });

  it('names every bad variable at once', () => {
    assert.throws(
      () => loadConfig({ PORT: '70000', DATABASE_URL: 'mysql://x', TMS_DEMO_PASSWORD: 'short' }),
      (error: Error) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /PORT="70000": must be a whole number from 0 to 65535/);
        assert.match(error.message, /DATABASE_URL="mysql:\/\/x": must be a postgres:\/\/ URL/);
        assert.match(error.message, /TMS_DEMO_PASSWORD="short": must be at least 8 characters/);
        return true;
      },
    );
  });
});
