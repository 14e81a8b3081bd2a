import { describe, expect, test } from 'vitest';
import { toHex, utf8Bytes } from '../../core/ledger/primitives/bytes.js';
import { keyPairFromSeed, signEd25519, verifyEd25519 } from '../../core/ledger/primitives/signature.js';
import {
  decodeBase64Strict,
  noteKeyId,
  NOTE_SIG_ED25519,
  readSignedNote,
  serializeSignedNote,
} from '../../core/ledger/notes/signed-note.js';

// The signed-note example key of golang.org/x/mod/sumdb/note (the format C2SP signed-note specifies):
//   PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz
//   PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW
const SEED = Buffer.from('AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz', 'base64').subarray(1);
const VKEY = Buffer.from('ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW', 'base64').subarray(1);
const TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const EXAMPLE = `${TEXT}\n— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

describe('signed notes', () => {
  const kp = keyPairFromSeed(new Uint8Array(SEED));

  test('the example key derives the published public key and key ID c74f20a3', () => {
    expect(toHex(kp.publicKey)).toBe(VKEY.toString('hex'));
    expect(toHex(noteKeyId('PeterNeumann', NOTE_SIG_ED25519, kp.publicKey))).toBe('c74f20a3');
  });

  test('signing the example text serializes to the published signed note byte for byte', () => {
    const signature = signEd25519(utf8Bytes(TEXT), kp.secretKey);
    const note = serializeSignedNote({
      text: TEXT,
      signatures: [
        { name: 'PeterNeumann', keyId: noteKeyId('PeterNeumann', NOTE_SIG_ED25519, kp.publicKey), signature },
      ],
    });
    expect(note).toBe(EXAMPLE);
  });

  test('the reader returns the text and a signature that verifies over it', () => {
    const r = readSignedNote(EXAMPLE);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.text).toBe(TEXT);
    const s = r.value.signatures[0]!;
    expect(toHex(s.keyId)).toBe('c74f20a3');
    expect(verifyEd25519(s.signature, utf8Bytes(TEXT), kp.publicKey)).toBe(true);
  });

  test.each([
    ['no empty line', TEXT],
    ['a text without final newline', `abc\n— PeterNeumann x08go/ZJ=\n`.replace('abc\n', 'abc')],
    ['a control character in the text', `a\u0007b\n\n— K AAAAAAA=\n`],
    ['a signature line without em dash', `${TEXT}\n- PeterNeumann x08go/ZJkuBS9UG=\n`],
    [
      'a key name with a plus',
      `${TEXT}\n— Peter+Neumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`,
    ],
    ['non-canonical base64', `${TEXT}\n— K AAAAAAB=\n`],
    ['a signature shorter than a key ID and one byte', `${TEXT}\n— K AAAAAA==\n`],
    ['signature lines without final newline', EXAMPLE.slice(0, -1)],
    ['no signature at all', `${TEXT}\n`],
  ])('the reader refuses %s', (_name, input) => {
    const r = readSignedNote(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('note-malformed');
  });

  test('strict base64 refuses what Buffer would silently accept', () => {
    expect(decodeBase64Strict('AAAA')).not.toBeNull();
    expect(decodeBase64Strict('AAA')).toBeNull();
    expect(decodeBase64Strict('AA AA')).toBeNull();
    expect(decodeBase64Strict('AAAA\n')).toBeNull();
    expect(decodeBase64Strict('AAB=')).toBeNull();
  });
});
