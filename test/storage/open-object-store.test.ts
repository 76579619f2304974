import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import {
  MetricsObjectStore,
  ObjectStoreConfigError,
  openObjectStore,
  parseAzureSasUrl,
  parseObjectStoreSpec,
  RetryingObjectStore,
} from '../../src/storage/index.js';

const SIG = 'c2VjcmV0LXNpZ25hdHVyZQ%3D%3D';
const FUTURE = '2999-01-01T00:00:00Z';
const sas = (extra = ''): string => `sv=2023-11-03&sr=c&sp=racwdl&se=${FUTURE}&sig=${SIG}${extra}`;

/** the error is an ObjectStoreConfigError matching `pattern`, and does not show the signature */
const configError =
  (pattern: RegExp) =>
  (err: unknown): boolean => {
    assert.ok(err instanceof ObjectStoreConfigError, String(err));
    assert.match(err.message, pattern);
    assert.ok(!err.message.includes(SIG) && !err.message.includes('c2VjcmV0'), `message shows the signature: ${err.message}`);
    return true;
  };

describe('object store setting: local forms', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-open-store-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('an empty value means <data dir>/objects', () => {
    assert.deepEqual(parseObjectStoreSpec('', { dataDir }), { kind: 'local', path: dataDir });
    assert.deepEqual(parseObjectStoreSpec('   ', { dataDir }), { kind: 'local', path: dataDir });
    assert.throws(() => parseObjectStoreSpec(''), ObjectStoreConfigError);
  });

  it('file:///abs/path and plain paths are local directories', () => {
    assert.deepEqual(parseObjectStoreSpec('file:///var/lib/svc/objects'), { kind: 'local', path: '/var/lib/svc/objects' });
    assert.deepEqual(parseObjectStoreSpec('file://localhost/srv/o'), { kind: 'local', path: '/srv/o' });
    assert.deepEqual(parseObjectStoreSpec('/srv/objects'), { kind: 'local', path: '/srv/objects' });
    assert.deepEqual(parseObjectStoreSpec('relative/objects'), { kind: 'local', path: resolve('relative/objects') });
    assert.throws(() => parseObjectStoreSpec('file://server/share'), configError(/not a host/));
    assert.throws(() => parseObjectStoreSpec('file:///x?y=1'), configError(/no query/));
  });

  it('unknown schemes and plain web urls are refused', () => {
    assert.throws(() => parseObjectStoreSpec('gs://bucket/x'), configError(/unknown scheme/));
    assert.throws(() => parseObjectStoreSpec('https://example.com/objects'), configError(/neither an Azure SAS url nor an s3:\/\/ url/));
  });

  it('openObjectStore builds the backend inside retries and metrics', async () => {
    const plain = openObjectStore('', { dataDir, retry: false });
    assert.equal(plain.uri, pathToFileURL(dataDir).href);
    assert.equal(plain instanceof RetryingObjectStore, false);

    const wrapped = openObjectStore('', { dataDir, hooks: { onRequest: () => undefined } });
    assert.ok(wrapped instanceof MetricsObjectStore);
    assert.ok(wrapped.inner instanceof RetryingObjectStore);
    await wrapped.verify();
    await wrapped.put('k', Buffer.from('v'));
    assert.equal((await plain.get('k')).toString(), 'v');
  });
});

