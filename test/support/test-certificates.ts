import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** A key and its certificate, as files and as PEM text. */
export interface Identity {
  readonly keyFile: string;
  readonly certFile: string;
  readonly key: Buffer;
  readonly cert: string;
}

const openssl = (dir: string, args: readonly string[]) => promisify(execFile)('openssl', args, { cwd: dir });
const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/**
 * A self-signed certificate made for the test, for `altName` (127.0.0.1 unless told), valid for two days, or
 * expired since 2020: `openssl req` cannot date a certificate in the past, `openssl ca` can.
 */
export async function selfSigned(options: { readonly altName?: string; readonly expired?: boolean } = {}): Promise<Identity> {
  const dir = await mkdtemp(join(tmpdir(), 'tls-'));
  const altName = options.altName ?? 'IP:127.0.0.1';
  const subject = ['-subj', `/CN=${altName.replace(/^\w+:/, '')}`, '-addext', `subjectAltName=${altName}`];
  if (!options.expired) {
    await openssl(dir, ['req', '-x509', ...NEW_KEY, '-days', '2', ...subject, '-keyout', 'key.pem', '-out', 'cert.pem']);
    return identity(dir);
  }
  await writeFile(join(dir, 'index.txt'), '');
  await writeFile(join(dir, 'serial'), '01\n');
  await writeFile(
    join(dir, 'ca.cnf'),
    '[ca]\ndefault_ca = test\n[test]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\ndefault_md = sha256\npolicy = any\ncopy_extensions = copy\n[any]\ncommonName = supplied\n',
  );
  await openssl(dir, ['req', '-new', ...NEW_KEY, ...subject, '-keyout', 'key.pem', '-out', 'request.csr']);
  await openssl(dir, [
    'ca',
    '-batch',
    '-selfsign',
    '-config',
    'ca.cnf',
    '-keyfile',
    'key.pem',
    '-in',
    'request.csr',
    '-out',
    'cert.pem',
    '-startdate',
    '20200101000000Z',
    '-enddate',
    '20200102000000Z',
  ]);
  return identity(dir);
}

/** A certificate for 127.0.0.1 issued by `issuer` (a certificate authority the test made with selfSigned). */
export async function issuedBy(issuer: Identity): Promise<Identity> {
  const dir = await mkdtemp(join(tmpdir(), 'tls-'));
  await writeFile(join(dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  await openssl(dir, ['req', '-new', ...NEW_KEY, '-subj', '/CN=127.0.0.1', '-keyout', 'key.pem', '-out', 'request.csr']);
  await openssl(dir, [
    'x509',
    '-req',
    '-in',
    'request.csr',
    '-CA',
    issuer.certFile,
    '-CAkey',
    issuer.keyFile,
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
    '-out',
    'cert.pem',
  ]);
  return identity(dir);
}

async function identity(dir: string): Promise<Identity> {
  const [keyFile, certFile] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  return { keyFile, certFile, key: await readFile(keyFile), cert: await readFile(certFile, 'utf8') };
}