describe('object store setting: azure SAS urls', () => {
  it('reads the account-host form, with and without azure+, and a key prefix', () => {
    const url = `https://acct.blob.core.windows.net/logs/tenant/a?${sas()}`;
    assert.deepEqual(parseObjectStoreSpec(url), { kind: 'azure', sasUrl: url });
    assert.deepEqual(parseObjectStoreSpec(`azure+${url}`), { kind: 'azure', sasUrl: url });
    const location = parseAzureSasUrl(url);
    assert.equal(location.container, 'logs');
    assert.equal(location.prefix, 'tenant/a/');
    assert.equal(location.redactedUri, 'https://acct.blob.core.windows.net/logs/tenant/a');
    assert.equal(location.containerUrl, `https://acct.blob.core.windows.net/logs?${sas()}`);
    assert.equal(location.expiresAtMs, Date.parse(FUTURE));
  });

  it('reads the emulator (path-style) form', () => {
    const url = `http://127.0.0.1:10000/devstoreaccount1/logs?${sas()}`;
    assert.deepEqual(parseObjectStoreSpec(url), { kind: 'azure', sasUrl: url });
    const location = parseAzureSasUrl(url);
    assert.equal(location.container, 'logs');
    assert.equal(location.prefix, '');
    assert.equal(location.containerUrl, url);
  });

  it('refuses a malformed url', () => {
    assert.throws(() => openObjectStore(`azure+https://?${sas()}`), configError(/not a valid url/));
    assert.throws(() => openObjectStore(`azure+ftp://acct.blob.core.windows.net/c?${sas()}`), configError(/must use https/));
    assert.throws(() => openObjectStore(`https://acct.blob.core.windows.net/?${sas()}`), configError(/names no container/));
    assert.throws(() => openObjectStore(`https://acct.blob.core.windows.net/Bad_Name?${sas()}`), configError(/not a valid container name/));
    assert.throws(() => openObjectStore(`http://127.0.0.1:10000/devstoreaccount1?${sas()}`), configError(/names no container/));
  });

  it('refuses a url that is not a SAS: no sig, no sv, no query', () => {
    assert.throws(() => openObjectStore('https://acct.blob.core.windows.net/logs?sv=2023-11-03&sp=racwdl'), configError(/lacks "sig"/));
    assert.throws(() => openObjectStore(`https://acct.blob.core.windows.net/logs?sp=racwdl&sig=${SIG}`), configError(/lacks "sv"/));
    assert.throws(() => openObjectStore('https://acct.blob.core.windows.net/logs'), configError(/lacks "sv" and "sig"/));
  });

  it('refuses an expired SAS, or one whose expiry cannot be read', () => {
    const expired = `https://acct.blob.core.windows.net/logs?sv=2023-11-03&sp=racwdl&se=2020-01-01T00:00:00Z&sig=${SIG}`;
    assert.throws(() => openObjectStore(expired), configError(/expired at 2020-01-01T00:00:00.000Z/));
    const garbled = `https://acct.blob.core.windows.net/logs?sv=2023-11-03&se=someday&sig=${SIG}`;
    assert.throws(() => openObjectStore(garbled), configError(/unreadable expiry/));
    // the check uses the clock it is given
    assert.doesNotThrow(() => parseObjectStoreSpec(expired, { nowMs: Date.parse('2019-06-01T00:00:00Z') }));
  });

  it('refuses a SAS without read, write, delete and list permissions', () => {
    const readOnly = `https://acct.blob.core.windows.net/logs?sv=2023-11-03&sp=rl&se=${FUTURE}&sig=${SIG}`;
    assert.throws(() => openObjectStore(readOnly), configError(/missing: wd/));
  });
});

describe('object store setting: s3 urls', () => {
  it('reads bucket, prefix, region, endpoint and path style', () => {
    assert.deepEqual(parseObjectStoreSpec('s3://my-bucket/svc/data?region=eu-west-1&endpoint=http://127.0.0.1:9000/&force_path_style=true'), {
      kind: 's3',
      bucket: 'my-bucket',
      prefix: 'svc/data/',
      region: 'eu-west-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
    });
    assert.deepEqual(parseObjectStoreSpec('s3://my.bucket'), { kind: 's3', bucket: 'my.bucket', prefix: '' });
  });

  it('gives the store a uri without credentials', async () => {
    const store = openObjectStore('s3://my-bucket/p?endpoint=http://127.0.0.1:9000', {
      s3Credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'very-secret' },
    });
    assert.equal(store.uri, 's3://my-bucket/p/ (http://127.0.0.1:9000)');
    await store.close();
  });

  it('refuses what cannot work', () => {
    assert.throws(() => parseObjectStoreSpec('s3://B'), configError(/not a valid bucket name/));
    assert.throws(() => parseObjectStoreSpec('s3://key:secret@bucket'), configError(/credentials do not belong in the url/));
    assert.throws(() => parseObjectStoreSpec('s3://bucket?colour=blue'), configError(/unknown parameter "colour"/));
    assert.throws(() => parseObjectStoreSpec('s3://bucket?force_path_style=yes'), configError(/force_path_style must be true or false/));
    assert.throws(() => parseObjectStoreSpec('s3://bucket?endpoint=ftp://host'), configError(/endpoint must be an http or https url/));
    assert.throws(() => parseObjectStoreSpec('s3://bucket?endpoint=not a url'), configError(/not a valid url/));
    assert.throws(() => parseObjectStoreSpec('s3://bucket/a//b'), configError(/invalid key prefix/));
    assert.throws(() => parseObjectStoreSpec('s3://bucket:9000/x'), configError(/port belongs in the endpoint/));
  });
});
